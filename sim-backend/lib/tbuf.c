// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Text into a caller's buffer (lib/tbuf.h). */
#include "tbuf.h"

void ksim_tb_init(struct ksim_tbuf *t, char *b, size_t len)
{
	t->b = b;
	t->len = len;
	t->pos = 0;
	t->need = 0;
	if (b && len)
		b[0] = 0;
}

void ksim_tb_printf(struct ksim_tbuf *t, const char *fmt, ...)
{
	size_t room = t->len > t->pos ? t->len - t->pos : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? t->b + t->pos : NULL, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	t->need += n;
	if (!room)
		return;
	t->pos += (size_t)n < room ? (size_t)n : room - 1;
}

/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Text into a caller's buffer, for the model's text dumps (knobs, the
 * checker's report, the trace, counters): it writes what fits,
 * NUL-terminated, and counts what the whole text needs, as snprintf does.
 */
#ifndef KSIM_TBUF_H
#define KSIM_TBUF_H

#include "util.h"

struct ksim_tbuf {
	char *b;
	size_t len;
	size_t pos;		/* written, without the NUL */
	size_t need;		/* the whole text, what did not fit included */
};

void ksim_tb_init(struct ksim_tbuf *t, char *b, size_t len);
void ksim_tb_printf(struct ksim_tbuf *t, const char *fmt, ...) __printf(2, 3);

#endif /* KSIM_TBUF_H */

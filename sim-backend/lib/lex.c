// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The lexer shared by the description and command parsers (lib/lex.h):
 * nothing here knows a directive, a knob or a message's words.
 */
#include "lex.h"

static bool ksim_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
	       c == '\f';
}

/* the end of the text, a NUL or a comment ends the words */
static bool ksim_lex_end(const char *s, size_t i, size_t len)
{
	return i >= len || !s[i] || s[i] == '#';
}

unsigned int ksim_lex_split(const char *s, size_t len, struct ksim_word *w,
			    unsigned int max)
{
	unsigned int n = 0;
	size_t i = 0, b;

	for (;;) {
		while (!ksim_lex_end(s, i, len) && ksim_blank(s[i]))
			i++;
		if (ksim_lex_end(s, i, len))
			return n;
		b = i;
		while (!ksim_lex_end(s, i, len) && !ksim_blank(s[i]))
			i++;
		if (n < max) {
			w[n].s = s + b;
			w[n].n = i - b;
		}
		n++;
	}
}

int ksim_cmd_split(const char *line, size_t len, struct ksim_words *w)
{
	unsigned int n = ksim_lex_split(line, len, w->w, KSIM_CMD_WORDS);

	if (n > KSIM_CMD_WORDS) {
		w->n = KSIM_CMD_WORDS;
		return -E2BIG;
	}
	w->n = n;
	return 0;
}

bool ksim_word_is(const struct ksim_word *w, const char *lit)
{
	size_t n = strlen(lit);

	return w->n == n && !memcmp(w->s, lit, n);
}

int ksim_word_quote(const struct ksim_word *w, unsigned int cap)
{
	return (int)(w->n < cap ? w->n : cap);
}

bool ksim_word_cut(const struct ksim_word *w, char sep, struct ksim_word *head,
		   struct ksim_word *tail)
{
	struct ksim_word all = *w;
	size_t i;

	for (i = 0; i < all.n && all.s[i] != sep; i++)
		;
	head->s = all.s;
	head->n = i;
	if (i == all.n) {
		tail->s = all.s + all.n;
		tail->n = 0;
		return false;
	}
	tail->s = all.s + i + 1;
	tail->n = all.n - i - 1;
	return true;
}

bool ksim_word_num(const struct ksim_word *w, u64 max, u64 *v)
{
	unsigned int base = 10, d;
	size_t i = 0;
	u64 x = 0;

	if (w->n > 2 && w->s[0] == '0' && (w->s[1] == 'x' || w->s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i >= w->n)
		return false;
	for (; i < w->n; i++) {
		char c = w->s[i];

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return false;
		/* x * base + d > max, without overflowing */
		if (d > max || x > (max - d) / base)
			return false;
		x = x * base + d;
	}
	*v = x;
	return true;
}

bool ksim_word_kv(const struct ksim_word *w, struct ksim_word *k,
		  struct ksim_word *v)
{
	return ksim_word_cut(w, '=', k, v) && k->n;
}

bool ksim_word_xy(const struct ksim_word *w, unsigned int max, unsigned int *x,
		  unsigned int *y)
{
	struct ksim_word a, b;
	u64 vx, vy;

	if (!ksim_word_cut(w, ',', &a, &b) || !ksim_word_num(&a, max, &vx) ||
	    !ksim_word_num(&b, max, &vy))
		return false;
	*x = (unsigned int)vx;
	*y = (unsigned int)vy;
	return true;
}

/* a byte a terminal shows as itself */
static bool ksim_printable(unsigned char c)
{
	return c >= 0x20 && c < 0x7f;
}

/*
 * Messages quote the input's words; a byte that is not printable ASCII
 * (an escape sequence, a C1 control, a stray UTF-8 byte) is written as
 * \xHH, so a message never drives the terminal it is printed on.
 */
static void ksim_escape(char *err, size_t errlen)
{
	size_t i, n = strlen(err), extra = 0, o;
	char *tmp;

	for (i = 0; i < n; i++)
		if (!ksim_printable(err[i]))
			extra += 3;
	if (!extra)
		return;
	tmp = ksim_plat_zalloc(n + 1);
	if (!tmp) {
		for (i = 0; i < n; i++)
			if (!ksim_printable(err[i]))
				err[i] = '?';
		return;
	}
	memcpy(tmp, err, n + 1);
	for (i = 0, o = 0; i < n && o + 1 < errlen; i++) {
		unsigned char c = tmp[i];

		if (ksim_printable(c)) {
			err[o++] = c;
		} else if (o + 4 < errlen) {
			snprintf(err + o, 5, "\\x%02x", c);
			o += 4;
		} else {
			break;
		}
	}
	err[o] = '\0';
	ksim_plat_free(tmp);
}

int ksim_refuse(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
		ksim_escape(err, errlen);
	}
	return -EINVAL;
}

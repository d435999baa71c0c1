// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * JSON text out as strict UTF-8: what json-c printed, with every byte that
 * is not valid UTF-8 (and DEL and the C1 controls) escaped.  The kohaku
 * CLI's --json (output.c) and kh-trace (tools/kh_trace.c) both write
 * through it; it needs nothing but stdio.
 */
#include <stdio.h>

#include "json_put.h"

/*
 * The length of the valid UTF-8 sequence s starts with (RFC 3629: no
 * overlong form, no surrogate, nothing past U+10FFFF); 0 when it starts
 * none.  s is NUL-terminated: a NUL fails the byte after a lead, so no
 * read passes it.
 */
static size_t cli_utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		if (s[0] == 0xe0)
			lo = 0xa0;	/* overlong */
		else if (s[0] == 0xed)
			hi = 0x9f;	/* a surrogate */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		if (s[0] == 0xf0)
			lo = 0x90;	/* overlong */
		else if (s[0] == 0xf4)
			hi = 0x8f;	/* past U+10FFFF */
	} else {
		return 0;
	}
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

/*
 * json-c escapes the controls below 0x20 but copies every other byte of a
 * string as it is, so a non-UTF-8 argument echoed in a message (--map
 * $'sa\xffxpy') made JSON that a strict decoder refuses (RFC 8259: JSON
 * text is UTF-8).  Outside strings json-c writes ASCII only, so every byte
 * from 0x7f up is inside a string, where an escape is valid:
 *  - a byte that starts no valid UTF-8 sequence is written \u00XX, XX its
 *    value: the byte read as Latin-1 (U+0080..U+00FF), so what it was can
 *    still be told (not U+FFFD, which would lose it);
 *  - DEL and the C1 controls (U+0080..U+009F, valid as C2 80..C2 9F) are
 *    escaped too, as \u007f..\u009f, so that none reaches a terminal raw;
 *  - any other valid sequence is copied.
 * docs/runtime.md "The kohaku CLI" states the rule; kh-trace writes its
 * timeline through it too.
 */
void cli_json_put(const char *js, FILE *f)
{
	const unsigned char *s = (const unsigned char *)js;

	while (*s) {
		size_t len = cli_utf8_len(s);

		if (len == 1 && *s != 0x7f) {
			putc(*s, f);
		} else if (len == 2 && s[0] == 0xc2 && s[1] < 0xa0) {
			fprintf(f, "\\u%04x", s[1]);
		} else if (len > 1) {
			fwrite(s, 1, len, f);
		} else {
			fprintf(f, "\\u%04x", *s);
			len = 1;
		}
		s += len;
	}
}


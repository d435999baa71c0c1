// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A small strict JSON reader (json.h): RFC 8259 to the letter, with
 * numbers kept as text so that integers of any size survive (compiler
 * artifacts carry 256-bit payloads; json-c and jansson hold int64 only).
 * Recursive descent, depth-limited; every refusal names the line and
 * column where the text stopped being JSON.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

struct kh_rt_jp {
	const char *s;
	size_t len, pos;
	unsigned int flags;
	unsigned int depth;
	size_t values;
	int err;
	char *errbuf;
	size_t errlen;
};

KH_RT_HIDDEN void kh_rt_json_where(const char *text, size_t len, size_t off,
				   unsigned long *line, unsigned long *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off && i < len; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

__attribute__((format(printf, 4, 5)))
static int jp_fail(struct kh_rt_jp *p, size_t at, int err, const char *fmt, ...)
{
	char msg[256];
	unsigned long line, col;
	va_list ap;

	if (p->err)
		return p->err;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	kh_rt_json_where(p->s, p->len, at, &line, &col);
	kh_rt_errbuf(p->errbuf, p->errlen, "line %lu, column %lu: %s", line,
		     col, msg);
	p->err = err;
	return err;
}

KH_RT_HIDDEN const char *kh_rt_json_printable(const struct kh_rt_json *s,
					      char *buf, size_t len)
{
	size_t i, n;

	if (!len)
		return "";
	n = s && s->str ? s->len : 0;
	if (n > len - 1)
		n = len - 1;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s->str[i];

		buf[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	buf[n] = '\0';
	return buf;
}

KH_RT_HIDDEN const char *kh_rt_json_type_name(enum kh_rt_json_type t)
{
	switch (t) {
	case KH_JSON_NULL:
		return "null";
	case KH_JSON_FALSE:
	case KH_JSON_TRUE:
		return "a boolean";
	case KH_JSON_NUMBER:
		return "a number";
	case KH_JSON_STRING:
		return "a string";
	case KH_JSON_ARRAY:
		return "an array";
	case KH_JSON_OBJECT:
		return "an object";
	}
	return "?";
}

static void jp_ws(struct kh_rt_jp *p)
{
	while (p->pos < p->len) {
		char c = p->s[p->pos];

		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			return;
		p->pos++;
	}
}

static struct kh_rt_json *jp_new(struct kh_rt_jp *p, enum kh_rt_json_type t)
{
	struct kh_rt_json *v;

	if (++p->values > KH_JSON_MAX_VALUES) {
		jp_fail(p, p->pos, -E2BIG, "more than %u values",
			KH_JSON_MAX_VALUES);
		return NULL;
	}
	v = calloc(1, sizeof(*v));
	if (!v) {
		jp_fail(p, p->pos, -ENOMEM, "out of memory");
		return NULL;
	}
	v->type = t;
	v->off = p->pos;
	return v;
}

KH_RT_HIDDEN void kh_rt_json_free(struct kh_rt_json *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->n; i++) {
		if (v->items)
			kh_rt_json_free(v->items[i]);
		if (v->keys)
			kh_rt_json_free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	free(v);
}

static struct kh_rt_json *jp_value(struct kh_rt_jp *p);

/* one UTF-8 sequence at s[i..], well-formed: its length, or 0 */
static size_t utf8_len(const unsigned char *s, size_t avail)
{
	unsigned char c = s[0];
	size_t n, k;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		cp = c & 0x07;
	} else {
		return 0;	/* a continuation byte, C0/C1, F5..FF */
	}
	if (avail < n)
		return 0;
	for (k = 1; k < n; k++) {
		if ((s[k] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[k] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

static int hex4(const char *s, uint32_t *out)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		char c = s[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (uint32_t)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static size_t put_utf8(char *o, uint32_t cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* a string at p->pos (the opening quote): decoded (never longer than the text) */
static struct kh_rt_json *jp_string(struct kh_rt_jp *p)
{
	struct kh_rt_json *v = jp_new(p, KH_JSON_STRING);
	size_t start = p->pos, o = 0, end;
	char *buf;

	if (!v)
		return NULL;
	/* find the closing quote first: the decoded text is never longer */
	for (end = start + 1; end < p->len && p->s[end] != '"'; end++)
		if (p->s[end] == '\\')
			end++;
	if (end >= p->len) {
		jp_fail(p, start, -EINVAL, "a string that never ends");
		kh_rt_json_free(v);
		return NULL;
	}
	buf = malloc(end - start);
	if (!buf) {
		jp_fail(p, start, -ENOMEM, "out of memory");
		kh_rt_json_free(v);
		return NULL;
	}
	v->str = buf;
	p->pos = start + 1;
	while (p->pos < end) {
		unsigned char c = (unsigned char)p->s[p->pos];
		uint32_t cp, lo;
		size_t n;

		if (c < 0x20) {
			jp_fail(p, p->pos, -EINVAL, "a control character (0x%02x) "
				"in a string: write it as an escape", c);
			goto bad;
		}
		if (c != '\\') {
			n = utf8_len((const unsigned char *)p->s + p->pos,
				     end - p->pos);
			if (!n) {
				jp_fail(p, p->pos, -EINVAL, "not UTF-8 (byte 0x%02x)",
					c);
				goto bad;
			}
			memcpy(buf + o, p->s + p->pos, n);
			o += n;
			p->pos += n;
			continue;
		}
		c = (unsigned char)p->s[p->pos + 1];
		switch (c) {
		case '"': case '\\': case '/':
			buf[o++] = (char)c;
			p->pos += 2;
			continue;
		case 'b':
			buf[o++] = '\b';
			p->pos += 2;
			continue;
		case 'f':
			buf[o++] = '\f';
			p->pos += 2;
			continue;
		case 'n':
			buf[o++] = '\n';
			p->pos += 2;
			continue;
		case 'r':
			buf[o++] = '\r';
			p->pos += 2;
			continue;
		case 't':
			buf[o++] = '\t';
			p->pos += 2;
			continue;
		case 'u':
			break;
		default:
			jp_fail(p, p->pos, -EINVAL, "'\\%c' is not a JSON escape",
				c >= 0x20 && c < 0x7f ? c : '?');
			goto bad;
		}
		if (end - p->pos < 6 || hex4(p->s + p->pos + 2, &cp)) {
			jp_fail(p, p->pos, -EINVAL, "\\u needs four hex digits");
			goto bad;
		}
		if (cp >= 0xdc00 && cp <= 0xdfff) {
			jp_fail(p, p->pos, -EINVAL, "\\u%04x: a low surrogate "
				"without a high one before it", cp);
			goto bad;
		}
		if (cp >= 0xd800 && cp <= 0xdbff) {
			if (end - p->pos < 12 || p->s[p->pos + 6] != '\\' ||
			    p->s[p->pos + 7] != 'u' ||
			    hex4(p->s + p->pos + 8, &lo) ||
			    lo < 0xdc00 || lo > 0xdfff) {
				jp_fail(p, p->pos, -EINVAL, "\\u%04x: a high "
					"surrogate not followed by a low one", cp);
				goto bad;
			}
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			p->pos += 6;
		}
		/* 6 or 12 bytes of text make at most 4 */
		o += put_utf8(buf + o, cp);
		p->pos += 6;
	}
	buf[o] = '\0';
	v->len = o;
	p->pos = end + 1;
	return v;
bad:
	kh_rt_json_free(v);
	return NULL;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static struct kh_rt_json *jp_number(struct kh_rt_jp *p)
{
	struct kh_rt_json *v;
	size_t start = p->pos, i = p->pos;
	bool neg = false, is_int = true;

	if (i < p->len && p->s[i] == '-') {
		neg = true;
		i++;
	}
	if (i >= p->len || !is_digit(p->s[i]))
		return jp_fail(p, i, -EINVAL, "a '-' without digits"), NULL;
	if (p->s[i] == '0') {
		i++;
		if (i < p->len && is_digit(p->s[i]))
			return jp_fail(p, start, -EINVAL, "a number with a "
				       "leading zero"), NULL;
	} else {
		while (i < p->len && is_digit(p->s[i]))
			i++;
	}
	if (i < p->len && p->s[i] == '.') {
		is_int = false;
		i++;
		if (i >= p->len || !is_digit(p->s[i]))
			return jp_fail(p, i, -EINVAL, "a '.' without digits "
				       "after it"), NULL;
		while (i < p->len && is_digit(p->s[i]))
			i++;
	}
	if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E')) {
		is_int = false;
		i++;
		if (i < p->len && (p->s[i] == '+' || p->s[i] == '-'))
			i++;
		if (i >= p->len || !is_digit(p->s[i]))
			return jp_fail(p, i, -EINVAL, "an exponent without "
				       "digits"), NULL;
		while (i < p->len && is_digit(p->s[i]))
			i++;
	}
	v = jp_new(p, KH_JSON_NUMBER);
	if (!v)
		return NULL;
	v->num = p->s + start;
	v->num_len = i - start;
	v->is_int = is_int;
	v->neg = neg;
	p->pos = i;
	return v;
}

/* append item (and key) to a container, growing it by doubling */
static int jp_push(struct kh_rt_jp *p, struct kh_rt_json *c, size_t *cap,
		   struct kh_rt_json *item, struct kh_rt_json *key)
{
	if (c->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 4;
		struct kh_rt_json **ni, **nk;

		ni = realloc(c->items, ncap * sizeof(*ni));
		if (!ni)
			return jp_fail(p, p->pos, -ENOMEM, "out of memory");
		c->items = ni;
		if (c->type == KH_JSON_OBJECT) {
			nk = realloc(c->keys, ncap * sizeof(*nk));
			if (!nk)
				return jp_fail(p, p->pos, -ENOMEM, "out of memory");
			c->keys = nk;
		}
		*cap = ncap;
	}
	c->items[c->n] = item;
	if (key)
		c->keys[c->n] = key;
	c->n++;
	return 0;
}

static bool key_eq(const struct kh_rt_json *a, const struct kh_rt_json *b)
{
	return a->len == b->len && !memcmp(a->str, b->str, a->len);
}

static struct kh_rt_json *jp_container(struct kh_rt_jp *p, bool object)
{
	struct kh_rt_json *c, *key = NULL, *item;
	size_t cap = 0, open = p->pos, i;
	char close = object ? '}' : ']';

	if (p->depth >= KH_JSON_MAX_DEPTH)
		return jp_fail(p, p->pos, -EINVAL, "nested more than %u deep",
			       KH_JSON_MAX_DEPTH), NULL;
	c = jp_new(p, object ? KH_JSON_OBJECT : KH_JSON_ARRAY);
	if (!c)
		return NULL;
	p->depth++;
	p->pos++;
	jp_ws(p);
	if (p->pos < p->len && p->s[p->pos] == close) {
		p->pos++;
		p->depth--;
		return c;
	}
	for (;;) {
		jp_ws(p);
		if (object) {
			if (p->pos >= p->len || p->s[p->pos] != '"') {
				jp_fail(p, p->pos, -EINVAL, p->pos < p->len &&
					p->s[p->pos] == '}' ? "a trailing comma "
					"in an object" : "an object member must "
					"start with a string key");
				goto bad;
			}
			key = jp_string(p);
			if (!key)
				goto bad;
			if ((p->flags & KH_JSON_NO_DUP_TOP) && p->depth == 1)
				for (i = 0; i < c->n; i++)
					if (key_eq(c->keys[i], key)) {
						char kb[41];

						jp_fail(p, key->off, -EINVAL,
							"the key \"%s\" is "
							"given twice",
							kh_rt_json_printable(key, kb,
									     sizeof(kb)));
						goto bad;
					}
			jp_ws(p);
			if (p->pos >= p->len || p->s[p->pos] != ':') {
				jp_fail(p, p->pos, -EINVAL, "expected ':' after "
					"an object key");
				goto bad;
			}
			p->pos++;
			jp_ws(p);
		} else if (p->pos < p->len && p->s[p->pos] == ']') {
			jp_fail(p, p->pos, -EINVAL, "a trailing comma in an array");
			goto bad;
		}
		item = jp_value(p);
		if (!item)
			goto bad;
		if (jp_push(p, c, &cap, item, key)) {
			kh_rt_json_free(item);
			goto bad;
		}
		key = NULL;
		jp_ws(p);
		if (p->pos < p->len && p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->pos < p->len && p->s[p->pos] == close) {
			p->pos++;
			break;
		}
		jp_fail(p, p->pos, -EINVAL, p->pos >= p->len ?
			"the text ends inside %s opened at offset %zu" :
			"expected ',' or the end of %s (opened at offset %zu)",
			object ? "an object" : "an array", open);
		goto bad;
	}
	p->depth--;
	return c;
bad:
	kh_rt_json_free(key);
	kh_rt_json_free(c);
	return NULL;
}

static bool jp_word(struct kh_rt_jp *p, const char *w)
{
	size_t n = strlen(w);

	return p->len - p->pos >= n && !memcmp(p->s + p->pos, w, n);
}

static struct kh_rt_json *jp_value(struct kh_rt_jp *p)
{
	struct kh_rt_json *v;
	char c;

	jp_ws(p);
	if (p->pos >= p->len)
		return jp_fail(p, p->pos, -EINVAL, "the text ends where a "
			       "value should be"), NULL;
	c = p->s[p->pos];
	if (c == '{' || c == '[')
		return jp_container(p, c == '{');
	if (c == '"')
		return jp_string(p);
	if (c == '-' || is_digit(c))
		return jp_number(p);
	if (jp_word(p, "null") || jp_word(p, "true") || jp_word(p, "false")) {
		v = jp_new(p, c == 'n' ? KH_JSON_NULL : c == 't' ? KH_JSON_TRUE :
			   KH_JSON_FALSE);
		if (v)
			p->pos += c == 'f' ? 5 : 4;
		return v;
	}
	if (jp_word(p, "NaN") || jp_word(p, "Infinity") || jp_word(p, "-Infinity"))
		return jp_fail(p, p->pos, -EINVAL, "NaN and Infinity are not "
			       "JSON"), NULL;
	if (c == '+')
		return jp_fail(p, p->pos, -EINVAL, "a number with a '+' sign"),
		       NULL;
	return jp_fail(p, p->pos, -EINVAL, "expected a value, found %s",
		       c >= 0x20 && c < 0x7f ? "this character" :
		       "a byte that starts none"), NULL;
}

KH_RT_HIDDEN int kh_rt_json_parse(const char *text, size_t len,
				  unsigned int flags, struct kh_rt_json **out,
				  char *err, size_t errlen)
{
	struct kh_rt_jp p = {
		.s = text, .len = len, .flags = flags,
		.errbuf = err, .errlen = errlen,
	};
	struct kh_rt_json *v;

	kh_rt_errbuf(err, errlen, "%s", "");
	*out = NULL;
	if (len > KH_JSON_MAX_BYTES) {
		kh_rt_errbuf(err, errlen, "%zu bytes of text: at most %u", len,
			     KH_JSON_MAX_BYTES);
		return -E2BIG;
	}
	if (!text && len)
		return -EINVAL;
	v = jp_value(&p);
	if (!v)
		return p.err ? p.err : -EINVAL;
	jp_ws(&p);
	if (p.pos != len) {
		jp_fail(&p, p.pos, -EINVAL, "more text after the value");
		kh_rt_json_free(v);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

KH_RT_HIDDEN const struct kh_rt_json *kh_rt_json_get(const struct kh_rt_json *obj,
						     const char *key)
{
	size_t i, n = strlen(key);

	if (!obj || obj->type != KH_JSON_OBJECT)
		return NULL;
	for (i = obj->n; i-- > 0;)
		if (obj->keys[i]->len == n && !memcmp(obj->keys[i]->str, key, n))
			return obj->items[i];
	return NULL;
}

KH_RT_HIDDEN int kh_rt_json_uint(const struct kh_rt_json *v, unsigned int bits,
				 uint64_t *w)
{
	unsigned int nw = bits / 64, k;
	size_t i;

	if (!v || v->type != KH_JSON_NUMBER || !v->is_int)
		return -EINVAL;
	if (v->neg) {
		/* -0 is 0 */
		if (v->num_len == 2 && v->num[1] == '0') {
			memset(w, 0, nw * sizeof(*w));
			return 0;
		}
		return -EDOM;
	}
	memset(w, 0, nw * sizeof(*w));
	/* 2^320 has 97 digits: anything longer is too large, however it reads */
	if (v->num_len > 100)
		return -ERANGE;
	for (i = 0; i < v->num_len; i++) {
		uint64_t carry = (uint64_t)(v->num[i] - '0');

		for (k = 0; k < nw; k++) {
			unsigned __int128 t = (unsigned __int128)w[k] * 10 + carry;

			w[k] = (uint64_t)t;
			carry = (uint64_t)(t >> 64);
		}
		if (carry)
			return -ERANGE;
	}
	return 0;
}

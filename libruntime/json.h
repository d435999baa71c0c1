/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * libkohaku's own JSON reader (json.c), internal: what compiler artifacts
 * need (docs/spec/artifact.md "The JSON parser").  Their payloads are
 * integers up to 2^256-1, which json-c and jansson cannot hold (their
 * integers are int64; json-c turns a larger one into INT64_MAX or a
 * double), so numbers are kept here as their text and converted on
 * demand: kh_rt_json_uint() to up to 256 bits, exactly, or a refusal.
 *
 * Strict RFC 8259: one value and whitespace around it; no trailing comma,
 * comment, NaN/Infinity, leading zero or '+'; only the RFC's escapes,
 * \u surrogates in pairs; well-formed UTF-8 (no overlong form, no
 * surrogate, nothing past U+10FFFF); no control character in a string.
 * At most KH_JSON_MAX_DEPTH nested arrays and objects, KH_JSON_MAX_BYTES
 * of text, KH_JSON_MAX_VALUES values.  A key given twice in the top-level
 * object is refused (KH_JSON_NO_DUP_TOP), anywhere else kept as given.
 *
 * Named json.h after the brief; it is included as "json.h" from
 * libruntime/ only (quotes find it next to the includer), never as
 * <json.h>, which is json-c's for the CLI.
 */
#ifndef KOHAKU_RT_JSON_H
#define KOHAKU_RT_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rt_internal.h"

#define KH_JSON_MAX_DEPTH	64
#define KH_JSON_MAX_BYTES	(16u << 20)
#define KH_JSON_MAX_VALUES	(1u << 21)

/* kh_rt_json_parse() flags */
#define KH_JSON_NO_DUP_TOP	(1u << 0)	/* refuse a key twice in the top-level object */

enum kh_rt_json_type {
	KH_JSON_NULL,
	KH_JSON_FALSE,
	KH_JSON_TRUE,
	KH_JSON_NUMBER,
	KH_JSON_STRING,
	KH_JSON_ARRAY,
	KH_JSON_OBJECT,
};

struct kh_rt_json {
	enum kh_rt_json_type type;
	size_t off;		/* its first byte in the text */
	/* NUMBER: the text (not NUL-terminated); an integer: no '.', no 'e' */
	const char *num;
	size_t num_len;
	bool is_int, neg;
	/* STRING: decoded UTF-8, NUL-terminated (len excludes it; may hold NULs) */
	char *str;
	size_t len;
	/* ARRAY and OBJECT: n items; OBJECT: keys[i] names items[i] */
	size_t n;
	struct kh_rt_json **items;
	struct kh_rt_json **keys;	/* STRING values */
};

/*
 * Parse len bytes of text (the text must outlive the tree: numbers point
 * into it).  0 with *out; -EINVAL with err "line L, column C: why";
 * -ENOMEM; -E2BIG for text over KH_JSON_MAX_BYTES or more values than
 * KH_JSON_MAX_VALUES (err says which).
 */
KH_RT_HIDDEN int kh_rt_json_parse(const char *text, size_t len,
				  unsigned int flags, struct kh_rt_json **out,
				  char *err, size_t errlen);
KH_RT_HIDDEN void kh_rt_json_free(struct kh_rt_json *v);
/* The member key of an object (the last one of that name), or NULL. */
KH_RT_HIDDEN const struct kh_rt_json *kh_rt_json_get(const struct kh_rt_json *obj,
						     const char *key);
/*
 * An integer NUMBER as an unsigned integer of bits (64..256, a multiple
 * of 64) in w[0..bits/64), least significant word first.  0; -EINVAL not
 * an integer (a fraction or an exponent: "1.0" and "1e3" are not
 * integers here), -EDOM negative, -ERANGE at or above 2^bits.
 */
KH_RT_HIDDEN int kh_rt_json_uint(const struct kh_rt_json *v, unsigned int bits,
				 uint64_t *w);
/* Line and column (from 1; columns in bytes) of offset off in text. */
KH_RT_HIDDEN void kh_rt_json_where(const char *text, size_t len, size_t off,
				   unsigned long *line, unsigned long *col);
/*
 * A string's first bytes for a message, printable ASCII only (others as
 * '?'), so that no byte of the input reaches a message raw: into buf.
 */
KH_RT_HIDDEN const char *kh_rt_json_printable(const struct kh_rt_json *s,
					      char *buf, size_t len);
/* "null", "true", "a number", "a string", "an array", "an object" */
KH_RT_HIDDEN const char *kh_rt_json_type_name(enum kh_rt_json_type t);

#endif /* KOHAKU_RT_JSON_H */

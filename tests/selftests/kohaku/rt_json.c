// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libkohaku's JSON reader (libruntime/json.c) from inside: big integers
 * exactly, escapes and UTF-8, the depth and size limits, and RFC 8259's
 * refusals with the line and column.  The library alone, no device; the
 * project's static build only (hidden symbols: RT_TEST_INTERNAL).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rt_test.h"
#include "json.h"

static struct kh_rt_json *parse(const char *t, int want, char *err)
{
	struct kh_rt_json *v = NULL;
	int r = kh_rt_json_parse(t, strlen(t), 0, &v, err, KOHAKU_ERRMSG_MAX);

	CHECK_MSG(r == want, "'%s': %d (%s), expected %d", t, r, err, want);
	return v;
}

TEST_F(rt, json_big_integers)
{
	char err[KOHAKU_ERRMSG_MAX];
	struct kh_rt_json *v;
	uint64_t w[4];

	v = parse("115792089237316195423570985008687907853269984665640564039457584007913129639935",
		  0, err);
	REQUIRE(v && v->type == KH_JSON_NUMBER && v->is_int);
	CHECK_EQ(kh_rt_json_uint(v, 256, w), 0);
	CHECK(w[0] == ~0ULL && w[1] == ~0ULL && w[2] == ~0ULL && w[3] == ~0ULL);
	CHECK_EQ(kh_rt_json_uint(v, 64, w), -ERANGE);
	kh_rt_json_free(v);
	/* 2^256 */
	v = parse("115792089237316195423570985008687907853269984665640564039457584007913129639936",
		  0, err);
	CHECK_EQ(kh_rt_json_uint(v, 256, w), -ERANGE);
	kh_rt_json_free(v);
	/* 2^192 + 5: w[3] = 1 */
	v = parse("6277101735386680763835789423207666416102355444464034512901", 0, err);
	CHECK_EQ(kh_rt_json_uint(v, 256, w), 0);
	CHECK(w[0] == 5 && w[1] == 0 && w[2] == 0 && w[3] == 1);
	kh_rt_json_free(v);
	v = parse("18446744073709551615", 0, err);
	CHECK_EQ(kh_rt_json_uint(v, 64, w), 0);
	CHECK(w[0] == ~0ULL);
	kh_rt_json_free(v);
	v = parse("18446744073709551616", 0, err);
	CHECK_EQ(kh_rt_json_uint(v, 64, w), -ERANGE);
	kh_rt_json_free(v);
	v = parse("-0", 0, err);
	CHECK_EQ(kh_rt_json_uint(v, 64, w), 0);
	CHECK(w[0] == 0);
	kh_rt_json_free(v);
	v = parse("-7", 0, err);
	CHECK_EQ(kh_rt_json_uint(v, 64, w), -EDOM);
	kh_rt_json_free(v);
	v = parse("7.0", 0, err);
	CHECK_EQ(kh_rt_json_uint(v, 64, w), -EINVAL);
	kh_rt_json_free(v);
	v = parse("7e0", 0, err);
	CHECK_EQ(kh_rt_json_uint(v, 64, w), -EINVAL);
	kh_rt_json_free(v);
	v = parse("\"7\"", 0, err);
	CHECK_EQ(kh_rt_json_uint(v, 64, w), -EINVAL);
	kh_rt_json_free(v);
}

TEST_F(rt, json_strings_and_structure)
{
	char err[KOHAKU_ERRMSG_MAX], pb[8];
	struct kh_rt_json *v;
	const struct kh_rt_json *m;

	v = parse(" { \"a\" : [ 1 , -2.5e-3 , true , false , null , { } , [ ] ] ,"
		  " \"s\" : \"q\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\\u0000z\" ,"
		  " \"a\" : 3 } \r\n\t", 0, err);
	REQUIRE(v && v->type == KH_JSON_OBJECT && v->n == 3);
	m = kh_rt_json_get(v, "a");	/* the last of a name */
	REQUIRE(m && m->type == KH_JSON_NUMBER);
	CHECK(m->num_len == 1 && m->num[0] == '3');
	m = v->items[0];
	CHECK(m->type == KH_JSON_ARRAY && m->n == 7);
	CHECK(m->items[1]->type == KH_JSON_NUMBER && !m->items[1]->is_int &&
	      m->items[1]->neg);
	CHECK(m->items[2]->type == KH_JSON_TRUE && m->items[4]->type == KH_JSON_NULL);
	m = kh_rt_json_get(v, "s");
	REQUIRE(m && m->type == KH_JSON_STRING);
	CHECK_EQ(m->len, 17);
	CHECK(!memcmp(m->str, "q\"\\/\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80\0z", 17));
	CHECK(!strcmp(kh_rt_json_printable(m, pb, sizeof(pb)), "q\"\\/???"));
	kh_rt_json_free(v);
	/* raw UTF-8 passes through */
	v = parse("\"\xe2\x82\xac \xf4\x8f\xbf\xbf\"", 0, err);
	REQUIRE(v);
	CHECK_EQ(v->len, 8);
	kh_rt_json_free(v);
}

static const struct {
	const char *text;
	const char *says;
} bad[] = {
	{ "", "line 1, column 1: the text ends" },
	{ "  ", "the text ends" },
	{ "[1,]", "trailing comma in an array" },
	{ "{\"a\":1,}", "trailing comma in an object" },
	{ "[1 2]", "expected ','" },
	{ "{\"a\" 1}", "expected ':'" },
	{ "{1:2}", "string key" },
	{ "[01]", "leading zero" },
	{ "[-]", "'-' without digits" },
	{ "[1.]", "'.' without digits" },
	{ "[1e]", "exponent without digits" },
	{ "[+1]", "'+' sign" },
	{ "[NaN]", "NaN and Infinity" },
	{ "[-Infinity]", "'-' without digits" },
	{ "[Infinity]", "NaN and Infinity" },
	{ "[nul]", "expected a value" },
	{ "[True]", "expected a value" },
	{ "\"a\\x\"", "not a JSON escape" },
	{ "\"\\u12g4\"", "four hex digits" },
	{ "\"\\udc00\"", "low surrogate" },
	{ "\"\\ud800x\"", "high surrogate" },
	{ "\"\\ud800\\u0041\"", "high surrogate" },
	{ "\"a\nb\"", "control character" },
	{ "\"\xc0\x80\"", "not UTF-8" },
	{ "\"\xe0\x80\x80\"", "not UTF-8" },
	{ "\"\xed\xa0\x80\"", "not UTF-8" },
	{ "\"\xf4\x90\x80\x80\"", "not UTF-8" },
	{ "\"\x80\"", "not UTF-8" },
	{ "\"\xe2\x82\"", "not UTF-8" },
	{ "\"abc", "never ends" },
	{ "[1] [2]", "more text after" },
	{ "[1]\n x", "line 2, column 2: more text after" },
	{ "/* c */ 1", "expected a value" },
	{ "[1,\n2,\n]", "line 3, column 1: a trailing comma" },
};

TEST_F(rt, json_refusals)
{
	char err[KOHAKU_ERRMSG_MAX], deep[200];
	struct kh_rt_json *v;
	unsigned int i;
	int r;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = parse(bad[i].text, -EINVAL, err);
		CHECK(v == NULL);
		CHECK_MSG(strstr(err, bad[i].says) != NULL, "case %u: '%s' does "
			  "not say '%s'", i, err, bad[i].says);
	}
	/* depth: 64 arrays are fine, 65 are not */
	memset(deep, '[', 64);
	memset(deep + 64, ']', 64);
	deep[128] = '\0';
	v = parse(deep, 0, err);
	kh_rt_json_free(v);
	memset(deep, '[', 65);
	memset(deep + 65, ']', 65);
	deep[130] = '\0';
	v = parse(deep, -EINVAL, err);
	CHECK(strstr(err, "nested more than 64 deep") != NULL);
	/* size */
	r = kh_rt_json_parse("1", KH_JSON_MAX_BYTES + 1u, 0, &v, err, sizeof(err));
	CHECK_EQ(r, -E2BIG);
	CHECK(v == NULL);
	/* a key twice: refused at the top level with the flag, kept elsewhere */
	r = kh_rt_json_parse("{\"k\":1,\"k\":2}", 13, KH_JSON_NO_DUP_TOP, &v, err,
			     sizeof(err));
	CHECK_EQ(r, -EINVAL);
	CHECK(strstr(err, "the key \"k\" is given twice") != NULL);
	r = kh_rt_json_parse("{\"o\":{\"k\":1,\"k\":2}}", 19, KH_JSON_NO_DUP_TOP,
			     &v, err, sizeof(err));
	CHECK_EQ(r, 0);
	kh_rt_json_free(v);
}

RT_TEST_MAIN_NO_DEVICE

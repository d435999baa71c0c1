/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The model's one lexer, shared by the card-description parser
 * (card/desc.c) and the command parsers (obs/command.c and the inject,
 * check and trace commands): words split on blanks, `#` comments,
 * key=value, X,Y pairs, and numbers in decimal or 0x hex.
 *
 * Both parsers accept exactly the same words and numbers, as they did
 * when each had its own copy: the same blanks and comments (a description
 * is cut into lines first, so it never sees a newline), and numbers as
 * decimal digits, or 0x/0X and at least one hex digit, with no sign; a
 * value past the caller's limit (at most 2^64 - 1) is refused, never
 * wrapped.  They still differ, on purpose, in what a long line does (a
 * description says how many tokens a row has, a command refuses more than
 * KSIM_CMD_WORDS words) and in how much of a word their messages quote
 * (KSIM_DESC_QUOTE, KSIM_CMD_QUOTE).
 */
#ifndef KSIM_LEX_H
#define KSIM_LEX_H

#include "util.h"

/* a word: n characters at s, in the caller's text (not NUL-terminated) */
struct ksim_word {
	const char *s;
	size_t n;
};

/*
 * Split [s, s + len) into words separated by blanks (space, \t, \r, \n,
 * \v, \f), up to the end, a NUL or a `#` (the rest is a comment).  Stores
 * the first max words in w[] and returns how many there are, all counted.
 */
unsigned int ksim_lex_split(const char *s, size_t len, struct ksim_word *w,
			    unsigned int max);

bool ksim_word_is(const struct ksim_word *w, const char *lit);

/* The length to quote in a message ("%.*s"): at most cap characters. */
int ksim_word_quote(const struct ksim_word *w, unsigned int cap);
#define KSIM_DESC_QUOTE	32	/* description messages */
#define KSIM_CMD_QUOTE	40	/* command messages */

static inline int ksim_cmd_quote(const struct ksim_word *w)
{
	return ksim_word_quote(w, KSIM_CMD_QUOTE);
}

/*
 * Cut w at its first sep: head before it, tail after it, true.  Without
 * one, head is all of w, tail is empty and the result false.  head or tail
 * may be w itself.
 */
bool ksim_word_cut(const struct ksim_word *w, char sep, struct ksim_word *head,
		   struct ksim_word *tail);

/* A number (the syntax above) no larger than max. */
bool ksim_word_num(const struct ksim_word *w, u64 max, u64 *v);

static inline bool ksim_word_u64(const struct ksim_word *w, u64 *v)
{
	return ksim_word_num(w, ~0ULL, v);
}

/* "key=value" -> key, value; false without an '=' or with an empty key */
bool ksim_word_kv(const struct ksim_word *w, struct ksim_word *k,
		  struct ksim_word *v);
/* "X,Y", each a number no larger than max */
bool ksim_word_xy(const struct ksim_word *w, unsigned int max, unsigned int *x,
		  unsigned int *y);

/*
 * A refusal, in the one form both parsers use: the message into err when
 * the caller gave a buffer (truncated to fit), and -EINVAL.
 */
int ksim_refuse(char *err, size_t errlen, const char *fmt, ...) __printf(3, 4);

/* A command line: its words, at most KSIM_CMD_WORDS of them. */
#define KSIM_CMD_WORDS	16
struct ksim_words {
	unsigned int n;
	struct ksim_word w[KSIM_CMD_WORDS];
};

/* ksim_lex_split() into w; -E2BIG when there are more words than fit. */
int ksim_cmd_split(const char *line, size_t len, struct ksim_words *w);

#endif /* KSIM_LEX_H */

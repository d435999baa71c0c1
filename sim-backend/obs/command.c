// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The observers' commands (docs/spec/fault-injection.md): one line, split
 * into words by the shared lexer and handed by its first word to the
 * inject, check or trace parser.  Lines come from a host
 * (ksim_command(), ksim_inject()) or from a card description, whose
 * inject/check/trace lines are applied once the card is built.
 */
#include "obs.h"
#include "card.h"
#include "checker.h"
#include "desc.h"
#include "inject.h"
#include "lex.h"
#include "trace.h"

static int ksim_command_words(struct ksim_obs *o, const struct ksim_words *w,
			      char *err, size_t errlen)
{
	const struct ksim_word *v = &w->w[0];

	if (err && errlen)
		err[0] = 0;
	if (!w->n)
		return ksim_refuse(err, errlen, "empty command (inject, check or trace)");
	if (ksim_word_is(v, "inject"))
		return ksim_inject_command(o, w, 1, err, errlen);
	if (ksim_word_is(v, "check"))
		return ksim_check_command(o, w, 1, err, errlen);
	if (ksim_word_is(v, "trace"))
		return ksim_trace_command(o, w, 1, err, errlen);
	return ksim_refuse(err, errlen, "unknown command '%.*s' (inject, check or trace)",
			   ksim_cmd_quote(v), v->s);
}

static int ksim_command_line(struct ksim_obs *o, const char *line, size_t len,
			     char *err, size_t errlen)
{
	struct ksim_words w;

	if (ksim_cmd_split(line, len, &w))
		return ksim_refuse(err, errlen, "too many words (at most %u)",
				   KSIM_CMD_WORDS);
	return ksim_command_words(o, &w, err, errlen);
}

int ksim_command_lines(struct ksim_obs *o, const struct ksim_desc *d,
		       char *err, size_t errlen)
{
	unsigned int i;
	int e;

	for (i = 0; i < d->n_obs; i++) {
		e = ksim_command_line(o, d->obs[i].s, d->obs[i].n, err, errlen);
		if (e) {
			/* prefix the directive's line number */
			if (err && errlen) {
				char msg[200];

				snprintf(msg, sizeof(msg), "%s", err);
				snprintf(err, errlen, "line %u: %s",
					 d->obs[i].line, msg);
			}
			return e;
		}
	}
	return 0;
}

int ksim_command(struct ksim_card *card, const char *line, char *err,
		 size_t errlen)
{
	if (!line)
		return ksim_refuse(err, errlen, "no command");
	return ksim_command_line(card->obs, line, strlen(line), err, errlen);
}

int ksim_inject(struct ksim_card *card, const char *spec, char *err,
		size_t errlen)
{
	struct ksim_words w;

	if (!spec || ksim_cmd_split(spec, strlen(spec), &w))
		return ksim_refuse(err, errlen, "inject: no spec, or too many words");
	if (w.n && ksim_word_is(&w.w[0], "inject"))
		return ksim_inject_command(card->obs, &w, 1, err, errlen);
	return ksim_inject_command(card->obs, &w, 0, err, errlen);
}

// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The observers' commands (docs/spec/fault-injection.md): one line, split
 * into words by the shared lexer and handed by its first word to the
 * registered observer of that name (inject, check or trace, obs/obs.h).
 * Lines come from a host (ksim_command(), card/knobs.c) or from a card
 * description, whose inject/check/trace lines the card applies once it is
 * built.
 */
#include "obs.h"
#include "lex.h"

static int ksim_command_words(struct ksim_obs *o, const struct ksim_words *w,
			      char *err, size_t errlen)
{
	const struct ksim_word *v = &w->w[0];
	struct ksim_observer *ob;
	unsigned int i;

	if (err && errlen)
		err[0] = 0;
	if (!w->n)
		return ksim_refuse(err, errlen, "empty command (inject, check or trace)");
	for (i = 0; i < o->n_list; i++) {
		ob = o->list[i];
		if (ob->ops->command && ksim_word_is(v, ob->ops->name))
			return ob->ops->command(ob, w, 1, err, errlen);
	}
	return ksim_refuse(err, errlen, "unknown command '%.*s' (inject, check or trace)",
			   ksim_cmd_quote(v), v->s);
}

int ksim_obs_command(struct ksim_obs *o, const char *line, size_t len,
		     char *err, size_t errlen)
{
	struct ksim_words w;

	if (ksim_cmd_split(line, len, &w))
		return ksim_refuse(err, errlen, "too many words (at most %u)",
				   KSIM_CMD_WORDS);
	return ksim_command_words(o, &w, err, errlen);
}

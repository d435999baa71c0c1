// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The knobs' faces (ksim.h, ksim_int.h; docs/spec/fault-injection.md):
 * commands, the knobs' listing, the checker's report and counts, the
 * trace's events and text.  The card created its observers (card/card.c)
 * and hands each call to the one it concerns; the description's
 * inject/check/trace lines go the same way once the card is built.
 */
#include "card.h"
#include "checker.h"
#include "desc.h"
#include "inject.h"
#include "tbuf.h"
#include "trace.h"

int ksim_card_command_lines(struct ksim_card *card, const struct ksim_desc *d,
			    char *err, size_t errlen)
{
	unsigned int i;
	int e;

	for (i = 0; i < d->n_obs; i++) {
		e = ksim_obs_command(card->obs, d->obs[i].s, d->obs[i].n, err,
				     errlen);
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
	return ksim_obs_command(card->obs, line, strlen(line), err, errlen);
}

int ksim_inject(struct ksim_card *card, const char *spec, char *err,
		size_t errlen)
{
	struct ksim_words w;

	if (!spec || ksim_cmd_split(spec, strlen(spec), &w))
		return ksim_refuse(err, errlen, "inject: no spec, or too many words");
	if (w.n && ksim_word_is(&w.w[0], "inject"))
		return ksim_inject_command(card->inj, &w, 1, err, errlen);
	return ksim_inject_command(card->inj, &w, 0, err, errlen);
}

size_t ksim_dump_knobs(struct ksim_card *card, char *buf, size_t len)
{
	struct ksim_tbuf tb;

	ksim_tb_init(&tb, buf, len);
	ksim_inject_list(card->inj, &tb);
	return tb.need;
}

u64 ksim_check_report(struct ksim_card *card, char *buf, size_t len)
{
	struct ksim_tbuf tb;

	ksim_tb_init(&tb, buf, len);
	ksim_chk_report(card->chk, &tb);
	return ksim_check_violations(card->chk);
}

u64 ksim_check_count(struct ksim_card *card, unsigned int what)
{
	return ksim_chk_count(card->chk, what);
}

u64 ksim_check_audit(struct ksim_card *card)
{
	ksim_chk_audit(card->chk);
	return ksim_check_violations(card->chk);
}

void ksim_trace_bounds(struct ksim_card *card, u64 *first, u64 *end)
{
	ksim_trace_ring_bounds(card->tr, first, end);
}

int ksim_trace_get(struct ksim_card *card, u64 idx,
		   struct ksim_trace_ev *ev)
{
	return ksim_trace_ring_get(card->tr, idx, ev);
}

size_t ksim_trace_text(struct ksim_card *card, u64 *pos, char *buf,
		       size_t len)
{
	struct ksim_tbuf tb;

	ksim_tb_init(&tb, buf, len);
	ksim_trace_format(card->tr, pos, &tb);
	return tb.pos;
}

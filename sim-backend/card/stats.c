// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Counters (docs/model.md "Observability"): a mesh's sums
 * (ksim_get_stats()), a unit's, from the base and its knobs
 * (ksim_unit_stats()), and the whole card's as text, one `key=value` line
 * per card, XDMA channel, mesh, link and unit (ksim_dump_stats()).  They
 * read every floor, the observers' counts included, so they are the
 * card's: no part and no observer calls them.
 */
#include "card.h"
#include "checker.h"
#include "ilink.h"
#include "inject.h"
#include "l2.h"
#include "mag.h"
#include "tbuf.h"
#include "topo.h"
#include "trace.h"

static void ksim_sum_link(struct ksim_link *l, void *arg)
{
	struct ksim_stats *st = arg;

	st->link_flits += l->flits;
	st->link_stalls += l->stalls;
}

int ksim_get_stats(struct ksim_card *card, unsigned int mesh,
		     struct ksim_stats *st)
{
	struct ksim_mesh *m = ksim_card_mesh(card, mesh);
	unsigned int x, y;

	memset(st, 0, sizeof(*st));
	if (!m)
		return -EINVAL;
	st->cycles_stepped = card->sched.cycles_stepped;
	st->cycles_skipped = card->sched.cycles_skipped;
	ksim_mesh_for_links(m, ksim_sum_link, st);
	st->tieoff_dropped = m->tieoff.dropped;
	for (y = 0; y < m->h; y++)
		for (x = 0; x < m->w; x++) {
			struct ksim_unit *u = m->unit[y][x];

			if (!u)
				continue;
			st->ctrl_dropped += u->ctrl_dropped;
			st->unit_dropped += u->dropped;
			st->lost_completions += u->lost_completions;
		}
	for (x = 0; x < m->mag->n_ports; x++) {
		struct ksim_mag_port *mp = &m->mag->port[x];

		st->mag_reads += mp->reads;
		st->mag_writes += mp->writes;
		st->mag_data_dropped += mp->data_dropped;
		st->mag_slot_stalls += mp->slot_stall_cycles;
		if (mp->slot_stall_since != KSIM_NEVER)
			/* since a MAG cycle: counted in MAG cycles */
			st->mag_slot_stalls += ksim_node_now(&m->mag->node) -
					       mp->slot_stall_since;
		st->mag_out_of_range += mp->out_of_range;
		st->mag_remote_alias += mp->remote_alias;
	}
	st->agent_rx_dropped = m->mag->orch.rx_dropped;
	st->signals = m->mag->orch.signals;
	st->dispatched = m->mag->orch.dispatched;
	st->dram_pages = m->dram.pages;
	for (y = 0; y < m->h; y++)
		for (x = 0; x < m->w; x++) {
			struct ksim_l2 *a = m->l2[y][x];

			if (!a)
				continue;
			st->l2_served += a->n_served;
			st->l2_forwarded += a->n_fwd;
			st->l2_ctrl += a->ctrl_terminated;
			st->ctrl_dropped += a->ctrl_dropped;
		}
	st->reset_dropped = m->rst.gate_dropped;
	st->reset_host_dropped = m->rst.host_dropped;
	st->resets = m->rst.resets;
	st->irq_rises = card->irq_rises;
	for (x = 0; x < m->mag->n_ports; x++) {
		st->mag_entries += m->mag->port[x].entries;
		st->mag_ap_faults += m->mag->port[x].ap_faults;
	}
	st->mag_quant_uploads = m->mag->quant_entries;
	st->mag_host_hangs = m->mag->host_hangs;
	st->mover_words = m->mag->mv.words;
	st->mover_remote_words = m->mag->mv.remote_words;
	if (m->mag->il) {
		st->il_injected = m->mag->il->injected;
		st->il_inj_dropped = m->mag->il->inj_dropped;
		st->il_switch_dropped = m->mag->il->switch_dropped;
	}
	return 0;
}

int ksim_unit_stats(struct ksim_card *card, unsigned int mesh,
		    unsigned int x, unsigned int y,
		    struct ksim_unit_stats *st)
{
	struct ksim_unit *u = ksim_unit_at(card, mesh, x, y);
	struct ksim_obs_unit *ou;

	memset(st, 0, sizeof(*st));
	if (!u)
		return -ENOENT;
	st->accepted = u->n_accepted;
	st->retired = u->n_retired;
	st->lost_completions = u->lost_completions;
	st->signals = u->n_signals;
	st->flits_out = u->n_sent;
	st->flits_in = u->n_taken;
	st->dropped = u->dropped;
	st->ctrl_dropped = u->ctrl_dropped;
	st->busy_cycles = ksim_unit_busy_cycles(u);
	ou = ksim_obs_unit_of(card->obs, u);
	if (ou) {
		st->faults_injected = ou->faults_injected;
		st->hangs_injected = ou->hangs_injected;
		st->ctrl_corrupted = ou->ctrl_corrupted;
		/* the knobs' windows are card time */
		st->busy_forced = ksim_inject_busy_cycles(ou, card->sched.now);
	}
	return 0;
}

size_t ksim_dump_stats(struct ksim_card *card, char *buf, size_t len)
{
	struct ksim_obs *o = card->obs;
	struct ksim_unit_stats us;
	struct ksim_stats st;
	struct ksim_tbuf tb;
	unsigned int m, i;
	u64 rd, wr;

	ksim_tb_init(&tb, buf, len);
	ksim_tb_printf(&tb, "card cycles=%llu stepped=%llu skipped=%llu meshes=%u clock_mhz=%u checker=%s trace=%s knobs=%u\n",
		     (unsigned long long)card->sched.now,
		     (unsigned long long)card->sched.cycles_stepped,
		     (unsigned long long)card->sched.cycles_skipped,
		     card->n_mesh, card->clock_mhz,
		     ksim_check_on(card->chk) ? "on" : "off",
		     ksim_trace_on(card->tr) ? "on" : "off",
		     ksim_inject_knobs_set(card->inj));
	ksim_tb_printf(&tb, "host reads=%llu writes=%llu dmas=%llu dma_bytes=%llu\n",
		       (unsigned long long)card->host_reads,
		       (unsigned long long)card->host_writes,
		       (unsigned long long)card->host_dmas,
		       (unsigned long long)card->host_dma_bytes);
	for (i = 0; i < KSIM_XDMA_CHANS; i++) {
		const struct ksim_xdma_chan *ch = &card->xdma->ch[i];

		ksim_tb_printf(&tb, "xdma %s runs=%llu descs=%llu bytes=%llu errors=%llu wedges=%llu stalls=%llu busy=%u\n",
			     ch->c2h ? "c2h" : "h2c",
			     (unsigned long long)ch->runs,
			     (unsigned long long)ch->descs,
			     (unsigned long long)ch->bytes,
			     (unsigned long long)ch->errors,
			     (unsigned long long)ch->wedges,
			     (unsigned long long)ch->stalls,
			     ksim_xdma_busy(ch));
	}
	ksim_tb_printf(&tb, "xdma irqs=%llu irqs_lost=%llu wb_faults=%llu vectors=%u\n",
		     (unsigned long long)card->xdma->irqs,
		     (unsigned long long)card->xdma->irqs_lost,
		     (unsigned long long)card->xdma->wb_faults,
		     card->xdma->n_vectors);
	for (m = 0; m < card->n_mesh; m++) {
		ksim_get_stats(card, m, &st);
		ksim_inject_dram_errors(card->inj, m, &rd, &wr);
		ksim_tb_printf(&tb, "mesh %u flits=%llu stalls=%llu tieoff_dropped=%llu ctrl_dropped=%llu unit_dropped=%llu lost_completions=%llu signals=%llu dispatched=%llu agent_rx_dropped=%llu\n",
			     m, (unsigned long long)st.link_flits,
			     (unsigned long long)st.link_stalls,
			     (unsigned long long)st.tieoff_dropped,
			     (unsigned long long)st.ctrl_dropped,
			     (unsigned long long)st.unit_dropped,
			     (unsigned long long)st.lost_completions,
			     (unsigned long long)st.signals,
			     (unsigned long long)st.dispatched,
			     (unsigned long long)st.agent_rx_dropped);
		ksim_tb_printf(&tb, "mesh %u mag_reads=%llu mag_writes=%llu mag_data_dropped=%llu mag_slot_stalls=%llu mag_out_of_range=%llu dram_rd_errors=%llu dram_wr_errors=%llu dram_pages=%llu resets=%llu\n",
			     m, (unsigned long long)st.mag_reads,
			     (unsigned long long)st.mag_writes,
			     (unsigned long long)st.mag_data_dropped,
			     (unsigned long long)st.mag_slot_stalls,
			     (unsigned long long)st.mag_out_of_range,
			     (unsigned long long)rd,
			     (unsigned long long)wr,
			     (unsigned long long)st.dram_pages,
			     (unsigned long long)st.resets);
	}
	for (i = 0; i < o->n_links; i++) {
		const struct ksim_obs_link *ol = &o->links[i];
		const struct ksim_link *l = ol->l;

		ksim_tb_printf(&tb, "link %u %s flits=%llu stalls=%llu drops=%llu dups=%llu%s\n",
			     l->mesh, ol->name, (unsigned long long)l->flits,
			     (unsigned long long)l->stalls,
			     (unsigned long long)l->drops,
			     (unsigned long long)l->dups,
			     ol->cls == KSIM_LC_TIEOFF ? " tieoff" : "");
	}
	for (i = 0; i < o->n_units; i++) {
		struct ksim_unit *u = o->units[i].u;
		char own[256] = "";

		ksim_unit_stats(card, u->mesh->id, u->x, u->y, &us);
		/* a unit type's own counters (the DXA unit's perf counters) */
		if (u->type->stats)
			u->type->stats(u, own, sizeof(own));
		ksim_tb_printf(&tb, "unit %u %u,%u %s accepted=%llu retired=%llu lost_completions=%llu signals=%llu sent=%llu received=%llu dropped=%llu ctrl_dropped=%llu busy_cycles=%llu faults_injected=%llu hangs_injected=%llu ctrl_corrupted=%llu busy_forced=%llu%s\n",
			     u->mesh->id, u->x, u->y, u->type->token,
			     (unsigned long long)us.accepted,
			     (unsigned long long)us.retired,
			     (unsigned long long)us.lost_completions,
			     (unsigned long long)us.signals,
			     (unsigned long long)us.flits_out,
			     (unsigned long long)us.flits_in,
			     (unsigned long long)us.dropped,
			     (unsigned long long)us.ctrl_dropped,
			     (unsigned long long)us.busy_cycles,
			     (unsigned long long)us.faults_injected,
			     (unsigned long long)us.hangs_injected,
			     (unsigned long long)us.ctrl_corrupted,
			     (unsigned long long)us.busy_forced, own);
	}
	if (ksim_check_armed(card->chk))
		ksim_tb_printf(&tb, "checker violations=%llu born=%llu delivered=%llu lost_injected=%llu dup_injected=%llu\n",
			     (unsigned long long)ksim_check_violations(card->chk),
			     (unsigned long long)ksim_chk_count(card->chk, KSIM_CHK_BORN),
			     (unsigned long long)ksim_chk_count(card->chk, KSIM_CHK_DELIVERED),
			     (unsigned long long)ksim_chk_count(card->chk, KSIM_CHK_LOST_INJ),
			     (unsigned long long)ksim_chk_count(card->chk, KSIM_CHK_DUP_INJ));
	return tb.need;
}

#!/bin/sh
# Deliberately broken models: each mutation below breaks one rule of the
# model, and the named test binary must then FAIL.  Run from the repo top:
#
#   tests/model/mutate.sh            # all mutations
#   tests/model/mutate.sh 3          # only mutation 3
#   tests/model/mutate.sh 3 5 701    # those
#
# Each mutant is built in a scratch copy (never in the work tree) with a
# minimal Makefile that builds only the model tests, with the real build's
# include paths (layers.mk).  Prints one line per mutation and exits
# nonzero if any mutant survived (its test passed).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d /tmp/kh-mutate.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
only=" $* "
# the kselftest harness the tests build on, extracted once into build/
# (tests/selftests/kselftest.mk)
KSFT_INC=build/kselftest/tools/testing/selftests/kselftest
make -s -C "$top" build/kselftest/.extracted || exit 1

# id~file~test binary~description~old text~new text (python escapes)
mutations() {
cat <<'M'
1~noc/router.c~model_routing~routing: north before east on the outward hop~	if (dx > r->hi_x)\n\t\treturn KSIM_PORT_E;\n\tif (dy < r->lo)\n\t\treturn KSIM_PORT_N;~	if (dy < r->lo)\n\t\treturn KSIM_PORT_N;\n\tif (dx > r->hi_x)\n\t\treturn KSIM_PORT_E;
2~noc/link.h~model_flow~handshake: receiver accepts on room, sender keeps holding~	ksim_link_set_valid(l, keep);~	ksim_link_set_valid(l, keep || l->rx->ops->busy(l->rx));
3~noc/link.h~model_flow~handshake: sender withdraws a flit it offered against busy~	l->stalls++;~	l->stalls++;\n\tksim_link_clear(l);
4~units/base.c~model_ctrl~CU_CTRL: a second request while one is pending is answered~	if (u->ctrl_pend) {~	if (0) {
5~mesh/orch.c~model_credits~credits: SIG_BATCH_COMPLETE returns a credit~		if (code == KH_SIG_INST_COMPLETE)\n\t\t\to->cred_inc++;~		if (code <= KH_SIG_BATCH_COMPLETE)\n\t\t\to->cred_inc++;
6~units/base.c~model_ctrl~retirement: the accept arm wins over a same-cycle exec_done~	if (u->p_accept)\n\t\tu->in_flight = true;\n\tif (u->p_done)\n\t\tu->in_flight = false;~	if (u->p_done)\n\t\tu->in_flight = false;\n\tif (u->p_accept)\n\t\tu->in_flight = true;
7~units/base.c~model_ctrl~busy cycles stop accruing while the card skips idle time~		c += ksim_unit_now_(u) - u->busy_since;~		c += 0;
8~units/sx.c~model_sx~SX: the tail of a partial last line is computed instead of written back as read~			if (s->ei == s->n - 1)~			if (s->ei == s->beats * SX_LINE_ELEMS - 1)
9~lib/softfp.c~model_fp32~FMA: ties round away from zero~		up = rem > half || (rem == half && (q & 1));~		up = rem >= half;
10~card/cardbus.c~model_card~DMA: a partial word keeps its other bytes (no zeroing)~	u32 head = (u32)(local & (KH_HOST_GRANULE - 1));\n\tu32 tail = (u32)((local + len) & (KH_HOST_GRANULE - 1));~	u32 head = 0;\n\tu32 tail = 0;
11~card/desc.c~model_desc~parser: line numbers start at 0~	for (ps->line = 1; *s; ps->line++) {~	for (ps->line = 0; *s; ps->line++) {
12~mesh/mag.c~model_mag~MAG: last set on every read beat~			    mp->rd_sent + 1 == mp->rd_beats);~			    1);
13~noc/link.c~model_routing~tie-off: a tied-off port raises busy~	return false;\n}\n\nstatic void ksim_tieoff_take~	return true;\n}\n\nstatic void ksim_tieoff_take
14~mesh/orch.c~model_credits~dispatcher: the staging slot does not wrap at STAGE_FLITS~				f->w[i] = o->stage[o->slot % o->p->stage_flits][i];~				f->w[i] = o->slot < o->p->stage_flits ? o->stage[o->slot][i] : 0;
15~mesh/mag.c~model_mag~MAG: data binds to the newest open slot of its source~		if (best < 0 || (s32)(sl->seq - mp->slots[best].seq) < 0)~		if (best < 0 || (s32)(sl->seq - mp->slots[best].seq) > 0)
16~noc/sched.c~model_mag~idle skip: jump to the end of the run past pending timers~			u64 to = ksim_min_u64(s->next_timer, end);~			u64 to = end;
101~card/desc.c~model_params~profiles: a description without a profile gets the RTL values~	ksim_params_ship(&d->p);~	ksim_params_rtl(&d->p);
102~lib/params.c~model_params~profiles: ship keeps the RTL router FIFO of 32~	p->router_fifo = 512;~	p->router_fifo = 32;
103~mesh/mesh.c~model_params~router_fifo: routers are built 32 deep whatever the description says~					   p->router_fifo);~					   32);
104~mesh/orch.c~model_params~tx_depth: the TX FIFO is 16 deep whatever the description says~	e = ksim_fifo_init(&o->tx, p->tx_depth);~	e = ksim_fifo_init(&o->tx, 16);
105~mesh/orch.c~model_params~rx_depth: the RX FIFO is 16 deep whatever the description says~		e = ksim_fifo_init(&o->rx, p->rx_depth);~		e = ksim_fifo_init(&o->rx, 16);
106~card/desc.c~model_params~stage_flits: the parameter is parsed and dropped~		p->stage_flits = v;~		(void)0;
107~card/desc.c~model_params~wr_slots: the parameter is parsed and dropped~		p->wr_slots = v;~		(void)0;
108~card/desc.c~model_params~q_margin: the parameter is parsed and dropped~			p->q_margin = v;~			(void)0;
109~card/desc.c~model_params~mem_rd_latency: the parameter is parsed and dropped~		p->mem_rd_latency = v;~		(void)0;
110~card/desc.c~model_desc~parser: an unmodelled token is refused at once, before the rest is checked~			if (!ut->tick && !ps->nomodel) {\n\t\t\t\tps->nomodel = ut;\n\t\t\t\tps->nomodel_line = ps->line;\n\t\t\t}~			if (!ut->tick)\n\t\t\t\treturn ksim_perr(ps, "token '%s' (%s) has no model yet", ut->token, ut->name);
111~card/desc.c~model_desc~parser: a mesh section does not start from the card-wide parameters~	dm->p = ps->d->p;~	ksim_params_ship(&dm->p);
112~card/desc.c~model_desc~parser: card-wide l2 lines are not applied to the meshes~	e = ksim_apply_l2(ps, &ps->card, ps->cur);~	e = 0;
113~card/bar.c~model_multi~BAR0: every window decodes to mesh 0~	*m = ksim_card_mesh(c, *n);~	*m = ksim_card_mesh(c, 0);
114~card/cardbus.c~model_multi~DMA: every window lands in mesh 0's DRAM~	m = ksim_card_mesh(c, win - 1);~	m = ksim_card_mesh(c, 0);
115~card/clkwiz.c~model_clk~clock wizard: losing lock does not reset the mesh~	ksim_mesh_reset_hold(c->mesh[mesh], w->lock_at + KH_RST_RELEASE_CYCLES);~	(void)0;
116~card/clkwiz.c~model_clk~clock wizard: a duty of 0 is accepted~	return v ? v : old;~	return v;
117~mesh/reset.c~model_clk~reset: no recovery window after the release~	m->rst.ready = release + KH_RST_RECOVERY_CYCLES;~	m->rst.ready = release;
118~mesh/reset.c~model_clk~reset: a flit forced into an endpoint in recovery is kept~	if (ksim_mesh_recovering(g->mesh)) {~	if (0) {
119~card/bar.c~model_clk~reset: host writes land while the mesh is in reset~		if (ksim_mesh_recovering(m)) {~		if (0) {
120~mesh/orch.c~model_irq~IRQ addon: events set IRQ_STAT on a card without the addon~	if (!o->p->irq)\n\t\treturn;~
121~mesh/orch.c~model_irq~IRQ addon: a clear wins over an event in its cycle (the cycle's events are not remembered)~	o->irq_ev |= bits;~	(void)0;
122~mesh/orch.c~model_irq~IRQ addon: IRQ_EN does not gate the line~	bool level = (o->irq_stat & o->irq_en & KH_IRQ_ALL) != 0;~	bool level = (o->irq_stat & KH_IRQ_ALL) != 0;
123~card/irq.c~model_irq~IRQ line: only mesh 0 drives it~	line = card->irq_in != 0;~	line = card->irq_in & 1;
124~mesh/orch.c~model_irq~IRQ addon: CAPS[40] is never set~	       ((u64)o->grid_hi << 32) | (o->p->irq ? KH_CAPS_IRQ_ADDON : 0);~	       ((u64)o->grid_hi << 32);
125~mesh/l2.c~model_l2~L2: the addon window is index 0xe0 alone~	    KH_CTRL_IDX_IS_ADDON(kh_flit_get(h, KH_CTRL_INDEX))) {~	    kh_flit_get(h, KH_CTRL_INDEX) == KH_CTRL_IDX_L2_CAPS) {
126~mesh/l2.c~model_l2~L2: a write's reply carries the value after the write~		a->enable = v & KH_L2_CTRL_ENABLE;\n}~		a->enable = v & KH_L2_CTRL_ENABLE;\n\tkh_flit_set(r, KH_CTRL_VALUE, ksim_l2_reg(a, idx));\n}
127~mesh/l2.c~model_l2~L2: enabled out of a mesh reset~	a->enable = false;~	a->enable = true;
128~mesh/l2.c~model_l2~L2: in-window reads are served while disabled~	if (t == KH_T_MEM_RD_REQ && in && a->enable) {~	if (t == KH_T_MEM_RD_REQ && in) {
129~mesh/l2.c~model_l2~L2: in-window writes go to the mesh while enabled~	if (t == KH_T_MEM_WR_REQ && in && a->enable) {~	if (t == KH_T_MEM_WR_REQ && in && a->enable && 0) {
130~mesh/l2.c~model_l2~L2: a mesh reset clears the SRAM~	a->rd_busy = false;\n}~	a->rd_busy = false;\n\tfor (u32 i = 0; i < a->n_chunks; i++)\n\t\tif (a->chunk[i])\n\t\t\tmemset(a->chunk[i], 0, KSIM_L2_CHUNK_LINES * KH_L2_LINE_BYTES);\n}
131~mesh/l2.c~model_l2~L2: a second addon request while a reply is pending is answered~	if (a->ctrl_pend) {\n\t\ta->ctrl_dropped++;~	if (0) {\n\t\ta->ctrl_dropped++;
132~card/builtin.c~model_sx~built-ins: saxpy without profile rtl (ship values: every unit cu_version 4)~noc_cu_base's 16\\n"\n\t  "profile rtl\\n"~noc_cu_base's 16\\n"
133~mesh/reset.c~model_clk~reset: the gate does not hold noc_in_busy~	return ksim_mesh_recovering(g->mesh) || g->inner->ops->busy(g->inner);~	return g->inner->ops->busy(g->inner);
134~card/ddrc.c~model_clk~DDR controller: ECC off at reset~.reset = 1, .ro = \x7e1ULL)~.reset = 0, .ro = \x7e1ULL)
135~card/clkwiz.c~model_clk~clock wizard: a LOAD that changes nothing drops lock~	if (!memcmp(next, w->run, sizeof(next)))\n\t\treturn;~
136~mesh/l2.c~model_multi~L2: the adapter replies from (0,0), not the unit's coordinate~	ksim_ctrl_reply(r, req, a->x, a->y, idx, ksim_l2_reg(a, idx));~	ksim_ctrl_reply(r, req, 0, 0, idx, ksim_l2_reg(a, idx));
301~obs/checker.c~model_check~checker rule 1: a refused link may lose its flit before it is taken~		if (l->valid && !memcmp(&l->reg, &ol->held, sizeof(l->reg)))\n\t\t\tcontinue;~		continue;
302~obs/checker.c~model_check~checker rule 1: a send_* offer may change after a refusal~	if (ou->send_prev && !ou->send_matched) {~	if (0) {
303~obs/checker.c~model_check~checker rule 1: a sender that holds is flagged~		if (l->valid && !memcmp(&l->reg, &ol->held, sizeof(l->reg)))~		if (l->valid && memcmp(&l->reg, &ol->held, sizeof(l->reg)))
304~obs/checker.c~model_check~checker rule 2: a flit taken twice from one register is a plain duplicate~	ksim_viol(c, same_reg ? KSIM_CHK_R2 : KSIM_CHK_DUP, now, ol->l->mesh,~	ksim_viol(c, KSIM_CHK_DUP, now, ol->l->mesh,
305~obs/checker.c~model_check~checker rule 3: busy not re-evaluated with the offered flit hidden~	if (!ksim_busy_hidden(ol->l))\n\t\tksim_rule3(c, ol, now, true);~	if (0)\n\t\tksim_rule3(c, ol, now, true);
306~obs/checker.c~model_check~checker rule 4: a held receive head never counts as blocked~	if (recv && idle) {~	if (0) {
307~obs/checker.c~model_check~checker rule 5: every type counts as handled~	return known & (1u << type);~	return true;
308~obs/checker.c~model_check~checker rule 6: exec_done with inst_ready not flagged~	if (ou->done_accept) {\n\t\tksim_obs_unit_name~	if (0) {\n\t\tksim_obs_unit_name
309~units/null.c~model_check~null!: the RTL variant never retires (instead of retiring in the accept cycle)~		ksim_unit_retire(u, x, false);~		(void)x;
310~obs/checker.c~model_check~checker rule 7: exec_done with nothing in flight not flagged~	} else if (!ou->done_in_flight) {~	} else if (0) {
311~obs/checker.c~model_check~checker rule 7: the never-retires bound is 1000 times too long~	    now - ou->idle_since >= c->retire_bound) {~	    now - ou->idle_since >= c->retire_bound * 1000) {
312~obs/checker.c~model_check~checker rule 8: framework codes on send_* not flagged~	if (type == KH_T_CU_SIGNAL) {~	if (0) {
313~obs/checker.c~model_check~checker rule 9: one beat more than the receive FIFO allowed~		if (ou->outstanding > u->recv.depth && !ou->r9_over) {~		if (ou->outstanding > u->recv.depth + 1 && !ou->r9_over) {
314~obs/checker.c~model_check~checker: the audit never reports a vanished tag as lost~		if (!e->tag || e->seen == c->epoch) {~		if (1) {
315~obs/checker.c~model_check~checker: the audit takes a second copy of a tag for the first~	if (!e || e->seen == c->epoch) {~	if (!e) {
316~obs/checker.c~model_check~checker: a duplicate a dup knob made counts as a violation~	if (ol->inj_dup_tag && ol->inj_dup_tag == t) {~	if (0) {
317~obs/checker.c~model_check~checker: a drop knob's loss is not marked injected~	if (e)\n\t\te->injected = true;~	if (e)\n\t\te->injected = false;
318~obs/checker.c~model_check~checker: a flit to a tie-off stays in flight (reported lost)~		c->count_[KSIM_CHK_TIEOFF]++;\n\t\tksim_tab_del(c, e);~		c->count_[KSIM_CHK_TIEOFF]++;
319~obs/obs.c~model_check~checker: tags are not stripped before an endpoint takes a flit~		*copy = l->reg;\n\t\tksim_flit_set_tag(copy, 0);~		*copy = l->reg;
320~units/sx.c~model_check~SX: holds flits it does not expect instead of dropping them (rule 10 test)~		ksim_unit_drop(u, f, "unexpected on the SX receive path");\n\t}\n\tif (line)~		return false;\n\t}\n\tif (line)
201~lib/mxfp7.c~model_mxfp7~MXFP7: elements truncate instead of rounding half up~		sum = (x8 >> 1) + (x8 & 1);	/* round half up */~		sum = x8 >> 1;
202~lib/mxfp7.c~model_mxfp7~MXFP7: the scale mantissa threshold one step off (sig > 1764 takes 14)~		m8 = sig > 1764 ? 15 : sig > 1638 ? 14 :~		m8 = sig > 1764 ? 14 : sig > 1638 ? 14 :
203~lib/mxfp7.c~model_mxfp7~MXFP7: an element 8 or more binades below the scale is not flushed to zero~		if (!sig || t >= 8)~		if (!sig || t > 8)
204~lib/mxfp7.c~model_mxfp7~MXFP7: the B layout packs like A~			unsigned int l = blayout ? KH_MX_B_LANE(o) : KH_MX_A_LANE(o);~			unsigned int l = KH_MX_A_LANE(o);
205~lib/mxfp7.c~model_mxfp7~MXFP7: the scale byte of lane 0 goes to every lane~			wd[KH_MX_SCALE_BYTE(lane)] = s[lane];~			wd[KH_MX_SCALE_BYTE(lane)] = s[0];
206~lib/mxfp7.c~model_mxfp7~MXFP7: subnormals read with exponent 0, not 1~	else\n\t\t*e = 1;~	else\n\t\t*e = 0;
210~mesh/mag.c~model_mem~MAG: entry words carry no word index in rsvd~	kh_flit_set(&f, KH_HDR_RSVD_LO, w);~	kh_flit_set(&f, KH_HDR_RSVD_LO, 0);
211~mesh/mag.c~model_mem~MAG: last on every entry word~		    er->txn + er->send_i, w + 1 == er->out_words);~		    er->txn + er->send_i, 1);
212~mesh/mag.c~model_mem~MAG: stream txn + i saturates at 255 instead of wrapping~		    er->txn + er->send_i, w + 1 == er->out_words);~		    er->txn + er->send_i > 255 ? 255 : er->txn + er->send_i,\n\t\t    w + 1 == er->out_words);
213~mesh/mag.c~model_mem~MAG: entry_words 0 or above 4 means 2, not 4~		ew = KH_MEM_ENTRY_WORDS_MAX;	/* 0 or > 4 means 4 */~		ew = 2;
215~mesh/mag.c~model_mem~MAG: multicast word by word across destinations, not entry by entry per destination~	unsigned int d = er->pos / er->out_words, w = er->pos % er->out_words;~	unsigned int d = er->pos % er->ndst, w = er->pos / er->ndst;
217~mesh/mag.c~model_mem~MAG: BLAYOUT ignored on the read path~	er->blayout = flags & KH_MEMF_BLAYOUT;~	er->blayout = false;
218~mesh/mag.c~model_mem~MAG: QUANT entries read 128 B apart (output size) instead of 256~	return (er->addr + (u64)i * er->in_beats * KH_PAYLOAD_BYTES) &~	return (er->addr + (u64)i * er->out_words * KH_PAYLOAD_BYTES) &
219~mesh/mag.c~model_mem~MAG: write issue waits for the entry engine (no concurrency)~	bool rd = f && !ksim_rd_is_entry(f), wr = mp->ready_count != 0;~	bool rd = f && !ksim_rd_is_entry(f), wr = mp->ready_count != 0 && !mp->er.active;
220~mesh/mag.c~model_mem~MAG: plain reads go to the entry engine instead of sharing the write FSM~	return kh_flit_get(f, KH_MEM_FLAGS) & (KH_MEMF_STREAM | KH_MEMF_QUANT);~	return f != NULL;
221~mesh/mag.c~model_mem~MAG: agent traffic always leaves by port 0~		if (g->port[i].y == dy)\n\t\t\treturn i;~		if (0)\n\t\t\treturn i;
222~mesh/mag.c~model_mem~MAG: an unserved aperture is served as DRAM~	*off = 0;\n\treturn KSIM_CV_NONE;~	*off = addr & KH_MADDR_LOCAL_MASK;\n\treturn KSIM_CV_DRAM;
223~mesh/mag.c~model_mem~MAG: aperture 0 reaches DRAM, not the L2 staging RAM~		*off = addr & KH_AP_OFFSET_MASK;\n\t\treturn KSIM_CV_L2;~		*off = addr & KH_AP_OFFSET_MASK;\n\t\treturn KSIM_CV_DRAM;
224~mesh/mag.c~model_mem~MAG: the L2 offset does not wrap at its size~		off %= d->size;		/* the RAM address is truncated */~		off += 0;
230~mesh/mag.c~model_hostap~upload: one burst for the whole DMA (no 4 KiB split)~		u64 bend = (w | (KH_HOST_BOUNDARY - 1)) + 1, dst, beats, e, i;~		u64 bend = end + KH_HOST_BOUNDARY, dst, beats, e, i;
231~mesh/mag.c~model_hostap~upload: a partial entry is dropped silently instead of hanging~		if (beats % KH_MX_SRC_BEATS)\n\t\t\treturn ksim_mag_host_hang(~		if (0)\n\t\t\treturn ksim_mag_host_hang(
232~mesh/mag.c~model_hostap~upload: aperture 5 converts with the A layout~	bool blayout = (addr >> KH_MADDR_APERTURE_SHIFT) & 1;~	bool blayout = false;
233~card/cardbus.c~model_hostap~host: a hang does not wedge the channel~		if (c->mesh[i]->mag->host_hang & dir)~		if (0 && (c->mesh[i]->mag->host_hang & dir))
234~mesh/mag.c~model_hostap~host: a mesh reset does not end the hang~	g->host_hang = 0;~	;
235~mesh/mag.c~model_hostap~upload: the destination keeps the aperture bits~		dst = w & KH_AP_QUANT_DST_MASK & KH_MADDR_LOCAL_MASK;~		dst = w & KH_MADDR_LOCAL_MASK;
240~mesh/mover.c~model_mover~mover: transpose runs (as a copy) instead of faulting~	if (r->mode == KH_MV_MODE_TRANSPOSE || r->mode > KH_MV_MODE_FILL)~	if (r->mode > KH_MV_MODE_FILL)
241~mesh/mover.c~model_mover~mover: element width 3 accepted~	if (r->ew > 2)\n\t\treturn KH_MV_FAULT_EW;~	if (0)\n\t\treturn KH_MV_FAULT_EW;
242~mesh/mover.c~model_mover~mover: strides need only 16-byte alignment~		if (dst->stride[d] & 31)~		if (dst->stride[d] & 15)
243~mesh/mover.c~model_mover~mover: copy walks of different lengths accepted~	if (r->mode == KH_MV_MODE_COPY && ksim_mv_len(src) != ksim_mv_len(dst))~	if (0)
244~mesh/mover.c~model_mover~mover: gather takes index j from lane j % 4 of the index word~	p = mv->idx_buf + (mv->gj % 8) * 4;~	p = mv->idx_buf + (mv->gj % 4) * 4;
245~mesh/mover.c~model_mover~mover: the outermost dim changes fastest~	for (d = 0; d < w->ndims; d++) {\n\t\tif (++idx[d] < w->count[d])~	for (d = w->ndims; d-- > 0;) {\n\t\tif (++idx[d] < w->count[d])
246~mesh/mover.c~model_mover~mover: the PRNG counter starts at 0, not 1~		u64 z = r->seed + ((pos * per + e) + 1) * 0x9e3779b97f4a7c15ULL;~		u64 z = r->seed + (pos * per + e) * 0x9e3779b97f4a7c15ULL;
248~mesh/mover.c~model_mover~mover: the axis windows are ignored~		if (!win->extent)\n\t\t\tcontinue;~		if (1)\n\t\t\tcontinue;
249~mesh/mover.c~model_mover~mover: a faulted move counts as done~	mv->faults++;\n\tmv->busy = false;~	mv->faults++;\n\tmv->moves++;\n\tmv->busy = false;
250~mesh/mover.c~model_mover~mover: GO while busy restarts the move~		ksim_mesh_log(g->mesh, "mover: GO while busy, ignored");\n\t\treturn;~		ksim_mesh_log(g->mesh, "mover: GO while busy, ignored");
251~mesh/mover.c~model_mover~mover: busy clears at the last word, before its BRESP~		mv->done_at = now + g->mesh->p->mem_wr_latency;\n\t*deadline~		mv->done_at = now;\n\t*deadline
252~mesh/mover.c~model_mover~mover: writes past the DRAM vanish instead of faulting~		return KH_MV_FAULT_RANGE;\n\tksim_cv_write(cv, tgt, off, buf);~		(void)0;\n\tksim_cv_write(cv, tgt, off, buf);
253~mesh/mover.c~model_mover~mover: an unserved aperture faults as range, not AXI~		return KH_MV_FAULT_AXI;\n\tif (off + KH_PAYLOAD_BYTES > ksim_cv_size(cv, tgt))\n\t\treturn KH_MV_FAULT_RANGE;\n\tksim_cv_write~		return KH_MV_FAULT_RANGE;\n\tif (off + KH_PAYLOAD_BYTES > ksim_cv_size(cv, tgt))\n\t\treturn KH_MV_FAULT_RANGE;\n\tksim_cv_write
254~mesh/mover.c~model_mover~mover: the immediate always replicated as 32 bits~		buf[i] = (u8)(r->imm >> (8 * (i % esz)));~		buf[i] = (u8)(r->imm >> (8 * (i % 4 % (esz * 4))));
260~mesh/ilink.c~model_ilink~interlink: chain in mesh order 0-1-2-3~static const u8 ksim_ch_seq[KH_MAX_MESHES] = { 0, 1, 3, 2 };~static const u8 ksim_ch_seq[KH_MAX_MESHES] = { 0, 1, 2, 3 };
261~mesh/ilink.c~model_ilink~interlink: the injected flit's src is rewritten to the MAG port~		kh_flit_set(&f, KH_HDR_RSVD, 0);~		kh_flit_set(&f, KH_HDR_RSVD, 0);\n\t\tkh_flit_set(&f, KH_HDR_SRC_X, 0);\n\t\tkh_flit_set(&f, KH_HDR_SRC_Y, 1);
262~mesh/ilink.c~model_ilink~interlink: a remote descriptor without an ack raises nothing~				ksim_ilink_fault(il, KH_IL_FAULT_ACK0);~				(void)0;
263~mesh/ilink.c~model_ilink~interlink: a doorbell counts on arrival, before earlier writes land~		if (il->writes_landed < il->bell_snap[s])\n\t\t\treturn false;~		if (0)\n\t\t\treturn false;
264~mesh/ilink.c~model_ilink~interlink: caps read while disabled~		return il->enable ? KH_IL_CAPS(il->mesh_id) : 0;~		return KH_IL_CAPS(il->mesh_id);
265~mesh/ilink.c~model_ilink~interlink: 0x80 [2] does not clear the faults~	if (v & KH_IL_CTRL_CLR_FAULTS)\n\t\til->faults = 0;~	if (0)\n\t\til->faults = 0;
266~mesh/mag.c~model_ilink~MAG: aliasing another mesh's address sets no RD_REMOTE~		ksim_ilink_fault(g->il, KH_IL_FAULT_RD_REMOTE);~		(void)0;
267~mesh/ilink.c~model_ilink~interlink: sending without a credit~		if (!l->credits[cls[i]]) {~		if (0) {
268~mesh/ilink.c~model_ilink~interlink: a hop takes one cycle, not il_hop_latency~	w->at = now + il->hop_latency;~	w->at = now + 1;
269~mesh/ilink.c~model_ilink~interlink: a disabled mesh still takes inbound beats~	if (!il->enable) {\n\t\tksim_il_inj_drop(il, "interlink disabled");~	if (0) {\n\t\tksim_il_inj_drop(il, "interlink disabled");
270~mesh/ilink.c~model_ilink~interlink: a beat with no link is dropped without SWITCH~	ksim_ilink_fault(il, KH_IL_FAULT_SWITCH);~	(void)0;
271~mesh/ilink.c~model_ilink~interlink: one credit class (every beat stop class)~	return next == ksim_il_pos_of(dst) ? KSIM_IL_STOP : KSIM_IL_FWD;~	return next > 7 ? KSIM_IL_FWD : KSIM_IL_STOP;
272~mesh/mover.c~model_ilink~mover: another mesh's destination written locally~	if (!(addr & KH_MADDR_SPECIAL) && mesh != ksim_cv_mesh_id(cv) && g->il) {~	if (!(addr & KH_MADDR_SPECIAL) && mesh > 4 && g->il) {
321~obs/inject.c~model_inject~inject: after= lets one event too few pass~	if (k->passed < k->after) {~	if (k->passed + 1 < k->after) {
322~obs/inject.c~model_inject~inject drop: the flit is delivered after all~			return KSIM_XFER_DROP;~			return 0;
323~obs/inject.c~model_inject~inject dup: the kept copy counts as another event~		ol->kept = true;~		ol->kept = false;
324~obs/inject.c~model_inject~inject busy: never ends~		if (k->kind == KSIM_KNOB_BUSY && now >= k->from && now < k->until)~		if (k->kind == KSIM_KNOB_BUSY && now >= k->from)
325~obs/inject.c~model_inject~inject busy: no timer at the window's edges (the idle skip runs past them)~	ksim_node_timer(&inj->node, t);~	ksim_node_timer(&inj->node, KSIM_NEVER);
326~obs/inject.c~model_inject~inject fault: the completion stays a normal one~			u->p_fault = true;~			u->p_fault = false;
327~obs/inject.c~model_inject~inject hang: exec_done is not swallowed~			u->p_done = false;\n~
328~obs/inject.c~model_inject~inject ctrl: the value is not changed~				    kh_flit_get(r, KH_CTRL_VALUE) ^ k->xor);~				    kh_flit_get(r, KH_CTRL_VALUE));
329~obs/inject.c~model_inject~inject ctrl: field=drop loses nothing~	bool drop = ou->ctrl_drop;~	bool drop = false;
330~obs/inject.c~model_inject~inject dram: the data pattern goes out byte-swapped~			buf[i] = (u8)(k->data >> (8 * (i & 3)));~			buf[i] = (u8)(k->data >> (8 * (3 - (i & 3))));
331~obs/inject.c~model_inject~inject dram: a write beat is written after all~	ksim_knob_event(inj, ksim_now(inj), k, 1, a);\n\treturn true;~	ksim_knob_event(inj, ksim_now(inj), k, 1, a);\n\treturn false;
332~obs/inject.c~model_inject~inject parser: an option may be given twice~		if (seen & B(opt))\n~		if (0)\n
333~card/knobs.c~model_inject~description lines: the error names the next line~					 d->obs[i].line, msg);~					 d->obs[i].line + 1, msg);
334~obs/inject.c~model_inject~inject: X,Y.in on the east edge names the router's south port~							    y, KSIM_PORT_E));~							    y, KSIM_PORT_S));
335~obs/trace.c~model_trace~trace: hops into an endpoint not marked deliver~		(ol->cls == KSIM_LC_DELIVER ? 0x10 : 0) |~		0 |
336~obs/trace.c~model_trace~trace: the ring's first event is always 0 (stale entries read)~	*first = t->head > (u64)t->mask + 1 ? t->head - t->mask - 1 : 0;~	*first = 0;
337~units/base.c~model_trace~counters: accepted instructions not counted~	u->n_accepted++;\n~
338~obs/trace.c~model_trace~trace: a DMA's cycles leave out the beats~		(u32)((len + KH_HOST_GRANULE - 1) / KH_HOST_GRANULE);~		0;
339~obs/trace.c~model_trace~trace: the accept of a same-cycle retire comes after it~	if (u->p_accept)\n\t\tksim_trace_accept(t, ou);~	if (0)\n\t\tksim_trace_accept(t, ou);
340~obs/trace.c~model_trace~trace: events= selects nothing~	return t->on && (t->cls & cls);~	return t->on;
341~card/stats.c~model_trace~stats dump: a link's flits column shows its stalls~			     l->mesh, ol->name, (unsigned long long)l->flits,~			     l->mesh, ol->name, (unsigned long long)l->stalls,
342~units/base.c~model_trace~counters: flits taken off the link not counted~	u->n_taken++;\n~
343~lib/lex.c~model_desc~lexer: `#` does not end a word (no comments mid-line)~	return i >= len || !s[i] || s[i] == '#';~	return i >= len || !s[i];
344~lib/lex.c~model_desc~lexer: a number may pass its limit (and wrap past 64 bits)~		if (d > max || x > (max - d) / base)\n\t\t\treturn false;~		if (0)\n\t\t\treturn false;
345~lib/lex.c~model_inject~lexer: words past the stored ones are not counted (a 17-word line taken as 16)~		n++;\n\t}~		n += n < max;\n\t}
346~lib/lex.c~model_inject~lexer: "=V" is a key=value with an empty key~	return ksim_word_cut(w, '=', k, v) && k->n;~	return ksim_word_cut(w, '=', k, v);
347~lib/lex.c~model_desc~lexer: upper-case hex digits refused~		else if (base == 16 && c >= 'A' && c <= 'F')~		else if (0)
348~lib/lex.c~model_inject~lexer: X,Y coordinates without their range~	if (!ksim_word_cut(w, ',', &a, &b) || !ksim_word_num(&a, max, &vx) ||\n\t    !ksim_word_num(&b, max, &vy))~	if (!ksim_word_cut(w, ',', &a, &b) || !ksim_word_num(&a, -1ULL, &vx) ||\n\t    !ksim_word_num(&b, -1ULL, &vy))
150~mesh/orch.c~model_dispatch~credits: SIG_FAULT returns a credit~		if (code == KH_SIG_INST_COMPLETE)\n\t\t\to->cred_inc++;~		if (code == KH_SIG_INST_COMPLETE || code == KH_SIG_FAULT)\n\t\t\to->cred_inc++;
151~mesh/orch.c~model_dispatch~dispatcher: the staged dst is kept, not rewritten from PROG_DST~			kh_flit_set(f, KH_HDR_DST_X, KH_YX_X(o->prog_dst));\n\t\t\tkh_flit_set(f, KH_HDR_DST_Y, KH_YX_Y(o->prog_dst));~
401~units/pool/iss_exec.c~model_pool_iss~POOL: DIV divides unsigned~			x[o->rd] = (u32)((s32)a / (s32)v);~			x[o->rd] = a / v;
402~units/pool/iss_decode.c~model_pool_iss~POOL: rd x0 decoded as x0 (writes to x0 stick)~	o->rd = rd ? rd : 32;~	o->rd = rd;
403~units/pool/cudata.c~model_pool~POOL: a refused CU_DATA burst faults nothing~	p->load_fault = true;~	(void)p;
404~units/pool/sync.c~model_pool_iss~POOL: WFI sleeps through a pending wake-up event~		if (c->ev) {~		if (0) {
405~units/pool/job.c~model_pool~POOL: a job with no core running is presented (no NOFW)~	else if (!(ksim_pool_running(p) & KSIM_POOL_ALL))~	else if (0)
406~units/pool/idma.c~model_pool~POOL iDMA: reserved words not checked~	if (q->reserved ||~	if (0 ||
407~units/pool/bounds.c~model_pool_bounds~POOL bounds: a range may end one word past its region~		    local - first <= end - first - len)~		    local - first <= end - first - len + 32)
408~units/pool/window.c~model_pool_bounds~POOL bounds: a window store needs only W (no R for the word it reads)~				 st ? KH_POOL_REGION_R | KH_POOL_REGION_W :~				 st ? KH_POOL_REGION_W :
409~units/pool/idma.c~model_pool_bounds~POOL bounds: the iDMA descriptors are not bounded~	if (!ksim_pool_bounds_ok(p, q->dram, q->len,~	if (0 && !ksim_pool_bounds_ok(p, q->dram, q->len,
410~units/pool/bounds.c~model_pool_bounds~POOL bounds: another mesh's address is checked as the unit's own~	if (((addr >> KH_MADDR_MESH_SHIFT) & KH_MADDR_MESH_MASK) != p->mesh)~	if (0)
411~units/pool/job.c~model_pool_bounds~POOL bounds: the firmware's retirement of a refused job keeps its code~	if (p->job && p->bounds_job) {~	if (0) {
412~units/pool/job.c~model_pool_bounds~POOL bounds: a retirement by the unit leaves the refusal to the next job~	p->bounds_job = false;\n}~	(void)0;\n}
413~units/pool/pool.c~model_pool_bounds~POOL bounds: a read of BOUNDS_FAULT does not clear it~		*val = ksim_pool_bounds_reg(p, idx, true);~		*val = ksim_pool_bounds_reg(p, idx, false);
421~units/pool/vec_alu.c~model_pool_vec~POOL vec: vadd's carries cross the lane bounds (one 64-bit add)~	return ((a & \x7eh) + (b & \x7eh)) ^ ((a ^ b) & h);~	return a + b;
422~units/pool/vec_alu.c~model_pool_vec~POOL vec: vsub's borrows cross the lane bounds~	return ((a | h) - (b & \x7eh)) ^ ((a ^ \x7eb) & h);~	return a - b;
423~units/pool/vec_alu.c~model_pool_vec~POOL vec: vadds wraps instead of saturating~		return ksim_pool_vec_sat_s(sa + sb, bits);~		return (u32)(sa + sb) & m;
424~units/pool/vec_alu.c~model_pool_vec~POOL vec: vaddus wraps instead of saturating~		return ksim_pool_vec_sat_u((s64)a + b, bits);~		return (a + b) & m;
425~units/pool/vec_mac.c~model_pool_vec~POOL vec: i8 quad-MAC into 16-bit accumulator lanes, not 24~{ 3, 6, 12 };~{ 2, 6, 12 };
426~units/pool/vec_mac.c~model_pool_vec~POOL vec: i32 quad-MAC into 64-bit accumulator lanes, not 96~{ 3, 6, 12 };~{ 3, 6, 8 };
427~units/pool/vec_mac.c~model_pool_vec~POOL vec: vqmac's subtract mode adds~		if (mode == KH_PV_MAC_SUB)\n\t\t\ts = -s;\n~
428~units/pool/iss_exec.c~model_pool_vec~POOL vec: a vector instruction with CP1 disabled runs (no trap)~		if (ksim_pool_unlikely(!(c->vec.cpenable & KH_PV_CPENABLE_CP1))) {~		if (0) {
429~units/pool/vec_exec.c~model_pool_vec~POOL vec: vector accesses need only 32-byte alignment~	if (a & (size - 1)) {~	if (a & (size - 1) & 31) {
471~units/pool/vec_sched.c~model_pool_vsched~POOL vec issue: the accumulator read at 10, not 12 (no II = 1 MAC chain)~	       KH_PV_STAGE_WREAD : KH_PV_STAGE_READ;~	       KH_PV_STAGE_READ : KH_PV_STAGE_READ;
472~units/pool/vec_sched.c~model_pool_vsched~POOL vec issue: an operand forwarded inside its producer's bundle~		if (s->iss[d.r[i]] >= at)\n\t\t\tat = s->iss[d.r[i]] + 1;~		(void)0;
473~units/pool/vec_sched.c~model_pool_vsched~POOL vec issue: no WAW order~		if (w >= at + ws)~		if (0)
474~units/pool/vec_sched.c~model_pool_vsched~POOL vec issue: two stores a bundle~	if (n[KSIM_PV_C_STORE] > 1 || q > 1 || q + f > 2)~	if (n[KSIM_PV_C_STORE] > 2 || q > 1 || q + f > 2)
475~units/pool/vec_sched.c~model_pool_vsched~POOL vec issue: two quad-MACs a bundle~	if (n[KSIM_PV_C_STORE] > 1 || q > 1 || q + f > 2)~	if (n[KSIM_PV_C_STORE] > 1 || q > 2 || q + f > 2)
476~units/pool/vec_sched.c~model_pool_vsched~POOL vec issue: one FMA a bundle (no 2XFMAC)~	if (n[KSIM_PV_C_STORE] > 1 || q > 1 || q + f > 2)~	if (n[KSIM_PV_C_STORE] > 1 || q > 1 || q + f > 1)
477~units/pool/vec_sched.c~model_pool_vsched~POOL vec issue: no F11 (three ALU slots)~	return mem <= 1 && a <= 2 + (1 - s3);		/* F11 */~	return false;
478~units/pool/vec_sched.c~model_pool_vsched~POOL vec issue: a vector-to-scalar move without its gap~		cost += KH_PV_V2S_GAP - 1;~		cost += 0;
479~units/pool/vec_sched.c~model_pool_vsched~POOL vec issue: FP flags ordered like a register write~		if (d.w[i] == KSIM_PV_SB_FSR && op != KSIM_PV_WFSR)\n\t\t\tcontinue;~		(void)0;
481~units/pool/vec_stream.c~model_pool_vmem~POOL vec: vla drops the offset's low bit~		ksim_pv_load(v->v[o->rd], cat + off);~		ksim_pv_load(v->v[o->rd], cat + (off & 62));
482~units/pool/vec_stream.c~model_pool_vmem~POOL vec: vsa writes only its own bytes of the row (the residue lost)~		memcpy(m, cat, KH_PV_VBYTES);~		memcpy(m + off, cat + off, KH_PV_VBYTES - off);
483~units/pool/vec_stream.c~model_pool_vmem~POOL vec: the flush writes the whole row~		memcpy(m, cat, off);~		memcpy(m, cat, KH_PV_VBYTES);
484~units/pool/vec_stream.c~model_pool_vmem~POOL vec: vla does not advance its address~	if (op != KSIM_PV_VSAP)~	if (op != KSIM_PV_VSAP && op != KSIM_PV_VLA)
485~units/pool/vec_stream.c~model_pool_vmem~POOL vec: gathers ignore the predicate~		if (!((pred >> i) & 1))\n\t\t\tcontinue;~		if (!(((pred | ~0ull) >> i) & 1))\n\t\t\tcontinue;
486~units/pool/vec_stream.c~model_pool_vmem~POOL vec: a scatter conflict goes to the lower lane~		for (i = 0; i < n; i++)\n\t\t\tif (at[i])\n\t\t\t\tksim_pv_put(at[i], size,\n\t\t\t\t\t    ksim_pv_lane~		for (i = n; i-- > 0;)\n\t\t\tif (at[i])\n\t\t\t\tksim_pv_put(at[i], size,\n\t\t\t\t\t    ksim_pv_lane
487~units/pool/vec_stream.c~model_pool_vmem~POOL vec: scatter-increment overwrites instead of adding~					    ksim_pv_get(at[i], size) +~					    ksim_pv_get(at[i], size) * 0 +
489~units/pool/vec_sched.c~model_pool_vsched~POOL vec issue: a divide step reads its inputs at 10, not 8~		return KH_PV_STAGE_DIVREAD;~		return KH_PV_STAGE_READ;
490~units/pool/vec_alu.c~model_pool_vec~POOL vec: a divide step compares without the shifted-in bit~		u32 r = x >> 15, q = (x << 1) & 0xffff;~		u32 r = (x >> 16) << 1, q = (x << 1) & 0xffff;
488~units/pool/vec_exec.c~model_pool_vmem~POOL vec: misaligned gather elements accepted~	if (a & (size - 1)) {~	if (size == KH_PV_MEM_ALIGN && (a & (size - 1))) {
480~units/pool/vec_sched.c~model_pool_vsched~POOL vec issue: a bundle reaches across a scalar instruction~	bool join = s->open && s->end == cur;~	bool join = s->open && s->end <= cur;
430~units/pool/vec_mac.c~model_pool_vec~POOL vec: vpack truncates when asked to round~		if (round && s)~		if (0 && round && s)
431~units/pool/vec_fp.c~model_pool_vfp~POOL FPU: vfmadd rounds the product, then the sum (no fused single rounding)~		return ksim_sf_fma(f, a, b, d, rm, fx);~		return ksim_sf_add(f, ksim_sf_mul(f, a, b, rm, fx), d, rm, fx);
432~units/pool/vec_fp.c~model_pool_vfp~POOL FPU: FCR's round modes toward +inf and toward -inf swapped~	[KH_PV_RM_RUP] = KSIM_SF_RUP,\n	[KH_PV_RM_RDN] = KSIM_SF_RDN,~	[KH_PV_RM_RUP] = KSIM_SF_RDN,\n	[KH_PV_RM_RDN] = KSIM_SF_RUP,
433~units/pool/vec_fp.c~model_pool_vfp~POOL FPU: FSR written, not ORed into (flags not sticky)~	v->fsr |= fx << KH_PV_FSR_FX_SHIFT;~	v->fsr = fx << KH_PV_FSR_FX_SHIFT;
434~units/pool/vec_fp.c~model_pool_vfp~POOL FPU: the N forms raise flags~	if (KSIM_PV_OP(o->imm) == KSIM_PV_FMA && (f7 & KH_PV_FNOFLAGS))\n		return;~	if (0)\n		return;
435~lib/softfp.c~model_pool_vfp~softfp: tininess detected before rounding~		tiny = e + msb < lsb0 + f->mbits - 1 ||~		tiny = 1 ||
436~lib/softfp.c~model_pool_vfp~softfp: an overflow rounding toward zero gives infinity~	if (rm == KSIM_SF_RTZ || (rm == KSIM_SF_RUP && sign) ||~	if ((rm == KSIM_SF_RUP && sign) ||
437~lib/softfp.c~model_pool_vfp~softfp: a NaN operand propagates, quietened, instead of the canonical NaN~			*flags |= KSIM_SF_X_INVALID;\n		return ksim_sf_qnan(f);\n	}\n	if (ksim_sf_is_inf(f, a) || ksim_sf_is_inf(f, b)) {~			*flags |= KSIM_SF_X_INVALID;\n		return (ksim_sf_is_nan(f, a) ? a : ksim_sf_is_nan(f, b) ? b : c) | 1u << (f->mbits - 1);\n	}\n	if (ksim_sf_is_inf(f, a) || ksim_sf_is_inf(f, b)) {
438~lib/softfp.c~model_pool_vfp~softfp: Underflow for a tiny result that is exact~	if (tiny && inexact)~	if (tiny)
439~lib/softfp.c~model_pool_vfp~softfp: an exact zero sum of opposite signs is +0 rounding down too~	return rm == KSIM_SF_RDN ? ksim_sf_sign(f) : 0;~	return 0;
440~lib/softfp.c~model_pool_vfp~softfp: multiply adds -0 in every mode (+0 times x is -0 rounding down)~rm == KSIM_SF_RDN ? 0 : ksim_sf_sign(f),~ksim_sf_sign(f),
441~lib/softfp.c~model_pool_vfp~softfp: trunc of a NaN gives the most negative integer (0 unsigned)~		*flags |= KSIM_SF_X_INVALID;\n		return (u32)max;~		*flags |= KSIM_SF_X_INVALID;\n		return (u32)((0 - top) & mask);
442~lib/softfp.c~model_pool_vfp~softfp: trunc drops a fraction without Inexact~	if (frac)\n		*flags |= KSIM_SF_X_INEXACT;~	(void)frac;
443~lib/softfp.c~model_pool_vfp~softfp: inf * 0 + quiet NaN raises no Invalid~		    ksim_sf_is_snan(f, c) || inf0)~		    ksim_sf_is_snan(f, c))
444~units/pool/vec_fp.c~model_pool_vfp~POOL FPU: vfcvt.h narrows va into all 32 lanes, vb ignored~ksim_pv_lane(i < 16 ? a : b, 32, i % 16)~ksim_pv_lane(a, 32, i % 16)
445~units/pool/vec_fp.c~model_pool_vfp~POOL FPU: FSR gets the last lane's flags, not every lane's ORed~		fx |= lf;~		fx = lf;
451~units/pool/vec_tab.c~model_pool_vtab~POOL vec Engine A: RECIP_Data8 ends at the seed prose's 0x81, not its formula's 0x80~0x81, 0x81, 0x80,\n};\n\n/*\n * RSQRT_Data8~0x81, 0x81, 0x81,\n};\n\n/*\n * RSQRT_Data8
452~units/pool/vec_tab.c~model_pool_vtab~POOL vec Engine A: an RSQRT_Data8 entry off by one (even half, j = 5)~	0xff, 0xfd, 0xfb, 0xf9, 0xf7, 0xf6,~	0xff, 0xfd, 0xfb, 0xf9, 0xf7, 0xf7,
453~units/pool/vec_tab.c~model_pool_vtab~POOL vec Engine A: rsqrt's parity halves swapped (even exponent first)~(e & 1 ? 0 : 64)~(e & 1 ? 64 : 0)
454~units/pool/vec_tab.c~model_pool_vtab~POOL vec Engine A: the reciprocal seed's exponent one too high~		re = -e - 1;~		re = -e;
455~units/pool/vec_tab.c~model_pool_vtab~POOL vec Engine A: rsqrt's exponent halved toward zero, not floored~		re = -(e >> 1) - 1;~		re = -(e / 2) - 1;
456~units/pool/vec_tab.c~model_pool_vtab~POOL vec Engine A: subnormal inputs flushed to zero, not normalised~	if (!ef && !f)\n\t\treturn sign | inf;~	if (!ef)\n\t\treturn sign | inf;
457~units/pool/vec_tab.c~model_pool_vtab~POOL vec Engine A: a NaN's payload kept (quieted), not the canonical NaN~		if (f || (rsqrt && sign))\n\t\t\treturn qnan;~		if (f)\n\t\t\treturn x | 1u << (fb - 1);\n\t\tif (rsqrt && sign)\n\t\t\treturn qnan;
458~units/pool/vec_tab.c~model_pool_vtab~POOL vec Engine A: a seed below the normal range flushed to zero~	return sig >> (1 - be);~	return 0;
459~units/pool/vec_tab.c~model_pool_vtab~POOL vec Engine A: the seeds raise Inexact in FSR~	memcpy(v->v[o->rd], r, sizeof(r));\n}~	memcpy(v->v[o->rd], r, sizeof(r));\n\tv->fsr |= KH_PV_FX_INEXACT << KH_PV_FSR_FX_SHIFT;\n}
460~units/pool/vec_tab.c~model_pool_vtab~POOL vec Engine A: vfrecipq truncates instead of rounding to nearest~	if (r > half || (r == half && (q & 1)))~	if (r > half + half)
461~units/pool/vec_tab.c~model_pool_vtab~POOL vec Engine A: the QLI's segment 0 without its quadratic term~{ 0xfc0ec8ce, 0xfa1a93a7 }~{ 0xfc0ec8ce, 0x00000000 }
462~units/pool/vec_tab.c~model_pool_vtab~POOL vec Engine A: vfrecipq interpolates a power of two too (not exact)~	if (!f) {\n\t\ty = 1ull << 40;~	if (0) {\n\t\ty = 1ull << 40;
463~units/pool/vec_perm.c~model_pool_vtab~POOL vec permute: SEL's index taken mod N, not 2N (vb unreachable)~			j = ksim_pv_lane(d, bits, i) % (2 * n);~			j = ksim_pv_lane(d, bits, i) % n;
464~units/pool/vec_perm.c~model_pool_vtab~POOL vec permute: DCMPRS leaves va's lanes above the packed ones~	memset(r, 0, sizeof(r));~	memset(r, 0, sizeof(r));\n\tmemcpy(r[0], a, sizeof(r[0]));
465~units/pool/vec_perm.c~model_pool_vtab~POOL vec permute: DSEL's outputs swapped (odd lanes to v[rd])~			ksim_pv_set_lane(r[j & 1], bits, j / 2, x);~			ksim_pv_set_lane(r[!(j & 1)], bits, j / 2, x);
501~xdma/engine.c~model_xdma~XDMA: the magic is not checked~	if ((d->control >> 16) != KH_XDMA_DESC_MAGIC) {~	if (0) {
502~xdma/engine.c~model_xdma~XDMA: a block may cross 4 KiB~	    (a & (KH_XDMA_DESC_BOUNDARY - 1)) + bytes > KH_XDMA_DESC_BOUNDARY ||~	    0 ||
503~xdma/engine.c~model_xdma~XDMA: status logged whatever control enables~	ch->status |= bits & ch->ctrl & KSIM_XDMA_STAT_MASK;~	ch->status |= bits & KSIM_XDMA_STAT_MASK;
504~xdma/engine.c~model_xdma~XDMA: the next block is one descriptor (nxt_adj ignored)~	ch->fetch_n = ((d->control >> KH_XDMA_DESC_ADJ_SHIFT) &\n\t\t       KH_XDMA_DESC_ADJ_MAX) + 1;~	ch->fetch_n = 1;
505~xdma/engine.c~model_xdma~XDMA: clearing RUN alone releases a wedge with errors logged~	    !(ch->status & KH_XDMA_ERRORS))~	    1)
506~xdma/engine.c~model_xdma~XDMA: SLVERR stops the channel instead of wedging it~				ksim_xdma_card_err(ch, KH_XDMA_ERR_SLVERR), card);~				ksim_xdma_card_err(ch, KH_XDMA_ERR_SLVERR), card);\n\t\tksim_xdma_idle(ch, 0);
507~xdma/engine.c~model_xdma~XDMA: the write-back after an error lacks [31]~	ksim_xdma_writeback(ch, true);~	ksim_xdma_writeback(ch, false);
508~xdma/engine.c~model_xdma~XDMA: the RUN edge keeps the completed count~	ch->completed = 0;\n\tch->restart = false;~	ch->restart = false;
509~xdma/engine.c~model_xdma~XDMA: H2C data without the host round trip~	if (!ch->c2h)\n\t\tcycles += ksim_xdma_round_trip(x);~	if (0)\n\t\tcycles += ksim_xdma_round_trip(x);
510~xdma/engine.c~model_xdma~XDMA: clearing RUN does not stop a busy channel~		ch->stopping = true;~		(void)0;
511~xdma/irq.c~model_xdma~XDMA IRQ: a message on every evaluation, not once per assertion~	x->user_pend = user;\n\tx->chan_pend = chan;~	x->user_pend = 0;\n\tx->chan_pend = 0;
512~xdma/irq.c~model_xdma~XDMA IRQ: the channel enable is ignored~	u32 chan = ksim_xdma_chan_req(x) & x->chan_en;~	u32 chan = ksim_xdma_chan_req(x);
513~xdma/irq.c~model_xdma~XDMA IRQ: C2H requests on H2C's bit~			       KH_XDMA_IRQ_BIT_C2H(KSIM_XDMA_N_H2C, 0);~			       KH_XDMA_IRQ_BIT_H2C(0);
514~xdma/irq.c~model_xdma~XDMA IRQ: a vector past the host's count is delivered~	bool lost = vector >= x->n_vectors || !x->msi;~	bool lost = !x->msi;
515~xdma/regs.c~model_xdma~XDMA: reading status-RC does not clear it~.ro = KSIM_REG_ALL, .rc = KSIM_REG_ALL,~.ro = KSIM_REG_ALL, .rc = 0,
516~xdma/regs.c~model_xdma~XDMA: a status write that clears a bit clears every bit~	if (v != old) {\n\t\tksim_xdma_status_cleared(ch);~	if (v != old) {\n\t\tch->status = 0;\n\t\tksim_xdma_status_cleared(ch);
517~xdma/regs.c~model_xdma~XDMA: absent channels answer as channel 0~	if (chan)\n\t\treturn NULL;~	if (0)\n\t\treturn NULL;
518~xdma/engine.c~model_xdma~XDMA: data chunks not aligned on the card side~		n = KSIM_XDMA_CHUNK - ((card + o) & (KSIM_XDMA_CHUNK - 1));~		n = KSIM_XDMA_CHUNK - ((host + o) & 31);
519~xdma/engine.c~model_xdma~XDMA: a mesh in reset hangs the channel instead of holding the data~	if (e == -EAGAIN)\n\t\treturn KSIM_XM_STALL;~	if (0)\n\t\treturn KSIM_XM_STALL;
520~xdma/engine.c~model_xdma~XDMA: the SGDMA halt is ignored~	if (ksim_xdma_halted(ch)) {~	if (0) {
521~xdma/irq.c~model_xdma~XDMA IRQ: the user interrupt is tied 0 even with the addon~	return x->usr_irq ? 1u : 0;~	return 0;
522~xdma/irq.c~model_xdma~XDMA IRQ: the addon line's changes do not reach the IRQ block~	x->usr_irq = level;\n\tksim_xdma_irq_eval(x);~	x->usr_irq = level;
523~obs/inject.c~model_xdma~XDMA knob: dir= is ignored~		if (ev != event || !(k->xdir & (1u << c2h)))~		if (ev != event)
524~lib/regs.h~model_xdma~XDMA: a W1S alias writes the register instead of setting bits~	      (old & r->w1c & \x7ev) | ((old | v) & r->w1s);~	      (old & r->w1c & \x7ev) | (v & r->w1s);
525~xdma/engine.c~model_xdma~XDMA: C2H data land in the bounce buffer though the host offered its pointer~			e = x->bus->ops->read(x->bus->ctx, card + o,\n\t\t\t\t\t      p ?: x->bounce, n);~			e = x->bus->ops->read(x->bus->ctx, card + o,\n\t\t\t\t\t      x->bounce, n);
526~xdma/engine.c~model_xdma~XDMA knob: a stray transfer goes to the descriptor's own address~		host = KSIM_XDMA_STRAY_BUS;~		host = host;
527~obs/inject.c~model_xdma~XDMA knob: stray is not a data-transfer event~		unsigned int ev = k->xerr == KSIM_XE_SLVERR ||\n\t\t\t\t  k->xerr == KSIM_XE_STRAY ? KSIM_XE_HOST :~		unsigned int ev = k->xerr == KSIM_XE_SLVERR ? KSIM_XE_HOST :
701~units/sx.c~model_sx~SX: a binary32 FMA instead of saxpy_cu's integer datapath~	if (s->fma)\n\t	return ksim_fp32_fma~	if (1)\n\t	return ksim_fp32_fma
702~units/sx.c~model_sx~SX: no N_MAX: n > 64 runs instead of FAULT_TOO_BIG~	} else if (s->n > KH_SX_N_MAX) {~	} else if (0) {
703~units/sx.c~model_sx~SX: an unknown opcode faults with code 1, not 0xBAD0_0001~		s->fault_code = KH_SX_FAULT_BAD_OP;~		s->fault_code = 1;
704~units/sx.c~model_sx~SX: f2i keeps a subnormal's fraction~	if (!e)\n\t	mag = 0;~	if (!e)\n\t	mag = b & 0x7fffff;
705~units/sx.c~model_sx~SX: i2f finds the exponent among all 32 bits, not bits 0..23~	p = mag & 0xffffff ? 31 - __builtin_clz(mag & 0xffffff) : 0;~	p = 31 - __builtin_clz(mag);
706~units/sx.c~model_sx~SX: a line per cycle in S_COMP, not an element (2-4x optimistic)~#define SX_ELEMS_PER_CYCLE	1~#define SX_ELEMS_PER_CYCLE	8
707~units/sx.c~model_sx~SX: y is requested with x's tag~		ksim_sx_load_req(u, s, KH_T_MEM_RD_REQ, KH_SX_TAG_Y, s->y);~		ksim_sx_load_req(u, s, KH_T_MEM_RD_REQ, KH_SX_TAG_X, s->y);
708~units/sx.c~model_sx~SX: CU_DBG counts instructions, not elements~			s->elements++;~			s->elements += s->ei == s->n - 1;
709~mesh/mag.c~model_sx~MAG: a unit's unaligned address reads and writes bytes from inside a word, not the whole word~(u64)(KH_PAYLOAD_BYTES - 1);\n\tif (!(addr & KH_MADDR_SPECIAL)) {~(u64)(KH_PAYLOAD_BYTES - KH_PAYLOAD_BYTES);\n\tif (!(addr & KH_MADDR_SPECIAL)) {
710~units/base.c~model_sx~CU_CAPS: one version for every unit under the RTL's defaults, not each module's own~		      u->type->cu_version_fixed ? u->type->cu_version :~		      u->type->cu_version_fixed ? 4 :
711~units/sx.c~model_sx~SX: param sx_fma is ignored~	s->fma = ksim_unit_params(u)->sx_fma;~	s->fma = false;
712~units/base.c~model_cpu~CU_CAPS: rv_pe reports the mesh's build number, not its wired-in 0x01~		      u->type->cu_version_fixed ? u->type->cu_version :~		      0 ? u->type->cu_version :
661~units/cpu/rx.c~model_cpu~cpu CU_DATA: offset + len = 256 accepted (wraps to granule 0)~	return ksim_cpu_buf_ok(buf) && off + len < KH_CPU_WINDOW_GRANULES;~	return ksim_cpu_buf_ok(buf) && off + len <= KH_CPU_WINDOW_GRANULES;
662~units/cpu/rx.c~model_cpu~cpu CU_DATA: the framework's reserved buffer 3 is accepted~	return buf == KH_CPU_BUF_SPAD || buf == KH_CPU_BUF_IMEM ||~	return buf == KH_CPU_BUF_SPAD || buf == KH_CPU_BUF_IMEM || buf == 3 ||
663~units/cpu/rx.c~model_cpu~cpu CU_DATA: a word write into the instruction window honours byte enables~		unsigned int be = imem ? 0xf : kh_flit_get(f, KH_CPU_WORD_BE);~		unsigned int be = kh_flit_get(f, KH_CPU_WORD_BE);
664~units/cudata.c~model_cpu~CU_DATA receiver (cpu): a second sender's flit counts as data of the open burst~	foreign = p->foreign != KSIM_CD_FOREIGN_SPLICES &&~	foreign = 0 &&
665~units/cpu/rx.c~model_cpu~cpu CU_DATA: a granule does not hold the receive path for its eight word writes~		s->gw_free = now + 1 + KH_CPU_GRANULE_WORDS;~		s->gw_free = now;
666~units/cpu/rx.c~model_cpu~cpu CU_DATA: a word write ignores its word-in-granule select~		unsigned int a = base + kh_flit_get(f, KH_CPU_WORD_SEL);~		unsigned int a = base;
667~units/cpu/cpu.c~model_cpu~cpu kick: does not wait for the receive path to be quiet~		if (!f || !quiet)\n~		if (!f)\n
668~units/cpu/cpu.c~model_cpu~cpu kick: every opcode starts the core~		if (op != KH_CPU_OP_KICK) {~		if (op > 0xff) {
669~units/cpu/cpu.c~model_cpu~cpu retirement: does not wait for the write acknowledgements~		    !ksim_cpu_req_idle(s) || s->n_out)~		    !ksim_cpu_req_idle(s))
670~units/cpu/cpu.c~model_cpu~cpu retirement: EBREAK retires without exec_fault~				 s->cause == KH_CPU_CAUSE_EBREAK ||\n~				 0 ||\n
671~units/cpu/cpu.c~model_cpu~cpu retirement: a fault reports a0, not the faulting PC~				 s->halt_pc : s->x[10],~				 s->x[10] : s->x[10],
672~units/cpu/cpu.c~model_cpu~cpu kick: the halt cause survives the kick~		s->halted = false;\n		s->cause = KH_CPU_CAUSE_NONE;~		s->halted = false;
673~units/cpu/core.c~model_cpu~cpu decode: the M extension's funct7 1 executes as the base op~	if (f7 == 0)\n		return true;~	if (f7 == 0 || f7 == 1)\n		return true;
674~units/cpu/core.c~model_cpu~cpu decode: MISC-MEM other than FENCE faults~		/* FENCE is a no-op: one core, one memory port, in order */\n		break;~		ok = ksim_rv32_f3(w) == 0;\n		break;
675~units/cpu/core.c~model_cpu~cpu EX: a misaligned halfword access does not fault~	if (((f3 & 3) == 1 && (a & 1)) || ((f3 & 3) == 2 && (a & 3)))~	if ((f3 & 3) == 2 && (a & 3))
676~units/cpu/core.c~model_cpu~cpu EX: a load from the peer window does not fault~		return load ? KSIM_CPU_M_NONE : KSIM_CPU_M_PEER;~		return KSIM_CPU_M_PEER;
677~units/cpu/core.c~model_cpu~cpu EX: the DSP build's region 0x4 is mapped (as the scratchpad)~	case 1:\n		return KSIM_CPU_M_SPAD;~	case 1:\n	case 4:\n		return KSIM_CPU_M_SPAD;
678~units/cpu/mem.c~model_cpu~cpu timing: a load's value is forwarded one cycle early (one bubble at distance 1)~		s->ready[m->rd] = now + 2;~		s->ready[m->rd] = now + 1;
679~units/cpu/core.c~model_cpu~cpu timing: a redirect costs two cycles, not three~		s->t_next = now + 4;~		s->t_next = now + 3;
680~units/cpu/core.c~model_cpu~cpu EX: JALR keeps bit 0 of its target~		res = pc + 4;\n		wen = ctl = taken = jump = true;\n		break;\n	case KSIM_RV_BRANCH:~		res = pc + 4;\n		target |= (s->x[ksim_rv32_rs1(w)] + ksim_rv32_imm_i(w)) & 1;\n		wen = ctl = taken = jump = true;\n		break;\n	case KSIM_RV_BRANCH:
681~units/rv32i.h~model_cpu~RV32I ALU: SRA shifts in zeros~		return (a >> sh) | ((a & 0x80000000u) && sh ?~		return (a >> sh) | (0 && sh ?
682~units/cpu/core.c~model_cpu~cpu decode: SYSTEM ignores instr[19:7] (EBREAK with rd set halts as EBREAK)~		if ((w >> 21) || ((w >> 7) & 0x1fff)) {~		if (w >> 21) {
683~units/cpu/l1.c~model_cpu~cpu L1: flush-all leaves the lines it wrote back dirty~		s->line[s->scan].dirty = false;\n		s->scan++;\n		s->l1 = KSIM_CPU_L_S_SCAN;\n		return true;\n	case KSIM_CPU_L_S_DRAIN:~		s->scan++;\n		s->l1 = KSIM_CPU_L_S_SCAN;\n		return true;\n	case KSIM_CPU_L_S_DRAIN:
684~units/cpu/l1.c~model_cpu~cpu L1: invalidate-all keeps dirty lines~			s->line[s->scan].valid = false;\n			s->line[s->scan].dirty = false;~			s->line[s->scan].valid = s->line[s->scan].dirty;
685~units/cpu/l1.c~model_cpu~cpu L1: a dirty victim is dropped, not written back~		if (l->valid && l->dirty) {~		if (0 && l->valid && l->dirty) {
686~units/cpu/cpu.h~model_cpu~cpu L1: the index taken from addr[12:6]~#define KSIM_CPU_L1_IDX(a)	(((a) >> 5) & (KH_CPU_L1_LINES - 1))~#define KSIM_CPU_L1_IDX(a)	(((a) >> 6) & (KH_CPU_L1_LINES - 1))
687~units/cpu/req.c~model_cpu~cpu push: the window bit is ignored (always the scratchpad)~			    s->pq_win ? KH_CPU_BUF_IMEM_W : KH_CPU_BUF_SPAD_W);~			    KH_CPU_BUF_SPAD_W);
688~units/cpu/req.c~model_cpu~cpu fills: the 4-bit tag does not rotate~	s->rd_tag = (s->rd_tag + 1) & KH_CPU_TXN_FILL_MASK;~	s->rd_tag = 0;
689~units/cpu/mem.c~model_cpu~cpu control: a FLUSH store completes before the sweep is done~				return ksim_cpu_ct(s, idx == KH_CPU_CTL_INVAL,\n						   now);~				return ksim_cpu_ct(s, idx == KH_CPU_CTL_INVAL,\n						   now) || 1;
631~units/mat/l1.c~model_mat~mat FILL: QUANT set when preq, clear otherwise~(in->preq ? 0 : KH_MEMF_QUANT)~(in->preq ? KH_MEMF_QUANT : 0)
632~units/mat/l1.c~model_mat~mat FILL: a B fill asks MAG for the A packing~(in->sel ? KH_MEMF_BLAYOUT : 0)~0
633~units/mat/l1.c~model_mat~mat FILL: txn 0 instead of eoff~KH_T_MEM_RD_REQ, in->eoff, 1)~KH_T_MEM_RD_REQ, 0, 1)
634~units/mat/l1.c~model_mat~mat L1: scales taken from word 3, not word 0~if (word == 0)\n\t\tfor~if (word == 3)\n\t\tfor
635~units/mat/l1.c~model_mat~mat L1: A and B placements swapped~unsigned int lane = sel ? KH_MX_B_LANE(o) : KH_MX_A_LANE(o);~unsigned int lane = sel ? KH_MX_A_LANE(o) : KH_MX_B_LANE(o);
636~units/mat/l1.c~model_mat~mat L1: the bank bit dropped at commit~m->l1[sel][ent % KH_MAT_GA] = *e;~m->l1[sel][ent % KH_MAT_BANK] = *e;
637~units/mat/cudata.c~model_mat~mat FILL: fbank ignored when placing responses~(m->in.fbank ? KH_MAT_BANK : 0) +~0 +
638~units/mat/cudata.c~model_mat~mat CU_DATA: a burst ending at the L1 A limit is accepted~return end < KH_MAT_GA * 4;~return end <= KH_MAT_GA * 4;
639~units/mat/cudata.c~model_mat~mat CU_DATA: a peer burst at an odd granule is accepted~return end < KH_MAT_TILES * 2 && !(off & 1);~return end < KH_MAT_TILES * 2;
640~units/mat/cudata.c~model_mat~mat CU_DATA: an unknown buffer is accepted~default:\n\t\treturn false;~default:\n\t\treturn true;
641~units/mat/cudata.c~model_mat~mat CU_DATA: a rejected burst raises no fault~	m->fault = true;~	(void)m;
642~units/cudata.c~model_mat~CU_DATA receiver (mat): a rejected burst still writes~	if (!cd->refused)\n\t\tp->word(~	if (1)\n\t\tp->word(
643~units/cudata.c~model_mat~CU_DATA receiver (mat): the signal ignores the ack coordinate~	if (!cd->ax && !cd->ay) {~	if (1) {
644~units/cudata.c~model_mat~CU_DATA receiver (mat): SIG_DATA_RECEIVED carries the offset, not the buffer~	a->buf = cd->buf;~	a->buf = cd->off;
645~units/mat/cudata.c~model_mat~mat peer: sub-tile index is the granule, not granule / 2~m->pk_idx = off >> 1;~m->pk_idx = off;
646~units/mat/mat.c~model_mat~mat: the CU_DATA fault is reported at every retirement after~m->fault = false;\n\tm->st = KSIM_MAT_IDLE;~m->st = KSIM_MAT_IDLE;
647~units/mat/mat.c~model_mat~mat: exec_result leaves out the drains~u16 cnt = (u16)(m->nfill + m->ngemm + m->ndrain);~u16 cnt = (u16)(m->nfill + m->ngemm);
648~units/mat/sweep.c~model_mat~mat GEMM (pump): an odd nk's lone last block merged with the entry after it~			    m->kb + 1 >= s->nk, s->anchor, v);~			    false, s->anchor, v);
649~units/mat/mat.c~model_mat~mat: n = 0 is not 1~if (!in->n)\n\t\tin->n = 1;~if (0)\n\t\tin->n = 1;
650~units/mat/mat.c~model_mat~mat: addr_hi [68:63] ignored (34-bit addresses)~kh_flit_get(f, KH_MAT_ADDR_HI) << KH_MAT_ADDR_LO_BITS;~0;
651~units/mat/sweep.c~model_mat~mat GEMM: an emitting sweep never holds at DQ_LIMIT~if (m->d_out >= KSIM_MAT_DQ_LIMIT)\n\t\treturn;\n\tif (m->pace) {~if (0)\n\t\treturn;\n\tif (m->pace) {
652~units/mat/mat.c~model_mat~mat DRAIN: retires before the write port has sent everything~if (ksim_mat_drain_busy(m) || !ksim_mat_w_idle(m))~if (ksim_mat_drain_busy(m))
653~units/mat/sweep.c~model_mat~mat GEMM: acc ignored, the first K block always loads~bool load = m->kb == 0 && !s->acc;~bool load = m->kb == 0;
654~units/mat/sweep.c~model_mat~mat GEMM: L1 A entries walked K-major~unsigned int a = s->aoff + m->g * s->nk + m->kb;~unsigned int a = s->aoff + m->g + m->kb * s->gm;
655~units/mat/sweep.c~model_mat~mat GEMM: small tilings not paced~m->pace_n = (s->nk <= 1 || !small) ? 0 : one ? 4 : two ? 2 : 1;~m->pace_n = (s->nk <= 1 || !small || one || two) ? 0 : 0;
656~units/mat/acu.c~model_mat~mat numerics: the chain value truncated, not rounded~up = guard & (sticky | (sig & 1));~up = 0 & guard & sticky;
657~units/mat/acu.c~model_mat~mat numerics: FP22 add rounds ties away from zero~up = g & (st | (sig & 1));~up = g | (st & 0);
658~units/mat/acu.c~model_mat~mat numerics: FP16 overflow gives Inf, not 0x7bff~return (u16)((s << 15) | (0x1e << 10) | 0x3ff);~return (u16)((s << 15) | (0x1f << 10));
659~units/mat/drain.c~model_mat~mat DRAIN: every burst written at the base address~kh_flit_set(&f, KH_MEM_ADDR, d->addr +\n\t\t\t\t    (u64)m->w_sfirst * KH_MAT_GRANULE);~kh_flit_set(&f, KH_MEM_ADDR, d->addr);
601~units/vec/vec.c~model_vec~vec CAPS: N_BUFFERS reports the one buffer accepted, not vec_cu.v's 2~	.n_buffers = KH_VEC_NBUF,~	.n_buffers = KH_VEC_CU_DATA_BUFS,
602~units/vec/vec.c~model_vec~vec: an unknown CU opcode faults instead of retiring as a no-op~	default:\n\t\tbreak;\t\t/* retires as a no-op */~	default:\n\t\tv->fault = true;\n\t\tbreak;
603~units/vec/vec.c~model_vec~vec: a RUN retires with 0, not the kernel cycles~	v->result = fault ? code : v->cycles;~	v->result = fault ? code : 0;
604~units/vec/mem.c~model_vec~peer VDRAIN: the descriptor's len is the entry count, not count - 1~		v->nd_len = (total - 1) & 0xff;~		v->nd_len = total & 0xff;
605~units/vec/e8.c~model_vec~E8M15 FMA: ties round away from zero, not to even~	up = ((nrm >> 31) & 1) && ((nrm & 0x7fffffffULL) || stk || (sig & 1));~	up = ((nrm >> 31) & 1) && ((nrm & 0x7fffffffULL) || stk || 1);
606~units/vec/e8.c~model_vec~E8M15 FMA: a zero addend leaves no sticky (correct rounding, not vec_alu.v)~	stk = s >= 33 && (gc & (s == 48 ? 0xffff : (1u << (s - 32)) - 1));~	stk = s >= 33 && s < 48 && (gc & ((1u << (s - 32)) - 1));
607~units/vec/e8.c~model_vec~E8M15 FMA: a product far below the addend is added, not dropped~	m = (byp || pz) ? 0 : ga * gb;~	m = pz ? 0 : ga * gb;
608~units/vec/e8.c~model_vec~E8M15 FMA: exact cancellation keeps the sign (x - x = -0)~	bool cancels = neg && !pz && !cz;~	bool cancels = false;
609~units/vec/e8.c~model_vec~E8M15: VADD adds b, not c~	if (op == KH_VEC_VADD || op == KH_VEC_VFMA || op == KH_VEC_VFNMA)\n\t\tvc = c;~	if (op == KH_VEC_VADD)\n\t\tvc = b;\n\telse if (op == KH_VEC_VFMA || op == KH_VEC_VFNMA)\n\t\tvc = c;
610~units/vec/e8.c~model_vec~E8M15: VCMPEQ of a NaN with itself is true~		*pred = eq && !nan;~		*pred = eq;
611~units/vec/e8.c~model_vec~E8M15 -> FP16: a finite overflow becomes infinity, not 65504~	if (e5 >= 31)\n\t\treturn (s << 15) | (0x1e << 10) | 0x3ff;~	if (e5 >= 31)\n\t\treturn (s << 15) | (0x1f << 10);
612~units/vec/e8.c~model_vec~E8M15 -> FP16: subnormals truncate instead of rounding~	rnd = keep + (((wide >> 31) & 1) & ((wide & 0x7fffffffULL) != 0 || (keep & 1)));~	rnd = keep;
613~units/vec/e8.c~model_vec~FP16 -> E8M15: a subnormal's exponent is one too high~		return (s << 23) | ((103u + p) << 15) |~		return (s << 23) | ((104u + p) << 15) |
614~units/vec/e8.c~model_vec~FP32 -> E8M15: the mantissa is truncated, not rounded~	rnd = keep + (((m >> 7) & 1) & ((m & 0x7f) || (keep & 1)));~	rnd = keep;
615~units/vec/agu.c~model_vec~AGU: a bound of 0 is 0, not 1~		a->cb[k] = a->bnd[sel][k] ? a->bnd[sel][k] : 1;~		a->cb[k] = a->bnd[sel][k];
616~units/vec/agu.c~model_vec~AGU: strides are unsigned (no negative walk)~		a->cs[k] = (st & 0x20000) ? (s64)st - 0x40000 : (s64)st;~		a->cs[k] = (s64)st;
617~units/vec/agu.c~model_vec~AGU: the total's partial products wrap instead of saturating~	u32 s01 = t01 >> 16 ? 0xffff : t01, s23 = t23 >> 16 ? 0xffff : t23;~	u32 s01 = t01 & 0xffff, s23 = t23 & 0xffff;
618~units/vec/agu.c~model_vec~AGU: a step at the last index goes on walking~	if (ksim_vec_agu_last(a)) {~	if (ksim_vec_agu_last(a) && 0) {
619~units/vec/ldst.c~model_vec~VST FP32: the second half goes to the next word (not what vec_core.v does)~			/* the same address again: the walker has not moved yet */\n\t\t\tksim_vec_agu_step(&v->agu);~			a = ksim_vec_agu_addr(&v->agu);\n\t\t\tksim_vec_agu_step(&v->agu);
620~units/vec/ldst.c~model_vec~VSHUF rotates the other way~		tmp[i] = v->vreg[va][c * KH_VEC_LANES + (i + k) % KH_VEC_LANES];~		tmp[i] = v->vreg[va][c * KH_VEC_LANES + (i + KH_VEC_LANES - k) % KH_VEC_LANES];
621~units/vec/ldst.c~model_vec~VBCAST: a V source broadcasts S[va] instead of taking element 0 into S[vd]~		if (KH_VEC_GET(w, KH_VEC_SA) != KH_VEC_SRC_S) {~		if (KH_VEC_GET(w, KH_VEC_SA) == KH_VEC_SRC_K) {
622~units/vec/lanes.c~model_vec~lanes: predicate mode 2 writes every lane~				 (pm == KH_VEC_PM_TRUE) == !!v->preg[pr][i])~				 pm >= KH_VEC_PM_FALSE || v->preg[pr][i])
623~units/vec/lanes.c~model_vec~lanes: elements past VL are written~			bool p = false, tail = c < (v->vl >> 4) || s < (v->vl & 15);~			bool p = false, tail = true;
624~units/vec/lanes.c~model_vec~lanes: a compare writes its vector result as well as the predicate~			if (cmp)\n\t\t\t\tv->preg[pr][i] = p;\n\t\t\telse if~			if (cmp)\n\t\t\t\tv->preg[pr][i] = p;\n\t\t\tif
625~units/vec/vec.h~model_vec~timing: the lanes read empty one ALU latency after the last beat (not the 60-deep meta line)~#define KSIM_VEC_DRAIN_LAT	(2 + 4 * KSIM_VEC_ALAT + 16 + 1)~#define KSIM_VEC_DRAIN_LAT	(2 + KSIM_VEC_ALAT + 1)
626~units/vec/kernel.c~model_vec~VRED ANY/ALL read their own pr, not the one latched before~	u32 kind = KH_VEC_GET(w, KH_VEC_VC) & 7, p = v->g_pr, i, hit = 0;~	u32 kind = KH_VEC_GET(w, KH_VEC_VC) & 7, p = KH_VEC_GET(w, KH_VEC_PR), i, hit = 0;
627~units/vec/kernel.c~model_vec~VLOOP: the body runs count + 1 times~		if (v->lp_cnt > 1) {~		if (v->lp_cnt > 0) {
628~units/vec/kernel.c~model_vec~VSETVL: a VL of 0 is accepted~		if (!s || s > KH_VEC_VLMAX) {~		if (s > KH_VEC_VLMAX) {
629~units/vec/port.c~model_vec~CU_DATA: offset + len == 512 is accepted (range check off by one)~	return buf == 0 && off + len < KH_VEC_L1_WORDS;~	return buf == 0 && off + len <= KH_VEC_L1_WORDS;
801~units/dxa/lines.c~model_dxa~dxa OOB: a coordinate equal to the size (dims 1-4) is in bounds~			if (cd >= d->size[dim])~			if (cd > d->size[dim])
802~units/dxa/lines.c~model_dxa~dxa OOB: dimension 0 is never out of bounds~			if (c0 >= d->size[0])\n\t\t\t\tbreak;~			if (0)\n\t\t\t\tbreak;
803~units/dxa/lines.c~model_dxa~dxa address: every dimension uses stride[0]~			rb += (u64)cd * d->stride[dim - 1];~			rb += (u64)cd * d->stride[0];
804~units/dxa/lines.c~model_dxa~dxa address: coordinate 0 is not added~			a = (rb + (u64)c0 * x->eb) & KSIM_DXA_ADDR_MASK;~			a = (rb + (u64)i0 * x->eb) & KSIM_DXA_ADDR_MASK;
805~units/dxa/stage.c~model_dxa~dxa K-major: the row pitch is tile0, not tile1~		return ((lin % x->ext[0]) * x->ext[1] + lin / x->ext[0]) *~		return ((lin % x->ext[0]) * x->ext[0] + lin / x->ext[0]) *
806~units/dxa/burst.c~model_dxa~dxa multicast: every receiver gets offset + mstride, not offset + r * mstride~			    (KH_DXA_RECV_OFF(rv) + x->b_r * x->d.mstride) &~			    (KH_DXA_RECV_OFF(rv) + x->d.mstride) &
807~units/dxa/lines.c~model_dxa~dxa line dedup: a line shared by elements is read once per element~		if (x->line_addr[x->h_line[h]] == a)\n\t\t\treturn x->h_line[h];~		if (0)\n\t\t\treturn x->h_line[h];
808~units/dxa/lines.c~model_dxa~dxa counters: reads saved count every receiver, not receivers - 1~	x->gmem_saved += x->nrecv - 1;~	x->gmem_saved += x->nrecv;
809~units/dxa/stage.c~model_dxa~dxa cfill: 8-byte elements repeat cfill instead of zero-extending it~		fill[b] = b < 4 ? (u8)(x->d.cfill >> (8 * b)) : 0;~		fill[b] = (u8)(x->d.cfill >> (8 * (b & 3)));
810~units/dxa/burst.c~model_dxa~dxa acks: the copy retires at its last flit without waiting for the acks~	if (++x->b_r == x->nrecv)\n\t\tx->state = KSIM_DXA_ACK;~	if (++x->b_r == x->nrecv)\n\t\tksim_dxa_finish(x);
811~units/dxa/burst.c~model_dxa~dxa acks: the first ack after the last burst retires the copy~		if (x->state == KSIM_DXA_ACK && ksim_dxa_all_acked(x))~		if (x->state == KSIM_DXA_ACK && (ksim_dxa_all_acked(x) || 1))
812~units/dxa/setup.c~model_dxa~dxa BAD_OP: [245:240] not checked~	if (op != KH_DXA_OP_COPY || zero)~	if (op != KH_DXA_OP_COPY)
813~units/dxa/setup.c~model_dxa~dxa EMPTY_SLOT: a rank-0 slot copies~	if (!rank)\n\t\treturn KH_DXA_FAULT_EMPTY_SLOT;~	if (0)\n\t\treturn KH_DXA_FAULT_EMPTY_SLOT;
814~units/dxa/setup.c~model_dxa~dxa BAD_META: only swizzle is reserved~	if (rank > KH_DXA_MAX_RANK || (d->meta & KH_DXA_META_RESERVED) ||~	if (rank > KH_DXA_MAX_RANK || (d->meta & KH_DXA_META_SWIZZLE) ||
815~units/dxa/setup.c~model_dxa~dxa BAD_META: a base above 40 bits is taken~	    d->base > KSIM_DXA_ADDR_MASK)~	    0)
816~units/dxa/setup.c~model_dxa~dxa KMAJOR_RANK: K-major rank 3 is taken~	if ((d->meta & KH_DXA_META_KMAJOR) && rank > 2)~	if ((d->meta & KH_DXA_META_KMAJOR) && rank > 3)
817~units/dxa/setup.c~model_dxa~dxa ZERO_TILE: only dimension 0 is checked~		if (!d->tile[i])\n\t\t\treturn KH_DXA_FAULT_ZERO_TILE;~		if (!d->tile[0])\n\t\t\treturn KH_DXA_FAULT_ZERO_TILE;
818~units/dxa/setup.c~model_dxa~dxa TILE_TOO_BIG: exactly 8 KiB faults~	if (elems * x->eb > KH_DXA_MAX_TILE_BYTES)~	if (elems * x->eb >= KH_DXA_MAX_TILE_BYTES)
819~units/dxa/burst.c~model_dxa~dxa NO_ACK: twice the ack timeout~	x->ack_by[x->b_r] = now + KH_DXA_ACK_TIMEOUT;~	x->ack_by[x->b_r] = now + 2 * KH_DXA_ACK_TIMEOUT;
820~units/dxa/burst.c~model_dxa~dxa STALL: twice the watchdog~	next = x->last_progress + KH_DXA_STALL_TIMEOUT;~	next = x->last_progress + 2 * KH_DXA_STALL_TIMEOUT;
821~units/dxa/lines.c~model_dxa~dxa reads: at most 4 in flight, not KH_DXA_MAX_INFLIGHT~	return x->state == KSIM_DXA_READ && x->rd_next < x->n_lines &&~	return x->state == KSIM_DXA_READ && x->rd_next < x->n_lines && x->rd_out < 4 &&
822~units/dxa/setup.c~model_dxa~dxa timing: one setup cycle short~	x->ready_at = now + 1 + KSIM_DXA_SETUP_CYCLES;~	x->ready_at = now + KSIM_DXA_SETUP_CYCLES;
823~units/dxa/stage.c~model_dxa~dxa timing: K-major places a line a cycle~		return x->line_first[l + 1] - x->line_first[l];~		return 1;
824~units/dxa/table.c~model_dxa~dxa table: a burst of several slots is taken~	       len + 1 == KH_DXA_SLOT_GRANULES;~	       len + 1 >= KH_DXA_SLOT_GRANULES;
825~units/dxa/table.c~model_dxa~dxa table: an odd offset is taken~	return buf == KH_DXA_BUF_TABLE && !(off % KH_DXA_SLOT_GRANULES) &&~	return buf == KH_DXA_BUF_TABLE &&
826~units/dxa/table.c~model_dxa~dxa DXA_DATA: words at 4-byte steps~	const u8 *p = &x->table[0][0] + (w % KH_DXA_TABLE_WORDS) * 8;~	const u8 *p = &x->table[0][0] + (w % KH_DXA_TABLE_WORDS) * 4;
827~units/scr.c~model_dxa~scr COPY_OUT: bursts of 16 beats~		u32 n = ksim_min_u32(s->count - s->w_g, KH_MEM_WBURST);~		u32 n = ksim_min_u32(s->count - s->w_g, 16);
828~units/scr.c~model_dxa~scr CU_DATA: a burst flush with the end is refused~	return buf == KH_SCR_BUF && off + len + 1 <= KH_SCR_GRANULES;~	return buf == KH_SCR_BUF && off + len + 1 < KH_SCR_GRANULES;
829~units/scr.c~model_dxa~scr CU_DATA: a refused burst is acknowledged (its policy)~	.ack = KSIM_CD_ACK_NONE_AFTER_REFUSE,~	.ack = KSIM_CD_ACK_ON_FLAG,
830~units/scr.c~model_dxa~scr COPY_OUT: retires at the last beat, not the last ack~		if (s->w_g == s->count)\n\t\t\ts->state = KSIM_SCR_ACK;~		if (s->w_g == s->count)\n\t\t\ts->state = KSIM_SCR_DONE;
831~units/scr.c~model_dxa~scr COPY_OUT: 8-byte alignment is enough~	else if (s->addr % KSIM_SCR_GRANULE)~	else if (s->addr % 8)
832~units/dxa/table.c~model_dxa~dxa table: a refused burst is acknowledged too (its policy)~	.ack = KSIM_CD_ACK_NONE_AFTER_REFUSE,~	.ack = KSIM_CD_ACK_ON_FLAG,
833~units/dxa/burst.c~model_dxa~dxa acks: matched to any receiver, not the one at the ack's source~		    KH_DXA_RECV_X(x->recv[r]) != sx ||\n\t\t    KH_DXA_RECV_Y(x->recv[r]) != sy)~		    (KH_DXA_RECV_X(x->recv[r]) != sx && 0) ||\n\t\t    (KH_DXA_RECV_Y(x->recv[r]) != sy && 0))
834~units/dxa/dxa.c~model_dxa~dxa reset: the table is cleared by a mesh reset~	size_t keep = offsetof(struct ksim_dxa, u);~	size_t keep = 0;
835~units/scr.c~model_dxa~scr reset: the buffer is cleared by a mesh reset~	size_t keep = offsetof(struct ksim_scr, u);~	size_t keep = 0;
901~units/cudata.c~model_dxa~CU_DATA receiver, no ack after a refusal: a refused burst is acknowledged~	return p->ack == KSIM_CD_ACK_ON_FLAG || !cd->refused;~	return true;
902~units/cudata.c~model_pool~CU_DATA receiver, ack on the flag: a refused burst is not acknowledged~	return p->ack == KSIM_CD_ACK_ON_FLAG || !cd->refused;~	return !cd->refused;
903~units/cudata.c~model_pool~CU_DATA receiver, recheck: the bound is checked at the descriptor only~	if (p->recheck && !cd->refused &&~	if (0 && !cd->refused &&
911~units/pool/cudata.c~model_pool~POOL's CU_DATA policy: a refused burst is not acknowledged~	.ack = KSIM_CD_ACK_ON_FLAG,~	.ack = KSIM_CD_ACK_NONE_AFTER_REFUSE,
912~units/pool/cudata.c~model_pool~POOL's CU_DATA policy: a core let out of reset mid-burst does not refuse the rest~	.recheck = true,~	.recheck = false,
904~units/cudata.c~model_mat~CU_DATA receiver, hold: a CU_DATA flit is taken while an ack is owed~	if (p->hold && cd->ack_n)~	if (0 && cd->ack_n)
905~units/cudata.c~model_mat~CU_DATA receiver, ack latency: an ack may go in its last flit's cycle~	a->at = ksim_unit_now(u) + u->type->cudata->ack_lat;~	a->at = ksim_unit_now(u);
906~units/cudata.c~model_mat~CU_DATA receiver, splicing: a second source's flit is not taken as data whatever the policy~	foreign = p->foreign != KSIM_CD_FOREIGN_SPLICES &&~	foreign = (1 || p->foreign != KSIM_CD_FOREIGN_SPLICES) &&
907~units/cudata.c~model_vec~CU_DATA receiver, spoiling: a second source's flit leaves the burst to land and be acknowledged~		ksim_unit_drop(u, f, ksim_cd_foreign_why);\n\t\tcd->refused = true;~		ksim_unit_drop(u, f, ksim_cd_foreign_why);
908~units/cudata.c~model_vec~CU_DATA receiver, txn 0: the ack echoes the descriptor's txn whatever the policy~	a->txn = u->type->cudata->ack_txn0 ? 0 : cd->txn;~	a->txn = cd->txn;
909~units/cudata.c~model_cpu~CU_DATA receiver, never: flags[0] is obeyed whatever the policy~	if (!cd->signal || p->ack == KSIM_CD_ACK_NEVER)~	if (!cd->signal)
913~units/mat/cudata.c~model_mat~mat's CU_DATA policy: a rejected burst is not acknowledged~	.ack = KSIM_CD_ACK_ON_FLAG,~	.ack = KSIM_CD_ACK_NONE_AFTER_REFUSE,
914~units/mat/cudata.c~model_mat~mat's CU_DATA policy: a second source's flit is dropped, not spliced~	.foreign = KSIM_CD_FOREIGN_SPLICES,~	.foreign = KSIM_CD_FOREIGN_DROP,
915~units/mat/cudata.c~model_mat~mat's CU_DATA policy: CU_DATA is taken while a signal is pending~	.hold = true,~	.hold = false,
916~units/mat/cudata.c~model_mat~mat's CU_DATA policy: the signal goes in the last flit's cycle~	.ack_lat = 1,~	.ack_lat = 0,
917~units/vec/port.c~model_vec~vec's CU_DATA policy: a second sender's flit is dropped and the burst goes on~	.foreign = KSIM_CD_FOREIGN_SPOILS,~	.foreign = KSIM_CD_FOREIGN_DROP,
918~units/vec/port.c~model_vec~vec's CU_DATA policy: the signal echoes the descriptor's txn~	.ack_txn0 = true,~	.ack_txn0 = false,
919~units/vec/port.c~model_vec~vec's CU_DATA policy: a rejected burst is acknowledged~	.ack = KSIM_CD_ACK_NONE_AFTER_REFUSE,~	.ack = KSIM_CD_ACK_ON_FLAG,
920~units/cpu/rx.c~model_cpu~cpu's CU_DATA policy: flags[0] is obeyed~	.ack = KSIM_CD_ACK_NEVER,~	.ack = KSIM_CD_ACK_ON_FLAG,
921~units/cpu/rx.c~model_cpu~cpu's CU_DATA policy: a second sender's flit is spliced into the open burst~	.foreign = KSIM_CD_FOREIGN_DROP,~	.foreign = KSIM_CD_FOREIGN_SPLICES,
931~lib/regs.h~model_regs~register tables: a W1C bit does not clear~	      (old & r->w1c & \x7ev) | ((old | v) & r->w1s);~	      (old & r->w1c) | ((old | v) & r->w1s);
932~lib/regs.h~model_regs~register tables: a read-only bit takes what is written~	now = (v & \x7e(r->ro | r->w1c | r->w1s)) | (old & r->ro) |~	now = (v & \x7e(r->w1c | r->w1s)) |
933~lib/regs.h~model_regs~register tables: a clear-on-read register keeps its bits~	if (r->size && (r->rc & old)) {~	if (0) {
934~lib/regs.h~model_regs~register tables: the decode takes the register before the one on the slot~	r = &t->reg[t->slot[s] - 1];~	r = &t->reg[t->slot[s] > 1 ? t->slot[s] - 2 : 0];
935~lib/regs.h~model_regs~register tables: every register of a run decodes as its first~	*i = s - (r->off >> shift);~	*i = 0;
936~lib/regs.h~model_regs~register tables: the upper half of a 64-bit field is written into the lower~		*(u64 *)p = (*(u64 *)p & \x7e(m << r->lsb)) | ((v & m) << r->lsb);~		*(u64 *)p = (*(u64 *)p & \x7e(m << r->lsb)) | (v & m);
937~xdma/regs.c~model_regs~register tables: the channel's IRQ_MASK_W1C one register off~	R(c, IRQ_MASK_W1C, KH_XDMA_CH_IRQ_MASK_W1C, 1,~	R(c, IRQ_MASK_W1C, KH_XDMA_CH_IRQ_MASK_W1C + 4, 1,
938~lib/regs.c~model_regs~register tables: a reset clears RAM with no reset clause (NODE_STATUS)~		if (r->size && !r->keep)~		if (r->size)
939~mesh/orch.c~model_irq~IRQ addon: a W1C clears the bit an event sets in its cycle~	return v | (old & o->irq_ev);~	return v | (old & o->irq_ev & 0);
940~mesh/orch.c~model_regs~SIG_DONE: a write stores its value instead of clearing~ksim_orch_sig_done_clear(void *dev, unsigned int i, u64 old, u64 v)\n{\n\treturn 0;~ksim_orch_sig_done_clear(void *dev, unsigned int i, u64 old, u64 v)\n{\n\treturn v;
941~mesh/orch.c~model_credits~credits: the cycle's arithmetic overrides a host write of PROG_CRED~	o->cred_written = true;~	o->cred_written = false;
942~mesh/orch.c~model_credits~dispatcher: PROG_KICK while running restarts the program~	if (!o->run0 && o->prog_len) {~	if (o->prog_len) {
943~mesh/orch.c~model_credits~mailbox: TX_KICK pushes while the dispatcher runs~	if (!o->run0 && !o->tx_full0 && ksim_orch_push_tx(o, o->tx_flit) &&~	if (!o->tx_full0 && ksim_orch_push_tx(o, o->tx_flit) &&
944~mesh/orch.c~model_regs~register tables: PROG_LEN in the hole after IRQ_EN~	R(c, PROG_LEN, KH_ORC_PROG_LEN, 1, KSIM_ORC(prog_len))~	R(c, PROG_LEN, KH_ORC_IRQ_EN + 8, 1, KSIM_ORC(prog_len))
945~card/clkwiz.c~model_clk~clock wizard: CLKOUT1 built to divide 4 (300 MHz, not 600)~	KSIM_CLK_OUT(R, c, 1, 2)~	KSIM_CLK_OUT(R, c, 1, 4)
946~card/clkwiz.c~model_regs~clock wizard: the rest of 0x000-0x7ff keeps nothing~	if (off / 4 < KSIM_CLKWIZ_REGS)\n\t\tw->reg[off / 4] = (u32)v;~	if (0)\n\t\tw->reg[off / 4] = (u32)v;
947~card/ddrc.c~model_clk~DDR controller: CE_CNT keeps 16 bits~.ro = \x7e0xffULL)~.ro = \x7e0xffffULL)
948~mesh/mover.c~model_mover~mover: the PRNG seed register keeps nothing~	R(c, SEED, KH_MV_SEED, 1, KSIM_MV(r.seed))~	R(c, SEED, KH_MV_SEED, 1, .ro = KSIM_REG_ALL)
949~mesh/mover.c~model_regs~register tables: the mover's GATHER one register off~	R(c, GATHER, KH_MV_GATHER, 1,~	R(c, GATHER, KH_MV_GATHER + 8, 1,
950~obs/trace.c~model_regs~trace: events=all takes the opt-in register accesses~		if (ksim_word_is(&one, "all"))\n\t\t\t*mask = KSIM_TRC_ALL;~		if (ksim_word_is(&one, "all"))\n\t\t\t*mask = KSIM_TRC_ALL | KSIM_TRC_REG;
951~card/bar.c~model_regs~trace: a 64-bit access of two 32-bit registers names the low one only~	if (!wide)\n\t\treturn snprintf(b, n, "%s %s", t->name, lo);~	if (1)\n\t\treturn snprintf(b, n, "%s %s", t->name, lo);
960~card/bar.c~model_bar32~32-bit path: the beat's other half is 0, not the 32 bits replicated~#define KSIM_BAR_BEAT(v)	((u64)(v) << 32 | (u32)(v))~#define KSIM_BAR_BEAT(v)	((u64)(u32)(v))
961~card/bar.c~model_bar32~32-bit path: every byte enabled, whichever half the beat addresses~#define KSIM_BAR_STRB(rel)	((rel) & 4 ? 0xf0u : 0x0fu)~#define KSIM_BAR_STRB(rel)	0xffu
962~card/bar.c~model_bar32~32-bit path: a read at +4 is the upper half of the register below~		return (u32)(ksim_orch_read_beat(&m->mag->orch, rel) >>~		return (u32)(ksim_orch_read(&m->mag->orch, rel & \x7e7u) >>
963~mesh/orch.c~model_bar32~TX_FLIT: the byte enables ignored~	  KSIM_ORC_RUN(tx_flit, KH_FLIT_WORDS), .span = true,		\\\n\t  .strobes = true)~	  KSIM_ORC_RUN(tx_flit, KH_FLIT_WORDS), .span = true,		\\\n\t  .strobes = false)
964~mesh/orch.c~model_bar32~TX_FLIT: a beat at +4 decodes nothing~	  KSIM_ORC_RUN(tx_flit, KH_FLIT_WORDS), .span = true,~	  KSIM_ORC_RUN(tx_flit, KH_FLIT_WORDS), .span = false,
965~mesh/orch.c~model_bar32~STAGE: a beat at +4 decodes nothing~	  .post_write = ksim_orch_stage, .span = true)~	  .post_write = ksim_orch_stage, .span = false)
966~mesh/orch.c~model_bar32~STAGE: a beat keeps the word's other half (byte enables honoured)~	  .post_write = ksim_orch_stage, .span = true)~	  .post_write = ksim_orch_stage, .span = true, .strobes = true)
967~mesh/orch.c~model_bar32~AUX_CFG: a beat at +4 pulses nothing~	  .post_write = ksim_orch_aux_cfg, .span = true)~	  .post_write = ksim_orch_aux_cfg, .span = false)
968~mesh/orch.c~model_bar32~NODE_STATUS: a read at +4 is 0~	  .ro = KSIM_REG_ALL, .keep = true, .span = true)		\\\n\tR(c, NODE_ALIAS~	  .ro = KSIM_REG_ALL, .keep = true, .span = false)		\\\n\tR(c, NODE_ALIAS
969~mesh/orch.c~model_bar32~NODE_STATUS alias: a read at +4 is 0~	  .ro = KSIM_REG_ALL, .keep = true, .span = true)		\\\n\tR(c, STAGE~	  .ro = KSIM_REG_ALL, .keep = true, .span = false)		\\\n\tR(c, STAGE
970~mesh/orch.c~model_bar32~RX_FLIT: a read at +4 is 0~	  .read = ksim_orch_rx_flit, .span = true)~	  .read = ksim_orch_rx_flit, .span = false)
971~mesh/orch.c~model_bar32~AUX_STATW: a read at +4 is 0~	  .read = ksim_orch_aux_statw, .span = true)~	  .read = ksim_orch_aux_statw, .span = false)
972~lib/regs.h~model_bar32~register tables: a narrow beat inside any register reaches it~	if (r && (off & (t->width - 1)) && !r->span && !t->span)~	if (0)
973~lib/regs.h~model_bar32~register tables: the byte enables inverted~			if (!(strb & (1u << b)))~			if (strb & (1u << b))
974~mesh/mover.c~model_bar32~mover: the client address decoded whole (a pulse at +4 writes nothing)~	.name = "mover", .span = true,~	.name = "mover", .span = false,
975~mesh/ilink.c~model_bar32~interlink: the client address decoded whole (a pulse at +4 writes nothing)~	.name = "ilink", .span = true,~	.name = "ilink", .span = false,
976~mesh/orch.c~model_bar32~orchestrator: a narrow beat applied as a 64-bit write~		if (o->wr_strb == KSIM_REG_STRB_ALL)~		if (1)
977~mesh/orch.c~model_bar32~orchestrator: the IRQ addon does not answer at CAPS + 4~	if (off == KH_ORC_CAPS + 4 && o->p->irq)~	if (0)
978~noc/router.h~model_timing~router: a flit granted the edge it lands (one edge a hop, not three)~#define KSIM_ROUTER_PIPE	2~#define KSIM_ROUTER_PIPE	0
979~mesh/orch.c~model_timing~dispatcher: a staged flit read in one edge, not five words~#define KSIM_ORCH_FLIT_WORDS	5~#define KSIM_ORCH_FLIT_WORDS	1
980~mesh/mag.h~model_timing~MAG: a plain read answered at the DRAM latency, no dram port~#define KSIM_MAG_PLAIN_PIPE	7~#define KSIM_MAG_PLAIN_PIPE	2
981~mesh/mag.h~model_timing_units~MAG: the quantiser done the edge after an entry's last beat, not 9 after~#define KSIM_MAG_QUANT_TAIL	9~#define KSIM_MAG_QUANT_TAIL	1
982~mesh/mag.c~model_timing~DRAM: a refresh does not hold the bus~		t += p->dram_refi - t % p->dram_refi;~		t += 0;
983~mesh/mag.c~model_timing~DRAM: each burst has the bus to itself~	g->bus_free = t + (beats256 + 1) / 2;~	g->bus_free = 0;
984~units/mat/mat.c~model_timing_units~mat: exec_done seen by the base in the S_DONE cycle~	m->st = KSIM_MAT_IDLE;\n}~	m->st = KSIM_MAT_IDLE;\n\tksim_unit_retire(u, m->done_result, m->done_fault);\n\tm->done_pend = false;\n}
985~units/sx.c~model_timing~SX: S_WAIT reads the counters a line was just added to~		if (s->xw0 != s->beats || s->yw0 != s->beats)~		if (s->xw != s->beats || s->yw != s->beats)
M
}

cat >"$scratch/Makefile" <<'MK'
BUILD ?= build
CC ?= gcc
CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter \
	-Wmissing-prototypes -Wstrict-prototypes -fno-strict-aliasing
SIM_SRCS :=
TEST_BINS :=
include layers.mk
include sim-backend/sim.mk
CHECK_SRCS := tests/selftests/kohaku/check.c
include tests/model/model.mk
$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(call kh_incflags,$(patsubst %/,%,$(dir $<)),) \
		-isystem $(KSFT_INC) -Wno-missing-prototypes -c -o $@ $<
MK

# One pristine copy, built once; each mutant then rebuilds only what its
# change touches: the mutated .c file's object (a mutated header: all of
# them, the scratch Makefile tracks no header dependencies) and the test
# binary.  The mutated file is restored, with its old time, before the
# next mutant.
cp -rp "$top/sim-backend" "$top/uapi" "$top/hwif" "$top/layers.mk" "$scratch/"
mkdir -p "$scratch/tests/selftests/kohaku"
cp -rp "$top/tests/model" "$scratch/tests/"
cp -p "$top"/tests/selftests/kohaku/check.[ch] \
	"$top/tests/selftests/kohaku/harness.h" "$scratch/tests/selftests/kohaku/"
# the file a mutant changed: back to the original, its builds dropped
restore() {
	cp -p "$top/sim-backend/$1" "$scratch/sim-backend/$1"
	case $1 in
	*.h)	rm -rf "$scratch/build" ;;
	*)	rm -f "$scratch/build/obj/sim-backend/${1%.c}.o" ;;
	esac
}
survived=0
prev=
mutations | while IFS='~' read -r id file bin desc old new; do
	case $only in
	"  ") ;;
	*" $id "*) ;;
	*) continue ;;
	esac
	[ -n "$prev" ] && restore "$prev"
	prev=$file
	restore "$file"
	rm -f "$scratch/build/tests/model/$bin"
	if ! python3 - "$scratch/sim-backend/$file" "$old" "$new" <<'PY'
import sys
p, old, new = sys.argv[1], sys.argv[2], sys.argv[3]
old = old.encode().decode('unicode_escape')
new = new.encode().decode('unicode_escape')
s = open(p).read()
if s.count(old) != 1:
    sys.exit(1)
open(p, 'w').write(s.replace(old, new))
PY
	then
		echo "mutation $id: DID NOT APPLY ($file: $desc)"
		echo x >>"$scratch/survivors"
		continue
	fi
	if ! make -s -C "$scratch" KSFT_INC="$top/$KSFT_INC" "build/tests/model/$bin" \
		>"$scratch/build.log" 2>&1; then
		echo "mutation $id: build failed ($desc)"
		sed 's/^/    /' "$scratch/build.log" | head -5
		echo x >>"$scratch/survivors"
		continue
	fi
	if timeout 300 "$scratch/build/tests/model/$bin" >"$scratch/run.log" 2>&1; then
		echo "mutation $id: SURVIVED, $bin passed ($desc)"
		echo x >>"$scratch/survivors"
	else
		n=$(grep -c '^not ok' "$scratch/run.log")
		echo "mutation $id: killed, $bin: $n failing test(s) ($desc)"
		grep '^not ok' "$scratch/run.log" | sed 's/^/    /'
	fi
done
[ ! -s "$scratch/survivors" ]

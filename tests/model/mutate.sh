#!/bin/sh
# Deliberately broken models: each mutation below breaks one rule of the
# model, and the named test binary must then FAIL.  Run from the repo top:
#
#   tests/model/mutate.sh            # all mutations
#   tests/model/mutate.sh 3          # only mutation 3
#
# Each mutant is built in a scratch copy (never in the work tree) with a
# minimal Makefile that builds only the model tests.  Prints one line per
# mutation and exits nonzero if any mutant survived (its test passed).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d /tmp/kh-mutate.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
only=${1:-}

# id~file~test binary~description~old text~new text (python escapes)
mutations() {
cat <<'M'
1~sim_router.c~model_routing~routing: north before east on the outward hop~	if (dx > r->hi_x)\n\t\treturn KH_PORT_E;\n\tif (dy < r->lo)\n\t\treturn KH_PORT_N;~	if (dy < r->lo)\n\t\treturn KH_PORT_N;\n\tif (dx > r->hi_x)\n\t\treturn KH_PORT_E;
2~sim_link.c~model_flow~handshake: receiver accepts on room, sender keeps holding~	l->valid = false;\n\tl->flits++;~	l->valid = l->rx->ops->busy(l->rx);\n\tl->flits++;
3~sim_link.c~model_flow~handshake: sender withdraws a flit it offered against busy~		l->stalls++;~		l->stalls++;\n\t\tl->valid = false;
4~sim_base.c~model_ctrl~CU_CTRL: a second request while one is pending is answered~	if (u->ctrl_pend) {~	if (0) {
5~sim_orch.c~model_credits~credits: SIG_BATCH_COMPLETE returns a credit~		if (code == KH_SIG_INST_COMPLETE)\n\t\t\to->cred_inc++;~		if (code <= KH_SIG_BATCH_COMPLETE)\n\t\t\to->cred_inc++;
6~sim_base.c~model_ctrl~retirement: the accept arm wins over a same-cycle exec_done~	if (u->p_accept)\n\t\tu->in_flight = true;\n\tif (u->p_done)\n\t\tu->in_flight = false;~	if (u->p_done)\n\t\tu->in_flight = false;\n\tif (u->p_accept)\n\t\tu->in_flight = true;
7~sim_base.c~model_ctrl~busy cycles stop accruing while the card skips idle time~		c += kh_unit_now_(u) - u->busy_since;~		c += 0;
8~sim_unit_sx.c~model_sx~SX: elements past n in the tail line are computed too~			if (e < s->n)\n~			if (e < s->n + 8)\n
9~sim_fp32.c~model_fp32~FMA: ties round away from zero~		if (rem > half || (rem == half && (q & 1)))~		if (rem >= half)
10~sim_dma.c~model_card~DMA: a partial word keeps its other bytes (no zeroing)~		memset(word, 0, sizeof(word));~		kh_dram_read(&m->dram, w, word, sizeof(word));
11~sim_desc.c~model_desc~parser: line numbers start at 0~	for (ps->line = 1; *s; ps->line++) {~	for (ps->line = 0; *s; ps->line++) {
12~sim_mag.c~model_mag~MAG: last set on every read beat~			    mp->rd_sent + 1 == mp->rd_beats);~			    1);
13~sim_link.c~model_routing~tie-off: a tied-off port raises busy~	return false;\n}\n\nstatic void kh_tieoff_take~	return true;\n}\n\nstatic void kh_tieoff_take
14~sim_orch.c~model_credits~dispatcher: the staging slot does not wrap at STAGE_FLITS~			f.w[i] = o->stage[o->slot % o->p->stage_flits][i];~			f.w[i] = o->slot < o->p->stage_flits ? o->stage[o->slot][i] : 0;
15~sim_mag.c~model_mag~MAG: data binds to the newest open slot of its source~		if (best < 0 || (s32)(sl->seq - mp->slots[best].seq) < 0)~		if (best < 0 || (s32)(sl->seq - mp->slots[best].seq) > 0)
16~sim_sched.c~model_mag~idle skip: jump to the end of the run past pending timers~			u64 to = kh_min_u64(s->next_timer, end);~			u64 to = end;
101~sim_desc.c~model_params~profiles: a description without a profile gets the RTL values~	kh_sim_params_ship(&d->p);~	kh_sim_params_rtl(&d->p);
102~sim_params.c~model_params~profiles: ship keeps the RTL router FIFO of 32~	p->router_fifo = 512;~	p->router_fifo = 32;
103~sim_mesh.c~model_params~router_fifo: routers are built 32 deep whatever the description says~					   p->router_fifo);~					   32);
104~sim_orch.c~model_params~tx_depth: the TX FIFO is 16 deep whatever the description says~	e = kh_fifo_init(&o->tx, p->tx_depth);~	e = kh_fifo_init(&o->tx, 16);
105~sim_orch.c~model_params~rx_depth: the RX FIFO is 16 deep whatever the description says~		e = kh_fifo_init(&o->rx, p->rx_depth);~		e = kh_fifo_init(&o->rx, 16);
106~sim_desc.c~model_params~stage_flits: the parameter is parsed and dropped~		p->stage_flits = v;~		(void)0;
107~sim_desc.c~model_params~wr_slots: the parameter is parsed and dropped~		p->wr_slots = v;~		(void)0;
108~sim_desc.c~model_params~q_margin: the parameter is parsed and dropped~			p->q_margin = v;~			(void)0;
109~sim_desc.c~model_params~mem_rd_latency: the parameter is parsed and dropped~		p->mem_rd_latency = v;~		(void)0;
110~sim_desc.c~model_desc~parser: an unmodelled token is refused at once, before the rest is checked~			if (!ut->tick && !ps->nomodel) {\n\t\t\t\tps->nomodel = ut;\n\t\t\t\tps->nomodel_line = ps->line;\n\t\t\t}~			if (!ut->tick)\n\t\t\t\treturn kh_perr(ps, "token '%s' (%s) has no model yet", ut->token, ut->name);
111~sim_desc.c~model_desc~parser: a mesh section does not start from the card-wide parameters~	dm->p = ps->d->p;~	kh_sim_params_ship(&dm->p);
112~sim_desc.c~model_desc~parser: card-wide l2 lines are not applied to the meshes~	e = kh_apply_l2(ps, &ps->card, ps->cur);~	e = 0;
113~sim_bar.c~model_multi~BAR0: every window decodes to mesh 0~	*m = kh_sim_card_mesh(c, *n);~	*m = kh_sim_card_mesh(c, 0);
114~sim_dma.c~model_multi~DMA: every window lands in mesh 0's DRAM~	m = kh_sim_card_mesh(c, win - 1);~	m = kh_sim_card_mesh(c, 0);
115~sim_clkwiz.c~model_clk~clock wizard: losing lock does not reset the mesh~	kh_mesh_reset_hold(c->mesh[mesh], w->lock_at + KH_RST_RELEASE_CYCLES);~	(void)0;
116~sim_clkwiz.c~model_clk~clock wizard: a duty of 0 is accepted~	if (kh_clk_is_duty(off) && !v)\n\t\treturn;~
117~sim_reset.c~model_clk~reset: no recovery window after the release~	m->rst.ready = release + KH_RST_RECOVERY_CYCLES;~	m->rst.ready = release;
118~sim_reset.c~model_clk~reset: a flit forced into an endpoint in recovery is kept~	if (kh_mesh_recovering(g->mesh)) {~	if (0) {
119~sim_bar.c~model_clk~reset: host writes land while the mesh is in reset~			if (kh_mesh_recovering(m)) {~			if (0) {
120~sim_orch.c~model_irq~IRQ addon: events set IRQ_STAT on a card without the addon~	if (!o->p->irq)\n\t\treturn;~
121~sim_orch.c~model_irq~IRQ addon: a clear wins over an event in its cycle (the cycle's events are not remembered)~	o->irq_ev |= bits;~	(void)0;
122~sim_orch.c~model_irq~IRQ addon: IRQ_EN does not gate the line~	bool level = (o->irq_stat & o->irq_en & KH_IRQ_ALL) != 0;~	bool level = (o->irq_stat & KH_IRQ_ALL) != 0;
123~sim_card.c~model_irq~IRQ line: only mesh 0 drives it~	for (i = 0; i < card->n_mesh; i++)\n\t\tif (card->mesh[i]->mag->orch.irq_level)~	for (i = 0; i < 1; i++)\n\t\tif (card->mesh[i]->mag->orch.irq_level)
124~sim_orch.c~model_irq~IRQ addon: CAPS[40] is never set~	       ((u64)o->grid_hi << 32) | (o->p->irq ? KH_CAPS_IRQ_ADDON : 0);~	       ((u64)o->grid_hi << 32);
125~sim_l2.c~model_l2~L2: the addon window is index 0xe0 alone~	    KH_CTRL_IDX_IS_ADDON(kh_flit_get(h, KH_CTRL_INDEX))) {~	    kh_flit_get(h, KH_CTRL_INDEX) == KH_CTRL_IDX_L2_CAPS) {
126~sim_l2.c~model_l2~L2: a write's reply carries the value after the write~		a->enable = v & KH_L2_CTRL_ENABLE;\n}~		a->enable = v & KH_L2_CTRL_ENABLE;\n\tkh_flit_set(r, KH_CTRL_VALUE, kh_l2_reg(a, idx));\n}
127~sim_l2.c~model_l2~L2: enabled out of a mesh reset~	a->enable = false;~	a->enable = true;
128~sim_l2.c~model_l2~L2: in-window reads are served while disabled~	if (t == KH_T_MEM_RD_REQ && in && a->enable) {~	if (t == KH_T_MEM_RD_REQ && in) {
129~sim_l2.c~model_l2~L2: in-window writes go to the mesh while enabled~	if (t == KH_T_MEM_WR_REQ && in && a->enable) {~	if (t == KH_T_MEM_WR_REQ && in && a->enable && 0) {
130~sim_l2.c~model_l2~L2: a mesh reset clears the SRAM~	a->rd_busy = false;\n}~	a->rd_busy = false;\n\tfor (u32 i = 0; i < a->n_chunks; i++)\n\t\tif (a->chunk[i])\n\t\t\tmemset(a->chunk[i], 0, KH_L2_CHUNK_LINES * KH_L2_LINE_BYTES);\n}
131~sim_l2.c~model_l2~L2: a second addon request while a reply is pending is answered~	if (a->ctrl_pend) {\n\t\ta->ctrl_dropped++;~	if (0) {\n\t\ta->ctrl_dropped++;
132~sim_builtin.c~model_params~built-ins: saxpy without profile rtl (ship values)~two SX units; RTL parameters\\n"\n\t  "profile rtl\\n"~two SX units; RTL parameters\\n"
133~sim_reset.c~model_clk~reset: the gate does not hold noc_in_busy~	return kh_mesh_recovering(g->mesh) || g->inner->ops->busy(g->inner);~	return g->inner->ops->busy(g->inner);
134~sim_ddrc.c~model_clk~DDR controller: ECC off at reset~	d->ecc_onoff = 1;~	d->ecc_onoff = 0;
135~sim_clkwiz.c~model_clk~clock wizard: a LOAD that changes nothing drops lock~		if (!memcmp(next, w->run, sizeof(next)))\n\t\t\treturn;~
136~sim_l2.c~model_multi~L2: the adapter replies from (0,0), not the unit's coordinate~		    kh_flit_get(req, KH_HDR_SRC_Y), a->x, a->y, KH_T_CU_CTRL,~		    kh_flit_get(req, KH_HDR_SRC_Y), 0, 0, KH_T_CU_CTRL,
301~sim_check.c~model_check~checker rule 1: a refused link may lose its flit before it is taken~		if (l->valid && !memcmp(&l->reg, &ol->held, sizeof(l->reg)))\n\t\t\tcontinue;~		continue;
302~sim_check.c~model_check~checker rule 1: a send_* offer may change after a refusal~	if (ou->send_prev && !ou->send_matched) {~	if (0) {
303~sim_check.c~model_check~checker rule 1: a sender that holds is flagged~		if (l->valid && !memcmp(&l->reg, &ol->held, sizeof(l->reg)))~		if (l->valid && memcmp(&l->reg, &ol->held, sizeof(l->reg)))
304~sim_check.c~model_check~checker rule 2: a flit taken twice from one register is a plain duplicate~	kh_viol(o, same_reg ? KH_CHK_R2 : KH_CHK_DUP, now, ol->l->mesh,~	kh_viol(o, KH_CHK_DUP, now, ol->l->mesh,
305~sim_check.c~model_check~checker rule 3: busy not re-evaluated with the offered flit hidden~	if (!kh_busy_hidden(ol->l))\n\t\tkh_rule3(ol, now, true);~	if (0)\n\t\tkh_rule3(ol, now, true);
306~sim_check.c~model_check~checker rule 4: a held receive head never counts as blocked~	if (recv && idle) {~	if (0) {
307~sim_check.c~model_check~checker rule 5: every type counts as handled~	return known & (1u << type);~	return true;
308~sim_check.c~model_check~checker rule 6: exec_done with inst_ready not flagged~	if (u->p_accept) {\n\t\tkh_obs_unit_name~	if (0) {\n\t\tkh_obs_unit_name
309~sim_unit_null.c~model_check~null!: the RTL variant never retires (instead of retiring in the accept cycle)~		kh_unit_retire(u, x, false);~		(void)x;
310~sim_check.c~model_check~checker rule 7: exec_done with nothing in flight not flagged~	} else if (!u->in_flight) {~	} else if (0) {
311~sim_check.c~model_check~checker rule 7: the never-retires bound is 1000 times too long~	    now - ou->idle_since >= c->retire_bound) {~	    now - ou->idle_since >= c->retire_bound * 1000) {
312~sim_check.c~model_check~checker rule 8: framework codes on send_* not flagged~	if (type == KH_T_CU_SIGNAL) {~	if (0) {
313~sim_check.c~model_check~checker rule 9: one beat more than the receive FIFO allowed~		if (ou->outstanding > u->recv.depth && !ou->r9_over) {~		if (ou->outstanding > u->recv.depth + 1 && !ou->r9_over) {
314~sim_check.c~model_check~checker: the audit never reports a vanished tag as lost~		if (!e->tag || e->seen == c->epoch) {~		if (1) {
315~sim_check.c~model_check~checker: the audit takes a second copy of a tag for the first~	if (!e || e->seen == c->epoch) {~	if (!e) {
316~sim_check.c~model_check~checker: a duplicate a dup knob made counts as a violation~	if (ol->inj_dup_tag && ol->inj_dup_tag == t) {~	if (0) {
317~sim_inject.c~model_check~inject: a drop knob's loss is not marked injected~			if (ol->obs->check_on)\n\t\t\t\tkh_check_dropped(ol);~
318~sim_check.c~model_check~checker: a flit to a tie-off stays in flight (reported lost)~		c->count_[KH_CHK_TIEOFF]++;\n\t\tkh_tab_del(c, e);~		c->count_[KH_CHK_TIEOFF]++;
319~sim_obs.c~model_check~checker: tags are not stripped before an endpoint takes a flit~		*copy = l->reg;\n\t\tkh_flit_set_tag(copy, 0);~		*copy = l->reg;
320~sim_unit_sx.c~model_check~SX: holds flits it does not expect instead of dropping them (rule 10 test)~		kh_unit_drop(u, f, "unexpected on the SX receive path");\n\t}\n\tkh_unit_recv_pop(u);~		return false;\n\t}\n\tkh_unit_recv_pop(u);
M
}

cat >"$scratch/Makefile" <<'MK'
BUILD ?= build
CC ?= gcc
CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter \
	-Wmissing-prototypes -Wstrict-prototypes -fno-strict-aliasing \
	-Iuapi -Isim-backend -Itests
SIM_SRCS :=
TEST_BINS :=
include sim-backend/sim.mk
TAP_SRCS := tests/tap.c
include tests/model/model.mk
$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<
MK

survived=0
mutations | while IFS='~' read -r id file bin desc old new; do
	[ -n "$only" ] && [ "$only" != "$id" ] && continue
	rm -rf "$scratch/sim-backend" "$scratch/tests" "$scratch/uapi" "$scratch/build"
	cp -r "$top/sim-backend" "$top/uapi" "$scratch/"
	mkdir -p "$scratch/tests"
	cp -r "$top/tests/model" "$top/tests/tap.c" "$top/tests/tap.h" "$scratch/tests/"
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
	if ! make -s -C "$scratch" "build/tests/model/$bin" >"$scratch/build.log" 2>&1; then
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

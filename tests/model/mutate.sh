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

// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Unit types only the tests use, registered through ksim_opts.  Each
 * plays a role the built-in units cannot: a slow sink, a traffic source,
 * a hung unit, and units that break the retirement rules on purpose.
 */
#include "mhelp.h"

unsigned int mh_sink_period = 7;

/* ---- snk ---- */

static bool snk_tick(struct ksim_unit *u)
{
	struct mh_sink *s = ksim_unit_priv(u);
	const struct kh_flit *f = ksim_unit_recv(u);
	u64 now = ksim_unit_now(u);

	if (!f)
		return false;
	if (now < s->next) {
		ksim_unit_timer(u, s->next);
		return false;
	}
	if (s->n < MH_SINK_LOG) {
		struct mh_sink_rec *r = &s->rec[s->n++];

		r->sx = kh_flit_get(f, KH_HDR_SRC_X);
		r->sy = kh_flit_get(f, KH_HDR_SRC_Y);
		r->type = kh_flit_get(f, KH_HDR_TYPE);
		r->seq = f->w[0];
	}
	ksim_unit_recv_pop(u);
	s->next = now + mh_sink_period;
	ksim_unit_timer(u, s->next);
	return false;
}

const struct ksim_unit_type mh_unit_snk = {
	.token = "snk", .name = "test sink", .cu_type = KH_CU_TYPE('T', 'S'),
	.n_buffers = 1, .priv_size = sizeof(struct mh_sink), .tick = snk_tick,
};

/* ---- src ---- */

struct mh_src {
	bool busy, retire;
	unsigned int dx, dy, type;
	u32 count, sent;
};

void mh_src_inst(struct kh_flit *f, unsigned int dx, unsigned int dy,
		 unsigned int count, unsigned int type, unsigned int last)
{
	memset(f, 0, sizeof(*f));
	kh_flit_hdr(f, 0, 0, 0, 0, KH_T_CU_INST, 0x5a, last);
	kh_flit_set(f, KH_FIELD(247, 244), dx);
	kh_flit_set(f, KH_FIELD(243, 240), dy);
	kh_flit_set(f, KH_FIELD(239, 224), count);
	kh_flit_set(f, KH_FIELD(223, 220), type);
}

static bool src_tick(struct ksim_unit *u)
{
	struct mh_src *s = ksim_unit_priv(u);
	const struct kh_flit *in;
	struct kh_flit f;

	if (s->retire) {
		ksim_unit_retire(u, s->sent, false);
		s->retire = false;
		return true;
	}
	if (!s->busy) {
		in = ksim_unit_inst(u);
		if (!in)
			return false;
		s->dx = kh_flit_get(in, KH_FIELD(247, 244));
		s->dy = kh_flit_get(in, KH_FIELD(243, 240));
		s->count = kh_flit_get(in, KH_FIELD(239, 224));
		s->type = kh_flit_get(in, KH_FIELD(223, 220));
		s->sent = 0;
		ksim_unit_inst_accept(u);
		s->busy = s->count != 0;
		s->retire = s->count == 0;
		return true;
	}
	memset(&f, 0, sizeof(f));
	ksim_unit_hdr(u, &f, s->dx, s->dy, s->type, 0, 1);
	f.w[0] = s->sent;
	f.w[1] = 0x5eedULL;
	if (!ksim_unit_send(u, &f))
		return false;
	if (++s->sent == s->count) {
		s->busy = false;
		ksim_unit_retire(u, s->sent, false);
	}
	return true;
}

const struct ksim_unit_type mh_unit_src = {
	.token = "src", .name = "test source", .cu_type = KH_CU_TYPE('T', 'G'),
	.n_buffers = 1, .priv_size = sizeof(struct mh_src), .tick = src_tick,
};

/* ---- hng ---- */

static bool hng_tick(struct ksim_unit *u)
{
	if (ksim_unit_inst(u)) {
		ksim_unit_inst_accept(u);
		ksim_unit_set_dbg(u, 0x4e4e);
		return true;
	}
	return false;
}

const struct ksim_unit_type mh_unit_hng = {
	.token = "hng", .name = "hung unit", .cu_type = KH_CU_TYPE('T', 'H'),
	.n_buffers = 1, .tick = hng_tick,
};

/* ---- eqd: exec_done in the accept cycle ---- */

static bool eqd_tick(struct ksim_unit *u)
{
	if (ksim_unit_inst(u)) {
		ksim_unit_inst_accept(u);
		ksim_unit_retire(u, 7, false);
		return true;
	}
	return false;
}

const struct ksim_unit_type mh_unit_eqd = {
	.token = "eqd", .name = "same-cycle retire", .cu_type = KH_CU_TYPE('T', 'E'),
	.n_buffers = 1, .tick = eqd_tick,
};

/* ---- spu: two exec_done per instruction ---- */

struct mh_spu {
	unsigned int left;
};

static bool spu_tick(struct ksim_unit *u)
{
	struct mh_spu *s = ksim_unit_priv(u);

	if (s->left) {
		ksim_unit_retire(u, 100 + s->left, false);
		s->left--;
		return true;
	}
	if (ksim_unit_inst(u)) {
		ksim_unit_inst_accept(u);
		s->left = 2;
		return true;
	}
	return false;
}

const struct ksim_unit_type mh_unit_spu = {
	.token = "spu", .name = "double retire", .cu_type = KH_CU_TYPE('T', 'D'),
	.n_buffers = 1, .priv_size = sizeof(struct mh_spu), .tick = spu_tick,
};

const struct ksim_unit_type *const mh_test_types[] = {
	&mh_unit_snk, &mh_unit_src, &mh_unit_hng, &mh_unit_eqd, &mh_unit_spu,
};
const unsigned int mh_n_test_types =
	sizeof(mh_test_types) / sizeof(mh_test_types[0]);

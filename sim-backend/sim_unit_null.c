// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The null unit (noc_cu_null, token `null`; docs/spec/units.md): retires
 * every instruction one cycle after accepting it, with exec_result = XOR
 * of the eight 32-bit payload words, and drops everything it receives.
 * (The RTL retires in the accept cycle, which the contract forbids and
 * which would lose every completion; this model follows the contract.)
 */
#include "kh_unit.h"
#include "sim_units.h"
#include "sim_util.h"
#include <kohaku/kh_units.h>

struct kh_null {
	bool pending;
	u32 result;
};

static bool kh_null_tick(struct kh_unit *u)
{
	struct kh_null *s = kh_unit_priv(u);
	const struct kh_flit *f;
	bool did = false;

	if (s->pending) {
		kh_unit_retire(u, s->result, false);
		s->pending = false;
		did = true;
	} else {
		f = kh_unit_inst(u);
		if (f) {
			u32 x = 0;
			unsigned int i;

			for (i = 0; i < 8; i++)
				x ^= kh_payload_u32(f->w, i);
			s->result = x;
			s->pending = true;
			kh_unit_inst_accept(u);
			did = true;
		}
	}
	f = kh_unit_recv(u);
	if (f) {
		kh_unit_drop(u, f, "the null unit drops everything");
		kh_unit_recv_pop(u);
	}
	return did;
}

const struct kh_unit_type kh_unit_null = {
	.token = "null",
	.name = "null unit",
	.cu_type = KH_CU_NULL,
	.n_buffers = KH_NULL_NBUF,
	.priv_size = sizeof(struct kh_null),
	.tick = kh_null_tick,
};

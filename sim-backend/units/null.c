// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The null unit (noc_cu_null, token `null`; docs/spec/units.md): retires
 * every instruction one cycle after accepting it, with exec_result = XOR
 * of the eight 32-bit payload words, and drops everything it receives.
 *
 * The RTL retires in the accept cycle, which the contract forbids (seed
 * 001 §4) and which loses every completion: that is the variant `null!`
 * below, selectable to show the hazard (and the checker's rule 6).  The
 * default `null` follows the contract.
 */
#include "ksim_unit.h"
#include "table.h"
#include "util.h"
#include <kohaku/kh_units.h>

struct ksim_null {
	bool pending;
	u32 result;
};

static u32 ksim_null_result(const struct kh_flit *f)
{
	u32 x = 0;
	unsigned int i;

	for (i = 0; i < 8; i++)
		x ^= ksim_payload_u32(f->w, i);
	return x;
}

static void ksim_null_drain(struct ksim_unit *u)
{
	const struct kh_flit *f = ksim_unit_recv(u);

	if (f) {
		ksim_unit_drop(u, f, "the null unit drops everything");
		ksim_unit_recv_pop(u);
	}
}

static bool ksim_null_tick(struct ksim_unit *u)
{
	struct ksim_null *s = ksim_unit_priv(u);
	const struct kh_flit *f;
	bool did = false;

	if (s->pending) {
		ksim_unit_retire(u, s->result, false);
		s->pending = false;
		did = true;
	} else {
		f = ksim_unit_inst(u);
		if (f) {
			s->result = ksim_null_result(f);
			s->pending = true;
			ksim_unit_inst_accept(u);
			did = true;
		}
	}
	ksim_null_drain(u);
	return did;
}

/*
 * noc_cu_null.v as it is: exec_done in the cycle of inst_ready.  The base
 * clears in_flight on the done arm after the accept arm set it, so the
 * completion is never queued (no CU_SIGNAL, no credit), the retirement is
 * still counted, and the unit takes the next instruction at once.
 */
static bool ksim_null_rtl_tick(struct ksim_unit *u)
{
	const struct kh_flit *f = ksim_unit_inst(u);
	bool did = false;

	if (f) {
		u32 x = ksim_null_result(f);

		ksim_unit_inst_accept(u);
		ksim_unit_retire(u, x, false);
		did = true;
	}
	ksim_null_drain(u);
	return did;
}

const struct ksim_unit_type ksim_unit_null = {
	.token = "null",
	.name = "null unit",
	.cu_type = KH_CU_NULL,
	.cu_version = KH_NULL_VERSION,
	.n_buffers = KH_NULL_NBUF,
	.priv_size = sizeof(struct ksim_null),
	.tick = ksim_null_tick,
};

const struct ksim_unit_type ksim_unit_null_rtl = {
	.token = "null!",
	.name = "null unit as in the RTL (retires in the accept cycle)",
	.cu_type = KH_CU_NULL,
	.cu_version = KH_NULL_VERSION,
	.n_buffers = KH_NULL_NBUF,
	.tick = ksim_null_rtl_tick,
};

// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Model test helpers. */
#include <math.h>
#include "mhelp.h"

/*
 * Every model test runs with the protocol checker on (KOHAKU_SIM_CHECK=0
 * turns it off); a violation fails the test that caused it, unless the
 * test expects violations (mh_expect_violations) and counts them itself.
 */
bool mh_expect_violations;
unsigned int mh_violations;
char mh_last_violation[256];

static void mh_violation(void *ctx, const char *msg)
{
	mh_violations++;
	snprintf(mh_last_violation, sizeof(mh_last_violation), "%s", msg);
	if (!mh_expect_violations)
		check_fail_at(__FILE__, __LINE__, "protocol checker: %s", msg);
	else
		check_diag("protocol checker (expected): %s", msg);
}

struct ksim_card *mh_card_types(const char *desc,
				  const struct ksim_unit_type *const *types,
				  unsigned int n)
{
	const char *b = ksim_builtin_desc(desc);
	const char *env = getenv("KOHAKU_SIM_CHECK");
	struct ksim_opts o;
	struct ksim_card *c = NULL;
	char err[256];
	int e;

	memset(&o, 0, sizeof(o));
	o.extra_types = types;
	o.n_extra = n;
	o.flags = env && !strcmp(env, "0") ? 0 : KSIM_CHECK;
	o.violation = mh_violation;
	e = ksim_card_create_opts(b ? b : desc, &o, &c, err, sizeof(err));
	if (e) {
		check_fail_at(__FILE__, __LINE__, "card create: %d: %s", e, err);
		return NULL;
	}
	return c;
}

struct ksim_card *mh_card(const char *desc)
{
	return mh_card_types(desc, mh_test_types, mh_n_test_types);
}

void mh_fast_host(struct ksim_card *c)
{
	struct ksim_timing t = { 1, 1, 1 };

	ksim_set_timing(c, &t);
}

u64 mh_rd(struct ksim_card *c, u32 off)
{
	return ksim_read64(c, KH_MESH_BASE(0) + off);
}

void mh_wr(struct ksim_card *c, u32 off, u64 v)
{
	ksim_write64(c, KH_MESH_BASE(0) + off, v);
}

void mh_mb_load(struct ksim_card *c, const struct kh_flit *f)
{
	unsigned int i;

	for (i = 0; i < KH_FLIT_WORDS; i++)
		mh_wr(c, KH_ORC_TX_FLIT(i), f->w[i]);
}

void mh_mb_kick(struct ksim_card *c)
{
	mh_wr(c, KH_ORC_TX_KICK, 1);
}

void mh_mb_send(struct ksim_card *c, const struct kh_flit *f)
{
	mh_mb_load(c, f);
	mh_mb_kick(c);
}

int mh_mb_recv(struct ksim_card *c, struct kh_flit *f, unsigned int polls)
{
	unsigned int i;

	while (polls--) {
		if (mh_rd(c, KH_ORC_RX_STATUS) & KH_RX_STATUS_EMPTY)
			continue;
		for (i = 0; i < KH_FLIT_WORDS; i++)
			f->w[i] = mh_rd(c, KH_ORC_RX_FLIT(i));
		mh_wr(c, KH_ORC_RX_POP, 1);
		return 1;
	}
	return 0;
}

unsigned int mh_mb_count(struct ksim_card *c)
{
	struct kh_flit f;
	unsigned int n = 0;

	while (mh_mb_recv(c, &f, 1))
		n++;
	return n;
}

void mh_ctrl_req(struct kh_flit *f, unsigned int x, unsigned int y,
		 unsigned int idx, unsigned int txn)
{
	memset(f, 0, sizeof(*f));
	/* src (0,0): the corner routes back to the agent */
	kh_flit_hdr(f, x, y, 0, 0, KH_T_CU_CTRL, txn, 1);
	kh_flit_set(f, KH_CTRL_OP, KH_CTRL_OP_READ);
	kh_flit_set(f, KH_CTRL_INDEX, idx);
}

int mh_ctrl_read(struct ksim_card *c, unsigned int x, unsigned int y,
		 unsigned int idx, unsigned int txn, struct kh_flit *reply)
{
	struct kh_flit f;

	mh_ctrl_req(&f, x, y, idx, txn);
	mh_mb_send(c, &f);
	return mh_mb_recv(c, reply, 20);
}

u64 mh_ctrl_value(const struct kh_flit *reply)
{
	return kh_flit_get(reply, KH_CTRL_VALUE);
}

void mh_stage(struct ksim_card *c, unsigned int slot,
	      const struct kh_flit *f)
{
	unsigned int i;

	for (i = 0; i < KH_FLIT_WORDS; i++)
		mh_wr(c, KH_ORC_STAGE(slot) + i * 8, f->w[i]);
}

void mh_prog(struct ksim_card *c, unsigned int x, unsigned int y,
	     unsigned int base, unsigned int len)
{
	mh_wr(c, KH_ORC_PROG_DST, KH_YX(x, y));
	mh_wr(c, KH_ORC_PROG_BASE, base);
	mh_wr(c, KH_ORC_PROG_LEN, len);
	mh_wr(c, KH_ORC_PROG_KICK, 1);
}

u64 mh_ns(struct ksim_card *c, unsigned int x, unsigned int y)
{
	return mh_rd(c, KH_ORC_NODE_STATUS(KH_YX(x, y)));
}

bool mh_wait_count(struct ksim_card *c, unsigned int x, unsigned int y,
		   unsigned int want, unsigned int polls)
{
	while (polls--)
		if (KH_NS_COUNT(mh_ns(c, x, y)) == (want & 0xffff))
			return true;
	return false;
}

/* ---- the SX unit's arithmetic, for tests that check its results ---- */

/*
 * saxpy_cu's f2i (saxpy_cu.v:48-62) by another road: the magnitude is
 * 1.m * 2^(e-127), truncated toward zero, kept mod 2^32 (a shift past
 * bit 31 loses the bits), then negated for a set sign; exponent 0 is 0.
 */
static u32 ref_f2i(u32 b)
{
	int e = (b >> 23) & 0xff;
	double m = (double)(0x800000 | (b & 0x7fffff));
	u32 mag;

	if (!e)
		return 0;
	if (e - 150 >= 32)
		mag = 0;
	else
		mag = (u32)(u64)ldexp(m, e - 150);	/* exact, then truncated */
	return b >> 31 ? 0u - mag : mag;
}

/* saxpy_cu's i2f (saxpy_cu.v:64-80): only bits 23..0 of |v| find the exponent */
static u32 ref_i2f(u32 v)
{
	u32 mag = v >> 31 ? 0u - v : v;
	int p, i;

	if (!mag)
		return 0;
	for (p = 0, i = 23; i >= 0; i--)
		if ((mag >> i) & 1) {
			p = i;
			break;
		}
	return (v & 0x80000000u) | ((u32)(127 + p) << 23) |
	       (u32)(((u64)mag << (23 - p)) & 0x7fffff);
}

u32 mh_sx_rtl(u32 a, u32 x, u32 y)
{
	return ref_i2f(ref_f2i(a) * ref_f2i(x) + ref_f2i(y));
}


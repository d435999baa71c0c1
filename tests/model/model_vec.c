// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The vector core (token `vec`, docs/spec/vec.md) on a small mesh:
 *
 *   xxx vec xxx        vec at (1,0), (1,1), (1,2); a traffic source
 *   mag vec src        ("src", tunits.c) at (2,1) plays a second sender;
 *   xxx vec xxx        MAG port and orchestrator at (0,1)
 *
 * E8M15 arithmetic is checked against a plain-C reference written from
 * the format's definition (exact integer arithmetic, round to nearest
 * even, flush below the normal range, saturate to infinity above), with
 * the RTL's documented departures from correct rounding (docs/spec/vec.md
 * "E8M15 arithmetic") applied where their conditions hold and counted.
 * Kernels run through the mesh with their data in DRAM.
 */
#include <math.h>
#include "mhelp.h"
#include "units/vec/vec.h"
#include <kohaku/kh_vec.h>
#include "harness.h"

CHECK_FIXTURE(model)

#define MAP	"xxx vec xxx\nmag vec src\nxxx vec xxx\n"
/* the vec the helpers address */
static unsigned int VX = 1, VY = 1;

static u64 rng = 0x9e3779b97f4a7c15ULL;

static u32 rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (u32)((rng * 0x2545f4914f6cdd1dULL) >> 32);
}

/* ------------------------------------------------------------------ */
/* kernel words, built from the field table                            */

#define w_alu(op, vd, va, vb, vc, sa, sb, sc, pr, pm) \
	(KH_VEC_PUT(KH_VEC_OP, op) | KH_VEC_PUT(KH_VEC_SA, sa) | \
	 KH_VEC_PUT(KH_VEC_SB, sb) | KH_VEC_PUT(KH_VEC_SC, sc) | \
	 KH_VEC_PUT(KH_VEC_VD, vd) | KH_VEC_PUT(KH_VEC_VA, va) | \
	 KH_VEC_PUT(KH_VEC_VB, vb) | KH_VEC_PUT(KH_VEC_VC, vc) | \
	 KH_VEC_PUT(KH_VEC_PR, pr) | KH_VEC_PUT(KH_VEC_PM, pm))
#define w_mem(op, vd, ad, off, dt) \
	(KH_VEC_PUT(KH_VEC_OP, op) | KH_VEC_PUT(KH_VEC_DT, dt) | \
	 KH_VEC_PUT(KH_VEC_AD, ad) | KH_VEC_PUT(KH_VEC_VD, vd) | \
	 KH_VEC_PUT(KH_VEC_OFF, off))
#define w_op(op, vd, va, vb)	w_alu(op, vd, va, vb, 0, 0, 0, 0, 0, 0)

#define W_HALT		w_op(KH_VEC_VHALT, 0, 0, 0)
#define W_BAR		w_op(KH_VEC_VBAR, 0, 0, 0)
#define W_SETI(s)	w_op(KH_VEC_VSETI, s, 0, 0)
#define W_SETK		(w_op(KH_VEC_VSETI, 0, 0, 0) | KH_VEC_PUT(KH_VEC_SA, KH_VEC_SRC_K))
#define W_SETVL(s)	w_op(KH_VEC_VSETVL, 0, s, 0)
#define W_MODE(m)	w_op(KH_VEC_VSETMODE, 0, m, 0)
#define W_LOOP(s, n)	w_op(KH_VEC_VLOOP, 0, s, n)

/* ------------------------------------------------------------------ */
/* the card and CU instructions                                        */

static struct ksim_card *vcard(void)
{
	return mh_card(MAP);
}

/* Send one CU_INST to (x,y); wait for its completion; NODE_STATUS. */
static u64 vsend(struct ksim_card *c, unsigned int x, unsigned int y,
		 struct kh_flit *f)
{
	unsigned int n = KH_NS_COUNT(mh_ns(c, x, y));

	kh_flit_set(f, KH_HDR_DST_X, x);
	kh_flit_set(f, KH_HDR_DST_Y, y);
	mh_mb_send(c, f);
	CHECK_MSG(mh_wait_count(c, x, y, n + 1, 200000),
		  "vec (%u,%u): no completion", x, y);
	return mh_ns(c, x, y);
}

static void cu_inst(struct kh_flit *f, u32 op)
{
	memset(f, 0, sizeof(*f));
	kh_flit_hdr(f, 0, 0, 0, 0, KH_T_CU_INST, 0x40, 0);
	kh_flit_set(f, KH_VEC_CU_OP, op);
}

static u64 imem(struct ksim_card *c, u32 addr, u32 word)
{
	struct kh_flit f;

	cu_inst(&f, KH_VEC_CU_IMEM);
	kh_flit_set(&f, KH_VEC_CU_ADDR, addr);
	kh_flit_set(&f, KH_VEC_CU_WORD, word);
	return vsend(c, VX, VY, &f);
}

static u64 desc(struct ksim_card *c, u32 ad, u32 fld, u64 val)
{
	struct kh_flit f;

	cu_inst(&f, KH_VEC_CU_DESC);
	kh_flit_set(&f, KH_VEC_CU_AD, ad);
	kh_flit_set(&f, KH_VEC_CU_FLD, fld);
	kh_flit_set(&f, KH_VEC_CU_VAL_LO, val);
	kh_flit_set(&f, KH_VEC_CU_VAL_HI, val >> KH_VEC_CU_VAL_LO_BITS);
	return vsend(c, VX, VY, &f);
}

static u64 run(struct ksim_card *c, u32 pc)
{
	struct kh_flit f;

	cu_inst(&f, KH_VEC_CU_RUN);
	kh_flit_set(&f, KH_VEC_CU_ADDR, pc);
	return vsend(c, VX, VY, &f);
}

static void prog(struct ksim_card *c, u32 at, const u32 *w, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		imem(c, at + i, w[i]);
}

static void expect_ok(u64 ns, const char *what)
{
	CHECK_MSG(KH_NS_CODE(ns) == KH_SIG_INST_COMPLETE,
		  "%s: signal %#x arg %#x", what, KH_NS_CODE(ns), KH_NS_ARG(ns));
}

static void expect_fault(u64 ns, u32 code, const char *what)
{
	CHECK_MSG(KH_NS_CODE(ns) == KH_SIG_FAULT && KH_NS_ARG(ns) == code,
		  "%s: signal %#x arg %#x, want SIG_FAULT %#x", what,
		  KH_NS_CODE(ns), KH_NS_ARG(ns), code);
}

static u64 ctrl(struct ksim_card *c, unsigned int idx)
{
	struct kh_flit r;

	if (!mh_ctrl_read(c, VX, VY, idx, 7, &r)) {
		CHECK_MSG(0, "no CU_CTRL reply");
		return 0;
	}
	return mh_ctrl_value(&r);
}

static void dram_w(struct ksim_card *c, u64 a, const void *p, size_t n)
{
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, a), p, n), 0);
}

static void dram_r(struct ksim_card *c, u64 a, void *p, size_t n)
{
	ksim_run(c, 2000);	/* a drain's writes land after the retirement */
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, a), p, n), 0);
}

/* ------------------------------------------------------------------ */
/* the reference: E8M15 from its definition                            */

static float f_of(u32 b)
{
	float f;

	memcpy(&f, &b, 4);
	return f;
}

static u32 b_of(float f)
{
	u32 b;

	memcpy(&b, &f, 4);
	return b;
}

/* value = sig * 2^exp; E8M15's e is FP32's, its 16-bit significand FP32's top */
static double e8_val(u32 x)
{
	u32 e = (x >> 15) & 0xff, m = x & 0x7fff;
	double v;

	if (!e)
		return (x >> 23) ? -0.0 : 0.0;
	if (e == 255)
		return m ? NAN : ((x >> 23) ? -INFINITY : INFINITY);
	v = ldexp((double)(0x8000 | m), (int)e - 142);
	return (x >> 23) ? -v : v;
}

/*
 * Round s * x * 2^e (x exact, up to 127 bits) to E8M15: nearest even, or
 * with tie_up a tie away from zero; flush below e = 1, infinity at 255.
 */
static u32 ref_round(int s, unsigned __int128 x, int e, bool tie_up)
{
	unsigned __int128 rem = 0, half = 1;
	u32 sig;
	int p = 127, be;
	bool up;

	if (!x)
		return (u32)s << 23;
	while (!((x >> p) & 1))
		p--;
	if (p > 15) {
		rem = x & ((((unsigned __int128)1) << (p - 15)) - 1);
		half = ((unsigned __int128)1) << (p - 16);
		sig = (u32)(x >> (p - 15));
	} else {
		sig = (u32)(x << (15 - p));
	}
	up = rem > half || (rem == half && (tie_up || (sig & 1)));
	sig += up;
	be = p + e + 127;
	if (sig >> 16) {
		sig >>= 1;
		be++;
	}
	if (be >= 255)
		return ((u32)s << 23) | KH_E8_PINF;
	if (be <= 0)
		return (u32)s << 23;
	return ((u32)s << 23) | ((u32)be << 15) | (sig & 0x7fff);
}

/* departures from correct rounding seen, by class (docs/spec/vec.md) */
static unsigned int dep_tie, dep_trunc, dep_byp, dep_zero;

/* sp * P * 2^ep + sc * C * 2^ec, exactly, rounded once */
static u32 ref_sum(int sp, unsigned __int128 p, int ep, int sc,
		   unsigned __int128 c, int ec)
{
	unsigned __int128 x;
	int lo, sign;

	/* a term more than 90 binades below the other is a unit far below */
	if (ep - ec > 90) {
		c = 1;
		ec = ep - 90;
	} else if (ec - ep > 90) {
		p = 1;
		ep = ec - 90;
	}
	lo = ep < ec ? ep : ec;
	p <<= ep - lo;
	c <<= ec - lo;
	if (sp == sc) {
		x = p + c;
		sign = sp;
	} else if (p >= c) {
		x = p - c;
		sign = sp;
	} else {
		x = c - p;
		sign = sc;
	}
	if (!x)
		return 0;	/* exact cancellation: +0 */
	return ref_round(sign, x, lo, false);
}

/*
 * a*b + c, exactly, then rounded once; specials as IEEE 754 with every
 * NaN 0x7fc000; then the RTL's departures where their conditions hold.
 */
static u32 ref_fma(u32 a, u32 b, u32 c)
{
	double va = e8_val(a), vb = e8_val(b), vc = e8_val(c);
	int sa = a >> 23 & 1, sb = b >> 23 & 1, sc = c >> 23 & 1, sp = sa ^ sb;
	int ea = a >> 15 & 0xff, eb = b >> 15 & 0xff, ec = c >> 15 & 0xff;
	u64 ga = 0x8000 | (a & 0x7fff), gb = 0x8000 | (b & 0x7fff);
	u64 gc = 0x8000 | (c & 0x7fff);
	int ep = ea + eb - 284, s_raw = ea + eb - ec - 110;
	u32 exact;

	if (isnan(va) || isnan(vb) || isnan(vc) ||
	    (isinf(va) && vb == 0) || (va == 0 && isinf(vb)) ||
	    ((isinf(va) || isinf(vb)) && isinf(vc) && sp != sc))
		return KH_E8_NAN;
	if (isinf(va) || isinf(vb))
		return ((u32)sp << 23) | KH_E8_PINF;
	if (isinf(vc))
		return ((u32)sc << 23) | KH_E8_PINF;
	if (va == 0 || vb == 0) {
		if (vc != 0)
			return c;
		/* IEEE: +0 unless both are -0; vec_alu.v: the addend's sign */
		if (sp != sc && sc)
			dep_zero++;
		return (u32)sc << 23;
	}
	if (vc == 0) {
		/* vec_alu.v: a zero addend's significand is all sticky: ties go up */
		exact = ref_round(sp, ga * gb, ep, false);
		if (ref_round(sp, ga * gb, ep, true) != exact) {
			dep_tie++;
			return ref_round(sp, ga * gb, ep, true);
		}
		return exact;
	}
	exact = ref_sum(sp, ga * gb, ep, sc, gc, ec - 142);
	if (s_raw < 0) {
		/* vec_alu.v: a product this far below is dropped; c passes */
		if (exact != c)
			dep_byp++;
		return c;
	}
	if (s_raw >= 33 && sp != sc) {
		/*
		 * vec_alu.v keeps the addend only to bit 0 of a frame holding
		 * the product at [31:0]: a difference then exactly on a tie
		 * rounds up, though the true value is just below it.
		 */
		int s = s_raw > 48 ? 48 : s_raw;
		u64 lost = s == 48 ? gc : gc & ((1u << (s - 32)) - 1);
		u64 ct = (gc << 32) >> s;

		if (lost) {
			u32 r = ref_round(sp, ga * gb - ct, ep, true);

			if (r != exact) {
				dep_trunc++;
				return r;
			}
		}
	}
	return exact;
}

/* ISA op through the reference: operand selection as vec_alu.v names it */
static u32 ref_alu(u32 op, u32 a, u32 b, u32 c, bool *pred)
{
	double va = e8_val(a), vb = e8_val(b);
	bool un = isnan(va) || isnan(vb);

	*pred = false;
	switch (op) {
	case KH_VEC_VMOV:
		return ref_fma(a, KH_E8_ONE, 0);
	case KH_VEC_VNEG:
		return ref_fma(a ^ KH_E8_SIGN, KH_E8_ONE, 0);
	case KH_VEC_VABS:
		return ref_fma(a & ~KH_E8_SIGN, KH_E8_ONE, 0);
	case KH_VEC_VADD:
		return ref_fma(a, KH_E8_ONE, c);
	case KH_VEC_VSUB:
		return ref_fma(a, KH_E8_ONE, c ^ KH_E8_SIGN);
	case KH_VEC_VMUL:
		return ref_fma(a, b, 0);
	case KH_VEC_VFMA:
		return ref_fma(a, b, c);
	case KH_VEC_VFNMA:
		return ref_fma(a ^ KH_E8_SIGN, b, c);
	case KH_VEC_VMAX:
		return ref_fma(!un && va < vb ? b : a, KH_E8_ONE, 0);
	case KH_VEC_VMIN:
		return ref_fma(!un && va > vb ? b : a, KH_E8_ONE, 0);
	case KH_VEC_VSEL:
		return ref_fma((c & 0x7fffff) ? a : b, KH_E8_ONE, 0);
	case KH_VEC_VCMPLT:
		*pred = !un && va < vb;
		break;
	case KH_VEC_VCMPGT:
		*pred = !un && va > vb;
		break;
	default:
		*pred = !un && va == vb;
		break;
	}
	return *pred ? KH_E8_ONE : 0;
}

/* Mostly finite operands whose exponents meet; specials now and then. */
static u32 rnd_e8(u32 base_e)
{
	u32 r = rnd(), e;

	switch (r & 31) {
	case 0:
		return (r & KH_E8_SIGN);			/* zero */
	case 1:
		return (r & KH_E8_SIGN) | KH_E8_PINF;		/* inf */
	case 2:
		return KH_E8_PINF | 1 | ((r >> 8) & 0x7fff);	/* NaN */
	case 3:
		e = 1 + (r >> 8) % 254;
		break;
	default:
		e = base_e + ((r >> 8) % 41) - 20;
		if (e < 1 || e > 254)
			e = 127;
		break;
	}
	if ((r & 0xc0) == 0)
		return (r & KH_E8_SIGN) | (e << 15);		/* power of two */
	return (r & KH_E8_SIGN) | (e << 15) | (rnd() & 0x7fff);
}

/* ------------------------------------------------------------------ */
/* encodings                                                          */

TEST_F(model, encodings_match_the_rtl_bench_words)
{
	/* the literal kernel words of tests/vector/vec_cu_tb.v */
	CHECK_EQ(W_SETI(0), 0xD0000000u);
	CHECK_EQ(W_SETVL(0), 0xC0000000u);
	CHECK_EQ(W_MODE(0), 0xC8000000u);
	CHECK_EQ(W_MODE(KH_VEC_MODE_D4), 0xC8004000u);
	CHECK_EQ(w_mem(KH_VEC_VFILL, 0, 0, 0, 0), 0xE8000000u);
	CHECK_EQ(W_BAR, 0xE0000000u);
	CHECK_EQ(w_mem(KH_VEC_VLD, 0, 1, 0, KH_VEC_DT_FP16), 0xA1200000u);
	CHECK_EQ(w_mem(KH_VEC_VLD, 1, 2, 0, KH_VEC_DT_FP16), 0xA1420000u);
	CHECK_EQ(w_op(KH_VEC_VADD, 2, 0, 1) | KH_VEC_PUT(KH_VEC_VC, 1), 0x18040220u);
	CHECK_EQ(w_mem(KH_VEC_VST, 2, 3, 0, KH_VEC_DT_FP16), 0xA9640000u);
	CHECK_EQ(w_mem(KH_VEC_VDRAIN, 0, 4, 0, 0), 0xF0800000u);
	CHECK_EQ(W_HALT, 0xF8000000u);
	CHECK_EQ(W_SETK, 0xD6000000u);
	CHECK_EQ(w_alu(KH_VEC_VCMPGT, 0, 0, 3, 3, 0, 3, 3, 0, 0), 0x61E00660u);
	CHECK_EQ(w_alu(KH_VEC_VRED, 3, 0, 0, KH_VEC_RED_ANY, 0, 0, 0, 0, 0), 0x980600C0u);
	CHECK_EQ(w_alu(KH_VEC_VRED, 4, 0, 0, KH_VEC_RED_ALL, 0, 0, 0, 1, 0), 0x980800E8u);
	CHECK_EQ(w_alu(KH_VEC_VBCAST, 8, 3, 0, 0, KH_VEC_SRC_S, 0, 0, 0, 0), 0xB2106000u);
	CHECK_EQ(w_mem(KH_VEC_VDRAIN, 0, 0, 64, 0), 0xF0000040u);
	CHECK_EQ(w_mem(KH_VEC_VDRAIN, 0, 1, 64, 0) | KH_VEC_PUT(KH_VEC_ND, 1) |
		 KH_VEC_PUT(KH_VEC_ND_SIG, 1) | KH_VEC_PUT(KH_VEC_ND_X, 3) |
		 KH_VEC_PUT(KH_VEC_ND_Y, 3), 0xF3266040u);
	/* field extraction */
	CHECK_EQ(KH_VEC_GET(0xF3266040u, KH_VEC_OP), KH_VEC_VDRAIN);
	CHECK_EQ(KH_VEC_GET(0xF3266040u, KH_VEC_ND_X), 3);
	CHECK_EQ(KH_VEC_GET(0xF3266040u, KH_VEC_OFF) & 0x1ff, 64);	/* L1 word [8:0] */
	CHECK_EQ(KH_VEC_GET(0xFFFFFFFFu, KH_VEC_OP), 0x1f);
	CHECK_EQ(KH_VEC_DIM(-1, 5), (0x3ffffULL << 16) | 5);
}

/* ------------------------------------------------------------------ */
/* E8M15 against the reference                                        */

static double f16_val(u32 h)
{
	u32 e = (h >> 10) & 0x1f, m = h & 0x3ff;
	double v;

	if (e == 0x1f)
		return m ? NAN : ((h >> 15) ? -INFINITY : INFINITY);
	v = e ? ldexp(1024 + m, (int)e - 25) : ldexp(m, -24);
	return (h >> 15) ? -v : v;
}

TEST_F(model, e8_from_fp16_is_exact_for_all_65536)
{
	u32 h, bad = 0;

	for (h = 0; h < 0x10000; h++) {
		double v = f16_val(h);
		u32 want, got = ksim_e8_from_f16(h);

		if (isnan(v))	/* the payload moves up: {s, FF, m10, 00000} */
			want = ((h >> 15) << 23) | KH_E8_PINF | ((h & 0x3ff) << 5);
		else
			want = b_of((float)v) >> 8;
		if (got != want && bad++ < 5)
			CHECK_MSG(0, "f16 %04x: got %06x want %06x", h, got, want);
		/* and back: FP16 -> E8M15 -> FP16 is the identity */
		if (!isnan(v) && ksim_e8_to_f16(got) != h && bad++ < 5)
			CHECK_MSG(0, "f16 %04x round trip: %04x", h,
				  ksim_e8_to_f16(got));
	}
	CHECK_EQ(bad, 0);
}

static u32 ref_to_f16(u32 x)
{
	u32 s = x >> 23 & 1, e = x >> 15 & 0xff;
	double v = fabs(e8_val(x)), r;
	int k;

	if (!e)
		return s << 15;
	if (e == 0xff)
		return (s << 15) | 0x7c00 | ((x & 0x7fff) ? 0x200 | ((x >> 5) & 0x1ff) : 0);
	if (v < ldexp(1, -14)) {
		r = rint(ldexp(v, 24));			/* subnormal units */
		return (s << 15) | (u32)r;
	}
	k = ilogb(v);
	r = ldexp(rint(ldexp(v, 10 - k)), k - 10);	/* 11 bits, nearest even */
	if (r >= 65536.0)
		return (s << 15) | 0x7bff;		/* saturates, vec_cvt.v:49 */
	return (s << 15) | (((b_of((float)r) >> 13) - (112 << 10)) & 0x7fff);
}

TEST_F(model, e8_to_fp16_rounds_saturates_and_goes_subnormal)
{
	u32 i, bad = 0, x;

	for (i = 0; i < 2000000; i++) {
		/* exponents around FP16's range, and all of E8's */
		x = (i & 1) ? (rnd() & 0xffffff)
			    : ((rnd() & 0x807fff) | ((95 + rnd() % 50) << 15));
		if ((x >> 15 & 0xff) == 0)
			x &= KH_E8_SIGN;	/* a zero is e = 0, m = 0 */
		if (ksim_e8_to_f16(x) != ref_to_f16(x) && bad++ < 5)
			CHECK_MSG(0, "e8 %06x: got %04x want %04x", x,
				  ksim_e8_to_f16(x), ref_to_f16(x));
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(ksim_e8_to_f16(0x477fe0), 0x7bff);	/* 65504 stays */
	CHECK_EQ(ksim_e8_to_f16(0x47ffff), 0x7bff);	/* finite overflow */
	CHECK_EQ(ksim_e8_to_f16(KH_E8_PINF), 0x7c00);
	CHECK_EQ(ksim_e8_to_f16(0x330000), 0x0000);	/* 2^-25: a tie, to even */
	CHECK_EQ(ksim_e8_to_f16(0x330001), 0x0001);
}

TEST_F(model, e8_fp32_conversions)
{
	u32 i, bad = 0, f, want;

	for (i = 0; i < 2000000; i++) {
		u32 e;

		f = rnd();
		e = f >> 23 & 0xff;
		if (!e)
			want = (f >> 31) << 23;		/* FP32 subnormals flush */
		else if (e == 0xff && (f & 0x7fffff))
			want = ((f >> 31) << 23) | KH_E8_PINF | 0x4000 | ((f >> 8) & 0x3fff);
		else if (e == 0xff)
			want = ((f >> 31) << 23) | KH_E8_PINF;
		else
			want = ref_round(f >> 31, 0x800000 | (f & 0x7fffff),
					 (int)e - 150, false);
		if (ksim_e8_from_f32(f) != want && bad++ < 5)
			CHECK_MSG(0, "f32 %08x: got %06x want %06x", f,
				  ksim_e8_from_f32(f), want);
		/* E8M15 -> FP32 is exact */
		if (want >> 15 & 0xff && (want >> 15 & 0xff) != 0xff &&
		    f_of(ksim_e8_to_f32(want)) != (float)e8_val(want) && bad++ < 5)
			CHECK_MSG(0, "e8 %06x to f32: %08x", want,
				  ksim_e8_to_f32(want));
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(ksim_e8_from_f32(0x7f7fffff), KH_E8_PINF);	/* rounds up: inf */
	CHECK_EQ(ksim_e8_to_f32(0x000123), 0);		/* e = 0 is zero */
	CHECK_EQ(ksim_e8_to_f32(0x800123), 0x80000000u);
}

static const char *const op_name[] = {
	"VMOV", "VNEG", "VABS", "VADD", "VSUB", "VMUL", "VFMA", "VFNMA",
	"VMAX", "VMIN", "VSEL", "VCMPLT", "VCMPGT", "VCMPEQ",
};

TEST_F(model, e8_alu_matches_the_reference)
{
	u32 op, i, bad = 0;

	dep_tie = dep_trunc = dep_byp = dep_zero = 0;
	for (op = KH_VEC_VMOV; op <= KH_VEC_VCMPEQ; op++)
		for (i = 0; i < 400000; i++) {
			u32 be = 1 + rnd() % 254, a, b, c, got, want;
			bool pg, pw;

			a = rnd_e8(be);
			/* the product's exponent near c's: ea + eb - 127 ~ ec */
			b = rnd_e8(127 + (rnd() % 9) - 4);
			c = rnd_e8((i & 3) ? be + (b >> 15 & 0xff) - 127 : be);
			got = ksim_e8_alu(op, a, b, c, &pg);
			want = ref_alu(op, a, b, c, &pw);
			if (op >= KH_VEC_VCMPLT ? pg != pw : got != want) {
				if (bad++ < 8)
					CHECK_MSG(0, "%s(%06x, %06x, %06x): got %06x/%d want %06x/%d",
						  op_name[op], a, b, c, got, pg,
						  want, pw);
			}
		}
	CHECK_EQ(bad, 0);
	check_diag("departures taken from correct rounding: %u zero-addend ties, %u truncated-addend ties, %u dropped products, %u (+0)+(-0)",
		 dep_tie, dep_trunc, dep_byp, dep_zero);
	/* each departure class was exercised */
	CHECK(dep_tie > 0);
	CHECK(dep_byp > 0);
	CHECK(dep_zero > 0);
}

TEST_F(model, e8_alu_corner_values)
{
	bool p;

	/* VADD is a + c; b is not read */
	CHECK_EQ(ksim_e8_alu(KH_VEC_VADD, KH_E8_ONE, 0x400000, KH_E8_ONE, &p), 0x400000);
	/* x - x = +0; (+0) + (-0) = -0 (the addend's sign) */
	CHECK_EQ(ksim_e8_alu(KH_VEC_VSUB, 0x412345, 0, 0x412345, &p), 0);
	CHECK_EQ(ksim_e8_alu(KH_VEC_VADD, 0, 0, KH_E8_SIGN, &p), KH_E8_SIGN);
	/* VMOV/VNEG of a zero give +0: x * 1.0 + (+0) */
	CHECK_EQ(ksim_e8_alu(KH_VEC_VMOV, KH_E8_SIGN, 0, 0, &p), 0);
	CHECK_EQ(ksim_e8_alu(KH_VEC_VNEG, 0, 0, 0, &p), 0);
	/* every NaN out is 0x7fc000; VMAX(NaN, x) = NaN, VMAX(x, NaN) = x */
	CHECK_EQ(ksim_e8_alu(KH_VEC_VMOV, 0xff8001, 0, 0, &p), KH_E8_NAN);
	CHECK_EQ(ksim_e8_alu(KH_VEC_VMAX, 0x7f8001, KH_E8_ONE, 0, &p), KH_E8_NAN);
	CHECK_EQ(ksim_e8_alu(KH_VEC_VMAX, KH_E8_ONE, 0x7f8001, 0, &p), KH_E8_ONE);
	/* inf * 0 and inf - inf */
	CHECK_EQ(ksim_e8_alu(KH_VEC_VMUL, KH_E8_PINF, 0, 0, &p), KH_E8_NAN);
	CHECK_EQ(ksim_e8_alu(KH_VEC_VSUB, KH_E8_PINF, 0, KH_E8_PINF, &p), KH_E8_NAN);
	/* overflow to infinity, underflow flushes with the sign */
	CHECK_EQ(ksim_e8_alu(KH_VEC_VMUL, 0x7f0000, 0x7f0000, 0, &p), KH_E8_PINF);
	CHECK_EQ(ksim_e8_alu(KH_VEC_VMUL, 0x008000, 0x9f8000, 0, &p), KH_E8_SIGN);
	/* an exact product tie with no addend rounds up, not to even */
	CHECK_EQ(ksim_e8_alu(KH_VEC_VMUL, 0x3f8001, 0x3fc000, 0, &p), 0x3fc002);
	/* compares: -0 == +0, NaN unordered */
	ksim_e8_alu(KH_VEC_VCMPEQ, 0, KH_E8_SIGN, 0, &p);
	CHECK(p);
	ksim_e8_alu(KH_VEC_VCMPLT, 0x7fc000, KH_E8_ONE, 0, &p);
	CHECK(!p);
	ksim_e8_alu(KH_VEC_VCMPEQ, 0x7fc000, 0x7fc000, 0, &p);
	CHECK(!p);
	ksim_e8_alu(KH_VEC_VCMPGT, KH_E8_ONE, KH_E8_MINUS_ONE, 0, &p);
	CHECK(p);
	/* VSEL by c's magnitude: -0 selects b */
	CHECK_EQ(ksim_e8_alu(KH_VEC_VSEL, KH_E8_ONE, 0x400000, KH_E8_SIGN, &p), 0x400000);
}


/* ------------------------------------------------------------------ */
/* the unit on the mesh                                               */

TEST_F(model, caps_noops_and_loads)
{
	struct ksim_card *c = vcard();
	struct kh_flit f;
	u32 op;

	REQUIRE(c);
	/* 'VC', version 4, N_BUFFERS 2 as vec_cu.v:137 has it, depth 512 */
	CHECK_EQ(ctrl(c, KH_CTRL_IDX_CAPS),
		 ((u64)KH_CU_VC << 48) | (4ULL << 40) | (2ULL << 36) | (512ULL << 20));
	/* IMEM and DESC retire with 0; every other CU opcode is a no-op */
	expect_ok(imem(c, 5, 0x12345678), "IMEM");
	CHECK_EQ(KH_NS_ARG(mh_ns(c, VX, VY)), 0);
	expect_ok(desc(c, 2, 1, KH_VEC_DIM(1, 4)), "DESC");
	CHECK_EQ(KH_NS_ARG(mh_ns(c, VX, VY)), 0);
	for (op = 0; op < 16; op++) {
		u64 ns;

		if (op >= KH_VEC_CU_IMEM && op <= KH_VEC_CU_RUN)
			continue;
		cu_inst(&f, op);
		kh_flit_set(&f, KH_VEC_CU_ADDR, 0x1ff);
		ns = vsend(c, VX, VY, &f);
		expect_ok(ns, "no-op");
		CHECK_EQ(KH_NS_ARG(ns), 0);
	}
	ksim_card_destroy(c);
}

/*
 * Kernel cycles, from vec_core.v's states: S_F2 S_DEC S_EXEC for the
 * first word (4 states S_F1.. for the next), VSETI +2, VHALT S_WAITP
 * S_HALT; an ALU op's beats start the cycle after S_EXEC and the lanes
 * read empty 79 cycles after the last beat.
 */
TEST_F(model, kernel_cycles_and_cu_dbg)
{
	struct ksim_card *c = vcard();
	const u32 k1[] = { W_SETI(0), 64, W_SETVL(0), W_HALT };
	const u32 k2[] = { w_op(KH_VEC_VMOV, 1, 0, 0), W_HALT };
	u64 ns;

	REQUIRE(c);
	imem(c, 0, W_HALT);
	ns = run(c, 0);
	expect_ok(ns, "VHALT");
	CHECK_EQ(KH_NS_ARG(ns), 5);
	CHECK_EQ(ctrl(c, KH_CTRL_IDX_DBG), 5);
	prog(c, 10, k1, 4);
	ns = run(c, 10);
	/* SETI 3..5, F1 6, SETVL 9, F1 10, HALT 13, WAITP 14, HALT 15 */
	CHECK_EQ(KH_NS_ARG(ns), 15);
	prog(c, 20, k2, 2);
	ns = run(c, 20);
	/* VL 64: 4 beats at 4-7; WAITP until 7 + 79 = 86; S_HALT 87 */
	CHECK_EQ(KH_NS_ARG(ns), 87);
	CHECK_EQ(ctrl(c, KH_CTRL_IDX_DBG), 87);
	ksim_card_destroy(c);
}

/* FP16 words of the RTL bench: a[i] = i+1, b[i] = 2(i+1), 128 each */
static u16 f16i(float v)
{
	return (u16)ksim_e8_to_f16(b_of(v) >> 8);
}

#define A_SRC	0x1000
#define A_DST	0x2000
#define A_DST2	0x3000
#define A_DST3	0x4000

/* vec_cu_tb.v's kernel 1: fill, barrier, two loads, VADD, store, drain */
static void bench_kernel1(struct ksim_card *c)
{
	const u32 k[] = {
		W_SETI(0), 128, W_SETVL(0), W_MODE(0),
		w_mem(KH_VEC_VFILL, 0, 0, 0, 0), W_BAR,
		w_mem(KH_VEC_VLD, 0, 1, 0, KH_VEC_DT_FP16),
		w_mem(KH_VEC_VLD, 1, 2, 0, KH_VEC_DT_FP16),
		w_op(KH_VEC_VADD, 2, 0, 1) | KH_VEC_PUT(KH_VEC_VC, 1),
		w_mem(KH_VEC_VST, 2, 3, 0, KH_VEC_DT_FP16),
		w_mem(KH_VEC_VDRAIN, 0, 4, 0, 0), W_HALT,
	};
	u16 src[256];
	int i;

	for (i = 0; i < 128; i++) {
		src[i] = f16i(i + 1);
		src[128 + i] = f16i(2 * (i + 1));
	}
	dram_w(c, A_SRC, src, sizeof(src));
	prog(c, 0, k, KSIM_ARRAY_SIZE(k));
	desc(c, 0, 0, A_SRC);
	desc(c, 0, 1, KH_VEC_DIM(32, 16));
	desc(c, 1, 0, 0);
	desc(c, 1, 1, KH_VEC_DIM(1, 8));
	desc(c, 2, 0, 8);
	desc(c, 2, 1, KH_VEC_DIM(1, 8));
	desc(c, 3, 0, 16);
	desc(c, 3, 1, KH_VEC_DIM(1, 8));
	desc(c, 4, 0, A_DST);
	desc(c, 4, 1, KH_VEC_DIM(32, 24));
}

TEST_F(model, fill_load_add_store_drain_through_mag)
{
	struct ksim_card *c = vcard();
	u16 out[24 * 16];
	u64 ns;
	int w, i, bad = 0;

	REQUIRE(c);
	bench_kernel1(c);
	ns = run(c, 0);
	expect_ok(ns, "kernel 1");
	check_diag("bench kernel 1: %u cycles", KH_NS_ARG(ns));
	dram_r(c, A_DST, out, sizeof(out));
	for (w = 0; w < 24; w++)
		for (i = 0; i < 16; i++) {
			int n = w % 8 * 16 + i + 1;
			u16 want = f16i(w < 8 ? n : w < 16 ? 2 * n : 3 * n);

			if (out[w * 16 + i] != want && bad++ < 5)
				CHECK_MSG(0, "word %d elem %d: %04x want %04x",
					  w, i, out[w * 16 + i], want);
		}
	CHECK_EQ(bad, 0);
	ksim_card_destroy(c);
}

/* vec_cu_tb.v's kernel 3: VRED ANY/ALL under VL = 64, VSTs as barriers */
TEST_F(model, vred_any_all_under_vl)
{
	struct ksim_card *c = vcard();
	const u32 k[] = {
		W_MODE(0), W_SETI(0), 128, W_SETVL(0), W_SETK, 0x428000,
		w_alu(KH_VEC_VCMPGT, 0, 0, 3, 3, 0, 3, 3, 0, 0),
		w_mem(KH_VEC_VST, 2, 5, 0, KH_VEC_DT_FP16),
		W_SETI(0), 64, W_SETVL(0),
		w_alu(KH_VEC_VRED, 3, 0, 0, KH_VEC_RED_ANY, 0, 0, 0, 0, 0),
		W_SETI(0), 128, W_SETVL(0), W_SETK, 0x428200,
		w_alu(KH_VEC_VCMPLT, 0, 0, 3, 3, 0, 3, 3, 1, 0),
		w_mem(KH_VEC_VST, 2, 5, 0, KH_VEC_DT_FP16),
		W_SETI(0), 64, W_SETVL(0),
		w_alu(KH_VEC_VRED, 4, 0, 0, KH_VEC_RED_ALL, 0, 0, 0, 1, 0),
		w_alu(KH_VEC_VBCAST, 8, 3, 0, 0, KH_VEC_SRC_S, 0, 0, 0, 0),
		w_mem(KH_VEC_VST, 8, 5, 0, KH_VEC_DT_FP16),
		w_alu(KH_VEC_VBCAST, 9, 4, 0, 0, KH_VEC_SRC_S, 0, 0, 0, 0),
		w_mem(KH_VEC_VST, 9, 6, 0, KH_VEC_DT_FP16),
		w_mem(KH_VEC_VDRAIN, 0, 7, 24, 0), W_HALT,
	};
	u16 out[16 * 16];
	int w, i;

	REQUIRE(c);
	bench_kernel1(c);
	expect_ok(run(c, 0), "kernel 1");	/* v0 = 1..128 */
	prog(c, 40, k, KSIM_ARRAY_SIZE(k));
	desc(c, 5, 0, 24);
	desc(c, 5, 1, KH_VEC_DIM(1, 8));
	desc(c, 6, 0, 32);
	desc(c, 6, 1, KH_VEC_DIM(1, 8));
	desc(c, 7, 0, A_DST2);
	desc(c, 7, 1, KH_VEC_DIM(32, 16));
	expect_ok(run(c, 40), "kernel 3");
	dram_r(c, A_DST2, out, sizeof(out));
	for (w = 0; w < 4; w++)
		for (i = 0; i < 16; i++) {
			CHECK_EQ(out[w * 16 + i], f16i(0));	/* ANY(v0 > 64) */
			CHECK_EQ(out[(8 + w) * 16 + i], f16i(1));	/* ALL(v0 < 65) */
		}
	ksim_card_destroy(c);
}

/* A host CU_DATA burst into the vec (through the mailbox). */
static void cudata(struct ksim_card *c, u32 buf, u32 off, u32 n, u32 flags,
		   const u16 *words)
{
	struct kh_flit f;
	u32 i, j;

	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, VX, VY, 0, 0, KH_T_CU_DATA, 0, 0);
	kh_flit_set(&f, KH_DATA_BUF_ID, buf);
	kh_flit_set(&f, KH_DATA_OFFSET, off);
	kh_flit_set(&f, KH_DATA_LEN, n - 1);
	kh_flit_set(&f, KH_DATA_FLAGS, flags);
	mh_mb_send(c, &f);
	for (i = 0; i < n; i++) {
		memset(&f, 0, sizeof(f));
		kh_flit_hdr(&f, VX, VY, 0, 0, KH_T_CU_DATA, 0, i + 1 == n);
		for (j = 0; j < 16; j++)
			f.w[j / 4] |= (u64)words[i * 16 + j] << (j % 4 * 16);
		mh_mb_send(c, &f);
	}
	ksim_run(c, 500);
}

static const u32 k_drain64[] = {
	w_mem(KH_VEC_VDRAIN, 0, 0, 64, 0), W_BAR, W_HALT,
};

TEST_F(model, cu_data_into_l1_buffer_0)
{
	struct ksim_card *c = vcard();
	u16 in[2 * 16], out[2 * 16], ones[2 * 16];
	u32 n0, i;
	u64 ns;

	REQUIRE(c);
	for (i = 0; i < 32; i++)
		in[i] = f16i(100 + i);
	memset(ones, 0xff, sizeof(ones));
	prog(c, 80, k_drain64, 3);
	desc(c, 0, 0, A_DST3);
	desc(c, 0, 1, KH_VEC_DIM(32, 2));
	/* two words at L1 64, signal_on_complete: DATA_RECEIVED, arg buf 0 */
	n0 = KH_NS_COUNT(mh_ns(c, VX, VY));
	cudata(c, 0, 64, 2, KH_DATAF_SIGNAL, in);
	ns = mh_ns(c, VX, VY);
	CHECK_EQ(KH_NS_COUNT(ns), n0 + 1);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_DATA_RECEIVED);
	CHECK_EQ(KH_NS_ARG(ns), 0);
	expect_ok(run(c, 80), "drain of what CU_DATA wrote");
	dram_r(c, A_DST3, out, sizeof(out));
	CHECK(!memcmp(in, out, sizeof(in)));

	/* buffer 3 is nothing here: counted out, no signal, F_CUDATA next RUN */
	n0 = KH_NS_COUNT(mh_ns(c, VX, VY));
	cudata(c, 3, 64, 1, KH_DATAF_SIGNAL, ones);
	CHECK_EQ(KH_NS_COUNT(mh_ns(c, VX, VY)), n0);
	expect_fault(run(c, 80), KH_VEC_F_CUDATA, "buffer 3");
	memset(out, 0, sizeof(out));
	dram_w(c, A_DST3, out, sizeof(out));
	expect_ok(run(c, 80), "the fault is not sticky");
	dram_r(c, A_DST3, out, sizeof(out));
	CHECK(!memcmp(in, out, sizeof(in)));	/* L1 untouched */

	/* the range check: offset + len < 512 lands, 511 + 1 does not */
	cudata(c, 0, 510, 2, 0, in);
	expect_ok(run(c, 80), "510 + 1 is in range");
	cudata(c, 0, 511, 2, 0, ones);
	expect_fault(run(c, 80), KH_VEC_F_CUDATA, "511 + 1");
	cudata(c, 0, 0xffff, 1, 0, ones);
	expect_fault(run(c, 80), KH_VEC_F_CUDATA, "offset 0xffff");
	/* the rejected bursts were counted out: the next one lands */
	cudata(c, 0, 64, 2, 0, ones);
	expect_ok(run(c, 80), "after rejected bursts");
	dram_r(c, A_DST3, out, sizeof(out));
	CHECK_EQ(out[0], 0xffff);
	CHECK_EQ(out[31], 0xffff);
	ksim_card_destroy(c);
}

TEST_F(model, cu_data_from_a_second_sender_faults)
{
	struct ksim_card *c = vcard();
	struct kh_flit f;
	u32 n0;

	REQUIRE(c);
	prog(c, 80, k_drain64, 3);
	desc(c, 0, 0, A_DST3);
	desc(c, 0, 1, KH_VEC_DIM(32, 2));
	n0 = KH_NS_COUNT(mh_ns(c, VX, VY));
	/* the host opens a 2-flit burst and sends one; "src" sends the last */
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, VX, VY, 0, 0, KH_T_CU_DATA, 0, 0);
	kh_flit_set(&f, KH_DATA_LEN, 1);
	kh_flit_set(&f, KH_DATA_OFFSET, 300);
	kh_flit_set(&f, KH_DATA_FLAGS, KH_DATAF_SIGNAL);
	mh_mb_send(c, &f);
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, VX, VY, 0, 0, KH_T_CU_DATA, 0, 0);
	mh_mb_send(c, &f);
	ksim_run(c, 200);
	mh_src_inst(&f, VX, VY, 1, KH_T_CU_DATA, 0);
	kh_flit_set(&f, KH_HDR_DST_X, 2);
	kh_flit_set(&f, KH_HDR_DST_Y, 1);
	mh_mb_send(c, &f);
	ksim_run(c, 500);
	/* no DATA_RECEIVED for the corrupted burst */
	CHECK_EQ(KH_NS_COUNT(mh_ns(c, VX, VY)), n0);
	expect_fault(run(c, 80), KH_VEC_F_CUDATA, "interleaved burst");
	ksim_card_destroy(c);
}

/* SIG_DATA_RECEIVEDs leaving the vec at (VX, VY) */
struct sigs {
	struct kh_flit f[8];
	unsigned int n;
};

static void sigs_xfer(void *ctx, const struct ksim_link *l, u64 now)
{
	struct sigs *s = ctx;

	(void)now;
	if (l->kind == KSIM_LINK_ENDPOINT && l->x == VX && l->y == VY &&
	    kh_flit_get(&l->reg, KH_HDR_TYPE) == KH_T_CU_SIGNAL &&
	    kh_flit_get(&l->reg, KH_SIG_CODE) == KH_SIG_DATA_RECEIVED &&
	    s->n < 8)
		s->f[s->n++] = l->reg;
}

static const struct ksim_link_hook sigs_hook = { .transfer = sigs_xfer };

/* The signal's txn is 0 whatever the descriptor's (vec_cu.v:380). */
TEST_F(model, cu_data_signal_txn_is_zero)
{
	static struct sigs s;
	struct ksim_card *c = vcard();
	struct kh_flit f;

	REQUIRE(c);
	memset(&s, 0, sizeof(s));
	ksim_set_link_hook(c, &sigs_hook, &s);
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, VX, VY, 0, 0, KH_T_CU_DATA, 0x5a, 0);
	kh_flit_set(&f, KH_DATA_OFFSET, 64);
	kh_flit_set(&f, KH_DATA_FLAGS, KH_DATAF_SIGNAL);
	mh_mb_send(c, &f);
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, VX, VY, 0, 0, KH_T_CU_DATA, 0x5a, 1);
	mh_mb_send(c, &f);
	ksim_run(c, 500);
	REQUIRE(s.n == 1);
	CHECK_EQ(kh_flit_get(&s.f[0], KH_HDR_TXN), 0);
	CHECK_EQ(kh_flit_get(&s.f[0], KH_SIG_ARG), 0);
	ksim_set_link_hook(c, NULL, NULL);
	ksim_card_destroy(c);
}

/* Run a kernel at pc 100; the completion. */
static u64 krun(struct ksim_card *c, const u32 *k, unsigned int n)
{
	prog(c, 100, k, n);
	return run(c, 100);
}

#define KRUN(c, ...) ({ const u32 _k[] = { __VA_ARGS__ }; \
			krun(c, _k, KSIM_ARRAY_SIZE(_k)); })

TEST_F(model, rtl_fault_codes)
{
	struct ksim_card *c = vcard();
	u32 vadd_c = w_alu(KH_VEC_VADD, 1, 0, 0, 0, KH_VEC_SRC_V, 0, KH_VEC_SRC_C, 0, 0);
	u64 ns;

	REQUIRE(c);
	expect_fault(KRUN(c, w_mem(KH_VEC_VLD, 0, 0, 0, 0), W_HALT),
		     KH_VEC_F_DTYPE, "VLD dtype 0");
	expect_fault(KRUN(c, w_mem(KH_VEC_VST, 0, 0, 0, 3), W_HALT),
		     KH_VEC_F_DTYPE, "VST dtype 3");
	expect_fault(KRUN(c, w_mem(KH_VEC_VCVT, 0, 0, 0, 7), W_HALT),
		     KH_VEC_F_DTYPE, "VCVT dtype 7");
	expect_fault(KRUN(c, vadd_c, W_HALT), KH_VEC_F_CHAIN, "C source");
	/* a chained stage naming a V register; the head naming C */
	expect_fault(KRUN(c, W_MODE(KH_VEC_MODE_D2), w_op(KH_VEC_VADD, 1, 0, 0),
			  w_op(KH_VEC_VADD, 1, 0, 0), W_HALT), KH_VEC_F_VSRC,
		     "V source in stage 1");
	expect_fault(KRUN(c, W_MODE(KH_VEC_MODE_D4), vadd_c, W_HALT),
		     KH_VEC_F_CHAIN, "C at a D4 head");
	expect_ok(KRUN(c, W_MODE(KH_VEC_MODE_FLAT), W_HALT), "back to FLAT");
	expect_fault(KRUN(c, W_SETI(1), 0, W_SETVL(1), W_HALT), KH_VEC_F_VL,
		     "VSETVL 0");
	expect_fault(KRUN(c, W_SETI(1), 129, W_SETVL(1), W_HALT), KH_VEC_F_VL,
		     "VSETVL 129");
	expect_fault(KRUN(c, W_SETI(1), 3, W_LOOP(1, 2), W_LOOP(1, 1), W_HALT,
			  W_HALT), KH_VEC_F_LOOP, "nested VLOOP");
	/* VRED's tree kinds: VL % 16 first, then the mode */
	expect_fault(KRUN(c, W_SETI(1), 100, W_SETVL(1),
			  w_alu(KH_VEC_VRED, 0, 0, 0, KH_VEC_RED_SUM, 0, 0, 0, 0, 0),
			  W_HALT), KH_VEC_F_REDVL, "VRED VL 100");
	expect_fault(KRUN(c, W_SETI(1), 128, W_SETVL(1), W_MODE(0),
			  w_alu(KH_VEC_VRED, 0, 0, 0, KH_VEC_RED_MAX, 0, 0, 0, 0, 0),
			  W_HALT), KH_VEC_F_OPCODE, "VRED in FLAT");
	/* a walk of 257 entries */
	desc(c, 6, 0, 0x10000);
	desc(c, 6, 1, KH_VEC_DIM(32, 257));
	desc(c, 6, 2, KH_VEC_DIM(0, 0));
	expect_fault(KRUN(c, w_mem(KH_VEC_VFILL, 0, 6, 0, 0), W_HALT),
		     KH_VEC_F_LEN, "VFILL 257");
	expect_fault(KRUN(c, w_mem(KH_VEC_VDRAIN, 0, 6, 0, 0), W_HALT),
		     KH_VEC_F_LEN, "VDRAIN 257");
	/* 16 x 16 = 256 is legal; 2^16 x 2^16 saturates, still F_LEN */
	desc(c, 6, 1, KH_VEC_DIM(32, 16));
	desc(c, 6, 2, KH_VEC_DIM(512, 16));
	expect_ok(KRUN(c, w_mem(KH_VEC_VFILL, 0, 6, 0, 0), W_HALT), "256");
	desc(c, 6, 1, KH_VEC_DIM(32, 0xffff));
	desc(c, 6, 2, KH_VEC_DIM(32, 0xffff));
	expect_fault(KRUN(c, w_mem(KH_VEC_VFILL, 0, 6, 0, 0), W_HALT),
		     KH_VEC_F_LEN, "saturated");
	/* fault timing: S_FAULT is the cycle after S_EXEC (VLD: 3 + 1) */
	imem(c, 0, w_mem(KH_VEC_VLD, 0, 0, 0, 0));
	ns = run(c, 0);
	expect_fault(ns, KH_VEC_F_DTYPE, "at pc 0");
	CHECK_EQ(ctrl(c, KH_CTRL_IDX_DBG), 4);
	ksim_card_destroy(c);
}

TEST_F(model, not_modelled_is_refused_loudly)
{
	struct ksim_card *c = vcard();

	REQUIRE(c);
	expect_fault(KRUN(c, W_MODE(KH_VEC_MODE_TREE), w_op(KH_VEC_VADD, 1, 0, 0),
			  W_HALT), KH_VEC_F_NM_CHAIN, "ALU op in TREE");
	/* a later chain stage that vec_alu sees as a table seed */
	expect_fault(KRUN(c, W_MODE(KH_VEC_MODE_D2), w_op(KH_VEC_VADD, 1, 0, 0),
			  w_alu(KH_VEC_VRED, 1, 0, 0, 0, KH_VEC_SRC_C, 3, 3, 0, 0),
			  W_HALT), KH_VEC_F_NM_SEED, "VRED as a stage");
	expect_fault(KRUN(c, W_MODE(KH_VEC_MODE_TREE), W_SETI(1), 128, W_SETVL(1),
			  w_alu(KH_VEC_VRED, 0, 0, 0, KH_VEC_RED_EXPSUM, 0, 0, 0, 0, 0),
			  W_HALT), KH_VEC_F_NM_TREE, "EXPSUM");
	expect_fault(KRUN(c, W_MODE(0), w_op(KH_VEC_VEXP2, 1, 0, 0), W_HALT),
		     KH_VEC_F_NM_SEED, "VEXP2");
	expect_fault(KRUN(c, w_op(KH_VEC_VRSQRT, 1, 0, 0), W_HALT),
		     KH_VEC_F_NM_SEED, "VRSQRT");
	/* a predicated op right behind the compare that writes its predicate */
	expect_fault(KRUN(c, w_alu(KH_VEC_VCMPLT, 0, 0, 1, 0, 0, 0, 0, 2, 0),
			  w_alu(KH_VEC_VMOV, 3, 0, 0, 0, 0, 0, 0, 2, 1), W_HALT),
		     KH_VEC_F_NM_PHAZ, "predicate hazard");
	expect_fault(KRUN(c, w_alu(KH_VEC_VCMPLT, 0, 0, 1, 0, 0, 0, 0, 2, 0),
			  w_alu(KH_VEC_VRED, 0, 0, 0, KH_VEC_RED_ANY, 0, 0, 0, 2, 0),
			  W_HALT), KH_VEC_F_NM_PHAZ, "ANY hazard");
	/* ... and fine once a VST has waited for the lanes */
	expect_ok(KRUN(c, w_alu(KH_VEC_VCMPLT, 0, 0, 1, 0, 0, 0, 0, 2, 0),
		       w_mem(KH_VEC_VST, 0, 0, 0, KH_VEC_DT_FP16),
		       w_alu(KH_VEC_VMOV, 3, 0, 0, 0, 0, 0, 0, 2, 1), W_HALT),
		  "predicate after a barrier");
	/* an FP32 VST while a fill is in flight */
	desc(c, 5, 0, 0x20000);
	desc(c, 5, 1, KH_VEC_DIM(32, 8));
	expect_fault(KRUN(c, w_mem(KH_VEC_VFILL, 0, 5, 200, 0),
			  w_mem(KH_VEC_VST, 0, 0, 0, KH_VEC_DT_FP32), W_HALT),
		     KH_VEC_F_NM_VST32, "FP32 VST under a fill");
	expect_ok(KRUN(c, w_mem(KH_VEC_VFILL, 0, 5, 200, 0), W_BAR,
		       w_mem(KH_VEC_VST, 0, 0, 0, KH_VEC_DT_FP32), W_HALT),
		  "FP32 VST after VBAR");
	ksim_card_destroy(c);
}

/* Load FP16 data, run op on it, store FP16; each element by the reference. */
static void alu_case(struct ksim_card *c, u32 op, u32 vl, u32 pm, u32 sc,
		     u32 kc)
{
	u16 in[3][128], out[128], old[128];
	u32 k[] = {
		W_SETI(1), 128, W_SETVL(1), W_MODE(0),
		w_mem(KH_VEC_VFILL, 0, 0, 0, 0), W_BAR,
		w_mem(KH_VEC_VLD, 0, 1, 0, KH_VEC_DT_FP16),
		w_mem(KH_VEC_VLD, 1, 1, 8, KH_VEC_DT_FP16),
		w_mem(KH_VEC_VLD, 2, 1, 16, KH_VEC_DT_FP16),
		w_mem(KH_VEC_VLD, 3, 1, 24, KH_VEC_DT_FP16),
		/* P1 = v2 < v1, then the lanes drain (VST) */
		w_alu(KH_VEC_VCMPLT, 0, 2, 1, 0, 0, 0, 0, 1, 0),
		w_mem(KH_VEC_VST, 3, 1, 40, KH_VEC_DT_FP16),
		W_SETI(1), vl, W_SETVL(1), W_SETK, kc,
		w_alu(op, 3, 0, 1, sc == KH_VEC_SRC_K ? 3 : 2, 0, 0, sc, 1, pm),
		W_SETI(1), 128, W_SETVL(1),
		w_mem(KH_VEC_VST, 3, 1, 32, KH_VEC_DT_FP16),
		w_mem(KH_VEC_VDRAIN, 0, 2, 32, 0), W_HALT,
	};
	u32 i, bad = 0;

	for (i = 0; i < 128; i++) {
		u32 j;

		for (j = 0; j < 3; j++) {
			u32 r = rnd();

			/* mostly ordinary values, a few zeros, infs, NaNs */
			in[j][i] = (r & 15) == 0 ? (u16)(r & 0xfc00) : (u16)(r >> 8);
		}
		old[i] = (u16)rnd();
	}
	dram_w(c, 0x40000, in, sizeof(in));
	dram_w(c, 0x40000 + sizeof(in), old, sizeof(old));
	desc(c, 0, 0, 0x40000);
	desc(c, 0, 1, KH_VEC_DIM(32, 32));
	desc(c, 1, 0, 0);
	desc(c, 1, 1, KH_VEC_DIM(1, 8));
	desc(c, 2, 0, 0x50000);
	desc(c, 2, 1, KH_VEC_DIM(32, 8));
	expect_ok(krun(c, k, KSIM_ARRAY_SIZE(k)), op_name[op]);
	dram_r(c, 0x50000, out, sizeof(out));
	for (i = 0; i < 128; i++) {
		u32 a = ksim_e8_from_f16(in[0][i]), b = ksim_e8_from_f16(in[1][i]);
		u32 cc = sc == KH_VEC_SRC_K ? kc : ksim_e8_from_f16(in[2][i]);
		bool p1, pd, wr = i < vl;
		u32 want;

		ref_alu(KH_VEC_VCMPLT, ksim_e8_from_f16(in[2][i]), b, 0, &p1);
		if (pm == KH_VEC_PM_TRUE)
			wr = wr && p1;
		else if (pm >= KH_VEC_PM_FALSE)
			wr = wr && !p1;
		want = ref_to_f16(wr ? ref_alu(op, a, b, cc, &pd) :
				  ksim_e8_from_f16(old[i]));
		if (want != out[i] && bad++ < 5)
			CHECK_MSG(0, "%s vl %u pm %u [%u]: %04x want %04x (a %04x b %04x c %04x)",
				  op_name[op], vl, pm, i, out[i], want,
				  in[0][i], in[1][i], in[2][i]);
	}
	CHECK_EQ(bad, 0);
}

TEST_F(model, alu_ops_through_the_lanes)
{
	struct ksim_card *c = vcard();
	u32 op;

	REQUIRE(c);
	for (op = KH_VEC_VMOV; op <= KH_VEC_VSEL; op++)
		alu_case(c, op, 128, 0, KH_VEC_SRC_V, 0);
	/* VL tails, predicates both ways, a K operand */
	alu_case(c, KH_VEC_VADD, 37, 0, KH_VEC_SRC_V, 0);
	alu_case(c, KH_VEC_VFMA, 128, KH_VEC_PM_TRUE, KH_VEC_SRC_V, 0);
	alu_case(c, KH_VEC_VMUL, 100, KH_VEC_PM_FALSE, KH_VEC_SRC_V, 0);
	alu_case(c, KH_VEC_VSUB, 16, 3, KH_VEC_SRC_K, 0x3fc000);
	ksim_card_destroy(c);
}

TEST_F(model, vld_and_vst_at_fp32)
{
	struct ksim_card *c = vcard();
	u32 x[32], pat[8], out[3 * 8];
	u16 h[16];
	const u32 k[] = {
		W_SETI(1), 16, W_SETVL(1),
		w_mem(KH_VEC_VFILL, 0, 0, 0, 0), W_BAR,
		w_mem(KH_VEC_VLD, 0, 1, 0, KH_VEC_DT_FP32),
		w_mem(KH_VEC_VST, 0, 1, 10, KH_VEC_DT_FP16),
		w_mem(KH_VEC_VST, 0, 1, 20, KH_VEC_DT_FP32),
		w_mem(KH_VEC_VDRAIN, 0, 2, 20, 0), W_HALT,
	};
	u32 i;

	REQUIRE(c);
	for (i = 0; i < 32; i++)
		x[i] = (i < 16) ? b_of((float)rnd() / 7777.0f - 200000.0f) : 0x5a5a5a5a;
	x[3] = 0x00400000;	/* FP32 subnormal: flushes */
	x[4] = 0x3f800080;	/* a tie at bit 8: to even */
	x[5] = 0x3f800180;	/* a tie, odd: up */
	dram_w(c, 0x60000, x, sizeof(x));
	desc(c, 0, 0, 0x60000);
	desc(c, 0, 1, KH_VEC_DIM(32, 4));	/* L1 0..3; 2..3 hold the pattern */
	desc(c, 1, 0, 0);
	desc(c, 1, 1, KH_VEC_DIM(1, 8));
	desc(c, 2, 0, 0x61000);
	desc(c, 2, 1, KH_VEC_DIM(32, 3));	/* L1 20, 21, 22 */
	/* L1 21, 22 get the pattern first, through the same fill */
	memset(pat, 0x5a, sizeof(pat));
	expect_ok(KRUN(c, w_mem(KH_VEC_VFILL, 0, 0, 20, 0), W_BAR, W_HALT), "prefill");
	expect_ok(krun(c, k, KSIM_ARRAY_SIZE(k)), "fp32 kernel");
	dram_r(c, 0x61000, out, sizeof(out));
	/* both halves of the chunk went to word 20, the high one last */
	for (i = 0; i < 8; i++)
		CHECK_EQ(out[i], ksim_e8_to_f32(ksim_e8_from_f32(x[8 + i])));
	CHECK(!memcmp(&out[8], &x[8], 32));	/* word 21: not written */
	CHECK_EQ(out[16], pat[0]);
	/* the FP16 store of the same register: elements 0..15 */
	desc(c, 2, 0, 0x62000);
	desc(c, 2, 1, KH_VEC_DIM(32, 1));
	expect_ok(KRUN(c, w_mem(KH_VEC_VDRAIN, 0, 2, 10, 0), W_HALT), "drain 10");
	dram_r(c, 0x62000, h, sizeof(h));
	for (i = 0; i < 16; i++)
		CHECK_EQ(h[i], ref_to_f16(ref_round(x[i] >> 31,
			 (x[i] >> 23 & 0xff) ? 0x800000 | (x[i] & 0x7fffff) : 0,
			 (int)(x[i] >> 23 & 0xff) - 150, false)));
	ksim_card_destroy(c);
}

TEST_F(model, vshuf_vbcast_vcvt)
{
	struct ksim_card *c = vcard();
	const u32 third = b_of(1.0f / 3.0f) >> 8, seven = 0x40f000;
	const u32 k[] = {
		W_SETI(2), 5, W_SETI(3), seven,
		w_alu(KH_VEC_VSHUF, 4, 0, 2, 0, 0, 0, 0, 0, 0),
		w_alu(KH_VEC_VBCAST, 5, 3, 0, 0, KH_VEC_SRC_S, 0, 0, 0, 0),
		w_alu(KH_VEC_VBCAST, 6, 4, 0, 0, KH_VEC_SRC_V, 0, 0, 0, 0),
		w_alu(KH_VEC_VBCAST, 6, 6, 0, 0, KH_VEC_SRC_S, 0, 0, 0, 0),
		W_SETK, third,
		w_alu(KH_VEC_VMUL, 8, 0, 3, 0, 0, KH_VEC_SRC_K, 0, 0, 0),
		w_mem(KH_VEC_VCVT, 7, 0, 0, KH_VEC_DT_FP16) | KH_VEC_PUT(KH_VEC_VA, 8),
		w_alu(KH_VEC_VSUB, 9, 8, 0, 7, 0, 0, 0, 0, 0),
		w_mem(KH_VEC_VCVT, 10, 0, 0, KH_VEC_DT_FP32) | KH_VEC_PUT(KH_VEC_VA, 8),
		w_alu(KH_VEC_VSUB, 11, 8, 0, 10, 0, 0, 0, 0, 0),
		w_mem(KH_VEC_VST, 4, 3, 0, KH_VEC_DT_FP16),
		w_mem(KH_VEC_VST, 5, 3, 8, KH_VEC_DT_FP16),
		w_mem(KH_VEC_VST, 6, 3, 16, KH_VEC_DT_FP16),
		w_mem(KH_VEC_VST, 9, 3, 24, KH_VEC_DT_FP16),
		w_mem(KH_VEC_VST, 11, 3, 32, KH_VEC_DT_FP16),
		w_mem(KH_VEC_VDRAIN, 0, 5, 100, 0), W_HALT,
	};
	u16 out[5][128];
	u32 i;

	REQUIRE(c);
	bench_kernel1(c);
	expect_ok(run(c, 0), "kernel 1");	/* v0 = 1..128, VL 128 */
	desc(c, 3, 0, 100);
	desc(c, 3, 1, KH_VEC_DIM(1, 8));
	desc(c, 5, 0, 0x70000);
	desc(c, 5, 1, KH_VEC_DIM(32, 40));
	expect_ok(krun(c, k, KSIM_ARRAY_SIZE(k)), "shuffle kernel");
	dram_r(c, 0x70000, out, sizeof(out));
	for (i = 0; i < 128; i++) {
		u32 v8 = ref_fma(b_of((float)(i + 1)) >> 8, third, 0);
		u32 v7 = ksim_e8_from_f16(ref_to_f16(v8));

		/* rotate by S2 = 5 within each chunk of 16 */
		CHECK_EQ(out[0][i], f16i(i / 16 * 16 + (i % 16 + 5) % 16 + 1));
		CHECK_EQ(out[1][i], f16i(7.5));	/* broadcast S3 */
		/* S6 = element 0 of v4 = v0[5] = 6, broadcast */
		CHECK_EQ(out[2][i], f16i(6));
		/* VCVT.FP16 rounds through FP16; VCVT.FP32 is the identity */
		CHECK_EQ(out[3][i], ref_to_f16(ref_fma(v8, KH_E8_ONE, v7 ^ KH_E8_SIGN)));
		CHECK_EQ(out[4][i], 0);
	}
	ksim_card_destroy(c);
}

TEST_F(model, vloop_runs_its_body_count_times)
{
	struct ksim_card *c = vcard();
	u16 out[16];
	u32 n;

	REQUIRE(c);
	desc(c, 1, 0, 0);
	desc(c, 1, 1, KH_VEC_DIM(1, 1));
	desc(c, 2, 0, 0x80000);
	desc(c, 2, 1, KH_VEC_DIM(32, 1));
	for (n = 0; n <= 6; n += 3) {
		/* v1 = 0; repeat S1 times { v1 = v1 + K1 }; store chunk 0 */
		expect_ok(KRUN(c, W_SETI(2), 16, W_SETVL(2), W_SETI(1), n,
			       w_alu(KH_VEC_VMOV, 1, 0, 0, 0, KH_VEC_SRC_K, 0, 0, 0, 0),
			       W_LOOP(1, 1),
			       w_alu(KH_VEC_VADD, 1, 1, 0, 1, 0, 0, KH_VEC_SRC_K, 0, 0),
			       w_mem(KH_VEC_VST, 1, 1, 0, KH_VEC_DT_FP16),
			       w_mem(KH_VEC_VDRAIN, 0, 2, 0, 0), W_HALT),
			  "loop");
		dram_r(c, 0x80000, out, sizeof(out));
		/* a count of 0 or 1 runs the body once */
		CHECK_EQ(out[0], f16i(n ? n : 1));
		CHECK_EQ(out[15], f16i(n ? n : 1));
	}
	ksim_card_destroy(c);
}

TEST_F(model, strided_and_negative_walks)
{
	struct ksim_card *c = vcard();
	u32 src[16 * 8], out[8 * 16];
	u32 i, w;

	REQUIRE(c);
	for (i = 0; i < 16 * 8; i++)
		src[i] = 0x1000 * (i / 8) + i % 8;	/* word n holds n in [15:12] */
	dram_w(c, 0x90000, src, sizeof(src));
	/* dim0: words 3, 2, 1, 0 (stride -32); dim1: + 8 words */
	desc(c, 0, 0, 0x90000 + 3 * 32);
	desc(c, 0, 1, KH_VEC_DIM(-32, 4));
	desc(c, 0, 2, KH_VEC_DIM(256, 2));
	/* drain L1 0..7 to every second word */
	desc(c, 1, 0, 0xa0000);
	desc(c, 1, 1, KH_VEC_DIM(64, 8));
	memset(out, 0, sizeof(out));
	dram_w(c, 0xa0000, out, sizeof(out));
	/* two fills back to back: the second waits for the first's responses */
	expect_ok(KRUN(c, w_mem(KH_VEC_VFILL, 0, 0, 0, 0),
		       w_mem(KH_VEC_VFILL, 0, 0, 100, 0), W_BAR,
		       w_mem(KH_VEC_VDRAIN, 0, 1, 0, 0), W_HALT), "walks");
	dram_r(c, 0xa0000, out, sizeof(out));
	for (w = 0; w < 8; w++) {
		static const u32 order[8] = { 3, 2, 1, 0, 11, 10, 9, 8 };

		CHECK_EQ(out[2 * w * 8], 0x1000 * order[w]);
		CHECK_EQ(out[(2 * w + 1) * 8], 0);
	}
	/* and the second fill's copy at L1 100 */
	desc(c, 1, 0, 0xa0000);
	desc(c, 1, 1, KH_VEC_DIM(32, 8));
	expect_ok(KRUN(c, w_mem(KH_VEC_VDRAIN, 0, 1, 100, 0), W_HALT), "drain 100");
	dram_r(c, 0xa0000, out, 8 * 32);
	for (w = 0; w < 8; w++) {
		static const u32 order[8] = { 3, 2, 1, 0, 11, 10, 9, 8 };

		CHECK_EQ(out[w * 8], 0x1000 * order[w]);
	}
	ksim_card_destroy(c);
}

/* A walk shorter than the chunks re-reads its last word (vec_agu.v:148). */
TEST_F(model, a_walk_past_its_end_repeats_the_last_word)
{
	struct ksim_card *c = vcard();
	u16 in[2][16], out[4][16];
	u32 i;

	REQUIRE(c);
	for (i = 0; i < 16; i++) {
		in[0][i] = f16i(i);
		in[1][i] = f16i(100 + i);
	}
	dram_w(c, 0xb0000, in, sizeof(in));
	desc(c, 0, 0, 0xb0000);
	desc(c, 0, 1, KH_VEC_DIM(32, 2));
	desc(c, 1, 0, 300);
	desc(c, 1, 1, KH_VEC_DIM(1, 1));	/* one word: L1 300 */
	desc(c, 1, 4, KH_VEC_DIM(5, 1));	/* a stride the walk never takes */
	desc(c, 3, 0, 310);
	desc(c, 3, 1, KH_VEC_DIM(1, 4));
	desc(c, 2, 0, 0xb1000);
	desc(c, 2, 1, KH_VEC_DIM(32, 4));
	expect_ok(KRUN(c, W_SETI(1), 64, W_SETVL(1),
		       w_mem(KH_VEC_VFILL, 0, 0, 300, 0), W_BAR,
		       w_mem(KH_VEC_VLD, 2, 1, 0, KH_VEC_DT_FP16),
		       w_mem(KH_VEC_VST, 2, 3, 0, KH_VEC_DT_FP16),
		       w_mem(KH_VEC_VDRAIN, 0, 2, 310, 0), W_HALT), "short walk");
	dram_r(c, 0xb1000, out, sizeof(out));
	/* four chunks, all from L1 300: the walk ended after its one word */
	for (i = 0; i < 4; i++)
		CHECK(!memcmp(out[i], in[0], 32));
	ksim_card_destroy(c);
}

/*
 * VRED ANY/ALL reduce preg[g_pr], the pr the sequencer latched last
 * (vec_core.v:241 p_rd_sel(g_pr), set in the same S_EXEC): the pr of the
 * ALU or VRED word before, not the VRED's own.
 */
TEST_F(model, vred_any_reads_the_previous_words_predicate)
{
	struct ksim_card *c = vcard();
	u16 out[16];

	REQUIRE(c);
	desc(c, 1, 0, 0);
	desc(c, 1, 1, KH_VEC_DIM(1, 8));
	desc(c, 2, 0, 0xc0000);
	desc(c, 2, 1, KH_VEC_DIM(32, 1));
	/* P2 = (1 < 0) = all false; P1 = (0 < 1) = all true */
	expect_ok(KRUN(c, W_SETI(1), 128, W_SETVL(1),
		       w_alu(KH_VEC_VCMPLT, 0, 1, 0, 0, KH_VEC_SRC_K, KH_VEC_SRC_K, 0, 2, 0),
		       w_alu(KH_VEC_VCMPLT, 0, 0, 1, 0, KH_VEC_SRC_K, KH_VEC_SRC_K, 0, 1, 0),
		       w_mem(KH_VEC_VST, 0, 1, 0, KH_VEC_DT_FP16),
		       /* ANY P2 reads P1, latched by the compare */
		       w_alu(KH_VEC_VRED, 5, 0, 0, KH_VEC_RED_ANY, 0, 0, 0, 2, 0),
		       /* ANY P2 again: now it reads P2 */
		       w_alu(KH_VEC_VRED, 6, 0, 0, KH_VEC_RED_ANY, 0, 0, 0, 2, 0),
		       w_alu(KH_VEC_VBCAST, 7, 5, 0, 0, KH_VEC_SRC_S, 0, 0, 0, 0),
		       w_mem(KH_VEC_VST, 7, 1, 20, KH_VEC_DT_FP16),
		       w_alu(KH_VEC_VBCAST, 7, 6, 0, 0, KH_VEC_SRC_S, 0, 0, 0, 0),
		       w_mem(KH_VEC_VST, 7, 1, 30, KH_VEC_DT_FP16),
		       w_mem(KH_VEC_VDRAIN, 0, 2, 20, 0), W_HALT), "ANY");
	dram_r(c, 0xc0000, out, sizeof(out));
	CHECK_EQ(out[0], f16i(1));
	desc(c, 2, 0, 0xc1000);
	expect_ok(KRUN(c, w_mem(KH_VEC_VDRAIN, 0, 2, 30, 0), W_HALT), "drain");
	dram_r(c, 0xc1000, out, sizeof(out));
	CHECK_EQ(out[0], f16i(0));
	ksim_card_destroy(c);
}

/* vec_cu_tb.v section 8 and 11: (1,1) drains two L1 words to (1,0)'s L1 */
TEST_F(model, peer_drain_to_a_node)
{
	struct ksim_card *c = vcard();
	u16 in[2 * 16], out[2 * 16];
	u32 n0, i;
	u64 ns;

	REQUIRE(c);
	for (i = 0; i < 32; i++)
		in[i] = f16i(1000 + i);
	cudata(c, 0, 64, 2, 0, in);
	/* base: ack to the orchestrator (0,1) at [23:16], peer L1 200 */
	desc(c, 1, 0, (0x10 << 16) | 200);
	desc(c, 1, 1, KH_VEC_DIM(1, 2));
	n0 = KH_NS_COUNT(mh_ns(c, 1, 0));
	expect_ok(KRUN(c, w_mem(KH_VEC_VDRAIN, 0, 1, 64, 0) |
		       KH_VEC_PUT(KH_VEC_ND, 1) | KH_VEC_PUT(KH_VEC_ND_SIG, 1) |
		       KH_VEC_PUT(KH_VEC_ND_X, 1) | KH_VEC_PUT(KH_VEC_ND_Y, 0),
		       W_HALT), "peer drain");
	ksim_run(c, 500);
	ns = mh_ns(c, 1, 0);
	CHECK_EQ(KH_NS_COUNT(ns), n0 + 1);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_DATA_RECEIVED);
	CHECK_EQ(KH_NS_ARG(ns), 0);
	/* (1,0) drains what landed at its L1 200 to DRAM */
	VY = 0;
	desc(c, 0, 0, A_DST3);
	desc(c, 0, 1, KH_VEC_DIM(32, 2));
	expect_ok(KRUN(c, w_mem(KH_VEC_VDRAIN, 0, 0, 200, 0), W_HALT), "back");
	VY = 1;
	dram_r(c, A_DST3, out, sizeof(out));
	CHECK(!memcmp(in, out, sizeof(in)));
	/* a walk over 256 is F_LEN to a node too */
	desc(c, 1, 1, KH_VEC_DIM(1, 257));
	expect_fault(KRUN(c, w_mem(KH_VEC_VDRAIN, 0, 1, 64, 0) |
			  KH_VEC_PUT(KH_VEC_ND, 1), W_HALT), KH_VEC_F_LEN, "257");
	ksim_card_destroy(c);
}

/*
 * vec_cu_tb.v's kernel 2, first half: a D4 chain v3 = ((v0 * 1) + 1) * 1 + 1
 * over v0 = 1..128; then a D2 chain against the reference.
 */
TEST_F(model, d4_and_d2_chains)
{
	struct ksim_card *c = vcard();
	const u32 mul0 = w_alu(KH_VEC_VMUL, 3, 0, 1, 0, KH_VEC_SRC_V, 3, 3, 0, 0);
	const u32 add1 = w_alu(KH_VEC_VADD, 3, 0, 1, 1, KH_VEC_SRC_C, 3, 3, 0, 0);
	const u32 mul2 = w_alu(KH_VEC_VMUL, 3, 0, 1, 0, KH_VEC_SRC_C, 3, 3, 0, 0);
	const u32 third = b_of(1.0f / 3.0f) >> 8;
	u16 out[2][128];
	u64 ns;
	u32 i;

	REQUIRE(c);
	/* the bench's own words */
	CHECK_EQ(mul0, 0x29E60200u);
	CHECK_EQ(add1, 0x1DE60220u);
	CHECK_EQ(mul2, 0x2DE60200u);
	bench_kernel1(c);
	expect_ok(run(c, 0), "kernel 1");	/* v0 = 1..128 */
	desc(c, 5, 0, 24);
	desc(c, 5, 1, KH_VEC_DIM(1, 8));
	desc(c, 6, 0, 0x3000);
	desc(c, 6, 1, KH_VEC_DIM(32, 16));
	ns = KRUN(c, W_MODE(KH_VEC_MODE_D4), mul0, add1, mul2, add1,
		  W_MODE(KH_VEC_MODE_FLAT),
		  w_mem(KH_VEC_VST, 3, 5, 0, KH_VEC_DT_FP16),
		  /* D2: v4 = v0 * S1 - K3, stage 0 VMUL, stage 1 VSUB */
		  W_SETI(1), third, W_SETK, 0x3fc000,
		  W_MODE(KH_VEC_MODE_D2),
		  w_alu(KH_VEC_VMUL, 0, 0, 1, 0, KH_VEC_SRC_V, KH_VEC_SRC_S, 0, 0, 0),
		  /* every source of a later stage is C, S or K, b's too */
		  w_alu(KH_VEC_VSUB, 4, 0, 0, 3, KH_VEC_SRC_C, KH_VEC_SRC_K, KH_VEC_SRC_K, 0, 0),
		  W_MODE(KH_VEC_MODE_FLAT),
		  w_mem(KH_VEC_VST, 4, 5, 8, KH_VEC_DT_FP16),
		  w_mem(KH_VEC_VDRAIN, 0, 6, 24, 0), W_HALT);
	expect_ok(ns, "chains");
	dram_r(c, 0x3000, out, sizeof(out));
	for (i = 0; i < 128; i++) {
		u32 x = ref_fma(b_of((float)(i + 1)) >> 8, third, 0);

		CHECK_EQ(out[0][i], f16i(i + 3));
		CHECK_EQ(out[1][i], ref_to_f16(ref_fma(x, KH_E8_ONE, 0xbfc000)));
	}
	ksim_card_destroy(c);
}

/* A D2 chain ending in a compare writes the predicate per element. */
TEST_F(model, chain_ending_in_a_compare)
{
	struct ksim_card *c = vcard();
	u16 out[3][128];
	u32 i;

	REQUIRE(c);
	bench_kernel1(c);
	expect_ok(run(c, 0), "kernel 1");	/* v0 = 1..128 */
	desc(c, 5, 0, 24);
	desc(c, 5, 1, KH_VEC_DIM(1, 24));
	desc(c, 6, 0, 0xd0000);
	desc(c, 6, 1, KH_VEC_DIM(32, 24));
	expect_ok(KRUN(c, W_SETK, 0x428000,	/* K3 = 64 */
		       W_MODE(KH_VEC_MODE_D2),
		       w_alu(KH_VEC_VMUL, 0, 0, 1, 0, KH_VEC_SRC_V, KH_VEC_SRC_K, KH_VEC_SRC_K, 0, 0),
		       w_alu(KH_VEC_VCMPGT, 0, 0, 3, 0, KH_VEC_SRC_C, KH_VEC_SRC_K, KH_VEC_SRC_K, 2, 0),
		       W_MODE(KH_VEC_MODE_FLAT),
		       w_alu(KH_VEC_VRED, 5, 0, 0, KH_VEC_RED_ANY, 0, 0, 0, 2, 0),
		       w_alu(KH_VEC_VRED, 6, 0, 0, KH_VEC_RED_ALL, 0, 0, 0, 2, 0),
		       w_alu(KH_VEC_VMOV, 9, 0, 0, 0, KH_VEC_SRC_K, 0, 0, 0, 0),
		       w_alu(KH_VEC_VMOV, 9, 1, 0, 0, KH_VEC_SRC_K, 0, 0, 2, KH_VEC_PM_TRUE),
		       w_alu(KH_VEC_VBCAST, 7, 5, 0, 0, KH_VEC_SRC_S, 0, 0, 0, 0),
		       w_alu(KH_VEC_VBCAST, 8, 6, 0, 0, KH_VEC_SRC_S, 0, 0, 0, 0),
		       w_mem(KH_VEC_VST, 7, 5, 0, KH_VEC_DT_FP16),
		       w_mem(KH_VEC_VST, 8, 5, 8, KH_VEC_DT_FP16),
		       w_mem(KH_VEC_VST, 9, 5, 16, KH_VEC_DT_FP16),
		       w_mem(KH_VEC_VDRAIN, 0, 6, 24, 0), W_HALT), "chain compare");
	dram_r(c, 0xd0000, out, sizeof(out));
	for (i = 0; i < 128; i++) {
		CHECK_EQ(out[0][i], f16i(1));	/* ANY(v0 > 64) */
		CHECK_EQ(out[1][i], f16i(0));	/* ALL(v0 > 64) */
		CHECK_EQ(out[2][i], f16i(i + 1 > 64 ? 1 : 0));
	}
	ksim_card_destroy(c);
}

/* the reference's tree: pairs, pairs of pairs (ref_fma arithmetic) */
static u32 ref_comb(u32 kind, u32 a, u32 b)
{
	bool p;

	if (kind == KH_VEC_RED_MAX)
		return ref_alu(KH_VEC_VMAX, a, b, b, &p);
	if (kind == KH_VEC_RED_MIN)
		return ref_alu(KH_VEC_VMIN, a, b, b, &p);
	return ref_fma(a, KH_E8_ONE, b);
}

static u32 ref_tree(u32 kind, const u32 *x, unsigned int n)
{
	u32 y[16];
	unsigned int i;

	if (n == 1)
		return x[0];
	for (i = 0; i < n / 2; i++)
		y[i] = ref_comb(kind, x[2 * i], x[2 * i + 1]);
	return ref_tree(kind, y, n / 2);
}

/*
 * VRED's tree kinds, vec_lanes.v:321-357: per beat a tree of eight
 * leaves, one rotating accumulator per beat, a tree over the sixteen.
 */
static u32 ref_red(u32 kind, const u32 *a, const u32 *b, unsigned int vl)
{
	u32 acc[16], lv[8], id = kind == KH_VEC_RED_MAX ? 0xff8000 :
		kind == KH_VEC_RED_MIN ? 0x7f8000 : 0;
	bool half = kind == KH_VEC_RED_SUMSQ || kind == KH_VEC_RED_DOT;
	unsigned int k, j, nb = half ? vl / 8 : vl / 16;

	for (k = 0; k < 16; k++)
		acc[k] = id;
	for (k = 0; k < nb; k++) {
		for (j = 0; j < 8; j++) {
			unsigned int e = half ? k * 8 + j : k * 16 + 2 * j;

			lv[j] = half ? ref_fma(a[e], b[e], 0)
				     : ref_comb(kind, a[e], a[e + 1]);
		}
		acc[k] = ref_comb(kind, ref_tree(kind, lv, 8), acc[k]);
	}
	for (j = 0; j < 8; j++)
		lv[j] = ref_comb(kind, acc[2 * j], acc[2 * j + 1]);
	return ref_tree(kind, lv, 8);
}

TEST_F(model, tree_reductions)
{
	struct ksim_card *c = vcard();
	u16 in[2][128], out[16];
	u32 a[128], b[128], kind, vl, i;
	u64 ns;

	REQUIRE(c);
	/* vec_cu_tb.v's kernel 2, second half: SUM(1..128) broadcast */
	bench_kernel1(c);
	expect_ok(run(c, 0), "kernel 1");
	desc(c, 6, 0, 32);
	desc(c, 6, 1, KH_VEC_DIM(1, 8));
	desc(c, 7, 0, 0xe0000);
	desc(c, 7, 1, KH_VEC_DIM(32, 1));
	expect_ok(KRUN(c, W_MODE(KH_VEC_MODE_TREE),
		       w_alu(KH_VEC_VRED, 1, 0, 0, KH_VEC_RED_SUM, 0, 0, 0, 0, 0),
		       W_MODE(KH_VEC_MODE_FLAT),
		       w_alu(KH_VEC_VBCAST, 4, 1, 0, 0, KH_VEC_SRC_S, 0, 0, 0, 0),
		       w_mem(KH_VEC_VST, 4, 6, 0, KH_VEC_DT_FP16),
		       w_mem(KH_VEC_VDRAIN, 0, 7, 32, 0), W_HALT), "SUM");
	dram_r(c, 0xe0000, out, sizeof(out));
	CHECK_EQ(out[0], f16i(128 * 129 / 2));
	CHECK_EQ(out[15], f16i(128 * 129 / 2));

	/* random FP16 data, every tree kind, VL 128 and 48 */
	for (i = 0; i < 128; i++) {
		in[0][i] = (u16)((rnd() & 0xbfff) | 0x0800);
		in[1][i] = (u16)((rnd() & 0xbfff) | 0x0800);
		a[i] = ksim_e8_from_f16(in[0][i]);
		b[i] = ksim_e8_from_f16(in[1][i]);
	}
	dram_w(c, 0xe1000, in, sizeof(in));
	desc(c, 0, 0, 0xe1000);
	desc(c, 0, 1, KH_VEC_DIM(32, 16));
	desc(c, 1, 0, 0);
	desc(c, 1, 1, KH_VEC_DIM(1, 16));
	expect_ok(KRUN(c, W_SETI(1), 128, W_SETVL(1),
		       w_mem(KH_VEC_VFILL, 0, 0, 0, 0), W_BAR,
		       w_mem(KH_VEC_VLD, 10, 1, 0, KH_VEC_DT_FP16),
		       w_mem(KH_VEC_VLD, 11, 1, 8, KH_VEC_DT_FP16), W_HALT), "load");
	for (vl = 48; vl <= 128; vl += 80)
		for (kind = KH_VEC_RED_SUM; kind <= KH_VEC_RED_DOT; kind++) {
			u32 want = ref_red(kind, a, b, vl);

			ns = KRUN(c, W_SETI(1), vl, W_SETVL(1),
				  W_MODE(KH_VEC_MODE_TREE),
				  w_alu(KH_VEC_VRED, 2, 10, 11, kind, 0, 0, 0, 0, 0),
				  W_MODE(KH_VEC_MODE_FLAT),
				  w_alu(KH_VEC_VBCAST, 4, 2, 0, 0, KH_VEC_SRC_S, 0, 0, 0, 0),
				  w_mem(KH_VEC_VST, 4, 6, 0, KH_VEC_DT_FP16),
				  w_mem(KH_VEC_VDRAIN, 0, 7, 32, 0), W_HALT);
			expect_ok(ns, "tree kind");
			dram_r(c, 0xe0000, out, sizeof(out));
			CHECK_MSG(out[0] == ref_to_f16(want),
				  "VRED kind %u vl %u: %04x want %04x", kind, vl,
				  out[0], ref_to_f16(want));
		}
	ksim_card_destroy(c);
}

CHECK_TEST_MAIN

// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The kernels of firmware API 1.1 that run on the vector unit
 * (docs/spec/pool.md "Jobs for the firmware", docs/spec/pool-vector.md,
 * the intrinsics in pv.h), SPMD over the eight cores like kernels.c's:
 * arguments checked first, the same way on every core; every range's last
 * word probed; then this core's share, moved by iDMA through the DataRAM
 * slots (vector accesses reach DataRAM only, 64-byte aligned rows).
 */
#include "fw.h"
#include "pv.h"

static u64 fw_round32(u64 n)
{
	return (n + FW_WORD - 1) & ~(u64)(FW_WORD - 1);
}

/* two 64-byte rows, for moving lanes between the vector unit and scalars */
static u32 fw_vbuf[32] FW_ALIGNED(64) FW_NOINIT;

/* ---- GEMV_I8: w1:w0 A, w3:w2 x, w5:w4 y, w6 M | K << 16 ---- */

/*
 * y[i] = sum over k of A[i][k] x[k], int8 inputs, int32 outputs.  A is
 * stored in panels of 64 rows, each panel column-major: byte (p K + k) 64
 * + r is A[64 p + r][k] (so a panel is K rows of 64 bytes, one vector
 * register per column).  The quad-MAC takes four columns a cycle: the
 * taps are the four columns' registers, the radix the four bytes of x
 * (x[k..k+3], a little-endian word, byte j meets tap j), and 64 lanes of
 * 24 bits accumulate in w0.
 *
 * A 24-bit lane holds 127 quad-MACs exactly (|a x| <= 2^14, and 508 of
 * them stay within [-2^23, 2^23 - 1]); a run of FW_GEMV_RUN quads is
 * drained into 32-bit partial sums (by the permute crossbar: gemv_drain),
 * so any K (up to KH_POOL_GEMV_KMAX: x is staged whole) is exact, and y
 * wraps as int32 arithmetic would.
 */
#define FW_GEMV_RUN	127	/* quad-MACs a 24-bit lane takes exactly */
#define FW_GEMV_ROWS	64	/* a panel: one 8-bit lane per row */
#define FW_GEMV_COL	KH_PV_VBYTES	/* a panel's column: one register */

struct fw_gemv {
	const u32 *x;		/* x in DataRAM, as radix words */
	u32 k4;			/* quads (4 columns) a panel */
	u32 q;			/* quads of the current panel done */
	u32 run;		/* quads since the last drain */
	u64 y;			/* where the current panel's 64 sums go */
	u32 nout;		/* panels written */
	u16 mark[2];		/* their iDMA marks, per out buffer */
};

static s32 fw_gemv_out[2][FW_GEMV_ROWS] FW_ALIGNED(64) FW_NOINIT;
static struct fw_gemv fw_g FW_NOINIT;

/* m quads from the panel rows at p, radix words xw; fresh: w0 starts */
static void gemv_quads(const u8 *p, const u32 *xw, u32 m, int fresh)
{
	u32 t0, n4;

	if (fresh) {
		pv_vmvxp(0, xw[0], 0);
		pv_vl(0, p, 0);
		pv_vl(1, p, 1);
		pv_vl(2, p, 2);
		pv_vl(3, p, 3);
		pv_vqmac(KH_PV_W8, 0, 0, 0, KH_PV_MAC_SET, 0);
		p += 4 * FW_GEMV_COL;
		xw++;
		m--;
	}
	/*
	 * Four quads a step, in one asm statement so that nothing scalar
	 * splits the bundles: {vmvxp x2, vl x2} {vmvxp x2, vl x2} then
	 * {vl x2, vqmac} / {vl x2} alternating, {vqmac}: 9 cycles for 16
	 * loads (2 a cycle bound it: 8).
	 */
	t0 = FW_PROF_BEGIN();
	n4 = m & ~3u;
	for (; m >= 4; m -= 4, p += 16 * FW_GEMV_COL, xw += 4)
		asm volatile(
			".insn r %[mem], %[mv], %[xp], x0, %[r0], x0\n\t"
			".insn r %[mem], %[mv], %[xp], x1, %[r1], x0\n\t"
			".insn i %[mem], %[vl], x0, 0(%[p])\n\t"
			".insn i %[mem], %[vl], x1, 1(%[p])\n\t"
			".insn r %[mem], %[mv], %[xp], x2, %[r2], x0\n\t"
			".insn r %[mem], %[mv], %[xp], x3, %[r3], x0\n\t"
			".insn i %[mem], %[vl], x2, 2(%[p])\n\t"
			".insn i %[mem], %[vl], x3, 3(%[p])\n\t"
			".insn i %[mem], %[vl], x4, 4(%[p])\n\t"
			".insn i %[mem], %[vl], x5, 5(%[p])\n\t"
			".insn r %[mac], %[w8], %[add], x0, x0, x0\n\t"
			".insn i %[mem], %[vl], x6, 6(%[p])\n\t"
			".insn i %[mem], %[vl], x7, 7(%[p])\n\t"
			".insn i %[mem], %[vl], x8, 8(%[p])\n\t"
			".insn i %[mem], %[vl], x9, 9(%[p])\n\t"
			".insn r %[mac], %[w8], %[add], x0, x4, x1\n\t"
			".insn i %[mem], %[vl], x10, 10(%[p])\n\t"
			".insn i %[mem], %[vl], x11, 11(%[p])\n\t"
			".insn i %[mem], %[vl], x12, 12(%[p])\n\t"
			".insn i %[mem], %[vl], x13, 13(%[p])\n\t"
			".insn r %[mac], %[w8], %[add], x0, x8, x2\n\t"
			".insn i %[mem], %[vl], x14, 14(%[p])\n\t"
			".insn i %[mem], %[vl], x15, 15(%[p])\n\t"
			".insn r %[mac], %[w8], %[add], x0, x12, x3"
			: : [mem] "i"(KH_PV_OPC_MEM), [mv] "i"(KH_PV_F3_MOVE),
			  [xp] "i"(KH_PV_VMVXP), [vl] "i"(KH_PV_F3_VL),
			  [mac] "i"(KH_PV_OPC_MAC), [w8] "i"(KH_PV_W8),
			  [add] "i"(KH_PV_QMAC_F7(KH_PV_MAC_ADD, 0)),
			  [r0] "r"(xw[0]), [r1] "r"(xw[1]), [r2] "r"(xw[2]),
			  [r3] "r"(xw[3]), [p] "r"(p)
			: "memory");
	FW_PROF_END(t0, n4);	/* the four-quad loop alone */
	for (; m; m--, p += 4 * FW_GEMV_COL, xw++) {
		pv_vmvxp(0, xw[0], 0);
		pv_vl(0, p, 0);
		pv_vl(1, p, 1);
		pv_vl(2, p, 2);
		pv_vl(3, p, 3);
		pv_vqmac(KH_PV_W8, 0, 0, 0, KH_PV_MAC_ADD, 0);
	}
}

/*
 * Where the 24-bit lanes go in a drain: w0's thirds in v8..v10 are 192
 * bytes, lane i at byte 3i; group g (rows 16g..16g+15) is bytes 48g ..
 * 48g+47, inside v8 ++ v9 (g 0, 1), v9 ++ v10 (g 2) or v10 (g 3).  For
 * each group a SEL index vector puts lane i's three bytes in bytes 1..3
 * of 32-bit lane i (byte 0 a copy), so that an arithmetic shift right by
 * 8 sign-extends it: index = the byte's place in the pair of registers.
 */
static const u32 fw_gemv_sel[4][16] FW_ALIGNED(64) = {
	{ 0x02010000u, 0x05040303u, 0x08070606u, 0x0b0a0909u,
	  0x0e0d0c0cu, 0x11100f0fu, 0x14131212u, 0x17161515u,
	  0x1a191818u, 0x1d1c1b1bu, 0x201f1e1eu, 0x23222121u,
	  0x26252424u, 0x29282727u, 0x2c2b2a2au, 0x2f2e2d2du },
	{ 0x32313030u, 0x35343333u, 0x38373636u, 0x3b3a3939u,
	  0x3e3d3c3cu, 0x41403f3fu, 0x44434242u, 0x47464545u,
	  0x4a494848u, 0x4d4c4b4bu, 0x504f4e4eu, 0x53525151u,
	  0x56555454u, 0x59585757u, 0x5c5b5a5au, 0x5f5e5d5du },
	{ 0x22212020u, 0x25242323u, 0x28272626u, 0x2b2a2929u,
	  0x2e2d2c2cu, 0x31302f2fu, 0x34333232u, 0x37363535u,
	  0x3a393838u, 0x3d3c3b3bu, 0x403f3e3eu, 0x43424141u,
	  0x46454444u, 0x49484747u, 0x4c4b4a4au, 0x4f4e4d4du },
	{ 0x12111010u, 0x15141313u, 0x18171616u, 0x1b1a1919u,
	  0x1e1d1c1cu, 0x21201f1fu, 0x24232222u, 0x27262525u,
	  0x2a292828u, 0x2d2c2b2bu, 0x302f2e2eu, 0x33323131u,
	  0x36353434u, 0x39383737u, 0x3c3b3a3au, 0x3f3e3d3du },
};

/*
 * The registers a job keeps: v16..v19 the panel's 64 32-bit sums (16
 * rows each), v20..v23 the SEL indices, v28 = 8 in every lane.
 */
static void gemv_setup(void)
{
	pv_vl(20, fw_gemv_sel, 0);
	pv_vl(21, fw_gemv_sel, 1);
	pv_vl(22, fw_gemv_sel, 2);
	pv_vl(23, fw_gemv_sel, 3);
	pv_vsplat(KH_PV_W32, 28, 8);
	pv_vsub(KH_PV_W32, 16, 16, 16);
	pv_vsub(KH_PV_W32, 17, 17, 17);
	pv_vsub(KH_PV_W32, 18, 18, 18);
	pv_vsub(KH_PV_W32, 19, 19, 19);
}

/* w0's 64 lanes of 24 bits added to the 32-bit sums in v16..v19 */
static void gemv_drain(void)
{
	pv_vmvwv(8, 0, 0);
	pv_vmvwv(9, 0, 1);
	pv_vmvwv(10, 0, 2);
	pv_vmv(24, 20);
	pv_vmv(25, 21);
	pv_vmv(26, 22);
	pv_vmv(27, 23);
	pv_vpsel(KH_PV_W8, 24, 8, 9);
	pv_vpsel(KH_PV_W8, 25, 8, 9);
	pv_vpsel(KH_PV_W8, 26, 9, 10);
	pv_vpsel(KH_PV_W8, 27, 10, 10);
	pv_vsra(KH_PV_W32, 24, 24, 28);
	pv_vsra(KH_PV_W32, 25, 25, 28);
	pv_vsra(KH_PV_W32, 26, 26, 28);
	pv_vsra(KH_PV_W32, 27, 27, 28);
	pv_vadd(KH_PV_W32, 16, 16, 24);
	pv_vadd(KH_PV_W32, 17, 17, 25);
	pv_vadd(KH_PV_W32, 18, 18, 26);
	pv_vadd(KH_PV_W32, 19, 19, 27);
}

/* the panel's sums out to y; an out buffer is reused two panels later */
static void gemv_put(struct fw_gemv *g)
{
	u32 b = g->nout & 1;
	s32 *out = fw_gemv_out[b];

	if (g->nout >= 2)
		fw_idma_wait(g->mark[b]);
	pv_vs(16, out, 0);
	pv_vs(17, out, 1);
	pv_vs(18, out, 2);
	pv_vs(19, out, 3);
	pv_vsub(KH_PV_W32, 16, 16, 16);
	pv_vsub(KH_PV_W32, 17, 17, 17);
	pv_vsub(KH_PV_W32, 18, 18, 18);
	pv_vsub(KH_PV_W32, 19, 19, 19);
	fw_idma(g->y, out, FW_GEMV_ROWS * 4, KH_POOL_IDMA_TO_DRAM, 0);
	g->mark[b] = fw_idma_mark();
	g->nout++;
	g->y += FW_GEMV_ROWS * 4;
}

/* a chunk of panel columns: whole quads (K and the slots are multiples) */
static void gemv_chunk(const u8 *p, u32 len, void *ctx)
{
	struct fw_gemv *g = ctx;
	u32 n = len / (4 * FW_GEMV_COL);

	while (n) {
		u32 m = n;

		if (m > g->k4 - g->q)
			m = g->k4 - g->q;
		if (m > FW_GEMV_RUN - g->run)
			m = FW_GEMV_RUN - g->run;
		gemv_quads(p, g->x + g->q, m, !g->run);
		p += m * 4 * FW_GEMV_COL;
		n -= m;
		g->q += m;
		g->run += m;
		if (g->q == g->k4 || g->run == FW_GEMV_RUN) {
			gemv_drain();
			g->run = 0;
		}
		if (g->q == g->k4) {
			gemv_put(g);
			g->q = 0;
		}
	}
}

u32 k_gemv(const struct fw_job *j, u32 *result)
{
	u64 a = fw_arg64(j, 0), x = fw_arg64(j, 2), y = fw_arg64(j, 4);
	u32 m = KH_POOL_GEMV_M(j->w[6]), k = KH_POOL_GEMV_K(j->w[6]);
	u64 alen = (u64)m * k, ylen = (u64)m * 4, xlen = fw_round32(k);
	u32 panels = m / FW_GEMV_ROWS, p0, p1, code;
	struct fw_gemv *g = &fw_g;
	u64 probe[3];

	if (m % FW_GEMV_ROWS || k % 4 || k > KH_POOL_GEMV_KMAX ||
	    (m && !k) || !fw_range_ok(a, alen) || !fw_range_ok(x, xlen) ||
	    !fw_range_ok(y, ylen) || fw_overlap(y, ylen, a, alen) ||
	    fw_overlap(y, ylen, x, xlen))
		return KH_POOL_FW_ARGS;
	if (!m)
		return 0;
	probe[0] = a + alen - FW_WORD;
	probe[1] = x + xlen - FW_WORD;
	probe[2] = y + ylen - FW_WORD;
	code = fw_probe(probe, 3);
	if (code)
		return code;
	/* whole panels per core, contiguous, so its y is one range */
	p0 = panels * fw_core / KH_POOL_CORES;
	p1 = panels * (fw_core + 1) / KH_POOL_CORES;
	if (p1 > p0) {
		/* x whole in the last slot, the others stream A */
		u8 *xs = fw_slot(--fw_nslots);

		fw_idma(x, xs, (u32)xlen, 0, 0);
		fw_idma_wait_all();
		memset(g, 0, sizeof(*g));
		gemv_setup();
		g->x = (const u32 *)xs;
		g->k4 = k / 4;
		g->y = y + (u64)p0 * FW_GEMV_ROWS * 4;
		fw_stream(a + (u64)p0 * FW_GEMV_ROWS * k,
			  (u64)(p1 - p0) * FW_GEMV_ROWS * k, gemv_chunk, g);
		fw_nslots++;
		fw_idma_wait_all();
	}
	fw_barrier();
	return 0;
}

/* ---- AXPY_F32: w1:w0 x, w3:w2 y, w4 a, w6 n ---- */

/*
 * y[i] = a x[i] + y[i] over binary32, one rounding (the FMA, FCR's round
 * mode: RNE from reset, which nothing changes), so bit for bit the C
 * library's fmaf(a, x[i], y[i]).  n a multiple of 16 (one register);
 * each core takes whole registers; x and y chunks land in a pair of
 * slots, y's slot takes the result and goes back out.
 */
static void axpy_rows(const u8 *xp, u8 *yp, u32 rows)
{
	/*
	 * v31 holds a in every lane; eight rows a step (x in even, y in odd
	 * registers), each row's store placed where its FMA's result (13)
	 * is ready and paired with a load: {Lx0 Ly0} {Lx1 Ly1} {Lx2 Ly2 F0
	 * F1} {Lx3 Ly3 F2} {Lx4 Ly4 F3} {S0 Lx5 F4} {S1 Ly5} {S2 Lx6 F5}
	 * {S3 Ly6} {S4 Lx7 F6} {S5 Ly7} {F7} {S6} - {S7}: 15 cycles for 24
	 * memory ops (2 a cycle bound it: 12).
	 */
	for (; rows >= 8; rows -= 8, xp += 8 * KH_PV_VBYTES,
	     yp += 8 * KH_PV_VBYTES)
		asm volatile(
			".insn i %[mem], %[vl], x0, 0(%[x])\n\t"
			".insn i %[mem], %[vl], x1, 0(%[y])\n\t"
			".insn i %[mem], %[vl], x2, 1(%[x])\n\t"
			".insn i %[mem], %[vl], x3, 1(%[y])\n\t"
			".insn i %[mem], %[vl], x4, 2(%[x])\n\t"
			".insn i %[mem], %[vl], x5, 2(%[y])\n\t"
			".insn r %[fp], %[f32], %[fma], x1, x31, x0\n\t"
			".insn r %[fp], %[f32], %[fma], x3, x31, x2\n\t"
			".insn i %[mem], %[vl], x6, 3(%[x])\n\t"
			".insn i %[mem], %[vl], x7, 3(%[y])\n\t"
			".insn r %[fp], %[f32], %[fma], x5, x31, x4\n\t"
			".insn i %[mem], %[vl], x8, 4(%[x])\n\t"
			".insn i %[mem], %[vl], x9, 4(%[y])\n\t"
			".insn r %[fp], %[f32], %[fma], x7, x31, x6\n\t"
			".insn s %[mem], %[vs], x1, 0(%[y])\n\t"
			".insn i %[mem], %[vl], x10, 5(%[x])\n\t"
			".insn r %[fp], %[f32], %[fma], x9, x31, x8\n\t"
			".insn s %[mem], %[vs], x3, 1(%[y])\n\t"
			".insn i %[mem], %[vl], x11, 5(%[y])\n\t"
			".insn s %[mem], %[vs], x5, 2(%[y])\n\t"
			".insn i %[mem], %[vl], x12, 6(%[x])\n\t"
			".insn r %[fp], %[f32], %[fma], x11, x31, x10\n\t"
			".insn s %[mem], %[vs], x7, 3(%[y])\n\t"
			".insn i %[mem], %[vl], x13, 6(%[y])\n\t"
			".insn s %[mem], %[vs], x9, 4(%[y])\n\t"
			".insn i %[mem], %[vl], x14, 7(%[x])\n\t"
			".insn r %[fp], %[f32], %[fma], x13, x31, x12\n\t"
			".insn s %[mem], %[vs], x11, 5(%[y])\n\t"
			".insn i %[mem], %[vl], x15, 7(%[y])\n\t"
			".insn r %[fp], %[f32], %[fma], x15, x31, x14\n\t"
			".insn s %[mem], %[vs], x13, 6(%[y])\n\t"
			".insn s %[mem], %[vs], x15, 7(%[y])"
			: : [mem] "i"(KH_PV_OPC_MEM), [vl] "i"(KH_PV_F3_VL),
			  [vs] "i"(KH_PV_F3_VS), [fp] "i"(KH_PV_OPC_FP),
			  [f32] "i"(KH_PV_WF32), [fma] "i"(KH_PV_FMADD),
			  [x] "r"(xp), [y] "r"(yp)
			: "memory");
	for (; rows; rows--, xp += KH_PV_VBYTES, yp += KH_PV_VBYTES) {
		pv_vl(0, xp, 0);
		pv_vl(1, yp, 0);
		pv_vfmadd(KH_PV_WF32, 1, 31, 0);
		pv_vs(1, yp, 0);
	}
}

/* this core's share of `bytes` (a multiple of 64) in whole 64-byte rows */
static void fw_split64(u64 bytes, struct fw_share *s)
{
	fw_split(bytes / 2, KH_POOL_CORES, s);
	s->off *= 2;
	s->len *= 2;
}

/* one chunk of x (in xs) and y (in ys, the result): whole rows */
static void axpy_chunk(u8 *xs, u8 *ys, u32 len)
{
	u32 t0 = FW_PROF_BEGIN();

	axpy_rows(xs, ys, len / KH_PV_VBYTES);
	FW_PROF_END(t0, len / KH_PV_VBYTES);
}

u32 k_axpy(const struct fw_job *j, u32 *result)
{
	u64 x = fw_arg64(j, 0), y = fw_arg64(j, 2);
	u64 n = (u64)j->w[6] * 4, probe[2];
	struct fw_share s;
	u32 code;

	if (j->w[6] % 16 || !fw_range_ok(x, n) || !fw_range_ok(y, n) ||
	    (x != y && fw_overlap(x, n, y, n)))
		return KH_POOL_FW_ARGS;
	if (!n)
		return 0;
	probe[0] = x + n - FW_WORD;
	probe[1] = y + n - FW_WORD;
	code = fw_probe(probe, 2);
	if (code)
		return code;
	pv_vsplat(KH_PV_W32, 31, j->w[4]);
	fw_split64(n, &s);
	fw_pair_stream(x, y, y, &s, 1, axpy_chunk);
	fw_barrier();
	return 0;
}

/* ---- SOFTMAX_F32: w1:w0 src, w3:w2 dst, w4 L, w6 rows ---- */

/*
 * Row by row: dst[r][i] = exp(s[i] - max) / sum over i of exp(s[i] - max)
 * (docs/spec/pool.md "SOFTMAX_F32" states the error bound and why):
 *
 * - max: signed integer max of the keys k(b) = b ^ ((b >> 31) >>> 1),
 *   which order binary32 bit patterns as the numbers they hold;
 * - exp(d), d = s - max <= 0: t = d log2(e) (an FMA: s log2e - max
 *   log2e), clamped to >= -125; n = trunc(t - 1/2) (= ceil, t <= 0) and
 *   f = t - n in (-1/2, 1/2]; 2^f by a degree-6 polynomial in f (Taylor
 *   of e^(f ln 2), Horner with the FMA); 2^n by adding n to the exponent
 *   field;
 * - the sum of the row's exponentials, lanes then across lanes (through
 *   DataRAM: there is no scalar FPU);
 * - 1/sum: Engine A's seed vfrecip0, one Newton step with the FMA
 *   (e = 1 - sum r0, r = r0 + r0 e): the seed's relative error squared;
 * - dst = the exponentials times 1/sum.
 *
 * The row is staged whole (L <= KH_POOL_SOFTMAX_LMAX, a multiple of 16);
 * the exponentials overwrite it, then the scaled values.
 */
#define FW_SM_ROWS_MAX	(FW_SLOT / 64)

/* constants, binary32 bit patterns (host-computed, see the spec) */
#define FW_F_LOG2E	0x3fb8aa3bu	/* log2(e) */
#define FW_F_HALF	0x3f000000u	/* 0.5 */
#define FW_F_ONE	0x3f800000u	/* 1.0 */
#define FW_F_M125	0xc2fa0000u	/* -125.0: 2^n stays a normal number */
/* (ln 2)^k / k!, k = 6..0 (Horner from the top) */
static const u32 fw_exp2_poly[7] = {
	0x39218489u, 0x3aaec3ffu, 0x3c1d955bu, 0x3d635847u,
	0x3e75fdf0u, 0x3f317218u, 0x3f800000u,
};

/*
 * The across-lanes steps: v[src] stored, its upper half of `half` lanes
 * copied down by scalars and loaded back into v[dst], so that a lane op
 * of v[src] and v[dst] folds the halves.  Registers are constants.
 */
static void sm_fold_prep(u32 half)
{
	u32 i;

	for (i = 0; i < half; i++)
		fw_vbuf[16 + i] = fw_vbuf[half + i];
}

/* v20 = the float max of v20's lanes, splat; via the integer keys */
static void sm_hmax(void)
{
	u32 i, best;
	s32 kb;

	pv_vs(20, fw_vbuf, 0);
	kb = (s32)fw_vbuf[0];
	for (i = 1; i < 16; i++)
		if ((s32)fw_vbuf[i] > kb)
			kb = (s32)fw_vbuf[i];
	best = (u32)kb;
	/* the key back to the float's bits (the map is its own inverse) */
	best ^= (u32)(kb >> 31) >> 1;
	pv_vsplat(KH_PV_W32, 20, best);
}

/* v21 = the float sum of v21's lanes, in every lane */
static void sm_hsum(void)
{
	u32 half;

	for (half = 8; half; half /= 2) {
		pv_vs(21, fw_vbuf, 0);
		sm_fold_prep(half);
		pv_vl(22, fw_vbuf, 1);
		pv_vfadd(KH_PV_WF32, 21, 21, 22);
	}
	pv_vs(21, fw_vbuf, 0);
	pv_vsplat(KH_PV_W32, 21, fw_vbuf[0]);
}

/* the keys of v[0] into v[1] (v28 = 31, v29 = 1 in every lane) */
#define SM_KEY(vd, va)							\
	do {								\
		pv_vsra(KH_PV_W32, vd, va, 28);				\
		pv_vsrl(KH_PV_W32, vd, vd, 29);				\
		pv_vxor(vd, vd, va);					\
	} while (0)

/*
 * The exponentials of one register at p (in place), summed into v21:
 * v0 the input, then t - 1/2, then n as a float; v1 t; v3 n; v5 f; v6,
 * v7 Horner's (the FMA adds into its destination, so each coefficient is
 * copied in first: a move, which co-issues).
 */
static void sm_exp1(u8 *p)
{
	pv_vl(0, p, 0);
	/* t = s log2e - max log2e, clamped: unsigned min of bits */
	pv_vmv(1, 19);
	pv_vfmadd(KH_PV_WF32, 1, 0, 18);
	pv_vminu(KH_PV_W32, 1, 1, 27);
	/* n = trunc(t - 1/2), f = t - n */
	pv_vfsub(KH_PV_WF32, 0, 1, 26);
	pv_vftrunc(KH_PV_WF32, 3, 0);
	pv_vffloat(KH_PV_WF32, 0, 3);
	pv_vfsub(KH_PV_WF32, 5, 1, 0);
	/* Horner: v6 = c6; v = v f + c_k */
	pv_vmv(6, 10);
	pv_vmv(7, 11);
	pv_vfmadd(KH_PV_WF32, 7, 6, 5);
	pv_vmv(6, 12);
	pv_vfmadd(KH_PV_WF32, 6, 7, 5);
	pv_vmv(7, 13);
	pv_vfmadd(KH_PV_WF32, 7, 6, 5);
	pv_vmv(6, 14);
	pv_vfmadd(KH_PV_WF32, 6, 7, 5);
	pv_vmv(7, 15);
	pv_vfmadd(KH_PV_WF32, 7, 6, 5);
	pv_vmv(6, 16);
	pv_vfmadd(KH_PV_WF32, 6, 7, 5);
	/* times 2^n: n into the exponent field */
	pv_vsll(KH_PV_W32, 3, 3, 25);
	pv_vadd(KH_PV_W32, 6, 6, 3);
	pv_vfadd(KH_PV_WF32, 21, 21, 6);
	pv_vs(6, p, 0);
}

/*
 * Two registers at once, their steps interleaved so that the second's
 * ops fill the slots the first's dependent chain leaves (an FMA's result
 * is 3 cycles away): the second chain in v8 (v0's roles), v9 (t), v17
 * (n), v20 (f; the max is consumed by then), v22, v23 (Horner's; the
 * reciprocal takes them after the loop), its sum in v2.
 */
static void sm_exp2(u8 *p)
{
	pv_vl(0, p, 0);
	pv_vl(8, p, 1);
	pv_vmv(1, 19);
	pv_vmv(9, 19);
	pv_vfmadd(KH_PV_WF32, 1, 0, 18);
	pv_vfmadd(KH_PV_WF32, 9, 8, 18);
	pv_vminu(KH_PV_W32, 1, 1, 27);
	pv_vminu(KH_PV_W32, 9, 9, 27);
	pv_vfsub(KH_PV_WF32, 0, 1, 26);
	pv_vfsub(KH_PV_WF32, 8, 9, 26);
	pv_vftrunc(KH_PV_WF32, 3, 0);
	pv_vftrunc(KH_PV_WF32, 17, 8);
	pv_vffloat(KH_PV_WF32, 0, 3);
	pv_vffloat(KH_PV_WF32, 8, 17);
	pv_vfsub(KH_PV_WF32, 5, 1, 0);
	pv_vfsub(KH_PV_WF32, 20, 9, 8);
	pv_vmv(6, 10);
	pv_vmv(22, 10);
	pv_vmv(7, 11);
	pv_vmv(23, 11);
	pv_vfmadd(KH_PV_WF32, 7, 6, 5);
	pv_vfmadd(KH_PV_WF32, 23, 22, 20);
	pv_vmv(6, 12);
	pv_vmv(22, 12);
	pv_vfmadd(KH_PV_WF32, 6, 7, 5);
	pv_vfmadd(KH_PV_WF32, 22, 23, 20);
	pv_vmv(7, 13);
	pv_vmv(23, 13);
	pv_vfmadd(KH_PV_WF32, 7, 6, 5);
	pv_vfmadd(KH_PV_WF32, 23, 22, 20);
	pv_vmv(6, 14);
	pv_vmv(22, 14);
	pv_vfmadd(KH_PV_WF32, 6, 7, 5);
	pv_vfmadd(KH_PV_WF32, 22, 23, 20);
	pv_vmv(7, 15);
	pv_vmv(23, 15);
	pv_vfmadd(KH_PV_WF32, 7, 6, 5);
	pv_vfmadd(KH_PV_WF32, 23, 22, 20);
	pv_vmv(6, 16);
	pv_vmv(22, 16);
	pv_vfmadd(KH_PV_WF32, 6, 7, 5);
	pv_vfmadd(KH_PV_WF32, 22, 23, 20);
	pv_vsll(KH_PV_W32, 3, 3, 25);
	pv_vsll(KH_PV_W32, 17, 17, 25);
	pv_vadd(KH_PV_W32, 6, 6, 3);
	pv_vadd(KH_PV_W32, 22, 22, 17);
	pv_vfadd(KH_PV_WF32, 21, 21, 6);
	pv_vfadd(KH_PV_WF32, 2, 2, 22);
	pv_vs(6, p, 0);
	pv_vs(22, p, 1);
}

static void sm_row(u8 *row, u32 l)
{
	u32 rows = l / 16, i, t0;
	u8 *p;

	/* max: v20 the running max of the keys */
	pv_vl(0, row, 0);
	SM_KEY(20, 0);
	for (i = 1, p = row + 64; i < rows; i++, p += 64) {
		pv_vl(0, p, 0);
		SM_KEY(1, 0);
		pv_vmax(KH_PV_W32, 20, 20, 1);
	}
	sm_hmax();
	/* v19 = -max log2e; v18 = log2e */
	pv_vsplat(KH_PV_W32, 18, FW_F_LOG2E);
	pv_vsub(KH_PV_W32, 19, 19, 19);
	pv_vfmsub(KH_PV_WF32, 19, 20, 18);
	/* exps, and their sum in v21 (and v2, the second chain's) */
	pv_vsub(KH_PV_W32, 21, 21, 21);
	pv_vsub(KH_PV_W32, 2, 2, 2);
	t0 = FW_PROF_BEGIN();
	for (i = 0, p = row; i + 2 <= rows; i += 2, p += 128)
		sm_exp2(p);
	if (i < rows)
		sm_exp1(p);
	pv_vfadd(KH_PV_WF32, 21, 21, 2);
	FW_PROF_END(t0, rows);	/* the exponentials' loop, per register */
	sm_hsum();
	/* r = 1/sum: the seed, one Newton step */
	pv_vfrecip0(KH_PV_WF32, 22, 21);
	pv_vmv(23, 24);
	pv_vfmsub(KH_PV_WF32, 23, 21, 22);
	pv_vfmadd(KH_PV_WF32, 22, 22, 23);
	for (i = 0, p = row; i < rows; i++, p += 64) {
		pv_vl(0, p, 0);
		pv_vfmul(KH_PV_WF32, 0, 0, 22);
		pv_vs(0, p, 0);
	}
}

/* the constants softmax keeps in registers for a whole job */
static void sm_consts(void)
{
	u32 i;

	pv_vsplat(KH_PV_W32, 28, 31);
	pv_vsplat(KH_PV_W32, 29, 1);
	pv_vsplat(KH_PV_W32, 27, FW_F_M125);
	pv_vsplat(KH_PV_W32, 26, FW_F_HALF);
	pv_vsplat(KH_PV_W32, 25, 23);
	pv_vsplat(KH_PV_W32, 24, FW_F_ONE);
	for (i = 0; i < 7; i++)
		fw_vbuf[i] = fw_exp2_poly[i];
	pv_vsplat(KH_PV_W32, 10, fw_vbuf[0]);
	pv_vsplat(KH_PV_W32, 11, fw_vbuf[1]);
	pv_vsplat(KH_PV_W32, 12, fw_vbuf[2]);
	pv_vsplat(KH_PV_W32, 13, fw_vbuf[3]);
	pv_vsplat(KH_PV_W32, 14, fw_vbuf[4]);
	pv_vsplat(KH_PV_W32, 15, fw_vbuf[5]);
	pv_vsplat(KH_PV_W32, 16, fw_vbuf[6]);
}

u32 k_softmax(const struct fw_job *j, u32 *result)
{
	u64 src = fw_arg64(j, 0), dst = fw_arg64(j, 2);
	u32 l = j->w[4], nrows = j->w[6], rb = l * 4, per, r0, r1;
	u32 chunks, pushed = 0, i, code;
	u64 n = (u64)nrows * rb, probe[2];
	u16 mark[FW_MAX_SLOTS];

	if (!l || l % 16 || l > KH_POOL_SOFTMAX_LMAX ||
	    !fw_range_ok(src, n) || !fw_range_ok(dst, n) ||
	    (src != dst && fw_overlap(src, n, dst, n)))
		return KH_POOL_FW_ARGS;
	if (!n)
		return 0;
	probe[0] = src + n - FW_WORD;
	probe[1] = dst + n - FW_WORD;
	code = fw_probe(probe, 2);
	if (code)
		return code;
	sm_consts();
	r0 = (u32)((u64)nrows * fw_core / KH_POOL_CORES);
	r1 = (u32)((u64)nrows * (fw_core + 1) / KH_POOL_CORES);
	per = FW_SLOT / rb;		/* rows a slot */
	chunks = (r1 - r0 + per - 1) / per;
	for (i = 0; i < chunks; i++) {
		u32 k = i % fw_nslots, c, nr;
		u8 *buf = fw_slot(k);

		while (pushed < chunks && pushed < i + fw_nslots) {
			u32 pr = r0 + pushed * per;

			nr = r1 - pr < per ? r1 - pr : per;
			fw_idma(src + (u64)pr * rb, fw_slot(pushed % fw_nslots),
				nr * rb, 0, 0);
			mark[pushed % fw_nslots] = fw_idma_mark();
			pushed++;
		}
		fw_idma_wait(mark[k]);
		nr = r1 - (r0 + i * per) < per ? r1 - (r0 + i * per) : per;
		for (c = 0; c < nr; c++)
			sm_row(buf + c * rb, l);
		fw_idma(dst + (u64)(r0 + i * per) * rb, buf, nr * rb,
			KH_POOL_IDMA_TO_DRAM, 0);
	}
	fw_idma_wait_all();
	fw_barrier();
	return 0;
}

/* ---- COPY_U: w1:w0 src, w3:w2 dst, w6 bytes, any byte addresses ---- */

/*
 * dst[0..n) = src[0..n) at any byte addresses.  The DRAM side moves by
 * iDMA in whole 32-byte words; the byte shift is the valign streams'.
 * The destination's words [dst & ~31, round32(dst + n)) are split over
 * the cores (no word has two writers), then into chunks of at most
 * FW_CU_CHUNK bytes of words.  A chunk's source words land in a 64-byte
 * aligned buffer (byte s at sbuf + s - (s & ~31)): vlap, then vla per row
 * reads them at their offset; its destination words are staged in dbuf
 * the same way: the head word (when the data starts inside it) and the
 * tail word (when it ends inside one) are read first, vsap keeps the
 * head's bytes before the data, vsa writes whole rows, vsaf the last
 * row's head; the rows reach past the data (whole rows), so the tail
 * word's bytes after it are saved before and put back after (at most 31,
 * by scalars).  Then the words go out.
 */
#define FW_CU_CHUNK	(FW_SLOT - 64)	/* destination bytes a chunk */
#define FW_CU_SETS	(FW_MAX_SLOTS / 4)	/* src, dst: 2 slots each */

struct fw_cu_chunk {
	u64 d;		/* the chunk's first data byte's address */
	u32 len;	/* its data bytes */
};

static void cu_chunk_of(u64 dst, u64 n, const struct fw_share *sh, u64 dw,
			u32 i, struct fw_cu_chunk *c)
{
	u64 lo = dw + sh->off + (u64)i * FW_CU_CHUNK, hi = lo + FW_CU_CHUNK;

	if (hi > dw + sh->off + sh->len)
		hi = dw + sh->off + sh->len;
	if (lo < dst)
		lo = dst;
	if (hi > dst + n)
		hi = dst + n;
	c->d = lo;
	c->len = (u32)(hi - lo);
}

static void cu_push(u64 src, u64 dst, const struct fw_cu_chunk *c, u32 set)
{
	u64 s = src + (c->d - dst), sw = s & ~(u64)(FW_WORD - 1);
	u64 dw = c->d & ~(u64)(FW_WORD - 1), de = c->d + c->len;
	u8 *sbuf = fw_slot(4 * set), *dbuf = fw_slot(4 * set + 2);

	fw_idma(sw, sbuf, (u32)(fw_round32(s + c->len) - sw), 0, 0);
	if (c->d & (FW_WORD - 1))
		fw_idma(dw, dbuf, FW_WORD, 0, 0);
	if (de & (FW_WORD - 1))
		fw_idma(de & ~(u64)(FW_WORD - 1),
			dbuf + ((de & ~(u64)(FW_WORD - 1)) - dw), FW_WORD, 0,
			0);
}

static void cu_shift(u64 src, u64 dst, const struct fw_cu_chunk *c, u32 set)
{
	u64 s = src + (c->d - dst);
	u8 *sbuf = fw_slot(4 * set), *dbuf = fw_slot(4 * set + 2);
	u8 *sp = sbuf + (s & (FW_WORD - 1));
	u8 *dp = dbuf + (c->d & (FW_WORD - 1));
	u32 rows = (c->len + 63) / 64, end = (u32)(dp - dbuf) + c->len;
	u32 tail = (u32)fw_round32(end) - end, i, t0;
	u8 save[FW_WORD];

	for (i = 0; i < tail; i++)
		save[i] = dbuf[end + i];
	pv_vlap(0, sp);
	pv_vsap(1, dp);
	/*
	 * Eight rows a step, the load stream one row ahead of the store
	 * stream: {vla} {vla, vsa} x 7 {vsa}, 9 cycles (each stream's
	 * valign register chains one a cycle; one store a cycle).
	 */
	t0 = FW_PROF_BEGIN();
	for (i = 0; i + 8 <= rows; i += 8) {
		pv_vla(0, 0, sp);
		pv_vla(1, 0, sp);
		pv_vsa(0, 1, dp);
		pv_vla(2, 0, sp);
		pv_vsa(1, 1, dp);
		pv_vla(3, 0, sp);
		pv_vsa(2, 1, dp);
		pv_vla(4, 0, sp);
		pv_vsa(3, 1, dp);
		pv_vla(5, 0, sp);
		pv_vsa(4, 1, dp);
		pv_vla(6, 0, sp);
		pv_vsa(5, 1, dp);
		pv_vla(7, 0, sp);
		pv_vsa(6, 1, dp);
		pv_vsa(7, 1, dp);
	}
	FW_PROF_END(t0, i);	/* the eight-row loop alone */
	for (; i < rows; i++) {
		pv_vla(0, 0, sp);
		pv_vsa(0, 1, dp);
	}
	pv_vsaf(1, dp);
	for (i = 0; i < tail; i++)
		dbuf[end + i] = save[i];
}

u32 k_copyu(const struct fw_job *j, u32 *result)
{
	u64 src = fw_arg64(j, 0), dst = fw_arg64(j, 2), n = j->w[6];
	u64 sw, sl, dw, dl, probe[2];
	u32 sets = fw_nslots / 4, chunks, pushed = 0, i, code;
	struct fw_share sh;
	u16 mark[FW_CU_SETS];

	sw = src & ~(u64)(FW_WORD - 1);
	sl = fw_round32(src + n) - sw;
	dw = dst & ~(u64)(FW_WORD - 1);
	dl = fw_round32(dst + n) - dw;
	if (!fw_range_ok(sw, sl) || !fw_range_ok(dw, dl) ||
	    fw_overlap(sw, sl, dw, dl))
		return KH_POOL_FW_ARGS;
	if (!n)
		return 0;
	probe[0] = sw + sl - FW_WORD;
	probe[1] = dw + dl - FW_WORD;
	code = fw_probe(probe, 2);
	if (code)
		return code;
	/* the destination words, split by chunks' worth per core */
	fw_split(dl, KH_POOL_CORES, &sh);
	chunks = (u32)((sh.len + FW_CU_CHUNK - 1) / FW_CU_CHUNK);
	for (i = 0; i < chunks; i++) {
		struct fw_cu_chunk c;
		u32 set = i % sets;
		u64 cw;

		while (pushed < chunks && pushed < i + sets) {
			cu_chunk_of(dst, n, &sh, dw, pushed, &c);
			cu_push(src, dst, &c, pushed % sets);
			mark[pushed % sets] = fw_idma_mark();
			pushed++;
		}
		cu_chunk_of(dst, n, &sh, dw, i, &c);
		fw_idma_wait(mark[set]);
		cu_shift(src, dst, &c, set);
		cw = c.d & ~(u64)(FW_WORD - 1);
		fw_idma(cw, fw_slot(4 * set + 2),
			(u32)(fw_round32(c.d + c.len) - cw),
			KH_POOL_IDMA_TO_DRAM, 0);
	}
	fw_idma_wait_all();
	fw_barrier();
	return 0;
}

/* ---- HIST256's counting (kernels.c k_hist merges the cores') ---- */

/*
 * Count a chunk's bytes into fw_hist with the scatter-increment: a row's
 * 16 32-bit lanes give 4 bytes each; byte j of every lane (a shift and a
 * mask) is 16 bin indices, and one vscatterinc adds 1 to those 16 bins,
 * lanes with the same bin all counting.  4 scatters a row: the store
 * slot's one a cycle bounds it.  The tail under a row by scalars.
 */
void fw_hist_chunk(const u8 *p, u32 len, void *ctx)
{
	u32 rows = len / KH_PV_VBYTES, i, t0;

	/* v30 = 1, v29 = 0xff, v26..v28 = 24, 16, 8; b15 every lane */
	pv_vsplat(KH_PV_W32, 30, 1);
	pv_vsplat(KH_PV_W32, 29, 0xff);
	pv_vsplat(KH_PV_W32, 28, 8);
	pv_vsplat(KH_PV_W32, 27, 16);
	pv_vsplat(KH_PV_W32, 26, 24);
	pv_vmvxb(15, ~0u, ~0u);
	t0 = FW_PROF_BEGIN();
	/*
	 * Two rows a step (v0..v4 and v5..v9), ordered so that the second
	 * row's shifts and masks ride in the bundles of the first's
	 * scatters: {vl, vl} {3 ALU} {3 ALU, sc} {sc, 3 ALU} {sc, 3 ALU}
	 * {sc} then the second row's four scatters: 10 cycles, 8 of them
	 * the store slot's.
	 */
	for (i = 0; i + 2 <= rows; i += 2, p += 2 * KH_PV_VBYTES) {
		pv_vl(0, p, 0);
		pv_vl(5, p, 1);
		pv_vand(1, 0, 29);
		pv_vsrl(KH_PV_W32, 2, 0, 28);
		pv_vsrl(KH_PV_W32, 3, 0, 27);
		pv_vsrl(KH_PV_W32, 4, 0, 26);
		pv_vand(2, 2, 29);
		pv_vand(3, 3, 29);
		pv_vscatterinc(KH_PV_F3_GS32, 30, 1, fw_hist, 15);
		pv_vscatterinc(KH_PV_F3_GS32, 30, 2, fw_hist, 15);
		pv_vand(6, 5, 29);
		pv_vsrl(KH_PV_W32, 7, 5, 28);
		pv_vsrl(KH_PV_W32, 8, 5, 27);
		pv_vscatterinc(KH_PV_F3_GS32, 30, 3, fw_hist, 15);
		pv_vsrl(KH_PV_W32, 9, 5, 26);
		pv_vand(7, 7, 29);
		pv_vand(8, 8, 29);
		pv_vscatterinc(KH_PV_F3_GS32, 30, 4, fw_hist, 15);
		pv_vscatterinc(KH_PV_F3_GS32, 30, 6, fw_hist, 15);
		pv_vscatterinc(KH_PV_F3_GS32, 30, 7, fw_hist, 15);
		pv_vscatterinc(KH_PV_F3_GS32, 30, 8, fw_hist, 15);
		pv_vscatterinc(KH_PV_F3_GS32, 30, 9, fw_hist, 15);
	}
	if (i < rows) {
		pv_vl(0, p, 0);
		pv_vand(1, 0, 29);
		pv_vsrl(KH_PV_W32, 2, 0, 28);
		pv_vsrl(KH_PV_W32, 3, 0, 27);
		pv_vsrl(KH_PV_W32, 4, 0, 26);
		pv_vand(2, 2, 29);
		pv_vand(3, 3, 29);
		pv_vscatterinc(KH_PV_F3_GS32, 30, 1, fw_hist, 15);
		pv_vscatterinc(KH_PV_F3_GS32, 30, 2, fw_hist, 15);
		pv_vscatterinc(KH_PV_F3_GS32, 30, 3, fw_hist, 15);
		pv_vscatterinc(KH_PV_F3_GS32, 30, 4, fw_hist, 15);
		p += KH_PV_VBYTES;
	}
	FW_PROF_END(t0, rows);
	for (len %= KH_PV_VBYTES; len; len--)
		fw_hist[*p++]++;
}

/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * KohakuAccel flit format: the one definition shared by the device model,
 * the driver, the firmware and the runtime.
 *
 * A flit is 288 bits: a 32-bit header [287:256] and a 256-bit payload
 * [255:0].  In memory it is five little-endian 64-bit words in the order the
 * orchestrator's TX_FLIT/RX_FLIT/STAGE registers use: word k holds flit bits
 * [64k+63:64k], so word 4 bits [31:0] hold the header.
 *
 * A field is KH_FIELD(hi, lo) in Verilog [hi:lo] numbering of the whole
 * 288-bit flit, read and written with kh_flit_get() and kh_flit_set().  Sources: ../shared/reference/kohakutpu.md sections 2-3.
 */
#ifndef _UAPI_KOHAKU_KH_FLIT_H
#define _UAPI_KOHAKU_KH_FLIT_H

#include <linux/types.h>

#define KH_FLIT_WIDTH		288
#define KH_POS_WIDTH		4
#define KH_FLIT_WORDS		5	/* 64-bit words per flit */
#define KH_FLIT_BYTES		40
#define KH_PAYLOAD_BYTES	32	/* one payload = one 32-byte memory word */

struct kh_flit {
	__u64 w[KH_FLIT_WORDS];
};

/* a field of at most 64 bits: its top and bottom bit positions */
#define KH_FIELD(hi, lo)	(((hi) << 16) | (lo))
#define KH_FIELD_HI(f)		((unsigned int)(f) >> 16)
#define KH_FIELD_LO(f)		((unsigned int)(f) & 0xffff)

/* ---- header [287:256] ---- */
#define KH_HDR_DST_X		KH_FIELD(287, 284)
#define KH_HDR_DST_Y		KH_FIELD(283, 280)
#define KH_HDR_SRC_X		KH_FIELD(279, 276)
#define KH_HDR_SRC_Y		KH_FIELD(275, 272)
#define KH_HDR_TYPE		KH_FIELD(271, 268)
#define KH_HDR_TXN		KH_FIELD(267, 260)
#define KH_HDR_LAST		KH_FIELD(259, 259)
#define KH_HDR_RSVD		KH_FIELD(258, 256)
#define KH_HDR_REMOTE		KH_FIELD(258, 258)	/* rsvd[2]: remote-mesh marker */
#define KH_HDR_RSVD_LO		KH_FIELD(257, 256)	/* rsvd[1:0]: mesh id or word index */

/* ---- type codes [271:268] ---- */
#define KH_T_MEM_RD_REQ		0x0
#define KH_T_MEM_WR_REQ		0x1
#define KH_T_MEM_RD_RESP	0x2
#define KH_T_MEM_WR_ACK		0x3
#define KH_T_MEM_WR_DATA	0x4
#define KH_T_CU_INST		0x5
#define KH_T_CU_SIGNAL		0x6
#define KH_T_CU_CTRL		0x7
#define KH_T_CU_DATA		0x8
#define KH_T_ERROR		0xf	/* declared only; nothing produces it */
#define KH_T_IS_MEM(t)		((t) <= KH_T_MEM_WR_DATA)

/* ---- CU_SIGNAL payload and codes ---- */
#define KH_SIG_CODE		KH_FIELD(255, 248)
#define KH_SIG_ARG		KH_FIELD(247, 216)

#define KH_SIG_INST_COMPLETE	0x00	/* framework: retired, arg = exec_result */
#define KH_SIG_BATCH_COMPLETE	0x01	/* framework: retired with last, arg = txn */
#define KH_SIG_BARRIER_REACHED	0x02	/* allocated, produced by nothing */
#define KH_SIG_DATA_RECEIVED	0x03	/* unit: CU_DATA burst landed */
#define KH_SIG_FAULT		0x04	/* framework: exec_fault, arg = fault code */
#define KH_SIG_UNIT_FIRST	0x40	/* 0x40-0xff are unit-defined */

/* ---- CU_CTRL request / reply payload ---- */
#define KH_CTRL_OP		KH_FIELD(255, 248)
#define KH_CTRL_INDEX		KH_FIELD(247, 240)
#define KH_CTRL_VALUE		KH_FIELD(239, 176)

#define KH_CTRL_OP_READ		0x00
#define KH_CTRL_OP_WRITE	0x01	/* addon windows only (0xe0-0xef, 0xf0-0xf7) */
#define KH_CTRL_OP_REPLY	0x02

#define KH_CTRL_IDX_CAPS	0
#define KH_CTRL_IDX_STATUS	1
#define KH_CTRL_IDX_COUNTERS	2
#define KH_CTRL_IDX_DBG		3
#define KH_CTRL_IDX_ADDON_BASE	0xe0	/* 0xe0-0xe7: endpoint L2 staging */
#define KH_CTRL_IDX_IS_ADDON(i)	((((i) & 0xff) >> 3) == (KH_CTRL_IDX_ADDON_BASE >> 3))

/* ---- the endpoint L2 staging adapter (docs/spec/l2-adapter.md) ---- */
#define KH_CTRL_IDX_L2_CAPS	0xe0	/* RO */
#define KH_CTRL_IDX_L2_BASE	0xe1	/* RW [39:0] window base */
#define KH_CTRL_IDX_L2_CTRL	0xe2	/* RW [0] enable, 0 at reset */
#define KH_CTRL_IDX_L2_STAT	0xe3	/* RO {n_served, n_forwarded_in_window} */
#define KH_L2_CTRL_ENABLE	1ULL
#define KH_L2_SLOT_ID		0x0002	/* slot id: L2 staging */
#define KH_L2_VERSION		1
#define KH_L2_CAPS(bits, depth) \
	(((__u64)KH_L2_SLOT_ID << 48) | ((__u64)KH_L2_VERSION << 40) | \
	 ((__u64)((bits) & 0xff) << 32) | (__u64)(__u32)(depth))
#define KH_L2_CAPS_SLOT(c)	((unsigned int)(((c) >> 48) & 0xffff))
#define KH_L2_CAPS_VERSION(c)	((unsigned int)(((c) >> 40) & 0xff))
#define KH_L2_CAPS_BITS(c)	((unsigned int)(((c) >> 32) & 0xff))
#define KH_L2_CAPS_DEPTH(c)	((__u32)((c) & 0xffffffffULL))
#define KH_L2_STAT_SERVED(s)	((__u32)((s) >> 32))
#define KH_L2_STAT_FORWARDED(s)	((__u32)((s) & 0xffffffffULL))
#define KH_L2_BASE_MASK		((1ULL << 40) - 1)
#define KH_L2_LINE_BYTES	32
/* ship tops (kohakutpu.md §3.3): 8192 lines, 18 window bits */
#define KH_L2_SHIP_DEPTH	8192
#define KH_L2_SHIP_BITS		18
#define KH_L2_CU_BASE		0x00f0000000ULL	/* matmul clusters */
#define KH_L2_VEC_BASE		0x00f1000000ULL	/* vector cores */

/* CU_CAPS (index 0), bit positions within the 64-bit value */
#define KH_CAPS_CU_TYPE_SHIFT	48
#define KH_CAPS_CU_TYPE_MASK	0xffffULL
#define KH_CAPS_VERSION_SHIFT	40
#define KH_CAPS_VERSION_MASK	0xffULL
#define KH_CAPS_NBUF_SHIFT	36
#define KH_CAPS_NBUF_MASK	0xfULL
#define KH_CAPS_DEPTH_SHIFT	20
#define KH_CAPS_DEPTH_MASK	0xffffULL

/* CU_STATUS (index 1) */
#define KH_STATUS_BUSY		(1ULL << 63)
#define KH_STATUS_ERROR		(1ULL << 62)	/* tied 0 on every build */
#define KH_STATUS_SPACE_SHIFT	32
#define KH_STATUS_SPACE_MASK	0xffffULL

/* CU_COUNTERS (index 2): [63:32] retired, [31:0] busy cycles; reset only */
#define KH_CTR_RETIRED_SHIFT	32
#define KH_CTR_BUSY_MASK	0xffffffffULL

/* ---- MEM_RD_REQ / MEM_WR_REQ descriptor (RTL HEAD, 40-bit address) ---- */
#define KH_MEM_ADDR		KH_FIELD(255, 216)
#define KH_MEM_LEN		KH_FIELD(215, 208)	/* beats - 1 */
#define KH_MEM_FLAGS		KH_FIELD(207, 200)
#define KH_MEM_COUNT		KH_FIELD(199, 192)	/* STREAM entries, 0 means 1 */
#define KH_MEM_PEER		KH_FIELD(191, 168)	/* 3 x {y,x}, lowest byte first */
#define KH_MEM_NPEER		KH_FIELD(167, 166)
#define KH_MEM_ENTRY_WORDS	KH_FIELD(165, 158)	/* 0 or >4 means 4 */

#define KH_MEMF_CACHEABLE	(1u << 0)
#define KH_MEMF_INVALIDATE	(1u << 1)
#define KH_MEMF_FLUSH		(1u << 2)
#define KH_MEMF_QUANT		(1u << 4)
#define KH_MEMF_BLAYOUT		(1u << 5)
#define KH_MEMF_STREAM		(1u << 6)

#define KH_MEM_WBURST		8	/* max beats per write: len <= 7 */

/* 40-bit mesh address as units and MAG see it */
#define KH_MADDR_SPECIAL	(1ULL << 39)
#define KH_MADDR_MESH_SHIFT	36
#define KH_MADDR_MESH_MASK	0x3ULL
#define KH_MADDR_LOCAL_MASK	((1ULL << 36) - 1)
#define KH_MADDR_APERTURE_SHIFT	32
#define KH_MADDR_APERTURE_MASK	0xfULL
#define KH_MADDR(mesh, local) \
	(((__u64)(mesh) << KH_MADDR_MESH_SHIFT) | ((__u64)(local) & KH_MADDR_LOCAL_MASK))

/*
 * Special apertures ([39] = 1, id [35:32]; docs/model.md "Apertures").
 * AP_IMPL = 0x0037: 0, 1, 2, 4, 5 are defined; the model serves 0 on
 * every path and 4/5 (the quantising upload) on the host path.
 */
#define KH_AP_IMPL		0x0037u
#define KH_AP_L2_STAGE		0	/* MAG L2 staging */
#define KH_AP_QUANT_A		4	/* host upload, FP16 -> MXFP7, A layout */
#define KH_AP_QUANT_B		5	/* ... B layout ([32] = BLAYOUT) */
#define KH_AP_OFFSET_MASK	0xffffffffULL	/* [31:0] inside an aperture */
/* the quantising upload writes at addr & ([37:36] | low 32 bits) */
#define KH_AP_QUANT_DST_MASK	((KH_MADDR_MESH_MASK << KH_MADDR_MESH_SHIFT) | \
				 KH_AP_OFFSET_MASK)
#define KH_MADDR_AP(mesh, ap, off) \
	(KH_MADDR_SPECIAL | ((__u64)(mesh) << KH_MADDR_MESH_SHIFT) | \
	 ((__u64)((ap) & KH_MADDR_APERTURE_MASK) << KH_MADDR_APERTURE_SHIFT) | \
	 ((__u64)(off) & KH_AP_OFFSET_MASK))

#define KH_MEM_ENTRY_WORDS_MAX	4	/* entry_words 0 or > 4 means 4 */
#define KH_MEM_STREAM_MAX	255	/* entries per stream read */

/* ---- CU_DATA descriptor ---- */
#define KH_DATA_BUF_ID		KH_FIELD(255, 248)
#define KH_DATA_OFFSET		KH_FIELD(247, 232)	/* 32-byte granules */
#define KH_DATA_LEN		KH_FIELD(231, 224)	/* data flits - 1 */
#define KH_DATA_FLAGS		KH_FIELD(223, 216)
#define KH_DATA_ACK_Y		KH_FIELD(215, 212)
#define KH_DATA_ACK_X		KH_FIELD(211, 208)
#define KH_DATAF_SIGNAL		(1u << 0)

/* ---- CU_INST: the payload belongs to the unit; opcode by convention ---- */
#define KH_INST_OPCODE4		KH_FIELD(255, 252)

/*
 * Bit access.  Positions are absolute flit bits (0..287); a field is at most
 * 64 bits wide and may straddle two words.
 */
static inline __u64 kh_flit_bits(const struct kh_flit *f, unsigned int hi,
				 unsigned int lo)
{
	unsigned int width = hi - lo + 1;
	unsigned int word = lo / 64, shift = lo % 64;
	__u64 v = f->w[word] >> shift;

	if (shift && shift + width > 64)
		v |= f->w[word + 1] << (64 - shift);
	if (width < 64)
		v &= (1ULL << width) - 1;
	return v;
}

static inline void kh_flit_set_bits(struct kh_flit *f, unsigned int hi,
				    unsigned int lo, __u64 v)
{
	unsigned int width = hi - lo + 1;
	unsigned int word = lo / 64, shift = lo % 64;
	__u64 mask = width < 64 ? (1ULL << width) - 1 : ~0ULL;

	v &= mask;
	f->w[word] = (f->w[word] & ~(mask << shift)) | (v << shift);
	if (shift && shift + width > 64) {
		unsigned int spill = 64 - shift;

		f->w[word + 1] = (f->w[word + 1] & ~(mask >> spill)) |
				 (v >> spill);
	}
}

/* kh_flit_get(f, KH_HDR_TYPE), kh_flit_set(f, KH_SX_N, n) */
static inline __u64 kh_flit_get(const struct kh_flit *f, unsigned int field)
{
	return kh_flit_bits(f, KH_FIELD_HI(field), KH_FIELD_LO(field));
}

static inline void kh_flit_set(struct kh_flit *f, unsigned int field, __u64 v)
{
	kh_flit_set_bits(f, KH_FIELD_HI(field), KH_FIELD_LO(field), v);
}

/* Coordinates are packed {y,x} in one byte wherever the hardware does so. */
#define KH_YX(x, y)		((((y) & 0xf) << 4) | ((x) & 0xf))
#define KH_YX_X(yx)		((yx) & 0xf)
#define KH_YX_Y(yx)		(((yx) >> 4) & 0xf)

/* The header constructor: {dx,dy,sx,sy,type,txn,last,rsvd}. */
static inline void kh_flit_hdr(struct kh_flit *f, unsigned int dx,
			       unsigned int dy, unsigned int sx,
			       unsigned int sy, unsigned int type,
			       unsigned int txn, unsigned int last)
{
	__u64 h = ((__u64)(dx & 0xf) << 28) | ((__u64)(dy & 0xf) << 24) |
		  ((__u64)(sx & 0xf) << 20) | ((__u64)(sy & 0xf) << 16) |
		  ((__u64)(type & 0xf) << 12) | ((__u64)(txn & 0xff) << 4) |
		  ((__u64)(last & 1) << 3);

	f->w[4] = h;	/* bits [63:32] of word 4 lie past bit 287 */
}

#endif /* _UAPI_KOHAKU_KH_FLIT_H */

/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The DXA bulk-copy unit `dxa` (cu_type 'DX') and the scratch unit `scr`
 * (cu_type 'SC'): every number the model, the driver and a host share
 * about them, once.  docs/spec/dxa.md is the prose.  Field positions are
 * KH_FIELD(hi, lo) of the whole flit, for kh_flit_get().
 */
#ifndef _UAPI_KOHAKU_KH_DXA_H
#define _UAPI_KOHAKU_KH_DXA_H

#include <linux/types.h>
#include <kohaku/kh_flit.h>
#include <kohaku/kh_units.h>

/* ---- identity ---- */
/** KH_CU_DX - cu_type of the DXA unit. */
#define KH_CU_DX		KH_CU_TYPE('D', 'X')
/** KH_CU_SC - cu_type of the scratch unit. */
#define KH_CU_SC		KH_CU_TYPE('S', 'C')

/* ---- the descriptor table: CU_DATA buffer 0 of a DXA unit ---- */
/** KH_DXA_BUF_TABLE - the buffer holding the 16 slots. */
#define KH_DXA_BUF_TABLE	0
/** KH_DXA_SLOTS - descriptor slots per unit. */
#define KH_DXA_SLOTS		16
/** KH_DXA_SLOT_BYTES - one slot: two 32-byte granules. */
#define KH_DXA_SLOT_BYTES	64
/** KH_DXA_SLOT_GRANULES - granules per slot; slot s is at offset 2s. */
#define KH_DXA_SLOT_GRANULES	2
/** KH_DXA_TABLE_WORDS - u64 words of the table (DXA_SEL's range). */
#define KH_DXA_TABLE_WORDS	(KH_DXA_SLOTS * KH_DXA_SLOT_BYTES / 8)
/** KH_DXA_MAX_RANK - dimensions of a descriptor. */
#define KH_DXA_MAX_RANK		5

/*
 * Byte offsets of the slot's little-endian fields (docs/spec/dxa.md "The
 * descriptor table").
 */
#define KH_DXA_D_BASE		0	/* u64, [39:0] a MAG address */
#define KH_DXA_D_SIZE(d)	(8 + 4 * (d))	/* u32, d = 0..4, elements */
#define KH_DXA_D_STRIDE(d)	(28 + 4 * (d))	/* u32, d = 0..3: dim d+1, bytes */
#define KH_DXA_D_META		44	/* u32 */
#define KH_DXA_D_TILE(d)	(48 + 2 * (d))	/* u16, d = 0..4, elements */
#define KH_DXA_D_MSTRIDE	58	/* u16, granules per receiver */
#define KH_DXA_D_CFILL		60	/* u32 */

/* meta */
#define KH_DXA_META_RANK(m)	((m) & 0x7u)		/* 1..5, 0: empty */
#define KH_DXA_META_ESIZE(m)	(((m) >> 3) & 0x3u)	/* log2 bytes */
#define KH_DXA_META_KMAJOR	(1u << 5)
#define KH_DXA_META_SWIZZLE	(0x3u << 6)		/* reserved: 0 */
#define KH_DXA_META_INTERLEAVE	(0x3u << 8)		/* reserved: 0 */
#define KH_DXA_META_L2PROMO	(0x3u << 10)		/* reserved: 0 */
/** KH_DXA_META_RESERVED - every bit that must be 0 (swizzle and up). */
#define KH_DXA_META_RESERVED	0xffffffc0u
#define KH_DXA_META(rank, log2_esize, kmajor) \
	(((rank) & 0x7u) | (((log2_esize) & 0x3u) << 3) | \
	 ((kmajor) ? KH_DXA_META_KMAJOR : 0))

/* ---- CU_INST: a copy ---- */
#define KH_DXA_INST_OP		KH_FIELD(255, 252)
#define KH_DXA_INST_SLOT	KH_FIELD(251, 248)
#define KH_DXA_INST_NRECV	KH_FIELD(247, 246)	/* receivers - 1 */
#define KH_DXA_INST_ZERO	KH_FIELD(245, 240)	/* must be 0 */
/* coordinate d (0..4): 24 bits, c0 at [239:216] */
#define KH_DXA_INST_COORD(d)	KH_FIELD(239 - 24 * (d), 216 - 24 * (d))
/* receiver r (0..3): 30 bits, r0 at [119:90] */
#define KH_DXA_INST_RECV(r)	KH_FIELD(119 - 30 * (r), 90 - 30 * (r))
#define KH_DXA_RECV(x, y, buf, off) \
	((((__u64)(x) & 0xf) << 26) | (((__u64)(y) & 0xf) << 22) | \
	 (((__u64)(buf) & 0x3f) << 16) | ((__u64)(off) & 0xffff))
#define KH_DXA_RECV_X(v)	((unsigned int)(((v) >> 26) & 0xf))
#define KH_DXA_RECV_Y(v)	((unsigned int)(((v) >> 22) & 0xf))
#define KH_DXA_RECV_BUF(v)	((unsigned int)(((v) >> 16) & 0x3f))
#define KH_DXA_RECV_OFF(v)	((unsigned int)((v) & 0xffff))
#define KH_DXA_COORD_MAX	0xffffffu
#define KH_DXA_RECV_BUF_MAX	0x3f
#define KH_DXA_MAX_RECV		4
#define KH_DXA_OP_COPY		1

/* ---- limits and timing ---- */
/** KH_DXA_MAX_TILE_GRANULES - one CU_DATA burst: 8 KiB per receiver. */
#define KH_DXA_MAX_TILE_GRANULES 256
#define KH_DXA_MAX_TILE_BYTES	(KH_DXA_MAX_TILE_GRANULES * 32)
/** KH_DXA_MAX_INFLIGHT - 32-byte line reads outstanding (seed 003). */
#define KH_DXA_MAX_INFLIGHT	8
/** KH_DXA_ACK_TIMEOUT - cycles after its last flit a receiver has to ack. */
#define KH_DXA_ACK_TIMEOUT	4096
/** KH_DXA_STALL_TIMEOUT - cycles without progress before STALL. */
#define KH_DXA_STALL_TIMEOUT	65536

/* ---- faults (SIG_FAULT arg) ---- */
#define KH_DXA_FAULT_BAD_OP		0xDA000001u
#define KH_DXA_FAULT_EMPTY_SLOT		0xDA000002u
#define KH_DXA_FAULT_BAD_META		0xDA000003u
#define KH_DXA_FAULT_KMAJOR_RANK	0xDA000004u
#define KH_DXA_FAULT_ZERO_TILE		0xDA000005u
#define KH_DXA_FAULT_TILE_TOO_BIG	0xDA000006u
#define KH_DXA_FAULT_NO_ACK		0xDA000007u
#define KH_DXA_FAULT_STALL		0xDA000008u

/* ---- CU_CTRL addon window 0xf0-0xf7 (both units, each its own) ---- */
#define KH_CTRL_IDX_UNIT_ADDON_BASE	0xf0
#define KH_CTRL_IDX_IS_UNIT_ADDON(i)	((((i) & 0xff) >> 3) == (0xf0 >> 3))
#define KH_CTRL_IDX_DXA_CAPS		0xf0	/* RO */
#define KH_CTRL_IDX_DXA_SEL		0xf1	/* RW: table word 0..127 */
#define KH_CTRL_IDX_DXA_DATA		0xf2	/* RO: the selected word */
#define KH_CTRL_IDX_DXA_TRANSFERS	0xf3	/* RO */
#define KH_CTRL_IDX_DXA_GMEM_READS	0xf4	/* RO */
#define KH_CTRL_IDX_DXA_GMEM_SAVED	0xf5	/* RO */
#define KH_CTRL_IDX_DXA_LOCAL_WRITES	0xf6	/* RO */
#define KH_CTRL_IDX_DXA_GMEM_LAT	0xf7	/* RO */
#define KH_DXA_SLOT_ID			0x0003	/* DXA_CAPS [63:48] */
#define KH_DXA_VERSION			1
#define KH_DXA_CAPS \
	(((__u64)KH_DXA_SLOT_ID << 48) | ((__u64)KH_DXA_VERSION << 40) | \
	 ((__u64)KH_DXA_SLOTS << 32) | ((__u64)KH_DXA_MAX_INFLIGHT << 24) | \
	 ((__u64)(KH_DXA_MAX_TILE_GRANULES - 1) << 16))

/* ---- the scratch unit ---- */
/** KH_SCR_GRANULES - buffer 0 of a scratch unit: 8 KiB. */
#define KH_SCR_GRANULES		256
#define KH_SCR_BUF		0
#define KH_SCR_INST_OP		KH_FIELD(255, 252)
#define KH_SCR_INST_COUNT	KH_FIELD(247, 240)	/* granules - 1 */
#define KH_SCR_INST_FIRST	KH_FIELD(239, 224)	/* first granule */
#define KH_SCR_INST_ADDR	KH_FIELD(215, 176)	/* MAG address, 32-aligned */
#define KH_SCR_OP_COPY_OUT	1
#define KH_SCR_FAULT_BAD_OP	0x5C000001u
#define KH_SCR_FAULT_RANGE	0x5C000002u
#define KH_SCR_FAULT_ALIGN	0x5C000003u
#define KH_CTRL_IDX_SCR_SEL	0xf0	/* RW: u64 word 0..1023 of buffer 0 */
#define KH_CTRL_IDX_SCR_DATA	0xf1	/* RO */

#endif /* _UAPI_KOHAKU_KH_DXA_H */

/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The card's DMA engine: the Xilinx DMA/Bridge Subsystem for PCI Express
 * (XDMA, PG195) in DMA mode, as the KohakuAccel card configures it
 * (kohakutpu.md 8.2: one H2C and one C2H channel, the AXI-Lite master on
 * BAR0, so the XDMA register space is the next BAR).  docs/spec/xdma.md
 * says what the model keeps of it and how the driver uses it.
 *
 * Every register is 32 bits wide and accessed with 32-bit reads and writes.
 * Offsets are bytes in the XDMA BAR (64 KiB): bits [15:12] select the
 * target block, [11:8] the channel, [7:0] the register.
 */
#ifndef _UAPI_KOHAKU_KH_XDMA_H
#define _UAPI_KOHAKU_KH_XDMA_H

#include <linux/types.h>

#define KH_XDMA_BAR_SIZE	0x10000u

/* ---- block identifiers: [31:20] 0x1fc, [19:16] target, [11:8] channel ---- */
#define KH_XDMA_ID_SUBSYS	0x1fcu
#define KH_XDMA_ID_SUBSYS_OF(id)	((__u32)(id) >> 20)
#define KH_XDMA_ID_TARGET_OF(id)	(((__u32)(id) >> 16) & 0xf)
#define KH_XDMA_ID_STREAM	(1u << 15)	/* AXI-Stream channel (never here) */
#define KH_XDMA_ID_CHAN_OF(id)	(((__u32)(id) >> 8) & 0xf)
#define KH_XDMA_ID_VERSION_OF(id)	((__u32)(id) & 0xff)
#define KH_XDMA_ID(target, chan, ver) \
	((KH_XDMA_ID_SUBSYS << 20) | ((__u32)(target) << 16) | \
	 ((__u32)(chan) << 8) | ((ver) & 0xff))

/* targets: also the block's offset [15:12] */
#define KH_XDMA_T_H2C		0x0	/* H2C channel */
#define KH_XDMA_T_C2H		0x1	/* C2H channel */
#define KH_XDMA_T_IRQ		0x2	/* IRQ block */
#define KH_XDMA_T_CONFIG	0x3	/* config block */
#define KH_XDMA_T_H2C_SGDMA	0x4	/* H2C channel SGDMA */
#define KH_XDMA_T_C2H_SGDMA	0x5	/* C2H channel SGDMA */
#define KH_XDMA_T_SGDMA_COMMON	0x6	/* SGDMA common */
#define KH_XDMA_BLOCK(target, chan)	(((__u32)(target) << 12) | ((__u32)(chan) << 8))
#define KH_XDMA_MAX_CHANNELS	4	/* per direction, by the IP */

/* ---- H2C / C2H channel registers (in KH_XDMA_BLOCK(T_H2C or T_C2H, c)) ---- */
#define KH_XDMA_CH_ID		0x00	/* RO identifier */
#define KH_XDMA_CH_CTRL		0x04	/* RW control */
#define KH_XDMA_CH_CTRL_W1S	0x08
#define KH_XDMA_CH_CTRL_W1C	0x0c
#define KH_XDMA_CH_STATUS	0x40	/* RW1C status */
#define KH_XDMA_CH_STATUS_RC	0x44	/* RC: status, cleared by the read */
#define KH_XDMA_CH_COMPLETED	0x48	/* RO completed descriptor count */
#define KH_XDMA_CH_ALIGN	0x4c	/* RO alignments */
#define KH_XDMA_CH_WB_LO	0x88	/* RW poll-mode write-back address */
#define KH_XDMA_CH_WB_HI	0x8c
#define KH_XDMA_CH_IRQ_MASK	0x90	/* RW interrupt enable mask */
#define KH_XDMA_CH_IRQ_MASK_W1S	0x94
#define KH_XDMA_CH_IRQ_MASK_W1C	0x98

/* control bits; the status bits and the interrupt mask use the same positions */
#define KH_XDMA_CTRL_RUN		(1u << 0)	/* status: busy */
#define KH_XDMA_CTRL_DESC_STOPPED	(1u << 1)
#define KH_XDMA_CTRL_DESC_COMPLETED	(1u << 2)
#define KH_XDMA_CTRL_ALIGN_MISMATCH	(1u << 3)
#define KH_XDMA_CTRL_MAGIC_STOPPED	(1u << 4)
#define KH_XDMA_CTRL_INVALID_LEN	(1u << 5)
#define KH_XDMA_CTRL_IDLE_STOPPED	(1u << 6)
#define KH_XDMA_CTRL_READ_ERROR		(0x1fu << 9)	/* [13:9] */
#define KH_XDMA_CTRL_WRITE_ERROR	(0x1fu << 14)	/* [18:14] */
#define KH_XDMA_CTRL_DESC_ERROR		(0x1fu << 19)	/* [23:19] */
#define KH_XDMA_CTRL_NON_INCR_ADDR	(1u << 25)
#define KH_XDMA_CTRL_POLL_WB		(1u << 26)	/* poll-mode write-back */
#define KH_XDMA_STATUS_BUSY		KH_XDMA_CTRL_RUN
#define KH_XDMA_ERRORS	(KH_XDMA_CTRL_ALIGN_MISMATCH | KH_XDMA_CTRL_MAGIC_STOPPED | \
			 KH_XDMA_CTRL_INVALID_LEN | KH_XDMA_CTRL_READ_ERROR | \
			 KH_XDMA_CTRL_WRITE_ERROR | KH_XDMA_CTRL_DESC_ERROR)
/*
 * The error sub-codes inside a 5-bit group (PG195 status 0x40).  The AXI
 * side of a channel (H2C write_error, C2H read_error): [0] DECERR, [1]
 * SLVERR.  The PCIe side (H2C read_error, desc_error, and the model's C2H
 * write_error, docs/spec/xdma.md): [0] unsupported request, [1] completer
 * abort, [2] parity, [3] poisoned, [4] unexpected completion.
 */
#define KH_XDMA_ERR_DECERR	0x1	/* the AXI side answered DECERR */
#define KH_XDMA_ERR_SLVERR	0x2	/* ... SLVERR */
#define KH_XDMA_ERR_UR		0x1	/* the PCIe side: unsupported request */
#define KH_XDMA_READ_ERR(code)	(((__u32)(code) & 0x1f) << 9)
#define KH_XDMA_WRITE_ERR(code)	(((__u32)(code) & 0x1f) << 14)
#define KH_XDMA_DESC_ERR(code)	(((__u32)(code) & 0x1f) << 19)

/* alignments: [23:16] address alignment, [15:8] length granularity, [7:0] address bits */
#define KH_XDMA_ALIGN_ADDR(a)	(((a) >> 16) & 0xff)
#define KH_XDMA_ALIGN_GRAN(a)	(((a) >> 8) & 0xff)
#define KH_XDMA_ALIGN_BITS(a)	((a) & 0xff)

/* the poll-mode write-back word: [31] error, [30:0] completed descriptors */
#define KH_XDMA_WB_ERROR	(1u << 31)
#define KH_XDMA_WB_COUNT(w)	((w) & 0x7fffffffu)

/* ---- channel SGDMA registers (in KH_XDMA_BLOCK(T_H2C_SGDMA or T_C2H_SGDMA, c)) ---- */
#define KH_XDMA_SG_ID		0x00
#define KH_XDMA_SG_DESC_LO	0x80	/* the first descriptor's bus address */
#define KH_XDMA_SG_DESC_HI	0x84
#define KH_XDMA_SG_DESC_ADJ	0x88	/* descriptors adjacent to the first */
#define KH_XDMA_SG_DESC_CREDIT	0x8c

/* ---- IRQ block (KH_XDMA_BLOCK(T_IRQ, 0)) ---- */
#define KH_XDMA_IRQ_ID			0x00
#define KH_XDMA_IRQ_USER_EN		0x04
#define KH_XDMA_IRQ_USER_EN_W1S		0x08
#define KH_XDMA_IRQ_USER_EN_W1C		0x0c
#define KH_XDMA_IRQ_CHAN_EN		0x10	/* [n]: H2C channels, then C2H */
#define KH_XDMA_IRQ_CHAN_EN_W1S		0x14
#define KH_XDMA_IRQ_CHAN_EN_W1C		0x18
#define KH_XDMA_IRQ_USER_REQ		0x40	/* RO */
#define KH_XDMA_IRQ_CHAN_REQ		0x44	/* RO */
#define KH_XDMA_IRQ_USER_PEND		0x48	/* RO */
#define KH_XDMA_IRQ_CHAN_PEND		0x4c	/* RO */
#define KH_XDMA_IRQ_USER_VEC(i)		(0x80 + ((i) / 4) * 4)	/* 4 a register */
#define KH_XDMA_IRQ_CHAN_VEC(i)		(0xa0 + ((i) / 4) * 4)
#define KH_XDMA_IRQ_VEC_SHIFT(i)	(((i) % 4) * 8)	/* [4:0] of each byte */
#define KH_XDMA_IRQ_VEC_MASK		0x1fu
/* the channel interrupt bit of H2C channel c and of C2H channel c (n_h2c of them) */
#define KH_XDMA_IRQ_BIT_H2C(c)		(1u << (c))
#define KH_XDMA_IRQ_BIT_C2H(n_h2c, c)	(1u << ((n_h2c) + (c)))

/* ---- config block (KH_XDMA_BLOCK(T_CONFIG, 0)) ---- */
#define KH_XDMA_CFG_ID			0x00
#define KH_XDMA_CFG_BUSDEV		0x04
#define KH_XDMA_CFG_MAX_PAYLOAD		0x08	/* PCIe, encoded 128 << n */
#define KH_XDMA_CFG_MAX_READ		0x0c
#define KH_XDMA_CFG_SYSTEM_ID		0x10
#define KH_XDMA_CFG_MSI_EN		0x14	/* [0] MSI, [1] MSI-X */
#define KH_XDMA_CFG_DATA_WIDTH		0x18	/* 0 64, 1 128, 2 256, 3 512 bits */

/* ---- SGDMA common (KH_XDMA_BLOCK(T_SGDMA_COMMON, 0)) ---- */
#define KH_XDMA_SGC_ID			0x00
#define KH_XDMA_SGC_CTRL		0x10	/* [3:0] H2C halt, [19:16] C2H halt (per channel bit) */
#define KH_XDMA_SGC_CTRL_W1S		0x14
#define KH_XDMA_SGC_CTRL_W1C		0x18
/* halt descriptor fetches of H2C / C2H channel c */
#define KH_XDMA_SGC_HALT_H2C(c)		(1u << (c))
#define KH_XDMA_SGC_HALT_C2H(c)		(1u << (16 + (c)))

/* ---- descriptors in host memory ---- */
#define KH_XDMA_DESC_MAGIC		0xad4bu	/* control [31:16] */
#define KH_XDMA_DESC_ADJ_SHIFT		8	/* control [13:8]: adjacent to the next one */
#define KH_XDMA_DESC_ADJ_MAX		63
#define KH_XDMA_DESC_STOP		(1u << 0)	/* the last descriptor */
#define KH_XDMA_DESC_COMPLETED		(1u << 1)	/* count it, interrupt if enabled */
#define KH_XDMA_DESC_EOP		(1u << 4)	/* end of packet (streams) */
#define KH_XDMA_DESC_CONTROL(adj, flags) \
	((KH_XDMA_DESC_MAGIC << 16) | (((__u32)(adj) & 0x3f) << 8) | ((flags) & 0xff))
#define KH_XDMA_DESC_LEN_MAX		((1u << 28) - 1)	/* bytes [27:0] */
#define KH_XDMA_DESC_BLOCK_ALIGN	32	/* a descriptor's address */
#define KH_XDMA_DESC_BOUNDARY		4096	/* adjacent ones never cross it */

/**
 * struct kh_xdma_desc - one XDMA descriptor, in host memory, little-endian
 * @control: KH_XDMA_DESC_CONTROL(nxt_adj, flags): nxt_adj is how many
 *	descriptors follow, contiguous, the one at @next (the engine may fetch
 *	them in one burst); flags KH_XDMA_DESC_*.
 * @len: bytes to move, [27:0].
 * @src: source: a host bus address (H2C) or a card address (C2H).
 * @dst: destination: a card address (H2C) or a host bus address (C2H).
 * @next: the next descriptor's bus address (read when this one is not
 *	the last of its adjacent run).
 */
struct kh_xdma_desc {
	__u32 control;
	__u32 len;
	__u64 src;
	__u64 dst;
	__u64 next;
};

#endif /* _UAPI_KOHAKU_KH_XDMA_H */

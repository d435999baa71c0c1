/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * KohakuAccel card register interface: the BAR0 layout, the orchestrator
 * (mesh control window) register map, the memory mover and interlink AUX_CFG
 * clients, the clock wizard, and the card bus addresses of mesh memory.
 *
 * Offsets are bytes.  Every orchestrator register is one 64-bit word at an
 * 8-aligned offset; only the low 16 bits of the window offset are decoded.
 * Sources: ../shared/reference/kohakutpu.md sections 4, 7, 8; the IRQ addon
 * is this project's (docs/spec/irq-addon.md).
 */
#ifndef _UAPI_KOHAKU_KH_REGS_H
#define _UAPI_KOHAKU_KH_REGS_H

#include <linux/types.h>

/* ---- PCI identity ---- */
#define KH_PCI_VENDOR		0x10ee
#define KH_PCI_DEVICE		0x903f
#define KH_PCI_SUBSYS		0x0007

/* ---- BAR0 (AXI-Lite, 16 MiB), per mesh N = 0..3 ---- */
#define KH_BAR0_SIZE		0x1000000u
#define KH_MAX_MESHES		4
#define KH_DDRC_BASE(n)		(0x000000u + (n) * 0x100000u)	/* 1 MiB */
#define KH_DDRC_SIZE		0x100000u
#define KH_MESH_BASE(n)		(0x800000u + (n) * 0x10000u)	/* 64 KiB */
#define KH_MESH_SIZE		0x10000u
#define KH_CLKWIZ_BASE(n)	(0x900000u + (n) * 0x10000u)	/* 64 KiB */
#define KH_CLKWIZ_SIZE		0x10000u

/* ---- mesh memory on the card bus (XDMA only) ---- */
#define KH_MESH_DRAM_SIZE	(4ULL << 30)	/* populated per mesh */
#define KH_HOST_GRANULE		32		/* host writes are whole words */
/* card bus address of mesh n, mesh-local offset l */
#define KH_CARD_ADDR(n, l) \
	((((__u64)(n) + 1) << 40) | ((__u64)(n) << 36) | ((__u64)(l) & ((1ULL << 36) - 1)))
#define KH_CARD_WINDOW(a)	((unsigned int)(((a) >> 40) & 0x7) - 1)
/* card bus address of aperture ap of mesh n (kh_flit.h KH_AP_*) */
#define KH_CARD_AP(n, ap, off) \
	((((__u64)(n) + 1) << 40) | (1ULL << 39) | ((__u64)(n) << 36) | \
	 ((__u64)((ap) & 0xf) << 32) | ((__u64)(off) & 0xffffffffULL))
#define KH_HOST_BOUNDARY	4096	/* host AXI bursts never cross it */

/* ---- orchestrator register map (offsets inside KH_MESH_BASE(n)) ---- */
#define KH_ORC_CTRL		0x0000	/* RW, stored only */
#define KH_ORC_STATUS		0x0008	/* RO */
#define KH_ORC_CAPS		0x0010	/* RO */
#define KH_ORC_IRQ_STAT		0x0018	/* W1C */
#define KH_ORC_IRQ_EN		0x0020	/* RW */
#define KH_ORC_PROG_DST		0x0040	/* RW [7:0] {y,x} */
#define KH_ORC_PROG_LEN		0x0048	/* RW [15:0] flits, 0 = kick ignored */
#define KH_ORC_PROG_KICK	0x0050	/* W, ignored while running */
#define KH_ORC_PROG_STAT	0x0058	/* RO */
#define KH_ORC_PROG_CRED	0x0060	/* RW [15:0]; a host write always wins */
#define KH_ORC_PROG_BASE	0x0068	/* RW [15:0] first staging slot */
#define KH_ORC_SIG_DONE		0x0070	/* R [15:0] every CU_SIGNAL; W clears */
#define KH_ORC_AUX_STAT		0x0078	/* RO mover status */
#define KH_ORC_AUX_STATW(i)	(0x0080 + (i) * 8)	/* RO, i = 0..15 */
#define KH_ORC_TX_FLIT(w)	(0x0100 + (w) * 8)	/* RW, byte-enabled */
#define KH_ORC_TX_KICK		0x0140	/* W */
#define KH_ORC_TX_STATUS	0x0148	/* RO */
#define KH_ORC_RX_FLIT(w)	(0x0180 + (w) * 8)	/* RO head of RX */
#define KH_ORC_RX_POP		0x01c0	/* W */
#define KH_ORC_RX_STATUS	0x01c8	/* RO */
#define KH_ORC_AUX_CFG(off)	(0x0800 + (off))	/* W, client offset */
#define KH_ORC_NODE_STATUS(yx)	(0x1000 + ((yx) & 0xff) * 8)	/* RO */
#define KH_ORC_NODE_ALIAS	0x1800	/* 0x1800-0x1fff alias 0x1000-0x17ff */
#define KH_ORC_STAGE(slot)	(0x2000 + (slot) * 40)	/* W only, 5 words */
#define KH_ORC_DECODE_MASK	0xffffu	/* only the low 16 bits are decoded */

/*
 * The 32-bit path (the card's host's only one: docs/spec/xdma.md "BAR0 in
 * 32 bits").  Each 32-bit access is one beat at the address given, the 32
 * bits on both halves of the bus word.  The registers the orchestrator
 * decodes by range take a beat anywhere inside them: reading, RX_FLIT,
 * AUX_STATW and NODE_STATUS (and its alias) answer at +4 with their upper
 * half; writing, TX_FLIT takes the byte enables (a flit is composed half by
 * half), a STAGE word takes the whole beat (both halves the value: the RAM
 * cannot be loaded), AUX_CFG pulses at the beat's client address.  Every
 * other register is named by its whole address: a write at +4 is ignored,
 * a read at +4 returns 0, a write at +0 stores the whole beat.
 */
#define KH_ORC_HI_READABLE(off)						\
	(((off) >= KH_ORC_AUX_STATW(0) && (off) < KH_ORC_TX_FLIT(0)) ||	\
	 ((off) >= KH_ORC_RX_FLIT(0) && (off) < KH_ORC_RX_FLIT(5)) ||	\
	 ((off) >= KH_ORC_NODE_STATUS(0) && (off) < KH_ORC_STAGE(0)))

/* STATUS */
#define KH_ORC_STATUS_BUSY	(1ULL << 0)	/* TX not empty or prog_run */
#define KH_ORC_STATUS_ERROR	(1ULL << 1)	/* tied 0 */
#define KH_ORC_STATUS_READY	(1ULL << 2)	/* tied 1 */

/* CAPS */
#define KH_CAPS_FLIT_WIDTH(c)	((unsigned int)((c) & 0xffff))
#define KH_CAPS_POS_WIDTH(c)	((unsigned int)(((c) >> 16) & 0xff))
#define KH_CAPS_GRID_LO(c)	((unsigned int)(((c) >> 24) & 0xff))
#define KH_CAPS_GRID_HI(c)	((unsigned int)(((c) >> 32) & 0xff))
/* project addon: bit 40 set when IRQ_STAT/IRQ_EN are live (irq-addon.md) */
#define KH_CAPS_IRQ_ADDON	(1ULL << 40)
#define KH_CAPS_SHIP		0x0000000201040120ULL	/* as shipped cards read */

/* PROG_STAT */
#define KH_PROG_STAT_RUN	(1ULL << 0)
#define KH_PROG_STAT_LEFT(s)	((unsigned int)(((s) >> 1) & 0xffff))
#define KH_PROG_STAT_CRED(s)	((unsigned int)(((s) >> 17) & 0xffff))

/* TX/RX status */
#define KH_TX_STATUS_FULL	(1ULL << 16)
#define KH_RX_STATUS_EMPTY	(1ULL << 16)
#define KH_RX_STATUS_OVERFLOW	(1ULL << 17)	/* sticky until reset */

/* NODE_STATUS word */
#define KH_NS_VALID		(1ULL << 0)
#define KH_NS_COUNT(v)		((unsigned int)(((v) >> 8) & 0xffff))
#define KH_NS_ARG(v)		((__u32)(((v) >> 24) & 0xffffffffULL))
#define KH_NS_CODE(v)		((unsigned int)(((v) >> 56) & 0xff))

/* IRQ_STAT / IRQ_EN bits of the interrupt addon (docs/spec/irq-addon.md) */
#define KH_IRQ_SIGNAL		(1ULL << 0)	/* a CU_SIGNAL was absorbed */
#define KH_IRQ_FAULT		(1ULL << 1)	/* ... and it was SIG_FAULT */
#define KH_IRQ_RX		(1ULL << 2)	/* a flit was pushed into RX */
#define KH_IRQ_PROG_DONE	(1ULL << 3)	/* dispatcher finished a kick */
#define KH_IRQ_RX_OVERFLOW	(1ULL << 4)	/* RX overflow latched */
#define KH_IRQ_ALL		0x1fULL

/* orchestrator build parameters (shipped and RTL defaults agree) */
#define KH_ORC_TX_DEPTH		16
#define KH_ORC_RX_DEPTH		16
#define KH_ORC_STAGE_FLITS	128
#define KH_ORC_NODE_ENTRIES	256

/* ---- AUX_STAT (mover + MAG counters) ---- */
#define KH_AUX_BUSY		(1ULL << 0)
#define KH_AUX_FAULT(v)		((unsigned int)(((v) >> 4) & 0xf))
#define KH_AUX_WR_COUNT(v)	((unsigned int)(((v) >> 8) & 0xffff))
#define KH_AUX_RD_COUNT(v)	((unsigned int)(((v) >> 24) & 0xffff))
#define KH_AUX_MOVES(v)		((unsigned int)(((v) >> 40) & 0xffffff))

/* ---- memory mover, AUX_CFG client offsets 0x00-0x7f ---- */
#define KH_MV_CMD		0x00	/* [2:0] mode [4:3] ew [15:8] flags [16] GO */
#define KH_MV_WALK_BASE		0x10	/* [0] walker [4+:40] base [46:44] ndims */
#define KH_MV_WALK_DIM		0x18	/* [0] walker [3:1] dim [19:4] count [51:20] stride */
#define KH_MV_AXIS		0x20	/* [1:0] axis [17:2] step */
#define KH_MV_AXIS_WIN		0x28	/* [0] walker [1] sel [17:2] base [33:18] extent */
#define KH_MV_INDEX		0x30	/* index-buffer base, [55:40] count */
#define KH_MV_SEED		0x38
#define KH_MV_IMM		0x40	/* [31:0] fill value / padding */
#define KH_MV_GATHER		0x50	/* [31:0] pitch [47:32] words */

#define KH_MV_MODE_COPY		0
#define KH_MV_MODE_TRANSPOSE	1	/* faults: not implemented in RTL */
#define KH_MV_MODE_GATHER	2
#define KH_MV_MODE_GENERATE	3
#define KH_MV_MODE_FILL		4
#define KH_MV_GO		(1ULL << 16)

#define KH_MV_FAULT_NONE	0
#define KH_MV_FAULT_INDEX_LEN	1
#define KH_MV_FAULT_RANGE	2
#define KH_MV_FAULT_AXI		3
#define KH_MV_FAULT_MODE	4
#define KH_MV_FAULT_EW		5
#define KH_MV_FAULT_ALIGN	6

/* ---- interlink, AUX_CFG client offsets 0x80-0xff ---- */
#define KH_IL_CTRL		0x80	/* [0] enable (reset 1) [1] clr bells [2] clr faults */
#define KH_IL_MESH_ID		0x88	/* [1:0] */
#define KH_IL_DOORBELL		0x90	/* [1:0] dst mesh [15:8] tag; rings */
#define KH_IL_CAPS_MAGIC	0x494c	/* 'IL' in AUX_STATW[0][15:0] */
#define KH_IL_FAULT_RD_REMOTE	(1u << 0)
#define KH_IL_FAULT_ACK0	(1u << 1)
#define KH_IL_FAULT_SWITCH	(1u << 2)
#define KH_IL_FAULT_AXI		(1u << 3)
#define KH_IL_FAULT_INJ		(1u << 4)
#define KH_IL_CTRL_ENABLE	(1ULL << 0)
#define KH_IL_CTRL_CLR_BELLS	(1ULL << 1)
#define KH_IL_CTRL_CLR_FAULTS	(1ULL << 2)
/* caps, AUX_STATW[0]: 'IL', [19:16] 2, [21:20] live mesh id, [27:24] 4, [31:28] 1 */
#define KH_IL_CAPS(id)		((__u64)KH_IL_CAPS_MAGIC | (2ULL << 16) | \
				 ((__u64)((id) & 3) << 20) | (4ULL << 24) | (1ULL << 28))
#define KH_IL_CAPS_MESH(c)	((unsigned int)(((c) >> 20) & 3))
/* AUX_STATW indices (mag_ilink.v; the doorbell words as the RTL has them) */
#define KH_IL_W_CAPS		0
#define KH_IL_W_FAULTS		1	/* [7:0] sticky KH_IL_FAULT_* */
#define KH_IL_W_BELLS(src)	(2 + (src))	/* per source mesh */
#define KH_IL_W_TX(link)	(6 + 2 * (link))	/* beats sent on link 0/1 */
#define KH_IL_W_RX(link)	(7 + 2 * (link))	/* beats received */
#define KH_IL_W_STALLS(link)	(10 + (link))	/* cycles waiting for credit */
#define KH_IL_W_FORWARDED	12	/* beats passed through (one per packet) */
#define KH_IL_W_CREDITS		13	/* [63:32] link 1, [31:0] link 0 */
#define KH_IL_W_BELLS_SENT	14
#define KH_IL_W_EG_BLOCKS	15	/* cycles the local egress head waited */
#define KH_IL_BELLS_COUNT(v)	((__u32)(v))		/* [31:0] */
#define KH_IL_BELLS_TAG(v)	((unsigned int)(((v) >> 32) & 0xff))	/* [47:32] = {0, tag} */
/* the chain as built (mag_switch.v CH_SEQ): positions 0..3 = meshes 0, 1, 3, 2 */
#define KH_IL_CH_SEQ		{ 0, 1, 3, 2 }

/* ---- clock wizard (PG065), 32-bit single-beat registers ---- */
#define KH_CLK_SW_RST		0x000
#define KH_CLK_STATUS		0x004	/* [0] locked */
#define KH_CLK_CFG0		0x200
#define KH_CLK_DIV(n)		(0x208 + 0x0c * (n))
#define KH_CLK_DUTY(n)		(0x210 + 0x0c * (n))
#define KH_CLK_LOAD		0x25c	/* write 0x3 */
#define KH_CLK_LOCKED		(1u << 0)
#define KH_CLK_PHASE(n)		(0x20c + 0x0c * (n))
#define KH_CLK_OUTPUTS		7	/* CLKOUT0..6 */
#define KH_CLK_SW_RST_KEY	0xa	/* SW_RST: write 0xA resets the MMCM */
#define KH_CLK_LOAD_SEN		(1u << 0)	/* LOAD: reconfigure */
#define KH_CLK_LOAD_SADDR	(1u << 1)	/* ... from the registers (else the built values) */
/* built configuration: VCO 1200 MHz (100 MHz in, D 4, M 48), 300/600/300/300 */
#define KH_CLK_CFG0_BUILT	0x00003004u	/* [15:8] CLKFBOUT_MULT 48, [7:0] DIVCLK 4 */
#define KH_CLK_DUTY_50		50000u		/* 50 %; duty reads 0 and rejects 0 */
/*
 * A mesh's outputs (kohakutpu.md 8.5): CLKOUT0 noc (routers, the units'
 * bases, the orchestrator), 1 mat2x (mat clusters; mat1x is mat2x / 2),
 * 2 vec, 3 mag (MAG, its memory ports); an output runs at
 * KH_CLK_VCO_MHZ / its divide.  CLKCFG0 [15:8] M, [7:0] D: VCO = 100 M / D.
 */
#define KH_CLK_OUT_NOC		0
#define KH_CLK_OUT_MAT2X	1
#define KH_CLK_OUT_VEC		2
#define KH_CLK_OUT_MAG		3
#define KH_CLK_MESH_OUTPUTS	4
#define KH_CLK_IN_MHZ		100
#define KH_CLK_VCO_MHZ		1200
#define KH_CLK_VCO_MIN_MHZ	600	/* the MMCM's VCO range (PG065), 600..1200 */
#define KH_CLK_VCO_MAX_MHZ	1200
#define KH_CLK_CFG0_MULT(v)	(((v) >> 8) & 0xff)
#define KH_CLK_CFG0_DIVCLK(v)	((v) & 0xff)
#define KH_CLK_DIV_VALUE(v)	((v) & 0xff)	/* integer divide; [25:16] fraction, unused */
/*
 * The board's profiles (noc / mat2x / vec / mag MHz): low 100/200/100/100,
 * mid 200/400/200/200, ship 300/600/300/300 (the built clocks).  Profile p
 * (0 low, 1 mid, 2 ship) divides the VCO by 12/(p+1) on noc, vec and mag
 * and by 6/(p+1) on mat2x.
 */
#define KH_CLK_PROFILES		3
#define KH_CLK_PROFILE_DIV(p, out) \
	((unsigned int)((out) == KH_CLK_OUT_MAT2X ? 6 : 12) / ((p) + 1))
#define KH_CLK_PROFILE_BUILT	2	/* ship: the clocks the bitstream is built for */
#define KH_CLK_BUILT_DIV(out)	KH_CLK_PROFILE_DIV(KH_CLK_PROFILE_BUILT, out)
#define KH_CLK_BUILT_MHZ(out)	(KH_CLK_VCO_MHZ / KH_CLK_BUILT_DIV(out))
/* model timing (docs/model.md): lock time, reset release, FIFO recovery */
#define KH_CLK_LOCK_CYCLES	30000	/* 100 us at 300 MHz: MMCM lock time */
#define KH_RST_RELEASE_CYCLES	16	/* proc_sys_reset after dcm_locked */
#define KH_RST_RECOVERY_CYCLES	8	/* XPM FIFO wr_rst_busy after release */

/* ---- DDR controller window (MIG-style control/ECC, 32-bit registers) ---- */
#define KH_DDRC_ECC_STATUS	0x000	/* W1C [1] CE [0] UE; the model never sets them */
#define KH_DDRC_ECC_EN_IRQ	0x004	/* RW [1] CE [0] UE interrupt enables */
#define KH_DDRC_ECC_ONOFF	0x008	/* RW [0] ECC on (reset 1) */
#define KH_DDRC_CE_CNT		0x00c	/* RW [7:0] correctable error count */
#define KH_DDRC_CE_FFD(i)	(0x100 + 4 * (i))	/* RO first-failing data, 0 */
#define KH_DDRC_CE_FFE		0x180	/* RO first-failing ECC, 0 */
#define KH_DDRC_CE_FFA(i)	(0x1c0 + 4 * (i))	/* RO first-failing address, 0 */
#define KH_DDRC_UE_FFD(i)	(0x200 + 4 * (i))
#define KH_DDRC_UE_FFE		0x280
#define KH_DDRC_UE_FFA(i)	(0x2c0 + 4 * (i))
#define KH_DDRC_FI_D(i)		(0x300 + 4 * (i))	/* W fault-injection data, ignored */
#define KH_DDRC_FI_ECC		0x380	/* W fault-injection ECC, ignored */
#define KH_DDRC_ECC_CE		(1u << 1)
#define KH_DDRC_ECC_UE		(1u << 0)

#endif /* _UAPI_KOHAKU_KH_REGS_H */

// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The DDR controller window of one mesh: a small MIG-style control/ECC
 * register set (kh_regs.h KH_DDRC_*), a register table (lib/regs.h).  The
 * model's DRAM has no ECC errors, so the status and first-failing
 * registers read 0 and fault injection does nothing; the enables and the
 * counter are stored.  Unknown offsets read 0 and ignore writes.
 */
#include "clkwiz.h"

#define KSIM_DDRC(field)	KSIM_REG_FIELD(struct ksim_ddrc, field)

/*
 * R(c, name, offset, registers, the rest of its struct ksim_reg).
 * ECC_STATUS is W1C of bits nothing sets; the first-failing words are
 * runs up to the next register (all read 0, whatever their number), as
 * are the fault-injection words, which take writes and keep nothing.
 */
#define KSIM_DDRC_REGS(R, c)						\
	R(c, ECC_STATUS, KH_DDRC_ECC_STATUS, 1, .w1c = KSIM_REG_ALL)	\
	R(c, ECC_EN_IRQ, KH_DDRC_ECC_EN_IRQ, 1, KSIM_DDRC(ecc_en_irq),	\
	  .ro = ~(u64)(KH_DDRC_ECC_CE | KH_DDRC_ECC_UE))		\
	R(c, ECC_ONOFF, KH_DDRC_ECC_ONOFF, 1, KSIM_DDRC(ecc_onoff),	\
	  .reset = 1, .ro = ~1ULL)					\
	R(c, CE_CNT, KH_DDRC_CE_CNT, 1, KSIM_DDRC(ce_cnt), .ro = ~0xffULL) \
	R(c, CE_FFD, KH_DDRC_CE_FFD(0),					\
	  (KH_DDRC_CE_FFE - KH_DDRC_CE_FFD(0)) / 4, .ro = KSIM_REG_ALL)	\
	R(c, CE_FFE, KH_DDRC_CE_FFE, 1, .ro = KSIM_REG_ALL)		\
	R(c, CE_FFA, KH_DDRC_CE_FFA(0),					\
	  (KH_DDRC_UE_FFD(0) - KH_DDRC_CE_FFA(0)) / 4, .ro = KSIM_REG_ALL) \
	R(c, UE_FFD, KH_DDRC_UE_FFD(0),					\
	  (KH_DDRC_UE_FFE - KH_DDRC_UE_FFD(0)) / 4, .ro = KSIM_REG_ALL)	\
	R(c, UE_FFE, KH_DDRC_UE_FFE, 1, .ro = KSIM_REG_ALL)		\
	R(c, UE_FFA, KH_DDRC_UE_FFA(0),					\
	  (KH_DDRC_FI_D(0) - KH_DDRC_UE_FFA(0)) / 4, .ro = KSIM_REG_ALL) \
	R(c, FI_D, KH_DDRC_FI_D(0), (KH_DDRC_FI_ECC - KH_DDRC_FI_D(0)) / 4) \
	R(c, FI_ECC, KH_DDRC_FI_ECC, 1)

KSIM_REGS(ksim_ddrc_regs, 4, KSIM_DDRC_REGS);

const struct ksim_regs ksim_ddrc_regs = {
	.name = "ddrc", KSIM_REGS_INIT(ksim_ddrc_regs),
};

void ksim_ddrc_init(struct ksim_ddrc *d)
{
	memset(d, 0, sizeof(*d));
	ksim_regs_reset(&ksim_ddrc_regs, d);	/* ECC on out of reset */
}

u32 ksim_ddrc_read(struct ksim_ddrc *d, u32 off)
{
	return (u32)ksim_reg_read(&ksim_ddrc_regs, d, off);
}

void ksim_ddrc_write(struct ksim_ddrc *d, u32 off, u32 v)
{
	ksim_reg_write(&ksim_ddrc_regs, d, off, v);
}

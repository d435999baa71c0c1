// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The DDR controller window of one mesh: a small MIG-style control/ECC
 * register set (kh_regs.h KSIM_DDRC_*).  The model's DRAM has no ECC
 * errors, so the status and first-failing registers read 0 and fault
 * injection does nothing; the enables and the counter are stored.
 * Unknown offsets read 0 and ignore writes.
 */
#include "clkwiz.h"

void ksim_ddrc_init(struct ksim_ddrc *d)
{
	memset(d, 0, sizeof(*d));
	d->ecc_onoff = 1;	/* ECC on out of reset */
}

u32 ksim_ddrc_read(const struct ksim_ddrc *d, u32 off)
{
	switch (off) {
	case KH_DDRC_ECC_EN_IRQ:
		return d->ecc_en_irq;
	case KH_DDRC_ECC_ONOFF:
		return d->ecc_onoff;
	case KH_DDRC_CE_CNT:
		return d->ce_cnt;
	default:
		/* ECC_STATUS, the first-failing and fault-injection words */
		return 0;
	}
}

void ksim_ddrc_write(struct ksim_ddrc *d, u32 off, u32 v)
{
	switch (off) {
	case KH_DDRC_ECC_EN_IRQ:
		d->ecc_en_irq = v & (KH_DDRC_ECC_CE | KH_DDRC_ECC_UE);
		break;
	case KH_DDRC_ECC_ONOFF:
		d->ecc_onoff = v & 1;
		break;
	case KH_DDRC_CE_CNT:
		d->ce_cnt = v & 0xff;
		break;
	default:
		break;	/* ECC_STATUS W1C of nothing, FI_* ignored */
	}
}

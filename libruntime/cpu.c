// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Builders for the cpu unit, KohakuAccel's rv_pe (docs/spec/cpu.md): the
 * kick (CU_INST, the KH_CPU_INST_* fields of uapi/kohaku/kh_cpu.h), the
 * device-memory address a program uses, and a program image and its
 * arguments as a job's data.  The RV32I encoders and assembler are
 * rv_asm.c's (kohaku-asm.h, libkohaku-asm.a), not libkohaku's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rt_internal.h"
#include "kohaku/kh_flit.h"
#include "kohaku/kh_cpu.h"

#define WINDOW_BYTES	(KH_CPU_IMEM_WORDS * 4u)


/* ---- the kick ---- */

KH_RT_EXPORT int kohaku_inst_cpu(struct kohaku_inst *inst, unsigned int op,
				 uint32_t pc, uint32_t arg)
{
	struct kh_flit f;
	unsigned int k;

	if (!inst || op > 0xff)
		return -EINVAL;
	memset(&f, 0, sizeof(f));
	kh_flit_set(&f, KH_CPU_INST_OP, op);
	kh_flit_set(&f, KH_CPU_INST_PC, pc);
	kh_flit_set(&f, KH_CPU_INST_ARG, arg);
	for (k = 0; k < 4; k++)
		inst->w[k] = f.w[k];
	return 0;
}

KH_RT_EXPORT int kohaku_inst_cpu_kick(struct kohaku_inst *inst, uint32_t pc,
				      uint32_t arg)
{
	/* fetch reads word (pc >> 2) mod 2048 and never faults (cpu.md
	 * "Fetch"): a pc the window does not hold would run something else */
	if (pc % 4 || pc >= WINDOW_BYTES)
		return -EINVAL;
	return kohaku_inst_cpu(inst, KH_CPU_OP_KICK, pc, arg);
}

/* ---- addresses and data ---- */

KH_RT_EXPORT int kohaku_cpu_dram_addr(unsigned int mesh, uint64_t dev_addr,
				      uint64_t size, uint32_t *addr)
{
	uint64_t local = dev_addr & KH_MADDR_LOCAL_MASK;

	if (!addr || (dev_addr & KH_MADDR_SPECIAL) ||
	    dev_addr >> (KH_MADDR_MESH_SHIFT + 2))
		return -EINVAL;
	/* DRAM_BASE 0: the unit's requests name mesh 0 and land in the DRAM
	 * of its own MAG port, so another mesh's BO is out of its reach */
	if (((dev_addr >> KH_MADDR_MESH_SHIFT) & KH_MADDR_MESH_MASK) != mesh)
		return -EXDEV;
	if (local > KH_CPU_DRAM_MASK ||
	    size > (uint64_t)KH_CPU_DRAM_MASK + 1 - local)
		return -ERANGE;
	*addr = KH_CPU_DRAM_BASE | ((uint32_t)local & KH_CPU_DRAM_MASK);
	return 0;
}

KH_RT_EXPORT int kohaku_cpu_data(struct kohaku_data *d, unsigned int buf_id,
				 unsigned int granule, const uint32_t *words,
				 unsigned int n_words)
{
	unsigned int n_gran = n_words / KH_CPU_GRANULE_WORDS;

	if (!d || !words || (buf_id != KH_CPU_BUF_IMEM &&
			     buf_id != KH_CPU_BUF_SPAD))
		return -EINVAL;
	if (!n_words || n_words % KH_CPU_GRANULE_WORDS ||
	    granule >= KH_CPU_WINDOW_GRANULES ||
	    n_gran > KH_CPU_WINDOW_GRANULES - granule)
		return -EINVAL;
	/* the driver's: its L1 flush stub (SUBMIT refuses it, EINVAL) */
	if (buf_id == KH_CPU_BUF_IMEM &&
	    granule + n_gran > KH_CPU_STUB_GRANULE)
		return -EINVAL;
	memset(d, 0, sizeof(*d));
	d->buf_id = (uint8_t)buf_id;
	d->offset = granule;
	d->data = words;
	d->size = n_words * 4u;
	return 0;
}

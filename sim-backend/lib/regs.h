/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Register files as tables, after QEMU's RegisterAccessInfo (the idea of
 * include/hw/register.h, not its code): one struct ksim_reg per register,
 * or per run of like registers, with its name, offset, reset value, access
 * masks and hooks, and one helper that decodes an offset and applies the
 * masks.  So a rule such as write-1-to-clear is written once, here, and a
 * device's file holds its table plus hooks only for what a mask cannot
 * say; the names serve traces, and tests/model/model_regs.c checks every
 * table against the uapi offsets.  Nothing here knows the model: a device
 * is a `void *` that its own hooks cast back.
 */
#ifndef KSIM_REGS_H
#define KSIM_REGS_H

#include "ksim_plat.h"

/* every bit: a register the host cannot write, or that a read clears */
#define KSIM_REG_ALL	(~0ULL)

/*
 * The storage of a register: the field of the device struct it lives in.
 * A run of registers (n > 1) lives in an array field, element i in [i].
 */
#define KSIM_REG_FIELD(type, field) \
	.data = offsetof(type, field), .size = sizeof(((type *)0)->field)
#define KSIM_REG_ARRAY(type, field) \
	.data = offsetof(type, field), .size = sizeof(((type *)0)->field[0])
/* a run over the whole of an array field, one register an element */
#define KSIM_REG_RUN(type, field) \
	KSIM_REG_ARRAY(type, field), \
	.n = sizeof(((type *)0)->field) / sizeof(((type *)0)->field[0])

/**
 * struct ksim_reg - one register, or a run of n like ones
 * @name: as its uapi constant has it, without the prefix (KH_ORC_PROG_KICK:
 *	"PROG_KICK"); traces print it.
 * @off: the byte offset of the (first) register in its file.
 * @n: registers in the run, one each table width apart; 0 or 1: one.
 * @data: where it is stored: the byte offset of its field in the device
 *	(KSIM_REG_FIELD/KSIM_REG_ARRAY).  Registers sharing a field are
 *	aliases of one another (a W1S and a W1C alias of a control register).
 * @size: the field's bytes (1, 2, 4 or 8); 0: the register is not stored,
 *	it reads @reset (or what @read says) and a write only runs the hooks.
 *	A write stores the value truncated to the field, as a narrower
 *	flip-flop keeps only its bits.
 * @lsb: the register's bit 0 in its field: a 32-bit register that is one
 *	half of a 64-bit field has 0 or 32.
 * @keep: ksim_regs_reset() leaves it alone (RAM with no reset clause).
 * @reset: its value out of reset (ksim_regs_reset()).
 * @ro: bits a write leaves as they are; reserved bits, 0 out of reset,
 *	thus read 0 for good.
 * @w1c: bits a write of 1 clears and a write of 0 leaves.
 * @w1s: bits a write of 1 sets and a write of 0 leaves.
 * @rc: bits a read clears (after it returns them).
 * @read: what a read returns, in place of the stored value (a status the
 *	device computes); NULL: the stored value, or @reset if not stored.
 * @pre_write: given the stored value and the one the masks make of a
 *	write, returns what to store: a rule no mask can say.
 * @post_write: after a write is stored, with the value before and the
 *	value stored (what a read now returns); also after a read that
 *	cleared bits (@rc).  The device acts on the change here.
 *
 * @ro, @w1c and @w1s are disjoint; the other bits take what is written.
 * The hooks get the device and i, the register's index in its run.
 */
struct ksim_reg {
	const char *name;
	u32 off;
	u16 n;
	u8 size;
	u8 lsb;
	u32 data;
	bool keep;
	u64 reset, ro, w1c, w1s, rc;
	u64 (*read)(void *dev, unsigned int i);
	u64 (*pre_write)(void *dev, unsigned int i, u64 old, u64 v);
	void (*post_write)(void *dev, unsigned int i, u64 old, u64 v);
};

/**
 * struct ksim_regs - a register file
 * @name: for traces.
 * @reg: its registers, sorted by offset, none overlapping another (the
 *	lookup is a binary search).
 * @n: how many.
 * @width: register bytes, 4 or 8: registers sit at multiples of it, and
 *	an offset that is not one decodes nothing.
 * @miss_read: a read no register decodes; NULL: it reads 0.
 * @miss_write: a write no register decodes; NULL: it is ignored.
 */
struct ksim_regs {
	const char *name;
	const struct ksim_reg *reg;
	unsigned int n;
	u8 width;
	u64 (*miss_read)(void *dev, u32 off);
	void (*miss_write)(void *dev, u32 off, u64 v);
};

/* A read of the register at off in file t of device dev. */
u64 ksim_reg_read(const struct ksim_regs *t, void *dev, u32 off);
/* A write of v to the register at off. */
void ksim_reg_write(const struct ksim_regs *t, void *dev, u32 off, u64 v);
/* Every stored register (but @keep ones) to its reset value; no hooks. */
void ksim_regs_reset(const struct ksim_regs *t, void *dev);
/* The register at off, and *i its index in its run; NULL: none. */
const struct ksim_reg *ksim_reg_at(const struct ksim_regs *t, u32 off,
				   unsigned int *i);
/*
 * Its name for a trace, "NAME" or "NAME[i]" for a run, into buf as
 * snprintf does; -ENOENT, buf untouched, when no register is at off.
 */
int ksim_reg_name(const struct ksim_regs *t, u32 off, char *buf, size_t len);

#endif /* KSIM_REGS_H */

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
 * A run of n registers lives in an array field of at least n elements,
 * element i in [i] (a shorter field fails to compile).
 */
#define KSIM_REG_FIELD(type, field) \
	.data = offsetof(type, field), .size = sizeof(((type *)0)->field)
#define KSIM_REG_ARRAY(type, field, n)					\
	.data = offsetof(type, field),					\
	.size = sizeof(((type *)0)->field[0]) +				\
		0 * sizeof(char[(n) <= sizeof(((type *)0)->field) /	\
				sizeof(((type *)0)->field[0]) ? 1 : -1])

/*
 * Defining a table.  A register file is a list macro, LIST(R, c), calling
 * R(c, NAME, offset, n, ...) once for each register (n = 1) or run of n
 * registers, the rest of the call being the rest of its struct ksim_reg
 * (storage, reset, masks, hooks).  KSIM_REGS(sym, width, LIST) defines
 * from that one list the table and its decode index: a byte per register
 * slot (offset / width) up to the last register, 1 + the table position
 * of the register on it, 0 for none.  The compiler builds the index, so a
 * register is found in one step with nothing to build or search at run
 * time, and two registers on one slot are two initializers of one byte
 * (-Woverride-init).  A table's positions are the offsets of its members
 * in a struct of one char per register, so each table has its own names.
 * KSIM_REGS_INIT(sym) then fills struct ksim_regs sym's table fields.
 */
#define KSIM_REG_ENTRY(c, name_, off_, n_, ...) \
	{ .name = #name_, .off = (off_), .n = (n_), __VA_ARGS__ },
#define KSIM_REG_POS(c, name_, off_, n_, ...)	char r_##name_;
#define KSIM_REG_SLOTS(c, name_, off_, n_, ...)				\
	[(off_) / c##_width ... (off_) / c##_width + (n_) - 1] =	\
		offsetof(struct c##_pos, r_##name_) + 1,

#define KSIM_REGS(sym, width_, LIST)					\
	enum { sym##_width = (width_) };				\
	struct sym##_pos { LIST(KSIM_REG_POS, sym) };			\
	static const struct ksim_reg sym##_reg[] = {			\
		LIST(KSIM_REG_ENTRY, sym)				\
	};								\
	static const u8 sym##_slot[] = { LIST(KSIM_REG_SLOTS, sym) }
#define KSIM_REGS_INIT(sym)						\
	.reg = sym##_reg, .n = sizeof(sym##_reg) / sizeof(sym##_reg[0]), \
	.width = sym##_width, .slot = sym##_slot,			\
	.n_slots = sizeof(sym##_slot)

/**
 * struct ksim_reg - one register, or a run of n like ones
 * @name: as its uapi constant has it, without the prefix (KH_ORC_PROG_KICK:
 *	PROG_KICK); traces print it.
 * @off: the byte offset of the (first) register in its file.
 * @n: registers in the run, one each table width apart; 1: one.
 * @data: where it is stored: the byte offset of its field in the device
 *	(KSIM_REG_FIELD, KSIM_REG_ARRAY).  Registers sharing a field are
 *	aliases of one another (a W1S and a W1C alias of a control register).
 * @size: the field's bytes (1, 2, 4 or 8); 0: the register is not stored,
 *	it reads @reset (or what @read says) and a write only runs the hooks.
 *	A write stores the value truncated to the field, as a narrower
 *	flip-flop keeps only its bits.
 * @lsb: the register's bit 0 in its field: a 32-bit register that is one
 *	half of a 64-bit field has 0 or 32.
 * @span: decoded by range: a beat narrower than the table's width at any
 *	offset inside the register reaches it (an RTL decode by >= and <, or
 *	one that drops the address bits below the width).  Without it the
 *	register answers at its own offset only (an RTL case on the whole
 *	address): a narrow beat inside it decodes nothing.  Only the beat
 *	accessors look at it (ksim_reg_read_beat(), ksim_reg_write_beat()).
 * @strobes: a write honours the beat's byte enables: only the enabled
 *	bytes change.  Without it the register takes the whole bus word
 *	whatever the enables say, as an RTL `reg <= wdata` does.
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
	bool span;
	bool strobes;
	bool keep;
	u64 reset, ro, w1c, w1s, rc;
	u64 (*read)(void *dev, unsigned int i);
	u64 (*pre_write)(void *dev, unsigned int i, u64 old, u64 v);
	void (*post_write)(void *dev, unsigned int i, u64 old, u64 v);
};

/**
 * struct ksim_regs - a register file (KSIM_REGS, KSIM_REGS_INIT)
 * @name: for traces.
 * @reg: its registers, in the order of their offsets, none overlapping.
 * @n: how many.
 * @width: register bytes, 4 or 8: registers sit at multiples of it, and
 *	an offset that is not one decodes nothing.
 * @slot: the decode index: for the register slot offset / @width, 1 + the
 *	position in @reg of the register on it; 0: none.
 * @n_slots: its length; offsets past it decode nothing.
 * @span: every register is decoded by range (struct ksim_reg @span): the
 *	file's decoder drops the address bits below the width.
 * @miss_read: a read no register decodes; NULL: it reads 0.
 * @miss_write: a write no register decodes; NULL: it is ignored.
 */
struct ksim_regs {
	const char *name;
	const struct ksim_reg *reg;
	unsigned int n;
	u8 width;
	const u8 *slot;
	u32 n_slots;
	bool span;
	u64 (*miss_read)(void *dev, u32 off);
	void (*miss_write)(void *dev, u32 off, u64 v);
};

/*
 * The access path: the decode of an offset to a register and its index in
 * its run (one look at the table's index), the register's storage in its
 * device's field, and the access rules, in this order on a write: the
 * masks (read-only, write-1-to-clear, write-1-to-set), the pre-write hook,
 * the store, the post-write hook; on a read: the value, then the
 * clear-on-read bits.  The rules are written here and nowhere else, so no
 * device has one subtly different from another.  Inline: every host
 * access of the card runs it, and with the table known at the call it
 * costs about what the switch statements it replaces did.
 */

/* The register at off, and *i its index in its run; NULL: none. */
static inline const struct ksim_reg *ksim_reg_at(const struct ksim_regs *t,
						 u32 off, unsigned int *i)
{
	u32 shift = t->width == 8 ? 3 : 2, s = off >> shift;
	const struct ksim_reg *r;

	if ((off & (t->width - 1)) || s >= t->n_slots || !t->slot[s])
		return NULL;	/* inside a register, in a hole, past the end */
	r = &t->reg[t->slot[s] - 1];
	*i = s - (r->off >> shift);
	return r;
}

/* The register's value as stored, lsb-aligned and cut to the width. */
static inline u64 ksim_reg_load(const struct ksim_regs *t,
				const struct ksim_reg *r, const void *dev,
				unsigned int i)
{
	const u8 *p = (const u8 *)dev + r->data + (size_t)i * r->size;
	u64 v;

	switch (r->size) {
	case 1:
		v = *p;
		break;
	case 2:
		v = *(const u16 *)p;
		break;
	case 4:
		v = *(const u32 *)p;
		break;
	case 8:
		v = *(const u64 *)p;
		break;
	default:
		return r->reset;	/* not stored */
	}
	v >>= r->lsb;
	return t->width == 8 ? v : (u32)v;
}

/* Store v into the register's bits of its field; returns what reads back. */
static inline u64 ksim_reg_store(const struct ksim_regs *t,
				 const struct ksim_reg *r, void *dev,
				 unsigned int i, u64 v)
{
	u8 *p = (u8 *)dev + r->data + (size_t)i * r->size;
	u64 m = t->width == 8 ? KSIM_REG_ALL : 0xffffffffULL;

	switch (r->size) {
	case 1:
		*p = (u8)v;
		return (u8)v;
	case 2:
		*(u16 *)p = (u16)v;
		return (u16)v;
	case 4:
		*(u32 *)p = (u32)v;
		return (u32)v;
	case 8:
		/* the other half of a field two 32-bit registers share */
		*(u64 *)p = (*(u64 *)p & ~(m << r->lsb)) | ((v & m) << r->lsb);
		return v & m;
	default:
		return v;	/* not stored: the hooks see the value */
	}
}

/*
 * The register a bus beat at off reaches, and *i its index in its run: the
 * one at off, or, for a beat inside a register (off not a multiple of the
 * width, a narrow access), the register around it if it is decoded by
 * range (@span); NULL: none.
 */
static inline const struct ksim_reg *ksim_reg_at_beat(const struct ksim_regs *t,
						      u32 off, unsigned int *i)
{
	const struct ksim_reg *r = ksim_reg_at(t, off & ~(u32)(t->width - 1), i);

	if (r && (off & (t->width - 1)) && !r->span && !t->span)
		return NULL;	/* a case on the whole address: no match */
	return r;
}

/* A read of register r, run index i: the value, then the clear-on-read. */
static inline u64 ksim_reg_read_r(const struct ksim_regs *t,
				  const struct ksim_reg *r, void *dev,
				  unsigned int i)
{
	u64 v, old;

	if (r->read && !r->rc)
		return r->read(dev, i);
	old = ksim_reg_load(t, r, dev, i);
	v = r->read ? r->read(dev, i) : old;
	if (r->size && (r->rc & old)) {
		u64 now = ksim_reg_store(t, r, dev, i, old & ~r->rc);

		if (r->post_write)
			r->post_write(dev, i, old, now);
	}
	return v;
}

/* A read of the register at off in file t of device dev. */
static inline u64 ksim_reg_read(const struct ksim_regs *t, void *dev, u32 off)
{
	const struct ksim_reg *r;
	unsigned int i;

	r = ksim_reg_at(t, off, &i);
	if (!r)
		return t->miss_read ? t->miss_read(dev, off) : 0;
	return ksim_reg_read_r(t, r, dev, i);
}

/*
 * A write of v to register r, run index i, its old value already loaded:
 * the masks, the pre-write hook, the store, the post-write hook.
 */
static inline void ksim_reg_write_r(const struct ksim_regs *t,
				    const struct ksim_reg *r, void *dev,
				    unsigned int i, u64 old, u64 v)
{
	u64 now;

	now = (v & ~(r->ro | r->w1c | r->w1s)) | (old & r->ro) |
	      (old & r->w1c & ~v) | ((old | v) & r->w1s);
	if (r->pre_write)
		now = r->pre_write(dev, i, old, now);
	now = ksim_reg_store(t, r, dev, i, now);
	if (r->post_write)
		r->post_write(dev, i, old, now);
}

/* A write of v to the register at off. */
static inline void ksim_reg_write(const struct ksim_regs *t, void *dev,
				  u32 off, u64 v)
{
	const struct ksim_reg *r;
	unsigned int i;

	r = ksim_reg_at(t, off, &i);
	if (!r) {
		if (t->miss_write)
			t->miss_write(dev, off, v);
		return;
	}
	ksim_reg_write_r(t, r, dev, i, ksim_reg_load(t, r, dev, i), v);
}

/*
 * Bus beats, for a file reached through a bus narrower than its registers
 * (the orchestrator's 64-bit file behind the host's 32-bit path): a beat
 * has an address (a multiple of 4, maybe inside a register), the whole bus
 * word as the bus drives it, and byte enables.  Which register it reaches
 * is @span's to say, what it stores @strobes'.  A beat at a register's
 * own offset with every byte enabled is a plain access.
 */
#define KSIM_REG_STRB_ALL	0xffu	/* every byte of a 64-bit word */

/* The whole register a read beat at off reaches; 0 when none. */
static inline u64 ksim_reg_read_beat(const struct ksim_regs *t, void *dev,
				     u32 off)
{
	const struct ksim_reg *r;
	unsigned int i;

	r = ksim_reg_at_beat(t, off, &i);
	if (!r)
		return t->miss_read ? t->miss_read(dev, off) : 0;
	return ksim_reg_read_r(t, r, dev, i);
}

/* A write beat at off: the bus word v, byte b enabled when strb bit b is. */
static inline void ksim_reg_write_beat(const struct ksim_regs *t, void *dev,
				       u32 off, u64 v, u8 strb)
{
	const struct ksim_reg *r;
	unsigned int i, b;
	u64 old, hold = 0;

	r = ksim_reg_at_beat(t, off, &i);
	if (!r) {
		if (t->miss_write)
			t->miss_write(dev, off, v);
		return;
	}
	old = ksim_reg_load(t, r, dev, i);
	if (r->strobes) {
		for (b = 0; b < t->width; b++)
			if (!(strb & (1u << b)))
				hold |= 0xffULL << (b * 8);
		v = (v & ~hold) | (old & hold);
	}
	ksim_reg_write_r(t, r, dev, i, old, v);
}

/* Every stored register (but @keep ones) to its reset value; no hooks. */
void ksim_regs_reset(const struct ksim_regs *t, void *dev);
/*
 * Its name for a trace, "NAME" or "NAME[i]" for a run, into buf as
 * snprintf does; -ENOENT, buf untouched, when no register is at off.
 */
int ksim_reg_name(const struct ksim_regs *t, u32 off, char *buf, size_t len);

#endif /* KSIM_REGS_H */

/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * MAG's converged path as its children reach it (the memory mover,
 * mesh/mover.c; the interlink, mesh/ilink.c): an ops table MAG gives each
 * one when it builds it (mesh/mag.c implements it), so a child never
 * calls its parent by name.
 *
 *   decode        a 40-bit address to a target (KSIM_CV_* below) and an
 *                 offset in it
 *   size          a target's size in bytes
 *   read, write   one 32-byte word at a decoded offset: false past the
 *                 DRAM end (read as zeros, a write dropped)
 *   mesh_id       this mesh's id as MAG compares it (the interlink's live
 *                 id, if any)
 *   remote_alias  [37:36] of addr naming another mesh: counted in *count,
 *                 and the interlink's RD_REMOTE fault
 *   inject        load a flit into the output register of the MAG port on
 *                 its dst row: false when that register is full
 */
#ifndef KSIM_CV_H
#define KSIM_CV_H

#include "ksim_plat.h"
#include <kohaku/kh_flit.h>

/* the targets of the converged path */
#define KSIM_CV_DRAM	0
#define KSIM_CV_L2	1
#define KSIM_CV_NONE	2

struct ksim_cv_ops {
	unsigned int (*decode)(void *ctx, u64 addr, u64 *off);
	u64 (*size)(void *ctx, unsigned int tgt);
	bool (*read)(void *ctx, unsigned int tgt, u64 off, u8 *buf);
	bool (*write)(void *ctx, unsigned int tgt, u64 off, const u8 *buf);
	unsigned int (*mesh_id)(void *ctx);
	void (*remote_alias)(void *ctx, u64 addr, u64 *count);
	bool (*inject)(void *ctx, const struct kh_flit *f);
};

struct ksim_cv {
	const struct ksim_cv_ops *ops;
	void *ctx;			/* MAG */
};

static inline unsigned int ksim_cv_decode(const struct ksim_cv *cv, u64 addr,
					  u64 *off)
{
	return cv->ops->decode(cv->ctx, addr, off);
}

static inline u64 ksim_cv_size(const struct ksim_cv *cv, unsigned int tgt)
{
	return cv->ops->size(cv->ctx, tgt);
}

static inline bool ksim_cv_read(const struct ksim_cv *cv, unsigned int tgt,
				u64 off, u8 *buf)
{
	return cv->ops->read(cv->ctx, tgt, off, buf);
}

static inline bool ksim_cv_write(const struct ksim_cv *cv, unsigned int tgt,
				 u64 off, const u8 *buf)
{
	return cv->ops->write(cv->ctx, tgt, off, buf);
}

static inline unsigned int ksim_cv_mesh_id(const struct ksim_cv *cv)
{
	return cv->ops->mesh_id(cv->ctx);
}

static inline void ksim_cv_remote_alias(const struct ksim_cv *cv, u64 addr,
					u64 *count)
{
	cv->ops->remote_alias(cv->ctx, addr, count);
}

static inline bool ksim_cv_inject(const struct ksim_cv *cv,
				  const struct kh_flit *f)
{
	return cv->ops->inject(cv->ctx, f);
}

#endif /* KSIM_CV_H */

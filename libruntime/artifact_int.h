/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A parsed compiler artifact (artifact.c), as artifact_run.c checks and
 * runs it (docs/spec/artifact.md).
 */
#ifndef KOHAKU_RT_ARTIFACT_H
#define KOHAKU_RT_ARTIFACT_H

#include "rt_internal.h"

/* an artifact holds at most this many payloads, and this many steps */
#define KH_ART_MAX_FLITS	(1u << 20)
#define KH_ART_MAX_STEPS	(1u << 20)

enum kh_rt_art_kind {
	KH_ART_SEED,
	KH_ART_KICK,
	KH_ART_AWAIT,
	KH_ART_BARRIER,
};

struct kh_rt_art_step {
	enum kh_rt_art_kind kind;
	/* seed: n; kick: x, y, base, nflits; await: x, y, count */
	uint32_t a[4];
};

struct kohaku_artifact {
	char *machine;
	uint32_t n_flits;
	struct kohaku_inst *flits;
	/* a flit's txn from the header it came with (KohakuTPU's vector emitter), else -1 */
	int16_t *flit_txn;
	uint32_t n_steps;
	struct kh_rt_art_step *steps;
	uint32_t n_rounds;
	uint32_t n_kicks;
	/* meta.unit: the cu_type every kicked node must have */
	bool has_unit;
	uint16_t unit;
};

/* "kick", "seed", ... */
KH_RT_HIDDEN const char *kh_rt_art_kind_name(enum kh_rt_art_kind k);
/* "step 7 (kick 1,2)" */
KH_RT_HIDDEN void kh_rt_art_step_name(const struct kohaku_artifact *a, uint32_t i,
				   char *buf, size_t len);

#endif /* KOHAKU_RT_ARTIFACT_H */

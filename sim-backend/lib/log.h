/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The model's diagnostics: a log handle with a budget.  A card owns one
 * (card/card.c, KSIM_LOG_BUDGET lines) and hands a pointer to it to every
 * part it builds that may log (a mesh and what the mesh builds, the XDMA
 * engine), so a part asks its handle, not its card, whether it may still
 * log: a model stuck in a loop that logs every cycle writes its budget and
 * then one line saying the rest is suppressed.
 */
#ifndef KSIM_LOG_H
#define KSIM_LOG_H

#include "ksim_plat.h"

struct ksim_log {
	u32 left;		/* lines still allowed */
};

static inline void ksim_log_init(struct ksim_log *log, u32 budget)
{
	log->left = budget;
}

/* May one more line be logged?  The last allowed one says so. */
static inline bool ksim_log_ok(struct ksim_log *log)
{
	if (!log->left)
		return false;
	if (--log->left == 0)
		ksim_plat_log("further model diagnostics suppressed\n");
	return true;
}

/*
 * A line about mesh m: m is anything with the mesh's log handle and its
 * index, `log` and `id` (a mesh, mesh/mesh.h; what a mesh gives its units,
 * units/base.h).
 */
#define ksim_mesh_log(m, fmt, ...)					\
	do {								\
		if (ksim_log_ok((m)->log))				\
			ksim_plat_log("mesh%u: " fmt "\n", (m)->id,	\
				    ##__VA_ARGS__);			\
	} while (0)

#endif /* KSIM_LOG_H */

// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The userspace half of the platform shim: model diagnostics go to stderr,
 * and only when KOHAKU_SIM_LOG is set in the environment.  (The kernel
 * build maps ksim_plat_log to pr_info in ksim_plat.h.)
 */
#include <stdarg.h>
#include "ksim_plat.h"

void ksim_plat_log(const char *fmt, ...)
{
	va_list ap;

	/* asked each time: no state to keep, and diagnostics are rare */
	if (!getenv("KOHAKU_SIM_LOG"))
		return;
	fputs("kohaku_sim: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku.ko: the tracepoints of driver/core/kh_tracepoints.h, made here once;
 * the core calls trace_kohaku_*() itself (events/kohaku/ in tracefs).
 */
#include "kohaku_compat.h"

#define CREATE_TRACE_POINTS
#include "kh_tracepoints.h"

/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <trace/define_trace.h> for userspace builds of driver/core: nothing to
 * define (<linux/tracepoint.h> here makes every event an empty inline).
 */

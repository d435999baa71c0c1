/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/tracepoint.h> for userspace builds of driver/core: no tracing
 * in-process.  A trace header's events (TRACE_EVENT(), DEFINE_EVENT(), ...)
 * each become an empty static inline trace_<event>() of the event's
 * prototype, which the compiler checks and drops; the rest of an event's
 * definition is never expanded.
 */
#ifndef KH_OS_LINUX_TRACEPOINT_H
#define KH_OS_LINUX_TRACEPOINT_H

#define TP_PROTO(args...)	args
#define TP_ARGS(args...)	args

#define KH_OS_TRACE_NOP(name, proto)					\
	static inline void trace_##name(proto)				\
	{								\
	}

#define TRACE_EVENT(name, proto, args, tstruct, assign, print)		\
	KH_OS_TRACE_NOP(name, PARAMS(proto))
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)
#define DEFINE_EVENT(template, name, proto, args)			\
	KH_OS_TRACE_NOP(name, PARAMS(proto))
#define DEFINE_EVENT_PRINT(template, name, proto, args, print)		\
	KH_OS_TRACE_NOP(name, PARAMS(proto))
#define PARAMS(args...)		args

#endif /* KH_OS_LINUX_TRACEPOINT_H */

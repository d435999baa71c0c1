/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Small helpers shared by the model's files. */
#ifndef KSIM_UTIL_H
#define KSIM_UTIL_H

#include "ksim_plat.h"
#ifdef __KERNEL__
#include <linux/stdarg.h>
#else
#include <stdarg.h>
#endif
#include <kohaku/kh_flit.h>

/*
 * The struct that embeds *ptr as member.  Const-preserving, as the
 * kernel's container_of_const(): a pointer to const gives a pointer to
 * const, so a const callback argument never loses its const on the way.
 * The other arm goes through uintptr_t: _Generic compiles both arms, and
 * a const pointer cast to char * would be a cast that drops const.
 */
#define ksim_container_of(ptr, type, member)				\
	_Generic(ptr,							\
		 const typeof(*(ptr)) *: ((const type *)		\
			((const char *)(ptr) - offsetof(type, member))),	\
		 default: ((type *)					\
			((uintptr_t)(ptr) - offsetof(type, member))))

#define KSIM_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* a hook site's test: false while nothing observes (obs/obs.h) */
#define ksim_unlikely(x)	__builtin_expect(!!(x), 0)

static inline u64 ksim_min_u64(u64 a, u64 b)
{
	return a < b ? a : b;
}

static inline u64 ksim_max_u64(u64 a, u64 b)
{
	return a > b ? a : b;
}

static inline u32 ksim_min_u32(u32 a, u32 b)
{
	return a < b ? a : b;
}

/*
 * A CU_CTRL reply from (x, y) to request req: op 2, index and txn echoed,
 * last set, the value as the responder had it when the request came in.
 */
static inline void ksim_ctrl_reply(struct kh_flit *r, const struct kh_flit *req,
				 unsigned int x, unsigned int y,
				 unsigned int idx, u64 value)
{
	memset(r, 0, sizeof(*r));
	kh_flit_hdr(r, kh_flit_get(req, KH_HDR_SRC_X),
		    kh_flit_get(req, KH_HDR_SRC_Y), x, y, KH_T_CU_CTRL,
		    kh_flit_get(req, KH_HDR_TXN), 1);
	kh_flit_set(r, KH_CTRL_OP, KH_CTRL_OP_REPLY);
	kh_flit_set(r, KH_CTRL_INDEX, idx);
	kh_flit_set(r, KH_CTRL_VALUE, value);
}

/* Little-endian 32-bit word i of a 32-byte payload held in w[0..3]. */
static inline u32 ksim_payload_u32(const u64 *w, unsigned int i)
{
	return (u32)(w[i / 2] >> ((i & 1) * 32));
}

static inline void ksim_payload_set_u32(u64 *w, unsigned int i, u32 v)
{
	unsigned int sh = (i & 1) * 32;

	w[i / 2] = (w[i / 2] & ~(0xffffffffULL << sh)) | ((u64)v << sh);
}

/*
 * A 32-byte memory word <-> payload words (little-endian bytes).  On a
 * little-endian host that is the bytes as they are: one copy.
 */
static inline void ksim_bytes_to_payload(u64 *w, const u8 *b)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(w, b, 4 * sizeof(u64));
#else
	unsigned int i, j;

	for (i = 0; i < 4; i++) {
		u64 v = 0;

		for (j = 0; j < 8; j++)
			v |= (u64)b[i * 8 + j] << (8 * j);
		w[i] = v;
	}
#endif
}

static inline void ksim_payload_to_bytes(u8 *b, const u64 *w)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(b, w, 4 * sizeof(u64));
#else
	unsigned int i, j;

	for (i = 0; i < 4; i++)
		for (j = 0; j < 8; j++)
			b[i * 8 + j] = (u8)(w[i] >> (8 * j));
#endif
}

#endif /* KSIM_UTIL_H */

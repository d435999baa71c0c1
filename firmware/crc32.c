// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * CRC-32 (IEEE 802.3, zlib's crc32()) for the CRC32 kernel: the raw
 * register (no conditioning: the kernel does it) by slice-by-4 tables,
 * and the shift of a register past n zero bytes (zlib's crc32_combine
 * arithmetic: multiplication by x^(8n) modulo the polynomial), so that
 * each core's share can be combined with a XOR.  The tables come from the
 * host tools at build time (khfw-crcgen) and live in IRAM.
 */
#include "fw.h"
#include "crc32_tab.h"

#define FW_CRC_POLY	0xedb88320u

/* table k's entry at byte offset off (an index times 4, precomputed) */
#define FW_CRC_T(k, off) \
	(*(const u32 *)((const u8 *)fw_crc_tab[k] + (off)))

/* one word through slice-by-4: byte offsets straight out of shifts */
static inline u32 fw_crc32_word(u32 crc)
{
	return FW_CRC_T(3, (crc << 2) & 0x3fc) ^
	       FW_CRC_T(2, (crc >> 6) & 0x3fc) ^
	       FW_CRC_T(1, (crc >> 14) & 0x3fc) ^
	       FW_CRC_T(0, (crc >> 22) & 0x3fc);
}

u32 fw_crc32_raw(u32 crc, const u8 *p, u32 len)
{
	const u32 *w;

	for (; len && ((u32)p & 3); len--)
		crc = (crc >> 8) ^ fw_crc_tab[0][(crc ^ *p++) & 0xff];
	for (w = (const u32 *)p; len >= 8; len -= 8, w += 2) {
		crc = fw_crc32_word(crc ^ w[0]);
		crc = fw_crc32_word(crc ^ w[1]);
	}
	if (len >= 4) {
		crc = fw_crc32_word(crc ^ *w++);
		len -= 4;
	}
	for (p = (const u8 *)w; len; len--)
		crc = (crc >> 8) ^ fw_crc_tab[0][(crc ^ *p++) & 0xff];
	return crc;
}

/* a * b modulo the polynomial, bit-reflected (zlib's multmodp) */
static u32 fw_multmodp(u32 a, u32 b)
{
	u32 m = 1u << 31, p = 0;

	for (;;) {
		if (a & m) {
			p ^= b;
			if (!(a & (m - 1)))
				break;
		}
		m >>= 1;
		b = b & 1 ? (b >> 1) ^ FW_CRC_POLY : b >> 1;
	}
	return p;
}

/* x^(n * 2^k) modulo the polynomial (zlib's x2nmodp) */
static u32 fw_x2nmodp(u64 n, u32 k)
{
	u32 p = 1u << 31;	/* x^0 */

	for (; n; n >>= 1, k++)
		if (n & 1)
			p = fw_multmodp(fw_crc_x2n[k & 31], p);
	return p;
}

u32 fw_crc32_shift(u32 crc, u64 bytes)
{
	if (!bytes || !crc)
		return crc;
	return fw_multmodp(fw_x2nmodp(bytes, 3), crc);
}

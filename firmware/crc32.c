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

/* v * x modulo the polynomial (bit-reflected: x^0 is bit 31) */
static inline u32 fw_x1(u32 v)
{
	return (v >> 1) ^ (FW_CRC_POLY & -(v & 1));
}

/*
 * a * b modulo the polynomial, bit-reflected: zlib's multmodp, four bits
 * of a a step (Horner from x^31 down): t[n] holds b times the nibble n's
 * four powers, fw_crc_x4 multiplies by x^4.  About 160 cycles, against
 * some 400 bit by bit.
 */
static u32 fw_mulmodp(u32 a, u32 b)
{
	u32 t[16], b1 = fw_x1(b), b2 = fw_x1(b1), b3 = fw_x1(b2), p = 0;
	unsigned int i;

	t[0] = 0;
	t[1] = b3;
	t[2] = b2;
	t[3] = b2 ^ b3;
	t[4] = b1;
	t[5] = b1 ^ b3;
	t[6] = b1 ^ b2;
	t[7] = b1 ^ b2 ^ b3;
	for (i = 0; i < 8; i++)
		t[8 + i] = b ^ t[i];
	for (i = 0; i < 32; i += 4)
		p = (p >> 4) ^ fw_crc_x4[p & 15] ^ t[(a >> i) & 15];
	return p;
}

/*
 * The raw CRC register moved past `bytes` zero bytes: times x^(8 bytes),
 * one factor x^(8 * 2^j) = fw_crc_x2n[j + 3] per set bit j.
 */
u32 fw_crc32_shift(u32 crc, u64 bytes)
{
	unsigned int j;

	for (j = 0; bytes && crc; j++, bytes >>= 1)
		if (bytes & 1)
			crc = fw_mulmodp(fw_crc_x2n[(j + 3) & 31], crc);
	return crc;
}

// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target: the firmware image parser (driver/core/kh_fw_image.c)
 * on any bytes.  It must never crash, read outside the buffer (ASan) or
 * hit undefined behaviour (UBSan); and an image it accepts must keep every
 * promise the loader relies on, checked here independently: each section
 * inside its memory and, with bytes, inside the file past the section
 * table, no overlap in one memory, the mailbox untouched, the entry point
 * in IRAM code.  A broken promise aborts, which libFuzzer reports.
 *
 * Each input is parsed as it is and again with its sizes and CRCs
 * repaired, so the rules behind the CRC see the mutations too.
 *
 * Built with clang -fsanitize=fuzzer,address,undefined (tests/fuzz/fuzz.mk)
 * and run for a few seconds by tests/run-all.sh from a seed corpus of the
 * built firmware and the test images.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <linux/crc32.h>

#include "kh_fw_image.h"
#include "fuzz_promise.h"

/* crc32_le() as libkohaku's in-process host has it (libruntime/inproc/kh_os_user.c) */
u32 kh_os_crc32_le(u32 crc, const void *p, size_t n)
{
	return ~crc32(~crc, p, n);
}

static u32 mem_size(u8 target)
{
	return target == KH_FW_T_IRAM ? KH_POOL_IRAM_SIZE : KH_POOL_DRAM_SIZE;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static uint32_t get32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * The same bytes with the sizes and CRCs made right: most mutations break
 * a CRC, which would keep the fuzzer at the first checks; repaired, the
 * section and layout rules get the mutations too.
 */
static size_t repair(const uint8_t *data, size_t len, uint8_t *out)
{
	unsigned int i, n;

	memcpy(out, data, len);
	if (len < KH_FW_HEADER_SIZE)
		return len;
	put32(out + 0x08, len);
	n = out[0x18] | out[0x19] << 8;
	for (i = 0; i < n && i < KH_FW_MAX_SECTIONS; i++) {
		uint8_t *s = out + KH_FW_HEADER_SIZE + i * KH_FW_SECTION_SIZE;
		uint32_t off, size;

		if (s + KH_FW_SECTION_SIZE > out + len)
			break;
		off = get32(s + 0x0c);
		size = get32(s + 0x08);
		if (!(s[1] & KH_FW_S_ZERO) && off <= len && size <= len - off)
			put32(s + 0x10, crc32(0, out + off, size));
	}
	put32(out + 0x1c, 0);
	put32(out + 0x1c, crc32(0, out, len));
	return len;
}

static void check(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static uint8_t fixed[KH_FW_MAX_IMAGE];

	check(data, len);
	if (len <= sizeof(fixed))
		check(fixed, repair(data, len, fixed));
	return 0;
}

static void check(const uint8_t *data, size_t len)
{
	static struct kh_fw_image img;
	size_t table_end;
	bool entry = false;
	unsigned int i, j;

	if (kh_fw_parse(data, len, &img)) {
		promise(img.reason != 0 && img.why[0]);
		return;
	}
	promise(img.len == len && img.n >= 1 && img.n <= KH_FW_MAX_SECTIONS);
	table_end = KH_FW_HEADER_SIZE + img.n * KH_FW_SECTION_SIZE;
	for (i = 0; i < img.n; i++) {
		const struct kh_fw_section *s = &img.sec[i];
		u64 end = (u64)s->dest + s->size;

		promise(s->size && end <= mem_size(s->target));
		if (!(s->flags & KH_FW_S_ZERO)) {
			promise(s->file_offset >= table_end);
			promise((u64)s->file_offset + s->size <= len);
			promise(crc32(0, data + s->file_offset, s->size) == s->crc32);
		}
		for (j = 0; j < i; j++) {
			const struct kh_fw_section *t = &img.sec[j];
			bool iram_s = s->target == KH_FW_T_IRAM;
			bool iram_t = t->target == KH_FW_T_IRAM;
			bool same = iram_s || iram_t ? iram_s == iram_t :
				    s->target == t->target ||
				    s->target == KH_FW_T_DATARAM_ALL ||
				    t->target == KH_FW_T_DATARAM_ALL;

			promise(!same || end <= t->dest || (u64)t->dest + t->size <= s->dest);
		}
		if ((s->target == KH_FW_T_DATARAM_ALL || s->target == KH_FW_T_DATARAM(0)) &&
		    !(s->flags & KH_FW_S_ZERO))
			promise(s->dest >= KH_FW_ALIGN);
		if (s->target == KH_FW_T_IRAM && !(s->flags & KH_FW_S_ZERO) &&
		    img.hdr.entry >= s->dest && img.hdr.entry < end)
			entry = true;
	}
	promise(entry && !(img.hdr.entry & 3));
}

// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The POOL firmware image for the host tools (khfw.h): CRC-32, layout,
 * the driver's checks, printing.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "khfw.h"

#define KHFW_POLY	0xedb88320u	/* CRC-32 IEEE 802.3, reflected */

static uint32_t khfw_tab[4][256];
static bool khfw_tab_ready;

static void khfw_tab_init(void)
{
	unsigned int n, k;

	for (n = 0; n < 256; n++) {
		uint32_t c = n;

		for (k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ KHFW_POLY : c >> 1;
		khfw_tab[0][n] = c;
	}
	for (n = 0; n < 256; n++)
		for (k = 1; k < 4; k++)
			khfw_tab[k][n] = (khfw_tab[k - 1][n] >> 8) ^
					 khfw_tab[0][khfw_tab[k - 1][n] & 0xff];
	khfw_tab_ready = true;
}

uint32_t khfw_crc32_slice(unsigned int k, unsigned int n)
{
	if (!khfw_tab_ready)
		khfw_tab_init();
	return khfw_tab[k & 3][n & 0xff];
}

uint32_t khfw_crc32(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	if (!khfw_tab_ready)
		khfw_tab_init();
	crc = ~crc;
	while (len--)
		crc = (crc >> 8) ^ khfw_tab[0][(crc ^ *p++) & 0xff];
	return ~crc;
}

static uint32_t khfw_crc32_zeros(uint32_t size)
{
	static const uint8_t zeros[256];
	uint32_t crc = 0;

	while (size) {
		uint32_t n = size < sizeof(zeros) ? size : sizeof(zeros);

		crc = khfw_crc32(crc, zeros, n);
		size -= n;
	}
	return crc;
}

uint32_t khfw_get32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

uint16_t khfw_get16(const uint8_t *p)
{
	return p[0] | p[1] << 8;
}

void khfw_put32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

void khfw_put16(uint8_t *p, uint16_t v)
{
	p[0] = v;
	p[1] = v >> 8;
}

#define H(f)	offsetof(struct kh_fw_header, f)
#define S(f)	offsetof(struct kh_fw_section, f)

static size_t khfw_align(size_t v)
{
	return (v + KH_FW_ALIGN - 1) & ~(size_t)(KH_FW_ALIGN - 1);
}

void khfw_fix_crc(uint8_t *img, size_t len)
{
	if (len < KH_FW_HEADER_SIZE)
		return;
	khfw_put32(img + H(crc32), 0);
	khfw_put32(img + H(crc32), khfw_crc32(0, img, len));
}

uint8_t *khfw_build(const struct khfw_meta *m, const struct khfw_sec *s,
		    unsigned int n, size_t *len)
{
	size_t table_end = KH_FW_HEADER_SIZE + (size_t)n * KH_FW_SECTION_SIZE;
	size_t off = khfw_align(table_end), total;
	uint8_t *img;
	unsigned int i;

	if (!n || n > KH_FW_MAX_SECTIONS) {
		fprintf(stderr, "khfw: %u sections (1..%u)\n", n,
			KH_FW_MAX_SECTIONS);
		return NULL;
	}
	total = off;
	for (i = 0; i < n; i++)
		if (!(s[i].flags & KH_FW_S_ZERO))
			total = khfw_align(total + s[i].size);
	img = calloc(1, total);
	if (!img) {
		fprintf(stderr, "khfw: out of memory\n");
		return NULL;
	}
	khfw_put32(img + H(magic), KH_FW_MAGIC);
	khfw_put16(img + H(format), KH_FW_FORMAT);
	khfw_put16(img + H(header_size), KH_FW_HEADER_SIZE);
	khfw_put32(img + H(image_size), total);
	khfw_put32(img + H(fw_version), m->fw_version);
	khfw_put16(img + H(api_major), m->api_major);
	khfw_put16(img + H(api_minor), m->api_minor);
	khfw_put32(img + H(entry), m->entry);
	khfw_put16(img + H(n_sections), n);
	khfw_put16(img + H(section_offset), KH_FW_HEADER_SIZE);
	strncpy((char *)img + H(name), m->name ? m->name : "",
		KH_FW_NAME_LEN);
	for (i = 0; i < n; i++) {
		uint8_t *r = img + KH_FW_HEADER_SIZE + i * KH_FW_SECTION_SIZE;

		r[S(target)] = s[i].target;
		r[S(flags)] = s[i].flags;
		khfw_put32(r + S(dest), s[i].dest);
		khfw_put32(r + S(size), s[i].size);
		if (s[i].flags & KH_FW_S_ZERO) {
			khfw_put32(r + S(crc32), khfw_crc32_zeros(s[i].size));
			continue;
		}
		khfw_put32(r + S(file_offset), off);
		memcpy(img + off, s[i].data, s[i].size);
		khfw_put32(r + S(crc32), khfw_crc32(0, img + off, s[i].size));
		off = khfw_align(off + s[i].size);
	}
	khfw_fix_crc(img, total);
	*len = total;
	return img;
}

static int khfw_fail(char *why, size_t whylen, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int khfw_fail(char *why, size_t whylen, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return err;
}

/* the memory a target names: 0 IRAM, 1 DataRAM (of one core or all) */
static int khfw_mem(uint8_t target)
{
	if (target == KH_FW_T_IRAM)
		return 0;
	if (target == KH_FW_T_DATARAM_ALL || KH_FW_T_IS_DATARAM(target))
		return 1;
	return -1;
}

static uint32_t khfw_mem_size(uint8_t target)
{
	return khfw_mem(target) ? KH_POOL_DRAM_SIZE : KH_POOL_IRAM_SIZE;
}

/* do two sections write a common byte of one core's memory */
static bool khfw_share_mem(uint8_t a, uint8_t b)
{
	if (khfw_mem(a) != khfw_mem(b))
		return false;
	if (!khfw_mem(a))
		return true;
	return a == KH_FW_T_DATARAM_ALL || b == KH_FW_T_DATARAM_ALL || a == b;
}

int khfw_check(const uint8_t *img, size_t len, char *why, size_t whylen)
{
	const uint8_t *r, *q;
	size_t table_end;
	uint32_t size, crc, entry;
	unsigned int n, i, j, nul;
	bool iram = false, in_iram = false;
	uint8_t *copy;

	/* 1. length */
	if (len < KH_FW_HEADER_SIZE)
		return khfw_fail(why, whylen, -EINVAL,
				 "truncated: %zu bytes, shorter than the header",
				 len);
	if (len > KH_FW_MAX_IMAGE)
		return khfw_fail(why, whylen, -E2BIG,
				 "image too large: %zu bytes (at most %u)", len,
				 KH_FW_MAX_IMAGE);
	/* 2. magic, format, header_size, image_size */
	if (khfw_get32(img + H(magic)) != KH_FW_MAGIC)
		return khfw_fail(why, whylen, -EINVAL, "magic 0x%08x",
				 khfw_get32(img + H(magic)));
	if (khfw_get16(img + H(format)) != KH_FW_FORMAT)
		return khfw_fail(why, whylen, -EINVAL, "format %u",
				 khfw_get16(img + H(format)));
	if (khfw_get16(img + H(header_size)) != KH_FW_HEADER_SIZE)
		return khfw_fail(why, whylen, -EINVAL, "header_size %u",
				 khfw_get16(img + H(header_size)));
	size = khfw_get32(img + H(image_size));
	if (size > len)
		return khfw_fail(why, whylen, -EINVAL,
				 "truncated: image_size %u, file %zu bytes",
				 size, len);
	if (size != len)
		return khfw_fail(why, whylen, -EINVAL,
				 "image_size %u, file %zu bytes", size, len);
	/* 3. the whole-image CRC */
	copy = malloc(len);
	if (!copy)
		return khfw_fail(why, whylen, -ENOMEM, "out of memory");
	memcpy(copy, img, len);
	khfw_put32(copy + H(crc32), 0);
	crc = khfw_crc32(0, copy, len);
	free(copy);
	if (crc != khfw_get32(img + H(crc32)))
		return khfw_fail(why, whylen, -EINVAL,
				 "crc32 0x%08x, computed 0x%08x",
				 khfw_get32(img + H(crc32)), crc);
	/* 4. flags, reserved, name */
	if (khfw_get32(img + H(flags)))
		return khfw_fail(why, whylen, -EINVAL, "flags 0x%x",
				 khfw_get32(img + H(flags)));
	for (i = 0; i < 3; i++)
		if (khfw_get32(img + H(reserved) + 4 * i))
			return khfw_fail(why, whylen, -EINVAL,
					 "reserved[%u] nonzero", i);
	for (i = 0, nul = 0; i < KH_FW_NAME_LEN; i++) {
		uint8_t c = img[H(name) + i];

		if (!c)
			nul = 1;
		else if (nul || c < 0x20 || c > 0x7e)
			return khfw_fail(why, whylen, -EINVAL,
					 "name: byte %u is 0x%02x", i, c);
	}
	/* 5. the API major */
	if (khfw_get16(img + H(api_major)) != KH_POOL_API_MAJOR)
		return khfw_fail(why, whylen, -EPROTO,
				 "api_major %u, the driver's is %u",
				 khfw_get16(img + H(api_major)),
				 KH_POOL_API_MAJOR);
	/* 6. the table */
	n = khfw_get16(img + H(n_sections));
	if (!n || n > KH_FW_MAX_SECTIONS)
		return khfw_fail(why, whylen, -EINVAL, "n_sections %u", n);
	if (khfw_get16(img + H(section_offset)) != KH_FW_HEADER_SIZE)
		return khfw_fail(why, whylen, -EINVAL, "section_offset %u",
				 khfw_get16(img + H(section_offset)));
	table_end = KH_FW_HEADER_SIZE + (size_t)n * KH_FW_SECTION_SIZE;
	if (table_end > len)
		return khfw_fail(why, whylen, -EINVAL,
				 "section table past the end of the file");
	/* 7. each section */
	for (i = 0; i < n; i++) {
		uint32_t dest, ssize, foff, scrc;
		uint8_t t, fl;

		r = img + KH_FW_HEADER_SIZE + i * KH_FW_SECTION_SIZE;
		t = r[S(target)];
		fl = r[S(flags)];
		dest = khfw_get32(r + S(dest));
		ssize = khfw_get32(r + S(size));
		foff = khfw_get32(r + S(file_offset));
		if (khfw_mem(t) < 0)
			return khfw_fail(why, whylen, -EINVAL,
					 "section %u: target 0x%02x", i, t);
		if (fl & ~KH_FW_S_FLAGS)
			return khfw_fail(why, whylen, -EINVAL,
					 "section %u: flags 0x%02x", i, fl);
		if (khfw_get16(r + S(reserved0)))
			return khfw_fail(why, whylen, -EINVAL,
					 "section %u: reserved0 nonzero", i);
		for (j = 0; j < 3; j++)
			if (khfw_get32(r + S(reserved) + 4 * j))
				return khfw_fail(why, whylen, -EINVAL,
						 "section %u: reserved[%u] nonzero",
						 i, j);
		if (dest % KH_FW_ALIGN || ssize % KH_FW_ALIGN)
			return khfw_fail(why, whylen, -EINVAL,
					 "section %u: dest 0x%x size 0x%x not %u-byte aligned",
					 i, dest, ssize, KH_FW_ALIGN);
		if (!ssize)
			return khfw_fail(why, whylen, -EINVAL,
					 "section %u: size 0", i);
		if ((uint64_t)dest + ssize > khfw_mem_size(t))
			return khfw_fail(why, whylen, -EINVAL,
					 "section %u: dest 0x%x + size 0x%x past the memory (0x%x)",
					 i, dest, ssize, khfw_mem_size(t));
		if (fl & KH_FW_S_ZERO) {
			if (foff)
				return khfw_fail(why, whylen, -EINVAL,
						 "section %u: ZERO with file_offset 0x%x",
						 i, foff);
			scrc = khfw_crc32_zeros(ssize);
		} else {
			if (foff % KH_FW_ALIGN || foff < table_end ||
			    (uint64_t)foff + ssize > len)
				return khfw_fail(why, whylen, -EINVAL,
						 "section %u: file_offset 0x%x size 0x%x outside the file's data",
						 i, foff, ssize);
			scrc = khfw_crc32(0, img + foff, ssize);
		}
		if (scrc != khfw_get32(r + S(crc32)))
			return khfw_fail(why, whylen, -EINVAL,
					 "section %u: crc32 0x%08x, computed 0x%08x",
					 i, khfw_get32(r + S(crc32)), scrc);
	}
	/* 8. overlaps, and the mailbox */
	for (i = 0; i < n; i++) {
		uint32_t da, sa;

		r = img + KH_FW_HEADER_SIZE + i * KH_FW_SECTION_SIZE;
		da = khfw_get32(r + S(dest));
		sa = khfw_get32(r + S(size));
		if ((r[S(target)] == KH_FW_T_DATARAM_ALL ||
		     r[S(target)] == KH_FW_T_DATARAM(0)) &&
		    !(r[S(flags)] & KH_FW_S_ZERO) &&
		    da < KH_FW_ALIGN)
			return khfw_fail(why, whylen, -EINVAL,
					 "section %u: writes core 0's boot mailbox",
					 i);
		for (j = i + 1; j < n; j++) {
			uint32_t db, sb;

			q = img + KH_FW_HEADER_SIZE + j * KH_FW_SECTION_SIZE;
			db = khfw_get32(q + S(dest));
			sb = khfw_get32(q + S(size));
			if (khfw_share_mem(r[S(target)], q[S(target)]) &&
			    da < db + sb && db < da + sa)
				return khfw_fail(why, whylen, -EINVAL,
						 "sections %u and %u overlap",
						 i, j);
		}
	}
	/* 9. the entry */
	entry = khfw_get32(img + H(entry));
	for (i = 0; i < n; i++) {
		uint32_t d, sz;

		r = img + KH_FW_HEADER_SIZE + i * KH_FW_SECTION_SIZE;
		if (r[S(target)] != KH_FW_T_IRAM)
			continue;
		iram = true;
		d = khfw_get32(r + S(dest));
		sz = khfw_get32(r + S(size));
		if (entry >= d && entry - d < sz)
			in_iram = true;
	}
	if (!iram)
		return khfw_fail(why, whylen, -EINVAL, "no IRAM section");
	if (entry % 4 || !in_iram)
		return khfw_fail(why, whylen, -EINVAL,
				 "entry 0x%x not a 4-aligned address in an IRAM section",
				 entry);
	snprintf(why, whylen, "ok");
	return 0;
}

static const char *khfw_target_name(uint8_t t, char *buf, size_t len)
{
	if (t == KH_FW_T_IRAM)
		return "IRAM";
	if (t == KH_FW_T_DATARAM_ALL)
		return "DATARAM_ALL";
	if (KH_FW_T_IS_DATARAM(t)) {
		snprintf(buf, len, "DATARAM%u", t - KH_FW_T_DATARAM(0));
		return buf;
	}
	snprintf(buf, len, "0x%02x?", t);
	return buf;
}

void khfw_dump(const uint8_t *img, size_t len, FILE *out)
{
	char name[KH_FW_NAME_LEN + 1], tb[16];
	unsigned int i, n;
	uint32_t v;

	if (len < KH_FW_HEADER_SIZE) {
		fprintf(out, "%zu bytes: shorter than the header\n", len);
		return;
	}
	memcpy(name, img + H(name), KH_FW_NAME_LEN);
	name[KH_FW_NAME_LEN] = 0;
	for (i = 0; i < KH_FW_NAME_LEN && name[i]; i++)
		if (name[i] < 0x20 || name[i] > 0x7e)
			name[i] = '?';
	v = khfw_get32(img + H(fw_version));
	fprintf(out, "magic        0x%08x\n", khfw_get32(img + H(magic)));
	fprintf(out, "format       %u\n", khfw_get16(img + H(format)));
	fprintf(out, "header_size  %u\n", khfw_get16(img + H(header_size)));
	fprintf(out, "image_size   %u (file %zu)\n",
		khfw_get32(img + H(image_size)), len);
	fprintf(out, "fw_version   %u.%u.%u (0x%06x)\n",
		KH_FW_VERSION_MAJOR(v), KH_FW_VERSION_MINOR(v),
		KH_FW_VERSION_PATCH(v), v);
	fprintf(out, "api          %u.%u\n", khfw_get16(img + H(api_major)),
		khfw_get16(img + H(api_minor)));
	fprintf(out, "entry        0x%08x\n", khfw_get32(img + H(entry)));
	fprintf(out, "crc32        0x%08x\n", khfw_get32(img + H(crc32)));
	fprintf(out, "flags        0x%x\n", khfw_get32(img + H(flags)));
	fprintf(out, "name         \"%s\"\n", name);
	n = khfw_get16(img + H(n_sections));
	fprintf(out, "sections     %u at %u\n", n,
		khfw_get16(img + H(section_offset)));
	for (i = 0; i < n && i < KH_FW_MAX_SECTIONS; i++) {
		const uint8_t *r = img + KH_FW_HEADER_SIZE +
				   i * KH_FW_SECTION_SIZE;

		if (r + KH_FW_SECTION_SIZE > img + len)
			break;
		fprintf(out, "  [%2u] %-11s %s dest 0x%05x size 0x%05x file 0x%06x crc 0x%08x\n",
			i, khfw_target_name(r[S(target)], tb, sizeof(tb)),
			r[S(flags)] & KH_FW_S_ZERO ? "ZERO" : "DATA",
			khfw_get32(r + S(dest)), khfw_get32(r + S(size)),
			khfw_get32(r + S(file_offset)),
			khfw_get32(r + S(crc32)));
	}
}

uint8_t *khfw_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return NULL;
	}
	do {
		if (n == cap) {
			uint8_t *nb;

			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap);
			if (!nb) {
				fprintf(stderr, "%s: out of memory\n", path);
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (ferror(f)) {
		fprintf(stderr, "%s: read error\n", path);
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

int khfw_write_file(const char *path, const uint8_t *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fwrite(buf, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "%s: write error\n", path);
		return -1;
	}
	return 0;
}

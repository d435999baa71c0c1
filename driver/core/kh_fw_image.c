// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The POOL firmware image parser: every rule of docs/spec/firmware-image.md,
 * checked before the card sees a byte.  Pure: it reads the image and
 * nothing else, so the hosts can call it without a device and the fuzzer
 * can run it alone (tests/fuzz/).  The image is read byte by byte as
 * little-endian, whatever the host's order and the buffer's alignment.
 */
#include <linux/crc32.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "kh_fw_image.h"
#include "drm/kohaku_accel.h"

static u16 kh_le16(const u8 *p)
{
	return p[0] | (u16)p[1] << 8;
}

static u32 kh_le32(const u8 *p)
{
	return p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static void kh_fw_read_header(const u8 *p, struct kh_fw_header *h)
{
	h->magic = kh_le32(p + 0x00);
	h->format = kh_le16(p + 0x04);
	h->header_size = kh_le16(p + 0x06);
	h->image_size = kh_le32(p + 0x08);
	h->fw_version = kh_le32(p + 0x0c);
	h->api_major = kh_le16(p + 0x10);
	h->api_minor = kh_le16(p + 0x12);
	h->entry = kh_le32(p + 0x14);
	h->n_sections = kh_le16(p + 0x18);
	h->section_offset = kh_le16(p + 0x1a);
	h->crc32 = kh_le32(p + 0x1c);
	h->flags = kh_le32(p + 0x20);
	memcpy(h->name, p + 0x24, sizeof(h->name));
	h->reserved[0] = kh_le32(p + 0x34);
	h->reserved[1] = kh_le32(p + 0x38);
	h->reserved[2] = kh_le32(p + 0x3c);
}

static void kh_fw_read_section(const u8 *p, struct kh_fw_section *s)
{
	s->target = p[0x00];
	s->flags = p[0x01];
	s->reserved0 = kh_le16(p + 0x02);
	s->dest = kh_le32(p + 0x04);
	s->size = kh_le32(p + 0x08);
	s->file_offset = kh_le32(p + 0x0c);
	s->crc32 = kh_le32(p + 0x10);
	s->reserved[0] = kh_le32(p + 0x14);
	s->reserved[1] = kh_le32(p + 0x18);
	s->reserved[2] = kh_le32(p + 0x1c);
}

/* Refuse with a reason, a detail and a message; return the errno. */
static __printf(5, 6) int kh_fw_refuse(struct kh_fw_image *img, int err,
				       u32 reason, u32 detail,
				       const char *fmt, ...)
{
	va_list ap;

	img->reason = reason;
	img->detail = detail;
	va_start(ap, fmt);
	vsnprintf(img->why, sizeof(img->why), fmt, ap);
	va_end(ap);
	return err;
}

/*
 * CRC-32 of the image with the header's crc32 field read as zero.  The
 * image's CRCs are zlib's crc32() (IEEE 802.3, inverted in and out):
 * crc32_le() from ~0, chained, inverted at the end.
 */
static u32 kh_fw_image_crc(const u8 *p, size_t len)
{
	static const u8 zero[4];
	u32 crc;

	crc = crc32_le(~0U, p, offsetof(struct kh_fw_header, crc32));
	crc = crc32_le(crc, zero, sizeof(zero));
	return ~crc32_le(crc, p + offsetof(struct kh_fw_header, crc32) + 4,
			 len - offsetof(struct kh_fw_header, crc32) - 4);
}

static int kh_fw_check_header(struct kh_fw_image *img, const u8 *p, size_t len)
{
	const struct kh_fw_header *h = &img->hdr;
	unsigned int i;
	u32 crc;

	if (len > KH_FW_MAX_IMAGE)
		return kh_fw_refuse(img, -E2BIG, KOHAKU_FW_ERR_TOO_BIG, 0,
				    "image of %zu bytes; at most %u", len,
				    KH_FW_MAX_IMAGE);
	if (len < KH_FW_HEADER_SIZE)
		return kh_fw_refuse(img, -EINVAL, KOHAKU_FW_ERR_TRUNCATED, 0,
				    "%zu bytes, shorter than the %u-byte header",
				    len, KH_FW_HEADER_SIZE);
	kh_fw_read_header(p, &img->hdr);
	if (h->magic != KH_FW_MAGIC)
		return kh_fw_refuse(img, -EINVAL, KOHAKU_FW_ERR_MAGIC, 0,
				    "magic 0x%08x is not a Kohaku firmware image's (0x%08x, \"KHFW\")",
				    h->magic, KH_FW_MAGIC);
	if (h->format != KH_FW_FORMAT || h->header_size != KH_FW_HEADER_SIZE)
		return kh_fw_refuse(img, -EINVAL, KOHAKU_FW_ERR_FORMAT, 0,
				    "format %u with a %u-byte header; this driver reads format %u (%u bytes)",
				    h->format, h->header_size, KH_FW_FORMAT,
				    KH_FW_HEADER_SIZE);
	if (h->image_size > len)
		return kh_fw_refuse(img, -EINVAL, KOHAKU_FW_ERR_TRUNCATED, 0,
				    "truncated: the header says %u bytes, %zu given",
				    h->image_size, len);
	if (h->image_size != len)
		return kh_fw_refuse(img, -EINVAL, KOHAKU_FW_ERR_HEADER, 0,
				    "the header says %u bytes, %zu given (trailing bytes)",
				    h->image_size, len);
	crc = kh_fw_image_crc(p, len);
	if (crc != h->crc32)
		return kh_fw_refuse(img, -EINVAL, KOHAKU_FW_ERR_CRC, 0,
				    "image CRC-32 0x%08x, the header says 0x%08x: the file is damaged",
				    crc, h->crc32);
	if (h->flags || h->reserved[0] || h->reserved[1] || h->reserved[2])
		return kh_fw_refuse(img, -EINVAL, KOHAKU_FW_ERR_HEADER, 0,
				    "header flags or reserved fields are not zero");
	for (i = 0; i < sizeof(h->name) && h->name[i]; i++)
		if (h->name[i] < 0x20 || h->name[i] > 0x7e)
			return kh_fw_refuse(img, -EINVAL, KOHAKU_FW_ERR_HEADER, 0,
					    "the name has an unprintable byte at %u", i);
	for (; i < sizeof(h->name); i++)
		if (h->name[i])
			return kh_fw_refuse(img, -EINVAL, KOHAKU_FW_ERR_HEADER, 0,
					    "the name is not NUL padded");
	memcpy(img->name, h->name, sizeof(h->name));
	img->name[sizeof(h->name)] = 0;
	if (h->api_major != KH_POOL_API_MAJOR)
		return kh_fw_refuse(img, -EPROTO, KOHAKU_FW_ERR_API, 0,
				    "firmware API %u.%u; this driver speaks API %u.x",
				    h->api_major, h->api_minor, KH_POOL_API_MAJOR);
	if (!h->n_sections || h->n_sections > KH_FW_MAX_SECTIONS ||
	    h->section_offset != KH_FW_HEADER_SIZE ||
	    KH_FW_HEADER_SIZE + (size_t)h->n_sections * KH_FW_SECTION_SIZE > len)
		return kh_fw_refuse(img, -EINVAL, KOHAKU_FW_ERR_HEADER, 0,
				    "section table: %u sections at offset %u; 1..%u at %u, within the image",
				    h->n_sections, h->section_offset,
				    KH_FW_MAX_SECTIONS, KH_FW_HEADER_SIZE);
	return 0;
}

/* the bytes of memory @target covers; 0 for an unknown target */
static u32 kh_fw_target_size(u8 target)
{
	if (target == KH_FW_T_IRAM)
		return KH_POOL_IRAM_SIZE;
	if (target == KH_FW_T_DATARAM_ALL || KH_FW_T_IS_DATARAM(target))
		return KH_POOL_DRAM_SIZE;
	return 0;
}

static int kh_fw_check_section(struct kh_fw_image *img, const u8 *p,
			       size_t len, unsigned int i)
{
	const struct kh_fw_section *s = &img->sec[i];
	size_t table_end = KH_FW_HEADER_SIZE +
			   (size_t)img->hdr.n_sections * KH_FW_SECTION_SIZE;
	u32 mem = kh_fw_target_size(s->target), crc;

	if (!mem)
		return kh_fw_refuse(img, -EINVAL, KOHAKU_FW_ERR_SECTION, i,
				    "section %u: unknown target 0x%02x", i, s->target);
	if (s->flags & ~KH_FW_S_FLAGS || s->reserved0 || s->reserved[0] ||
	    s->reserved[1] || s->reserved[2])
		return kh_fw_refuse(img, -EINVAL, KOHAKU_FW_ERR_SECTION, i,
				    "section %u: unknown flags 0x%02x or nonzero reserved fields",
				    i, s->flags);
	if (!s->size || s->size % KH_FW_ALIGN || s->dest % KH_FW_ALIGN ||
	    s->file_offset % KH_FW_ALIGN)
		return kh_fw_refuse(img, -EINVAL, KOHAKU_FW_ERR_SECTION, i,
				    "section %u: dest 0x%x, size %u, file offset 0x%x; each must be a multiple of %u and size nonzero",
				    i, s->dest, s->size, s->file_offset, KH_FW_ALIGN);
	if (s->dest >= mem || s->size > mem - s->dest)
		return kh_fw_refuse(img, -EINVAL, KOHAKU_FW_ERR_RANGE, i,
				    "section %u: [0x%x, +0x%x) lies outside its %u KiB memory",
				    i, s->dest, s->size, mem / 1024);
	if (s->flags & KH_FW_S_ZERO) {
		if (s->file_offset)
			return kh_fw_refuse(img, -EINVAL, KOHAKU_FW_ERR_SECTION, i,
					    "section %u: a zero-fill section with file offset 0x%x",
					    i, s->file_offset);
		return 0;
	}
	if (s->file_offset < table_end || s->file_offset > len ||
	    s->size > len - s->file_offset)
		return kh_fw_refuse(img, -EINVAL, KOHAKU_FW_ERR_RANGE, i,
				    "section %u: its bytes [0x%x, +0x%x) are not inside the image after the section table",
				    i, s->file_offset, s->size);
	crc = ~crc32_le(~0U, p + s->file_offset, s->size);
	if (crc != s->crc32)
		return kh_fw_refuse(img, -EINVAL, KOHAKU_FW_ERR_SECTION_CRC, i,
				    "section %u: CRC-32 0x%08x, the table says 0x%08x",
				    i, crc, s->crc32);
	return 0;
}

/* do two targets name a common memory (an ALL DataRAM section is in every core's) */
static bool kh_fw_same_memory(u8 a, u8 b)
{
	if (a == KH_FW_T_IRAM || b == KH_FW_T_IRAM)
		return a == b;
	return a == b || a == KH_FW_T_DATARAM_ALL || b == KH_FW_T_DATARAM_ALL;
}

/* is core 0's DataRAM target of this section (the mailbox's memory) */
static bool kh_fw_in_core0(u8 target)
{
	return target == KH_FW_T_DATARAM_ALL || target == KH_FW_T_DATARAM(0);
}

static int kh_fw_check_layout(struct kh_fw_image *img)
{
	const struct kh_fw_header *h = &img->hdr;
	bool entry_ok = false, iram = false;
	unsigned int i, j;

	for (i = 0; i < img->n; i++) {
		const struct kh_fw_section *s = &img->sec[i];

		for (j = 0; j < i; j++) {
			const struct kh_fw_section *t = &img->sec[j];

			if (kh_fw_same_memory(s->target, t->target) &&
			    s->dest < t->dest + t->size && t->dest < s->dest + s->size)
				return kh_fw_refuse(img, -EINVAL, KOHAKU_FW_ERR_OVERLAP, i,
						    "section %u overlaps section %u in one memory",
						    i, j);
		}
		if (kh_fw_in_core0(s->target) && !(s->flags & KH_FW_S_ZERO) &&
		    s->dest < KH_FW_ALIGN)
			return kh_fw_refuse(img, -EINVAL, KOHAKU_FW_ERR_OVERLAP, i,
					    "section %u writes core 0's boot mailbox (DataRAM bytes 0..31)",
					    i);
		if (s->target != KH_FW_T_IRAM)
			continue;
		iram = true;
		if (!(s->flags & KH_FW_S_ZERO) && h->entry >= s->dest &&
		    h->entry < s->dest + s->size)
			entry_ok = true;
	}
	if (!iram)
		return kh_fw_refuse(img, -EINVAL, KOHAKU_FW_ERR_ENTRY, 0,
				    "no IRAM section: nothing to run");
	if (h->entry % 4 || !entry_ok)
		return kh_fw_refuse(img, -EINVAL, KOHAKU_FW_ERR_ENTRY, 0,
				    "entry 0x%x is not a 4-byte aligned address inside an IRAM section",
				    h->entry);
	return 0;
}

int kh_fw_parse(const void *data, size_t len, struct kh_fw_image *img)
{
	const u8 *p = data;
	unsigned int i;
	int ret;

	memset(img, 0, sizeof(*img));
	ret = kh_fw_check_header(img, p, len);
	if (ret)
		return ret;
	img->n = img->hdr.n_sections;
	for (i = 0; i < img->n; i++) {
		kh_fw_read_section(p + KH_FW_HEADER_SIZE + i * KH_FW_SECTION_SIZE,
				   &img->sec[i]);
		ret = kh_fw_check_section(img, p, len, i);
		if (ret)
			return ret;
	}
	ret = kh_fw_check_layout(img);
	if (ret)
		return ret;
	img->data = p;
	img->len = len;
	return 0;
}

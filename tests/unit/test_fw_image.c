// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The firmware image parser of driver/core (kh_fw_image.c) against every
 * rule of docs/spec/firmware-image.md: a good image is taken; each
 * malformed one is refused with its own reason, detail and errno.  The
 * images are built here, field by field, independently of the packer.
 */
#include <stdlib.h>
#include <zlib.h>

#include "check.h"
#include "kh_fw_image.h"
#include "drm/kohaku_accel.h"
#include "harness.h"

CHECK_FIXTURE(core)

#define IMG_MAX	(KH_FW_MAX_IMAGE + 64)

struct img {
	u8 b[IMG_MAX];
	size_t len;
	unsigned int n;		/* sections */
	size_t data;		/* where the next section's bytes go */
};

static void put16(u8 *p, u16 v)
{
	p[0] = v;
	p[1] = v >> 8;
}

static void put32(u8 *p, u32 v)
{
	put16(p, v);
	put16(p + 2, v >> 16);
}

static u8 *sec(struct img *im, unsigned int i)
{
	return im->b + KH_FW_HEADER_SIZE + i * KH_FW_SECTION_SIZE;
}

/* the header of an image of n sections; sections follow with add() */
static void start(struct img *im, unsigned int n)
{
	memset(im, 0, sizeof(*im));
	put32(im->b + 0x00, KH_FW_MAGIC);
	put16(im->b + 0x04, KH_FW_FORMAT);
	put16(im->b + 0x06, KH_FW_HEADER_SIZE);
	put32(im->b + 0x0c, KH_FW_VERSION(1, 2, 3));
	put16(im->b + 0x10, KH_POOL_API_MAJOR);
	put16(im->b + 0x12, KH_POOL_API_MINOR);
	put32(im->b + 0x14, 0);			/* entry */
	put16(im->b + 0x18, n);
	put16(im->b + 0x1a, KH_FW_HEADER_SIZE);
	memcpy(im->b + 0x24, "unit-test", 9);
	im->data = KH_FW_HEADER_SIZE + n * KH_FW_SECTION_SIZE;
	im->data = (im->data + KH_FW_ALIGN - 1) & ~(size_t)(KH_FW_ALIGN - 1);
}

/* a section of size bytes (a pattern) at dest of target; zero: ZERO */
static void add(struct img *im, u8 target, u32 dest, u32 size, bool zero)
{
	u8 *s = sec(im, im->n++);
	u32 i;

	s[0] = target;
	s[1] = zero ? KH_FW_S_ZERO : 0;
	put32(s + 0x04, dest);
	put32(s + 0x08, size);
	if (zero) {
		u8 *z = calloc(1, size);

		put32(s + 0x10, crc32(0, z, size));
		free(z);
		return;
	}
	put32(s + 0x0c, im->data);
	for (i = 0; i < size; i++)
		im->b[im->data + i] = (u8)(i * 7 + target);
	put32(s + 0x10, crc32(0, im->b + im->data, size));
	im->data += size;
}

/* length, whole-image CRC: the image as the packer would finish it */
static void seal(struct img *im)
{
	im->len = im->data;
	put32(im->b + 0x08, im->len);
	put32(im->b + 0x1c, 0);
	put32(im->b + 0x1c, crc32(0, im->b, im->len));
}

/* a good image: code, data for every core, a zeroed bss */
static void good(struct img *im)
{
	start(im, 3);
	add(im, KH_FW_T_IRAM, 0, 256, false);
	add(im, KH_FW_T_DATARAM_ALL, 32, 64, false);
	add(im, KH_FW_T_DATARAM_ALL, 1024, 4096, true);
	put32(im->b + 0x14, 0x40);
	seal(im);
}

static int parse(struct img *im, struct kh_fw_image *out)
{
	return kh_fw_parse(im->b, im->len, out);
}

#define REFUSED(im_, err_, reason_, detail_) do {			\
	struct kh_fw_image _o;						\
	int _r = parse(im_, &_o);					\
	CHECK_EQ(_r, err_);						\
	CHECK_EQ(_o.reason, reason_);					\
	CHECK_EQ(_o.detail, detail_);					\
	CHECK_MSG(_o.why[0], "no message for reason %u", _o.reason);	\
	check_diag("refused: %s", _o.why);				\
} while (0)

static struct img im;

TEST_F(core, good_image_parses)
{
	struct kh_fw_image o;

	good(&im);
	REQUIRE(parse(&im, &o) == 0);
	CHECK_EQ(o.n, 3);
	CHECK_EQ(o.hdr.entry, 0x40);
	CHECK_EQ(o.hdr.fw_version, KH_FW_VERSION(1, 2, 3));
	CHECK_EQ(o.sec[1].target, KH_FW_T_DATARAM_ALL);
	CHECK_EQ(o.sec[2].flags, KH_FW_S_ZERO);
	CHECK(!strcmp(o.name, "unit-test"));
	CHECK_EQ(o.reason, KOHAKU_FW_OK);
}

TEST_F(core, truncated_and_oversize)
{
	good(&im);
	im.len = 10;
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_TRUNCATED, 0);
	good(&im);
	im.len -= 32;
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_TRUNCATED, 0);
	good(&im);
	im.len += 32;	/* trailing bytes the header does not own */
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_HEADER, 0);
	good(&im);
	im.len = KH_FW_MAX_IMAGE + 32;
	REFUSED(&im, -E2BIG, KOHAKU_FW_ERR_TOO_BIG, 0);
}

TEST_F(core, bad_magic_format_crc)
{
	good(&im);
	im.b[0] ^= 0xff;
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_MAGIC, 0);
	good(&im);
	put16(im.b + 0x04, 2);
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_FORMAT, 0);
	good(&im);
	im.b[im.len - 1] ^= 1;	/* a flipped bit anywhere */
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_CRC, 0);
}

TEST_F(core, header_rules)
{
	good(&im);
	put32(im.b + 0x20, 1);		/* flags */
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_HEADER, 0);
	good(&im);
	put32(im.b + 0x3c, 1);		/* reserved */
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_HEADER, 0);
	good(&im);
	im.b[0x24] = 0x07;		/* an unprintable name */
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_HEADER, 0);
	good(&im);
	put16(im.b + 0x18, 0);		/* no sections */
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_HEADER, 0);
	good(&im);
	put16(im.b + 0x18, 2000);	/* a table past the end */
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_HEADER, 0);
}

TEST_F(core, api_major_mismatch)
{
	good(&im);
	put16(im.b + 0x10, KH_POOL_API_MAJOR + 1);
	seal(&im);
	REFUSED(&im, -EPROTO, KOHAKU_FW_ERR_API, 0);
	good(&im);
	put16(im.b + 0x12, KH_POOL_API_MINOR + 7);	/* a newer minor is fine */
	seal(&im);
	{
		struct kh_fw_image o;

		CHECK_EQ(parse(&im, &o), 0);
	}
}

TEST_F(core, section_rules)
{
	/* unknown target, flags, misalignment, size zero, reserved */
	good(&im);
	sec(&im, 1)[0] = 0x05;
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_SECTION, 1);
	good(&im);
	sec(&im, 1)[1] = 0x80;
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_SECTION, 1);
	good(&im);
	put32(sec(&im, 1) + 0x04, 40);	/* dest not 32-aligned */
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_SECTION, 1);
	good(&im);
	put32(sec(&im, 2) + 0x08, 0);
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_SECTION, 2);
	good(&im);
	put32(sec(&im, 0) + 0x18, 9);
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_SECTION, 0);
	good(&im);
	put32(sec(&im, 2) + 0x0c, 64);	/* a zero-fill section with bytes */
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_SECTION, 2);
}

TEST_F(core, section_out_of_bounds)
{
	/* past its memory, and dest + size overflowing 32 bits */
	good(&im);
	put32(sec(&im, 2) + 0x04, KH_POOL_DRAM_SIZE - 2048);
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_RANGE, 2);
	good(&im);
	put32(sec(&im, 2) + 0x04, 0xffffffe0u);
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_RANGE, 2);
	/* bytes past the file, or inside the header or table */
	good(&im);
	put32(sec(&im, 1) + 0x0c, im.len - 32);
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_RANGE, 1);
	good(&im);
	put32(sec(&im, 1) + 0x0c, 32);
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_RANGE, 1);
	/* all of IRAM is fine */
	start(&im, 1);
	add(&im, KH_FW_T_IRAM, 0, KH_POOL_IRAM_SIZE, false);
	seal(&im);
	{
		struct kh_fw_image o;

		CHECK_EQ(parse(&im, &o), 0);
	}
}

TEST_F(core, section_crc)
{
	good(&im);
	put32(sec(&im, 1) + 0x10, 0x12345678);
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_SECTION_CRC, 1);
}

TEST_F(core, overlapping_sections)
{
	/* two IRAM sections sharing bytes */
	start(&im, 2);
	add(&im, KH_FW_T_IRAM, 0, 256, false);
	add(&im, KH_FW_T_IRAM, 224, 64, false);
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_OVERLAP, 1);
	/* an every-core section over core 3's own */
	start(&im, 3);
	add(&im, KH_FW_T_IRAM, 0, 64, false);
	add(&im, KH_FW_T_DATARAM(3), 512, 64, false);
	add(&im, KH_FW_T_DATARAM_ALL, 544, 32, true);
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_OVERLAP, 2);
	/* the same bytes of two cores' own DataRAMs do not overlap */
	start(&im, 3);
	add(&im, KH_FW_T_IRAM, 0, 64, false);
	add(&im, KH_FW_T_DATARAM(3), 512, 64, false);
	add(&im, KH_FW_T_DATARAM(4), 512, 64, false);
	seal(&im);
	{
		struct kh_fw_image o;

		CHECK_EQ(parse(&im, &o), 0);
	}
	/* IRAM and DataRAM at the same offsets are different memories */
	start(&im, 2);
	add(&im, KH_FW_T_IRAM, 0, 64, false);
	add(&im, KH_FW_T_DATARAM_ALL, 64, 64, false);
	seal(&im);
	{
		struct kh_fw_image o;

		CHECK_EQ(parse(&im, &o), 0);
	}
}

TEST_F(core, boot_mailbox_is_the_drivers)
{
	/* core 0's DataRAM bytes 0..31 hold the mailbox: data there is refused */
	start(&im, 2);
	add(&im, KH_FW_T_IRAM, 0, 64, false);
	add(&im, KH_FW_T_DATARAM(0), 0, 64, false);
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_OVERLAP, 1);
	start(&im, 2);
	add(&im, KH_FW_T_IRAM, 0, 64, false);
	add(&im, KH_FW_T_DATARAM_ALL, 0, 64, false);
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_OVERLAP, 1);
	/* zeros there, or another core's bytes 0..31, are fine */
	start(&im, 3);
	add(&im, KH_FW_T_IRAM, 0, 64, false);
	add(&im, KH_FW_T_DATARAM_ALL, 0, 64, true);
	add(&im, KH_FW_T_DATARAM(1), 64, 64, false);
	seal(&im);
	{
		struct kh_fw_image o;

		CHECK_EQ(parse(&im, &o), 0);
	}
}

TEST_F(core, entry_point)
{
	good(&im);
	put32(im.b + 0x14, 0x42);	/* misaligned */
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_ENTRY, 0);
	good(&im);
	put32(im.b + 0x14, 0x100);	/* past the code */
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_ENTRY, 0);
	good(&im);
	put32(im.b + 0x14, KH_POOL_DRAM_BASE);	/* in DataRAM */
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_ENTRY, 0);
	/* no IRAM section at all */
	start(&im, 1);
	add(&im, KH_FW_T_DATARAM_ALL, 64, 64, false);
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_ENTRY, 0);
}

TEST_F(core, every_section_count_up_to_the_limit)
{
	struct kh_fw_image o;
	unsigned int i;

	start(&im, KH_FW_MAX_SECTIONS);
	add(&im, KH_FW_T_IRAM, 0, 64, false);
	for (i = 1; i < KH_FW_MAX_SECTIONS; i++)
		add(&im, KH_FW_T_IRAM, 64 * i, 32, false);
	seal(&im);
	CHECK_EQ(parse(&im, &o), 0);
	CHECK_EQ(o.n, KH_FW_MAX_SECTIONS);
	put16(im.b + 0x18, KH_FW_MAX_SECTIONS + 1);
	seal(&im);
	REFUSED(&im, -EINVAL, KOHAKU_FW_ERR_HEADER, 0);
}

CHECK_TEST_MAIN

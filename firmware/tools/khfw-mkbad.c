// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * khfw-mkbad: the deliberately bad POOL firmware images the driver's tests
 * load, each derived from a good image and broken in one way only.
 *
 *   khfw-mkbad GOOD.fw OUTDIR
 *
 * writes into OUTDIR (firmware/README.md lists what each must provoke):
 *
 *   truncated.fw         the last 32 bytes cut off (image_size says more)
 *   bad-magic.fw         magic 'KHFZ'
 *   bad-crc.fw           a section byte flipped, the header CRC left stale
 *   bad-section-crc.fw   a section byte flipped, the header CRC recomputed
 *   section-oob.fw       the IRAM section moved to end past 64 KiB
 *   overlap.fw           a second IRAM section over the first one's bytes
 *   entry-outside.fw     entry = 64 KiB, outside every IRAM section
 *   api-major.fw         api_major one more than the driver's (EPROTO)
 *   oversize.fw          padded to 1 MiB + 32 bytes (E2BIG)
 *   mailbox.fw           a core 0 DataRAM section over the boot mailbox
 *   version-mismatch.fw  valid, but the header says a patch level more
 *                        than the firmware publishes in its mailbox
 *
 * Each is checked to be refused (or, for version-mismatch, accepted) for
 * the reason intended, so a change in the format cannot quietly make a
 * bad image test something else.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "khfw.h"

#define H(f)	offsetof(struct kh_fw_header, f)
#define S(f)	offsetof(struct kh_fw_section, f)

static const char *outdir;
static int failures;

static struct khfw_sec secs[KH_FW_MAX_SECTIONS + 1];
static unsigned int nsecs;
static struct khfw_meta meta;
static char name[KH_FW_NAME_LEN + 1];

/* write one image and check that it is refused with `err` and `want` */
static void emit(const char *file, const uint8_t *img, size_t len, int err,
		 const char *want)
{
	char path[4096], why[160];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", outdir, file);
	if (khfw_write_file(path, img, len)) {
		failures++;
		return;
	}
	ret = khfw_check(img, len, why, sizeof(why));
	if (ret != err || !strstr(why, want)) {
		fprintf(stderr, "khfw-mkbad: %s: check gave %d \"%s\", wanted %d \"%s\"\n",
			file, ret, why, err, want);
		failures++;
	}
}

static uint8_t *build(const struct khfw_meta *m, const struct khfw_sec *s,
		      unsigned int n, size_t *len)
{
	uint8_t *img = khfw_build(m, s, n, len);

	if (!img) {
		fprintf(stderr, "khfw-mkbad: cannot build\n");
		exit(1);
	}
	return img;
}

/* the good image's sections, to build variants from */
static int parse(const uint8_t *img, size_t len)
{
	unsigned int i;

	meta.fw_version = khfw_get32(img + H(fw_version));
	meta.api_major = khfw_get16(img + H(api_major));
	meta.api_minor = khfw_get16(img + H(api_minor));
	meta.entry = khfw_get32(img + H(entry));
	memcpy(name, img + H(name), KH_FW_NAME_LEN);
	meta.name = name;
	nsecs = khfw_get16(img + H(n_sections));
	for (i = 0; i < nsecs; i++) {
		const uint8_t *r = img + KH_FW_HEADER_SIZE +
				   i * KH_FW_SECTION_SIZE;

		secs[i].target = r[S(target)];
		secs[i].flags = r[S(flags)];
		secs[i].dest = khfw_get32(r + S(dest));
		secs[i].size = khfw_get32(r + S(size));
		secs[i].data = secs[i].flags & KH_FW_S_ZERO ? NULL :
			       img + khfw_get32(r + S(file_offset));
	}
	(void)len;
	return 0;
}

/* the first IRAM section's index */
static unsigned int iram_sec(void)
{
	unsigned int i;

	for (i = 0; i < nsecs; i++)
		if (secs[i].target == KH_FW_T_IRAM)
			return i;
	return 0;
}

int main(int argc, char **argv)
{
	static const uint8_t junk[KH_FW_ALIGN] = { 0x5a, 0xa5, 0x5a, 0xa5 };
	struct khfw_sec s2[KH_FW_MAX_SECTIONS + 1];
	struct khfw_meta m2;
	uint8_t *good, *img;
	size_t glen, len;
	unsigned int ir, foff;
	char why[160];

	if (argc != 3) {
		fprintf(stderr, "usage: khfw-mkbad GOOD.fw OUTDIR\n");
		return 2;
	}
	outdir = argv[2];
	good = khfw_read_file(argv[1], &glen);
	if (!good)
		return 1;
	if (khfw_check(good, glen, why, sizeof(why))) {
		fprintf(stderr, "khfw-mkbad: %s is refused itself: %s\n",
			argv[1], why);
		return 1;
	}
	parse(good, glen);
	ir = iram_sec();
	foff = khfw_get32(good + KH_FW_HEADER_SIZE + ir * KH_FW_SECTION_SIZE +
			  S(file_offset));

	emit("truncated.fw", good, glen - KH_FW_ALIGN, -EINVAL, "truncated");

	img = malloc(glen);
	if (!img)
		return 1;
	memcpy(img, good, glen);
	khfw_put32(img + H(magic), KH_FW_MAGIC ^ 0x0d000000);
	khfw_fix_crc(img, glen);
	emit("bad-magic.fw", img, glen, -EINVAL, "magic");

	memcpy(img, good, glen);
	img[foff + 4] ^= 0x01;
	emit("bad-crc.fw", img, glen, -EINVAL, "crc32");
	khfw_fix_crc(img, glen);
	emit("bad-section-crc.fw", img, glen, -EINVAL, "section");
	free(img);

	memcpy(s2, secs, sizeof(secs));
	s2[ir].dest = KH_POOL_IRAM_SIZE - s2[ir].size + KH_FW_ALIGN;
	img = build(&meta, s2, nsecs, &len);
	emit("section-oob.fw", img, len, -EINVAL, "past the memory");
	free(img);

	memcpy(s2, secs, sizeof(secs));
	s2[nsecs] = (struct khfw_sec){ KH_FW_T_IRAM, 0,
				       s2[ir].dest + KH_FW_ALIGN,
				       KH_FW_ALIGN, junk };
	img = build(&meta, s2, nsecs + 1, &len);
	emit("overlap.fw", img, len, -EINVAL, "overlap");
	free(img);

	m2 = meta;
	m2.entry = KH_POOL_IRAM_SIZE;
	img = build(&m2, secs, nsecs, &len);
	emit("entry-outside.fw", img, len, -EINVAL, "entry");
	free(img);

	m2 = meta;
	m2.api_major = KH_POOL_API_MAJOR + 1;
	img = build(&m2, secs, nsecs, &len);
	emit("api-major.fw", img, len, -EPROTO, "api_major");
	free(img);

	len = KH_FW_MAX_IMAGE + KH_FW_ALIGN;
	img = calloc(1, len);
	if (!img)
		return 1;
	memcpy(img, good, glen);
	khfw_put32(img + H(image_size), len);
	khfw_fix_crc(img, len);
	emit("oversize.fw", img, len, -E2BIG, "too large");
	free(img);

	memcpy(s2, secs, sizeof(secs));
	s2[nsecs] = (struct khfw_sec){ KH_FW_T_DATARAM(0), 0, 0,
				       KH_FW_ALIGN, junk };
	img = build(&meta, s2, nsecs + 1, &len);
	emit("mailbox.fw", img, len, -EINVAL, "mailbox");
	free(img);

	m2 = meta;
	m2.fw_version = meta.fw_version + 1;
	img = build(&m2, secs, nsecs, &len);
	emit("version-mismatch.fw", img, len, 0, "ok");
	free(img);

	free(good);
	return failures ? 1 : 0;
}

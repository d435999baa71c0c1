// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * khfw-pack: the POOL firmware packer (docs/spec/firmware-image.md).
 *
 *   khfw-pack [-V MAJ.MIN.PAT | -F VERSION_FILE] [-n NAME] -o OUT.fw IN.elf
 *   khfw-pack --dump IMAGE.fw     print the image, then check it
 *   khfw-pack --check IMAGE.fw    check it; one line, exit 1 if refused
 *
 * Packing reads the ELF32 program headers (no libelf): each PT_LOAD in
 * IRAM becomes an IRAM section, each in DataRAM a DATARAM_ALL section
 * (the same bytes in every core), its file bytes padded to 32 bytes, and
 * the rest of its memory size a ZERO section.  The API version is the
 * one in uapi/kohaku/kh_pool.h, the entry the ELF's.  The result is
 * checked as the driver checks it before it is written.
 */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "khfw.h"

#define E(f)	offsetof(Elf32_Ehdr, f)
#define P(f)	offsetof(Elf32_Phdr, f)

static void usage(void)
{
	fprintf(stderr,
		"usage: khfw-pack [-V MAJ.MIN.PAT | -F VERSION_FILE] [-n NAME] -o OUT.fw IN.elf\n"
		"       khfw-pack --dump IMAGE.fw\n"
		"       khfw-pack --check IMAGE.fw\n");
	exit(2);
}

static int parse_version(const char *s, uint32_t *v)
{
	unsigned int maj, min, pat;
	char tail;
	int r = sscanf(s, "%u.%u.%u%c", &maj, &min, &pat, &tail);

	if (r != 3 && !(r == 4 && isspace((unsigned char)tail)))
		return -1;
	if (maj > 0xffff || min > 0xff || pat > 0xff)
		return -1;
	*v = KH_FW_VERSION(maj, min, pat);
	return 0;
}

static int version_file(const char *path, uint32_t *v)
{
	size_t len;
	uint8_t *buf = khfw_read_file(path, &len);
	char s[64];
	int ret;

	if (!buf)
		return -1;
	len = len < sizeof(s) - 1 ? len : sizeof(s) - 1;
	memcpy(s, buf, len);
	s[len] = 0;
	free(buf);
	ret = parse_version(s, v);
	if (ret)
		fprintf(stderr, "%s: not MAJOR.MINOR.PATCH\n", path);
	return ret;
}

static int check_image(const char *path, bool dump)
{
	size_t len;
	uint8_t *img = khfw_read_file(path, &len);
	char why[160];
	int ret;

	if (!img)
		return 1;
	if (dump)
		khfw_dump(img, len, stdout);
	ret = khfw_check(img, len, why, sizeof(why));
	printf("%s: %s%s%s\n", path, ret ? "refused: " : "ok",
	       ret ? why : "", ret == -E2BIG ? " (E2BIG)" :
	       ret == -EPROTO ? " (EPROTO)" : "");
	free(img);
	return ret ? 1 : 0;
}

static uint32_t align32(uint32_t v)
{
	return (v + KH_FW_ALIGN - 1) & ~(uint32_t)(KH_FW_ALIGN - 1);
}

/* One PT_LOAD as up to two sections; returns the number added, or -1. */
static int add_segment(const uint8_t *elf, size_t elen, const uint8_t *ph,
		       struct khfw_sec *s, unsigned int room,
		       uint8_t **bufs)
{
	uint32_t vaddr = khfw_get32(ph + P(p_vaddr));
	uint32_t off = khfw_get32(ph + P(p_offset));
	uint32_t filesz = khfw_get32(ph + P(p_filesz));
	uint32_t memsz = khfw_get32(ph + P(p_memsz));
	uint32_t base, size, dest, fpad, mpad;
	uint8_t target;
	int n = 0;

	if (vaddr - KH_POOL_IRAM_BASE < KH_POOL_IRAM_SIZE) {
		target = KH_FW_T_IRAM;
		base = KH_POOL_IRAM_BASE;
		size = KH_POOL_IRAM_SIZE;
	} else if (vaddr - KH_POOL_DRAM_BASE < KH_POOL_DRAM_SIZE) {
		target = KH_FW_T_DATARAM_ALL;
		base = KH_POOL_DRAM_BASE;
		size = KH_POOL_DRAM_SIZE;
	} else {
		fprintf(stderr, "khfw-pack: segment at 0x%x is in neither IRAM nor DataRAM\n",
			vaddr);
		return -1;
	}
	dest = vaddr - base;
	fpad = align32(filesz);
	mpad = align32(memsz);
	if (dest % KH_FW_ALIGN || filesz > memsz ||
	    (uint64_t)dest + mpad > size ||
	    (uint64_t)off + filesz > elen) {
		fprintf(stderr, "khfw-pack: segment at 0x%x (file 0x%x, mem 0x%x) not 32-byte aligned, or past its memory or the file\n",
			vaddr, filesz, memsz);
		return -1;
	}
	if (filesz) {
		if (!room--)
			goto full;
		bufs[n] = calloc(1, fpad);
		if (!bufs[n])
			return -1;
		memcpy(bufs[n], elf + off, filesz);
		s[n] = (struct khfw_sec){ target, 0, dest, fpad, bufs[n] };
		n++;
	}
	if (mpad > fpad) {
		if (!room--)
			goto full;
		s[n] = (struct khfw_sec){ target, KH_FW_S_ZERO, dest + fpad,
					  mpad - fpad, NULL };
		n++;
	}
	return n;
full:
	fprintf(stderr, "khfw-pack: more than %u sections\n",
		KH_FW_MAX_SECTIONS);
	return -1;
}

static int pack(const char *in, const char *out, uint32_t version,
		const char *name)
{
	struct khfw_sec secs[KH_FW_MAX_SECTIONS];
	uint8_t *bufs[KH_FW_MAX_SECTIONS * 2] = { NULL };
	struct khfw_meta m = {
		.fw_version = version,
		.api_major = KH_POOL_API_MAJOR,
		.api_minor = KH_POOL_API_MINOR,
		.name = name,
	};
	unsigned int n = 0, i, nph, phentsize;
	size_t elen, ilen;
	uint8_t *elf, *img = NULL;
	uint32_t phoff;
	char why[160];
	int ret = 1;

	elf = khfw_read_file(in, &elen);
	if (!elf)
		return 1;
	if (elen < sizeof(Elf32_Ehdr) || memcmp(elf, ELFMAG, SELFMAG) ||
	    elf[EI_CLASS] != ELFCLASS32 || elf[EI_DATA] != ELFDATA2LSB ||
	    khfw_get16(elf + E(e_machine)) != EM_RISCV ||
	    khfw_get16(elf + E(e_type)) != ET_EXEC) {
		fprintf(stderr, "%s: not a little-endian ELF32 RISC-V executable\n",
			in);
		goto out;
	}
	m.entry = khfw_get32(elf + E(e_entry));
	phoff = khfw_get32(elf + E(e_phoff));
	nph = khfw_get16(elf + E(e_phnum));
	phentsize = khfw_get16(elf + E(e_phentsize));
	if (phentsize < sizeof(Elf32_Phdr) ||
	    (uint64_t)phoff + (uint64_t)nph * phentsize > elen) {
		fprintf(stderr, "%s: program headers past the end\n", in);
		goto out;
	}
	for (i = 0; i < nph; i++) {
		const uint8_t *ph = elf + phoff + i * phentsize;
		int added;

		if (khfw_get32(ph + P(p_type)) != PT_LOAD ||
		    !khfw_get32(ph + P(p_memsz)))
			continue;
		added = add_segment(elf, elen, ph, secs + n,
				    KH_FW_MAX_SECTIONS - n, bufs + n);
		if (added < 0)
			goto out;
		n += added;
	}
	if (!n) {
		fprintf(stderr, "%s: nothing to load\n", in);
		goto out;
	}
	img = khfw_build(&m, secs, n, &ilen);
	if (!img)
		goto out;
	if (khfw_check(img, ilen, why, sizeof(why))) {
		fprintf(stderr, "khfw-pack: %s: the image would be refused: %s\n",
			in, why);
		goto out;
	}
	if (khfw_write_file(out, img, ilen))
		goto out;
	ret = 0;
out:
	for (i = 0; i < KH_FW_MAX_SECTIONS * 2; i++)
		free(bufs[i]);
	free(img);
	free(elf);
	return ret;
}

int main(int argc, char **argv)
{
	const char *out = NULL, *in = NULL, *name = "kohaku-pool";
	uint32_t version = KH_FW_VERSION(0, 0, 0);
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--dump") || !strcmp(a, "--check")) {
			if (i + 2 != argc)
				usage();
			return check_image(argv[i + 1], !strcmp(a, "--dump"));
		} else if (!strcmp(a, "-V") && i + 1 < argc) {
			if (parse_version(argv[++i], &version)) {
				fprintf(stderr, "khfw-pack: -V %s: not MAJOR.MINOR.PATCH\n",
					argv[i]);
				return 2;
			}
		} else if (!strcmp(a, "-F") && i + 1 < argc) {
			if (version_file(argv[++i], &version))
				return 2;
		} else if (!strcmp(a, "-n") && i + 1 < argc) {
			name = argv[++i];
		} else if (!strcmp(a, "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (a[0] == '-' || in) {
			usage();
		} else {
			in = a;
		}
	}
	if (!in || !out)
		usage();
	if (strlen(name) > KH_FW_NAME_LEN) {
		fprintf(stderr, "khfw-pack: name longer than %u bytes\n",
			KH_FW_NAME_LEN);
		return 2;
	}
	return pack(in, out, version, name);
}

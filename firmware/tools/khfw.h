/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The POOL firmware image (docs/spec/firmware-image.md) for the host tools:
 * CRC-32, building an image from sections, checking one the way the driver
 * does, and printing one.  Shared by khfw-pack and khfw-mkbad.
 */
#ifndef KHFW_H
#define KHFW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>
#include <kohaku/kh_fw.h>
#include <kohaku/kh_pool.h>

/**
 * struct khfw_sec - a section to lay out into an image
 * @target: KH_FW_T_*.
 * @flags: KH_FW_S_*.
 * @dest: byte offset in the target memory.
 * @size: bytes (a multiple of KH_FW_ALIGN).
 * @data: @size bytes, or NULL with KH_FW_S_ZERO.
 */
struct khfw_sec {
	uint8_t target;
	uint8_t flags;
	uint32_t dest;
	uint32_t size;
	const uint8_t *data;
};

/**
 * struct khfw_meta - the header fields an image is built with
 * @fw_version: KH_FW_VERSION(major, minor, patch).
 * @api_major: the API major written (KH_POOL_API_MAJOR for a good image).
 * @api_minor: the API minor.
 * @entry: where the cores start.
 * @name: the firmware's name (at most KH_FW_NAME_LEN bytes are kept).
 */
struct khfw_meta {
	uint32_t fw_version;
	uint16_t api_major;
	uint16_t api_minor;
	uint32_t entry;
	const char *name;
};

/* zlib's crc32(): crc32(0, buf, len), chained by passing the last value */
uint32_t khfw_crc32(uint32_t crc, const void *buf, size_t len);
/* the raw table (for khfw-crcgen): entry n of slice k */
uint32_t khfw_crc32_slice(unsigned int k, unsigned int n);

/*
 * Lay sections out as an image: header, table, each section's bytes at the
 * next 32-byte boundary, every CRC filled in.  Returns a malloc'ed buffer
 * and its length in *len, or NULL (with a message on stderr).
 */
uint8_t *khfw_build(const struct khfw_meta *m, const struct khfw_sec *s,
		    unsigned int n, size_t *len);

/* Recompute the header CRC of an image in place (the tools' corruptions). */
void khfw_fix_crc(uint8_t *img, size_t len);

/*
 * Check an image as the driver does (firmware-image.md, checks 1..9, in
 * order).  Returns 0, or -EINVAL / -E2BIG / -EPROTO with the reason in why.
 */
int khfw_check(const uint8_t *img, size_t len, char *why, size_t whylen);

/* Print the header and the section table; every check's verdict follows. */
void khfw_dump(const uint8_t *img, size_t len, FILE *out);

/* Little-endian field access on an image buffer. */
uint32_t khfw_get32(const uint8_t *p);
uint16_t khfw_get16(const uint8_t *p);
void khfw_put32(uint8_t *p, uint32_t v);
void khfw_put16(uint8_t *p, uint16_t v);

/* Read a whole file; a malloc'ed buffer or NULL (message on stderr). */
uint8_t *khfw_read_file(const char *path, size_t *len);
int khfw_write_file(const char *path, const uint8_t *buf, size_t len);

#endif /* KHFW_H */

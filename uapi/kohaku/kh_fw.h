/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The POOL firmware image (docs/spec/firmware-image.md): a 64-byte header,
 * a table of 32-byte section records, then the sections' bytes.  Every
 * field is little-endian.  The packer (firmware/tools/) writes it; the
 * driver core (driver/core/kh_fw.c) validates all of it before the card
 * sees a byte.
 */
#ifndef _UAPI_KOHAKU_KH_FW_H
#define _UAPI_KOHAKU_KH_FW_H

#include <linux/types.h>

#define KH_FW_MAGIC		0x5746484bu	/* "KHFW" as bytes in the file */
#define KH_FW_FORMAT		1
#define KH_FW_HEADER_SIZE	64
#define KH_FW_SECTION_SIZE	32
#define KH_FW_MAX_SECTIONS	32
#define KH_FW_MAX_IMAGE		(1u << 20)	/* 1 MiB: more than the memories hold */
#define KH_FW_NAME_LEN		16
#define KH_FW_ALIGN		32	/* section dest, size and file offset */
#define KH_FW_PATH		"kohaku/pool.fw"	/* under /lib/firmware */

/* section targets */
#define KH_FW_T_IRAM		0x01	/* the shared IRAM */
#define KH_FW_T_DATARAM_ALL	0x02	/* the same bytes in every core's DataRAM */
#define KH_FW_T_DATARAM(c)	(0x10 + (c))	/* core c's DataRAM, c < 8 */
#define KH_FW_T_IS_DATARAM(t)	((t) >= 0x10 && (t) < 0x18)

/* section flags */
#define KH_FW_S_ZERO		0x1	/* no file bytes: fill @size with zeros */
#define KH_FW_S_FLAGS		KH_FW_S_ZERO

/**
 * struct kh_fw_header - the image's first 64 bytes
 * @magic: KH_FW_MAGIC.
 * @format: KH_FW_FORMAT.
 * @header_size: KH_FW_HEADER_SIZE.
 * @image_size: the file's size in bytes.
 * @fw_version: the firmware's own version, major << 16 | minor << 8 | patch;
 *	the firmware publishes the same value in its mailbox.
 * @api_major: the host-firmware API major (KH_POOL_API_MAJOR): must equal
 *	the driver's.
 * @api_minor: the API minor: the features the firmware offers.
 * @entry: where every core starts: in IRAM, 4-byte aligned.
 * @n_sections: 1..KH_FW_MAX_SECTIONS.
 * @section_offset: where the section table starts, KH_FW_HEADER_SIZE.
 * @crc32: CRC-32 (zlib's) of the whole image with this field zero.
 * @flags: zero.
 * @name: the firmware's name, NUL padded (not necessarily terminated).
 * @reserved: zero.
 */
struct kh_fw_header {
	__u32 magic;
	__u16 format;
	__u16 header_size;
	__u32 image_size;
	__u32 fw_version;
	__u16 api_major;
	__u16 api_minor;
	__u32 entry;
	__u16 n_sections;
	__u16 section_offset;
	__u32 crc32;
	__u32 flags;
	char name[KH_FW_NAME_LEN];
	__u32 reserved[3];
};

/**
 * struct kh_fw_section - one record of the section table
 * @target: KH_FW_T_*.
 * @flags: KH_FW_S_*.
 * @reserved0: zero.
 * @dest: the byte offset in the target memory, KH_FW_ALIGN aligned.
 * @size: bytes, a nonzero multiple of KH_FW_ALIGN.
 * @file_offset: where the bytes are in the image, KH_FW_ALIGN aligned,
 *	after the section table; zero with KH_FW_S_ZERO.
 * @crc32: CRC-32 of the section's bytes (zeros with KH_FW_S_ZERO).
 * @reserved: zero.
 */
struct kh_fw_section {
	__u8 target;
	__u8 flags;
	__u16 reserved0;
	__u32 dest;
	__u32 size;
	__u32 file_offset;
	__u32 crc32;
	__u32 reserved[3];
};

#define KH_FW_VERSION(maj, min, pat) \
	((((__u32)(maj)) << 16) | (((min) & 0xff) << 8) | ((pat) & 0xff))
#define KH_FW_VERSION_MAJOR(v)	(((v) >> 16) & 0xffff)
#define KH_FW_VERSION_MINOR(v)	(((v) >> 8) & 0xff)
#define KH_FW_VERSION_PATCH(v)	((v) & 0xff)

#endif /* _UAPI_KOHAKU_KH_FW_H */

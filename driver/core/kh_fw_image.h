/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The firmware image parser (kh_fw_image.c), on its own so that the fuzzer
 * (tests/fuzz/) can include it without the rest of the core.
 */
#ifndef KH_FW_IMAGE_H
#define KH_FW_IMAGE_H

#include <linux/types.h>

#include "kohaku/kh_fw.h"
#include "kohaku/kh_pool.h"

/**
 * struct kh_fw_image - a parsed, checked image
 * @data: the image's bytes (borrowed from the caller of kh_fw_parse()).
 * @len: their count.
 * @hdr: the header, in host order.
 * @sec: the section table, in host order.
 * @n: sections in @sec.
 * @name: the header's name, NUL terminated.
 * @reason: KOHAKU_FW_OK or the rule broken (KOHAKU_FW_ERR_*).
 * @detail: the section the reason is about, else 0.
 * @why: the reason in words, with the values that broke the rule.
 */
struct kh_fw_image {
	const u8 *data;
	size_t len;
	struct kh_fw_header hdr;
	struct kh_fw_section sec[KH_FW_MAX_SECTIONS];
	unsigned int n;
	char name[KH_FW_NAME_LEN + 1];
	u32 reason;
	u32 detail;
	char why[160];
};

/**
 * kh_fw_parse() - check every rule of an image
 * @data: the image.
 * @len: its bytes.
 * @img: out: the parsed image; on failure its reason, detail and why.
 *
 * Return: 0, or -EINVAL, -E2BIG (too large) or -EPROTO (API major).
 */
int kh_fw_parse(const void *data, size_t len, struct kh_fw_image *img);

#endif /* KH_FW_IMAGE_H */

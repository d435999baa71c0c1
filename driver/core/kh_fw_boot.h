/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The firmware loader's parts (kh_fw.c: the device and the ioctl;
 * kh_fw_boot.c: one unit; kh_fw_image.c: the image).
 */
#ifndef KH_FW_BOOT_H
#define KH_FW_BOOT_H

#include "kh_priv.h"
#include "kh_fw_image.h"

/* the LOAD job of one unit: this much device time at most */
#define KH_FW_LOAD_TIMEOUT_NS	1000000000ULL

/**
 * struct kh_boot - booting one POOL unit
 * @img: the image.
 * @node: the unit.
 * @by_dma: load with LOAD instructions from @src; else through the mailbox.
 * @src: the image's copy in the unit's mesh memory (a mesh address).
 * @zeros: zeros there, as long as the largest zero-fill section.
 * @timeout_ns: device time from release to READY.
 * @reason: out: KOHAKU_FW_ERR_* when it failed.
 * @t_release: out: device time the cores were released.
 * @boot_ns: out: from release to READY.
 * @fw_version: out: what the firmware published.
 * @fw_api: out: likewise.
 * @trap: out: the TRAP register, when a core trapped.
 */
struct kh_boot {
	const struct kh_fw_image *img;
	struct kh_node *node;
	bool by_dma;
	u64 src, zeros;
	u64 timeout_ns;
	u32 reason;
	u64 t_release;
	u64 boot_ns;
	u32 fw_version, fw_api;
	u64 trap;
};

/* Hold, load, release, READY, CLAIM: 0 or an errno with b->reason. */
int kh_fw_boot_unit(struct kh_boot *b);
void kh_fw_hold_unit(struct kh_node *n);

#endif /* KH_FW_BOOT_H */

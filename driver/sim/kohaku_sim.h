/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * kohaku_sim.ko: the Linux host of the device model (docs/linux.md), netdevsim
 * style.  Its files, one concern each:
 *
 *   main.c                module init/exit, parameters, the card list,
 *                         creating and destroying a card
 *   ctl.c                 the control files new_card and del_card under
 *                         /sys/devices/kohaku_sim/
 *   debugfs.c             the model's knobs, per card, under
 *                         /sys/kernel/debug/kohaku_sim/cardN/
 *
 * Each card is a model card behind the model's adapter to the
 * register-access seam (ksim_hw.h), offered to kohaku.ko as the
 * platform_data of a platform device "kohaku_sim".<id>.  This host sees the
 * model and the seam, never driver/core.
 */
#ifndef KOHAKU_SIM_H
#define KOHAKU_SIM_H

#include <linux/list.h>
#include <linux/types.h>

#define KOHAKU_SIM_DEV_NAME	"kohaku_sim"
#define KOHAKU_SIM_MAX_ID	65535
#define KOHAKU_SIM_ERRLEN	256	/* the model's error messages */

struct dentry;
struct device;
struct ksim_hw;
struct platform_device;

/**
 * struct kohaku_sim_card - one simulated card
 * @link: in the module's card list.
 * @id: the card's id: its platform device is kohaku_sim.<id>.
 * @sh: the model card behind the register-access seam; every call into the
 *	model takes its lock (ksim_hw_lock()).
 * @pdev: the platform device kohaku.ko binds to.
 * @dbg: the card's debugfs directory, cardN/ (an error pointer or NULL
 *	without debugfs).
 */
struct kohaku_sim_card {
	struct list_head link;
	unsigned int id;
	struct ksim_hw *sh;
	struct platform_device *pdev;
	struct dentry *dbg;
};

/* main.c: cards by id; 0 or a negative errno, logged */
int kohaku_sim_card_new(unsigned int id, const char *desc, const char *what);
int kohaku_sim_card_del(unsigned int id);

/* ctl.c: new_card and del_card in the root device */
int kohaku_sim_ctl_add(struct device *root);
void kohaku_sim_ctl_remove(struct device *root);

/* debugfs.c: the knob files; debugfs may be absent */
void kohaku_sim_debugfs_init(void);
void kohaku_sim_debugfs_exit(void);
void kohaku_sim_debugfs_add_card(struct kohaku_sim_card *c);
void kohaku_sim_debugfs_remove_card(struct kohaku_sim_card *c);

#endif /* KOHAKU_SIM_H */

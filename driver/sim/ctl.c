// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku_sim.ko: the control files in the root device (docs/linux.md):
 *
 *   /sys/devices/kohaku_sim/new_card   "ID NAME"          built-in NAME
 *                                      "ID\n<description>" a card description
 *   /sys/devices/kohaku_sim/del_card   "ID"
 *
 * Errors go to dmesg and fail the write.
 */

#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "ksim.h"
#include "kohaku_sim.h"

static bool kohaku_sim_blank(const char *s)
{
	return !s || !*skip_spaces(s);
}

/*
 * "ID NAME"             card ID from the built-in description NAME
 * "ID\n<description>"   card ID from the description text that follows
 */
static ssize_t new_card_store(struct device *dev,
			      struct device_attribute *attr,
			      const char *buf, size_t count)
{
	char *text, *line, *rest, *tok, *tokens[2] = { }, msg[128];
	const char *nl;
	unsigned int id, n = 0;
	size_t first;
	const char *desc;
	int ret = -EINVAL;

	/* text only: the id line, then the description (its own line numbers) */
	nl = memchr(buf, '\n', count);
	first = nl ? nl - buf + 1 : count;
	if (ksim_desc_text_check(buf, first, msg, sizeof(msg))) {
		pr_err("kohaku_sim: new_card: the id line: %s\n", msg);
		return -EINVAL;
	}
	if (ksim_desc_text_check(buf + first, count - first, msg, sizeof(msg))) {
		pr_err("kohaku_sim: new_card: the description: %s\n", msg);
		return -EINVAL;
	}
	text = kmemdup_nul(buf, count, GFP_KERNEL);
	if (!text)
		return -ENOMEM;

	/* the first line holds ID and maybe NAME; the rest is a description */
	line = text;
	rest = strchr(text, '\n');
	if (rest)
		*rest++ = '\0';
	while ((tok = strsep(&line, " \t\r")) != NULL) {
		if (!*tok)
			continue;
		if (n < ARRAY_SIZE(tokens))
			tokens[n] = tok;
		n++;
	}

	if (n < 1 || n > 2 || kstrtouint(tokens[0], 10, &id)) {
		pr_err("kohaku_sim: new_card: expected \"ID NAME\", or \"ID\" and a description on the next lines\n");
		goto out;
	}

	if (n == 2) {
		if (!kohaku_sim_blank(rest)) {
			pr_err("kohaku_sim: new_card %u: both a name and a description given\n",
			       id);
			goto out;
		}
		desc = ksim_builtin_desc(tokens[1]);
		if (!desc) {
			pr_err("kohaku_sim: new_card %u: no built-in description '%s'\n",
			       id, tokens[1]);
			goto out;
		}
		ret = kohaku_sim_card_new(id, desc, tokens[1]);
	} else {
		if (kohaku_sim_blank(rest)) {
			pr_err("kohaku_sim: new_card %u: no description after the id line\n",
			       id);
			goto out;
		}
		ret = kohaku_sim_card_new(id, rest, "description");
	}
out:
	kfree(text);
	return ret ? ret : count;
}
static DEVICE_ATTR_WO(new_card);

static ssize_t del_card_store(struct device *dev,
			      struct device_attribute *attr,
			      const char *buf, size_t count)
{
	unsigned int id;
	int ret;

	ret = kstrtouint(buf, 10, &id);
	if (ret) {
		pr_err("kohaku_sim: del_card: expected a card id\n");
		return -EINVAL;
	}
	ret = kohaku_sim_card_del(id);
	return ret ? ret : count;
}
static DEVICE_ATTR_WO(del_card);

static struct attribute *kohaku_sim_ctl_attrs[] = {
	&dev_attr_new_card.attr,
	&dev_attr_del_card.attr,
	NULL
};

static const struct attribute_group kohaku_sim_ctl_group = {
	.attrs = kohaku_sim_ctl_attrs,
};

int kohaku_sim_ctl_add(struct device *root)
{
	return sysfs_create_group(&root->kobj, &kohaku_sim_ctl_group);
}

/* Waits for writers still in new_card/del_card. */
void kohaku_sim_ctl_remove(struct device *root)
{
	sysfs_remove_group(&root->kobj, &kohaku_sim_ctl_group);
}

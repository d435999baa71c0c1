// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku_sim.ko: simulated KohakuAccel cards in the kernel, netdevsim
 * style.  The device model (sim-backend/, ksim.h) is compiled into this
 * module; each card is a platform device "kohaku_sim".<id> under the root
 * device /sys/devices/kohaku_sim/, whose platform_data is the struct
 * kh_hw kohaku.ko binds with, exactly as to a PCI card.
 *
 * Control files (docs/linux.md):
 *   /sys/devices/kohaku_sim/new_card   "ID NAME"          built-in NAME
 *                                      "ID\n<description>" a card description
 *   /sys/devices/kohaku_sim/del_card   "ID"
 * Module parameter cards= lists built-in names created at load, ids 0, 1, ...
 * and check=1 turns the model's protocol checker on in every new card.
 *
 * The model's knobs (docs/spec/fault-injection.md), per card in debugfs,
 * netdevsim style, /sys/kernel/debug/kohaku_sim/cardN/:
 *   inject  (w)   a knob, as after "inject": "drop link=R1,1.E count=1"
 *   check   (rw)  the checker's report; "on [bounds]" / "off"
 *   trace   (rw)  the event trace, one line per event; "on ..."/"off"/"clear"
 *   knobs   (r)   the knobs set, one per line
 *   stats   (r)   counters per mesh, link and unit
 * A refused line fails the write with EINVAL and logs the model's message.
 */

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ksim_hw.h"

#define KH_SIM_DEV_NAME		"kohaku_sim"
#define KH_SIM_MAX_ID		65535
#define KH_SIM_ERRLEN		256

static char *cards = "saxpy";
module_param(cards, charp, 0444);
MODULE_PARM_DESC(cards,
		 "comma-separated built-in card descriptions created at load (ids 0, 1, ...)");

static bool check;
module_param(check, bool, 0644);
MODULE_PARM_DESC(check,
		 "turn the model's protocol checker on in cards created from now on");

struct kh_simcard {
	struct list_head link;		/* in kh_sim_cards */
	unsigned int id;
	struct ksim_hw *sh;		/* the model card, its lock, its ops */
	struct platform_device *pdev;
	struct dentry *dbg;		/* cardN/ in debugfs */
};

static struct device *kh_sim_root;
static struct dentry *kh_sim_dbg_root;
static LIST_HEAD(kh_sim_cards);
static DEFINE_MUTEX(kh_sim_cards_lock);	/* the list; create and delete */

/* ---- debugfs: the model's knobs ---- */

#define KH_DBG_LINE_MAX		512
#define KH_DBG_TEXT		65536
#define KH_DBG_TRACE_CHUNK	(4 * PAGE_SIZE)

/* A command line: prefix ("inject", "check", "trace") and what was written. */
static ssize_t kh_dbg_command(struct kh_simcard *c, const char *prefix,
			      const char __user *ubuf, size_t count)
{
	char *text, *line, *err;
	size_t n;
	int ret;

	if (count >= KH_DBG_LINE_MAX)
		return -EINVAL;
	text = memdup_user_nul(ubuf, count);
	if (IS_ERR(text))
		return PTR_ERR(text);
	n = strcspn(text, "\n");
	text[n] = 0;
	line = kasprintf(GFP_KERNEL, "%s %s", prefix, text);
	err = kzalloc(KH_SIM_ERRLEN, GFP_KERNEL);
	if (!line || !err) {
		ret = -ENOMEM;
		goto out;
	}
	ret = ksim_command(ksim_hw_lock(c->sh), line, err, KH_SIM_ERRLEN);
	ksim_hw_unlock(c->sh);
	if (ret)
		pr_warn("kohaku_sim: card %u: %s: %s\n", c->id, line, err);
out:
	kfree(err);
	kfree(line);
	kfree(text);
	return ret ? ret : count;
}

static ssize_t kh_dbg_inject_write(struct file *f, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	return kh_dbg_command(f->private_data, "inject", ubuf, count);
}

/* Texts made whole at open: stats, knobs, the checker's report. */
struct kh_dbg_text {
	size_t len;
	char buf[];
};

enum { KH_DBG_STATS, KH_DBG_KNOBS, KH_DBG_CHECK };

static size_t kh_dbg_gen(struct kh_simcard *c, int what, char *buf,
			 size_t len)
{
	struct ksim_card *card = ksim_hw_lock(c->sh);
	size_t n;

	switch (what) {
	case KH_DBG_STATS:
		n = ksim_dump_stats(card, buf, len);
		break;
	case KH_DBG_KNOBS:
		n = ksim_dump_knobs(card, buf, len);
		break;
	default:
		ksim_check_report(card, buf, len);
		n = strlen(buf);
		if (n + 1 >= len)
			n = len * 2;	/* maybe cut: ask for more */
		break;
	}
	ksim_hw_unlock(c->sh);
	return n;
}

static int kh_dbg_text_open(struct inode *inode, struct file *f, int what)
{
	struct kh_simcard *c = inode->i_private;
	size_t len = KH_DBG_TEXT, n;
	struct kh_dbg_text *t;

	for (;;) {
		t = kvzalloc(sizeof(*t) + len, GFP_KERNEL);
		if (!t)
			return -ENOMEM;
		n = kh_dbg_gen(c, what, t->buf, len);
		if (n < len)
			break;
		kvfree(t);
		len = n + 1;
	}
	t->len = n;
	f->private_data = t;
	return 0;
}

static int kh_dbg_stats_open(struct inode *inode, struct file *f)
{
	return kh_dbg_text_open(inode, f, KH_DBG_STATS);
}

static int kh_dbg_knobs_open(struct inode *inode, struct file *f)
{
	return kh_dbg_text_open(inode, f, KH_DBG_KNOBS);
}

static int kh_dbg_check_open(struct inode *inode, struct file *f)
{
	/* written only: the command, no report to make */
	if (!(f->f_mode & FMODE_READ)) {
		f->private_data = inode->i_private;
		return 0;
	}
	return kh_dbg_text_open(inode, f, KH_DBG_CHECK);
}

static ssize_t kh_dbg_text_read(struct file *f, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct kh_dbg_text *t = f->private_data;

	return simple_read_from_buffer(ubuf, count, ppos, t->buf, t->len);
}

static int kh_dbg_text_release(struct inode *inode, struct file *f)
{
	if (f->f_mode & FMODE_READ)
		kvfree(f->private_data);
	return 0;
}

static ssize_t kh_dbg_check_cmd(struct file *f, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct kh_simcard *c = f->f_inode->i_private;

	return kh_dbg_command(c, "check", ubuf, count);
}

static const struct file_operations kh_dbg_inject_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = kh_dbg_inject_write,
	.llseek = noop_llseek,
};

static const struct file_operations kh_dbg_stats_fops = {
	.owner = THIS_MODULE,
	.open = kh_dbg_stats_open,
	.read = kh_dbg_text_read,
	.release = kh_dbg_text_release,
	.llseek = default_llseek,
};

static const struct file_operations kh_dbg_knobs_fops = {
	.owner = THIS_MODULE,
	.open = kh_dbg_knobs_open,
	.read = kh_dbg_text_read,
	.release = kh_dbg_text_release,
	.llseek = default_llseek,
};

static const struct file_operations kh_dbg_check_fops = {
	.owner = THIS_MODULE,
	.open = kh_dbg_check_open,
	.read = kh_dbg_text_read,
	.write = kh_dbg_check_cmd,
	.release = kh_dbg_text_release,
	.llseek = default_llseek,
};

/* The trace, streamed: whole lines, a chunk at a time, read in order. */
struct kh_dbg_trace {
	struct kh_simcard *c;
	u64 pos;		/* ksim_trace_text()'s cursor */
	size_t len, off;
	char buf[KH_DBG_TRACE_CHUNK];
};

static int kh_dbg_trace_open(struct inode *inode, struct file *f)
{
	struct kh_dbg_trace *t;

	if (!(f->f_mode & FMODE_READ)) {
		f->private_data = NULL;
		return 0;
	}
	t = kvzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->c = inode->i_private;
	f->private_data = t;
	return 0;
}

static ssize_t kh_dbg_trace_read(struct file *f, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct kh_dbg_trace *t = f->private_data;
	size_t done = 0, n;

	while (done < count) {
		if (t->off == t->len) {
			t->len = ksim_trace_text(ksim_hw_lock(t->c->sh),
						 &t->pos, t->buf,
						 sizeof(t->buf));
			ksim_hw_unlock(t->c->sh);
			t->off = 0;
			if (!t->len)
				break;
		}
		n = min(count - done, t->len - t->off);
		if (copy_to_user(ubuf + done, t->buf + t->off, n))
			return done ? done : -EFAULT;
		t->off += n;
		done += n;
	}
	*ppos += done;
	return done;
}

static ssize_t kh_dbg_trace_write(struct file *f, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	return kh_dbg_command(f->f_inode->i_private, "trace", ubuf, count);
}

static int kh_dbg_trace_release(struct inode *inode, struct file *f)
{
	kvfree(f->private_data);
	return 0;
}

static const struct file_operations kh_dbg_trace_fops = {
	.owner = THIS_MODULE,
	.open = kh_dbg_trace_open,
	.read = kh_dbg_trace_read,
	.write = kh_dbg_trace_write,
	.release = kh_dbg_trace_release,
	.llseek = noop_llseek,
};

static void kh_simcard_debugfs(struct kh_simcard *c)
{
	char name[24];

	if (IS_ERR_OR_NULL(kh_sim_dbg_root))
		return;
	snprintf(name, sizeof(name), "card%u", c->id);
	c->dbg = debugfs_create_dir(name, kh_sim_dbg_root);
	debugfs_create_file("inject", 0200, c->dbg, c, &kh_dbg_inject_fops);
	debugfs_create_file("check", 0600, c->dbg, c, &kh_dbg_check_fops);
	debugfs_create_file("trace", 0600, c->dbg, c, &kh_dbg_trace_fops);
	debugfs_create_file("knobs", 0400, c->dbg, c, &kh_dbg_knobs_fops);
	debugfs_create_file("stats", 0400, c->dbg, c, &kh_dbg_stats_fops);
}

/* ---- cards ---- */

static struct kh_simcard *kh_simcard_find(unsigned int id)
{
	struct kh_simcard *c;

	list_for_each_entry(c, &kh_sim_cards, link)
		if (c->id == id)
			return c;
	return NULL;
}

/* Create card id from a description; what: how the user named it, for logs. */
static int kh_simcard_new(unsigned int id, const char *desc, const char *what)
{
	struct platform_device_info pdevinfo = { };
	struct ksim_card *sim;
	struct kh_simcard *c;
	unsigned int n_mesh;
	char *err;
	int ret;

	if (id > KH_SIM_MAX_ID) {
		pr_err("kohaku_sim: card id %u out of range (0..%u)\n",
		       id, KH_SIM_MAX_ID);
		return -EINVAL;
	}

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	err = kzalloc(KH_SIM_ERRLEN, GFP_KERNEL);
	if (!c || !err) {
		ret = -ENOMEM;
		goto out_free;
	}
	c->id = id;

	mutex_lock(&kh_sim_cards_lock);
	if (kh_simcard_find(id)) {
		pr_err("kohaku_sim: card %u already exists\n", id);
		ret = -EEXIST;
		goto out_unlock;
	}

	ret = ksim_card_create_flags(desc, check ? KSIM_CHECK : 0, &sim,
				       err, KH_SIM_ERRLEN);
	if (ret) {
		pr_err("kohaku_sim: card %u (%s): %s\n", id, what,
		       err[0] ? err : "bad description");
		goto out_unlock;
	}
	/* for the log line below, when another writer may delete the card */
	n_mesh = ksim_mesh_count(sim);
	c->sh = ksim_hw_create(sim);
	if (!c->sh) {
		ksim_card_destroy(sim);
		ret = -ENOMEM;
		goto out_unlock;
	}

	/* binds kohaku.ko, when loaded, before returning; it copies the data */
	pdevinfo.parent = kh_sim_root;
	pdevinfo.name = KH_SIM_DEV_NAME;
	pdevinfo.id = id;
	pdevinfo.data = ksim_hw_get(c->sh);
	pdevinfo.size_data = sizeof(struct kh_hw);
	c->pdev = platform_device_register_full(&pdevinfo);
	if (IS_ERR(c->pdev)) {
		ret = PTR_ERR(c->pdev);
		pr_err("kohaku_sim: card %u: platform device: %d\n", id, ret);
		ksim_hw_destroy(c->sh);
		goto out_unlock;
	}

	list_add_tail(&c->link, &kh_sim_cards);
	kh_simcard_debugfs(c);
	mutex_unlock(&kh_sim_cards_lock);
	pr_info("kohaku_sim: card %u (%s): %u mesh(es)\n", id, what, n_mesh);
	kfree(err);
	return 0;

out_unlock:
	mutex_unlock(&kh_sim_cards_lock);
out_free:
	kfree(err);
	kfree(c);
	return ret;
}

/* Called with kh_sim_cards_lock held; c is off the list already. */
static void kh_simcard_destroy(struct kh_simcard *c)
{
	/* first the knobs: removal waits for readers and writers in them */
	debugfs_remove_recursive(c->dbg);
	/* unbinds kohaku.ko, which may still touch the card on the way out */
	platform_device_unregister(c->pdev);
	ksim_hw_destroy(c->sh);
	pr_info("kohaku_sim: card %u deleted\n", c->id);
	kfree(c);
}

static int kh_simcard_del(unsigned int id)
{
	struct kh_simcard *c;

	mutex_lock(&kh_sim_cards_lock);
	c = kh_simcard_find(id);
	if (c)
		list_del(&c->link);
	if (c)
		kh_simcard_destroy(c);
	mutex_unlock(&kh_sim_cards_lock);
	if (!c) {
		pr_err("kohaku_sim: del_card: no card %u\n", id);
		return -ENOENT;
	}
	return 0;
}

static void kh_simcard_del_all(void)
{
	struct kh_simcard *c, *tmp;

	mutex_lock(&kh_sim_cards_lock);
	list_for_each_entry_safe_reverse(c, tmp, &kh_sim_cards, link) {
		list_del(&c->link);
		kh_simcard_destroy(c);
	}
	mutex_unlock(&kh_sim_cards_lock);
}

/* ---- control files ---- */

static bool kh_blank(const char *s)
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
	char *text, *line, *rest, *tok, *tokens[2] = { };
	unsigned int id, n = 0;
	const char *desc;
	int ret = -EINVAL;

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
		if (!kh_blank(rest)) {
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
		ret = kh_simcard_new(id, desc, tokens[1]);
	} else {
		if (kh_blank(rest)) {
			pr_err("kohaku_sim: new_card %u: no description after the id line\n",
			       id);
			goto out;
		}
		ret = kh_simcard_new(id, rest, "description");
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
	ret = kh_simcard_del(id);
	return ret ? ret : count;
}
static DEVICE_ATTR_WO(del_card);

static struct attribute *kh_sim_root_attrs[] = {
	&dev_attr_new_card.attr,
	&dev_attr_del_card.attr,
	NULL
};

static const struct attribute_group kh_sim_root_group = {
	.attrs = kh_sim_root_attrs,
};

/* ---- module ---- */

static int kh_sim_create_param_cards(void)
{
	char *list, *p, *name;
	unsigned int id = 0;
	const char *desc;
	int ret = 0;

	list = kstrdup(cards ? cards : "", GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	p = list;
	while ((name = strsep(&p, ",")) != NULL) {
		name = strim(name);
		if (!*name)
			continue;
		desc = ksim_builtin_desc(name);
		if (!desc) {
			pr_err("kohaku_sim: cards=: no built-in description '%s'\n",
			       name);
			ret = -EINVAL;
			break;
		}
		ret = kh_simcard_new(id++, desc, name);
		if (ret)
			break;
	}
	kfree(list);
	return ret;
}

static int __init kh_sim_init(void)
{
	int ret;

	kh_sim_root = root_device_register(KH_SIM_DEV_NAME);
	if (IS_ERR(kh_sim_root))
		return PTR_ERR(kh_sim_root);
	/* debugfs may be absent: the cards work without their knobs */
	kh_sim_dbg_root = debugfs_create_dir(KH_SIM_DEV_NAME, NULL);

	ret = kh_sim_create_param_cards();
	if (ret)
		goto err;

	ret = sysfs_create_group(&kh_sim_root->kobj, &kh_sim_root_group);
	if (ret)
		goto err;
	return 0;

err:
	kh_simcard_del_all();
	debugfs_remove_recursive(kh_sim_dbg_root);
	root_device_unregister(kh_sim_root);
	return ret;
}

static void __exit kh_sim_exit(void)
{
	/* waits for writers still in new_card/del_card */
	sysfs_remove_group(&kh_sim_root->kobj, &kh_sim_root_group);
	kh_simcard_del_all();
	debugfs_remove_recursive(kh_sim_dbg_root);
	root_device_unregister(kh_sim_root);
}

module_init(kh_sim_init);
module_exit(kh_sim_exit);

MODULE_DESCRIPTION("Simulated KohakuAccel cards (the Kohaku device model)");
MODULE_LICENSE("Dual MIT/GPL");

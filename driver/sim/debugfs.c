// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku_sim.ko: the model's knobs (docs/spec/fault-injection.md), per card
 * in debugfs, netdevsim style, /sys/kernel/debug/kohaku_sim/cardN/:
 *
 *   inject  (w)   a knob, as after "inject": "drop link=R1,1.E count=1"
 *   check   (rw)  the checker's report; "on [bounds]" / "off"
 *   trace   (rw)  the event trace, one line per event; "on ..."/"off"/"clear"
 *   knobs   (r)   the knobs set, one per line
 *   stats   (r)   counters per mesh, link and unit
 *
 * A refused line fails the write with EINVAL and logs the model's message.
 * Every call into the model is under the card's lock (ksim_hw_lock()), the
 * one kohaku.ko's register accesses take too.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "ksim_hw.h"
#include "kohaku_sim.h"

#define KOHAKU_SIM_DBG_LINE_MAX		512
#define KOHAKU_SIM_DBG_TEXT		65536
#define KOHAKU_SIM_DBG_TRACE_CHUNK	(4 * PAGE_SIZE)

static struct dentry *kohaku_sim_dbg_root;

/* A command line: prefix ("inject", "check", "trace") and what was written. */
static ssize_t kohaku_sim_dbg_command(struct kohaku_sim_card *c,
				      const char *prefix,
				      const char __user *ubuf, size_t count)
{
	char *text, *line, *err;
	size_t n;
	int ret;

	if (count >= KOHAKU_SIM_DBG_LINE_MAX)
		return -EINVAL;
	text = memdup_user_nul(ubuf, count);
	if (IS_ERR(text))
		return PTR_ERR(text);
	n = strcspn(text, "\n");
	text[n] = 0;
	line = kasprintf(GFP_KERNEL, "%s %s", prefix, text);
	err = kzalloc(KOHAKU_SIM_ERRLEN, GFP_KERNEL);
	if (!line || !err) {
		ret = -ENOMEM;
		goto out;
	}
	ret = ksim_command(ksim_hw_lock(c->sh), line, err, KOHAKU_SIM_ERRLEN);
	ksim_hw_unlock(c->sh);
	if (ret)
		pr_warn("kohaku_sim: card %u: %s: %s\n", c->id, line, err);
out:
	kfree(err);
	kfree(line);
	kfree(text);
	return ret ? ret : count;
}

static ssize_t kohaku_sim_dbg_inject_write(struct file *f,
					   const char __user *ubuf,
					   size_t count, loff_t *ppos)
{
	return kohaku_sim_dbg_command(f->private_data, "inject", ubuf, count);
}

/* Texts made whole at open: stats, knobs, the checker's report. */
struct kohaku_sim_dbg_text {
	size_t len;
	char buf[];
};

enum {
	KOHAKU_SIM_DBG_STATS,
	KOHAKU_SIM_DBG_KNOBS,
	KOHAKU_SIM_DBG_CHECK,
};

static size_t kohaku_sim_dbg_gen(struct kohaku_sim_card *c, int what,
				 char *buf, size_t len)
{
	struct ksim_card *card = ksim_hw_lock(c->sh);
	size_t n;

	switch (what) {
	case KOHAKU_SIM_DBG_STATS:
		n = ksim_dump_stats(card, buf, len);
		break;
	case KOHAKU_SIM_DBG_KNOBS:
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

static int kohaku_sim_dbg_text_open(struct inode *inode, struct file *f,
				    int what)
{
	struct kohaku_sim_card *c = inode->i_private;
	size_t len = KOHAKU_SIM_DBG_TEXT, n;
	struct kohaku_sim_dbg_text *t;

	for (;;) {
		t = kvzalloc(sizeof(*t) + len, GFP_KERNEL);
		if (!t)
			return -ENOMEM;
		n = kohaku_sim_dbg_gen(c, what, t->buf, len);
		if (n < len)
			break;
		kvfree(t);
		len = n + 1;
	}
	t->len = n;
	f->private_data = t;
	return 0;
}

static int kohaku_sim_dbg_stats_open(struct inode *inode, struct file *f)
{
	return kohaku_sim_dbg_text_open(inode, f, KOHAKU_SIM_DBG_STATS);
}

static int kohaku_sim_dbg_knobs_open(struct inode *inode, struct file *f)
{
	return kohaku_sim_dbg_text_open(inode, f, KOHAKU_SIM_DBG_KNOBS);
}

static int kohaku_sim_dbg_check_open(struct inode *inode, struct file *f)
{
	/* written only: the command, no report to make */
	if (!(f->f_mode & FMODE_READ)) {
		f->private_data = inode->i_private;
		return 0;
	}
	return kohaku_sim_dbg_text_open(inode, f, KOHAKU_SIM_DBG_CHECK);
}

static ssize_t kohaku_sim_dbg_text_read(struct file *f, char __user *ubuf,
					size_t count, loff_t *ppos)
{
	struct kohaku_sim_dbg_text *t = f->private_data;

	return simple_read_from_buffer(ubuf, count, ppos, t->buf, t->len);
}

static int kohaku_sim_dbg_text_release(struct inode *inode, struct file *f)
{
	if (f->f_mode & FMODE_READ)
		kvfree(f->private_data);
	return 0;
}

static ssize_t kohaku_sim_dbg_check_cmd(struct file *f,
					const char __user *ubuf,
					size_t count, loff_t *ppos)
{
	struct kohaku_sim_card *c = f->f_inode->i_private;

	return kohaku_sim_dbg_command(c, "check", ubuf, count);
}

static const struct file_operations kohaku_sim_dbg_inject_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = kohaku_sim_dbg_inject_write,
	.llseek = noop_llseek,
};

static const struct file_operations kohaku_sim_dbg_stats_fops = {
	.owner = THIS_MODULE,
	.open = kohaku_sim_dbg_stats_open,
	.read = kohaku_sim_dbg_text_read,
	.release = kohaku_sim_dbg_text_release,
	.llseek = default_llseek,
};

static const struct file_operations kohaku_sim_dbg_knobs_fops = {
	.owner = THIS_MODULE,
	.open = kohaku_sim_dbg_knobs_open,
	.read = kohaku_sim_dbg_text_read,
	.release = kohaku_sim_dbg_text_release,
	.llseek = default_llseek,
};

static const struct file_operations kohaku_sim_dbg_check_fops = {
	.owner = THIS_MODULE,
	.open = kohaku_sim_dbg_check_open,
	.read = kohaku_sim_dbg_text_read,
	.write = kohaku_sim_dbg_check_cmd,
	.release = kohaku_sim_dbg_text_release,
	.llseek = default_llseek,
};

/* The trace, streamed: whole lines, a chunk at a time, read in order. */
struct kohaku_sim_dbg_trace {
	struct kohaku_sim_card *c;
	u64 pos;		/* ksim_trace_text()'s cursor */
	size_t len, off;
	char buf[KOHAKU_SIM_DBG_TRACE_CHUNK];
};

static int kohaku_sim_dbg_trace_open(struct inode *inode, struct file *f)
{
	struct kohaku_sim_dbg_trace *t;

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

static ssize_t kohaku_sim_dbg_trace_read(struct file *f, char __user *ubuf,
					 size_t count, loff_t *ppos)
{
	struct kohaku_sim_dbg_trace *t = f->private_data;
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

static ssize_t kohaku_sim_dbg_trace_write(struct file *f,
					  const char __user *ubuf,
					  size_t count, loff_t *ppos)
{
	return kohaku_sim_dbg_command(f->f_inode->i_private, "trace", ubuf,
				      count);
}

static int kohaku_sim_dbg_trace_release(struct inode *inode, struct file *f)
{
	kvfree(f->private_data);
	return 0;
}

static const struct file_operations kohaku_sim_dbg_trace_fops = {
	.owner = THIS_MODULE,
	.open = kohaku_sim_dbg_trace_open,
	.read = kohaku_sim_dbg_trace_read,
	.write = kohaku_sim_dbg_trace_write,
	.release = kohaku_sim_dbg_trace_release,
	.llseek = noop_llseek,
};

void kohaku_sim_debugfs_add_card(struct kohaku_sim_card *c)
{
	char name[24];

	if (IS_ERR_OR_NULL(kohaku_sim_dbg_root))
		return;
	snprintf(name, sizeof(name), "card%u", c->id);
	c->dbg = debugfs_create_dir(name, kohaku_sim_dbg_root);
	debugfs_create_file("inject", 0200, c->dbg, c,
			    &kohaku_sim_dbg_inject_fops);
	debugfs_create_file("check", 0600, c->dbg, c,
			    &kohaku_sim_dbg_check_fops);
	debugfs_create_file("trace", 0600, c->dbg, c,
			    &kohaku_sim_dbg_trace_fops);
	debugfs_create_file("knobs", 0400, c->dbg, c,
			    &kohaku_sim_dbg_knobs_fops);
	debugfs_create_file("stats", 0400, c->dbg, c,
			    &kohaku_sim_dbg_stats_fops);
}

/* Removal waits for readers and writers still inside the card's files. */
void kohaku_sim_debugfs_remove_card(struct kohaku_sim_card *c)
{
	debugfs_remove_recursive(c->dbg);
}

/* debugfs may be absent: the cards work without their knobs */
void kohaku_sim_debugfs_init(void)
{
	kohaku_sim_dbg_root = debugfs_create_dir(KOHAKU_SIM_DEV_NAME, NULL);
}

void kohaku_sim_debugfs_exit(void)
{
	debugfs_remove_recursive(kohaku_sim_dbg_root);
}

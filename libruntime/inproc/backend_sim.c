// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The sim backend: the device model and driver/core, in this process.
 *
 * A sim device is a model card (ksim_card_create from a card
 * description) behind the model's adapter to the register-access seam
 * (ksim_hw.h, the same one kohaku_sim.ko uses), the core's kh_device on
 * top (kh_device_probe), and one kh_file per kohaku_device (kh_file_open);
 * kohaku_ioctl goes straight to kh_ioctl.  kohaku_reopen opens another
 * kh_file on the same card.  Every sim device has its own card; a process
 * may hold many.
 *
 * The model is not thread-safe: the adapter's ops take the card's lock,
 * and so do the model's knobs here (kh_rt_sim_lock); the core serialises
 * its own state.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_internal.h"
#include "kh_os_user.h"
#include "kh_core.h"
#include "kh_os_fence.h"
#include "inproc_drm.h"
#include "ksim_hw.h"
#include "fw_autoload.h"

#define KH_DESC_MAX	(1u << 20)
/*
 * A description that is not a regular file (a pipe: /dev/stdin, <(...);
 * a FIFO; a terminal) is waited on at most this long for each piece, so
 * that a FIFO nobody writes is an error, not a hang
 */
#define KH_DESC_WAIT_MS	2000

struct kh_rt_sim {
	pthread_mutex_t ref_lock;
	unsigned int refs;	/* open kohaku_devices */
	struct ksim_hw *sh;	/* the card, its lock and its ops */
	struct device *od;	/* the core's device: its log */
	struct kh_device *kd;
	char name[64];		/* "sim:NAME", for messages */
	char fw_status[512];	/* what the firmware load at open did */
	bool irq_wired;		/* the card's interrupts go to the core */
};

/* ---- backend ops ---- */

static int sim_ioctl(struct kohaku_device *dev, unsigned long cmd, void *arg)
{
	long r;

	if (cmd > 0xffffffffUL)
		return -ENOTTY;	/* the kernel truncates to unsigned int too */
	r = kh_inproc_ioctl(dev->kf, dev->of, (unsigned int)cmd, arg);
	return r < 0 ? (int)r : 0;
}

/*
 * The protocol checker's verdict as the card goes (docs/runtime.md): on
 * stderr when it found anything, so that no violation goes unseen.
 */
static void sim_check_report(struct kh_rt_sim *s)
{
	char *buf = malloc(16384);
	u64 n;

	if (!buf)
		return;
	n = ksim_check_report(ksim_hw_lock(s->sh), buf, 16384);
	ksim_hw_unlock(s->sh);
	if (n)
		fprintf(stderr, "kohaku: simulated card %s: the protocol checker "
			"found violations:\n%s", s->name, buf);
	free(buf);
}

/* The card, locked, for the model's knobs (sim_knobs.c). */
struct ksim_card *kh_rt_sim_lock(struct kohaku_device *dev)
{
	return ksim_hw_lock(dev->sim->sh);
}

void kh_rt_sim_unlock(struct kohaku_device *dev)
{
	ksim_hw_unlock(dev->sim->sh);
}

/* KOHAKU_SIM_CHECK=1: the protocol checker on from the start */
static unsigned int sim_card_flags(void)
{
	const char *e = getenv("KOHAKU_SIM_CHECK");

	return e && *e && strcmp(e, "0") ? KSIM_CHECK : 0;
}

/*
 * The card's DMA engine reaches this process's memory: in-process, a bus
 * address is a virtual address.  One that cannot be (below 64 KiB, where
 * nothing is mapped, or past any user address) answers -EFAULT, and the
 * engine logs the error a card would; a wild pointer inside the address
 * space is the caller's, as a bad DMA mapping is on a card.
 */
static int sim_host_range(u64 bus, size_t n)
{
	if (bus < 0x10000 || bus + n < bus || bus + n > (1ULL << 56) ||
	    bus + n - 1 > (u64)UINTPTR_MAX)
		return -EFAULT;
	return 0;
}

static int sim_mem_read(void *ctx, u64 bus, void *dst, size_t n)
{
	int r = sim_host_range(bus, n);

	if (!r)
		memcpy(dst, (const void *)(uintptr_t)bus, n);
	return r;
}

static int sim_mem_write(void *ctx, u64 bus, const void *src, size_t n)
{
	int r = sim_host_range(bus, n);

	if (!r)
		memcpy((void *)(uintptr_t)bus, src, n);
	return r;
}

/* every valid bus address here is this process's own memory, contiguous */
static void *sim_mem_map(void *ctx, u64 bus, size_t n)
{
	return sim_host_range(bus, n) ? NULL : (void *)(uintptr_t)bus;
}

static const struct ksim_host_ops sim_host_ops = {
	.mem_read = sim_mem_read,
	.mem_write = sim_mem_write,
	.mem_map = sim_mem_map,
};

/* KOHAKU_SIM_IRQ=poll: the card offers no interrupt vectors; msix (unset) */
static int sim_irq_flags(char *err, size_t errlen)
{
	const char *e = getenv("KOHAKU_SIM_IRQ");

	if (!e || !*e || !strcmp(e, "msix"))
		return 0;
	if (!strcmp(e, "poll"))
		return KSIM_HW_POLL;
	kh_rt_errbuf(err, errlen, "KOHAKU_SIM_IRQ=%s: expected msix or poll", e);
	return -EINVAL;
}

/*
 * KOHAKU_SIM_CTRL=32: the control space in 32-bit accesses only, the
 * card's own path (KH_HW_CTRL32); 64 (unset): the model's 64-bit one.
 */
static int sim_ctrl_flags(char *err, size_t errlen)
{
	const char *e = getenv("KOHAKU_SIM_CTRL");

	if (!e || !*e || !strcmp(e, "64"))
		return 0;
	if (!strcmp(e, "32"))
		return KSIM_HW_CTRL32;
	kh_rt_errbuf(err, errlen, "KOHAKU_SIM_CTRL=%s: expected 64 or 32", e);
	return -EINVAL;
}

/* a name in KOHAKU_CLK_*, by the driver core's own parser (as kohaku.ko's) */
static int sim_name_env(const char *var, int (*parse)(const char *), u8 *out,
			char *err, size_t errlen)
{
	const char *e = getenv(var);
	int r;

	if (!e || !*e)
		return 0;
	r = parse(e);
	if (r < 0) {
		kh_rt_errbuf(err, errlen, "%s=%s: %s", var, e,
			     parse == kh_clk_policy_parse ? "expected auto or fixed" :
			     "expected low, mid or ship");
		return r;
	}
	*out = (u8)r;
	return 0;
}

static int sim_uint_env(const char *var, u32 *out, char *err, size_t errlen)
{
	const char *e = getenv(var);
	char *end;
	unsigned long v;

	if (!e || !*e)
		return 0;
	errno = 0;
	v = strtoul(e, &end, 10);
	if (errno || *end || v > 0xffffffffUL) {
		kh_rt_errbuf(err, errlen, "%s=%s: expected a number", var, e);
		return -EINVAL;
	}
	*out = (u32)v;
	return 0;
}

/*
 * The meshes' governor and recovery at bring-up, as kohaku.ko's module
 * parameters (docs/runtime.md "Choosing the backend and the device"): KOHAKU_CLK_POLICY (auto,
 * fixed), KOHAKU_CLK_IDLE/_RUN/_FIXED (low, mid, ship),
 * KOHAKU_CLK_IDLE_MS, KOHAKU_RECOVER (recoveries in a row, 0: off).
 * Unset: the driver's defaults.
 */
static int sim_mesh_env(char *err, size_t errlen)
{
	struct kh_mesh_defaults d = kh_mesh_defaults_get();
	int r;

	r = sim_name_env("KOHAKU_CLK_POLICY", kh_clk_policy_parse, &d.clk_policy,
			 err, errlen);
	r = r ?: sim_name_env("KOHAKU_CLK_IDLE", kh_clk_profile_parse, &d.clk_idle,
			      err, errlen);
	r = r ?: sim_name_env("KOHAKU_CLK_RUN", kh_clk_profile_parse, &d.clk_run,
			      err, errlen);
	r = r ?: sim_name_env("KOHAKU_CLK_FIXED", kh_clk_profile_parse, &d.clk_fixed,
			      err, errlen);
	r = r ?: sim_uint_env("KOHAKU_CLK_IDLE_MS", &d.clk_idle_ms, err, errlen);
	r = r ?: sim_uint_env("KOHAKU_RECOVER", &d.recover_max, err, errlen);
	if (!r && kh_set_mesh_defaults(&d)) {
		kh_rt_errbuf(err, errlen, "KOHAKU_CLK_IDLE_MS (1..%u) or KOHAKU_RECOVER (0..%u) out of range",
			     KOHAKU_CLK_IDLE_MS_MAX, KOHAKU_RECOVER_MAX);
		r = -EINVAL;
	}
	return r;
}

/*
 * The card's interrupts to the core, as kohaku.ko's platform binding does:
 * the model calls this with its lock held, and the core only counts and
 * wakes.
 */
static void sim_irq(void *arg, unsigned int vector)
{
	struct kh_rt_sim *s = arg;

	kh_device_irq(s->kd, vector);
}

static void sim_irq_wire(struct kh_rt_sim *s)
{
	const struct kh_hw *hw = ksim_hw_get(s->sh);

	if (!hw->n_irqs || !hw->ops->irq_attach)
		return;
	hw->ops->irq_attach(hw->ctx, sim_irq, s);
	s->irq_wired = true;
	if (kh_device_irq_enable(s->kd)) {
		hw->ops->irq_attach(hw->ctx, NULL, NULL);
		s->irq_wired = false;
	}
}

static void sim_put(struct kh_rt_sim *s)
{
	unsigned int refs;

	pthread_mutex_lock(&s->ref_lock);
	refs = --s->refs;
	pthread_mutex_unlock(&s->ref_lock);
	if (refs)
		return;
	if (s->irq_wired) {
		const struct kh_hw *hw = ksim_hw_get(s->sh);

		hw->ops->irq_attach(hw->ctx, NULL, NULL);
	}
	if (s->kd)
		kh_device_remove(s->kd);
	if (s->sh)
		sim_check_report(s);
	ksim_hw_destroy(s->sh);
	kh_os_dev_destroy(s->od);
	pthread_mutex_destroy(&s->ref_lock);
	free(s);
}

/*
 * The process owns its simulated card, so its files are an administrator's
 * (kohaku.ko: CAP_SYS_ADMIN at open), unless KOHAKU_UNPRIVILEGED=1 asks for
 * what a member of the device's group gets there.
 */
static bool sim_file_admin(void)
{
	const char *e = getenv("KOHAKU_UNPRIVILEGED");

	return !(e && *e && strcmp(e, "0"));
}

/* a new open file on the card: the core's, and the host's with its syncobjs */
static int sim_file_open(struct kh_rt_sim *s, struct kohaku_device *dev)
{
	int r;

	dev->of = calloc(1, sizeof(*dev->of));
	if (!dev->of)
		return -ENOMEM;
	kh_os_file_init(dev->of);
	r = kh_file_open(s->kd, dev->of, !dev->unprivileged && sim_file_admin(),
			 &dev->kf);
	if (r < 0) {
		kh_os_file_fini(dev->of);
		free(dev->of);
		dev->of = NULL;
		dev->kf = NULL;
	}
	return r;
}

static void sim_close(struct kohaku_device *dev)
{
	if (dev->kf)
		kh_file_close(dev->kf);
	dev->kf = NULL;
	if (dev->of) {
		kh_os_file_fini(dev->of);
		free(dev->of);
	}
	dev->of = NULL;
	if (dev->sim)
		sim_put(dev->sim);
	dev->sim = NULL;
}

static int sim_reopen(struct kohaku_device *src, struct kohaku_device *dst)
{
	struct kh_rt_sim *s = src->sim;
	unsigned long pos = kh_os_log_pos(s->od);
	char reason[512];
	int r;

	r = sim_file_open(s, dst);
	if (r < 0) {
		kh_os_log_since(s->od, pos, reason, sizeof(reason));
		kh_rt_seterr(dst, "opening another file on simulated card %s: "
			     "%s (%s)%s%s", src->path, kohaku_strerror(r),
			     kh_rt_errno_name(r), reason[0] ? ": " : "", reason);
		return r;
	}
	pthread_mutex_lock(&s->ref_lock);
	s->refs++;
	pthread_mutex_unlock(&s->ref_lock);
	dst->sim = s;
	return 0;
}

static unsigned long sim_log_pos(struct kohaku_device *dev)
{
	return kh_os_log_pos(dev->sim->od);
}

static void sim_reason(struct kohaku_device *dev, unsigned long since,
		       char *buf, size_t len)
{
	char tmp[512];

	if (kh_os_log_since(dev->sim->od, since, tmp, sizeof(tmp)))
		snprintf(buf, len, "Driver: %s", tmp);
	else if (len)
		buf[0] = '\0';
}

static void sim_fw_status(struct kohaku_device *dev, char *buf, size_t len)
{
	kh_rt_strlcpy(buf, dev->sim->fw_status, len);
}

static const struct kh_rt_backend_ops sim_ops = {
	.ioctl = sim_ioctl,
	.reopen = sim_reopen,
	.close = sim_close,
	.reason = sim_reason,
	.log_pos = sim_log_pos,
	.fw_status = sim_fw_status,
};

/* ---- resolving a sim device string to description text ---- */

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/*
 * Read the description at fd into buf (room for max + 1 bytes, so that a
 * file past max shows).  A regular file is read to its end.  Anything else
 * was opened O_NONBLOCK (open(2) of a FIFO without a writer would block
 * until one came) and each read first waits for data at most
 * KH_DESC_WAIT_MS: a pipe that writes the text (/dev/stdin, <(...)) still
 * works, a FIFO nobody writes is -ETIMEDOUT.  Returns the length read or
 * -errno.
 */
static long read_desc(int fd, bool regular, char *buf, size_t max)
{
	size_t n = 0;

	while (n <= max) {
		ssize_t k;

		if (!regular) {
			struct pollfd p = { .fd = fd, .events = POLLIN };
			int pr = poll(&p, 1, KH_DESC_WAIT_MS);

			if (pr < 0 && errno == EINTR)
				continue;
			if (pr < 0)
				return -errno;
			if (!pr)
				return -ETIMEDOUT;
		}
		k = read(fd, buf + n, max + 1 - n);
		if (k < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (k < 0)
			return -errno;
		if (!k)
			break;
		n += (size_t)k;
	}
	return (long)n;
}

/*
 * desc text for device: a built-in name, a file, or the text itself.  On
 * success *text is the text and *owned the malloc'ed copy to free (or NULL).
 */
static int resolve_desc(const char *device, const char **text, char **owned,
			char *name, size_t namelen, char *err, size_t errlen)
{
	const char *b = ksim_builtin_desc(device);
	struct stat st;
	char *buf, msg[256];
	long n;
	int fd;

	*owned = NULL;
	if (b) {
		*text = b;
		snprintf(name, namelen, "sim:%s", device);
		return 0;
	}
	if (strchr(device, '\n')) {
		if (ksim_desc_text_check(device, strlen(device), msg,
					 sizeof(msg))) {
			kh_rt_errbuf(err, errlen, "sim device: %s", msg);
			return -EINVAL;
		}
		*text = device;
		snprintf(name, namelen, "sim:inline");
		return 0;
	}
	if (stat(device, &st) < 0) {
		char names[256];
		int e = errno;

		kh_rt_builtin_list(names, sizeof(names));
		if (e == ENOENT)
			kh_rt_errbuf(err, errlen,
				     "sim device '%s' is neither a built-in card "
				     "description (%s) nor an existing "
				     "description file", device, names);
		else
			kh_rt_errbuf(err, errlen,
				     "sim device '%s': cannot read the description "
				     "file: %s (built-in descriptions: %s)",
				     device, strerror(e), names);
		return -e;
	}
	if (S_ISDIR(st.st_mode)) {
		kh_rt_errbuf(err, errlen, "sim device '%s' is a directory, not a "
			     "card description file", device);
		return -EISDIR;
	}
	fd = open(device, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		kh_rt_errbuf(err, errlen,
			     "sim device '%s': cannot open the description file: "
			     "%s", device, strerror(e));
		return -e;
	}
	buf = malloc(KH_DESC_MAX + 1);
	if (!buf) {
		close(fd);
		kh_rt_errbuf(err, errlen, "out of host memory");
		return -ENOMEM;
	}
	n = read_desc(fd, S_ISREG(st.st_mode), buf, KH_DESC_MAX);
	close(fd);
	if (n == -ETIMEDOUT) {
		free(buf);
		kh_rt_errbuf(err, errlen, "sim device '%s' is %s and nothing "
			     "came from it in %u s (no writer?); a card "
			     "description is a file, or a pipe that writes one",
			     device, kh_rt_file_kind(st.st_mode),
			     KH_DESC_WAIT_MS / 1000);
		return (int)n;
	}
	if (n < 0) {
		free(buf);
		kh_rt_errbuf(err, errlen, "sim device '%s': reading the "
			     "description file failed: %s", device,
			     strerror((int)-n));
		return (int)n;
	}
	if (n > KH_DESC_MAX) {
		free(buf);
		kh_rt_errbuf(err, errlen, "sim device '%s': the description file "
			     "is larger than %u bytes; is it a card description?",
			     device, KH_DESC_MAX);
		return -EFBIG;
	}
	buf[n] = '\0';
	if (ksim_desc_text_check(buf, (size_t)n, msg, sizeof(msg))) {
		free(buf);
		kh_rt_errbuf(err, errlen, "sim device '%s': %s", device, msg);
		return -EINVAL;
	}
	*text = buf;
	*owned = buf;
	snprintf(name, namelen, "sim:%s", base_name(device));
	return 0;
}

static int sim_open(const char *device, struct kohaku_device *dev, char *err,
		    size_t errlen)
{
	struct kh_rt_sim *s = NULL;
	struct ksim_card *card = NULL;
	char name[64], perr[512], reason[512];
	const char *text = NULL;
	char *owned = NULL;
	unsigned long pos;
	int r, flags;

	r = resolve_desc(device, &text, &owned, name, sizeof(name), err,
			 errlen);
	if (r < 0)
		return r;

	s = calloc(1, sizeof(*s));
	if (!s) {
		free(owned);
		kh_rt_errbuf(err, errlen, "out of host memory");
		return -ENOMEM;
	}
	pthread_mutex_init(&s->ref_lock, NULL);
	s->refs = 1;
	kh_rt_strlcpy(s->name, name, sizeof(s->name));
	s->od = kh_os_dev_create(name);
	dev->ops = &sim_ops;
	dev->sim = s;
	kh_rt_strlcpy(dev->path, name, sizeof(dev->path));
	if (!s->od) {
		r = -ENOMEM;
		kh_rt_errbuf(err, errlen, "out of host memory");
		goto fail;
	}

	flags = sim_irq_flags(err, errlen);
	if (flags >= 0) {
		r = sim_ctrl_flags(err, errlen);
		flags = r < 0 ? r : flags | r;
	}
	if (flags < 0) {
		r = flags;
		goto fail;
	}
	r = sim_mesh_env(err, errlen);
	if (r < 0)
		goto fail;
	perr[0] = '\0';
	r = ksim_card_create_flags(text, sim_card_flags(), &card, perr,
				     sizeof(perr));
	free(owned);
	owned = NULL;
	if (r < 0 || !card) {
		if (r >= 0)
			r = -EINVAL;
		kh_rt_errbuf(err, errlen,
			     "card description '%s' does not describe a card: "
			     "%s", strchr(device, '\n') ? "(inline text)" : device,
			     perr[0] ? perr : kohaku_strerror(r));
		goto fail;
	}
	s->sh = ksim_hw_create(card, &sim_host_ops, NULL, (unsigned int)flags);
	if (!s->sh) {
		ksim_card_destroy(card);
		r = -ENOMEM;
		kh_rt_errbuf(err, errlen, "out of host memory");
		goto fail;
	}

	pos = kh_os_log_pos(s->od);
	r = kh_device_probe(ksim_hw_get(s->sh), s->od, name, &s->kd);
	if (r < 0 || !s->kd) {
		if (r >= 0)
			r = -ENODEV;
		kh_os_log_since(s->od, pos, reason, sizeof(reason));
		kh_rt_errbuf(err, errlen,
			     "the driver core could not bring up simulated card "
			     "%s: %s (%s)%s%s", name, kohaku_strerror(r),
			     kh_rt_errno_name(r), reason[0] ? ": " : "", reason);
		s->kd = NULL;
		goto fail;
	}
	sim_irq_wire(s);
	kh_rt_fw_autoload(s->kd, s->fw_status, sizeof(s->fw_status));
	pos = kh_os_log_pos(s->od);
	r = sim_file_open(s, dev);
	if (r < 0) {
		kh_os_log_since(s->od, pos, reason, sizeof(reason));
		kh_rt_errbuf(err, errlen, "opening simulated card %s: %s (%s)%s%s",
			     name, kohaku_strerror(r), kh_rt_errno_name(r),
			     reason[0] ? ": " : "", reason);
		goto fail;
	}
	return 0;

fail:
	/* the device is closed (sim_close) by kh_rt_dev_open */
	free(owned);
	return r;
}

static int sim_list(const char *device, struct kohaku_device_entry **list,
		    unsigned int *count, char *err, size_t errlen)
{
	const char *const *names = ksim_builtin_names();
	struct kohaku_device_entry *l;
	unsigned int n = 0, i;

	if (device) {
		n = 1;
	} else {
		while (names && names[n])
			n++;
	}
	l = calloc(n ? n : 1, sizeof(*l));
	if (!l) {
		kh_rt_errbuf(err, errlen, "out of host memory");
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		struct kohaku_device_entry *e = &l[i];
		const char *what = device ? device : names[i];
		struct kohaku_device *dev;
		char msg[KOHAKU_ERRMSG_MAX];

		e->backend = KOHAKU_BACKEND_SIM;
		e->index = -1;
		kh_rt_strlcpy(e->driver, "kohaku (in-process)", sizeof(e->driver));
		e->status = kh_rt_dev_open(&kh_rt_backend_sim, what, &dev, msg,
					   sizeof(msg));
		if (e->status == 0) {
			kh_rt_strlcpy(e->path, dev->path, sizeof(e->path));
			kh_rt_strlcpy(e->name, dev->info.name, sizeof(e->name));
			e->n_meshes = dev->info.n_meshes;
			e->n_nodes = dev->info.n_nodes;
			kohaku_close(dev);
		} else {
			snprintf(e->path, sizeof(e->path), "sim:%s",
				 strchr(what, '\n') ? "inline" : base_name(what));
			kh_rt_strlcpy(e->message, msg, sizeof(e->message));
		}
	}
	*list = l;
	*count = n;
	return 0;
}

KH_RT_EXPORT const char *const *kohaku_sim_builtin_names(void)
{
	return ksim_builtin_names();
}

KH_RT_EXPORT const char *kohaku_sim_builtin_desc(const char *name)
{
	return name ? ksim_builtin_desc(name) : NULL;
}

const struct kh_rt_backend kh_rt_backend_sim = {
	.id = KOHAKU_BACKEND_SIM,
	.name = "sim",
	.needs_device = true,
	.open = sim_open,
	.list = sim_list,
};

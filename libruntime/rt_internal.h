/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* libkohaku internals: the device object and the backend seam. */
#ifndef KOHAKU_RT_INTERNAL_H
#define KOHAKU_RT_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>

#include "kohaku.h"

#define KH_RT_HIDDEN __attribute__((visibility("hidden")))
#define KH_RT_EXPORT __attribute__((visibility("default")))
#define KH_RT_XSTR(x)	#x
#define KH_RT_STR(x)	KH_RT_XSTR(x)

struct kohaku_device;

struct kh_rt_backend_ops {
	/* the ioctl; 0 or -errno */
	int (*ioctl)(struct kohaku_device *dev, unsigned long cmd, void *arg);
	/* open a second file on the same device into dst (already zeroed) */
	int (*reopen)(struct kohaku_device *src, struct kohaku_device *dst);
	void (*close)(struct kohaku_device *dev);
	/*
	 * After a failed ioctl started at log position since: the driver's
	 * reason in words, or a hint where to find it.  May write "".
	 */
	void (*reason)(struct kohaku_device *dev, unsigned long since,
		       char *buf, size_t len);
	/* current log position (for reason) */
	unsigned long (*log_pos)(struct kohaku_device *dev);
	/* the host's own firmware load at open or bind, in a line; may be "" */
	void (*fw_status)(struct kohaku_device *dev, char *buf, size_t len);
};

/* one thread's last error on one device (errors.c) */
struct kh_rt_err_slot;

struct kh_rt_sim;
struct kh_rt_daemon;

struct kohaku_device {
	enum kohaku_backend backend;
	const struct kh_rt_backend_ops *ops;
	char path[256];		/* node path, or the sim description's name */
	/* kernel */
	int fd;
	/* sim */
	struct kh_rt_sim *sim;
	struct kh_file *kf;
	struct drm_file *of;	/* the in-process host's open file: its syncobjs */
	/* daemon: the connection to kohakud (backend_daemon.c) */
	struct kh_rt_daemon *daemon;
	/* the file asks for no administrator's rights (kh_rt_reopen_as) */
	bool unprivileged;

	struct drm_kohaku_get_info info;	/* read at open */

	pthread_mutex_t err_lock;
	struct kh_rt_err_slot *err_slots;
};

/* errors (errors.c) */
/* the calling thread's last error on dev (kohaku_last_error) */
KH_RT_HIDDEN void kh_rt_seterr(struct kohaku_device *dev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* a device's last-error slots, set up and freed with it (device.c) */
KH_RT_HIDDEN void kh_rt_err_init(struct kohaku_device *dev);
KH_RT_HIDDEN void kh_rt_err_fini(struct kohaku_device *dev);
/* a message into a caller's buffer (calls without a device); NULL is fine */
KH_RT_HIDDEN void kh_rt_errbuf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "EINVAL" for -EINVAL or EINVAL; "E?" for one the library has no words for */
KH_RT_HIDDEN const char *kh_rt_errno_name(int err);
/* the ioctl's name ("SUBMIT", "SYNCOBJ_WAIT"), or NULL (inproc_drm.c) */
KH_RT_HIDDEN const char *kh_rt_cmd_name(unsigned long cmd);
/*
 * The ioctl through dev's backend (ioctl.c); on failure sets the last error to
 * "<what> failed: <errno in words>. <hint> <the driver's reason>".
 */
KH_RT_HIDDEN int kh_rt_ioctl(struct kohaku_device *dev, unsigned long cmd,
			     void *arg, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * A backend, as backend.c's table holds it.  open: device (NULL: the
 * backend's own choice) into dev, which device.c allocated and shakes
 * hands with afterwards (kh_rt_dev_open): set ops, path and what the
 * backend holds; on failure say why in err and return -errno (dev is then
 * closed through its ops, when set, and freed).  list: every device there
 * is (device: KOHAKU_DEVICE, which the sim backend lists alone), each with
 * its status and reason.  needs_device: open(NULL) is refused before.
 */
struct kh_rt_backend {
	enum kohaku_backend id;
	const char *name;
	bool needs_device;
	int (*open)(const char *device, struct kohaku_device *dev, char *err,
		    size_t errlen);
	int (*list)(const char *device, struct kohaku_device_entry **list,
		    unsigned int *count, char *err, size_t errlen);
};
KH_RT_HIDDEN extern const struct kh_rt_backend kh_rt_backend_kernel;
KH_RT_HIDDEN extern const struct kh_rt_backend kh_rt_backend_sim;
KH_RT_HIDDEN extern const struct kh_rt_backend kh_rt_backend_daemon;

/*
 * kohaku_reopen(), the new file an administrator's or not (kohakud's
 * clients: the sim backend's files are otherwise an administrator's unless
 * KOHAKU_UNPRIVILEGED says); device.c
 */
KH_RT_HIDDEN int kh_rt_reopen_as(struct kohaku_device *dev, bool admin,
				 struct kohaku_device **out);

/*
 * kohakud's socket: KOHAKU_DAEMON_SOCKET, else
 * $XDG_RUNTIME_DIR/kohaku/kohakud.sock, else /tmp/kohaku-UID/kohakud.sock;
 * 0 or -errno with err said (backend_daemon.c)
 */
KH_RT_HIDDEN int kh_rt_daemon_socket_path(char *buf, size_t len, char *err,
					  size_t errlen);
/*
 * One message on a kohakud socket, whole, with fd (>= 0) in SCM_RIGHTS;
 * MSG_NOSIGNAL.  0 or -errno (-EPIPE: the other end is gone).  No lock:
 * the caller serialises its sends.
 */
KH_RT_HIDDEN int kh_rt_daemon_sendmsg(int sock, const void *msg, size_t len,
				      int fd);
/*
 * Exactly len bytes from a kohakud socket; the first fd that comes with
 * them into *passed when it is -1 (any other closed).  0, -EPIPE at the
 * end, -errno.
 */
KH_RT_HIDDEN int kh_rt_daemon_read(int sock, void *buf, size_t len,
				   int *passed);
/* the running kohakud's cards, "CARD\tNAMED\tFILES\n" each (malloc'ed) */
KH_RT_HIDDEN int kh_rt_daemon_cards(char **text, char *err, size_t errlen);
/* the model's knobs of a daemon device's card (sim_knobs.c's API) */
KH_RT_HIDDEN int kh_rt_daemon_sim_command(struct kohaku_device *dev,
					  const char *line);
KH_RT_HIDDEN int kh_rt_daemon_sim_read(struct kohaku_device *dev,
				       unsigned int what, char **text);

/*
 * The device object (device.c): allocated, opened through be, then
 * GET_INFO and the ABI check; 0, or -errno with err said (nothing is
 * left open).  Backends call it to open what they list.
 */
KH_RT_HIDDEN int kh_rt_dev_open(const struct kh_rt_backend *be,
				const char *device, struct kohaku_device **out,
				char *err, size_t errlen);
/*
 * N of a kohaku node's name: "accelN" (a DRM accel node), "renderDN" (a DRM
 * render node: kohaku.ko's before Linux 6.2); else -1 (backend_kernel.c)
 */
KH_RT_HIDDEN int kh_rt_node_index(const char *name);
/*
 * The sysfs directory of an open kernel device's node, "/sys/dev/char/M:N"
 * (its device link is the card, either kind of node); 0 or -errno
 */
KH_RT_HIDDEN int kh_rt_node_sysfs(const struct kohaku_device *dev, char *buf,
				  size_t len);

/* the sim backend's card, locked, for the model's knobs (inproc/sim_knobs.c) */
struct ksim_card;
KH_RT_HIDDEN struct ksim_card *kh_rt_sim_lock(struct kohaku_device *dev);
KH_RT_HIDDEN void kh_rt_sim_unlock(struct kohaku_device *dev);

/*
 * The PCI listing's parts (pci.c), for its tests: an id to match (a field
 * of KH_RT_PCI_ANY matches anything; libpciaccess's PCI_MATCH_ANY), the
 * parser of KOHAKU_PCI_MATCH's syntax (what names the list in messages),
 * and what sysfs under root ("/sys", or a test's tree) says of e->address:
 * link, driver, accel node, status and message.
 */
#define KH_RT_PCI_ANY	(~0u)
struct kh_rt_pci_id {
	uint32_t vendor, device, subvendor, subdevice;
};
KH_RT_HIDDEN int kh_rt_pci_parse_match(const char *spec, const char *what,
				       struct kh_rt_pci_id *ids, unsigned int max,
				       unsigned int *n, char *err, size_t errlen);
KH_RT_HIDDEN void kh_rt_pci_sysfs(const char *root, struct kohaku_pci_entry *e);

/*
 * kohaku_submit_ex(), and SUBMIT's request as it came back in *out (may be
 * NULL): the refused_* fields of an EACCES (jobs.c)
 */
KH_RT_HIDDEN int kh_rt_submit(struct kohaku_device *dev,
			      const struct kohaku_submit_args *args,
			      uint64_t *job_id, struct drm_kohaku_submit *out);
/* a KOHAKU_REFUSED_* in words ("lies in no buffer the job names ...") */
KH_RT_HIDDEN const char *kh_rt_refused_why(uint32_t why);

/*
 * what a file of st_mode mode is, for a message: "a directory", "a FIFO",
 * "a character device", ... (errors.c)
 */
KH_RT_HIDDEN const char *kh_rt_file_kind(unsigned int mode);

/* snprintf that never warns about truncation, always terminates (errors.c) */
KH_RT_HIDDEN void kh_rt_strlcpy(char *dst, const char *src, size_t len);

/* "saxpy, sx_null_2x2, ...": the built-in card descriptions, for messages
 * (backend.c) */
KH_RT_HIDDEN void kh_rt_builtin_list(char *buf, size_t len);

/*
 * Caller-sized structs (docs/runtime.md "Binary compatibility"): a call
 * that fills a struct the library may grow takes the caller's sizeof and
 * writes that many bytes, never more.  kh_rt_copy_out() copies
 * min(dsize, ssize) bytes of src to dst and zeroes the rest of dst.
 * (errors.c)
 */
KH_RT_HIDDEN void kh_rt_copy_out(void *dst, size_t dsize, const void *src,
				 size_t ssize);
/*
 * A malloc'ed array of n entries of have bytes as one of want bytes each
 * (kh_rt_copy_out per entry), for the arrays the library allocates for
 * the caller; arr itself when the sizes agree.  arr is freed either way;
 * NULL when the new one cannot be allocated (errors.c).
 */
KH_RT_HIDDEN void *kh_rt_restride(void *arr, unsigned int n, size_t have,
				  size_t want);

/*
 * The sizes of the structs libkohaku 0.1 filled, the ones a program linked
 * against version node KOHAKU_0 was built with: its entry points, kept at
 * that node (KH_RT_SYMVER), pass them.  Fixed numbers, never sizeof: the
 * structs grow, these do not.
 */
#define KH_RT_V0_GET_INFO_SIZE	312	/* struct drm_kohaku_get_info */
#define KH_RT_V0_NODE_SIZE	72	/* struct drm_kohaku_node */
#define KH_RT_V0_BO_INFO_SIZE	24	/* struct kohaku_bo_info */
#define KH_RT_V0_FW_INFO_SIZE	532	/* struct kohaku_fw_info */
#define KH_RT_V0_JOB_STATUS_SIZE 32	/* struct kohaku_job_status */
#define KH_RT_V0_FW_LOAD_SIZE	80	/* struct drm_kohaku_fw_load */
#define KH_RT_V0_DXA_SLOT_SIZE	168	/* struct drm_kohaku_dxa_slot */
#define KH_RT_V0_CLOCKS_SIZE	128	/* struct drm_kohaku_clocks */
#define KH_RT_V0_RESET_SIZE	48	/* struct drm_kohaku_reset */
#define KH_RT_V0_DEVICE_ENTRY_SIZE 404	/* struct kohaku_device_entry */
#define KH_RT_V0_PCI_ENTRY_SIZE	584	/* struct kohaku_pci_entry */
#define KH_RT_V0_ARTIFACT_INFO_SIZE 24	/* struct kohaku_artifact_info */
#define KH_RT_V0_ARTIFACT_RESULT_SIZE 48 /* struct kohaku_artifact_result */

/*
 * Symbol versions (libruntime/libkohaku.map), in libkohaku.so's objects
 * only (KH_RT_SHARED, runtime.mk): a static link has one version of each
 * name, and an object with both, linked as an object, would define the
 * name twice.  KH_RT_SYMVER: an old entry point, impl (a global, not in
 * the version script, so not exported by its own name), is name at the
 * old version node, for the binaries linked against it.
 * KH_RT_SYMVER_DEFAULT: name's current definition is its default version,
 * at the node that gave it its signature, the one new links bind to.
 */
#ifdef KH_RT_SHARED
#define KH_RT_SYMVER(impl, name, node) \
	__asm__(".symver " #impl "," #name "@" #node)
#define KH_RT_SYMVER_DEFAULT(name, node) \
	__asm__(".symver " #name "," #name "@@@" #node)
#else
#define KH_RT_SYMVER(impl, name, node) _Static_assert(1, #impl)
#define KH_RT_SYMVER_DEFAULT(name, node) _Static_assert(1, #name)
#endif

#endif /* KOHAKU_RT_INTERNAL_H */

// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The daemon backend: a card kohakud holds, shared with every other
 * process that names it (docs/kohakud.md; the protocol is
 * uapi/kohaku/kh_daemon.h).
 *
 * A kohaku_device is one connection, which is one open file on the card.
 * Its ioctls go to kohakud as they are, the caller's pointers included:
 * kohakud asks for the memory behind them (CB_READ) and gives back what
 * the driver writes (CB_WRITE), and the bytes move through a memfd shared
 * with it, one slot per call in flight.  The copies in and out of the
 * caller's memory are pwrite(2)/pread(2) on the memfd, so that a bad
 * pointer is EFAULT, as the kernel's copy_from_user() makes it, and never
 * a crash.
 *
 * Several threads may call at once on one device: each takes a slot, and
 * whichever waits reads the socket for all, handing each message to its
 * slot's caller.  A kohakud that goes away (the socket's end) makes every
 * call on the device fail with ENODEV, the one that was waiting included.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "rt_internal.h"
#include "kohaku/kh_daemon.h"

struct kh_rt_daemon {
	int fd;			/* the connection */
	int memfd;		/* the shared slots */
	char *device;		/* as HELLO named it, for reopen */
	unsigned int flags;	/* HELLO's */
	char fw_status[512];
	pthread_mutex_t lock;	/* below */
	pthread_cond_t cond;
	pthread_mutex_t send_lock;
	unsigned int busy;	/* slots taken, a bit each */
	bool reading;		/* a caller reads the socket for all */
	bool dead;
	char dead_why[600];
	struct {
		bool full;
		int fd;		/* an fd that came with the message, or -1 */
		union {
			struct kh_daemon_hdr hdr;
			struct kh_daemon_cb cb;
			struct kh_daemon_done done;
			unsigned char raw[KH_DAEMON_MSG_MAX];
		} m;
	} box[KH_DAEMON_SLOTS];
};

/* the calling thread's last reason, for the ops' reason() */
static __thread struct {
	const struct kohaku_device *dev;
	char text[1024];
} kh_rt_daemon_why;

int kh_rt_daemon_socket_path(char *buf, size_t len, char *err, size_t errlen)
{
	const char *e = getenv("KOHAKU_DAEMON_SOCKET");
	const char *run = getenv("XDG_RUNTIME_DIR");
	int n;

	if (e && *e)
		n = snprintf(buf, len, "%s", e);
	else if (run && *run)
		n = snprintf(buf, len, "%s/kohaku/" KH_DAEMON_SOCKET_NAME, run);
	else
		n = snprintf(buf, len, "/tmp/kohaku-%u/" KH_DAEMON_SOCKET_NAME,
			     (unsigned int)getuid());
	if (n < 0 || (size_t)n >= len ||
	    (size_t)n >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
		kh_rt_errbuf(err, errlen, "kohakud's socket path is too long "
			     "(KOHAKU_DAEMON_SOCKET, XDG_RUNTIME_DIR)");
		return -ENAMETOOLONG;
	}
	return 0;
}

/* ---- the socket (both ends: kohakud uses these too) ---- */

int kh_rt_daemon_sendmsg(int sock, const void *msg, size_t len, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = (void *)msg, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (fd >= 0) {
		struct cmsghdr *cm;

		memset(cbuf, 0, sizeof(cbuf));
		mh.msg_control = cbuf;
		mh.msg_controllen = sizeof(cbuf);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	}
	while (iov.iov_len) {
		ssize_t n = sendmsg(sock, &mh, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EPIPE;
		/* the fd went with the first byte */
		mh.msg_control = NULL;
		mh.msg_controllen = 0;
		iov.iov_base = (char *)iov.iov_base + n;
		iov.iov_len -= (size_t)n;
	}
	return 0;
}

int kh_rt_daemon_read(int sock, void *buf, size_t len, int *passed)
{
	char cbuf[CMSG_SPACE(sizeof(int) * 4)];
	size_t got = 0;

	while (got < len) {
		struct iovec iov = { .iov_base = (char *)buf + got,
				     .iov_len = len - got };
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
				     .msg_control = cbuf,
				     .msg_controllen = sizeof(cbuf) };
		struct cmsghdr *cm;
		ssize_t n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return -EPIPE;
		for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
			int k, nfd = (int)((cm->cmsg_len - CMSG_LEN(0)) / sizeof(int));

			if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
				continue;
			for (k = 0; k < nfd; k++) {
				int f;

				memcpy(&f, CMSG_DATA(cm) + k * sizeof(int), sizeof(int));
				if (passed && *passed < 0)
					*passed = f;
				else
					close(f);	/* not asked for */
			}
		}
		got += (size_t)n;
	}
	return 0;
}

static int daemon_send(struct kh_rt_daemon *d, const void *msg, size_t len,
		       int fd)
{
	int r;

	pthread_mutex_lock(&d->send_lock);
	r = kh_rt_daemon_sendmsg(d->fd, msg, len, fd);
	pthread_mutex_unlock(&d->send_lock);
	return r;
}

/* one message; 0, or -errno with why said */
static int daemon_recv(int fd, void *buf, int *passed, char *why, size_t len)
{
	struct kh_daemon_hdr *h = buf;
	int r = kh_rt_daemon_read(fd, h, sizeof(*h), passed);

	if (!r && (h->len < sizeof(*h) || h->len > KH_DAEMON_MSG_MAX)) {
		snprintf(why, len, "kohakud sent a message of %u bytes: not its "
			 "protocol", h->len);
		return -EPROTO;
	}
	if (!r)
		r = kh_rt_daemon_read(fd, h + 1, h->len - sizeof(*h), passed);
	if (r == -EPIPE)
		snprintf(why, len, "kohakud closed the connection (it stopped, "
			 "or found this client broke its protocol)");
	else if (r < 0)
		snprintf(why, len, "reading kohakud's socket: %s", strerror(-r));
	return r;
}

/* the connection is over: every call on it, now and later, is ENODEV */
static void daemon_die(struct kh_rt_daemon *d, const char *why)
{
	if (!d->dead) {
		d->dead = true;
		snprintf(d->dead_why, sizeof(d->dead_why), "%s", why);
	}
	pthread_cond_broadcast(&d->cond);
}

/*
 * The connection is found closed by a send: kohakud's BYE, if it came and
 * nobody read it, says why (held: d->lock; reads only what is there)
 */
static void daemon_die_sent(struct kh_rt_daemon *d)
{
	static const char gone[] = "kohakud's socket is closed (it stopped)";
	unsigned char buf[KH_DAEMON_MSG_MAX];
	size_t got = 0, at = 0;

	if (d->dead)
		return;
	if (!d->reading) {
		for (;;) {
			ssize_t n = recv(d->fd, buf + got, sizeof(buf) - got,
					 MSG_DONTWAIT);

			if (n <= 0 || (got += (size_t)n) == sizeof(buf))
				break;
		}
	}
	while (at + sizeof(struct kh_daemon_hdr) <= got) {
		struct kh_daemon_bye b;
		struct kh_daemon_hdr h;

		memcpy(&h, buf + at, sizeof(h));
		if (h.len < sizeof(h) || at + h.len > got)
			break;
		if (h.type == KH_DAEMON_BYE && h.len >= sizeof(b)) {
			memcpy(&b, buf + at, sizeof(b));
			b.message[sizeof(b.message) - 1] = '\0';
			daemon_die(d, b.message);
			return;
		}
		at += h.len;
	}
	daemon_die(d, gone);
}

/* the next message of slot into its box (taken with d->lock held) */
static int daemon_next(struct kh_rt_daemon *d, unsigned int slot)
{
	union {
		struct kh_daemon_hdr hdr;
		unsigned char raw[KH_DAEMON_MSG_MAX];
	} *m = NULL;

	for (;;) {
		char why[256];
		int fd = -1, r;
		unsigned int s;

		if (d->box[slot].full)
			break;
		if (d->dead)
			break;
		if (d->reading) {
			pthread_cond_wait(&d->cond, &d->lock);
			continue;
		}
		if (!m) {
			m = malloc(sizeof(*m));
			if (!m) {
				daemon_die(d, "out of memory reading kohakud's answer");
				break;
			}
		}
		d->reading = true;
		pthread_mutex_unlock(&d->lock);
		r = daemon_recv(d->fd, m, &fd, why, sizeof(why));
		pthread_mutex_lock(&d->lock);
		d->reading = false;
		pthread_cond_broadcast(&d->cond);
		if (r < 0) {
			daemon_die(d, why);
			break;
		}
		if (m->hdr.type == KH_DAEMON_BYE &&
		    m->hdr.len >= sizeof(struct kh_daemon_bye)) {
			struct kh_daemon_bye *b = (struct kh_daemon_bye *)m;

			if (fd >= 0)
				close(fd);
			b->message[sizeof(b->message) - 1] = '\0';
			daemon_die(d, b->message);
			break;
		}
		s = m->hdr.slot;
		if (s >= KH_DAEMON_SLOTS || !(d->busy & (1u << s)) ||
		    d->box[s].full) {
			if (fd >= 0)
				close(fd);
			snprintf(why, sizeof(why), "kohakud answered slot %u, which "
				 "asked nothing", s);
			daemon_die(d, why);
			break;
		}
		memcpy(&d->box[s].m, m, m->hdr.len);
		d->box[s].fd = fd;
		d->box[s].full = true;
	}
	free(m);
	return d->box[slot].full ? 0 : -ENODEV;
}

/* a free slot, or -ENODEV when the connection is over */
static int daemon_slot_get(struct kh_rt_daemon *d, unsigned int *slot)
{
	pthread_mutex_lock(&d->lock);
	while (!d->dead && d->busy == (1u << KH_DAEMON_SLOTS) - 1)
		pthread_cond_wait(&d->cond, &d->lock);
	if (d->dead) {
		pthread_mutex_unlock(&d->lock);
		return -ENODEV;
	}
	*slot = (unsigned int)__builtin_ctz(~d->busy);
	d->busy |= 1u << *slot;
	pthread_mutex_unlock(&d->lock);
	return 0;
}

static void daemon_slot_put(struct kh_rt_daemon *d, unsigned int slot)
{
	pthread_mutex_lock(&d->lock);
	d->busy &= ~(1u << slot);
	if (d->box[slot].full && d->box[slot].fd >= 0)
		close(d->box[slot].fd);
	d->box[slot].full = false;
	pthread_cond_broadcast(&d->cond);
	pthread_mutex_unlock(&d->lock);
}

/*
 * The caller's side of a kohakud callback: its own memory into the slot
 * (CB_READ) or out of it (CB_WRITE), a buffer for text (CB_ALLOC; the call
 * frees it unless it is the result).
 */
static int daemon_callback(struct kh_rt_daemon *d, unsigned int slot,
			   const struct kh_daemon_cb *cb, void **alloc)
{
	struct kh_daemon_cb_reply rep = {
		.hdr = { .type = KH_DAEMON_CB_REPLY, .len = sizeof(rep),
			 .slot = slot },
	};
	off_t off = (off_t)slot * KH_DAEMON_SLOT_SIZE;
	ssize_t n;

	switch (cb->hdr.type) {
	case KH_DAEMON_CB_READ:
	case KH_DAEMON_CB_WRITE:
		if (cb->len > KH_DAEMON_SLOT_SIZE || cb->hdr.len < sizeof(*cb)) {
			rep.status = -EPROTO;
			break;
		}
		/* the kernel copies: a bad address is EFAULT, not a crash */
		n = cb->hdr.type == KH_DAEMON_CB_READ ?
		    pwrite(d->memfd, (const void *)(uintptr_t)cb->addr,
			   (size_t)cb->len, off) :
		    pread(d->memfd, (void *)(uintptr_t)cb->addr,
			  (size_t)cb->len, off);
		rep.status = n == (ssize_t)cb->len ? 0 : -EFAULT;
		break;
	case KH_DAEMON_CB_ALLOC:
		free(*alloc);
		*alloc = cb->len && cb->len < ((uint64_t)1 << 32) ?
			 malloc((size_t)cb->len) : NULL;
		rep.status = *alloc ? 0 : -ENOMEM;
		rep.value = (uint64_t)(uintptr_t)*alloc;
		break;
	default:
		rep.status = -EPROTO;
		break;
	}
	return daemon_send(d, &rep, sizeof(rep), -1);
}

/*
 * One call: req (its slot filled in here) and its callbacks to its DONE.
 * Returns DONE's ret, or -ENODEV when kohakud is gone; the reason goes to
 * the calling thread's kh_rt_daemon_why.  *fd: an fd DONE brought (or
 * -1), *text: a CB_ALLOC buffer DONE named (the caller's to free).
 */
static int daemon_call(struct kohaku_device *dev, struct kh_daemon_hdr *req,
		       const void *data, size_t dlen, int *fd, char **text)
{
	struct kh_rt_daemon *d = dev->daemon;
	void *alloc = NULL;
	unsigned int slot;
	int r;

	kh_rt_daemon_why.dev = dev;
	kh_rt_daemon_why.text[0] = '\0';
	if (fd)
		*fd = -1;
	if (text)
		*text = NULL;
	r = daemon_slot_get(d, &slot);
	if (r < 0)
		goto gone;
	if (dlen && pwrite(d->memfd, data, dlen,
			   (off_t)slot * KH_DAEMON_SLOT_SIZE) != (ssize_t)dlen) {
		daemon_slot_put(d, slot);
		snprintf(kh_rt_daemon_why.text, sizeof(kh_rt_daemon_why.text),
			 "the call's data could not go to kohakud's shared "
			 "memory");
		return -EFAULT;
	}
	req->slot = slot;
	r = daemon_send(d, req, req->len, -1);
	if (r < 0) {
		pthread_mutex_lock(&d->lock);
		daemon_die_sent(d);
		pthread_mutex_unlock(&d->lock);
	}
	for (;;) {
		struct kh_daemon_cb cb;

		pthread_mutex_lock(&d->lock);
		r = r < 0 ? r : daemon_next(d, slot);
		if (r < 0) {
			pthread_mutex_unlock(&d->lock);
			daemon_slot_put(d, slot);
			free(alloc);
			goto gone;
		}
		if (d->box[slot].m.hdr.type == KH_DAEMON_DONE) {
			struct kh_daemon_done *dn = &d->box[slot].m.done;

			r = dn->ret;
			dn->reason[sizeof(dn->reason) - 1] = '\0';
			snprintf(kh_rt_daemon_why.text,
				 sizeof(kh_rt_daemon_why.text), "%s", dn->reason);
			if (fd && (dn->flags & KH_DAEMON_DONE_FD)) {
				*fd = d->box[slot].fd;
				d->box[slot].fd = -1;
			}
			if (text && alloc && dn->value == (uint64_t)(uintptr_t)alloc) {
				*text = alloc;
				alloc = NULL;
			}
			pthread_mutex_unlock(&d->lock);
			break;
		}
		memcpy(&cb, &d->box[slot].m.cb, sizeof(cb));
		if (d->box[slot].fd >= 0)
			close(d->box[slot].fd);
		d->box[slot].fd = -1;
		d->box[slot].full = false;
		pthread_mutex_unlock(&d->lock);
		if (daemon_callback(d, slot, &cb, &alloc) < 0) {
			pthread_mutex_lock(&d->lock);
			daemon_die_sent(d);
			pthread_mutex_unlock(&d->lock);
			r = -ENODEV;
		}
	}
	daemon_slot_put(d, slot);
	free(alloc);
	return r;

gone:
	pthread_mutex_lock(&d->lock);
	snprintf(kh_rt_daemon_why.text, sizeof(kh_rt_daemon_why.text),
		 "%s; this device is gone: open it again once kohakud "
		 "runs", d->dead_why[0] ? d->dead_why : "the connection is over");
	pthread_mutex_unlock(&d->lock);
	return -ENODEV;
}

/* ---- ops ---- */

static int daemon_ioctl(struct kohaku_device *dev, unsigned long cmd, void *arg)
{
	struct kh_daemon_ioctl m = {
		.hdr = { .type = KH_DAEMON_IOCTL, .len = sizeof(m) },
		.cmd = cmd, .arg = (uint64_t)(uintptr_t)arg,
	};
	int fd, r;

	r = daemon_call(dev, &m.hdr, NULL, 0, &fd, NULL);
	if (cmd == DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD && fd >= 0) {
		/* kohakud's sync file, now ours: its number in the caller's struct */
		if (!r)
			((struct drm_syncobj_handle *)arg)->fd = fd;
		else
			close(fd);
	} else if (fd >= 0) {
		close(fd);
	}
	return r;
}

static void daemon_reason(struct kohaku_device *dev, unsigned long since,
			  char *buf, size_t len)
{
	if (kh_rt_daemon_why.dev == dev && kh_rt_daemon_why.text[0])
		snprintf(buf, len, "%s", kh_rt_daemon_why.text);
	else if (len)
		buf[0] = '\0';
}

static void daemon_fw_status(struct kohaku_device *dev, char *buf, size_t len)
{
	kh_rt_strlcpy(buf, dev->daemon->fw_status, len);
}

static void daemon_free(struct kh_rt_daemon *d)
{
	unsigned int i;

	if (!d)
		return;
	if (d->fd >= 0)
		close(d->fd);
	if (d->memfd >= 0)
		close(d->memfd);
	for (i = 0; i < KH_DAEMON_SLOTS; i++)
		if (d->box[i].full && d->box[i].fd >= 0)
			close(d->box[i].fd);
	pthread_mutex_destroy(&d->lock);
	pthread_mutex_destroy(&d->send_lock);
	pthread_cond_destroy(&d->cond);
	free(d->device);
	free(d);
}

static void daemon_close(struct kohaku_device *dev)
{
	daemon_free(dev->daemon);
	dev->daemon = NULL;
}

static int daemon_connect(const char *device, unsigned int flags,
			  struct kohaku_device *dev, char *err, size_t errlen);

/*
 * KOHAKU_UNPRIVILEGED=1: the file is not an administrator's, as on the sim
 * backend (kohakud's files are otherwise: the card is this user's own)
 */
static bool kh_rt_daemon_unprivileged_env(void)
{
	const char *e = getenv("KOHAKU_UNPRIVILEGED");

	return e && *e && strcmp(e, "0");
}

static int daemon_reopen(struct kohaku_device *src, struct kohaku_device *dst)
{
	char err[KOHAKU_ERRMSG_MAX];
	unsigned int flags = src->daemon->flags & ~KH_DAEMON_UNPRIVILEGED;
	int r;

	/* as the sim backend's reopen: KOHAKU_UNPRIVILEGED asks for less */
	if (dst->unprivileged || kh_rt_daemon_unprivileged_env())
		flags |= KH_DAEMON_UNPRIVILEGED;
	r = daemon_connect(src->daemon->device, flags, dst, err, sizeof(err));
	if (r < 0) {
		kh_rt_seterr(dst, "opening another file on %s: %s", src->path, err);
		daemon_close(dst);
	}
	return r;
}

static const struct kh_rt_backend_ops daemon_ops = {
	.ioctl = daemon_ioctl,
	.reopen = daemon_reopen,
	.close = daemon_close,
	.reason = daemon_reason,
	.fw_status = daemon_fw_status,
};

/* ---- open ---- */

/* a connection, with HELLO said and WELCOME heard: 0 or -errno, err said */
static int daemon_connect(const char *device, unsigned int flags,
			  struct kohaku_device *dev, char *err, size_t errlen)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct kh_daemon_hello h = {
		.hdr = { .type = KH_DAEMON_HELLO, .len = sizeof(h) },
		.proto = KH_DAEMON_PROTO, .flags = flags,
		.shm_size = KH_DAEMON_SHM_SIZE,
	};
	union {
		struct kh_daemon_welcome w;
		unsigned char raw[KH_DAEMON_MSG_MAX];
	} *m = NULL;
	struct kh_rt_daemon *d;
	char path[sizeof(a.sun_path)], why[256];
	size_t dlen = device ? strlen(device) : 0;
	pthread_condattr_t ca;
	int r;

	r = kh_rt_daemon_socket_path(path, sizeof(path), err, errlen);
	if (r < 0)
		return r;
	if (dlen > KH_DAEMON_DEVICE_MAX) {
		kh_rt_errbuf(err, errlen, "the card's name or description is "
			     "%zu bytes; kohakud takes at most %u", dlen,
			     KH_DAEMON_DEVICE_MAX);
		return -E2BIG;
	}
	d = calloc(1, sizeof(*d));
	if (!d || !(d->device = strdup(device ? device : ""))) {
		free(d);
		kh_rt_errbuf(err, errlen, "out of host memory");
		return -ENOMEM;
	}
	d->flags = flags;
	d->memfd = -1;
	pthread_mutex_init(&d->lock, NULL);
	pthread_mutex_init(&d->send_lock, NULL);
	pthread_condattr_init(&ca);
	pthread_cond_init(&d->cond, &ca);
	pthread_condattr_destroy(&ca);
	dev->daemon = d;
	dev->ops = &daemon_ops;

	d->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	if (d->fd < 0 || connect(d->fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		r = -errno;
		if (r == -ENOENT || r == -ECONNREFUSED)
			kh_rt_errbuf(err, errlen, "kohakud is not running: nothing "
				     "listens on %s. Start it (`kohakud &`, or "
				     "`systemctl --user start kohakud.socket` "
				     "after make install), or use KOHAKU_BACKEND=sim "
				     "for a card in this process (docs/kohakud.md)",
				     path);
		else
			kh_rt_errbuf(err, errlen, "cannot reach kohakud at %s: %s",
				     path, strerror(-r));
		return r == -ENOENT || r == -ECONNREFUSED ? -ENODEV : r;
	}
	d->memfd = memfd_create("kohaku-daemon", MFD_CLOEXEC);
	if (d->memfd < 0 || ftruncate(d->memfd, KH_DAEMON_SHM_SIZE) < 0) {
		r = -errno;
		kh_rt_errbuf(err, errlen, "the memory shared with kohakud: %s",
			     strerror(errno));
		return r;
	}
	if (dlen && pwrite(d->memfd, device, dlen, 0) != (ssize_t)dlen) {
		kh_rt_errbuf(err, errlen, "the memory shared with kohakud: %s",
			     strerror(errno));
		return -EIO;
	}
	h.device_len = (uint32_t)dlen;
	r = daemon_send(d, &h, sizeof(h), d->memfd);
	m = malloc(sizeof(*m));
	if (!r && !m)
		r = -ENOMEM;
	if (!r) {
		r = daemon_recv(d->fd, m, NULL, why, sizeof(why));
		if (!r && (m->w.hdr.type != KH_DAEMON_WELCOME ||
			   m->w.hdr.len < sizeof(m->w))) {
			snprintf(why, sizeof(why), "kohakud's first answer is not "
				 "a WELCOME");
			r = -EPROTO;
		}
	} else {
		snprintf(why, sizeof(why), "%s", strerror(-r));
	}
	if (r < 0) {
		kh_rt_errbuf(err, errlen, "kohakud at %s: %s", path, why);
		free(m);
		return r == -EPIPE ? -ENODEV : r;
	}
	m->w.message[sizeof(m->w.message) - 1] = '\0';
	m->w.name[sizeof(m->w.name) - 1] = '\0';
	m->w.fw_status[sizeof(m->w.fw_status) - 1] = '\0';
	r = m->w.status;
	if (r < 0) {
		kh_rt_errbuf(err, errlen, "%s", m->w.message);
	} else if (r > 0) {
		kh_rt_errbuf(err, errlen, "kohakud answered status %d", r);
		r = -EPROTO;
	} else {
		kh_rt_strlcpy(d->fw_status, m->w.fw_status, sizeof(d->fw_status));
		snprintf(dev->path, sizeof(dev->path), "daemon:%s",
			 strncmp(m->w.name, "sim:", 4) ? m->w.name : m->w.name + 4);
	}
	free(m);
	return r;
}

static int daemon_open(const char *device, struct kohaku_device *dev,
		       char *err, size_t errlen)
{
	char abs[PATH_MAX];

	if (!strncmp(device, "daemon:", 7))
		device += 7;
	if (!*device) {
		kh_rt_errbuf(err, errlen, "the daemon backend needs a card's "
			     "name: a built-in description or a description "
			     "file");
		return -EINVAL;
	}
	/* a file by its absolute path: kohakud runs elsewhere */
	if (!strchr(device, '\n') && !kohaku_sim_builtin_desc(device)) {
		if (!realpath(device, abs)) {
			char names[256];

			kh_rt_builtin_list(names, sizeof(names));
			kh_rt_errbuf(err, errlen, "card '%s' is neither a built-in "
				     "card description (%s) nor an existing "
				     "description file", device, names);
			return -ENOENT;
		}
		device = abs;
	}
	return daemon_connect(device, dev->unprivileged ||
			      kh_rt_daemon_unprivileged_env() ?
			      KH_DAEMON_UNPRIVILEGED : 0, dev, err, errlen);
}

/* a control connection's CARDS: the text, malloc'ed */
int kh_rt_daemon_cards(char **text, char *err, size_t errlen)
{
	struct kohaku_device dev;
	struct kh_daemon_hdr m = { .type = KH_DAEMON_CARDS, .len = sizeof(m) };
	int r;

	memset(&dev, 0, sizeof(dev));
	*text = NULL;
	r = daemon_connect(NULL, KH_DAEMON_CONTROL, &dev, err, errlen);
	if (!r) {
		r = daemon_call(&dev, &m, NULL, 0, NULL, text);
		if (r < 0)
			kh_rt_errbuf(err, errlen, "%s", kh_rt_daemon_why.text);
		else if (!*text)
			r = -EPROTO;
	}
	daemon_close(&dev);
	return r;
}

static int daemon_list(const char *device, struct kohaku_device_entry **list,
		       unsigned int *count, char *err, size_t errlen)
{
	struct kohaku_device_entry *l;
	char *text = NULL, *line, *save = NULL;
	unsigned int n = 0, i = 0;
	int r;

	if (device) {
		text = strdup(device);
		n = 1;
	} else {
		r = kh_rt_daemon_cards(&text, err, errlen);
		if (r < 0)
			return r;
		for (line = text; *line; line++)
			n += *line == '\n';
	}
	l = calloc(n ? n : 1, sizeof(*l));
	if (!l || !text) {
		free(l);
		free(text);
		kh_rt_errbuf(err, errlen, "out of host memory");
		return -ENOMEM;
	}
	for (line = strtok_r(text, "\n", &save); line && i < n;
	     line = strtok_r(NULL, "\n", &save), i++) {
		struct kohaku_device_entry *e = &l[i];
		char *named = strchr(line, '\t'), *end;
		struct kohaku_device *dev;
		char msg[KOHAKU_ERRMSG_MAX];

		if (!device && named) {
			named++;
			end = strchr(named, '\t');
			if (end)
				*end = '\0';
			line = named;
		}
		e->backend = KOHAKU_BACKEND_DAEMON;
		e->index = -1;
		kh_rt_strlcpy(e->driver, "kohaku (kohakud)", sizeof(e->driver));
		e->status = kh_rt_dev_open(&kh_rt_backend_daemon, line, &dev, msg,
					   sizeof(msg));
		if (!e->status) {
			kh_rt_strlcpy(e->path, dev->path, sizeof(e->path));
			kh_rt_strlcpy(e->name, dev->info.name, sizeof(e->name));
			e->n_meshes = dev->info.n_meshes;
			e->n_nodes = dev->info.n_nodes;
			kohaku_close(dev);
		} else {
			snprintf(e->path, sizeof(e->path), "daemon:%.50s", line);
			kh_rt_strlcpy(e->message, msg, sizeof(e->message));
		}
	}
	free(text);
	*list = l;
	*count = i;
	return 0;
}

/* ---- the model's knobs ---- */

int kh_rt_daemon_sim_command(struct kohaku_device *dev, const char *line)
{
	struct kh_daemon_sim m = {
		.hdr = { .type = KH_DAEMON_SIM_COMMAND, .len = sizeof(m) },
		.what = (uint32_t)strlen(line),
	};
	int r = daemon_call(dev, &m.hdr, line, strlen(line), NULL, NULL);

	if (r)
		kh_rt_seterr(dev, "%s", kh_rt_daemon_why.text);
	return r;
}

int kh_rt_daemon_sim_read(struct kohaku_device *dev, unsigned int what,
			  char **text)
{
	struct kh_daemon_sim m = {
		.hdr = { .type = KH_DAEMON_SIM_READ, .len = sizeof(m) },
		.what = what,
	};
	int r = daemon_call(dev, &m.hdr, NULL, 0, NULL, text);

	if (!r && !*text)
		r = -EPROTO;
	if (r)
		kh_rt_seterr(dev, "%s", kh_rt_daemon_why.text);
	return r;
}

const struct kh_rt_backend kh_rt_backend_daemon = {
	.id = KOHAKU_BACKEND_DAEMON,
	.name = "daemon",
	.needs_device = true,
	.open = daemon_open,
	.list = daemon_list,
};

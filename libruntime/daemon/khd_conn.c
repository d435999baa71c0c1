// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A client's connection: one open file on one card, served by a reader
 * thread and a thread per call in flight (uapi/kohaku/kh_daemon.h).
 *
 * The reader takes every message: HELLO first (the memfd, the card), then
 * a call in a free slot starts its thread, and a CB_REPLY goes to the call
 * of its slot.  A call's thread runs the driver core with itself as the
 * core's caller (<kh_os_caller.h>): copy_from_user() is a CB_READ and
 * copy_to_user() a CB_WRITE, through the slot's shared memory.
 *
 * A client that breaks the protocol (garbage, a message cut short, a
 * length past KH_DAEMON_MSG_MAX, a slot that is not free or not busy), or
 * that does not answer or read within KH_DAEMON_CLIENT_TIMEOUT_MS, has its
 * connection closed: its calls see a fatal signal and end, then its file
 * is closed, freeing its objects as kohaku.ko frees a closed file's.
 * Nothing a client sends reaches another's file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <linux/kernel.h>
#include <kh_os_caller.h>

#include "khd.h"
#include "rt_internal.h"

struct khd_conn;

/* a call in flight: the core's caller while it runs */
struct khd_call {
	struct kh_os_caller caller;	/* first: the core hands it back */
	struct khd_conn *conn;
	unsigned int slot;
	pthread_t thread;
	bool busy;			/* the slot is taken */
	bool replied;			/* reply holds the client's CB_REPLY */
	struct kh_daemon_cb_reply reply;
	union {
		struct kh_daemon_hdr hdr;
		struct kh_daemon_ioctl ioctl;
		struct kh_daemon_sim sim;
		u8 raw[KH_DAEMON_MSG_MAX];
	} req;
};

struct khd_conn {
	struct khd_conn *next;
	int fd;
	u8 *shm;			/* the client's memfd, mapped */
	struct khd_card *card;
	kohaku_device *file;		/* NULL on a control connection */
	pthread_mutex_t lock;		/* calls, dying, n_calls */
	pthread_cond_t cond;
	pthread_mutex_t send_lock;
	unsigned int n_calls;		/* threads running */
	int dying;
	int said_bye;			/* BYE sent (khd_conn_bye) */
	pid_t pid;			/* the client's, for the log */
	struct khd_call call[KH_DAEMON_SLOTS];
};

static pthread_mutex_t khd_conns_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t khd_conns_cond = PTHREAD_COND_INITIALIZER;
static struct khd_conn *khd_conns;
static unsigned int khd_n_conns;

/* ---- the socket ---- */

/*
 * One message out, with an fd when fd >= 0.  SO_SNDTIMEO bounds each
 * send: a client that does not read is a dead one.
 */
static int khd_send(struct khd_conn *c, const void *msg, size_t len, int fd)
{
	int r;

	pthread_mutex_lock(&c->send_lock);
	r = kh_rt_daemon_sendmsg(c->fd, msg, len, fd);
	pthread_mutex_unlock(&c->send_lock);
	return r;
}

/*
 * The next message into buf (KH_DAEMON_MSG_MAX): 0, or -errno with why
 * said (the connection is then over).
 */
static int khd_recv(struct khd_conn *c, void *buf, int *passed, char *why,
		    size_t whylen)
{
	struct kh_daemon_hdr *h = buf;
	int r;

	r = kh_rt_daemon_read(c->fd, h, sizeof(*h), passed);
	if (r == -EPIPE) {
		snprintf(why, whylen, "closed by the client");
		return r;
	}
	if (r < 0) {
		snprintf(why, whylen, "reading: %s", strerror(-r));
		return r;
	}
	if (h->len < sizeof(*h) || h->len > KH_DAEMON_MSG_MAX || h->pad) {
		snprintf(why, whylen, "a message of %u bytes (type %u): not the "
			 "protocol (%zu..%u bytes, pad 0)", h->len, h->type,
			 sizeof(*h), KH_DAEMON_MSG_MAX);
		return -EPROTO;
	}
	r = kh_rt_daemon_read(c->fd, h + 1, h->len - sizeof(*h), passed);
	if (r < 0) {
		snprintf(why, whylen, "a message of %u bytes cut short: %s",
			 h->len, r == -EPIPE ? "the client closed" : strerror(-r));
		return r;
	}
	return 0;
}

/* ---- the caller: the client's memory through the slot ---- */

static void khd_conn_kill(struct khd_conn *c)
{
	pthread_mutex_lock(&c->lock);
	__atomic_store_n(&c->dying, 1, __ATOMIC_RELEASE);
	for (unsigned int i = 0; i < KH_DAEMON_SLOTS; i++)
		__atomic_store_n(&c->call[i].caller.dying, 1, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
	shutdown(c->fd, SHUT_RDWR);
}

/*
 * The last word on a connection kohakud ends itself: BYE with why, once,
 * then the connection is killed.  Best effort: a client that does not
 * read does not get it (the send times out).
 */
static void khd_conn_bye(struct khd_conn *c, int status, const char *why)
{
	struct kh_daemon_bye b = {
		.hdr = { .type = KH_DAEMON_BYE, .len = sizeof(b) },
		.status = status,
	};

	if (__atomic_exchange_n(&c->said_bye, 1, __ATOMIC_ACQ_REL))
		return;
	snprintf(b.message, sizeof(b.message), "%s", why);
	khd_send(c, &b, sizeof(b), -1);
}

/* a CB_* to the client and its CB_REPLY: 0 or -errno (-EPIPE: gone) */
static int khd_callback(struct khd_call *k, u32 type, u64 addr, u64 len,
			u64 *value)
{
	struct khd_conn *c = k->conn;
	struct kh_daemon_cb cb = {
		.hdr = { .type = type, .len = sizeof(cb), .slot = k->slot },
		.addr = addr, .len = len,
	};
	struct timespec ts;
	int r;

	if (__atomic_load_n(&c->dying, __ATOMIC_ACQUIRE))
		return -EPIPE;
	r = khd_send(c, &cb, sizeof(cb), -1);
	if (r < 0) {
		khd_log(KHD_WARN, "client %d: %s, closing its connection",
			(int)c->pid, r == -EAGAIN ? "does not read" : strerror(-r));
		khd_conn_kill(c);
		return -EPIPE;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += KH_DAEMON_CLIENT_TIMEOUT_MS / 1000;
	pthread_mutex_lock(&c->lock);
	while (!k->replied && !c->dying)
		if (pthread_cond_timedwait(&c->cond, &c->lock, &ts) == ETIMEDOUT)
			break;
	if (!k->replied) {
		bool was = c->dying;

		pthread_mutex_unlock(&c->lock);
		if (!was) {
			char why[128];

			snprintf(why, sizeof(why), "the client did not answer "
				 "kohakud in %u ms", KH_DAEMON_CLIENT_TIMEOUT_MS);
			khd_log(KHD_WARN, "client %d: no answer in %u ms, closing "
				"its connection", (int)c->pid,
				KH_DAEMON_CLIENT_TIMEOUT_MS);
			khd_conn_bye(c, -ETIMEDOUT, why);
			khd_conn_kill(c);
		}
		return -EPIPE;
	}
	k->replied = false;
	r = k->reply.status;
	if (value)
		*value = k->reply.value;
	pthread_mutex_unlock(&c->lock);
	return r > 0 ? -EPROTO : r;
}

/*
 * n bytes between the caller's user and local here, a slot at a time: in
 * (copy_from_user) CB_READ then out of the slot, out (copy_to_user) into
 * the slot then CB_WRITE.  The bytes not copied, as the kernel's.
 */
static unsigned long khd_copy(struct khd_call *k, u64 user, u8 *local,
			      unsigned long n, bool in)
{
	u8 *shm = k->conn->shm + (size_t)k->slot * KH_DAEMON_SLOT_SIZE;
	unsigned long done = 0;

	if (!user || !local)
		return n;
	while (done < n) {
		unsigned long piece = n - done;

		if (piece > KH_DAEMON_SLOT_SIZE)
			piece = KH_DAEMON_SLOT_SIZE;
		if (!in)
			memcpy(shm, local + done, piece);
		if (khd_callback(k, in ? KH_DAEMON_CB_READ : KH_DAEMON_CB_WRITE,
				 user + done, piece, NULL))
			return n - done;
		if (in)
			memcpy(local + done, shm, piece);
		done += piece;
	}
	return 0;
}

static unsigned long khd_from(struct kh_os_caller *caller, void *to,
			      const void *from, unsigned long n)
{
	return khd_copy((struct khd_call *)caller, (u64)(uintptr_t)from, to,
			n, true);
}

static unsigned long khd_to(struct kh_os_caller *caller, void *to,
			    const void *from, unsigned long n)
{
	return khd_copy((struct khd_call *)caller, (u64)(uintptr_t)to,
			(u8 *)from, n, false);
}

/* text into a buffer the client allocates for it: its address, or 0 */
static u64 khd_give_text(struct khd_call *k, const char *text, int *ret)
{
	size_t n = strlen(text) + 1;
	u64 addr = 0;

	*ret = khd_callback(k, KH_DAEMON_CB_ALLOC, 0, n, &addr);
	if (*ret)
		return 0;
	if (!addr) {
		*ret = -ENOMEM;
		return 0;
	}
	if (khd_to(&k->caller, (void *)(uintptr_t)addr, text, n))
		*ret = -EFAULT;
	return addr;
}

/* ---- the calls ---- */

static const char *const khd_reads[] = { "stats", "knobs", "trace", "check" };

/*
 * SYNCOBJ_HANDLE_TO_FD: the sync file is an fd of kohakud's, which goes
 * to the client with DONE; the struct is read and run here, and the
 * client puts the fd it receives in its own.
 */
static int khd_handle_to_fd(struct khd_call *k, u64 arg, int *fd)
{
	struct drm_syncobj_handle h;
	struct kh_os_caller *was;
	int r;

	if (khd_from(&k->caller, &h, (void *)(uintptr_t)arg, sizeof(h)))
		return -EFAULT;
	was = kh_os_caller;
	kh_os_caller = NULL;	/* the struct is ours now */
	r = k->conn->file->ops->ioctl(k->conn->file,
				      DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h);
	kh_os_caller = was;
	if (!r)
		*fd = h.fd;
	return r;
}

static void *khd_call_run(void *arg)
{
	struct khd_call *k = arg;
	struct khd_conn *c = k->conn;
	struct kh_daemon_done done = {
		.hdr = { .type = KH_DAEMON_DONE, .slot = k->slot },
	};
	kohaku_device *f = c->file;
	int fd = -1;
	char *text = NULL;

	k->caller.fault = 0;
	kh_os_caller = &k->caller;
	switch (k->req.hdr.type) {
	case KH_DAEMON_IOCTL: {
		unsigned long pos = f->ops->log_pos ? f->ops->log_pos(f) : 0;
		u64 cmd = k->req.ioctl.cmd, uarg = k->req.ioctl.arg;

		if (cmd == DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD)
			done.ret = khd_handle_to_fd(k, uarg, &fd);
		else
			done.ret = f->ops->ioctl(f, (unsigned long)cmd,
						 (void *)(uintptr_t)uarg);
		if (!done.ret && k->caller.fault) {
			done.ret = -EFAULT;
			snprintf(done.reason, sizeof(done.reason), "the data could "
				 "not be written to the caller's buffer");
		}
		if (done.ret < 0 && f->ops->reason && !done.reason[0])
			f->ops->reason(f, pos, done.reason, sizeof(done.reason));
		break;
	}
	case KH_DAEMON_SIM_COMMAND: {
		u32 n = k->req.sim.what;
		char *line = malloc((size_t)n + 1);

		if (!line || n >= KH_DAEMON_SLOT_SIZE) {
			done.ret = line ? -EINVAL : -ENOMEM;
		} else {
			memcpy(line, c->shm + (size_t)k->slot * KH_DAEMON_SLOT_SIZE, n);
			line[n] = '\0';
			kh_os_caller = NULL;	/* the model's knobs read no user memory */
			done.ret = kohaku_sim_command(f, line);
			if (done.ret)
				snprintf(done.reason, sizeof(done.reason), "%s",
					 kohaku_last_error(f));
		}
		free(line);
		break;
	}
	case KH_DAEMON_SIM_READ:
		if (k->req.sim.what >= ARRAY_SIZE(khd_reads)) {
			done.ret = -EINVAL;
			break;
		}
		kh_os_caller = NULL;
		done.ret = kohaku_sim_read(f, khd_reads[k->req.sim.what], &text);
		kh_os_caller = &k->caller;
		if (done.ret)
			snprintf(done.reason, sizeof(done.reason), "%s",
				 kohaku_last_error(f));
		else
			done.value = khd_give_text(k, text, &done.ret);
		free(text);
		break;
	case KH_DAEMON_CARDS:
		text = khd_cards_text();
		if (!text)
			done.ret = -ENOMEM;
		else
			done.value = khd_give_text(k, text, &done.ret);
		free(text);
		break;
	}
	kh_os_caller = NULL;
	if (done.ret == -ERESTARTSYS)
		done.ret = -EINTR;
	done.flags = fd >= 0 ? KH_DAEMON_DONE_FD : 0;
	done.hdr.len = (u32)(offsetof(struct kh_daemon_done, reason) +
			     strlen(done.reason) + 1);

	/* the slot is free before DONE goes: the client reuses it after */
	pthread_mutex_lock(&c->lock);
	k->busy = false;
	pthread_mutex_unlock(&c->lock);
	if (!__atomic_load_n(&c->dying, __ATOMIC_ACQUIRE) &&
	    khd_send(c, &done, done.hdr.len, fd) < 0)
		khd_conn_kill(c);
	if (fd >= 0)
		close(fd);

	pthread_mutex_lock(&c->lock);
	c->n_calls--;
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

/* a call the client starts: its slot taken, its thread started; 0 or why */
static int khd_call_start(struct khd_conn *c, const struct kh_daemon_hdr *h,
			  char *why, size_t whylen)
{
	struct khd_call *k;
	size_t need;
	pthread_attr_t a;
	int r;

	switch (h->type) {
	case KH_DAEMON_IOCTL:
		need = sizeof(struct kh_daemon_ioctl);
		break;
	case KH_DAEMON_SIM_COMMAND:
	case KH_DAEMON_SIM_READ:
		need = sizeof(struct kh_daemon_sim);
		break;
	case KH_DAEMON_CARDS:
		need = sizeof(struct kh_daemon_hdr);
		break;
	default:
		snprintf(why, whylen, "message type %u is not a call", h->type);
		return -EPROTO;
	}
	if (h->len < need) {
		snprintf(why, whylen, "a call of type %u in %u bytes (%zu needed)",
			 h->type, h->len, need);
		return -EPROTO;
	}
	if (!c->file && h->type != KH_DAEMON_CARDS) {
		snprintf(why, whylen, "a control connection's call of type %u "
			 "(only CARDS)", h->type);
		return -EPROTO;
	}
	k = &c->call[h->slot];
	pthread_mutex_lock(&c->lock);
	if (k->busy) {
		pthread_mutex_unlock(&c->lock);
		snprintf(why, whylen, "a call in slot %u, which is busy", h->slot);
		return -EPROTO;
	}
	k->busy = true;
	k->replied = false;
	c->n_calls++;
	pthread_mutex_unlock(&c->lock);
	memcpy(k->req.raw, h, h->len);

	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	r = pthread_create(&k->thread, &a, khd_call_run, k);
	pthread_attr_destroy(&a);
	if (r) {
		pthread_mutex_lock(&c->lock);
		k->busy = false;
		c->n_calls--;
		pthread_mutex_unlock(&c->lock);
		snprintf(why, whylen, "no thread for a call: %s", strerror(r));
		return -r;
	}
	return 0;
}

/* a CB_REPLY to the call waiting in its slot; 0 or why */
static int khd_reply(struct khd_conn *c, const struct kh_daemon_hdr *h,
		     char *why, size_t whylen)
{
	struct khd_call *k = &c->call[h->slot];

	if (h->len < sizeof(struct kh_daemon_cb_reply)) {
		snprintf(why, whylen, "a CB_REPLY of %u bytes", h->len);
		return -EPROTO;
	}
	pthread_mutex_lock(&c->lock);
	if (!k->busy || k->replied) {
		pthread_mutex_unlock(&c->lock);
		snprintf(why, whylen, "a CB_REPLY in slot %u, which asked nothing",
			 h->slot);
		return -EPROTO;
	}
	memcpy(&k->reply, h, sizeof(k->reply));
	k->replied = true;
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
	return 0;
}

/* ---- HELLO ---- */

static int khd_hello(struct khd_conn *c, struct kh_daemon_welcome *w,
		     char *why, size_t whylen)
{
	union {
		struct kh_daemon_hello h;
		u8 raw[KH_DAEMON_MSG_MAX];
	} m;
	int memfd = -1, r;
	struct stat st;
	char *name = NULL;
	void *p;

	r = khd_recv(c, &m, &memfd, why, whylen);
	if (r < 0)
		goto out;
	r = -EPROTO;
	if (m.h.hdr.type != KH_DAEMON_HELLO || m.h.hdr.len < sizeof(m.h)) {
		snprintf(why, whylen, "the first message is not a HELLO "
			 "(type %u, %u bytes)", m.h.hdr.type, m.h.hdr.len);
		goto out;
	}
	if (m.h.proto != KH_DAEMON_PROTO) {
		snprintf(w->message, sizeof(w->message), "kohakud speaks protocol "
			 "%u, the client %u: install a libkohaku and a kohakud "
			 "of one release", KH_DAEMON_PROTO, m.h.proto);
		snprintf(why, whylen, "protocol %u", m.h.proto);
		goto out;
	}
	if ((m.h.flags & ~KH_DAEMON_HELLO_FLAGS) || m.h.pad || m.h.hdr.slot ||
	    m.h.shm_size != KH_DAEMON_SHM_SIZE ||
	    m.h.device_len > KH_DAEMON_DEVICE_MAX ||
	    !(m.h.flags & KH_DAEMON_CONTROL) != !!m.h.device_len) {
		snprintf(why, whylen, "a HELLO with flags 0x%x, shm %llu bytes, "
			 "device of %u bytes", m.h.flags,
			 (unsigned long long)m.h.shm_size, m.h.device_len);
		goto out;
	}
	if (memfd < 0 || fstat(memfd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (u64)st.st_size < KH_DAEMON_SHM_SIZE) {
		snprintf(why, whylen, "HELLO came without a memfd of %u bytes",
			 KH_DAEMON_SHM_SIZE);
		goto out;
	}
	p = mmap(NULL, KH_DAEMON_SHM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		 memfd, 0);
	if (p == MAP_FAILED) {
		r = -errno;
		snprintf(why, whylen, "mapping the memfd: %s", strerror(errno));
		goto out;
	}
	c->shm = p;
	if (m.h.flags & KH_DAEMON_CONTROL) {
		r = 0;
		goto out;
	}
	name = malloc((size_t)m.h.device_len + 1);
	r = -ENOMEM;
	if (!name) {
		snprintf(w->message, sizeof(w->message), "kohakud: out of memory");
		snprintf(why, whylen, "out of memory");
		goto out;
	}
	memcpy(name, c->shm, m.h.device_len);
	name[m.h.device_len] = '\0';
	c->card = khd_card_get(name, &r, w->message, sizeof(w->message));
	if (!c->card) {
		snprintf(why, whylen, "no card: %.200s", w->message);
		goto out;
	}
	r = khd_card_open_file(c->card, !(m.h.flags & KH_DAEMON_UNPRIVILEGED),
			       &c->file, w->message, sizeof(w->message));
	if (r < 0) {
		snprintf(why, whylen, "no file: %.200s", w->message);
		goto out;
	}
	snprintf(w->name, sizeof(w->name), "%s", khd_card_name(c->card));
	snprintf(w->fw_status, sizeof(w->fw_status), "%s",
		 khd_card_fw_status(c->card));
out:
	free(name);
	if (memfd >= 0)
		close(memfd);
	return r;
}

/* ---- the reader ---- */

static void khd_conn_free(struct khd_conn *c)
{
	struct khd_conn **pp;

	pthread_mutex_lock(&khd_conns_lock);
	for (pp = &khd_conns; *pp; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	khd_n_conns--;
	pthread_cond_broadcast(&khd_conns_cond);
	pthread_mutex_unlock(&khd_conns_lock);
	if (c->shm)
		munmap(c->shm, KH_DAEMON_SHM_SIZE);
	close(c->fd);
	pthread_mutex_destroy(&c->lock);
	pthread_mutex_destroy(&c->send_lock);
	pthread_cond_destroy(&c->cond);
	free(c);
}

static void *khd_conn_run(void *arg)
{
	struct khd_conn *c = arg;
	struct kh_daemon_welcome w = {
		.hdr = { .type = KH_DAEMON_WELCOME, .len = sizeof(w) },
		.proto = KH_DAEMON_PROTO,
	};
	union {
		struct kh_daemon_hdr h;
		u8 raw[KH_DAEMON_MSG_MAX];
	} m;
	char why[256] = "";
	int r;

	r = khd_hello(c, &w, why, sizeof(why));
	w.status = r;
	if (r < 0 && !w.message[0])
		snprintf(w.message, sizeof(w.message), "kohakud refused the "
			 "connection: %s", why);
	if ((r < 0 && r != -EPIPE) || r == 0)
		if (khd_send(c, &w, sizeof(w), -1) < 0 && r == 0) {
			r = -EPIPE;
			snprintf(why, sizeof(why), "the client went before its welcome");
		}
	if (r < 0) {
		khd_log(r == -EPROTO ? KHD_WARN : KHD_INFO, "client %d: %s",
			(int)c->pid, why);
		goto out;
	}
	khd_log(KHD_DEBUG, "client %d: %s", (int)c->pid,
		c->file ? khd_card_name(c->card) : "control");

	for (;;) {
		int stray = -1;

		r = khd_recv(c, &m, &stray, why, sizeof(why));
		if (stray >= 0) {
			close(stray);
			if (!r) {
				snprintf(why, sizeof(why), "an fd with message "
					 "type %u", m.h.type);
				r = -EPROTO;
			}
		}
		if (!r && m.h.slot >= KH_DAEMON_SLOTS) {
			snprintf(why, sizeof(why), "slot %u (there are %u)",
				 m.h.slot, KH_DAEMON_SLOTS);
			r = -EPROTO;
		}
		if (!r)
			r = m.h.type == KH_DAEMON_CB_REPLY ?
			    khd_reply(c, &m.h, why, sizeof(why)) :
			    khd_call_start(c, &m.h, why, sizeof(why));
		if (r < 0)
			break;
	}
	khd_log(r == -EPIPE || __atomic_load_n(&c->dying, __ATOMIC_ACQUIRE) ?
		KHD_DEBUG : KHD_WARN, "client %d: %s; its connection closed",
		(int)c->pid, why);
	if (r == -EPROTO) {
		char msg[300];

		snprintf(msg, sizeof(msg), "kohakud closed the connection: the "
			 "client broke the protocol (%s)", why);
		khd_conn_bye(c, -EPROTO, msg);
	}
out:
	khd_conn_kill(c);
	/* its calls end (a fatal signal for the core), then its file */
	pthread_mutex_lock(&c->lock);
	while (c->n_calls)
		pthread_cond_wait(&c->cond, &c->lock);
	pthread_mutex_unlock(&c->lock);
	if (c->file)
		khd_card_close_file(c->card, c->file);
	khd_conn_free(c);
	return NULL;
}

int khd_conn_start(int fd)
{
	struct khd_conn *c = calloc(1, sizeof(*c));
	struct timeval tv = {
		.tv_sec = KH_DAEMON_CLIENT_TIMEOUT_MS / 1000,
		.tv_usec = (KH_DAEMON_CLIENT_TIMEOUT_MS % 1000) * 1000,
	};
	struct ucred cred;
	socklen_t cl = sizeof(cred);
	pthread_attr_t a;
	pthread_t t;
	unsigned int i;
	int r;

	if (!c) {
		close(fd);
		return -ENOMEM;
	}
	c->fd = fd;
	if (!getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl))
		c->pid = cred.pid;
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	pthread_mutex_init(&c->lock, NULL);
	pthread_mutex_init(&c->send_lock, NULL);
	{
		pthread_condattr_t ca;

		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&c->cond, &ca);
		pthread_condattr_destroy(&ca);
	}
	for (i = 0; i < KH_DAEMON_SLOTS; i++) {
		c->call[i].conn = c;
		c->call[i].slot = i;
		c->call[i].caller.from = khd_from;
		c->call[i].caller.to = khd_to;
	}
	pthread_mutex_lock(&khd_conns_lock);
	c->next = khd_conns;
	khd_conns = c;
	khd_n_conns++;
	pthread_mutex_unlock(&khd_conns_lock);

	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	r = pthread_create(&t, &a, khd_conn_run, c);
	pthread_attr_destroy(&a);
	if (r) {
		khd_conn_free(c);
		return -r;
	}
	return 0;
}

unsigned int khd_conns_count(void)
{
	unsigned int n;

	pthread_mutex_lock(&khd_conns_lock);
	n = khd_n_conns;
	pthread_mutex_unlock(&khd_conns_lock);
	return n;
}

int khd_conns_stop(unsigned int wait_ms)
{
	struct timespec ts;
	struct khd_conn *c;
	int r = 0;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += wait_ms / 1000;
	ts.tv_nsec += (long)(wait_ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&khd_conns_lock);
	for (c = khd_conns; c; c = c->next) {
		khd_conn_bye(c, -ESHUTDOWN, "kohakud is stopping (a signal "
			     "asked it to): the card is gone with it");
		__atomic_store_n(&c->dying, 1, __ATOMIC_RELEASE);
		for (unsigned int i = 0; i < KH_DAEMON_SLOTS; i++)
			__atomic_store_n(&c->call[i].caller.dying, 1,
					 __ATOMIC_RELEASE);
		shutdown(c->fd, SHUT_RDWR);
	}
	while (khd_n_conns && !r)
		if (pthread_cond_timedwait(&khd_conns_cond, &khd_conns_lock,
					   &ts) == ETIMEDOUT)
			r = -ETIMEDOUT;
	pthread_mutex_unlock(&khd_conns_lock);
	return r;
}

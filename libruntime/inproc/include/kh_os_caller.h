/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The caller of the driver core when it is not this process: kohakud runs
 * each client's call on a thread of its own with that thread's caller set
 * (libruntime/daemon/).  The core's "user" memory is then the client's,
 * reached through the caller's copy functions, and the client's death is
 * the core's fatal signal: signal_pending() and the interruptible waits
 * see it, as a kernel driver sees a process killed in an ioctl.  No caller
 * (the in-process backend): the memory is this process's own and no
 * signal is ever pending.
 */
#ifndef KH_OS_CALLER_H
#define KH_OS_CALLER_H

struct kh_os_caller {
	/* both: the bytes not copied, as copy_{from,to}_user() */
	unsigned long (*from)(struct kh_os_caller *c, void *to,
			      const void *from, unsigned long n);
	unsigned long (*to)(struct kh_os_caller *c, void *to,
			    const void *from, unsigned long n);
	/* set once, when the client is gone: its calls are to end */
	int dying;
	/*
	 * set when a copy to the caller that the core cannot see fails (a
	 * transfer from the card into the caller's buffer): the call then
	 * fails with EFAULT; cleared as each call starts
	 */
	int fault;
	/*
	 * the caller's buffer a transfer from the card fills now, and its
	 * copy here (kh_os_dma.c), which goes back whole when it ends: what
	 * the core writes to that buffer meanwhile (the lines it bounces)
	 * goes to the copy too, or the copy's give back would undo it
	 */
	unsigned long dma_user, dma_len;
	void *dma_copy;
};

/* the calling thread's caller, or NULL (libruntime/inproc/kh_os_user.c) */
extern __thread struct kh_os_caller *kh_os_caller
	__attribute__((visibility("hidden")));

/* a copy_to_user() of the caller's into the buffer a transfer fills */
static inline void kh_os_caller_mirror(struct kh_os_caller *c, void *to,
				       const void *from, unsigned long n)
{
	unsigned long t = (unsigned long)to;

	if (c->dma_copy && t >= c->dma_user &&
	    t - c->dma_user <= c->dma_len && n <= c->dma_len - (t - c->dma_user))
		__builtin_memcpy((char *)c->dma_copy + (t - c->dma_user), from, n);
}

static inline int kh_os_signal_pending(void)
{
	struct kh_os_caller *c = kh_os_caller;

	return c && __atomic_load_n(&c->dying, __ATOMIC_ACQUIRE);
}

#endif /* KH_OS_CALLER_H */

/* SPDX-License-Identifier: GPL-2.0 OR MIT WITH Linux-syscall-note */
/*
 * kohakud's protocol: libkohaku's daemon backend and kohakud, over a Unix
 * stream socket (docs/spec/kohakud.md is the contract in words).
 *
 * Both ends run on one host as one user, so integers are the host's.  A
 * connection is one open file on one card (or a control connection with no
 * card).  It starts with KH_DAEMON_HELLO, which carries a memfd (SCM_RIGHTS)
 * of KH_DAEMON_SHM_SIZE bytes: KH_DAEMON_SLOTS slots of KH_DAEMON_SLOT_SIZE,
 * one per call in flight.  A call (an ioctl, a model command, a read of the
 * model's text) names its slot; while it runs, kohakud asks the client for
 * the caller's memory (CB_READ: the client copies it into the slot) or
 * gives it back (CB_WRITE: the client copies it out of the slot), exactly
 * where the driver core calls copy_from_user() and copy_to_user(), so the
 * socket carries only these small messages and the data moves through
 * shared memory.  The call ends with KH_DAEMON_DONE.
 */
#ifndef KH_DAEMON_H
#define KH_DAEMON_H

#include <linux/types.h>

/* the protocol's version: HELLO's proto; a mismatch is refused */
#define KH_DAEMON_PROTO		1

/* a message, header included, is at most this long */
#define KH_DAEMON_MSG_MAX	4096u
/* calls in flight on one connection; a message's slot is below this */
#define KH_DAEMON_SLOTS		16u
/* the shared memory of one call: a CB_READ or CB_WRITE moves at most this */
#define KH_DAEMON_SLOT_SIZE	(1u << 20)
/* the memfd HELLO passes */
#define KH_DAEMON_SHM_SIZE	(KH_DAEMON_SLOTS * KH_DAEMON_SLOT_SIZE)
/*
 * How long kohakud waits for a client's CB_REPLY, or for room to send to a
 * client, before it closes the connection as a client that does not answer
 */
#define KH_DAEMON_CLIENT_TIMEOUT_MS	5000u
/* the socket's name in its directory ($XDG_RUNTIME_DIR/kohaku/) */
#define KH_DAEMON_SOCKET_NAME	"kohakud.sock"
/* a card's name (HELLO's device, a description's text) at most: slot 0 */
#define KH_DAEMON_DEVICE_MAX	(KH_DAEMON_SLOT_SIZE - 1)

/* message types: client to kohakud */
#define KH_DAEMON_HELLO		1	/* struct kh_daemon_hello, + the memfd */
#define KH_DAEMON_IOCTL		2	/* struct kh_daemon_ioctl */
#define KH_DAEMON_SIM_COMMAND	3	/* struct kh_daemon_sim; the line in the slot */
#define KH_DAEMON_SIM_READ	4	/* struct kh_daemon_sim; what: below */
#define KH_DAEMON_CARDS		5	/* struct kh_daemon_hdr: the cards, as text */
#define KH_DAEMON_CB_REPLY	6	/* struct kh_daemon_cb_reply */
/* kohakud to client */
#define KH_DAEMON_WELCOME	16	/* struct kh_daemon_welcome: HELLO's answer */
#define KH_DAEMON_CB_READ	17	/* struct kh_daemon_cb: copy in to the slot */
#define KH_DAEMON_CB_WRITE	18	/* struct kh_daemon_cb: copy out of the slot */
#define KH_DAEMON_CB_ALLOC	19	/* struct kh_daemon_cb: a buffer of len, for text */
#define KH_DAEMON_DONE		20	/* struct kh_daemon_done */
#define KH_DAEMON_BYE		21	/* struct kh_daemon_bye: the connection ends */

/**
 * struct kh_daemon_hdr - every message's start
 * @type: KH_DAEMON_*
 * @len: the whole message's bytes, this header included; at least
 *	sizeof(the type's struct), at most KH_DAEMON_MSG_MAX
 * @slot: the call's slot (< KH_DAEMON_SLOTS); 0 for HELLO and WELCOME
 * @pad: 0
 */
struct kh_daemon_hdr {
	__u32 type;
	__u32 len;
	__u32 slot;
	__u32 pad;
};

/* HELLO's flags */
#define KH_DAEMON_UNPRIVILEGED	(1u << 0)	/* the file is not an administrator's */
#define KH_DAEMON_CONTROL	(1u << 1)	/* no card: CARDS only */
#define KH_DAEMON_HELLO_FLAGS	(KH_DAEMON_UNPRIVILEGED | KH_DAEMON_CONTROL)

/**
 * struct kh_daemon_hello - open a file on a card (KH_DAEMON_HELLO)
 * @hdr: type KH_DAEMON_HELLO, slot 0
 * @proto: KH_DAEMON_PROTO
 * @flags: KH_DAEMON_HELLO_FLAGS
 * @shm_size: the memfd's size, KH_DAEMON_SHM_SIZE
 * @device_len: the card's name, in slot 0 of the memfd: a built-in
 *	description's name, an absolute path of a description file, or a
 *	description's text (a newline in it); at most KH_DAEMON_DEVICE_MAX;
 *	0 with KH_DAEMON_CONTROL
 * @pad: 0
 */
struct kh_daemon_hello {
	struct kh_daemon_hdr hdr;
	__u32 proto;
	__u32 flags;
	__u64 shm_size;
	__u32 device_len;
	__u32 pad;
};

/**
 * struct kh_daemon_welcome - HELLO's answer (KH_DAEMON_WELCOME)
 * @hdr: type KH_DAEMON_WELCOME
 * @status: 0, or -errno: the card could not be opened (then @message says
 *	why, and kohakud closes the connection)
 * @proto: kohakud's KH_DAEMON_PROTO
 * @name: the card's name for messages ("sim:saxpy")
 * @fw_status: what the firmware load did when kohakud made the card
 * @message: why @status is not 0, in words
 */
struct kh_daemon_welcome {
	struct kh_daemon_hdr hdr;
	__s32 status;
	__u32 proto;
	char name[64];
	char fw_status[512];
	char message[1024];
};

/**
 * struct kh_daemon_ioctl - an ioctl on the connection's file (KH_DAEMON_IOCTL)
 * @hdr: type KH_DAEMON_IOCTL, the call's slot
 * @cmd: the ioctl's number
 * @arg: its argument: the client's own address, which kohakud reads and
 *	writes only through CB_READ and CB_WRITE
 */
struct kh_daemon_ioctl {
	struct kh_daemon_hdr hdr;
	__u64 cmd;
	__u64 arg;
};

/* SIM_READ's what: the model's text */
#define KH_DAEMON_READ_STATS	0
#define KH_DAEMON_READ_KNOBS	1
#define KH_DAEMON_READ_TRACE	2
#define KH_DAEMON_READ_CHECK	3

/**
 * struct kh_daemon_sim - the model's knobs (KH_DAEMON_SIM_COMMAND, _SIM_READ)
 * @hdr: type, the call's slot
 * @what: SIM_READ: KH_DAEMON_READ_*; SIM_COMMAND: the line's length, the
 *	line in the call's slot (below KH_DAEMON_SLOT_SIZE)
 * @pad: 0
 *
 * A SIM_READ's text comes through CB_ALLOC (a buffer of its length + 1 in
 * the client) and CB_WRITE; DONE's value is its address there.
 */
struct kh_daemon_sim {
	struct kh_daemon_hdr hdr;
	__u32 what;
	__u32 pad;
};

/**
 * struct kh_daemon_cb - kohakud asks the client, during a call (CB_*)
 * @hdr: type, the call's slot
 * @addr: CB_READ, CB_WRITE: the client's address
 * @len: CB_READ, CB_WRITE: bytes, at most KH_DAEMON_SLOT_SIZE (at the
 *	slot's start); CB_ALLOC: the buffer's size
 */
struct kh_daemon_cb {
	struct kh_daemon_hdr hdr;
	__u64 addr;
	__u64 len;
};

/**
 * struct kh_daemon_cb_reply - the client's answer to a CB_* (KH_DAEMON_CB_REPLY)
 * @hdr: type KH_DAEMON_CB_REPLY, the call's slot
 * @status: 0, or -EFAULT (the address is not the client's memory), -ENOMEM
 * @pad: 0
 * @value: CB_ALLOC: the buffer's address (the call's to free)
 */
struct kh_daemon_cb_reply {
	struct kh_daemon_hdr hdr;
	__s32 status;
	__u32 pad;
	__u64 value;
};

/* DONE's flags */
#define KH_DAEMON_DONE_FD	(1u << 0)	/* an fd came with it (SCM_RIGHTS) */

/**
 * struct kh_daemon_done - a call's end (KH_DAEMON_DONE)
 * @hdr: type KH_DAEMON_DONE, the call's slot
 * @ret: 0 or -errno, the call's return
 * @flags: KH_DAEMON_DONE_*: SYNCOBJ_HANDLE_TO_FD's sync file comes as an
 *	fd, which the client puts in the struct's fd
 * @value: SIM_READ, CARDS: the text's address in the client
 * @reason: why @ret is not 0, in the driver's words ("" when it gave none);
 *	NUL-terminated, the message ends there
 */
struct kh_daemon_done {
	struct kh_daemon_hdr hdr;
	__s32 ret;
	__u32 flags;
	__u64 value;
	char reason[1024];
};

/**
 * struct kh_daemon_bye - kohakud ends the connection (KH_DAEMON_BYE)
 * @hdr: type KH_DAEMON_BYE, slot 0
 * @status: why, as an errno: -EPROTO the client broke the protocol,
 *	-ETIMEDOUT it did not answer or read in time, -ESHUTDOWN kohakud
 *	stops
 * @pad: 0
 * @message: the same in words, NUL-terminated
 *
 * The last message kohakud sends on a connection it closes itself (a
 * client that closes first gets none).  Every call still in flight on it
 * ends: the client fails them, and every later call, with ENODEV and
 * @message.
 */
struct kh_daemon_bye {
	struct kh_daemon_hdr hdr;
	__s32 status;
	__u32 pad;
	char message[512];
};

#endif /* KH_DAEMON_H */

/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * kohakud's parts: the cards it holds (khd_card.c), a client's connection
 * and its calls (khd_conn.c), the log (kohakud.c).  The protocol is
 * uapi/kohaku/kh_daemon.h; docs/spec/kohakud.md says it in words.
 */
#ifndef KHD_H
#define KHD_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kohaku.h"
#include "kohaku/kh_daemon.h"

/* ---- the log: stderr, with sd-daemon(3)'s <N> when it goes to the journal */
#define KHD_ERR		3
#define KHD_WARN	4
#define KHD_INFO	6
#define KHD_DEBUG	7
void khd_log(int level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- cards (khd_card.c) ---- */
struct khd_card;

/*
 * The card of this name, made on first use (the sim backend's open: a
 * built-in, a description file's absolute path, a description's text);
 * held until khd_cards_close().  NULL with *ret (-errno) and err said.
 */
struct khd_card *khd_card_get(const char *name, int *ret, char *err,
			      size_t errlen);
/* a new open file on card, an administrator's or not; 0 or -errno, err said */
int khd_card_open_file(struct khd_card *card, bool admin, kohaku_device **out,
		       char *err, size_t errlen);
/* the file's end: its objects freed as a closed file's */
void khd_card_close_file(struct khd_card *card, kohaku_device *file);
/* the card's name for messages, and what its firmware load did */
const char *khd_card_name(const struct khd_card *card);
const char *khd_card_fw_status(const struct khd_card *card);
/* "NAME\tFILES\n" per card, malloc'ed; NULL when out of memory */
char *khd_cards_text(void);
/* every card closed (the daemon's end); files still open are closed first */
void khd_cards_close(void);

/* ---- connections (khd_conn.c) ---- */
/* serve a client on fd (accepted, this user's) on a thread of its own */
int khd_conn_start(int fd);
/* every connection closed, and its calls ended: at most wait_ms; 0 or -ETIMEDOUT */
int khd_conns_stop(unsigned int wait_ms);
/* connections open now */
unsigned int khd_conns_count(void);

#endif /* KHD_H */

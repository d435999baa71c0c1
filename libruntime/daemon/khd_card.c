// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohakud's cards: each a simulated card of the in-process host (the sim
 * backend's open: the model and the driver core), made the first time a
 * client names it (or at start, --card), and held until the daemon stops,
 * so that what one client does to it (faults injected, knobs, firmware,
 * the trace) is what the next one finds.  The daemon keeps one file of
 * its own on each card; every client's connection is another file
 * (kohaku_reopen), freed as a closed file is when the client goes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "khd.h"
#include "rt_internal.h"

struct khd_card {
	struct khd_card *next;
	char *name;		/* as clients name it */
	kohaku_device *own;	/* the daemon's file: the card lives while it does */
	unsigned int files;	/* clients' files open */
	char fw_status[512];	/* what the firmware load at its making did */
};

static pthread_mutex_t khd_cards_lock = PTHREAD_MUTEX_INITIALIZER;
static struct khd_card *khd_cards;

struct khd_card *khd_card_get(const char *name, int *ret, char *err,
			      size_t errlen)
{
	struct khd_card *c;
	int r = -ENOMEM;

	pthread_mutex_lock(&khd_cards_lock);
	for (c = khd_cards; c; c = c->next)
		if (!strcmp(c->name, name))
			goto out;
	c = calloc(1, sizeof(*c));
	if (c)
		c->name = strdup(name);
	if (!c || !c->name) {
		free(c);
		c = NULL;
		*ret = r;
		snprintf(err, errlen, "kohakud: out of memory");
		goto out;
	}
	/* one card made at a time: the lock is held while it boots */
	r = kohaku_open(KOHAKU_BACKEND_SIM, name, &c->own, err, errlen);
	if (r < 0) {
		*ret = r;
		free(c->name);
		free(c);
		c = NULL;
		goto out;
	}
	if (c->own->ops->fw_status)
		c->own->ops->fw_status(c->own, c->fw_status, sizeof(c->fw_status));
	c->next = khd_cards;
	khd_cards = c;
	khd_log(KHD_INFO, "card %s made (%s)", kohaku_device_path(c->own),
		strchr(name, '\n') ? "a description's text" : name);
out:
	pthread_mutex_unlock(&khd_cards_lock);
	return c;
}

int khd_card_open_file(struct khd_card *card, bool admin, kohaku_device **out,
		       char *err, size_t errlen)
{
	int r = kh_rt_reopen_as(card->own, admin, out);

	if (r < 0) {
		snprintf(err, errlen, "%s", kohaku_last_error(card->own));
		return r;
	}
	pthread_mutex_lock(&khd_cards_lock);
	card->files++;
	pthread_mutex_unlock(&khd_cards_lock);
	return 0;
}

void khd_card_close_file(struct khd_card *card, kohaku_device *file)
{
	kohaku_close(file);
	pthread_mutex_lock(&khd_cards_lock);
	card->files--;
	pthread_mutex_unlock(&khd_cards_lock);
}

const char *khd_card_name(const struct khd_card *card)
{
	return kohaku_device_path(card->own);
}

const char *khd_card_fw_status(const struct khd_card *card)
{
	return card->fw_status;
}

char *khd_cards_text(void)
{
	size_t cap = 256, len = 0;
	struct khd_card *c;
	char *buf = malloc(cap), *nb;

	if (!buf)
		return NULL;
	buf[0] = '\0';
	pthread_mutex_lock(&khd_cards_lock);
	for (c = khd_cards; c; c = c->next) {
		const char *name = strchr(c->name, '\n') ? "(a description's text)" :
				   c->name;
		size_t need = strlen(name) + strlen(khd_card_name(c)) + 32;

		if (len + need >= cap) {
			cap = (len + need) * 2;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
		}
		len += (size_t)snprintf(buf + len, cap - len, "%s\t%s\t%u\n",
					khd_card_name(c), name, c->files);
	}
	pthread_mutex_unlock(&khd_cards_lock);
	return buf;
}

void khd_cards_close(void)
{
	struct khd_card *c, *next;

	pthread_mutex_lock(&khd_cards_lock);
	c = khd_cards;
	khd_cards = NULL;
	pthread_mutex_unlock(&khd_cards_lock);
	for (; c; c = next) {
		next = c->next;
		khd_log(KHD_INFO, "card %s closed", khd_card_name(c));
		kohaku_close(c->own);
		free(c->name);
		free(c);
	}
}

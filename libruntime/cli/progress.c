// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Progress on stderr while a command waits on the device: once the wait
 * has lasted a second, one line, rewritten in place four times a second
 * ("kohaku: crc32: 0/1 units, 3.2 s"), and cleared when the wait ends,
 * so that what the command prints next starts on a clean line.  Only when
 * stderr is a terminal and --quiet was not given (cli_progress_init): a
 * pipe, a file or a CI log never sees it.
 *
 * The waits block in the library (kohaku_wait), so the line is drawn by a
 * thread of its own that only sleeps, reads the label and counts under a
 * mutex and writes stderr; it touches nothing of the device.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define PROGRESS_AFTER_S	1.0
#define PROGRESS_EVERY_NS	250000000L

static struct {
	bool enabled;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t thread;
	bool running;		/* the thread exists */
	bool stop;
	char label[64];
	unsigned int done, total;
	struct timespec t0;
	bool drawn;		/* a line is on the terminal */
} prog = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER,
};

void cli_progress_init(bool quiet)
{
	prog.enabled = !quiet && isatty(STDERR_FILENO);
}

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) + (t.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* the line, with prog.lock held */
static void progress_draw(void)
{
	char line[128];
	double s = since(&prog.t0);
	int k;

	if (prog.total)
		k = snprintf(line, sizeof(line), "\r%s: %s: %u/%u unit%s, "
			     "%.1f s\033[K", CLI_PROG, prog.label, prog.done,
			     prog.total, prog.total == 1 ? "" : "s", s);
	else
		k = snprintf(line, sizeof(line), "\r%s: %s: %.1f s\033[K",
			     CLI_PROG, prog.label, s);
	if (k > 0 && write(STDERR_FILENO, line,
			   (size_t)k < sizeof(line) ? (size_t)k :
			   sizeof(line) - 1) > 0)
		prog.drawn = true;
}

static void *progress_thread(void *arg)
{
	struct timespec until;

	(void)arg;
	pthread_mutex_lock(&prog.lock);
	while (!prog.stop) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += PROGRESS_EVERY_NS;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&prog.cond, &prog.lock, &until);
		if (!prog.stop && since(&prog.t0) >= PROGRESS_AFTER_S)
			progress_draw();
	}
	pthread_mutex_unlock(&prog.lock);
	return NULL;
}

void cli_progress_begin(const char *label)
{
	if (!prog.enabled)
		return;
	cli_progress_end();
	fflush(stdout);
	pthread_mutex_lock(&prog.lock);
	snprintf(prog.label, sizeof(prog.label), "%s", label);
	prog.done = prog.total = 0;
	prog.stop = false;
	prog.drawn = false;
	clock_gettime(CLOCK_MONOTONIC, &prog.t0);
	pthread_mutex_unlock(&prog.lock);
	prog.running = !pthread_create(&prog.thread, NULL, progress_thread,
				       NULL);
}

void cli_progress_units(unsigned int done, unsigned int total)
{
	if (!prog.running)
		return;
	pthread_mutex_lock(&prog.lock);
	prog.done = done;
	prog.total = total;
	pthread_mutex_unlock(&prog.lock);
}

void cli_progress_end(void)
{
	static const char clear[] = "\r\033[K";

	if (!prog.running)
		return;
	pthread_mutex_lock(&prog.lock);
	prog.stop = true;
	pthread_cond_signal(&prog.cond);
	pthread_mutex_unlock(&prog.lock);
	pthread_join(prog.thread, NULL);
	prog.running = false;
	if (prog.drawn && write(STDERR_FILENO, clear, sizeof(clear) - 1) < 0)
		prog.drawn = false;
	prog.drawn = false;
}

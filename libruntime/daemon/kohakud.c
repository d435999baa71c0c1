// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohakud: simulated cards as a service (docs/kohakud.md, man kohakud(8)).
 *
 * It holds cards of the in-process host (the model and the driver core,
 * as the sim backend runs them) and serves each client's connection as an
 * open file on one of them, over a Unix socket in the user's runtime
 * directory ($XDG_RUNTIME_DIR/kohaku/kohakud.sock, the directory 0700).
 * libkohaku's daemon backend is its client.  The socket is its own, or
 * systemd's (socket activation: LISTEN_FDS, sd_listen_fds(3)'s protocol).
 * SIGTERM or SIGINT: the clients' connections are closed (their next call
 * fails with ENODEV), the cards are closed, the socket removed, exit 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "khd.h"
#include "rt_internal.h"

/* a client's connections at most: past it a HELLO is not even read */
#define KHD_MAX_CONNS	1024
/* what SIGTERM gives the clients' calls to end */
#define KHD_STOP_MS	10000

static int khd_log_level = KHD_INFO;
static bool khd_journal;

void khd_log(int level, const char *fmt, ...)
{
	static const char *const names[8] = {
		[KHD_ERR] = "error", [KHD_WARN] = "warning",
		[KHD_INFO] = "info", [KHD_DEBUG] = "debug",
	};
	char msg[1024];
	va_list ap;

	if (level > khd_log_level)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (khd_journal)
		fprintf(stderr, "<%d>%s\n", level, msg);
	else
		fprintf(stderr, "kohakud: %s: %s\n", names[level & 7] ?
			names[level & 7] : "info", msg);
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: kohakud [--card NAME]... [--socket PATH] [--log LEVEL]\n"
"       kohakud --list [--socket PATH]\n"
"\n"
"Simulated KohakuAccel cards as a service: several processes, and the\n"
"kohaku commands run one after another, share each card.  Clients use\n"
"libkohaku's daemon backend: KOHAKU_BACKEND=daemon with a card's name\n"
"(KOHAKU_DEVICE, the CLI's --map), or the device string daemon:NAME.\n"
"\n"
"  --card NAME    make this card at start (a built-in description's name,\n"
"                 or a description file); any other is made when a client\n"
"                 first names it.  Repeatable.\n"
"  --socket PATH  the socket (default $XDG_RUNTIME_DIR/kohaku/kohakud.sock;\n"
"                 KOHAKU_DAEMON_SOCKET).  Under systemd's socket activation\n"
"                 the socket is systemd's.\n"
"  --log LEVEL    err, warn, info (default) or debug, on stderr (the\n"
"                 journal under systemd)\n"
"  --list         the cards the running kohakud holds, with their files\n"
"  --version      kohakud's version and its protocol's\n"
"\n"
"SIGTERM or SIGINT stops it cleanly.  docs/kohakud.md, kohakud(8).\n");
}

/* sd_listen_fds(3): the one socket systemd passed, or -1 */
static int khd_activated(void)
{
	const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");
	struct stat st;

	if (!pid || !fds || strtol(pid, NULL, 10) != (long)getpid())
		return -1;
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	if (strcmp(fds, "1")) {
		khd_log(KHD_ERR, "systemd passed %s sockets; kohakud takes one", fds);
		return -2;
	}
	if (fstat(3, &st) < 0 || !S_ISSOCK(st.st_mode)) {
		khd_log(KHD_ERR, "systemd's fd 3 is not a socket");
		return -2;
	}
	return 3;
}

/* the socket's directory made 0700 and checked to be this user's alone */
static int khd_socket_dir(const char *path)
{
	char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
	struct stat st;
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
		khd_log(KHD_ERR, "cannot make %s: %s", dir, strerror(errno));
		return -1;
	}
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != getuid() || (st.st_mode & 077)) {
		khd_log(KHD_ERR, "%s is not a directory of this user's alone "
			"(mode 0700): refusing to serve cards there", dir);
		return -1;
	}
	return 0;
}

static int khd_listen(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd, probe;

	if (strlen(path) >= sizeof(a.sun_path)) {
		khd_log(KHD_ERR, "the socket path %s is too long", path);
		return -1;
	}
	if (khd_socket_dir(path))
		return -1;
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	/* a kohakud already there keeps its socket */
	probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (probe >= 0 && !connect(probe, (struct sockaddr *)&a, sizeof(a))) {
		close(probe);
		khd_log(KHD_ERR, "a kohakud already serves %s (kohakud --list "
			"shows its cards)", path);
		return -1;
	}
	if (probe >= 0)
		close(probe);
	unlink(path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    chmod(path, 0600) < 0 || listen(fd, 64) < 0) {
		khd_log(KHD_ERR, "cannot listen on %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static int khd_list(void)
{
	char err[KOHAKU_ERRMSG_MAX], *text = NULL;
	int r = kh_rt_daemon_cards(&text, err, sizeof(err));

	if (r < 0) {
		fprintf(stderr, "kohakud --list: %s\n", err);
		return 1;
	}
	printf("%-24s %-32s %s\n", "CARD", "NAMED", "FILES");
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *name = strchr(line, '\t'), *files = name ? strchr(name + 1, '\t') : NULL;

		if (!files)
			continue;
		*name++ = '\0';
		*files++ = '\0';
		printf("%-24s %-32s %s\n", line, name, files);
	}
	free(text);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "card", required_argument, NULL, 'c' },
		{ "socket", required_argument, NULL, 's' },
		{ "log", required_argument, NULL, 'l' },
		{ "list", no_argument, NULL, 'L' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char **cards = calloc((size_t)argc, sizeof(*cards));
	char path[256], err[KOHAKU_ERRMSG_MAX];
	unsigned int n_cards = 0, i;
	bool list = false, own_socket;
	int o, lfd, sfd, status = 0;
	sigset_t set;

	khd_journal = getenv("JOURNAL_STREAM") != NULL;
	while ((o = getopt_long(argc, argv, "c:s:l:h", opts, NULL)) != -1) {
		switch (o) {
		case 'c':
			cards[n_cards++] = optarg;
			break;
		case 's':
			setenv("KOHAKU_DAEMON_SOCKET", optarg, 1);
			break;
		case 'l':
			if (!strcmp(optarg, "err") || !strcmp(optarg, "error"))
				khd_log_level = KHD_ERR;
			else if (!strcmp(optarg, "warn") || !strcmp(optarg, "warning"))
				khd_log_level = KHD_WARN;
			else if (!strcmp(optarg, "info"))
				khd_log_level = KHD_INFO;
			else if (!strcmp(optarg, "debug"))
				khd_log_level = KHD_DEBUG;
			else {
				fprintf(stderr, "kohakud: --log %s: expected err, "
					"warn, info or debug\n", optarg);
				return 2;
			}
			break;
		case 'L':
			list = true;
			break;
		case 'V':
			printf("kohakud %s (libkohaku %s, protocol %u, driver ABI %u.%u)\n",
			       kohaku_version(), kohaku_version(), KH_DAEMON_PROTO,
			       KOHAKU_ABI_MAJOR, KOHAKU_ABI_MINOR);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "kohakud: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (list)
		return khd_list();
	if (kh_rt_daemon_socket_path(path, sizeof(path), err, sizeof(err)) < 0) {
		khd_log(KHD_ERR, "%s", err);
		return 1;
	}

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGPIPE);
	/* before any thread: every thread blocks them, the signalfd reads them */
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	sfd = signalfd(-1, &set, SFD_CLOEXEC);

	lfd = khd_activated();
	own_socket = lfd == -1;
	if (lfd == -1)
		lfd = khd_listen(path);
	if (lfd < 0 || sfd < 0)
		return 1;
	for (i = 0; i < n_cards; i++) {
		const char *name = cards[i];
		char abs[4096];

		/* a file is named by its absolute path, as the clients name it */
		if (!kohaku_sim_builtin_desc(name) && !strchr(name, '\n') &&
		    realpath(name, abs))
			name = abs;
		int r;

		if (!khd_card_get(name, &r, err, sizeof(err))) {
			khd_log(KHD_ERR, "--card %s: %s", cards[i], err);
			status = 1;
			goto out;
		}
	}
	khd_log(KHD_INFO, "serving on %s (pid %d)",
		own_socket ? path : "systemd's socket", (int)getpid());

	for (;;) {
		struct pollfd p[2] = {
			{ .fd = lfd, .events = POLLIN },
			{ .fd = sfd, .events = POLLIN },
		};

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			khd_log(KHD_ERR, "poll: %s", strerror(errno));
			status = 1;
			break;
		}
		if (p[1].revents) {
			struct signalfd_siginfo si;

			if (read(sfd, &si, sizeof(si)) == sizeof(si) &&
			    si.ssi_signo == SIGPIPE)
				continue;
			khd_log(KHD_INFO, "signal %u: stopping", si.ssi_signo);
			break;
		}
		if (p[0].revents) {
			int cfd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
			struct ucred cred;
			socklen_t cl = sizeof(cred);

			if (cfd < 0)
				continue;
			/* the directory is 0700; the credentials say so again */
			if (getsockopt(cfd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) ||
			    (cred.uid != getuid() && cred.uid != 0)) {
				khd_log(KHD_WARN, "a client of uid %u refused: the "
					"cards are uid %u's", (unsigned int)cred.uid,
					(unsigned int)getuid());
				close(cfd);
				continue;
			}
			if (khd_conns_count() >= KHD_MAX_CONNS) {
				khd_log(KHD_WARN, "%u connections: refusing more",
					KHD_MAX_CONNS);
				close(cfd);
				continue;
			}
			khd_conn_start(cfd);
		}
	}
out:
	close(lfd);
	if (own_socket)
		unlink(path);
	if (khd_conns_stop(KHD_STOP_MS)) {
		khd_log(KHD_ERR, "clients' calls still run after %u ms: leaving "
			"without closing the cards", KHD_STOP_MS);
		_exit(1);
	}
	khd_cards_close();
	free(cards);
	khd_log(KHD_INFO, "stopped");
	return status;
}

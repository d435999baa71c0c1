// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The in-process host's request_firmware: when a simulated card has POOL
 * units, its firmware is loaded at open, as kohaku.ko loads it at bind.
 * The image is looked for as the kernel does (KH_FW_PATH, "kohaku/pool.fw",
 * under each firmware directory), in:
 *
 *   KOHAKU_FIRMWARE          a file: this image, and only it ("none": load
 *                            nothing)
 *   KOHAKU_FIRMWARE_PATH     directories, ':'-separated, searched first
 *                            (the kernel's firmware_class.path)
 *   /lib/firmware/updates, /lib/firmware
 *
 * A missing or refused image never fails the open: the card is usable for
 * everything else, its POOL units stay "absent" (or keep what ran), and
 * the reason is kept for kohaku_fw_info()'s status and the log.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fw_autoload.h"
#include "kh_core.h"
#include "kohaku/kh_fw.h"

static const char *const kh_fw_dirs[] = { "/lib/firmware/updates", "/lib/firmware" };

/* the whole file, or NULL with errno set */
static unsigned char *read_file(const char *path, size_t *len)
{
	unsigned char *buf = NULL;
	long n;
	FILE *f;

	/*
	 * regular files only: a FIFO nobody writes would block the open
	 * forever (O_NONBLOCK opens it at once), a directory or a device is
	 * no image
	 */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = S_ISDIR(st.st_mode) ? EISDIR : ENOEXEC;
		return NULL;
	}
	f = fdopen(fd, "rb");
	if (!f) {
		close(fd);
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		goto out;
	if ((unsigned long)n > KH_FW_MAX_IMAGE) {
		errno = EFBIG;
		goto out;
	}
	buf = malloc(n ? (size_t)n : 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
		errno = EIO;
	}
	*len = (size_t)n;
out:
	fclose(f);
	return buf;
}

/* try dir/kohaku/pool.fw; true when it exists (*buf set or errno) */
static bool try_dir(const char *dir, size_t dlen, char *path, size_t plen,
		    unsigned char **buf, size_t *len)
{
	snprintf(path, plen, "%.*s/%s", (int)dlen, dir, KH_FW_PATH);
	*buf = read_file(path, len);
	return *buf || errno != ENOENT;
}

/* where the image is, by the rules at the top; false when nowhere */
static bool find_image(char *path, size_t plen, unsigned char **buf,
		       size_t *len, char *searched, size_t slen)
{
	const char *env = getenv("KOHAKU_FIRMWARE_PATH");
	size_t off = 0;
	unsigned int i;

	searched[0] = '\0';
	while (env && *env) {
		const char *colon = strchr(env, ':');
		size_t dlen = colon ? (size_t)(colon - env) : strlen(env);

		if (dlen) {
			if (try_dir(env, dlen, path, plen, buf, len))
				return true;
			off += snprintf(searched + off, off < slen ? slen - off : 0,
					"%s%.*s", off ? ", " : "", (int)dlen, env);
		}
		env = colon ? colon + 1 : NULL;
	}
	for (i = 0; i < sizeof(kh_fw_dirs) / sizeof(kh_fw_dirs[0]); i++) {
		if (try_dir(kh_fw_dirs[i], strlen(kh_fw_dirs[i]), path, plen, buf, len))
			return true;
		off += snprintf(searched + off, off < slen ? slen - off : 0,
				"%s%s", off ? ", " : "", kh_fw_dirs[i]);
	}
	return false;
}

void kh_rt_fw_autoload(struct kh_device *kd, char *status, size_t slen)
{
	const char *file = getenv("KOHAKU_FIRMWARE");
	char path[512], searched[512];
	unsigned char *buf = NULL;
	size_t len = 0;
	int r;

	status[0] = '\0';
	if (!kh_device_fw_units(kd))
		return;
	if (file && !strcmp(file, "none")) {
		snprintf(status, slen, "absent: not loaded (KOHAKU_FIRMWARE=none)");
		return;
	}
	if (file && *file) {
		snprintf(path, sizeof(path), "%s", file);
		buf = read_file(path, &len);
	} else if (!find_image(path, sizeof(path), &buf, &len, searched,
			       sizeof(searched))) {
		snprintf(status, slen,
			 "absent: %s not found in %s (set KOHAKU_FIRMWARE or KOHAKU_FIRMWARE_PATH, or `make install` the firmware)",
			 KH_FW_PATH, searched);
		return;
	}
	if (!buf) {
		snprintf(status, slen, "absent: cannot read %s: %s", path,
			 errno == ENOEXEC ? "not a regular file (a FIFO, a "
			 "device?): an image is read from a file only" :
			 strerror(errno));
		return;
	}
	r = kh_device_fw_load(kd, buf, len);
	free(buf);
	if (r)
		snprintf(status, slen, "failed: %s was refused (%s); the driver's log says why",
			 path, strerror(-r));
	else
		snprintf(status, slen, "running: %s", path);
}

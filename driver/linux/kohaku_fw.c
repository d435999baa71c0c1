// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku.ko: the POOL firmware at bind.  A card with POOL units asks for
 * KH_FW_PATH ("kohaku/pool.fw") with request_firmware_nowait(), so a
 * missing file never holds up the bind: the card is usable for everything
 * else at once, and the callback boots the image when it comes (the core
 * checks it whole first, kh_device_fw_load()).  What came of it is in
 * kohaku/firmware in sysfs and in the log; FW_LOAD loads another image
 * later.  Remove waits for the callback.
 */
#include <linux/device.h>
#include <linux/firmware.h>
#include <linux/module.h>
#include <linux/sysfs.h>

#include "kohaku_drv.h"
#include "kohaku/kh_fw.h"

/* the file asked for below, for modinfo's firmware: line (initramfs hooks
 * and distribution firmware tools read it) */
MODULE_FIRMWARE(KH_FW_PATH);

static __printf(2, 3) void kohaku_fw_set_status(struct kohaku_accel *kdev,
						const char *fmt, ...)
{
	va_list ap;

	mutex_lock(&kdev->fw_lock);
	va_start(ap, fmt);
	vsnprintf(kdev->fw_status, sizeof(kdev->fw_status), fmt, ap);
	va_end(ap);
	mutex_unlock(&kdev->fw_lock);
}

static void kohaku_fw_loaded(const struct firmware *fw, void *context)
{
	struct kohaku_accel *kdev = context;
	int ret;

	if (!fw) {
		dev_warn(kdev->dev, "firmware %s not found: the POOL units run nothing until an image is loaded (kohaku fw load FILE)\n",
			 KH_FW_PATH);
		kohaku_fw_set_status(kdev, "absent: %s not found", KH_FW_PATH);
		goto out;
	}
	ret = kh_device_fw_load(kdev->kd, fw->data, fw->size);
	if (ret)
		kohaku_fw_set_status(kdev, "failed: %s (%zu bytes) was refused (%d); see the kernel log",
				     KH_FW_PATH, fw->size, ret);
	else
		kohaku_fw_set_status(kdev, "running: %s", KH_FW_PATH);
	release_firmware(fw);
out:
	complete_all(&kdev->fw_done);
}

/* before sysfs shows the status */
void kohaku_fw_init(struct kohaku_accel *kdev)
{
	mutex_init(&kdev->fw_lock);
	init_completion(&kdev->fw_done);
	snprintf(kdev->fw_status, sizeof(kdev->fw_status), "not requested yet");
}

void kohaku_fw_request(struct kohaku_accel *kdev)
{
	int ret;

	if (!kh_device_fw_units(kdev->kd)) {
		kohaku_fw_set_status(kdev, "none: the card has no POOL unit");
		complete_all(&kdev->fw_done);
		return;
	}
	kohaku_fw_set_status(kdev, "requesting %s", KH_FW_PATH);
	ret = request_firmware_nowait(THIS_MODULE, FW_ACTION_UEVENT, KH_FW_PATH,
				      kdev->dev, GFP_KERNEL, kdev,
				      kohaku_fw_loaded);
	if (ret) {
		dev_warn(kdev->dev, "cannot request firmware %s (%d)\n",
			 KH_FW_PATH, ret);
		kohaku_fw_set_status(kdev, "absent: the request for %s failed (%d)",
				     KH_FW_PATH, ret);
		complete_all(&kdev->fw_done);
	}
}

void kohaku_fw_wait(struct kohaku_accel *kdev)
{
	wait_for_completion(&kdev->fw_done);
	mutex_destroy(&kdev->fw_lock);
}

ssize_t kohaku_fw_status(struct kohaku_accel *kdev, char *buf)
{
	ssize_t n;

	mutex_lock(&kdev->fw_lock);
	n = sysfs_emit(buf, "%s\n", kdev->fw_status);
	mutex_unlock(&kdev->fw_lock);
	return n;
}

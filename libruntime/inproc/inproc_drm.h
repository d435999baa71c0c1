/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The in-process host's ioctl entry: its drm_ioctl() (inproc_drm.c). */
#ifndef KH_INPROC_DRM_H
#define KH_INPROC_DRM_H

#include "rt_internal.h"

struct kh_file;
struct drm_file;

/* cmd on kf (driver range) or file (the DRM core's syncobjs): 0 or -errno */
KH_RT_HIDDEN
int kh_inproc_ioctl(struct kh_file *kf, struct drm_file *file,
		    unsigned int cmd, void *uarg);

#endif /* KH_INPROC_DRM_H */

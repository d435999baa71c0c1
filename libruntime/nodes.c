// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * What a device is: its capabilities (the GET_INFO read at open), its
 * node table (NODES), and unit types in words.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"
#include "kohaku/kh_units.h"

KH_RT_EXPORT int kohaku_get_info(kohaku_device *dev,
				 struct drm_kohaku_get_info *out)
{
	if (!dev || !out)
		return -EINVAL;
	*out = dev->info;
	return 0;
}

KH_RT_EXPORT int kohaku_nodes(kohaku_device *dev, unsigned int flags,
			      struct drm_kohaku_node *nodes,
			      unsigned int capacity, unsigned int *count)
{
	struct drm_kohaku_nodes req;
	int r;

	if (!dev)
		return -EINVAL;
	memset(&req, 0, sizeof(req));
	req.flags = flags;
	req.capacity = capacity;
	req.node_size = sizeof(struct drm_kohaku_node);
	req.nodes_ptr = (uintptr_t)nodes;
	r = kh_rt_ioctl(dev, DRM_IOCTL_KOHAKU_NODES, &req,
		     "reading the node table of %s", dev->path);
	if (r == 0 && count)
		*count = req.count;
	return r;
}

KH_RT_EXPORT int kohaku_nodes_alloc(kohaku_device *dev, unsigned int flags,
				    struct drm_kohaku_node **nodes,
				    unsigned int *count)
{
	unsigned int cap, n = 0;
	int tries, r;

	if (!dev || !nodes || !count)
		return -EINVAL;
	*nodes = NULL;
	*count = 0;
	cap = dev->info.n_nodes;
	for (tries = 0; tries < 4; tries++) {
		struct drm_kohaku_node *buf =
			calloc(cap ? cap : 1, sizeof(*buf));

		if (!buf) {
			kh_rt_seterr(dev, "node table: out of host memory");
			return -ENOMEM;
		}
		r = kohaku_nodes(dev, flags, buf, cap, &n);
		if (r < 0) {
			free(buf);
			return r;
		}
		if (n <= cap) {
			*nodes = buf;
			*count = n;
			return 0;
		}
		free(buf);
		cap = n;
	}
	kh_rt_seterr(dev, "node table: its size kept changing");
	return -EIO;
}

KH_RT_EXPORT const char *kohaku_cu_type_name(uint16_t cu_type, char *buf,
					     size_t len)
{
	unsigned char a = cu_type >> 8, b = cu_type & 0xff;

	if (!buf || !len)
		return "";
	if (cu_type == KH_CU_NULL)
		kh_rt_strlcpy(buf, "null", len);
	else if (a >= 0x20 && a < 0x7f && b >= 0x20 && b < 0x7f)
		snprintf(buf, len, "%c%c", a, b);
	else
		snprintf(buf, len, "0x%04x", cu_type);
	return buf;
}

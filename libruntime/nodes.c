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
				 struct drm_kohaku_get_info *out, size_t size)
{
	if (!dev || !out || !size)
		return -EINVAL;
	kh_rt_copy_out(out, size, &dev->info, sizeof(dev->info));
	return 0;
}

/* libkohaku 0.1's kohaku_get_info (version node KOHAKU_0) */
int kh_rt_get_info_v0(kohaku_device *dev, struct drm_kohaku_get_info *out);
int kh_rt_get_info_v0(kohaku_device *dev, struct drm_kohaku_get_info *out)
{
	return kohaku_get_info(dev, out, KH_RT_V0_GET_INFO_SIZE);
}
KH_RT_SYMVER(kh_rt_get_info_v0, kohaku_get_info, KOHAKU_0);
KH_RT_SYMVER_DEFAULT(kohaku_get_info, KOHAKU_0.2);

KH_RT_EXPORT int kohaku_nodes(kohaku_device *dev, unsigned int flags,
			      struct drm_kohaku_node *nodes,
			      unsigned int capacity, size_t node_size,
			      unsigned int *count)
{
	const size_t osize = sizeof(struct drm_kohaku_node);
	struct drm_kohaku_nodes req;
	struct drm_kohaku_node *buf = NULL;
	unsigned int i;
	int r;

	if (!dev)
		return -EINVAL;
	if (node_size < KOHAKU_NODE_SIZE_MIN || (capacity && !nodes)) {
		kh_rt_seterr(dev, "kohaku_nodes: %s", capacity && !nodes ?
			     "NULL nodes with a capacity" :
			     "node_size below KOHAKU_NODE_SIZE_MIN (pass "
			     "sizeof(struct drm_kohaku_node))");
		return -EINVAL;
	}
	/* another stride than ours: the table lands here first */
	if (node_size != osize && capacity) {
		buf = calloc(capacity, osize);
		if (!buf) {
			kh_rt_seterr(dev, "node table: out of host memory");
			return -ENOMEM;
		}
	}
	memset(&req, 0, sizeof(req));
	req.flags = flags;
	req.capacity = capacity;
	req.node_size = osize;
	req.nodes_ptr = (uintptr_t)(buf ? buf : nodes);
	r = kh_rt_ioctl(dev, DRM_IOCTL_KOHAKU_NODES, &req,
		     "reading the node table of %s", dev->path);
	if (r == 0 && buf)
		for (i = 0; i < capacity && i < req.count; i++)
			kh_rt_copy_out((char *)nodes + (size_t)i * node_size,
				       node_size, &buf[i], osize);
	free(buf);
	if (r == 0 && count)
		*count = req.count;
	return r;
}

/* libkohaku 0.1's kohaku_nodes (version node KOHAKU_0) */
int kh_rt_nodes_v0(kohaku_device *dev, unsigned int flags,
		   struct drm_kohaku_node *nodes, unsigned int capacity,
		   unsigned int *count);
int kh_rt_nodes_v0(kohaku_device *dev, unsigned int flags,
		   struct drm_kohaku_node *nodes, unsigned int capacity,
		   unsigned int *count)
{
	return kohaku_nodes(dev, flags, nodes, capacity, KH_RT_V0_NODE_SIZE,
			    count);
}
KH_RT_SYMVER(kh_rt_nodes_v0, kohaku_nodes, KOHAKU_0);
KH_RT_SYMVER_DEFAULT(kohaku_nodes, KOHAKU_0.2);

KH_RT_EXPORT int kohaku_nodes_alloc(kohaku_device *dev, unsigned int flags,
				    struct drm_kohaku_node **nodes,
				    size_t node_size, unsigned int *count)
{
	unsigned int cap, n = 0;
	int tries, r;

	if (!dev || !nodes || !count)
		return -EINVAL;
	*nodes = NULL;
	*count = 0;
	if (node_size < KOHAKU_NODE_SIZE_MIN) {
		kh_rt_seterr(dev, "kohaku_nodes_alloc: node_size below "
			     "KOHAKU_NODE_SIZE_MIN (pass sizeof(struct "
			     "drm_kohaku_node))");
		return -EINVAL;
	}
	cap = dev->info.n_nodes;
	for (tries = 0; tries < 4; tries++) {
		struct drm_kohaku_node *buf = calloc(cap ? cap : 1, node_size);

		if (!buf) {
			kh_rt_seterr(dev, "node table: out of host memory");
			return -ENOMEM;
		}
		r = kohaku_nodes(dev, flags, buf, cap, node_size, &n);
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

/* libkohaku 0.1's kohaku_nodes_alloc (version node KOHAKU_0) */
int kh_rt_nodes_alloc_v0(kohaku_device *dev, unsigned int flags,
			 struct drm_kohaku_node **nodes, unsigned int *count);
int kh_rt_nodes_alloc_v0(kohaku_device *dev, unsigned int flags,
			 struct drm_kohaku_node **nodes, unsigned int *count)
{
	return kohaku_nodes_alloc(dev, flags, nodes, KH_RT_V0_NODE_SIZE, count);
}
KH_RT_SYMVER(kh_rt_nodes_alloc_v0, kohaku_nodes_alloc, KOHAKU_0);
KH_RT_SYMVER_DEFAULT(kohaku_nodes_alloc, KOHAKU_0.2);

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

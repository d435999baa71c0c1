// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A mesh's clocks and resets: thin wrappers of CLOCKS, MESH_SET and RESET
 * (docs/abi.md "Mesh clocks and resets") with the library's messages, and
 * the profiles' names.
 */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "rt_internal.h"

static const char *const rt_clk_names[] = KOHAKU_CLK_PROFILE_NAMES;

KH_RT_EXPORT const char *kohaku_clk_profile_name(unsigned int profile)
{
	if (profile < sizeof(rt_clk_names) / sizeof(rt_clk_names[0]))
		return rt_clk_names[profile];
	if (profile == KOHAKU_CLK_PROFILE_DEFAULT)
		return "default";
	return "other";
}

KH_RT_EXPORT const char *kohaku_clk_policy_name(unsigned int policy)
{
	static const char *const names[] = KOHAKU_CLK_POLICY_NAMES;

	return policy < sizeof(names) / sizeof(names[0]) ? names[policy] : "other";
}

KH_RT_EXPORT int kohaku_clk_profile_parse(const char *name)
{
	unsigned int p;

	if (!name)
		return -EINVAL;
	for (p = 0; p < sizeof(rt_clk_names) / sizeof(rt_clk_names[0]); p++)
		if (!strcasecmp(name, rt_clk_names[p]))
			return (int)p;
	if (!strcasecmp(name, "default"))
		return KOHAKU_CLK_PROFILE_DEFAULT;
	return -EINVAL;
}

KH_RT_EXPORT int kohaku_clocks(kohaku_device *dev, unsigned int mesh,
			       struct drm_kohaku_clocks *out, size_t out_size)
{
	struct drm_kohaku_clocks a;
	int r;

	if (!dev || (out && !out_size))
		return -EINVAL;
	memset(&a, 0, sizeof(a));
	a.mesh = mesh;
	r = kh_rt_ioctl(dev, DRM_IOCTL_KOHAKU_CLOCKS, &a,
			"reading the clocks of mesh %u", mesh);
	if (!r && out)
		kh_rt_copy_out(out, out_size, &a, sizeof(a));
	return r;
}

/* libkohaku 0.1's kohaku_clocks (version node KOHAKU_0) */
int kh_rt_clocks_v0(kohaku_device *dev, unsigned int mesh,
		     struct drm_kohaku_clocks *out);
int kh_rt_clocks_v0(kohaku_device *dev, unsigned int mesh,
		     struct drm_kohaku_clocks *out)
{
	return kohaku_clocks(dev, mesh, out, KH_RT_V0_CLOCKS_SIZE);
}
KH_RT_SYMVER(kh_rt_clocks_v0, kohaku_clocks, KOHAKU_0);
KH_RT_SYMVER_DEFAULT(kohaku_clocks, KOHAKU_0.2);

KH_RT_EXPORT int kohaku_clocks_file_run(kohaku_device *dev, unsigned int mesh,
					unsigned int profile)
{
	struct drm_kohaku_clocks a;

	if (!dev)
		return -EINVAL;
	memset(&a, 0, sizeof(a));
	a.mesh = mesh;
	a.flags = KOHAKU_CLOCKS_SET_FILE_RUN;
	a.file_run_profile = profile;
	return kh_rt_ioctl(dev, DRM_IOCTL_KOHAKU_CLOCKS, &a,
			   "asking for the %s profile for this file's jobs on mesh %u",
			   kohaku_clk_profile_name(profile), mesh);
}

KH_RT_EXPORT int kohaku_mesh_set(kohaku_device *dev,
				 const struct drm_kohaku_mesh_set *set)
{
	struct drm_kohaku_mesh_set a;

	if (!dev)
		return -EINVAL;
	if (!set) {
		kh_rt_seterr(dev, "setting a mesh's clocks: set is NULL");
		return -EFAULT;
	}
	a = *set;
	return kh_rt_ioctl(dev, DRM_IOCTL_KOHAKU_MESH_SET, &a,
			   "setting the clock policy or recovery of mesh %u",
			   set->mesh);
}

KH_RT_EXPORT int kohaku_mesh_lease(kohaku_device *dev, unsigned int mesh,
				   int take)
{
	struct drm_kohaku_mesh_lease a;

	if (!dev)
		return -EINVAL;
	memset(&a, 0, sizeof(a));
	a.mesh = mesh;
	a.flags = take ? KOHAKU_LEASE_TAKE : KOHAKU_LEASE_GIVE;
	return kh_rt_ioctl(dev, DRM_IOCTL_KOHAKU_MESH_LEASE, &a,
			   take ? "taking the lease of mesh %u" :
			   "giving back the lease of mesh %u", mesh);
}

KH_RT_EXPORT int kohaku_mesh_reset(kohaku_device *dev, unsigned int mesh,
				   struct drm_kohaku_reset *out,
				   size_t out_size)
{
	struct drm_kohaku_reset a;
	int r;

	if (!dev || (out && !out_size))
		return -EINVAL;
	memset(&a, 0, sizeof(a));
	a.mesh = mesh;
	r = kh_rt_ioctl(dev, DRM_IOCTL_KOHAKU_RESET, &a, "resetting mesh %u",
			mesh);
	if (!r && out)
		kh_rt_copy_out(out, out_size, &a, sizeof(a));
	return r;
}

/* libkohaku 0.1's kohaku_mesh_reset (version node KOHAKU_0) */
int kh_rt_mesh_reset_v0(kohaku_device *dev, unsigned int mesh,
			 struct drm_kohaku_reset *out);
int kh_rt_mesh_reset_v0(kohaku_device *dev, unsigned int mesh,
			 struct drm_kohaku_reset *out)
{
	return kohaku_mesh_reset(dev, mesh, out, KH_RT_V0_RESET_SIZE);
}
KH_RT_SYMVER(kh_rt_mesh_reset_v0, kohaku_mesh_reset, KOHAKU_0);
KH_RT_SYMVER_DEFAULT(kohaku_mesh_reset, KOHAKU_0.2);

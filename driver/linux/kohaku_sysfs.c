// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku.ko: sysfs under the card's device directory (docs/linux.md):
 *
 *   kohaku/abi_version meshes nodes name firmware
 *   kohaku/dma_channels dma_bytes_to_card dma_bytes_from_card dma_errors
 *          irq_mode irq_vectors irqs
 *   kohaku/mesh<M>/clock_profile clock_policy clock_idle_profile
 *          clock_run_profile clock_fixed_profile clock_idle_ms
 *          clock_{noc,mat2x,vec,mag}_mhz clock_retunes
 *          clock_{low,mid,ship}_ms resets recoveries recover_max reset
 *   kohaku/mesh<M>/node_<x>_<y>/x y type type_name version inst_depth
 *                               inst_space busy retired busy_cycles
 *   ... and on a POOL unit:     fw_state fw_version fw_api fw_boot_ns
 *
 * One value per file; Documentation/ABI/testing/sysfs-driver-kohaku says
 * what each holds, and the VM test checks it against what the cards show.
 * inst_space..busy_cycles are read live through the card's mailbox;
 * firmware says what the firmware request at bind came to.  Every
 * directory is a kobject of its own, with its files in attribute groups
 * (its kobj_type's default_groups); removing them (kobject_del) waits for
 * readers, so no show runs once kohaku_sysfs_fini() returns.
 *
 * Each directory announces itself with a uevent (KOBJ_ADD, and KOBJ_REMOVE
 * before it goes): the device core's kset would drop the events of
 * kobjects that are not devices, so they belong to a kset of the driver's
 * own, never registered, whose only use is its uevent_ops (SUBSYSTEM
 * "kohaku").
 */

#include <linux/ctype.h>
#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "kohaku_drv.h"
#include "kohaku/kh_fw.h"
#include "kohaku/kh_pool.h"
#include "kohaku/kh_regs.h"

struct kohaku_kobj {
	struct kobject kobj;
	struct kohaku_accel *kdev;
	unsigned int index;		/* node index, or mesh number */
};

struct kohaku_sysfs {
	struct kset uevents;		/* the kset of every directory below */
	struct kohaku_kobj *top;
	struct kohaku_kobj *mesh[KOHAKU_MAX_MESHES];
	unsigned int n_nodes;
	struct kohaku_kobj **nodes;
};

struct kohaku_attr {
	struct attribute attr;
	ssize_t (*show)(struct kohaku_kobj *ko, char *buf);
	ssize_t (*store)(struct kohaku_kobj *ko, const char *buf, size_t len);
};

#define to_kohaku_kobj(k)	container_of(k, struct kohaku_kobj, kobj)
#define to_kohaku_attr(a)	container_of(a, struct kohaku_attr, attr)

static ssize_t kohaku_attr_show(struct kobject *kobj, struct attribute *attr,
				char *buf)
{
	struct kohaku_attr *ka = to_kohaku_attr(attr);

	if (!ka->show)
		return -EIO;
	return ka->show(to_kohaku_kobj(kobj), buf);
}

static ssize_t kohaku_attr_store(struct kobject *kobj, struct attribute *attr,
				 const char *buf, size_t len)
{
	struct kohaku_attr *ka = to_kohaku_attr(attr);

	if (!ka->store)
		return -EIO;
	return ka->store(to_kohaku_kobj(kobj), buf, len);
}

static const struct sysfs_ops kohaku_sysfs_ops = {
	.show = kohaku_attr_show,
	.store = kohaku_attr_store,
};

static void kohaku_kobj_release(struct kobject *kobj)
{
	kfree(to_kohaku_kobj(kobj));
}

#define KOHAKU_ATTR_RO(prefix, _name)					\
	static struct kohaku_attr prefix##_attr_##_name = {		\
		.attr = { .name = __stringify(_name), .mode = 0444 },	\
		.show = prefix##_##_name##_show,			\
	}

/* ---- kohaku/ ---- */

static ssize_t top_abi_version_show(struct kohaku_kobj *ko, char *buf)
{
	return sysfs_emit(buf, "%u.%u\n", KOHAKU_ABI_MAJOR, KOHAKU_ABI_MINOR);
}

static ssize_t top_meshes_show(struct kohaku_kobj *ko, char *buf)
{
	return sysfs_emit(buf, "%u\n", kh_device_mesh_count(ko->kdev->kd));
}

static ssize_t top_nodes_show(struct kohaku_kobj *ko, char *buf)
{
	return sysfs_emit(buf, "%u\n", kh_device_node_count(ko->kdev->kd));
}

static ssize_t top_name_show(struct kohaku_kobj *ko, char *buf)
{
	return sysfs_emit(buf, "%s\n", kh_device_name(ko->kdev->kd));
}

KOHAKU_ATTR_RO(top, abi_version);
KOHAKU_ATTR_RO(top, meshes);
KOHAKU_ATTR_RO(top, nodes);
static ssize_t top_firmware_show(struct kohaku_kobj *ko, char *buf)
{
	return kohaku_fw_status(ko->kdev, buf);
}

#define TOP_DMA_SHOW(_name, param)					\
static ssize_t top_##_name##_show(struct kohaku_kobj *ko, char *buf)	\
{									\
	return sysfs_emit(buf, "%llu\n",				\
			  kh_device_dma_param(ko->kdev->kd, param));	\
}									\
KOHAKU_ATTR_RO(top, _name)

TOP_DMA_SHOW(dma_channels, KOHAKU_PARAM_DMA_CHANNELS);
TOP_DMA_SHOW(dma_bytes_to_card, KOHAKU_PARAM_DMA_BYTES_TO_CARD);
TOP_DMA_SHOW(dma_bytes_from_card, KOHAKU_PARAM_DMA_BYTES_FROM_CARD);
TOP_DMA_SHOW(dma_errors, KOHAKU_PARAM_DMA_ERRORS);
TOP_DMA_SHOW(irqs, KOHAKU_PARAM_IRQS);

TOP_DMA_SHOW(irq_vectors, KOHAKU_PARAM_IRQ_VECTORS);

/* "irq" with vectors in use (irq_vectors says how many), or "poll" */
static ssize_t top_irq_mode_show(struct kohaku_kobj *ko, char *buf)
{
	u64 n = kh_device_dma_param(ko->kdev->kd, KOHAKU_PARAM_IRQ_VECTORS);

	return sysfs_emit(buf, "%s\n", n ? "irq" : "poll");
}

KOHAKU_ATTR_RO(top, name);
KOHAKU_ATTR_RO(top, firmware);
KOHAKU_ATTR_RO(top, irq_mode);

static struct attribute *kohaku_top_attrs[] = {
	&top_attr_abi_version.attr,
	&top_attr_meshes.attr,
	&top_attr_nodes.attr,
	&top_attr_name.attr,
	&top_attr_firmware.attr,
	&top_attr_dma_channels.attr,
	&top_attr_dma_bytes_to_card.attr,
	&top_attr_dma_bytes_from_card.attr,
	&top_attr_dma_errors.attr,
	&top_attr_irq_mode.attr,
	&top_attr_irq_vectors.attr,
	&top_attr_irqs.attr,
	NULL
};
ATTRIBUTE_GROUPS(kohaku_top);

static const struct kobj_type kohaku_top_ktype = {
	.release	= kohaku_kobj_release,
	.sysfs_ops	= &kohaku_sysfs_ops,
	.default_groups	= kohaku_top_groups,
};

/* ---- kohaku/mesh<M>/: the mesh's clocks and resets, a directory of nodes ---- */


#define MESH_CLK_SHOW(_name, fmt, ...)					\
static ssize_t mesh_##_name##_show(struct kohaku_kobj *ko, char *buf)	\
{									\
	struct drm_kohaku_clocks c = { 0 };				\
	int ret = kh_device_clocks(ko->kdev->kd, ko->index, &c);	\
									\
	if (ret)							\
		return ret;						\
	return sysfs_emit(buf, fmt "\n", __VA_ARGS__);			\
}

#define KOHAKU_ATTR_RW(prefix, _name)					\
	static struct kohaku_attr prefix##_attr_##_name = {		\
		.attr = { .name = __stringify(_name), .mode = 0644 },	\
		.show = prefix##_##_name##_show,			\
		.store = prefix##_##_name##_store,			\
	}

/* one MESH_SET field from a write: root only (the files are 0644) */
static ssize_t mesh_set(struct kohaku_kobj *ko, u32 bit, u32 v, size_t len)
{
	struct drm_kohaku_mesh_set a = { .set = bit, .mesh = ko->index };
	int ret;

	switch (bit) {
	case KOHAKU_MESH_SET_POLICY:
		a.policy = v;
		break;
	case KOHAKU_MESH_SET_IDLE:
		a.idle_profile = v;
		break;
	case KOHAKU_MESH_SET_RUN:
		a.run_profile = v;
		break;
	case KOHAKU_MESH_SET_FIXED:
		a.fixed_profile = v;
		break;
	case KOHAKU_MESH_SET_IDLE_MS:
		a.idle_ms = v;
		break;
	case KOHAKU_MESH_SET_RECOVER:
		a.recover_max = v;
		break;
	}
	ret = kh_device_mesh_set(ko->kdev->kd, &a);
	return ret ? ret : len;
}

MESH_CLK_SHOW(clock_profile, "%s", kh_clk_profile_name(c.profile))
MESH_CLK_SHOW(clock_policy, "%s", kh_clk_policy_name(c.policy))
MESH_CLK_SHOW(clock_idle_profile, "%s", kh_clk_profile_name(c.idle_profile))
MESH_CLK_SHOW(clock_run_profile, "%s", kh_clk_profile_name(c.run_profile))
MESH_CLK_SHOW(clock_fixed_profile, "%s", kh_clk_profile_name(c.fixed_profile))
MESH_CLK_SHOW(clock_idle_ms, "%u", c.idle_ms)
MESH_CLK_SHOW(clock_noc_mhz, "%u", c.mhz[KH_CLK_OUT_NOC])
MESH_CLK_SHOW(clock_mat2x_mhz, "%u", c.mhz[KH_CLK_OUT_MAT2X])
MESH_CLK_SHOW(clock_vec_mhz, "%u", c.mhz[KH_CLK_OUT_VEC])
MESH_CLK_SHOW(clock_mag_mhz, "%u", c.mhz[KH_CLK_OUT_MAG])
MESH_CLK_SHOW(clock_retunes, "%u", c.retunes)
MESH_CLK_SHOW(clock_low_ms, "%llu", (unsigned long long)c.ns_at[0] / 1000000)
MESH_CLK_SHOW(clock_mid_ms, "%llu", (unsigned long long)c.ns_at[1] / 1000000)
MESH_CLK_SHOW(clock_ship_ms, "%llu", (unsigned long long)c.ns_at[2] / 1000000)
MESH_CLK_SHOW(resets, "%u", c.resets)
MESH_CLK_SHOW(recoveries, "%u", c.recoveries)
MESH_CLK_SHOW(recover_max, "%u", c.recover_max)

/* "auto" or "fixed" (at clock_fixed_profile) */
static ssize_t mesh_clock_policy_store(struct kohaku_kobj *ko, const char *buf,
				       size_t len)
{
	int p = kh_clk_policy_parse(buf);

	return p < 0 ? p : mesh_set(ko, KOHAKU_MESH_SET_POLICY, p, len);
}

/* writing a profile's name fixes the mesh there (clock_policy "auto" hands it back) */
static ssize_t mesh_clock_profile_store(struct kohaku_kobj *ko, const char *buf,
					size_t len)
{
	struct drm_kohaku_mesh_set a = {
		.set = KOHAKU_MESH_SET_POLICY | KOHAKU_MESH_SET_FIXED,
		.mesh = ko->index, .policy = KOHAKU_CLK_POLICY_FIXED,
	};
	int p = kh_clk_profile_parse(buf), ret;

	if (p < 0)
		return p;
	a.fixed_profile = p;
	ret = kh_device_mesh_set(ko->kdev->kd, &a);
	return ret ? ret : len;
}

#define MESH_PROFILE_STORE(_name, bit)					\
static ssize_t mesh_##_name##_store(struct kohaku_kobj *ko, const char *buf, \
				    size_t len)				\
{									\
	int p = kh_clk_profile_parse(buf);					\
									\
	return p < 0 ? p : mesh_set(ko, bit, p, len);			\
}

#define MESH_UINT_STORE(_name, bit)					\
static ssize_t mesh_##_name##_store(struct kohaku_kobj *ko, const char *buf, \
				    size_t len)				\
{									\
	u32 v;								\
	int ret = kstrtou32(buf, 0, &v);				\
									\
	return ret ? ret : mesh_set(ko, bit, v, len);			\
}

MESH_PROFILE_STORE(clock_idle_profile, KOHAKU_MESH_SET_IDLE)
MESH_PROFILE_STORE(clock_run_profile, KOHAKU_MESH_SET_RUN)
MESH_PROFILE_STORE(clock_fixed_profile, KOHAKU_MESH_SET_FIXED)
MESH_UINT_STORE(clock_idle_ms, KOHAKU_MESH_SET_IDLE_MS)
MESH_UINT_STORE(recover_max, KOHAKU_MESH_SET_RECOVER)

/* "1" resets the mesh (xbutil reset, tt-smi -r); returns when it is back */
static ssize_t mesh_reset_store(struct kohaku_kobj *ko, const char *buf,
				size_t len)
{
	struct drm_kohaku_reset a = { .mesh = ko->index };
	bool v;
	int ret = kstrtobool(buf, &v);

	if (ret)
		return ret;
	if (!v)
		return -EINVAL;
	ret = kh_device_mesh_reset(ko->kdev->kd, &a);
	return ret ? ret : len;
}

KOHAKU_ATTR_RW(mesh, clock_profile);
KOHAKU_ATTR_RW(mesh, clock_policy);
KOHAKU_ATTR_RW(mesh, clock_idle_profile);
KOHAKU_ATTR_RW(mesh, clock_run_profile);
KOHAKU_ATTR_RW(mesh, clock_fixed_profile);
KOHAKU_ATTR_RW(mesh, clock_idle_ms);
KOHAKU_ATTR_RO(mesh, clock_noc_mhz);
KOHAKU_ATTR_RO(mesh, clock_mat2x_mhz);
KOHAKU_ATTR_RO(mesh, clock_vec_mhz);
KOHAKU_ATTR_RO(mesh, clock_mag_mhz);
KOHAKU_ATTR_RO(mesh, clock_retunes);
KOHAKU_ATTR_RO(mesh, clock_low_ms);
KOHAKU_ATTR_RO(mesh, clock_mid_ms);
KOHAKU_ATTR_RO(mesh, clock_ship_ms);
KOHAKU_ATTR_RO(mesh, resets);
KOHAKU_ATTR_RO(mesh, recoveries);
KOHAKU_ATTR_RW(mesh, recover_max);
static struct kohaku_attr mesh_attr_reset = {
	.attr = { .name = "reset", .mode = 0200 },
	.store = mesh_reset_store,
};

static struct attribute *kohaku_mesh_attrs[] = {
	&mesh_attr_clock_profile.attr,
	&mesh_attr_clock_policy.attr,
	&mesh_attr_clock_idle_profile.attr,
	&mesh_attr_clock_run_profile.attr,
	&mesh_attr_clock_fixed_profile.attr,
	&mesh_attr_clock_idle_ms.attr,
	&mesh_attr_clock_noc_mhz.attr,
	&mesh_attr_clock_mat2x_mhz.attr,
	&mesh_attr_clock_vec_mhz.attr,
	&mesh_attr_clock_mag_mhz.attr,
	&mesh_attr_clock_retunes.attr,
	&mesh_attr_clock_low_ms.attr,
	&mesh_attr_clock_mid_ms.attr,
	&mesh_attr_clock_ship_ms.attr,
	&mesh_attr_resets.attr,
	&mesh_attr_recoveries.attr,
	&mesh_attr_recover_max.attr,
	&mesh_attr_reset.attr,
	NULL
};
ATTRIBUTE_GROUPS(kohaku_mesh);

static const struct kobj_type kohaku_mesh_ktype = {
	.release	= kohaku_kobj_release,
	.sysfs_ops	= &kohaku_sysfs_ops,
	.default_groups	= kohaku_mesh_groups,
};

/* ---- kohaku/mesh<M>/node_<x>_<y>/ ---- */

static int node_get(struct kohaku_kobj *ko, bool live,
		    struct drm_kohaku_node *node)
{
	memset(node, 0, sizeof(*node));
	return kh_device_node(ko->kdev->kd, ko->index, live, node);
}

#define NODE_SHOW(_name, live, fmt, ...)				\
static ssize_t node_##_name##_show(struct kohaku_kobj *ko, char *buf)	\
{									\
	struct drm_kohaku_node n;					\
	int ret = node_get(ko, live, &n);				\
									\
	if (ret)							\
		return ret;						\
	return sysfs_emit(buf, fmt "\n", __VA_ARGS__);			\
}									\
KOHAKU_ATTR_RO(node, _name)

NODE_SHOW(version, false, "%u", n.cu_version);
NODE_SHOW(inst_depth, false, "%u", n.inst_depth);
NODE_SHOW(inst_space, true, "%u", n.inst_space);
NODE_SHOW(busy, true, "%u", n.busy);
NODE_SHOW(retired, true, "%u", n.retired);
NODE_SHOW(busy_cycles, true, "%u", n.busy_cycles);

NODE_SHOW(x, false, "%u", n.x);
NODE_SHOW(y, false, "%u", n.y);
NODE_SHOW(type, false, "0x%04x", n.cu_type);

/* cu_type's two ASCII characters when both are printable, else empty */
static ssize_t node_type_name_show(struct kohaku_kobj *ko, char *buf)
{
	struct drm_kohaku_node n;
	int ret = node_get(ko, false, &n);
	char hi, lo;

	if (ret)
		return ret;
	hi = n.cu_type >> 8;
	lo = n.cu_type & 0xff;
	if (isgraph(hi) && isgraph(lo))
		return sysfs_emit(buf, "%c%c\n", hi, lo);
	return sysfs_emit(buf, "\n");
}
KOHAKU_ATTR_RO(node, type_name);

static struct attribute *kohaku_node_attrs[] = {
	&node_attr_x.attr,
	&node_attr_y.attr,
	&node_attr_type.attr,
	&node_attr_type_name.attr,
	&node_attr_version.attr,
	&node_attr_inst_depth.attr,
	&node_attr_inst_space.attr,
	&node_attr_busy.attr,
	&node_attr_retired.attr,
	&node_attr_busy_cycles.attr,
	NULL
};
ATTRIBUTE_GROUPS(kohaku_node);

static const struct kobj_type kohaku_node_ktype = {
	.release	= kohaku_kobj_release,
	.sysfs_ops	= &kohaku_sysfs_ops,
	.default_groups	= kohaku_node_groups,
};

/* ---- ... and a POOL unit's firmware ---- */

static const char *const kohaku_fw_states[] = {
	[KOHAKU_FW_STATE_NONE] = "none",
	[KOHAKU_FW_STATE_ABSENT] = "absent",
	[KOHAKU_FW_STATE_BOOTING] = "booting",
	[KOHAKU_FW_STATE_RUNNING] = "running",
	[KOHAKU_FW_STATE_FAILED] = "failed",
};

static ssize_t node_fw_state_show(struct kohaku_kobj *ko, char *buf)
{
	struct drm_kohaku_node n;
	int ret = node_get(ko, false, &n);

	if (ret)
		return ret;
	if (n.fw_state >= ARRAY_SIZE(kohaku_fw_states))
		return sysfs_emit(buf, "%u\n", n.fw_state);
	return sysfs_emit(buf, "%s\n", kohaku_fw_states[n.fw_state]);
}
KOHAKU_ATTR_RO(node, fw_state);

NODE_SHOW(fw_version, false, "%u.%u.%u", KH_FW_VERSION_MAJOR(n.fw_version),
	  KH_FW_VERSION_MINOR(n.fw_version), KH_FW_VERSION_PATCH(n.fw_version));
NODE_SHOW(fw_api, false, "%u.%u", n.fw_api >> 16, n.fw_api & 0xffff);
NODE_SHOW(fw_boot_ns, false, "%llu", (unsigned long long)n.fw_boot_ns);

static struct attribute *kohaku_pool_attrs[] = {
	&node_attr_fw_state.attr,
	&node_attr_fw_version.attr,
	&node_attr_fw_api.attr,
	&node_attr_fw_boot_ns.attr,
	NULL
};

static const struct attribute_group kohaku_pool_group = {
	.attrs = kohaku_pool_attrs,
};

static const struct attribute_group *kohaku_pool_node_groups[] = {
	&kohaku_node_group,
	&kohaku_pool_group,
	NULL
};

static const struct kobj_type kohaku_pool_node_ktype = {
	.release	= kohaku_kobj_release,
	.sysfs_ops	= &kohaku_sysfs_ops,
	.default_groups	= kohaku_pool_node_groups,
};

/* ---- building and tearing down the tree ---- */

static const char *kohaku_uevent_name(kohaku_uevent_kobj *kobj)
{
	return "kohaku";
}

static const struct kset_uevent_ops kohaku_uevent_ops = {
	.name	= kohaku_uevent_name,
};

/* the kset's kobject is never added: it is released with the tree */
static void kohaku_kset_release(struct kobject *kobj)
{
}

static const struct kobj_type kohaku_kset_ktype = {
	.release	= kohaku_kset_release,
};

static struct kohaku_kobj *
kohaku_kobj_add(struct kohaku_accel *kdev, const struct kobj_type *ktype,
		struct kobject *parent, unsigned int index, const char *name)
{
	struct kohaku_sysfs *s = kdev->sysfs;
	struct kohaku_kobj *ko;
	int ret;

	ko = kzalloc(sizeof(*ko), GFP_KERNEL);
	if (!ko)
		return ERR_PTR(-ENOMEM);
	ko->kdev = kdev;
	ko->index = index;
	ko->kobj.kset = &s->uevents;
	ret = kobject_init_and_add(&ko->kobj, ktype, parent, "%s", name);
	if (ret) {
		kobject_put(&ko->kobj);
		return ERR_PTR(ret);
	}
	kobject_uevent(&ko->kobj, KOBJ_ADD);
	return ko;
}

static void kohaku_kobj_del(struct kohaku_kobj *ko)
{
	if (!ko)
		return;
	kobject_uevent(&ko->kobj, KOBJ_REMOVE);
	kobject_del(&ko->kobj);
	kobject_put(&ko->kobj);
}

static int kohaku_sysfs_mesh(struct kohaku_accel *kdev,
			     struct kohaku_sysfs *s, unsigned int m)
{
	struct kohaku_kobj *ko;
	char name[16];

	if (m >= KOHAKU_MAX_MESHES)
		return -EINVAL;
	if (s->mesh[m])
		return 0;
	snprintf(name, sizeof(name), "mesh%u", m);
	ko = kohaku_kobj_add(kdev, &kohaku_mesh_ktype, &s->top->kobj, m, name);
	if (IS_ERR(ko))
		return PTR_ERR(ko);
	s->mesh[m] = ko;
	return 0;
}

void kohaku_sysfs_fini(struct kohaku_accel *kdev)
{
	struct kohaku_sysfs *s = kdev->sysfs;
	unsigned int i;

	if (!s)
		return;
	for (i = 0; i < s->n_nodes; i++)
		kohaku_kobj_del(s->nodes[i]);
	for (i = 0; i < KOHAKU_MAX_MESHES; i++)
		kohaku_kobj_del(s->mesh[i]);
	kohaku_kobj_del(s->top);
	/* every directory has left the kset: its last reference */
	kset_put(&s->uevents);
	kfree(s->nodes);
	kfree(s);
	kdev->sysfs = NULL;
}

int kohaku_sysfs_init(struct kohaku_accel *kdev)
{
	struct kh_device *kd = kdev->kd;
	struct drm_kohaku_get_info *info;
	struct drm_kohaku_node node;
	struct kohaku_sysfs *s;
	struct kohaku_kobj *ko;
	char name[32];
	unsigned int i;
	int ret;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	kdev->sysfs = s;
	/* kset_init(), which modules cannot call */
	kobject_init(&s->uevents.kobj, &kohaku_kset_ktype);
	INIT_LIST_HEAD(&s->uevents.list);
	spin_lock_init(&s->uevents.list_lock);
	s->uevents.uevent_ops = &kohaku_uevent_ops;

	s->top = kohaku_kobj_add(kdev, &kohaku_top_ktype, &kdev->dev->kobj, 0,
				 "kohaku");
	if (IS_ERR(s->top)) {
		ret = PTR_ERR(s->top);
		s->top = NULL;
		goto err;
	}

	/* a directory for every mesh present, nodes or not */
	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!info) {
		ret = -ENOMEM;
		goto err;
	}
	ret = kh_device_info(kd, info);
	for (i = 0; !ret && i < KOHAKU_MAX_MESHES; i++)
		if (info->mesh[i].flags & KOHAKU_MESH_PRESENT)
			ret = kohaku_sysfs_mesh(kdev, s, i);
	kfree(info);
	if (ret)
		goto err;

	s->nodes = kcalloc(kh_device_node_count(kd), sizeof(*s->nodes),
			   GFP_KERNEL);
	if (!s->nodes && kh_device_node_count(kd)) {
		ret = -ENOMEM;
		goto err;
	}
	for (i = 0; i < kh_device_node_count(kd); i++) {
		memset(&node, 0, sizeof(node));
		ret = kh_device_node(kd, i, false, &node);
		if (!ret)
			ret = kohaku_sysfs_mesh(kdev, s, node.mesh);
		if (ret)
			goto err;
		snprintf(name, sizeof(name), "node_%u_%u", node.x, node.y);
		ko = kohaku_kobj_add(kdev, node.cu_type == KH_CU_GP ?
				     &kohaku_pool_node_ktype : &kohaku_node_ktype,
				     &s->mesh[node.mesh]->kobj, i, name);
		if (IS_ERR(ko)) {
			ret = PTR_ERR(ko);
			goto err;
		}
		s->nodes[i] = ko;
		s->n_nodes = i + 1;
	}
	return 0;

err:
	dev_err(kdev->dev, "sysfs: %d\n", ret);
	kohaku_sysfs_fini(kdev);
	return ret;
}

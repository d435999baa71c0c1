// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * uapi struct layout: every ioctl struct has no implicit padding (each
 * member starts where the previous one ends, the last one ends at sizeof),
 * a size that is a multiple of 8, and the size its command number carries.
 * The checks are static asserts; the TAP lines restate them at run time so
 * the suite reports them (and a 32-bit build would check them again).
 */
#include <stddef.h>
#include <sys/ioctl.h>

#include "rt_test.h"
#include "kohaku/kh_flit.h"
#include "kohaku/kh_regs.h"
#include "kohaku/kh_dxa.h"

#define MSZ(s, m)	sizeof(((struct s *)0)->m)
#define END(s, m)	(offsetof(struct s, m) + MSZ(s, m))
/* member m starts right where member prev ends */
#define NEXT(s, prev, m) \
	_Static_assert(offsetof(struct s, m) == END(s, prev), \
		       #s ": implicit padding before " #m)
#define FIRST(s, m) \
	_Static_assert(offsetof(struct s, m) == 0, #s ": " #m " is not first")
#define LAST(s, m, size) \
	_Static_assert(END(s, m) == sizeof(struct s), \
		       #s ": implicit padding after " #m); \
	_Static_assert(sizeof(struct s) == (size), #s ": size changed"); \
	_Static_assert(sizeof(struct s) % 8 == 0, #s ": size not a multiple of 8")

FIRST(drm_kohaku_mesh_info, flags);
NEXT(drm_kohaku_mesh_info, flags, n_nodes);
NEXT(drm_kohaku_mesh_info, n_nodes, grid_lo);
NEXT(drm_kohaku_mesh_info, grid_lo, grid_hi);
NEXT(drm_kohaku_mesh_info, grid_hi, pos_width);
NEXT(drm_kohaku_mesh_info, pos_width, agent_x);
NEXT(drm_kohaku_mesh_info, agent_x, agent_y);
NEXT(drm_kohaku_mesh_info, agent_y, cu_version);
NEXT(drm_kohaku_mesh_info, cu_version, flit_width);
NEXT(drm_kohaku_mesh_info, flit_width, min_inst_depth);
NEXT(drm_kohaku_mesh_info, min_inst_depth, caps_reg);
NEXT(drm_kohaku_mesh_info, caps_reg, mem_size);
NEXT(drm_kohaku_mesh_info, mem_size, mem_free);
NEXT(drm_kohaku_mesh_info, mem_free, reserved);
LAST(drm_kohaku_mesh_info, reserved, 56);

FIRST(drm_kohaku_get_info, flags);
NEXT(drm_kohaku_get_info, flags, abi_version);
NEXT(drm_kohaku_get_info, abi_version, caps);
NEXT(drm_kohaku_get_info, caps, n_meshes);
NEXT(drm_kohaku_get_info, n_meshes, n_nodes);
NEXT(drm_kohaku_get_info, n_nodes, name);
NEXT(drm_kohaku_get_info, name, mesh);
NEXT(drm_kohaku_get_info, mesh, reserved);
LAST(drm_kohaku_get_info, reserved, 312);

FIRST(drm_kohaku_node, mesh);
NEXT(drm_kohaku_node, mesh, x);
NEXT(drm_kohaku_node, x, y);
NEXT(drm_kohaku_node, y, n_buffers);
NEXT(drm_kohaku_node, n_buffers, cu_type);
NEXT(drm_kohaku_node, cu_type, cu_version);
NEXT(drm_kohaku_node, cu_version, flags);
NEXT(drm_kohaku_node, flags, inst_depth);
NEXT(drm_kohaku_node, inst_depth, inst_space);
NEXT(drm_kohaku_node, inst_space, retired);
NEXT(drm_kohaku_node, retired, busy_cycles);
NEXT(drm_kohaku_node, busy_cycles, busy);
NEXT(drm_kohaku_node, busy, caps_reg);
NEXT(drm_kohaku_node, caps_reg, dbg);
NEXT(drm_kohaku_node, dbg, fw_state);
NEXT(drm_kohaku_node, fw_state, fw_pad);
NEXT(drm_kohaku_node, fw_pad, fw_version);
NEXT(drm_kohaku_node, fw_version, fw_api);
NEXT(drm_kohaku_node, fw_api, fw_reserved);
NEXT(drm_kohaku_node, fw_reserved, fw_boot_ns);
NEXT(drm_kohaku_node, fw_boot_ns, fw_trap);
LAST(drm_kohaku_node, fw_trap, 72);
/* ABI 0.1/0.2's node ended at dbg: 0.3 grew it at the end only */
_Static_assert(END(drm_kohaku_node, dbg) == KOHAKU_NODE_SIZE_MIN, "node 0.2 prefix moved");

FIRST(drm_kohaku_nodes, flags);
NEXT(drm_kohaku_nodes, flags, capacity);
NEXT(drm_kohaku_nodes, capacity, count);
NEXT(drm_kohaku_nodes, count, node_size);
NEXT(drm_kohaku_nodes, node_size, nodes_ptr);
NEXT(drm_kohaku_nodes, nodes_ptr, reserved);
LAST(drm_kohaku_nodes, reserved, 40);

FIRST(drm_kohaku_bo_create, flags);
NEXT(drm_kohaku_bo_create, flags, mesh);
NEXT(drm_kohaku_bo_create, mesh, size);
NEXT(drm_kohaku_bo_create, size, handle);
NEXT(drm_kohaku_bo_create, handle, pad);
NEXT(drm_kohaku_bo_create, pad, dev_addr);
NEXT(drm_kohaku_bo_create, dev_addr, reserved);
LAST(drm_kohaku_bo_create, reserved, 48);

FIRST(drm_kohaku_bo_free, handle);
NEXT(drm_kohaku_bo_free, handle, flags);
NEXT(drm_kohaku_bo_free, flags, reserved);
LAST(drm_kohaku_bo_free, reserved, 24);

FIRST(drm_kohaku_bo_info, handle);
NEXT(drm_kohaku_bo_info, handle, flags);
NEXT(drm_kohaku_bo_info, flags, size);
NEXT(drm_kohaku_bo_info, size, dev_addr);
NEXT(drm_kohaku_bo_info, dev_addr, mesh);
NEXT(drm_kohaku_bo_info, mesh, pad);
NEXT(drm_kohaku_bo_info, pad, reserved);
LAST(drm_kohaku_bo_info, reserved, 48);

FIRST(drm_kohaku_bo_rw, handle);
NEXT(drm_kohaku_bo_rw, handle, flags);
NEXT(drm_kohaku_bo_rw, flags, offset);
NEXT(drm_kohaku_bo_rw, offset, size);
NEXT(drm_kohaku_bo_rw, size, data_ptr);
NEXT(drm_kohaku_bo_rw, data_ptr, reserved);
LAST(drm_kohaku_bo_rw, reserved, 48);

FIRST(kohaku_inst, w);
LAST(kohaku_inst, w, 32);

FIRST(drm_kohaku_program, mesh);
NEXT(drm_kohaku_program, mesh, x);
NEXT(drm_kohaku_program, x, y);
NEXT(drm_kohaku_program, y, txn);
NEXT(drm_kohaku_program, txn, n_insts);
NEXT(drm_kohaku_program, n_insts, insts_ptr);
NEXT(drm_kohaku_program, insts_ptr, flags);
NEXT(drm_kohaku_program, flags, pad);
NEXT(drm_kohaku_program, pad, reserved);
NEXT(drm_kohaku_program, reserved, data_ptr);
NEXT(drm_kohaku_program, data_ptr, n_data);
NEXT(drm_kohaku_program, n_data, data_pad);
NEXT(drm_kohaku_program, data_pad, peer_signals);
NEXT(drm_kohaku_program, peer_signals, peer_pad);
LAST(drm_kohaku_program, peer_pad, 56);
_Static_assert(END(drm_kohaku_program, reserved) == KOHAKU_PROGRAM_SIZE_MIN, "program 0.1 prefix moved");
FIRST(drm_kohaku_data, data_ptr);
NEXT(drm_kohaku_data, data_ptr, size);
NEXT(drm_kohaku_data, size, offset);
NEXT(drm_kohaku_data, offset, buf_id);
NEXT(drm_kohaku_data, buf_id, pad);
NEXT(drm_kohaku_data, pad, flags);
NEXT(drm_kohaku_data, flags, reserved);
LAST(drm_kohaku_data, reserved, 32);

FIRST(drm_kohaku_submit, flags);
NEXT(drm_kohaku_submit, flags, n_programs);
NEXT(drm_kohaku_submit, n_programs, programs_ptr);
NEXT(drm_kohaku_submit, programs_ptr, program_size);
NEXT(drm_kohaku_submit, program_size, timeout_ms);
NEXT(drm_kohaku_submit, timeout_ms, job_id);
NEXT(drm_kohaku_submit, job_id, reserved);
NEXT(drm_kohaku_submit, reserved, in_syncobjs_ptr);
NEXT(drm_kohaku_submit, in_syncobjs_ptr, n_in_syncobjs);
NEXT(drm_kohaku_submit, n_in_syncobjs, out_syncobj);
NEXT(drm_kohaku_submit, out_syncobj, bos_ptr);
NEXT(drm_kohaku_submit, bos_ptr, n_bos);
NEXT(drm_kohaku_submit, n_bos, refused_why);
NEXT(drm_kohaku_submit, refused_why, refused_program);
NEXT(drm_kohaku_submit, refused_program, refused_inst);
NEXT(drm_kohaku_submit, refused_inst, refused_operand);
NEXT(drm_kohaku_submit, refused_operand, refused_pad);
NEXT(drm_kohaku_submit, refused_pad, refused_addr);
NEXT(drm_kohaku_submit, refused_addr, refused_len);
LAST(drm_kohaku_submit, refused_len, 112);
/* ABI 0.1's SUBMIT ended at reserved, 0.2's at out_syncobj: grown at the end only */
_Static_assert(END(drm_kohaku_submit, reserved) == 48, "SUBMIT 0.1 prefix moved");
_Static_assert(END(drm_kohaku_submit, out_syncobj) == 64, "SUBMIT 0.2 prefix moved");

FIRST(drm_kohaku_job_bo, handle);
NEXT(drm_kohaku_job_bo, handle, flags);
NEXT(drm_kohaku_job_bo, flags, reserved);
LAST(drm_kohaku_job_bo, reserved, 16);

FIRST(drm_kohaku_get_param, param);
NEXT(drm_kohaku_get_param, param, index);
NEXT(drm_kohaku_get_param, index, value);
LAST(drm_kohaku_get_param, value, 16);

FIRST(drm_kohaku_wait, job_id);
NEXT(drm_kohaku_wait, job_id, timeout_ms);
NEXT(drm_kohaku_wait, timeout_ms, flags);
NEXT(drm_kohaku_wait, flags, status);
NEXT(drm_kohaku_wait, status, fault_code);
NEXT(drm_kohaku_wait, fault_code, fault_mesh);
NEXT(drm_kohaku_wait, fault_mesh, fault_x);
NEXT(drm_kohaku_wait, fault_x, fault_y);
NEXT(drm_kohaku_wait, fault_y, fault_flags);
NEXT(drm_kohaku_wait, fault_flags, n_faults);
NEXT(drm_kohaku_wait, n_faults, device_ns);
NEXT(drm_kohaku_wait, device_ns, reason);
NEXT(drm_kohaku_wait, reason, reason_pad);
NEXT(drm_kohaku_wait, reason_pad, reserved);
LAST(drm_kohaku_wait, reserved, 56);

FIRST(drm_kohaku_fw_load, image_ptr);
NEXT(drm_kohaku_fw_load, image_ptr, image_size);
NEXT(drm_kohaku_fw_load, image_size, flags);
NEXT(drm_kohaku_fw_load, flags, timeout_ms);
NEXT(drm_kohaku_fw_load, timeout_ms, n_units);
NEXT(drm_kohaku_fw_load, n_units, reason);
NEXT(drm_kohaku_fw_load, reason, detail);
NEXT(drm_kohaku_fw_load, detail, fw_version);
NEXT(drm_kohaku_fw_load, fw_version, fw_api);
NEXT(drm_kohaku_fw_load, fw_api, fail_mesh);
NEXT(drm_kohaku_fw_load, fail_mesh, fail_x);
NEXT(drm_kohaku_fw_load, fail_x, fail_y);
NEXT(drm_kohaku_fw_load, fail_y, pad);
NEXT(drm_kohaku_fw_load, pad, loaded_by);
NEXT(drm_kohaku_fw_load, loaded_by, boot_ns);
NEXT(drm_kohaku_fw_load, boot_ns, fail_trap);
NEXT(drm_kohaku_fw_load, fail_trap, reserved);
LAST(drm_kohaku_fw_load, reserved, 80);

/* ABI 0.5: DXA descriptor slots */
FIRST(drm_kohaku_dxa_desc, bo_handle);
NEXT(drm_kohaku_dxa_desc, bo_handle, flags);
NEXT(drm_kohaku_dxa_desc, flags, bo_offset);
NEXT(drm_kohaku_dxa_desc, bo_offset, size);
NEXT(drm_kohaku_dxa_desc, size, stride);
NEXT(drm_kohaku_dxa_desc, stride, tile);
NEXT(drm_kohaku_dxa_desc, tile, mstride);
NEXT(drm_kohaku_dxa_desc, mstride, rank);
NEXT(drm_kohaku_dxa_desc, rank, elem_bytes);
NEXT(drm_kohaku_dxa_desc, elem_bytes, pad);
NEXT(drm_kohaku_dxa_desc, pad, cfill);
NEXT(drm_kohaku_dxa_desc, cfill, reserved);
LAST(drm_kohaku_dxa_desc, reserved, 88);
FIRST(drm_kohaku_dxa_slot, flags);
NEXT(drm_kohaku_dxa_slot, flags, mesh);
NEXT(drm_kohaku_dxa_slot, mesh, x);
NEXT(drm_kohaku_dxa_slot, x, y);
NEXT(drm_kohaku_dxa_slot, y, slot);
NEXT(drm_kohaku_dxa_slot, slot, state);
NEXT(drm_kohaku_dxa_slot, state, pad);
NEXT(drm_kohaku_dxa_slot, pad, desc);
NEXT(drm_kohaku_dxa_slot, desc, table);
LAST(drm_kohaku_dxa_slot, table, 168);

/* 64-bit members are 8-aligned in the struct (same layout on i386) */
#define A8(s, m) _Static_assert(offsetof(struct s, m) % 8 == 0, #s "." #m " not 8-aligned")
A8(drm_kohaku_mesh_info, caps_reg);
A8(drm_kohaku_get_info, caps);
A8(drm_kohaku_get_info, mesh);
A8(drm_kohaku_node, caps_reg);
A8(drm_kohaku_nodes, nodes_ptr);
A8(drm_kohaku_bo_create, size);
A8(drm_kohaku_bo_create, dev_addr);
A8(drm_kohaku_bo_info, size);
A8(drm_kohaku_bo_rw, offset);
A8(drm_kohaku_bo_rw, data_ptr);
A8(drm_kohaku_program, insts_ptr);
A8(drm_kohaku_program, reserved);
A8(drm_kohaku_program, data_ptr);
A8(drm_kohaku_data, data_ptr);
A8(drm_kohaku_data, reserved);
A8(drm_kohaku_submit, programs_ptr);
A8(drm_kohaku_submit, job_id);
A8(drm_kohaku_submit, in_syncobjs_ptr);
A8(drm_kohaku_submit, bos_ptr);
A8(drm_kohaku_submit, refused_addr);
A8(drm_kohaku_submit, refused_len);
A8(drm_kohaku_job_bo, reserved);
A8(drm_kohaku_get_param, value);
A8(drm_kohaku_wait, device_ns);
A8(drm_kohaku_node, fw_boot_ns);
A8(drm_kohaku_node, fw_trap);
A8(drm_kohaku_fw_load, image_ptr);
A8(drm_kohaku_fw_load, boot_ns);
A8(drm_kohaku_dxa_desc, bo_offset);
A8(drm_kohaku_dxa_desc, reserved);
A8(drm_kohaku_dxa_slot, desc);
A8(drm_kohaku_clocks, ns_at);
A8(drm_kohaku_clocks, reserved);
A8(drm_kohaku_mesh_set, reserved);
A8(drm_kohaku_reset, device_ns);
A8(drm_kohaku_reset, reserved);
A8(drm_kohaku_mesh_lease, reserved);

/* the command numbers carry the struct sizes */
#define CMD(name, s) \
	_Static_assert(_IOC_SIZE(DRM_IOCTL_KOHAKU_##name) == sizeof(struct s), \
		       #name " size"); \
	_Static_assert(_IOC_DIR(DRM_IOCTL_KOHAKU_##name) == (_IOC_READ | _IOC_WRITE), \
		       #name " direction"); \
	_Static_assert(_IOC_NR(DRM_IOCTL_KOHAKU_##name) == DRM_COMMAND_BASE + DRM_KOHAKU_##name, \
		       #name " number")
CMD(GET_INFO, drm_kohaku_get_info);
CMD(NODES, drm_kohaku_nodes);
CMD(BO_CREATE, drm_kohaku_bo_create);
CMD(BO_FREE, drm_kohaku_bo_free);
CMD(BO_INFO, drm_kohaku_bo_info);
CMD(BO_WRITE, drm_kohaku_bo_rw);
CMD(BO_READ, drm_kohaku_bo_rw);
CMD(SUBMIT, drm_kohaku_submit);
CMD(WAIT, drm_kohaku_wait);
CMD(GET_PARAM, drm_kohaku_get_param);
CMD(FW_LOAD, drm_kohaku_fw_load);
CMD(DXA_ALLOC, drm_kohaku_dxa_slot);
CMD(DXA_FREE, drm_kohaku_dxa_slot);
CMD(DXA_SET, drm_kohaku_dxa_slot);
CMD(DXA_GET, drm_kohaku_dxa_slot);
CMD(CLOCKS, drm_kohaku_clocks);
CMD(MESH_SET, drm_kohaku_mesh_set);
CMD(RESET, drm_kohaku_reset);
CMD(MESH_LEASE, drm_kohaku_mesh_lease);

static void check_struct(const char *name, size_t size, size_t end_of_last,
			 size_t expect)
{
	CHECK_MSG(size == expect, "%s: sizeof %zu, expected %zu", name, size, expect);
	CHECK_MSG(end_of_last == size, "%s: last member ends at %zu of %zu",
		  name, end_of_last, size);
	CHECK_MSG(size % 8 == 0, "%s: size %zu not a multiple of 8", name, size);
}

#define CHECK_STRUCT(s, last, size) check_struct(#s, sizeof(struct s), END(s, last), size)

TEST_F(rt, layout_no_implicit_padding)
{
	CHECK_STRUCT(drm_kohaku_mesh_info, reserved, 56);
	CHECK_STRUCT(drm_kohaku_get_info, reserved, 312);
	CHECK_STRUCT(drm_kohaku_node, fw_trap, 72);
	CHECK_STRUCT(drm_kohaku_nodes, reserved, 40);
	CHECK_STRUCT(drm_kohaku_bo_create, reserved, 48);
	CHECK_STRUCT(drm_kohaku_bo_free, reserved, 24);
	CHECK_STRUCT(drm_kohaku_bo_info, reserved, 48);
	CHECK_STRUCT(drm_kohaku_bo_rw, reserved, 48);
	CHECK_STRUCT(kohaku_inst, w, 32);
	CHECK_STRUCT(drm_kohaku_program, peer_pad, 56);
	CHECK_STRUCT(drm_kohaku_data, reserved, 32);
	CHECK_STRUCT(drm_kohaku_submit, refused_len, 112);
	CHECK_STRUCT(drm_kohaku_job_bo, reserved, 16);
	CHECK_STRUCT(drm_kohaku_get_param, value, 16);
	CHECK_STRUCT(drm_kohaku_wait, reserved, 56);
	CHECK_STRUCT(drm_kohaku_fw_load, reserved, 80);
	CHECK_STRUCT(drm_kohaku_dxa_desc, reserved, 88);
	CHECK_STRUCT(drm_kohaku_dxa_slot, table, 168);
	CHECK_STRUCT(drm_kohaku_clocks, reserved, 128);
	CHECK_STRUCT(drm_kohaku_mesh_set, reserved, 48);
	CHECK_STRUCT(drm_kohaku_reset, reserved, 48);
	CHECK_STRUCT(drm_kohaku_mesh_lease, reserved, 24);
}

TEST_F(rt, layout_command_numbers)
{
	CHECK_EQ(_IOC_TYPE(DRM_IOCTL_KOHAKU_GET_INFO), DRM_IOCTL_BASE);
	CHECK_EQ(_IOC_SIZE(DRM_IOCTL_KOHAKU_GET_INFO), sizeof(struct drm_kohaku_get_info));
	CHECK_EQ(_IOC_SIZE(DRM_IOCTL_KOHAKU_WAIT), sizeof(struct drm_kohaku_wait));
	CHECK_EQ(_IOC_NR(DRM_IOCTL_KOHAKU_WAIT), DRM_COMMAND_BASE + 8);
	CHECK(DRM_COMMAND_BASE + DRM_KOHAKU_NUM_IOCTLS <= DRM_COMMAND_END);
}

TEST_F(rt, layout_constants)
{
	CHECK_EQ(KOHAKU_ABI_VERSION_MAJOR(KOHAKU_ABI_VERSION), KOHAKU_ABI_MAJOR);
	CHECK_EQ(sizeof(struct kohaku_inst), KH_PAYLOAD_BYTES);
	CHECK_EQ(KOHAKU_BO_ALIGN % KH_HOST_GRANULE, 0);
	/* the oldest element sizes the driver takes are ABI 0.1's */
	CHECK_EQ(KOHAKU_NODE_SIZE_MIN, 40);
	CHECK(sizeof(struct drm_kohaku_node) > KOHAKU_NODE_SIZE_MIN);
	CHECK_EQ(KOHAKU_PROGRAM_SIZE_MIN, 32);
	CHECK(sizeof(struct drm_kohaku_program) > KOHAKU_PROGRAM_SIZE_MIN);
	CHECK_EQ(KOHAKU_DATA_GRANULE, KH_PAYLOAD_BYTES);
	/* a slot's table is the unit's 64 bytes (docs/spec/dxa.md) */
	CHECK_EQ(sizeof(((struct drm_kohaku_dxa_slot *)0)->table), KH_DXA_SLOT_BYTES);
	CHECK_EQ(DRM_KOHAKU_MESH_LEASE, DRM_KOHAKU_NUM_IOCTLS - 1);
	CHECK_EQ(DRM_KOHAKU_MESH_LEASE, DRM_KOHAKU_RESET + 1);
	CHECK_EQ(KOHAKU_LEASE_TAKE & KOHAKU_LEASE_GIVE, 0);
	/* the profiles are the wizard's divides (kohakutpu.md 8.5) */
	CHECK_EQ(KOHAKU_CLK_PROFILE_SHIP + 1, KH_CLK_PROFILES);
	CHECK_EQ(KH_CLK_VCO_MHZ / KH_CLK_PROFILE_DIV(KOHAKU_CLK_PROFILE_LOW, KH_CLK_OUT_NOC), 100);
	CHECK_EQ(KH_CLK_VCO_MHZ / KH_CLK_PROFILE_DIV(KOHAKU_CLK_PROFILE_MID, KH_CLK_OUT_MAT2X), 400);
	CHECK_EQ(KH_CLK_VCO_MHZ / KH_CLK_PROFILE_DIV(KOHAKU_CLK_PROFILE_SHIP, KH_CLK_OUT_MAG), 300);
}

RT_TEST_MAIN_NO_DEVICE

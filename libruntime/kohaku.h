/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * libkohaku: the userspace runtime for KohakuAccel cards.
 *
 * One API, two backends that speak the same ioctl ABI
 * (uapi/drm/kohaku_accel.h):
 *
 *   kernel  ioctl(2) on a kohaku device node, /dev/accel/accelN (before
 *           Linux 6.2, which brought DRM accel, a DRM render node,
 *           /dev/dri/renderDN)
 *   sim     the device model and the driver core, in this process
 *
 * Conventions (docs/runtime.md):
 *  - every call that can fail returns 0 or a negative errno;
 *  - after a failed call on a device, kohaku_last_error(dev) says what
 *    failed, why, and what to do, in words (the driver's own reason
 *    included when the backend can see it);
 *  - calls that have no device yet (open, list) write that message into a
 *    caller buffer instead;
 *  - handles are opaque; the library keeps no global state besides the
 *    read-only tables of built-in card descriptions;
 *  - a device may be used from several threads at once; the last-error
 *    message is kept per device and per thread.
 *
 * Environment (read by kohaku_open() with KOHAKU_BACKEND_ENV, and by the
 * CLI): KOHAKU_BACKEND=sim|kernel, KOHAKU_DEVICE (kernel: node path or
 * index; sim: built-in description name or description file), KOHAKU_LOG
 * (print the driver core's messages to stderr: err, warn, info or debug;
 * another value logs at info and is warned about once),
 * KOHAKU_PCI_MATCH (ids kohaku_pci_list() lists besides KohakuAccel's).
 */
#ifndef KOHAKU_H
#define KOHAKU_H

#include <stddef.h>
#include <stdint.h>

#include "drm/kohaku_accel.h"

#if defined(__cplusplus)
extern "C" {
#endif

/*
 * libkohaku's version, the one this header belongs to: the library's
 * release (kohaku.pc's Version, "pkg-config --modversion kohaku"), not
 * the ABI of the driver (KOHAKU_ABI_MAJOR/MINOR, drm/kohaku_accel.h; what
 * a device runs: kohaku_get_info()'s abi_version) nor the kohaku CLI's
 * ("kohaku --version" prints all three).  The soname, libkohaku.so.0,
 * follows the major.
 */
#define KOHAKU_LIB_VERSION_MAJOR	0
#define KOHAKU_LIB_VERSION_MINOR	2
#define KOHAKU_LIB_VERSION_PATCH	0

/*
 * The version of the libkohaku running, as "MAJOR.MINOR.PATCH" ("0.2.0"):
 * a dynamically linked program asks which library ld.so gave it (the
 * macros above are the header it was built with).  A static string,
 * never NULL; any thread, no device needed.
 */
const char *kohaku_version(void);

/*
 * Caller-sized structs.  A call that fills a struct this library may grow
 * in a later release takes the caller's sizeof of it, right after the
 * pointer (kohaku_get_info, kohaku_nodes and kohaku_nodes_alloc: a node's
 * size, the stride, kohaku_list_devices and kohaku_pci_list: an entry's,
 * kohaku_bo_info, kohaku_fw_info, kohaku_fw_load, kohaku_fw_load_file,
 * kohaku_wait, kohaku_run, kohaku_dxa_get, kohaku_clocks,
 * kohaku_mesh_reset, kohaku_artifact_info, kohaku_artifact_run; and
 * kohaku_job_describe reads no more of a status than its size): the
 * library writes min(its size, the caller's) bytes and zeroes the rest of
 * a bigger caller struct, and an array's entries are the caller's size
 * apart (free it as before).  A NULL pointer takes any size; a size of 0
 * with a pointer is -EINVAL.  So a program built against this header
 * keeps working, unchanged and unrebuilt, with a newer libkohaku.so.0,
 * whose structs are bigger; and one built against a newer header with an
 * older (0.2 or later) library sees zeroes in the fields that library
 * does not know.  Binaries linked against libkohaku 0.1 (version node
 * KOHAKU_0), whose calls took no size, keep their entry points: the
 * library exports both (symbol versioning, docs/runtime.md "Binary
 * compatibility").
 */

/* Size of a buffer that holds any message the library produces. */
#define KOHAKU_ERRMSG_MAX	1024

typedef struct kohaku_device kohaku_device;

enum kohaku_backend {
	KOHAKU_BACKEND_ENV = 0,	/* from KOHAKU_BACKEND; kernel when unset */
	KOHAKU_BACKEND_KERNEL = 1,
	KOHAKU_BACKEND_SIM = 2,
	KOHAKU_BACKEND_DAEMON = 3,	/* a card kohakud holds (docs/kohakud.md) */
};

/* "kernel", "sim", "daemon" or "env". */
const char *kohaku_backend_name(enum kohaku_backend backend);
/* Parse "kernel" / "sim" / "daemon"; returns -EINVAL for anything else. */
int kohaku_backend_parse(const char *s, enum kohaku_backend *out);

/* ---- open and close ---- */

/*
 * Open a device.
 *
 * backend KOHAKU_BACKEND_ENV reads KOHAKU_BACKEND ("kernel" or "sim");
 * unset means kernel.  device NULL reads KOHAKU_DEVICE.  Then:
 *
 *  kernel: device is a node path ("/dev/accel/accel0"; before Linux 6.2
 *          "/dev/dri/renderD128"), a node name ("accel0", "renderD128")
 *          or a number ("0": the node of that number of the kind this
 *          kernel makes); NULL/unset means the first kohaku node under
 *          /dev/accel (/dev/dri).  The node must belong to the "kohaku"
 *          DRM driver (drmGetVersion).
 *  sim:    device is a built-in card description name ("saxpy",
 *          "sx_null_2x2"), a path to a description file, or description
 *          text itself (anything containing a newline).  Required.
 *
 * Every open ends with GET_INFO: a driver whose ABI major differs from
 * KOHAKU_ABI_MAJOR is refused (-EPROTO).  There is never a fallback from one
 * backend to the other.  On failure *out is NULL and, when err is not NULL,
 * err holds the reason (errlen bytes at most, NUL-terminated).
 *
 * Errors: -EINVAL bad backend or device string, -ENOENT no such node or
 * description, -ENODEV not a kohaku device / no kohaku device, -EACCES
 * permission, -EPROTO ABI mismatch, other negative errnos from the backend.
 */
int kohaku_open(enum kohaku_backend backend, const char *device,
		kohaku_device **out, char *err, size_t errlen);

/*
 * Open another, independent file on the same device (the same node, the
 * same simulated card): its buffer objects and jobs are its own and are
 * invisible to the first one's.
 */
int kohaku_reopen(kohaku_device *dev, kohaku_device **out);

/* Close; frees the file's buffer objects and forgets its jobs.  NULL is ok. */
void kohaku_close(kohaku_device *dev);

/*
 * The reason for the last failed call on dev by the calling thread ("" when
 * none).  Valid until that thread's next call on dev.
 */
const char *kohaku_last_error(const kohaku_device *dev);

/* A short description of a (positive or negative) errno, kohaku's words. */
const char *kohaku_strerror(int err);
/* Name of a KOHAKU_JOB_* status ("DONE", "FAULT", ...). */
const char *kohaku_job_status_name(unsigned int status);

/* Which backend dev uses, and what it was opened as (path or description). */
enum kohaku_backend kohaku_device_backend(const kohaku_device *dev);
const char *kohaku_device_path(const kohaku_device *dev);
/* The kernel backend's file descriptor; -1 on the sim backend. */
int kohaku_device_fd(const kohaku_device *dev);

/* ---- listing ---- */

struct kohaku_device_entry {
	enum kohaku_backend backend;
	int index;		/* N of /dev/accel/accelN (/dev/dri/renderDN); -1 for sim */
	int status;		/* 0: a usable kohaku device; else -errno */
	char path[64];		/* node path, or "sim:NAME" */
	char driver[32];	/* DRM driver name ("kohaku", "ivpu", ...) */
	char name[32];		/* GET_INFO name when usable */
	unsigned int n_meshes;	/* when usable */
	unsigned int n_nodes;
	char message[256];	/* why status != 0, in words */
};

/*
 * List devices.  kernel: every node under /dev/accel, kohaku or not, and
 * the render nodes under /dev/dri that are kohaku's (before Linux 6.2),
 * each with its status and reason (so "0 devices" always comes with a why).
 * sim: the device named by KOHAKU_DEVICE when set, else every built-in card
 * description.  KOHAKU_BACKEND_ENV lists what KOHAKU_BACKEND selects.
 * *list is malloc'ed (free with kohaku_free_device_list); *count entries.
 * Returns 0 even when nothing usable was found; a negative errno only when
 * listing itself failed (err says why).
 */
int kohaku_list_devices(enum kohaku_backend backend,
			struct kohaku_device_entry **list, unsigned int *count,
			size_t entry_size, char *err, size_t errlen);
void kohaku_free_device_list(struct kohaku_device_entry *list);

/* Built-in simulated card descriptions: NULL-terminated names, and text. */
const char *const *kohaku_sim_builtin_names(void);
const char *kohaku_sim_builtin_desc(const char *name);

/* ---- PCI functions: the cards on the bus, bound to a driver or not ---- */

/* kohaku_pci_entry.bar[].flags */
#define KOHAKU_PCI_BAR_IO		(1u << 0)	/* an I/O port BAR */
#define KOHAKU_PCI_BAR_64		(1u << 1)	/* 64-bit memory BAR */
#define KOHAKU_PCI_BAR_PREFETCH		(1u << 2)	/* prefetchable */

/* ids kohaku_pci_list() takes from match or KOHAKU_PCI_MATCH, at most */
#define KOHAKU_PCI_MATCH_MAX		16

struct kohaku_pci_bar {
	uint64_t size;		/* bytes; 0: not implemented or not assigned */
	uint32_t flags;		/* KOHAKU_PCI_BAR_* */
};

struct kohaku_pci_entry {
	char address[16];	/* domain:bus:dev.fn, "0000:01:00.0" */
	uint32_t domain;
	uint8_t bus, dev, func;
	uint8_t revision;
	uint16_t vendor, device;	/* 0x10ee, 0x903f for a KohakuAccel card */
	uint16_t subvendor, subdevice;	/* 0x10ee, 0x0007 for one */
	uint32_t class_code;	/* base class << 16 | subclass << 8 | prog-if */
	int kohaku_ids;		/* 1: KohakuAccel's 10ee:903f; 0: an added id */
	struct kohaku_pci_bar bar[6];
	/*
	 * The PCIe link as sysfs reports it (current_link_speed, ..._width,
	 * max_link_speed, ..._width): "8.0 GT/s" and 16.  "" and 0 when the
	 * function has no PCIe capability (conventional PCI).
	 */
	char link_speed[24];
	unsigned int link_width;
	char max_link_speed[24];
	unsigned int max_link_width;
	char driver[32];	/* the bound driver's name; "" when none */
	int accel_index;	/* kohaku bound: N of its node; else -1 */
	char accel[32];		/* "/dev/accel/accelN" (before Linux 6.2
				 * "/dev/dri/renderDN"), or "" */
	int status;		/* 0: kohaku bound, with a node; else -errno */
	char message[320];	/* why status != 0, in words, with what to do */
};

/*
 * List the PCI functions with KohakuAccel's ids, vendor:device 10ee:903f
 * (any subsystem, as kohaku.ko binds them), bound to a driver or not,
 * through libpciaccess and sysfs; nothing is opened or written.
 *
 * match adds ids (tests use stand-in functions): "VVVV:DDDD" or
 * "VVVV:DDDD:SVVV:SDDD" (with the subsystem), hexadecimal, separated by
 * commas, at most KOHAKU_PCI_MATCH_MAX; NULL reads KOHAKU_PCI_MATCH, "" adds
 * none.  Per function: address, ids, revision, class, BAR sizes, the PCIe
 * link, the bound driver, the accel node when kohaku.ko is bound, and in
 * message why it is not usable ("no driver bound: modprobe kohaku", "bound
 * to vfio-pci, not kohaku: ...").  status: -ENODEV no driver bound,
 * -EBUSY another driver bound, -ENOENT kohaku bound without an accel node.
 * *list is malloc'ed (kohaku_free_pci_list), sorted by address.
 *
 * Returns 0 with *count 0 when no function matches (err then says so);
 * -EINVAL for a malformed id list (err names it), -ENOENT when there is no
 * /sys/bus/pci (no PCI bus, or sysfs not mounted), other -errno when
 * libpciaccess cannot read the bus; err says why.  libpciaccess keeps its
 * state in a process-wide variable: the call sets it up and tears it down,
 * serialised against itself, so it must not run while the caller uses
 * libpciaccess itself.
 */
int kohaku_pci_list(const char *match, struct kohaku_pci_entry **list,
		    unsigned int *count, size_t entry_size, char *err,
		    size_t errlen);
void kohaku_free_pci_list(struct kohaku_pci_entry *list);
/*
 * The link in words: "8.0 GT/s x16", "2.5 GT/s x1 (max 8.0 GT/s x16)" when
 * it runs below the function's maximum (a narrower or slower slot), "-"
 * with no PCIe link.
 */
const char *kohaku_pci_link_describe(const struct kohaku_pci_entry *e,
				     char *buf, size_t len);
/* The BARs in words: "BAR0 16 MiB, BAR2 64 KiB (64-bit, prefetchable)"; "-" */
const char *kohaku_pci_bars_describe(const struct kohaku_pci_entry *e,
				     char *buf, size_t len);

/* ---- capabilities and nodes ---- */

/*
 * GET_INFO as read at open (copied), size bytes of it: pass sizeof(*out).
 * Never fails on an open device (-EINVAL for a NULL out or size 0).
 */
int kohaku_get_info(kohaku_device *dev, struct drm_kohaku_get_info *out,
		    size_t size);

/*
 * The enumerated node table.  flags: KOHAKU_NODES_LIVE re-reads status and
 * counters.  Copies min(count, capacity) entries, each node_size bytes
 * apart and node_size long: pass sizeof(struct drm_kohaku_node), at least
 * KOHAKU_NODE_SIZE_MIN (-EINVAL).  *count gets the total.  nodes may be
 * NULL with capacity 0 to ask for the count.
 */
int kohaku_nodes(kohaku_device *dev, unsigned int flags,
		 struct drm_kohaku_node *nodes, unsigned int capacity,
		 size_t node_size, unsigned int *count);
/*
 * Convenience: a malloc'ed copy of the whole table (free()), *count
 * entries of node_size bytes (sizeof(struct drm_kohaku_node)).
 */
int kohaku_nodes_alloc(kohaku_device *dev, unsigned int flags,
		       struct drm_kohaku_node **nodes, size_t node_size,
		       unsigned int *count);

/* cu_type as text: "SX", "null" for 0, else the ASCII or "0xNNNN". */
const char *kohaku_cu_type_name(uint16_t cu_type, char *buf, size_t len);

/* ---- device memory ---- */

struct kohaku_bo_info {
	uint32_t handle;
	uint32_t mesh;
	uint64_t size;		/* rounded up to KOHAKU_BO_ALIGN */
	uint64_t dev_addr;	/* the address units use */
};

int kohaku_bo_create(kohaku_device *dev, unsigned int mesh, uint64_t size,
		     uint32_t *handle, uint64_t *dev_addr);
/*
 * A BO at a fixed device address (ABI 0.9, KOHAKU_CAP_BO_FIXED): a
 * compiler's arena, whose artifacts carry absolute addresses.  dev_addr
 * is the address units use (mesh << 36 | local offset), 4 KiB-aligned.
 * -EBUSY when any of the range is taken (by any open file), -EINVAL when
 * it is misaligned, names another mesh or lies outside the mesh's memory,
 * -EOPNOTSUPP on a driver older than 0.9; the last error says which.
 */
int kohaku_bo_create_at(kohaku_device *dev, unsigned int mesh,
			uint64_t dev_addr, uint64_t size, uint32_t *handle);
int kohaku_bo_free(kohaku_device *dev, uint32_t handle);
/* size: sizeof(*out), the caller's (see "Caller-sized structs" above) */
int kohaku_bo_info(kohaku_device *dev, uint32_t handle,
		   struct kohaku_bo_info *out, size_t size);
/* Any offset and size inside the BO; partial 32-byte words are merged. */
int kohaku_bo_write(kohaku_device *dev, uint32_t handle, uint64_t offset,
		    const void *data, uint64_t size);
int kohaku_bo_read(kohaku_device *dev, uint32_t handle, uint64_t offset,
		   void *data, uint64_t size);

/* ---- instruction builders ---- */

/*
 * SX unit, raw: any opcode, any n that fits its 24 bits, any addresses (to
 * provoke faults: n > KH_SX_N_MAX retires KH_SX_FAULT_TOO_BIG, another
 * opcode KH_SX_FAULT_BAD_OP).  a_bits is the binary32 bit pattern.
 * Returns -EINVAL when n or the opcode does not fit its field.
 */
int kohaku_inst_sx(struct kohaku_inst *inst, unsigned int opcode, uint32_t n,
		   uint32_t a_bits, uint64_t x_addr, uint64_t y_addr);
/*
 * SX saxpy, checked: y[0:n] = a * x[0:n] + y[0:n] as the unit computes it
 * (kohaku_sx_element()).  Returns -EINVAL when n > KH_SX_N_MAX (64: a longer
 * vector is one instruction per 64 elements) or an address is not 32-byte
 * aligned (the unit does not check: memory is read and written in whole
 * 32-byte words, so an unaligned address works on the word it falls in).
 */
int kohaku_inst_saxpy(struct kohaku_inst *inst, uint32_t n, float a,
		      uint64_t x_addr, uint64_t y_addr);

/* What an SX unit computes per element (docs/spec/units.md). */
enum kohaku_sx_datapath {
	/* saxpy_cu on the card: i2f(f2i(a) * f2i(x) + f2i(y)), 32-bit integers */
	KOHAKU_SX_DATAPATH_RTL = 0,
	/* the model's declared variant (param sx_fma 1): binary32 fmaf */
	KOHAKU_SX_DATAPATH_FMA = 1,
};
/* The datapath of an SX node, from its CU_DBG as NODES reported it. */
enum kohaku_sx_datapath kohaku_sx_datapath_of(const struct drm_kohaku_node *nd);
/* "integer datapath (saxpy_cu)" or "binary32 FMA (model variant)" */
const char *kohaku_sx_datapath_name(enum kohaku_sx_datapath dp);
/*
 * One element's new y on the host, bit for bit what a unit with that
 * datapath writes (NaN results of the FMA as 0x7fc00000, as the model).
 */
uint32_t kohaku_sx_element(enum kohaku_sx_datapath dp, uint32_t a_bits,
			   uint32_t x_bits, uint32_t y_bits);
/* Decode an SX instruction (any field pointer may be NULL). */
void kohaku_inst_sx_decode(const struct kohaku_inst *inst,
			   unsigned int *opcode, uint32_t *n,
			   uint32_t *a_bits, uint64_t *x_addr,
			   uint64_t *y_addr);

/* null unit: payload = eight 32-bit words, word k = payload [32k+31:32k]. */
void kohaku_inst_null(struct kohaku_inst *inst, const uint32_t words[8]);
/* The null unit's exec_result for inst: XOR of the eight words. */
uint32_t kohaku_inst_null_result(const struct kohaku_inst *inst);

/*
 * POOL unit, firmware API 1.1 (docs/spec/pool.md "Jobs for the firmware";
 * the KH_POOL_K_* kernels of uapi/kohaku/kh_pool.h).  Mesh addresses are
 * BO dev_addrs plus offsets.  The checked builders return -EINVAL when an
 * address is not 32-byte aligned or a length breaks the kernel's rule.
 * args[k] is payload word k (w0..w6); the raw builder takes any kernel id.
 */
void kohaku_inst_pool(struct kohaku_inst *inst, unsigned int kernel,
		      const uint32_t args[7]);
/* PING: retires with value ^ KH_POOL_PING_XOR */
int kohaku_inst_pool_ping(struct kohaku_inst *inst, uint32_t value);
/* COPY: dst = src, bytes a multiple of 32 */
int kohaku_inst_pool_copy(struct kohaku_inst *inst, uint64_t src,
			  uint64_t dst, uint32_t bytes);
/* FILL: dst = the 32-bit pattern repeated, bytes a multiple of 32 */
int kohaku_inst_pool_fill(struct kohaku_inst *inst, uint64_t dst,
			  uint32_t pattern, uint32_t bytes);
/* CRC32 (zlib's) of bytes (any count) at src; the u32 lands at result */
int kohaku_inst_pool_crc32(struct kohaku_inst *inst, uint64_t src,
			   uint64_t result, uint32_t bytes);
/* VADD_I32: c[i] = a[i] + b[i], n int32 elements, a multiple of 8 */
int kohaku_inst_pool_vadd_i32(struct kohaku_inst *inst, uint64_t a,
			      uint64_t b, uint64_t c, uint32_t n);
/* SUM_I64: the int64 sum of n elements (a multiple of 4) at result */
int kohaku_inst_pool_sum_i64(struct kohaku_inst *inst, uint64_t src,
			     uint64_t result, uint32_t n);
/* HIST256: 256 u32 counts of the byte values of bytes (any count) at src */
int kohaku_inst_pool_hist256(struct kohaku_inst *inst, uint64_t src,
			     uint64_t result, uint32_t bytes);
/*
 * API 1.1, on the cores' vector unit.  GEMV_I8: y (m int32) = A x, A m x k
 * int8 in panels of 64 rows, each column-major (byte (p k + j) 64 + r =
 * A[64 p + r][j]), x k int8; m a multiple of 64, k of 4, k <= 4096
 */
int kohaku_inst_pool_gemv_i8(struct kohaku_inst *inst, uint64_t a,
			     uint64_t x, uint64_t y, uint32_t m, uint32_t k);
/* AXPY_F32: y = a x + y, binary32, one rounding (fmaf); n a multiple of 16 */
int kohaku_inst_pool_axpy_f32(struct kohaku_inst *inst, uint64_t x,
			      uint64_t y, float a, uint32_t n);
/* SOFTMAX_F32: rows of l floats (l a multiple of 16, <= 1024), src to dst */
int kohaku_inst_pool_softmax_f32(struct kohaku_inst *inst, uint64_t src,
				 uint64_t dst, uint32_t l, uint32_t rows);
/* COPY_U: dst = src, any byte addresses and count, nothing else changed */
int kohaku_inst_pool_copy_u(struct kohaku_inst *inst, uint64_t src,
			    uint64_t dst, uint32_t bytes);
/* DELAY: busy for that many cycles, then retires */
int kohaku_inst_pool_delay(struct kohaku_inst *inst, uint32_t cycles);
/* TRAP: core (0..7) traps on purpose, how = KH_POOL_TRAP_* */
int kohaku_inst_pool_trap(struct kohaku_inst *inst, unsigned int core,
			  unsigned int how);
/* A POOL unit's SIG_FAULT code in words ("trap: core 3, illegal instruction") */
const char *kohaku_pool_fault_describe(uint32_t code, char *buf, size_t len);

/*
 * mat unit, the matmul cluster (cu_type 'MG', docs/spec/mat.md; fields as
 * uapi/kohaku/kh_mat.h places them).  Every CU_INST field, by the spec's
 * name; counts where 0 means 1 (n, gm, gn, nk) are taken as written.
 * addr is the 40-bit mesh address {addr_hi, addr_lo}; peers is 3 x {y,x},
 * peer p in bits [8p+7:8p].
 */
struct kohaku_mat_fields {
	uint64_t addr;		/* FILL source; DRAIN / emitting GEMM target */
	uint32_t n;		/* FILL entries; DRAIN sub-tiles */
	uint32_t peers;		/* FILL: 3 x {y,x} */
	uint8_t sel;		/* FILL: 0 = L1 A, 1 = L1 B */
	uint8_t fbank;		/* FILL: L1 bank written */
	uint8_t eoff;		/* FILL: first L1 entry */
	uint8_t preq;		/* FILL: already MXFP7, no QUANT */
	uint8_t npeer;		/* FILL: peers present, 0..3 */
	uint8_t acc;		/* GEMM: accumulate, no LOAD */
	uint8_t gm, gn, nk;	/* GEMM: row groups, column groups, K blocks */
	uint8_t anchor;		/* GEMM: output exponent anchor (40: true values) */
	uint8_t aoff, boff;	/* GEMM: base entries in L1 A and B */
	uint8_t abank, bbank;	/* GEMM: L1 banks */
	uint8_t emit;		/* GEMM: hand the last K blocks out */
	uint8_t fuse;		/* DRAIN: wait for the emitted sub-tiles */
	uint8_t dnode;		/* DRAIN: CU_DATA to a node, not memory */
	uint8_t dst_x, dst_y;	/* DRAIN: that node */
	uint8_t dbuf, dflags;	/* DRAIN: its buffer id, descriptor flags */
	uint8_t dack_y, dack_x;	/* DRAIN: where its SIG_DATA_RECEIVED goes */
	uint8_t dmesh, dfin;	/* DRAIN: far mesh, {fin_y, fin_x} (0: local) */
};

/*
 * FILL's entry limit: n >= 256 never retires on the card (mat.md "FILL").
 * A FILL of n entries has 4n response beats outstanding at once, and the
 * port contract (the model's checker, rule 9) wants them within the unit's
 * receive FIFO: 512 on the shipped tops, so n <= KOHAKU_MAT_FILL_SHIP
 * there; fewer on a card with a shallower one (recv_depth / 4).
 */
#define KOHAKU_MAT_FILL_MAX	255
#define KOHAKU_MAT_FILL_SHIP	128

/*
 * Raw: any opcode that fits 4 bits (others than KH_MAT_OP_* retire as
 * no-ops), every field only checked to fit its width.  -EINVAL otherwise.
 */
int kohaku_inst_mat(struct kohaku_inst *inst, unsigned int op,
		    const struct kohaku_mat_fields *f);
/*
 * Checked builders: every field fits, and the fields the opcode does not
 * read are 0 (a field meant for another opcode is a mistake), else
 * -EINVAL.  Besides:
 *  FILL:  n <= KOHAKU_MAT_FILL_MAX, addr 32-byte aligned, no peer past
 *         npeer;
 *  GEMM:  gm*gn <= KH_MAT_TILES, gm*nk and gn*nk <= KH_MAT_BANK (the
 *         tile addresses and L1 entries wrap: none is used twice); addr
 *         and the destination fields only with emit;
 *  DRAIN: n <= KH_MAT_TILES; addr 32-byte aligned; dmesh only with dfin.
 *  (GEMM with emit follows DRAIN's destination rules.)
 */
int kohaku_inst_mat_fill(struct kohaku_inst *inst,
			 const struct kohaku_mat_fields *f);
int kohaku_inst_mat_gemm(struct kohaku_inst *inst,
			 const struct kohaku_mat_fields *f);
int kohaku_inst_mat_drain(struct kohaku_inst *inst,
			  const struct kohaku_mat_fields *f);
/* Decode: returns the opcode, and every field in *f (may be NULL). */
unsigned int kohaku_inst_mat_decode(const struct kohaku_inst *inst,
				    struct kohaku_mat_fields *f);

/*
 * One GEMM block on one mat unit: C (m x n) = A (m x k) . B (k x n), FP16
 * (binary16 bit patterns), row-major.  m and n multiples of 4 (KH_MAT_SUB),
 * k of 32 (KH_MAT_KBLOCK), with (m/4)*(k/32) and (n/4)*(k/32) at most
 * KH_MAT_BANK (each operand in one L1 bank) and (m/4)*(n/4) at most
 * KH_MAT_TILES; kohaku_mat_shape_check() says 0 or -EINVAL.
 *
 * Device layouts: A as m/4 x k/32 entries of 128 FP16 (entry g*(k/32)+kb:
 * rows 4g..4g+3, 32 K each, K-contiguous), B as n/4 x k/32 entries
 * (columns 4h..4h+3, K-contiguous); the drained C is (m/4)*(n/4) row-major
 * 4x4 sub-tiles of 32 bytes, sub-tile g*(n/4)+h.  pack_a / pack_b write
 * m*k / k*n values, unpack_c reads m*n.
 */
int kohaku_mat_shape_check(unsigned int m, unsigned int n, unsigned int k);
int kohaku_mat_pack_a(const uint16_t *a, unsigned int m, unsigned int k,
		      uint16_t *out);
int kohaku_mat_pack_b(const uint16_t *b, unsigned int k, unsigned int n,
		      uint16_t *out);
int kohaku_mat_unpack_c(const uint16_t *tiles, unsigned int m, unsigned int n,
			uint16_t *c);
/*
 * The program, into insts[0..cap): FILL A (packed, at a_addr) into L1 A
 * entries from 0 of bank 0 and B (b_addr) into L1 B, through MAG's QUANT
 * path, in FILLs of at most fill_max entries (0: KOHAKU_MAT_FILL_SHIP;
 * at most KOHAKU_MAT_FILL_MAX); one GEMM (anchor 40, LOAD); a DRAIN of the
 * (m/4)*(n/4) sub-tiles as FP16 to c_addr.  Returns the instruction count
 * (4 when each operand fits one FILL; KOHAKU_MAT_PROGRAM_MAX at most),
 * -EINVAL (shape, fill_max, an address not 32-byte aligned), -ENOSPC (cap).
 * Each retirement's exec_result counts the FILLs, GEMMs and DRAINs the unit
 * retired so far.
 */
#define KOHAKU_MAT_PROGRAM_MAX	514	/* 2 x 256 FILLs of one entry, GEMM, DRAIN */
int kohaku_mat_gemm_program(struct kohaku_inst *insts, unsigned int cap,
			    uint64_t a_addr, uint64_t b_addr, uint64_t c_addr,
			    unsigned int m, unsigned int n, unsigned int k,
			    unsigned int fill_max);
/*
 * The host reference of that program, bit for bit what the unit drains:
 * MAG's FP16 -> MXFP7 quantiser per 32-element K block of each row of A
 * and column of B (docs/spec/mxfp7.md), exact integer dot products per
 * block, the pumped merge of two K blocks, FP22 accumulation and FP16
 * rounding (flush, saturation) as docs/spec/mat.md defines them.
 * Returns 0, -EINVAL (shape, NULL), -ENOMEM.
 */
int kohaku_mat_gemm_ref(const uint16_t *a, const uint16_t *b, unsigned int m,
			unsigned int n, unsigned int k, uint16_t *c);

/*
 * vec unit, the vector core (cu_type 'VC', docs/spec/vec.md; every constant
 * in uapi/kohaku/kh_vec.h).  A kernel is loaded and started with three
 * CU_INST opcodes: IMEM writes one 32-bit kernel word at an IMEM address
 * (0..511), DESC one field of a descriptor (0..7), RUN starts the kernel at
 * a pc; IMEM and DESC retire with exec_result 0, RUN when the kernel halts
 * with exec_result = its cycle count (also CU_DBG[31:0], NODES' dbg), or
 * faults with the kernel's KH_VEC_F_* code.  Every builder checks that its
 * fields fit and returns -EINVAL (nothing written) when one does not.
 */
/* IMEM: the kernel word at IMEM address addr (< KH_VEC_IMEM_WORDS) */
int kohaku_inst_vec_imem(struct kohaku_inst *inst, unsigned int addr,
			 uint32_t word);
/*
 * DESC: field fld (0..7: KH_VEC_FLD_BASE, KH_VEC_FLD_DIM(k); 5-7 write
 * nothing) of descriptor ad (< KH_VEC_DESCS) = value (< 2^40; the unit
 * takes value[33:0] from [245:212] and value[39:34] from [68:63]).
 */
int kohaku_inst_vec_desc(struct kohaku_inst *inst, unsigned int ad,
			 unsigned int fld, uint64_t value);
/* DESC of the 40-bit base (a DRAM address, or an L1 word for VLD/VST) */
int kohaku_inst_vec_desc_base(struct kohaku_inst *inst, unsigned int ad,
			      uint64_t base);
/*
 * DESC of dimension dim (0..3, 0 the fastest): stride (signed 18 bits,
 * bytes for VFILL/VDRAIN, L1 words otherwise) and bound (entries, 0..65535;
 * the unit reads 0 as 1).
 */
int kohaku_inst_vec_desc_dim(struct kohaku_inst *inst, unsigned int ad,
			     unsigned int dim, int32_t stride, uint32_t bound);
/* n IMEM instructions: words[i] at address at + i (at + n <= 512) */
int kohaku_inst_vec_imem_words(struct kohaku_inst *insts, unsigned int at,
			       const uint32_t *words, unsigned int n);
/* RUN: start the kernel at pc (< KH_VEC_IMEM_WORDS) */
int kohaku_inst_vec_run(struct kohaku_inst *inst, unsigned int pc);
/*
 * Any CU opcode (0..15) with the address field (9 bits): 0 and 4-15
 * retire as no-ops with result 0.
 */
int kohaku_inst_vec_raw(struct kohaku_inst *inst, unsigned int opcode,
			unsigned int addr);
/* Decode a vec CU_INST (any field pointer may be NULL). */
void kohaku_inst_vec_decode(const struct kohaku_inst *inst,
			    unsigned int *opcode, unsigned int *addr,
			    uint32_t *word, unsigned int *ad,
			    unsigned int *fld, uint64_t *value);

/*
 * Kernel words (docs/spec/vec.md "The kernel word").  The ALU form, any
 * opcode (0..31), every field checked against its width: sources sa, sb,
 * sc are KH_VEC_SRC_*, registers 0..15, pr 0..3, pm KH_VEC_PM_* (0..3).
 */
struct kohaku_vec_alu {
	uint8_t op;
	uint8_t vd, va, vb, vc;
	uint8_t sa, sb, sc;
	uint8_t pr, pm;
};
int kohaku_vec_alu(uint32_t *w, const struct kohaku_vec_alu *f);
/*
 * The addressed form, any opcode: dtype (0..7), descriptor ad (0..7), vd,
 * and the signed 14-bit offset (-8192..8191).
 */
int kohaku_vec_mem(uint32_t *w, unsigned int op, unsigned int dtype,
		   unsigned int ad, unsigned int vd, int32_t off);
/*
 * Elementwise ops on vector registers, every lane below VL (FLAT mode):
 * vd = va + vb, va - vb, va * vb, max, min, and va * vb + vc.  The unit
 * reads VADD's and VSUB's second operand from the vc field (vec.md: VADD
 * is a + c); these builders name vb there, and in vb as well.
 */
int kohaku_vec_vadd(uint32_t *w, unsigned int vd, unsigned int va,
		    unsigned int vb);
int kohaku_vec_vsub(uint32_t *w, unsigned int vd, unsigned int va,
		    unsigned int vb);
int kohaku_vec_vmul(uint32_t *w, unsigned int vd, unsigned int va,
		    unsigned int vb);
int kohaku_vec_vmax(uint32_t *w, unsigned int vd, unsigned int va,
		    unsigned int vb);
int kohaku_vec_vmin(uint32_t *w, unsigned int vd, unsigned int va,
		    unsigned int vb);
int kohaku_vec_vfma(uint32_t *w, unsigned int vd, unsigned int va,
		    unsigned int vb, unsigned int vc);
/*
 * VLD / VST of vector register vd along descriptor ad at L1 offset off
 * (signed 14 bits); dtype KH_VEC_DT_FP16 or KH_VEC_DT_FP32 (others are the
 * unit's F_DTYPE: kohaku_vec_mem encodes them).
 */
int kohaku_vec_vld(uint32_t *w, unsigned int vd, unsigned int ad, int32_t off,
		   unsigned int dtype);
int kohaku_vec_vst(uint32_t *w, unsigned int vd, unsigned int ad, int32_t off,
		   unsigned int dtype);
/* VFILL (DRAM -> L1) / VDRAIN (L1 -> DRAM) along ad, from L1 word l1 */
int kohaku_vec_vfill(uint32_t *w, unsigned int ad, unsigned int l1);
int kohaku_vec_vdrain(uint32_t *w, unsigned int ad, unsigned int l1);
/*
 * VDRAIN to node (x, y)'s CU_DATA buffer buf (each 0..15), signal_on_
 * complete when signal; the walk's first address gives offset and ack.
 */
int kohaku_vec_vdrain_node(uint32_t *w, unsigned int ad, unsigned int l1,
			   unsigned int x, unsigned int y, unsigned int buf,
			   int signal);
/* VSETVL: VL = S[sreg]; VSETMODE: KH_VEC_MODE_* (0..3) */
int kohaku_vec_vsetvl(uint32_t *w, unsigned int sreg);
int kohaku_vec_vsetmode(uint32_t *w, unsigned int mode);
/*
 * VSETI: two words, S[sreg] = value (24 bits: an E8M15 pattern, or a
 * count for VSETVL/VLOOP); _k3 sets the constant K3 instead.
 */
int kohaku_vec_vseti(uint32_t w[2], unsigned int sreg, uint32_t value);
int kohaku_vec_vseti_k3(uint32_t w[2], uint32_t value);
/* VLOOP: S[sreg] times the next body words (1..15) */
int kohaku_vec_vloop(uint32_t *w, unsigned int sreg, unsigned int body);
/* VBAR (wait for every fill) and VHALT */
uint32_t kohaku_vec_vbar(void);
uint32_t kohaku_vec_vhalt(void);
/* A vec RUN's SIG_FAULT code in words ("F_VL: VSETVL of 0 or more than 128") */
const char *kohaku_vec_fault_describe(uint32_t code, char *buf, size_t len);

/* ---- DXA: the bulk-copy unit and the scratch unit ---- */

/*
 * The DXA unit (cu_type 'DX', docs/spec/dxa.md; every constant in
 * uapi/kohaku/kh_dxa.h) copies a tile of a rank 1-5 tensor in DRAM into
 * the CU_DATA buffers of 1-4 receivers, filling elements past the
 * tensor's extent with a constant, optionally transposed (K-major).  What
 * a tile is comes from one of the unit's 16 slots, which belong to the
 * driver (ABI 0.5, KOHAKU_CAP_DXA; docs/abi.md "DXA"): a file allocates a
 * slot, sets it from a BO of its own and an offset (the driver checks the
 * whole tensor lies in the BO), and names it in COPY instructions of a
 * program on the unit; the driver writes the slot to the unit with the
 * job.  A file's slots are freed when it closes.
 *
 * The slot calls take the unit's coordinate.  kohaku_dxa_alloc() gives a
 * slot (0..15) of this file (-EBUSY when all 16 are taken);
 * kohaku_dxa_set() checks and keeps a descriptor (-ENOENT: not this
 * file's slot, or not this file's BO; -EINVAL: a rule below broken, or
 * the tensor not inside the BO); kohaku_dxa_get() the slot as set, the
 * 64 bytes the driver writes (table), and with KOHAKU_DXA_GET_DEVICE the
 * unit's own copy instead, which may be read at any slot of the unit.
 */
int kohaku_dxa_alloc(kohaku_device *dev, unsigned int mesh, unsigned int x,
		     unsigned int y, unsigned int *slot);
int kohaku_dxa_free(kohaku_device *dev, unsigned int mesh, unsigned int x,
		    unsigned int y, unsigned int slot);
int kohaku_dxa_set(kohaku_device *dev, unsigned int mesh, unsigned int x,
		   unsigned int y, unsigned int slot,
		   const struct drm_kohaku_dxa_desc *desc);
int kohaku_dxa_get(kohaku_device *dev, unsigned int mesh, unsigned int x,
		   unsigned int y, unsigned int slot, unsigned int flags,
		   struct drm_kohaku_dxa_slot *out, size_t out_size);

/*
 * Descriptors.  Dimension 0 is the fastest (its elements are adjacent);
 * strides are bytes, strides[k] that of dimension k + 1 (rank - 1 of
 * them).  Checked as DXA_SET checks them without the BO: rank 1..5,
 * elem_bytes 1, 2, 4 or 8, every size >= 1, every tile 1..65535, strides
 * and offset multiples of elem_bytes, the tile at most 8 KiB
 * (KH_DXA_MAX_TILE_BYTES); -EINVAL otherwise, d untouched.  The builders
 * clear flags, multicast stride and fill; the setters below add them.
 */
int kohaku_dxa_desc(struct drm_kohaku_dxa_desc *d, uint32_t bo,
		    uint64_t offset, unsigned int elem_bytes, unsigned int rank,
		    const uint32_t *sizes, const uint32_t *strides,
		    const unsigned int *tiles);
/* a packed tensor: each stride the size of the dimensions below it */
int kohaku_dxa_desc_dense(struct drm_kohaku_dxa_desc *d, uint32_t bo,
			  uint64_t offset, unsigned int elem_bytes,
			  unsigned int rank, const uint32_t *sizes,
			  const unsigned int *tiles);
int kohaku_dxa_desc_1d(struct drm_kohaku_dxa_desc *d, uint32_t bo,
		       uint64_t offset, unsigned int elem_bytes, uint32_t size,
		       unsigned int tile);
/* a matrix of rows x cols, row_stride bytes apart: a tile_rows x tile_cols tile */
int kohaku_dxa_desc_2d(struct drm_kohaku_dxa_desc *d, uint32_t bo,
		       uint64_t offset, unsigned int elem_bytes, uint32_t cols,
		       uint32_t rows, uint32_t row_stride,
		       unsigned int tile_cols, unsigned int tile_rows);
/* K-major (transposed) destination: rank 1 or 2 only (-EINVAL) */
int kohaku_dxa_set_kmajor(struct drm_kohaku_dxa_desc *d, int on);
/* receiver r of a copy gets its burst at its offset + r * mstride granules */
int kohaku_dxa_set_multicast(struct drm_kohaku_dxa_desc *d,
			     unsigned int mstride);
/* the value of an out-of-bounds element (zero-extended for 8-byte ones) */
int kohaku_dxa_set_cfill(struct drm_kohaku_dxa_desc *d, uint32_t value);
/* the tile's elements, and the 32-byte granules a receiver gets; 0: invalid */
uint32_t kohaku_dxa_tile_elems(const struct drm_kohaku_dxa_desc *d);
uint32_t kohaku_dxa_tile_granules(const struct drm_kohaku_dxa_desc *d);

/*
 * A slot's 64 bytes as docs/spec/dxa.md lays them out: what the driver
 * writes for d when the BO is at dev_addr (base = dev_addr + bo_offset),
 * and the fields of 64 bytes read back.  -EINVAL for an element size the
 * table cannot say.
 */
struct kohaku_dxa_table {
	uint64_t base;
	uint32_t size[5];
	uint32_t stride[4];
	uint32_t meta;		/* as is; rank, elem_bytes, kmajor from it */
	unsigned int rank, elem_bytes;
	int kmajor;
	uint16_t tile[5];
	uint16_t mstride;
	uint32_t cfill;
};
int kohaku_dxa_encode(uint8_t table[64], const struct drm_kohaku_dxa_desc *d,
		      uint64_t dev_addr);
void kohaku_dxa_decode(const uint8_t table[64], struct kohaku_dxa_table *out);
/* "rank 2, 4-byte elements, base 0x..., size 100x37, tile 16x8, ..." */
const char *kohaku_dxa_describe(const uint8_t table[64], char *buf,
				size_t len);

/*
 * COPY through slot (0..15) of the tile whose first element is coords[d]
 * (24 bits each; NULL: all 0; those at and above the rank are ignored) to
 * receivers recv[0..n_recv) (1..4): node (x, y) of the unit's mesh (0..15
 * each), its CU_DATA buffer buf (0..63) from granule offset.  -EINVAL when
 * a value does not fit.  The driver refuses at SUBMIT a slot not this
 * file's or not set, and receivers that are not nodes, POOL or DXA units.
 * It retires when every receiver acknowledged, exec_result = the tile's
 * elements; its faults are KH_DXA_FAULT_* (kohaku_dxa_fault_describe).
 */
struct kohaku_dxa_recv {
	unsigned int x, y;
	unsigned int buf;
	unsigned int offset;	/* granules */
};
int kohaku_inst_dxa_copy(struct kohaku_inst *inst, unsigned int slot,
			 const uint32_t coords[5],
			 const struct kohaku_dxa_recv *recv,
			 unsigned int n_recv);
/*
 * The scratch unit (cu_type 'SC'): its buffer 0 (KH_SCR_GRANULES = 256
 * granules) keeps what CU_DATA brings; COPY_OUT writes granules
 * [first, first + granules) to DRAM at addr (32-byte aligned, 40 bits).
 * -EINVAL when the range passes granule 255 or addr is unaligned.
 */
int kohaku_inst_scr_copy_out(struct kohaku_inst *inst, unsigned int first,
			     unsigned int granules, uint64_t addr);
/* a DXA or scr SIG_FAULT code in words ("DXA NO_ACK: ...") */
const char *kohaku_dxa_fault_describe(uint32_t code, char *buf, size_t len);
/*
 * cpu unit, the control processor (KohakuAccel rv_pe, cu_type 'RV';
 * docs/spec/cpu.md, every constant in uapi/kohaku/kh_cpu.h): an RV32I
 * core.  A program is RV32I words in the unit's 2048-word instruction
 * window; it is loaded by the job's data (struct kohaku_data, buffer
 * KH_CPU_BUF_IMEM), with its arguments in the scratchpad (KH_CPU_BUF_SPAD,
 * which the program reads at KH_CPU_SPAD_BASE), and started by a kick, the
 * job's CU_INST.  The kick retires when the program halts: ECALL retires
 * with exec_result = a0; EBREAK with a0 and SIG_FAULT; a fault (an illegal
 * instruction, the M extension included; a misaligned or unmapped access)
 * with SIG_FAULT and the faulting PC as its code (a job reports the
 * code of a FAULT, not an ECALL's a0: results go to device memory).  A
 * halt does not write the unit's L1 back, but the driver does once every
 * program of the job has retired, before the job is final: it runs its own
 * stub on the unit (KH_CPU_STUB_GRANULE, docs/spec/cpu.md "The driver's
 * L1 flush"), which flushes the L1 (the host sees the job's DRAM writes
 * when it is DONE) and drops every line (the next job reads what the host
 * wrote since).  Within a job the L1 is the program's: one that hands
 * memory to another unit of the same job stores to KH_CPU_CTL_BASE +
 * KH_CPU_CTL_FLUSH first.
 */
struct kohaku_data;	/* a job's data for a program's node: "jobs" below */
/*
 * The kick: run from pc (a byte address in the instruction window) with
 * arg, which the program reads at KH_CPU_CTL_BASE + KH_CPU_CTL_ARG.
 * Refuses (-EINVAL, nothing written) a pc not word aligned or past the
 * window (KH_CPU_IMEM_WORDS words): the unit would alias it, not fault.
 */
int kohaku_inst_cpu_kick(struct kohaku_inst *inst, uint32_t pc, uint32_t arg);
/*
 * Any op (0..255) with any pc and arg, unchecked but for op's width
 * (-EINVAL).  An op other than KH_CPU_OP_KICK runs nothing: it retires at
 * once with what the last halt left (exec_result a0, or the faulting PC;
 * SIG_FAULT after an EBREAK or a fault).
 */
int kohaku_inst_cpu(struct kohaku_inst *inst, unsigned int op, uint32_t pc,
		    uint32_t arg);
/*
 * The address a cpu program uses for device memory at dev_addr (a BO's
 * dev_addr plus an offset), size bytes from there: KH_CPU_DRAM_BASE |
 * the local offset.  The unit reaches only its own mesh's DRAM, and only
 * its first 2 GiB (31 address bits).  Refuses a NULL addr or a special
 * aperture address (-EINVAL), a dev_addr in a mesh other than mesh
 * (-EXDEV), and a range that ends past 2 GiB (-ERANGE).
 */
int kohaku_cpu_dram_addr(unsigned int mesh, uint64_t dev_addr, uint64_t size,
			 uint32_t *addr);
/*
 * n_words 32-bit words into one of the two windows from granule on
 * (granule * KH_CPU_GRANULE_WORDS is the first word's index), as a job's
 * data entry; d points into words (kept by the caller until submit).
 * buf_id KH_CPU_BUF_IMEM or KH_CPU_BUF_SPAD (the granule buffers).
 * Refuses (-EINVAL) another buffer, n_words 0 or not a multiple of
 * KH_CPU_GRANULE_WORDS (a job's data is whole granules), a range past
 * the window's KH_CPU_WINDOW_GRANULES (the unit would drop the burst
 * silently), and one into the instruction window's last granule,
 * KH_CPU_STUB_GRANULE (the driver's L1 flush stub: SUBMIT refuses a job
 * whose data writes it).  The words go as the host holds them:
 * little-endian hosts.
 */
int kohaku_cpu_data(struct kohaku_data *d, unsigned int buf_id,
		    unsigned int granule, const uint32_t *words,
		    unsigned int n_words);

/*
 * The RV32I encoders and the small assembler for the cpu unit's programs
 * (kohaku_rv_*, struct kohaku_rv_asm) are kohaku-asm.h's, in libkohaku-asm.a
 * (a static library linked ahead of libkohaku), not a part of this API.
 */

/* ---- firmware: the POOL units' image ---- */

struct kohaku_fw_info {
	uint32_t units;		/* POOL units on the device */
	uint32_t running;	/* ... running the firmware now */
	uint32_t fw_version;	/* the loaded image's (KH_FW_VERSION), 0: none */
	uint32_t fw_api;	/* its API, major << 16 | minor */
	uint32_t driver_api;	/* the API the driver speaks */
	/*
	 * What the host's own load did (kohaku.ko's request_firmware at bind,
	 * the sim backend's at open), e.g. "running: /lib/firmware/kohaku/
	 * pool.fw" or "absent: kohaku/pool.fw not found in ..."; "" if none.
	 */
	char status[512];
};

/*
 * Load and boot a firmware image (docs/spec/firmware-image.md) on every
 * POOL unit of the device (FW_LOAD).  flags: KOHAKU_FW_LOAD_*.  out, when
 * not NULL, gets FW_LOAD's report, on failure too (its reason says which
 * rule the image broke).  The previous firmware keeps running on failure.
 * Errors: -EINVAL malformed image, -E2BIG too large, -EPROTO API major,
 * -ENODEV no POOL unit, -EBUSY a job on a POOL unit, -EIO / -ETIMEDOUT
 * the boot failed, -EACCES not allowed (kohaku.ko: CAP_SYS_ADMIN).
 */
int kohaku_fw_load(kohaku_device *dev, const void *image, size_t size,
		   unsigned int flags, struct drm_kohaku_fw_load *out,
		   size_t out_size);
/*
 * The same from a file: a regular one (a directory is -EISDIR, a FIFO or a
 * device -EINVAL, each named in the message; a FIFO is not waited on).
 */
int kohaku_fw_load_file(kohaku_device *dev, const char *path,
			unsigned int flags, struct drm_kohaku_fw_load *out,
			size_t out_size);
/*
 * What runs; per-unit state is in the node table (fw_* fields).  size:
 * sizeof(*out), the caller's (see "Caller-sized structs").
 */
int kohaku_fw_info(kohaku_device *dev, struct kohaku_fw_info *out,
		   size_t size);
/* A KOHAKU_FW_ERR_* reason, and a KOHAKU_FW_STATE_* state, in words. */
const char *kohaku_fw_reason(unsigned int reason);
const char *kohaku_fw_state_name(unsigned int state);

/* ---- jobs ---- */

/*
 * Bytes a job writes into one CU_DATA buffer of a program's node before
 * any of its instructions (ABI 0.5, KOHAKU_CAP_JOB_DATA; the rules are
 * struct drm_kohaku_data's): size a multiple of KOHAKU_DATA_GRANULE (32),
 * offset in granules.  A cpu unit's program image and arguments go this
 * way (KH_CPU_BUF_IMEM, KH_CPU_BUF_SPAD).
 */
struct kohaku_data {
	uint8_t buf_id;		/* the unit's buffer */
	uint32_t offset;	/* first granule */
	const void *data;
	uint32_t size;		/* bytes */
};

struct kohaku_program {
	uint8_t mesh, x, y;	/* target node */
	uint8_t txn;		/* program id, echoed by SIG_BATCH_COMPLETE */
	uint32_t n_insts;
	const struct kohaku_inst *insts;
	/* sent before the job's instructions; NULL/0: none (ABI 0.5) */
	const struct kohaku_data *data;
	unsigned int n_data;	/* 0..KOHAKU_MAX_PROGRAM_DATA */
	/*
	 * SIG_DATA_RECEIVED the node sends the orchestrator in this job
	 * beyond its instructions' completions (ABI 0.9,
	 * KOHAKU_CAP_PEER_SIGNALS; struct drm_kohaku_program's rule): n_insts
	 * may then be 0, a node the job only sends to.
	 */
	uint32_t peer_signals;
};

struct kohaku_job_status {
	uint32_t status;	/* KOHAKU_JOB_* */
	uint32_t fault_code;	/* SIG_FAULT argument, if FAULT_CODE_KNOWN */
	uint8_t fault_mesh, fault_x, fault_y;	/* KOHAKU_COORD_NONE: unknown */
	uint8_t fault_flags;	/* KOHAKU_FAULT_NODE_KNOWN, _CODE_KNOWN */
	uint32_t n_faults;	/* instructions that raised SIG_FAULT */
	uint64_t device_ns;	/* device time from dispatch to the end */
	uint32_t reason;	/* ERROR (ABI 0.5), ABORTED (0.6): KOHAKU_JOB_WHY_*, else 0 */
};

/*
 * Submit one job: one program per target node.  timeout_ms is the job's
 * limit in device time (0 = KOHAKU_JOB_TIMEOUT_DEFAULT_MS).
 */
int kohaku_submit(kohaku_device *dev, const struct kohaku_program *programs,
		  unsigned int n_programs, uint32_t timeout_ms,
		  uint64_t *job_id);
/*
 * Wait up to timeout_ms of device time (0 = just look).  Returns 0 with the
 * job's final status in *st (DONE, FAULT, TIMEOUT, ABORTED, ERROR; the job
 * is then forgotten), or -ETIMEDOUT while it is still queued or running
 * (*st then says which).
 * A final status other than DONE also sets kohaku_last_error(dev) to a
 * description of what went wrong (kohaku_job_describe's text).
 */
int kohaku_wait(kohaku_device *dev, uint64_t job_id, uint32_t timeout_ms,
		struct kohaku_job_status *st, size_t st_size);
/*
 * Submit and wait for a final status (the job's own limit ends it);
 * returns 0 only when the job finished DONE, -EIO for FAULT/ERROR,
 * -ETIMEDOUT for TIMEOUT, -ECANCELED for ABORTED (st filled in each case).
 */
int kohaku_run(kohaku_device *dev, const struct kohaku_program *programs,
	       unsigned int n_programs, uint32_t timeout_ms,
	       struct kohaku_job_status *st, size_t st_size);
/*
 * A job status in words ("FAULT at mesh 0 (1,2): code 2 (...)").  st_size:
 * sizeof(*st), the caller's; the library reads no more of it.
 */
const char *kohaku_job_describe(const struct kohaku_job_status *st,
				size_t st_size, char *buf, size_t len);

/* ---- fences: waiting on many jobs, or on a file descriptor ---- */

/*
 * A job can signal a syncobj when it is final (its out-fence), and wait
 * for syncobjs before it is dispatched (in-fences), as DRM drivers do.
 * The kernel backend uses the DRM core's syncobjs (DRM_IOCTL_SYNCOBJ_*);
 * the sim backend has the same commands in-process, so the same code runs
 * on both.  A syncobj belongs to the open file (kohaku_device) that made
 * it.  The fence of a job that ends other than DONE signals with an error,
 * and a job waiting for it is ABORTED.
 */
/*
 * A buffer a job's units may reach (ABI 0.8, KOHAKU_CAP_JOB_BOS): a BO of
 * the device's file on the job's mesh, and what the units do there.
 */
struct kohaku_job_bo {
	uint32_t handle;
	uint32_t access;		/* KOHAKU_JOB_BO_READ and/or _WRITE */
};

struct kohaku_submit_args {
	const struct kohaku_program *programs;
	unsigned int n_programs;
	uint32_t timeout_ms;		/* the job's limit; 0 = default */
	const uint32_t *in_syncobjs;	/* dispatch after their fences */
	unsigned int n_in_syncobjs;	/* 0..KOHAKU_MAX_IN_FENCES */
	uint32_t out_syncobj;		/* gets the job's fence; 0 = none */
	/*
	 * The buffers the job reaches (0..KOHAKU_MAX_JOB_BOS): every memory
	 * operand of its instructions must lie in one of them, with the
	 * access the unit makes, or SUBMIT fails -EACCES naming the
	 * instruction and the operand.  NULL/0: every BO of the device's
	 * file on the job's mesh, read and write (KOHAKU_SUBMIT_FILE_BOS).
	 */
	const struct kohaku_job_bo *bos;
	unsigned int n_bos;
	/* KOHAKU_SUBMIT_UNCHECKED: no check (an administrator's file only) */
	uint32_t flags;
};

/* kohaku_submit() with fences. */
int kohaku_submit_ex(kohaku_device *dev, const struct kohaku_submit_args *args,
		     uint64_t *job_id);

/* A new syncobj of dev's file, holding no fence yet. */
int kohaku_syncobj_create(kohaku_device *dev, uint32_t *handle);
int kohaku_syncobj_destroy(kohaku_device *dev, uint32_t handle);

#define KOHAKU_SYNCOBJ_WAIT_ALL	(1u << 0)	/* all, not the first one */

/*
 * Wait until the fences the syncobjs hold have signalled: all of them with
 * KOHAKU_SYNCOBJ_WAIT_ALL, else any one (its index in *first, may be
 * NULL).  timeout_ms is host wall time (DRM's syncobj waits run on the
 * host's clock; 0 = just look).  Returns 0, -ETIMEDOUT, -EINVAL for a
 * syncobj no job was submitted on, -ENOENT for a bad handle.
 */
int kohaku_syncobj_wait(kohaku_device *dev, const uint32_t *handles,
			unsigned int n, unsigned int flags, uint32_t timeout_ms,
			unsigned int *first);

/*
 * A file descriptor that poll() reports readable (POLLIN) once the fence
 * the syncobj holds now has signalled: a sync_file on the kernel backend,
 * an eventfd in-process.  The caller closes it.
 */
int kohaku_syncobj_fd(kohaku_device *dev, uint32_t handle, int *fd);

/* ---- compiler artifacts (docs/spec/artifact.md, docs/runtime.md "Artifacts") ---- */

/*
 * What KohakuTPU's compiler produces (compiler/kohakuaccel/artifact.py,
 * Artifact.to_dict() as JSON): 256-bit instruction payloads by staging
 * slot ("flits") and steps ("seed", "kick", "await", "barrier").  Parsing
 * checks the format; kohaku_artifact_check() checks it against a device's
 * mesh; kohaku_artifact_run() runs it through SUBMIT: each round (the
 * steps between barriers) is one job with a program per kicked or awaited
 * node, an await is that job's completion (peer_signals for what a node
 * owes beyond its instructions), a barrier a fence between two rounds'
 * jobs.  A seed is checked against the credit the driver sets, never
 * written.
 */
struct kohaku_artifact;

/*
 * KohakuTPU's compiler's default arena, on every mesh: its artifacts'
 * operands lie at this local offset (device address mesh << 36 | offset),
 * in this many bytes (kohakutpu/rt.py ARENA_BASE, ARENA_SIZE).
 */
#define KOHAKU_ARTIFACT_ARENA_OFFSET	0x18000000ULL
#define KOHAKU_ARTIFACT_ARENA_SIZE	(64ULL << 20)

/*
 * Parse an artifact from JSON text (len bytes, no NUL needed).  0, or
 * -EINVAL (format: which step or flit and why) / -ENOMEM, with the reason
 * in err (errlen bytes, may be NULL) either way "" on success.  Strict
 * RFC 8259 with integers of any size (libkohaku's own reader: json-c and
 * jansson hold int64 only); steps, rounds and flits are numbered from 0.
 */
int kohaku_artifact_parse(const char *json, size_t len,
			  struct kohaku_artifact **out, char *err,
			  size_t errlen);
/*
 * The same from a file: a regular file only (-EINVAL otherwise; -errno
 * when it cannot be opened or read), err prefixed with the path.
 */
int kohaku_artifact_load(const char *path, struct kohaku_artifact **out,
			 char *err, size_t errlen);
void kohaku_artifact_free(struct kohaku_artifact *a);

struct kohaku_artifact_info {
	const char *machine;	/* the artifact's; valid while it is */
	uint32_t n_flits;	/* payloads */
	uint32_t n_steps;
	uint32_t n_rounds;	/* barriers + 1 */
	uint32_t n_kicks;
};

void kohaku_artifact_info(const struct kohaku_artifact *a,
			  struct kohaku_artifact_info *out, size_t size);

struct kohaku_artifact_run {
	unsigned int mesh;	/* the mesh the artifact's coordinates are on */
	/*
	 * The BOs its operands must lie in, read and write (the caller's
	 * arenas, normally made by kohaku_bo_create_at()).  NULL/0: every BO
	 * of the device's file on the mesh (KOHAKU_SUBMIT_FILE_BOS).
	 */
	const uint32_t *arenas;
	unsigned int n_arenas;	/* 0..KOHAKU_MAX_JOB_BOS */
	uint32_t timeout_ms;	/* each round's limit; 0 = default */
	uint32_t flags;		/* 0 */
};

struct kohaku_artifact_result {
	uint32_t rounds;	/* rounds that finished DONE */
	uint32_t failed_round;	/* the first that did not; UINT32_MAX: none */
	uint64_t device_ns;	/* the rounds' device time, summed */
	struct kohaku_job_status status;	/* failed_round's, else the last's */
};

/*
 * Check an artifact against the device's mesh without running it: a
 * coordinate with no node (-ENXIO), a slot past the staging depth or the
 * payloads (-ERANGE), a kick of a node type the card lacks (-ENODEV: of
 * another type than meta "unit", or one with no instruction FIFO), a
 * seed below 1 or above the credit the driver would set (-ERANGE), a
 * schedule Kohaku cannot run as jobs (-EINVAL), a round past a job's
 * limits (-E2BIG), a mesh the device does not have (-EINVAL); the last
 * error names the step ("step 7 (kick 1,2): ...").
 */
int kohaku_artifact_check(kohaku_device *dev, const struct kohaku_artifact *a,
			  unsigned int mesh);
/*
 * Check, then run every round; returns once each has ended.  0 when all
 * finished DONE; else the first failing round's kohaku_run() error
 * (-EIO, -ETIMEDOUT, -ECANCELED) with res saying which round, or a
 * SUBMIT refusal (-EACCES: an operand outside the arenas, naming the
 * round, the step, the flit and the operand), or the check's error.
 * args: -EINVAL for flags or n_arenas past KOHAKU_MAX_JOB_BOS, -EFAULT
 * for arenas NULL with n_arenas.  res may be NULL; it is filled on every
 * return (failed_round UINT32_MAX when no round ran and failed).
 */
int kohaku_artifact_run(kohaku_device *dev, const struct kohaku_artifact *a,
			const struct kohaku_artifact_run *args,
			struct kohaku_artifact_result *res, size_t res_size);

/* ---- a mesh's clocks and resets (ABI 0.7, docs/abi.md "Mesh clocks and resets") ---- */

/* "low", "mid", "ship", "default" (KOHAKU_CLK_PROFILE_DEFAULT), "other" */
const char *kohaku_clk_profile_name(unsigned int profile);
/* "auto", "fixed", "none" (KOHAKU_CLK_POLICY_*), "other" */
const char *kohaku_clk_policy_name(unsigned int policy);
/* a profile by name (any case), or -EINVAL */
int kohaku_clk_profile_parse(const char *name);
/*
 * The clocks of @mesh as the driver's governor has them (each output's
 * MHz read back from the mesh's clock wizard), its retunes, the device
 * time at each profile, its resets and recoveries.
 */
int kohaku_clocks(kohaku_device *dev, unsigned int mesh,
		  struct drm_kohaku_clocks *out, size_t out_size);
/*
 * The profile this open device's later jobs need, on every mesh
 * (KOHAKU_CLK_PROFILE_LOW..SHIP, or _DEFAULT: each mesh's run profile);
 * @mesh only names a present mesh (CLOCKS reports its clocks).  A mesh
 * runs a job at the higher of what it is at and what the job needs.
 */
int kohaku_clocks_file_run(kohaku_device *dev, unsigned int mesh,
			   unsigned int profile);
/*
 * Administrator only on kohaku.ko: the governor's policy and profiles of
 * a mesh and its automatic recovery (struct drm_kohaku_mesh_set).
 */
int kohaku_mesh_set(kohaku_device *dev, const struct drm_kohaku_mesh_set *set);
/*
 * Administrator only on kohaku.ko: reset @mesh through its clock wizard
 * (the job on it ABORTED, queued jobs kept, hung marks and a wedge
 * cleared, the governor's clocks and the POOL firmware back) and return
 * when it takes jobs again; @out (may be NULL) says what it did.
 */
int kohaku_mesh_reset(kohaku_device *dev, unsigned int mesh,
		      struct drm_kohaku_reset *out, size_t out_size);
/*
 * Hold @mesh alone (@take nonzero) or let it go (ABI 0.8, KOHAKU_CAP_LEASE;
 * docs/abi.md "Mesh leases"): while this open device holds it, no other
 * open file creates buffers or submits jobs there, and this one's
 * programs for units the driver cannot check (a cpu unit) run without
 * CAP_SYS_ADMIN.  Taking fails with -EBUSY while another file has a
 * buffer or a job there or holds it (the last error says which); taking
 * it twice is fine; closing the device gives it back.
 */
int kohaku_mesh_lease(kohaku_device *dev, unsigned int mesh, int take);

/* ---- simulated cards: the model's knobs ---- */

/*
 * Fault injection, the protocol checker and the event trace of the device
 * model (docs/spec/fault-injection.md), on a sim device or on a
 * kohaku_sim.ko card (kernel backend, through its debugfs files: root and
 * debugfs mounted).  On anything else they fail with -EOPNOTSUPP.
 *
 * kohaku_sim_command() takes one line as a card description would:
 * "inject drop link=R1,1.E count=1", "check on", "trace on size=4096",
 * "inject clear"; kohaku_sim_inject(dev, spec) is
 * kohaku_sim_command(dev, "inject " spec).  A refused line is -EINVAL,
 * with the model's message in kohaku_last_error() (the kernel backend
 * points to dmesg).
 *
 * kohaku_sim_read() returns a malloc'ed text (free()): "stats" (counters
 * per mesh, link and unit), "knobs" (the active knobs), "trace" (the event
 * ring, one event per line; tools/kh-trace makes a timeline of it),
 * "check" (the checker's report, "violations N" first).
 * kohaku_sim_check() is that N: violations found so far, or -errno.
 *
 * In-process, KOHAKU_SIM_CHECK=1 in the environment turns the checker on
 * for every sim card from its creation (a description's "check off"
 * still wins), and a card that goes with violations prints the report on
 * stderr.
 */
int kohaku_sim_command(kohaku_device *dev, const char *line);
int kohaku_sim_inject(kohaku_device *dev, const char *spec);
int kohaku_sim_read(kohaku_device *dev, const char *what, char **text);
int kohaku_sim_check(kohaku_device *dev);

/* ---- raw access ---- */

/*
 * The ioctl itself: cmd is a DRM_IOCTL_KOHAKU_* (or anything else, to test
 * the driver's refusal), arg the struct.  Returns 0 or a negative errno;
 * on the kernel backend EINTR/EAGAIN are retried.
 */
int kohaku_ioctl(kohaku_device *dev, unsigned long cmd, void *arg);

#if defined(__cplusplus)
}
#endif

#endif /* KOHAKU_H */

/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Shared helpers of the runtime + uapi tests (the checks are check.h's, the
 * harness rt_test.h's: this header is also rt_common.c's, which has no tests).
 * The tests run unchanged on the sim backend (in-process) and on the kernel
 * backend (kohaku.ko bound to kohaku_sim.ko in a VM); they take their device
 * from the environment (tests/selftests/kohaku/README.md):
 *
 *   KOHAKU_BACKEND   sim | kernel  (required)
 *   KOHAKU_DEVICE    kernel: node path or index; sim: built-in name or
 *                    description file (default: KOHAKU_TEST_MAP's built-in)
 *   KOHAKU_TEST_MAP  saxpy | sx_null_2x2 | pool | pool_2x2: which card this is, so the node
 *                    table can be checked exactly (default: KOHAKU_DEVICE
 *                    when it is a built-in name, else saxpy)
 */
#ifndef KH_RT_COMMON_H
#define KH_RT_COMMON_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "check.h"
#include "kohaku.h"
#include "kohaku/kh_flit.h"
#include "kohaku/kh_units.h"
#include "kohaku/kh_pool.h"

/* one expected node of a map */
struct rt_exp_node {
	uint8_t x, y;
	uint16_t cu_type;
};

struct rt_map {
	const char *name;
	unsigned int n_nodes;
	const struct rt_exp_node *nodes;	/* mesh 0, y then x order */
	uint8_t agent_x, agent_y;
	uint8_t grid_lo, grid_hi;
	unsigned int n_mag;
	uint16_t inst_depth;
	uint8_t cu_version;
	bool irq;		/* the interrupt addon (param irq 1) */
};

/* the map under test (from KOHAKU_TEST_MAP) */
const struct rt_map *rt_map(void);
/* how many nodes of the map are of a cu_type */
unsigned int rt_map_count(const struct rt_map *m, uint16_t cu_type);
/* in-process: KOHAKU_SIM_CTRL=32 asks for the 32-bit control path */
bool rt_ctrl32_env(void);

/*
 * Whether the driver knows the device under test as simulated
 * (KOHAKU_CAP_SIMULATED): both backends run the device model, but
 * KOHAKU_TEST_PCI=1 says it is a card on PCI (QEMU's kohaku-pcie,
 * tests/vm/run-vm-pci.sh), which the driver takes for a card.
 */
bool rt_simulated(void);

/*
 * Open the device under test (a fresh open file each call).  On failure
 * the test fails with the library's message and NULL is returned.
 */
kohaku_device *rt_open(void);
/*
 * Close a device; when it is a simulated card (in-process, or a
 * kohaku_sim.ko card with debugfs), first fail the test for every
 * protocol-checker violation found since rt_open (docs/spec/
 * fault-injection.md).  Tests call kohaku_close(), which is this.
 */
void rt_close(kohaku_device *dev);
#define kohaku_close(dev)	rt_close(dev)
/*
 * A simulated card's checker report holds @what (a test that breaks a
 * rule on purpose): true when it does; the violations so far are then
 * the baseline rt_close() judges by.  False, and nothing changed, when
 * the device has no checker to read (a card on PCI, kohaku.ko without
 * debugfs).
 */
bool rt_check_expected(kohaku_device *dev, const char *what);
/*
 * A second open file on the device under test whose opener is no
 * administrator: in-process with KOHAKU_UNPRIVILEGED=1; on kohaku.ko opened
 * after this process dropped CAP_SYS_ADMIN (for the rest of the test: the
 * files it holds keep what they had, but DRM's root-only commands fail).
 */
kohaku_device *rt_reopen_unprivileged(kohaku_device *dev);
/* GET_PARAM KOHAKU_PARAM_MESH_JOBS_DONE of @mesh; a failed check when refused */
uint64_t rt_jobs_done(kohaku_device *dev, unsigned int mesh);
/*
 * SUBMIT one program of @n instructions on node @nd through the raw ioctl,
 * with the ABI 0.8 fields: the request is left in *@s (job_id, refused_*).
 * The program struct is static: one caller at a time.
 */
int rt_submit_on(kohaku_device *dev, const struct drm_kohaku_node *nd,
		 const struct kohaku_inst *insts, unsigned int n, uint32_t flags,
		 const struct drm_kohaku_job_bo *bos, uint32_t n_bos,
		 struct drm_kohaku_submit *s);
/*
 * A card with units the test maps lack (mat, vec): the device under test
 * on the kernel backend or when KOHAKU_DEVICE names one; else, in-process,
 * a card of the built-in name or description `card`, with the protocol
 * checker on from the start.  rt_close_card() closes either, failing the
 * test for any checker violation on a card of its own.
 */
kohaku_device *rt_open_card(const char *card);
void rt_close_card(kohaku_device *dev);
#define RT_OPEN(dev)					\
	kohaku_device *dev = rt_open();			\
	REQUIRE(dev != NULL)

/* the nodes of the map of a cu_type, from the device's table */
unsigned int rt_nodes_of(kohaku_device *dev, uint16_t cu_type,
			 struct drm_kohaku_node *out, unsigned int cap);

/* deterministic test data */
float rt_x(unsigned long i, unsigned int salt);
float rt_y(unsigned long i, unsigned int salt);
uint32_t rt_fbits(float f);
/* the SX unit's answer for one element, as its datapath computes it */
uint32_t rt_saxpy_bits(enum kohaku_sx_datapath dp, float a, float x, float y);
/* the datapath of the device's SX units (NODES, live), announced once */
enum kohaku_sx_datapath rt_sx_datapath(kohaku_device *dev);
/* SX instructions one saxpy of n elements takes: one per 64 */
unsigned int rt_sx_insts(unsigned long n);

/* vectors for one saxpy on one unit; y has a guard area past n */
#define RT_GUARD	96
#define RT_GUARD_BYTE	0x5a
struct rt_vec {
	uint32_t hx, hy;
	uint64_t ax, ay;
	unsigned long n;
	unsigned int salt;
	enum kohaku_sx_datapath dp;
	struct rt_insts *insts;	/* programs of more than 64 elements */
};
/* create and fill; returns 0 or fails the test */
int rt_vec_setup(kohaku_device *dev, unsigned int mesh, unsigned long n,
		 unsigned int salt, struct rt_vec *v);
/*
 * Check y = a*x+y applied `times` times, every element, and the guard
 * past y[n-1].  Returns the number of bad elements (guard damage counts as
 * one); reports the first few.
 */
unsigned long rt_vec_check(kohaku_device *dev, const struct rt_vec *v,
			   float a, unsigned int times);
void rt_vec_free(kohaku_device *dev, struct rt_vec *v);

/*
 * A program on node nd applying y = a*x+y to vectors v n_insts times.  Up
 * to 64 elements that is n_insts instructions in insts (which must hold
 * them); a longer vector takes rt_sx_insts(n) instructions per pass (64
 * elements each, KH_SX_N_MAX), built in memory the vectors own (freed by
 * rt_vec_free) and insts is not used.
 */
void rt_prog_saxpy(struct kohaku_program *p, struct kohaku_inst *insts,
		   unsigned int n_insts, const struct drm_kohaku_node *nd,
		   struct rt_vec *v, float a);

/*
 * Submit and wait to a final status; returns the wait's return code
 * (0 with st filled, or a negative errno from submit/wait).
 */
int rt_run(kohaku_device *dev, const struct kohaku_program *p,
	   unsigned int n, struct kohaku_job_status *st);

/* A good saxpy on the first SX unit; true when it ran and checked out. */
bool rt_good_saxpy(kohaku_device *dev);

/* a test that needs POOL units: their table in nd, n of them, or SKIP */
#define RT_MAX_POOL	16
#define RT_NEED_POOL(dev, nd, n)					\
	struct drm_kohaku_node nd[RT_MAX_POOL];				\
	unsigned int n = rt_nodes_of(dev, KH_CU_GP, nd, RT_MAX_POOL);	\
	if (!n) {							\
		kohaku_close(dev);					\
		SKIP(return, "no POOL unit on this card");		\
	}

/*
 * The POOL firmware image under test: KOHAKU_TEST_FW, else the installed
 * /lib/firmware/kohaku/pool.fw (what kohaku.ko and the sim backend load);
 * read once, NULL (and a failed test) when there is none.
 */
const unsigned char *rt_fw_image(size_t *len);
/* that image loaded again (after a test loaded another), checked */
void rt_fw_reload(kohaku_device *dev);
/* one program of n instructions on one node, run to a final status */
/*
 * @nd's entry of the node table as the driver has it now (no live read:
 * flags, fw_state), into @out; false when the node is not there.
 */
bool rt_node_now(kohaku_device *dev, const struct drm_kohaku_node *nd,
		 struct drm_kohaku_node *out);
/*
 * Tests that change the card (knobs, resets, clocks) run on a shared kernel
 * card only with KOHAKU_TEST_DESTRUCTIVE=1; in-process the card is theirs.
 */
bool rt_destructive_ok(kohaku_device *dev);
#define RT_DESTRUCTIVE_OPEN(dev)					\
	RT_OPEN(dev);							\
	if (!rt_destructive_ok(dev)) {					\
		kohaku_close(dev);					\
		SKIP(return, "destructive on a shared device; set KOHAKU_TEST_DESTRUCTIVE=1"); \
	}
/* a knob (a format with the node's x and y), a failed check when refused */
int rt_inject_at(kohaku_device *dev, const char *fmt, unsigned int x,
		 unsigned int y);
/*
 * One saxpy of @n on node @nd; the status in @st, with y checked (the
 * wrong elements in @bad) when DONE.  @knob (rt_inject_at's format, or
 * NULL) is set once the vectors are uploaded, so a timed one starts with
 * the job.  @timeout_ms 0: the default limit.
 */
int rt_saxpy_job(kohaku_device *dev, const struct drm_kohaku_node *nd,
		 unsigned long n, uint32_t timeout_ms, const char *knob,
		 struct kohaku_job_status *st, unsigned long *bad);
/* the node runs a saxpy, every element right; @when names the moment */
void rt_saxpy_ok(kohaku_device *dev, const struct drm_kohaku_node *nd,
		 const char *when);
/* @nd's KOHAKU_FW_STATE_* as the node table has it, ~0u when not there */
unsigned int rt_fw_state(kohaku_device *dev, const struct drm_kohaku_node *nd);
/* a program of @n instructions for node @nd */
void rt_prog_on(struct kohaku_program *p, const struct drm_kohaku_node *nd,
		const struct kohaku_inst *insts, unsigned int n);
int rt_run_on(kohaku_device *dev, const struct drm_kohaku_node *nd,
	      const struct kohaku_inst *insts, unsigned int n,
	      struct kohaku_job_status *st);

/* every command of the driver range, for tests that try them all */
struct rt_cmd {
	const char *name;
	unsigned long cmd;
};
extern const struct rt_cmd rt_cmds[];
#define RT_N_CMDS	DRM_KOHAKU_NUM_IOCTLS

/* raw ioctl returning -errno, without the library's typed layer */
int rt_ioctl(kohaku_device *dev, unsigned long cmd, void *arg);

#define CHECK_ERR(expr, err)						\
	do {								\
		int _r = (expr);					\
		if (_r != (err))					\
			check_fail_at(__FILE__, __LINE__,			\
				    "%s: got %d (%s), expected %d (%s)",	\
				    #expr, _r, kohaku_strerror(_r), (err),	\
				    kohaku_strerror(err));		\
	} while (0)

#define CHECK_OK(dev, expr)						\
	do {								\
		int _r = (expr);					\
		if (_r != 0)						\
			check_fail_at(__FILE__, __LINE__,			\
				    "%s: %d: %s", #expr, _r,		\
				    kohaku_last_error(dev));		\
	} while (0)

#endif /* KH_RT_COMMON_H */

/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The run demos (kohaku run saxpy, mat-demo, vec-demo, cpu-demo, dxa-copy
 * and the POOL kernels) are one program with six sets of data: open the
 * device, select the units of one type, and on each unit build its data
 * and its job, submit (every unit's before the first wait, so the units
 * run side by side), wait, read back and check against the host; then a
 * line or a JSON member per unit, the verdict, and everything freed.
 * demo.c is that program; a struct kohaku_cli_demo is what a demo adds to
 * it: its names and words, and hooks for what only it knows (the data,
 * the job, the check).  validate runs every one of them (mat-demo,
 * vec-demo, cpu-demo, ping, dxa-copy, saxpy) and its own null instruction
 * through the same runner (cli_demo_units), a compute step per unit type.
 */
#ifndef KOHAKU_CLI_DEMO_H
#define KOHAKU_CLI_DEMO_H

#include "cli.h"

/* what a demo runs with: from the options, or validate's own */
struct kohaku_cli_demo_params {
	unsigned long n;	/* --n, or the demo's n_default */
	float a;		/* --a (saxpy's) */
	uint32_t timeout_ms;	/* --timeout; 0: the default */
};

/*
 * A progress report of a run over many units: done of total finished,
 * for a caller that wants its own (the terminal's progress line is the
 * runner's: progress.c)
 */
typedef void kohaku_cli_progress_fn(unsigned int done, unsigned int total,
				    void *arg);

/* device buffers a unit's run holds at most; the runner frees them */
#define CLI_RUN_BOS	3

/* the byte the demos fill the memory past a result with, to see it kept */
#define CLI_GUARD_BYTE	0xa5

/*
 * One unit's run: what the runner keeps (the node, the buffers, the job
 * and its status, the wall time, CU_DBG read after the jobs) and what the
 * demo's hooks fill (mismatches, the guard, exit and why).
 */
struct kohaku_cli_run {
	const struct drm_kohaku_node *node;
	/* the unit's place among those the demo runs on: seeds its data */
	unsigned int index;
	uint32_t bo[CLI_RUN_BOS];
	uint64_t addr[CLI_RUN_BOS];
	unsigned int n_bo;
	uint64_t job;
	bool submitted;
	double t0, t1;		/* before the submit, after the wait */
	struct kohaku_job_status st;
	unsigned long bad;	/* elements that differ from the host's */
	unsigned long first_bad;
	bool guard_ok;		/* the memory past the result untouched */
	uint64_t dbg;		/* CU_DBG after the jobs (demo->dbg) */
	bool dbg_known;
	int exit;		/* EXIT_*: EXIT_OK until something fails */
	char why[KOHAKU_ERRMSG_MAX];
	void *priv;		/* the demo's own, demo->priv_size bytes */
};

/* a demo run: the device, its node table, which demo, with what */
struct kohaku_cli_demo_ctx {
	kohaku_device *dev;
	const struct drm_kohaku_node *nd;
	unsigned int n_nodes;
	const struct kohaku_cli_demo *demo;
	struct kohaku_cli_demo_params p;
};

/*
 * A demo.  The words first (each exactly as the demo has always printed
 * them), then the hooks, in the order the runner calls them; those marked
 * optional may be NULL.  A demo that only validate runs (cli_demo_units)
 * needs no words and only setup.
 */
struct kohaku_cli_demo {
	const char *name;	/* `run NAME`, and the verdict's "NAME: PASS" */
	const char *what;	/* who refuses a wrong --node ("run saxpy") */
	uint16_t cu_type;	/* the units it runs on */
	const char *unit;	/* "this device has no UNIT unit" */
	bool type_named;	/* "(cu_type 0x5643 'VC')": with the name */
	const char *hint;	/* then what to try ("try --map saxpy") */
	const char *line;	/* each unit's line: "LINE mesh M (X,Y)..." */
	const char *pass;	/* "NAME: PASS (PASS)" */
	unsigned int takes;	/* the options it takes (CLI_TAKES_*) */
	unsigned long n_default;	/* --n when not given */
	/* one unit at a time (submit, wait, check), not all at once */
	bool serial;
	/* the lines give the wall time of submit to wait */
	bool wall;
	/* CU_DBG is read for every unit whose run went well, after all */
	bool dbg;
	/* a device call's -EINVAL (an argument refused) exits 2, not 4 */
	bool refused_usage;
	size_t priv_size;
	const void *arg;	/* the demo's constant data, for its hooks */

	/* optional: refuse params it cannot run with (cli_die_usage) */
	void (*check_params)(const struct kohaku_cli_demo *d,
			     const struct kohaku_cli_demo_params *p);
	/*
	 * optional: whether the selected units can run the demo at all (the
	 * POOL kernels: firmware on them), before anything is printed or
	 * submitted; 0, or an exit code with why and what to do said
	 * (cli_error)
	 */
	int (*ready)(const struct kohaku_cli_demo_ctx *c,
		     const struct drm_kohaku_node *const *sel, unsigned int n);
	/* the text above the units' lines (not under --json) */
	void (*intro)(const struct kohaku_cli_demo_ctx *c, unsigned int n_units);
	/*
	 * a unit's data and job: buffers (cli_run_bo), written, and the
	 * program (insts, data) in p, which must stay valid until release;
	 * the runner sets its target and submits it.  Negative with why and
	 * exit set (cli_run_failed, cli_run_dev_error) when it cannot.
	 */
	int (*setup)(const struct kohaku_cli_demo_ctx *c,
		     struct kohaku_cli_run *r, struct kohaku_program *p);
	/* optional: why, for a job that ended not DONE (default: its words) */
	void (*describe)(const struct kohaku_job_status *st, char *why,
			 size_t len);
	/* optional: after a DONE job, read the result back and check it */
	void (*check)(const struct kohaku_cli_demo_ctx *c,
		      struct kohaku_cli_run *r);
	/* optional: with demo->dbg, check a unit's CU_DBG (when known) */
	void (*check_dbg)(const struct kohaku_cli_demo_ctx *c,
			  struct kohaku_cli_run *r);
	/* optional: the JSON report's members before "units" (in rep) */
	void (*report)(const struct kohaku_cli_demo_ctx *c,
		       struct json_object *rep);
	/* a good unit's line after "LINE mesh M (X,Y)", before "; device" */
	void (*print_ok)(const struct kohaku_cli_demo_ctx *c,
			 const struct kohaku_cli_run *r);
	/* a unit's JSON members after mesh, x, y, ok and before "error" */
	void (*json)(const struct kohaku_cli_demo_ctx *c,
		     const struct kohaku_cli_run *r, struct json_object *j);
	/* optional: free what setup took beyond the buffers */
	void (*release)(const struct kohaku_cli_demo_ctx *c,
			struct kohaku_cli_run *r);
};

/* the demos (demo_*.c); the POOL kernels by name, NULL for none */
extern const struct kohaku_cli_demo cli_demo_saxpy;
extern const struct kohaku_cli_demo cli_demo_mat;
extern const struct kohaku_cli_demo cli_demo_vec;
extern const struct kohaku_cli_demo cli_demo_cpu;
extern const struct kohaku_cli_demo cli_demo_dxa_copy;
const struct kohaku_cli_demo *cli_pool_demo(const char *name);

/* demo.c: `kohaku run NAME` for demo d; the exit code */
int cli_demo_run(const struct kohaku_cli_opts *o,
		 const struct kohaku_cli_demo *d);
/*
 * demo.c: run c->demo on runs[0..n_runs), each with its node set (and
 * nothing else); progress (may be NULL) after each unit, and the
 * terminal's progress line (cli_progress_*) throughout.  0, or
 * EXIT_DEVICE when out of memory.  cli_demo_free() frees what the runs
 * hold (always call it).
 */
int cli_demo_units(const struct kohaku_cli_demo_ctx *c,
		   struct kohaku_cli_run *runs, unsigned int n_runs,
		   kohaku_cli_progress_fn *progress, void *arg);
void cli_demo_free(const struct kohaku_cli_demo_ctx *c,
		   struct kohaku_cli_run *runs, unsigned int n_runs);

/*
 * demo.c: for the hooks.  cli_run_bo: a buffer of size bytes on the
 * unit's mesh, as r->bo[i] and r->addr[i]; i, or negative (said in r).
 * cli_run_write: len bytes of data to r->bo[i]; 0 or negative (said).
 * cli_run_read: r->bo[i]'s first len bytes, in memory the caller frees;
 * NULL when it cannot (said, EXIT_DEVICE).
 */
int cli_run_bo(const struct kohaku_cli_demo_ctx *c, struct kohaku_cli_run *r,
	       size_t size);
int cli_run_write(const struct kohaku_cli_demo_ctx *c,
		  struct kohaku_cli_run *r, unsigned int i, const void *data,
		  size_t len);
void *cli_run_read(const struct kohaku_cli_demo_ctx *c,
		   struct kohaku_cli_run *r, unsigned int i, size_t len);
/*
 * demo.c: a failed device call err in r: the device's last error, exit 4
 * (or 2 for -EINVAL when the demo says so); returns err
 */
int cli_run_dev_error(const struct kohaku_cli_demo_ctx *c,
		      struct kohaku_cli_run *r, int err);
/* demo.c: r failed with exit and the message; returns -1 */
int cli_run_failed(struct kohaku_cli_run *r, int exit, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* demo.c: element i differs from the host's */
void cli_run_mismatch(struct kohaku_cli_run *r, unsigned long i);
/* demo.c: every byte of p[0..len) is CLI_GUARD_BYTE */
bool cli_guard_ok(const void *p, size_t len);
/* demo.c: the job's wall time, 0 when it was not submitted */
double cli_run_wall_ms(const struct kohaku_cli_run *r);
/*
 * demo.c: a unit's usual JSON members: status (or NOT_SUBMITTED),
 * mismatches, tail_untouched; and wall_ms, device_ns
 */
void cli_run_json_checked(struct json_object *j,
			  const struct kohaku_cli_run *r);
void cli_run_json_times(struct json_object *j, const struct kohaku_cli_run *r);

/*
 * demo.c: wait for a job submitted with timeout_ms (0: the default) to
 * be final; 0 with st filled, or the wait's negative errno
 */
int cli_wait_final(kohaku_device *dev, uint64_t job, uint32_t timeout_ms,
		   struct kohaku_job_status *st);

#endif /* KOHAKU_CLI_DEMO_H */

// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku top [--interval MS] [--count N] [--csv]: a live view of the
 * device, one sample every interval (default 1000 ms): per node the busy
 * cycles and the instructions retired in the interval (the deltas of
 * KOHAKU_NODES_LIVE's busy_cycles and retired), whether it is hung, and
 * per mesh the jobs finished per second (GET_PARAM KOHAKU_PARAM_MESH_JOBS_DONE
 * delta) and its clock (CLOCKS: the profile and the NoC's MHz, "ship
 * 300MHz", read once per sample; "-" when it cannot be read).  The node
 * table carries no fault counter: faults show as a HUNG
 * node and in each job's status (kohaku sim stats counts injected ones on
 * a simulated card).  Plain text prints a block per sample; --csv a header
 * line then one row per node per sample, the node's mesh's clock the last
 * column (mesh_clock).  --count N stops after N samples
 * (0, the default: until interrupted).  --json prints one object per
 * sample, a line each: JSON Lines, not one document (usage.c says so).
 * A sample that cannot be written ends the loop (cli_output_flush).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* jobs finished on each present mesh (0 for an absent one) */
static void jobs_done(kohaku_device *dev, unsigned int n_meshes,
		      uint64_t *out)
{
	unsigned int m;

	for (m = 0; m < n_meshes; m++) {
		struct drm_kohaku_get_param p;

		memset(&p, 0, sizeof(p));
		p.param = KOHAKU_PARAM_MESH_JOBS_DONE;
		p.index = m;
		out[m] = kohaku_ioctl(dev, DRM_IOCTL_KOHAKU_GET_PARAM, &p) ?
			 0 : p.value;
	}
}

/* each present mesh's clock as top shows it ("ship 300MHz") */
static void clocks_now(kohaku_device *dev, unsigned int n_meshes,
		       char clk[][32])
{
	unsigned int m;

	for (m = 0; m < n_meshes; m++)
		cli_clock_str(dev, m, clk[m], sizeof(clk[m]));
}

int cli_cmd_top(const struct kohaku_cli_opts *o)
{
	struct drm_kohaku_get_info gi;
	struct drm_kohaku_node *prev = NULL, *cur = NULL;
	uint64_t jobs0[KOHAKU_MAX_MESHES], jobs1[KOHAKU_MAX_MESHES];
	char clk[KOHAKU_MAX_MESHES][32];
	unsigned int interval = o->interval_ms ? o->interval_ms : 1000;
	unsigned int n0 = 0, n1 = 0, n_meshes, sample, i, m;
	kohaku_device *dev;
	double t_start, t0, t1;
	int r, ret = EXIT_OK;

	r = cli_open_nodes(o, KOHAKU_NODES_LIVE, &dev, &prev, &n0);
	if (r)
		return r;
	memset(&gi, 0, sizeof(gi));
	kohaku_get_info(dev, &gi, sizeof(gi));
	n_meshes = gi.n_meshes < KOHAKU_MAX_MESHES ? gi.n_meshes :
		   KOHAKU_MAX_MESHES;
	jobs_done(dev, n_meshes, jobs0);
	t_start = t0 = now_s();
	if (o->csv)
		printf("sample,time_s,mesh,x,y,type,busy_cycles,retired,hung,"
		       "mesh_jobs_per_s,mesh_clock\n");
	for (sample = 1; !o->count || sample <= o->count; sample++) {
		struct json_object *js = NULL, *jn = NULL;
		double dt;

		/*
		 * a live view is read as it comes; and one nobody can read
		 * (a full disk, --count 0 into /dev/full) must not go on
		 * forever: main's cli_output_close says why and exits 2
		 */
		if (!cli_output_flush())
			break;
		sleep_ms(interval);
		if (kohaku_nodes_alloc(dev, KOHAKU_NODES_LIVE, &cur, sizeof(*cur), &n1) < 0) {
			cli_error("top: %s", kohaku_last_error(dev));
			ret = EXIT_DEVICE;
			break;
		}
		jobs_done(dev, n_meshes, jobs1);
		clocks_now(dev, n_meshes, clk);
		t1 = now_s();
		dt = t1 - t0 > 1e-9 ? t1 - t0 : 1e-9;
		if (n1 != n0) {
			cli_error("top: the node table changed (%u nodes, "
				  "then %u)", n0, n1);
			ret = EXIT_DEVICE;
			break;
		}
		if (o->json) {
			struct json_object *ma = json_object_new_array();

			js = json_object_new_object();
			jn = json_object_new_array();
			json_object_object_add(js, "schema", json_object_new_int(1));
			json_object_object_add(js, "sample",
					       json_object_new_int64(sample));
			json_object_object_add(js, "time_s",
					       cli_json_fixed(t1 - t_start, 3));
			json_object_object_add(js, "interval_s",
					       cli_json_fixed(dt, 3));
			for (m = 0; m < n_meshes; m++) {
				struct json_object *mj = json_object_new_object();

				json_object_object_add(mj, "mesh",
						       json_object_new_int64(m));
				json_object_object_add(mj, "jobs_per_s",
					cli_json_fixed((jobs1[m] - jobs0[m]) /
						       dt, 1));
				json_object_object_add(mj, "clock",
					json_object_new_string(clk[m]));
				json_object_array_add(ma, mj);
			}
			json_object_object_add(js, "meshes", ma);
		} else if (!o->csv) {
			printf("sample %u at %.3f s (%.0f ms):", sample,
			       t1 - t_start, dt * 1e3);
			for (m = 0; m < n_meshes; m++)
				printf("  mesh %u %.1f jobs/s at %s", m,
				       (jobs1[m] - jobs0[m]) / dt, clk[m]);
			printf("\n%-4s %-7s %-6s %12s %10s %-5s %s\n", "mesh",
			       "node", "type", "busy_cycles", "retired", "state",
			       "clock");
		}
		for (i = 0; i < n1; i++) {
			const struct drm_kohaku_node *q = &cur[i];
			uint32_t busy = q->busy_cycles - prev[i].busy_cycles;
			uint32_t ret_d = q->retired - prev[i].retired;
			bool hung = q->flags & KOHAKU_NODE_HUNG;
			char tn[16], coord[16];
			double jps = q->mesh < n_meshes ?
				     (jobs1[q->mesh] - jobs0[q->mesh]) / dt : 0;
			const char *qclk = q->mesh < n_meshes ? clk[q->mesh] : "-";

			kohaku_cu_type_name(q->cu_type, tn, sizeof(tn));
			if (o->json) {
				struct json_object *nj = json_object_new_object();

				json_object_object_add(nj, "mesh",
						       json_object_new_int64(q->mesh));
				json_object_object_add(nj, "x",
						       json_object_new_int64(q->x));
				json_object_object_add(nj, "y",
						       json_object_new_int64(q->y));
				json_object_object_add(nj, "type",
						       json_object_new_string(tn));
				json_object_object_add(nj, "busy_cycles",
						       json_object_new_int64(busy));
				json_object_object_add(nj, "retired",
						       json_object_new_int64(ret_d));
				json_object_object_add(nj, "hung",
						       json_object_new_boolean(hung));
				json_object_array_add(jn, nj);
			} else if (o->csv) {
				printf("%u,%.3f,%u,%u,%u,%s,%u,%u,%d,%.1f,%s\n",
				       sample, t1 - t_start, q->mesh, q->x, q->y,
				       tn, busy, ret_d, hung, jps, qclk);
			} else {
				snprintf(coord, sizeof(coord), "(%u,%u)", q->x,
					 q->y);
				printf("%-4u %-7s %-6s %12u %10u %-5s %s\n",
				       q->mesh, coord, tn, busy, ret_d,
				       hung ? "HUNG" : q->busy ? "busy" : "idle",
				       qclk);
			}
		}
		if (o->json) {
			json_object_object_add(js, "nodes", jn);
			cli_json_print(js);
		} else if (!o->csv)
			printf("\n");
		free(prev);
		prev = cur;
		cur = NULL;
		memcpy(jobs0, jobs1, sizeof(jobs0));
		t0 = t1;
	}
	free(prev);
	free(cur);
	kohaku_close(dev);
	return ret;
}

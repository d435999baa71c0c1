// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A job that outlives its time limit ends TIMEOUT (WAIT returns it promptly,
 * it does not wait for the unit), and then, per docs/driver-core.md
 * "Timeouts and recovery": the unit either drains within the recovery
 * window (the mesh carries on: the same node takes and runs the next job)
 * or is marked KOHAKU_NODE_HUNG and refused with EIO; or the mesh is
 * wedged and refuses jobs with EIO.  Never a job left hanging.
 *
 * Destructive on a shared card (a hung node stays hung: no soft reset): on
 * the sim backend every test has a fresh card; on the kernel backend it runs
 * only with KOHAKU_TEST_DESTRUCTIVE=1 (run it last).
 */
#include <stdlib.h>
#include <string.h>

#include "rt_test.h"

TEST_F(rt, job_time_limit)
{
	enum { N = 1 << 20 };
	struct drm_kohaku_node sx[16], nd[32];
	struct kohaku_program p;
	struct kohaku_inst inst;
	struct kohaku_job_status st;
	struct rt_vec v;
	unsigned int n_sx, n, i;
	uint64_t job;
	const char *d = getenv("KOHAKU_TEST_DESTRUCTIVE");
	int r;
	RT_OPEN(dev);

	if (kohaku_device_backend(dev) == KOHAKU_BACKEND_KERNEL && !(d && *d == '1')) {
		kohaku_close(dev);
		SKIP(return, "destructive on a shared device; set KOHAKU_TEST_DESTRUCTIVE=1");
	}
	n_sx = rt_nodes_of(dev, KH_CU_SX, sx, 16);
	REQUIRE(n_sx > 0);
	REQUIRE(rt_vec_setup(dev, sx[0].mesh, N, 2, &v) == 0);
	rt_prog_saxpy(&p, &inst, 1, &sx[0], &v, 3.0f);
	/* 1 ms of device time is far too little for 2^20 elements */
	CHECK_OK(dev, kohaku_submit(dev, &p, 1, 1, &job));
	r = kohaku_wait(dev, job, 5000, &st, sizeof(st));
	CHECK_MSG(r == 0, "WAIT: %d: %s", r, kohaku_last_error(dev));
	CHECK_MSG(st.status == KOHAKU_JOB_TIMEOUT, "status %s, expected TIMEOUT",
		  kohaku_job_status_name(st.status));
	CHECK(strstr(kohaku_last_error(dev), "TIMEOUT") != NULL);
	/* WAIT and the message name the node that had not finished */
	CHECK(st.fault_flags & KOHAKU_FAULT_NODE_KNOWN);
	CHECK_EQ(st.fault_mesh, sx[0].mesh);
	CHECK_EQ(st.fault_x, sx[0].x);
	CHECK_EQ(st.fault_y, sx[0].y);
	CHECK_EQ(st.n_faults, 0);
	{
		char want[64], why[512];

		snprintf(want, sizeof(want), "mesh %u node (%u,%u) had not finished",
			 sx[0].mesh, sx[0].x, sx[0].y);
		kohaku_job_describe(&st, sizeof(st), why, sizeof(why));
		CHECK_MSG(strstr(why, want) != NULL, "%s", why);
		CHECK_MSG(strstr(kohaku_last_error(dev), want) != NULL, "%s",
			  kohaku_last_error(dev));
	}
	CHECK_MSG(st.device_ns >= 1000000, "device_ns %llu for a 1 ms limit",
		  (unsigned long long)st.device_ns);
	CHECK(st.device_ns < 1000000000ULL);

	/* what became of the node and the mesh */
	{
		struct drm_kohaku_get_info in;
		bool hung = false, wedged;
		struct rt_vec w;
		struct kohaku_program q;
		struct kohaku_inst qi;
		unsigned int u;

		CHECK_OK(dev, kohaku_nodes(dev, 0, nd, 32, sizeof(*nd), &n));
		for (i = 0; i < n; i++)
			if (nd[i].x == sx[0].x && nd[i].y == sx[0].y)
				hung = nd[i].flags & KOHAKU_NODE_HUNG;
		memset(&in, 0, sizeof(in));
		CHECK_OK(dev, kohaku_ioctl(dev, DRM_IOCTL_KOHAKU_GET_INFO, &in));
		wedged = in.mesh[sx[0].mesh].flags & KOHAKU_MESH_WEDGED;
		check_diag("after the timeout: node %s, mesh %s", hung ? "hung" : "not hung",
			 wedged ? "wedged" : "not wedged");
		for (u = 0; u < n_sx && u < 2; u++) {
			bool refused = wedged || (u == 0 && hung);

			REQUIRE(rt_vec_setup(dev, sx[u].mesh, 50, 3 + u, &w) == 0);
			rt_prog_saxpy(&q, &qi, 1, &sx[u], &w, 2.0f);
			r = rt_run(dev, &q, 1, &st);
			if (refused) {
				CHECK_MSG(r == -EIO, "SX (%u,%u) after the timeout: %d, "
					  "expected -EIO", sx[u].x, sx[u].y, r);
				if (r < 0)
					check_diag("%s", kohaku_last_error(dev));
			} else {
				CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE,
					  "SX (%u,%u) after the timeout: %d %s: %s",
					  sx[u].x, sx[u].y, r,
					  kohaku_job_status_name(st.status),
					  kohaku_last_error(dev));
				if (r == 0 && st.status == KOHAKU_JOB_DONE)
					CHECK_EQ(rt_vec_check(dev, &w, 2.0f, 1), 0);
			}
			rt_vec_free(dev, &w);
		}
	}
	rt_vec_free(dev, &v);
	kohaku_close(dev);
}

RT_TEST_MAIN

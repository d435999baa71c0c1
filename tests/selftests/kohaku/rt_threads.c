// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Many submitters on one device: 8 threads, each submitting and waiting
 * for its own jobs (1,000 each; KOHAKU_TEST_JOBS overrides, which the
 * valgrind and VM runs use to stay within their time), half of them on one
 * shared open file and half on a file each.  Every job must be reported
 * final exactly once (a second WAIT is ENOENT), DONE, and must have run
 * exactly once: each thread's y starts at 0 and gains 1.0 per job, so the
 * final y is the job count, element by element.  And data moved through
 * the DMA engine by 8 threads while their jobs run, every byte read back
 * as written (the model's write-back word, stored whole: a TSan build
 * reports any race on it).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "rt_test.h"

#define N_THREADS	8
#define N_ELEMS		16

struct worker {
	kohaku_device *dev;
	const struct drm_kohaku_node *node;
	unsigned int jobs;
	unsigned int done, lost, twice, bad_status;
	uint32_t hx, hy;
	uint64_t ax, ay;
	char err[256];
};

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	struct kohaku_job_status st;
	struct kohaku_program p;
	struct kohaku_inst inst;
	unsigned int i;
	uint64_t id;
	int r;

	kohaku_inst_saxpy(&inst, N_ELEMS, 1.0f, w->ax, w->ay);
	memset(&p, 0, sizeof(p));
	p.mesh = w->node->mesh;
	p.x = w->node->x;
	p.y = w->node->y;
	p.n_insts = 1;
	p.insts = &inst;
	for (i = 0; i < w->jobs; i++) {
		r = kohaku_submit(w->dev, &p, 1, 0, &id);
		if (r) {
			snprintf(w->err, sizeof(w->err), "submit %u: %s", i,
				 kohaku_last_error(w->dev));
			break;
		}
		r = kohaku_wait(w->dev, id, 60000, &st, sizeof(st));
		if (r) {
			w->lost++;
			snprintf(w->err, sizeof(w->err), "wait %u: %d %s", i, r,
				 kohaku_last_error(w->dev));
			break;
		}
		if (st.status != KOHAKU_JOB_DONE)
			w->bad_status++;
		w->done++;
		if (kohaku_wait(w->dev, id, 0, &st, sizeof(st)) != -ENOENT)
			w->twice++;
	}
	return NULL;
}

static unsigned int jobs_per_thread(void)
{
	const char *e = getenv("KOHAKU_TEST_JOBS");

	return e && atoi(e) > 0 ? (unsigned int)atoi(e) : 1000;
}

TEST_F(rt, eight_submitters_one_device)
{
	struct drm_kohaku_node sx[16];
	struct worker w[N_THREADS];
	kohaku_device *files[N_THREADS] = { NULL };
	pthread_t t[N_THREADS];
	float x[N_ELEMS], y[N_ELEMS];
	unsigned int i, k, n_sx, jobs = jobs_per_thread();
	RT_OPEN(dev);

	n_sx = rt_nodes_of(dev, KH_CU_SX, sx, 16);
	REQUIRE(n_sx > 0);
	for (k = 0; k < N_ELEMS; k++)
		x[k] = 1.0f;
	memset(y, 0, sizeof(y));
	memset(w, 0, sizeof(w));
	for (i = 0; i < N_THREADS; i++) {
		/* threads 0..3 share dev's file, 4..7 have one each */
		if (i < N_THREADS / 2)
			files[i] = dev;
		else
			REQUIRE(kohaku_reopen(dev, &files[i]) == 0);
		w[i].dev = files[i];
		w[i].node = &sx[i % n_sx];
		w[i].jobs = jobs;
		REQUIRE(kohaku_bo_create(files[i], sx[i % n_sx].mesh, sizeof(x),
					 &w[i].hx, &w[i].ax) == 0);
		REQUIRE(kohaku_bo_create(files[i], sx[i % n_sx].mesh, sizeof(y),
					 &w[i].hy, &w[i].ay) == 0);
		REQUIRE(kohaku_bo_write(files[i], w[i].hx, 0, x, sizeof(x)) == 0);
		REQUIRE(kohaku_bo_write(files[i], w[i].hy, 0, y, sizeof(y)) == 0);
	}
	for (i = 0; i < N_THREADS; i++)
		REQUIRE(pthread_create(&t[i], NULL, worker_run, &w[i]) == 0);
	for (i = 0; i < N_THREADS; i++)
		pthread_join(t[i], NULL);

	for (i = 0; i < N_THREADS; i++) {
		unsigned int wrong = 0;

		CHECK_MSG(w[i].done == jobs && !w[i].lost,
			  "thread %u: %u of %u jobs completed (%s)", i, w[i].done,
			  jobs, w[i].err);
		CHECK_MSG(!w[i].twice, "thread %u: %u jobs reported twice", i,
			  w[i].twice);
		CHECK_MSG(!w[i].bad_status, "thread %u: %u jobs not DONE", i,
			  w[i].bad_status);
		CHECK_OK(files[i], kohaku_bo_read(files[i], w[i].hy, 0, y, sizeof(y)));
		for (k = 0; k < N_ELEMS; k++)
			wrong += y[k] != (float)w[i].done;
		CHECK_MSG(!wrong, "thread %u: y[0] = %g after %u jobs: a job ran "
			  "more or less than once", i, y[0], w[i].done);
		kohaku_bo_free(files[i], w[i].hx);
		kohaku_bo_free(files[i], w[i].hy);
	}
	for (i = N_THREADS / 2; i < N_THREADS; i++)
		kohaku_close(files[i]);
	kohaku_close(dev);
}

/*
 * Data moved while jobs run: 8 threads on one device, each writing a
 * pattern of its own to a BO and reading it back through the card's DMA
 * engine, and running a saxpy job, in a loop.  Whichever thread steps
 * the simulated card completes another thread's transfer, whose driver
 * polls the write-back word meanwhile: the model stores that word whole
 * (a TSan build of this test reports any race on it).
 */
struct mover {
	kohaku_device *dev;
	const struct drm_kohaku_node *node;
	unsigned int rounds, id, bad, moved, ran;
	uint32_t hb, hx, hy;
	uint64_t ab, ax, ay;
	char err[256];
};

static void *mover_run(void *arg)
{
	struct mover *m = arg;
	struct kohaku_job_status st;
	struct kohaku_program p;
	struct kohaku_inst inst;
	uint8_t out[1024], in[1024];
	unsigned int i, k;
	uint64_t id;
	int r;

	kohaku_inst_saxpy(&inst, N_ELEMS, 1.0f, m->ax, m->ay);
	memset(&p, 0, sizeof(p));
	p.mesh = m->node->mesh;
	p.x = m->node->x;
	p.y = m->node->y;
	p.n_insts = 1;
	p.insts = &inst;
	for (i = 0; i < m->rounds; i++) {
		for (k = 0; k < sizeof(out); k++)
			out[k] = (uint8_t)(k * 7 + i * 13 + m->id * 31);
		r = kohaku_bo_write(m->dev, m->hb, 0, out, sizeof(out));
		if (!r)
			r = kohaku_bo_read(m->dev, m->hb, 0, in, sizeof(in));
		if (r) {
			snprintf(m->err, sizeof(m->err), "round %u: %s", i,
				 kohaku_last_error(m->dev));
			break;
		}
		m->moved++;
		m->bad += memcmp(in, out, sizeof(in)) != 0;
		r = kohaku_submit(m->dev, &p, 1, 0, &id);
		if (!r)
			r = kohaku_wait(m->dev, id, 60000, &st, sizeof(st));
		if (r || st.status != KOHAKU_JOB_DONE) {
			snprintf(m->err, sizeof(m->err), "job %u: %d %s", i, r,
				 kohaku_last_error(m->dev));
			break;
		}
		m->ran++;
	}
	return NULL;
}

TEST_F(rt, eight_threads_move_data_while_jobs_run)
{
	struct drm_kohaku_node sx[16];
	struct mover m[N_THREADS];
	pthread_t t[N_THREADS];
	float x[N_ELEMS], y[N_ELEMS];
	unsigned int i, k, n_sx, rounds = jobs_per_thread() / 2 + 1;
	RT_OPEN(dev);

	n_sx = rt_nodes_of(dev, KH_CU_SX, sx, 16);
	REQUIRE(n_sx > 0);
	for (k = 0; k < N_ELEMS; k++)
		x[k] = 1.0f;
	memset(y, 0, sizeof(y));
	memset(m, 0, sizeof(m));
	for (i = 0; i < N_THREADS; i++) {
		m[i].dev = dev;
		m[i].node = &sx[i % n_sx];
		m[i].rounds = rounds;
		m[i].id = i;
		REQUIRE(kohaku_bo_create(dev, sx[i % n_sx].mesh, 1024,
					 &m[i].hb, &m[i].ab) == 0);
		REQUIRE(kohaku_bo_create(dev, sx[i % n_sx].mesh, sizeof(x),
					 &m[i].hx, &m[i].ax) == 0);
		REQUIRE(kohaku_bo_create(dev, sx[i % n_sx].mesh, sizeof(y),
					 &m[i].hy, &m[i].ay) == 0);
		REQUIRE(kohaku_bo_write(dev, m[i].hx, 0, x, sizeof(x)) == 0);
		REQUIRE(kohaku_bo_write(dev, m[i].hy, 0, y, sizeof(y)) == 0);
	}
	for (i = 0; i < N_THREADS; i++)
		REQUIRE(pthread_create(&t[i], NULL, mover_run, &m[i]) == 0);
	for (i = 0; i < N_THREADS; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < N_THREADS; i++) {
		CHECK_MSG(m[i].moved == rounds && m[i].ran == rounds,
			  "thread %u: %u of %u transfers, %u jobs (%s)", i,
			  m[i].moved, rounds, m[i].ran, m[i].err);
		CHECK_MSG(!m[i].bad, "thread %u: %u transfers read back wrong",
			  i, m[i].bad);
		CHECK_OK(dev, kohaku_bo_read(dev, m[i].hy, 0, y, sizeof(y)));
		CHECK_EQ(y[0], (float)m[i].ran);
		kohaku_bo_free(dev, m[i].hb);
		kohaku_bo_free(dev, m[i].hx);
		kohaku_bo_free(dev, m[i].hy);
	}
	kohaku_close(dev);
}

RT_TEST_MAIN

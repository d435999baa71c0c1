// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Compiler artifacts on a device (docs/spec/artifact.md): the check of
 * each round against the mesh's node table, and the run, one job per
 * round, fenced one after the other.
 *
 * A round is built from its steps into programs (one per node kicked or
 * awaited) just before it is needed and freed after: the check walks
 * every round first, the run walks them again as it submits, so memory
 * holds one round at a time however long the artifact.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "artifact_int.h"
#include "kohaku/kh_regs.h"

/* a kick's part of a program: which step, which slots */
struct kh_rt_art_kick {
	uint32_t step, base, nflits;
};

struct kh_rt_art_prog {
	uint8_t x, y;
	uint16_t inst_depth;
	uint32_t n_insts, cap;
	struct kohaku_inst *insts;
	uint32_t peer;
	int txn;		/* from its flits' headers, else -1 */
	bool awaited;
	uint32_t n_kicks, kcap;
	struct kh_rt_art_kick *kicks;
};

struct kh_rt_art_round {
	uint32_t index;
	uint32_t first, end;	/* its steps: [first, end) */
	uint32_t n_progs;
	struct kh_rt_art_prog progs[KOHAKU_MAX_PROGRAMS];
	bool seeded;
	uint32_t seed, seed_step;
	uint32_t total;		/* instructions and peer signals */
};

struct kh_rt_art_ctx {
	kohaku_device *dev;
	const struct kohaku_artifact *a;
	unsigned int mesh;
	struct drm_kohaku_node *nodes;
	unsigned int n_nodes;
	/* the mesh's nodes by coordinate: index + 1 into nodes, 0 none */
	unsigned int at[16][16];
};

static void round_clear(struct kh_rt_art_round *r)
{
	uint32_t i;

	for (i = 0; i < r->n_progs; i++) {
		free(r->progs[i].insts);
		free(r->progs[i].kicks);
	}
	memset(r, 0, sizeof(*r));
}

static int ctx_init(struct kh_rt_art_ctx *c, kohaku_device *dev,
		    const struct kohaku_artifact *a, unsigned int mesh)
{
	unsigned int i;
	int r;

	memset(c, 0, sizeof(*c));
	c->dev = dev;
	c->a = a;
	c->mesh = mesh;
	if (!a) {
		kh_rt_seterr(dev, "checking an artifact: it is NULL");
		return -EINVAL;
	}
	if (mesh >= KOHAKU_MAX_MESHES ||
	    !(dev->info.mesh[mesh].flags & KOHAKU_MESH_PRESENT)) {
		kh_rt_seterr(dev, "checking an artifact on mesh %u: the device "
			     "has no such mesh", mesh);
		return -EINVAL;
	}
	r = kohaku_nodes_alloc(dev, 0, &c->nodes, sizeof(*c->nodes),
			       &c->n_nodes);
	if (r)
		return r;
	for (i = 0; i < c->n_nodes; i++) {
		const struct drm_kohaku_node *n = &c->nodes[i];

		if (n->mesh == mesh && n->x < 16 && n->y < 16)
			c->at[n->x][n->y] = i + 1;
	}
	return 0;
}

static void ctx_fini(struct kh_rt_art_ctx *c)
{
	free(c->nodes);
	c->nodes = NULL;
}

__attribute__((format(printf, 4, 5)))
static int step_err(struct kh_rt_art_ctx *c, uint32_t step, int err,
		    const char *fmt, ...)
{
	char name[64], msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	kh_rt_art_step_name(c->a, step, name, sizeof(name));
	kh_rt_seterr(c->dev, "%s: %s", name, msg);
	return err;
}

/* the node at (x, y) of the mesh, or NULL */
static const struct drm_kohaku_node *node_at(struct kh_rt_art_ctx *c, uint32_t x,
					     uint32_t y)
{
	if (x >= 16 || y >= 16 || !c->at[x][y])
		return NULL;
	return &c->nodes[c->at[x][y] - 1];
}

static int no_node(struct kh_rt_art_ctx *c, uint32_t step, uint32_t x, uint32_t y)
{
	return step_err(c, step, -ENXIO, "no node at (%u,%u) on mesh %u (the "
			"node table: `kohaku nodes`); the artifact was compiled "
			"for another map, or for another mesh", x, y, c->mesh);
}

/* the program of (x, y) in the round, made when make */
static struct kh_rt_art_prog *prog_of(struct kh_rt_art_round *r, uint32_t x, uint32_t y)
{
	uint32_t i;

	for (i = 0; i < r->n_progs; i++)
		if (r->progs[i].x == x && r->progs[i].y == y)
			return &r->progs[i];
	return NULL;
}

static int new_prog(struct kh_rt_art_ctx *c, struct kh_rt_art_round *r, uint32_t step,
		    const struct drm_kohaku_node *nd, struct kh_rt_art_prog **out)
{
	struct kh_rt_art_prog *p;

	if (r->n_progs >= KOHAKU_MAX_PROGRAMS)
		return step_err(c, step, -E2BIG, "round %u reaches more than %u "
				"nodes: a job has at most KOHAKU_MAX_PROGRAMS "
				"programs", r->index, KOHAKU_MAX_PROGRAMS);
	p = &r->progs[r->n_progs++];
	memset(p, 0, sizeof(*p));
	p->x = nd->x;
	p->y = nd->y;
	p->inst_depth = nd->inst_depth;
	p->txn = -1;
	*out = p;
	return 0;
}

static int do_kick(struct kh_rt_art_ctx *c, struct kh_rt_art_round *r, uint32_t i,
		   bool build)
{
	const struct kh_rt_art_step *s = &c->a->steps[i];
	uint32_t x = s->a[0], y = s->a[1], base = s->a[2], n = s->a[3], k;
	const struct drm_kohaku_node *nd = node_at(c, x, y);
	struct kh_rt_art_prog *p;
	char tn[16], want[16];
	int err;

	if (!nd)
		return no_node(c, i, x, y);
	if (!n)
		return step_err(c, i, -EINVAL, "nflits 0: a kick launches at "
				"least one payload");
	if ((uint64_t)base + n > KH_ORC_STAGE_FLITS)
		return step_err(c, i, -ERANGE, "base %u + nflits %u passes the "
				"%u-slot staging RAM (KH_ORC_STAGE_FLITS): a round "
				"restages from slot 0, a slot past it is stale",
				base, n, KH_ORC_STAGE_FLITS);
	if ((uint64_t)base + n > c->a->n_flits)
		return step_err(c, i, -ERANGE, "base %u + nflits %u passes the "
				"artifact's %u payloads", base, n, c->a->n_flits);
	kohaku_cu_type_name(nd->cu_type, tn, sizeof(tn));
	if (!nd->inst_depth)
		return step_err(c, i, -ENODEV, "the node at (%u,%u) (%s) takes "
				"no instructions (inst_depth 0)", x, y, tn);
	if (c->a->has_unit && nd->cu_type != c->a->unit) {
		unsigned int k, have = 0;

		kohaku_cu_type_name(c->a->unit, want, sizeof(want));
		for (k = 0; k < c->n_nodes; k++)
			have += c->nodes[k].mesh == c->mesh &&
				c->nodes[k].cu_type == c->a->unit;
		return step_err(c, i, -ENODEV, "the node at (%u,%u) is a %s "
				"unit; the artifact is for %s units (meta "
				"\"unit\")%s", x, y, tn, want, have ? "" :
				", and the mesh has none: it was compiled for "
				"another card");
	}
	if (r->total + n > KOHAKU_MAX_JOB_INSTS)
		return step_err(c, i, -E2BIG, "round %u sends more than %u "
				"instructions (KOHAKU_MAX_JOB_INSTS): Kohaku runs a "
				"round as one job", r->index, KOHAKU_MAX_JOB_INSTS);
	r->total += n;
	p = prog_of(r, x, y);
	if (!p) {
		err = new_prog(c, r, i, nd, &p);
		if (err)
			return err;
	}
	if (p->n_kicks == p->kcap) {
		uint32_t ncap = p->kcap ? p->kcap * 2 : 4;
		struct kh_rt_art_kick *k = realloc(p->kicks, ncap * sizeof(*k));

		if (!k)
			return step_err(c, i, -ENOMEM, "out of memory");
		p->kicks = k;
		p->kcap = ncap;
	}
	for (k = base; k < base + n; k++) {
		int t = c->a->flit_txn ? c->a->flit_txn[k] : -1;

		if (t < 0)
			continue;
		if (p->txn >= 0 && p->txn != t)
			return step_err(c, i, -EINVAL, "flit %u's header carries "
					"txn 0x%02x, and an earlier flit of (%u,%u)'s "
					"program in round %u 0x%02x: a program has "
					"one txn", k, t, x, y, r->index, p->txn);
		p->txn = t;
	}
	p->kicks[p->n_kicks++] = (struct kh_rt_art_kick){ i, base, n };
	if (build) {
		if (p->n_insts + n > p->cap) {
			uint32_t ncap = p->cap ? p->cap : 16;
			struct kohaku_inst *in;

			while (ncap < p->n_insts + n)
				ncap *= 2;
			in = realloc(p->insts, ncap * sizeof(*in));
			if (!in)
				return step_err(c, i, -ENOMEM, "out of memory");
			p->insts = in;
			p->cap = ncap;
		}
		memcpy(p->insts + p->n_insts, c->a->flits + base,
		       n * sizeof(*p->insts));
	}
	p->n_insts += n;
	return 0;
}

static int do_await(struct kh_rt_art_ctx *c, struct kh_rt_art_round *r, uint32_t i)
{
	const struct kh_rt_art_step *s = &c->a->steps[i];
	uint32_t x = s->a[0], y = s->a[1], count = s->a[2];
	const struct drm_kohaku_node *nd = node_at(c, x, y);
	struct kh_rt_art_prog *p;
	int err;

	if (!nd)
		return no_node(c, i, x, y);
	p = prog_of(r, x, y);
	if (p && p->awaited)
		return step_err(c, i, -EINVAL, "(%u,%u) is awaited twice in "
				"round %u: counts are cumulative, a node is "
				"awaited once per round, for the total", x, y,
				r->index);
	if (count > KOHAKU_MAX_JOB_INSTS)
		return step_err(c, i, -E2BIG, "count %u: a job waits for at most "
				"%u signals (KOHAKU_MAX_JOB_INSTS)", count,
				KOHAKU_MAX_JOB_INSTS);
	if (p) {
		if (count < p->n_insts)
			return step_err(c, i, -EINVAL, "count %u is less than the "
					"%u instructions round %u kicked to "
					"(%u,%u): a node kicked more than once "
					"in a round is awaited once, for the "
					"total (completion counts are cumulative)",
					count, p->n_insts, r->index, x, y);
		p->peer = count - p->n_insts;
	} else {
		if (!count)
			return step_err(c, i, -EINVAL, "count 0 on (%u,%u), which "
					"round %u does not kick: there is "
					"nothing to wait for", x, y, r->index);
		err = new_prog(c, r, i, nd, &p);
		if (err)
			return err;
		p->peer = count;
	}
	if (r->total + p->peer > KOHAKU_MAX_JOB_INSTS)
		return step_err(c, i, -E2BIG, "round %u waits for more than %u "
				"signals (KOHAKU_MAX_JOB_INSTS)", r->index,
				KOHAKU_MAX_JOB_INSTS);
	r->total += p->peer;
	p->awaited = true;
	return 0;
}

/*
 * The round that starts at step *pos: checked against the mesh, with the
 * programs' instructions when build; *pos moves past its barrier.
 */
static int build_round(struct kh_rt_art_ctx *c, uint32_t index, uint32_t *pos,
		       bool build, struct kh_rt_art_round *r)
{
	enum { KICKS_OK, AWAITS } phase = KICKS_OK;
	const struct kohaku_artifact *a = c->a;
	uint32_t i, k, credit = 0;
	bool kicked = false;
	int err;

	memset(r, 0, sizeof(*r));
	r->index = index;
	r->first = *pos;
	for (i = *pos; i < a->n_steps; i++) {
		const struct kh_rt_art_step *s = &a->steps[i];

		if (s->kind == KH_ART_BARRIER)
			break;
		switch (s->kind) {
		case KH_ART_SEED:
			if (r->seeded)
				return step_err(c, i, -EINVAL, "a second seed in "
						"round %u (step %u seeded it): a "
						"round is seeded once", index,
						r->seed_step);
			if (kicked || phase == AWAITS)
				return step_err(c, i, -EINVAL, "a seed after a "
						"%s in round %u: the seed comes "
						"before any kick",
						kicked ? "kick" : "await", index);
			if (s->a[0] < 1)
				return step_err(c, i, -ERANGE, "seed %u: a round's "
						"credit is at least 1", s->a[0]);
			r->seeded = true;
			r->seed = s->a[0];
			r->seed_step = i;
			break;
		case KH_ART_KICK:
			if (phase == AWAITS)
				return step_err(c, i, -EINVAL, "a kick after an "
						"await in round %u: a barrier "
						"must separate them, because "
						"Kohaku runs a round as one job",
						index);
			kicked = true;
			err = do_kick(c, r, i, build);
			if (err)
				return err;
			break;
		case KH_ART_AWAIT:
			phase = AWAITS;
			err = do_await(c, r, i);
			if (err)
				return err;
			break;
		case KH_ART_BARRIER:
			break;
		}
	}
	r->end = i;
	*pos = i < a->n_steps ? i + 1 : i;
	/* the credit the driver seeds the job with: the kicked nodes' least depth */
	for (k = 0; k < r->n_progs; k++)
		if (r->progs[k].n_insts &&
		    (!credit || r->progs[k].inst_depth < credit))
			credit = r->progs[k].inst_depth;
	if (r->seeded && credit && r->seed > credit)
		return step_err(c, r->seed_step, -ERANGE, "seed %u is above the "
				"credit the driver gives round %u's job: %u, the "
				"smallest inst_depth of the nodes it kicks (a "
				"seed is checked, never written: the driver owns "
				"the credit)", r->seed, index, credit);
	return 0;
}

/* every round, checked; nothing kept */
static int check_all(struct kh_rt_art_ctx *c)
{
	struct kh_rt_art_round *r = malloc(sizeof(*r));
	uint32_t pos = 0, index = 0;
	int err = 0;

	if (!r) {
		kh_rt_seterr(c->dev, "checking an artifact: out of memory");
		return -ENOMEM;
	}
	memset(r, 0, sizeof(*r));
	do {
		err = build_round(c, index++, &pos, false, r);
		round_clear(r);
	} while (!err && index < c->a->n_rounds);
	free(r);
	return err;
}

KH_RT_EXPORT int kohaku_artifact_check(kohaku_device *dev,
				       const struct kohaku_artifact *a,
				       unsigned int mesh)
{
	struct kh_rt_art_ctx c;
	int err;

	if (!dev)
		return -EINVAL;
	err = ctx_init(&c, dev, a, mesh);
	if (!err)
		err = check_all(&c);
	ctx_fini(&c);
	return err;
}

/* "the 2nd" */
static const char *ordinal(uint32_t n, char *buf, size_t len)
{
	const char *sfx = "th";

	if (n % 100 < 11 || n % 100 > 13)
		sfx = n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" :
		      n % 10 == 3 ? "rd" : "th";
	snprintf(buf, len, "%u%s", n, sfx);
	return buf;
}

/* SUBMIT refused an operand: the round, the kick's step, the slot, the operand */
static void refused_msg(struct kh_rt_art_ctx *c, const struct kh_rt_art_round *r,
			const struct drm_kohaku_submit *req, int err,
			char *msg, size_t len)
{
	const struct kh_rt_art_prog *p = &r->progs[req->refused_program];
	uint32_t inst = req->refused_inst, off = 0, k;
	char name[64], nth[16], what[256];

	for (k = 0; k < p->n_kicks; k++) {
		if (inst < off + p->kicks[k].nflits)
			break;
		off += p->kicks[k].nflits;
	}
	if (req->refused_why == KOHAKU_REFUSED_NODE)
		snprintf(what, sizeof(what), "operand %u: node (%u,%u)",
			 req->refused_operand,
			 (unsigned int)(req->refused_addr & 0xff),
			 (unsigned int)(req->refused_addr >> 8));
	else if (req->refused_why == KOHAKU_REFUSED_UNCHECKABLE)
		snprintf(what, sizeof(what), "the instruction");
	else
		snprintf(what, sizeof(what), "operand %u: 0x%" PRIx64 ", %"
			 PRIu64 " bytes,", req->refused_operand,
			 (uint64_t)req->refused_addr, (uint64_t)req->refused_len);
	if (k == p->n_kicks) {
		snprintf(msg, len, "round %u: (%u,%u) instruction %u, %s, %s "
			 "(SUBMIT: %s)", r->index, p->x, p->y, inst, what,
			 kh_rt_refused_why(req->refused_why),
			 err == -E2BIG ? "E2BIG" : "EACCES");
		return;
	}
	kh_rt_art_step_name(c->a, p->kicks[k].step, name, sizeof(name));
	snprintf(msg, len, "round %u, %s, flit %u (the %s instruction of "
		 "(%u,%u)'s program): %s %s (SUBMIT: %s)%s", r->index, name,
		 p->kicks[k].base + (inst - off), ordinal(inst + 1, nth, sizeof(nth)),
		 p->x, p->y, what, kh_rt_refused_why(req->refused_why),
		 err == -E2BIG ? "E2BIG" : "EACCES",
		 err == -EACCES && req->refused_why == KOHAKU_REFUSED_OUTSIDE ?
		 ". The payloads' addresses must lie in the arenas the run "
		 "names" : "");
}

/* what the rounds came to */
struct kh_rt_art_state {
	uint32_t fail_round;	/* UINT32_MAX: none yet */
	int fail_err;
	char fail_msg[KOHAKU_ERRMSG_MAX];
	struct kohaku_artifact_result res;
};

static void run_fail(struct kh_rt_art_state *st, uint32_t round, int err,
		     const char *msg)
{
	if (st->fail_round != UINT32_MAX && st->fail_round <= round)
		return;
	st->fail_round = round;
	st->fail_err = err;
	kh_rt_strlcpy(st->fail_msg, msg, sizeof(st->fail_msg));
}

/* wait for one submitted round's job to be final (job 0: an empty round) */
static void wait_round(struct kh_rt_art_ctx *c, struct kh_rt_art_state *st, uint32_t round,
		       uint64_t job, uint32_t limit)
{
	struct kohaku_job_status s;
	char d[512], msg[KOHAKU_ERRMSG_MAX];
	int r = -ETIMEDOUT, i;

	/* a round with nothing to run: finished, unless one before it failed */
	if (!job) {
		if (st->fail_round == UINT32_MAX || st->fail_round > round)
			st->res.rounds++;
		return;
	}
	memset(&s, 0, sizeof(s));
	for (i = 0; i < 4 && r == -ETIMEDOUT; i++)
		r = kohaku_wait(c->dev, job, limit + 1000, &s, sizeof(s));
	if (r) {
		snprintf(msg, sizeof(msg), "round %u: %s", round,
			 r == -ETIMEDOUT ? "the job is still not final after 4 "
			 "waits past its limit; the driver did not end it" :
			 kohaku_last_error(c->dev));
		run_fail(st, round, r, msg);
		return;
	}
	st->res.device_ns += s.device_ns;
	if (s.status == KOHAKU_JOB_DONE) {
		st->res.rounds++;
		if (st->fail_round == UINT32_MAX)
			st->res.status = s;
		return;
	}
	snprintf(msg, sizeof(msg), "round %u (job %" PRIu64 "): %s", round, job,
		 kohaku_job_describe(&s, sizeof(s), d, sizeof(d)));
	if (st->fail_round == UINT32_MAX || round < st->fail_round)
		st->res.status = s;
	run_fail(st, round, s.status == KOHAKU_JOB_TIMEOUT ? -ETIMEDOUT :
		 s.status == KOHAKU_JOB_ABORTED ? -ECANCELED : -EIO, msg);
}

#define ART_WINDOW	(KOHAKU_MAX_JOBS / 2)

static int run_all(struct kh_rt_art_ctx *c, const struct kohaku_artifact_run *args,
		   struct kh_rt_art_state *st)
{
	struct kohaku_job_bo bos[KOHAKU_MAX_JOB_BOS];
	struct kohaku_program progs[KOHAKU_MAX_PROGRAMS];
	struct {
		uint64_t job;
		uint32_t round;
	} fly[ART_WINDOW];
	uint32_t sync[2] = { 0, 0 }, head = 0, n_fly = 0, pos = 0, index = 0;
	uint32_t limit = args->timeout_ms ? args->timeout_ms :
			 KOHAKU_JOB_TIMEOUT_DEFAULT_MS;
	unsigned int submitted = 0, k;
	struct kh_rt_art_round *r;
	int err = 0;

	r = calloc(1, sizeof(*r));
	if (!r) {
		kh_rt_seterr(c->dev, "running an artifact: out of memory");
		return -ENOMEM;
	}
	for (k = 0; k < args->n_arenas; k++) {
		bos[k].handle = args->arenas[k];
		bos[k].access = KOHAKU_JOB_BO_RW;
	}
	while (index < c->a->n_rounds) {
		struct kohaku_submit_args sa;
		struct drm_kohaku_submit req;
		char msg[KOHAKU_ERRMSG_MAX];
		uint64_t job;
		uint32_t i;

		err = build_round(c, index, &pos, true, r);
		if (err) {
			/* check_all passed: only memory runs out here */
			run_fail(st, index, err, kohaku_last_error(c->dev));
			break;
		}
		index++;
		if (n_fly == ART_WINDOW) {
			wait_round(c, st, fly[head].round, fly[head].job, limit);
			head = (head + 1) % ART_WINDOW;
			n_fly--;
			if (st->fail_round != UINT32_MAX)
				break;
		}
		if (!r->n_progs) {
			/* nothing to run: it counts once what is before it has */
			fly[(head + n_fly) % ART_WINDOW].job = 0;
			fly[(head + n_fly) % ART_WINDOW].round = r->index;
			n_fly++;
			round_clear(r);
			continue;
		}
		for (i = 0; i < r->n_progs; i++) {
			const struct kh_rt_art_prog *p = &r->progs[i];

			memset(&progs[i], 0, sizeof(progs[i]));
			progs[i].mesh = (uint8_t)c->mesh;
			progs[i].x = p->x;
			progs[i].y = p->y;
			/* the txn a flit's header brought, else the index */
			progs[i].txn = (uint8_t)(p->txn >= 0 ? p->txn : (int)i);
			progs[i].n_insts = p->n_insts;
			progs[i].insts = p->insts;
			progs[i].peer_signals = p->peer;
		}
		if (!sync[submitted % 2]) {
			err = kohaku_syncobj_create(c->dev, &sync[submitted % 2]);
			if (err) {
				snprintf(msg, sizeof(msg), "round %u: %s", r->index,
					 kohaku_last_error(c->dev));
				run_fail(st, r->index, err, msg);
				break;
			}
		}
		memset(&sa, 0, sizeof(sa));
		sa.programs = progs;
		sa.n_programs = r->n_progs;
		sa.timeout_ms = args->timeout_ms;
		sa.out_syncobj = sync[submitted % 2];
		if (submitted) {
			sa.in_syncobjs = &sync[(submitted - 1) % 2];
			sa.n_in_syncobjs = 1;
		}
		sa.bos = args->n_arenas ? bos : NULL;
		sa.n_bos = args->n_arenas;
		memset(&req, 0, sizeof(req));
		err = kh_rt_submit(c->dev, &sa, &job, &req);
		if (err) {
			if ((err == -EACCES || err == -E2BIG) && req.refused_why &&
			    req.refused_program < r->n_progs)
				refused_msg(c, r, &req, err, msg, sizeof(msg));
			else
				snprintf(msg, sizeof(msg), "round %u (steps "
					 "%u..%u): %s", r->index, r->first,
					 r->end ? r->end - 1 : 0,
					 kohaku_last_error(c->dev));
			run_fail(st, r->index, err, msg);
			break;
		}
		submitted++;
		fly[(head + n_fly) % ART_WINDOW].job = job;
		fly[(head + n_fly) % ART_WINDOW].round = r->index;
		n_fly++;
		round_clear(r);
	}
	round_clear(r);
	free(r);
	/* what is in flight ends, DONE or aborted by its fence */
	while (n_fly) {
		wait_round(c, st, fly[head].round, fly[head].job, limit);
		head = (head + 1) % ART_WINDOW;
		n_fly--;
	}
	for (k = 0; k < 2; k++)
		if (sync[k])
			kohaku_syncobj_destroy(c->dev, sync[k]);
	return st->fail_round == UINT32_MAX ? 0 : st->fail_err;
}

KH_RT_EXPORT int kohaku_artifact_run(kohaku_device *dev,
				     const struct kohaku_artifact *a,
				     const struct kohaku_artifact_run *args,
				     struct kohaku_artifact_result *res,
				     size_t res_size)
{
	struct kohaku_artifact_result none;
	struct kh_rt_art_state *st;
	struct kh_rt_art_ctx c;
	int err;

	if (res && !res_size)
		return -EINVAL;
	if (res) {
		memset(&none, 0, sizeof(none));
		none.failed_round = UINT32_MAX;
		kh_rt_copy_out(res, res_size, &none, sizeof(none));
	}
	if (!dev)
		return -EINVAL;
	if (!args) {
		kh_rt_seterr(dev, "running an artifact: args is NULL");
		return -EINVAL;
	}
	if (args->flags) {
		kh_rt_seterr(dev, "running an artifact: flags 0x%x, expected 0",
			     args->flags);
		return -EINVAL;
	}
	if (args->n_arenas > KOHAKU_MAX_JOB_BOS) {
		kh_rt_seterr(dev, "running an artifact with %u arenas: a job "
			     "names at most %u buffers (KOHAKU_MAX_JOB_BOS)",
			     args->n_arenas, KOHAKU_MAX_JOB_BOS);
		return -EINVAL;
	}
	if (args->n_arenas && !args->arenas) {
		kh_rt_seterr(dev, "running an artifact: arenas is NULL with "
			     "n_arenas %u", args->n_arenas);
		return -EFAULT;
	}
	err = ctx_init(&c, dev, a, args->mesh);
	if (!err)
		err = check_all(&c);
	if (err) {
		ctx_fini(&c);
		return err;
	}
	st = calloc(1, sizeof(*st));
	if (!st) {
		ctx_fini(&c);
		kh_rt_seterr(dev, "running an artifact: out of memory");
		return -ENOMEM;
	}
	st->fail_round = UINT32_MAX;
	st->res.failed_round = UINT32_MAX;
	err = run_all(&c, args, st);
	ctx_fini(&c);
	st->res.failed_round = st->fail_round;
	if (err)
		kh_rt_seterr(dev, "%s", st->fail_msg);
	if (res)
		kh_rt_copy_out(res, res_size, &st->res, sizeof(st->res));
	free(st);
	return err;
}

/* libkohaku 0.1's kohaku_artifact_run (version node KOHAKU_0) */
int kh_rt_artifact_run_v0(kohaku_device *dev, const struct kohaku_artifact *a,
			  const struct kohaku_artifact_run *args,
			  struct kohaku_artifact_result *res);
int kh_rt_artifact_run_v0(kohaku_device *dev, const struct kohaku_artifact *a,
			  const struct kohaku_artifact_run *args,
			  struct kohaku_artifact_result *res)
{
	return kohaku_artifact_run(dev, a, args, res,
				   KH_RT_V0_ARTIFACT_RESULT_SIZE);
}
KH_RT_SYMVER(kh_rt_artifact_run_v0, kohaku_artifact_run, KOHAKU_0);
KH_RT_SYMVER_DEFAULT(kohaku_artifact_run, KOHAKU_0.2);

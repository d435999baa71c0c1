// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Peer signals (ABI 0.9, KOHAKU_CAP_PEER_SIGNALS): a program that waits
 * for the SIG_DATA_RECEIVED its node sends the orchestrator when another
 * program of the job sends it CU_DATA with the acknowledgement to the
 * orchestrator (a compiler artifact's await on a peer).  The sender here
 * is a mat cluster's DRAIN to a node (docs/spec/mat.md "DRAIN": dnode 1,
 * dflags bit 0, dack = the orchestrator), the receiver another cluster:
 * both on a card of their own, the built-in mesh_2x2_8+2.  The operands
 * lie in an arena at KohakuTPU's compiler's fixed address (KOHAKU_BO_FIXED).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt_test.h"
#include "kohaku/kh_mat.h"

#define MAX_MAT		16
#define ARENA_LOCAL	KOHAKU_ARTIFACT_ARENA_OFFSET
#define ARENA_SIZE	KOHAKU_ARTIFACT_ARENA_SIZE
#define PEER_TIMEOUT_MS	2000

/* a GEMM on the sender: 16 x 16 (16 sub-tiles) over K = 64 */
#define GM	16
#define GN	16
#define GK	64
/* the DRAIN's bursts to a node: a bank of 8 granules each */
#define BURST_GRANULES	8

struct peer {
	kohaku_device *dev;
	struct drm_kohaku_node nd[MAX_MAT];
	unsigned int n;
	uint8_t agent_x, agent_y;
	uint32_t arena;
	uint64_t base;		/* the arena's device address */
};

/* the card, two mat clusters and the arena; false (and SKIP) without */
static bool peer_open(struct peer *p)
{
	struct drm_kohaku_get_info in;

	memset(p, 0, sizeof(*p));
	p->dev = rt_open_card("mesh_2x2_8+2");
	if (!p->dev)
		return false;
	memset(&in, 0, sizeof(in));
	if (rt_ioctl(p->dev, DRM_IOCTL_KOHAKU_GET_INFO, &in))
		return false;
	if (!(in.caps & KOHAKU_CAP_PEER_SIGNALS) || !(in.caps & KOHAKU_CAP_BO_FIXED))
		return false;
	p->n = rt_nodes_of(p->dev, KH_CU_MG, p->nd, MAX_MAT);
	if (p->n < 2)
		return false;
	p->agent_x = in.mesh[p->nd[0].mesh].agent_x;
	p->agent_y = in.mesh[p->nd[0].mesh].agent_y;
	p->base = (uint64_t)p->nd[0].mesh << KH_MADDR_MESH_SHIFT | ARENA_LOCAL;
	if (kohaku_bo_create_at(p->dev, p->nd[0].mesh, p->base, ARENA_SIZE, &p->arena)) {
		check_fail_at(__FILE__, __LINE__, "the arena: %s",
			      kohaku_last_error(p->dev));
		return false;
	}
	return true;
}

#define PEER_OPEN(p)							\
	struct peer p;							\
	if (!peer_open(&p)) {						\
		if (p.dev)						\
			rt_close_card(p.dev);				\
		SKIP(return, "no card with two mat clusters and ABI 0.9's peer signals"); \
	}

static void peer_close(struct peer *p)
{
	CHECK_OK(p->dev, kohaku_bo_free(p->dev, p->arena));
	rt_close_card(p->dev);
}

/* one GEMM's operands in the arena at @off; the expected C */
struct gemm {
	uint16_t a[GM * GK], b[GK * GN], pa[GM * GK], pb[GK * GN], want[GM * GN];
	uint64_t aa, ab, ac;
	struct kohaku_inst insts[KOHAKU_MAT_PROGRAM_MAX];
	unsigned int n_insts;
};

static uint16_t small_fp16(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	/* sign, exponent 12..17, mantissa: well inside MXFP7 */
	return (uint16_t)((*s >> 31) << 15 | (12 + (*s >> 8) % 6) << 10 |
			  ((*s >> 12) & 0x3ff));
}

static void gemm_setup(struct peer *p, struct gemm *g, uint64_t off, uint32_t seed)
{
	unsigned char guard[GM * GN * 2];
	unsigned int i;
	int r;

	for (i = 0; i < GM * GK; i++)
		g->a[i] = small_fp16(&seed);
	for (i = 0; i < GK * GN; i++)
		g->b[i] = small_fp16(&seed);
	REQUIRE(kohaku_mat_gemm_ref(g->a, g->b, GM, GN, GK, g->want) == 0);
	REQUIRE(kohaku_mat_pack_a(g->a, GM, GK, g->pa) == 0);
	REQUIRE(kohaku_mat_pack_b(g->b, GK, GN, g->pb) == 0);
	g->aa = p->base + off;
	g->ab = g->aa + 0x10000;
	g->ac = g->aa + 0x20000;
	CHECK_OK(p->dev, kohaku_bo_write(p->dev, p->arena, off, g->pa, sizeof(g->pa)));
	CHECK_OK(p->dev, kohaku_bo_write(p->dev, p->arena, off + 0x10000, g->pb,
					 sizeof(g->pb)));
	memset(guard, 0x5a, sizeof(guard));
	CHECK_OK(p->dev, kohaku_bo_write(p->dev, p->arena, off + 0x20000, guard,
					 sizeof(guard)));
	r = kohaku_mat_gemm_program(g->insts, KOHAKU_MAT_PROGRAM_MAX, g->aa, g->ab,
				    g->ac, GM, GN, GK, 0);
	REQUIRE(r > 0);
	g->n_insts = (unsigned int)r;
}

/* C as drained to memory, against the reference: wrong elements */
static unsigned int gemm_bad(struct peer *p, const struct gemm *g)
{
	uint16_t tiles[GM * GN], c[GM * GN];
	unsigned int i, bad = 0;

	CHECK_OK(p->dev, kohaku_bo_read(p->dev, p->arena, g->ac - p->base, tiles,
					sizeof(tiles)));
	kohaku_mat_unpack_c(tiles, GM, GN, c);
	for (i = 0; i < GM * GN; i++)
		bad += c[i] != g->want[i];
	return bad;
}

/*
 * The GEMM's DRAIN sent to node @to's buffer @dbuf instead of memory,
 * with a SIG_DATA_RECEIVED to the orchestrator per burst (@ack) or none.
 * Returns the bursts it makes.
 */
static unsigned int drain_to(struct peer *p, struct gemm *g,
			     const struct drm_kohaku_node *to, unsigned int dbuf,
			     uint64_t offset, bool ack)
{
	struct kohaku_inst *last = &g->insts[g->n_insts - 1];
	struct kohaku_mat_fields f;
	unsigned int granules;

	if (kohaku_inst_mat_decode(last, &f) != KH_MAT_OP_DRAIN) {
		check_fail_at(__FILE__, __LINE__, "the program's last is no DRAIN");
		return 0;
	}
	f.dnode = 1;
	f.dst_x = to->x;
	f.dst_y = to->y;
	f.dbuf = (uint8_t)dbuf;
	f.dflags = ack ? 1 : 0;
	f.dack_x = p->agent_x;
	f.dack_y = p->agent_y;
	f.addr = offset << 5;	/* addr[20:5]: the buffer offset, in granules */
	CHECK(kohaku_inst_mat_drain(last, &f) == 0);
	/* a peer-accumulate sub-tile is two granules (FP22), else one (FP16) */
	granules = f.n ? f.n : 1;
	if (dbuf == KH_MAT_BUF_PEER)
		granules *= 2;
	return (granules + BURST_GRANULES - 1) / BURST_GRANULES;
}

static void prog(struct kohaku_program *kp, const struct drm_kohaku_node *nd,
		 const struct kohaku_inst *insts, unsigned int n, uint32_t peer)
{
	memset(kp, 0, sizeof(*kp));
	kp->mesh = nd->mesh;
	kp->x = nd->x;
	kp->y = nd->y;
	kp->txn = (uint8_t)(nd->x << 4 | nd->y);
	kp->n_insts = n;
	kp->insts = insts;
	kp->peer_signals = peer;
}

/* a GEMM on @nd to memory in the arena at @off: DONE and bit exact */
static void gemm_ok(struct peer *p, const struct drm_kohaku_node *nd,
		    uint64_t off, uint32_t seed, const char *when)
{
	struct kohaku_job_status st;
	struct kohaku_program kp;
	struct gemm *g = calloc(1, sizeof(*g));

	REQUIRE(g != NULL);
	gemm_setup(p, g, off, seed);
	prog(&kp, nd, g->insts, g->n_insts, 0);
	CHECK_OK(p->dev, kohaku_run(p->dev, &kp, 1, PEER_TIMEOUT_MS, &st, sizeof(st)));
	CHECK_MSG(st.status == KOHAKU_JOB_DONE, "%s: status %u", when, st.status);
	CHECK_MSG(st.n_faults == 0, "%s: %u faults", when, st.n_faults);
	CHECK_MSG(gemm_bad(p, g) == 0, "%s: C wrong", when);
	free(g);
}

/* one program per node, raw, with every BO of the file: the SUBMIT's errno */
static int submit_raw(struct peer *p, struct drm_kohaku_program *dp,
		      unsigned int n, uint64_t *job)
{
	struct drm_kohaku_submit s;
	int ret;

	memset(&s, 0, sizeof(s));
	s.flags = KOHAKU_SUBMIT_FILE_BOS;
	s.n_programs = n;
	s.programs_ptr = (uintptr_t)dp;
	s.program_size = sizeof(*dp);
	s.timeout_ms = PEER_TIMEOUT_MS;
	ret = rt_ioctl(p->dev, DRM_IOCTL_KOHAKU_SUBMIT, &s);
	if (!ret && job)
		*job = s.job_id;
	return ret;
}

static void raw_prog(struct drm_kohaku_program *dp, const struct drm_kohaku_node *nd,
		     const struct kohaku_inst *insts, unsigned int n, uint32_t peer)
{
	memset(dp, 0, sizeof(*dp));
	dp->mesh = nd->mesh;
	dp->x = nd->x;
	dp->y = nd->y;
	dp->n_insts = n;
	dp->insts_ptr = (uintptr_t)insts;
	dp->peer_signals = peer;
}

/*
 * A computes and drains to B's peer-accumulate buffer, B has no
 * instruction and waits for the bursts' acknowledgements: DONE, and B
 * then runs a job of its own clean.
 */
TEST_F(rt, peer_await_on_a_node_with_no_instructions)
{
	struct kohaku_program kp[2];
	struct kohaku_job_status st;
	struct gemm *g = calloc(1, sizeof(*g));
	unsigned int bursts, i;
	PEER_OPEN(p);

	REQUIRE(g != NULL);
	for (i = 0; i < 3; i++) {
		gemm_setup(&p, g, 0, 7 + i);
		bursts = drain_to(&p, g, &p.nd[1], KH_MAT_BUF_PEER, 0, true);
		CHECK_EQ(bursts, GM * GN / 16 * 2 / BURST_GRANULES);
		prog(&kp[0], &p.nd[0], g->insts, g->n_insts, 0);
		prog(&kp[1], &p.nd[1], NULL, 0, bursts);
		CHECK_OK(p.dev, kohaku_run(p.dev, kp, 2, PEER_TIMEOUT_MS, &st, sizeof(st)));
		CHECK_EQ(st.status, KOHAKU_JOB_DONE);
		CHECK_EQ(st.n_faults, 0);
		/* the receiver's program first: the order of programs is free */
		kp[1] = kp[0];
		prog(&kp[0], &p.nd[1], NULL, 0, bursts);
		CHECK_OK(p.dev, kohaku_run(p.dev, kp, 2, PEER_TIMEOUT_MS, &st, sizeof(st)));
		CHECK_EQ(st.status, KOHAKU_JOB_DONE);
		/* B itself afterwards: nothing of the peer job is left on it */
		gemm_ok(&p, &p.nd[1], 0x100000, 40 + i, "B after the peer job");
	}
	free(g);
	peer_close(&p);
}

/*
 * The same bursts with B's program not declaring them.  The
 * acknowledgements land on B's NODE_STATUS all the same, and nothing
 * waits for them; what that does, as found on the model:
 *  - B has no program (the job is A's alone): the job ends when A's DRAIN
 *    has left A and the mesh has settled; the acknowledgements land within
 *    that window, before the next job reads B's baseline, so the next job
 *    on B runs clean here.  On a card nothing bounds when they land: one
 *    after the next job's baseline is counted as that job's signal.
 *  - B declares fewer than come: finished early (the driver warns "sent 4
 *    signals for 0 instructions and 3 peer signals").
 *  - B runs a program of its own and declares none: A's acknowledgements
 *    are counted as B's instructions' signals, and B's program can be taken
 *    for finished before its own instructions are (here the driver saw
 *    them all at once, "sent 6 signals for 4 instructions"; the job is
 *    DONE, B's result right: only the driver's warning shows it).
 * Declared in full, none of this happens (the tests above and below).
 */
TEST_F(rt, peer_signals_undeclared_land_on_the_node)
{
	struct kohaku_program kp[2];
	struct kohaku_job_status st;
	struct gemm *g = calloc(1, sizeof(*g));
	unsigned int bursts;
	PEER_OPEN(p);

	REQUIRE(g != NULL);
	/* A's alone: the job is A's and ends when A's DRAIN has left it */
	gemm_setup(&p, g, 0, 11);
	bursts = drain_to(&p, g, &p.nd[1], KH_MAT_BUF_PEER, 0, true);
	REQUIRE(bursts > 1);
	prog(&kp[0], &p.nd[0], g->insts, g->n_insts, 0);
	CHECK_OK(p.dev, kohaku_run(p.dev, kp, 1, PEER_TIMEOUT_MS, &st, sizeof(st)));
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	gemm_ok(&p, &p.nd[1], 0x100000, 12, "B after an undeclared peer job");
	/* one fewer declared than come: still DONE, the last one is extra */
	gemm_setup(&p, g, 0, 13);
	drain_to(&p, g, &p.nd[1], KH_MAT_BUF_PEER, 0, true);
	prog(&kp[1], &p.nd[1], NULL, 0, bursts - 1);
	CHECK_OK(p.dev, kohaku_run(p.dev, kp, 2, PEER_TIMEOUT_MS, &st, sizeof(st)));
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	gemm_ok(&p, &p.nd[1], 0x100000, 14, "B after too few declared");
	/* B runs a GEMM of its own and declares none of A's bursts */
	{
		struct gemm *gb = calloc(1, sizeof(*gb));
		uint64_t j1, j2;
		struct kohaku_job_status st2;

		REQUIRE(gb != NULL);
		gemm_setup(&p, g, 0, 15);
		gemm_setup(&p, gb, 0x100000, 16);
		drain_to(&p, g, &p.nd[1], KH_MAT_BUF_L1A, 256 * 4, true);
		prog(&kp[0], &p.nd[0], g->insts, g->n_insts, 0);
		prog(&kp[1], &p.nd[1], gb->insts, gb->n_insts, 0);
		CHECK_OK(p.dev, kohaku_submit(p.dev, kp, 2, PEER_TIMEOUT_MS, &j1));
		/* and B's next job queued behind it at once */
		prog(&kp[1], &p.nd[1], gb->insts, gb->n_insts, 0);
		CHECK_OK(p.dev, kohaku_submit(p.dev, &kp[1], 1, PEER_TIMEOUT_MS, &j2));
		kohaku_wait(p.dev, j1, PEER_TIMEOUT_MS, &st, sizeof(st));
		kohaku_wait(p.dev, j2, PEER_TIMEOUT_MS, &st2, sizeof(st2));
		check_diag("undeclared on a busy B: job %u reason %u faults %u, next %u reason %u",
			   st.status, st.reason, st.n_faults, st2.status, st2.reason);
		free(gb);
	}
	free(g);
	peer_close(&p);
}

/*
 * B runs a GEMM of its own and waits for A's bursts into its L1 bank 1
 * (which its program leaves alone) besides: DONE, both results right.
 */
TEST_F(rt, peer_await_on_a_node_with_instructions)
{
	struct kohaku_program kp[2];
	struct kohaku_job_status st;
	struct gemm *ga = calloc(1, sizeof(*ga)), *gb = calloc(1, sizeof(*gb));
	unsigned int bursts, order;
	PEER_OPEN(p);

	REQUIRE(ga && gb);
	for (order = 0; order < 2; order++) {
		gemm_setup(&p, ga, 0, 21 + order);
		gemm_setup(&p, gb, 0x100000, 31 + order);
		/* L1 A entry 256 on: bank 1 (entry = offset / 4) */
		bursts = drain_to(&p, ga, &p.nd[1], KH_MAT_BUF_L1A, 256 * 4, true);
		CHECK_EQ(bursts, GM * GN / 16 / BURST_GRANULES);
		prog(&kp[order], &p.nd[0], ga->insts, ga->n_insts, 0);
		prog(&kp[!order], &p.nd[1], gb->insts, gb->n_insts, bursts);
		CHECK_OK(p.dev, kohaku_run(p.dev, kp, 2, PEER_TIMEOUT_MS, &st, sizeof(st)));
		CHECK_EQ(st.status, KOHAKU_JOB_DONE);
		CHECK_EQ(st.n_faults, 0);
		CHECK_EQ(gemm_bad(&p, gb), 0);
		gemm_ok(&p, &p.nd[1], 0x200000, 50 + order, "B after its peer job");
		gemm_ok(&p, &p.nd[0], 0x300000, 60 + order, "A after the peer job");
	}
	free(ga);
	free(gb);
	peer_close(&p);
}

/*
 * The vec unit's VDRAIN to a node (docs/spec/vec.md "VDRAIN to a node"):
 * one CU_DATA burst for the whole walk, its acknowledgement to the
 * orchestrator ({ack_y, ack_x} in the descriptor's base, bits [23:16]).
 * B, a mat cluster, takes the walk's 16 words into its L1 bank 1 and
 * waits for the one signal with no instructions of its own.
 */
TEST_F(rt, peer_await_a_vec_vdrain)
{
	struct drm_kohaku_node vc[4];
	struct kohaku_program kp[2];
	struct kohaku_job_status st;
	struct kohaku_inst in[5];
	uint32_t words[2];
	unsigned int i;
	PEER_OPEN(p);

	if (!rt_nodes_of(p.dev, KH_CU_VC, vc, 4)) {
		peer_close(&p);
		SKIP(return, "no vec unit on this card");
	}
	/* L1 A word 1024: entry 256, bank 1 */
	REQUIRE(kohaku_vec_vdrain_node(&words[0], 0, 0, p.nd[1].x, p.nd[1].y,
				       KH_MAT_BUF_L1A, 1) == 0);
	words[1] = kohaku_vec_vhalt();
	REQUIRE(kohaku_inst_vec_imem_words(in, 0, words, 2) == 0);
	REQUIRE(kohaku_inst_vec_desc_base(&in[2], 0, (uint64_t)p.agent_y << 20 |
					  (uint64_t)p.agent_x << 16 | 1024) == 0);
	REQUIRE(kohaku_inst_vec_desc_dim(&in[3], 0, 0, 32, 16) == 0);
	REQUIRE(kohaku_inst_vec_run(&in[4], 0) == 0);
	for (i = 0; i < 2; i++) {
		prog(&kp[i], &vc[0], in, 5, 0);
		prog(&kp[!i], &p.nd[1], NULL, 0, 1);
		CHECK_OK(p.dev, kohaku_run(p.dev, kp, 2, PEER_TIMEOUT_MS, &st, sizeof(st)));
		CHECK_EQ(st.status, KOHAKU_JOB_DONE);
		CHECK_EQ(st.n_faults, 0);
		gemm_ok(&p, &p.nd[1], 0x100000, 100 + i, "B after the vec's burst");
	}
	/* two declared, one comes: TIMEOUT naming B */
	prog(&kp[0], &vc[0], in, 5, 0);
	prog(&kp[1], &p.nd[1], NULL, 0, 2);
	CHECK_EQ(kohaku_run(p.dev, kp, 2, 50, &st, sizeof(st)), -ETIMEDOUT);
	CHECK_EQ(st.status, KOHAKU_JOB_TIMEOUT);
	CHECK_EQ(st.fault_x, p.nd[1].x);
	CHECK_EQ(st.fault_y, p.nd[1].y);
	gemm_ok(&p, &p.nd[1], 0x100000, 110, "B after its peer timeout");
	peer_close(&p);
}

/* SUBMIT's rules for the new fields */
TEST_F(rt, peer_refusals)
{
	struct drm_kohaku_program dp[2];
	struct kohaku_program kp[2];
	struct gemm *g = calloc(1, sizeof(*g));
	struct kohaku_job_status st;
	unsigned int bursts;
	uint64_t jobs0, job = 0;
	PEER_OPEN(p);

	REQUIRE(g != NULL);
	gemm_setup(&p, g, 0, 3);
	bursts = drain_to(&p, g, &p.nd[1], KH_MAT_BUF_PEER, 0, true);
	jobs0 = rt_jobs_done(p.dev, p.nd[0].mesh);
	/* no instructions and no peer signals */
	raw_prog(&dp[0], &p.nd[0], g->insts, g->n_insts, 0);
	raw_prog(&dp[1], &p.nd[1], NULL, 0, 0);
	CHECK_ERR(submit_raw(&p, dp, 2, NULL), -EINVAL);
	/* peer_pad */
	raw_prog(&dp[1], &p.nd[1], NULL, 0, 4);
	dp[1].peer_pad = 1;
	CHECK_ERR(submit_raw(&p, dp, 2, NULL), -EINVAL);
	dp[1].peer_pad = 0x80000000u;
	CHECK_ERR(submit_raw(&p, dp, 2, NULL), -EINVAL);
	/* instructions and peer signals together past the job's limit */
	raw_prog(&dp[1], &p.nd[1], NULL, 0, KOHAKU_MAX_JOB_INSTS - g->n_insts + 1);
	CHECK_ERR(submit_raw(&p, dp, 2, NULL), -E2BIG);
	/* a job of nothing but awaits: nobody would send */
	raw_prog(&dp[0], &p.nd[0], NULL, 0, 4);
	raw_prog(&dp[1], &p.nd[1], NULL, 0, 4);
	CHECK_ERR(submit_raw(&p, dp, 2, NULL), -EINVAL);
	/* through the library: the same */
	prog(&kp[0], &p.nd[0], g->insts, g->n_insts, 0);
	prog(&kp[1], &p.nd[1], NULL, 0, 0);
	CHECK_ERR(kohaku_submit(p.dev, kp, 2, 0, NULL), -EINVAL);
	/* none ran */
	CHECK_EQ(rt_jobs_done(p.dev, p.nd[0].mesh), jobs0);
	/* what the bursts make, raw: taken, and DONE */
	raw_prog(&dp[0], &p.nd[0], g->insts, g->n_insts, 0);
	raw_prog(&dp[1], &p.nd[1], NULL, 0, bursts);
	CHECK_OK(p.dev, submit_raw(&p, dp, 2, &job));
	CHECK_OK(p.dev, kohaku_wait(p.dev, job, PEER_TIMEOUT_MS, &st, sizeof(st)));
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	free(g);
	peer_close(&p);
}

/*
 * B waits for one burst more than A sends: TIMEOUT naming B, which is
 * then handled as a hung node is (the mesh recovered, or B refused until
 * it owes nothing); a job on B afterwards runs clean.
 */
TEST_F(rt, peer_never_sent_times_out)
{
	struct drm_kohaku_node now;
	struct kohaku_program kp[2];
	struct kohaku_job_status st;
	struct gemm *g = calloc(1, sizeof(*g));
	unsigned int bursts;
	int ret;
	PEER_OPEN(p);

	REQUIRE(g != NULL);
	gemm_setup(&p, g, 0, 5);
	bursts = drain_to(&p, g, &p.nd[1], KH_MAT_BUF_PEER, 0, true);
	prog(&kp[0], &p.nd[0], g->insts, g->n_insts, 0);
	prog(&kp[1], &p.nd[1], NULL, 0, bursts + 1);
	ret = kohaku_run(p.dev, kp, 2, 50, &st, sizeof(st));
	CHECK_EQ(ret, -ETIMEDOUT);
	CHECK_EQ(st.status, KOHAKU_JOB_TIMEOUT);
	CHECK(st.fault_flags & KOHAKU_FAULT_NODE_KNOWN);
	CHECK_EQ(st.fault_x, p.nd[1].x);
	CHECK_EQ(st.fault_y, p.nd[1].y);
	/* A is not hung: it finished */
	REQUIRE(rt_node_now(p.dev, &p.nd[0], &now));
	CHECK(!(now.flags & KOHAKU_NODE_HUNG));
	/* no ack asked for at all: every one declared is missing */
	gemm_setup(&p, g, 0, 6);
	drain_to(&p, g, &p.nd[1], KH_MAT_BUF_PEER, 0, false);
	prog(&kp[1], &p.nd[1], NULL, 0, bursts);
	ret = kohaku_run(p.dev, kp, 2, 50, &st, sizeof(st));
	CHECK_EQ(st.status, KOHAKU_JOB_TIMEOUT);
	/* both nodes take work again, and it is right */
	gemm_ok(&p, &p.nd[1], 0x100000, 8, "B after its peer timeout");
	gemm_ok(&p, &p.nd[0], 0x200000, 9, "A after B's peer timeout");
	free(g);
	peer_close(&p);
}

static bool hung(struct peer *p, const struct drm_kohaku_node *nd)
{
	struct drm_kohaku_node now;

	return rt_node_now(p->dev, nd, &now) && (now.flags & KOHAKU_NODE_HUNG);
}

/*
 * Peer signals that come after the job's recovery window, with automatic
 * recovery off: B is held busy (its input link stalls) past the job's
 * limit and the 1 s window, so A's bursts reach it only later.  B is hung
 * owing them (A owing its DRAIN); a job on a third cluster C runs while
 * they come, and its books must not take B's acknowledgements for credit
 * returned (they return none): taken so, C's job would end FAULT with
 * faults that never happened.  Afterwards B has sent what it owed and
 * takes jobs again, without a reset.
 */
TEST_F(rt, peer_signals_after_the_window_are_no_credit)
{
	struct drm_kohaku_mesh_set ms;
	struct drm_kohaku_clocks ck;
	struct kohaku_program kp[2];
	struct kohaku_job_status st;
	struct gemm *g = calloc(1, sizeof(*g)), *gc = calloc(1, sizeof(*gc));
	unsigned int bursts, i;
	char knob[96];
	uint64_t job;
	PEER_OPEN(p);

	REQUIRE(g && gc);
	if (p.n < 3 || kohaku_sim_inject(p.dev, "clear")) {
		free(g);
		free(gc);
		peer_close(&p);
		SKIP(return, "three mat clusters and the model's knobs");
	}
	memset(&ck, 0, sizeof(ck));
	CHECK_OK(p.dev, kohaku_clocks(p.dev, p.nd[0].mesh, &ck, sizeof(ck)));
	memset(&ms, 0, sizeof(ms));
	ms.set = KOHAKU_MESH_SET_RECOVER;
	ms.mesh = p.nd[0].mesh;
	ms.recover_max = 0;
	CHECK_OK(p.dev, kohaku_mesh_set(p.dev, &ms));
	/* the mesh at its run clocks first: raising them resets the mesh */
	gemm_ok(&p, &p.nd[2], 0x200000, 90, "C first");
	gemm_setup(&p, g, 0, 91);
	bursts = drain_to(&p, g, &p.nd[1], KH_MAT_BUF_PEER, 0, true);
	prog(&kp[0], &p.nd[0], g->insts, g->n_insts, 0);
	prog(&kp[1], &p.nd[1], NULL, 0, bursts);
	/* 1.2 s of the mesh clock: past the 100 ms limit and the 1 s window */
	snprintf(knob, sizeof(knob), "busy node=%u,%u cycles=360000000",
		 p.nd[1].x, p.nd[1].y);
	CHECK_OK(p.dev, kohaku_sim_inject(p.dev, knob));
	CHECK_OK(p.dev, kohaku_submit(p.dev, kp, 2, 100, &job));
	CHECK_OK(p.dev, kohaku_wait(p.dev, job, 20000, &st, sizeof(st)));
	CHECK_EQ(st.status, KOHAKU_JOB_TIMEOUT);
	for (i = 0; i < 1000 && !hung(&p, &p.nd[1]); i++) {
		struct timespec ts = { 0, 10000000 };

		nanosleep(&ts, NULL);
	}
	CHECK(hung(&p, &p.nd[1]));
	/*
	 * C's job, held busy itself until past B's hold: B's bursts land and
	 * are acknowledged while it runs.
	 */
	gemm_setup(&p, gc, 0x300000, 92);
	prog(&kp[0], &p.nd[2], gc->insts, gc->n_insts, 0);
	snprintf(knob, sizeof(knob), "busy node=%u,%u cycles=150000000",
		 p.nd[2].x, p.nd[2].y);
	CHECK_OK(p.dev, kohaku_sim_inject(p.dev, knob));
	CHECK_OK(p.dev, kohaku_run(p.dev, kp, 1, 5000, &st, sizeof(st)));
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	CHECK_EQ(st.n_faults, 0);
	CHECK_EQ(gemm_bad(&p, gc), 0);
	/* B sent what it owed: no longer hung, runs clean, no reset did it */
	CHECK(!hung(&p, &p.nd[1]));
	gemm_ok(&p, &p.nd[1], 0x100000, 93, "B after its late peer signals");
	gemm_ok(&p, &p.nd[0], 0x400000, 94, "A after its late DRAIN");
	ms.recover_max = ck.recover_max;
	CHECK_OK(p.dev, kohaku_mesh_set(p.dev, &ms));
	CHECK_OK(p.dev, kohaku_sim_inject(p.dev, "clear"));
	free(g);
	free(gc);
	peer_close(&p);
}

/*
 * FIFOs of 4 (mesh_2x2_8+2's map) and three programs of one no-op each
 * ahead: their last instructions keep three of the four credits, so the
 * dispatcher runs dry while A's DRAIN (not A's last) sends its bursts, and
 * is reseeded only once everything it pushed has signalled.  B's
 * acknowledgements of the DRAIN's first bursts come meanwhile and must not
 * be taken for the DRAIN's own signal: a stall resolved early counts the
 * DRAIN's credit, still to come, as lost (a fault that never happened) and
 * overfills the FIFOs when it does come.
 */
static const char tiny_mat_desc[] =
	"param inst_depth 4\n"
	"xxx mat mat xxx\n"
	"mag mat mat vec\n"
	"mag mat mat vec\n"
	"xxx mat mat xxx\n";

TEST_F(rt, peer_await_through_credit_stalls)
{
	struct kohaku_program kp[5];
	struct kohaku_job_status st;
	struct gemm *ga = calloc(1, sizeof(*ga)), *gb = calloc(1, sizeof(*gb));
	struct kohaku_mat_fields zero;
	struct kohaku_inst nop[2];
	unsigned int bursts, i, k;
	struct drm_kohaku_get_info in;
	char err[KOHAKU_ERRMSG_MAX];
	const char *b = getenv("KOHAKU_BACKEND");
	struct peer p;

	if (b && !strcmp(b, "kernel")) {
		free(ga);
		free(gb);
		SKIP(return, "makes a simulated card of its own");
	}
	REQUIRE(ga && gb);
	memset(&p, 0, sizeof(p));
	REQUIRE(kohaku_open(KOHAKU_BACKEND_SIM, tiny_mat_desc, &p.dev, err,
			    sizeof(err)) == 0);
	memset(&in, 0, sizeof(in));
	REQUIRE(rt_ioctl(p.dev, DRM_IOCTL_KOHAKU_GET_INFO, &in) == 0);
	CHECK_EQ(in.mesh[0].min_inst_depth, 4);
	p.n = rt_nodes_of(p.dev, KH_CU_MG, p.nd, MAX_MAT);
	REQUIRE(p.n >= 5);
	p.agent_x = in.mesh[0].agent_x;
	p.agent_y = in.mesh[0].agent_y;
	p.base = ARENA_LOCAL;
	REQUIRE(kohaku_bo_create_at(p.dev, 0, p.base, ARENA_SIZE, &p.arena) == 0);
	memset(&zero, 0, sizeof(zero));
	REQUIRE(kohaku_inst_mat(&nop[0], 15, &zero) == 0);	/* a no-op */
	nop[1] = nop[0];
	for (i = 0; i < 4; i++) {
		gemm_setup(&p, ga, 0, 70 + i);
		gemm_setup(&p, gb, 0x100000, 80 + i);
		/* to B's peer buffer (4 bursts) or its L1 (2), then a no-op */
		bursts = drain_to(&p, ga, &p.nd[1], i & 1 ? KH_MAT_BUF_L1A :
				  KH_MAT_BUF_PEER, i & 1 ? 256 * 4 : 0, true);
		ga->insts[ga->n_insts] = nop[0];
		for (k = 0; k < 3; k++)
			prog(&kp[k], &p.nd[2 + k], nop, 1, 0);
		prog(&kp[3], &p.nd[0], ga->insts, ga->n_insts + 1, 0);
		/* B with nothing to run, or its own GEMM into its bank 0 */
		if (i & 1)
			prog(&kp[4], &p.nd[1], gb->insts, gb->n_insts, bursts);
		else
			prog(&kp[4], &p.nd[1], NULL, 0, bursts);
		CHECK_OK(p.dev, kohaku_run(p.dev, kp, 5, PEER_TIMEOUT_MS, &st, sizeof(st)));
		CHECK_EQ(st.status, KOHAKU_JOB_DONE);
		CHECK_EQ(st.n_faults, 0);
		if (i & 1)
			CHECK_EQ(gemm_bad(&p, gb), 0);
	}
	free(ga);
	free(gb);
	peer_close(&p);
}

RT_TEST_MAIN

// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The protocol checker (docs/spec/fault-injection.md "check").
 *
 * Links.  Every flit is given a tag when it first leaves an endpoint, in
 * bits [319:288] of struct kh_flit, which the 288-bit flit does not have
 * and which nothing in the model reads; the tag is stripped from the copy
 * an endpoint takes, so no endpoint and no host ever sees one.  A table
 * keyed by tag says which node holds each flit in flight.  A transfer
 * must come from the node the table names; the same tag taken twice from
 * one register is a rule 2 duplicate, elsewhere a plain duplicate; an
 * audit walks every register and router FIFO and reports the tags that
 * are nowhere as lost.  A link refused in a cycle must still hold the same
 * flit when the cycle ends (rule 1), and busy is evaluated a second time
 * with the offered flit hidden (rule 3).
 *
 * Units.  Rules 1 (send_*), 4-9 from the datapath pulses the base sees:
 * see the rule table in the spec.
 */
#include "checker.h"
#include "base.h"
#include "router.h"
#include "tbuf.h"
#include "util.h"

#define KSIM_CHK_MSGS	64
#define KSIM_CHK_MSG_LEN	224
#define KSIM_TAB_MIN	1024u

struct ksim_tag_ent {
	u32 tag;			/* 0: empty slot */
	u32 seen;			/* audit epoch */
	u8 mesh, type, src, dst;	/* {y,x} */
	bool injected;			/* a drop knob ate it */
	struct ksim_node *at;		/* who holds it */
	struct ksim_obs_link *hop;	/* the last link it crossed */
	u64 hop_cycle;
};

struct ksim_check {
	struct ksim_observer ob;	/* registered with the hub */
	bool on;			/* checking now */
	bool armed;			/* it has been on: bounds, counts kept */
	u64 recv_bound, unknown_bound, retire_bound;
	u32 next_tag;
	u32 epoch;
	bool no_track;			/* out of memory: flits not followed */
	struct ksim_tag_ent *tab;
	u32 cap, count;
	struct ksim_obs_link **refused;
	u32 n_refused;
	u64 steps;
	u64 count_[KSIM_CHK_N];
	u64 n_msgs;			/* messages ever; the last 64 kept */
	char msg[KSIM_CHK_MSGS][KSIM_CHK_MSG_LEN];
};

static const char *const ksim_rule_desc[KSIM_CHK_N_VIOL] = {
	[KSIM_CHK_R1] = "withdrew an offered flit",
	[KSIM_CHK_R2] = "accepted a flit outside valid && !busy",
	[KSIM_CHK_R3] = "noc_in_busy depends on the offered flit",
	[KSIM_CHK_R4] = "blocked on the receive path",
	[KSIM_CHK_R5] = "held a flit of an unknown type",
	[KSIM_CHK_R6] = "exec_done in the cycle of inst_ready",
	[KSIM_CHK_R7] = "retired twice or never",
	[KSIM_CHK_R8] = "sent a framework completion code",
	[KSIM_CHK_R9] = "more requests outstanding than the receive path absorbs",
	[KSIM_CHK_LOST] = "lost flit",
	[KSIM_CHK_DUP] = "duplicated flit",
	[KSIM_CHK_CLK] = "clock wizard",
	[KSIM_CHK_IDLE_MEM] = "reached memory with no instruction in flight",
};

static const char *const ksim_count_name[KSIM_CHK_N] = {
	[KSIM_CHK_R1] = "rule1", [KSIM_CHK_R2] = "rule2", [KSIM_CHK_R3] = "rule3",
	[KSIM_CHK_R4] = "rule4", [KSIM_CHK_R5] = "rule5", [KSIM_CHK_R6] = "rule6",
	[KSIM_CHK_R7] = "rule7", [KSIM_CHK_R8] = "rule8", [KSIM_CHK_R9] = "rule9",
	[KSIM_CHK_LOST] = "lost", [KSIM_CHK_DUP] = "dup", [KSIM_CHK_CLK] = "clkwiz",
	[KSIM_CHK_IDLE_MEM] = "idle_mem",
	[KSIM_CHK_LOST_INJ] = "lost_injected", [KSIM_CHK_DUP_INJ] = "dup_injected",
	[KSIM_CHK_BORN] = "born", [KSIM_CHK_DELIVERED] = "delivered",
	[KSIM_CHK_TIEOFF] = "tieoff", [KSIM_CHK_WITHDRAWN] = "withdrawn",
};

static struct ksim_check *ksim_check_of(struct ksim_observer *ob)
{
	return ksim_container_of(ob, struct ksim_check, ob);
}

/* ---- reporting ---- */

static void ksim_viol(struct ksim_check *c, unsigned int what, u64 cycle,
		    unsigned int mesh, unsigned int x, unsigned int y,
		    const char *fmt, ...) __printf(7, 8);

static void ksim_viol(struct ksim_check *c, unsigned int what, u64 cycle,
		    unsigned int mesh, unsigned int x, unsigned int y,
		    const char *fmt, ...)
{
	struct ksim_obs *o = c->ob.obs;
	struct ksim_trace_ev ev;
	char *m = c->msg[c->n_msgs % KSIM_CHK_MSGS];
	va_list ap;
	int n;

	c->count_[what]++;
	c->n_msgs++;
	if (what < KSIM_CHK_LOST)
		n = snprintf(m, KSIM_CHK_MSG_LEN, "cycle %llu: rule %u (%s): ",
			     (unsigned long long)cycle, what, ksim_rule_desc[what]);
	else
		n = snprintf(m, KSIM_CHK_MSG_LEN, "cycle %llu: %s: ",
			     (unsigned long long)cycle, ksim_rule_desc[what]);
	if (n < 0)
		n = 0;
	if (n < KSIM_CHK_MSG_LEN) {
		va_start(ap, fmt);
		vsnprintf(m + n, KSIM_CHK_MSG_LEN - n, fmt, ap);
		va_end(ap);
	}
	ksim_plat_log("checker: %s\n", m);
	/* the trace records it (an event every observer is told) */
	memset(&ev, 0, sizeof(ev));
	ev.kind = KSIM_TR_VIOL;
	ev.cycle = cycle;
	ev.mesh = mesh;
	ev.x = x;
	ev.y = y;
	ev.c = what;
	ksim_obs_event(o, &ev);
	if (o->w.violation)
		o->w.violation(o->w.violation_ctx, m);
}

/* ---- the tag table: open addressing, linear probing ---- */

static u32 ksim_hash(u32 tag, u32 cap)
{
	return (tag * 2654435761u) & (cap - 1);
}

static struct ksim_tag_ent *ksim_tab_find(struct ksim_check *c, u32 tag)
{
	u32 i;

	if (!tag || !c->tab)
		return NULL;
	for (i = ksim_hash(tag, c->cap);; i = (i + 1) & (c->cap - 1)) {
		if (c->tab[i].tag == tag)
			return &c->tab[i];
		if (!c->tab[i].tag)
			return NULL;
	}
}

static void ksim_tab_put(struct ksim_tag_ent *tab, u32 cap,
		       const struct ksim_tag_ent *e)
{
	u32 i;

	for (i = ksim_hash(e->tag, cap); tab[i].tag; i = (i + 1) & (cap - 1))
		;
	tab[i] = *e;
}

static bool ksim_tab_grow(struct ksim_check *c)
{
	u32 ncap = c->cap ? c->cap * 2 : KSIM_TAB_MIN, i;
	struct ksim_tag_ent *nt = ksim_plat_zalloc(sizeof(*nt) * ncap);

	if (!nt)
		return false;
	for (i = 0; i < c->cap; i++)
		if (c->tab[i].tag)
			ksim_tab_put(nt, ncap, &c->tab[i]);
	ksim_plat_free(c->tab);
	c->tab = nt;
	c->cap = ncap;
	return true;
}

static struct ksim_tag_ent *ksim_tab_add(struct ksim_check *c, u32 tag)
{
	struct ksim_tag_ent e;

	if (c->no_track)
		return NULL;
	if ((c->count + 1) * 2 > c->cap && !ksim_tab_grow(c)) {
		c->no_track = true;
		ksim_plat_log("checker: out of memory, flits are no longer followed\n");
		return NULL;
	}
	memset(&e, 0, sizeof(e));
	e.tag = tag;
	ksim_tab_put(c->tab, c->cap, &e);
	c->count++;
	return ksim_tab_find(c, tag);
}

/* Backward-shift deletion: the probe chains stay unbroken. */
static void ksim_tab_del(struct ksim_check *c, struct ksim_tag_ent *e)
{
	u32 mask = c->cap - 1, i = (u32)(e - c->tab), j = i, k;

	c->count--;
	for (;;) {
		c->tab[i].tag = 0;
		for (;;) {
			j = (j + 1) & mask;
			if (!c->tab[j].tag)
				return;
			k = ksim_hash(c->tab[j].tag, c->cap);
			/* k cyclically in (i, j]: the entry stays */
			if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
				continue;
			c->tab[i] = c->tab[j];
			i = j;
			break;
		}
	}
}

static u32 ksim_new_tag(struct ksim_check *c)
{
	do {
		c->next_tag++;
	} while (!c->next_tag || ksim_tab_find(c, c->next_tag));
	return c->next_tag;
}

/* ---- enable, bounds ---- */

static void ksim_check_bounds(struct ksim_check *c, u64 recv, u64 unknown,
			      u64 retire)
{
	c->recv_bound = recv;
	c->unknown_bound = unknown;
	c->retire_bound = retire;
}

/* Strip every tag from the mesh (the checker goes off). */
static void ksim_check_strip(struct ksim_check *c)
{
	struct ksim_obs *o = c->ob.obs;
	unsigned int i, m, p;
	u32 k;

	for (i = 0; i < o->n_links; i++)
		ksim_flit_set_tag(&o->links[i].l->reg, 0);
	for (m = 0; m < o->w.n_mesh; m++) {
		struct ksim_mesh *me = o->w.mesh[m];

		for (i = 0; i < me->nrx * me->nry; i++)
			for (p = 0; p < KSIM_PORTS; p++) {
				struct ksim_fifo *q = &me->routers[i].in[p].q;

				for (k = 0; k < q->count; k++)
					ksim_flit_set_tag((struct kh_flit *)
							ksim_fifo_at(q, k), 0);
			}
	}
}

static void ksim_check_post_cycle(void *ctx);
static void ksim_check_unit_reset(struct ksim_obs_unit *ou);

int ksim_check_enable(struct ksim_check *c, bool on)
{
	struct ksim_obs *o = c->ob.obs;
	unsigned int i;

	if (on && !c->armed) {
		c->refused = ksim_plat_zalloc(sizeof(*c->refused) *
					    (o->n_links + 1));
		if (!c->refused || !ksim_tab_grow(c)) {
			ksim_plat_free(c->refused);
			c->refused = NULL;
			return -ENOMEM;
		}
		c->recv_bound = KSIM_CHK_RECV_BOUND;
		c->unknown_bound = KSIM_CHK_UNKNOWN_BOUND;
		c->retire_bound = KSIM_CHK_RETIRE_BOUND;
		c->armed = true;
	}
	if (on && !c->on) {
		for (i = 0; i < o->n_units; i++)
			ksim_check_unit_reset(&o->units[i]);
		for (i = 0; i < o->n_links; i++) {
			o->links[i].refused = false;
			o->links[i].last_tag = 0;
			o->links[i].r3_done = false;
		}
	}
	if (!on && c->on) {
		ksim_chk_audit(c);
		ksim_check_strip(c);
		/* keep the counts and messages; forget what is in flight */
		ksim_plat_free(c->tab);
		c->tab = NULL;
		c->cap = c->count = 0;
		ksim_tab_grow(c);
	}
	c->on = on;
	o->w.sched->post_cycle = on ? ksim_check_post_cycle : NULL;
	o->w.sched->post_ctx = on ? c : NULL;
	return 0;
}

/* ---- links ---- */

static bool ksim_busy_hidden(struct ksim_link *l)
{
	struct kh_flit save = l->reg;
	bool v = l->valid, b;
	unsigned int i;

	for (i = 0; i < KH_FLIT_WORDS; i++)
		l->reg.w[i] = ~save.w[i];
	l->valid = false;
	b = l->rx->ops->busy(l->rx);
	l->reg = save;
	l->valid = v;
	return b;
}

static void ksim_rule3(struct ksim_check *c, struct ksim_obs_link *ol, u64 now,
		       bool busy)
{
	if (ol->r3_done)
		return;
	ol->r3_done = true;
	ksim_viol(c, KSIM_CHK_R3, now, ol->l->mesh, ol->l->x, ol->l->y,
		"mesh %u link %s: the receiver's busy is %u with a type 0x%x flit offered and %u with it hidden",
		ol->l->mesh, ol->name, busy,
		(unsigned int)kh_flit_get(&ol->l->reg, KH_HDR_TYPE), !busy);
}

static void ksim_check_refused(struct ksim_observer *ob,
			       struct ksim_obs_link *ol, u64 now)
{
	struct ksim_check *c = ksim_check_of(ob);

	if (!c->on)
		return;
	if (!ksim_busy_hidden(ol->l))
		ksim_rule3(c, ol, now, true);
	if (ol->refused)
		return;
	ol->refused = true;
	ol->held = ol->l->reg;
	c->refused[c->n_refused++] = ol;
}

static void ksim_ent_fill(struct ksim_tag_ent *e, struct ksim_obs_link *ol,
			const struct kh_flit *f, u64 now)
{
	e->mesh = ol->l->mesh;
	e->type = kh_flit_get(f, KH_HDR_TYPE);
	e->src = KH_YX(kh_flit_get(f, KH_HDR_SRC_X),
		       kh_flit_get(f, KH_HDR_SRC_Y));
	e->dst = KH_YX(kh_flit_get(f, KH_HDR_DST_X),
		       kh_flit_get(f, KH_HDR_DST_Y));
	e->at = ol->sender;
	e->hop = ol;
	e->hop_cycle = now;
}

/* Follow the flit in ol's register from here as a new one. */
static u32 ksim_follow(struct ksim_check *c, struct ksim_obs_link *ol, u64 now)
{
	u32 t = ksim_new_tag(c);
	struct ksim_tag_ent *e;

	ksim_flit_set_tag(&ol->l->reg, t);
	e = ksim_tab_add(c, t);
	if (!e)
		return 0;
	ksim_ent_fill(e, ol, &ol->l->reg, now);
	c->count_[KSIM_CHK_BORN]++;
	return t;
}

static void ksim_dup(struct ksim_check *c, struct ksim_obs_link *ol, u64 now,
		     u32 t, bool same_reg)
{
	const struct kh_flit *f = &ol->l->reg;

	if (ol->inj_dup_tag && ol->inj_dup_tag == t) {
		c->count_[KSIM_CHK_DUP_INJ]++;
		ol->inj_dup_tag = 0;
		return;
	}
	ksim_viol(c, same_reg ? KSIM_CHK_R2 : KSIM_CHK_DUP, now, ol->l->mesh,
		ol->l->x, ol->l->y,
		"mesh %u link %s: flit #%u (type 0x%x (%u,%u)->(%u,%u)) %s",
		ol->l->mesh, ol->name, t,
		(unsigned int)kh_flit_get(f, KH_HDR_TYPE),
		(unsigned int)kh_flit_get(f, KH_HDR_SRC_X),
		(unsigned int)kh_flit_get(f, KH_HDR_SRC_Y),
		(unsigned int)kh_flit_get(f, KH_HDR_DST_X),
		(unsigned int)kh_flit_get(f, KH_HDR_DST_Y),
		same_reg ? "taken a second time from the register it had already left: duplicated"
			 : "sent again by a node it had already left: duplicated");
}

static unsigned int ksim_check_xfer(struct ksim_observer *ob,
				    struct ksim_obs_link *ol, u64 now,
				    unsigned int act)
{
	struct ksim_check *c = ksim_check_of(ob);
	struct ksim_link *l = ol->l;
	u32 t = ksim_flit_tag(&l->reg);
	struct ksim_tag_ent *e;
	bool same = t && t == ol->last_tag;

	if (!c->on)
		return 0;
	if (ksim_busy_hidden(l))
		ksim_rule3(c, ol, now, false);
	ol->xfer_tag = 0;
	if (ol->cls == KSIM_LC_DIRECT)
		return 0;
	if (ol->cls == KSIM_LC_BIRTH) {
		e = ksim_tab_find(c, t);
		if (same || e)
			ksim_dup(c, ol, now, t, same);
		ol->xfer_tag = ksim_follow(c, ol, now);
		ol->last_tag = ol->xfer_tag;
		return KSIM_XFER_TAKEN;
	}
	if (!t)
		return 0;	/* sent before the checker was on */
	e = ksim_tab_find(c, t);
	if (!e || e->at != ol->sender) {
		ksim_dup(c, ol, now, t, same);
		if (ol->cls != KSIM_LC_HOP) {
			ol->last_tag = t;
			return 0;
		}
		t = ksim_follow(c, ol, now);
	}
	ol->xfer_tag = t;
	ol->last_tag = t;
	return KSIM_XFER_TAKEN;
}

static void ksim_check_taken(struct ksim_observer *ob,
			     struct ksim_obs_link *ol, u64 now)
{
	struct ksim_check *c = ksim_check_of(ob);
	struct ksim_tag_ent *e;

	if (!c->on)
		return;
	e = ksim_tab_find(c, ol->xfer_tag);
	if (!e)
		return;
	switch (ol->cls) {
	case KSIM_LC_DELIVER:
		c->count_[KSIM_CHK_DELIVERED]++;
		ksim_tab_del(c, e);
		break;
	case KSIM_LC_TIEOFF:
		c->count_[KSIM_CHK_TIEOFF]++;
		ksim_tab_del(c, e);
		break;
	default:
		e->at = ol->rxnode;
		e->hop = ol;
		e->hop_cycle = now;
		break;
	}
}

/* a drop knob ate the transfer in progress: a loss, but no violation */
static void ksim_check_dropped(struct ksim_observer *ob,
			       struct ksim_obs_link *ol)
{
	struct ksim_check *c = ksim_check_of(ob);
	struct ksim_tag_ent *e;

	if (!c->on)
		return;
	e = ksim_tab_find(c, ol->xfer_tag);
	if (e)
		e->injected = true;
}

static void ksim_check_post_cycle(void *ctx)
{
	struct ksim_check *c = ctx;
	u64 now = ksim_obs_now(c->ob.obs);
	u32 i;

	for (i = 0; i < c->n_refused; i++) {
		struct ksim_obs_link *ol = c->refused[i];
		struct ksim_link *l = ol->l;
		u32 t = ksim_flit_tag(&ol->held);
		struct ksim_tag_ent *e;

		ol->refused = false;
		if (l->valid && !memcmp(&l->reg, &ol->held, sizeof(l->reg)))
			continue;
		ksim_viol(c, KSIM_CHK_R1, now, l->mesh, l->x, l->y,
			"mesh %u link %s: a type 0x%x flit (%u,%u)->(%u,%u) offered against busy was %s before it was taken",
			l->mesh, ol->name,
			(unsigned int)kh_flit_get(&ol->held, KH_HDR_TYPE),
			(unsigned int)kh_flit_get(&ol->held, KH_HDR_SRC_X),
			(unsigned int)kh_flit_get(&ol->held, KH_HDR_SRC_Y),
			(unsigned int)kh_flit_get(&ol->held, KH_HDR_DST_X),
			(unsigned int)kh_flit_get(&ol->held, KH_HDR_DST_Y),
			l->valid ? "replaced" : "withdrawn");
		e = ksim_tab_find(c, t);
		if (e) {
			c->count_[KSIM_CHK_WITHDRAWN]++;
			ksim_tab_del(c, e);
		}
	}
	c->n_refused = 0;
	if (++c->steps % KSIM_CHK_AUDIT_PERIOD == 0)
		ksim_chk_audit(c);
}

/* ---- units ---- */

/* node.timer is kept in global cycles whatever the unit's clock */
static bool ksim_unit_timer_set(const struct ksim_unit *u)
{
	return u->node.timer != KSIM_NEVER && u->node.timer > u->node.sched->now;
}

static bool ksim_type_known(const struct ksim_unit *u, unsigned int type)
{
	u16 known = u->type->recv_types;

	if (!known)
		known = (1u << KH_T_MEM_RD_RESP) | (1u << KH_T_MEM_WR_ACK) |
			(1u << KH_T_CU_SIGNAL) | (1u << KH_T_CU_DATA);
	return known & (1u << type);
}

static void ksim_check_unit_reset(struct ksim_obs_unit *ou)
{
	ou->stuck_since = KSIM_NEVER;
	ou->head_since = KSIM_NEVER;
	ou->idle_since = KSIM_NEVER;
	ou->r4_done = ou->r5_done = ou->r7_done = ou->r9_over = false;
	ou->send_prev = ou->send_refused = false;
	ou->send_matched = ou->send_offered = false;
	ou->done_seen = false;
	ou->outstanding = 0;
}

static void ksim_check_reset_op(struct ksim_observer *ob,
				struct ksim_obs_unit *ou)
{
	ksim_check_unit_reset(ou);
}

static void ksim_check_unit_pre(struct ksim_observer *ob,
				struct ksim_obs_unit *ou)
{
	if (!ksim_check_of(ob)->on)
		return;
	ou->send_prev = ou->send_refused;
	ou->send_refused = false;
	ou->send_matched = false;
	ou->send_offered = false;
}

/* MEM_RD_RESP beats a read request brings back to its requester. */
static u32 ksim_rd_beats(const struct kh_flit *f)
{
	unsigned int flags = kh_flit_get(f, KH_MEM_FLAGS);
	u32 count, words;

	if (!(flags & (KH_MEMF_STREAM | KH_MEMF_QUANT)))
		return (u32)kh_flit_get(f, KH_MEM_LEN) + 1;
	count = flags & KH_MEMF_STREAM ? (u32)kh_flit_get(f, KH_MEM_COUNT) : 1;
	if (!count)
		count = 1;
	words = kh_flit_get(f, KH_MEM_ENTRY_WORDS);
	if (flags & KH_MEMF_QUANT || !words || words > 4)
		words = 4;
	return count * words;
}

static void ksim_check_unit_send(struct ksim_observer *ob,
				 struct ksim_obs_unit *ou,
				 const struct kh_flit *f, bool ready)
{
	struct ksim_check *c = ksim_check_of(ob);
	struct ksim_unit *u = ou->u;
	u64 now = ksim_obs_now(c->ob.obs);
	unsigned int type = kh_flit_get(f, KH_HDR_TYPE);
	char who[48];

	if (!c->on)
		return;
	ou->send_offered = true;
	if (ou->send_prev && !memcmp(f, &ou->send_held, sizeof(*f)))
		ou->send_matched = true;
	if (!ready) {
		if (!ou->send_refused) {
			ou->send_refused = true;
			ou->send_held = *f;
		}
		return;
	}
	if (type == KH_T_CU_SIGNAL) {
		unsigned int code = kh_flit_get(f, KH_SIG_CODE);

		if (code == KH_SIG_INST_COMPLETE ||
		    code == KH_SIG_BATCH_COMPLETE || code == KH_SIG_FAULT) {
			ksim_obs_unit_name(ou, who, sizeof(who));
			ksim_viol(c, KSIM_CHK_R8, now, u->mesh->id, u->x, u->y,
				"%s sent CU_SIGNAL code 0x%02x on send_* (only the base may)",
				who, code);
		}
	}
	if ((type == KH_T_MEM_RD_REQ || type == KH_T_MEM_WR_REQ) &&
	    u->type->mem_in_job && !u->in_flight && ksim_fifo_empty(&u->inst) &&
	    !ou->idle_mem_said && u->type->mem_in_job(u)) {
		/* once a unit: a firmware that does it does it in a loop */
		ou->idle_mem_said = true;
		ksim_obs_unit_name(ou, who, sizeof(who));
		ksim_viol(c, KSIM_CHK_IDLE_MEM, now, u->mesh->id, u->x, u->y,
			  "%s sent %s at 0x%llx with no instruction in flight or queued: its spec lets it reach memory for a job only",
			  who, type == KH_T_MEM_RD_REQ ? "MEM_RD_REQ" : "MEM_WR_REQ",
			  (unsigned long long)kh_flit_get(f, KH_MEM_ADDR));
	}
	if (type == KH_T_MEM_RD_REQ) {
		ou->outstanding += ksim_rd_beats(f);
		if (ou->outstanding > u->recv.depth && !ou->r9_over) {
			ou->r9_over = true;
			ksim_obs_unit_name(ou, who, sizeof(who));
			ksim_viol(c, KSIM_CHK_R9, now, u->mesh->id, u->x, u->y,
				"%s has %u MEM_RD_RESP beats outstanding; its receive FIFO holds %u",
				who, ou->outstanding, u->recv.depth);
		}
	}
}

static void ksim_check_unit_pop(struct ksim_observer *ob,
				struct ksim_obs_unit *ou,
				const struct kh_flit *head)
{
	if (!ksim_check_of(ob)->on)
		return;
	if (kh_flit_get(head, KH_HDR_TYPE) == KH_T_MEM_RD_RESP &&
	    ou->outstanding) {
		ou->outstanding--;
		if (ou->outstanding <= ou->u->recv.depth)
			ou->r9_over = false;
	}
}

/*
 * exec_done, as the unit pulsed it (before any knob): noted now, judged
 * when the cycle's pulses are all in (ksim_check_unit_post()), after the
 * knobs acted and the trace recorded the retirement.
 */
static void ksim_check_unit_done(struct ksim_observer *ob,
				 struct ksim_obs_unit *ou)
{
	struct ksim_unit *u = ou->u;

	if (!ksim_check_of(ob)->on)
		return;
	ou->done_seen = true;
	ou->done_accept = u->p_accept;
	ou->done_in_flight = u->in_flight;
}

/* Rules 6 and 7 (twice) on the exec_done of this cycle. */
static void ksim_check_done(struct ksim_check *c, struct ksim_obs_unit *ou,
			    u64 now)
{
	struct ksim_unit *u = ou->u;
	char who[48];

	ou->done_seen = false;
	if (ou->done_accept) {
		ksim_obs_unit_name(ou, who, sizeof(who));
		ksim_viol(c, KSIM_CHK_R6, now, u->mesh->id, u->x, u->y,
			"%s: the base loses this completion (txn 0x%02x)", who,
			u->cur_txn);
	} else if (!ou->done_in_flight) {
		ksim_obs_unit_name(ou, who, sizeof(who));
		ksim_viol(c, KSIM_CHK_R7, now, u->mesh->id, u->x, u->y,
			"%s: exec_done with no instruction in flight (retired twice)",
			who);
	}
}

/* Rules 4, 5 and 7 (never) on the unit's state now. */
static void ksim_check_unit_bounds(struct ksim_check *c,
				   struct ksim_obs_unit *ou, u64 now)
{
	struct ksim_unit *u = ou->u;
	char who[48];

	if (ou->stuck_since != KSIM_NEVER && !ou->r4_done &&
	    now - ou->stuck_since >= c->recv_bound) {
		const struct kh_flit *h = ksim_fifo_head(&u->recv);

		ou->r4_done = true;
		ksim_obs_unit_name(ou, who, sizeof(who));
		ksim_viol(c, KSIM_CHK_R4, ou->stuck_since + c->recv_bound,
			u->mesh->id, u->x, u->y,
			"%s has held a type 0x%x flit at its receive head since cycle %llu, idle, with nothing but an inbound flit to wake it",
			who, h ? (unsigned int)kh_flit_get(h, KH_HDR_TYPE) : 0,
			(unsigned long long)ou->stuck_since);
	}
	if (ou->head_since != KSIM_NEVER && !ou->r5_done &&
	    now - ou->head_since >= c->unknown_bound) {
		const struct kh_flit *h = ksim_fifo_head(&u->recv);
		unsigned int type = h ? kh_flit_get(h, KH_HDR_TYPE) : 0;

		if (h && !ksim_type_known(u, type)) {
			ou->r5_done = true;
			ksim_obs_unit_name(ou, who, sizeof(who));
			ksim_viol(c, KSIM_CHK_R5, ou->head_since + c->unknown_bound,
				u->mesh->id, u->x, u->y,
				"%s has held a flit of type 0x%x, which it does not handle, at its receive head since cycle %llu",
				who, type, (unsigned long long)ou->head_since);
		}
	}
	if (ou->idle_since != KSIM_NEVER && !ou->r7_done && !ou->hung &&
	    now - ou->idle_since >= c->retire_bound) {
		ou->r7_done = true;
		ksim_obs_unit_name(ou, who, sizeof(who));
		ksim_viol(c, KSIM_CHK_R7, ou->idle_since + c->retire_bound,
			u->mesh->id, u->x, u->y,
			"%s has had an instruction (txn 0x%02x) in flight since cycle %llu while idle: it never retires",
			who, u->cur_txn, (unsigned long long)ou->idle_since);
	}
}

static void ksim_check_unit_post(struct ksim_observer *ob,
				 struct ksim_obs_unit *ou, bool unit_progress)
{
	struct ksim_check *c = ksim_check_of(ob);
	struct ksim_unit *u = ou->u;
	u64 now = ksim_obs_now(c->ob.obs);
	bool idle, recv = !ksim_fifo_empty(&u->recv);
	char who[48];

	if (!c->on)
		return;
	if (ou->done_seen)
		ksim_check_done(c, ou, now);
	if (ou->send_prev && !ou->send_matched) {
		ksim_obs_unit_name(ou, who, sizeof(who));
		ksim_viol(c, KSIM_CHK_R1, now, u->mesh->id, u->x, u->y,
			"%s: the type 0x%x flit it offered on send_* and was refused is %s",
			who,
			(unsigned int)kh_flit_get(&ou->send_held, KH_HDR_TYPE),
			ou->send_offered ? "not the one it offers now"
					 : "no longer offered");
	}
	idle = !unit_progress && !u->p_accept && !u->p_done && !u->p_pop &&
	       !ou->send_offered && !ksim_unit_timer_set(u);

	/* rule 4: the receive head held while otherwise idle */
	if (recv && idle) {
		if (ou->stuck_since == KSIM_NEVER)
			ou->stuck_since = now;
	} else {
		ou->stuck_since = KSIM_NEVER;
		ou->r4_done = false;
	}
	/* rule 5: how long the current head has been the head */
	if (!recv) {
		ou->head_since = KSIM_NEVER;
		ou->r5_done = false;
	} else if (u->p_pop || ou->head_since == KSIM_NEVER) {
		ou->head_since = now;
		ou->r5_done = false;
	}
	/* rule 7: in flight while idle */
	if (u->in_flight && idle) {
		if (ou->idle_since == KSIM_NEVER)
			ou->idle_since = now;
	} else {
		ou->idle_since = KSIM_NEVER;
		ou->r7_done = false;
	}
	ksim_check_unit_bounds(c, ou, now);
}

/* ---- audit ---- */

static void ksim_mark(struct ksim_check *c, struct kh_flit *f,
		      struct ksim_node *at, const char *where)
{
	u32 t = ksim_flit_tag(f);
	struct ksim_tag_ent *e = ksim_tab_find(c, t);

	if (!t)
		return;
	if (!e || e->seen == c->epoch) {
		ksim_viol(c, KSIM_CHK_DUP, ksim_obs_now(c->ob.obs), 0, 0, 0,
			"%s holds a copy of flit #%u (type 0x%x (%u,%u)->(%u,%u))%s",
			where, t, (unsigned int)kh_flit_get(f, KH_HDR_TYPE),
			(unsigned int)kh_flit_get(f, KH_HDR_SRC_X),
			(unsigned int)kh_flit_get(f, KH_HDR_SRC_Y),
			(unsigned int)kh_flit_get(f, KH_HDR_DST_X),
			(unsigned int)kh_flit_get(f, KH_HDR_DST_Y),
			e ? " already seen elsewhere" : " that had already left the mesh");
		ksim_flit_set_tag(f, 0);	/* followed no further */
		return;
	}
	e->seen = c->epoch;
	e->at = at;
}

void ksim_chk_audit(struct ksim_check *c)
{
	struct ksim_obs *o = c->ob.obs;
	u64 now = ksim_obs_now(o);
	unsigned int i, m, p;
	char where[48];
	u32 k;

	if (!c->on)
		return;
	for (i = 0; i < o->n_units; i++)
		ksim_check_unit_bounds(c, &o->units[i], now);
	if (c->no_track)
		return;
	if (++c->epoch == 0)
		c->epoch = 1;
	for (i = 0; i < o->n_links; i++) {
		struct ksim_obs_link *ol = &o->links[i];

		if (!ol->l->valid)
			continue;
		snprintf(where, sizeof(where), "mesh %u link %s", ol->l->mesh,
			 ol->name);
		ksim_mark(c, &ol->l->reg, ol->sender, where);
	}
	for (m = 0; m < o->w.n_mesh; m++) {
		struct ksim_mesh *me = o->w.mesh[m];

		for (i = 0; i < me->nrx * me->nry; i++) {
			struct ksim_router *r = &me->routers[i];

			for (p = 0; p < KSIM_PORTS; p++)
				for (k = 0; k < r->in[p].q.count; k++) {
					snprintf(where, sizeof(where),
						 "mesh %u router (%u,%u) input %u",
						 m, r->x, r->y, p);
					ksim_mark(c, (struct kh_flit *)
						ksim_fifo_at(&r->in[p].q, k),
						&r->node, where);
				}
		}
	}
	for (k = 0; k < c->cap;) {
		struct ksim_tag_ent *e = &c->tab[k];

		if (!e->tag || e->seen == c->epoch) {
			k++;
			continue;
		}
		if (e->injected) {
			c->count_[KSIM_CHK_LOST_INJ]++;
		} else {
			ksim_viol(c, KSIM_CHK_LOST, now, e->mesh, KH_YX_X(e->src),
				KH_YX_Y(e->src),
				"mesh %u: flit #%u (type 0x%x (%u,%u)->(%u,%u)) last crossed link %s at cycle %llu and is nowhere in the mesh",
				e->mesh, e->tag, e->type, KH_YX_X(e->src),
				KH_YX_Y(e->src), KH_YX_X(e->dst),
				KH_YX_Y(e->dst), e->hop ? e->hop->name : "?",
				(unsigned long long)e->hop_cycle);
		}
		ksim_tab_del(c, e);	/* slot k may now hold another entry */
	}
}

static void ksim_check_mesh_reset(struct ksim_observer *ob, unsigned int mesh)
{
	struct ksim_check *c = ksim_check_of(ob);
	u32 k;

	if (!c->on || !c->tab)
		return;
	for (k = 0; k < c->cap;) {
		if (c->tab[k].tag && c->tab[k].mesh == mesh)
			ksim_tab_del(c, &c->tab[k]);
		else
			k++;
	}
}

void ksim_chk_clock(struct ksim_check *c, unsigned int mesh, const char *msg)
{
	if (!c || !c->on)
		return;
	ksim_viol(c, KSIM_CHK_CLK, ksim_obs_now(c->ob.obs), mesh, 0, 0,
		  "mesh %u: %s", mesh, msg);
}

u64 ksim_chk_count(const struct ksim_check *c, unsigned int what)
{
	return what < KSIM_CHK_N ? c->count_[what] : 0;
}

u64 ksim_check_violations(const struct ksim_check *c)
{
	u64 n = 0;
	unsigned int i;

	for (i = 1; i < KSIM_CHK_N_VIOL; i++)
		n += ksim_chk_count(c, i);
	return n;
}

bool ksim_check_on(const struct ksim_check *c)
{
	return c->on;
}

bool ksim_check_armed(const struct ksim_check *c)
{
	return c->armed;
}

void ksim_chk_report(struct ksim_check *c, struct ksim_tbuf *tb)
{
	u64 i, first;

	ksim_chk_audit(c);
	ksim_tb_printf(tb, "violations %llu\n",
		     (unsigned long long)ksim_check_violations(c));
	ksim_tb_printf(tb, "checker %s", c->on ? "on" : "off");
	if (c->armed)
		ksim_tb_printf(tb, " recv_bound=%llu unknown_bound=%llu retire_bound=%llu",
			     (unsigned long long)c->recv_bound,
			     (unsigned long long)c->unknown_bound,
			     (unsigned long long)c->retire_bound);
	ksim_tb_printf(tb, "\n");
	if (!c->armed)
		return;
	for (i = 1; i < KSIM_CHK_N_VIOL; i++)
		if (c->count_[i])
			ksim_tb_printf(tb, "%s %llu\n", ksim_count_name[i],
				     (unsigned long long)c->count_[i]);
	ksim_tb_printf(tb, "flits born=%llu delivered=%llu in_flight=%u tieoff=%llu lost=%llu dup=%llu withdrawn=%llu lost_injected=%llu dup_injected=%llu%s\n",
		     (unsigned long long)c->count_[KSIM_CHK_BORN],
		     (unsigned long long)c->count_[KSIM_CHK_DELIVERED], c->count,
		     (unsigned long long)c->count_[KSIM_CHK_TIEOFF],
		     (unsigned long long)c->count_[KSIM_CHK_LOST],
		     (unsigned long long)(c->count_[KSIM_CHK_DUP] +
					  c->count_[KSIM_CHK_R2]),
		     (unsigned long long)c->count_[KSIM_CHK_WITHDRAWN],
		     (unsigned long long)c->count_[KSIM_CHK_LOST_INJ],
		     (unsigned long long)c->count_[KSIM_CHK_DUP_INJ],
		     c->no_track ? " (not followed: out of memory)" : "");
	first = c->n_msgs > KSIM_CHK_MSGS ? c->n_msgs - KSIM_CHK_MSGS : 0;
	if (first)
		ksim_tb_printf(tb, "(%llu earlier messages dropped)\n",
			     (unsigned long long)first);
	for (i = first; i < c->n_msgs; i++)
		ksim_tb_printf(tb, "%s\n", c->msg[i % KSIM_CHK_MSGS]);
}

/* The card is going: the last word on lost flits, then free. */
static void ksim_check_fini(struct ksim_observer *ob)
{
	struct ksim_check *c = ksim_check_of(ob);

	ksim_chk_audit(c);
	c->ob.obs->w.sched->post_cycle = NULL;
	ksim_plat_free(c->tab);
	ksim_plat_free(c->refused);
	ksim_plat_free(c);
}

/* ---- the check command and the public interface ---- */

static int ksim_check_command(struct ksim_observer *ob,
			      const struct ksim_words *w, unsigned int first,
			      char *err, size_t errlen)
{
	struct ksim_check *c = ksim_check_of(ob);
	struct ksim_obs *o = c->ob.obs;
	u64 b[3] = { KSIM_CHK_RECV_BOUND, KSIM_CHK_UNKNOWN_BOUND,
		     KSIM_CHK_RETIRE_BOUND };
	static const char *const bn[3] = {
		"recv_bound", "unknown_bound", "retire_bound",
	};
	struct ksim_word k, v;
	unsigned int i, j;
	int e;

	if (first < w->n && ksim_word_is(&w->w[first], "off") &&
	    w->n == first + 1) {
		e = ksim_check_enable(c, false);
		ksim_obs_attach(o);
		return e;
	}
	if (first >= w->n || !ksim_word_is(&w->w[first], "on"))
		return ksim_refuse(err, errlen, "check: on [recv_bound=C] [unknown_bound=C] [retire_bound=C], or off");
	for (i = first + 1; i < w->n; i++) {
		if (!ksim_word_kv(&w->w[i], &k, &v))
			j = 3;
		else
			for (j = 0; j < 3 && !ksim_word_is(&k, bn[j]); j++)
				;
		if (j == 3 || !ksim_word_u64(&v, &b[j]) || !b[j])
			return ksim_refuse(err, errlen, "check on: '%.*s' is not recv_bound=C, unknown_bound=C or retire_bound=C (C > 0)",
					   ksim_cmd_quote(&w->w[i]), w->w[i].s);
	}
	e = ksim_check_enable(c, true);
	if (e) {
		ksim_refuse(err, errlen, "check on: out of memory");
		return e;
	}
	ksim_check_bounds(c, b[0], b[1], b[2]);
	ksim_obs_attach(o);
	return 0;
}

/* ---- the observer ---- */

static bool ksim_check_watch_link(struct ksim_observer *ob,
				  const struct ksim_obs_link *ol)
{
	return ksim_check_of(ob)->on;
}

static bool ksim_check_watch_unit(struct ksim_observer *ob,
				  const struct ksim_obs_unit *ou)
{
	return ksim_check_of(ob)->on;
}

/* a mesh reset: what was in flight there is forgotten */
static bool ksim_check_watch_mesh(struct ksim_observer *ob, unsigned int mesh)
{
	return ksim_check_of(ob)->on;
}

static const struct ksim_observer_ops ksim_check_ops = {
	.name = "check",
	.command = ksim_check_command,
	.fini = ksim_check_fini,
	.watch_link = ksim_check_watch_link,
	.watch_unit = ksim_check_watch_unit,
	.watch_mesh = ksim_check_watch_mesh,
	.link_refused = ksim_check_refused,
	.link_xfer = ksim_check_xfer,
	.link_dropped = ksim_check_dropped,
	.link_taken = ksim_check_taken,
	.unit_pre = ksim_check_unit_pre,
	.unit_send = ksim_check_unit_send,
	.unit_pop = ksim_check_unit_pop,
	.unit_done = ksim_check_unit_done,
	.unit_post = ksim_check_unit_post,
	.unit_reset = ksim_check_reset_op,
	.mesh_reset = ksim_check_mesh_reset,
};

struct ksim_check *ksim_check_create(struct ksim_obs *o, int *err)
{
	struct ksim_check *c = ksim_plat_zalloc(sizeof(*c));

	if (!c) {
		*err = -ENOMEM;
		return NULL;
	}
	c->ob.ops = &ksim_check_ops;
	*err = ksim_obs_register(o, &c->ob);
	if (*err) {
		ksim_plat_free(c);
		return NULL;
	}
	return c;
}

// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The test's side of the fake card (fake_card.h): declaring what is at each
 * coordinate, scripting replies and instructions, moving time, holding the
 * core's worker, and reading back what the card saw.  Each call takes the
 * card's lock, as the core's worker may be polling the card meanwhile.
 */
#include <stdlib.h>
#include <time.h>

#include "fake_card_int.h"

void fake_node(struct fake_card *fc, unsigned int x, unsigned int y, u64 caps)
{
	struct fake_port *p = fake_at(fc, x, y);

	pthread_mutex_lock(&fc->lock);
	if (p->kind != FAKE_NODE) {
		fc->nodes[fc->n_nodes++] = KH_YX(x, y);
		p->fifo = calloc(FAKE_FIFO, sizeof(*p->fifo));
	}
	p->kind = FAKE_NODE;
	p->caps = caps;
	pthread_mutex_unlock(&fc->lock);
}

void fake_echo(struct fake_card *fc, unsigned int x, unsigned int y)
{
	pthread_mutex_lock(&fc->lock);
	fake_at(fc, x, y)->kind = FAKE_ECHO;
	pthread_mutex_unlock(&fc->lock);
}

void fake_clamp(struct fake_card *fc, unsigned int x, unsigned int y,
		unsigned int px, unsigned int py)
{
	pthread_mutex_lock(&fc->lock);
	fake_at(fc, x, y)->kind = FAKE_CLAMP;
	fake_at(fc, x, y)->port = KH_YX(px, py);
	pthread_mutex_unlock(&fc->lock);
}

void fake_caps_later(struct fake_card *fc, unsigned int x, unsigned int y,
		     u64 caps)
{
	pthread_mutex_lock(&fc->lock);
	fake_at(fc, x, y)->caps_later = caps;
	fake_at(fc, x, y)->caps_later_set = true;
	pthread_mutex_unlock(&fc->lock);
}

void fake_regs(struct fake_card *fc, unsigned int x, unsigned int y,
	       u64 status, u64 counters, u64 dbg)
{
	struct fake_port *p = fake_at(fc, x, y);

	pthread_mutex_lock(&fc->lock);
	p->regs[KH_CTRL_IDX_STATUS] = status;
	p->regs[KH_CTRL_IDX_COUNTERS] = counters;
	p->regs[KH_CTRL_IDX_DBG] = dbg;
	pthread_mutex_unlock(&fc->lock);
}

void fake_reply(struct fake_card *fc, unsigned int x, unsigned int y,
		unsigned int nth, enum fake_reply act)
{
	pthread_mutex_lock(&fc->lock);
	if (nth < FAKE_SCRIPT)
		fake_at(fc, x, y)->act[nth] = act;
	pthread_mutex_unlock(&fc->lock);
}

void fake_reply_src(struct fake_card *fc, unsigned int x, unsigned int y,
		    unsigned int sx, unsigned int sy)
{
	pthread_mutex_lock(&fc->lock);
	fake_at(fc, x, y)->bad_src = KH_YX(sx, sy);
	pthread_mutex_unlock(&fc->lock);
}

void fake_reply_delay(struct fake_card *fc, unsigned int x, unsigned int y,
		      u64 ns)
{
	pthread_mutex_lock(&fc->lock);
	fake_at(fc, x, y)->reply_delay = ns;
	pthread_mutex_unlock(&fc->lock);
}

void fake_exec_ns(struct fake_card *fc, unsigned int x, unsigned int y, u64 ns)
{
	pthread_mutex_lock(&fc->lock);
	fake_at(fc, x, y)->exec_ns = ns;
	pthread_mutex_unlock(&fc->lock);
}

void fake_inst_ns(struct fake_card *fc, unsigned int x, unsigned int y,
		  unsigned int nth, u64 ns)
{
	pthread_mutex_lock(&fc->lock);
	if (nth < FAKE_SCRIPT)
		fake_at(fc, x, y)->inst_ns[nth] = ns;
	pthread_mutex_unlock(&fc->lock);
}

void fake_inst_sig(struct fake_card *fc, unsigned int x, unsigned int y,
		   unsigned int nth, u8 code, u32 arg)
{
	pthread_mutex_lock(&fc->lock);
	if (nth < FAKE_SCRIPT) {
		fake_at(fc, x, y)->sig_code[nth] = code;
		fake_at(fc, x, y)->sig_arg[nth] = arg;
	}
	pthread_mutex_unlock(&fc->lock);
}

void fake_prog_regs(struct fake_card *fc, u32 dst, u32 base, u32 len)
{
	pthread_mutex_lock(&fc->lock);
	fc->prog_dst = dst;
	fc->prog_base = base;
	fc->prog_len = len;
	pthread_mutex_unlock(&fc->lock);
}

void fake_hang(struct fake_card *fc, unsigned int x, unsigned int y,
	       unsigned int nth)
{
	pthread_mutex_lock(&fc->lock);
	fake_at(fc, x, y)->hang_at = nth;
	pthread_mutex_unlock(&fc->lock);
}

void fake_release(struct fake_card *fc, unsigned int x, unsigned int y)
{
	struct fake_port *p = fake_at(fc, x, y);
	unsigned int i;

	pthread_mutex_lock(&fc->lock);
	p->hang_at = ~0u;
	p->busy_until = fc->now;
	for (i = 0; i < p->count; i++) {
		struct fake_inst *in = &p->fifo[(p->head + i) % FAKE_FIFO];

		if (in->done_at == FAKE_NEVER)
			in->done_at = fake_schedule(p, in->nth, fc->now);
		else
			p->busy_until = in->done_at;
	}
	pthread_mutex_unlock(&fc->lock);
}

void fake_node_status(struct fake_card *fc, unsigned int x, unsigned int y,
		      u64 value)
{
	pthread_mutex_lock(&fc->lock);
	fake_at(fc, x, y)->node_status = value;
	pthread_mutex_unlock(&fc->lock);
}

void fake_stuck_dispatcher(struct fake_card *fc, u16 left)
{
	pthread_mutex_lock(&fc->lock);
	fc->run = true;
	fc->left = left;
	fc->credit = 0;
	pthread_mutex_unlock(&fc->lock);
}

void fake_push_ns(struct fake_card *fc, u64 ns)
{
	pthread_mutex_lock(&fc->lock);
	fc->push_ns = ns;
	pthread_mutex_unlock(&fc->lock);
}

void fake_aux_after_batch(struct fake_card *fc, unsigned int n, u64 interval_ns)
{
	pthread_mutex_lock(&fc->lock);
	fc->aux_arm_n = n;
	fc->aux_arm_interval = interval_ns;
	pthread_mutex_unlock(&fc->lock);
}

u64 fake_now(struct fake_card *fc)
{
	u64 t;

	pthread_mutex_lock(&fc->lock);
	t = fc->now;
	pthread_mutex_unlock(&fc->lock);
	return t;
}

void fake_set_step(struct fake_card *fc, u64 ns)
{
	pthread_mutex_lock(&fc->lock);
	fc->step = ns;
	pthread_mutex_unlock(&fc->lock);
}

void fake_jump(struct fake_card *fc, u64 ns)
{
	pthread_mutex_lock(&fc->lock);
	fc->now += ns;
	pthread_mutex_unlock(&fc->lock);
}

static void fake_trap_set(struct fake_card *fc, bool self, unsigned int skip)
{
	pthread_mutex_lock(&fc->lock);
	fc->trap.armed = true;
	fc->trap.caught = false;
	fc->trap.self = self;
	fc->trap.skip = skip;
	fc->trap.reads = 0;
	fc->trap.owner = pthread_self();
	pthread_mutex_unlock(&fc->lock);
}

void fake_trap_arm(struct fake_card *fc)
{
	fake_trap_set(fc, false, 0);
}

void fake_trap_arm_self(struct fake_card *fc, unsigned int skip)
{
	fake_trap_set(fc, true, skip);
}

/* wait (wall time, at most ms) for cond, evaluated under the fake's lock */
static bool fake_trap_until(struct fake_card *fc, bool (*cond)(struct fake_card *fc,
							   unsigned int n),
			    unsigned int n, unsigned int ms)
{
	struct timespec end;
	bool ok;

	clock_gettime(CLOCK_REALTIME, &end);
	end.tv_sec += ms / 1000;
	end.tv_nsec += (ms % 1000) * 1000000L;
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&fc->lock);
	while (!(ok = cond(fc, n)))
		if (pthread_cond_timedwait(&fc->trap.cond, &fc->lock, &end))
			break;
	ok = cond(fc, n);
	pthread_mutex_unlock(&fc->lock);
	return ok;
}

static bool fake_trap_is_caught(struct fake_card *fc, unsigned int n)
{
	return fc->trap.caught;
}

static bool fake_trap_has_reads(struct fake_card *fc, unsigned int n)
{
	return fc->trap.reads >= n;
}

bool fake_trap_caught(struct fake_card *fc, unsigned int ms)
{
	return fake_trap_until(fc, fake_trap_is_caught, 0, ms);
}

bool fake_trap_reads(struct fake_card *fc, unsigned int n, unsigned int ms)
{
	return fake_trap_until(fc, fake_trap_has_reads, n, ms);
}

void fake_trap_release(struct fake_card *fc)
{
	pthread_mutex_lock(&fc->lock);
	fc->trap.armed = false;
	pthread_cond_broadcast(&fc->trap.cond);
	pthread_mutex_unlock(&fc->lock);
}

void fake_observe(struct fake_card *fc, struct fake_obs *o)
{
	pthread_mutex_lock(&fc->lock);
	*o = fc->obs;
	pthread_mutex_unlock(&fc->lock);
}

void fake_node_observe(struct fake_card *fc, unsigned int x, unsigned int y,
		       struct fake_node_obs *o)
{
	struct fake_port *p = fake_at(fc, x, y);

	pthread_mutex_lock(&fc->lock);
	*o = p->obs;
	o->count = KH_NS_COUNT(p->node_status);
	pthread_mutex_unlock(&fc->lock);
}

bool fake_wait_pushed(struct fake_card *fc, unsigned int x, unsigned int y,
		      unsigned int n, unsigned int ms)
{
	struct timespec nap = { 0, 100000 };
	unsigned int waited;
	bool ok = false;

	for (waited = 0; !ok && waited <= ms * 10; waited++) {
		pthread_mutex_lock(&fc->lock);
		ok = fake_at(fc, x, y)->obs.pushed >= n;
		pthread_mutex_unlock(&fc->lock);
		if (!ok)
			nanosleep(&nap, NULL);
	}
	return ok;
}

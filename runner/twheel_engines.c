// SPDX-License-Identifier: GPL-2.0
/*
 * twheel: our engines as runners. The engine is a pure data structure
 * (twheel_core.c); here it gets its lock (the runner's), its clock (jiffies
 * plus an offset that wrap_secs sets), the driver's tick, the read-outs and
 * the tracepoints (twheel_trace.h), emitted around every call into the
 * engine: arm, modify, delete, each callback, each cascade, each tick.
 * What an engine runner holds beside its timers (its engine's memory, its
 * feed) and its calibration are twheel_engines_mem.c.
 */
#include <linux/kernel.h>
#include <linux/bottom_half.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include "runner/twheel_state.h"
#include "runner/twheel_engines.h"
#include "runner/twheel_feed.h"
#include "engines/registry.h"

#define CREATE_TRACE_POINTS
#include "runner/twheel_trace.h"

struct tw_engine_timer {
	struct tw_wtimer w;
	struct twheel_timer t;
};

static struct tw_engine_timer *tw_et(struct tw_wtimer *w)
{
	return container_of(w, struct tw_engine_timer, w);
}

/* A workload timer of an engine ran: its callback re-arms it. */
static void tw_engine_timer_fn(struct twheel_timer *t)
{
	struct tw_engine_timer *et = container_of(t, struct tw_engine_timer, t);
	struct tw_runner *r = et->w.r;

	tw_runner_lock(r, TW_LK_TICK);
	tw_runner_rearm(r, &et->w);
	tw_runner_unlock(r);
}

static void tw_engine_setup(struct tw_runner *r, struct tw_wtimer *w)
{
	twheel_timer_setup(tw_er(r)->e, &tw_et(w)->t, tw_engine_timer_fn);
}

/*
 * The engine ops the runner uses, each with its tracepoint; lock held,
 * expiries in engine time, a range [lo, hi] where the workload has slack
 * (hi == lo: none). twheel_mod() is traced unless it found the expiry the
 * timer already had (it counts those in st.mod_noop), as is a range mod
 * that left the timer where it was.
 */
static __always_inline void tw_engine_add(struct tw_engine_runner *er,
					  enum twheel_kind kind,
					  struct twheel_timer *t,
					  unsigned long lo, unsigned long hi)
{
	if (!(hi == lo ? twheel_add_as(er->e, kind, t, lo) :
			 twheel_add_range(er->e, t, lo, hi)))
		trace_twheel_start(er->e, t, er->clock_offset, false);
}

/*
 * The operations of the runner's hot path (arm, del) take the engine's kind:
 * a constant in the copies made for the engines with fast paths (their own
 * runner ops, tw_engine_runner_ops_<name>), where the engine's code is
 * inlined with no call; TWHEEL_NR_KINDS in the shared ops, where it is one
 * indirect call (twheel_mod() and the others).
 */
static __always_inline bool tw_engine_mod_range(struct twheel_engine *e,
						enum twheel_kind kind,
						struct twheel_timer *t,
						unsigned long lo, unsigned long hi)
{
	return hi == lo ? twheel_mod_as(e, kind, t, lo) :
			  twheel_mod_range(e, t, lo, hi);
}

static noinline void tw_engine_mod_traced(struct tw_engine_runner *er,
					  struct twheel_timer *t,
					  unsigned long lo, unsigned long hi)
{
	struct twheel_engine *e = er->e;
	u64 noops = e->st.mod_noop;
	bool was_pending = tw_engine_mod_range(e, TWHEEL_NR_KINDS, t, lo, hi);

	if (e->st.mod_noop == noops)
		trace_twheel_start(e, t, er->clock_offset, was_pending);
}

static __always_inline void tw_engine_mod(struct tw_engine_runner *er,
					  enum twheel_kind kind,
					  struct twheel_timer *t,
					  unsigned long lo, unsigned long hi)
{
	if (trace_twheel_start_enabled())
		tw_engine_mod_traced(er, t, lo, hi);
	else
		tw_engine_mod_range(er->e, kind, t, lo, hi);
}

static __always_inline bool tw_engine_del_one(struct tw_engine_runner *er,
					      enum twheel_kind kind,
					      struct twheel_timer *t)
{
	bool was_pending = twheel_del_as(er->e, kind, t);

	if (was_pending)
		trace_twheel_cancel(er->e, t, er->clock_offset, t->expires);
	return was_pending;
}

/* Whether w is a deferrable timer (BASE_DEF): counted in def_pending. */
static __always_inline bool tw_engine_def(const struct tw_wtimer *w)
{
	return tw_wl.p.deferrable && tw_wtimer_base(w) == TWHEEL_BASE_DEF;
}

/* A deferrable timer's pending state went from was to now. */
static void tw_engine_def_count(struct tw_engine_runner *er, bool was, bool now)
{
	if (now && !was)
		er->def_pending++;
	else if (was && !now && er->def_pending)
		er->def_pending--;
}

/*
 * With slack the engine picks the expiry in the range: the instant its
 * lateness is judged against moves with it.
 */
static __always_inline void tw_engine_arm_as(struct tw_runner *r,
					     struct tw_wtimer *w,
					     unsigned long expires,
					     enum twheel_kind kind)
{
	struct tw_engine_runner *er = tw_er(r);
	struct twheel_timer *t = &tw_et(w)->t;
	unsigned long lo = expires + er->clock_offset;
	unsigned long slack = tw_runner_slack(expires);

	/* two copies: nothing of the deferrable count on the common path */
	if (unlikely(tw_engine_def(w))) {
		bool was = twheel_pending(er->e, t);

		tw_engine_mod(er, kind, t, lo, lo + slack);
		tw_engine_def_count(er, was, twheel_pending(er->e, t));
	} else {
		tw_engine_mod(er, kind, t, lo, lo + slack);
	}
	if (slack && twheel_pending(er->e, t))
		w->nominal_ns += (u64)(t->expires - lo) * TICK_NSEC;
	if (er->feed)
		tw_feed(er)->kick(er->feed);
}

static __always_inline void tw_engine_del_as(struct tw_runner *r,
					     struct tw_wtimer *w,
					     enum twheel_kind kind)
{
	struct tw_engine_runner *er = tw_er(r);

	if (tw_engine_del_one(er, kind, &tw_et(w)->t) && tw_engine_def(w))
		tw_engine_def_count(er, true, false);
	if (er->feed)
		tw_feed(er)->kick(er->feed);
}

static void tw_engine_arm(struct tw_runner *r, struct tw_wtimer *w,
			  unsigned long expires)
{
	tw_engine_arm_as(r, w, expires, TWHEEL_NR_KINDS);
}

static void tw_engine_del(struct tw_runner *r, struct tw_wtimer *w)
{
	tw_engine_del_as(r, w, TWHEEL_NR_KINDS);
}

static bool tw_engine_pending(struct tw_runner *r, struct tw_wtimer *w)
{
	return twheel_pending(tw_er(r)->e, &tw_et(w)->t);
}

/* A timer's callback between its two tracepoints; no lock held. */
static void tw_engine_callback(struct tw_engine_runner *er,
			       struct twheel_timer *t, unsigned long expires,
			       unsigned long jiffy)
{
	trace_twheel_expire_entry(er->e, t, er->clock_offset, expires, jiffy);
	t->function(t);
	trace_twheel_expire_exit(er->e, t, er->clock_offset, expires);
}

/*
 * twheel_run_as()'s step for the driver: account the run (lock held),
 * run the callback with the lock dropped, the timer marked running.
 */
static void tw_engine_run_one(struct twheel_timer *t, unsigned long jiffy,
			      void *arg)
	__must_hold(arg)
{
	struct tw_engine_timer *et = container_of(t, struct tw_engine_timer, t);
	struct tw_runner *r = arg;
	unsigned long expires = t->expires;

	tw_runner_ran(r, (long)(jiffy - expires),
		      (s64)(ktime_get_ns() - et->w.nominal_ns));
	tw_runner_ran_base(r, &et->w);
	if (tw_engine_def(&et->w))
		tw_engine_def_count(tw_er(r), true, false);
	/* not moved to another instance while its callback runs */
	r->running = &et->w;
	tw_runner_unlock(r);
	tw_engine_callback(tw_er(r), t, expires, jiffy);
	tw_runner_lock(r, TW_LK_TICK);
	r->running = NULL;
}

/* The engine's on_cascade hook while twheel_cascade is enabled. */
static void tw_engine_cascade_traced(struct twheel_engine *e, unsigned int lvl,
				     unsigned int slot, unsigned int moved,
				     u64 ns)
{
	trace_twheel_cascade(e, lvl, slot, moved, ns);
}

/* What a tick keeps between its start and its end. */
struct tw_tick {
	unsigned long now;
	unsigned long span;
	u64 t0;
	u64 cascaded;
	struct twheel_run run;
};

/*
 * A tick's start, lock held: what it missed, and the run set up. False if
 * the engine's clock is past the tick's jiffy: nothing to do.
 */
static bool tw_engine_tick_begin(struct tw_runner *r, struct tw_tick *tk)
	__must_hold(&r->lock)
{
	struct tw_engine_runner *er = tw_er(r);
	struct twheel_engine *e = er->e;
	unsigned long sleep;

	if (time_before(tk->now, e->clk))
		return false;
	tk->span = tk->now - e->clk;
	/* a jiffy the tick meant to sleep through (tick=nohz) is no miss */
	sleep = r->caps & TW_CAP_PERCPU ? READ_ONCE(r->planned) :
					  READ_ONCE(tw_wl.planned);
	sleep = max(er->tick_jiffies, sleep);
	if (tk->span >= sleep) {
		r->rs.catchups++;
		r->rs.missed += tk->span + 1 - sleep;
	}
	tk->cascaded = e->st.cascaded;
	e->cascade_ns = 0;
	/* Set here, under the lock: the engine reads it only while we hold it. */
	e->on_cascade = trace_twheel_cascade_enabled() ?
			tw_engine_cascade_traced : NULL;
	memset(&tk->run, 0, sizeof(tk->run));
	tk->run.budget = tw_wl.p.budget;
	return true;
}

/* A tick's end, lock held: what it ran and took, counted. */
static void tw_engine_tick_end(struct tw_runner *r, struct tw_tick *tk,
			       unsigned long runs)
	__must_hold(&r->lock)
{
	struct tw_engine_runner *er = tw_er(r);
	struct twheel_engine *e = er->e;
	struct tw_run_stats *rs = &r->rs;
	u64 cascaded = e->st.cascaded - tk->cascaded, t;

	er->backlog = tk->run.stopped;
	rs->deferred += tk->run.leftover;
	/* another CPU's tick ran this CPU's timers: it pulled them */
	if ((r->caps & TW_CAP_PERCPU) && r->cpu != smp_processor_id())
		rs->pulled += runs;
	if (tk->run.stopped) {
		rs->ticks_at_budget++;
		rs->backlog++;
		rs->backlog_max = max(rs->backlog_max, rs->backlog);
	} else {
		rs->backlog = 0;
	}
	rs->ticks++;
	rs->expired_max = max_t(u64, rs->expired_max, runs);
	if (cascaded) {
		rs->cascaded_max = max(rs->cascaded_max, cascaded);
		twheel_hist_add(&rs->cascade_ns, e->cascade_ns);
	}
	t = ktime_get_ns() - tk->t0;
	twheel_hist_add(&rs->tick_ns, t);
	if (runs || cascaded)
		twheel_hist_add(&rs->busy_ns, t);
	trace_twheel_tick(e, tk->now, tk->span + 1, runs, cascaded, t);
	if (er->feed)
		tw_feed(er)->kick(er->feed);
}

/*
 * The driver's tick (softirq): every jiffy up to now, callbacks included.
 * Its start and end are the same for every engine; what runs between is
 * the engine's own advance and pop, inline where @kind is a constant. A
 * budget of 0 (none) runs everything: then nothing is ever left over.
 */
static __always_inline void tw_engine_tick_as(struct tw_runner *r,
					      unsigned long now,
					      enum twheel_kind kind)
{
	struct tw_tick tk = { .t0 = ktime_get_ns() };
	unsigned long runs;

	tk.now = now + tw_er(r)->clock_offset;
	tw_runner_lock(r, TW_LK_TICK);
	if (tw_engine_tick_begin(r, &tk)) {
		runs = twheel_run_as(tw_er(r)->e, kind, tk.now,
				     tw_engine_run_one, r, &tk.run);
		tw_engine_tick_end(r, &tk, runs);
	}
	tw_runner_unlock(r);
}

static void tw_engine_tick(struct tw_runner *r, unsigned long now)
{
	tw_engine_tick_as(r, now, TWHEEL_NR_KINDS);
}

/*
 * tick=nohz: how long the tick may sleep for this engine. A tick the budget
 * stopped, or a clock behind, wants the next jiffy. Deferrable timers wake
 * no tick (twheel_idle_next()): they run at the next it has anyway.
 */
static unsigned long tw_engine_next_event(struct tw_runner *r,
					  unsigned long now, unsigned long limit)
{
	struct tw_engine_runner *er = tw_er(r);
	struct twheel_engine *e = er->e;
	unsigned long next = now + er->clock_offset + 1, d = 0;

	spin_lock_bh(&r->lock);
	if (!er->backlog && e->clk == next)
		d = twheel_idle_next(twheel_next_event(e, limit),
				     twheel_stats_pending(&e->st),
				     er->def_pending, limit);
	spin_unlock_bh(&r->lock);
	return d;
}

/*
 * The bench: the engine stands still (no tick), so deltas are from its
 * clock. The op includes an uncontended spinlock, as mod_timer() includes
 * its base lock, and its tracepoint (a no-op unless enabled). It takes the
 * path the runner's arm and del take: the engine's kind a constant in each
 * engine's own copy (tw_engine_runner_ops_of[]).
 */
static __always_inline void tw_engine_bench_op_as(struct tw_runner *r,
						  struct tw_wtimer *w,
						  enum tw_bench_op op,
						  unsigned long delta,
						  enum twheel_kind kind)
{
	struct tw_engine_runner *er = tw_er(r);
	struct twheel_timer *t = &tw_et(w)->t;
	unsigned long lo, hi;

	spin_lock(&r->lock);
	lo = er->e->clk + delta;
	hi = lo + twheel_wl_slack(&tw_wl.p, delta);
	if (op == TW_OP_ADD)
		tw_engine_add(er, kind, t, lo, hi);
	else if (op == TW_OP_MOD)
		tw_engine_mod(er, kind, t, lo, hi);
	else
		tw_engine_del_one(er, kind, t);
	spin_unlock(&r->lock);
}

static void tw_engine_bench_op(struct tw_runner *r, struct tw_wtimer *w,
			       enum tw_bench_op op, unsigned long delta)
{
	tw_engine_bench_op_as(r, w, op, delta, TWHEEL_NR_KINDS);
}

/*
 * tw_engine_where() - where an engine runner files an expiry now
 * @r: an engine runner (TW_CAP_ENGINE); its lock held
 * @expires: the jiffy, in the kernel's jiffies
 * @idx: set to the bucket index (TWHEEL_NO_BUCKET: the engine has none)
 * @bucket_expiry: set to the jiffy that bucket is processed at (the
 *	kernel's jiffies), where the engine knows it: the modern wheel
 * @clk: set to the engine's clock, the next jiffy it processes (the
 *	kernel's jiffies)
 *
 * What the shadow compares with the kernel's own timer wheel.
 *
 * Return: whether @bucket_expiry was set.
 */
static bool tw_engine_where(struct tw_runner *r, unsigned long expires,
			    unsigned int *idx, unsigned long *bucket_expiry,
			    unsigned long *clk)
{
	struct tw_engine_runner *er = tw_er(r);
	struct twheel_engine *e = er->e;

	*clk = e->clk - er->clock_offset;
	if (!e->ops->index) {
		*idx = e->ops->bucket_of(e, expires + er->clock_offset);
		return false;
	}
	*idx = e->ops->index(e, expires + er->clock_offset, bucket_expiry);
	*bucket_expiry -= er->clock_offset;
	return true;
}

/*
 * A timer leaves this per-CPU instance for another of the same engine (a
 * re-arm from the other's CPU): let go of here whatever this engine still
 * knows of it (twheel_detach(): traced and counted as a delete if it was
 * pending), then set up for there. @from's lock held, not @to's.
 */
static void tw_engine_move(struct tw_runner *from, struct tw_runner *to,
			   struct tw_wtimer *w)
{
	struct tw_engine_runner *er = tw_er(from);
	struct twheel_timer *t = &tw_et(w)->t;

	if (twheel_detach(er->e, t)) {
		trace_twheel_cancel(er->e, t, er->clock_offset, t->expires);
		if (tw_engine_def(w))
			tw_engine_def_count(er, true, false);
	}
	if (er->feed)
		tw_feed(er)->kick(er->feed);
	twheel_timer_setup(tw_er(to)->e, t, tw_engine_timer_fn);
}

/* What every engine runner's ops have; arm, del, tick, bench_op set apart. */
#define TW_ENGINE_RUNNER_OPS					\
	.timer_size	= sizeof(struct tw_engine_timer),	\
	.caps		= TW_CAP_ENGINE | TW_CAP_BASES,		\
	.init		= tw_engine_runner_init,		\
	.release	= tw_engine_runner_release,		\
	.reserve	= tw_engine_reserve,			\
	.setup		= tw_engine_setup,			\
	.pending	= tw_engine_pending,			\
	.next_event	= tw_engine_next_event,			\
	.needs_room	= tw_engine_needs_room,			\
	.make_room	= tw_engine_make_room,			\
	.calibrate	= tw_engine_calibrate,			\
	.show		= tw_engine_show,			\
	.occupancy	= tw_engine_occupancy,			\
	.max_timers	= tw_engine_max_timers,			\
	.forget		= tw_engine_forget,			\
	.move		= tw_engine_move,			\
	.where		= tw_engine_where

/* The engines without fast paths: one indirect call an operation. */
const struct tw_runner_ops tw_engine_runner_ops = {
	TW_ENGINE_RUNNER_OPS,
	.arm		= tw_engine_arm,
	.del		= tw_engine_del,
	.tick		= tw_engine_tick,
	.bench_op	= tw_engine_bench_op,
};

/*
 * Each engine gets its own arm, del, tick and bench op, its kind a
 * constant in them: an engine with fast paths (FAST in the registry) has
 * its code inlined there (the tick's advance and pop too), any other a
 * direct call of its composed operation. The kind is
 * decided once, when the runner is set up (its ops: one of
 * tw_engine_runner_ops_of[]), and never tested on the hot path.
 */
#define TW_ENGINE_FNS(name, NAME, ...)						\
static void tw_engine_arm_##name(struct tw_runner *r, struct tw_wtimer *w,	\
				 unsigned long expires)				\
{										\
	tw_engine_arm_as(r, w, expires, TWHEEL_##NAME);				\
}										\
static void tw_engine_del_##name(struct tw_runner *r, struct tw_wtimer *w)	\
{										\
	tw_engine_del_as(r, w, TWHEEL_##NAME);					\
}										\
static void tw_engine_tick_##name(struct tw_runner *r, unsigned long now)	\
{										\
	tw_engine_tick_as(r, now, TWHEEL_##NAME);				\
}										\
static void tw_engine_bench_op_##name(struct tw_runner *r,			\
				      struct tw_wtimer *w,			\
				      enum tw_bench_op op,			\
				      unsigned long delta)			\
{										\
	tw_engine_bench_op_as(r, w, op, delta, TWHEEL_##NAME);			\
}

#define TWHEEL_ENGINE(name, NAME, path, exact)	TW_ENGINE_FNS(name, NAME, path, exact)
#include "engines/list.h"
#undef TWHEEL_ENGINE

#define TW_ENGINE_OPS_AT(name, NAME, ...)				\
	[TWHEEL_##NAME] = {						\
		TW_ENGINE_RUNNER_OPS,					\
		.arm	= tw_engine_arm_##name,				\
		.del	= tw_engine_del_##name,				\
		.tick	= tw_engine_tick_##name,			\
		.bench_op = tw_engine_bench_op_##name,			\
	}

/* Every engine runner's ops, by the engine's kind. */
const struct tw_runner_ops tw_engine_runner_ops_of[TWHEEL_NR_KINDS] = {
#define TWHEEL_ENGINE(name, NAME, path, exact)	TW_ENGINE_OPS_AT(name, NAME, path, exact),
#include "engines/list.h"
#undef TWHEEL_ENGINE
};

// SPDX-License-Identifier: GPL-2.0
/*
 * twheel runner layer: the runners the module runs and their shared state
 * (twheel_state.h), set up from the table of ops twheel_main.c assembles,
 * and what each runner does alike: arming with a lateness estimate, the
 * accounting of a run, re-arming, the tick's activity ops (remote ones
 * too: a timer of another CPU's instance, which a re-arm moves). What is
 * done to all of them at once (load, start, tick, disarm, reset) is
 * twheel_runners.c; admission, what a load asks of the machine,
 * twheel_admit.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/bitops.h>
#include <linux/bottom_half.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "runner/twheel_state.h"

struct tw_runner tw_runners[TWHEEL_NR_RUNNERS];
unsigned long tw_runner_mask;		/* runners the module runs */
struct tw_workload tw_wl;
/* Serialises control commands and the read-outs that need a stable state. */
DEFINE_MUTEX(tw_ctl);

/**
 * tw_runner_next() - the next runner the module runs
 * @i: in: the index to look from; out: the index of the runner found
 *	(TWHEEL_NR_RUNNERS when none is)
 *
 * What tw_for_each_runner() iterates with.
 *
 * Return: the runner at or after index *@i that the module runs, or NULL.
 */
struct tw_runner *tw_runner_next(int *i)
{
	*i = find_next_bit(&tw_runner_mask, TWHEEL_NR_RUNNERS, *i);
	return *i < TWHEEL_NR_RUNNERS ? &tw_runners[*i] : NULL;
}

/**
 * tw_runners_init() - set up the runners the module runs
 * @mask: the runners, by id (engines=)
 * @cfg: the module's parameters, handed to each runner's init op
 * @impl: each runner's ops, by id: the one table of runners, which the
 *	module assembles (the shadow's ops come from the layer above this one)
 *
 * Names each runner, gives it its ops (from @impl), its lock and what each
 * CPU does on it (struct tw_lockstat), calls its init op and adds it to
 * tw_runner_mask; with @cfg->percpu an engine runner, and a kernel runner
 * whose ops need no runner lock (TW_CAP_LOCKFREE: its counters per CPU),
 * gets its per-CPU instances too (tw_runner_inst_init()). Module init:
 * may sleep.
 *
 * Return: 0, -ENOMEM, or the first init op's error; then every runner set
 * up so far is released again and none is left set up.
 */
int tw_runners_init(unsigned long mask, const struct tw_config *cfg,
		    const struct tw_runner_ops *const *impl)
{
	struct tw_runner *r;
	int i, ret;

	tw_wl.percpu = cfg->percpu;
	for_each_set_bit(i, &mask, TWHEEL_NR_RUNNERS) {
		r = &tw_runners[i];
		r->name = twheel_runner_names[i];
		r->id = i;
		r->ops = impl[i];
		r->caps = r->ops->caps;
		r->st = &r->own_st;
		spin_lock_init(&r->lock);
		r->ls = alloc_percpu(struct tw_lockstat);
		if (!r->ls)
			ret = -ENOMEM;
		else
			ret = r->ops->init ? r->ops->init(r, cfg) : 0;
		if (!ret && cfg->percpu &&
		    (r->caps & (TW_CAP_ENGINE | TW_CAP_LOCKFREE))) {
			ret = tw_runner_inst_init(r, cfg);
			if (ret && r->ops->release)
				r->ops->release(r);
		}
		if (ret) {
			free_percpu(r->ls);
			memset(r, 0, sizeof(*r));
			tw_runners_release();
			return ret;
		}
		set_bit(i, &tw_runner_mask);
	}
	return 0;
}

/**
 * tw_runners_release() - undo tw_runners_init()
 *
 * Releases each runner's per-CPU instances, calls its release op, frees
 * what its CPUs counted, zeroes the runner and empties tw_runner_mask. No
 * timer may be armed; may sleep.
 */
void tw_runners_release(void)
{
	struct tw_runner *r;

	tw_for_each_runner(r) {
		tw_runner_inst_release(r);
		if (r->ops->release)
			r->ops->release(r);
		free_percpu(r->ls);
		memset(r, 0, sizeof(*r));
	}
	tw_runner_mask = 0;
}

/**
 * tw_runner_arm_at() - arm a workload timer, its due instant estimated
 * @r: its runner
 * @w: the timer
 * @expires: the jiffy (the kernel's jiffies) it is to run at
 * @nominal_ns: that jiffy's instant, estimated as tw_runner_arm() does
 *
 * Stores @expires and @nominal_ns, then arms @w through the runner's arm
 * op; on a runner whose ops take no lock (TW_CAP_LOCKFREE, the kernel's
 * timer_list), arms first and stores them after, so that a callback that
 * reads them finds the timer pending again (tw_tl_ran_percpu()).
 * Context: @r->lock held, or a TW_CAP_LOCKFREE runner's per-CPU instance
 * on its own CPU.
 */
void tw_runner_arm_at(struct tw_runner *r, struct tw_wtimer *w,
		      unsigned long expires, u64 nominal_ns)
{
	if (r->caps & TW_CAP_LOCKFREE) {
		r->ops->arm(r, w, expires);
		r->rs.arms_base[tw_wtimer_base(w)]++;
		/* a callback that sees these sees the timer pending */
		smp_wmb();
		WRITE_ONCE(w->expires, expires);
		WRITE_ONCE(w->nominal_ns, nominal_ns);
		return;
	}
	w->expires = expires;
	w->nominal_ns = nominal_ns;
	r->ops->arm(r, w, expires);
	r->rs.arms_base[tw_wtimer_base(w)]++;
}

/* When jiffy expires is due, estimated from now (none if already past). */
static u64 tw_nominal_ns(unsigned long expires)
{
	long d = (long)(expires - jiffies);

	return ktime_get_ns() + (u64)max(d, 0L) * TICK_NSEC;
}

/**
 * tw_runner_arm() - arm a workload timer, noting when it is due
 * @r: its runner
 * @w: the timer
 * @expires: the jiffy (the kernel's jiffies) it is to run at
 *
 * Stores @expires and the instant it is due, estimated the same way on
 * every runner (now plus the jiffies to go, none if already past), then
 * arms @w through the runner's arm op. Context: @r->lock held.
 */
void tw_runner_arm(struct tw_runner *r, struct tw_wtimer *w,
		   unsigned long expires)
{
	tw_runner_arm_at(r, w, expires, tw_nominal_ns(expires));
}

/**
 * tw_runner_slack() - how late an arming may run, by the workload's slack
 * @expires: the jiffy the timer is armed for
 *
 * Return: the jiffies after @expires that an arming for it, its delta taken
 * from now, may run at the latest by the loaded workload's slack=; 0 for
 * an expiry not in the future or without slack.
 */
unsigned long tw_runner_slack(unsigned long expires)
{
	long d = (long)(expires - jiffies);

	return d > 0 ? twheel_wl_slack(&tw_wl.p, min_t(long, d, U32_MAX)) : 0;
}

/* A run judged early, exact or late; r->lock held. */
static void tw_runner_judge(struct tw_runner *r, bool early, long late_j)
{
	struct tw_run_stats *rs = &r->rs;

	rs->runs++;
	if (early)
		rs->early++;
	else if (!late_j)
		rs->exact++;
	twheel_hist_add(&rs->late_j, max(late_j, 0L));
}

/**
 * tw_runner_ran() - account one run of a workload timer
 * @r: its runner
 * @late_j: jiffies it ran after the jiffy asked for (negative: early)
 * @late_ns: ns it ran after that jiffy's instant (negative: early)
 *
 * The one place where runs are judged early, exact or late: in ns on a
 * runner that keeps ns time (TW_CAP_NS_TIME), else in jiffies. Adds to
 * the runs, early and exact counters and both lateness histograms.
 * Context: @r->lock held.
 */
void tw_runner_ran(struct tw_runner *r, long late_j, s64 late_ns)
{
	tw_runner_judge(r, r->ops->caps & TW_CAP_NS_TIME ? late_ns < 0 : late_j < 0,
			late_j);
	twheel_hist_add(&r->rs.late_ns, max_t(s64, late_ns, 0));
}

/**
 * tw_runner_ran_j() - account one run known in jiffies only
 * @r: its runner
 * @late_j: jiffies it ran after the jiffy asked for (negative: early)
 *
 * As tw_runner_ran(), judged in jiffies and without an ns sample: the
 * shadow's real timers. Context: @r->lock held.
 */
void tw_runner_ran_j(struct tw_runner *r, long late_j)
{
	tw_runner_judge(r, late_j < 0, late_j);
}

/**
 * tw_workload_live() - whether the workload's activity is on right now
 *
 * Reads the flag that start sets and that stop, the tick's overload guard
 * and the end of the duration clear (with acquire: what start wrote before
 * is seen), and the duration itself from the clock, so that no re-arm
 * outlives it even when the tick is starved. Any context.
 *
 * Return: true while the activity is on and its duration= has not run out.
 */
bool tw_workload_live(void)
{
	/* acquire: what start wrote before the activity went on is seen */
	if (!smp_load_acquire(&tw_wl.activity))
		return false;
	return !tw_wl.p.duration ||
	       !time_after(jiffies, tw_wl.start + tw_wl.p.duration * HZ);
}

/**
 * tw_runner_rearm() - after a workload timer ran, arm it again if due to
 * @r: its runner
 * @w: the timer that ran
 *
 * Re-arms @w at a fresh delta from now when the runner is active, the
 * workload re-arms this timer, it is not pending again already, the
 * activity is live and the driver's overload guard does not find the tick
 * starved. A shadow's twin is never re-armed here: the shadow runner's
 * twin_ran op learns that it ran instead. Context: @r->lock held.
 */
void tw_runner_rearm(struct tw_runner *r, struct tw_wtimer *w)
{
	if (tw_wl.p.type == TWHEEL_WL_SHADOW) {
		struct tw_runner *m = &tw_runners[TWHEEL_SHADOW];

		m->ops->twin_ran(m, r, w);
		return;
	}
	if (!r->active || !twheel_wl_rearms(&tw_wl.p, w->id) ||
	    r->ops->pending(r, w) || !tw_workload_live() ||
	    (tw_wl.starved && tw_wl.starved()))
		return;
	w->gen++;
	tw_runner_arm(r, w, jiffies + twheel_wl_delta(&tw_wl.p, w->id, w->gen));
}

/*
 * What an op on w does if it re-arms it: its expiry drawn for w's next
 * arming, from now, and that jiffy's instant. No lock needed: w->gen is
 * read once, and the op draws again under the lock if it changed.
 */
static void tw_op_plan(struct tw_wtimer *w, struct tw_op_plan *pl)
{
	pl->gen = READ_ONCE(w->gen);
	pl->expires = jiffies + twheel_wl_delta(&tw_wl.p, w->id, pl->gen + 1);
	pl->nominal_ns = tw_nominal_ns(pl->expires);
}

/*
 * One activity op on w where it lives (r's lock held): a cancel deletes a
 * pending w; anything else arms or re-arms it as planned.
 */
static void tw_runner_touch_at(struct tw_runner *r, struct tw_wtimer *w,
			       bool cancel, const struct tw_op_plan *pl)
{
	if (cancel && r->ops->pending(r, w)) {
		r->ops->del(r, w);
		return;
	}
	w->gen++;
	tw_runner_arm_at(r, w, pl->expires, pl->nominal_ns);
}

/*
 * Whether expires falls in the bucket r's engine files w in now (r's lock
 * held): what __mod_timer() asks of calc_wheel_index() before it moves a
 * timer. An engine without buckets answers no.
 */
static bool tw_runner_same_bucket(struct tw_runner *r, struct tw_wtimer *w,
				  unsigned long expires)
{
	unsigned long be, clk;
	unsigned int now, then;

	if (!r->ops->where)
		return false;
	r->ops->where(r, w->expires, &now, &be, &clk);
	r->ops->where(r, expires, &then, &be, &clk);
	return now != TWHEEL_NO_BUCKET && now == then;
}

/*
 * Whether an op on w, which lives in o (o's lock held), is done in o
 * without moving it (twheel_wl_remote_stays()): expires is what a re-arm
 * would take. Always for a runner that cannot move a timer.
 */
static bool tw_runner_stays(struct tw_runner *o, struct tw_wtimer *w,
			    bool cancel, unsigned long expires)
{
	bool pending, same;

	if (!o->ops->move)
		return true;
	pending = o->ops->pending(o, w);
	same = pending && !cancel &&
	       (expires == w->expires || tw_runner_same_bucket(o, w, expires));
	return twheel_wl_remote_stays(cancel, pending, o->running == w, same);
}

/* The plan again if another CPU armed w since it was drawn (lock held). */
static void tw_op_plan_check(struct tw_wtimer *w, struct tw_op_plan *pl)
{
	if (unlikely(w->gen != pl->gen))
		tw_op_plan(w, pl);
}

/*
 * @w was armed on @r, another CPU's instance: the driver hears of it
 * (struct tw_workload.armed) unless it is deferrable. @r's lock not held.
 */
static void tw_runner_armed_on(struct tw_runner *r, struct tw_wtimer *w,
			       unsigned long expires)
{
	void (*armed)(unsigned int cpu, unsigned long expires) = tw_wl.armed;

	if (armed && tw_wtimer_base(w) != TWHEEL_BASE_DEF)
		armed(r->cpu, expires);
}

/**
 * tw_runner_remote() - an activity op on a timer of another CPU's instance
 * @in: the instance of the CPU running the op (its lock not held)
 * @w: the timer; it lived in another instance when @in's CPU looked
 * @cancel: the op deletes @w if it is pending (else it re-arms it)
 * @pl: what a re-arm takes (drawn again if @w was armed since)
 *
 * As Linux 6.12's timer_delete() and __mod_timer() do with a timer another
 * CPU's base holds, one lock at a time: the instance @w lives in is locked
 * (waiting while @w is marked TW_MIGRATING, as lock_timer_base() does);
 * a delete is done there, and so is a re-arm to @w's own expiry or bucket
 * or of a timer whose callback that instance is running
 * (twheel_wl_remote_stays()). Any other re-arm marks @w migrating, takes
 * it out of that instance (the runner's move op), drops that lock, takes
 * @in's, publishes @w there and re-arms it. If @w turns out to live in
 * @in, the op is done there. Nothing is done on an instance whose
 * activity is off (a timer taken out by then is left unarmed, counted as
 * deleted where it was). Each acquisition counts as a remote op's. The
 * caller counts what it did (remote_ops, migrations). Context: the
 * driver's tick (softirq).
 *
 * Return: what was done (enum tw_touch).
 */
enum tw_touch tw_runner_remote(struct tw_runner *in, struct tw_wtimer *w,
			       bool cancel, struct tw_op_plan *pl)
{
	return tw_runner_remote_to(in, in, w, cancel, pl);
}

/**
 * tw_runner_remote_to() - tw_runner_remote(), the timer's destination given
 * @in: the instance of the CPU running the op (its lock not held)
 * @to: where a re-arm that moves the timer puts it: @in for a re-arm (the
 *	kernel's mod_timer() enqueues on the calling CPU), another CPU's
 *	instance for an on= arm (add_timer_on()), which @cancel must not be
 * @w: the timer
 * @cancel: the op deletes @w if it is pending (else it re-arms it)
 * @pl: what a re-arm takes
 *
 * With @to another than @in, the arm is done where @w lives if that is
 * @to, or if its callback runs there; else @w moves to @to as
 * tw_runner_remote() moves it to @in (twheel_wl_on_stays()). Context: the
 * driver's tick (softirq).
 *
 * Return: what was done (enum tw_touch; TW_TOUCH_MOVED: moved to @to).
 */
enum tw_touch tw_runner_remote_to(struct tw_runner *in, struct tw_runner *to,
				  struct tw_wtimer *w, bool cancel,
				  struct tw_op_plan *pl)
{
	enum tw_touch done = TW_TOUCH_NONE;
	struct tw_runner *o;
	bool stays;

	for (;;) {
		o = tw_wtimer_runner(w);
		tw_runner_lock(o, TW_LK_REMOTE);
		if (READ_ONCE(w->r) == o)
			break;
		tw_runner_unlock(o);
	}
	if (!o->active) {
		tw_runner_unlock(o);
		return TW_TOUCH_NONE;
	}
	tw_op_plan_check(w, pl);
	if (to != in)
		stays = !o->ops->move || twheel_wl_on_stays(o == to, o->running == w);
	else
		stays = o == in || tw_runner_stays(o, w, cancel, pl->expires);
	if (stays) {
		tw_runner_touch_at(o, w, cancel, pl);
		tw_runner_unlock(o);
		if (o == in)
			return TW_TOUCH_LOCAL;
		if (!cancel)
			tw_runner_armed_on(o, w, pl->expires);
		return TW_TOUCH_REMOTE;
	}
	WRITE_ONCE(w->r, (struct tw_runner *)((unsigned long)o | TW_MIGRATING));
	o->ops->move(o, to, w);
	tw_runner_unlock(o);

	tw_runner_lock(to, TW_LK_REMOTE);
	WRITE_ONCE(w->r, to);
	if (to->active) {
		tw_runner_touch_at(to, w, false, pl);
		done = TW_TOUCH_MOVED;
	}
	tw_runner_unlock(to);
	if (done == TW_TOUCH_MOVED && to != in)
		tw_runner_armed_on(to, w, pl->expires);
	return done;
}

/*
 * One activity op on w, which lived in the op's own instance when its CPU
 * looked: that instance's lock is taken for the op alone. Return: whether it was done there (false:
 * in's activity is off, or w left meanwhile and *gone says so).
 */
static bool tw_runner_op_local(struct tw_runner *in, struct tw_wtimer *w,
			       bool cancel, struct tw_op_plan *pl, bool *gone)
{
	bool done = false;

	tw_runner_lock(in, TW_LK_OP);
	/* w->r is in only if in's lock was had when w came to it */
	*gone = READ_ONCE(w->r) != in;
	if (in->active && !*gone) {
		tw_op_plan_check(w, pl);
		tw_runner_touch_at(in, w, cancel, pl);
		done = true;
	}
	tw_runner_unlock(in);
	return done;
}

/*
 * tw_runner_activity() on a runner whose timers the kernel serialises
 * (TW_CAP_LOCKFREE) with per-CPU instances: each op calls mod_timer() or
 * timer_delete() from this CPU with no runner lock, and counts in this
 * CPU's instance (in), which only this CPU writes while the activity is on.
 */
static u32 tw_runner_activity_lockfree(struct tw_runner *r,
				       struct tw_runner *in, u64 tick, int idx)
{
	struct tw_op_plan pl;
	struct twheel_op op;
	struct tw_wtimer *w;
	u32 j, n = 0;

	for (j = 0; READ_ONCE(in->active) && j < tw_wl.p.ops; j++) {
		twheel_wl_op(&tw_wl.p, tick, j, &op);
		if (twheel_wl_cpu_index(&tw_wl.p, op.id, tw_wl.ncpus) != idx)
			continue;
		n++;
		twheel_wl_remote(&tw_wl.p, tick, j, idx, tw_wl.ncpus, &op);
		w = tw_runner_timer(r, op.id);
		tw_op_plan(w, &pl);
		if (op.cancel && r->ops->pending(in, w)) {
			r->ops->del(in, w);
			continue;
		}
		WRITE_ONCE(w->gen, pl.gen + 1);
		tw_runner_arm_at(in, w, pl.expires, pl.nominal_ns);
	}
	return n;
}

/**
 * tw_runner_activity() - this tick's activity ops on one runner
 * @r: the runner
 * @tick: the activity's tick number (what the workload's ops are drawn from)
 * @idx: the index of this tick's CPU among the workload's (tw_wl.cpu_at):
 *	only the ops on timers that CPU owns run, on its instance; -1: every
 *	op, on @r (a workload not spread over CPUs)
 *
 * Runs the workload's ops a tick on @r while the activity is live and the
 * instance active, as the kernel's mod_timer() and timer_delete() do: each
 * op draws what it does (which timer, cancel or not, its expiry, that
 * jiffy's instant) with no lock held, then takes one lock for the engine
 * operation alone: its own instance's for a timer that lives there, the
 * other instance's for one that lives elsewhere (tw_runner_remote(), which
 * may then take its own instance's to move the timer in: still one at a
 * time). With remote=, some of a CPU's ops pick a timer of another CPU's
 * block (twheel_wl_remote()); with on=, some of its re-arms are aimed at
 * another CPU as add_timer_on() aims them (twheel_wl_on()): the timer is
 * armed in that CPU's instance, moved there if it lives elsewhere
 * (tw_runner_remote_to(): the lock of the instance it lives in, then the
 * target's, one at a time). What this CPU did is counted on its side,
 * in its struct tw_lockstat (act_ops, act_ns, remote_ops, migrations, the
 * acquisitions). The kernel's timer_list with percpu=1 (TW_CAP_LOCKFREE)
 * takes no runner lock at all: its ops call mod_timer() and
 * timer_delete() from this CPU, as the kernel's users do, and count in
 * this CPU's instance. Context: the driver's tick (softirq).
 */
void tw_runner_activity(struct tw_runner *r, u64 tick, int idx)
{
	struct tw_runner *in = idx < 0 ? r : tw_runner_on(r, tw_wl.cpu_at[idx]);
	struct tw_lockstat *ls = this_cpu_ptr(r->ls);
	struct tw_op_plan pl;
	struct twheel_op op;
	struct tw_wtimer *w;
	enum tw_touch done;
	u32 j, n = 0, t;
	bool gone;
	u64 t0;

	if (!tw_workload_live())
		return;
	t0 = ktime_get_ns();
	if ((r->caps & TW_CAP_LOCKFREE) && in != r) {
		n = tw_runner_activity_lockfree(r, in, tick, idx);
		goto out;
	}
	for (j = 0; READ_ONCE(in->active) && j < tw_wl.p.ops; j++) {
		twheel_wl_op(&tw_wl.p, tick, j, &op);
		if (idx >= 0 && twheel_wl_cpu_index(&tw_wl.p, op.id, tw_wl.ncpus) != idx)
			continue;
		n++;
		if (idx >= 0)
			twheel_wl_remote(&tw_wl.p, tick, j, idx, tw_wl.ncpus, &op);
		w = tw_runner_timer(r, op.id);
		tw_op_plan(w, &pl);
		if (idx >= 0 && in != r &&
		    twheel_wl_on(&tw_wl.p, tick, j, idx, tw_wl.ncpus, &op, &t)) {
			done = tw_runner_remote_to(in, tw_runner_on(r, tw_wl.cpu_at[t]),
						   w, false, &pl);
			ls->on_ops += done != TW_TOUCH_NONE;
			ls->migrations += done == TW_TOUCH_MOVED;
			continue;
		}
		if (READ_ONCE(w->r) == in) {
			if (tw_runner_op_local(in, w, op.cancel, &pl, &gone) || !gone)
				continue;
		}
		done = tw_runner_remote(in, w, op.cancel, &pl);
		ls->remote_ops += done != TW_TOUCH_NONE;
		ls->migrations += done == TW_TOUCH_MOVED;
	}
out:
	ls->act_ops += n;
	ls->act_ns += ktime_get_ns() - t0;
}

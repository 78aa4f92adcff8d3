// SPDX-License-Identifier: GPL-2.0
/*
 * twheel runner layer: the runners the module runs (twheel_main.c assembles
 * their table of ops), and what every runner
 * does alike: arming with a lateness estimate, the accounting of a run,
 * re-arming, the tick's activity ops (remote ones too: a timer of another
 * CPU's instance, which a re-arm moves), load, start, disarm and reset.
 * Admission, what a load asks of the machine, is twheel_admit.c.
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
 * Names each runner, gives it its ops (from @impl) and lock, calls its init op and adds
 * it to tw_runner_mask; with @cfg->percpu an engine runner gets its
 * per-CPU instances too (tw_runner_inst_init()). Module init: may sleep.
 *
 * Return: 0, or the first init op's error; then every runner set up so far
 * is released again and none is left set up.
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
		ret = r->ops->init ? r->ops->init(r, cfg) : 0;
		if (!ret && cfg->percpu && (r->caps & TW_CAP_ENGINE)) {
			ret = tw_runner_inst_init(r, cfg);
			if (ret && r->ops->release)
				r->ops->release(r);
		}
		if (ret) {
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
 * Releases each runner's per-CPU instances, calls its release op, zeroes
 * the runner and empties tw_runner_mask. No timer may be armed; may sleep.
 */
void tw_runners_release(void)
{
	struct tw_runner *r;

	tw_for_each_runner(r) {
		tw_runner_inst_release(r);
		if (r->ops->release)
			r->ops->release(r);
		memset(r, 0, sizeof(*r));
	}
	tw_runner_mask = 0;
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
	long d = (long)(expires - jiffies);

	w->expires = expires;
	w->nominal_ns = ktime_get_ns() + (u64)max(d, 0L) * TICK_NSEC;
	r->ops->arm(r, w, expires);
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

/**
 * tw_runner_touch() - one activity op on a workload timer where it lives
 * @r: the runner (or per-CPU instance) @w lives in; its lock held
 * @w: the timer
 * @cancel: the op is a cancel
 *
 * Deletes @w if the op is a cancel and @w is pending, else arms or re-arms
 * it at a fresh delta from now. Context: @r->lock held.
 */
void tw_runner_touch(struct tw_runner *r, struct tw_wtimer *w, bool cancel)
{
	if (cancel && r->ops->pending(r, w)) {
		r->ops->del(r, w);
		return;
	}
	w->gen++;
	tw_runner_arm(r, w, jiffies + twheel_wl_delta(&tw_wl.p, w->id, w->gen));
}

/*
 * Takes the locks of two instances of one runner, counted, in the one
 * order every CPU uses: the lower CPU's first, so that two CPUs moving
 * timers towards each other never wait on each other. Lockdep sees one
 * class of lock: the second is taken nested.
 */
static void tw_runner_lock_two(struct tw_runner *a, struct tw_runner *b)
	__acquires(&a->lock) __acquires(&b->lock)
{
	if (a->cpu > b->cpu)
		swap(a, b);
	tw_runner_lock_counted(a, 0);
	tw_runner_lock_counted(b, SINGLE_DEPTH_NESTING);
}

static void tw_runner_unlock_two(struct tw_runner *a, struct tw_runner *b)
	__releases(&a->lock) __releases(&b->lock)
{
	spin_unlock(&b->lock);
	spin_unlock(&a->lock);
}

/*
 * Whether an op on w, which lives in o (o's lock held), is done in o
 * without moving it (twheel_wl_remote_stays()); always for a runner that
 * cannot move a timer.
 */
static bool tw_runner_stays(struct tw_runner *o, struct tw_wtimer *w,
			    bool cancel)
{
	return !o->ops->move ||
	       twheel_wl_remote_stays(&tw_wl.p, cancel, o->ops->pending(o, w),
				      o->running == w);
}

/**
 * tw_runner_remote() - an activity op on a timer of another CPU's instance
 * @in: the instance of the CPU running the op (its lock not held)
 * @w: the timer; it lived in another instance when @in's CPU looked
 * @cancel: the op deletes @w if it is pending (else it re-arms it)
 *
 * As the kernel does with a timer another CPU's base holds: a delete
 * locks the instance @w lives in, and so does a re-arm of a pinned
 * workload (pinned=1) or of a timer whose callback that instance is
 * running; a re-arm otherwise locks both instances (tw_runner_lock_two())
 * and moves @w into @in, re-armed there (the runner's move op, then
 * tw_runner_touch()). @w may move meanwhile: the instance it lives in is
 * looked at again under its lock, and if that is @in after all, the op is
 * done there. Nothing is done once the activity is off. The caller counts
 * what it did in @in's measures (remote_ops, migrations). Context: the
 * driver's tick (softirq).
 *
 * Return: what was done (enum tw_touch).
 */
enum tw_touch tw_runner_remote(struct tw_runner *in, struct tw_wtimer *w,
			       bool cancel)
{
	struct tw_runner *o;
	enum tw_touch done;

	for (;;) {
		o = READ_ONCE(w->r);
		tw_runner_lock(o);
		if (READ_ONCE(w->r) != o) {
			spin_unlock(&o->lock);
			continue;
		}
		if (!o->active) {
			spin_unlock(&o->lock);
			return TW_TOUCH_NONE;
		}
		if (o == in || tw_runner_stays(o, w, cancel)) {
			tw_runner_touch(o, w, cancel);
			spin_unlock(&o->lock);
			return o == in ? TW_TOUCH_LOCAL : TW_TOUCH_REMOTE;
		}
		spin_unlock(&o->lock);
		tw_runner_lock_two(in, o);
		if (READ_ONCE(w->r) != o) {
			tw_runner_unlock_two(in, o);
			continue;
		}
		if (!in->active || !o->active) {
			done = TW_TOUCH_NONE;
		} else if (tw_runner_stays(o, w, cancel)) {
			tw_runner_touch(o, w, cancel);
			done = TW_TOUCH_REMOTE;
		} else {
			o->ops->move(o, in, w);
			WRITE_ONCE(w->r, in);
			tw_runner_touch(in, w, false);
			done = TW_TOUCH_MOVED;
		}
		tw_runner_unlock_two(in, o);
		return done;
	}
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
 * instance active (tw_runner_touch()). With remote=, some of a CPU's ops
 * pick a timer of another CPU's block (twheel_wl_remote()); an op on a
 * timer that lives in another instance, whichever block it is of, goes
 * through tw_runner_remote(), with this instance's lock dropped, and is
 * counted here (remote_ops, migrations). The ops run and the time they
 * took are counted too (act_ops, act_ns). Context: the driver's tick
 * (softirq); takes the instance's lock.
 */
void tw_runner_activity(struct tw_runner *r, u64 tick, int idx)
{
	struct tw_runner *in = idx < 0 ? r : tw_runner_on(r, tw_wl.cpu_at[idx]);
	struct twheel_op op;
	struct tw_wtimer *w;
	enum tw_touch done;
	u32 j, n = 0;
	u64 t0;

	if (!tw_workload_live())
		return;
	t0 = ktime_get_ns();
	tw_runner_lock(in);
	for (j = 0; in->active && j < tw_wl.p.ops; j++) {
		twheel_wl_op(&tw_wl.p, tick, j, &op);
		if (idx >= 0 && twheel_wl_cpu_index(&tw_wl.p, op.id, tw_wl.ncpus) != idx)
			continue;
		n++;
		if (idx >= 0)
			twheel_wl_remote(&tw_wl.p, tick, j, idx, tw_wl.ncpus, &op);
		w = tw_runner_timer(r, op.id);
		/* w->r is in only if in's lock was had when w came to it */
		if (READ_ONCE(w->r) == in) {
			tw_runner_touch(in, w, op.cancel);
			continue;
		}
		spin_unlock(&in->lock);
		done = tw_runner_remote(in, w, op.cancel);
		tw_runner_lock(in);
		in->rs.remote_ops += done == TW_TOUCH_REMOTE || done == TW_TOUCH_MOVED;
		in->rs.migrations += done == TW_TOUCH_MOVED;
	}
	in->rs.act_ops += n;
	in->rs.act_ns += ktime_get_ns() - t0;
	spin_unlock(&in->lock);
}

static bool tw_runner_activates(const struct tw_runner *r)
{
	return r->ops->activate && tw_runner_loaded(r);
}

/**
 * tw_runners_activate() - start or end the activity on every loaded runner
 * @on: start (true) or end (false)
 *
 * Calls the activate op (struct tw_runner_ops.activate) of every loaded
 * runner that has one, in index order. Starting, the first error ends the
 * activity again on the runners it started on. Process context, may sleep.
 *
 * Return: 0, or that first error (never an error when ending).
 */
int tw_runners_activate(bool on)
{
	struct tw_runner *r;
	int i, j, ret;

	for (i = 0; (r = tw_runner_next(&i)); i++) {
		if (!tw_runner_activates(r))
			continue;
		ret = r->ops->activate(r, on);
		if (!ret || !on)
			continue;
		for (j = 0; j < i; j++)
			if (test_bit(j, &tw_runner_mask) &&
			    tw_runner_activates(&tw_runners[j]))
				tw_runners[j].ops->activate(&tw_runners[j], false);
		return ret;
	}
	return 0;
}

/**
 * tw_runners_tick() - advance every runner that has a tick
 * @now: the jiffy to advance to
 *
 * Calls each runner's tick op, on each of its per-CPU instances if it has
 * them, with bottom halves off, as the driver's ticks would; whatever is
 * due runs. Process context.
 */
void tw_runners_tick(unsigned long now)
{
	struct tw_runner *r, *in;

	local_bh_disable();
	tw_for_each_runner(r) {
		if (!r->ops->tick)
			continue;
		tw_for_each_inst(r, in)
			r->ops->tick(in, now);
	}
	local_bh_enable();
}

/**
 * tw_runners_tick_cpus() - the CPUs the driver ticks one by one
 * @m: filled in: the CPUs a loaded workload is spread over (each runs
 *	its ops), and with percpu=1 every online CPU too (each advances its
 *	instances); empty: the driver's one tick does everything
 *
 * A CPU of the workload's that went offline since its load stays in @m:
 * its instances hold timers, and its tick runs elsewhere.
 *
 * Context: tw_ctl held, or module init.
 */
void tw_runners_tick_cpus(struct cpumask *m)
{
	unsigned int i;

	cpumask_clear(m);
	if (tw_wl.percpu)
		cpumask_copy(m, cpu_online_mask);
	for (i = 0; i < tw_wl.ncpus; i++)
		cpumask_set_cpu(tw_wl.cpu_at[i], m);
}

/**
 * tw_runners_cpu_advance() - advance one CPU's instances
 * @cpu: the CPU whose instances they are
 * @now: the jiffy to advance to
 *
 * Calls the tick op on @cpu's instance of every runner that has per-CPU
 * instances: whatever is due there runs. The driver's per-CPU tick, on
 * @cpu or, pulling the timers of a CPU that sleeps (tick=nohz), on
 * another CPU. Softirq.
 */
void tw_runners_cpu_advance(unsigned int cpu, unsigned long now)
{
	struct tw_runner *r;

	tw_for_each_runner(r)
		if (r->inst && r->ops->tick)
			r->ops->tick(tw_runner_on(r, cpu), now);
}

/**
 * tw_runners_cpu_next() - when one CPU's instances have work next
 * @cpu: the CPU whose instances they are
 * @now: the jiffy their tick last advanced them to
 * @limit: look no further than this many jiffies
 *
 * Context: softirq, or bottom halves off.
 *
 * Return: jiffies after @now + 1 to the first jiffy with work on any of
 * @cpu's instances (0: @now + 1, also if one is behind or its budget
 * left work), or @limit if none has any within @limit.
 */
unsigned long tw_runners_cpu_next(unsigned int cpu, unsigned long now,
				  unsigned long limit)
{
	unsigned long d = limit;
	struct tw_runner *r;

	tw_for_each_runner(r)
		if (r->inst && r->ops->next_event && d)
			d = min(d, r->ops->next_event(tw_runner_on(r, cpu), now, d));
	return d;
}

/**
 * tw_runners_cpu_planned() - tell one CPU's instances how long it sleeps
 * @cpu: the CPU whose instances they are
 * @sleep: jiffies its tick means to sleep after this run (struct
 *	tw_runner.planned): a tick that covers no more than that missed none
 *
 * Any context.
 */
void tw_runners_cpu_planned(unsigned int cpu, unsigned long sleep)
{
	struct tw_runner *r;

	tw_for_each_runner(r)
		if (r->inst)
			WRITE_ONCE(tw_runner_on(r, cpu)->planned, sleep);
}

/**
 * tw_runners_cpu_tick() - one CPU's tick: its instances, its ops
 * @cpu: the CPU it runs on
 * @now: the jiffy to advance to
 * @tick: this CPU's activity tick number, counted from the start
 *
 * Advances @cpu's instance of every runner that has them, then, while the
 * activity is on and @cpu is one the workload is spread over, runs the
 * ops on the timers it owns on every loaded runner. The driver's per-CPU
 * tick (softirq, pinned to @cpu).
 *
 * Return: whether activity ops ran (the tick number is to go on).
 */
bool tw_runners_cpu_tick(unsigned int cpu, unsigned long now, u64 tick)
{
	struct tw_runner *r;
	int idx;

	tw_runners_cpu_advance(cpu, now);
	if (!READ_ONCE(tw_wl.activity))
		return false;
	for (idx = 0; idx < tw_wl.ncpus && tw_wl.cpu_at[idx] != cpu; idx++)
		;
	if (idx == tw_wl.ncpus)
		return false;
	tw_for_each_runner(r)
		if (tw_runner_loaded(r))
			tw_runner_activity(r, tick, idx);
	return true;
}

/**
 * tw_runners_set_active() - turn the runners' workload activity on or off
 * @on: on (only loaded runners go on) or off
 *
 * Sets each runner's active flag, and each of its per-CPU instances', under
 * its lock, so that re-arms and ops stop or start consistently with the
 * timers' state. Any context but a hard interrupt.
 */
void tw_runners_set_active(bool on)
{
	struct tw_runner *r, *in;

	tw_for_each_runner(r) {
		tw_for_each_inst(r, in) {
			spin_lock_bh(&in->lock);
			in->active = on && tw_runner_loaded(r);
			spin_unlock_bh(&in->lock);
		}
	}
}

/*
 * Applies fn to every workload timer of r under the lock of the instance
 * it lives in (fn gets that instance), in batches, so that a million
 * timers never keep softirqs off for long. A batch ends early when the
 * instance needs room for the next arm, which it gets here, in process
 * context: no arm of these is refused for memory that could be had.
 */
static void tw_runner_batched(struct tw_runner *r,
			      void (*fn)(struct tw_runner *r,
					 struct tw_wtimer *w,
					 unsigned long arg),
			      unsigned long arg)
{
	struct tw_runner *in;
	struct tw_wtimer *w;
	bool room;
	u32 i, j, end;

	for (i = 0; i < r->nr_timers; i = j) {
		end = min(r->nr_timers, i + 1024);
		room = false;
		in = READ_ONCE(tw_runner_timer(r, i)->r);
		spin_lock_bh(&in->lock);
		/*
		 * A batch stays in one instance (timers own blocks of ids, and
		 * one that moved since ends it: it is looked for again).
		 */
		for (j = i; j < end && !room; j++) {
			w = tw_runner_timer(r, j);
			if (READ_ONCE(w->r) != in)
				break;
			fn(in, w, arg);
			room = in->room_watch && in->ops->needs_room(in);
		}
		spin_unlock_bh(&in->lock);
		if (room)
			in->ops->make_room(in);
		cond_resched();
	}
}

static void tw_wtimer_first_arm(struct tw_runner *r, struct tw_wtimer *w,
				unsigned long base)
{
	w->gen = 0;
	tw_runner_arm(r, w, base + twheel_wl_delta(&tw_wl.p, w->id, 0));
}

/**
 * tw_runners_arm_all() - first arming of every workload timer
 * @base: the jiffy every delta counts from, the same on every runner
 *
 * Arms each timer of each runner at @base plus its first delta, in batches
 * under the runner's lock (room for hash_vec made between batches). Does
 * nothing for a shadow load: its timers are armed by the kernel's
 * traffic, never here. Process context, may sleep.
 */
void tw_runners_arm_all(unsigned long base)
{
	struct tw_runner *r;

	if (tw_wl.p.type == TWHEEL_WL_SHADOW)
		return;
	tw_for_each_runner(r)
		tw_runner_batched(r, tw_wtimer_first_arm, base);
}

static void tw_wtimer_rearm(struct tw_runner *r, struct tw_wtimer *w,
			    unsigned long unused)
{
	tw_runner_rearm(r, w);
}

/**
 * tw_runners_rearm_ran() - re-arm the timers that ran during start
 *
 * Start arms everything with the activity off; the kernel's timers run
 * while the others are being armed, and their re-arms are made here, once
 * the activity is on (tw_runner_rearm() on every timer, in batches).
 * Arming with the activity on would let them re-arm in a storm before
 * start even returns. Nothing for a shadow load. Process context, may
 * sleep.
 */
void tw_runners_rearm_ran(void)
{
	struct tw_runner *r;

	if (tw_wl.p.type == TWHEEL_WL_SHADOW)
		return;
	tw_for_each_runner(r)
		tw_runner_batched(r, tw_wtimer_rearm, 0);
}

static void tw_wtimer_del(struct tw_runner *r, struct tw_wtimer *w,
			  unsigned long unused)
{
	r->ops->del(r, w);
}

/**
 * tw_runners_disarm() - take every workload timer out of its runner
 *
 * Deletes each timer: through the runner's cancel_sync op, which waits for
 * a callback in flight (counted as deleted if it was pending), or through
 * its del op under the lock in batches. The activity must be off, so that
 * nothing re-arms meanwhile. Process context, may sleep.
 */
void tw_runners_disarm(void)
{
	struct tw_runner *r;
	u32 k;

	tw_for_each_runner(r) {
		if (!r->ops->cancel_sync) {
			tw_runner_batched(r, tw_wtimer_del, 0);
			continue;
		}
		for (k = 0; k < r->nr_timers; k++) {
			if (r->ops->cancel_sync(r, tw_runner_timer(r, k))) {
				spin_lock_bh(&r->lock);
				r->st->deleted++;
				spin_unlock_bh(&r->lock);
			}
			if (!(k & 1023))
				cond_resched();
		}
	}
}

/**
 * tw_runners_reset_counters() - zero every runner's counters
 *
 * Zeroes each runner's (and each per-CPU instance's) cumulative counters
 * and what the driver measured; what is pending now counts as added, and
 * the most lazily held starts at what is held now. Takes each one's lock;
 * process context.
 */
void tw_runners_reset_counters(void)
{
	struct tw_runner *r, *in;
	unsigned long pending;

	/* Every cumulative counter comes before lazy_held. */
	BUILD_BUG_ON(offsetof(struct twheel_stats, added) != 0);
	tw_for_each_runner(r) {
		tw_for_each_inst(r, in) {
			spin_lock_bh(&in->lock);
			pending = twheel_stats_pending(in->st);
			memset(in->st, 0, offsetof(struct twheel_stats, lazy_held));
			in->st->added = pending;
			in->st->lazy_held_max = in->st->lazy_held;
			memset(&in->rs, 0, sizeof(in->rs));
			spin_unlock_bh(&in->lock);
		}
	}
}

/**
 * tw_runners_free_timers() - free every runner's workload timers
 *
 * Lets the runner's forget op drop what it (or each per-CPU instance)
 * still links, frees the timers and the bench's op costs of the load. The
 * workload is spread over no CPU any more: a one-instance runner's lock
 * is no longer counted. Nothing may be armed or
 * running. Process context.
 */
void tw_runners_free_timers(void)
{
	struct tw_runner *r, *in;

	tw_wl.ncpus = 0;
	tw_for_each_runner(r) {
		if (!r->inst)
			WRITE_ONCE(r->lockstat, false);
		if (r->timers && r->ops->forget)
			tw_for_each_inst(r, in)
				r->ops->forget(in);
		kvfree(r->timers);
		r->timers = NULL;
		r->nr_timers = 0;
		memset(&r->opcost, 0, sizeof(r->opcost));
	}
}

/*
 * The workload arrays are sized by the user (up to TWHEEL_MAX_TIMERS): if
 * memory is short the load fails with -ENOMEM, it neither wakes the OOM
 * killer nor warns.
 */
#define TW_GFP_WORKLOAD	(GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

/**
 * tw_runners_load() - give runners fresh workload timers
 * @p: the workload's parameters; becomes the loaded workload's
 * @mask: the runners to load, by id
 *
 * Resolves the CPUs @p is spread over (tw_wl_cpus()), allocates
 * @p->count timers for each runner in @mask (and what each runner's, or
 * each per-CPU instance's, reserve op sets aside) before anything changes,
 * then frees the previous load's timers, sets each new timer up in the
 * instance of the CPU that owns it (twheel_wl_cpu_index()), counts the
 * lock of a one-instance engine runner if the load is spread over CPUs
 * (struct tw_runner.lockstat) and resets the counters. Nothing may be
 * armed or running. Process context, may sleep.
 *
 * Return: 0, -EINVAL (a CPU of cpus= not online) or -ENOMEM (logged):
 * then everything is as it was.
 */
int tw_runners_load(const struct twheel_params *p, unsigned long mask)
{
	void *timers[TWHEEL_NR_RUNNERS] = {};
	unsigned int cpu_at[TWHEEL_MAX_CPUS];
	struct tw_runner *r, *in;
	int i, n;
	u32 k;

	n = tw_wl_cpus(p, tw_wl.percpu, cpu_at);
	if (n < 0)
		return n;
	tw_for_each_runner(r) {
		if (!(mask & BIT(r->id)))
			continue;
		timers[r->id] = kvcalloc(p->count, r->ops->timer_size,
					 TW_GFP_WORKLOAD);
		if (!timers[r->id])
			goto nomem;
		if (!r->ops->reserve)
			continue;
		tw_for_each_inst(r, in)
			if (r->ops->reserve(in, p->count))
				goto nomem;
	}
	tw_runners_free_timers();
	tw_wl.p = *p;
	tw_wl.ncpus = n;
	memcpy(tw_wl.cpu_at, cpu_at, n * sizeof(*cpu_at));
	tw_for_each_runner(r) {
		/* one engine instance every CPU's tick locks: its lock counted */
		if (!r->inst && (r->caps & TW_CAP_ENGINE))
			WRITE_ONCE(r->lockstat, n > 0);
		if (!timers[r->id])
			continue;
		r->timers = timers[r->id];
		r->nr_timers = p->count;
		for (k = 0; k < p->count; k++) {
			struct tw_wtimer *w = tw_runner_timer(r, k);

			w->r = n ? tw_runner_on(r, cpu_at[twheel_wl_cpu_index(p, k, n)]) : r;
			w->id = k;
			r->ops->setup(w->r, w);
		}
	}
	/* Fresh counters for a fresh workload (nothing is pending now). */
	tw_runners_reset_counters();
	return 0;

nomem:
	pr_warn_ratelimited("load: no memory for %u timers on %s\n", p->count,
			    r->name);
	for (i = 0; i < TWHEEL_NR_RUNNERS; i++)
		kvfree(timers[i]);
	return -ENOMEM;
}

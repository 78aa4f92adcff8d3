// SPDX-License-Identifier: GPL-2.0
/*
 * twheel runner layer: what is done to every runner the module runs at
 * once (twheel_state.h's tw_runners_*()): their ticks as the driver and a
 * bench call them, starting and ending the activity, arming and re-arming
 * the loaded workload's timers, disarming, resetting the counters, loading
 * and freeing the timers. What one runner does is twheel_runner.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/bitops.h>
#include <linux/bottom_half.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "runner/twheel_state.h"

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
		if (!r->inst)
			continue;
		/* where start re-arms what ran (TW_CAP_LOCKFREE's timers) */
		spin_lock_bh(&r->lock);
		r->active = on && tw_runner_loaded(r);
		spin_unlock_bh(&r->lock);
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
		in = tw_wtimer_runner(tw_runner_timer(r, i));
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
 * nothing re-arms meanwhile; an op of a tick already under way when it
 * went off is waited for first. Process context, may sleep.
 */
void tw_runners_disarm(void)
{
	struct tw_runner *r;
	u32 k;

	/*
	 * A TW_CAP_LOCKFREE runner's activity ops take no lock: one that a
	 * CPU's tick began while the activity was on may still arm its timer.
	 * The ticks are softirqs, RCU readers: after a grace period none
	 * that saw the activity on is left.
	 */
	synchronize_rcu();
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

/* Zeroes one runner's or instance's counters; pending counts as added. */
static void tw_runner_reset_one(struct tw_runner *in)
{
	unsigned long pending;

	spin_lock_bh(&in->lock);
	pending = twheel_stats_pending(in->st);
	memset(in->st, 0, offsetof(struct twheel_stats, lazy_held));
	in->st->added = pending;
	in->st->lazy_held_max = in->st->lazy_held;
	memset(&in->rs, 0, sizeof(in->rs));
	spin_unlock_bh(&in->lock);
}

/**
 * tw_runners_reset_counters() - zero every runner's counters
 *
 * Zeroes each runner's (and each per-CPU instance's) cumulative counters
 * and what the driver and each CPU measured (tw_runner_ls_reset()); what
 * is pending now counts as added, and the most lazily held starts at what
 * is held now. Takes each one's lock; process context.
 */
void tw_runners_reset_counters(void)
{
	struct tw_runner *r, *in;

	/* Every cumulative counter comes before lazy_held. */
	BUILD_BUG_ON(offsetof(struct twheel_stats, added) != 0);
	tw_for_each_runner(r) {
		tw_for_each_inst(r, in)
			tw_runner_reset_one(in);
		/* its own counters count too (tw_runner_totals()) */
		if (r->inst && (r->caps & TW_CAP_LOCKFREE))
			tw_runner_reset_one(r);
		tw_runner_ls_reset(r);
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

			/* the kernel's timers live in the kernel: any CPU's */
			w->r = n && !(r->caps & TW_CAP_LOCKFREE) ?
			       tw_runner_on(r, cpu_at[twheel_wl_cpu_index(p, k, n)]) : r;
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

// SPDX-License-Identifier: GPL-2.0
/*
 * twheel: the driver's tick. One hrtimer in softirq mode, pinned to the CPU
 * that started it, every tick_jiffies: it advances each runner that has a
 * tick (our engines) to jiffies (or lets the shadow feed them the kernel's
 * traffic and advance them in its time), then runs this tick's activity
 * ops on every runner, and ends the activity when the workload's duration
 * is up.
 * A tick that ran late covers every missed jiffy in one call (the runners
 * count these catch-ups).
 *
 * Per-CPU ticks, as the kernel's timer bases each have their own: with
 * percpu=1 on every online CPU, else on the CPUs a workload is spread over
 * (cpus=), one more soft hrtimer each, pinned to its CPU
 * (HRTIMER_MODE_REL_PINNED_SOFT), every tick_jiffies. Each advances its
 * CPU's instances and runs that CPU's share of the activity ops
 * (tw_runners_cpu_tick()); the one tick above then keeps the rest: the
 * runners that are one instance, the overload guard, the end of the
 * duration. Under tick=nohz a CPU's tick sleeps as the one tick does, to
 * the first jiffy with work on its own instances; with pull=1 (the
 * default) it hands that jiffy to the CPUs still awake instead, which
 * expire its timers for it (the pull model, below).
 *
 * tick=nohz: the tick sleeps until the next jiffy one of our engines has
 * work at (each runner's next_event), as the kernel's NOHZ idle does: with
 * no activity as long as that takes (no work at all: it stops until the
 * next control command restarts it), during an activity without ops at
 * most TW_GUARD_WINDOW jiffies (the overload guard checks once a window).
 * An activity with ops needs every tick: then it is periodic. Timers are
 * armed outside the tick only by control commands, which restart it, so
 * no arm can make an earlier event due while it sleeps. wakeups counts the
 * tick's runs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include "runner/twheel_compat.h"
#include "runner/twheel_state.h"
#include "runner/twheel_softirq.h"
#include "driver/twheel_tick.h"

static struct hrtimer tw_tick;

/**
 * struct tw_cpu_tick - one CPU's tick
 * @t: its hrtimer, pinned to @cpu
 * @cpu: the CPU
 * @ticks_run: its ticks of activity since start, what its ops are drawn from
 * @wakeups: its runs since the module was loaded
 * @next: asleep under the pull model: the first jiffy with work on @cpu's
 *	instances, which the CPUs awake look after (tw_group's lock)
 * @has_next: @next is set: @cpu's instances have work (tw_group's lock)
 * @gen: its wake-ups under the pull model, so that a CPU that pulled its
 *	timers does not hand back a @next from before it woke (tw_group's lock)
 */
struct tw_cpu_tick {
	struct hrtimer t;
	unsigned int cpu;
	u64 ticks_run;
	u64 wakeups;
	unsigned long next;
	bool has_next;
	u32 gen;
};

/*
 * The pull model: tick=nohz, percpu=1, pull=1 and a workload whose timers
 * are not pinned. It is the kernel's timer migration since 6.9
 * (kernel/time/timer_migration.c) in its simplest form, one group of every
 * CPU with a tick:
 * - a CPU whose tick goes to sleep hands the first jiffy with work on its
 *   instances to the group (its bit in @idle, its tw_cpu_tick.next) and
 *   wakes for none of its timers;
 * - a CPU whose tick runs expires, in that tick, what is due on every CPU
 *   asleep: that CPU's instances tick here (tw_group_pull(), counted in
 *   their pulled key), and their next jiffy with work goes back to the
 *   group;
 * - the last CPU to go to sleep wakes for the group's first jiffy with
 *   work, its own or another's.
 * Timers of a workload with pinned=1 are each CPU's own, as the kernel's
 * BASE_LOCAL timers are: then each CPU wakes for its own, as with pull=0.
 * A sleeping CPU's instances change only by pulls (which hand their next
 * jiffy back) and by remote ops, which only CPUs with activity ops make,
 * and those tick every jiffy and pull. A CPU asleep is not woken but by a
 * control command, which stops every tick first, so no CPU wakes while
 * another pulls its timers (@gen says so). A puller runs each sleeper's
 * instances with the budget of a tick each.
 */
struct tw_group {
	raw_spinlock_t lock;	/* the masks; each tw_cpu_tick's next, has_next, gen */
	struct cpumask idle;		/* asleep, their timers handed over */
	struct cpumask pulling;		/* asleep, a CPU awake pulling them */
};

static struct tw_group tw_group = {
	.lock = __RAW_SPIN_LOCK_UNLOCKED(tw_group.lock),
};

static DEFINE_PER_CPU(struct tw_cpu_tick, tw_cpu_tick);
/* CPUs whose own tick is started (written with every tick stopped) */
static struct cpumask tw_tick_cpus;
static ktime_t tw_period;
static unsigned int tw_tick_jiffies;
static bool tw_nohz;
static bool tw_pull;
static bool tw_percpu;	/* percpu=1: the CPUs' ticks may pull */
static u64 tw_wakeups;
/* jiffies the tick meant to sleep after its last run (tick_jiffies, or more) */

/*
 * The overload guard. Over windows of TW_GUARD_WINDOW jiffies it adds up
 * the CPU time timers took (our ticks, and the kernel's timer softirqs as
 * the probes measure them, on every CPU) and the jiffies the tick missed.
 * If, while the activity is on, timers took more than TW_GUARD_CPU_PCT
 * percent of one CPU's time in the window (admission allows 50), or the
 * tick missed more than
 * TW_GUARD_MISSED_PCT percent of the window's jiffies (it was starved),
 * the guard ends the activity: no more re-arms or ops; what is armed
 * drains. The tick runs at least once a window while it is not starved,
 * and a starved tick runs at the latest when ksoftirqd does.
 */
#define TW_GUARD_WINDOW		HZ
#define TW_GUARD_CPU_PCT	60
#define TW_GUARD_MISSED_PCT	50
/* A re-arm that finds the tick this late ends the activity itself. */
#define TW_GUARD_STARVED	(HZ / 2)

struct tw_guard {
	spinlock_t lock;		/* stops and reason, for the read-outs */
	unsigned long win_start;	/* jiffy the window began */
	u64 win_start_ns;
	u64 softirq_ns;			/* the kernel's timer softirqs at win_start */
	u64 tick_ns;			/* our ticks' time in the window */
	unsigned long last_tick;	/* jiffies at the previous tick */
	unsigned long wake;		/* jiffy the next tick is planned at */
	unsigned long missed;		/* jiffies the tick missed in the window */
	u64 stops;
	char reason[128];
};

static struct tw_guard tw_guard = {
	.lock = __SPIN_LOCK_UNLOCKED(tw_guard.lock),
};

/* The workload's duration is up: no more re-arms or ops. */
static void tw_tick_end_activity(void)
{
	WRITE_ONCE(tw_wl.activity, false);
	tw_runners_set_active(false);
}

static void tw_guard_reset(unsigned long now)
{
	struct tw_guard *g = &tw_guard;

	g->win_start = now;
	g->win_start_ns = ktime_get_ns();
	g->softirq_ns = tw_softirq_total_ns();
	g->tick_ns = 0;
	WRITE_ONCE(g->last_tick, now);
	WRITE_ONCE(g->wake, now + tw_tick_jiffies);
	g->missed = 0;
}

/* Whether the loaded workload has anything the guard could stop. */
static bool tw_guard_applies(void)
{
	return tw_wl.p.ops || tw_wl.p.type != TWHEEL_WL_BURST;
}

/* At the end of a window: true (and the reason in g) if it was overloaded. */
static bool tw_guard_check(unsigned long now, u64 now_ns)
{
	struct tw_guard *g = &tw_guard;
	u64 span_ns = now_ns - g->win_start_ns, busy;
	unsigned long span = now - g->win_start;

	busy = g->tick_ns + tw_softirq_total_ns() - g->softirq_ns;
	if (busy * 100 > span_ns * TW_GUARD_CPU_PCT) {
		snprintf(g->reason, sizeof(g->reason),
			 "timers took %llu%% of a CPU for %lu ms",
			 div64_u64(busy * 100, span_ns), span * MSEC_PER_SEC / HZ);
		return true;
	}
	if (g->missed * 100 > (u64)span * TW_GUARD_MISSED_PCT) {
		snprintf(g->reason, sizeof(g->reason),
			 "the tick was starved: it missed %lu of %lu jiffies",
			 g->missed, span);
		return true;
	}
	return false;
}

/*
 * At a tick's start: the jiffies it missed beyond the ones it meant to
 * sleep through, and its own jiffy for the starvation check.
 */
static void tw_guard_begin(unsigned long now)
{
	struct tw_guard *g = &tw_guard;

	if (time_after(now, g->wake))
		g->missed += now - g->wake;
	WRITE_ONCE(g->last_tick, now);
	WRITE_ONCE(g->wake, now + tw_tick_jiffies);
}

/* Once a tick: account, and end the activity when overloaded. */
static void tw_guard_tick(unsigned long now, u64 t0, u64 now_ns)
{
	struct tw_guard *g = &tw_guard;
	bool over;

	g->tick_ns += now_ns - t0;
	if (time_before(now, g->win_start + TW_GUARD_WINDOW))
		return;
	if (!tw_workload_live() || !tw_guard_applies()) {
		tw_guard_reset(now);
		return;
	}
	spin_lock_irq(&g->lock);
	over = tw_guard_check(now, now_ns);
	if (over)
		g->stops++;
	spin_unlock_irq(&g->lock);
	if (over) {
		tw_tick_end_activity();
		pr_warn_ratelimited("overload: activity ended, %s\n", g->reason);
	}
	tw_guard_reset(now);
}

/**
 * tw_guard_starved() - the overload guard, asked from a re-arm
 *
 * If the tick has not run for TW_GUARD_STARVED jiffies past the jiffy it
 * planned to wake at, something starves it (a storm of the kernel's
 * timers, most likely): ends the activity here, as the tick cannot, and
 * logs why if it was on. The runner layer calls it through
 * struct tw_workload.starved. Any context, a runner lock held; takes the
 * guard's lock with interrupts off.
 *
 * Return: true if the tick is starved (the activity is then off).
 */
bool tw_guard_starved(void)
{
	struct tw_guard *g = &tw_guard;
	unsigned long last = READ_ONCE(g->last_tick), flags;

	/* late against the jiffy the tick planned to run at (tick=nohz) */
	if (time_before(jiffies, READ_ONCE(g->wake) + TW_GUARD_STARVED))
		return false;
	spin_lock_irqsave(&g->lock, flags);
	if (READ_ONCE(tw_wl.activity)) {
		WRITE_ONCE(tw_wl.activity, false);
		g->stops++;
		snprintf(g->reason, sizeof(g->reason),
			 "the tick was starved: it had not run for %lu jiffies",
			 jiffies - last);
		pr_warn_ratelimited("overload: activity ended, %s\n", g->reason);
	}
	spin_unlock_irqrestore(&g->lock, flags);
	return true;
}

/**
 * tw_tick_show_guard() - the overload guard's read-out
 * @m: the stats file
 *
 * Prints overload_stops and the reason of the last stop ("-" if none),
 * under the guard's lock. Process context.
 */
void tw_tick_show_guard(struct seq_file *m)
{
	struct tw_guard *g = &tw_guard;

	spin_lock_irq(&g->lock);
	seq_printf(m, "overload_stops: %llu\n", g->stops);
	seq_printf(m, "overload_reason: %s\n", g->stops ? g->reason : "-");
	spin_unlock_irq(&g->lock);
}

/*
 * tick=nohz: jiffies to sleep after this tick, up to the next jiffy one of
 * our engines has work at (at least the tick's own period, at most limit);
 * 0: nothing to do, ever.
 */
static unsigned long tw_tick_sleep(unsigned long now, unsigned long limit)
{
	unsigned long d = limit;
	bool any = false;
	struct tw_runner *r;

	/* per-CPU instances sleep on their CPUs' ticks */
	tw_for_each_runner(r) {
		if (!r->ops->next_event || !tw_runner_loaded(r) || r->inst)
			continue;
		d = min(d, r->ops->next_event(r, now, d));
		any = true;
	}
	if (!any || d == limit)
		return limit == ULONG_MAX ? 0 : limit;
	return max_t(unsigned long, d + 1, tw_tick_jiffies);
}

static enum hrtimer_restart tw_tick_fn(struct hrtimer *h)
{
	unsigned long now = jiffies, sleep = tw_tick_jiffies;
	u64 t0 = ktime_get_ns(), t1;
	bool act = READ_ONCE(tw_wl.activity), fed = false;
	struct tw_runner *r;

	WRITE_ONCE(tw_wakeups, tw_wakeups + 1);
	tw_guard_begin(now);
	/* A feeding runner (the shadow) ticks the others in step with it. */
	tw_for_each_runner(r)
		if (r->ops->feed && tw_runner_loaded(r))
			fed |= r->ops->feed(r, now);
	/* per-CPU instances: their CPUs' own ticks */
	tw_for_each_runner(r)
		if (r->ops->tick && !fed && !r->inst)
			r->ops->tick(r, now);
	if (act && !tw_workload_live()) {
		tw_tick_end_activity();
		act = false;
	}
	/* a workload spread over CPUs: their own ticks run its ops */
	if (act && !tw_wl.ncpus) {
		tw_for_each_runner(r)
			if (tw_runner_loaded(r))
				tw_runner_activity(r, tw_wl.ticks_run, -1);
		tw_wl.ticks_run++;
	}
	t1 = ktime_get_ns();
	tw_softirq_own_ns(t1 - t0);
	tw_guard_tick(now, t0, t1);
	if (tw_nohz && !(act && tw_wl.p.ops)) {
		sleep = tw_tick_sleep(now, act ? TW_GUARD_WINDOW : ULONG_MAX);
		if (!sleep) {
			WRITE_ONCE(tw_wl.planned, ULONG_MAX / 2);
			WRITE_ONCE(tw_guard.wake, now + ULONG_MAX / 2);
			return HRTIMER_NORESTART;
		}
	}
	WRITE_ONCE(tw_wl.planned, sleep);
	WRITE_ONCE(tw_guard.wake, now + sleep);
	hrtimer_forward_now(h, ns_to_ktime((u64)sleep * TICK_NSEC));
	return HRTIMER_RESTART;
}

/* Whether the CPUs' ticks follow the pull model (tw_group). */
static bool tw_pulling(void)
{
	return tw_pull && tw_nohz && tw_percpu && !tw_wl.p.pinned;
}

/* A CPU's tick runs: it is awake, its timers its own again. */
static void tw_group_wake(struct tw_cpu_tick *ct)
{
	raw_spin_lock(&tw_group.lock);
	cpumask_clear_cpu(ct->cpu, &tw_group.idle);
	ct->gen++;
	raw_spin_unlock(&tw_group.lock);
}

/* The first CPU asleep at or after @from whose timers are due at @now. */
static struct tw_cpu_tick *tw_group_due(unsigned int from, unsigned long now)
	__must_hold(&tw_group.lock)
{
	struct tw_cpu_tick *o;
	unsigned int cpu;

	lockdep_assert_held(&tw_group.lock);
	for_each_cpu(cpu, &tw_group.idle) {
		o = per_cpu_ptr(&tw_cpu_tick, cpu);
		if (cpu >= from && o->has_next && !time_before(now, o->next) &&
		    !cpumask_test_cpu(cpu, &tw_group.pulling))
			return o;
	}
	return NULL;
}

/*
 * Jiffies a CPU's instances wait after @now for their first jiffy with work
 * (@d after @now + 1; ULONG_MAX: none): their tick, the CPU's own or a
 * puller's, counts what comes later than that as missed.
 */
static void tw_group_planned(unsigned int cpu, unsigned long d)
{
	tw_runners_cpu_planned(cpu, d == ULONG_MAX ? ULONG_MAX / 2 :
				    max_t(unsigned long, d + 1, tw_tick_jiffies));
}

/*
 * An awake CPU's tick: what is due on each CPU asleep runs here, and that
 * CPU's next jiffy with work goes back to the group.
 */
static void tw_group_pull(unsigned long now)
{
	unsigned int from = 0;
	struct tw_cpu_tick *o;
	unsigned long d;
	u32 gen;

	for (;;) {
		raw_spin_lock(&tw_group.lock);
		o = tw_group_due(from, now);
		if (!o) {
			raw_spin_unlock(&tw_group.lock);
			return;
		}
		cpumask_set_cpu(o->cpu, &tw_group.pulling);
		gen = o->gen;
		raw_spin_unlock(&tw_group.lock);
		tw_runners_cpu_advance(o->cpu, now);
		d = tw_runners_cpu_next(o->cpu, now, ULONG_MAX);
		tw_group_planned(o->cpu, d);
		raw_spin_lock(&tw_group.lock);
		cpumask_clear_cpu(o->cpu, &tw_group.pulling);
		/* a CPU asleep wakes only by a control command: not meanwhile */
		if (!WARN_ON_ONCE(o->gen != gen)) {
			o->has_next = d != ULONG_MAX;
			o->next = now + d + 1;
		}
		raw_spin_unlock(&tw_group.lock);
		from = o->cpu + 1;
	}
}

/*
 * The pull model: this CPU goes to sleep with its first jiffy with work
 * (@d jiffies after @now + 1; ULONG_MAX: none) handed to the group. The
 * jiffies to sleep: 0 (until a control command) while another CPU is
 * awake, else until the group's first jiffy with work.
 */
static unsigned long tw_group_sleep(struct tw_cpu_tick *ct, unsigned long now,
				    unsigned long d)
{
	unsigned long first = 0;
	struct tw_cpu_tick *o;
	unsigned int cpu;
	bool any = false;

	raw_spin_lock(&tw_group.lock);
	ct->has_next = d != ULONG_MAX;
	ct->next = now + d + 1;
	cpumask_set_cpu(ct->cpu, &tw_group.idle);
	if (cpumask_equal(&tw_group.idle, &tw_tick_cpus)) {
		for_each_cpu(cpu, &tw_group.idle) {
			o = per_cpu_ptr(&tw_cpu_tick, cpu);
			if (o->has_next && (!any || time_before(o->next, first))) {
				first = o->next;
				any = true;
			}
		}
	}
	raw_spin_unlock(&tw_group.lock);
	if (!any)
		return 0;
	return time_after(first, now + tw_tick_jiffies) ? first - now :
							  tw_tick_jiffies;
}

/*
 * tick=nohz: jiffies this CPU's tick sleeps after this run, up to the first
 * jiffy with work on its instances (at least the tick's period); 0: none,
 * it waits for a control command. Under the pull model the group decides.
 * Either way its instances expect their tick then.
 */
static unsigned long tw_cpu_tick_sleep(struct tw_cpu_tick *ct,
				       unsigned long now)
{
	unsigned long d = tw_runners_cpu_next(ct->cpu, now, ULONG_MAX);

	tw_group_planned(ct->cpu, d);
	if (tw_pulling())
		return tw_group_sleep(ct, now, d);
	if (d == ULONG_MAX)
		return 0;
	return max_t(unsigned long, d + 1, tw_tick_jiffies);
}

/*
 * One CPU's tick: its instances, its share of the activity ops; under the
 * pull model, also what is due on the CPUs asleep. A CPU with activity
 * ops ticks every period; under tick=nohz any other sleeps.
 */
static enum hrtimer_restart tw_cpu_tick_fn(struct hrtimer *h)
{
	struct tw_cpu_tick *ct = container_of(h, struct tw_cpu_tick, t);
	unsigned long now = jiffies, sleep = tw_tick_jiffies;
	u64 t0 = ktime_get_ns();
	bool ops;

	WRITE_ONCE(ct->wakeups, ct->wakeups + 1);
	if (tw_pulling())
		tw_group_wake(ct);
	ops = tw_runners_cpu_tick(ct->cpu, now, ct->ticks_run);
	if (ops)
		ct->ticks_run++;
	if (tw_pulling())
		tw_group_pull(now);
	if (tw_nohz && !(ops && tw_wl.p.ops))
		sleep = tw_cpu_tick_sleep(ct, now);
	else
		tw_runners_cpu_planned(ct->cpu, sleep);
	tw_softirq_own_ns(ktime_get_ns() - t0);
	if (!sleep)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(h, ns_to_ktime((u64)sleep * TICK_NSEC));
	return HRTIMER_RESTART;
}

/* Starts a CPU's tick, on the CPU this runs on. */
static void tw_cpu_tick_begin(struct tw_cpu_tick *ct)
{
	ct->ticks_run = 0;
	hrtimer_start(&ct->t, tw_period, HRTIMER_MODE_REL_PINNED_SOFT);
}

/* Starts this CPU's tick, on it (an IPI, or the caller's own CPU). */
static void tw_cpu_tick_arm(void *unused)
{
	tw_cpu_tick_begin(this_cpu_ptr(&tw_cpu_tick));
}

/**
 * tw_tick_show() - the tick's read-out: its mode and its runs
 * @m: the stats file
 */
void tw_tick_show(struct seq_file *m)
{
	unsigned int cpu;

	seq_printf(m, "tick: %s\n", tw_nohz ? "nohz" : "periodic");
	seq_printf(m, "wakeups: %llu\n", READ_ONCE(tw_wakeups));
	if (tw_percpu)
		seq_printf(m, "pull: %s\n", tw_pulling() ? "on" : "off");
	for_each_cpu(cpu, &tw_tick_cpus)
		seq_printf(m, "wakeups_cpu%u: %llu\n", cpu,
			   READ_ONCE(per_cpu_ptr(&tw_cpu_tick, cpu)->wakeups));
}

/**
 * tw_tick_init() - set the driver's tick up, stopped
 * @tick_jiffies: its period in jiffies (tick_jiffies=)
 * @nohz: sleep until our engines' next event instead (tick=nohz)
 * @pull: with @nohz and per-CPU instances, the CPUs awake expire the
 *	timers of the CPUs asleep (pull=, the pull model: struct tw_group)
 * @percpu: our engines have per-CPU instances (percpu=1)
 *
 * Also hands the runner layer the overload guard (struct
 * tw_workload.starved) and the first planned sleep. Module init, before
 * tw_tick_start().
 */
void tw_tick_init(unsigned int tick_jiffies, bool nohz, bool pull,
		  bool percpu)
{
	unsigned int cpu;

	tw_tick_jiffies = tick_jiffies;
	tw_nohz = nohz;
	tw_pull = pull;
	tw_percpu = percpu;
	tw_wl.planned = tick_jiffies;
	tw_wl.starved = tw_guard_starved;
	tw_period = ns_to_ktime((u64)tick_jiffies * TICK_NSEC);
	tw_hrtimer_setup(&tw_tick, tw_tick_fn, HRTIMER_MODE_REL_PINNED_SOFT);
	for_each_possible_cpu(cpu) {
		struct tw_cpu_tick *ct = per_cpu_ptr(&tw_cpu_tick, cpu);

		ct->cpu = cpu;
		tw_hrtimer_setup(&ct->t, tw_cpu_tick_fn, HRTIMER_MODE_REL_PINNED_SOFT);
	}
}

/**
 * tw_guard_restart() - begin the overload guard's window now
 *
 * For a start, before the activity goes on while the tick is stopped: a
 * re-arm then measures the tick's lateness from now, not from the tick
 * that ran before the timers were armed.
 */
void tw_guard_restart(void)
{
	tw_guard_reset(jiffies);
}

/**
 * tw_tick_start() - start the driver's tick
 *
 * Arms the pinned soft hrtimer one period from now on this CPU, and each
 * per-CPU tick on its CPU (tw_runners_tick_cpus()); the tick of a CPU that
 * is offline runs here instead, as the kernel moves a dead CPU's timers.
 * The overload guard's window starts afresh with it, and every CPU's tick
 * is awake to the pull model. Process context, tw_ctl held or module
 * init; every tick stopped (tw_tick_cancel()).
 */
void tw_tick_start(void)
{
	unsigned int cpu;

	/*
	 * tw_wl.planned stays what the last run planned: after a stopped nohz
	 * tick every jiffy since was meant to be slept through.
	 */
	tw_guard_reset(jiffies);
	tw_runners_tick_cpus(&tw_tick_cpus);
	raw_spin_lock_bh(&tw_group.lock);
	cpumask_clear(&tw_group.idle);
	cpumask_clear(&tw_group.pulling);
	raw_spin_unlock_bh(&tw_group.lock);
	for_each_cpu(cpu, &tw_tick_cpus)
		if (smp_call_function_single(cpu, tw_cpu_tick_arm, NULL, 1))
			tw_cpu_tick_begin(per_cpu_ptr(&tw_cpu_tick, cpu));
	hrtimer_start(&tw_tick, tw_period, HRTIMER_MODE_REL_PINNED_SOFT);
}

/**
 * tw_tick_rearmed() - timers were armed outside the tick since it started
 *
 * Under tick=nohz a tick may have gone to sleep before they were: every
 * tick starts again, and its first run looks at them. Periodic ticks run
 * every period anyway. Process context, tw_ctl held.
 */
void tw_tick_rearmed(void)
{
	if (!tw_nohz)
		return;
	tw_tick_cancel();
	tw_tick_start();
}

/**
 * tw_tick_cancel() - stop the driver's tick
 *
 * Cancels the tick's hrtimer and every per-CPU tick's, and waits for a
 * tick in progress to finish. Process context, may sleep.
 */
void tw_tick_cancel(void)
{
	unsigned int cpu;

	hrtimer_cancel(&tw_tick);
	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu_ptr(&tw_cpu_tick, cpu)->t);
}

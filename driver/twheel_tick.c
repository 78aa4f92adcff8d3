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
 * (HRTIMER_MODE_REL_PINNED_SOFT), every tick_jiffies, the CPUs' phases
 * spread evenly across the period (phase_ns_cpuN). Each advances its
 * CPU's instances and runs that CPU's share of the activity ops
 * (tw_runners_cpu_tick()); the one tick above then keeps the rest: the
 * runners that are one instance, the overload guard, the end of the
 * duration. Under tick=nohz a CPU's tick sleeps as the one tick does, to
 * the first jiffy with work on its own instances; with pull=1 (the
 * default) it hands that jiffy to the CPUs still awake instead, which
 * expire its timers for it (the pull model, twheel_pull.c).
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
#include <linux/atomic.h>
#include <linux/delay.h>
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
#include "driver/twheel_driver.h"

static struct hrtimer tw_tick;

/**
 * struct tw_cpu_tick - one CPU's tick
 * @t: its hrtimer, pinned to @cpu
 * @cpu: the CPU
 * @ticks_run: its ticks of activity since start, what its ops are drawn from
 * @wakeups: its runs since the module was loaded
 * @phase_ns: how far into the period it runs, after the one tick: the
 *	CPUs' ticks are spread evenly across the period, so that no two run
 *	their activity ops in step (the kernel's ticks are skewed per CPU
 *	too, skew_tick=)
 *
 * @kick: an IPI that starts @t on @cpu at once: a timer armed there moved
 *	its first event earlier while every CPU slept (tw_tick_armed())
 * @kicking: 1 while @kick is in flight
 *
 * Under the pull model, the group keeps what it knows of the CPU
 * (twheel_pull.c).
 */
struct tw_cpu_tick {
	struct hrtimer t;
	call_single_data_t kick;
	atomic_t kicking;
	unsigned int cpu;
	u64 ticks_run;
	u64 wakeups;
	u64 phase_ns;
};

static DEFINE_PER_CPU(struct tw_cpu_tick, tw_cpu_tick);
/* CPUs whose own tick is started (written with every tick stopped) */
static struct cpumask tw_tick_cpus;
static ktime_t tw_period;
static unsigned int tw_tick_jiffies;
static bool tw_nohz;
static bool tw_pull;
static bool tw_percpu;	/* percpu=1: the CPUs' ticks may pull */
static bool tw_ticks_on;	/* started, not cancelled: a kick may start one */
static u64 tw_wakeups;
/* jiffies the tick meant to sleep after its last run (tick_jiffies, or more) */

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
		tw_activity_end();
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
			tw_guard_wake_at(now + ULONG_MAX / 2);
			return HRTIMER_NORESTART;
		}
	}
	WRITE_ONCE(tw_wl.planned, sleep);
	tw_guard_wake_at(now + sleep);
	hrtimer_forward_now(h, ns_to_ktime((u64)sleep * TICK_NSEC));
	return HRTIMER_RESTART;
}

/*
 * Whether the CPUs' ticks follow the pull model (twheel_pull.c): not for a
 * workload with pinned or deferrable timers, which the pull would take
 * with the rest of a CPU's instance (the kernel pulls BASE_GLOBAL's only).
 */
static bool tw_pulling(void)
{
	return tw_pull && tw_nohz && tw_percpu && !twheel_wl_has_bases(&tw_wl.p);
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
		return tw_group_sleep(ct->cpu, now, d);
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
	bool ops, pulling = tw_pulling();

	WRITE_ONCE(ct->wakeups, ct->wakeups + 1);
	tw_group_own(ct->cpu, now, pulling);
	ops = tw_runners_cpu_tick(ct->cpu, now, ct->ticks_run);
	if (ops)
		ct->ticks_run++;
	if (pulling)
		tw_group_pull(ct->cpu, now);
	if (tw_nohz && !(ops && tw_wl.p.ops))
		sleep = tw_cpu_tick_sleep(ct, now);
	else
		tw_runners_cpu_planned(ct->cpu, sleep);
	tw_group_unown(ct->cpu);
	tw_softirq_own_ns(ktime_get_ns() - t0);
	if (!sleep)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(h, ns_to_ktime((u64)sleep * TICK_NSEC));
	return HRTIMER_RESTART;
}

/*
 * A CPU's kick, on it (hardirq): its tick runs at once, unless every tick
 * is stopped.
 */
static void tw_cpu_tick_kick(void *arg)
{
	struct tw_cpu_tick *ct = arg;

	if (READ_ONCE(tw_ticks_on))
		hrtimer_start(&ct->t, 0, HRTIMER_MODE_REL_PINNED_SOFT);
	atomic_set_release(&ct->kicking, 0);
}

/*
 * struct tw_workload.armed: a timer, not deferrable, was armed on @cpu's
 * instance by another CPU. Under the pull model a CPU asleep hears of it
 * (its first event goes up the hierarchy), and is woken if every CPU
 * sleeps and it comes first, as the kernel's trigger_dyntick_cpu()
 * wakes an idle CPU. Softirq (an activity op).
 */
static void tw_tick_armed(unsigned int cpu, unsigned long expires)
{
	struct tw_cpu_tick *ct = per_cpu_ptr(&tw_cpu_tick, cpu);

	if (!tw_pulling() || !tw_group_armed(cpu, jiffies, expires))
		return;
	/* one kick in flight is enough */
	if (!atomic_cmpxchg(&ct->kicking, 0, 1) &&
	    smp_call_function_single_async(cpu, &ct->kick))
		atomic_set(&ct->kicking, 0);
}

/* Starts a CPU's tick, on the CPU this runs on. */
static void tw_cpu_tick_begin(struct tw_cpu_tick *ct)
{
	ct->ticks_run = 0;
	hrtimer_start(&ct->t, ktime_add_ns(tw_period, ct->phase_ns),
		      HRTIMER_MODE_REL_PINNED_SOFT);
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
	if (tw_percpu && tw_pulling())
		tw_group_show(m, &tw_tick_cpus);
	for_each_cpu(cpu, &tw_tick_cpus)
		seq_printf(m, "wakeups_cpu%u: %llu\n", cpu,
			   READ_ONCE(per_cpu_ptr(&tw_cpu_tick, cpu)->wakeups));
	for_each_cpu(cpu, &tw_tick_cpus)
		seq_printf(m, "phase_ns_cpu%u: %llu\n", cpu,
			   per_cpu_ptr(&tw_cpu_tick, cpu)->phase_ns);
}

/**
 * tw_tick_init() - set the driver's tick up, stopped
 * @tick_jiffies: its period in jiffies (tick_jiffies=)
 * @nohz: sleep until our engines' next event instead (tick=nohz)
 * @pull: with @nohz and per-CPU instances, the CPUs awake expire the
 *	timers of the CPUs asleep (pull=, the pull model: twheel_pull.c)
 * @percpu: our engines have per-CPU instances (percpu=1)
 *
 * Also hands the runner layer the overload guard (struct
 * tw_workload.starved) and the first planned sleep. Module init, before
 * tw_tick_start().
 *
 * Return: 0, or tw_group_init()'s error.
 */
int tw_tick_init(unsigned int tick_jiffies, bool nohz, bool pull,
		 bool percpu)
{
	int ret;

	unsigned int cpu;

	tw_tick_jiffies = tick_jiffies;
	tw_nohz = nohz;
	tw_pull = pull;
	tw_percpu = percpu;
	tw_wl.planned = tick_jiffies;
	tw_wl.starved = tw_guard_starved;
	tw_guard_init(tick_jiffies);
	ret = tw_group_init(tick_jiffies);
	if (ret)
		return ret;
	tw_period = ns_to_ktime((u64)tick_jiffies * TICK_NSEC);
	tw_hrtimer_setup(&tw_tick, tw_tick_fn, HRTIMER_MODE_REL_PINNED_SOFT);
	for_each_possible_cpu(cpu) {
		struct tw_cpu_tick *ct = per_cpu_ptr(&tw_cpu_tick, cpu);

		ct->cpu = cpu;
		tw_hrtimer_setup(&ct->t, tw_cpu_tick_fn, HRTIMER_MODE_REL_PINNED_SOFT);
		INIT_CSD(&ct->kick, tw_cpu_tick_kick, ct);
	}
	tw_wl.armed = tw_tick_armed;
	return 0;
}

/**
 * tw_tick_exit() - free what tw_tick_init() set up
 *
 * Module exit or a failed init, the tick stopped (tw_tick_cancel()).
 */
void tw_tick_exit(void)
{
	tw_group_exit();
}

/**
 * tw_tick_start() - start the driver's tick
 *
 * Arms the pinned soft hrtimer one period from now on this CPU, and each
 * per-CPU tick on its CPU (tw_runners_tick_cpus()), the i-th of n CPUs
 * i/n of a period later (its phase_ns); the tick of a CPU that
 * is offline runs here instead, as the kernel moves a dead CPU's timers.
 * The overload guard's window starts afresh with it, and every CPU's tick
 * is awake to the pull model. Process context, tw_ctl held or module
 * init; every tick stopped (tw_tick_cancel()).
 */
void tw_tick_start(void)
{
	unsigned int cpu, i = 0, n;

	/*
	 * tw_wl.planned stays what the last run planned: after a stopped nohz
	 * tick every jiffy since was meant to be slept through.
	 */
	tw_guard_restart();
	tw_runners_tick_cpus(&tw_tick_cpus);
	tw_group_start(&tw_tick_cpus);
	n = cpumask_weight(&tw_tick_cpus);
	for_each_cpu(cpu, &tw_tick_cpus)
		per_cpu_ptr(&tw_cpu_tick, cpu)->phase_ns =
			div_u64((u64)ktime_to_ns(tw_period) * i++, n);
	for_each_cpu(cpu, &tw_tick_cpus)
		if (smp_call_function_single(cpu, tw_cpu_tick_arm, NULL, 1))
			tw_cpu_tick_begin(per_cpu_ptr(&tw_cpu_tick, cpu));
	hrtimer_start(&tw_tick, tw_period, HRTIMER_MODE_REL_PINNED_SOFT);
	WRITE_ONCE(tw_ticks_on, true);
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
 * tick in progress to finish, and for a kick in flight (tw_tick_armed()).
 * Process context, may sleep.
 */
void tw_tick_cancel(void)
{
	unsigned int cpu;

	WRITE_ONCE(tw_ticks_on, false);
	hrtimer_cancel(&tw_tick);
	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu_ptr(&tw_cpu_tick, cpu)->t);
	/*
	 * Kicks are sent from the ticks' activity ops only: with every tick
	 * cancelled none is sent any more, and one in flight finds the
	 * ticks off. Waiting before the cancels left a window in which a
	 * tick still running on another CPU could send one after the wait.
	 */
	for_each_possible_cpu(cpu)
		while (atomic_read_acquire(&per_cpu_ptr(&tw_cpu_tick, cpu)->kicking))
			usleep_range(10, 20);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * twheel: the driver's pull model, under which the CPUs' ticks that are
 * awake expire the timers of those asleep (tick=nohz, percpu=1, pull=1).
 * The CPUs' ticks (twheel_tick.c) call it; the hierarchy of groups it
 * keeps, after the kernel's timer migration, is twheel_tmigr.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/atomic.h>
#include <linux/bottom_half.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/processor.h>
#include <linux/seq_file.h>
#include "runner/twheel_state.h"
#include "driver/twheel_driver.h"
#include "driver/twheel_tmigr.h"

/*
 * The pull model: tick=nohz, percpu=1, pull=1 and a workload with neither
 * pinned= nor deferrable= timers. It is the kernel's timer migration since
 * 6.9 (kernel/time/timer_migration.c): CPUs in groups of pull_group (8, as
 * the kernel's), groups in groups as many levels up as it takes.
 * - A CPU's tick that goes to sleep is its idle entry: it hands the first
 *   jiffy with work on its instances to its group (tw_tmigr_deactivate())
 *   and wakes for none of its timers, unless it is the last CPU awake:
 *   that one wakes for the first jiffy with work of all of them.
 * - A CPU's tick that runs after a sleep is its idle exit
 *   (tw_tmigr_activate()); a CPU whose tick runs every period (activity
 *   ops) stays active and touches no group.
 * - Every tick of a CPU awake reads, without a lock, the first jiffy of
 *   each group it is the migrator of (tw_tmigr_check()): a CPU that is
 *   the migrator of none reads one word. If one is due it pulls: the
 *   idle CPU's instances tick here (tw_group_pull_cpu(), counted in their
 *   pulled key) and their next jiffy with work goes back to the group.
 * - A CPU's own tick and a puller never tick its instances at once: each
 *   CPU has a running mark (the kernel runs a timer base's expiry in one
 *   place at a time, __run_timers() under the base's lock); its own tick
 *   waits for a pull to end, a puller skips a CPU whose tick runs and
 *   looks again the next jiffy.
 * - A timer armed on a sleeping CPU's instance by another CPU (an on=
 *   arm, or a re-arm where its callback runs) takes its first event up
 *   the hierarchy to the first group with a migrator, whose next tick
 *   sees it; with every CPU asleep and the event first, the CPU is woken
 *   (tw_group_armed(), the kernel's tmigr_new_timer() and
 *   trigger_dyntick_cpu()). Deferrable timers never wake one.
 * A workload with pinned= or deferrable= timers is not pulled: a CPU's
 * instance holds all three of its bases' timers in one engine, and the
 * kernel pulls only BASE_GLOBAL's (BASE_LOCAL's are the CPU's own,
 * BASE_DEF's wait for its tick); then each CPU wakes for its own, as with
 * pull=0, but for its deferrable timers.
 * A puller runs each sleeper's instances with the budget of a tick each.
 */

/**
 * struct tw_pull_cpu - a CPU under the pull model
 * @running: 1 while its instances tick, by it or by a puller
 * @idle: its tick sleeps, its events handed over (written by its own
 *	tick, read by tw_group_armed() anywhere)
 * @pulls: idle CPUs it pulled the timers of, since the module was loaded
 * @top: its ticks as the top group's migrator
 */
struct tw_pull_cpu {
	atomic_t running;
	bool idle;
	u64 pulls;
	u64 top;
};

static DEFINE_PER_CPU(struct tw_pull_cpu, tw_pull_cpu);

/* pull_group=: the module's parameter, 2, 4 or 8 (insmod refuses others) */
static unsigned int tw_pull_group = TW_TMIGR_CHILDREN;

static int tw_pull_group_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int ret = kstrtouint(val, 0, &n);

	if (ret)
		return ret;
	if (n < 2 || n > TW_TMIGR_CHILDREN || !is_power_of_2(n))
		return -EINVAL;
	*(unsigned int *)kp->arg = n;
	return 0;
}

static const struct kernel_param_ops tw_pull_group_ops = {
	.set = tw_pull_group_set,
	.get = param_get_uint,
};

module_param_cb(pull_group, &tw_pull_group_ops, &tw_pull_group, 0444);
MODULE_PARM_DESC(pull_group, "under pull=1: CPUs in a group of the pull model's hierarchy, and groups in a group above them (2, 4 or 8; default 8, the kernel's TMIGR_CHILDREN_PER_GROUP)");
static struct tw_tmigr tw_tmigr;
static unsigned int tw_group_period;	/* the ticks', in jiffies */

/**
 * tw_group_planned() - when a CPU's instances expect their tick
 * @cpu: the CPU
 * @d: their first jiffy with work is @d jiffies after now + 1; ULONG_MAX:
 *	they have none
 *
 * Their tick, the CPU's own or a puller's, counts what comes later than
 * that as missed. A CPU's tick (softirq), under the pull model or not.
 */
void tw_group_planned(unsigned int cpu, unsigned long d)
{
	tw_runners_cpu_planned(cpu, d == ULONG_MAX ? ULONG_MAX / 2 :
				    max_t(unsigned long, d + 1, tw_group_period));
}

/* a CPU's first jiffy with work, @d after @now + 1, in the hierarchy's terms */
static unsigned long tw_group_next(unsigned long now, unsigned long d)
{
	return d == ULONG_MAX ? tw_tmigr_never(now) : now + d + 1;
}

/**
 * tw_group_own() - a CPU's own tick begins
 * @cpu: the CPU
 * @now: the tick's jiffy
 * @pulling: under the pull model
 *
 * Waits for a puller to finish with its instances (the running mark) and,
 * after a sleep, is its idle exit. Its own tick (softirq); under the pull
 * model or not, the mark is taken.
 */
void tw_group_own(unsigned int cpu, unsigned long now, bool pulling)
{
	struct tw_pull_cpu *pc = per_cpu_ptr(&tw_pull_cpu, cpu);

	while (atomic_cmpxchg_acquire(&pc->running, 0, 1))
		cpu_relax();
	if (pulling && pc->idle) {
		tw_tmigr_activate(&tw_tmigr, cpu, now);
		WRITE_ONCE(pc->idle, false);
	}
}

/**
 * tw_group_unown() - a CPU's own tick ends
 * @cpu: the CPU
 */
void tw_group_unown(unsigned int cpu)
{
	atomic_set_release(&per_cpu_ptr(&tw_pull_cpu, cpu)->running, 0);
}

/* A puller runs what is due on an idle CPU: tw_tmigr_pull_fn */
static unsigned long tw_group_pull_cpu(unsigned int cpu, unsigned long now,
				       void *arg)
{
	struct tw_pull_cpu *pc = per_cpu_ptr(&tw_pull_cpu, cpu);
	unsigned long d;

	/* its own tick runs: it hands its own over; look again next jiffy */
	if (atomic_cmpxchg_acquire(&pc->running, 0, 1))
		return now + 1;
	tw_runners_cpu_advance(cpu, now);
	d = tw_runners_cpu_next(cpu, now, ULONG_MAX);
	tw_group_planned(cpu, d);
	atomic_set_release(&pc->running, 0);
	return tw_group_next(now, d);
}

/**
 * tw_group_pull() - a CPU awake pulls the timers of those asleep, if due
 * @self: the CPU
 * @now: the tick's jiffy
 *
 * A lock-free look at the first jiffy of each group @self is the migrator
 * of; only if one is due are groups locked and idle CPUs pulled. A CPU's
 * tick, under the pull model (softirq), its running mark held.
 */
void tw_group_pull(unsigned int self, unsigned long now)
{
	struct tw_pull_cpu *pc = per_cpu_ptr(&tw_pull_cpu, self);
	unsigned int n;

	if (tw_tmigr_migrator_levels(&tw_tmigr, self) == tw_tmigr.levels)
		WRITE_ONCE(pc->top, pc->top + 1);
	if (!tw_tmigr_check(&tw_tmigr, self, now))
		return;
	n = tw_tmigr_handle(&tw_tmigr, self, now, tw_group_pull_cpu, NULL);
	WRITE_ONCE(pc->pulls, pc->pulls + n);
}

/**
 * tw_group_sleep() - a CPU's tick goes to sleep under the pull model
 * @self: the CPU
 * @now: the tick's jiffy
 * @d: its instances' first jiffy with work is @d jiffies after @now + 1;
 *	ULONG_MAX: none
 *
 * Its idle entry: hands that jiffy to its group. Its own tick (softirq),
 * its running mark held.
 *
 * Return: the jiffies to sleep: 0 (until a control command or a wake)
 * while a migrator looks after its timers, else (the last CPU awake)
 * until the first jiffy with work of every CPU.
 */
unsigned long tw_group_sleep(unsigned int self, unsigned long now,
			     unsigned long d)
{
	struct tw_pull_cpu *pc = per_cpu_ptr(&tw_pull_cpu, self);
	unsigned long first;

	WRITE_ONCE(pc->idle, true);
	if (!tw_tmigr_deactivate(&tw_tmigr, self, now, tw_group_next(now, d),
				 &first))
		return 0;
	return time_after(first, now + tw_group_period) ? first - now :
							  tw_group_period;
}

/**
 * tw_group_armed() - a timer was armed on another CPU's instance
 * @cpu: the CPU whose instance it is
 * @now: the jiffy
 * @expires: the jiffy it is due at
 *
 * If @cpu sleeps, its first event goes up the hierarchy as far as a group
 * with a migrator (tw_tmigr_new_timer()). Not for a deferrable timer.
 * An activity op (softirq).
 *
 * Return: whether @cpu is to be woken: every CPU sleeps and @expires comes
 * before what the last of them wakes for.
 */
bool tw_group_armed(unsigned int cpu, unsigned long now, unsigned long expires)
{
	if (!READ_ONCE(per_cpu_ptr(&tw_pull_cpu, cpu)->idle))
		return false;
	return tw_tmigr_new_timer(&tw_tmigr, cpu, now, expires);
}

/**
 * tw_group_show() - the pull model's read-out
 * @m: the stats file
 * @cpus: the CPUs with a tick
 */
void tw_group_show(struct seq_file *m, const struct cpumask *cpus)
{
	unsigned int cpu;

	seq_printf(m, "pull_group: %u\npull_levels: %u\n", tw_tmigr.per_group,
		   tw_tmigr.levels);
	for_each_cpu(cpu, cpus)
		seq_printf(m, "pulls_cpu%u: %llu\n", cpu,
			   READ_ONCE(per_cpu_ptr(&tw_pull_cpu, cpu)->pulls));
	for_each_cpu(cpu, cpus)
		seq_printf(m, "top_migrator_cpu%u: %llu\n", cpu,
			   READ_ONCE(per_cpu_ptr(&tw_pull_cpu, cpu)->top));
}

/**
 * tw_group_start() - every CPU's tick awake, as they all start
 * @ticking: the CPUs with a tick of their own
 *
 * Every other CPU is idle with nothing to pull. Process context, every
 * tick stopped (tw_tick_start()).
 */
void tw_group_start(const struct cpumask *ticking)
{
	unsigned int cpu;

	tw_tmigr_reset(&tw_tmigr, jiffies);
	local_bh_disable();
	for_each_possible_cpu(cpu) {
		per_cpu_ptr(&tw_pull_cpu, cpu)->idle = !cpumask_test_cpu(cpu, ticking);
		if (cpumask_test_cpu(cpu, ticking))
			tw_tmigr_activate(&tw_tmigr, cpu, jiffies);
	}
	local_bh_enable();
}

/**
 * tw_group_init() - set the pull model up
 * @tick_jiffies: the ticks' period, in jiffies
 *
 * Builds the hierarchy over every possible CPU, pull_group= to a group.
 * Module init, with the tick's own (tw_tick_init()).
 *
 * Return: 0 or -ENOMEM.
 */
int tw_group_init(unsigned int tick_jiffies)
{
	tw_group_period = tick_jiffies;
	return tw_tmigr_init(&tw_tmigr, nr_cpu_ids, tw_pull_group);
}

/**
 * tw_group_exit() - free the pull model's hierarchy
 *
 * Module exit, every tick stopped.
 */
void tw_group_exit(void)
{
	tw_tmigr_free(&tw_tmigr);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * twheel: the driver's pull model, under which the CPUs' ticks that are
 * awake expire the timers of those asleep (tick=nohz, percpu=1, pull=1).
 * The CPUs' ticks (twheel_tick.c) call it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/lockdep.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>
#include "runner/twheel_state.h"
#include "driver/twheel_driver.h"

/*
 * The pull model: tick=nohz, percpu=1, pull=1 and a workload with neither
 * pinned= nor deferrable= timers. It is the kernel's timer migration since 6.9
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
 * A workload with pinned= or deferrable= timers is not pulled: a CPU's
 * instance holds all three of its bases' timers in one engine, and the
 * kernel pulls only BASE_GLOBAL's (BASE_LOCAL's are the CPU's own,
 * BASE_DEF's wait for its tick); then each CPU wakes for its own, as with
 * pull=0, but for its deferrable timers.
 * A sleeping CPU's instances change only by pulls (which hand their next
 * jiffy back) and by remote ops, which only CPUs with activity ops make,
 * and those tick every jiffy and pull. A CPU asleep is not woken but by a
 * control command, which stops every tick first, so no CPU wakes while
 * another pulls its timers (@gen says so). A puller runs each sleeper's
 * instances with the budget of a tick each.
 */
struct tw_group {
	raw_spinlock_t lock;	/* the masks; each CPU's struct tw_group_cpu */
	struct cpumask idle;		/* asleep, their timers handed over */
	struct cpumask pulling;		/* asleep, a CPU awake pulling them */
	struct cpumask ticking;		/* the CPUs with a tick of their own */
};

/**
 * struct tw_group_cpu - a CPU of the group, under tw_group's lock
 * @next: asleep: the first jiffy with work on its instances, which the
 *	CPUs awake look after
 * @has_next: @next is set: its instances have work
 * @gen: its wake-ups, so that a CPU that pulled its timers does not hand
 *	back a @next from before it woke
 */
struct tw_group_cpu {
	unsigned long next;
	bool has_next;
	u32 gen;
};

static struct tw_group tw_group = {
	.lock = __RAW_SPIN_LOCK_UNLOCKED(tw_group.lock),
};

static DEFINE_PER_CPU(struct tw_group_cpu, tw_group_cpu);
static unsigned int tw_group_period;	/* the ticks', in jiffies */

/**
 * tw_group_wake() - a CPU's tick runs: it is awake, its timers its own again
 * @cpu: the CPU
 *
 * Its own tick, under the pull model (softirq).
 */
void tw_group_wake(unsigned int cpu)
{
	raw_spin_lock(&tw_group.lock);
	cpumask_clear_cpu(cpu, &tw_group.idle);
	per_cpu_ptr(&tw_group_cpu, cpu)->gen++;
	raw_spin_unlock(&tw_group.lock);
}

/*
 * The first CPU asleep at or after @from whose timers are due at @now, or
 * nr_cpu_ids.
 */
static unsigned int tw_group_due(unsigned int from, unsigned long now)
	__must_hold(&tw_group.lock)
{
	struct tw_group_cpu *o;
	unsigned int cpu;

	lockdep_assert_held(&tw_group.lock);
	for_each_cpu(cpu, &tw_group.idle) {
		o = per_cpu_ptr(&tw_group_cpu, cpu);
		if (cpu >= from && o->has_next && !time_before(now, o->next) &&
		    !cpumask_test_cpu(cpu, &tw_group.pulling))
			return cpu;
	}
	return nr_cpu_ids;
}

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

/**
 * tw_group_pull() - an awake CPU's tick pulls the timers of those asleep
 * @now: the tick's jiffy
 *
 * What is due on each CPU asleep runs here, and that CPU's next jiffy with
 * work goes back to the group. A CPU's tick, under the pull model
 * (softirq).
 */
void tw_group_pull(unsigned long now)
{
	unsigned int from = 0, cpu;
	struct tw_group_cpu *o;
	unsigned long d;
	u32 gen;

	for (;;) {
		raw_spin_lock(&tw_group.lock);
		cpu = tw_group_due(from, now);
		if (cpu >= nr_cpu_ids) {
			raw_spin_unlock(&tw_group.lock);
			return;
		}
		o = per_cpu_ptr(&tw_group_cpu, cpu);
		cpumask_set_cpu(cpu, &tw_group.pulling);
		gen = o->gen;
		raw_spin_unlock(&tw_group.lock);
		tw_runners_cpu_advance(cpu, now);
		d = tw_runners_cpu_next(cpu, now, ULONG_MAX);
		tw_group_planned(cpu, d);
		raw_spin_lock(&tw_group.lock);
		cpumask_clear_cpu(cpu, &tw_group.pulling);
		/* a CPU asleep wakes only by a control command: not meanwhile */
		if (!WARN_ON_ONCE(o->gen != gen)) {
			o->has_next = d != ULONG_MAX;
			o->next = now + d + 1;
		}
		raw_spin_unlock(&tw_group.lock);
		from = cpu + 1;
	}
}

/**
 * tw_group_sleep() - a CPU's tick goes to sleep under the pull model
 * @self: the CPU
 * @now: the tick's jiffy
 * @d: its instances' first jiffy with work is @d jiffies after @now + 1;
 *	ULONG_MAX: none
 *
 * Hands that jiffy to the group. Its own tick (softirq).
 *
 * Return: the jiffies to sleep: 0 (until a control command) while another
 * CPU is awake, else until the group's first jiffy with work.
 */
unsigned long tw_group_sleep(unsigned int self, unsigned long now,
			     unsigned long d)
{
	struct tw_group_cpu *ct = per_cpu_ptr(&tw_group_cpu, self);
	unsigned long first = 0;
	struct tw_group_cpu *o;
	unsigned int cpu;
	bool any = false;

	raw_spin_lock(&tw_group.lock);
	ct->has_next = d != ULONG_MAX;
	ct->next = now + d + 1;
	cpumask_set_cpu(self, &tw_group.idle);
	if (cpumask_equal(&tw_group.idle, &tw_group.ticking)) {
		for_each_cpu(cpu, &tw_group.idle) {
			o = per_cpu_ptr(&tw_group_cpu, cpu);
			if (o->has_next && (!any || time_before(o->next, first))) {
				first = o->next;
				any = true;
			}
		}
	}
	raw_spin_unlock(&tw_group.lock);
	if (!any)
		return 0;
	return time_after(first, now + tw_group_period) ? first - now :
							  tw_group_period;
}

/**
 * tw_group_start() - every CPU's tick awake, as they all start
 * @ticking: the CPUs with a tick of their own
 *
 * Process context, every tick stopped (tw_tick_start()).
 */
void tw_group_start(const struct cpumask *ticking)
{
	raw_spin_lock_bh(&tw_group.lock);
	cpumask_clear(&tw_group.idle);
	cpumask_clear(&tw_group.pulling);
	cpumask_copy(&tw_group.ticking, ticking);
	raw_spin_unlock_bh(&tw_group.lock);
}

/**
 * tw_group_init() - set the pull model up
 * @tick_jiffies: the ticks' period, in jiffies
 *
 * Module init, with the tick's own (tw_tick_init()).
 */
void tw_group_init(unsigned int tick_jiffies)
{
	tw_group_period = tick_jiffies;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * twheel workloads' per-CPU shares, pure functions as the rest of the
 * workload (twheel_workload.c): which of a CPU's timer bases each timer
 * of a load with pinned= and deferrable= is set up for, what of a CPU's
 * instance wakes its idle tick, and how many of the ops of a load with
 * remote= and on= reach another CPU's instance.
 */
#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/math64.h>
#include <linux/timer.h>
#include "runner/twheel_workload.h"

/* The bases' names, by enum twheel_tbase, as the stats keys give them. */
const char *const twheel_tbase_names[TWHEEL_NR_TBASES] = {
	[TWHEEL_BASE_LOCAL]	= "local",
	[TWHEEL_BASE_GLOBAL]	= "global",
	[TWHEEL_BASE_DEF]	= "def",
};
EXPORT_SYMBOL_GPL(twheel_tbase_names);

/**
 * twheel_timer_base() - the base a timer's flags file it in
 * @flags: its TIMER_PINNED and TIMER_DEFERRABLE bits (others ignored)
 *
 * Linux 6.12's get_timer_cpu_base() and get_timer_this_cpu_base()
 * (kernel/time/timer.c, CONFIG_NO_HZ_COMMON): TIMER_PINNED picks
 * BASE_LOCAL over BASE_GLOBAL, and TIMER_DEFERRABLE, whatever the other
 * flag, BASE_DEF.
 *
 * Return: the base's index, as the kernel numbers them.
 */
enum twheel_tbase twheel_timer_base(u32 flags)
{
	if (flags & TIMER_DEFERRABLE)
		return TWHEEL_BASE_DEF;
	return flags & TIMER_PINNED ? TWHEEL_BASE_LOCAL : TWHEEL_BASE_GLOBAL;
}
EXPORT_SYMBOL_GPL(twheel_timer_base);

/*
 * A timer's slot among each hundred consecutive timers: 61 is prime to
 * 100, so the ids of any hundred in a row take every slot once (a CPU's
 * block of a multiple of 100 timers holds the shares exactly), and the
 * slot's last digit is the id's, so each class of a mixed workload (its
 * id % 10) holds a share that is a multiple of 10 exactly too.
 */
static u32 tw_share_slot(u32 id)
{
	return (u32)(((u64)id * 61) % 100);
}

/**
 * twheel_wl_timer_flags() - the flags a workload timer is set up with
 * @p: the workload (pinned=, deferrable=)
 * @id: the timer
 *
 * TIMER_DEFERRABLE for the slots below @p->deferrable, TIMER_PINNED for
 * those at 100 - @p->pinned and above: of each hundred consecutive
 * timers, exactly @p->deferrable are deferrable and @p->pinned pinned,
 * both at once only where the two shares add up to more than 100. The
 * same timers on every runner and for every seed: a timer keeps its
 * flags as a kernel timer keeps those of its timer_setup().
 *
 * Return: the flags, a subset of TIMER_PINNED | TIMER_DEFERRABLE.
 */
u32 twheel_wl_timer_flags(const struct twheel_params *p, u32 id)
{
	u32 slot = tw_share_slot(id), flags = 0;

	if (slot < p->deferrable)
		flags |= TIMER_DEFERRABLE;
	if (slot >= 100 - min(p->pinned, 100U))
		flags |= TIMER_PINNED;
	return flags;
}
EXPORT_SYMBOL_GPL(twheel_wl_timer_flags);

/**
 * twheel_wl_base() - the base a workload timer is filed in
 * @p: the workload
 * @id: the timer
 *
 * Return: twheel_timer_base() of twheel_wl_timer_flags().
 */
enum twheel_tbase twheel_wl_base(const struct twheel_params *p, u32 id)
{
	return twheel_timer_base(twheel_wl_timer_flags(p, id));
}
EXPORT_SYMBOL_GPL(twheel_wl_base);

/**
 * twheel_idle_next() - what of an instance wakes its CPU's idle tick
 * @d: the engine's answer (jiffies after now + 1 to its first jiffy with
 *	work, twheel_next_event()), its deferrable timers among them
 * @pending: timers pending in the instance
 * @def_pending: of those, the deferrable ones
 * @none: the answer for "nothing wakes it"
 *
 * Linux 6.12 leaves BASE_DEF out of an idle CPU's next event
 * (__get_next_timer_interrupt() and fetch_next_timer_interrupt() look at
 * BASE_LOCAL and BASE_GLOBAL only): a deferrable timer runs at the next
 * tick the CPU has anyway. twheel keeps an instance's timers in one
 * engine, whose look-up does not tell them apart: an instance whose
 * pending timers are all deferrable answers @none, any other the
 * engine's @d (which may be a deferrable timer's jiffy, ahead of the
 * others': the deviation docs/driver.md states).
 *
 * Return: @none or @d.
 */
unsigned long twheel_idle_next(unsigned long d, u64 pending, u64 def_pending,
			       unsigned long none)
{
	return pending && pending <= def_pending ? none : d;
}
EXPORT_SYMBOL_GPL(twheel_idle_next);

/**
 * twheel_wl_remote_ppm() - ops per million that reach another CPU's instance
 * @p: the workload (remote=, on=, cancel=)
 * @n: the CPUs it is spread over
 *
 * remote=P, each re-arm moving the timer to the CPU that makes it: a
 * timer lives with its owner with chance 1 - P and with each of the n - 1
 * others with chance P / (n - 1), the shares of the ops that touch it, so
 * an op finds it elsewhere with chance 1 - (1 - P)^2 - P^2 / (n - 1)
 * (2P(1 - P) on two CPUs: results/smp.csv's remote_ops / ops). An on= op
 * (@p->on % of the re-arming ops, 100 - @p->cancel % of the ops) is
 * aimed at another CPU, and counted among the remaining ops. Re-arms that
 * stay (same expiry or bucket, a running callback) are counted too: an
 * upper bound for admission.
 *
 * Return: ops per million, 0 with fewer than two CPUs.
 */
u32 twheel_wl_remote_ppm(const struct twheel_params *p, u32 n)
{
	u64 r = min(p->remote, 100U), own = 100 - r, ppm, on;

	if (n < 2)
		return 0;
	/* per million: 100^2 = 10^4 scaled by 100 */
	ppm = (10000 - own * own - div_u64(r * r, n - 1)) * 100;
	on = (u64)min(p->on, 100U) * (100 - min(p->cancel, 100U));
	ppm += div_u64((1000000 - ppm) * on, 10000);
	return (u32)min_t(u64, ppm, 1000000);
}
EXPORT_SYMBOL_GPL(twheel_wl_remote_ppm);

/**
 * twheel_wl_op_weight() - ops as admission weighs them, remote ops included
 * @ops: activity ops (a second: at most TWHEEL_MAX_OPS times HZ)
 * @remote_ppm: of those, per million, the ops that reach another CPU's
 *	instance (twheel_wl_remote_ppm())
 *
 * A remote op weighs TWHEEL_REMOTE_OP_WEIGHT ops: it takes the other
 * instance's lock and, two times in three, moves the timer (a detach
 * there, an add under its own lock: results/smp.csv, 2 vCPUs, remote=10
 * to 90, 1.66 acquisitions a remote op). What one cost there, from those
 * rows' op_ns against remote=0's over their remote_ops / ops, came to
 * 1.7 to 2.7 local ops (classic and modern, medians of 5 rounds; their
 * A/A control differed by up to 14.5 %).
 *
 * Return: @ops plus, rounded up, (TWHEEL_REMOTE_OP_WEIGHT - 1) ops for
 * each remote one.
 */
u64 twheel_wl_op_weight(u64 ops, u32 remote_ppm)
{
	u64 extra = (u64)min(remote_ppm, 1000000U) * (TWHEEL_REMOTE_OP_WEIGHT - 1);

	return ops + DIV_ROUND_UP_ULL(ops * extra, 1000000);
}
EXPORT_SYMBOL_GPL(twheel_wl_op_weight);

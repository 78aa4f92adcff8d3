// SPDX-License-Identifier: GPL-2.0
/*
 * twheel workloads' per-CPU shares, pure functions as the rest of the
 * workload (twheel_workload.c): which of a CPU's timer bases each timer
 * of a load with pinned= and deferrable= is set up for, and what of a
 * CPU's instance wakes its idle tick.
 */
#include <linux/kernel.h>
#include <linux/export.h>
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
 * twheel_wl_has_bases() - whether a workload has timers outside BASE_GLOBAL
 * @p: the workload
 *
 * Return: true if pinned= or deferrable= gives a share.
 */
bool twheel_wl_has_bases(const struct twheel_params *p)
{
	return p->pinned || p->deferrable;
}
EXPORT_SYMBOL_GPL(twheel_wl_has_bases);

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

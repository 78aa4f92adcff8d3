// SPDX-License-Identifier: GPL-2.0
/*
 * twheel: the driver's overload guard. Its windows, the time timers took
 * in them and the jiffies the tick missed; it ends the activity when the
 * machine is overloaded, at the tick's end or, when the tick itself is
 * starved, from a re-arm. The tick (twheel_tick.c) calls it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include "runner/twheel_state.h"
#include "runner/twheel_softirq.h"
#include "driver/twheel_tick.h"
#include "driver/twheel_driver.h"

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

static unsigned int tw_guard_period;	/* the tick's, in jiffies */

/**
 * tw_activity_end() - end the workload's activity: no more re-arms or ops
 *
 * What the tick does when the workload's duration is up, and the guard
 * when the tick is overloaded; what is armed drains. Softirq (the tick).
 */
void tw_activity_end(void)
{
	WRITE_ONCE(tw_wl.activity, false);
	tw_runners_set_active(false);
}

/* A new window from now. */
static void tw_guard_reset(unsigned long now)
{
	struct tw_guard *g = &tw_guard;

	g->win_start = now;
	g->win_start_ns = ktime_get_ns();
	g->softirq_ns = tw_softirq_total_ns();
	g->tick_ns = 0;
	WRITE_ONCE(g->last_tick, now);
	WRITE_ONCE(g->wake, now + tw_guard_period);
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

/**
 * tw_guard_begin() - the guard at a tick's start
 * @now: the tick's jiffy
 *
 * Counts the jiffies the tick missed beyond the ones it meant to sleep
 * through, and notes its jiffy for the starvation check. The one tick
 * (softirq).
 */
void tw_guard_begin(unsigned long now)
{
	struct tw_guard *g = &tw_guard;

	if (time_after(now, g->wake))
		g->missed += now - g->wake;
	WRITE_ONCE(g->last_tick, now);
	WRITE_ONCE(g->wake, now + tw_guard_period);
}

/**
 * tw_guard_tick() - the guard at a tick's end
 * @now: the tick's jiffy
 * @t0: when the tick began, ns
 * @now_ns: when it ended, ns
 *
 * Adds the tick's time to the window; at the end of a window, ends the
 * activity if timers overloaded the machine in it (tw_guard_check()), and
 * begins the next window. The one tick (softirq).
 */
void tw_guard_tick(unsigned long now, u64 t0, u64 now_ns)
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
		tw_activity_end();
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

/**
 * tw_guard_wake_at() - the jiffy the tick plans to run at next
 * @wake: that jiffy; a re-arm that finds the tick TW_GUARD_STARVED jiffies
 *	past it takes the tick for starved (tw_guard_starved())
 *
 * The one tick, as it goes to sleep (softirq).
 */
void tw_guard_wake_at(unsigned long wake)
{
	WRITE_ONCE(tw_guard.wake, wake);
}

/**
 * tw_guard_init() - set the overload guard up
 * @tick_jiffies: the tick's period, in jiffies
 *
 * Module init, with the tick's own (tw_tick_init()).
 */
void tw_guard_init(unsigned int tick_jiffies)
{
	tw_guard_period = tick_jiffies;
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

// SPDX-License-Identifier: GPL-2.0
/*
 * twheel: the driver's tick. One hrtimer in softirq mode, pinned to the CPU
 * that started it, every tick_jiffies: it advances each runner that has a
 * tick (our engines) to jiffies, then runs this tick's activity ops on
 * every runner, and ends the activity when the workload's duration is up.
 * A tick that ran late covers every missed jiffy in one call (the runners
 * count these catch-ups).
 */
#include <linux/kernel.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include "twheel_compat.h"
#include "twheel_runner.h"
#include "twheel_softirq.h"
#include "twheel_tick.h"

static struct hrtimer tw_tick;
static ktime_t tw_period;

/* The workload's duration is up: no more re-arms or ops. */
static void tw_tick_end_activity(void)
{
	struct tw_runner *r;

	WRITE_ONCE(tw_wl.activity, false);
	tw_for_each_runner(r) {
		spin_lock(&r->lock);
		r->active = false;
		spin_unlock(&r->lock);
	}
}

static enum hrtimer_restart tw_tick_fn(struct hrtimer *h)
{
	unsigned long now = jiffies;
	u64 t0 = ktime_get_ns();
	bool act = READ_ONCE(tw_wl.activity);
	struct tw_runner *r;

	tw_for_each_runner(r)
		if (r->ops->tick)
			r->ops->tick(r, now);
	if (act && tw_wl.p.duration &&
	    time_after(now, tw_wl.start + tw_wl.p.duration * HZ)) {
		tw_tick_end_activity();
		act = false;
	}
	if (act) {
		tw_for_each_runner(r)
			if (tw_runner_loaded(r))
				tw_runner_activity(r, tw_wl.ticks_run);
		tw_wl.ticks_run++;
	}
	tw_softirq_own_ns(ktime_get_ns() - t0);
	hrtimer_forward_now(h, tw_period);
	return HRTIMER_RESTART;
}

void tw_tick_init(unsigned int tick_jiffies)
{
	tw_period = ns_to_ktime((u64)tick_jiffies * TICK_NSEC);
	tw_hrtimer_setup(&tw_tick, tw_tick_fn, HRTIMER_MODE_REL_PINNED_SOFT);
}

void tw_tick_start(void)
{
	hrtimer_start(&tw_tick, tw_period, HRTIMER_MODE_REL_PINNED_SOFT);
}

/* Stops the tick and waits for a running one; may sleep. */
void tw_tick_cancel(void)
{
	hrtimer_cancel(&tw_tick);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * twheel: the kernel's own timer_list and hrtimer as runners, driven by
 * the same workloads as our engines. The kernel runs their callbacks; the
 * callbacks account and re-arm exactly as our engines' do.
 */
#include <linux/kernel.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/timer.h>
#include "twheel_compat.h"
#include "twheel_runner.h"
#include "twheel_softirq.h"

struct tw_ktimer {
	struct tw_wtimer w;
	union {
		struct timer_list tl;
		struct hrtimer hr;
	};
};

static struct tw_ktimer *tw_kt(struct tw_wtimer *w)
{
	return container_of(w, struct tw_ktimer, w);
}

/* Counts an arming the kernel reported as was_pending or not. */
static void tw_k_count_arm(struct tw_runner *r, bool was_pending)
{
	if (was_pending) {
		r->st->modified++;
	} else {
		r->st->added++;
		r->st->pending++;
	}
}

static void tw_k_count_del(struct tw_runner *r, bool was_pending)
{
	if (was_pending) {
		r->st->deleted++;
		r->st->pending--;
	}
}

/*
 * A kernel timer ran: account, then re-arm like our engines' timers do.
 * On SMP the tick's activity ops may have re-armed it on another CPU while
 * this callback was on its way: then w holds the new arming, not this
 * run's, so the run is counted without a lateness sample.
 */
static void tw_k_ran(struct tw_runner *r, struct tw_wtimer *w, u64 asked_ns)
{
	u64 now_ns = ktime_get_ns();

	spin_lock(&r->lock);
	r->st->expired++;
	r->st->pending--;
	if (r->ops->pending(r, w)) {
		r->rs.runs++;
		r->rs.rearmed_inflight++;
	} else {
		tw_runner_ran(r, (long)(jiffies - w->expires),
			      (s64)(now_ns - (asked_ns ? asked_ns : w->nominal_ns)));
		tw_runner_rearm(r, w);
	}
	spin_unlock(&r->lock);
}

/* ---- timer_list ---- */

static void tw_tl_fn(struct timer_list *tl)
{
	struct tw_ktimer *kt = container_of(tl, struct tw_ktimer, tl);

	tw_softirq_workload_cb(TW_SIRQ_TIMER);
	tw_k_ran(kt->w.r, &kt->w, 0);
}

static void tw_tl_setup(struct tw_runner *r, struct tw_wtimer *w)
{
	timer_setup(&tw_kt(w)->tl, tw_tl_fn, 0);
}

static void tw_tl_arm(struct tw_runner *r, struct tw_wtimer *w,
		      unsigned long expires)
{
	tw_k_count_arm(r, mod_timer(&tw_kt(w)->tl, expires));
}

static void tw_tl_del(struct tw_runner *r, struct tw_wtimer *w)
{
	tw_k_count_del(r, timer_delete(&tw_kt(w)->tl) > 0);
}

/* Armed and not yet run (a running callback's timer is not pending). */
static bool tw_tl_pending(struct tw_runner *r, struct tw_wtimer *w)
{
	return timer_pending(&tw_kt(w)->tl);
}

static bool tw_tl_cancel_sync(struct tw_runner *r, struct tw_wtimer *w)
{
	bool was = timer_delete_sync(&tw_kt(w)->tl) > 0;

	spin_lock_bh(&r->lock);
	tw_k_count_del(r, was);
	spin_unlock_bh(&r->lock);
	return was;
}

static void tw_tl_bench_op(struct tw_runner *r, struct tw_wtimer *w,
			   enum tw_bench_op op, unsigned long delta)
{
	if (op == TW_OP_DEL)
		timer_delete(&tw_kt(w)->tl);
	else
		mod_timer(&tw_kt(w)->tl, jiffies + delta);
}

static bool tw_tl_busy_cost(struct tw_runner *r, struct twheel_hist *h)
{
	return tw_softirq_busy(TW_SIRQ_TIMER, h);
}

const struct tw_runner_ops tw_timer_list_runner_ops = {
	.timer_size	= sizeof(struct tw_ktimer),
	.caps		= TW_CAP_KERNEL,
	.setup		= tw_tl_setup,
	.arm		= tw_tl_arm,
	.del		= tw_tl_del,
	.pending	= tw_tl_pending,
	.cancel_sync	= tw_tl_cancel_sync,
	.bench_op	= tw_tl_bench_op,
	.busy_cost	= tw_tl_busy_cost,
};

/* ---- hrtimer ---- */

static enum hrtimer_restart tw_hr_fn(struct hrtimer *hr)
{
	struct tw_ktimer *kt = container_of(hr, struct tw_ktimer, hr);

	tw_softirq_workload_cb(TW_SIRQ_HRTIMER);
	/* An hrtimer keeps ns time: its lateness is against its own expiry. */
	tw_k_ran(kt->w.r, &kt->w, ktime_to_ns(hrtimer_get_expires(hr)));
	return HRTIMER_NORESTART;
}

static void tw_hr_setup(struct tw_runner *r, struct tw_wtimer *w)
{
	tw_hrtimer_setup(&tw_kt(w)->hr, tw_hr_fn, HRTIMER_MODE_REL_SOFT);
}

static void tw_hr_arm(struct tw_runner *r, struct tw_wtimer *w,
		      unsigned long expires)
{
	struct hrtimer *hr = &tw_kt(w)->hr;
	long d = (long)(expires - jiffies);
	bool was = hrtimer_is_queued(hr);

	hrtimer_start(hr, ns_to_ktime((u64)max(d, 0L) * TICK_NSEC),
		      HRTIMER_MODE_REL_SOFT);
	tw_k_count_arm(r, was);
}

static void tw_hr_del(struct tw_runner *r, struct tw_wtimer *w)
{
	tw_k_count_del(r, hrtimer_try_to_cancel(&tw_kt(w)->hr) == 1);
}

static bool tw_hr_pending(struct tw_runner *r, struct tw_wtimer *w)
{
	return hrtimer_is_queued(&tw_kt(w)->hr);
}

static bool tw_hr_cancel_sync(struct tw_runner *r, struct tw_wtimer *w)
{
	bool was = hrtimer_cancel(&tw_kt(w)->hr) == 1;

	spin_lock_bh(&r->lock);
	tw_k_count_del(r, was);
	spin_unlock_bh(&r->lock);
	return was;
}

static void tw_hr_bench_op(struct tw_runner *r, struct tw_wtimer *w,
			   enum tw_bench_op op, unsigned long delta)
{
	if (op == TW_OP_DEL)
		hrtimer_try_to_cancel(&tw_kt(w)->hr);
	else
		hrtimer_start(&tw_kt(w)->hr, ns_to_ktime((u64)delta * TICK_NSEC),
			      HRTIMER_MODE_REL_SOFT);
}

static bool tw_hr_busy_cost(struct tw_runner *r, struct twheel_hist *h)
{
	return tw_softirq_busy(TW_SIRQ_HRTIMER, h);
}

const struct tw_runner_ops tw_hrtimer_runner_ops = {
	.timer_size	= sizeof(struct tw_ktimer),
	.caps		= TW_CAP_KERNEL | TW_CAP_NS_TIME,
	.setup		= tw_hr_setup,
	.arm		= tw_hr_arm,
	.del		= tw_hr_del,
	.pending	= tw_hr_pending,
	.cancel_sync	= tw_hr_cancel_sync,
	.bench_op	= tw_hr_bench_op,
	.busy_cost	= tw_hr_busy_cost,
};

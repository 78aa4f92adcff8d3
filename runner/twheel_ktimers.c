// SPDX-License-Identifier: GPL-2.0
/*
 * twheel: the kernel's own timer_list and hrtimer as runners, driven by
 * the same workloads as our engines. The kernel runs their callbacks; the
 * callbacks account and re-arm exactly as our engines' do. With percpu=1
 * the timer_list takes no runner lock: each CPU calls mod_timer() and
 * timer_delete() itself and counts in its own instance (TW_CAP_LOCKFREE),
 * as a fair baseline of the kernel's own per-CPU locking.
 */
#include <linux/kernel.h>
#include <linux/atomic.h>
#include <linux/bottom_half.h>
#include <linux/preempt.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/seq_file.h>
#include <linux/smp.h>
#include <linux/timer.h>
#include "runner/twheel_compat.h"
#include "runner/twheel_state.h"
#include "runner/twheel_softirq.h"

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
	if (was_pending)
		r->st->modified++;
	else
		r->st->added++;
}

static void tw_k_count_del(struct tw_runner *r, bool was_pending)
{
	if (was_pending)
		r->st->deleted++;
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
	tw_runner_ran_base(r, w);
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

/*
 * ---- calibration: scratch timers of the runner's kind ----
 *
 * Op cost: TW_KCAL_TIMERS arms a second or more out, then as many deletes,
 * timed in process context. Expiry cost: what expiring timers take from a CPU, all
 * in (the interrupt, reprogramming the clock event device, the softirq,
 * our callback). TW_KCAL_SPREAD timers are pinned to this CPU, due one
 * after the other over TW_KCAL_WINDOW_MS, while this CPU spins with
 * preemption off reading the clock: every gap between two reads longer
 * than a few iterations is time something else took. The same spin without
 * timers first gives what the CPU loses anyway; the difference over the
 * timers that ran is the cost of one expiry.
 */
#define TW_KCAL_TIMERS		1024
#define TW_KCAL_SPREAD		256
#define TW_KCAL_WINDOW_MS	64

struct tw_kcal;

struct tw_kcal_timer {
	union {
		struct timer_list tl;
		struct hrtimer hr;
	};
	struct tw_kcal *cal;
};

struct tw_kcal {
	struct tw_kcal_timer t[TW_KCAL_TIMERS];
	atomic_t ran;
};

static struct tw_kcal *tw_kcal_new(void)
{
	struct tw_kcal *cal = kvzalloc(sizeof(*cal), GFP_KERNEL);
	int i;

	if (!cal)
		return NULL;
	for (i = 0; i < TW_KCAL_TIMERS; i++)
		cal->t[i].cal = cal;
	return cal;
}

/* The shortest time between two clock reads, over a few thousand. */
static u64 tw_kcal_min_gap(void)
{
	u64 prev = ktime_get_ns(), t, min = U64_MAX;
	int i;

	for (i = 0; i < 4096; i++) {
		t = ktime_get_ns();
		min = min(min, t - prev);
		prev = t;
	}
	return min;
}

/* Time taken from this CPU in the next window_ns: gaps longer than gap_ns. */
static u64 tw_kcal_stolen(u64 window_ns, u64 gap_ns)
{
	u64 start = ktime_get_ns(), prev = start, t, stolen = 0;

	while ((t = ktime_get_ns()) - start < window_ns) {
		if (t - prev > gap_ns)
			stolen += t - prev;
		prev = t;
	}
	return stolen;
}

/*
 * Expiry cost: arm(kt, ns) arms a scratch timer pinned to this CPU, due ns
 * from now. Called with nothing armed; cancels nothing.
 */
static void tw_kcal_expiry(struct tw_kcal *cal, struct tw_cost *c,
			   void (*arm)(struct tw_kcal_timer *kt, u64 in_ns))
{
	u64 window = (u64)TW_KCAL_WINDOW_MS * NSEC_PER_MSEC, gap, idle, busy;
	unsigned int ran;
	int i;

	preempt_disable();
	gap = max_t(u64, 16 * tw_kcal_min_gap(), 200);
	idle = tw_kcal_stolen(window, gap);
	atomic_set(&cal->ran, 0);
	for (i = 0; i < TW_KCAL_SPREAD; i++)
		arm(&cal->t[i], div_u64(window * (i + 1), TW_KCAL_SPREAD + 1));
	/* Two jiffies more: a timer_list runs at the tick after its due time. */
	busy = tw_kcal_stolen(window + 2 * TICK_NSEC, gap);
	preempt_enable();
	ran = atomic_read(&cal->ran);
	c->expire_ns = ran && busy > idle ? div_u64(busy - idle, ran) : 0;
}

static void tw_kcal_tl_fn(struct timer_list *tl)
{
	atomic_inc(&container_of(tl, struct tw_kcal_timer, tl)->cal->ran);
}

static void tw_kcal_tl_arm(struct tw_kcal_timer *kt, u64 in_ns)
{
	kt->tl.expires = jiffies + 1 + div_u64(in_ns, TICK_NSEC);
	add_timer_on(&kt->tl, smp_processor_id());
}

/* What calibration does with a scratch timer of one kind. */
struct tw_kcal_ops {
	void (*setup)(struct tw_kcal_timer *kt);
	void (*arm)(struct tw_kcal_timer *kt, u64 in_ns);	/* pinned here */
	void (*del)(struct tw_kcal_timer *kt);
	void (*del_sync)(struct tw_kcal_timer *kt);
};

static int tw_kcal_measure(const struct tw_kcal_ops *kops, struct tw_cost *c)
{
	struct tw_kcal *cal = tw_kcal_new();
	u64 t0;
	int i;

	if (!cal)
		return -ENOMEM;
	for (i = 0; i < TW_KCAL_TIMERS; i++)
		kops->setup(&cal->t[i]);
	local_bh_disable();
	t0 = ktime_get_ns();
	for (i = 0; i < TW_KCAL_TIMERS; i++)
		kops->arm(&cal->t[i], (u64)(1000 + i) * NSEC_PER_MSEC);
	for (i = 0; i < TW_KCAL_TIMERS; i++)
		kops->del(&cal->t[i]);
	c->op_ns = div_u64(ktime_get_ns() - t0, 2 * TW_KCAL_TIMERS);
	local_bh_enable();
	tw_kcal_expiry(cal, c, kops->arm);
	for (i = 0; i < TW_KCAL_TIMERS; i++)
		kops->del_sync(&cal->t[i]);
	kvfree(cal);
	return 0;
}

static void tw_kcal_tl_setup(struct tw_kcal_timer *kt)
{
	timer_setup(&kt->tl, tw_kcal_tl_fn, 0);
}

static void tw_kcal_tl_del(struct tw_kcal_timer *kt)
{
	timer_delete(&kt->tl);
}

static void tw_kcal_tl_del_sync(struct tw_kcal_timer *kt)
{
	timer_delete_sync(&kt->tl);
}

static const struct tw_kcal_ops tw_kcal_tl_ops = {
	.setup		= tw_kcal_tl_setup,
	.arm		= tw_kcal_tl_arm,
	.del		= tw_kcal_tl_del,
	.del_sync	= tw_kcal_tl_del_sync,
};

static int tw_tl_calibrate(struct tw_runner *r, struct tw_cost *c)
{
	return tw_kcal_measure(&tw_kcal_tl_ops, c);
}

/* ---- timer_list ---- */

/*
 * A timer_list ran, percpu=1: no runner lock. Counted in the instance of
 * the CPU running it, which only that CPU writes while the activity is on
 * (its ops and its callbacks are softirqs of that CPU, one at a time).
 * What it was armed for is read before whether it is pending again: an
 * arming on another CPU meanwhile stores them after its mod_timer()
 * (tw_runner_arm_at()), so if they are that arming's, the timer is seen
 * pending. Pending again, or armed for another jiffy than the kernel's
 * timer holds (an arming half done): no lateness sample, as tw_k_ran().
 */
static void tw_tl_ran_percpu(struct tw_runner *r, struct tw_ktimer *kt)
{
	struct tw_runner *in = tw_runner_on(r, smp_processor_id());
	struct tw_wtimer *w = &kt->w;
	unsigned long expires = READ_ONCE(w->expires);
	u64 nominal = READ_ONCE(w->nominal_ns), now_ns = ktime_get_ns();

	/* pairs with tw_runner_arm_at()'s smp_wmb() */
	smp_rmb();
	in->st->expired++;
	tw_runner_ran_base(in, w);
	if (timer_pending(&kt->tl) || READ_ONCE(kt->tl.expires) != expires) {
		in->rs.runs++;
		in->rs.rearmed_inflight++;
		return;
	}
	tw_runner_ran(in, (long)(jiffies - expires), (s64)(now_ns - nominal));
	tw_runner_rearm(in, w);
}

static void tw_tl_fn(struct timer_list *tl)
{
	struct tw_ktimer *kt = container_of(tl, struct tw_ktimer, tl);
	struct tw_runner *r = kt->w.r;

	tw_softirq_workload_cb(TW_SIRQ_TIMER);
	if (r->inst)
		tw_tl_ran_percpu(r, kt);
	else
		tw_k_ran(r, &kt->w, 0);
}

/*
 * The kernel's own flags by the workload's shares (twheel_wl_timer_flags()):
 * TIMER_PINNED keeps the timer on the arming CPU's BASE_LOCAL and out of
 * the idle CPUs' timer migration, TIMER_DEFERRABLE files it in BASE_DEF,
 * which wakes no idle CPU (Linux 6.12's get_timer_this_cpu_base()).
 */
static void tw_tl_setup(struct tw_runner *r, struct tw_wtimer *w)
{
	timer_setup(&tw_kt(w)->tl, tw_tl_fn,
		    twheel_wl_timer_flags(&tw_wl.p, w->id));
}

/*
 * What the timer_list's figures include: with per-CPU instances (percpu=1)
 * no runner lock around mod_timer() and timer_delete() (runner_lock: none;
 * the kernel's base locks, which twheel does not count); else the
 * runner's one lock around them and in every callback (shared); and the
 * flags its timers were set up with: 0, or the share of each.
 */
static void tw_tl_show(struct seq_file *m, struct tw_runner *r)
{
	const struct twheel_params *p = &tw_wl.p;

	seq_printf(m, "runner_lock: %s\n", r->inst ? "none" : "shared");
	if (!twheel_wl_has_bases(p))
		seq_puts(m, "timer_flags: 0\n");
	else
		seq_printf(m, "timer_flags: TIMER_PINNED=%u%% TIMER_DEFERRABLE=%u%%\n",
			   p->pinned, p->deferrable);
	if (r->opcost.n && r->opcost.mod_counted)
		seq_printf(m, "op_mod_same_expiry: %u\nop_mod_same_unknown: %u\n",
			   r->opcost.mod_same, r->opcost.mod_unknown);
}

/* timer_list has no range API (set_timer_slack() went in 4.8): slack= is ignored. */
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
	return timer_delete_sync(&tw_kt(w)->tl) > 0;
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
	.caps		= TW_CAP_KERNEL | TW_CAP_LOCKFREE | TW_CAP_BASES,
	.setup		= tw_tl_setup,
	.arm		= tw_tl_arm,
	.del		= tw_tl_del,
	.pending	= tw_tl_pending,
	.cancel_sync	= tw_tl_cancel_sync,
	.bench_op	= tw_tl_bench_op,
	.calibrate	= tw_tl_calibrate,
	.busy_cost	= tw_tl_busy_cost,
	.show		= tw_tl_show,
};

static enum hrtimer_restart tw_kcal_hr_fn(struct hrtimer *hr)
{
	atomic_inc(&container_of(hr, struct tw_kcal_timer, hr)->cal->ran);
	return HRTIMER_NORESTART;
}

static void tw_kcal_hr_arm(struct tw_kcal_timer *kt, u64 in_ns)
{
	hrtimer_start(&kt->hr, ns_to_ktime(in_ns), HRTIMER_MODE_REL_PINNED_SOFT);
}

static void tw_kcal_hr_setup(struct tw_kcal_timer *kt)
{
	tw_hrtimer_setup(&kt->hr, tw_kcal_hr_fn, HRTIMER_MODE_REL_SOFT);
}

static void tw_kcal_hr_del(struct tw_kcal_timer *kt)
{
	hrtimer_try_to_cancel(&kt->hr);
}

static void tw_kcal_hr_del_sync(struct tw_kcal_timer *kt)
{
	hrtimer_cancel(&kt->hr);
}

static const struct tw_kcal_ops tw_kcal_hr_ops = {
	.setup		= tw_kcal_hr_setup,
	.arm		= tw_kcal_hr_arm,
	.del		= tw_kcal_hr_del,
	.del_sync	= tw_kcal_hr_del_sync,
};

static int tw_hr_calibrate(struct tw_runner *r, struct tw_cost *c)
{
	return tw_kcal_measure(&tw_kcal_hr_ops, c);
}

/* ---- hrtimer ---- */

static enum hrtimer_restart tw_hr_fn(struct hrtimer *hr)
{
	struct tw_ktimer *kt = container_of(hr, struct tw_ktimer, hr);

	tw_softirq_workload_cb(TW_SIRQ_HRTIMER);
	/*
	 * An hrtimer keeps ns time: its lateness is against its own expiry,
	 * the soft one (what was asked: with slack it may run up to the hard
	 * expiry, slack ns later).
	 */
	tw_k_ran(kt->w.r, &kt->w, ktime_to_ns(hrtimer_get_softexpires(hr)));
	return HRTIMER_NORESTART;
}

static void tw_hr_setup(struct tw_runner *r, struct tw_wtimer *w)
{
	tw_hrtimer_setup(&tw_kt(w)->hr, tw_hr_fn, HRTIMER_MODE_REL_SOFT);
}

/*
 * With the workload's slack: hrtimer_start_range_ns(), the same share.
 * Whether the timer was pending is what taking it off says: asking
 * hrtimer_is_queued() first would race with its expiry on another CPU (a
 * remote= re-arm), which dequeues it without our lock, and count a re-arm
 * of an arming that then ran as a mod.
 */
static void tw_hr_arm(struct tw_runner *r, struct tw_wtimer *w,
		      unsigned long expires)
{
	struct hrtimer *hr = &tw_kt(w)->hr;
	long d = (long)(expires - jiffies);
	bool was = hrtimer_try_to_cancel(hr) == 1;

	hrtimer_start_range_ns(hr, ns_to_ktime((u64)max(d, 0L) * TICK_NSEC),
			       (u64)tw_runner_slack(expires) * TICK_NSEC,
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
	return hrtimer_cancel(&tw_kt(w)->hr) == 1;
}

static void tw_hr_bench_op(struct tw_runner *r, struct tw_wtimer *w,
			   enum tw_bench_op op, unsigned long delta)
{
	if (op == TW_OP_DEL)
		hrtimer_try_to_cancel(&tw_kt(w)->hr);
	else
		hrtimer_start_range_ns(&tw_kt(w)->hr,
				       ns_to_ktime((u64)delta * TICK_NSEC),
				       (u64)twheel_wl_slack(&tw_wl.p, delta) * TICK_NSEC,
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
	.calibrate	= tw_hr_calibrate,
	.busy_cost	= tw_hr_busy_cost,
};

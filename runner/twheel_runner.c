// SPDX-License-Identifier: GPL-2.0
/*
 * twheel runner layer: the one table of runners, and what every runner
 * does alike: arming with a lateness estimate, the accounting of a run,
 * re-arming, the tick's activity ops, load, start, disarm and reset.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/bitops.h>
#include <linux/bottom_half.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "runner/twheel_runner.h"
#include "shadow/twheel_shadow.h"

/*
 * The one place that decides each runner's behaviour: its index (the
 * order of twheel_runner_names) and its ops.
 */
#define TW_RUNNER_ENGINE(name, NAME, path, exact)	\
	[TWHEEL_##NAME] = &tw_engine_runner_ops,
static const struct tw_runner_ops *const tw_runner_impl[TWHEEL_NR_RUNNERS] = {
	/* every engine of the registry (engines/list.h) */
	TWHEEL_ENGINES(TW_RUNNER_ENGINE)
	[TWHEEL_TIMER_LIST]	= &tw_timer_list_runner_ops,
	[TWHEEL_HRTIMER]	= &tw_hrtimer_runner_ops,
	[TWHEEL_SHADOW]		= &tw_shadow_runner_ops,
};
#undef TW_RUNNER_ENGINE

struct tw_runner tw_runners[TWHEEL_NR_RUNNERS];
unsigned long tw_runner_mask;		/* runners the module runs */
struct tw_workload tw_wl;
/* Serialises control commands and the read-outs that need a stable state. */
DEFINE_MUTEX(tw_ctl);

struct tw_runner *tw_runner_next(int *i)
{
	*i = find_next_bit(&tw_runner_mask, TWHEEL_NR_RUNNERS, *i);
	return *i < TWHEEL_NR_RUNNERS ? &tw_runners[*i] : NULL;
}

/* Sets up the runners in mask; on failure none is left set up. */
int tw_runners_init(unsigned long mask, const struct tw_config *cfg)
{
	struct tw_runner *r;
	int i, ret;

	for_each_set_bit(i, &mask, TWHEEL_NR_RUNNERS) {
		r = &tw_runners[i];
		r->name = twheel_runner_names[i];
		r->id = i;
		r->ops = tw_runner_impl[i];
		r->caps = r->ops->caps;
		r->st = &r->own_st;
		spin_lock_init(&r->lock);
		ret = r->ops->init ? r->ops->init(r, cfg) : 0;
		if (ret) {
			tw_runners_release();
			return ret;
		}
		set_bit(i, &tw_runner_mask);
	}
	return 0;
}

void tw_runners_release(void)
{
	struct tw_runner *r;

	tw_for_each_runner(r) {
		if (r->ops->release)
			r->ops->release(r);
		memset(r, 0, sizeof(*r));
	}
	tw_runner_mask = 0;
}

/*
 * Arms w for jiffy expires; r->lock held. The expiry jiffy's instant is
 * estimated the same way on every runner: now + the jiffies to go.
 */
void tw_runner_arm(struct tw_runner *r, struct tw_wtimer *w,
		   unsigned long expires)
{
	long d = (long)(expires - jiffies);

	w->expires = expires;
	w->nominal_ns = ktime_get_ns() + (u64)max(d, 0L) * TICK_NSEC;
	r->ops->arm(r, w, expires);
}

/*
 * With the workload's slack: how many jiffies after expires (taken from
 * now) an arming for it may run at the latest; 0 without.
 */
unsigned long tw_runner_slack(unsigned long expires)
{
	long d = (long)(expires - jiffies);

	return d > 0 ? twheel_wl_slack(&tw_wl.p, min_t(long, d, U32_MAX)) : 0;
}

/* A run judged early, exact or late; r->lock held. */
static void tw_runner_judge(struct tw_runner *r, bool early, long late_j)
{
	struct tw_run_stats *rs = &r->rs;

	rs->runs++;
	if (early)
		rs->early++;
	else if (!late_j)
		rs->exact++;
	twheel_hist_add(&rs->late_j, max(late_j, 0L));
}

/*
 * A workload timer of r ran late_j jiffies and late_ns ns after the
 * instant asked for (negative: early); r->lock held. The one place where
 * runs are judged early, exact or late.
 */
void tw_runner_ran(struct tw_runner *r, long late_j, s64 late_ns)
{
	tw_runner_judge(r, r->ops->caps & TW_CAP_NS_TIME ? late_ns < 0 : late_j < 0,
			late_j);
	twheel_hist_add(&r->rs.late_ns, max_t(s64, late_ns, 0));
}

/* The same, for a run known in jiffies only (the shadow's real timers). */
void tw_runner_ran_j(struct tw_runner *r, long late_j)
{
	tw_runner_judge(r, late_j < 0, late_j);
}

/*
 * Whether the workload's activity is on right now: the flag that start
 * sets and stop, the tick's overload guard and the duration clear, and the
 * duration itself, read from the clock, so that no re-arm outlives it even
 * when the tick is starved.
 */
bool tw_workload_live(void)
{
	/* acquire: what start wrote before the activity went on is seen */
	if (!smp_load_acquire(&tw_wl.activity))
		return false;
	return !tw_wl.p.duration ||
	       !time_after(jiffies, tw_wl.start + tw_wl.p.duration * HZ);
}

/*
 * After w ran: arm it again if its workload says so; r->lock held. A
 * shadow's twin is never re-armed here: the shadow learns that it ran.
 */
void tw_runner_rearm(struct tw_runner *r, struct tw_wtimer *w)
{
	if (tw_wl.p.type == TWHEEL_WL_SHADOW) {
		struct tw_runner *m = &tw_runners[TWHEEL_SHADOW];

		m->ops->twin_ran(m, r, w);
		return;
	}
	if (!r->active || !twheel_wl_rearms(&tw_wl.p, w->id) ||
	    r->ops->pending(r, w) || !tw_workload_live() ||
	    (tw_wl.starved && tw_wl.starved()))
		return;
	w->gen++;
	tw_runner_arm(r, w, jiffies + twheel_wl_delta(&tw_wl.p, w->id, w->gen));
}

/* This tick's activity ops on one runner: delete, re-arm or arm. */
void tw_runner_activity(struct tw_runner *r, u64 tick)
{
	struct twheel_op op;
	struct tw_wtimer *w;
	u32 j;

	if (!tw_workload_live())
		return;
	spin_lock(&r->lock);
	for (j = 0; r->active && j < tw_wl.p.ops; j++) {
		twheel_wl_op(&tw_wl.p, tick, j, &op);
		w = tw_runner_timer(r, op.id);
		if (op.cancel && r->ops->pending(r, w)) {
			r->ops->del(r, w);
			continue;
		}
		w->gen++;
		tw_runner_arm(r, w, jiffies + twheel_wl_delta(&tw_wl.p, w->id, w->gen));
	}
	spin_unlock(&r->lock);
}

/*
 * The activity starts or ends on every loaded runner (struct
 * tw_runner_ops.activate); process context. Starting, the first error
 * ends it again on the runners it started on and is returned.
 */
static bool tw_runner_activates(const struct tw_runner *r)
{
	return r->ops->activate && tw_runner_loaded(r);
}

int tw_runners_activate(bool on)
{
	struct tw_runner *r;
	int i, j, ret;

	for (i = 0; (r = tw_runner_next(&i)); i++) {
		if (!tw_runner_activates(r))
			continue;
		ret = r->ops->activate(r, on);
		if (!ret || !on)
			continue;
		for (j = 0; j < i; j++)
			if (test_bit(j, &tw_runner_mask) &&
			    tw_runner_activates(&tw_runners[j]))
				tw_runners[j].ops->activate(&tw_runners[j], false);
		return ret;
	}
	return 0;
}

/* Advances every runner that has a tick to jiffy now; process context. */
void tw_runners_tick(unsigned long now)
{
	struct tw_runner *r;

	local_bh_disable();
	tw_for_each_runner(r)
		if (r->ops->tick)
			r->ops->tick(r, now);
	local_bh_enable();
}

/* Process context. */
void tw_runners_set_active(bool on)
{
	struct tw_runner *r;

	tw_for_each_runner(r) {
		spin_lock_bh(&r->lock);
		r->active = on && tw_runner_loaded(r);
		spin_unlock_bh(&r->lock);
	}
}

/*
 * Applies fn to every workload timer of r under its lock, in batches, so
 * that a million timers never keep softirqs off for long. A batch ends
 * early when the runner needs room for the next arm, which it gets here,
 * in process context: no arm of these is refused for memory that could be
 * had.
 */
static void tw_runner_batched(struct tw_runner *r,
			      void (*fn)(struct tw_runner *r,
					 struct tw_wtimer *w,
					 unsigned long arg),
			      unsigned long arg)
{
	bool room;
	u32 i, j, end;

	for (i = 0; i < r->nr_timers; i = j) {
		end = min(r->nr_timers, i + 1024);
		room = false;
		spin_lock_bh(&r->lock);
		for (j = i; j < end && !room; j++) {
			fn(r, tw_runner_timer(r, j), arg);
			room = r->room_watch && r->ops->needs_room(r);
		}
		spin_unlock_bh(&r->lock);
		if (room)
			r->ops->make_room(r);
		cond_resched();
	}
}

static void tw_wtimer_first_arm(struct tw_runner *r, struct tw_wtimer *w,
				unsigned long base)
{
	w->gen = 0;
	tw_runner_arm(r, w, base + twheel_wl_delta(&tw_wl.p, w->id, 0));
}

/*
 * Arms every workload timer of every runner from the same base jiffy (the
 * shadow's are armed by the kernel's traffic, never here).
 */
void tw_runners_arm_all(unsigned long base)
{
	struct tw_runner *r;

	if (tw_wl.p.type == TWHEEL_WL_SHADOW)
		return;
	tw_for_each_runner(r)
		tw_runner_batched(r, tw_wtimer_first_arm, base);
}

static void tw_wtimer_rearm(struct tw_runner *r, struct tw_wtimer *w,
			    unsigned long unused)
{
	tw_runner_rearm(r, w);
}

/*
 * After start armed everything with the activity off: the re-arms of the
 * timers that ran meanwhile (the kernel's timers run while the others are
 * being armed). Arming with the activity on would let them re-arm in a
 * storm before start even returns.
 */
void tw_runners_rearm_ran(void)
{
	struct tw_runner *r;

	if (tw_wl.p.type == TWHEEL_WL_SHADOW)
		return;
	tw_for_each_runner(r)
		tw_runner_batched(r, tw_wtimer_rearm, 0);
}

static void tw_wtimer_del(struct tw_runner *r, struct tw_wtimer *w,
			  unsigned long unused)
{
	r->ops->del(r, w);
}

/*
 * Takes every workload timer out of its runner and waits for callbacks in
 * flight; may sleep. Activity must be off (no re-arms meanwhile).
 */
void tw_runners_disarm(void)
{
	struct tw_runner *r;
	u32 k;

	tw_for_each_runner(r) {
		if (!r->ops->cancel_sync) {
			tw_runner_batched(r, tw_wtimer_del, 0);
			continue;
		}
		for (k = 0; k < r->nr_timers; k++) {
			if (r->ops->cancel_sync(r, tw_runner_timer(r, k))) {
				spin_lock_bh(&r->lock);
				r->st->deleted++;
				spin_unlock_bh(&r->lock);
			}
			if (!(k & 1023))
				cond_resched();
		}
	}
}

/* Zeroes every counter; what is pending now counts as added. */
void tw_runners_reset_counters(void)
{
	struct tw_runner *r;
	unsigned long pending;

	/* Every cumulative counter comes before lazy_held. */
	BUILD_BUG_ON(offsetof(struct twheel_stats, added) != 0);
	tw_for_each_runner(r) {
		spin_lock_bh(&r->lock);
		pending = twheel_stats_pending(r->st);
		memset(r->st, 0, offsetof(struct twheel_stats, lazy_held));
		r->st->added = pending;
		r->st->lazy_held_max = r->st->lazy_held;
		memset(&r->rs, 0, sizeof(r->rs));
		spin_unlock_bh(&r->lock);
	}
}

/* Frees the workload timers; nothing may be armed or running. */
void tw_runners_free_timers(void)
{
	struct tw_runner *r;

	tw_for_each_runner(r) {
		if (r->timers && r->ops->forget)
			r->ops->forget(r);
		kvfree(r->timers);
		r->timers = NULL;
		r->nr_timers = 0;
		memset(&r->opcost, 0, sizeof(r->opcost));
	}
}

/*
 * The workload arrays are sized by the user (up to TWHEEL_MAX_TIMERS): if
 * memory is short the load fails with -ENOMEM, it neither wakes the OOM
 * killer nor warns.
 */
#define TW_GFP_WORKLOAD	(GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

/*
 * Gives the runners in mask p->count fresh timers each, for a workload
 * with parameters p. Everything is allocated first: a load refused for
 * memory leaves everything as it was. Nothing may be armed or running.
 */
int tw_runners_load(const struct twheel_params *p, unsigned long mask)
{
	void *timers[TWHEEL_NR_RUNNERS] = {};
	struct tw_runner *r;
	u32 k;
	int i;

	tw_for_each_runner(r) {
		if (!(mask & BIT(r->id)))
			continue;
		timers[r->id] = kvcalloc(p->count, r->ops->timer_size,
					 TW_GFP_WORKLOAD);
		if (!timers[r->id])
			goto nomem;
		if (r->ops->reserve && r->ops->reserve(r, p->count))
			goto nomem;
	}
	tw_runners_free_timers();
	tw_wl.p = *p;
	tw_for_each_runner(r) {
		if (!timers[r->id])
			continue;
		r->timers = timers[r->id];
		r->nr_timers = p->count;
		for (k = 0; k < p->count; k++) {
			struct tw_wtimer *w = tw_runner_timer(r, k);

			w->r = r;
			w->id = k;
			r->ops->setup(r, w);
		}
	}
	/* Fresh counters for a fresh workload (nothing is pending now). */
	tw_runners_reset_counters();
	return 0;

nomem:
	pr_warn_ratelimited("load: no memory for %u timers on %s\n", p->count,
			    r->name);
	for (i = 0; i < TWHEEL_NR_RUNNERS; i++)
		kvfree(timers[i]);
	return -ENOMEM;
}

/*
 * ---- admission: what a load asks of the machine, before it is taken ----
 *
 * The demand of a workload on each runner comes in closed form from its
 * parameters (twheel_wl_demand(): callbacks and activity ops a second),
 * its cost from the runner's calibration: a callback costs one expiry, one
 * re-arm and our accounting, an op one arm or delete; each arm also costs
 * what our layer does around it (the generator, the instant for lateness). Every runner's timer
 * work lands on the tick's CPU (the tick runs the ops and our engines; the
 * kernel's timers are armed there), so the sum must fit in
 * TW_ADMIT_CPU_PCT percent of one CPU; a burst's one-shot expiry (all in one
 * tick) must fit in TW_ADMIT_BURST_MS. Above either, load is refused with
 * -EBUSY unless force=1; the tick's overload guard is the backstop for
 * what the model misses.
 */
#define TW_ADMIT_CPU_PCT	50
#define TW_ADMIT_BURST_MS	5000
#define TW_CAL_ACCT		1024

static u64 tw_acct_ns;		/* tw_runner_ran() + re-arm decision, mean */
static u64 tw_opover_ns;	/* an op's choice, delta and instant, mean */

/*
 * Our own costs around a runner's arm, on a scratch runner, the best of
 * TW_CAL_ROUNDS rounds (a busy host only ever adds): the accounting of a
 * callback, and what an activity op or a re-arm does besides the arm
 * itself (the generator's choice and delta, the instant for lateness).
 */
#define TW_CAL_ROUNDS	3

static int tw_calibrate_accounting(void)
{
	struct twheel_params p;
	struct tw_runner *scratch;
	struct twheel_op op;
	u64 t0, acct = U64_MAX, over = U64_MAX;
	int i, round;

	scratch = kvzalloc(sizeof(*scratch), GFP_KERNEL);
	if (!scratch)
		return -ENOMEM;
	scratch->ops = &tw_engine_runner_ops;
	spin_lock_init(&scratch->lock);
	twheel_params_default(TWHEEL_WL_MIXED, &p);
	local_bh_disable();
	for (round = 0; round < TW_CAL_ROUNDS; round++) {
		t0 = ktime_get_ns();
		for (i = 0; i < TW_CAL_ACCT; i++) {
			spin_lock(&scratch->lock);
			tw_runner_ran(scratch, i & 7, (s64)i << 10);
			spin_unlock(&scratch->lock);
		}
		acct = min(acct, ktime_get_ns() - t0);
		t0 = ktime_get_ns();
		for (i = 0; i < TW_CAL_ACCT; i++) {
			spin_lock(&scratch->lock);
			twheel_wl_op(&p, round, i, &op);
			/* as tw_runner_arm() stores the instant */
			WRITE_ONCE(scratch->opcost.ns[0],
				   ktime_get_ns() + twheel_wl_delta(&p, op.id, i));
			spin_unlock(&scratch->lock);
		}
		over = min(over, ktime_get_ns() - t0);
	}
	local_bh_enable();
	tw_acct_ns = max_t(u64, div_u64(acct, TW_CAL_ACCT), 1);
	tw_opover_ns = max_t(u64, div_u64(over, TW_CAL_ACCT), 1);
	kvfree(scratch);
	return 0;
}

/* A runner's own costs: the best of TW_CAL_ROUNDS calibrations. */
static int tw_runner_calibrate(struct tw_runner *r)
{
	struct tw_cost c, best = { U64_MAX, U64_MAX };
	int round, ret;

	for (round = 0; round < TW_CAL_ROUNDS; round++) {
		ret = r->ops->calibrate(r, &c);
		if (ret)
			return ret;
		best.op_ns = min(best.op_ns, c.op_ns);
		/* 0: no expiry could be measured this round. */
		if (c.expire_ns)
			best.expire_ns = min(best.expire_ns, c.expire_ns);
	}
	r->cost.op_ns = max_t(u64, best.op_ns, 1);
	r->cost.expire_ns = best.expire_ns == U64_MAX ? 1 : best.expire_ns;
	return 0;
}

/* Measures what has not been measured yet; under tw_ctl. */
static int tw_runners_calibrate(unsigned long mask)
{
	struct tw_runner *r;
	int ret;

	if (!tw_acct_ns) {
		ret = tw_calibrate_accounting();
		if (ret)
			return ret;
	}
	tw_for_each_runner(r) {
		/* A runner without calibrate arms nothing of its own. */
		if (!(mask & BIT(r->id)) || r->cost.expire_ns ||
		    !r->ops->calibrate)
			continue;
		ret = tw_runner_calibrate(r);
		if (ret)
			return ret;
	}
	return 0;
}

struct tw_demand_sum {
	u64 events;		/* a second */
	u64 ns;			/* CPU ns a second */
	u64 burst_ns;		/* a burst's one-shot expiry */
};

static void tw_demand_sum(const struct twheel_params *p, unsigned long mask,
			  struct tw_demand_sum *sum)
{
	struct twheel_demand d;
	struct tw_runner *r;
	u64 cb_ns, op_ns;

	memset(sum, 0, sizeof(*sum));
	twheel_wl_demand(p, HZ, &d);
	tw_for_each_runner(r) {
		if (!(mask & BIT(r->id)))
			continue;
		op_ns = r->cost.op_ns + tw_opover_ns;
		cb_ns = r->cost.expire_ns + tw_acct_ns + op_ns;
		sum->events += d.callbacks_per_s + d.ops_per_s;
		sum->ns += d.callbacks_per_s * cb_ns + d.ops_per_s * op_ns;
		sum->burst_ns += (u64)d.burst_callbacks * cb_ns;
	}
}

static bool tw_demand_fits(const struct tw_demand_sum *sum)
{
	return sum->ns * 100 <= (u64)NSEC_PER_SEC * TW_ADMIT_CPU_PCT &&
	       sum->burst_ns <= (u64)TW_ADMIT_BURST_MS * NSEC_PER_MSEC;
}

/* The largest count (up to p->count) that fits; 0 if none does. */
static u32 tw_largest_fit(const struct twheel_params *p, unsigned long mask)
{
	struct twheel_params q = *p;
	struct tw_demand_sum sum;
	u32 lo = 0, hi = p->count, mid;

	while (lo < hi) {
		mid = lo + (hi - lo + 1) / 2;
		q.count = mid;
		tw_demand_sum(&q, mask, &sum);
		if (tw_demand_fits(&sum))
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/*
 * Whether every runner in mask takes p->count timers (struct
 * tw_runner_ops.max_timers): 0, or -E2BIG with the reason logged. Not even
 * force=1 loads more: such a load would hold the lock for seconds an op.
 */
static int tw_runners_admit_count(const struct twheel_params *p,
				  unsigned long mask)
{
	struct tw_runner *r;
	u32 most;

	tw_for_each_runner(r) {
		if (!(mask & BIT(r->id)) || !r->ops->max_timers)
			continue;
		most = r->ops->max_timers(r);
		if (p->count <= most)
			continue;
		pr_warn_ratelimited("load: %s count=%u: %s takes at most %u timers (its arm or its tick walks a list of them); count=%u fits\n",
				    twheel_wl_names[p->type], p->count, r->name,
				    most, most);
		return -E2BIG;
	}
	return 0;
}

/*
 * Whether the runners in mask can take workload p: 0, -E2BIG (above a
 * runner's max_timers) or -EBUSY (beyond the machine) with the reason
 * logged. Calibrates the runners on first use. The demand and the
 * capacity go to adm unless -E2BIG.
 */
int tw_runners_admit(const struct twheel_params *p, unsigned long mask,
		     struct tw_admission *adm)
{
	struct tw_demand_sum sum;
	unsigned int runners;
	u32 fit;
	int ret;

	ret = tw_runners_admit_count(p, mask);
	if (ret)
		return ret;

	ret = tw_runners_calibrate(mask);
	if (ret) {
		pr_warn_ratelimited("load: calibration failed (%d)\n", ret);
		return ret;
	}
	tw_demand_sum(p, mask, &sum);
	adm->demand_per_s = sum.events;
	adm->demand_ns = sum.ns;
	adm->capacity_per_s = sum.ns ?
		div64_u64(sum.events * NSEC_PER_SEC / 100 * TW_ADMIT_CPU_PCT, sum.ns) : 0;
	if (tw_demand_fits(&sum))
		return 0;
	if (p->force) {
		if (sum.burst_ns > (u64)TW_ADMIT_BURST_MS * NSEC_PER_MSEC)
			pr_warn_ratelimited("load: force=1: its one-shot expiry would take one tick %llu ms, over the %u ms limit (budget= bounds our engines' ticks)\n",
					    div_u64(sum.burst_ns, NSEC_PER_MSEC),
					    TW_ADMIT_BURST_MS);
		else
			pr_warn_ratelimited("load: force=1: %llu timer events/s, %llu ms of CPU a second, beyond the admission limit; the overload guard may end it\n",
					    sum.events, div_u64(sum.ns, NSEC_PER_MSEC));
		return 0;
	}
	fit = tw_largest_fit(p, mask);
	runners = hweight_long(mask);
	if (sum.burst_ns > (u64)TW_ADMIT_BURST_MS * NSEC_PER_MSEC)
		pr_warn_ratelimited("load: %s count=%u: its one-shot expiry would take one tick %llu ms on %u runner(s), over the %u ms limit; count=%u fits; force=1 loads it anyway\n",
				    twheel_wl_names[p->type], p->count,
				    div_u64(sum.burst_ns, NSEC_PER_MSEC), runners,
				    TW_ADMIT_BURST_MS, fit);
	else
		pr_warn_ratelimited("load: %s count=%u asks %llu timer events/s (%llu ms of CPU a second) of %u runner(s); this machine does %llu/s of this mix in %u%% of a CPU; count=%u fits%s; force=1 loads it anyway\n",
				    twheel_wl_names[p->type], p->count, sum.events,
				    div_u64(sum.ns, NSEC_PER_MSEC), runners,
				    adm->capacity_per_s, TW_ADMIT_CPU_PCT, fit,
				    fit ? "" : " (lower ops=)");
	return -EBUSY;
}

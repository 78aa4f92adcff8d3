// SPDX-License-Identifier: GPL-2.0
/*
 * twheel runner layer, admission: what a load asks of the machine, weighed
 * before the load is taken.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/bitops.h>
#include <linux/bottom_half.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "runner/twheel_state.h"

/*
 * The demand of a workload on each runner comes in closed form from its
 * parameters (twheel_wl_demand(): callbacks and activity ops a second),
 * its cost from the runner's calibration: a callback costs one expiry, one
 * re-arm and our accounting, an op one arm or delete; each arm also costs
 * what our layer does around it (the generator, the instant for lateness). Every runner's timer
 * work lands on the tick's CPU (the tick runs the ops and our engines; the
 * kernel's timers are armed there), so the sum must fit in
 * TW_ADMIT_CPU_PCT percent of one CPU; a burst's one-shot expiry (all in one
 * tick) must fit in TW_ADMIT_BURST_MS. A workload spread over n CPUs
 * (cpus=, percpu=1) is weighed on each: a CPU runs 1/n of the ops, and of
 * the callbacks of per-CPU instances and kernel timers (a runner that is
 * one instance expires all of its own on the one tick's CPU), and draws
 * every op of a tick to find its own (the draws of the others cost it
 * what an op's choice does); the busiest CPU must fit. Above either, load is refused with
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

/*
 * The demand of p on the busiest of the n CPUs it is spread over (n: 0 or
 * 1, on the one tick's CPU). Per-CPU instances and the kernel's timers
 * weigh each op that reaches another CPU's (remote=, on=) as
 * TWHEEL_REMOTE_OP_WEIGHT ops (twheel_wl_op_weight()).
 */
static void tw_demand_sum(const struct twheel_params *p, unsigned long mask,
			  unsigned int n, struct tw_demand_sum *sum)
{
	u32 ppm = twheel_wl_remote_ppm(p, n);
	struct twheel_demand d;
	struct tw_runner *r;
	u64 cb_ns, op_ns, cb, ops, burst, weighed;

	memset(sum, 0, sizeof(*sum));
	twheel_wl_demand(p, HZ, &d);
	tw_for_each_runner(r) {
		if (!(mask & BIT(r->id)))
			continue;
		op_ns = r->cost.op_ns + tw_opover_ns;
		cb_ns = r->cost.expire_ns + tw_acct_ns + op_ns;
		cb = d.callbacks_per_s;
		ops = d.ops_per_s;
		burst = d.burst_callbacks;
		if (n > 1) {
			if (r->inst || (r->caps & TW_CAP_KERNEL)) {
				cb = DIV_ROUND_UP_ULL(cb, n);
				burst = DIV_ROUND_UP_ULL(burst, n);
			}
			ops = DIV_ROUND_UP_ULL(ops, n);
			sum->ns += (d.ops_per_s - ops) * tw_opover_ns;
		}
		/* a remote op takes a second lock and moves its timer */
		weighed = n > 1 && (r->inst || (r->caps & TW_CAP_KERNEL)) ?
			  twheel_wl_op_weight(ops, ppm) : ops;
		sum->events += cb + ops;
		sum->ns += cb * cb_ns + weighed * op_ns;
		sum->burst_ns += burst * cb_ns;
	}
}

static bool tw_demand_fits(const struct tw_demand_sum *sum)
{
	return sum->ns * 100 <= (u64)NSEC_PER_SEC * TW_ADMIT_CPU_PCT &&
	       sum->burst_ns <= (u64)TW_ADMIT_BURST_MS * NSEC_PER_MSEC;
}

/* The largest count (up to p->count) that fits; 0 if none does. */
static u32 tw_largest_fit(const struct twheel_params *p, unsigned long mask,
			  unsigned int n)
{
	struct twheel_params q = *p;
	struct tw_demand_sum sum;
	u32 lo = 0, hi = p->count, mid;

	while (lo < hi) {
		mid = lo + (hi - lo + 1) / 2;
		q.count = mid;
		tw_demand_sum(&q, mask, n, &sum);
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

/**
 * tw_runners_admit() - whether the runners can take a workload
 * @p: the workload's parameters
 * @mask: the runners it is to run on, by id
 * @adm: filled in with the demand and the capacity, unless -E2BIG
 *
 * Refuses a count above a runner's max_timers even with force=1, then
 * calibrates the runners not measured yet and weighs the demand of @p on
 * them against TW_ADMIT_CPU_PCT percent of a CPU and, for a burst's
 * one-shot expiry, TW_ADMIT_BURST_MS; spread over CPUs (tw_wl_cpus()), on
 * the busiest of them. With force=1 an overload is only warned about.
 * Under tw_ctl, process context: may sleep.
 *
 * Return: 0; -E2BIG (above a runner's max_timers), -EINVAL (a CPU of
 * cpus= not online), -EBUSY (beyond the machine, with the largest count
 * that fits) or a calibration's error, each with the reason logged.
 */
int tw_runners_admit(const struct twheel_params *p, unsigned long mask,
		     struct tw_admission *adm)
{
	unsigned int cpu_at[TWHEEL_MAX_CPUS];
	struct tw_demand_sum sum;
	unsigned int runners;
	int ret, n;
	u32 fit;

	ret = tw_runners_admit_count(p, mask);
	if (ret)
		return ret;
	n = tw_wl_cpus(p, tw_wl.percpu, cpu_at);
	if (n < 0)
		return n;

	ret = tw_runners_calibrate(mask);
	if (ret) {
		pr_warn_ratelimited("load: calibration failed (%d)\n", ret);
		return ret;
	}
	tw_demand_sum(p, mask, n, &sum);
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
	fit = tw_largest_fit(p, mask, n);
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

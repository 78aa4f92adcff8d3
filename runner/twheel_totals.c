// SPDX-License-Identifier: GPL-2.0
/*
 * twheel: the totals of a runner's per-CPU instances, what its stats
 * block shows. Pure: counters are added, the most-in-one-tick keys take
 * the largest, histograms merge. The KUnit module tests them directly.
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/export.h>
#include "runner/twheel_runner.h"

/**
 * tw_stats_add() - add one engine's counters to a total
 * @t: the total
 * @st: one instance's counters
 *
 * Every counter adds up, the lazily held timers too; lazy_held_max, the
 * most each instance held at once, adds up into the most they can have
 * held together.
 */
void tw_stats_add(struct twheel_stats *t, const struct twheel_stats *st)
{
	t->added += st->added;
	t->deleted += st->deleted;
	t->modified += st->modified;
	t->mod_noop += st->mod_noop;
	t->mod_inplace += st->mod_inplace;
	t->expired += st->expired;
	t->cascades += st->cascades;
	t->cascaded += st->cascaded;
	t->advances += st->advances;
	t->jiffies += st->jiffies;
	t->events += st->events;
	t->refused += st->refused;
	t->lazy_held += st->lazy_held;
	t->lazy_held_max += st->lazy_held_max;
}
EXPORT_SYMBOL_GPL(tw_stats_add);

/**
 * tw_run_stats_add() - add what the driver measured on one instance to a total
 * @t: the total
 * @rs: one instance's measures
 *
 * Counts add up, the most in one tick (cascaded_max, expired_max) and the
 * longest backlogs take the largest, every histogram merges.
 */
void tw_run_stats_add(struct tw_run_stats *t, const struct tw_run_stats *rs)
{
	unsigned int b;

	t->ticks += rs->ticks;
	t->catchups += rs->catchups;
	t->missed += rs->missed;
	t->runs += rs->runs;
	t->early += rs->early;
	t->exact += rs->exact;
	t->rearmed_inflight += rs->rearmed_inflight;
	t->act_ops += rs->act_ops;
	t->act_ns += rs->act_ns;
	t->cascaded_max = max(t->cascaded_max, rs->cascaded_max);
	t->expired_max = max(t->expired_max, rs->expired_max);
	t->deferred += rs->deferred;
	t->ticks_at_budget += rs->ticks_at_budget;
	t->backlog_max = max(t->backlog_max, rs->backlog_max);
	t->backlog = max(t->backlog, rs->backlog);
	twheel_hist_merge(&t->tick_ns, &rs->tick_ns);
	twheel_hist_merge(&t->busy_ns, &rs->busy_ns);
	twheel_hist_merge(&t->cascade_ns, &rs->cascade_ns);
	twheel_hist_merge(&t->late_j, &rs->late_j);
	twheel_hist_merge(&t->late_ns, &rs->late_ns);
	t->lock_acquired += rs->lock_acquired;
	t->lock_contended += rs->lock_contended;
	t->lock_wait_total_ns += rs->lock_wait_total_ns;
	t->lock_nested += rs->lock_nested;
	t->lock_op_acquired += rs->lock_op_acquired;
	t->lock_op_contended += rs->lock_op_contended;
	t->lock_op_wait_ns += rs->lock_op_wait_ns;
	t->lock_remote_acquired += rs->lock_remote_acquired;
	t->lock_remote_contended += rs->lock_remote_contended;
	t->lock_remote_wait_ns += rs->lock_remote_wait_ns;
	t->lock_remote_ops += rs->lock_remote_ops;
	twheel_hist_merge(&t->lock_wait_ns, &rs->lock_wait_ns);
	t->remote_ops += rs->remote_ops;
	t->on_ops += rs->on_ops;
	t->migrations += rs->migrations;
	t->pulled += rs->pulled;
	for (b = 0; b < TWHEEL_NR_TBASES; b++) {
		t->arms_base[b] += rs->arms_base[b];
		t->runs_base[b] += rs->runs_base[b];
	}
}
EXPORT_SYMBOL_GPL(tw_run_stats_add);

/**
 * tw_per_op_milli() - a count per op, in thousandths, rounded
 * @v: the count (acquisitions, contended ones, wait ns)
 * @ops: the ops it is per; not 0
 *
 * Return: @v * 1000 / @ops to the nearest; for a @v too large to scale,
 * @v / @ops in whole units times 1000.
 */
u64 tw_per_op_milli(u64 v, u64 ops)
{
	if (v > div64_u64(U64_MAX - ops / 2, 1000))
		return div64_u64(v, ops) * 1000;
	return div64_u64(v * 1000 + ops / 2, ops);
}
EXPORT_SYMBOL_GPL(tw_per_op_milli);

/**
 * tw_lockstat_fold() - add what one CPU did on a runner to its measures
 * @rs: the measures (an instance's, or a total)
 * @ls: that CPU's struct tw_lockstat of the runner
 *
 * Adds its activity ops, their time, remote ops and migrations, and its
 * lock acquisitions: all of them, the activity ops' (local and remote),
 * the remote ops' alone, contended ones and waits of each, the nested
 * ones, and the wait histogram. @ls is read without a lock: a snapshot
 * taken while its CPU counts may be a few counts apart.
 */
void tw_lockstat_fold(struct tw_run_stats *rs, const struct tw_lockstat *ls)
{
	int who;

	rs->act_ops += ls->act_ops;
	rs->act_ns += ls->act_ns;
	rs->remote_ops += ls->remote_ops;
	rs->on_ops += ls->on_ops;
	rs->migrations += ls->migrations;
	for (who = 0; who < TW_NR_LK; who++) {
		rs->lock_acquired += ls->acquired[who];
		rs->lock_contended += ls->contended[who];
		rs->lock_wait_total_ns += ls->wait_ns[who];
		if (who == TW_LK_TICK)
			continue;
		rs->lock_op_acquired += ls->acquired[who];
		rs->lock_op_contended += ls->contended[who];
		rs->lock_op_wait_ns += ls->wait_ns[who];
	}
	rs->lock_remote_acquired += ls->acquired[TW_LK_REMOTE];
	rs->lock_remote_contended += ls->contended[TW_LK_REMOTE];
	rs->lock_remote_wait_ns += ls->wait_ns[TW_LK_REMOTE];
	rs->lock_remote_ops += ls->remote_ops + ls->on_ops;
	rs->lock_nested += ls->nested;
	twheel_hist_merge(&rs->lock_wait_ns, &ls->wait);
}
EXPORT_SYMBOL_GPL(tw_lockstat_fold);

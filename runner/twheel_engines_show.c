// SPDX-License-Identifier: GPL-2.0
/*
 * twheel: the engine runners' read-outs: stats' engine part (what the
 * engine holds per level, against what its counters say is pending) and
 * the occupancy file (timers per bucket). Each counts under the runner's
 * lock, a walk over every timer held: a read-out's cost, not the tick's.
 */
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include "runner/twheel_engines.h"
#include "runner/twheel_feed.h"

/**
 * tw_engine_show() - an engine runner's part of stats
 * @m: the stats file
 * @r: the engine runner
 *
 * Prints the engine's levels and clock, the timers it holds (counted by a
 * walk, marked BROKEN unless that is what its counters say is pending),
 * the timers pending per level, the bytes lazily cancelled timers keep
 * (TW_CAP_LAZY) and its feed's own lines. A runner with per-CPU instances
 * shows their totals (its clock: the instance furthest behind; no feed
 * lines, each instance shows its own). The engine runners' show op;
 * process context, takes each instance's lock with bottom halves off.
 */
void tw_engine_show(struct seq_file *m, struct tw_runner *r)
{
	struct twheel_engine *e = tw_er(r)->e;
	unsigned long clk = 0, per[TWHEEL_MAX_LEVELS], one[TWHEEL_MAX_LEVELS];
	unsigned long held = 0, pending = 0;
	unsigned int levels = e->nr_levels, lvl;
	u64 lazy = 0, lazy_max = 0;
	struct tw_runner *in;
	bool first = true;

	/*
	 * A walk over every timer held, under the lock: a read-out's cost.
	 * What the engine holds must be what its counters say is pending.
	 */
	memset(per, 0, sizeof(per));
	tw_for_each_inst(r, in) {
		e = tw_er(in)->e;
		spin_lock_bh(&in->lock);
		if (first || time_before(e->clk, clk))
			clk = e->clk;
		held += twheel_count(e, one);
		pending += twheel_stats_pending(&e->st);
		lazy += e->st.lazy_held;
		lazy_max += e->st.lazy_held_max;
		spin_unlock_bh(&in->lock);
		for (lvl = 0; lvl < levels; lvl++)
			per[lvl] += one[lvl];
		first = false;
	}
	seq_printf(m, "levels: %u\n", levels);
	seq_printf(m, "max_timers: %u\n", r->ops->max_timers(r));
	seq_printf(m, "clk: %lu\n", clk);
	seq_printf(m, "held: %lu (%s)\n", held,
		   held == pending ? "= pending" : "BROKEN: not pending");
	seq_puts(m, "level_pending:");
	for (lvl = 0; lvl < levels; lvl++)
		seq_printf(m, " %lu", per[lvl]);
	seq_putc(m, '\n');
	/* what lazily cancelled timers keep: each a whole workload timer */
	if (r->caps & TW_CAP_LAZY)
		seq_printf(m, "lazy_held_bytes: %llu\nlazy_held_max_bytes: %llu\n",
			   lazy * r->ops->timer_size, lazy_max * r->ops->timer_size);
	if (!r->inst && tw_er(r)->feed)
		tw_feed(tw_er(r))->show(m, tw_er(r)->feed);
}

/* The occupancy of one instance (or of a runner that is one). */
static int tw_engine_occupancy_one(struct seq_file *m, struct tw_runner *r)
{
	struct tw_engine_runner *er = tw_er(r);
	const struct twheel_ops *ops = er->e->ops;
	unsigned int nb = ops->nr_buckets ? ops->nr_buckets(er->e) : 0;
	unsigned int lvl, levels, i, *per;
	unsigned long lp[TWHEEL_MAX_LEVELS];

	per = kvcalloc(max(nb, 1U), sizeof(*per), GFP_KERNEL);
	if (!per)
		return -ENOMEM;
	spin_lock_bh(&r->lock);
	twheel_count(er->e, lp);
	levels = er->e->nr_levels;
	nb = ops->buckets ? ops->buckets(er->e, per, nb) : 0;
	spin_unlock_bh(&r->lock);

	seq_printf(m, "# %s: pending timers per level; then 'bucket: count' for each non-empty bucket\n",
		   r->name);
	for (lvl = 0; lvl < levels; lvl++)
		seq_printf(m, "level %u: %lu\n", lvl, lp[lvl]);
	for (i = 0; i < nb; i++)
		if (per[i])
			seq_printf(m, "bucket %u (level %u): %u\n", i,
				   twheel_bucket_level(er->e, i), per[i]);
	kvfree(per);
	return 0;
}

/**
 * tw_engine_occupancy() - an engine runner's <runner>/occupancy read-out
 * @m: the occupancy file
 * @r: the engine runner
 *
 * Prints the timers pending per level, then each non-empty bucket with its
 * level and count, copied out under @r->lock (bottom halves off) into an
 * array allocated first. The engine runners' occupancy op; process
 * context. A runner with per-CPU instances: each one's, one after the
 * other, headed "# <runner>/cpu<N>".
 *
 * Return: 0, or -ENOMEM.
 */
int tw_engine_occupancy(struct seq_file *m, struct tw_runner *r)
{
	struct tw_runner *in;
	unsigned int cpu;
	int ret;

	if (!r->inst)
		return tw_engine_occupancy_one(m, r);
	for_each_online_cpu(cpu) {
		in = tw_runner_on(r, cpu);
		seq_printf(m, "# %s/cpu%u\n", r->name, cpu);
		ret = tw_engine_occupancy_one(m, in);
		if (ret)
			return ret;
	}
	return 0;
}

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
#include "twheel_engines.h"

void tw_engine_show(struct seq_file *m, struct tw_runner *r)
{
	struct twheel_engine *e = tw_er(r)->e;
	unsigned long clk, per[TWHEEL_MAX_LEVELS], held, pending;
	unsigned int levels, lvl;
	u64 lazy, lazy_max;

	/*
	 * A walk over every timer held, under the lock: a read-out's cost.
	 * What the engine holds must be what its counters say is pending.
	 */
	spin_lock_bh(&r->lock);
	clk = e->clk;
	levels = e->nr_levels;
	held = twheel_count(e, per);
	pending = twheel_stats_pending(&e->st);
	lazy = e->st.lazy_held;
	lazy_max = e->st.lazy_held_max;
	spin_unlock_bh(&r->lock);
	seq_printf(m, "levels: %u\n", levels);
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
	if (e->kind == TWHEEL_HASH_VEC)
		tw_vec_show(m, &tw_er(r)->vec);
}

/* Timers in each of n hlist buckets (through @entry), into per[]. */
static unsigned int tw_count_hlists(const struct hlist_head *vec,
				    unsigned int n, unsigned int *per)
{
	struct twheel_timer *t;
	unsigned int i;

	for (i = 0; i < n; i++)
		hlist_for_each_entry(t, &vec[i], entry)
			per[i]++;
	return n;
}

/* Timers per bucket of a wheel, counted under the lock into per[]. */
static unsigned int tw_engine_count_buckets(struct tw_engine_runner *er,
					    unsigned int *per)
{
	struct twheel_timer *t;
	unsigned int i;

	switch (er->e->ops->kind) {
	case TWHEEL_CLASSIC:
		for (i = 0; i < TW_CLASSIC_BUCKETS; i++)
			list_for_each_entry(t, &er->classic.vec[i], list)
				per[i]++;
		return TW_CLASSIC_BUCKETS;
	case TWHEEL_MODERN:
		return tw_count_hlists(er->modern.vec, TW_MODERN_BUCKETS, per);
	case TWHEEL_CLASSIC_BOUNDED:
		for (i = 0; i < TW_BOUNDED_BUCKETS; i++)
			list_for_each_entry(t, &er->classic_bounded.vec[i], list)
				per[i]++;
		return TW_BOUNDED_BUCKETS;
	case TWHEEL_RATAS:
		return tw_count_hlists(er->ratas.slots, TW_RATAS_BUCKETS, per);
	case TWHEEL_VOLT:
		/* live timers only; the overflow list is the bucket after */
		for (i = 0; i <= TW_VOLT_BUCKETS; i++) {
			struct list_head *h = i < TW_VOLT_BUCKETS ?
					      &er->volt.slots[i] : &er->volt.overflow;

			list_for_each_entry(t, h, volt_link)
				per[i] += !t->volt_cancelled;
		}
		return TW_VOLT_BUCKETS + 1;
	case TWHEEL_HASH:
	case TWHEEL_HASH_SORTED:
	case TWHEEL_SIMPLE:
		/* the others' wheel is a struct twheel_hash too, at their start */
		for (i = 0; i <= er->hash.mask; i++)
			list_for_each_entry(t, &er->hash.slots[i], hash_link)
				per[i]++;
		return er->hash.mask + 1;
	case TWHEEL_HASH_VEC:
		for (i = 0; i <= er->hash_vec.mask; i++)
			per[i] = er->hash_vec.slots[i].nr;
		return er->hash_vec.mask + 1;
	default:
		return 0;
	}
}

int tw_engine_occupancy(struct seq_file *m, struct tw_runner *r)
{
	struct tw_engine_runner *er = tw_er(r);
	unsigned int nb = max3(max3(TW_CLASSIC_BUCKETS, TW_MODERN_BUCKETS,
				    er->cfg.hash_slots), er->cfg.max_interval,
			       max(TW_RATAS_BUCKETS, TW_BOUNDED_BUCKETS));
	unsigned int lvl, levels, i, *per;
	unsigned long lp[TWHEEL_MAX_LEVELS];

	per = kvcalloc(nb, sizeof(*per), GFP_KERNEL);
	if (!per)
		return -ENOMEM;
	spin_lock_bh(&r->lock);
	twheel_count(er->e, lp);
	levels = er->e->nr_levels;
	nb = tw_engine_count_buckets(er, per);
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

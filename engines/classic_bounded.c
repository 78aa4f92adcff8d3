// SPDX-License-Identifier: GPL-2.0
/*
 * The classic wheel with a bounded cascade: the 2.6 wheel's levels and
 * exact expiry, each level two laps deep, each slot of levels 1 to 4 moved
 * down over the ticks before the level below reaches it. See
 * engines/classic_bounded.h.
 *
 * The slots of level n >= 1 are one lap of level n - 1 each, numbered by
 * expires >> shift(n) (shift: 8, 14, 20, 26). While the clock is in lap q
 * of level n - 1, level n's slot q + 1 is its source: its window runs from
 * q's first jiffy to the jiffy the level below starts spreading the first
 * of the slots it fills (level 1: to q's last jiffy, as level 0's slots
 * are collected, not spread). Nothing is ever filed in a source: a timer
 * of lap q + 1 goes to level n - 1 or lower (by round), so a source only
 * shrinks, and at its window's last jiffy it is empty.
 */
#include <linux/kernel.h>
#include <linux/bitmap.h>
#include <linux/jiffies.h>
#include <linux/export.h>
#include <linux/errno.h>
#include "engines/common.h"
#include "engines/classic_bounded.h"

static struct twheel_classic_bounded *to_bounded(const struct twheel_engine *e)
{
	return container_of(e, struct twheel_classic_bounded, e);
}

/* Shift of level lvl's slots (0 = tv1 .. 4 = tv5), as the classic wheel's. */
static unsigned int tw_classic_bounded_shift(unsigned int lvl)
{
	return lvl ? TW_TVR_BITS + (lvl - 1) * TW_TVN_BITS : 0;
}

static unsigned int tw_classic_bounded_offset(unsigned int lvl)
{
	return lvl ? TW_BOUNDED_L0_SLOTS + (lvl - 1) * TW_BOUNDED_LN_SLOTS : 0;
}

/*
 * Last jiffy of the window of level lvl's (>= 1) slot number s: the first
 * jiffy of the window of the first slot it fills in the level below (level
 * 1: the jiffy before its slot's lap).
 */
static unsigned long tw_classic_bounded_window_end(unsigned int lvl, unsigned long s)
{
	unsigned long lead = lvl > 1 ? 1UL << tw_classic_bounded_shift(lvl - 1) : 1;

	return (s << tw_classic_bounded_shift(lvl)) - lead;
}

/*
 * Jiffies from @from to the first jiffy at which level lvl's slot number s,
 * with r timers, has spreading due: r > chunk * (ticks of its window left
 * after that one), from the window's first jiffy on. ULONG_MAX past the
 * window's end (the slot is empty then).
 */
static unsigned long tw_classic_bounded_due(const struct twheel_classic_bounded *c,
					    unsigned int lvl, unsigned long s,
				    unsigned long r, unsigned long from)
{
	unsigned long end = tw_classic_bounded_window_end(lvl, s);
	unsigned long start = (s - 1) << tw_classic_bounded_shift(lvl);
	unsigned long k = DIV_ROUND_UP(r, c->chunk), left, d;

	if (time_after(from, end))
		return ULONG_MAX;
	left = end - from + 1;		/* ticks of the window from @from on */
	d = left > k ? left - k : 0;
	if (time_before(from, start))
		d = max(d, start - from);
	return d;
}

static unsigned int tw_classic_bounded_count_of(const struct twheel_classic_bounded *c,
						unsigned int idx)
{
	return c->nr[idx - TW_BOUNDED_L0_SLOTS];
}

/*
 * Jiffies from @from (the next jiffy to process) to the next one with
 * spreading due, at most limit: the source of each level at @from and,
 * if @future, the first non-empty slot after it (a later slot's window
 * starts after that one's ends).
 */
static unsigned long tw_classic_bounded_spread_next(const struct twheel_classic_bounded *c,
						    unsigned long from, unsigned long limit,
					    bool future)
{
	const unsigned long *map;
	unsigned long s, best = limit;
	unsigned int lvl, i, first, idx;

	for (lvl = 1; lvl < TW_CLASSIC_LEVELS; lvl++) {
		s = (from >> tw_classic_bounded_shift(lvl)) + 1;
		first = s & (TW_BOUNDED_LN_SLOTS - 1);
		idx = tw_classic_bounded_offset(lvl) + first;
		map = c->pending_map + BIT_WORD(tw_classic_bounded_offset(lvl));
		if (test_bit(first, map))
			best = min(best,
				   tw_classic_bounded_due(c, lvl, s,
							  tw_classic_bounded_count_of(c, idx),
							  from));
		if (!future)
			continue;
		i = find_next_bit(map, TW_BOUNDED_LN_SLOTS, first + 1);
		if (i >= TW_BOUNDED_LN_SLOTS)
			i = find_first_bit(map, first);
		if (i == first)		/* none but the source */
			continue;
		s += (i - first) & (TW_BOUNDED_LN_SLOTS - 1);
		idx = tw_classic_bounded_offset(lvl) + i;
		best = min(best,
			   tw_classic_bounded_due(c, lvl, s,
						  tw_classic_bounded_count_of(c, idx),
						  from));
	}
	return best;
}

/*
 * Level lvl's (>= 1) share of jiffy e->clk: if spreading its source is due,
 * moves ceil(timers / ticks left in the window) of them, first filed first,
 * each to the slot its expiry files in now (a lower level). Returns how
 * many it moved.
 */
static unsigned int tw_classic_bounded_spread(struct twheel_classic_bounded *c,
					      unsigned int lvl)
{
	struct twheel_engine *e = &c->e;
	unsigned long clk = e->clk, s = (clk >> tw_classic_bounded_shift(lvl)) + 1;
	unsigned int slot = s & (TW_BOUNDED_LN_SLOTS - 1);
	unsigned int idx = tw_classic_bounded_offset(lvl) + slot;
	unsigned int r = tw_classic_bounded_count_of(c, idx), m, i;
	struct twheel_timer *t;
	u64 t0;

	if (!r || tw_classic_bounded_due(c, lvl, s, r, clk))
		return 0;
	t0 = tw_cascade_begin(e);
	m = DIV_ROUND_UP(r, tw_classic_bounded_window_end(lvl, s) - clk + 1);
	for (i = 0; i < m; i++) {
		t = list_first_entry(c->vec + idx, struct twheel_timer, list);
		tw_classic_bounded_unlink(c, t);
		tw_classic_bounded_link(c, t, tw_classic_bounded_index(t->expires, clk));
	}
	tw_cascade_end(e, t0, lvl, slot, m);
	return m;
}

/* Every level's due spreading at jiffy clk, the top first. */
static bool tw_classic_bounded_spreads(struct twheel_classic_bounded *c)
{
	unsigned int lvl;
	bool work = false;

	for (lvl = TW_CLASSIC_LEVELS - 1; lvl >= 1; lvl--)
		work |= tw_classic_bounded_spread(c, lvl) > 0;
	return work;
}

/*
 * Jiffy clk: spread, then collect level 0's slot; then the jiffy from
 * which the fast path must come back here. True if it collected. With
 * @count, a jiffy that had any work counts in st.events (the fast path's
 * one-jiffy advance; twheel_ops_advance() counts its own).
 */
static bool tw_classic_bounded_process_clk(struct twheel_classic_bounded *c,
					   bool count)
{
	struct twheel_engine *e = &c->e;
	unsigned long clk = e->clk, lap_end = (clk | (TW_TVR_SIZE - 1)) + 1;
	unsigned int idx = clk & (TW_BOUNDED_L0_SLOTS - 1);
	u64 t0 = tw_cascades_begin(e);
	bool spread, collected;

	spread = tw_classic_bounded_spreads(c);
	if (spread)
		tw_cascades_end(e, t0);
	c->spread_at = clk + 1 + tw_classic_bounded_spread_next(c, clk + 1,
							  lap_end - clk - 1, false);
	collected = test_bit(idx, c->pending_map);
	if (collected)
		tw_classic_bounded_collect_slot(c, idx);
	return tw_cw_jiffy_done(e, count, spread, collected);
}

static bool tw_classic_bounded_process(struct twheel_engine *e)
{
	return tw_classic_bounded_process_clk(to_bounded(e), false);
}

/**
 * twheel_classic_bounded_tick() - the bounded classic wheel's jiffy with work
 * @c: the wheel
 *
 * The out-of-line part of a one-jiffy twheel_advance(): processes the jiffy
 * @c->e.clk (the spreading due, then its level-0 slot) and counts st.events
 * if it had work. Leaves the clock alone.
 *
 * Return: true if it collected any timer.
 */
bool twheel_classic_bounded_tick(struct twheel_classic_bounded *c)
{
	return tw_classic_bounded_process_clk(c, true);
}
EXPORT_SYMBOL_GPL(twheel_classic_bounded_tick);

static unsigned long tw_classic_bounded_next_event(const struct twheel_engine *e,
						   unsigned long limit)
{
	const struct twheel_classic_bounded *c = to_bounded(e);
	unsigned long d;

	d = tw_level_next(c->pending_map, TW_TVR_BITS + 1, 0, e->clk);
	return tw_classic_bounded_spread_next(c, e->clk, min(limit, d), true);
}

static unsigned int tw_classic_bounded_bucket_of(const struct twheel_engine *e,
						 unsigned long expires)
{
	return tw_classic_bounded_index(expires, e->clk);
}

static void tw_classic_bounded_enqueue(struct twheel_engine *e, struct twheel_timer *t)
{
	tw_classic_bounded_link(to_bounded(e), t, tw_classic_bounded_index(t->expires, e->clk));
}

static void tw_classic_bounded_dequeue(struct twheel_engine *e, struct twheel_timer *t)
{
	tw_classic_bounded_unlink(to_bounded(e), t);
}

static bool tw_classic_bounded_in_bucket(const struct twheel_engine *e,
					 const struct twheel_timer *t, unsigned int idx)
{
	return tw_classic_bounded_in_slot(to_bounded(e), t, idx);
}

static struct twheel_timer *tw_classic_bounded_ops_pop(struct twheel_engine *e)
{
	return tw_cw_ops_pop(&to_bounded(e)->collected);
}

static unsigned long tw_classic_bounded_count(const struct twheel_engine *e,
					      unsigned long *per_level)
{
	const struct twheel_classic_bounded *c = to_bounded(e);

	return tw_cw_count(e, c->vec, TW_BOUNDED_BUCKETS, &c->collected, per_level);
}

/* twheel_ops.level_of: two laps a level, level 0 first. */
static unsigned int tw_classic_bounded_level_of(const struct twheel_engine *e,
						unsigned int bucket)
{
	if (bucket < TW_BOUNDED_L0_SLOTS)
		return 0;
	return 1 + (bucket - TW_BOUNDED_L0_SLOTS) / TW_BOUNDED_LN_SLOTS;
}

static unsigned int tw_classic_bounded_buckets(const struct twheel_engine *e,
					       unsigned int *per, unsigned int n)
{
	return tw_count_lists(tw_classic_bounded_of((struct twheel_engine *)e)->vec,
			      TW_BOUNDED_BUCKETS, per);
}

static unsigned int tw_classic_bounded_nr_buckets(const struct twheel_engine *e)
{
	return TW_BOUNDED_BUCKETS;
}

/* twheel_ops.init */
static int tw_classic_bounded_create(void *state, unsigned long clk,
				     const struct twheel_config *cfg, void *storage)
{
	twheel_classic_bounded_init(state, clk);
	return 0;
}

/* The bounded classic wheel's ops: twheel_classic_bounded_init(). */
const struct twheel_ops twheel_classic_bounded_ops = {
	.name		= "classic_bounded",
	.kind		= TWHEEL_CLASSIC_BOUNDED,
	TW_CW_OPS,
	.enqueue	= tw_classic_bounded_enqueue,
	.dequeue	= tw_classic_bounded_dequeue,
	.bucket_of	= tw_classic_bounded_bucket_of,
	.in_bucket	= tw_classic_bounded_in_bucket,
	.process	= tw_classic_bounded_process,
	.next_event	= tw_classic_bounded_next_event,
	.pop		= tw_classic_bounded_ops_pop,
	.count		= tw_classic_bounded_count,
	.guarantee	= "exact, no clamp: up to LONG_MAX ahead",
	.size		= sizeof(struct twheel_classic_bounded),
	.offset		= offsetof(struct twheel_classic_bounded, e),
	.init		= tw_classic_bounded_create,
	.entry		= TWHEEL_FAST_ENTRY(classic_bounded),
	.level_of	= tw_classic_bounded_level_of,
	.buckets	= tw_classic_bounded_buckets,
	.nr_buckets	= tw_classic_bounded_nr_buckets,
};
EXPORT_SYMBOL_GPL(twheel_classic_bounded_ops);

/**
 * twheel_classic_bounded_init() - set up an empty bounded classic wheel
 * @c: the wheel; the caller's storage (about 18 KiB on 64-bit)
 * @clk: the first jiffy it is to process
 *
 * Every slot and the collected list start empty, every counter of
 * @c->e.st at 0, @c->e.clock_ns NULL (not measured), @c->e.cascade_ns 0
 * and @c->chunk TW_BOUNDED_CHUNK (a test may lower it before the first
 * timer is armed). Nothing is allocated, so there is nothing to tear
 * down; initialising it again drops the timers it held without marking
 * them not pending.
 */
void twheel_classic_bounded_init(struct twheel_classic_bounded *c,
				 unsigned long clk)
{
	tw_engine_init(&c->e, &twheel_classic_bounded_ops, clk, TW_CLASSIC_LEVELS);
	tw_cw_init_slots(c->vec, c->pending_map, TW_BOUNDED_BUCKETS,
			 &c->collected);
	c->spread_at = clk;
	c->chunk = TW_BOUNDED_CHUNK;
	memset(c->nr, 0, sizeof(c->nr));
}
EXPORT_SYMBOL_GPL(twheel_classic_bounded_init);

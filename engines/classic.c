// SPDX-License-Identifier: GPL-2.0
/*
 * The classic (Linux 2.6) cascading wheel: tv1 of 256 one-jiffy slots,
 * tv2..tv5 of 64 slots each, exact expiry, a tvN slot re-filed (cascaded)
 * when the level below it wraps. See struct twheel_classic.
 */
#include <linux/kernel.h>
#include <linux/bitmap.h>
#include <linux/jiffies.h>
#include <linux/export.h>
#include <linux/errno.h>
#include "engines/common.h"
#include "engines/classic.h"

static struct twheel_classic *to_classic(const struct twheel_engine *e)
{
	return container_of(e, struct twheel_classic, e);
}

/* Shift of classic level lvl (0 = tv1 .. 4 = tv5). */
static unsigned int tw_classic_shift(unsigned int lvl)
{
	return lvl ? TW_TVR_BITS + (lvl - 1) * TW_TVN_BITS : 0;
}

static unsigned int tw_classic_offset(unsigned int lvl)
{
	return lvl ? TW_TVR_SIZE + (lvl - 1) * TW_TVN_SIZE : 0;
}

static unsigned int tw_classic_bucket_of(const struct twheel_engine *e,
					 unsigned long expires)
{
	return tw_classic_index(expires, e->clk);
}

static void tw_classic_enqueue(struct twheel_engine *e, struct twheel_timer *t)
{
	struct twheel_classic *c = to_classic(e);

	tw_classic_link(c, t, tw_classic_index(t->expires, e->clk));
}

static void tw_classic_dequeue(struct twheel_engine *e, struct twheel_timer *t)
{
	tw_classic_unlink(to_classic(e), t);
}

static bool tw_classic_in_bucket(const struct twheel_engine *e,
				 const struct twheel_timer *t, unsigned int idx)
{
	return tw_classic_in_slot(to_classic(e), t, idx);
}

/*
 * Re-files every timer of one tvN slot against the current clock; false if
 * the slot was empty.
 */
static bool tw_classic_cascade(struct twheel_classic *c, unsigned int lvl)
{
	struct twheel_engine *e = &c->e;
	unsigned int slot = (e->clk >> tw_classic_shift(lvl)) & (TW_TVN_SIZE - 1);
	unsigned int idx = tw_classic_offset(lvl) + slot;
	struct twheel_timer *t, *tmp;
	LIST_HEAD(moving);
	unsigned int n = 0;
	u64 t0;

	if (!__test_and_clear_bit(idx, c->pending_map))
		return false;
	t0 = tw_cascade_begin(e);
	list_replace_init(c->vec + idx, &moving);
	list_for_each_entry_safe(t, tmp, &moving, list) {
		tw_classic_link(c, t, tw_classic_index(t->expires, e->clk));
		n++;
	}
	tw_cascade_end(e, t0, lvl, slot, n);
	return true;
}

/*
 * tv1 wrapped: cascade tv2's slot; a level further up only when the level
 * below it wrapped too. True if a slot was cascaded.
 */
static bool tw_classic_cascades(struct twheel_classic *c)
{
	unsigned int lvl;
	bool work = false;

	for (lvl = 1; lvl < TW_CLASSIC_LEVELS; lvl++) {
		if (c->e.clk & ((1UL << tw_classic_shift(lvl)) - 1))
			break;
		work |= tw_classic_cascade(c, lvl);
	}
	return work;
}

/*
 * Jiffy clk: cascade, then collect tv1's slot. True if it collected. With
 * @count, a jiffy that had any work counts in st.events (the fast path's
 * one-jiffy advance; twheel_ops_advance() counts its own).
 */
static bool tw_classic_process_clk(struct twheel_classic *c, bool count)
{
	struct twheel_engine *e = &c->e;
	unsigned int idx = e->clk & (TW_TVR_SIZE - 1);
	bool cascaded = false, collected;

	if (!idx) {
		u64 t0 = tw_cascades_begin(e);

		cascaded = tw_classic_cascades(c);
		tw_cascades_end(e, t0);
	}
	collected = test_bit(idx, c->pending_map);
	if (collected)
		tw_classic_collect_slot(c, idx);
	return tw_cw_jiffy_done(e, count, cascaded, collected);
}

static bool tw_classic_process(struct twheel_engine *e)
{
	return tw_classic_process_clk(to_classic(e), false);
}

/**
 * twheel_classic_tick() - the classic wheel's jiffy with work
 * @c: the wheel
 *
 * The out-of-line part of a one-jiffy twheel_advance(): processes the jiffy
 * @c->e.clk (cascades, then collects its tv1 slot) and counts st.events if
 * it had work. Leaves the clock alone.
 *
 * Return: true if it collected any timer.
 */
bool twheel_classic_tick(struct twheel_classic *c)
{
	return tw_classic_process_clk(c, true);
}
EXPORT_SYMBOL_GPL(twheel_classic_tick);

static unsigned long tw_classic_next_event(const struct twheel_engine *e,
					   unsigned long limit)
{
	const struct twheel_classic *c = to_classic(e);
	unsigned long best = limit, d;
	unsigned int lvl, shift, bits;

	for (lvl = 0; lvl < TW_CLASSIC_LEVELS; lvl++) {
		shift = tw_classic_shift(lvl);
		/*
		 * A bounded look-up, as Ratas' ticks_until_next_event(max):
		 * level lvl has no work before clk next reaches a multiple of
		 * its granularity, and every higher level's first point is
		 * later still; once that point is at or past the best answer
		 * so far (at first the caller's limit), no level can beat it.
		 */
		if (tw_level_first(shift, e->clk) >= best)
			break;
		bits = lvl ? TW_TVN_BITS : TW_TVR_BITS;
		d = tw_level_next(c->pending_map + BIT_WORD(tw_classic_offset(lvl)),
				  bits, shift, e->clk);
		best = min(best, d);
	}
	return best;
}

static struct twheel_timer *tw_classic_ops_pop(struct twheel_engine *e)
{
	return tw_cw_ops_pop(&to_classic(e)->collected);
}

static unsigned long tw_classic_count(const struct twheel_engine *e,
				      unsigned long *per_level)
{
	const struct twheel_classic *c = to_classic(e);

	return tw_cw_count(e, c->vec, TW_CLASSIC_BUCKETS, &c->collected, per_level);
}

/* twheel_ops.level_of: tv1 is level 0, tv2 to tv5 levels 1 to 4. */
static unsigned int tw_classic_level_of(const struct twheel_engine *e,
					unsigned int bucket)
{
	if (bucket < TW_TVR_SIZE)
		return 0;
	return 1 + (bucket - TW_TVR_SIZE) / TW_TVN_SIZE;
}

static unsigned int tw_classic_buckets(const struct twheel_engine *e,
				       unsigned int *per, unsigned int n)
{
	return tw_count_lists(container_of(e, struct twheel_classic, e)->vec,
			      TW_CLASSIC_BUCKETS, per);
}

static unsigned int tw_classic_nr_buckets(const struct twheel_engine *e)
{
	return TW_CLASSIC_BUCKETS;
}

/* twheel_ops.init */
static int tw_classic_create(void *state, unsigned long clk,
			     const struct twheel_config *cfg, void *storage)
{
	twheel_classic_init(state, clk);
	return 0;
}

/* The classic wheel's ops: struct twheel_classic, twheel_classic_init(). */
const struct twheel_ops twheel_classic_ops = {
	.name		= "classic",
	.kind		= TWHEEL_CLASSIC,
	TW_CW_OPS,
	.enqueue	= tw_classic_enqueue,
	.dequeue	= tw_classic_dequeue,
	.bucket_of	= tw_classic_bucket_of,
	.in_bucket	= tw_classic_in_bucket,
	.process	= tw_classic_process,
	.next_event	= tw_classic_next_event,
	.pop		= tw_classic_ops_pop,
	.count		= tw_classic_count,
	.guarantee	= "exact",
	.size		= sizeof(struct twheel_classic),
	.offset		= offsetof(struct twheel_classic, e),
	.init		= tw_classic_create,
	.entry		= TWHEEL_FAST_ENTRY(classic),
	.level_of	= tw_classic_level_of,
	.buckets	= tw_classic_buckets,
	.nr_buckets	= tw_classic_nr_buckets,
};
EXPORT_SYMBOL_GPL(twheel_classic_ops);

/**
 * twheel_classic_init() - set up an empty classic wheel
 * @c: the wheel; the caller's storage (about 8 KiB on 64-bit)
 * @clk: the first jiffy it is to process
 *
 * Every slot and the collected list start empty, every counter of
 * @c->e.st at 0, @c->e.clock_ns NULL (not measured) and
 * @c->e.cascade_ns 0. Nothing is allocated, so there is nothing to tear
 * down; initialising it again drops the timers it held without marking
 * them not pending.
 */
void twheel_classic_init(struct twheel_classic *c, unsigned long clk)
{
	tw_engine_init(&c->e, &twheel_classic_ops, clk, TW_CLASSIC_LEVELS);
	tw_cw_init_slots(c->vec, c->pending_map, TW_CLASSIC_BUCKETS,
			 &c->collected);
}
EXPORT_SYMBOL_GPL(twheel_classic_init);

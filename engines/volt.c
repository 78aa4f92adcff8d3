// SPDX-License-Identifier: GPL-2.0
/*
 * The volt engine: seed 003's wheel, 64-slot levels chosen by the highest
 * bit of clk ^ expires, a u64 occupancy word per level, slots re-filed when
 * they come due, an overflow list, lazy cancel. See struct twheel_volt and
 * engines/volt.h for its guarantee and costs.
 */
#include <linux/kernel.h>
#include <linux/bitops.h>
#include <linux/jiffies.h>
#include <linux/export.h>
#include <linux/errno.h>
#include "engines/common.h"
#include "engines/volt.h"

static struct twheel_volt *to_volt(const struct twheel_engine *e)
{
	return container_of(e, struct twheel_volt, e);
}

static void tw_volt_setup(struct twheel_timer *t)
{
	t->volt_link.next = NULL;
	t->volt_link.prev = NULL;
	t->volt_slot = TW_VOLT_IDLE;
	t->volt_cancelled = false;
}

static bool tw_volt_ops_pending(const struct twheel_timer *t)
{
	return tw_volt_pending(t);
}

static unsigned int tw_volt_bucket_of(const struct twheel_engine *e,
				      unsigned long expires)
{
	return tw_volt_index(expires, e->clk);
}

/* The 2^30 boundary at which expires fits in the wheel. */
static unsigned long tw_volt_fits_at(unsigned long expires)
{
	return expires & ~((1UL << TW_VOLT_SPAN_BITS) - 1);
}

/**
 * twheel_volt_overflow() - put a timer on the overflow list
 * @v: the engine
 * @t: the timer, not linked, its expiry beyond the top level
 *
 * The out-of-line part of an arm: the list's walk moves earlier if @t fits
 * in the wheel before every timer already there.
 */
void twheel_volt_overflow(struct twheel_volt *v, struct twheel_timer *t)
{
	unsigned long at = tw_volt_fits_at(t->expires);

	if (list_empty(&v->overflow) || time_before(at, v->overflow_next))
		v->overflow_next = at;
	list_add_tail(&t->volt_link, &v->overflow);
	t->volt_slot = TW_VOLT_OVERFLOW;
}
EXPORT_SYMBOL_GPL(twheel_volt_overflow);

static void tw_volt_link(struct twheel_volt *v, struct twheel_timer *t,
			 unsigned int idx)
{
	if (idx < TW_VOLT_BUCKETS)
		tw_volt_link_slot(v, t, idx);
	else
		twheel_volt_overflow(v, t);
}

static void tw_volt_enqueue(struct twheel_engine *e, struct twheel_timer *t)
{
	tw_volt_file(to_volt(e), t, tw_volt_index(t->expires, e->clk));
}

/* A pending t re-filed by a mod: unlinked at once. */
static void tw_volt_dequeue(struct twheel_engine *e, struct twheel_timer *t)
{
	tw_volt_unlink(to_volt(e), t);
}

/* twheel_del(): the lazy cancel, a flag; the timer stays where it is. */
static void tw_volt_cancel(struct twheel_engine *e, struct twheel_timer *t)
{
	t->volt_cancelled = true;
	if (++e->st.lazy_held > e->st.lazy_held_max)
		e->st.lazy_held_max = e->st.lazy_held;
}

/* twheel_detach(): a cancelled timer still linked is let go of at once. */
static void tw_volt_reclaim(struct twheel_engine *e, struct twheel_timer *t)
{
	struct twheel_volt *v = to_volt(e);

	if (!t->volt_link.next)
		return;
	tw_volt_unlink(v, t);
	tw_volt_reclaimed(v, t);
}

/*
 * Collected timers say TW_VOLT_COLLECTED: never in a bucket. Nor is the
 * overflow list one: a new expiry there is re-linked, which keeps the
 * list's next walk in time for it.
 */
static bool tw_volt_in_bucket(const struct twheel_engine *e,
			      const struct twheel_timer *t, unsigned int idx)
{
	return t->volt_slot == idx && idx < TW_VOLT_BUCKETS;
}

/*
 * Files every timer of a list again against the clock (a slot come due,
 * or the overflow list): cancelled ones are reclaimed instead; level 0
 * (refile false) collects. Returns how many were filed again.
 */
static unsigned int tw_volt_sweep(struct twheel_volt *v, struct list_head *head,
				  bool refile)
{
	struct twheel_timer *t, *tmp;
	unsigned int moved = 0;
	LIST_HEAD(list);

	list_replace_init(head, &list);
	list_for_each_entry_safe(t, tmp, &list, volt_link) {
		if (t->volt_cancelled) {
			tw_volt_reclaimed(v, t);
		} else if (refile) {
			tw_volt_link(v, t, tw_volt_index(t->expires, v->e.clk));
			moved++;
		} else {
			list_add_tail(&t->volt_link, &v->collected);
			t->volt_slot = TW_VOLT_COLLECTED;
		}
	}
	return moved;
}

/* Re-files level lvl's slot of the clock (or, lvl TW_VOLT_LEVELS, the overflow list). */
static void tw_volt_refile(struct twheel_volt *v, unsigned int lvl)
{
	struct twheel_engine *e = &v->e;
	unsigned int slot = (e->clk >> (lvl * TW_VOLT_BITS)) & (TW_VOLT_SIZE - 1);
	struct list_head *head;
	unsigned int moved;
	u64 t0;

	if (lvl == TW_VOLT_LEVELS) {
		head = &v->overflow;
		slot = 0;
	} else {
		head = &v->slots[lvl * TW_VOLT_SIZE + slot];
		v->occupied[lvl] &= ~BIT_ULL(slot);
	}
	if (list_empty(head))
		return;
	t0 = tw_cascade_begin(e);
	moved = tw_volt_sweep(v, head, true);
	tw_cascade_end(e, t0, lvl, slot, moved);
}

/*
 * The jiffy at the clock: from the top down, the overflow list if this is
 * its walk, every level whose slot comes due (its low 6n bits are 0), then
 * level 0's slot is collected. A timer re-filed lands in a lower level,
 * possibly in a slot due this very jiffy, which is processed after it.
 * The overflow list is emptied before its walk, so the timers that go back
 * to it set its next walk afresh.
 */
static bool tw_volt_process(struct twheel_engine *e)
{
	struct twheel_volt *v = to_volt(e);
	unsigned long clk = e->clk;
	unsigned int idx = clk & (TW_VOLT_SIZE - 1), lvl;
	const struct list_head *tail = v->collected.prev;
	u64 t0;

	if (!idx) {
		t0 = tw_cascades_begin(e);
		lvl = clk ? __ffs(clk) / TW_VOLT_BITS : TW_VOLT_LEVELS;
		lvl = min(lvl, TW_VOLT_LEVELS);
		if (lvl == TW_VOLT_LEVELS && clk == v->overflow_next)
			tw_volt_refile(v, lvl);
		for (lvl = min(lvl, TW_VOLT_LEVELS - 1); lvl >= 1; lvl--)
			tw_volt_refile(v, lvl);
		tw_cascades_end(e, t0);
	}
	v->occupied[0] &= ~BIT_ULL(idx);
	tw_volt_sweep(v, &v->slots[idx], false);
	return v->collected.prev != tail;
}

/**
 * twheel_volt_tick() - the volt engine's jiffy with work
 * @v: the engine
 *
 * The out-of-line part of a one-jiffy twheel_advance(): processes the
 * jiffy @v->e.clk (the overflow list's walk, re-filings, its level-0 slot)
 * and counts st.events if there was anything to do. Leaves the clock
 * alone.
 *
 * Return: true if it collected any timer.
 */
bool twheel_volt_tick(struct twheel_volt *v)
{
	u64 cascades = v->e.st.cascades, held = v->e.st.lazy_held;
	bool collected = tw_volt_process(&v->e);

	if (collected || v->e.st.cascades != cascades || v->e.st.lazy_held != held)
		v->e.st.events++;
	return collected;
}
EXPORT_SYMBOL_GPL(twheel_volt_tick);

/*
 * Jiffies from clk to the next point at which a level of 64 slots of
 * 2^shift jiffies has an occupied slot, or ULONG_MAX: the word turned so
 * that bit 0 is the first point's slot, then one __ffs.
 */
static unsigned long tw_volt_level_next(u64 word, unsigned int shift,
					unsigned long clk)
{
	unsigned long lvl_clk = clk >> shift;

	if (!word)
		return ULONG_MAX;
	if (clk & ((1UL << shift) - 1))
		lvl_clk++;
	word = ror64(word, lvl_clk & (TW_VOLT_SIZE - 1));
	return ((lvl_clk + __ffs64(word)) << shift) - clk;
}

/*
 * O(levels): an __ffs per level, and the overflow list's walk. A
 * level whose first point is at or past the best answer so far cannot
 * beat it, nor can any above it. Slots holding only cancelled timers are
 * work too: they are reclaimed there.
 */
static unsigned long tw_volt_next_event(const struct twheel_engine *e,
					unsigned long limit)
{
	const struct twheel_volt *v = to_volt(e);
	unsigned long best = limit;
	unsigned int lvl;

	for (lvl = 0; lvl < TW_VOLT_LEVELS; lvl++) {
		if (tw_level_first(lvl * TW_VOLT_BITS, e->clk) >= best)
			return best;
		best = min(best, tw_volt_level_next(v->occupied[lvl],
						    lvl * TW_VOLT_BITS, e->clk));
	}
	if (!list_empty(&v->overflow))
		best = min(best, v->overflow_next - e->clk);
	return best;
}

static struct twheel_timer *tw_volt_ops_pop(struct twheel_engine *e)
{
	return tw_volt_take(to_volt(e));
}

/* Live timers of a list, counted into *n. */
static unsigned long tw_volt_live(const struct list_head *head)
{
	const struct twheel_timer *t;
	unsigned long n = 0;

	list_for_each_entry(t, head, volt_link)
		n += !t->volt_cancelled;
	return n;
}

/* The overflow list counts as level TW_VOLT_LEVELS. */
static unsigned long tw_volt_count(const struct twheel_engine *e,
				   unsigned long *per_level)
{
	const struct twheel_volt *v = to_volt(e);
	unsigned int i;

	for (i = 0; i < TW_VOLT_BUCKETS; i++)
		per_level[i / TW_VOLT_SIZE] += tw_volt_live(&v->slots[i]);
	per_level[TW_VOLT_LEVELS] += tw_volt_live(&v->overflow);
	return tw_volt_live(&v->collected);
}

/* Reclaims the cancelled timers of a list, leaving the others. */
static void tw_volt_purge_list(struct twheel_volt *v, struct list_head *head)
{
	struct twheel_timer *t, *tmp;

	list_for_each_entry_safe(t, tmp, head, volt_link) {
		if (t->volt_cancelled) {
			tw_volt_unlink(v, t);
			tw_volt_reclaimed(v, t);
		}
	}
}

static void tw_volt_purge(struct twheel_engine *e)
{
	struct twheel_volt *v = to_volt(e);
	unsigned int i;

	for (i = 0; i < TW_VOLT_BUCKETS; i++)
		tw_volt_purge_list(v, &v->slots[i]);
	tw_volt_purge_list(v, &v->overflow);
	tw_volt_purge_list(v, &v->collected);
}

/* twheel_ops.level_of: TW_VOLT_SIZE slots a level, the overflow list last. */
static unsigned int tw_volt_level_of(const struct twheel_engine *e,
				     unsigned int bucket)
{
	return bucket / TW_VOLT_SIZE;
}

/* Live timers only; the overflow list is the bucket after the slots. */
static unsigned int tw_volt_buckets(const struct twheel_engine *e,
				    unsigned int *per, unsigned int n)
{
	const struct twheel_volt *v = container_of(e, struct twheel_volt, e);
	const struct twheel_timer *t;
	unsigned int i;

	for (i = 0; i <= TW_VOLT_BUCKETS; i++) {
		const struct list_head *h = i < TW_VOLT_BUCKETS ?
					    &v->slots[i] : &v->overflow;

		list_for_each_entry(t, h, volt_link)
			per[i] += !t->volt_cancelled;
	}
	return TW_VOLT_BUCKETS + 1;
}

static unsigned int tw_volt_nr_buckets(const struct twheel_engine *e)
{
	return TW_VOLT_BUCKETS + 1;
}

/* twheel_ops.init */
static int tw_volt_create(void *state, unsigned long clk,
			  const struct twheel_config *cfg, void *storage)
{
	twheel_volt_init(state, clk);
	return 0;
}

/* The volt engine's ops: struct twheel_volt, twheel_volt_init(). */
const struct twheel_ops twheel_volt_ops = {
	.name		= "volt",
	.kind		= TWHEEL_VOLT,
	.setup		= tw_volt_setup,
	.pending	= tw_volt_ops_pending,
	.enqueue	= tw_volt_enqueue,
	.dequeue	= tw_volt_dequeue,
	.cancel		= tw_volt_cancel,
	.bucket_of	= tw_volt_bucket_of,
	.in_bucket	= tw_volt_in_bucket,
	.process	= tw_volt_process,
	.next_event	= tw_volt_next_event,
	.pop		= tw_volt_ops_pop,
	.count		= tw_volt_count,
	.purge		= tw_volt_purge,
	.reclaim	= tw_volt_reclaim,
	.guarantee	= "exact, no clamp: up to LONG_MAX ahead",
	.size		= sizeof(struct twheel_volt),
	.offset		= offsetof(struct twheel_volt, e),
	.init		= tw_volt_create,
	.entry		= TWHEEL_FAST_ENTRY(volt),
	.level_of	= tw_volt_level_of,
	.buckets	= tw_volt_buckets,
	.nr_buckets	= tw_volt_nr_buckets,
};
EXPORT_SYMBOL_GPL(twheel_volt_ops);

/**
 * twheel_volt_init() - set up an empty volt engine
 * @v: the engine; the caller's storage (about 5 KiB on 64-bit)
 * @clk: the first jiffy it is to process
 *
 * Every slot and list empty, every counter at 0, @v->e.clock_ns NULL;
 * its levels are TW_VOLT_LEVELS and the overflow list (counted as one
 * more level). Nothing is allocated; initialising it again drops the
 * timers it held, cancelled ones included, without marking them.
 */
void twheel_volt_init(struct twheel_volt *v, unsigned long clk)
{
	unsigned int i;

	tw_engine_init(&v->e, &twheel_volt_ops, clk, TW_VOLT_LEVELS + 1);
	INIT_LIST_HEAD(&v->collected);
	INIT_LIST_HEAD(&v->overflow);
	v->overflow_next = 0;
	memset(v->occupied, 0, sizeof(v->occupied));
	for (i = 0; i < TW_VOLT_BUCKETS; i++)
		INIT_LIST_HEAD(&v->slots[i]);
}
EXPORT_SYMBOL_GPL(twheel_volt_init);

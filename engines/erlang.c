// SPDX-License-Identifier: GPL-2.0
/*
 * The erlang engine: Erlang/OTP's soon wheel of one-jiffy slots, its later
 * wheel of 2^13-jiffy slots moved once into the soon wheel, its at-once
 * list and its slot range counters. See struct twheel_erlang and
 * engines/erlang.h for its guarantee and costs.
 */
#include <linux/kernel.h>
#include <linux/bitmap.h>
#include <linux/jiffies.h>
#include <linux/export.h>
#include <linux/errno.h>
#include "engines/common.h"
#include "engines/erlang.h"

static struct twheel_erlang *to_erlang(const struct twheel_engine *e)
{
	return container_of(e, struct twheel_erlang, e);
}

/* Pending while linked: @entry.pprev and @list.prev are one word. */
static bool tw_erlang_pending(const struct twheel_timer *t)
{
	return t->entry.pprev;
}

static void tw_erlang_setup(struct twheel_timer *t)
{
	t->entry.next = NULL;
	t->entry.pprev = NULL;
	t->bucket = TWHEEL_COLLECTED;
}

/* One more timer in bucket idx's range. */
static void tw_erlang_count_in(struct twheel_erlang *er, unsigned int idx)
{
	unsigned int r = idx >> TW_ERLANG_RANGE_BITS;

	if (!er->scnt[r]++)
		__set_bit(r, er->ranges);
}

/* One less. */
static void tw_erlang_count_out(struct twheel_erlang *er, unsigned int idx)
{
	unsigned int r = idx >> TW_ERLANG_RANGE_BITS;

	if (!--er->scnt[r])
		__clear_bit(r, er->ranges);
}

/* Files t, not pending, in bucket idx: a slot, or the at-once list. */
static void tw_erlang_link(struct twheel_erlang *er, struct twheel_timer *t,
			   unsigned int idx)
{
	t->bucket = idx;
	if (idx == TW_ERLANG_AT_ONCE) {
		list_add_tail(&t->list, &er->at_once);
		return;
	}
	hlist_add_head(&t->entry, &er->slots[idx]);
	tw_erlang_count_in(er, idx);
}

static unsigned int tw_erlang_bucket_of(const struct twheel_engine *e,
					unsigned long expires)
{
	return tw_erlang_index(expires, e->clk);
}

static void tw_erlang_enqueue(struct twheel_engine *e, struct twheel_timer *t)
{
	tw_erlang_link(to_erlang(e), t, tw_erlang_index(t->expires, e->clk));
}

/* Out of its slot, the at-once list or the collected list. */
static void tw_erlang_dequeue(struct twheel_engine *e, struct twheel_timer *t)
{
	if (t->bucket >= TW_ERLANG_AT_ONCE) {	/* at once, or collected */
		__list_del(t->list.prev, t->list.next);
		t->list.prev = NULL;
		return;
	}
	__hlist_del(&t->entry);
	t->entry.pprev = NULL;
	tw_erlang_count_out(to_erlang(e), t->bucket);
}

/*
 * A soon slot holds one expiry only, so a mod that stays in it keeps the
 * expiry (a no-op); a later slot holds a block of 2^13 jiffies (and its
 * revolutions), the at-once list every expiry before the clock. Collected
 * timers are in none.
 */
static bool tw_erlang_in_bucket(const struct twheel_engine *e,
				const struct twheel_timer *t, unsigned int idx)
{
	return t->bucket == idx;
}

static void tw_erlang_collect(struct twheel_erlang *er, struct list_head *to,
			      struct twheel_timer *t)
{
	list_add(&t->list, to);
	t->bucket = TWHEEL_COLLECTED;
}

/*
 * The clock is the first jiffy of a block (its low 13 bits are 0): the
 * later slot of the next block moves into the soon wheel. Its timers of
 * that block are 2^13 to 2^14 - 1 jiffies away, in the soon wheel's
 * window; those of a later revolution stay. Returns how many moved.
 */
static unsigned int tw_erlang_move(struct twheel_erlang *er)
{
	struct twheel_engine *e = &er->e;
	unsigned int slot = ((e->clk >> TW_ERLANG_LATER_SHIFT) + 1) &
			    (TW_ERLANG_LATER_SIZE - 1);
	unsigned int idx = TW_ERLANG_SOON_SIZE + slot, moved = 0;
	struct twheel_timer *t;
	struct hlist_node *n;
	u64 t0;

	if (hlist_empty(&er->slots[idx]))
		return 0;
	t0 = tw_cascade_begin(e);
	hlist_for_each_entry_safe(t, n, &er->slots[idx], entry) {
		if (t->expires - e->clk >= TW_ERLANG_SOON_SIZE)
			continue;	/* a later revolution: kept */
		__hlist_del(&t->entry);
		tw_erlang_count_out(er, idx);
		tw_erlang_link(er, t, t->expires & (TW_ERLANG_SOON_SIZE - 1));
		moved++;
	}
	if (!moved)
		return 0;
	tw_cascade_end(e, t0, 1, slot, moved);
	return moved;
}

/*
 * The jiffy at the clock: the at-once list, the later slot to move if the
 * clock starts a block, then the clock's soon slot, all of whose timers
 * expire now.
 */
static bool tw_erlang_process(struct twheel_engine *e)
{
	struct twheel_erlang *er = to_erlang(e);
	unsigned int idx = e->clk & (TW_ERLANG_SOON_SIZE - 1);
	const struct list_head *tail = er->collected.prev;
	struct twheel_timer *t;
	struct hlist_node *n;
	LIST_HEAD(due);
	u64 t0;

	list_for_each_entry(t, &er->at_once, list)
		t->bucket = TWHEEL_COLLECTED;
	list_splice_tail_init(&er->at_once, &er->collected);
	if (!(e->clk & (TW_ERLANG_LATER_GRAN - 1))) {
		t0 = tw_cascades_begin(e);
		tw_erlang_move(er);
		tw_cascades_end(e, t0);
	}
	/* newest first in the slot: each to the front, so oldest first */
	hlist_for_each_entry_safe(t, n, &er->slots[idx], entry) {
		tw_erlang_count_out(er, idx);
		tw_erlang_collect(er, &due, t);
	}
	INIT_HLIST_HEAD(&er->slots[idx]);
	list_splice_tail_init(&due, &er->collected);
	return er->collected.prev != tail;
}

/*
 * Slots from slot on, of the wheel whose buckets start at base, to the
 * first non-empty one, looking at most max slots ahead (wrapping at the
 * wheel's 2^14); max if none. A range whose counter is 0 is skipped whole.
 */
static unsigned long tw_erlang_scan(const struct twheel_erlang *er,
				    unsigned int base, unsigned int slot,
				    unsigned long max)
{
	unsigned long j = 0;
	unsigned int n;

	while (j < max) {
		n = TW_ERLANG_RANGE - (slot & (TW_ERLANG_RANGE - 1));
		if (!test_bit((base + slot) >> TW_ERLANG_RANGE_BITS, er->ranges)) {
			j += n;
			slot += n;
		} else {
			for (; n && j < max; n--, j++, slot++)
				if (!hlist_empty(&er->slots[base + slot]))
					return j;
		}
		slot &= TW_ERLANG_SOON_SIZE - 1;
	}
	return max;
}

/*
 * Exact: the at-once list is work now; the soon wheel's next non-empty
 * slot is the jiffy its timers expire; a non-empty later slot is work at
 * its move point, the first jiffy of the block before its own. Both
 * searches stop at the best answer so far.
 */
static unsigned long tw_erlang_next_event(const struct twheel_engine *e,
					  unsigned long limit)
{
	const struct twheel_erlang *er = to_erlang(e);
	unsigned long best = limit, d0, j, max;
	unsigned int slot;

	if (!list_empty(&er->at_once))
		return 0;
	max = min(best, TW_ERLANG_SOON_SIZE);
	j = tw_erlang_scan(er, 0, e->clk & (TW_ERLANG_SOON_SIZE - 1), max);
	if (j < max)
		best = j;
	/* move points: every 2^13-th jiffy, the first at d0 */
	d0 = tw_level_first(TW_ERLANG_LATER_SHIFT, e->clk);
	if (d0 >= best)
		return best;
	max = min((best - d0 - 1) / TW_ERLANG_LATER_GRAN + 1,
		  TW_ERLANG_LATER_SIZE);
	slot = (((e->clk + d0) >> TW_ERLANG_LATER_SHIFT) + 1) &
	       (TW_ERLANG_LATER_SIZE - 1);
	j = tw_erlang_scan(er, TW_ERLANG_SOON_SIZE, slot, max);
	if (j < max)
		best = d0 + j * TW_ERLANG_LATER_GRAN;
	return best;
}

static struct twheel_timer *tw_erlang_pop(struct twheel_engine *e)
{
	struct twheel_erlang *er = to_erlang(e);
	struct twheel_timer *t;

	if (list_empty(&er->collected))
		return NULL;
	t = list_first_entry(&er->collected, struct twheel_timer, list);
	__list_del(&er->collected, t->list.next);
	t->list.prev = NULL;
	return t;
}

/*
 * Soon slots in level 0, later slots in level 1. The at-once list has no
 * bucket, but its timers are armed, not collected: they are counted in
 * level 0, the level of the next jiffy, at which they run.
 */
static unsigned long tw_erlang_count(const struct twheel_engine *e,
				     unsigned long *per_level)
{
	const struct twheel_erlang *er = to_erlang(e);
	const struct twheel_timer *t;
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < TW_ERLANG_BUCKETS; i++)
		hlist_for_each_entry(t, &er->slots[i], entry)
			per_level[i >= TW_ERLANG_SOON_SIZE]++;
	list_for_each_entry(t, &er->at_once, list)
		per_level[0]++;
	list_for_each_entry(t, &er->collected, list)
		n++;
	return n;
}

/* twheel_ops.level_of: the soon wheel is level 0, the later wheel 1. */
static unsigned int tw_erlang_level_of(const struct twheel_engine *e,
				       unsigned int bucket)
{
	return bucket >= TW_ERLANG_SOON_SIZE;
}

static unsigned int tw_erlang_buckets(const struct twheel_engine *e,
				      unsigned int *per, unsigned int n)
{
	return tw_count_hlists(to_erlang(e)->slots, TW_ERLANG_BUCKETS, per);
}

static unsigned int tw_erlang_nr_buckets(const struct twheel_engine *e)
{
	return TW_ERLANG_BUCKETS;
}

/* twheel_ops.init */
static int tw_erlang_create(void *state, unsigned long clk,
			    const struct twheel_config *cfg, void *storage)
{
	twheel_erlang_init(state, clk);
	return 0;
}

/* The erlang engine's ops: struct twheel_erlang, twheel_erlang_init(). */
const struct twheel_ops twheel_erlang_ops = {
	.name		= "erlang",
	.kind		= TWHEEL_ERLANG,
	.guarantee	= "exact, no clamp: up to LONG_MAX ahead",
	.size		= sizeof(struct twheel_erlang),
	.offset		= offsetof(struct twheel_erlang, e),
	.init		= tw_erlang_create,
	.entry		= TWHEEL_GENERIC_ENTRY,
	.setup		= tw_erlang_setup,
	.pending	= tw_erlang_pending,
	.enqueue	= tw_erlang_enqueue,
	.dequeue	= tw_erlang_dequeue,
	.bucket_of	= tw_erlang_bucket_of,
	.in_bucket	= tw_erlang_in_bucket,
	.process	= tw_erlang_process,
	.next_event	= tw_erlang_next_event,
	.pop		= tw_erlang_pop,
	.count		= tw_erlang_count,
	.level_of	= tw_erlang_level_of,
	.buckets	= tw_erlang_buckets,
	.nr_buckets	= tw_erlang_nr_buckets,
};
EXPORT_SYMBOL_GPL(twheel_erlang_ops);

/**
 * twheel_erlang_init() - set up an empty erlang engine
 * @er: the engine; the caller's storage (about 256 KiB on 64-bit)
 * @clk: the first jiffy it is to process
 *
 * Every slot, counter and list empty, every counter of @er->e at 0,
 * @er->e.clock_ns NULL; two levels, the soon wheel and the later wheel.
 * Nothing is allocated, so there is nothing to tear down.
 */
void twheel_erlang_init(struct twheel_erlang *er, unsigned long clk)
{
	unsigned int i;

	/* tw_erlang_scan() wraps both wheels at one size */
	BUILD_BUG_ON(TW_ERLANG_SOON_SIZE != TW_ERLANG_LATER_SIZE);
	tw_engine_init(&er->e, &twheel_erlang_ops, clk, 2);
	INIT_LIST_HEAD(&er->collected);
	INIT_LIST_HEAD(&er->at_once);
	bitmap_zero(er->ranges, TW_ERLANG_RANGES);
	memset(er->scnt, 0, sizeof(er->scnt));
	for (i = 0; i < TW_ERLANG_BUCKETS; i++)
		INIT_HLIST_HEAD(&er->slots[i]);
}
EXPORT_SYMBOL_GPL(twheel_erlang_init);

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The classic wheel with a bounded cascade: its type and its fast paths,
 * inlined into twheel_add_as() and the others (engines/registry.h) and
 * behind twheel_add() out of line; the rest, the spreading, is in
 * engines/classic_bounded.c.
 *
 * The 2.6 wheel's levels and exact expiry, but no slot is cascaded whole
 * in one tick: each level holds two of its laps (the one the clock is in
 * and the next), and the slot of a level n >= 1 that the level below will
 * reach next is moved down ahead of time, a few timers a tick, over the
 * ticks before it is due (its window). A timer is filed by round: in the
 * lowest level whose current or next lap holds its expiry, so the slot
 * being spread never gains a timer, and each tick of a window moves
 * ceil(timers left / ticks left) of them: at most ceil(n / 256) per tick
 * for n timers in one tv2 slot, where the classic wheel moves all n at
 * once. Few timers wait: a slot is spread only from the tick at which
 * TW_BOUNDED_CHUNK timers a tick would no longer be enough, so a slot of
 * at most that many moves in one tick, the window's last, as in 2.6 (one
 * tick earlier), and a tick with nothing due costs a bit test.
 *
 * Guarantee: exact. A timer runs at the jiffy it asked for (one in the
 * past at the next jiffy processed), for every delta below 2^63 (no clamp:
 * one beyond the top level's two laps waits in its last slot and is filed
 * again when that slot is spread). Start and stop O(1); a tick O(1) plus
 * the timers it runs plus, per level, at most max(TW_BOUNDED_CHUNK,
 * ceil(s / window)) timers moved for a slot of s timers (windows of 256,
 * 16129, 2^20 - 2^14 + 1 and 2^26 - 2^20 + 1 ticks for tv2 to tv5).
 * Memory: the timer's 40 bytes; the wheel about 18 KiB (two laps a level,
 * and a count per slot of levels 1 to 4).
 */
#ifndef TWHEEL_ENGINES_CLASSIC_BOUNDED_H
#define TWHEEL_ENGINES_CLASSIC_BOUNDED_H

#include "twheel.h"
#include "engines/classic.h"

/* Level 0: two laps of tv1's 256 one-jiffy slots; levels 1-4: two of 64. */
#define TW_BOUNDED_L0_SLOTS	(2 * TW_TVR_SIZE)
#define TW_BOUNDED_LN_SLOTS	(2 * TW_TVN_SIZE)
#define TW_BOUNDED_UPPER	((TW_CLASSIC_LEVELS - 1) * TW_BOUNDED_LN_SLOTS)
#define TW_BOUNDED_BUCKETS	(TW_BOUNDED_L0_SLOTS + TW_BOUNDED_UPPER)
/* A spread starts when this many timers a tick would no longer do. */
#define TW_BOUNDED_CHUNK	64

/**
 * struct twheel_classic_bounded - the classic wheel, cascades spread ahead
 * @e: the engine
 * @collected: timers collected and not yet popped, in the order they fire
 * @spread_at: the fast path goes out of line from this jiffy on: no
 *	spreading is due before it (at the latest the next tv1 lap)
 * @chunk: a slot is spread from the tick at which this many timers a tick
 *	would no longer be enough (TW_BOUNDED_CHUNK)
 * @nr: timers in each slot of levels 1 to 4 (@vec from TW_BOUNDED_L0_SLOTS)
 * @pending_map: a bit per non-empty slot of @vec
 * @vec: the slots: level 0's TW_BOUNDED_L0_SLOTS (by expires mod 512),
 *	then levels 1 to 4's TW_BOUNDED_LN_SLOTS each; FIFO lists
 *
 * Set up by twheel_classic_bounded_init().
 */
struct twheel_classic_bounded {
	struct twheel_engine e;
	struct list_head collected;
	unsigned long spread_at;
	unsigned int chunk;
	unsigned int nr[TW_BOUNDED_UPPER];
	DECLARE_BITMAP(pending_map, TW_BOUNDED_BUCKETS);
	struct list_head vec[TW_BOUNDED_BUCKETS];
};

void twheel_classic_bounded_init(struct twheel_classic_bounded *c,
				 unsigned long clk);
bool twheel_classic_bounded_tick(struct twheel_classic_bounded *c);

static inline struct twheel_classic_bounded *
twheel_to_classic_bounded(struct twheel_engine *e)
{
	return container_of(e, struct twheel_classic_bounded, e);
}

/*
 * The slot a timer expiring at expires is filed in when the clock is clk:
 * the lowest level n whose current or next lap holds it, where level n's
 * lap is 2^(8 + 6n) jiffies (tv1's 256, tv2's 2^14, ...). A delta below
 * 2^f with f <= 8 + 6n always fits level n, one of 2^(8 + 6n + 1) or more
 * never does, so the delta's highest bit leaves one level to test.
 */
static __always_inline unsigned int tw_classic_bounded_index(unsigned long expires,
							     unsigned long clk)
{
	unsigned long delta = expires - clk;
	unsigned int f, lvl, lap;

	if ((long)delta < 0)		/* in the past: the jiffy about to run */
		return clk & (TW_BOUNDED_L0_SLOTS - 1);
	if ((clk & (TW_TVR_SIZE - 1)) + delta < 2 * TW_TVR_SIZE)
		return expires & (TW_BOUNDED_L0_SLOTS - 1);
	f = __fls(delta);
	lvl = (f - 3) / TW_TVN_BITS;	/* the lowest with lap shift >= f */
	lap = TW_TVR_BITS + lvl * TW_TVN_BITS;
	if (lap == f && ((clk & ((1UL << lap) - 1)) + delta) >> (lap + 1))
		lvl++;
	if (lvl >= TW_CLASSIC_LEVELS)	/* the top level's last slot */
		return TW_BOUNDED_BUCKETS - TW_BOUNDED_LN_SLOTS +
		       ((((clk >> 26) | (TW_TVN_SIZE - 1)) + TW_TVN_SIZE) &
			(TW_BOUNDED_LN_SLOTS - 1));
	return TW_BOUNDED_L0_SLOTS + (lvl - 1) * TW_BOUNDED_LN_SLOTS +
	       ((expires >> (lvl * TW_TVN_BITS + 2)) & (TW_BOUNDED_LN_SLOTS - 1));
}

/* Files t, not pending, in slot idx. */
static __always_inline void tw_classic_bounded_link(struct twheel_classic_bounded *c,
						    struct twheel_timer *t,
					    unsigned int idx)
{
	list_add_tail(&t->list, c->vec + idx);	/* FIFO within a slot */
	__set_bit(idx, c->pending_map);
	t->bucket = idx;
	if (idx >= TW_BOUNDED_L0_SLOTS)
		c->nr[idx - TW_BOUNDED_L0_SLOTS]++;
}

/*
 * Takes a pending t out of its slot or the collected list. Only level 0's
 * slots are collected, so a timer of a higher slot is in it and counted;
 * one of level 0 alone in its list clears the slot's bit unless that list
 * is the collected one (a collected timer keeps its slot's index).
 */
static __always_inline void tw_classic_bounded_unlink(struct twheel_classic_bounded *c,
						      struct twheel_timer *t)
{
	struct list_head *prev = t->list.prev, *next = t->list.next;
	unsigned int idx = t->bucket;

	__list_del(prev, next);
	t->list.next = NULL;
	if (idx >= TW_BOUNDED_L0_SLOTS) {
		if (!--c->nr[idx - TW_BOUNDED_L0_SLOTS])
			__clear_bit(idx, c->pending_map);
	} else if (prev == next && next != &c->collected) {
		__clear_bit(idx, c->pending_map);
	}
}

/* Hands level-0 slot idx, not empty, to the collected list: spliced. */
static __always_inline void
tw_classic_bounded_collect_slot(struct twheel_classic_bounded *c, unsigned int idx)
{
	__clear_bit(idx, c->pending_map);
	tw_cw_splice(c->vec + idx, &c->collected);
}

/*
 * The out-of-line tick from @spread_at on: a tv1 lap's start, or a jiffy
 * with spreading due.
 */
static __always_inline bool
tw_classic_bounded_slow(const struct twheel_classic_bounded *c, unsigned long clk,
			unsigned int idx)
{
	return (long)(clk - c->spread_at) >= 0;		/* time_after_eq() */
}

/* Whether t, pending, is filed in slot idx: see tw_classic_in_slot(). */
static __always_inline bool
tw_classic_bounded_in_slot(const struct twheel_classic_bounded *c,
			   const struct twheel_timer *t, unsigned int idx)
{
	return t->bucket == idx && list_empty(&c->collected);
}

/*
 * The classic wheel's operations on this wheel's slots. A mod that files
 * in the slot the timer is in leaves it there: never a slot being spread,
 * as nothing is filed in one.
 */
static __always_inline struct twheel_classic_bounded *
tw_classic_bounded_of(struct twheel_engine *e)
{
	return container_of(e, struct twheel_classic_bounded, e);
}

/* The fast paths: tw_classic_bounded_add(), _del(), _mod(), _pop(), _step(). */
TW_CLASSIC_WHEEL_OPS(tw_classic_bounded, TW_BOUNDED_L0_SLOTS, twheel_classic_bounded_tick)

#endif /* TWHEEL_ENGINES_CLASSIC_BOUNDED_H */

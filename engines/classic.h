/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The classic (Linux 2.6) cascading wheel: its type and its fast paths,
 * inlined into twheel_add_as() and the other kind-known operations
 * (engines/registry.h) and, out of line, behind twheel_add() and the
 * others (engines/classic.c's ops, TWHEEL_FAST_ENTRY()), so that arming, disarming and a tick
 * with nothing due cost one call at most.
 *
 * Guarantee: exact, at any delta. A timer runs at the jiffy it asked for
 * (one in the past at the next jiffy processed); one more than
 * TW_CLASSIC_MAX_DELTA ahead is filed as if it were that far (the top
 * level's farthest slot) and filed again at each cascade of that slot
 * until it is within reach: never early. Start and stop O(1); a tick O(1) plus the timers it runs,
 * except every 256th, which cascades one tv2..tv5 slot (O(timers in it)).
 * Memory: the timer's 40 bytes; the wheel about 8 KiB.
 */
#ifndef TWHEEL_ENGINES_CLASSIC_H
#define TWHEEL_ENGINES_CLASSIC_H

#include "twheel.h"
#include "engines/wheel.h"

/* Classic (Linux 2.6) wheel: tv1 of 256 slots, tv2..tv5 of 64. */
#define TW_TVR_BITS		8
#define TW_TVN_BITS		6
#define TW_TVR_SIZE		BIT(TW_TVR_BITS)
#define TW_TVN_SIZE		BIT(TW_TVN_BITS)
#define TW_CLASSIC_LEVELS	5
#define TW_CLASSIC_BUCKETS	(TW_TVR_SIZE + 4 * TW_TVN_SIZE)
/* Largest delta the classic wheel files; larger ones are clamped to it. */
#define TW_CLASSIC_MAX_DELTA	0xffffffffUL

/**
 * struct twheel_classic - the classic (Linux 2.6) cascading wheel
 * @e: the engine
 * @collected: timers collected and not yet popped, in the order they fire
 * @pending_map: a bit per non-empty slot of @vec
 * @vec: the slots: tv1's TW_TVR_SIZE, then tv2..tv5's TW_TVN_SIZE each;
 *	FIFO lists
 *
 * Set up by twheel_classic_init().
 */
struct twheel_classic {
	struct twheel_engine e;
	struct list_head collected;
	DECLARE_BITMAP(pending_map, TW_CLASSIC_BUCKETS);
	struct list_head vec[TW_CLASSIC_BUCKETS];
};

void twheel_classic_init(struct twheel_classic *c, unsigned long clk);
bool twheel_classic_tick(struct twheel_classic *c);

/*
 * The slot the 2.6 wheel files expires in when its clock is clk. Level n
 * (n >= 1) takes deltas of [2^(6n + 2), 2^(6n + 8)), so its number follows
 * from the delta's highest bit; no loop over the levels.
 */
static __always_inline unsigned int tw_classic_index(unsigned long expires,
						     unsigned long clk)
{
	unsigned int lvl, idx = tw_wheel_near_slot(expires, clk, TW_TVR_SIZE);
	unsigned long delta = expires - clk;

	if (idx < TW_TVR_SIZE)
		return idx;
	if (delta > TW_CLASSIC_MAX_DELTA) {
		expires = clk + TW_CLASSIC_MAX_DELTA;
		delta = TW_CLASSIC_MAX_DELTA;
	}
	lvl = (__fls(delta) - 2) / TW_TVN_BITS;
	return (TW_TVR_SIZE - TW_TVN_SIZE) + lvl * TW_TVN_SIZE +
	       ((expires >> (lvl * TW_TVN_BITS + 2)) & (TW_TVN_SIZE - 1));
}

/* Files t, not pending, in slot idx. */
static __always_inline void tw_classic_link(struct twheel_classic *c,
					    struct twheel_timer *t, unsigned int idx)
{
	list_add_tail(&t->list, c->vec + idx);	/* FIFO within a slot */
	__set_bit(idx, c->pending_map);
	t->bucket = idx;
}

/*
 * Takes a pending t out of its slot or the collected list. A timer whose
 * neighbours are one and the same node was alone in its list: if that list
 * is a slot (not the collected list), the slot's bit goes. t->bucket is
 * left as it is: it is the slot's index only while t is filed in it.
 */
static __always_inline void tw_classic_unlink(struct twheel_classic *c,
					      struct twheel_timer *t)
{
	struct list_head *prev = t->list.prev, *next = t->list.next;

	__list_del(prev, next);
	t->list.next = NULL;
	if (prev == next && next != &c->collected)
		__clear_bit(t->bucket, c->pending_map);
}

/*
 * Whether t, pending, is filed in slot idx. Collected timers keep the index
 * of the slot they came from, so while any timer waits to be popped the
 * answer is no (a relink, never wrong, where an in-place mod would be).
 */
static __always_inline bool tw_classic_in_slot(const struct twheel_classic *c,
					       const struct twheel_timer *t,
					       unsigned int idx)
{
	return t->bucket == idx && list_empty(&c->collected);
}

/*
 * Moves slot, which has timers, to the end of collected as it is, and
 * leaves it empty: list_splice_tail_init() without its test for an empty
 * slot, which the slot's bit has answered (both classic wheels).
 */
static __always_inline void tw_cw_splice(struct list_head *slot,
					 struct list_head *collected)
{
	__list_splice(slot, collected->prev, collected);
	INIT_LIST_HEAD(slot);
}

/* Hands tv1 slot idx, not empty, to the collected list as it is: spliced. */
static __always_inline void tw_classic_collect_slot(struct twheel_classic *c,
						    unsigned int idx)
{
	__clear_bit(idx, c->pending_map);
	tw_cw_splice(c->vec + idx, &c->collected);
}

/*
 * The operations both classic wheels (this one and classic_bounded) build
 * alike on FIFO slots and a collected list: TW_CLASSIC_WHEEL_OPS(p, slots,
 * tick) defines p_add(), p_del(), p_mod() and p_pop() on the engine of a
 * wheel (a struct with the engine e and a collected list, p_of() its
 * container_of()) from the wheel's own p_index(), p_link(), p_unlink() and
 * p_in_slot(). A mod to the expiry it has is a no-op; one that files in
 * the slot the timer is in only changes the expiry.
 *
 * And p_step(), one jiffy, the clock's own: a jiffy that needs nothing
 * more than its level-0 slot (of slots) costs a bit test, or a splice
 * (p_collect_slot()) if the slot has timers; one for which p_slow() says
 * more is to be done (the classic wheel: a tv1 wrap, which cascades) calls
 * the wheel's tick.
 */
#define TW_CLASSIC_WHEEL_OPS(p, slots, tick)					\
static __always_inline bool p##_pending(const struct twheel_timer *t)		\
{										\
	return t->list.next;							\
}										\
										\
static __always_inline int p##_add(struct twheel_engine *e,			\
				   struct twheel_timer *t,			\
				   unsigned long expires)			\
{										\
	__auto_type c = p##_of(e);						\
										\
	if (t->list.next)							\
		return -EBUSY;							\
	t->expires = expires;							\
	p##_link(c, t, p##_index(expires, c->e.clk));				\
	c->e.st.added++;							\
	return 0;								\
}										\
										\
static __always_inline bool p##_del(struct twheel_engine *e,			\
				    struct twheel_timer *t)			\
{										\
	__auto_type c = p##_of(e);						\
										\
	if (!t->list.next)							\
		return false;							\
	p##_unlink(c, t);							\
	c->e.st.deleted++;							\
	return true;								\
}										\
										\
static __always_inline bool p##_mod(struct twheel_engine *e,			\
				    struct twheel_timer *t,			\
				    unsigned long expires)			\
{										\
	__auto_type c = p##_of(e);						\
	unsigned int idx;							\
										\
	if (!t->list.next) {							\
		p##_add(e, t, expires);						\
		return false;							\
	}									\
	c->e.st.modified++;							\
	if (t->expires == expires) {						\
		c->e.st.mod_noop++;						\
		return true;							\
	}									\
	idx = p##_index(expires, c->e.clk);					\
	t->expires = expires;							\
	if (p##_in_slot(c, t, idx)) {						\
		c->e.st.mod_inplace++;						\
		return true;							\
	}									\
	p##_unlink(c, t);							\
	p##_link(c, t, idx);							\
	return true;								\
}										\
										\
static __always_inline struct twheel_timer *p##_pop(struct twheel_engine *e)	\
{										\
	__auto_type c = p##_of(e);						\
	struct twheel_timer *t;							\
										\
	if (list_empty(&c->collected))						\
		return NULL;							\
	t = list_first_entry(&c->collected, struct twheel_timer, list);		\
	__list_del(&c->collected, t->list.next);				\
	t->list.next = NULL;							\
	c->e.st.expired++;							\
	return t;								\
}										\
										\
static __always_inline bool p##_step(struct twheel_engine *e)			\
{										\
	__auto_type c = p##_of(e);						\
	unsigned long clk = c->e.clk;						\
	unsigned int idx = clk & ((slots) - 1);					\
	bool collected = false;							\
										\
	if (unlikely(p##_slow(c, clk, idx))) {					\
		collected = tick(c);						\
	} else if (test_bit(idx, c->pending_map)) {				\
		p##_collect_slot(c, idx);					\
		c->e.st.events++;						\
		collected = true;						\
	}									\
	c->e.clk = clk + 1;							\
	return collected;							\
}

/* A tv1 wrap cascades: the out-of-line tick. */
static __always_inline bool tw_classic_slow(const struct twheel_classic *c,
					    unsigned long clk, unsigned int idx)
{
	return !idx;
}

static __always_inline struct twheel_classic *tw_classic_of(struct twheel_engine *e)
{
	return container_of(e, struct twheel_classic, e);
}

/* The fast paths: tw_classic_add(), _del(), _mod(), _pop() and _step(). */
TW_CLASSIC_WHEEL_OPS(tw_classic, TW_TVR_SIZE, twheel_classic_tick)

#endif /* TWHEEL_ENGINES_CLASSIC_H */

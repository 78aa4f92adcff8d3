/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The classic (Linux 2.6) cascading wheel: its type and its fast paths,
 * inlined into twheel_add() and the other operations (twheel.h), so that
 * arming, disarming and a tick with nothing due cost no call at all.
 * Included by twheel.h; the rest is in engines/classic.c.
 *
 * Guarantee: exact. A timer runs at the jiffy it asked for (one in the past
 * at the next jiffy processed); deltas beyond TW_CLASSIC_MAX_DELTA are
 * clamped to it. Start and stop O(1); a tick O(1) plus the timers it runs,
 * except every 256th, which cascades one tv2..tv5 slot (O(timers in it)).
 * Memory: the timer's 40 bytes; the wheel about 8 KiB.
 */
#ifndef TWHEEL_ENGINES_CLASSIC_H
#define TWHEEL_ENGINES_CLASSIC_H

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

static inline struct twheel_classic *twheel_to_classic(struct twheel_engine *e)
{
	return container_of(e, struct twheel_classic, e);
}

/*
 * The slot the 2.6 wheel files expires in when its clock is clk. Level n
 * (n >= 1) takes deltas of [2^(6n + 2), 2^(6n + 8)), so its number follows
 * from the delta's highest bit; no loop over the levels.
 */
static __always_inline unsigned int tw_classic_index(unsigned long expires,
						     unsigned long clk)
{
	unsigned long delta = expires - clk;
	unsigned int lvl;

	if (delta < TW_TVR_SIZE)
		return expires & (TW_TVR_SIZE - 1);
	if ((long)delta < 0)		/* in the past: the jiffy about to run */
		return clk & (TW_TVR_SIZE - 1);
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

/* Hands tv1 slot idx, not empty, to the collected list as it is: spliced. */
static __always_inline void tw_classic_collect_slot(struct twheel_classic *c,
						    unsigned int idx)
{
	__clear_bit(idx, c->pending_map);
	list_splice_tail_init(c->vec + idx, &c->collected);
}

static __always_inline int tw_classic_add(struct twheel_classic *c,
					  struct twheel_timer *t, unsigned long expires)
{
	if (t->list.next)
		return -EBUSY;
	t->expires = expires;
	tw_classic_link(c, t, tw_classic_index(expires, c->e.clk));
	c->e.st.added++;
	c->e.st.pending++;
	return 0;
}

static __always_inline bool tw_classic_del(struct twheel_classic *c,
					   struct twheel_timer *t)
{
	if (!t->list.next)
		return false;
	tw_classic_unlink(c, t);
	c->e.st.deleted++;
	c->e.st.pending--;
	return true;
}

static __always_inline bool tw_classic_mod(struct twheel_classic *c,
					   struct twheel_timer *t, unsigned long expires)
{
	unsigned int idx;

	if (!t->list.next) {
		tw_classic_add(c, t, expires);
		return false;
	}
	c->e.st.modified++;
	if (t->expires == expires) {
		c->e.st.mod_noop++;
		return true;
	}
	idx = tw_classic_index(expires, c->e.clk);
	t->expires = expires;
	if (tw_classic_in_slot(c, t, idx)) {
		c->e.st.mod_inplace++;
		return true;
	}
	tw_classic_unlink(c, t);
	tw_classic_link(c, t, idx);
	return true;
}

static __always_inline struct twheel_timer *tw_classic_pop(struct twheel_classic *c)
{
	struct twheel_timer *t;

	if (list_empty(&c->collected))
		return NULL;
	t = list_first_entry(&c->collected, struct twheel_timer, list);
	__list_del(&c->collected, t->list.next);
	t->list.next = NULL;
	c->e.st.expired++;
	c->e.st.pending--;
	return t;
}

/*
 * One jiffy, the clock's own: a jiffy that neither cascades (tv1 did not
 * wrap) nor has timers in its tv1 slot costs a bit test, one that only
 * collects a slot a splice; a tv1 wrap calls twheel_classic_tick().
 */
static __always_inline bool tw_classic_step(struct twheel_classic *c)
{
	unsigned long clk = c->e.clk;
	unsigned int idx = clk & (TW_TVR_SIZE - 1);
	bool collected = false;

	if (unlikely(!idx)) {
		collected = twheel_classic_tick(c);
	} else if (test_bit(idx, c->pending_map)) {
		tw_classic_collect_slot(c, idx);
		c->e.st.events++;
		collected = true;
	}
	c->e.clk = clk + 1;
	return collected;
}

#endif /* TWHEEL_ENGINES_CLASSIC_H */

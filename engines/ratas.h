/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ratas engine: seed 002's hierarchical wheel (Juho Snellman's Ratas):
 * its type and its fast paths, inlined into twheel_add_as() and the others
 * (engines/registry.h) as the classic wheel's are. The rest is in
 * engines/ratas.c.
 *
 * Eight levels of 256 slots, eight bits of the tick each, so together they
 * span the whole 64-bit tick range: no delta is clamped. A timer goes to
 * the lowest level on which its slot is fewer than 256 slots from the
 * clock's (Ratas' carry rule); when the level below wraps, the clock's slot
 * of an outer level is promoted: each of its timers is filed again, in a
 * lower level, or handed out at once if it expires at that very jiffy.
 *
 * Guarantee: exact, for every delta up to LONG_MAX (every expiry
 * time_after() orders): a timer runs at the jiffy it asked for, one in the
 * past at the next jiffy processed. Within a jiffy: timers handed out by a
 * promotion first (outer levels first), then the jiffy's level-0 slot,
 * last filed first (Ratas inserts at a slot's head).
 * Cost: start O(1) (a __fls and one carry test, no loop over the levels);
 * stop O(1), an hlist unlink and nothing else: no occupancy bitmap to keep
 * (Ratas' trade-off: no bit to set on start or clear on stop; the price is
 * paid by next_event, which walks slot heads, at most 256 a level and no
 * further than its limit). Per tick O(1) plus the timers due, and every
 * 256^k-th jiffy one level-k slot promoted: a timer is filed at most once
 * per level it crosses, 7 times at the very most.
 * Memory: the timer's own 40 bytes; per engine 2048 slot heads of one
 * pointer (16 KiB) and a list head.
 *
 * How it differs from the classic (2.6) wheel: classic has 256 + 4 x 64
 * slots (list heads and a bitmap, about 8 KiB), picks the level from the
 * delta alone (2^8, 2^14, 2^20, 2^26) and files any delta beyond 2^32 - 1 in
 * its top level's farthest slot, re-filing it at each turn of that level
 * (still exact, at the cost of a cascade a turn); ratas has 8 x 256
 * single-pointer slots,
 * reaches 2^64, picks the level by the slot distance and hands out a timer
 * that falls due at its promotion instead of re-filing it into level 0.
 */
#ifndef TWHEEL_ENGINES_RATAS_H
#define TWHEEL_ENGINES_RATAS_H

#include "twheel.h"
#include "engines/wheel.h"

#define TW_RATAS_BITS		8
#define TW_RATAS_SIZE		BIT(TW_RATAS_BITS)
#define TW_RATAS_LEVELS		8
#define TW_RATAS_BUCKETS	(TW_RATAS_LEVELS * TW_RATAS_SIZE)

/**
 * struct twheel_ratas - the Ratas hierarchical wheel
 * @e: the engine
 * @collected: timers collected and not yet popped, in the order they fire;
 *	linked through their @list (in a slot they use @entry)
 * @slots: level n's 256 slots from n * TW_RATAS_SIZE on, each an hlist
 *	(one pointer, as Ratas' slot), newest first
 *
 * Set up by twheel_ratas_init().
 */
struct twheel_ratas {
	struct twheel_engine e;
	struct list_head collected;
	struct hlist_head slots[TW_RATAS_BUCKETS];
};

void twheel_ratas_init(struct twheel_ratas *r, unsigned long clk);
bool twheel_ratas_tick(struct twheel_ratas *r);

static __always_inline struct twheel_ratas *twheel_to_ratas(struct twheel_engine *e)
{
	return container_of(e, struct twheel_ratas, e);
}

/*
 * The slot ratas files expires in when its clock is clk: level n (n >= 1)
 * when the delta's highest bit is in bits 8n..8n+7, unless counting from
 * the clock's own slot of that level it is 256 slots or more away (the
 * clock's low bits carry into the distance): then one level up, where it
 * is one slot away. Levels below cannot hold it: their distance is at
 * least delta >> 8n, 256 or more.
 */
static __always_inline unsigned int tw_ratas_index(unsigned long expires,
						   unsigned long clk)
{
	unsigned int lvl, shift, idx = tw_wheel_near_slot(expires, clk, TW_RATAS_SIZE);
	unsigned long delta = expires - clk;

	if (idx < TW_RATAS_SIZE)
		return idx;
	lvl = __fls(delta) / TW_RATAS_BITS;
	shift = lvl * TW_RATAS_BITS;
	if ((((clk & ((1UL << shift) - 1)) + delta) >> shift) >= TW_RATAS_SIZE) {
		lvl++;
		shift += TW_RATAS_BITS;
	}
	return lvl * TW_RATAS_SIZE + ((expires >> shift) & (TW_RATAS_SIZE - 1));
}

/*
 * A timer is pending while linked: in a slot through @entry, on the
 * collected list through @list; either way the second word, @entry.pprev
 * or @list.prev (one and the same), is set.
 */
static __always_inline bool tw_ratas_pending(const struct twheel_timer *t)
{
	return t->entry.pprev;
}

/* Files t, not pending, at the head of slot idx, as Ratas does. */
static __always_inline void tw_ratas_link(struct twheel_ratas *r,
					  struct twheel_timer *t, unsigned int idx)
{
	hlist_add_head(&t->entry, &r->slots[idx]);
	t->bucket = idx;
}

/* Takes a pending t out of its slot (no bitmap to keep) or the collected list. */
static __always_inline void tw_ratas_unlink(struct twheel_timer *t)
{
	if (t->bucket == TWHEEL_COLLECTED) {
		__list_del(t->list.prev, t->list.next);
		t->list.prev = NULL;
	} else {
		__hlist_del(&t->entry);
		t->entry.pprev = NULL;
	}
}

static __always_inline int tw_ratas_add(struct twheel_engine *e,
					struct twheel_timer *t, unsigned long expires)
{
	struct twheel_ratas *r = twheel_to_ratas(e);

	if (tw_ratas_pending(t))
		return -EBUSY;
	t->expires = expires;
	tw_ratas_link(r, t, tw_ratas_index(expires, r->e.clk));
	r->e.st.added++;
	return 0;
}

static __always_inline bool tw_ratas_del(struct twheel_engine *e,
					 struct twheel_timer *t)
{
	struct twheel_ratas *r = twheel_to_ratas(e);

	if (!tw_ratas_pending(t))
		return false;
	tw_ratas_unlink(t);
	r->e.st.deleted++;
	return true;
}

/* Collected timers say TWHEEL_COLLECTED, so never stay in place. */
static __always_inline bool tw_ratas_mod(struct twheel_engine *e,
					 struct twheel_timer *t, unsigned long expires)
{
	struct twheel_ratas *r = twheel_to_ratas(e);
	unsigned int idx;

	if (!tw_ratas_pending(t)) {
		tw_ratas_add(e, t, expires);
		return false;
	}
	r->e.st.modified++;
	if (t->expires == expires) {
		r->e.st.mod_noop++;
		return true;
	}
	idx = tw_ratas_index(expires, r->e.clk);
	t->expires = expires;
	if (t->bucket == idx) {
		r->e.st.mod_inplace++;
		return true;
	}
	tw_ratas_unlink(t);
	tw_ratas_link(r, t, idx);
	return true;
}

/* Takes the first collected timer off; NULL if none. Counts nothing. */
static __always_inline struct twheel_timer *tw_ratas_take(struct twheel_ratas *r)
{
	struct twheel_timer *t;

	if (list_empty(&r->collected))
		return NULL;
	t = list_first_entry(&r->collected, struct twheel_timer, list);
	__list_del(&r->collected, t->list.next);
	t->list.prev = NULL;
	return t;
}

static __always_inline struct twheel_timer *tw_ratas_pop(struct twheel_engine *e)
{
	struct twheel_ratas *r = twheel_to_ratas(e);
	struct twheel_timer *t = tw_ratas_take(r);

	if (t)
		r->e.st.expired++;
	return t;
}

/*
 * One jiffy, the clock's own: a jiffy that promotes nothing (its low 8
 * bits are not 0) and whose level-0 slot is empty costs one load; any
 * other calls twheel_ratas_tick().
 */
static __always_inline bool tw_ratas_step(struct twheel_engine *e)
{
	struct twheel_ratas *r = twheel_to_ratas(e);
	unsigned long clk = r->e.clk;
	bool collected = false;

	if (unlikely(!(clk & (TW_RATAS_SIZE - 1))) ||
	    !hlist_empty(&r->slots[clk & (TW_RATAS_SIZE - 1)]))
		collected = twheel_ratas_tick(r);
	r->e.clk = clk + 1;
	return collected;
}

#endif /* TWHEEL_ENGINES_RATAS_H */

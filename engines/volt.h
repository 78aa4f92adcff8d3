/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The volt engine: seed 003's wheel (the Volt async runtime's): its type
 * and its fast paths, inlined into twheel_add_as() and the others
 * (engines/registry.h) as the classic wheel's are; the rest is in
 * engines/volt.c.
 *
 * Five
 * levels of 64 slots, six bits of the tick each (2^30 jiffies, about 50
 * days at HZ 250), and an overflow list beyond. The level comes in O(1)
 * from the highest bit in which the clock and the expiry differ (__fls of
 * clk ^ expires), the next slot with work from one u64 occupancy word per
 * level (__ffs). When a slot comes due its timers are filed again against
 * the clock, into lower levels, so every timer runs at its own jiffy;
 * the overflow list is walked when the top level turns over to where its
 * earliest timer fits (not at every turn: a timer LONG_MAX out would be
 * walked 2^33 times). Cancel is
 * lazy: a cancelled timer is flagged and stays linked until its slot is
 * processed (or the collected list handed out), then reclaimed.
 *
 * Guarantee: exact, for every delta up to LONG_MAX: a timer runs at the
 * jiffy it asked for, one in the past at the next jiffy processed. Within
 * a jiffy, in the order they were filed into their level-0 slot (FIFO).
 * Cost: start O(1) (an xor, a __fls, a list add, a bit set); stop O(1):
 * a flag, nothing unlinked (the memory stays held, counted in
 * st.lazy_held); per tick O(1) plus the timers due or reclaimed, and every
 * 64^k-th jiffy one level-k slot re-filed (a timer is filed at most once
 * per level it crosses, 5 times, plus once per walk of the overflow list
 * while it waits there: the list is walked whole at each of its timers'
 * 2^30 boundaries, O(overflow) each); next_event O(levels): an __ffs per
 * level.
 * Memory: the timer's own 40 bytes, and those of every cancelled timer
 * until its slot comes due (up to the timer's whole delta: a timer
 * cancelled right after a 2^29-jiffy arm is held for 2^29 jiffies); per
 * engine 320 list heads (5 KiB), the overflow and collected lists and 5
 * u64 words.
 *
 * A lazily cancelled timer is not pending, but the engine still links it:
 * armed again, it is unlinked there and then (or, if its new expiry files
 * in the slot it is in, just unflagged), never linked twice; its owner
 * must not free it, nor set it up again, before twheel_purge() or the
 * engine's own reclaim let go of it (the module's runner purges before it
 * frees its timers).
 */
#ifndef TWHEEL_ENGINES_VOLT_H
#define TWHEEL_ENGINES_VOLT_H

#include "twheel.h"

#define TW_VOLT_BITS		6
#define TW_VOLT_SIZE		BIT(TW_VOLT_BITS)
#define TW_VOLT_LEVELS		5U
#define TW_VOLT_SPAN_BITS	(TW_VOLT_LEVELS * TW_VOLT_BITS)
#define TW_VOLT_BUCKETS		(TW_VOLT_LEVELS * TW_VOLT_SIZE)
/* volt_slot of a timer on the overflow list, the collected list, neither */
#define TW_VOLT_OVERFLOW	TW_VOLT_BUCKETS
#define TW_VOLT_COLLECTED	(TW_VOLT_BUCKETS + 1)
#define TW_VOLT_IDLE		(TW_VOLT_BUCKETS + 2)

/**
 * struct twheel_volt - the Volt hierarchical wheel
 * @e: the engine; @e.st.lazy_held and lazy_held_max count the cancelled
 *	timers it still links
 * @collected: timers collected and not yet popped, in the order they fire
 *	(cancelled ones among them are skipped and reclaimed by the pop)
 * @overflow: timers beyond the top level: expiries that differ from the
 *	clock above bit 29
 * @overflow_next: while @overflow is not empty, the jiffy it is walked
 *	at: the earliest 2^30 boundary at which one of its timers fits in the
 *	wheel (at most that: a timer leaving the list leaves it as it was)
 * @occupied: per level a bit per non-empty slot
 * @slots: level n's 64 slots from n * TW_VOLT_SIZE on; FIFO lists
 *
 * Set up by twheel_volt_init().
 */
struct twheel_volt {
	struct twheel_engine e;
	struct list_head collected;
	struct list_head overflow;
	unsigned long overflow_next;
	u64 occupied[TW_VOLT_LEVELS];
	struct list_head slots[TW_VOLT_BUCKETS];
};

void twheel_volt_init(struct twheel_volt *v, unsigned long clk);
bool twheel_volt_tick(struct twheel_volt *v);
void twheel_volt_overflow(struct twheel_volt *v, struct twheel_timer *t);

static __always_inline struct twheel_volt *twheel_to_volt(struct twheel_engine *e)
{
	return container_of(e, struct twheel_volt, e);
}

/*
 * Where volt files expires when its clock is clk: the level of the highest
 * bit in which they differ (bits 6n..6n+5: level n), the slot of the
 * expiry's bits of that level; TW_VOLT_OVERFLOW beyond the top level. The
 * expiry and the clock agree above the level, and the expiry's slot is
 * after the clock's there, so the slot comes due within one turn, at the
 * expiry with its low 6n bits cleared. A past expiry files as the clock.
 */
static __always_inline unsigned int tw_volt_index(unsigned long expires,
						  unsigned long clk)
{
	unsigned long x;
	unsigned int lvl;

	if ((long)(expires - clk) < 0)
		expires = clk;
	x = expires ^ clk;
	if (x >> TW_VOLT_SPAN_BITS)
		return TW_VOLT_OVERFLOW;
	lvl = __fls(x | (TW_VOLT_SIZE - 1)) / TW_VOLT_BITS;
	return lvl * TW_VOLT_SIZE +
	       ((expires >> (lvl * TW_VOLT_BITS)) & (TW_VOLT_SIZE - 1));
}

/* Linked and not cancelled: a cancelled timer is no longer pending. */
static __always_inline bool tw_volt_pending(const struct twheel_timer *t)
{
	return t->volt_link.next && !t->volt_cancelled;
}

/* Files t, not linked, in slot idx (not the overflow list). */
static __always_inline void tw_volt_link_slot(struct twheel_volt *v,
					      struct twheel_timer *t,
					      unsigned int idx)
{
	list_add_tail(&t->volt_link, &v->slots[idx]);
	v->occupied[idx / TW_VOLT_SIZE] |= BIT_ULL(idx % TW_VOLT_SIZE);
	t->volt_slot = idx;
}

/*
 * Takes t off whatever list it is on; a slot whose only other node was
 * its head is empty now and loses its bit.
 */
static __always_inline void tw_volt_unlink(struct twheel_volt *v,
					   struct twheel_timer *t)
{
	struct list_head *prev = t->volt_link.prev, *next = t->volt_link.next;
	unsigned int idx = t->volt_slot;

	__list_del(prev, next);
	if (prev == next && idx < TW_VOLT_BUCKETS)
		v->occupied[idx / TW_VOLT_SIZE] &= ~BIT_ULL(idx % TW_VOLT_SIZE);
	t->volt_link.next = NULL;
	t->volt_slot = TW_VOLT_IDLE;
}

/* A cancelled timer taken off its list: the engine lets go of it. */
static __always_inline void tw_volt_reclaimed(struct twheel_volt *v,
					      struct twheel_timer *t)
{
	t->volt_link.next = NULL;
	t->volt_slot = TW_VOLT_IDLE;
	t->volt_cancelled = false;
	v->e.st.lazy_held--;
}

/*
 * Files t, not pending, in idx (tw_volt_index() of its expiry). A lazily
 * cancelled t is still linked: if idx is the slot it is in it only loses
 * its flag, else it is unlinked first (always from the overflow list,
 * whose next walk the new expiry may move). Either way it is linked once.
 * The overflow list is out of line.
 */
static __always_inline void tw_volt_file(struct twheel_volt *v,
					 struct twheel_timer *t, unsigned int idx)
{
	if (unlikely(t->volt_link.next)) {
		if (t->volt_slot == idx && idx < TW_VOLT_BUCKETS) {
			t->volt_cancelled = false;
			v->e.st.lazy_held--;
			return;
		}
		tw_volt_unlink(v, t);
		tw_volt_reclaimed(v, t);
	}
	if (likely(idx < TW_VOLT_BUCKETS))
		tw_volt_link_slot(v, t, idx);
	else
		twheel_volt_overflow(v, t);
}

static __always_inline int tw_volt_add(struct twheel_engine *e,
				       struct twheel_timer *t, unsigned long expires)
{
	struct twheel_volt *v = twheel_to_volt(e);

	if (tw_volt_pending(t))
		return -EBUSY;
	t->expires = expires;
	tw_volt_file(v, t, tw_volt_index(expires, v->e.clk));
	v->e.st.added++;
	return 0;
}

/* The lazy cancel: a flag; the timer stays linked where it is. */
static __always_inline bool tw_volt_del(struct twheel_engine *e,
					struct twheel_timer *t)
{
	struct twheel_volt *v = twheel_to_volt(e);

	if (!tw_volt_pending(t))
		return false;
	t->volt_cancelled = true;
	if (++v->e.st.lazy_held > v->e.st.lazy_held_max)
		v->e.st.lazy_held_max = v->e.st.lazy_held;
	v->e.st.deleted++;
	return true;
}

/*
 * A pending timer is re-filed at once (unlinked, linked again), unless its
 * new expiry files in the slot it is in; the overflow list is never such
 * a slot (its next walk may have to move).
 */
static __always_inline bool tw_volt_mod(struct twheel_engine *e,
					struct twheel_timer *t, unsigned long expires)
{
	struct twheel_volt *v = twheel_to_volt(e);
	unsigned int idx;

	if (!tw_volt_pending(t)) {
		tw_volt_add(e, t, expires);
		return false;
	}
	v->e.st.modified++;
	if (t->expires == expires) {
		v->e.st.mod_noop++;
		return true;
	}
	idx = tw_volt_index(expires, v->e.clk);
	t->expires = expires;
	if (t->volt_slot == idx && idx < TW_VOLT_BUCKETS) {
		v->e.st.mod_inplace++;
		return true;
	}
	tw_volt_unlink(v, t);
	tw_volt_file(v, t, idx);
	return true;
}

/*
 * The first collected timer that is not cancelled; cancelled ones on the
 * way are reclaimed. Counts nothing.
 */
static __always_inline struct twheel_timer *tw_volt_take(struct twheel_volt *v)
{
	struct twheel_timer *t;

	while (!list_empty(&v->collected)) {
		t = list_first_entry(&v->collected, struct twheel_timer, volt_link);
		__list_del(&v->collected, t->volt_link.next);
		if (likely(!t->volt_cancelled)) {
			t->volt_link.next = NULL;
			t->volt_slot = TW_VOLT_IDLE;
			return t;
		}
		tw_volt_reclaimed(v, t);
	}
	return NULL;
}

static __always_inline struct twheel_timer *tw_volt_pop(struct twheel_engine *e)
{
	struct twheel_volt *v = twheel_to_volt(e);
	struct twheel_timer *t = tw_volt_take(v);

	if (t)
		v->e.st.expired++;
	return t;
}

/*
 * One jiffy, the clock's own: one that re-files nothing (its low 6 bits
 * are not 0) and whose level-0 slot is empty costs a bit test; any other
 * calls twheel_volt_tick().
 */
static __always_inline bool tw_volt_step(struct twheel_engine *e)
{
	struct twheel_volt *v = twheel_to_volt(e);
	unsigned long clk = v->e.clk;
	unsigned int idx = clk & (TW_VOLT_SIZE - 1);
	bool collected = false;

	if (unlikely(!idx) || (v->occupied[0] & BIT_ULL(idx)))
		collected = twheel_volt_tick(v);
	v->e.clk = clk + 1;
	return collected;
}

#endif /* TWHEEL_ENGINES_VOLT_H */

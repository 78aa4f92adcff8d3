/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hash_vec engine: seed 004's "vector of inlined timers". The hash
 * engine's wheel (a power-of-two number of one-jiffy slots, a timer in the
 * slot of its expiry mod slots, waiting whole turns there) with each slot
 * an array of entries instead of a list: an entry holds the jiffy its timer
 * is due at and the timer, so a visit of a slot reads contiguous memory and
 * touches a timer only when it is due. The timer keeps its slot and its
 * index in the array; removing an entry moves the slot's last entry into
 * the hole and fixes the index in that entry's timer.
 *
 * Guarantee: exact, for every delta (no range limit, no clamp): an entry
 * is due when the clock equals its jiffy, compared in full. Within a jiffy
 * timers run in no fixed order (removals reorder an array). An arm the
 * engine has no array for is refused: twheel_add() returns -ENOMEM
 * (-ENOSPC beyond the largest array, 4 << (TW_VEC_ORDERS - 1) timers in
 * one slot), twheel_mod() disarms the timer instead; both count st.refused
 * and change nothing else, so no timer is ever lost silently.
 * Cost: start O(1) (amortised: a slot that fills moves to an array twice
 * the size, copying its entries), stop O(1); per tick O(entries in the
 * slot), reading 16 bytes an entry, plus the timers due; next_event
 * O(slots / BITS_PER_LONG).
 *
 * Memory: the engine never allocates. Its caller gives it the arrays, as
 * spares of each size (order k: 4 << k entries of 16 bytes), and takes back
 * those it no longer needs: twheel_hash_vec_wanted(), twheel_hash_vec_give()
 * and twheel_hash_vec_take(), in process context. A slot takes a spare when
 * it fills (the smallest one larger than its array) and hands its array
 * back when it empties. The engine asks ahead of need: for TW_VEC_KEEP_FIRST
 * first arrays and TW_VEC_KEEP_SMALL of each order up to 4 KiB, plus one
 * array of the next order for every slot in the last quarter of its array.
 * Per timer: its own 40 bytes and one entry, 16 to 32 bytes of a slot's
 * array (a slot keeps the array of its largest fill until it empties); per
 * engine: a 16-byte slot head and a bit per slot
 * (twheel_hash_vec_storage_size()), the pool's heads in struct
 * twheel_hash_vec, about 36 KiB of spares kept for the first arms, and
 * the spares asked for or handed back: of each order up to twice what is
 * asked for plus two, beyond which twheel_hash_vec_take() gives them back.
 */
#ifndef TWHEEL_ENGINES_HASH_VEC_H
#define TWHEEL_ENGINES_HASH_VEC_H

#include "twheel.h"

/* Array sizes: order k holds 4 << k entries, k below TW_VEC_ORDERS. */
#define TW_VEC_MIN_SHIFT	2
#define TW_VEC_ORDERS		20
/* @vec_slot of a timer that is not pending, and of a collected one. */
#define TW_VEC_IDLE		(~0U)
#define TW_VEC_COLLECTED	(~0U - 1)
/* Spares the engine asks to keep: first arrays, and small ones. */
#define TW_VEC_KEEP_FIRST	64
#define TW_VEC_KEEP_SMALL	4
#define TW_VEC_SMALL_ORDERS	7	/* orders up to 256 entries, 4 KiB */

/**
 * struct twheel_vec_entry - one timer in a slot's array
 * @when: the jiffy it is due at: its expiry, or the clock it was filed at
 *	if that expiry was already past
 * @t: the timer; its @vec_slot and @vec_idx say where this entry is
 */
struct twheel_vec_entry {
	unsigned long when;
	struct twheel_timer *t;
};

/**
 * struct twheel_vec_slot - one slot of the wheel
 * @ent: its array, NULL while the slot is empty
 * @nr: entries in use, @ent[0 .. @nr)
 * @cap: entries in @ent: 4 << order, 0 while empty
 */
struct twheel_vec_slot {
	struct twheel_vec_entry *ent;
	u32 nr;
	u32 cap;
};

/**
 * struct twheel_vec_pool - the spare arrays of one order
 * @spare: a singly linked list of them, through each one's first word
 * @nr: how many
 * @keep: how many the engine asks to keep besides those for @hot slots
 *	(the caller may change it)
 * @hot: slots with an array of this order filled to three quarters or
 *	more: each may soon want an array of the next order
 */
struct twheel_vec_pool {
	void *spare;
	u32 nr;
	u32 keep;
	u32 hot;
};

/**
 * struct twheel_hash_vec - the hashed wheel of arrays
 * @e: the engine
 * @collected: timers collected and not yet popped, in the order they fire
 * @bits: log2 of the number of slots
 * @mask: slots - 1
 * @slots: the slots, the caller's storage
 * @map: a bit per non-empty slot, in the same storage after @slots
 * @avail: a bit per order that has a spare
 * @low: a bit per order with fewer spares than the engine asks for
 * @scarce: a bit per order with fewer than half of them (rounded up: at
 *	least one when it asks for any)
 * @high: a bit per order with more than twice what it asks for, plus two
 * @pool: the spares, by order
 *
 * Set up by twheel_hash_vec_init().
 */
struct twheel_hash_vec {
	struct twheel_engine e;
	struct list_head collected;
	unsigned int bits;
	unsigned long mask;
	struct twheel_vec_slot *slots;
	unsigned long *map;
	unsigned long avail;
	unsigned long low;
	unsigned long scarce;
	unsigned long high;
	struct twheel_vec_pool pool[TW_VEC_ORDERS];
};

/* Entries in an array of order k. */
static inline u32 twheel_hash_vec_cap(unsigned int order)
{
	return 1U << (order + TW_VEC_MIN_SHIFT);
}

/* Bytes of an array of order k: what twheel_hash_vec_give() takes. */
static inline size_t twheel_hash_vec_array_size(unsigned int order)
{
	return (size_t)twheel_hash_vec_cap(order) * sizeof(struct twheel_vec_entry);
}

/*
 * Whether the next arm may be refused for want of an array: some size has
 * fewer than half the spares asked for (the caller should give what
 * twheel_hash_vec_wanted() asks for first). While it says no, every size
 * an arm can need has a spare: an arm takes at most one, the engine asks
 * for one of the next size for each slot three quarters full, and keeps
 * first arrays. Half, not all: a caller stopping to refill stops for a
 * batch of them, not for each.
 */
static inline bool twheel_hash_vec_short(const struct twheel_hash_vec *hv)
{
	return hv->scarce;
}

/* Whether the pool wants arrays given or taken back. */
static inline bool twheel_hash_vec_wants(const struct twheel_hash_vec *hv)
{
	return hv->low || hv->high;
}

size_t twheel_hash_vec_storage_size(unsigned int nr_slots);
int twheel_hash_vec_init(struct twheel_hash_vec *hv, unsigned long clk,
			 void *storage, unsigned int nr_slots);
u32 twheel_hash_vec_wanted(const struct twheel_hash_vec *hv,
			   unsigned int *order);
void twheel_hash_vec_give(struct twheel_hash_vec *hv, unsigned int order,
			  void *array);
void *twheel_hash_vec_take(struct twheel_hash_vec *hv, bool all);
void twheel_hash_vec_keep(struct twheel_hash_vec *hv, unsigned int order,
			  u32 keep);
unsigned long twheel_hash_vec_rounds(const struct twheel_hash_vec *hv,
				     const struct twheel_timer *t);

static inline struct twheel_hash_vec *twheel_to_hash_vec(struct twheel_engine *e)
{
	return container_of(e, struct twheel_hash_vec, e);
}

#endif /* TWHEEL_ENGINES_HASH_VEC_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hash engine: Varghese & Lauck's scheme 6 as Netty's HashedWheelTimer
 * builds it. A power-of-two number of one-jiffy slots; a timer goes to the
 * slot of its expiry (expires mod slots), unsorted, and carries the turns
 * of the wheel it still has to wait there (its rounds). Each jiffy with a
 * non-empty slot walks that slot: a timer with no rounds left is due, the
 * others count one round down.
 *
 * Guarantee: exact, for every delta (no range limit, no clamp). Within a
 * jiffy timers run in the order they were filed in their slot (FIFO).
 * Cost: start O(1), stop O(1); per tick O(timers in the slot), on average
 * n / slots; next_event O(slots / BITS_PER_LONG). A timer far out is
 * visited once a turn until it is due: advancing over an idle stretch of G
 * jiffies costs G / slots visits of each non-empty slot, as Netty's
 * worker, which ticks through idle time too.
 * Memory: the timer's own 40 bytes (link and rounds share its union); per
 * engine one list head (16 bytes) and one bit per slot (twheel_hash_storage_size()).
 */
#ifndef TWHEEL_ENGINES_HASH_H
#define TWHEEL_ENGINES_HASH_H

#include "twheel.h"

/* @rounds of a collected timer; no real count of rounds reaches it. */
#define TW_HASH_COLLECTED	ULONG_MAX
/* Slots: a power of two from 2 to 2^TW_HASH_MAX_BITS. */
#define TW_HASH_MAX_BITS	20
#define TW_HASH_DEFAULT_SLOTS	256

/**
 * struct twheel_hash - the hashed wheel (scheme 6)
 * @e: the engine
 * @collected: timers collected and not yet popped, in the order they fire
 * @bits: log2 of the number of slots
 * @mask: slots - 1
 * @slots: the slots, the caller's storage; unsorted FIFO lists
 * @map: a bit per non-empty slot, in the same storage after @slots
 *
 * Set up by twheel_hash_init().
 */
struct twheel_hash {
	struct twheel_engine e;
	struct list_head collected;
	unsigned int bits;
	unsigned long mask;
	struct list_head *slots;
	unsigned long *map;
};

size_t twheel_hash_storage_size(unsigned int nr_slots);
int twheel_hash_init(struct twheel_hash *h, unsigned long clk,
		     void *storage, unsigned int nr_slots);

#endif /* TWHEEL_ENGINES_HASH_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The heap engine: an array-backed min-heap of expiries, the way event
 * loops keep their timers (libuv, libevent, Go's runtime); Varghese &
 * Lauck's scheme 3 with a heap for the ordered structure.
 *
 * Guarantee: exact, for every delta: a timer runs at exactly its expiry
 * (at the clock if that is already past, however far: armed LONG_MAX
 * jiffies in the past next to one 123 ahead, it still runs first, as its
 * key is the clock, not its expiry). Jiffy by jiffy in the order collected;
 * within one jiffy in no fixed order (a heap is not stable: ties leave it
 * in whatever order the sifts give).
 * Cost: start O(log n), stop O(log n) (the timer keeps its index in the
 * array), per tick O(1) to see that nothing is due, O(log n) per expired
 * timer; next_event O(1).
 * Memory: the timer's own 40 bytes (its collected-list link and its index
 * share the union), plus one 16-byte slot of the array per timer the
 * engine may hold: the caller sizes the array (twheel_heap_init(),
 * twheel_heap_set_storage()) for the most timers that can be pending at
 * once, and must never arm more.
 */
#ifndef TWHEEL_ENGINES_HEAP_H
#define TWHEEL_ENGINES_HEAP_H

#include "twheel.h"

/*
 * Children per node. 4 against 2 in user space (userspace/bench/bench.c, the
 * heap at 1k..1M timers, callgrind instructions per op): del 108-112 Ir
 * against 123-128, mod 166-172 against 181-184, add and the tick alike;
 * and natively, at 100k and 1M, 1.3-2x less time a del and a mod (half
 * the levels to sift through, a node's four children in one cache line
 * of the array).
 */
#ifndef TW_HEAP_ARITY
#define TW_HEAP_ARITY		4
#endif

/* @heap_idx of a timer that is not pending, or collected. */
#define TW_HEAP_IDLE		(~0U)
#define TW_HEAP_COLLECTED	(~0U - 1)
/* The most slots an array may have: indices stay below the markers. */
#define TW_HEAP_MAX_SLOTS	BIT(30)

/**
 * struct twheel_heap_slot - one element of the heap's array
 * @expires: the heap's key: the timer's expiry, or the clock it was armed
 *	at if that expiry was already past (so that every key is within
 *	LONG_MAX of the clock, where time_before() orders them); kept next to
 *	the timer so that sifts compare without touching the timers
 * @t: the timer
 */
struct twheel_heap_slot {
	unsigned long expires;
	struct twheel_timer *t;
};

/**
 * struct twheel_heap - the heap engine
 * @e: the engine
 * @collected: timers collected and not yet popped, in the order they were
 *	collected
 * @slots: the heap, the caller's storage: @slots[0] is the earliest
 *	expiry, the children of i are TW_HEAP_ARITY * i + 1 on
 * @nr: timers in the heap
 * @cap: slots in @slots
 *
 * Set up by twheel_heap_init().
 */
struct twheel_heap {
	struct twheel_engine e;
	struct list_head collected;
	struct twheel_heap_slot *slots;
	unsigned int nr;
	unsigned int cap;
};

int twheel_heap_init(struct twheel_heap *h, unsigned long clk,
		     struct twheel_heap_slot *slots, unsigned int cap);
int twheel_heap_set_storage(struct twheel_heap *h,
			    struct twheel_heap_slot *slots, unsigned int cap);

static inline struct twheel_heap *twheel_to_heap(struct twheel_engine *e)
{
	return container_of(e, struct twheel_heap, e);
}

#endif /* TWHEEL_ENGINES_HEAP_H */

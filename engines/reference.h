/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reference engine's type; the engine is in engines/reference.c. It
 * has no fast paths: it goes through its ops.
 *
 * Guarantee: exact, for every delta: a timer runs at its expiry (at the
 * clock if that is already past, however far: the armed tree orders
 * expiries against the clock, so one armed LONG_MAX jiffies in the past
 * next to one 123 ahead still runs first); what the others are checked
 * against. Timers are handed out in the order they were collected: jiffy
 * by jiffy, and within a jiffy in expiry order (FIFO on ties). One
 * collected at a later jiffy goes after those an earlier jiffy left
 * unpopped, even if it expires before them (it was armed in the past).
 * Start and stop O(log n), a tick O(log n) per timer run.
 * Memory: the timer's 40 bytes; the engine two rbtree roots.
 */
#ifndef TWHEEL_ENGINES_REFERENCE_H
#define TWHEEL_ENGINES_REFERENCE_H

#include "twheel.h"

/**
 * struct twheel_reference - the reference engine: two rbtrees
 * @e: the engine
 * @armed: armed timers, ordered by expires taken against the clock (signed
 *	jiffies ahead of it), FIFO on ties
 * @due: collected timers not yet popped, in the order they were collected:
 *	a queue, each goes in last (rightmost)
 *
 * Exact and simple, not fast: what the wheels are checked against. Set up
 * by twheel_reference_init().
 */
struct twheel_reference {
	struct twheel_engine e;
	struct rb_root_cached armed;
	struct rb_root_cached due;
};

void twheel_reference_init(struct twheel_reference *r, unsigned long clk);

#endif /* TWHEEL_ENGINES_REFERENCE_H */

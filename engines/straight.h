/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The straight engine: Varghese & Lauck's scheme 1. Every pending timer
 * in one unsorted list, each keeping the ticks it has left; a tick counts
 * every timer down and collects those with none left.
 *
 * Guarantee: exact, for every delta (below 2^63). Within a jiffy timers
 * run in the order they were filed (FIFO).
 * Cost: start O(1), stop O(1), per tick O(n): each jiffy with a timer due
 * counts all of them down, by every jiffy since the last such count at
 * once (jiffies with nothing due are skipped, but finding the next one,
 * next_event, is O(n) too). Since a tick walks every timer, the module
 * takes at most TW_STRAIGHT_MAX_TIMERS workload timers on it (-E2BIG
 * above).
 * Memory: the timer's own 40 bytes (its ticks left in @rounds); per engine
 * two list heads and the jiffy of the last count.
 */
#ifndef TWHEEL_ENGINES_STRAIGHT_H
#define TWHEEL_ENGINES_STRAIGHT_H

#include "twheel.h"

/* The most workload timers the module loads on a straight engine. */
#define TW_STRAIGHT_MAX_TIMERS	8192

/**
 * struct twheel_straight - one unsorted list of countdowns (scheme 1)
 * @e: the engine
 * @collected: timers collected and not yet popped, in the order they fire
 * @list: the pending timers, in the order they were armed; each due at
 *	@base plus its @rounds (its ticks left)
 * @base: the jiffy the ticks left are counted from: the last jiffy that
 *	counted them down, or the first clock
 *
 * Set up by twheel_straight_init().
 */
struct twheel_straight {
	struct twheel_engine e;
	struct list_head collected;
	struct list_head list;
	unsigned long base;
};

void twheel_straight_init(struct twheel_straight *s, unsigned long clk);

#endif /* TWHEEL_ENGINES_STRAIGHT_H */

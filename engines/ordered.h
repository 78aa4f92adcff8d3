/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ordered engine: Varghese & Lauck's scheme 2. One list of every
 * pending timer, sorted by expiry; each jiffy looks at the head.
 *
 * Guarantee: exact, for every delta (pending expiries within LONG_MAX of
 * each other, as time_before() orders them). Within a jiffy timers run in
 * the order they were filed (FIFO: a timer goes after those that expire
 * no later).
 * Cost: start O(n) (the sorted insert walks from the latest timer back),
 * stop O(1), per tick O(1) plus the timers due; next_event O(1). Since a
 * start walks the list, the module takes at most TW_ORDERED_MAX_TIMERS
 * workload timers on it (-E2BIG above).
 * Memory: the timer's own 40 bytes; per engine two list heads.
 */
#ifndef TWHEEL_ENGINES_ORDERED_H
#define TWHEEL_ENGINES_ORDERED_H

#include "twheel.h"

/* The most workload timers the module loads on an ordered engine. */
#define TW_ORDERED_MAX_TIMERS	8192

/**
 * struct twheel_ordered - one sorted list (scheme 2)
 * @e: the engine
 * @collected: timers collected and not yet popped, in the order they fire
 * @list: the pending timers, sorted by expiry, FIFO on ties
 *
 * Set up by twheel_ordered_init().
 */
struct twheel_ordered {
	struct twheel_engine e;
	struct list_head collected;
	struct list_head list;
};

void twheel_ordered_init(struct twheel_ordered *o, unsigned long clk);

#endif /* TWHEEL_ENGINES_ORDERED_H */

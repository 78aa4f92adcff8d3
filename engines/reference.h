/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reference engine's type. Included by twheel.h; the engine is in
 * engines/reference.c. It has no fast paths: it goes through its ops.
 *
 * Guarantee: exact, and in expiry order (FIFO on ties): what the others are
 * checked against. Start and stop O(log n), a tick O(log n) per timer run.
 * Memory: the timer's 40 bytes; the engine two rbtree roots.
 */
#ifndef TWHEEL_ENGINES_REFERENCE_H
#define TWHEEL_ENGINES_REFERENCE_H

#include "twheel.h"

/**
 * struct twheel_reference - the reference engine: two rbtrees
 * @e: the engine
 * @armed: armed timers, ordered by expires, FIFO on ties
 * @due: collected timers, in the order they fire
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

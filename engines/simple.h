/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simple engine: Varghese & Lauck's scheme 4. One array of MaxInterval
 * one-jiffy slots, used as a circle: a timer due delta jiffies from the
 * clock goes to the slot delta ahead of the clock's, and everything in the
 * slot the clock reaches is due. Timers farther out than the circle are
 * refused.
 *
 * Guarantee: exact, for deltas (from the clock: the next jiffy to process)
 * below MaxInterval; a delta of MaxInterval or more is refused: twheel_add()
 * returns -ERANGE, twheel_mod() disarms the timer instead; both count
 * st.refused, so no timer is ever lost silently. Within a jiffy timers run
 * in the order they were filed (FIFO).
 * Cost: start O(1), stop O(1), per tick O(1) plus the timers due;
 * next_event O(MaxInterval / BITS_PER_LONG).
 * Memory: the timer's own 40 bytes; per engine one list head (16 bytes)
 * and one bit per slot (twheel_hash_storage_size(MaxInterval)): 64.5 KiB
 * at the default MaxInterval of 4096.
 */
#ifndef TWHEEL_ENGINES_SIMPLE_H
#define TWHEEL_ENGINES_SIMPLE_H

#include "twheel.h"
#include "engines/hash.h"

/* MaxInterval: a power of two from 2 to 2^TW_HASH_MAX_BITS. */
#define TW_SIMPLE_DEFAULT_INTERVAL	4096

/*
 * Its state is a struct twheel_hash (engines/hash.h) of MaxInterval slots,
 * every timer's @rounds 0: twheel_create() with twheel_simple_ops makes
 * one for cfg->max_interval (-EINVAL if that is not a power of two in
 * range).
 */

#endif /* TWHEEL_ENGINES_SIMPLE_H */

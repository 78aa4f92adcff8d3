/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hash_sorted engine: Varghese & Lauck's scheme 5. A power-of-two
 * number of one-jiffy slots; a timer goes to the slot of its expiry
 * (expires mod slots), into a list kept sorted by expiry. Each jiffy with
 * a non-empty slot looks at that slot's head and collects it while it is
 * due: the later timers of the slot wait behind it untouched.
 *
 * Guarantee: exact, for every delta (pending expiries within LONG_MAX of
 * each other, as time_before() orders them). Within a jiffy timers run in
 * the order they were filed (FIFO: a timer goes after those that expire
 * no later).
 * Cost: start O(timers in the slot), on average n / slots (the sorted
 * insert walks from the slot's latest timer back); stop O(1); per tick
 * O(1) plus the timers due; next_event O(slots / BITS_PER_LONG) and it may
 * stop at a slot whose head is not due yet (a jiffy with a look and no
 * collection, as scheme 5 looks at the head every tick).
 * Memory: the timer's own 40 bytes; per engine one list head (16 bytes)
 * and one bit per slot (twheel_hash_storage_size()).
 */
#ifndef TWHEEL_ENGINES_HASH_SORTED_H
#define TWHEEL_ENGINES_HASH_SORTED_H

#include "twheel.h"
#include "engines/hash.h"

/* The most timers the module loads, a slot on average (max_timers). */
#define TW_HASH_SORTED_PER_SLOT	512

/*
 * Its state is a struct twheel_hash (engines/hash.h), every timer's
 * @rounds 0, its slots' lists sorted by expiry: twheel_create() with
 * twheel_hash_sorted_ops makes one of cfg->slots slots (-EINVAL if that is
 * not a power of two in range).
 */

#endif /* TWHEEL_ENGINES_HASH_SORTED_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the headers of the cascading wheels share (classic, ratas): the
 * level-0 slot of a timer due within the first level's lap or in the past,
 * the one test of their fast path's index before any level is worked out.
 */
#ifndef TWHEEL_ENGINES_WHEEL_H
#define TWHEEL_ENGINES_WHEEL_H

#include <linux/compiler.h>

/*
 * The slot of level 0 (size one-jiffy slots, a power of two) that expires
 * is filed in when the clock is clk: its own if it is less than size
 * jiffies ahead, clk's (the jiffy about to run) if it is in the past; size,
 * no slot of level 0, if it is further ahead.
 */
static __always_inline unsigned int tw_wheel_near_slot(unsigned long expires,
						       unsigned long clk,
						       unsigned int size)
{
	unsigned long delta = expires - clk;

	if (delta < size)
		return expires & (size - 1);
	if ((long)delta < 0)
		return clk & (size - 1);
	return size;
}

#endif /* TWHEEL_ENGINES_WHEEL_H */

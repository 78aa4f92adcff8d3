/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the engines' own files share: level arithmetic, bucket bookkeeping
 * and the engine's common set-up. Only engine files include this; everyone
 * else uses twheel.h.
 */
#ifndef TWHEEL_ENGINES_COMMON_H
#define TWHEEL_ENGINES_COMMON_H

#include <linux/bitmap.h>
#include <linux/string.h>
#include "twheel.h"

/*
 * Jiffies from clk to the next jiffy at which a level with 2^bits slots of
 * 2^shift jiffies each has a set bit in map to process, or ULONG_MAX when
 * the level is empty. A slot is processed when the low shift bits of the
 * clock are zero and the next bits equal its index, so this serves both
 * the classic wheel (tv1: shift 0; tvN: the cascade points) and every level
 * of the modern wheel.
 */
static inline unsigned long tw_level_next(const unsigned long *map,
					  unsigned int bits, unsigned int shift,
					  unsigned long clk)
{
	unsigned long size = 1UL << bits;
	unsigned long lvl_clk = clk >> shift;
	unsigned long start, slot;

	/* The first processing point of this level at or after clk. */
	if (clk & ((1UL << shift) - 1))
		lvl_clk++;
	start = lvl_clk & (size - 1);
	slot = find_next_bit(map, size, start);
	if (slot >= size) {
		slot = find_first_bit(map, size);
		if (slot >= size)
			return ULONG_MAX;
		slot += size;
	}
	return ((lvl_clk + (slot - start)) << shift) - clk;
}

/* Jiffies from clk to the first processing point of a level at all. */
static inline unsigned long tw_level_first(unsigned int shift, unsigned long clk)
{
	unsigned long mask = (1UL << shift) - 1;

	return ((clk + mask) & ~mask) - clk;
}

static inline void tw_engine_init(struct twheel_engine *e,
				  const struct twheel_ops *ops,
				  unsigned long clk, unsigned int nr_levels)
{
	e->ops = ops;
	e->kind = ops->kind;
	e->clk = clk;
	e->nr_levels = nr_levels;
	memset(&e->st, 0, sizeof(e->st));
	e->clock_ns = NULL;
	e->cascade_ns = 0;
	e->on_cascade = NULL;
}

#endif /* TWHEEL_ENGINES_COMMON_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/bitmap.h>. */
#ifndef TW_US_LINUX_BITMAP_H
#define TW_US_LINUX_BITMAP_H

#include <string.h>
#include <linux/bitops.h>

static inline void bitmap_zero(unsigned long *map, unsigned int nbits)
{
	memset(map, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

#endif /* TW_US_LINUX_BITMAP_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/log2.h>: what twheel uses of it. */
#ifndef TW_US_LINUX_LOG2_H
#define TW_US_LINUX_LOG2_H

#include <linux/types.h>

static inline bool is_power_of_2(unsigned long n)
{
	return n && !(n & (n - 1));
}

/* Floor of log2 of n; n must not be 0. */
static inline int ilog2(unsigned long n)
{
	return BITS_PER_LONG - 1 - __builtin_clzl(n);
}

#endif /* TW_US_LINUX_LOG2_H */

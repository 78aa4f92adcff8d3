/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/math64.h>. */
#ifndef TW_US_LINUX_MATH64_H
#define TW_US_LINUX_MATH64_H

#include <linux/types.h>

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

#endif /* TW_US_LINUX_MATH64_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/jiffies.h>: HZ and wrap-safe compares. */
#ifndef TW_US_LINUX_JIFFIES_H
#define TW_US_LINUX_JIFFIES_H

#include <linux/types.h>

#ifndef HZ
#define HZ			250	/* Debian's; build with -DHZ=... */
#endif
#define MSEC_PER_SEC		1000L

/* a is after b when b - a, taken as signed, is negative. */
static inline bool tw_us_after(unsigned long a, unsigned long b)
{
	return (long)(b - a) < 0;
}

static inline bool tw_us_after_eq(unsigned long a, unsigned long b)
{
	return (long)(a - b) >= 0;
}

#define time_after(a, b)	tw_us_after(a, b)
#define time_before(a, b)	tw_us_after(b, a)
#define time_after_eq(a, b)	tw_us_after_eq(a, b)
#define time_before_eq(a, b)	tw_us_after_eq(b, a)

#endif /* TW_US_LINUX_JIFFIES_H */

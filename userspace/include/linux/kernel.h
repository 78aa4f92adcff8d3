/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/kernel.h>: the few helpers twheel uses. */
#ifndef TW_US_LINUX_KERNEL_H
#define TW_US_LINUX_KERNEL_H

#include <limits.h>
#include <string.h>
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/build_bug.h>

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))

/* The structure that holds member, from a pointer to that member. */
#define container_of(ptr, type, member)					\
	((type *)((char *)(ptr) - offsetof(type, member)))

/* Comparing pointers to both makes mixed types a compile-time warning. */
#define tw_us_pick(x, y, op) ({						\
	typeof(x) tw_x = (x);						\
	typeof(y) tw_y = (y);						\
	(void)(&tw_x == &tw_y);						\
	tw_x op tw_y ? tw_x : tw_y; })

#define min(x, y)		tw_us_pick(x, y, <)
#define max(x, y)		tw_us_pick(x, y, >)
#define min_t(type, x, y)	min((type)(x), (type)(y))
#define max_t(type, x, y)	max((type)(x), (type)(y))

#endif /* TW_US_LINUX_KERNEL_H */

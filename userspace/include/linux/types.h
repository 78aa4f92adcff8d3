/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/types.h>: the kernel's fixed-size types. */
#ifndef TW_US_LINUX_TYPES_H
#define TW_US_LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>

/* As the kernel's int-ll64.h: u64 is unsigned long long everywhere. */
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char s8;
typedef short s16;
typedef int s32;
typedef long long s64;

#define BITS_PER_LONG		(8 * (int)sizeof(long))
#define BITS_TO_LONGS(nr)	(((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define DECLARE_BITMAP(name, bits)	unsigned long name[BITS_TO_LONGS(bits)]

struct list_head {
	struct list_head *next, *prev;
};

struct hlist_head {
	struct hlist_node *first;
};

struct hlist_node {
	struct hlist_node *next, **pprev;
};

#endif /* TW_US_LINUX_TYPES_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/build_bug.h>. */
#ifndef TW_US_LINUX_BUILD_BUG_H
#define TW_US_LINUX_BUILD_BUG_H

/* A true cond makes the array size negative: a compile error. */
#define BUILD_BUG_ON(cond)	((void)sizeof(char[1 - 2 * !!(cond)]))

#endif /* TW_US_LINUX_BUILD_BUG_H */

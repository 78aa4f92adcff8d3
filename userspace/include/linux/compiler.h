/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/compiler.h>. */
#ifndef TW_US_LINUX_COMPILER_H
#define TW_US_LINUX_COMPILER_H

#include <sys/cdefs.h>		/* glibc's __always_inline */

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)

/* One thread, no interrupts: plain accesses are once already. */
#define READ_ONCE(x)		(x)
#define WRITE_ONCE(x, val)	((x) = (val))

#endif /* TW_US_LINUX_COMPILER_H */

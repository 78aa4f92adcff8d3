/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/compiler.h>. */
#ifndef TW_US_LINUX_COMPILER_H
#define TW_US_LINUX_COMPILER_H

#include <sys/cdefs.h>		/* glibc's __always_inline */

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)

/*
 * Volatile accesses, as the kernel's: one thread needs no more, but the
 * compiler must treat them as the kernel build does (no merging of two
 * stores into one wide one, no load moved ahead of a test), or the code
 * measured here is not the module's.
 */
#define READ_ONCE(x)		(*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, val)	(*(volatile typeof(x) *)&(x) = (val))

#endif /* TW_US_LINUX_COMPILER_H */

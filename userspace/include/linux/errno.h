/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for <linux/errno.h>. The error numbers below 512 are
 * UAPI, so the system's copy has the kernel's values. glibc's <errno.h>
 * includes <linux/errno.h> too, which is why this is not simply <errno.h>.
 */
#ifndef TW_US_LINUX_ERRNO_H
#define TW_US_LINUX_ERRNO_H

#include_next <linux/errno.h>

#endif /* TW_US_LINUX_ERRNO_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/string.h>: the C library's mem*() and str*(). */
#ifndef TW_US_LINUX_STRING_H
#define TW_US_LINUX_STRING_H

#include <string.h>

#endif /* TW_US_LINUX_STRING_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/stddef.h>: NULL, offsetof, bool. */
#ifndef TW_US_LINUX_STDDEF_H
#define TW_US_LINUX_STDDEF_H

#include <stdbool.h>
#include <stddef.h>

#endif /* TW_US_LINUX_STDDEF_H */

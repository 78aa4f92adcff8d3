/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for <linux/export.h>. Nothing to export to: an
 * export declares an empty struct tag, so that the ';' after it is legal.
 */
#ifndef TW_US_LINUX_EXPORT_H
#define TW_US_LINUX_EXPORT_H

#define tw_us_export(sym)	struct tw_us_export_##sym
#define EXPORT_SYMBOL		tw_us_export
#define EXPORT_SYMBOL_GPL	tw_us_export

#endif /* TW_US_LINUX_EXPORT_H */

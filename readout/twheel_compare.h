/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twheel comparison records: one row per runner and stopped run, shown
 * side by side in debugfs "compare".
 */
#ifndef TWHEEL_COMPARE_H
#define TWHEEL_COMPARE_H

struct dentry;

void tw_compare_record_run(void);
void tw_compare_clear(void);
void tw_compare_debugfs(struct dentry *root);

#endif /* TWHEEL_COMPARE_H */

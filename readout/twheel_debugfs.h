/* SPDX-License-Identifier: GPL-2.0 */
/* twheel read-outs in debugfs: stats, levels, <runner>/occupancy. */
#ifndef TWHEEL_DEBUGFS_H
#define TWHEEL_DEBUGFS_H

struct dentry;
struct tw_config;

void tw_readouts_debugfs(struct dentry *root, const struct tw_config *cfg);

#endif /* TWHEEL_DEBUGFS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twheel histograms: what the driver, the kernel-timer runners and the
 * softirq probes record (tick cost, lateness), and what the read-outs print.
 */
#ifndef TWHEEL_HIST_H
#define TWHEEL_HIST_H

#include <linux/types.h>

struct seq_file;

/* 2^TWHEEL_HIST_SUB buckets per power of two; TWHEEL_HIST_N in all. */
#define TWHEEL_HIST_SUB	3
#define TWHEEL_HIST_N	((64 - TWHEEL_HIST_SUB + 1) << TWHEEL_HIST_SUB)

/**
 * struct twheel_hist - a log-linear histogram of u64 values
 * @n: values added
 * @sum: their sum
 * @max: the largest
 * @b: counts per bucket, see twheel_hist_idx()
 *
 * Log-linear: below 2^TWHEEL_HIST_SUB one bucket per value, above
 * it every power of two split into 2^TWHEEL_HIST_SUB buckets, so a bucket's
 * floor is within 1/8 below any value in it. Percentiles are interpolated
 * within their bucket, see twheel_hist_pct().
 */
struct twheel_hist {
	u64 n, sum, max;
	u64 b[TWHEEL_HIST_N];
};

unsigned int twheel_hist_idx(u64 v);
u64 twheel_hist_floor(unsigned int i);
void twheel_hist_add(struct twheel_hist *h, u64 v);
void twheel_hist_merge(struct twheel_hist *h, const struct twheel_hist *o);
u64 twheel_hist_pct(const struct twheel_hist *h, unsigned int permille);
void twheel_hist_show(struct seq_file *m, const char *name,
		      const struct twheel_hist *h);

#endif /* TWHEEL_HIST_H */

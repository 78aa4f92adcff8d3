// SPDX-License-Identifier: GPL-2.0
/*
 * twheel histograms: log-linear buckets, percentiles as bucket floors.
 */
#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/bitops.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include "twheel_hist.h"

unsigned int twheel_hist_idx(u64 v)
{
	unsigned int e;

	if (v < BIT(TWHEEL_HIST_SUB))
		return v;
	e = fls64(v) - 1 - TWHEEL_HIST_SUB;
	return ((e + 1) << TWHEEL_HIST_SUB) +
	       ((v >> e) & (BIT(TWHEEL_HIST_SUB) - 1));
}
EXPORT_SYMBOL_GPL(twheel_hist_idx);

/* The smallest value bucket i holds. */
u64 twheel_hist_floor(unsigned int i)
{
	unsigned int e = i >> TWHEEL_HIST_SUB;

	if (!e)
		return i;
	return (u64)(BIT(TWHEEL_HIST_SUB) | (i & (BIT(TWHEEL_HIST_SUB) - 1))) <<
	       (e - 1);
}
EXPORT_SYMBOL_GPL(twheel_hist_floor);

void twheel_hist_add(struct twheel_hist *h, u64 v)
{
	h->n++;
	h->sum += v;
	h->max = max(h->max, v);
	h->b[twheel_hist_idx(v)]++;
}
EXPORT_SYMBOL_GPL(twheel_hist_add);

/*
 * The floor of the bucket holding the value of rank ceil(n * permille /
 * 1000) (at least the first); 0 for an empty histogram.
 */
u64 twheel_hist_pct(const struct twheel_hist *h, unsigned int permille)
{
	u64 want = div_u64(h->n * permille + 999, 1000), seen = 0;
	unsigned int i;

	if (!h->n)
		return 0;
	want = max_t(u64, want, 1);
	for (i = 0; i < TWHEEL_HIST_N; i++) {
		seen += h->b[i];
		if (seen >= want)
			return twheel_hist_floor(i);
	}
	return h->max;
}
EXPORT_SYMBOL_GPL(twheel_hist_pct);

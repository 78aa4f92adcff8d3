// SPDX-License-Identifier: GPL-2.0
/*
 * twheel histograms: log-linear buckets, percentiles interpolated in them.
 */
#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/bitops.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/seq_file.h>
#include "runner/twheel_hist.h"

/**
 * twheel_hist_idx() - the bucket a value goes in
 * @v: the value
 *
 * Values below 2^TWHEEL_HIST_SUB have a bucket each; above, each power of
 * two is split into 2^TWHEEL_HIST_SUB buckets by the bits below the top
 * one.
 *
 * Return: the bucket's index, below TWHEEL_HIST_N.
 */
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

/**
 * twheel_hist_floor() - the smallest value a bucket holds
 * @i: the bucket's index, below TWHEEL_HIST_N
 *
 * Return: the smallest value v with twheel_hist_idx(v) == @i.
 */
u64 twheel_hist_floor(unsigned int i)
{
	unsigned int e = i >> TWHEEL_HIST_SUB;

	if (!e)
		return i;
	return (u64)(BIT(TWHEEL_HIST_SUB) | (i & (BIT(TWHEEL_HIST_SUB) - 1))) <<
	       (e - 1);
}
EXPORT_SYMBOL_GPL(twheel_hist_floor);

/**
 * twheel_hist_add() - record a value
 * @h: the histogram; the caller serialises access to it
 * @v: the value
 *
 * Counts @v in @h->n and its bucket, adds it to @h->sum (which wraps
 * modulo 2^64 rather than saturate) and raises @h->max to it if larger.
 */
void twheel_hist_add(struct twheel_hist *h, u64 v)
{
	h->n++;
	h->sum += v;
	h->max = max(h->max, v);
	h->b[twheel_hist_idx(v)]++;
}
EXPORT_SYMBOL_GPL(twheel_hist_add);

/**
 * twheel_hist_merge() - add one histogram's values to another's
 * @h: the histogram added to; the caller serialises access to it
 * @o: the histogram whose values are added
 *
 * Afterwards @h is what it would be had every value of @o also been added
 * to it (the totals of per-CPU histograms).
 */
void twheel_hist_merge(struct twheel_hist *h, const struct twheel_hist *o)
{
	unsigned int i;

	h->n += o->n;
	h->sum += o->sum;
	h->max = max(h->max, o->max);
	for (i = 0; i < TWHEEL_HIST_N; i++)
		h->b[i] += o->b[i];
}
EXPORT_SYMBOL_GPL(twheel_hist_merge);

/**
 * twheel_hist_pct() - a percentile, interpolated within its bucket
 * @h: the histogram
 * @permille: the percentile in thousandths: 500 for the median, 990 for
 *	p99; at most 1000
 *
 * The value of rank r = ceil(n * @permille / 1000) (at least 1) lies in
 * the bucket where the running count first reaches r. Its c values are
 * taken as spread evenly over the bucket's range [lo, hi] (hi no more
 * than @h->max), and the estimate is the middle of the (r - before)-th
 * of c equal parts of it. It is exact for buckets of one value (below
 * 2^TWHEEL_HIST_SUB, or one holding only @h->max), within the bucket's
 * width (1/8 of lo) otherwise, and it moves by a fraction of a bucket,
 * not a whole one, when a few values cross a bucket's edge: two runs of
 * the same code then differ by what their values differ by.
 *
 * Return: the estimate, in [lo, hi]; 0 for an empty histogram.
 */
u64 twheel_hist_pct(const struct twheel_hist *h, unsigned int permille)
{
	u64 want = div_u64(h->n * permille + 999, 1000), seen = 0, lo, hi;
	unsigned int i;

	if (!h->n)
		return 0;
	want = max_t(u64, want, 1);
	for (i = 0; i < TWHEEL_HIST_N; i++) {
		if (seen + h->b[i] >= want)
			break;
		seen += h->b[i];
	}
	if (i == TWHEEL_HIST_N)
		return h->max;
	lo = twheel_hist_floor(i);
	hi = i + 1 < TWHEEL_HIST_N ? twheel_hist_floor(i + 1) - 1 : U64_MAX;
	hi = clamp(h->max, lo, hi);
	return lo + mul_u64_u64_div_u64(hi - lo, 2 * (want - seen) - 1,
					2 * h->b[i]);
}
EXPORT_SYMBOL_GPL(twheel_hist_pct);

/**
 * twheel_hist_show() - a histogram as stats shows it
 * @m: the file
 * @name: the key's prefix
 * @h: the histogram
 *
 * Prints the lines @name_n, _max, _avg, _p50 and _p99, then _hist: each
 * non-empty bucket as floor:count. The caller keeps @h stable.
 */
void twheel_hist_show(struct seq_file *m, const char *name,
		      const struct twheel_hist *h)
{
	unsigned int k;

	seq_printf(m, "%s_n: %llu\n", name, h->n);
	seq_printf(m, "%s_max: %llu\n", name, h->max);
	seq_printf(m, "%s_avg: %llu\n", name, h->n ? div64_u64(h->sum, h->n) : 0);
	seq_printf(m, "%s_p50: %llu\n", name, twheel_hist_pct(h, 500));
	seq_printf(m, "%s_p99: %llu\n", name, twheel_hist_pct(h, 990));
	seq_printf(m, "%s_hist:", name);
	for (k = 0; k < TWHEEL_HIST_N; k++)
		if (h->b[k])
			seq_printf(m, " %llu:%llu", twheel_hist_floor(k), h->b[k]);
	seq_putc(m, '\n');
}

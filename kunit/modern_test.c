// SPDX-License-Identifier: GPL-2.0
/*
 * The modern (Linux >= 4.8) wheel: bucket expiry equal to the kernel's,
 * never early, lateness bounded by the level granularity, both depths, the
 * pending bitmap, next_event, the level tables and a differential run
 * against the reference engine.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/log2.h>
#include "tw_test.h"
#include "engines/modern.h"

/*
 * The jiffy a timer armed at clk for expires must run at, written
 * independently of the engine: level n holds deltas below 63 * 8^n, so the
 * level is the number of octal digits of delta / 63; the bucket expiry is
 * the next multiple of the level's granularity strictly above expires.
 */
static unsigned long tw_expect_modern(unsigned long clk, unsigned long expires,
				      unsigned int depth, unsigned long *gran)
{
	unsigned long delta = expires - clk, q = delta / 63;
	unsigned int lvl = q ? (fls64(q) - 1) / 3 + 1 : 0;

	if ((long)delta < 0) {
		*gran = 1;
		return clk;
	}
	if (lvl > depth - 1) {
		lvl = depth - 1;
		/* Beyond capacity: clamped, as the kernel forces it. */
		if (delta >= 63UL << (3 * lvl))
			expires = clk + (63UL << (3 * lvl)) - (1UL << (3 * lvl));
	}
	*gran = 1UL << (3 * lvl);
	return (expires | (*gran - 1)) + 1;
}

static struct twheel_modern *tw_modern_new(struct kunit *test, unsigned long clk,
					   unsigned int depth)
{
	struct tw_engines *te = tw_engines_new(test, clk);

	KUNIT_ASSERT_EQ(test, 0, twheel_modern_init(&te->modern, clk, depth));
	return &te->modern;
}

/* Arms each delta from clk and checks the jiffy it runs at. */
static void tw_modern_deltas(struct kunit *test, unsigned long clk,
			     unsigned int depth, const unsigned long *deltas,
			     unsigned long n)
{
	struct twheel_modern *m = tw_modern_new(test, clk, depth);
	struct twheel_engine *e = &m->e;
	unsigned long i, last = 0, bad = 0, cutoff = m->cutoff;
	struct tw_ctx ctx;
	struct tw_rec *r;

	tw_ctx_init(&ctx, test, e);
	r = tw_recs_new(test, &ctx, n);
	for (i = 0; i < n; i++) {
		unsigned long d = deltas ? deltas[i] : i;

		r[i].expect = tw_expect_modern(clk, clk + d, depth, &r[i].slack);
		last = max(last, r[i].expect - clk);
		twheel_add(e, &r[i].t, clk + d);
	}
	tw_run_until(&ctx, clk + last);
	for (i = 0; i < n; i++) {
		unsigned long d = r[i].t.expires - clk;
		unsigned long late = r[i].fired_at - r[i].t.expires;

		if (r[i].fired == 1 && r[i].fired_at == r[i].expect &&
		    (d >= cutoff || (late >= 1 && late <= r[i].slack)))
			continue;
		if (!bad++)
			KUNIT_FAIL(test, "depth %u clk %lu delta %lu: ran %u at %lu, not %lu",
				   depth, clk, d, r[i].fired, r[i].fired_at,
				   r[i].expect);
	}
	KUNIT_EXPECT_EQ(test, bad, 0UL);
	KUNIT_EXPECT_EQ(test, e->st.cascades, 0ULL);
	tw_check_invariant(test, e);
}

static void modern_every_delta_to_70000(struct kunit *test)
{
	tw_modern_deltas(test, 0, 9, NULL, 70001);
	tw_modern_deltas(test, (3UL << 15) + (5UL << 9) + 77, 9, NULL, 70001);
	tw_modern_deltas(test, 12345, 8, NULL, 70001);
}

/* Every level boundary and the clamp boundary, +-1, and random samples. */
static void tw_modern_sampled(struct kunit *test, unsigned int depth)
{
	const unsigned long nr = 256;
	unsigned long cutoff = 63UL << (3 * (depth - 1)), n = 0;
	unsigned long *d = kunit_kmalloc_array(test, nr, sizeof(*d), GFP_KERNEL);
	struct rnd_state rs;
	unsigned int lvl;

	KUNIT_ASSERT_NOT_NULL(test, d);
	for (lvl = 1; lvl < depth; lvl++) {
		d[n++] = (63UL << (3 * (lvl - 1))) - 1;
		d[n++] = 63UL << (3 * (lvl - 1));
		d[n++] = (63UL << (3 * (lvl - 1))) + 1;
	}
	d[n++] = cutoff - 1;
	d[n++] = cutoff;
	d[n++] = cutoff + 1;
	d[n++] = cutoff * 5;
	d[n++] = LONG_MAX;
	prandom_seed_state(&rs, depth);
	while (n < nr)
		d[n++] = prandom_u32_state(&rs) % (cutoff + cutoff / 8);
	tw_modern_deltas(test, 1000, depth, d, n);
	tw_modern_deltas(test, ULONG_MAX - 100000, depth, d, n);
}

static void modern_sampled_deltas_depth_9(struct kunit *test)
{
	tw_modern_sampled(test, 9);
}

static void modern_sampled_deltas_depth_8(struct kunit *test)
{
	tw_modern_sampled(test, 8);
}

static void modern_seed_example(struct kunit *test)
{
	struct twheel_modern *m = tw_modern_new(test, 0, 9);
	struct tw_ctx ctx;
	struct tw_rec *r;

	tw_ctx_init(&ctx, test, &m->e);
	r = tw_recs_new(test, &ctx, 3);
	twheel_add(&m->e, &r[0].t, 68);		/* 4 jiffies late */
	twheel_add(&m->e, &r[1].t, 64);
	twheel_add(&m->e, &r[2].t, 62);		/* level 0: the next jiffy */
	KUNIT_EXPECT_EQ(test, r[0].t.bucket, 64U + 9);
	KUNIT_EXPECT_EQ(test, r[1].t.bucket, 64U + 9);
	KUNIT_EXPECT_EQ(test, r[2].t.bucket, 63U);
	tw_run_until(&ctx, 100);
	KUNIT_EXPECT_EQ(test, r[0].fired_at, 72UL);
	KUNIT_EXPECT_EQ(test, r[1].fired_at, 72UL);
	KUNIT_EXPECT_EQ(test, r[2].fired_at, 63UL);
}

static void modern_capacity_and_clamp(struct kunit *test)
{
	struct twheel_modern *m8 = tw_modern_new(test, 0, 8);
	struct twheel_modern *m9 = tw_modern_new(test, 0, 9);
	unsigned long be;

	KUNIT_EXPECT_EQ(test, m8->cutoff, 63UL << 21);
	KUNIT_EXPECT_EQ(test, m8->max_delta, (63UL << 21) - (1UL << 21));
	KUNIT_EXPECT_EQ(test, m9->cutoff, 63UL << 24);
	KUNIT_EXPECT_EQ(test, m9->max_delta, (63UL << 24) - (1UL << 24));
	/* Just inside: last level, not clamped. */
	KUNIT_EXPECT_EQ(test, twheel_modern_index(m9, (63UL << 24) - 1, &be),
			8U * 64 + (unsigned int)((((63UL << 24) - 1) >> 24) + 1) % 64);
	KUNIT_EXPECT_EQ(test, be, 63UL << 24);
	/* At and beyond the cutoff: the wheel maximum, early if need be. */
	KUNIT_EXPECT_EQ(test, twheel_modern_index(m9, 63UL << 24, &be), 8U * 64 + 63);
	KUNIT_EXPECT_EQ(test, be, 63UL << 24);
	KUNIT_EXPECT_EQ(test, twheel_modern_index(m9, 1UL << 40, &be), 8U * 64 + 63);
	KUNIT_EXPECT_EQ(test, be, 63UL << 24);
	KUNIT_EXPECT_EQ(test, twheel_modern_index(m8, 1UL << 40, &be), 7U * 64 + 63);
	KUNIT_EXPECT_EQ(test, be, 63UL << 21);
	/* In the past: the current level-0 bucket, run at clk. */
	m9->e.clk = 1000;
	KUNIT_EXPECT_EQ(test, twheel_modern_index(m9, 990, &be), 1000U % 64);
	KUNIT_EXPECT_EQ(test, be, 1000UL);
}

/*
 * The kernel's calc_wheel_index() as a walk over the levels, the way the
 * wheel computed it before the level came from the delta's highest bit.
 */
static unsigned int tw_walk_index(unsigned long clk, unsigned int depth,
				  unsigned long expires, unsigned long *be)
{
	unsigned long delta = expires - clk;
	unsigned int lvl = 0;

	if ((long)delta < 0) {
		*be = clk;
		return clk & 63;
	}
	if (delta >= tw_lvl_start(depth)) {
		expires = clk + tw_lvl_start(depth) - tw_lvl_gran(depth - 1);
		lvl = depth - 1;
	} else {
		while (lvl + 1 < depth && delta >= tw_lvl_start(lvl + 1))
			lvl++;
	}
	expires = (expires >> (3 * lvl)) + 1;
	*be = expires << (3 * lvl);
	return lvl * 64 + (expires & 63);
}

/*
 * The placement (two compares for levels 0 and 1, the highest-bit look-up
 * beyond) against the walk at every level boundary +-2, the clamp +-2, the
 * first deltas and the last ones of the past, for every depth the wheel
 * takes (at depth 2 the clamp is where level 2 would start) and clocks with
 * every low-bit pattern that matters (aligned, one short of aligned,
 * wrapping).
 */
static void modern_index_at_every_boundary(struct kunit *test)
{
	static const unsigned long clks[] = {
		0, 1, 7, 8, 63, 64, 511, 4095, 123456789, 1UL << 31,
		ULONG_MAX - (1UL << 30), ULONG_MAX - 7, ULONG_MAX,
	};
	struct twheel_modern *m = tw_modern_new(test, 0, 9);
	unsigned long be, want_be, delta, checked = 0;
	unsigned int depth, c, lvl, want, got;
	int d;

	for (depth = 2; depth <= TW_MODERN_MAX_LEVELS; depth++) {
		KUNIT_ASSERT_EQ(test, twheel_modern_init(m, 0, depth), 0);
		for (c = 0; c < ARRAY_SIZE(clks); c++) {
			m->e.clk = clks[c];
			for (lvl = 1; lvl <= depth; lvl++) {
				for (d = -2; d <= 2; d++) {
					delta = tw_lvl_start(lvl) + d;
					want = tw_walk_index(m->e.clk, depth,
							     m->e.clk + delta,
							     &want_be);
					got = twheel_modern_index(m, m->e.clk + delta, &be);
					KUNIT_EXPECT_EQ_MSG(test, got, want,
							    "depth %u clk %lu delta %lu",
							    depth, m->e.clk, delta);
					KUNIT_EXPECT_EQ(test, be, want_be);
					checked++;
				}
			}
			for (d = -2; d < 3; d++) {
				delta = d;
				got = twheel_modern_index(m, m->e.clk + delta, &be);
				want = tw_walk_index(m->e.clk, depth,
						     m->e.clk + delta, &want_be);
				KUNIT_EXPECT_EQ(test, got, want);
				KUNIT_EXPECT_EQ(test, be, want_be);
				checked++;
			}
		}
	}
	/* depths 2..9: 5 near deltas and 5 a level, 2 + 3 + ... + 9 levels */
	KUNIT_EXPECT_EQ(test, checked, (8UL * 5 + 5UL * 44) * ARRAY_SIZE(clks));
}

static void tw_check_bitmap(struct kunit *test, struct twheel_modern *m)
{
	unsigned int i, bad = 0;

	for (i = 0; i < TW_MODERN_BUCKETS; i++)
		if (test_bit(i, m->pending_map) == hlist_empty(&m->vec[i]))
			bad++;
	KUNIT_EXPECT_EQ(test, bad, 0U);
}

/* Brute force: the earliest recorded bucket expiry of any pending timer. */
static unsigned long tw_brute_next(struct twheel_modern *m, struct tw_rec *r,
				   unsigned int n, unsigned long limit)
{
	unsigned long best = limit;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (twheel_pending(&m->e, &r[i].t))
			best = min(best, r[i].expect - m->e.clk);
	return best;
}

static void modern_bitmap_and_next_event(struct kunit *test)
{
	const unsigned int n = 200;
	struct twheel_modern *m = tw_modern_new(test, 777, 9);
	struct twheel_engine *e = &m->e;
	unsigned int op, id, mism = 0;
	unsigned long exp, limit;
	struct rnd_state rs;
	struct tw_ctx ctx;
	struct tw_rec *r;

	prandom_seed_state(&rs, 99);
	tw_ctx_init(&ctx, test, e);
	r = tw_recs_new(test, &ctx, n);
	for (op = 0; op < 20000; op++) {
		u32 x = prandom_u32_state(&rs);

		id = (x >> 8) % n;
		switch (x % 10) {
		case 0 ... 4:
			exp = e->clk + tw_rand_delta(&rs);
			/* A mod to the same expiry leaves the timer alone. */
			if (!twheel_pending(e, &r[id].t) || r[id].t.expires != exp)
				r[id].expect = tw_expect_modern(e->clk, exp, 9,
								&r[id].slack);
			twheel_mod(e, &r[id].t, exp);
			break;
		case 5 ... 6:
			twheel_del(e, &r[id].t);
			break;
		default:
			tw_run_until(&ctx, e->clk + (x >> 12) % 3000);
			break;
		}
		if (op % 16 == 0)
			tw_check_bitmap(test, m);
		limit = (x & 1) ? ULONG_MAX : (x >> 16);
		if (twheel_next_event(e, limit) != tw_brute_next(m, r, n, limit))
			mism++;
	}
	KUNIT_EXPECT_EQ(test, mism, 0U);
	tw_check_bitmap(test, m);
	tw_check_invariant(test, e);
}

static void modern_next_event_bounded(struct kunit *test)
{
	struct twheel_modern *m = tw_modern_new(test, 8, 9);
	struct tw_ctx ctx;
	struct tw_rec *r;

	tw_ctx_init(&ctx, test, &m->e);
	r = tw_recs_new(test, &ctx, 1);
	KUNIT_EXPECT_EQ(test, twheel_next_event(&m->e, 12345), 12345UL);
	twheel_add(&m->e, &r[0].t, 8 + 5000);	/* level 3: bucket at 5120 */
	KUNIT_EXPECT_EQ(test, twheel_next_event(&m->e, ULONG_MAX), 5120UL - 8);
	KUNIT_EXPECT_EQ(test, twheel_next_event(&m->e, 100), 100UL);
}

static void modern_mod_same_bucket_no_relink(struct kunit *test)
{
	struct twheel_modern *m = tw_modern_new(test, 0, 9);
	struct twheel_engine *e = &m->e;
	struct hlist_node **pprev;
	struct tw_ctx ctx;
	struct tw_rec *r;

	tw_ctx_init(&ctx, test, e);
	r = tw_recs_new(test, &ctx, 3);
	twheel_add(e, &r[0].t, 1000);		/* level 2, bucket 1024 */
	twheel_add(e, &r[1].t, 1001);		/* same bucket, now first */
	twheel_add(e, &r[2].t, 5);
	pprev = r[0].t.entry.pprev;
	KUNIT_EXPECT_TRUE(test, twheel_mod(e, &r[0].t, 1020));
	KUNIT_EXPECT_EQ(test, e->st.mod_inplace, 1ULL);
	KUNIT_EXPECT_PTR_EQ(test, r[0].t.entry.pprev, pprev);
	KUNIT_EXPECT_EQ(test, r[0].t.expires, 1020UL);
	KUNIT_EXPECT_EQ(test, r[0].t.bucket, 128U + 16);
	/* A different bucket relinks and keeps the bitmap exact. */
	KUNIT_EXPECT_TRUE(test, twheel_mod(e, &r[2].t, 40));
	KUNIT_EXPECT_EQ(test, e->st.mod_inplace, 1ULL);
	KUNIT_EXPECT_FALSE(test, test_bit(6, m->pending_map));
	KUNIT_EXPECT_TRUE(test, test_bit(41, m->pending_map));
	tw_run_until(&ctx, 2000);
	KUNIT_EXPECT_EQ(test, r[0].fired_at, 1024UL);
	KUNIT_EXPECT_EQ(test, r[1].fired_at, 1024UL);
	KUNIT_EXPECT_EQ(test, r[2].fired_at, 41UL);
	tw_check_invariant(test, e);
}

/*
 * Timers of several levels due at one jiffy run as __run_timers() runs
 * them: the highest level's bucket first, and within a bucket the newest
 * first (head insertion). All four here are due at jiffy 1024.
 */
static void modern_order_within_a_jiffy(struct kunit *test)
{
	struct twheel_modern *m = tw_modern_new(test, 0, 9);
	struct twheel_engine *e = &m->e;
	static const unsigned int want[] = { 3, 0, 1, 2 };
	unsigned int seq[4], i;
	struct tw_ctx ctx;
	struct tw_rec *r;

	r = tw_seq_recs(test, &ctx, e, seq, ARRAY_SIZE(seq), 4);
	twheel_add(e, &r[0].t, 1000);		/* level 2: (1000 >> 6) + 1 = 16 */
	twheel_add(e, &r[3].t, 1010);		/* the same bucket, newer */
	tw_run_until(&ctx, 899);
	twheel_add(e, &r[1].t, 1017);		/* level 1: (1017 >> 3) + 1 = 128 */
	tw_run_until(&ctx, 999);
	twheel_add(e, &r[2].t, 1023);		/* level 0: 1023 + 1 */
	KUNIT_EXPECT_EQ(test, r[0].t.bucket, 2 * 64 + 16U);
	KUNIT_EXPECT_EQ(test, r[3].t.bucket, 2 * 64 + 16U);
	KUNIT_EXPECT_EQ(test, r[1].t.bucket, 1 * 64 + 0U);
	KUNIT_EXPECT_EQ(test, r[2].t.bucket, 0 * 64 + 0U);
	tw_run_until(&ctx, 1100);
	KUNIT_ASSERT_EQ(test, ctx.seq_len, 4U);
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, r[i].fired_at, 1024UL);
		KUNIT_EXPECT_EQ_MSG(test, seq[i], want[i], "run %u", i);
	}
}

/*
 * Jiffy 2^28, where every level is due (the ninth at its bucket 16, the
 * eighth at bucket 0, the seven below it at their first buckets, which
 * the tick looks at together): one timer in each level's due bucket runs
 * there, highest level first, and one in bucket 1 of each of levels 0-7
 * runs a granule later, at 2^28 + 8^level. Each timer is armed for
 * 2^28 - 1 from a clock that puts it in its level; the jiffy itself is
 * run alone, through the one-jiffy fast path.
 */
static void modern_every_level_due(struct kunit *test)
{
	static const unsigned long delta[9] = {
		10, 100, 1000, 10000, 100000, 1000000, 3000000, 20000000,
		140000000,
	};
	const unsigned long j = 1UL << 28;
	struct twheel_modern *m = tw_modern_new(test, j - 1 - delta[8], 9);
	struct twheel_engine *e = &m->e;
	unsigned int seq[17], i, lvl;
	struct tw_ctx ctx;
	struct tw_rec *r;

	r = tw_seq_recs(test, &ctx, e, seq, ARRAY_SIZE(seq), 17);
	for (lvl = 9; lvl--; ) {
		if (e->clk != j - 1 - delta[lvl])
			twheel_advance(e, j - 2 - delta[lvl]);
		KUNIT_ASSERT_EQ(test, e->clk, j - 1 - delta[lvl]);
		KUNIT_ASSERT_NULL(test, twheel_pop(e));
		/* r[8 - lvl]: due at j; r[9 + lvl]: a granule later */
		twheel_add(e, &r[8 - lvl].t, j - 1);
		KUNIT_EXPECT_EQ_MSG(test, r[8 - lvl].t.bucket,
				    lvl * 64 + ((j >> (3 * lvl)) & 63), "level %u", lvl);
		if (lvl == 8)
			continue;
		twheel_add(e, &r[9 + lvl].t, j - 1 + (1UL << (3 * lvl)));
		KUNIT_EXPECT_EQ_MSG(test, r[9 + lvl].t.bucket, lvl * 64 + 1,
				    "level %u", lvl);
	}
	tw_run_until(&ctx, j - 1);
	KUNIT_EXPECT_EQ(test, ctx.seq_len, 0U);
	KUNIT_EXPECT_EQ(test, e->clk, j);
	tw_run_until(&ctx, j);
	KUNIT_ASSERT_EQ(test, ctx.seq_len, 9U);
	for (i = 0; i < 9; i++) {
		KUNIT_EXPECT_EQ_MSG(test, seq[i], i, "run %u", i);
		KUNIT_EXPECT_EQ_MSG(test, r[i].fired_at, j, "level %u", 8 - i);
	}
	tw_run_until(&ctx, j + (1UL << 21));
	KUNIT_ASSERT_EQ(test, ctx.seq_len, 17U);
	for (lvl = 0; lvl < 8; lvl++) {
		KUNIT_EXPECT_EQ_MSG(test, seq[9 + lvl], 9 + lvl, "level %u", lvl);
		KUNIT_EXPECT_EQ_MSG(test, r[9 + lvl].fired_at,
				    j + (1UL << (3 * lvl)), "level %u", lvl);
	}
	KUNIT_EXPECT_EQ(test, e->st.expired, 17ULL);
	tw_check_invariant(test, e);
}

/* Advances e to now: one jiffy at a time, or in one call. */
static void tw_modern_advance_to(struct twheel_engine *e, unsigned long now,
				 bool steps)
{
	while (steps && e->clk != now)
		twheel_advance(e, e->clk);
	twheel_advance(e, now);
}

/*
 * Buckets collected at several jiffies with nothing popped in between stay
 * in jiffy order, and within a jiffy the higher level first: through the
 * one-jiffy fast path (steps, so jiffy 1032, whose level-1 bucket is due
 * but no higher level's, takes the inline level-1 test) or one advance
 * over the whole span (the ops path). A collected timer deleted from the
 * end of the list is gone and the next bucket goes after what is left.
 */
static void tw_modern_collect_span(struct kunit *test, bool steps)
{
	struct twheel_modern *m = tw_modern_new(test, 960, 9);
	struct twheel_engine *e = &m->e;
	/* ids in pop order: 1032's level-1 bucket (4) before its level 0 (3) */
	static const unsigned int want[] = { 1, 0, 2, 4, 3, 6 };
	struct twheel_timer *t;
	struct tw_ctx ctx;
	struct tw_rec *r;
	unsigned int i;

	tw_ctx_init(&ctx, test, e);
	r = tw_recs_new(test, &ctx, 7);
	twheel_add(e, &r[4].t, 1025);		/* level 1: bucket expiry 1032 */
	KUNIT_EXPECT_EQ(test, r[4].t.bucket, 1 * 64 + (1032U >> 3) % 64);
	twheel_advance(e, 999);
	KUNIT_ASSERT_NULL(test, twheel_pop(e));
	twheel_add(e, &r[0].t, 1029);		/* level 0, 1030: after 1 */
	twheel_add(e, &r[1].t, 1029);		/* the same bucket, newer: first */
	twheel_add(e, &r[2].t, 1030);		/* level 0, 1031 */
	twheel_add(e, &r[3].t, 1031);		/* level 0, 1032 */
	twheel_add(e, &r[5].t, 1070);		/* level 1, 1072 */
	tw_modern_advance_to(e, 1072, steps);
	KUNIT_EXPECT_EQ(test, e->clk, 1073UL);
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &r[5].t));	/* the last one */
	twheel_add(e, &r[6].t, 1075);		/* level 0, 1076 */
	tw_modern_advance_to(e, 1076, steps);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		t = twheel_pop(e);
		KUNIT_ASSERT_NOT_NULL(test, t);
		KUNIT_EXPECT_PTR_EQ_MSG(test, t, &r[want[i]].t, "pop %u", i);
	}
	KUNIT_EXPECT_NULL(test, twheel_pop(e));
	KUNIT_EXPECT_FALSE(test, twheel_pending(e, &r[5].t));
	KUNIT_EXPECT_EQ(test, e->st.expired, 6ULL);
	KUNIT_EXPECT_EQ(test, e->st.deleted, 1ULL);
	tw_check_invariant(test, e);
}

static void modern_collect_steps_without_pop(struct kunit *test)
{
	tw_modern_collect_span(test, true);
}

static void modern_collect_span_without_pop(struct kunit *test)
{
	tw_modern_collect_span(test, false);
}

/* The kernel's table (kernel/time/timer.c) for one HZ, in ms. */
struct tw_doc_row {
	u64 gran, start, end;
};

static const struct tw_doc_row tw_doc_1000[] = {
	{ 1, 0, 63 }, { 8, 64, 511 }, { 64, 512, 4095 },
	{ 512, 4096, 32767 }, { 4096, 32768, 262143 },
	{ 32768, 262144, 2097151 }, { 262144, 2097152, 16777215 },
	{ 2097152, 16777216, 134217727 }, { 16777216, 134217728, 1073741822 },
};

static const struct tw_doc_row tw_doc_300[] = {
	{ 3, 0, 210 }, { 26, 213, 1703 }, { 213, 1706, 13650 },
	{ 1706, 13653, 109223 }, { 13653, 109226, 873810 },
	{ 109226, 873813, 6990503 }, { 873813, 6990506, 55924050 },
	{ 6990506, 55924053, 447392423 }, { 55924053, 447392426, 3579139406 },
};

static const struct tw_doc_row tw_doc_250[] = {
	{ 4, 0, 255 }, { 32, 256, 2047 }, { 256, 2048, 16383 },
	{ 2048, 16384, 131071 }, { 16384, 131072, 1048575 },
	{ 131072, 1048576, 8388607 }, { 1048576, 8388608, 67108863 },
	{ 8388608, 67108864, 536870911 }, { 67108864, 536870912, 4294967288 },
};

static const struct tw_doc_row tw_doc_100[] = {
	{ 10, 0, 630 }, { 80, 640, 5110 }, { 640, 5120, 40950 },
	{ 5120, 40960, 327670 }, { 40960, 327680, 2621430 },
	{ 327680, 2621440, 20971510 }, { 2621440, 20971520, 167772150 },
	{ 20971520, 167772160, 1342177270 },
};

static void tw_check_table(struct kunit *test, unsigned int hz,
			   const struct tw_doc_row *doc, unsigned int depth)
{
	struct twheel_level_info li;
	unsigned int lvl;

	KUNIT_EXPECT_EQ(test, depth, hz > 100 ? 9U : 8U);
	for (lvl = 0; lvl < depth; lvl++) {
		twheel_level_info(hz, depth, lvl, &li);
		KUNIT_EXPECT_EQ(test, li.offset, lvl * 64);
		KUNIT_EXPECT_EQ_MSG(test, li.gran_ms, doc[lvl].gran, "HZ %u level %u", hz, lvl);
		KUNIT_EXPECT_EQ_MSG(test, li.start_ms, doc[lvl].start, "HZ %u level %u", hz, lvl);
		/* What levels shows as the kernel's table: the comment as is. */
		KUNIT_EXPECT_EQ_MSG(test, li.table_end_ms, doc[lvl].end,
				    "HZ %u level %u", hz, lvl);
		/*
		 * Our own rule (the last jiffy of the range, 64 * 8^n - 1, in
		 * whole ms) agrees with the comment but in two places: its
		 * 9-level tables end the last level at jiffy 2^30 - 2, and its
		 * HZ 250 table gives the last ms of the last jiffy.
		 */
		if (lvl != 8 && hz != 250)
			KUNIT_EXPECT_EQ_MSG(test, li.end_ms, doc[lvl].end,
					    "HZ %u level %u", hz, lvl);
		else
			KUNIT_EXPECT_NE_MSG(test, li.end_ms, doc[lvl].end,
					    "HZ %u level %u", hz, lvl);
	}
}

static void modern_level_tables(struct kunit *test)
{
	struct twheel_level_info li;

	tw_check_table(test, 1000, tw_doc_1000, 9);
	tw_check_table(test, 300, tw_doc_300, 9);
	tw_check_table(test, 250, tw_doc_250, 9);
	tw_check_table(test, 100, tw_doc_100, 8);
	/* What the levels really file, by the placement rule. */
	twheel_level_info(250, 9, 1, &li);
	KUNIT_EXPECT_EQ(test, li.file_lo, 63UL);
	KUNIT_EXPECT_EQ(test, li.file_hi, 503UL);
	twheel_level_info(250, 9, 8, &li);
	KUNIT_EXPECT_EQ(test, li.file_hi, ULONG_MAX);
}

static void modern_wrap_near_ulong_max(struct kunit *test)
{
	tw_modern_deltas(test, ULONG_MAX - 1000, 9, NULL, 5000);
	tw_modern_deltas(test, ULONG_MAX - 3, 8, NULL, 5000);
}

static void modern_differential_vs_reference(struct kunit *test)
{
	const unsigned int n = 256, ops = 100000;
	struct tw_engines *te = tw_engines_new(test, INITIAL_JIFFIES);
	struct twheel_engine *me = &te->modern.e, *re = &te->reference.e;
	unsigned int op, id, i, bad = 0, skipped = 0;
	struct tw_ctx mctx, rctx;
	struct tw_rec *m, *ref;
	struct rnd_state rs;
	unsigned long exp;

	prandom_seed_state(&rs, 4242);
	tw_ctx_init(&mctx, test, me);
	tw_ctx_init(&rctx, test, re);
	mctx.hook = tw_expect_hook;
	rctx.hook = tw_expect_hook;
	m = tw_recs_new(test, &mctx, n);
	ref = tw_recs_new(test, &rctx, n);
	for (op = 0; op < ops && !bad; op++) {
		u32 x = prandom_u32_state(&rs);
		bool mp, rp;

		id = (x >> 8) % n;
		mp = twheel_pending(me, &m[id].t);
		rp = twheel_pending(re, &ref[id].t);
		if (x % 100 < 60 && mp != rp) {
			/* Run by the reference, not yet by modern: let it. */
			skipped++;
			continue;
		}
		switch (x % 100) {
		case 0 ... 39:
			exp = me->clk + tw_rand_delta(&rs);
			if (!mp || m[id].t.expires != exp) {
				m[id].expect = tw_expect_modern(me->clk, exp, 9,
								&m[id].slack);
				ref[id].expect = time_before(exp, me->clk) ?
						 me->clk : exp;
				if (m[id].expect - ref[id].expect > m[id].slack)
					bad++;
			}
			mp = twheel_mod(me, &m[id].t, exp);
			rp = twheel_mod(re, &ref[id].t, exp);
			break;
		case 40 ... 59:
			mp = twheel_del(me, &m[id].t);
			rp = twheel_del(re, &ref[id].t);
			break;
		default:
			exp = me->clk + (x >> 8) % ((x & 0x80) ? 5000 : 64);
			tw_run_until(&mctx, exp);
			tw_run_until(&rctx, exp);
			continue;
		}
		if (mp != rp && !bad++)
			KUNIT_FAIL(test, "op %u timer %u: modern %d reference %d",
				   op, id, mp, rp);
	}
	/* Let everything still pending run. */
	tw_run_until(&mctx, me->clk + (1UL << 28));
	tw_run_until(&rctx, re->clk + (1UL << 28));
	/* Each run was checked against its own engine's expectation. */
	KUNIT_EXPECT_EQ(test, mctx.bad, 0UL);
	KUNIT_EXPECT_EQ(test, rctx.bad, 0UL);
	for (i = 0; i < n; i++) {
		if (m[i].fired == ref[i].fired)
			continue;
		if (!bad++)
			KUNIT_FAIL(test, "timer %u ran %u times in modern, %u in the reference",
				   i, m[i].fired, ref[i].fired);
	}
	KUNIT_EXPECT_EQ(test, bad, 0U);
	KUNIT_EXPECT_EQ(test, me->st.expired, re->st.expired);
	KUNIT_EXPECT_EQ(test, me->st.deleted, re->st.deleted);
	KUNIT_EXPECT_GT(test, me->st.expired, 1000ULL);
	KUNIT_EXPECT_LT(test, skipped, ops / 10);
	tw_check_invariant(test, me);
	tw_check_invariant(test, re);
}

static struct kunit_case tw_modern_cases[] = {
	KUNIT_CASE_SLOW(modern_every_delta_to_70000),
	KUNIT_CASE(modern_sampled_deltas_depth_9),
	KUNIT_CASE(modern_sampled_deltas_depth_8),
	KUNIT_CASE(modern_seed_example),
	KUNIT_CASE(modern_capacity_and_clamp),
	KUNIT_CASE(modern_index_at_every_boundary),
	KUNIT_CASE_SLOW(modern_bitmap_and_next_event),
	KUNIT_CASE(modern_next_event_bounded),
	KUNIT_CASE(modern_mod_same_bucket_no_relink),
	KUNIT_CASE(modern_order_within_a_jiffy),
	KUNIT_CASE(modern_every_level_due),
	KUNIT_CASE(modern_collect_steps_without_pop),
	KUNIT_CASE(modern_collect_span_without_pop),
	KUNIT_CASE(modern_level_tables),
	KUNIT_CASE(modern_wrap_near_ulong_max),
	KUNIT_CASE_SLOW(modern_differential_vs_reference),
	{}
};

static struct kunit_suite tw_modern_suite = {
	.name = "twheel_modern",
	.test_cases = tw_modern_cases,
};

kunit_test_suite(tw_modern_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * The classic (Linux 2.6) wheel: exact expiry, placement, cascades, FIFO,
 * where mod files a timer, jiffies wrap and a differential run against the
 * reference engine. What every engine does is in contract_test.c.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include "tw_test.h"
#include "engines/classic.h"

#define TV1		256UL
#define TV2_END		BIT(14)
#define TV3_END		BIT(20)
#define TV4_END		BIT(26)

/* One timer per delta in [0, n) from clk on the classic wheel, each exact. */
static void tw_classic_all_deltas(struct kunit *test, unsigned long clk,
				  unsigned long n)
{
	tw_exact_every_delta(test, &tw_engines_new(test, clk)->classic.e, n);
}

static void classic_every_delta_to_70000(struct kunit *test)
{
	/* A lap-aligned clock and one in the middle of tv1 and tv2. */
	tw_classic_all_deltas(test, 0, 70001);
	tw_classic_all_deltas(test, (5UL << 14) + (17UL << 8) + 77, 70001);
}

static const unsigned long tw_boundaries[] = {
	1, 254, 255, 256, 257,
	TV2_END - 2, TV2_END - 1, TV2_END, TV2_END + 1,
	TV3_END - 1, TV3_END, TV3_END + 1,
	TV4_END - 1, TV4_END, TV4_END + 1,
	0xfffffffeUL, 0xffffffffUL,
};

static void classic_sampled_deltas_to_2_32(struct kunit *test)
{
	unsigned long clk = 1000003, n_fixed = ARRAY_SIZE(tw_boundaries);
	unsigned long n = n_fixed + 2000, i, d, last = 0;
	struct tw_engines *te = tw_engines_new(test, clk);
	struct twheel_engine *e = &te->classic.e;
	struct rnd_state rs;
	struct tw_ctx ctx;
	struct tw_rec *r;

	if (BITS_PER_LONG < 64)
		kunit_skip(test, "needs 64-bit jiffies arithmetic");
	prandom_seed_state(&rs, 42);
	tw_ctx_init(&ctx, test, e);
	r = tw_recs_new(test, &ctx, n);
	for (i = 0; i < n; i++) {
		if (i < n_fixed)
			d = tw_boundaries[i];
		else
			d = prandom_u32_state(&rs) >> (prandom_u32_state(&rs) % 32);
		last = max(last, d);
		KUNIT_ASSERT_EQ(test, 0, twheel_add(e, &r[i].t, clk + d));
	}
	tw_run_until(&ctx, clk + last);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, r[i].fired, 1U, "timer %lu", i);
		KUNIT_EXPECT_EQ_MSG(test, r[i].fired_at, r[i].t.expires,
				    "delta %lu", r[i].t.expires - clk);
	}
	KUNIT_EXPECT_GT(test, e->st.cascades, 0ULL);
	tw_check_invariant(test, e);
}

/* Timers in the buckets of one level, counted one by one. */
static unsigned long tw_level(const struct twheel_engine *e, unsigned int lvl)
{
	unsigned long per[TWHEEL_MAX_LEVELS];

	twheel_count(e, per);
	return per[lvl];
}

/* The slot index the 2.6 rules give, written out level by level. */
static void classic_bucket_indices(struct kunit *test)
{
	unsigned long clk = (3UL << 26) + (9UL << 20) + (4UL << 14) + (7UL << 8) + 5;
	struct tw_engines *te = tw_engines_new(test, clk);
	const struct twheel_ops *ops = te->classic.e.ops;
	struct twheel_engine *e = &te->classic.e;
	unsigned long x;

	x = clk + 255;
	KUNIT_EXPECT_EQ(test, ops->bucket_of(e, x), (unsigned int)(x & 255));
	x = clk + 256;
	KUNIT_EXPECT_EQ(test, ops->bucket_of(e, x), 256 + (unsigned int)((x >> 8) & 63));
	x = clk + TV2_END - 1;
	KUNIT_EXPECT_EQ(test, ops->bucket_of(e, x), 256 + (unsigned int)((x >> 8) & 63));
	x = clk + TV2_END;
	KUNIT_EXPECT_EQ(test, ops->bucket_of(e, x), 320 + (unsigned int)((x >> 14) & 63));
	x = clk + TV3_END;
	KUNIT_EXPECT_EQ(test, ops->bucket_of(e, x), 384 + (unsigned int)((x >> 20) & 63));
	x = clk + TV4_END;
	KUNIT_EXPECT_EQ(test, ops->bucket_of(e, x), 448 + (unsigned int)((x >> 26) & 63));
	x = clk - 1;
	KUNIT_EXPECT_EQ(test, ops->bucket_of(e, x), (unsigned int)(clk & 255));
	x = clk;
	KUNIT_EXPECT_EQ(test, ops->bucket_of(e, x), (unsigned int)(clk & 255));
}

/* The 2.6 placement as the 2.6 code wrote it: compare delta by delta. */
static unsigned int tw_chain_index(unsigned long clk, unsigned long expires)
{
	unsigned long delta = expires - clk;

	if (delta < 256)
		return expires & 255;
	if ((long)delta < 0)
		return clk & 255;
	if (delta > 0xffffffffUL) {
		delta = 0xffffffffUL;
		expires = clk + delta;
	}
	if (delta < 1UL << 14)
		return 256 + ((expires >> 8) & 63);
	if (delta < 1UL << 20)
		return 320 + ((expires >> 14) & 63);
	if (delta < 1UL << 26)
		return 384 + ((expires >> 20) & 63);
	return 448 + ((expires >> 26) & 63);
}

/* The highest-bit placement against that chain at every boundary +-2. */
static void classic_index_at_every_boundary(struct kunit *test)
{
	static const unsigned long clks[] = {
		0, 1, 255, 256, 16383, 123456789, ULONG_MAX - 300, ULONG_MAX,
	};
	static const unsigned long edges[] = {
		1, 256, 1UL << 14, 1UL << 20, 1UL << 26, 0xffffffffUL,
		1UL << 32, 1UL << 40,
	};
	struct tw_engines *te = tw_engines_new(test, 0);
	struct twheel_engine *e = &te->classic.e;
	unsigned int c, i, checked = 0;
	unsigned long x;
	int d;

	for (c = 0; c < ARRAY_SIZE(clks); c++) {
		e->clk = clks[c];
		for (i = 0; i < ARRAY_SIZE(edges); i++) {
			for (d = -2; d <= 2; d++) {
				x = e->clk + edges[i] + d;
				KUNIT_EXPECT_EQ_MSG(test, e->ops->bucket_of(e, x),
						    tw_chain_index(e->clk, x),
						    "clk %lu delta %ld", e->clk,
						    (long)(edges[i] + d));
				checked++;
			}
		}
	}
	KUNIT_EXPECT_EQ(test, checked, 5U * ARRAY_SIZE(edges) * ARRAY_SIZE(clks));
}

static void classic_past_fires_next_jiffy(struct kunit *test)
{
	unsigned long clk = 5000;
	struct tw_engines *te = tw_engines_new(test, clk);
	struct twheel_engine *e = &te->classic.e;
	struct tw_ctx ctx;
	struct tw_rec *r;

	tw_ctx_init(&ctx, test, e);
	r = tw_recs_new(test, &ctx, 3);
	twheel_add(e, &r[0].t, clk - 1);
	twheel_add(e, &r[1].t, clk - 4000);
	tw_run_until(&ctx, clk + 9);
	KUNIT_EXPECT_EQ(test, r[0].fired_at, clk);
	KUNIT_EXPECT_EQ(test, r[1].fired_at, clk);
	/* Armed in the past after the engine moved on: the next jiffy. */
	twheel_add(e, &r[2].t, clk);
	tw_run_until(&ctx, clk + 20);
	KUNIT_EXPECT_EQ(test, r[2].fired, 1U);
	KUNIT_EXPECT_EQ(test, r[2].fired_at, clk + 10);
}

static void classic_clamp_above_2_32(struct kunit *test)
{
	unsigned long clk = 77, d;
	struct tw_engines *te = tw_engines_new(test, clk);
	struct twheel_engine *e = &te->classic.e;
	unsigned int clamped_slot;
	struct tw_ctx ctx;
	struct tw_rec *r;

	if (BITS_PER_LONG < 64)
		kunit_skip(test, "needs 64-bit jiffies");
	tw_ctx_init(&ctx, test, e);
	r = tw_recs_new(test, &ctx, 2);
	clamped_slot = 448 + (((clk + 0xffffffffUL) >> 26) & 63);
	d = 1UL << 32;
	twheel_add(e, &r[0].t, clk + d);
	KUNIT_EXPECT_EQ(test, r[0].t.bucket, clamped_slot);
	d = (1UL << 33) + 12345;
	twheel_add(e, &r[1].t, clk + d);
	KUNIT_EXPECT_EQ(test, r[1].t.bucket, clamped_slot);
	/* Clamped placement still fires exactly: the cascade re-files it. */
	tw_run_until(&ctx, clk + d);
	KUNIT_EXPECT_EQ(test, r[0].fired, 1U);
	KUNIT_EXPECT_EQ(test, r[0].fired_at, clk + (1UL << 32));
	KUNIT_EXPECT_EQ(test, r[1].fired, 1U);
	KUNIT_EXPECT_EQ(test, r[1].fired_at, clk + d);
}

/*
 * Beyond 2^32 - 1 jiffies the wheel files a timer at its last delta, and
 * each cascade of that tv5 slot (once a turn of the wheel) files it again
 * against the clock: it runs at exactly its jiffy, not early. 2^32 + X and
 * 2^40 + X from a clock just below the wrap, so both expiries wrap too.
 * The advances go by next_event: a few hundred jiffies with work (one
 * cascade a turn), not 2^40 of them.
 */
static void classic_exact_beyond_2_32(struct kunit *test)
{
	const unsigned long clk = ULONG_MAX - 1000;
	const unsigned long d[] = { (1UL << 32) + 12345, (1UL << 40) + 67891 };
	struct tw_engines *te = tw_engines_new(test, clk);
	struct twheel_engine *e = &te->classic.e;
	unsigned int clamped_slot, i;
	struct tw_ctx ctx;
	struct tw_rec *r;

	if (BITS_PER_LONG < 64)
		kunit_skip(test, "needs 64-bit jiffies");
	tw_ctx_init(&ctx, test, e);
	r = tw_recs_new(test, &ctx, ARRAY_SIZE(d));
	clamped_slot = 448 + (((clk + 0xffffffffUL) >> 26) & 63);
	for (i = 0; i < ARRAY_SIZE(d); i++) {
		KUNIT_ASSERT_EQ(test, twheel_add(e, &r[i].t, clk + d[i]), 0);
		KUNIT_EXPECT_EQ(test, r[i].t.bucket, clamped_slot);
	}
	for (i = 0; i < ARRAY_SIZE(d); i++) {
		tw_run_until(&ctx, clk + d[i] - 1);
		KUNIT_EXPECT_EQ_MSG(test, r[i].fired, 0U, "2^%d + X early", i ? 40 : 32);
		KUNIT_EXPECT_TRUE(test, twheel_pending(e, &r[i].t));
		tw_run_until(&ctx, clk + d[i]);
		KUNIT_EXPECT_EQ_MSG(test, r[i].fired, 1U, "2^%d + X", i ? 40 : 32);
		KUNIT_EXPECT_EQ(test, r[i].fired_at, clk + d[i]);
	}
	KUNIT_EXPECT_EQ(test, ctx.runs, 2UL);
	KUNIT_EXPECT_EQ(test, e->clk, clk + d[1] + 1);
	KUNIT_EXPECT_EQ(test, e->st.jiffies, d[1] + 1);
	/* at least one re-filing a turn, 256 turns: the cost of the span */
	KUNIT_EXPECT_GE(test, e->st.cascaded, 256ULL);
	KUNIT_EXPECT_LT(test, e->st.events, 1000ULL);
	tw_check_invariant(test, e);
}

static void classic_cascade_moves_one_slot(struct kunit *test)
{
	struct tw_engines *te = tw_engines_new(test, 0);
	struct twheel_engine *e = &te->classic.e;
	struct tw_ctx ctx;
	struct tw_rec *r;
	unsigned int i;

	tw_ctx_init(&ctx, test, e);
	r = tw_recs_new(test, &ctx, 12);
	for (i = 0; i < 5; i++)		/* tv2 slot 1: [256, 512) */
		twheel_add(e, &r[i].t, 256 + i * 50);
	for (i = 5; i < 8; i++)		/* tv2 slot 2 */
		twheel_add(e, &r[i].t, 512 + i);
	for (i = 8; i < 12; i++)	/* tv3 slot 1: [2^14, 2^15) */
		twheel_add(e, &r[i].t, TV2_END + 300 * i);
	KUNIT_EXPECT_EQ(test, tw_level(e, 1), 8UL);
	KUNIT_EXPECT_EQ(test, tw_level(e, 2), 4UL);

	tw_run_until(&ctx, 255);
	KUNIT_EXPECT_EQ(test, e->st.cascades, 0ULL);
	tw_run_until(&ctx, 256);
	KUNIT_EXPECT_EQ(test, e->st.cascades, 1ULL);
	KUNIT_EXPECT_EQ(test, e->st.cascaded, 5ULL);
	KUNIT_EXPECT_EQ(test, tw_level(e, 1), 3UL);
	KUNIT_EXPECT_EQ(test, tw_level(e, 0), 4UL);	/* one fired */
	KUNIT_EXPECT_EQ(test, r[0].fired_at, 256UL);
	for (i = 1; i < 5; i++)
		KUNIT_EXPECT_EQ(test, r[i].t.bucket, (unsigned int)((256 + i * 50) & 255));
	for (i = 5; i < 8; i++)
		KUNIT_EXPECT_EQ(test, r[i].t.bucket, 256U + 2);

	tw_run_until(&ctx, TV2_END);
	/* tv2 slots 1 and 2, then tv3 slot 1 when tv2 wrapped. */
	KUNIT_EXPECT_EQ(test, e->st.cascades, 3ULL);
	KUNIT_EXPECT_EQ(test, e->st.cascaded, 5ULL + 3 + 4);
	KUNIT_EXPECT_EQ(test, tw_level(e, 2), 0UL);
	KUNIT_EXPECT_EQ(test, tw_level(e, 1), 4UL);	/* r[8..11] */
	tw_run_until(&ctx, 2 * TV2_END);
	for (i = 0; i < 12; i++)
		KUNIT_EXPECT_EQ(test, r[i].fired_at, r[i].t.expires);
	tw_check_invariant(test, e);
}

/* What the on_cascade hook was called with, call by call. */
struct tw_cascade_call {
	unsigned int lvl, slot, moved;
	u64 ns;
};

struct tw_cascade_log {
	struct twheel_classic c;
	struct tw_cascade_call call[16];
	unsigned int n;
	u64 moved;
};

static void tw_log_cascade(struct twheel_engine *e, unsigned int lvl,
			   unsigned int slot, unsigned int moved, u64 ns)
{
	struct tw_cascade_log *log = container_of(e, struct tw_cascade_log, c.e);

	if (log->n < ARRAY_SIZE(log->call))
		log->call[log->n] = (struct tw_cascade_call){ lvl, slot, moved, ns };
	log->n++;
	log->moved += moved;
}

/* A clock that moves TW_FAKE_STEP ns every time it is read. */
#define TW_FAKE_STEP	1000
static u64 tw_fake_ns;

static u64 tw_fake_clock(void)
{
	tw_fake_ns += TW_FAKE_STEP;
	return tw_fake_ns;
}

/*
 * The on_cascade hook sees every cascade that moved timers, with its level,
 * slot and count, in order, and the ns between the two clock reads around
 * it (0 without a clock); empty slots are not reported.
 */
static void tw_classic_cascade_hook(struct kunit *test, bool clock)
{
	static const struct tw_cascade_call want[] = {
		{ 1, 1, 5 },	/* clk 256: tv2 slot 1, [256, 512) */
		{ 1, 2, 3 },	/* clk 512: tv2 slot 2 */
		{ 2, 1, 4 },	/* clk 2^14: tv3 slot 1; tv2 slot 0 is empty */
		/* ...into tv2 slots 73..76 (x >> 8), cascaded one by one */
		{ 1, 73 & 63, 1 }, { 1, 74 & 63, 1 },
		{ 1, 75 & 63, 1 }, { 1, 76 & 63, 1 },
	};
	struct tw_cascade_log *log = kunit_kzalloc(test, sizeof(*log), GFP_KERNEL);
	struct twheel_engine *e;
	struct tw_ctx ctx;
	struct tw_rec *r;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, log);
	twheel_classic_init(&log->c, 0);
	e = &log->c.e;
	KUNIT_EXPECT_PTR_EQ(test, e->on_cascade, NULL);
	e->on_cascade = tw_log_cascade;
	e->clock_ns = clock ? tw_fake_clock : NULL;
	tw_fake_ns = 0;
	tw_ctx_init(&ctx, test, e);
	r = tw_recs_new(test, &ctx, 12);
	for (i = 0; i < 5; i++)
		twheel_add(e, &r[i].t, 256 + i * 50);
	for (i = 5; i < 8; i++)
		twheel_add(e, &r[i].t, 512 + i);
	for (i = 8; i < 12; i++)	/* 18784, 19084, 19384, 19684 */
		twheel_add(e, &r[i].t, TV2_END + 300 * i);
	tw_run_until(&ctx, 2 * TV2_END);

	KUNIT_ASSERT_EQ(test, log->n, (unsigned int)ARRAY_SIZE(want));
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		KUNIT_EXPECT_EQ_MSG(test, log->call[i].lvl, want[i].lvl, "call %u", i);
		KUNIT_EXPECT_EQ_MSG(test, log->call[i].slot, want[i].slot, "call %u", i);
		KUNIT_EXPECT_EQ_MSG(test, log->call[i].moved, want[i].moved, "call %u", i);
		KUNIT_EXPECT_EQ_MSG(test, log->call[i].ns, clock ? TW_FAKE_STEP : 0ULL,
				    "call %u", i);
	}
	KUNIT_EXPECT_EQ(test, e->st.cascades, (u64)log->n);
	KUNIT_EXPECT_EQ(test, e->st.cascaded, log->moved);
	for (i = 0; i < 12; i++)
		KUNIT_EXPECT_EQ(test, r[i].fired_at, r[i].t.expires);
}

static void classic_cascade_hook(struct kunit *test)
{
	tw_classic_cascade_hook(test, false);
	tw_classic_cascade_hook(test, true);
}

static void classic_fifo_within_jiffy(struct kunit *test)
{
	struct tw_engines *te = tw_engines_new(test, 100);
	struct twheel_engine *e = &te->classic.e;
	unsigned int seq[16], i;
	struct tw_ctx ctx;
	struct tw_rec *r;

	tw_ctx_init(&ctx, test, e);
	ctx.seq = seq;
	ctx.seq_max = ARRAY_SIZE(seq);
	r = tw_recs_new(test, &ctx, 16);
	/* Same jiffy, both directly in tv1 and via a tv2 slot. */
	for (i = 0; i < 8; i++)
		twheel_add(e, &r[i].t, 150);
	for (i = 8; i < 16; i++)
		twheel_add(e, &r[i].t, 100 + 1000);
	tw_run_until(&ctx, 2000);
	KUNIT_ASSERT_EQ(test, ctx.seq_len, 16U);
	for (i = 0; i < 16; i++)
		KUNIT_EXPECT_EQ(test, seq[i], i);
}

/* Where mod files a classic timer: into tv1, or left in its tv2 slot. */
static void classic_mod_buckets(struct kunit *test)
{
	struct tw_engines *te = tw_engines_new(test, 0);
	struct twheel_engine *e = &te->classic.e;
	struct tw_ctx ctx;
	struct tw_rec *r;

	tw_ctx_init(&ctx, test, e);
	r = tw_recs_new(test, &ctx, 2);
	twheel_add(e, &r[0].t, 500);
	KUNIT_EXPECT_EQ(test, r[0].t.bucket, 256U + 1);
	KUNIT_EXPECT_EQ(test, tw_level(e, 1), 1UL);
	KUNIT_EXPECT_TRUE(test, twheel_mod(e, &r[0].t, 30));	/* re-files */
	KUNIT_EXPECT_EQ(test, r[0].t.bucket, 30U);
	KUNIT_EXPECT_EQ(test, tw_level(e, 1), 0UL);
	KUNIT_EXPECT_EQ(test, tw_level(e, 0), 1UL);
	KUNIT_EXPECT_EQ(test, e->st.mod_inplace, 0ULL);
	twheel_add(e, &r[1].t, 600);
	KUNIT_EXPECT_TRUE(test, twheel_mod(e, &r[1].t, 700));	/* same tv2 slot */
	KUNIT_EXPECT_EQ(test, e->st.mod_inplace, 1ULL);
	KUNIT_EXPECT_EQ(test, r[1].t.bucket, 256U + 2);
	tw_run_until(&ctx, 1000);
	KUNIT_EXPECT_EQ(test, r[0].fired_at, 30UL);
	KUNIT_EXPECT_EQ(test, r[1].fired_at, 700UL);
	KUNIT_EXPECT_EQ(test, r[0].fired + r[1].fired, 2U);
	KUNIT_EXPECT_EQ(test, e->st.modified, 2ULL);
	tw_check_invariant(test, e);
}

static void classic_wrap_near_ulong_max(struct kunit *test)
{
	tw_classic_all_deltas(test, ULONG_MAX - 1000, 3000);
}

static void classic_wrap_initial_jiffies(struct kunit *test)
{
	tw_classic_all_deltas(test, INITIAL_JIFFIES, 70001);
}

/* One advance over many jiffies collects the same timers, in jiffy order. */
static void classic_catch_up_one_advance(struct kunit *test)
{
	tw_exact_catch_up(test, &tw_engines_new(test, 12345)->classic.e);
}

static void classic_next_event_bounded(struct kunit *test)
{
	struct tw_engines *te = tw_engines_new(test, 10);
	struct twheel_engine *e = &te->classic.e;
	struct tw_ctx ctx;
	struct tw_rec *r;

	tw_ctx_init(&ctx, test, e);
	r = tw_recs_new(test, &ctx, 2);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 1000), 1000UL);
	twheel_add(e, &r[0].t, 200);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 1000), 190UL);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 100), 100UL);
	twheel_del(e, &r[0].t);
	/* In tv2: the next work is its cascade at jiffy 512. */
	twheel_add(e, &r[1].t, 600);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX), 502UL);
}

static void classic_differential_vs_reference(struct kunit *test)
{
	struct tw_engines *te = tw_engines_new(test, INITIAL_JIFFIES);

	tw_exact_differential(test, &te->classic.e, &te->reference.e);
}

static struct kunit_case tw_classic_cases[] = {
	KUNIT_CASE_SLOW(classic_every_delta_to_70000),
	KUNIT_CASE_SLOW(classic_sampled_deltas_to_2_32),
	KUNIT_CASE(classic_bucket_indices),
	KUNIT_CASE(classic_index_at_every_boundary),
	KUNIT_CASE(classic_past_fires_next_jiffy),
	KUNIT_CASE(classic_clamp_above_2_32),
	KUNIT_CASE(classic_exact_beyond_2_32),
	KUNIT_CASE(classic_cascade_moves_one_slot),
	KUNIT_CASE(classic_cascade_hook),
	KUNIT_CASE(classic_fifo_within_jiffy),
	KUNIT_CASE(classic_mod_buckets),
	KUNIT_CASE(classic_wrap_near_ulong_max),
	KUNIT_CASE_SLOW(classic_wrap_initial_jiffies),
	KUNIT_CASE(classic_catch_up_one_advance),
	KUNIT_CASE(classic_next_event_bounded),
	KUNIT_CASE_SLOW(classic_differential_vs_reference),
	{}
};

static struct kunit_suite tw_classic_suite = {
	.name = "twheel_classic",
	.test_cases = tw_classic_cases,
};

kunit_test_suite(tw_classic_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * The simple engine's own cases: exact runs for every delta it takes, the
 * refused range at its edge (add and mod, counted), FIFO within a jiffy,
 * the clock's wrap and the MaxIntervals init refuses.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include "tw_test.h"
#include "engines/simple.h"

/* Makes a simple engine of max_interval slots in s, its slots in mem. */
static int tw_simple_init(struct twheel_hash *s, unsigned long clk, void *mem,
			  unsigned int max_interval)
{
	const struct twheel_config cfg = { .max_interval = max_interval };
	struct twheel_engine *e;

	return twheel_create(&twheel_simple_ops, s, clk, &cfg, mem, &e);
}

/* A simple engine of max_interval slots, freed with the case. */
static struct twheel_hash *tw_simple_new(struct kunit *test, unsigned long clk,
					 unsigned int max_interval)
{
	struct twheel_hash *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	void *mem;

	KUNIT_ASSERT_NOT_NULL(test, s);
	mem = tw_kvzalloc(test, twheel_hash_storage_size(max_interval));
	KUNIT_ASSERT_NOT_NULL(test, mem);
	KUNIT_ASSERT_EQ(test, tw_simple_init(s, clk, mem, max_interval), 0);
	return s;
}

/*
 * Every delta from -3 to MaxInterval - 1, armed in a shuffled order, runs
 * exactly at its jiffy; MaxInterval and MaxInterval + 1 are refused.
 */
static void tw_simple_every(struct kunit *test, unsigned int max_interval,
			    unsigned long clk)
{
	struct twheel_hash *s = tw_simple_new(test, clk, max_interval);
	unsigned int n = max_interval + 3, i, wrong = 0;
	struct twheel_engine *e = &s->e;
	struct tw_rec *r, *out;
	struct tw_ctx ctx;

	r = tw_arm_shuffled(test, &ctx, e, n, -3);
	out = tw_recs_new(test, &ctx, 2);
	KUNIT_EXPECT_EQ(test, twheel_add(e, &out[0].t, clk + max_interval), -ERANGE);
	KUNIT_EXPECT_EQ(test, twheel_add(e, &out[1].t, clk + max_interval + 1),
			-ERANGE);
	KUNIT_EXPECT_FALSE(test, twheel_pending(e, &out[0].t));
	KUNIT_EXPECT_EQ(test, e->st.refused, 2ULL);
	KUNIT_EXPECT_EQ(test, e->st.added, (u64)n);
	tw_run_until(&ctx, clk + max_interval - 2);
	KUNIT_EXPECT_EQ(test, ctx.runs, n - 1UL);
	tw_run_until(&ctx, clk + max_interval - 1);
	KUNIT_EXPECT_EQ(test, ctx.runs, (unsigned long)n);
	for (i = 0; i < n; i++)
		wrong += r[i].fired != 1;
	KUNIT_EXPECT_EQ(test, wrong, 0U);
	KUNIT_EXPECT_EQ(test, out[0].fired + out[1].fired, 0U);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	KUNIT_EXPECT_TRUE(test, bitmap_empty(s->map, max_interval));
	tw_check_invariant(test, e);
}

static void simple_every_delta_64(struct kunit *test)
{
	tw_simple_every(test, 64, 1000);
}

static void simple_every_delta_default(struct kunit *test)
{
	tw_simple_every(test, TW_SIMPLE_DEFAULT_INTERVAL, 1UL << 35);
}

static void simple_every_delta_across_wrap(struct kunit *test)
{
	tw_simple_every(test, 16, ULONG_MAX - 9);
}

/*
 * The edge counted from the clock as it moves: delta MaxInterval - 1 is
 * taken, MaxInterval refused; far futures refused, far pasts taken. A mod
 * beyond the edge disarms a pending timer (deleted and refused): it never
 * runs at its old expiry.
 */
static void simple_refused_range(struct kunit *test)
{
	struct twheel_hash *s = tw_simple_new(test, 500, 32);
	struct twheel_engine *e = &s->e;
	struct tw_ctx ctx;
	struct tw_rec *r;

	tw_ctx_init(&ctx, test, e);
	ctx.hook = tw_expect_hook;
	r = tw_recs_new(test, &ctx, 6);
	tw_run_until(&ctx, 540);		/* clk 541 */
	KUNIT_EXPECT_EQ(test, twheel_add(e, &r[0].t, 541 + 32), -ERANGE);
	KUNIT_EXPECT_EQ(test, twheel_add(e, &r[0].t, 541UL + LONG_MAX), -ERANGE);
	tw_arm_exact(test, e, &r[0], 541 + 31);
	tw_arm_exact(test, e, &r[1], 541UL - LONG_MAX);	/* past: at 541 */
	tw_arm_exact(test, e, &r[2], 550);
	tw_arm_exact(test, e, &r[3], 560);
	KUNIT_EXPECT_EQ(test, e->st.refused, 2ULL);

	/* mod of a pending timer beyond the edge: disarmed, counted */
	KUNIT_EXPECT_TRUE(test, twheel_mod(e, &r[2].t, 541 + 32));
	KUNIT_EXPECT_FALSE(test, twheel_pending(e, &r[2].t));
	KUNIT_EXPECT_EQ(test, r[2].t.expires, 550UL);
	/* mod of one that is not pending: refused as an add is */
	KUNIT_EXPECT_FALSE(test, twheel_mod(e, &r[4].t, 541 + 1000));
	KUNIT_EXPECT_FALSE(test, twheel_pending(e, &r[4].t));
	/* within the edge, mod re-files as ever */
	KUNIT_EXPECT_TRUE(test, twheel_mod(e, &r[3].t, 541 + 30));
	r[3].expect = 541 + 30;
	KUNIT_EXPECT_EQ(test, e->st.refused, 4ULL);
	KUNIT_EXPECT_EQ(test, e->st.deleted, 1ULL);
	KUNIT_EXPECT_EQ(test, e->st.modified, 2ULL);

	tw_run_until(&ctx, 600);
	KUNIT_EXPECT_EQ(test, r[0].fired_at, 572UL);
	KUNIT_EXPECT_EQ(test, r[1].fired_at, 541UL);
	KUNIT_EXPECT_EQ(test, r[2].fired, 0U);
	KUNIT_EXPECT_EQ(test, r[3].fired_at, 571UL);
	KUNIT_EXPECT_EQ(test, r[4].fired, 0U);
	KUNIT_EXPECT_EQ(test, ctx.runs, 3UL);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	KUNIT_EXPECT_EQ(test, e->st.added, 4ULL);
	tw_check_invariant(test, e);
}

/* A jiffy's timers run in the order they were filed, past ones included. */
static void simple_fifo(struct kunit *test)
{
	static const unsigned int order[] = { 5, 0, 3, 1, 4, 2 };
	struct twheel_hash *s = tw_simple_new(test, 70, 16);
	struct twheel_engine *e = &s->e;
	unsigned int seq[6], i;
	struct tw_ctx ctx;
	struct tw_rec *r;

	tw_ctx_init(&ctx, test, e);
	ctx.hook = tw_expect_hook;
	ctx.seq = seq;
	ctx.seq_max = ARRAY_SIZE(seq);
	r = tw_recs_new(test, &ctx, 6);
	tw_arm_exact(test, e, &r[3], 75);
	tw_arm_exact(test, e, &r[1], 75);
	tw_arm_exact(test, e, &r[5], 70);
	tw_arm_exact(test, e, &r[0], 3);	/* past: with 70's */
	tw_arm_exact(test, e, &r[4], 75);
	tw_arm_exact(test, e, &r[2], 76);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 100), 0UL);
	tw_run_until(&ctx, 100);
	KUNIT_ASSERT_EQ(test, ctx.seq_len, 6U);
	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_EQ(test, seq[i], order[i]);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	KUNIT_EXPECT_EQ(test, e->st.events, 3ULL);
}

static void simple_init_refuses(struct kunit *test)
{
	static const unsigned int bad[] = { 0, 1, 3, 4095, 1U << 21 };
	struct twheel_hash s;
	unsigned long mem[8];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, tw_simple_init(&s, 0, mem, bad[i]), -EINVAL,
				    "MaxInterval %u", bad[i]);
	KUNIT_EXPECT_EQ(test, tw_simple_init(&s, 0, NULL, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, twheel_hash_storage_size(4096),
			4096 * sizeof(struct list_head) + 4096 / 8);
	KUNIT_ASSERT_LE(test, twheel_hash_storage_size(2), sizeof(mem));
	KUNIT_EXPECT_EQ(test, tw_simple_init(&s, 9, mem, 2), 0);
	KUNIT_EXPECT_EQ(test, s.mask, 1UL);
}

static struct kunit_case tw_simple_cases[] = {
	KUNIT_CASE(simple_every_delta_64),
	KUNIT_CASE(simple_every_delta_default),
	KUNIT_CASE(simple_every_delta_across_wrap),
	KUNIT_CASE(simple_refused_range),
	KUNIT_CASE(simple_fifo),
	KUNIT_CASE(simple_init_refuses),
	{}
};

static struct kunit_suite tw_simple_suite = {
	.name = "twheel_simple",
	.test_cases = tw_simple_cases,
};

kunit_test_suite(tw_simple_suite);

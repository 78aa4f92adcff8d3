// SPDX-License-Identifier: GPL-2.0
/*
 * The straight engine's own cases: every timer counted down at each jiffy
 * with a timer due, by all the jiffies skipped since the last count;
 * exact runs for every delta and at the far edge; FIFO within a jiffy;
 * the clock's wrap.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include "tw_test.h"
#include "engines/straight.h"

static struct twheel_straight *tw_straight_new(struct kunit *test,
					       unsigned long clk)
{
	struct twheel_straight *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	twheel_straight_init(s, clk);
	return s;
}

/*
 * Three timers: each jiffy with one due counts the others down by every
 * jiffy since the last count; nothing is touched in between.
 */
static void straight_counts_down(struct kunit *test)
{
	struct twheel_straight *s = tw_straight_new(test, 100);
	struct twheel_engine *e = &s->e;
	struct tw_ctx ctx;
	struct tw_rec *r;

	tw_ctx_init(&ctx, test, e);
	ctx.hook = tw_expect_hook;
	r = tw_recs_new(test, &ctx, 4);
	tw_arm_exact(test, e, &r[0], 110);
	tw_arm_exact(test, e, &r[1], 130);
	tw_arm_exact(test, e, &r[2], 1100);
	KUNIT_EXPECT_EQ(test, r[1].t.rounds, 30UL);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 1000), 10UL);
	KUNIT_EXPECT_FALSE(test, twheel_advance(e, 109));
	KUNIT_EXPECT_EQ(test, r[1].t.rounds, 30UL);	/* untouched */
	KUNIT_EXPECT_EQ(test, e->st.events, 0ULL);
	/* armed while the count is behind: from base (100), not the clock */
	tw_arm_exact(test, e, &r[3], 115);
	KUNIT_EXPECT_EQ(test, r[3].t.rounds, 15UL);
	tw_run_until(&ctx, 110);
	KUNIT_EXPECT_EQ(test, r[0].fired_at, 110UL);
	KUNIT_EXPECT_EQ(test, s->base, 110UL);
	KUNIT_EXPECT_EQ(test, r[1].t.rounds, 20UL);
	KUNIT_EXPECT_EQ(test, r[2].t.rounds, 990UL);
	KUNIT_EXPECT_EQ(test, r[3].t.rounds, 5UL);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 1000), 4UL);
	tw_run_until(&ctx, 2000);
	KUNIT_EXPECT_EQ(test, r[3].fired_at, 115UL);
	KUNIT_EXPECT_EQ(test, r[1].fired_at, 130UL);
	KUNIT_EXPECT_EQ(test, r[2].fired_at, 1100UL);
	KUNIT_EXPECT_EQ(test, e->st.events, 4ULL);
	KUNIT_EXPECT_EQ(test, ctx.runs, 4UL);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	tw_check_invariant(test, e);
}

/*
 * Every delta from -3 to 1500 and the far edge (2^32 +-1, LONG_MAX - 1),
 * from clk, armed shuffled: each runs exactly, ties in filing order.
 */
static void tw_straight_every(struct kunit *test, unsigned long clk)
{
	static const unsigned long far[] = {
		(1UL << 32) - 1, 1UL << 32, (1UL << 32) + 1, LONG_MAX - 4,
	};
	const unsigned int near = 1504;
	struct twheel_straight *s = tw_straight_new(test, clk);
	struct twheel_engine *e = &s->e;
	unsigned int seq[4], i, order = 0;
	struct tw_rec *r, *f;
	struct tw_ctx ctx;

	r = tw_arm_shuffled(test, &ctx, e, near, -3);
	f = tw_recs_new(test, &ctx, ARRAY_SIZE(far));
	for (i = 0; i < ARRAY_SIZE(far); i++)
		tw_arm_exact(test, e, &f[i], clk + far[i]);
	tw_run_until(&ctx, clk + near - 4);
	KUNIT_EXPECT_EQ(test, ctx.runs, (unsigned long)near);
	/* the three past ones and delta 0 ran at the clock itself */
	for (i = 0; i < 4; i++)
		order += r[i].fired_at == clk;
	KUNIT_EXPECT_EQ(test, order, 4U);
	ctx.seq = seq;
	ctx.seq_max = ARRAY_SIZE(seq);
	for (i = 0; i < ARRAY_SIZE(far); i++) {
		tw_run_until(&ctx, clk + far[i] - 1);
		KUNIT_EXPECT_EQ(test, f[i].fired, 0U);
		tw_run_until(&ctx, clk + far[i]);
		KUNIT_EXPECT_EQ(test, f[i].fired, 1U);
	}
	KUNIT_ASSERT_EQ(test, ctx.seq_len, 4U);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, seq[i], i);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	tw_check_invariant(test, e);
}

static void straight_every_delta(struct kunit *test)
{
	tw_straight_every(test, 12345);
}

static void straight_clock_wrap(struct kunit *test)
{
	tw_straight_every(test, ULONG_MAX - 700);
}

/* Timers due in one jiffy run in the order they were armed. */
static void straight_fifo(struct kunit *test)
{
	static const unsigned int want[] = { 2, 0, 3, 1 };	/* arming order */
	static const unsigned int ran[] = { 3, 2, 0, 1 };
	struct twheel_straight *s = tw_straight_new(test, 7);
	struct twheel_engine *e = &s->e;
	unsigned int seq[4], i;
	struct tw_ctx ctx;
	struct tw_rec *r;

	tw_ctx_init(&ctx, test, e);
	ctx.seq = seq;
	ctx.seq_max = ARRAY_SIZE(seq);
	r = tw_recs_new(test, &ctx, 4);
	for (i = 0; i < 4; i++)
		tw_arm_exact(test, e, &r[want[i]], i == 2 ? 1 : 9);
	tw_run_until(&ctx, 20);
	KUNIT_ASSERT_EQ(test, ctx.seq_len, 4U);
	/* 3 was armed in the past: at 7; the others at 9 as armed */
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, seq[i], ran[i]);
}

static struct kunit_case tw_straight_cases[] = {
	KUNIT_CASE(straight_counts_down),
	KUNIT_CASE(straight_every_delta),
	KUNIT_CASE(straight_clock_wrap),
	KUNIT_CASE(straight_fifo),
	{}
};

static struct kunit_suite tw_straight_suite = {
	.name = "twheel_straight",
	.test_cases = tw_straight_cases,
};

kunit_test_suite(tw_straight_suite);

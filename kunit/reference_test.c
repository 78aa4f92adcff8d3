// SPDX-License-Identifier: GPL-2.0
/*
 * The reference engine (two rbtrees): the oracle of the differential tests
 * must itself fire every timer at exactly its expiry.
 */
#include <kunit/test.h>
#include "tw_test.h"
#include "engines/reference.h"

static void reference_fires_exactly(struct kunit *test)
{
	unsigned long clk = ULONG_MAX - 500, n = 2000, i;
	struct tw_engines *te = tw_engines_new(test, clk);
	struct twheel_engine *e = &te->reference.e;
	struct tw_ctx ctx;
	struct tw_rec *r;

	tw_ctx_init(&ctx, test, e);
	r = tw_recs_new(test, &ctx, n);
	for (i = 0; i < n; i++)
		twheel_add(e, &r[i].t, clk + (i * 7919) % n);
	tw_run_until(&ctx, clk + n);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, r[i].fired, 1U);
		KUNIT_EXPECT_EQ(test, r[i].fired_at, r[i].t.expires);
	}
	tw_check_invariant(test, e);
}

static void reference_fifo_and_past(struct kunit *test)
{
	struct tw_engines *te = tw_engines_new(test, 1000);
	struct twheel_engine *e = &te->reference.e;
	unsigned int seq[6], i;
	struct tw_ctx ctx;
	struct tw_rec *r;

	tw_ctx_init(&ctx, test, e);
	ctx.seq = seq;
	ctx.seq_max = ARRAY_SIZE(seq);
	r = tw_recs_new(test, &ctx, 6);
	for (i = 0; i < 4; i++)
		twheel_add(e, &r[i].t, 1005);
	twheel_add(e, &r[4].t, 990);		/* past: fires at 1000 */
	tw_run_until(&ctx, 1001);
	KUNIT_EXPECT_EQ(test, r[4].fired_at, 1000UL);
	twheel_add(e, &r[5].t, 900);		/* past again: next jiffy */
	tw_run_until(&ctx, 1010);
	KUNIT_EXPECT_EQ(test, r[5].fired_at, 1002UL);
	KUNIT_ASSERT_EQ(test, ctx.seq_len, 6U);
	KUNIT_EXPECT_EQ(test, seq[0], 4U);
	KUNIT_EXPECT_EQ(test, seq[1], 5U);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, seq[2 + i], i);
}

static struct kunit_case tw_reference_cases[] = {
	KUNIT_CASE(reference_fires_exactly),
	KUNIT_CASE(reference_fifo_and_past),
	{}
};

static struct kunit_suite tw_reference_suite = {
	.name = "twheel_reference",
	.test_cases = tw_reference_cases,
};

kunit_test_suite(tw_reference_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * The ordered engine's own cases: sorted insertion (ties after their
 * equals, past expiries first), only the head looked at, exact runs for
 * every delta in order, the clock's wrap.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include "tw_test.h"
#include "engines/ordered.h"

static struct twheel_ordered *tw_ordered_new(struct kunit *test,
					     unsigned long clk)
{
	struct twheel_ordered *o = kunit_kzalloc(test, sizeof(*o), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, o);
	twheel_ordered_init(o, clk);
	return o;
}

/*
 * The first max timer ids of the list, in order, into ids[] (*n of them);
 * returns whether the whole list is sorted.
 */
static bool tw_ordered_list(const struct twheel_ordered *o,
			    const struct tw_rec *r, unsigned int *ids,
			    unsigned int max, unsigned int *n)
{
	const struct twheel_timer *t, *prev = NULL;
	bool sorted = true;

	*n = 0;
	list_for_each_entry(t, &o->list, hash_link) {
		if (prev && time_before(t->expires, prev->expires))
			sorted = false;
		if (*n < max)
			ids[(*n)++] = container_of(t, struct tw_rec, t) - r;
		prev = t;
	}
	return sorted;
}

static void ordered_sorted_insertion(struct kunit *test)
{
	static const unsigned long x[] = { 50, 20, 90, 20, 60, 5 };
	static const unsigned int order[] = { 6, 5, 1, 3, 0, 4, 2 };
	struct twheel_ordered *o = tw_ordered_new(test, 10);
	struct twheel_engine *e = &o->e;
	unsigned int ids[8], n, i;
	struct tw_ctx ctx;
	struct tw_rec *r;

	tw_ctx_init(&ctx, test, e);
	ctx.hook = tw_expect_hook;
	r = tw_recs_new(test, &ctx, 7);
	for (i = 0; i < ARRAY_SIZE(x); i++)
		tw_arm_exact(test, e, &r[i], x[i]);	/* 5 is past: at 10 */
	tw_arm_exact(test, e, &r[6], 1);		/* past, earlier still */
	KUNIT_EXPECT_TRUE(test, tw_ordered_list(o, r, ids, 8, &n));
	KUNIT_ASSERT_EQ(test, n, 7U);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ_MSG(test, ids[i], order[i], "place %u", i);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 100), 0UL);

	/* Only the head is looked at: at 10 the two past ones, nothing else. */
	KUNIT_EXPECT_TRUE(test, twheel_advance(e, 10));
	KUNIT_EXPECT_PTR_EQ(test, twheel_pop(e), &r[6].t);
	KUNIT_EXPECT_PTR_EQ(test, twheel_pop(e), &r[5].t);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 100), 9UL);
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &r[1].t));	/* the head */
	KUNIT_EXPECT_PTR_EQ(test, list_first_entry(&o->list, struct twheel_timer,
						   hash_link), &r[3].t);
	tw_run_until(&ctx, 100);
	KUNIT_EXPECT_EQ(test, r[3].fired_at, 20UL);
	KUNIT_EXPECT_EQ(test, r[0].fired_at, 50UL);
	KUNIT_EXPECT_EQ(test, r[4].fired_at, 60UL);
	KUNIT_EXPECT_EQ(test, r[2].fired_at, 90UL);
	KUNIT_EXPECT_EQ(test, e->st.events, 5ULL);
	KUNIT_EXPECT_EQ(test, ctx.runs, 4UL);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	tw_check_invariant(test, e);
}

/* Every delta from -3 to 3000, shuffled: exact, in order, the list sorted. */
static void tw_ordered_every(struct kunit *test, unsigned long clk)
{
	const unsigned int n = 3004;
	struct twheel_ordered *o = tw_ordered_new(test, clk);
	struct twheel_engine *e = &o->e;
	struct tw_ctx ctx;
	struct tw_rec *r;
	unsigned int cnt;

	r = tw_arm_shuffled(test, &ctx, e, n, -3);
	KUNIT_EXPECT_TRUE(test, tw_ordered_list(o, r, NULL, 0, &cnt));
	KUNIT_EXPECT_EQ(test, tw_in_level(e, 0), n);
	tw_run_until(&ctx, clk + 2999);
	KUNIT_EXPECT_EQ(test, ctx.runs, n - 1UL);
	tw_run_until(&ctx, clk + 3000);
	KUNIT_EXPECT_EQ(test, ctx.runs, (unsigned long)n);
	KUNIT_EXPECT_EQ(test, tw_runs_out_of_order(r, n), 0U);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	KUNIT_EXPECT_TRUE(test, list_empty(&o->list));
	tw_check_invariant(test, e);
}

static void ordered_every_delta(struct kunit *test)
{
	tw_ordered_every(test, 1UL << 50);
}

static void ordered_clock_wrap(struct kunit *test)
{
	tw_ordered_every(test, ULONG_MAX - 1500);
}

static struct kunit_case tw_ordered_cases[] = {
	KUNIT_CASE(ordered_sorted_insertion),
	KUNIT_CASE(ordered_every_delta),
	KUNIT_CASE(ordered_clock_wrap),
	{}
};

static struct kunit_suite tw_ordered_suite = {
	.name = "twheel_ordered",
	.test_cases = tw_ordered_cases,
};

kunit_test_suite(tw_ordered_suite);

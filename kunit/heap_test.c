// SPDX-License-Identifier: GPL-2.0
/*
 * The heap engine's own cases: exact runs for every delta near the clock
 * and at the far boundary, heaps of every fill around a level's edge,
 * both sift directions of a delete from the middle, the clock's wrap and
 * the caller's storage.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include "tw_test.h"
#include "engines/heap.h"

/* A heap with room for cap timers, freed with the case. */
static struct twheel_heap *tw_heap_new(struct kunit *test, unsigned long clk,
				       unsigned int cap)
{
	struct twheel_heap *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	struct twheel_heap_slot *slots;

	KUNIT_ASSERT_NOT_NULL(test, h);
	slots = kunit_kcalloc(test, cap, sizeof(*slots), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, slots);
	KUNIT_ASSERT_EQ(test, twheel_heap_init(h, clk, slots, cap), 0);
	return h;
}

/*
 * The heap's shape: indices point back, keys match (the expiry, the clock
 * if that is past), no child before its parent.
 */
static void tw_heap_check(struct kunit *test, const struct twheel_heap *h)
{
	const struct twheel_heap_slot *s;
	unsigned int i, bad = 0;
	unsigned long key;

	KUNIT_EXPECT_EQ(test, tw_in_level(&h->e, 0), h->nr);
	for (i = 0; i < h->nr; i++) {
		s = &h->slots[i];
		key = time_before(s->t->expires, h->e.clk) ? h->e.clk : s->t->expires;
		if (s->t->heap_idx != i || s->expires != key ||
		    (i && time_before(s->expires,
				      h->slots[(i - 1) / TW_HEAP_ARITY].expires)))
			bad++;
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0U, "heap of %u: %u slots out of place",
			    h->nr, bad);
}

/*
 * Every delta from 0 to 1100 and around the far boundary (LONG_MAX, the
 * last delta that is still in the future), armed in a shuffled
 * order; each runs exactly at its jiffy and the jiffies come in order.
 */
static void heap_fires_exactly_every_delta(struct kunit *test)
{
	static const unsigned long far[] = {
		(1UL << 31) - 1, 1UL << 31, (1UL << 31) + 1,
		(1UL << 32) - 1, 1UL << 32, (1UL << 32) + 1,
		LONG_MAX - 1, LONG_MAX,
	};
	const unsigned long clk = 1UL << 40, near = 1101;
	unsigned int n = near + ARRAY_SIZE(far), i, j;
	struct twheel_heap *h = tw_heap_new(test, clk, n);
	unsigned int seq[16];
	struct tw_ctx ctx;
	struct tw_rec *r;

	tw_ctx_init(&ctx, test, &h->e);
	ctx.hook = tw_expect_hook;
	r = tw_recs_new(test, &ctx, n);
	for (i = 0; i < n; i++) {
		j = (i * 7919) % n;	/* 7919 is prime: every j once */
		tw_arm_exact(test, &h->e, &r[j], j < near ? clk + j :
			    clk + far[j - near]);
		tw_heap_check(test, h);
	}
	KUNIT_EXPECT_PTR_EQ(test, h->slots[0].t, &r[0].t);
	KUNIT_EXPECT_EQ(test, twheel_next_event(&h->e, ULONG_MAX), 0UL);
	tw_run_until(&ctx, clk + near - 1);
	KUNIT_EXPECT_EQ(test, ctx.runs, near);
	tw_heap_check(test, h);
	KUNIT_EXPECT_EQ(test, twheel_next_event(&h->e, ULONG_MAX),
			far[0] - near);
	/* The far ones, one jiffy at a time at each boundary. */
	ctx.seq = seq;
	ctx.seq_max = ARRAY_SIZE(seq);
	for (i = 0; i < ARRAY_SIZE(far); i++) {
		tw_run_until(&ctx, clk + far[i] - 1);
		KUNIT_EXPECT_EQ_MSG(test, r[near + i].fired, 0U, "delta %lu early", far[i]);
		tw_run_until(&ctx, clk + far[i]);
		KUNIT_EXPECT_EQ_MSG(test, r[near + i].fired, 1U, "delta %lu", far[i]);
	}
	KUNIT_EXPECT_EQ(test, ctx.seq_len, (unsigned int)ARRAY_SIZE(far));
	for (i = 0; i < ctx.seq_len; i++)
		KUNIT_EXPECT_EQ(test, seq[i], near + i);
	KUNIT_EXPECT_EQ(test, ctx.runs, (unsigned long)n);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	KUNIT_EXPECT_EQ(test, h->nr, 0U);
	tw_check_invariant(test, &h->e);
}

/*
 * Fills of 1 to 90: the edges of a 4-ary heap's levels (1, 5, 21, 85
 * nodes) and one on either side; descending expiries so that every add
 * sifts to the root; all run in expiry order, exactly.
 */
static void heap_every_fill_around_level_edges(struct kunit *test)
{
	const unsigned long clk = 5000;
	struct twheel_heap *h = tw_heap_new(test, clk, 90);
	unsigned int seq[90], n, i;
	struct tw_ctx ctx;
	struct tw_rec *r;

	tw_ctx_init(&ctx, test, &h->e);
	ctx.hook = tw_expect_hook;
	r = tw_recs_new(test, &ctx, 90);
	ctx.seq = seq;
	ctx.seq_max = ARRAY_SIZE(seq);
	for (n = 1; n <= 90; n++) {
		ctx.seq_len = 0;
		for (i = 0; i < n; i++) {
			tw_arm_exact(test, &h->e, &r[i], h->e.clk + 2 * (n - i));
			KUNIT_EXPECT_EQ(test, r[i].t.heap_idx, 0U);
		}
		tw_heap_check(test, h);
		tw_run_until(&ctx, h->e.clk + 2 * n);
		KUNIT_ASSERT_EQ(test, ctx.seq_len, n);
		for (i = 0; i < n; i++)
			KUNIT_EXPECT_EQ(test, seq[i], n - 1 - i);
	}
	KUNIT_EXPECT_EQ(test, ctx.runs, 90UL * 91 / 2);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	tw_check_invariant(test, &h->e);
}

/*
 * A delete from the middle fills the hole with the last slot's timer,
 * which may belong above it (sift up) or below it (sift down). Built with
 * expiries added in heap order, so that every slot is known (4-ary).
 */
static void heap_delete_sifts_both_ways(struct kunit *test)
{
	/* slot i holds x[i]: 10 | 100 20 300 400 | 110 120 130 140 (of 100) 30 (of 20) */
	static const unsigned long x[] = { 10, 100, 20, 300, 400, 110, 120, 130, 140, 30 };
	const unsigned int n = ARRAY_SIZE(x);
	const unsigned long clk = 1;
	struct twheel_heap *h = tw_heap_new(test, clk, n + 1);
	struct tw_ctx ctx;
	struct tw_rec *r;
	unsigned int i;

	BUILD_BUG_ON(TW_HEAP_ARITY != 4);
	tw_ctx_init(&ctx, test, &h->e);
	ctx.hook = tw_expect_hook;
	r = tw_recs_new(test, &ctx, n + 1);
	for (i = 0; i < n; i++)
		tw_arm_exact(test, &h->e, &r[i], clk + x[i]);
	for (i = 0; i < n; i++)
		KUNIT_ASSERT_EQ(test, r[i].t.heap_idx, i);

	/* Up: 30 (last) into 110's hole at 5, below 100: it swaps with 100. */
	KUNIT_EXPECT_TRUE(test, twheel_del(&h->e, &r[5].t));
	KUNIT_EXPECT_EQ(test, r[9].t.heap_idx, 1U);
	KUNIT_EXPECT_EQ(test, r[1].t.heap_idx, 5U);
	KUNIT_EXPECT_FALSE(test, twheel_pending(&h->e, &r[5].t));
	tw_heap_check(test, h);

	/* Down: 500 is added last (slot 9, under 20), then 30's slot 1 goes. */
	tw_arm_exact(test, &h->e, &r[n], clk + 500);
	KUNIT_EXPECT_EQ(test, r[n].t.heap_idx, 9U);
	KUNIT_EXPECT_TRUE(test, twheel_del(&h->e, &r[9].t));
	/* 500 sinks below its least child: 100 (slot 5) comes up. */
	KUNIT_EXPECT_EQ(test, r[1].t.heap_idx, 1U);
	KUNIT_EXPECT_EQ(test, r[n].t.heap_idx, 5U);
	tw_heap_check(test, h);

	/* The last slot itself: no sift at all. */
	KUNIT_EXPECT_EQ(test, r[8].t.heap_idx, 8U);
	KUNIT_EXPECT_TRUE(test, twheel_del(&h->e, &r[8].t));
	KUNIT_EXPECT_EQ(test, h->nr, 8U);
	tw_heap_check(test, h);

	tw_run_until(&ctx, clk + 1000);
	for (i = 0; i <= n; i++)
		KUNIT_EXPECT_EQ_MSG(test, r[i].fired, i == 5 || i == 8 || i == 9 ? 0U : 1U,
				    "timer %u", i);
	KUNIT_EXPECT_EQ(test, ctx.runs, 8UL);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	KUNIT_EXPECT_EQ(test, h->e.st.deleted, 3ULL);
	tw_check_invariant(test, &h->e);
}

/* A clock just below the wrap: order and exactness across it. */
static void heap_clock_wrap(struct kunit *test)
{
	const unsigned long clk = ULONG_MAX - 20;
	const unsigned int n = 60;
	struct twheel_heap *h = tw_heap_new(test, clk, n);
	unsigned int seq[60], i;
	struct tw_ctx ctx;
	struct tw_rec *r;

	tw_ctx_init(&ctx, test, &h->e);
	ctx.hook = tw_expect_hook;
	r = tw_recs_new(test, &ctx, n);
	ctx.seq = seq;
	ctx.seq_max = ARRAY_SIZE(seq);
	/* timer i at clk + i: 20 of them before the wrap, 0 at ULONG_MAX */
	for (i = 0; i < n; i++)
		tw_arm_exact(test, &h->e, &r[(i * 37) % n], clk + (i * 37) % n);
	KUNIT_EXPECT_PTR_EQ(test, h->slots[0].t, &r[0].t);
	tw_run_until(&ctx, ULONG_MAX);
	KUNIT_EXPECT_EQ(test, ctx.runs, 21UL);
	tw_run_until(&ctx, n);
	KUNIT_ASSERT_EQ(test, ctx.seq_len, n);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, seq[i], i);
	KUNIT_EXPECT_EQ(test, r[21].fired_at, 0UL);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	tw_check_invariant(test, &h->e);
}

/* Ties run in the jiffy they are due, all of them, whatever their order. */
static void heap_ties(struct kunit *test)
{
	const unsigned long clk = 300;
	struct twheel_heap *h = tw_heap_new(test, clk, 64);
	unsigned int i, popped = 0;
	struct twheel_timer *t;
	struct tw_ctx ctx;
	struct tw_rec *r;

	tw_ctx_init(&ctx, test, &h->e);
	ctx.hook = tw_expect_hook;
	r = tw_recs_new(test, &ctx, 64);
	for (i = 0; i < 64; i++)
		tw_arm_exact(test, &h->e, &r[i], clk + 10 + (i & 1));
	KUNIT_EXPECT_TRUE(test, twheel_advance(&h->e, clk + 10));
	KUNIT_EXPECT_EQ(test, h->nr, 32U);
	tw_heap_check(test, h);
	while ((t = twheel_pop(&h->e))) {
		KUNIT_EXPECT_EQ(test, t->expires, clk + 10);
		KUNIT_EXPECT_EQ(test, t->heap_idx, TW_HEAP_IDLE);
		popped++;
	}
	KUNIT_EXPECT_EQ(test, popped, 32U);
	tw_run_until(&ctx, clk + 11);
	KUNIT_EXPECT_EQ(test, ctx.runs, 32UL);
	KUNIT_EXPECT_EQ(test, h->e.st.expired, 64ULL);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
}

/* The caller's array: checked at init, replaced with the heap copied over. */
static void heap_storage(struct kunit *test)
{
	struct twheel_heap *h = tw_heap_new(test, 0, 4);
	struct twheel_heap_slot *more;
	struct tw_ctx ctx;
	struct tw_rec *r;
	unsigned int i;

	KUNIT_EXPECT_EQ(test, twheel_heap_init(h, 0, NULL, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, twheel_heap_init(h, 0, h->slots, TW_HEAP_MAX_SLOTS + 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, twheel_heap_init(h, 0, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, h->cap, 0U);
	more = kunit_kcalloc(test, 8, sizeof(*more), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, more);
	KUNIT_ASSERT_EQ(test, twheel_heap_set_storage(h, more, 4), 0);

	tw_ctx_init(&ctx, test, &h->e);
	ctx.hook = tw_expect_hook;
	r = tw_recs_new(test, &ctx, 8);
	for (i = 0; i < 4; i++)
		tw_arm_exact(test, &h->e, &r[i], 40 - i);
	/* Too small for what it holds: refused, nothing changes. */
	KUNIT_EXPECT_EQ(test, twheel_heap_set_storage(h, more + 4, 3), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, h->slots, more);
	KUNIT_ASSERT_EQ(test, twheel_heap_set_storage(h, more + 4, 4), 0);
	memset(more, 0, 4 * sizeof(*more));	/* the old array is free */
	tw_heap_check(test, h);
	tw_run_until(&ctx, 100);
	KUNIT_EXPECT_EQ(test, ctx.runs, 4UL);
	KUNIT_EXPECT_EQ(test, r[3].fired_at, 37UL);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
}

static struct kunit_case tw_heap_cases[] = {
	KUNIT_CASE(heap_fires_exactly_every_delta),
	KUNIT_CASE(heap_every_fill_around_level_edges),
	KUNIT_CASE(heap_delete_sifts_both_ways),
	KUNIT_CASE(heap_clock_wrap),
	KUNIT_CASE(heap_ties),
	KUNIT_CASE(heap_storage),
	{}
};

static struct kunit_suite tw_heap_suite = {
	.name = "twheel_heap",
	.test_cases = tw_heap_cases,
};

kunit_test_suite(tw_heap_suite);

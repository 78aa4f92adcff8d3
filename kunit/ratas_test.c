// SPDX-License-Identifier: GPL-2.0
/*
 * The ratas engine's own cases: its placement against Ratas' own loop,
 * exact runs for every delta of the first levels and at every level's
 * edges (and Ratas' carry) up to LONG_MAX, promotion and the hand-out at a
 * promotion's jiffy, the clock's 64-bit wrap, next_event without a bitmap.
 * What every engine does is in contract_test.c.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include "tw_test.h"
#include "engines/ratas.h"

static struct twheel_ratas *tw_ratas_new(struct kunit *test, unsigned long clk)
{
	struct twheel_ratas *r = tw_kvzalloc(test, sizeof(*r));

	KUNIT_ASSERT_NOT_NULL(test, r);
	twheel_ratas_init(r, clk);
	return r;
}

/*
 * Ratas' schedule() as it files a delta: from level 0 up, the distance in
 * slots of the level from the clock's own (its low bits carried in); the
 * first level where that is below 256 takes the timer.
 */
static unsigned int tw_ratas_walk(unsigned long expires, unsigned long clk)
{
	unsigned long delta = expires - clk;
	unsigned int lvl = 0;

	if ((long)delta < 0)
		return clk & 255;
	while (delta >= 256) {
		delta = (delta + ((clk >> (8 * lvl)) & 255)) >> 8;
		lvl++;
	}
	return lvl * 256 + ((expires >> (8 * lvl)) & 255);
}

/*
 * The smallest delta that is 256 level-(k-1) slots from the clock's own,
 * with the clock's low bits carried in: from there on, level k at least.
 */
static unsigned long tw_ratas_carry_edge(unsigned long clk, unsigned int k)
{
	return (1UL << (8 * k)) - (clk & ((1UL << (8 * (k - 1))) - 1));
}

/* The O(1) index against the walk: every level's edges, random clocks. */
static void ratas_index_is_ratas_rule(struct kunit *test)
{
	static const unsigned long clks[] = {
		0, 1, 255, 256, 0xf0, 0x1f0, 0xfff0, 0xabcdef, ULONG_MAX - 300,
		(1UL << 56) - 1, 0x0123456789abcdefUL,
	};
	unsigned long clk, delta, bad = 0;
	unsigned int i, k, lvl;
	struct rnd_state rs;
	int d;

	for (i = 0; i < ARRAY_SIZE(clks); i++) {
		clk = clks[i];
		for (k = 1; k < 8; k++) {
			for (d = -2; d <= 2; d++) {
				delta = (1UL << (8 * k)) + d;
				bad += tw_ratas_index(clk + delta, clk) !=
				       tw_ratas_walk(clk + delta, clk);
				/* the carry edge: 256 slots away from the clock's */
				delta = tw_ratas_carry_edge(clk, k) + d;
				bad += tw_ratas_index(clk + delta, clk) !=
				       tw_ratas_walk(clk + delta, clk);
			}
		}
		bad += tw_ratas_index(clk + LONG_MAX, clk) !=
		       tw_ratas_walk(clk + LONG_MAX, clk);
	}
	prandom_seed_state(&rs, 2);
	for (i = 0; i < 100000; i++) {
		clk = (u64)prandom_u32_state(&rs) << 32 | prandom_u32_state(&rs);
		delta = ((u64)prandom_u32_state(&rs) << 32 | prandom_u32_state(&rs)) >>
			(prandom_u32_state(&rs) % 64);
		if (tw_ratas_index(clk + delta, clk) != tw_ratas_walk(clk + delta, clk) &&
		    !bad++)
			KUNIT_FAIL(test, "clk %lx delta %lx: index %u, Ratas %u", clk,
				   delta, tw_ratas_index(clk + delta, clk),
				   tw_ratas_walk(clk + delta, clk));
	}
	KUNIT_EXPECT_EQ(test, bad, 0UL);
	/* the top level takes the largest deltas: nothing is clamped */
	lvl = tw_ratas_index(LONG_MAX, 0) / TW_RATAS_SIZE;
	KUNIT_EXPECT_EQ(test, lvl, TW_RATAS_LEVELS - 1U);
	KUNIT_EXPECT_EQ(test, tw_ratas_index(5, 10), 10U);	/* past: the clock's */
}

/* Every delta over the first two levels and a bit, from two clocks. */
static void ratas_every_delta_to_70000(struct kunit *test)
{
	static const unsigned long clks[] = { 0, (3UL << 16) + (17UL << 8) + 77 };
	unsigned long *deltas = tw_deltas_from(test, -3, 70003);
	unsigned int c, n = 70003;

	for (c = 0; c < ARRAY_SIZE(clks); c++)
		tw_exact_deltas(test, &tw_ratas_new(test, clks[c])->e, deltas, n);
}

/*
 * Every level's edge +-2, the carry edge of each level +-2 (where the
 * clock's low bits push a delta one level up) and the largest deltas
 * there are, up to LONG_MAX: each at exactly its jiffy.
 */
static void tw_ratas_edges(struct kunit *test, unsigned long clk)
{
	unsigned long deltas[8 * 10 + 4];
	unsigned int n = 0, k;
	int d;

	for (k = 1; k < 8; k++) {
		for (d = -2; d <= 2; d++) {
			deltas[n++] = (1UL << (8 * k)) + d;
			deltas[n++] = tw_ratas_carry_edge(clk, k) + d;
		}
	}
	deltas[n++] = LONG_MAX;
	deltas[n++] = LONG_MAX - 1;
	deltas[n++] = 1UL << 62;
	deltas[n++] = 0;
	tw_exact_deltas(test, &tw_ratas_new(test, clk)->e, deltas, n);
}

static void ratas_level_edges_to_long_max(struct kunit *test)
{
	if (BITS_PER_LONG < 64)
		kunit_skip(test, "needs 64-bit jiffies");
	tw_ratas_edges(test, 1000);
	tw_ratas_edges(test, 0x0123456789abcdefUL);
	tw_ratas_edges(test, 0);
	/* the clock wraps 2^64 on the way to most of them */
	tw_ratas_edges(test, ULONG_MAX - 77);
	tw_ratas_edges(test, (1UL << 63) + 0x1f0);
}

/* Every delta up to four level-0 turns, across the 64-bit wrap. */
static void ratas_clock_wrap(struct kunit *test)
{
	tw_exact_deltas(test, &tw_ratas_new(test, ULONG_MAX - 500)->e,
			tw_deltas_from(test, -3, 1030), 1030);
}

/*
 * A level-2 slot promoted at jiffy 0x20000: timer a expires right then and
 * is handed out by the promotion (never filed in level 0, not counted as
 * moved); timer b goes to level 1, is promoted again at 0x20300 into level
 * 0 and runs at 0x20305.
 */
static void ratas_promotion(struct kunit *test)
{
	struct twheel_ratas *r = tw_ratas_new(test, 1000);
	struct twheel_engine *e = &r->e;
	struct tw_ctx ctx;
	struct tw_rec *t;

	t = tw_exact_recs(test, &ctx, e, 2);
	tw_arm_exact(test, e, &t[0], 0x20000);
	tw_arm_exact(test, e, &t[1], 0x20305);
	KUNIT_EXPECT_EQ(test, t[0].t.bucket, 2 * TW_RATAS_SIZE + 2);
	KUNIT_EXPECT_EQ(test, t[1].t.bucket, 2 * TW_RATAS_SIZE + 2);
	KUNIT_EXPECT_EQ(test, tw_in_level(e, 2), 2UL);
	/* nothing to do before the promotion: next_event says where it is */
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX), 0x20000UL - 1000);
	tw_run_until(&ctx, 0x1ffff);
	KUNIT_EXPECT_EQ(test, ctx.runs, 0UL);
	KUNIT_EXPECT_EQ(test, e->st.cascades, 0ULL);
	tw_run_until(&ctx, 0x20000);
	KUNIT_EXPECT_EQ(test, t[0].fired, 1U);
	KUNIT_EXPECT_EQ(test, e->st.cascades, 1ULL);
	KUNIT_EXPECT_EQ(test, e->st.cascaded, 1ULL);	/* b only */
	KUNIT_EXPECT_EQ(test, t[1].t.bucket, TW_RATAS_SIZE + 3);
	KUNIT_EXPECT_EQ(test, tw_in_level(e, 1), 1UL);
	KUNIT_EXPECT_EQ(test, tw_in_level(e, 0), 0UL);
	tw_run_until(&ctx, 0x20300);
	KUNIT_EXPECT_EQ(test, e->st.cascades, 2ULL);
	KUNIT_EXPECT_EQ(test, e->st.cascaded, 2ULL);
	KUNIT_EXPECT_EQ(test, t[1].t.bucket, 5U);
	KUNIT_EXPECT_EQ(test, tw_in_level(e, 0), 1UL);
	tw_run_until(&ctx, 0x20304);
	KUNIT_EXPECT_EQ(test, t[1].fired, 0U);
	tw_run_until(&ctx, 0x20305);
	KUNIT_EXPECT_EQ(test, t[1].fired, 1U);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	/* two jiffies with promotions, two with runs */
	KUNIT_EXPECT_EQ(test, e->st.events, 3ULL);
	tw_check_invariant(test, e);
}

/*
 * Ratas' carry: from clock 0x1f0 a delta of 0xff10 has its highest bit in
 * level 1, but its slot is 256 level-1 slots from the clock's: level 2.
 * Up to 0xff0f (255 slots) it stays in level 1, the last one in the slot
 * just behind the clock's.
 */
static void ratas_carry_goes_up_a_level(struct kunit *test)
{
	struct twheel_ratas *r = tw_ratas_new(test, 0x1f0);
	unsigned long deltas[] = { 0xff10, 0xff0f };
	struct tw_ctx ctx;
	struct tw_rec *t;
	unsigned int i;

	t = tw_exact_recs(test, &ctx, &r->e, 2);
	for (i = 0; i < 2; i++)
		tw_arm_exact(test, &r->e, &t[i], 0x1f0 + deltas[i]);
	KUNIT_EXPECT_EQ(test, t[0].t.bucket, 2 * TW_RATAS_SIZE + 1);
	KUNIT_EXPECT_EQ(test, t[1].t.bucket, TW_RATAS_SIZE + 0);
	tw_run_until(&ctx, 0x1f0 + 0xff10);
	KUNIT_EXPECT_EQ(test, ctx.runs, 2UL);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
}

/*
 * next_event walks slot heads (no bitmap): a level-0 timer, a level-1
 * promotion point, a limit before either, and nothing at all.
 */
static void ratas_next_event_without_bitmap(struct kunit *test)
{
	struct twheel_ratas *r = tw_ratas_new(test, 0x105);
	struct twheel_engine *e = &r->e;
	struct twheel_timer a, b;

	twheel_timer_setup(e, &a, NULL);
	twheel_timer_setup(e, &b, NULL);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX), ULONG_MAX);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 7), 7UL);
	KUNIT_ASSERT_EQ(test, twheel_add(e, &a, 0x105 + 600), 0);	/* level 1 */
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX), 0x300UL - 0x105);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 100), 100UL);
	KUNIT_ASSERT_EQ(test, twheel_add(e, &b, 0x105 + 200), 0);	/* level 0 */
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX), 200UL);
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &b));
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &a));
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX), ULONG_MAX);
	/* a level-7 timer: its promotion point is 2^56 jiffies away at most */
	KUNIT_ASSERT_EQ(test, twheel_add(e, &a, 0x105UL + LONG_MAX), 0);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX),
			((0x105UL + LONG_MAX) & ~((1UL << 56) - 1)) - 0x105);
}

static struct kunit_case tw_ratas_cases[] = {
	KUNIT_CASE(ratas_index_is_ratas_rule),
	KUNIT_CASE(ratas_every_delta_to_70000),
	KUNIT_CASE(ratas_level_edges_to_long_max),
	KUNIT_CASE(ratas_clock_wrap),
	KUNIT_CASE(ratas_promotion),
	KUNIT_CASE(ratas_carry_goes_up_a_level),
	KUNIT_CASE(ratas_next_event_without_bitmap),
	{}
};

static struct kunit_suite tw_ratas_suite = {
	.name = "twheel_ratas",
	.test_cases = tw_ratas_cases,
};

kunit_test_suite(tw_ratas_suite);

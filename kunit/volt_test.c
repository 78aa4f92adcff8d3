// SPDX-License-Identifier: GPL-2.0
/*
 * The volt engine's own cases: its O(1) level against the definition,
 * exact runs for every delta of the first levels, at every level's edges,
 * through the overflow list and up to LONG_MAX, re-filing, the 64-bit
 * wrap, next_event by __ffs, and lazy cancel: what it holds, when it is
 * reclaimed, re-arming a cancelled timer, purging.
 * What every engine does is in contract_test.c.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include "tw_test.h"
#include "engines/volt.h"

static struct twheel_volt *tw_volt_new(struct kunit *test, unsigned long clk)
{
	struct twheel_volt *v = tw_kvzalloc(test, sizeof(*v));

	KUNIT_ASSERT_NOT_NULL(test, v);
	twheel_volt_init(v, clk);
	return v;
}

/*
 * The definition: the lowest level above which expires and clk agree
 * (every bit from 6(n+1) up), none of the five: the overflow list.
 */
static unsigned int tw_volt_def(unsigned long expires, unsigned long clk)
{
	unsigned int lvl;

	if (time_before(expires, clk))
		expires = clk;
	for (lvl = 0; lvl < TW_VOLT_LEVELS; lvl++)
		if ((expires >> (6 * lvl + 6)) == (clk >> (6 * lvl + 6)))
			return lvl * 64 + ((expires >> (6 * lvl)) & 63);
	return TW_VOLT_OVERFLOW;
}

/* Timers on a list of the engine, cancelled ones included. */
static unsigned int tw_volt_linked(const struct list_head *head)
{
	const struct list_head *p;
	unsigned int n = 0;

	for (p = head->next; p != head; p = p->next)
		n++;
	return n;
}

/* Each level's word has a bit exactly for its non-empty slots. */
static void tw_volt_check_words(struct kunit *test, const struct twheel_volt *v)
{
	unsigned int i, bad = 0;

	for (i = 0; i < TW_VOLT_BUCKETS; i++)
		bad += !!(v->occupied[i / 64] & BIT_ULL(i % 64)) ==
		       list_empty(&v->slots[i]);
	KUNIT_EXPECT_EQ(test, bad, 0U);
}

static void volt_index_is_the_definition(struct kunit *test)
{
	static const unsigned long clks[] = {
		0, 1, 63, 64, 1000, (1UL << 30) - 5, ULONG_MAX - 300,
		0x0123456789abcdefUL,
	};
	unsigned long clk, x, bad = 0;
	unsigned int i, k;
	struct rnd_state rs;
	int d;

	for (i = 0; i < ARRAY_SIZE(clks); i++) {
		clk = clks[i];
		for (k = 1; k <= TW_VOLT_LEVELS + 1; k++) {
			for (d = -2; d <= 2; d++) {
				x = clk + (1UL << (6 * k)) + d;
				bad += tw_volt_index(x, clk) != tw_volt_def(x, clk);
				/* where clk's level-k digit turns over */
				x = ((clk >> (6 * k)) + 1) << (6 * k);
				bad += tw_volt_index(x + d, clk) != tw_volt_def(x + d, clk);
			}
		}
		bad += tw_volt_index(clk + LONG_MAX, clk) != TW_VOLT_OVERFLOW;
	}
	prandom_seed_state(&rs, 3);
	for (i = 0; i < 100000; i++) {
		clk = (u64)prandom_u32_state(&rs) << 32 | prandom_u32_state(&rs);
		x = clk + (((u64)prandom_u32_state(&rs) << 32 | prandom_u32_state(&rs)) >>
			   (1 + prandom_u32_state(&rs) % 63));
		if (tw_volt_index(x, clk) != tw_volt_def(x, clk) && !bad++)
			KUNIT_FAIL(test, "clk %lx expires %lx: index %u, want %u", clk,
				   x, tw_volt_index(x, clk), tw_volt_def(x, clk));
	}
	KUNIT_EXPECT_EQ(test, bad, 0UL);
	/* 150 from 0: the seed's own example, level 1 */
	KUNIT_EXPECT_EQ(test, tw_volt_index(150, 0), 64U + 2);
	KUNIT_EXPECT_EQ(test, tw_volt_index(5, 10), 10U);	/* past: the clock's */
}

/* Every delta over the first two levels and into the third, two clocks. */
static void volt_every_delta_to_5000(struct kunit *test)
{
	static const unsigned long clks[] = { 0, (5UL << 12) + (17UL << 6) + 33 };
	unsigned long *deltas = tw_deltas_from(test, -3, 5003);
	unsigned int c, n = 5003;

	for (c = 0; c < ARRAY_SIZE(clks); c++) {
		struct twheel_volt *v = tw_volt_new(test, clks[c]);

		tw_exact_deltas(test, &v->e, deltas, n);
		tw_volt_check_words(test, v);
	}
}

/*
 * Every level's edge 64^k +-2 and every turn-over of the clock's level-k
 * digit +-2 (where the xor's highest bit moves up), the overflow list's
 * 2^30 and beyond, up to LONG_MAX: each at exactly its jiffy.
 */
static void tw_volt_edges(struct kunit *test, unsigned long clk)
{
	unsigned long deltas[7 * 10 + 4], turn;
	struct twheel_volt *v = tw_volt_new(test, clk);
	unsigned int n = 0, k;
	int d;

	for (k = 1; k <= TW_VOLT_LEVELS + 2; k++) {
		turn = (((clk >> (6 * k)) + 1) << (6 * k)) - clk;
		for (d = -2; d <= 2; d++) {
			deltas[n++] = (1UL << (6 * k)) + d;
			deltas[n++] = turn + d;
		}
	}
	deltas[n++] = LONG_MAX;
	deltas[n++] = LONG_MAX - 1;
	deltas[n++] = 1UL << 62;
	deltas[n++] = 0;
	tw_exact_deltas(test, &v->e, deltas, n);
	KUNIT_EXPECT_TRUE(test, list_empty(&v->overflow));
	tw_volt_check_words(test, v);
}

static void volt_level_edges_to_long_max(struct kunit *test)
{
	if (BITS_PER_LONG < 64)
		kunit_skip(test, "needs 64-bit jiffies");
	tw_volt_edges(test, 1000);
	tw_volt_edges(test, 0x0123456789abcdefUL);
	tw_volt_edges(test, 0);
	tw_volt_edges(test, ULONG_MAX - 77);
	tw_volt_edges(test, (1UL << 30) - 3);
}

/* Every delta up to 1027 across the 64-bit wrap: through the overflow. */
static void volt_clock_wrap(struct kunit *test)
{
	tw_exact_deltas(test, &tw_volt_new(test, ULONG_MAX - 500)->e,
			tw_deltas_from(test, -3, 1030), 1030);
}

/*
 * From 1000 a timer for 0x2345 is in level 2 (1000 ^ 0x2345 has bit 13),
 * slot 2; at 0x2000 it is re-filed to level 1, slot 0xd; at 0x2340 to
 * level 0, slot 5; it runs at 0x2345. Each re-filing is a cascade of one.
 */
static void volt_refiles_when_due(struct kunit *test)
{
	struct twheel_volt *v = tw_volt_new(test, 1000);
	struct twheel_engine *e = &v->e;
	struct tw_ctx ctx;
	struct tw_rec *t;

	t = tw_exact_recs(test, &ctx, e, 1);
	tw_arm_exact(test, e, &t[0], 0x2345);
	KUNIT_EXPECT_EQ(test, t[0].t.volt_slot, 2 * 64 + 2);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX), 0x2000UL - 1000);
	tw_run_until(&ctx, 0x1fff);
	KUNIT_EXPECT_EQ(test, e->st.cascades, 0ULL);
	tw_run_until(&ctx, 0x2000);
	KUNIT_EXPECT_EQ(test, t[0].t.volt_slot, 64 + 0xd);
	KUNIT_EXPECT_EQ(test, e->st.cascaded, 1ULL);
	tw_run_until(&ctx, 0x2340);
	KUNIT_EXPECT_EQ(test, t[0].t.volt_slot, 5U);
	KUNIT_EXPECT_EQ(test, e->st.cascaded, 2ULL);
	KUNIT_EXPECT_EQ(test, e->st.cascades, 2ULL);
	tw_run_until(&ctx, 0x2344);
	KUNIT_EXPECT_EQ(test, t[0].fired, 0U);
	tw_run_until(&ctx, 0x2345);
	KUNIT_EXPECT_EQ(test, t[0].fired, 1U);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	KUNIT_EXPECT_EQ(test, e->st.events, 3ULL);
	tw_volt_check_words(test, v);
}

/*
 * The overflow list: from 5 below 2^30 a delta of 8 crosses the top
 * level's turn-over, so it waits there until 2^30, when the list is walked;
 * a timer for 2^32 waits there too, and is walked again only at 2^32, where
 * it fits (into level 0's slot due right then): the turn-overs at 2^31
 * and 3 * 2^30 pass without a look.
 */
static void volt_overflow_list(struct kunit *test)
{
	const unsigned long clk = (1UL << 30) - 5;
	struct twheel_volt *v = tw_volt_new(test, clk);
	struct twheel_engine *e = &v->e;
	struct tw_ctx ctx;
	struct tw_rec *t;

	if (BITS_PER_LONG < 64)
		kunit_skip(test, "needs 64-bit jiffies");
	t = tw_exact_recs(test, &ctx, e, 2);
	tw_arm_exact(test, e, &t[0], clk + 8);
	tw_arm_exact(test, e, &t[1], 1UL << 32);
	KUNIT_EXPECT_EQ(test, t[0].t.volt_slot, TW_VOLT_OVERFLOW);
	KUNIT_EXPECT_EQ(test, t[1].t.volt_slot, TW_VOLT_OVERFLOW);
	KUNIT_EXPECT_EQ(test, tw_in_level(e, TW_VOLT_LEVELS), 2UL);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX), 5UL);
	tw_run_until(&ctx, 1UL << 30);
	KUNIT_EXPECT_EQ(test, t[0].t.volt_slot, 3U);
	KUNIT_EXPECT_EQ(test, t[1].t.volt_slot, TW_VOLT_OVERFLOW);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX), 2UL);
	tw_run_until(&ctx, (1UL << 30) + 3);
	KUNIT_EXPECT_EQ(test, t[0].fired, 1U);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX),
			(1UL << 32) - (1UL << 30) - 4);
	tw_run_until(&ctx, (1UL << 32) - 1);
	KUNIT_EXPECT_EQ(test, t[1].fired, 0U);
	KUNIT_EXPECT_EQ(test, e->st.cascades, 1ULL);	/* the walk at 2^30 */
	KUNIT_EXPECT_EQ(test, e->st.events, 2ULL);
	tw_run_until(&ctx, 1UL << 32);
	KUNIT_EXPECT_EQ(test, t[1].fired, 1U);
	KUNIT_EXPECT_EQ(test, e->st.cascades, 2ULL);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	KUNIT_EXPECT_TRUE(test, list_empty(&v->overflow));
}

/*
 * Lazy cancel: ten timers in one level-1 slot, six cancelled. Each is not
 * pending right after its cancel but stays linked, held (lazy_held 6)
 * until the slot is re-filed at 0x440, which reclaims them; the other four
 * run exactly; lazy_held_max keeps the 6.
 */
static void volt_lazy_cancel_is_reclaimed_when_due(struct kunit *test)
{
	struct twheel_volt *v = tw_volt_new(test, 0x400);
	struct twheel_engine *e = &v->e;
	struct list_head *slot = &v->slots[64 + 0x11];
	struct tw_ctx ctx;
	struct tw_rec *t;
	unsigned int i;

	t = tw_exact_recs(test, &ctx, e, 10);
	for (i = 0; i < 10; i++)
		tw_arm_exact(test, e, &t[i], 0x440 + i);
	KUNIT_EXPECT_EQ(test, tw_volt_linked(slot), 10U);
	for (i = 0; i < 6; i++) {
		KUNIT_EXPECT_TRUE(test, twheel_del(e, &t[i].t));
		KUNIT_EXPECT_FALSE(test, twheel_pending(e, &t[i].t));
		KUNIT_EXPECT_FALSE(test, twheel_del(e, &t[i].t));
	}
	KUNIT_EXPECT_EQ(test, tw_volt_linked(slot), 10U);
	KUNIT_EXPECT_EQ(test, e->st.lazy_held, 6ULL);
	KUNIT_EXPECT_EQ(test, e->st.lazy_held_max, 6ULL);
	KUNIT_EXPECT_EQ(test, tw_in_level(e, 1), 4UL);
	KUNIT_EXPECT_EQ(test, twheel_stats_pending(&e->st), 4UL);
	tw_check_invariant(test, e);
	tw_run_until(&ctx, 0x43f);
	KUNIT_EXPECT_EQ(test, e->st.lazy_held, 6ULL);
	tw_run_until(&ctx, 0x440);
	KUNIT_EXPECT_EQ(test, e->st.lazy_held, 0ULL);
	KUNIT_EXPECT_TRUE(test, list_empty(slot));
	KUNIT_EXPECT_EQ(test, e->st.cascaded, 4ULL);	/* the live ones */
	tw_run_until(&ctx, 0x450);
	for (i = 0; i < 10; i++)
		KUNIT_EXPECT_EQ_MSG(test, t[i].fired, i < 6 ? 0U : 1U, "timer %u", i);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	KUNIT_EXPECT_EQ(test, e->st.lazy_held_max, 6ULL);
	tw_check_invariant(test, e);
	tw_volt_check_words(test, v);
}

/*
 * A cancelled timer armed again, never linked twice: (a) to an expiry of
 * the slot it is in: unflagged where it is; (b) elsewhere: unlinked from
 * its slot first (which empties, and loses its bit); (c) collected, then
 * cancelled: the pop skips it; armed again it leaves the collected list.
 * Each runs once, at its new expiry; lazy_held is 0 at the end.
 */
static void volt_rearm_of_a_cancelled_timer(struct kunit *test)
{
	static const unsigned long at[] = { 0x47f, 0x420, 0x415 };
	struct twheel_volt *v = tw_volt_new(test, 0x400);
	struct twheel_engine *e = &v->e;
	struct tw_ctx ctx;
	struct tw_rec *t;
	unsigned int i;

	t = tw_exact_recs(test, &ctx, e, 3);
	/* (a) */
	tw_arm_exact(test, e, &t[0], 0x450);
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &t[0].t));
	tw_arm_exact(test, e, &t[0], 0x47f);		/* the same level-1 slot */
	KUNIT_EXPECT_EQ(test, tw_volt_linked(&v->slots[64 + 0x11]), 1U);
	KUNIT_EXPECT_EQ(test, e->st.lazy_held, 0ULL);
	/* (b) */
	tw_arm_exact(test, e, &t[1], 0x490);
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &t[1].t));
	KUNIT_EXPECT_FALSE(test, twheel_mod(e, &t[1].t, 0x420));	/* armed afresh */
	t[1].expect = 0x420;
	KUNIT_EXPECT_TRUE(test, list_empty(&v->slots[64 + 0x12]));
	KUNIT_EXPECT_FALSE(test, v->occupied[1] & BIT_ULL(0x12));
	KUNIT_EXPECT_EQ(test, t[1].t.volt_slot, 0x20U);
	KUNIT_EXPECT_EQ(test, e->st.lazy_held, 0ULL);
	/* (c) */
	tw_arm_exact(test, e, &t[2], 0x410);
	KUNIT_EXPECT_TRUE(test, twheel_advance(e, 0x410));
	KUNIT_EXPECT_EQ(test, t[2].t.volt_slot, TW_VOLT_COLLECTED);
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &t[2].t));
	KUNIT_EXPECT_EQ(test, e->st.lazy_held, 1ULL);
	tw_arm_exact(test, e, &t[2], 0x415);
	KUNIT_EXPECT_EQ(test, t[2].t.volt_slot, 0x15U);
	KUNIT_EXPECT_NULL(test, twheel_pop(e));
	KUNIT_EXPECT_EQ(test, e->st.lazy_held, 0ULL);
	tw_run_until(&ctx, 0x500);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ_MSG(test, t[i].fired_at, at[i], "timer %u", i);
	KUNIT_EXPECT_EQ(test, ctx.runs, 3UL);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	KUNIT_EXPECT_EQ(test, e->st.lazy_held_max, 1ULL);
	tw_check_invariant(test, e);
	tw_volt_check_words(test, v);
}

/*
 * twheel_purge(): cancelled timers in a slot, on the overflow list and on
 * the collected list all let go at once (unlinked: their owner may free
 * them), pending ones untouched; a purged timer arms like a fresh one.
 */
static void volt_purge_lets_go(struct kunit *test)
{
	struct twheel_volt *v = tw_volt_new(test, 100);
	struct twheel_engine *e = &v->e;
	struct tw_ctx ctx;
	struct tw_rec *t;
	unsigned int i;

	t = tw_exact_recs(test, &ctx, e, 4);
	tw_arm_exact(test, e, &t[0], 100);		/* collected below */
	tw_arm_exact(test, e, &t[1], 5000);
	tw_arm_exact(test, e, &t[2], 1UL << 31);	/* overflow */
	tw_arm_exact(test, e, &t[3], 5001);		/* stays pending */
	KUNIT_EXPECT_TRUE(test, twheel_advance(e, 100));
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_TRUE(test, twheel_del(e, &t[i].t));
	KUNIT_EXPECT_EQ(test, e->st.lazy_held, 3ULL);
	twheel_purge(e);
	KUNIT_EXPECT_EQ(test, e->st.lazy_held, 0ULL);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_NULL_MSG(test, t[i].t.volt_link.next, "timer %u", i);
	KUNIT_EXPECT_TRUE(test, list_empty(&v->collected));
	KUNIT_EXPECT_TRUE(test, list_empty(&v->overflow));
	KUNIT_EXPECT_TRUE(test, twheel_pending(e, &t[3].t));
	KUNIT_EXPECT_EQ(test, tw_volt_linked(&v->slots[t[3].t.volt_slot]), 1U);
	tw_arm_exact(test, e, &t[1], 200);
	tw_run_until(&ctx, 6000);
	KUNIT_EXPECT_EQ(test, t[1].fired_at, 200UL);
	KUNIT_EXPECT_EQ(test, t[3].fired_at, 5001UL);
	KUNIT_EXPECT_EQ(test, ctx.runs, 2UL);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	tw_check_invariant(test, e);
	tw_volt_check_words(test, v);
}

/* next_event: an __ffs per level, from the clock's point on, wrapping. */
static void volt_next_event_by_ffs(struct kunit *test)
{
	struct twheel_volt *v = tw_volt_new(test, 0x7c5);
	struct twheel_engine *e = &v->e;
	struct twheel_timer a, b;

	twheel_timer_setup(e, &a, NULL);
	twheel_timer_setup(e, &b, NULL);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX), ULONG_MAX);
	/* level 1, slot 3 of the next turn: the slots after 0x1f, wrapped */
	KUNIT_ASSERT_EQ(test, twheel_add(e, &a, 0x8c7), 0);
	KUNIT_EXPECT_EQ(test, a.volt_slot, 64 + 0x23 % 64);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX), 0x8c0UL - 0x7c5);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 10), 10UL);
	KUNIT_ASSERT_EQ(test, twheel_add(e, &b, 0x7f0), 0);	/* level 0 */
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX), 0x7f0UL - 0x7c5);
	/* a cancelled timer's slot is still work: it is reclaimed there */
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &b));
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX), 0x7f0UL - 0x7c5);
	twheel_purge(e);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX), 0x8c0UL - 0x7c5);
}

static struct kunit_case tw_volt_cases[] = {
	KUNIT_CASE(volt_index_is_the_definition),
	KUNIT_CASE(volt_every_delta_to_5000),
	KUNIT_CASE(volt_level_edges_to_long_max),
	KUNIT_CASE(volt_clock_wrap),
	KUNIT_CASE(volt_refiles_when_due),
	KUNIT_CASE(volt_overflow_list),
	KUNIT_CASE(volt_lazy_cancel_is_reclaimed_when_due),
	KUNIT_CASE(volt_rearm_of_a_cancelled_timer),
	KUNIT_CASE(volt_purge_lets_go),
	KUNIT_CASE(volt_next_event_by_ffs),
	{}
};

static struct kunit_suite tw_volt_suite = {
	.name = "twheel_volt",
	.test_cases = tw_volt_cases,
};

kunit_test_suite(tw_volt_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * The hash engine's own cases: exact runs for every delta over several
 * turns and at every turn's edge, the rounds a timer waits counted down
 * visit by visit, FIFO within a slot, the slot bitmap, the clock's wrap,
 * the smallest wheel and the slot counts init refuses.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include "tw_test.h"
#include "engines/hash.h"

/* A hash engine of nr_slots slots, freed with the case. */
static struct twheel_hash *tw_hash_new(struct kunit *test, unsigned long clk,
				       unsigned int nr_slots)
{
	struct twheel_hash *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	void *mem;

	KUNIT_ASSERT_NOT_NULL(test, h);
	mem = kunit_kzalloc(test, twheel_hash_storage_size(nr_slots), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mem);
	KUNIT_ASSERT_EQ(test, twheel_hash_init(h, clk, mem, nr_slots), 0);
	return h;
}

/*
 * Arms n timers, timer i at clk + delta(i) in a shuffled order, checks the
 * rounds each was given, runs them all: each exactly at its jiffy.
 */
static void tw_hash_every(struct kunit *test, unsigned int nr_slots,
			  unsigned long clk, unsigned int n,
			  long (*delta)(unsigned int i, unsigned int nr_slots))
{
	struct twheel_hash *h = tw_hash_new(test, clk, nr_slots);
	unsigned long last = clk, d;
	unsigned int i, j, wrong = 0;
	struct tw_ctx ctx;
	struct tw_rec *r;

	tw_ctx_init(&ctx, test, &h->e);
	ctx.hook = tw_expect_hook;
	r = tw_recs_new(test, &ctx, n);
	for (i = 0; i < n; i++) {
		j = (i * 7919) % n;	/* n is never a multiple of 7919 */
		d = delta(j, nr_slots);
		tw_arm_exact(test, &h->e, &r[j], clk + d);
		if (r[j].t.rounds != ((long)d < 0 ? 0 : d / nr_slots))
			wrong++;
		if (time_after(r[j].expect, last))
			last = r[j].expect;
	}
	KUNIT_EXPECT_EQ(test, wrong, 0U);
	KUNIT_EXPECT_EQ(test, tw_in_level(&h->e, 0), n);
	tw_run_until(&ctx, last - 1);
	KUNIT_EXPECT_LT(test, ctx.runs, (unsigned long)n);
	tw_run_until(&ctx, last);
	KUNIT_EXPECT_EQ(test, ctx.runs, (unsigned long)n);
	for (i = 0, wrong = 0; i < n; i++)
		wrong += r[i].fired != 1;
	KUNIT_EXPECT_EQ(test, wrong, 0U);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	KUNIT_EXPECT_TRUE(test, bitmap_empty(h->map, nr_slots));
	tw_check_invariant(test, &h->e);
}

/* 16 slots: deltas up to 6 turns, then every turn's edge up to turn 200. */
static void hash_fires_exactly_every_delta(struct kunit *test)
{
	tw_hash_every(test, 16, 1000, 3 + 98 + 3 * 194, tw_turns_delta);
}

/* The smallest wheel, two slots: every timer waits delta / 2 rounds. */
static void hash_two_slots(struct kunit *test)
{
	tw_hash_every(test, 2, 77, 3 + 14 + 3 * 300, tw_turns_delta);
}

/* The default wheel: the turn edges at 256 slots. */
static void hash_default_slots(struct kunit *test)
{
	tw_hash_every(test, TW_HASH_DEFAULT_SLOTS, 1UL << 33, 3 + 6 * 256 + 2 + 3 * 100,
		      tw_turns_delta);
}

/* Across the clock's wrap, every delta over six turns. */
static void hash_clock_wrap(struct kunit *test)
{
	tw_hash_every(test, 16, ULONG_MAX - 40, 3 + 98 + 3 * 20, tw_turns_delta);
}

/*
 * One slot (13 of 16, from 1000 on), three timers in it: each visit of
 * the slot counts the waiting ones down by one round and collects the one
 * with none left; jiffies between visits are skipped.
 */
static void hash_rounds_count_down(struct kunit *test)
{
	struct twheel_hash *h = tw_hash_new(test, 1000, 16);
	struct twheel_engine *e = &h->e;
	struct tw_ctx ctx;
	struct tw_rec *r;

	tw_ctx_init(&ctx, test, e);
	r = tw_recs_new(test, &ctx, 4);
	tw_arm_exact(test, &h->e, &r[0], 1053);	/* 3 rounds */
	tw_arm_exact(test, &h->e, &r[1], 1005);	/* none */
	tw_arm_exact(test, &h->e, &r[2], 1021);	/* 1 */
	tw_arm_exact(test, &h->e, &r[3], 1005);	/* none, after r[1] */
	KUNIT_EXPECT_EQ(test, r[0].t.rounds, 3UL);
	KUNIT_EXPECT_EQ(test, r[2].t.rounds, 1UL);
	KUNIT_EXPECT_TRUE(test, test_bit(13, h->map));
	KUNIT_EXPECT_EQ(test, bitmap_weight(h->map, 16), 1U);

	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 100), 5UL);
	KUNIT_EXPECT_TRUE(test, twheel_advance(e, 1005));
	KUNIT_EXPECT_PTR_EQ(test, twheel_pop(e), &r[1].t);
	KUNIT_EXPECT_PTR_EQ(test, twheel_pop(e), &r[3].t);
	KUNIT_EXPECT_NULL(test, twheel_pop(e));
	KUNIT_EXPECT_EQ(test, r[0].t.rounds, 2UL);
	KUNIT_EXPECT_EQ(test, r[2].t.rounds, 0UL);
	KUNIT_EXPECT_EQ(test, e->st.events, 1ULL);

	/* The next visit is a turn later, 15 jiffies from clk (1006). */
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 100), 15UL);
	KUNIT_EXPECT_TRUE(test, twheel_advance(e, 1021));
	KUNIT_EXPECT_PTR_EQ(test, twheel_pop(e), &r[2].t);
	KUNIT_EXPECT_EQ(test, r[0].t.rounds, 1UL);
	/* A visit that only counts down: work, but nothing collected. */
	KUNIT_EXPECT_FALSE(test, twheel_advance(e, 1052));
	KUNIT_EXPECT_EQ(test, r[0].t.rounds, 0UL);
	KUNIT_EXPECT_EQ(test, e->st.events, 3ULL);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 100), 0UL);
	KUNIT_EXPECT_TRUE(test, twheel_advance(e, 1053));
	KUNIT_EXPECT_PTR_EQ(test, twheel_pop(e), &r[0].t);
	KUNIT_EXPECT_EQ(test, e->st.events, 4ULL);
	KUNIT_EXPECT_EQ(test, e->st.jiffies, 54ULL);
	KUNIT_EXPECT_TRUE(test, bitmap_empty(h->map, 16));
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 100), 100UL);
	KUNIT_EXPECT_EQ(test, e->st.expired, 4ULL);
	tw_check_invariant(test, e);
}

/*
 * A timer armed in the past goes to the clock's own slot and runs there;
 * deleting a slot's last timer clears its bit, deleting one of two does not.
 */
static void hash_past_and_bitmap(struct kunit *test)
{
	struct twheel_hash *h = tw_hash_new(test, 2000, 16);
	struct twheel_engine *e = &h->e;
	struct tw_ctx ctx;
	struct tw_rec *r;

	tw_ctx_init(&ctx, test, e);
	ctx.hook = tw_expect_hook;
	r = tw_recs_new(test, &ctx, 4);
	tw_arm_exact(test, &h->e, &r[0], 1990);	/* past: slot 2000 % 16 = 0 */
	tw_arm_exact(test, &h->e, &r[1], 2003);	/* slot 3 */
	tw_arm_exact(test, &h->e, &r[2], 2019);	/* slot 3, a round later */
	tw_arm_exact(test, &h->e, &r[3], 2005);	/* slot 5 */
	KUNIT_EXPECT_EQ(test, r[0].t.rounds, 0UL);
	KUNIT_EXPECT_TRUE(test, test_bit(0, h->map));
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &r[3].t));
	KUNIT_EXPECT_FALSE(test, test_bit(5, h->map));
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &r[1].t));
	KUNIT_EXPECT_TRUE(test, test_bit(3, h->map));
	KUNIT_EXPECT_EQ(test, bitmap_weight(h->map, 16), 2U);
	tw_run_until(&ctx, 2100);
	KUNIT_EXPECT_EQ(test, r[0].fired_at, 2000UL);
	KUNIT_EXPECT_EQ(test, r[1].fired + r[3].fired, 0U);
	KUNIT_EXPECT_EQ(test, r[2].fired_at, 2019UL);
	KUNIT_EXPECT_EQ(test, ctx.runs, 2UL);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	KUNIT_EXPECT_TRUE(test, bitmap_empty(h->map, 16));
	tw_check_invariant(test, e);
}

static void hash_init_refuses(struct kunit *test)
{
	static const unsigned int bad[] = { 0, 1, 3, 24, 255, 1U << 21 };
	struct twheel_hash h;
	unsigned long mem[8];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, twheel_hash_init(&h, 0, mem, bad[i]), -EINVAL,
				    "%u slots", bad[i]);
	KUNIT_EXPECT_EQ(test, twheel_hash_init(&h, 0, NULL, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, twheel_hash_storage_size(2),
			2 * sizeof(struct list_head) + sizeof(long));
	KUNIT_EXPECT_EQ(test, twheel_hash_storage_size(256),
			256 * sizeof(struct list_head) + 256 / 8);
	KUNIT_ASSERT_LE(test, twheel_hash_storage_size(2), sizeof(mem));
	KUNIT_EXPECT_EQ(test, twheel_hash_init(&h, 5, mem, 2), 0);
	KUNIT_EXPECT_EQ(test, h.bits, 1U);
	KUNIT_EXPECT_EQ(test, h.mask, 1UL);
	KUNIT_EXPECT_EQ(test, h.e.clk, 5UL);
}

static struct kunit_case tw_hash_cases[] = {
	KUNIT_CASE(hash_fires_exactly_every_delta),
	KUNIT_CASE(hash_two_slots),
	KUNIT_CASE(hash_default_slots),
	KUNIT_CASE(hash_clock_wrap),
	KUNIT_CASE(hash_rounds_count_down),
	KUNIT_CASE(hash_past_and_bitmap),
	KUNIT_CASE(hash_init_refuses),
	{}
};

static struct kunit_suite tw_hash_suite = {
	.name = "twheel_hash",
	.test_cases = tw_hash_cases,
};

kunit_test_suite(tw_hash_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * The hash_sorted engine's own cases: sorted insertion (ties after their
 * equals, past expiries first), only the head looked at each visit, exact
 * runs for every delta over many turns, the clock's wrap.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include "tw_test.h"
#include "engines/hash_sorted.h"

/* A hash_sorted engine of nr_slots slots, freed with the case. */
static struct twheel_hash *tw_hs_new(struct kunit *test, unsigned long clk,
				     unsigned int nr_slots)
{
	const struct twheel_config cfg = { .slots = nr_slots };
	struct twheel_hash *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	struct twheel_engine *e;
	void *mem;

	KUNIT_ASSERT_NOT_NULL(test, h);
	mem = tw_kvzalloc(test, twheel_hash_storage_size(nr_slots));
	KUNIT_ASSERT_NOT_NULL(test, mem);
	KUNIT_ASSERT_EQ(test, twheel_create(&twheel_hash_sorted_ops, h, clk, &cfg,
					    mem, &e), 0);
	return h;
}

/*
 * Every slot sorted by expiry, each timer in the slot of its expiry (of
 * the clock if past), the bitmap as the slots are. Returns the timers.
 */
static unsigned long tw_hs_check(struct kunit *test,
				 const struct twheel_hash *h)
{
	const struct twheel_timer *t, *prev;
	unsigned long b, n = 0, bad = 0, want;

	for (b = 0; b <= h->mask; b++) {
		prev = NULL;
		list_for_each_entry(t, &h->slots[b], hash_link) {
			want = time_before(t->expires, h->e.clk) ? h->e.clk : t->expires;
			if ((want & h->mask) != b ||
			    (prev && time_before(t->expires, prev->expires)))
				bad++;
			prev = t;
			n++;
		}
		if (test_bit(b, h->map) != !list_empty(&h->slots[b]))
			bad++;
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0UL, "%lu timers or bits out of place", bad);
	KUNIT_EXPECT_EQ(test, tw_in_level(&h->e, 0), n);
	return n;
}

/* Timer ids in slot b's order, into ids[]; returns how many. */
static unsigned int tw_hs_slot(const struct twheel_hash *hs,
			       unsigned long b, const struct tw_rec *r,
			       unsigned int *ids, unsigned int max)
{
	const struct twheel_timer *t;
	unsigned int n = 0;

	list_for_each_entry(t, &hs->slots[b], hash_link)
		if (n < max)
			ids[n++] = container_of(t, struct tw_rec, t) - r;
	return n;
}

/*
 * One slot (3 of 8): timers filed out of order sort by expiry, a tie goes
 * after its equal, a past expiry goes first in the clock's slot. A visit
 * collects the due head and never touches the rest.
 */
static void hash_sorted_insertion(struct kunit *test)
{
	static const unsigned long x[] = { 3, 43, 19, 59, 19, 3 };
	static const unsigned int order[] = { 0, 5, 2, 4, 1, 3 };
	struct twheel_hash *hs = tw_hs_new(test, 0, 8);
	struct twheel_engine *e = &hs->e;
	unsigned int ids[8], i;
	struct tw_ctx ctx;
	struct tw_rec *r;

	tw_ctx_init(&ctx, test, e);
	ctx.hook = tw_expect_hook;
	r = tw_recs_new(test, &ctx, 8);
	for (i = 0; i < ARRAY_SIZE(x); i++)
		tw_arm_exact(test, e, &r[i], x[i]);
	KUNIT_ASSERT_EQ(test, tw_hs_slot(hs, 3, r, ids, 8), 6U);
	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_EQ_MSG(test, ids[i], order[i], "place %u", i);
	tw_hs_check(test, hs);

	/* Visit at 3: the two due heads; 19, 43, 59 wait untouched. */
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 100), 3UL);
	KUNIT_EXPECT_TRUE(test, twheel_advance(e, 3));
	KUNIT_EXPECT_PTR_EQ(test, twheel_pop(e), &r[0].t);
	KUNIT_EXPECT_PTR_EQ(test, twheel_pop(e), &r[5].t);
	KUNIT_EXPECT_NULL(test, twheel_pop(e));
	/* The slot's next visit, 11, only looks: its head expires at 19. */
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 100), 7UL);
	KUNIT_EXPECT_FALSE(test, twheel_advance(e, 11));
	KUNIT_EXPECT_EQ(test, e->st.events, 2ULL);

	/* A past expiry at clk 12 goes first in slot 12 % 8 = 4. */
	tw_arm_exact(test, e, &r[6], 20);	/* slot 4 */
	tw_arm_exact(test, e, &r[7], 1);	/* past */
	KUNIT_ASSERT_EQ(test, tw_hs_slot(hs, 4, r, ids, 8), 2U);
	KUNIT_EXPECT_EQ(test, ids[0], 7U);
	KUNIT_EXPECT_EQ(test, ids[1], 6U);
	tw_hs_check(test, hs);
	tw_run_until(&ctx, 100);
	KUNIT_EXPECT_EQ(test, r[7].fired_at, 12UL);
	KUNIT_EXPECT_EQ(test, r[2].fired_at, 19UL);
	KUNIT_EXPECT_EQ(test, r[4].fired_at, 19UL);
	KUNIT_EXPECT_EQ(test, r[3].fired_at, 59UL);
	KUNIT_EXPECT_EQ(test, ctx.runs, 6UL);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	KUNIT_EXPECT_EQ(test, tw_hs_check(test, hs), 0UL);
	tw_check_invariant(test, e);
}

/*
 * Every delta from -3 to 4000 in a shuffled order at 16 slots (250 turns),
 * from clk; all run exactly, in expiry order.
 */
static void tw_hs_every(struct kunit *test, unsigned long clk)
{
	const unsigned int n = 4004;
	struct twheel_hash *hs = tw_hs_new(test, clk, 16);
	struct twheel_engine *e = &hs->e;
	struct tw_ctx ctx;
	struct tw_rec *r;

	r = tw_arm_shuffled(test, &ctx, e, n, -3);
	KUNIT_EXPECT_EQ(test, tw_hs_check(test, hs), (unsigned long)n);
	tw_run_until(&ctx, clk + 3999);
	KUNIT_EXPECT_EQ(test, ctx.runs, n - 1UL);
	tw_run_until(&ctx, clk + 4000);
	KUNIT_EXPECT_EQ(test, ctx.runs, (unsigned long)n);
	KUNIT_EXPECT_EQ(test, tw_runs_out_of_order(r, n), 0U);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	KUNIT_EXPECT_EQ(test, tw_hs_check(test, hs), 0UL);
	tw_check_invariant(test, e);
}

static void hash_sorted_every_delta(struct kunit *test)
{
	tw_hs_every(test, 1UL << 36);
}

static void hash_sorted_clock_wrap(struct kunit *test)
{
	tw_hs_every(test, ULONG_MAX - 2000);
}

/* Deleting the head, the tail and the only timer of a slot. */
static void hash_sorted_delete(struct kunit *test)
{
	struct twheel_hash *hs = tw_hs_new(test, 100, 4);
	struct twheel_engine *e = &hs->e;
	unsigned int ids[4];
	struct tw_ctx ctx;
	struct tw_rec *r;

	tw_ctx_init(&ctx, test, e);
	ctx.hook = tw_expect_hook;
	r = tw_recs_new(test, &ctx, 4);
	tw_arm_exact(test, e, &r[0], 109);	/* slot 1 */
	tw_arm_exact(test, e, &r[1], 105);	/* slot 1, the head */
	tw_arm_exact(test, e, &r[2], 113);	/* slot 1, the tail */
	tw_arm_exact(test, e, &r[3], 102);	/* slot 2, alone */
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &r[1].t));
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &r[2].t));
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &r[3].t));
	KUNIT_EXPECT_FALSE(test, test_bit(2, hs->map));
	KUNIT_ASSERT_EQ(test, tw_hs_slot(hs, 1, r, ids, 4), 1U);
	KUNIT_EXPECT_EQ(test, ids[0], 0U);
	tw_run_until(&ctx, 200);
	KUNIT_EXPECT_EQ(test, ctx.runs, 1UL);
	KUNIT_EXPECT_EQ(test, r[0].fired_at, 109UL);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	tw_check_invariant(test, e);
}

static struct kunit_case tw_hash_sorted_cases[] = {
	KUNIT_CASE(hash_sorted_insertion),
	KUNIT_CASE(hash_sorted_every_delta),
	KUNIT_CASE(hash_sorted_clock_wrap),
	KUNIT_CASE(hash_sorted_delete),
	{}
};

static struct kunit_suite tw_hash_sorted_suite = {
	.name = "twheel_hash_sorted",
	.test_cases = tw_hash_sorted_cases,
};

kunit_test_suite(tw_hash_sorted_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * The hash_vec engine's own cases: exact runs for every delta over several
 * turns and at every turn's edge (and across the clock's wrap), the rounds
 * a timer waits, the hole a removal leaves filled by the last entry (first,
 * middle, last), a slot grown from full (-ENOMEM with nothing lost, the
 * array given, the arm taken), the pool's bookkeeping and the counters.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include "tw_test.h"
#include "engines/hash_vec.h"
#include "engines/hash.h"

/* A hash_vec engine of nr_slots slots, freed with the case; no spares. */
static struct twheel_hash_vec *tw_vec_new(struct kunit *test, unsigned long clk,
					  unsigned int nr_slots)
{
	struct twheel_hash_vec *hv;

	/* its slots and bitmap right after it */
	hv = tw_kvzalloc(test, sizeof(*hv) + twheel_hash_vec_storage_size(nr_slots));
	KUNIT_ASSERT_NOT_NULL(test, hv);
	KUNIT_ASSERT_EQ(test, twheel_hash_vec_init(hv, clk, hv + 1, nr_slots), 0);
	return hv;
}

/* One array of order k for the engine, freed with the case. */
static void tw_vec_give(struct kunit *test, struct twheel_hash_vec *hv,
			unsigned int k)
{
	void *a = tw_kvzalloc(test, twheel_hash_vec_array_size(k));

	KUNIT_ASSERT_NOT_NULL(test, a);
	twheel_hash_vec_give(hv, k, a);
}

/* No spare kept of any size: the engine asks only for hot slots' arrays. */
static void tw_vec_keep_none(struct twheel_hash_vec *hv)
{
	unsigned int k;

	for (k = 0; k < TW_VEC_ORDERS; k++)
		twheel_hash_vec_keep(hv, k, 0);
}

/* Everything the engine asks for, as its runner's refill gives it. */
static void tw_vec_fill(struct kunit *test, struct twheel_hash_vec *hv)
{
	unsigned int k;
	u32 n;

	while ((n = twheel_hash_vec_wanted(hv, &k)))
		while (n--)
			tw_vec_give(test, hv, k);
	KUNIT_EXPECT_FALSE(test, twheel_hash_vec_short(hv));
}

/* The entry of a pending timer that is not collected. */
static struct twheel_vec_entry *tw_vec_entry(struct twheel_hash_vec *hv,
					     struct twheel_timer *t)
{
	return &hv->slots[t->vec_slot].ent[t->vec_idx];
}

/**
 * struct tw_vec_every - a wheel for hash_vec_fires_exactly_every_delta
 * @name: the case's name
 * @slots: its slots
 * @clk: its clock
 * @n: timers, one per tw_turns_delta()
 */
struct tw_vec_every {
	const char *name;
	unsigned int slots;
	unsigned long clk;
	unsigned int n;
};

static const struct tw_vec_every tw_vec_wheels[] = {
	/* deltas up to 6 turns, then every turn's edge up to turn 200 */
	{ "16 slots", 16, 1000, 3 + 98 + 3 * 194 },
	/* the smallest wheel: hundreds of timers in each array */
	{ "2 slots", 2, 77, 3 + 14 + 3 * 300 },
	{ "256 slots", TW_HASH_DEFAULT_SLOTS, 1UL << 33, 3 + 6 * 256 + 2 + 3 * 100 },
	{ "16 slots across the wrap", 16, ULONG_MAX - 40, 3 + 98 + 3 * 20 },
};

static void tw_vec_every_desc(const struct tw_vec_every *w, char *desc)
{
	strscpy(desc, w->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(tw_vec_wheel, tw_vec_wheels, tw_vec_every_desc);

/*
 * Every delta of tw_turns_delta() on one wheel, armed in a shuffled order
 * with what the engine asks for given before each arm (as process context
 * does): each timer filed in the slot of its due jiffy with that jiffy and
 * its rounds, each run exactly then, and afterwards every array a spare
 * again and no slot hot.
 */
static void hash_vec_fires_exactly_every_delta(struct kunit *test)
{
	const struct tw_vec_every *w = test->param_value;
	struct twheel_hash_vec *hv = tw_vec_new(test, w->clk, w->slots);
	unsigned long last = w->clk, d;
	unsigned int i, j, wrong = 0, k;
	struct twheel_vec_entry *ent;
	struct tw_ctx ctx;
	struct tw_rec *r = tw_recs_expecting(test, &ctx, &hv->e, w->n);

	for (i = 0, j = 0; i < w->n; i++, j = (j + 7919) % w->n) {
		d = tw_turns_delta(j, w->slots);
		if (twheel_hash_vec_short(hv))
			tw_vec_fill(test, hv);
		tw_arm_exact(test, &hv->e, &r[j], w->clk + d);
		ent = tw_vec_entry(hv, &r[j].t);
		wrong += twheel_hash_vec_rounds(hv, &r[j].t) !=
			 ((long)d < 0 ? 0 : d / w->slots) ||
			 r[j].t.vec_slot != (r[j].expect & (w->slots - 1)) ||
			 ent->when != r[j].expect || ent->t != &r[j].t;
		if (time_after(r[j].expect, last))
			last = r[j].expect;
	}
	KUNIT_EXPECT_EQ(test, wrong, 0U);
	KUNIT_EXPECT_EQ(test, hv->e.st.refused, 0ULL);
	KUNIT_EXPECT_EQ(test, tw_in_level(&hv->e, 0), w->n);
	tw_run_until(&ctx, last - 1);
	KUNIT_EXPECT_LT(test, ctx.runs, (unsigned long)w->n);
	tw_run_until(&ctx, last);
	KUNIT_EXPECT_EQ(test, ctx.runs, (unsigned long)w->n);
	for (i = 0; i < w->n; i++)
		wrong += r[i].fired != 1;
	for (i = 0; i < w->slots; i++)
		wrong += hv->slots[i].cap || hv->slots[i].ent;
	for (k = 0; k < TW_VEC_ORDERS; k++)
		wrong += hv->pool[k].hot;
	KUNIT_EXPECT_EQ(test, wrong, 0U);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	KUNIT_EXPECT_TRUE(test, bitmap_empty(hv->map, w->slots));
	tw_check_invariant(test, &hv->e);
}

/*
 * One slot (13 of 16, from 1000 on), three timers due at different turns
 * and one in the past: each visit collects the one due there and leaves
 * the others' entries alone, one round fewer to wait; jiffies between
 * visits are skipped.
 */
static void hash_vec_rounds(struct kunit *test)
{
	struct twheel_hash_vec *hv = tw_vec_new(test, 1000, 16);
	struct twheel_engine *e = &hv->e;
	struct tw_ctx ctx;
	struct tw_rec *r;

	tw_vec_fill(test, hv);
	tw_ctx_init(&ctx, test, e);
	r = tw_recs_new(test, &ctx, 4);
	tw_arm_exact(test, e, &r[0], 1053);	/* 3 rounds */
	tw_arm_exact(test, e, &r[1], 1005);	/* none */
	tw_arm_exact(test, e, &r[2], 1021);	/* 1 */
	tw_arm_exact(test, e, &r[3], 990);	/* past: slot 1000 % 16 = 8 */
	KUNIT_EXPECT_EQ(test, r[0].t.vec_slot, 13U);
	KUNIT_EXPECT_EQ(test, r[2].t.vec_slot, 13U);
	KUNIT_EXPECT_EQ(test, r[3].t.vec_slot, 8U);
	KUNIT_EXPECT_EQ(test, tw_vec_entry(hv, &r[3].t)->when, 1000UL);
	KUNIT_EXPECT_EQ(test, twheel_hash_vec_rounds(hv, &r[0].t), 3UL);
	KUNIT_EXPECT_EQ(test, twheel_hash_vec_rounds(hv, &r[2].t), 1UL);
	KUNIT_EXPECT_EQ(test, hv->slots[13].nr, 3U);

	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 100), 0UL);
	KUNIT_EXPECT_TRUE(test, twheel_advance(e, 1000));
	KUNIT_EXPECT_PTR_EQ(test, twheel_pop(e), &r[3].t);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 100), 4UL);
	KUNIT_EXPECT_TRUE(test, twheel_advance(e, 1005));
	KUNIT_EXPECT_PTR_EQ(test, twheel_pop(e), &r[1].t);
	KUNIT_EXPECT_NULL(test, twheel_pop(e));
	KUNIT_EXPECT_EQ(test, hv->slots[13].nr, 2U);
	KUNIT_EXPECT_EQ(test, twheel_hash_vec_rounds(hv, &r[0].t), 2UL);
	KUNIT_EXPECT_EQ(test, twheel_hash_vec_rounds(hv, &r[2].t), 0UL);
	KUNIT_EXPECT_EQ(test, e->st.events, 2ULL);

	/* The next visit is a turn later, 15 jiffies from clk (1006). */
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 100), 15UL);
	KUNIT_EXPECT_TRUE(test, twheel_advance(e, 1021));
	KUNIT_EXPECT_PTR_EQ(test, twheel_pop(e), &r[2].t);
	/* A visit (1037) that collects nothing: the entry waits a round more. */
	KUNIT_EXPECT_FALSE(test, twheel_advance(e, 1052));
	KUNIT_EXPECT_EQ(test, tw_vec_entry(hv, &r[0].t)->when, 1053UL);
	KUNIT_EXPECT_EQ(test, twheel_hash_vec_rounds(hv, &r[0].t), 0UL);
	KUNIT_EXPECT_EQ(test, e->st.events, 4ULL);
	/* the last one through the driver loop, to well past it */
	tw_run_until(&ctx, 1100);
	KUNIT_EXPECT_EQ(test, ctx.runs, 1UL);
	KUNIT_EXPECT_EQ(test, r[0].fired_at, 1053UL);
	KUNIT_EXPECT_EQ(test, e->st.events, 5ULL);
	KUNIT_EXPECT_EQ(test, e->st.jiffies, 101ULL);
	KUNIT_EXPECT_EQ(test, hv->slots[13].cap, 0U);
	KUNIT_EXPECT_EQ(test, e->st.expired, 4ULL);
	tw_check_invariant(test, e);
}

/* Slot b's entries are timers ids[0 .. n) of r, in that order. */
static void tw_vec_expect_slot(struct kunit *test, struct twheel_hash_vec *hv,
			       unsigned int b, struct tw_rec *r,
			       const unsigned int *ids, unsigned int n)
{
	unsigned int i;

	KUNIT_ASSERT_EQ(test, hv->slots[b].nr, n);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_PTR_EQ_MSG(test, hv->slots[b].ent[i].t, &r[ids[i]].t,
					"entry %u", i);
		KUNIT_EXPECT_EQ_MSG(test, r[ids[i]].t.vec_idx, i, "timer %u", ids[i]);
		KUNIT_EXPECT_EQ_MSG(test, hv->slots[b].ent[i].when, r[ids[i]].expect,
				    "entry %u", i);
	}
}

/*
 * Six timers in one slot (entries 0..5, in arming order). Deleting the
 * first moves the last into its place, and that timer's index with it;
 * then a middle one, then the last (nothing moves); a mod away from the
 * slot is a removal too, a mod within it files the timer again at the
 * end. The rest still run at their jiffies.
 */
static void hash_vec_hole_filling(struct kunit *test)
{
	static const unsigned int after_first[] = { 5, 1, 2, 3, 4 };
	static const unsigned int after_middle[] = { 5, 1, 4, 3 };
	static const unsigned int after_last[] = { 5, 1, 4 };
	static const unsigned int after_mods[] = { 5, 4, 1 };
	struct twheel_hash_vec *hv = tw_vec_new(test, 100, 16);
	struct twheel_engine *e = &hv->e;
	struct tw_ctx ctx;
	struct tw_rec *r;
	unsigned int i;

	tw_vec_fill(test, hv);
	r = tw_recs_expecting(test, &ctx, e, 6);
	for (i = 0; i < 6; i++)
		tw_arm_exact(test, e, &r[i], 103 + 16 * i);	/* all in slot 7 */
	KUNIT_EXPECT_EQ(test, hv->slots[7].cap, 8U);
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &r[0].t));
	KUNIT_EXPECT_EQ(test, r[0].t.vec_slot, TW_VEC_IDLE);
	tw_vec_expect_slot(test, hv, 7, r, after_first, 5);
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &r[2].t));
	tw_vec_expect_slot(test, hv, 7, r, after_middle, 4);
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &r[3].t));
	tw_vec_expect_slot(test, hv, 7, r, after_last, 3);
	KUNIT_EXPECT_FALSE(test, twheel_del(e, &r[3].t));

	/* a mod to another slot (entry 1 leaves: 4 moves in), back again */
	r[1].expect = 110;
	KUNIT_EXPECT_TRUE(test, twheel_mod(e, &r[1].t, 110));
	KUNIT_EXPECT_EQ(test, r[1].t.vec_slot, 14U);
	r[1].expect = 135;
	KUNIT_EXPECT_TRUE(test, twheel_mod(e, &r[1].t, 135));
	tw_vec_expect_slot(test, hv, 7, r, after_mods, 3);
	KUNIT_EXPECT_EQ(test, hv->slots[14].nr, 0U);
	KUNIT_EXPECT_EQ(test, hv->slots[14].cap, 0U);
	KUNIT_EXPECT_FALSE(test, test_bit(14, hv->map));

	tw_run_until(&ctx, 200);
	KUNIT_EXPECT_EQ(test, ctx.runs, 3UL);
	KUNIT_EXPECT_EQ(test, r[1].fired_at, 135UL);
	KUNIT_EXPECT_EQ(test, r[4].fired_at, 167UL);
	KUNIT_EXPECT_EQ(test, r[5].fired_at, 183UL);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	KUNIT_EXPECT_EQ(test, hv->slots[7].cap, 0U);
	tw_check_invariant(test, e);
}

/*
 * Growth: with no spare kept, one first array. Slot 3 fills it (4
 * timers); at the third it turns hot and the engine asks for one array of
 * the next order. A fifth arm there is refused (-ENOMEM), and so is a mod
 * of a timer of another slot to it, which disarms that timer: nothing
 * else changes. Given the array, the arm is taken: the entries move over
 * with their indices, the first array is a spare again. Every armed timer
 * runs at its jiffy.
 */
static void hash_vec_growth(struct kunit *test)
{
	static const unsigned int four[] = { 0, 1, 2, 3 };
	struct twheel_hash_vec *hv = tw_vec_new(test, 0, 16);
	struct twheel_engine *e = &hv->e;
	struct twheel_vec_entry *first;
	unsigned int order;
	struct tw_ctx ctx;
	struct tw_rec *r;
	u32 n;

	tw_vec_keep_none(hv);
	KUNIT_EXPECT_EQ(test, twheel_hash_vec_wanted(hv, &order), 0U);
	r = tw_recs_expecting(test, &ctx, e, 7);

	/* no array at all: the first arm is refused */
	KUNIT_EXPECT_EQ(test, twheel_add(e, &r[0].t, 3), -ENOMEM);
	KUNIT_EXPECT_FALSE(test, twheel_pending(e, &r[0].t));
	KUNIT_EXPECT_EQ(test, e->st.refused, 1ULL);
	KUNIT_EXPECT_EQ(test, e->st.added, 0ULL);
	tw_vec_give(test, hv, 0);
	first = hv->pool[0].spare;
	for (n = 0; n < 4; n++) {
		tw_arm_exact(test, e, &r[n], 3 + 16 * n);
		KUNIT_EXPECT_EQ(test, twheel_hash_vec_wanted(hv, &order), n >= 2 ? 1U : 0U);
	}
	KUNIT_EXPECT_EQ(test, order, 1U);
	KUNIT_EXPECT_EQ(test, hv->pool[0].hot, 1U);
	KUNIT_EXPECT_TRUE(test, twheel_hash_vec_short(hv));
	KUNIT_EXPECT_PTR_EQ(test, hv->slots[3].ent, first);
	tw_vec_expect_slot(test, hv, 3, r, four, 4);

	KUNIT_EXPECT_EQ(test, twheel_add(e, &r[4].t, 3 + 64), -ENOMEM);
	KUNIT_EXPECT_EQ(test, twheel_add_range(e, &r[4].t, 3 + 64, 3 + 64), -ENOMEM);
	KUNIT_EXPECT_FALSE(test, twheel_pending(e, &r[4].t));
	KUNIT_EXPECT_EQ(test, e->st.refused, 3ULL);
	tw_vec_expect_slot(test, hv, 3, r, four, 4);

	/* a timer of slot 5 (it takes the only other array) mod'ed to slot 3 */
	tw_vec_give(test, hv, 0);
	tw_arm_exact(test, e, &r[5], 5);
	KUNIT_EXPECT_TRUE(test, twheel_mod(e, &r[5].t, 3 + 80));
	KUNIT_EXPECT_FALSE(test, twheel_pending(e, &r[5].t));
	KUNIT_EXPECT_EQ(test, e->st.refused, 4ULL);
	KUNIT_EXPECT_EQ(test, e->st.deleted, 1ULL);
	/* slot 5 emptied: its array is a spare, but too small for slot 3 */
	KUNIT_EXPECT_EQ(test, hv->slots[5].cap, 0U);
	KUNIT_EXPECT_EQ(test, hv->pool[0].nr, 1U);
	KUNIT_EXPECT_EQ(test, twheel_stats_pending(&e->st), 4UL);
	tw_vec_expect_slot(test, hv, 3, r, four, 4);

	/* what it asked for: the arm is taken, the entries moved over */
	n = twheel_hash_vec_wanted(hv, &order);
	KUNIT_EXPECT_EQ(test, n, 1U);
	KUNIT_EXPECT_EQ(test, order, 1U);
	tw_vec_give(test, hv, order);
	KUNIT_EXPECT_FALSE(test, twheel_hash_vec_short(hv));
	tw_arm_exact(test, e, &r[4], 3 + 64);
	KUNIT_EXPECT_EQ(test, hv->slots[3].cap, 8U);
	KUNIT_EXPECT_EQ(test, hv->pool[0].nr, 2U);
	KUNIT_EXPECT_EQ(test, hv->pool[0].hot, 0U);
	KUNIT_EXPECT_EQ(test, hv->pool[1].nr, 0U);
	KUNIT_EXPECT_PTR_EQ(test, hv->pool[0].spare, (void *)first);
	{
		static const unsigned int five[] = { 0, 1, 2, 3, 4 };

		tw_vec_expect_slot(test, hv, 3, r, five, 5);
	}
	/* a slot with no array takes the smallest spare there is */
	tw_arm_exact(test, e, &r[6], 9);
	KUNIT_EXPECT_EQ(test, hv->slots[9].cap, 4U);
	KUNIT_EXPECT_EQ(test, e->st.refused, 4ULL);

	tw_run_until(&ctx, 200);
	KUNIT_EXPECT_EQ(test, ctx.runs, 6UL);
	KUNIT_EXPECT_EQ(test, r[5].fired, 0U);
	KUNIT_EXPECT_EQ(test, r[4].fired_at, 67UL);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	tw_check_invariant(test, e);
}

/*
 * The pool: what the engine asks to keep (first arrays, small ones, one
 * of the next order per hot slot), what it hands back (only spares more
 * than twice that plus two, unless all), and with no timer held every array
 * is a spare: taking all gives back exactly what was given.
 */
static void hash_vec_pool(struct kunit *test)
{
	struct twheel_hash_vec *hv = tw_vec_new(test, 0, 16);
	struct twheel_engine *e = &hv->e;
	unsigned int k, order, given = 0, taken = 0;
	struct tw_ctx ctx;
	struct tw_rec *r;
	u32 n;

	KUNIT_EXPECT_EQ(test, twheel_hash_vec_wanted(hv, &order), (u32)TW_VEC_KEEP_FIRST);
	KUNIT_EXPECT_EQ(test, order, 0U);
	for (k = 1; k < TW_VEC_ORDERS; k++)
		KUNIT_EXPECT_EQ_MSG(test, hv->pool[k].keep,
				    k < TW_VEC_SMALL_ORDERS ? (u32)TW_VEC_KEEP_SMALL : 0U,
				    "order %u", k);
	while ((n = twheel_hash_vec_wanted(hv, &k))) {
		given += n;
		while (n--)
			tw_vec_give(test, hv, k);
	}
	KUNIT_EXPECT_EQ(test, given, TW_VEC_KEEP_FIRST +
			(TW_VEC_SMALL_ORDERS - 1) * TW_VEC_KEEP_SMALL);
	KUNIT_EXPECT_NULL(test, twheel_hash_vec_take(hv, false));

	/* 48 timers in slot 1: hot at 3/4 of 64 entries, it asks for 128 */
	tw_ctx_init(&ctx, test, e);
	r = tw_recs_new(test, &ctx, 48);
	for (n = 0; n < 48; n++) {
		/* each arm leaves it one short at most: given at once */
		k = twheel_hash_vec_wanted(hv, &order);
		if (k) {
			KUNIT_ASSERT_EQ(test, k, 1U);
			tw_vec_give(test, hv, order);
			given++;
		}
		KUNIT_ASSERT_EQ(test, twheel_add(e, &r[n].t, 1 + 16 * n), 0);
	}
	KUNIT_EXPECT_EQ(test, hv->slots[1].cap, 64U);
	KUNIT_EXPECT_EQ(test, hv->pool[4].hot, 1U);
	KUNIT_EXPECT_EQ(test, twheel_hash_vec_wanted(hv, &order), 1U);
	KUNIT_EXPECT_EQ(test, order, 5U);
	tw_vec_give(test, hv, 5);
	given++;
	/* order 1: 5 spares, 4 asked for; 6 more, 1 beyond 2 * 4 + 2 */
	KUNIT_EXPECT_EQ(test, hv->pool[1].nr, 5U);
	for (n = 0; n < 6; n++)
		tw_vec_give(test, hv, 1);
	given += 6;
	KUNIT_EXPECT_TRUE(test, twheel_hash_vec_wants(hv));
	KUNIT_EXPECT_FALSE(test, twheel_hash_vec_short(hv));
	KUNIT_EXPECT_NOT_NULL(test, twheel_hash_vec_take(hv, false));
	taken++;
	KUNIT_EXPECT_EQ(test, hv->pool[1].nr, 10U);
	KUNIT_EXPECT_NULL(test, twheel_hash_vec_take(hv, false));
	KUNIT_EXPECT_FALSE(test, twheel_hash_vec_wants(hv));

	/* every timer gone: the slot's array is a spare, all come back */
	for (n = 0; n < 48; n++)
		KUNIT_EXPECT_TRUE(test, twheel_del(e, &r[n].t));
	KUNIT_EXPECT_EQ(test, hv->slots[1].cap, 0U);
	KUNIT_EXPECT_EQ(test, hv->pool[4].hot, 0U);
	while (twheel_hash_vec_take(hv, true))
		taken++;
	KUNIT_EXPECT_EQ(test, taken, given);
	KUNIT_EXPECT_EQ(test, hv->avail, 0UL);
	tw_check_invariant(test, e);
}

/*
 * 10000 timers due at one jiffy in one slot: the slot grows order by
 * order (each array handed back as the next is taken), its visit collects
 * them all in array order, and its array is a spare again.
 */
static void hash_vec_burst(struct kunit *test)
{
	struct twheel_hash_vec *hv = tw_vec_new(test, 500, 256);
	struct twheel_engine *e = &hv->e;
	struct twheel_timer *t;
	struct tw_ctx ctx;
	struct tw_rec *r;
	unsigned int i, popped = 0;

	tw_ctx_init(&ctx, test, e);
	r = tw_recs_new(test, &ctx, 10000);
	for (i = 0; i < 10000; i++) {
		if (twheel_hash_vec_short(hv))
			tw_vec_fill(test, hv);
		KUNIT_ASSERT_EQ(test, twheel_add(e, &r[i].t, 1000), 0);
	}
	KUNIT_EXPECT_EQ(test, hv->slots[1000 & 255].nr, 10000U);
	KUNIT_EXPECT_EQ(test, hv->slots[1000 & 255].cap, 16384U);
	/* its first visit, at 744, only passes the timers by */
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 1000), 244UL);
	KUNIT_EXPECT_FALSE(test, twheel_advance(e, 999));
	KUNIT_EXPECT_TRUE(test, twheel_advance(e, 1000));
	while ((t = twheel_pop(e))) {
		KUNIT_EXPECT_PTR_EQ(test, t, &r[popped].t);
		if (t != &r[popped].t)
			break;
		popped++;
	}
	KUNIT_EXPECT_EQ(test, popped, 10000U);
	KUNIT_EXPECT_EQ(test, hv->slots[1000 & 255].cap, 0U);
	KUNIT_EXPECT_EQ(test, hv->pool[12].nr, 1U);
	KUNIT_EXPECT_EQ(test, e->st.refused, 0ULL);
	tw_check_invariant(test, e);
}

/*
 * The counters over adds, a refused add, mods, dels, a run; two arrays of
 * 4 entries in a wheel of 4 slots.
 */
static void hash_vec_counts(struct kunit *test)
{
	struct tw_ctx ctx;
	struct tw_rec *r;
	struct twheel_hash_vec *hv = tw_vec_new(test, 0, 4);
	struct twheel_engine *e = &hv->e;

	tw_vec_keep_none(hv);
	tw_vec_give(test, hv, 0);
	tw_vec_give(test, hv, 0);
	tw_ctx_init(&ctx, test, e);
	r = tw_recs_new(test, &ctx, 4);
	KUNIT_EXPECT_EQ(test, twheel_add(e, &r[0].t, 10), 0);	/* slot 2 */
	KUNIT_EXPECT_EQ(test, twheel_add(e, &r[1].t, 7), 0);	/* slot 3 */
	KUNIT_EXPECT_EQ(test, twheel_add(e, &r[2].t, 5), -ENOMEM);	/* slot 1 */
	KUNIT_EXPECT_EQ(test, twheel_add(e, &r[0].t, 5), -EBUSY);
	KUNIT_EXPECT_TRUE(test, twheel_mod(e, &r[0].t, 10));	/* same expiry */
	KUNIT_EXPECT_TRUE(test, twheel_mod(e, &r[0].t, 14));	/* same slot */
	KUNIT_EXPECT_FALSE(test, twheel_mod(e, &r[3].t, 11));	/* an add */
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &r[1].t));
	KUNIT_EXPECT_EQ(test, e->st.added, 3ULL);
	KUNIT_EXPECT_EQ(test, e->st.modified, 2ULL);
	KUNIT_EXPECT_EQ(test, e->st.mod_noop, 1ULL);
	KUNIT_EXPECT_EQ(test, e->st.mod_inplace, 0ULL);
	KUNIT_EXPECT_EQ(test, e->st.deleted, 1ULL);
	KUNIT_EXPECT_EQ(test, e->st.refused, 1ULL);
	KUNIT_EXPECT_EQ(test, twheel_stats_pending(&e->st), 2UL);
	KUNIT_EXPECT_EQ(test, tw_in_level(e, 0), 2UL);
	KUNIT_EXPECT_EQ(test, hv->slots[2].nr + hv->slots[3].nr, 2U);
	tw_run_until(&ctx, 20);
	KUNIT_EXPECT_EQ(test, r[0].fired_at, 14UL);
	KUNIT_EXPECT_EQ(test, r[3].fired_at, 11UL);
	KUNIT_EXPECT_EQ(test, e->st.expired, 2ULL);
	KUNIT_EXPECT_EQ(test, twheel_stats_pending(&e->st), 0UL);
	KUNIT_EXPECT_EQ(test, hv->pool[0].nr, 2U);
	tw_check_invariant(test, e);
}

static void hash_vec_init_refuses(struct kunit *test)
{
	static const unsigned int bad[] = { 0, 1, 3, 24, 255, 1U << 21 };
	struct twheel_hash_vec *hv = kunit_kzalloc(test, sizeof(*hv), GFP_KERNEL);
	unsigned long mem[8];
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, hv);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, twheel_hash_vec_init(hv, 0, mem, bad[i]), -EINVAL,
				    "%u slots", bad[i]);
	KUNIT_EXPECT_EQ(test, twheel_hash_vec_init(hv, 0, NULL, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, twheel_hash_vec_storage_size(2),
			2 * sizeof(struct twheel_vec_slot) + sizeof(long));
	KUNIT_EXPECT_EQ(test, twheel_hash_vec_storage_size(256),
			256 * sizeof(struct twheel_vec_slot) + 256 / 8);
	KUNIT_EXPECT_EQ(test, twheel_hash_vec_array_size(0), 4 * sizeof(struct twheel_vec_entry));
	KUNIT_EXPECT_EQ(test, sizeof(struct twheel_vec_entry), 2 * sizeof(long));
	KUNIT_EXPECT_LE(test, sizeof(struct twheel_timer), 5 * sizeof(long));
	KUNIT_ASSERT_LE(test, twheel_hash_vec_storage_size(2), sizeof(mem));
	KUNIT_EXPECT_EQ(test, twheel_hash_vec_init(hv, 5, mem, 2), 0);
	KUNIT_EXPECT_EQ(test, hv->bits, 1U);
	KUNIT_EXPECT_EQ(test, hv->mask, 1UL);
	KUNIT_EXPECT_EQ(test, hv->e.clk, 5UL);
}

static struct kunit_case tw_hash_vec_cases[] = {
	KUNIT_CASE_PARAM(hash_vec_fires_exactly_every_delta, tw_vec_wheel_gen_params),
	KUNIT_CASE(hash_vec_rounds),
	KUNIT_CASE(hash_vec_hole_filling),
	KUNIT_CASE(hash_vec_growth),
	KUNIT_CASE(hash_vec_pool),
	KUNIT_CASE(hash_vec_burst),
	KUNIT_CASE(hash_vec_counts),
	KUNIT_CASE(hash_vec_init_refuses),
	{}
};

static struct kunit_suite tw_hash_vec_suite = {
	.name = "twheel_hash_vec",
	.test_cases = tw_hash_vec_cases,
};

kunit_test_suite(tw_hash_vec_suite);

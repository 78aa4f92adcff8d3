// SPDX-License-Identifier: GPL-2.0
/*
 * The erlang engine's own cases: exact runs for every delta across the
 * soon wheel's edge and several later slots, the bucket and level chosen
 * for given deltas, one move per later slot (and a far timer kept until its
 * revolution), the at-once list, next_event and the slot range counters,
 * timers beyond the later wheel, the clock's wrap and a differential run
 * against the reference. What every engine does is in contract_test.c.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include "tw_test.h"
#include "engines/erlang.h"

#define TW_ERL_SOON	TW_ERLANG_SOON_SIZE
#define TW_ERL_GRAN	TW_ERLANG_LATER_GRAN
/* One revolution of the later wheel: 2^27 jiffies. */
#define TW_ERL_REV	(TW_ERLANG_LATER_SIZE * TW_ERLANG_LATER_GRAN)

static struct twheel_erlang *tw_erlang_new(struct kunit *test, unsigned long clk)
{
	struct twheel_erlang *er = tw_kvzalloc(test, sizeof(*er));

	KUNIT_ASSERT_NOT_NULL(test, er);
	twheel_erlang_init(er, clk);
	return er;
}

/* The later bucket of expires: its 2^13-jiffy block mod 2^14. */
static unsigned int tw_erl_later(unsigned long expires)
{
	return TW_ERL_SOON + (expires / TW_ERL_GRAN) % TW_ERLANG_LATER_SIZE;
}

/*
 * Every delta from -3 to 5 soon wheels on: the soon wheel, its edge at
 * 2^14 and ten later slots, each timer at exactly its jiffy; from a clock
 * at a block's start and from one in the middle of a block.
 */
static void erlang_every_delta_across_soon_edge(struct kunit *test)
{
	static const unsigned long clks[] = { 0, 0x123456 + 4321 };
	unsigned int c, n = 5 * TW_ERL_SOON + 3;
	unsigned long *deltas = tw_deltas_from(test, -3, n);
	struct twheel_erlang *er;

	for (c = 0; c < ARRAY_SIZE(clks); c++) {
		er = tw_erlang_new(test, clks[c]);
		tw_exact_deltas(test, &er->e, deltas, n);
		/* deltas 2^14 .. 5 x 2^14 - 1 went later: each moved once */
		KUNIT_EXPECT_EQ(test, er->e.st.cascaded, 4ULL * TW_ERL_SOON);
	}
}

/* Where chosen deltas are filed, from a clock in the middle of a block. */
static void erlang_bucket_and_level(struct kunit *test)
{
	const unsigned long clk = 0x50000 + 100;
	static const struct {
		long delta;
		unsigned int level;	/* 2: the at-once list, no level */
	} cases[] = {
		{ -1, 2 }, { -LONG_MAX, 2 }, { 0, 0 }, { 1, 0 },
		{ TW_ERL_SOON - 1, 0 }, { TW_ERL_SOON, 1 }, { TW_ERL_SOON + 1, 1 },
		{ TW_ERL_REV - 1, 1 }, { TW_ERL_REV, 1 }, { LONG_MAX, 1 },
	};
	struct twheel_erlang *er = tw_erlang_new(test, clk);
	struct twheel_engine *e = &er->e;
	unsigned long per[TWHEEL_MAX_LEVELS], x;
	unsigned int i, want, lvl[3] = { 0 };
	struct tw_ctx ctx;
	struct tw_rec *r;

	r = tw_exact_recs(test, &ctx, e, ARRAY_SIZE(cases));
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		x = clk + cases[i].delta;
		if (cases[i].level == 2)
			want = TW_ERLANG_AT_ONCE;
		else if (cases[i].level == 0)
			want = x % TW_ERL_SOON;
		else
			want = tw_erl_later(x);
		tw_arm_exact(test, e, &r[i], x);
		KUNIT_EXPECT_EQ_MSG(test, r[i].t.bucket, want, "delta %ld", cases[i].delta);
		KUNIT_EXPECT_EQ(test, e->ops->bucket_of(e, x), want);
		if (cases[i].level < 2)
			KUNIT_EXPECT_EQ(test, twheel_bucket_level(e, want), cases[i].level);
		lvl[cases[i].level]++;
	}
	/* the soon edge: 2^14 - 1 is the slot just behind the clock's */
	KUNIT_EXPECT_EQ(test, r[4].t.bucket, (unsigned int)((clk - 1) % TW_ERL_SOON));
	/* a revolution ahead: the slot of the clock's own block */
	KUNIT_EXPECT_EQ(test, r[8].t.bucket, tw_erl_later(clk));
	KUNIT_EXPECT_EQ(test, twheel_count(e, per), (unsigned long)ARRAY_SIZE(cases));
	/* the at-once list's timers are armed: counted in level 0 */
	KUNIT_EXPECT_EQ(test, per[0], (unsigned long)lvl[0] + lvl[2]);
	KUNIT_EXPECT_EQ(test, per[1], (unsigned long)lvl[1]);
	tw_check_invariant(test, e);
}

/*
 * Block 5 (jiffies 5 << 13 to (6 << 13) - 1) holds three timers, block 7
 * two, and a timer a revolution after block 5 shares block 5's later
 * slot. Each later slot moves once, at the first jiffy of the block before
 * its own; the far timer stays at that move and moves in its revolution.
 */
static void erlang_later_slot_moves_once(struct kunit *test)
{
	struct twheel_erlang *er = tw_erlang_new(test, 0);
	struct twheel_engine *e = &er->e;
	const unsigned long b5 = 5 * TW_ERL_GRAN, b7 = 7 * TW_ERL_GRAN;
	const unsigned long far = b5 + TW_ERL_REV + 7;
	unsigned long x[] = { b5, b5 + 100, b5 + TW_ERL_GRAN - 1, b7 + 3, b7 + 3, far };
	struct tw_ctx ctx;
	struct tw_rec *r;
	unsigned int i;

	r = tw_exact_recs(test, &ctx, e, ARRAY_SIZE(x));
	for (i = 0; i < ARRAY_SIZE(x); i++)
		tw_arm_exact(test, e, &r[i], x[i]);
	KUNIT_EXPECT_EQ(test, r[0].t.bucket, TW_ERL_SOON + 5U);
	KUNIT_EXPECT_EQ(test, r[5].t.bucket, TW_ERL_SOON + 5U);
	KUNIT_EXPECT_EQ(test, r[3].t.bucket, TW_ERL_SOON + 7U);
	KUNIT_EXPECT_EQ(test, tw_in_level(e, 1), 6UL);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX), 4 * TW_ERL_GRAN);

	tw_run_until(&ctx, 4 * TW_ERL_GRAN - 1);
	KUNIT_EXPECT_EQ(test, e->st.cascades, 0ULL);
	tw_run_until(&ctx, 4 * TW_ERL_GRAN);
	KUNIT_EXPECT_EQ(test, e->st.cascades, 1ULL);
	KUNIT_EXPECT_EQ(test, e->st.cascaded, 3ULL);
	KUNIT_EXPECT_EQ(test, r[0].t.bucket, (unsigned int)(b5 % TW_ERL_SOON));
	KUNIT_EXPECT_EQ(test, r[2].t.bucket, (unsigned int)((b5 + TW_ERL_GRAN - 1) % TW_ERL_SOON));
	KUNIT_EXPECT_EQ(test, r[5].t.bucket, TW_ERL_SOON + 5U);	/* kept */
	KUNIT_EXPECT_EQ(test, tw_in_level(e, 0), 3UL);
	KUNIT_EXPECT_EQ(test, tw_in_level(e, 1), 3UL);

	tw_run_until(&ctx, 6 * TW_ERL_GRAN);
	KUNIT_EXPECT_EQ(test, ctx.runs, 3UL);
	KUNIT_EXPECT_EQ(test, e->st.cascades, 2ULL);
	KUNIT_EXPECT_EQ(test, e->st.cascaded, 5ULL);
	tw_run_until(&ctx, b7 + 3);
	KUNIT_EXPECT_EQ(test, ctx.runs, 5UL);

	/* the far timer: its slot is visited at 4 << 13 of its revolution */
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX),
			4 * TW_ERL_GRAN + TW_ERL_REV - e->clk);
	tw_run_until(&ctx, 4 * TW_ERL_GRAN + TW_ERL_REV - 1);
	KUNIT_EXPECT_EQ(test, e->st.cascades, 2ULL);
	tw_run_until(&ctx, 4 * TW_ERL_GRAN + TW_ERL_REV);
	KUNIT_EXPECT_EQ(test, e->st.cascades, 3ULL);
	KUNIT_EXPECT_EQ(test, e->st.cascaded, 6ULL);
	tw_run_until(&ctx, far - 1);
	KUNIT_EXPECT_EQ(test, r[5].fired, 0U);
	tw_run_until(&ctx, far);
	KUNIT_EXPECT_EQ(test, r[5].fired, 1U);
	KUNIT_EXPECT_EQ(test, ctx.runs, 6UL);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	/* jiffies with work: 3 moves, 5 run jiffies (b7 + 3 twice), far's */
	KUNIT_EXPECT_EQ(test, e->st.events, 3ULL + 4 + 1);
	KUNIT_EXPECT_TRUE(test, bitmap_empty(er->ranges, TW_ERLANG_RANGES));
	tw_check_invariant(test, e);
}

/*
 * Timers armed already due go on the at-once list and run at the next
 * jiffy processed, before that jiffy's own timers, in the order armed; a
 * deleted one never runs.
 */
static void erlang_at_once_list(struct kunit *test)
{
	struct twheel_erlang *er = tw_erlang_new(test, 5000);
	struct twheel_engine *e = &er->e;
	struct twheel_timer t[4];
	unsigned long per[TWHEEL_MAX_LEVELS];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		twheel_timer_setup(e, &t[i], NULL);
	KUNIT_ASSERT_EQ(test, twheel_add(e, &t[0], 5000), 0);	/* due now: soon */
	KUNIT_ASSERT_EQ(test, twheel_add(e, &t[1], 4000), 0);
	KUNIT_ASSERT_EQ(test, twheel_add(e, &t[2], 4999), 0);
	KUNIT_ASSERT_EQ(test, twheel_add(e, &t[3], 1), 0);
	KUNIT_EXPECT_EQ(test, t[0].bucket, 5000U);
	for (i = 1; i < 4; i++)
		KUNIT_EXPECT_EQ(test, t[i].bucket, (unsigned int)TW_ERLANG_AT_ONCE);
	KUNIT_EXPECT_EQ(test, twheel_count(e, per), 4UL);
	/* the list has no bucket; its armed timers count in level 0 */
	KUNIT_EXPECT_EQ(test, per[0], 4UL);
	KUNIT_EXPECT_EQ(test, per[1], 0UL);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 100), 0UL);
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &t[3]));
	/* a mod to another past expiry stays on the list */
	KUNIT_EXPECT_TRUE(test, twheel_mod(e, &t[2], 4998));
	KUNIT_EXPECT_EQ(test, e->st.mod_inplace, 1ULL);
	KUNIT_EXPECT_TRUE(test, twheel_advance(e, 5000));
	KUNIT_EXPECT_PTR_EQ(test, twheel_pop(e), &t[1]);
	KUNIT_EXPECT_PTR_EQ(test, twheel_pop(e), &t[2]);
	KUNIT_EXPECT_PTR_EQ(test, twheel_pop(e), &t[0]);
	KUNIT_EXPECT_NULL(test, twheel_pop(e));
	KUNIT_EXPECT_EQ(test, e->st.expired, 3ULL);
	KUNIT_EXPECT_EQ(test, e->st.events, 1ULL);
	KUNIT_EXPECT_FALSE(test, twheel_pending(e, &t[3]));
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX), ULONG_MAX);
	tw_check_invariant(test, e);
}

/*
 * next_event is exact and never past its limit: a soon timer's jiffy, a
 * later slot's move point, a far slot's move point, and the slot range
 * counters and their bits as timers come and go.
 */
static void erlang_next_event_exact(struct kunit *test)
{
	struct twheel_erlang *er = tw_erlang_new(test, 100);
	struct twheel_engine *e = &er->e;
	struct twheel_timer a, b, c;

	twheel_timer_setup(e, &a, NULL);
	twheel_timer_setup(e, &b, NULL);
	twheel_timer_setup(e, &c, NULL);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX), ULONG_MAX);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 7), 7UL);
	KUNIT_ASSERT_EQ(test, twheel_add(e, &a, 100 + 5000), 0);
	KUNIT_EXPECT_EQ(test, er->scnt[5100 >> TW_ERLANG_RANGE_BITS], 1U);
	KUNIT_EXPECT_TRUE(test, test_bit(5100 >> TW_ERLANG_RANGE_BITS, er->ranges));
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX), 5000UL);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 5000), 5000UL);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 4000), 4000UL);
	/* block 12 (100100 >> 13): moved at 11 << 13 */
	KUNIT_ASSERT_EQ(test, twheel_add(e, &b, 100 + 100000), 0);
	KUNIT_EXPECT_EQ(test, b.bucket, TW_ERL_SOON + 12U);
	KUNIT_EXPECT_EQ(test, er->scnt[(TW_ERL_SOON + 12) >> TW_ERLANG_RANGE_BITS], 1U);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX), 5000UL);
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &a));
	KUNIT_EXPECT_EQ(test, er->scnt[5100 >> TW_ERLANG_RANGE_BITS], 0U);
	KUNIT_EXPECT_FALSE(test, test_bit(5100 >> TW_ERLANG_RANGE_BITS, er->ranges));
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX), 11 * TW_ERL_GRAN - 100);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 11 * TW_ERL_GRAN - 100), 11 * TW_ERL_GRAN - 100);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 11 * TW_ERL_GRAN - 101), 11 * TW_ERL_GRAN - 101);
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &b));
	KUNIT_EXPECT_TRUE(test, bitmap_empty(er->ranges, TW_ERLANG_RANGES));
	/*
	 * LONG_MAX ahead: block 2^50, later slot 0, whose move point is the
	 * first jiffy of a block 16383 mod 2^14: 16383 << 13, 2^27 - 2^13.
	 */
	KUNIT_ASSERT_EQ(test, twheel_add(e, &c, 100UL + LONG_MAX), 0);
	KUNIT_EXPECT_EQ(test, c.bucket, TW_ERL_SOON + 0U);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX), TW_ERL_REV - TW_ERL_GRAN - 100);
	/* its slot visited: kept, not moved, and due a revolution later */
	KUNIT_EXPECT_FALSE(test, twheel_advance(e, TW_ERL_REV - TW_ERL_GRAN));
	KUNIT_EXPECT_EQ(test, e->st.events, 1ULL);
	KUNIT_EXPECT_EQ(test, e->st.cascades, 0ULL);
	KUNIT_EXPECT_EQ(test, c.bucket, TW_ERL_SOON + 0U);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX), TW_ERL_REV - 1);
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &c));
	tw_check_invariant(test, e);
}

/*
 * Beyond the later wheel: deltas around one, two and many revolutions,
 * each at exactly its jiffy (its slot is visited once a revolution).
 */
static void erlang_beyond_later_wheel_exact(struct kunit *test)
{
	static const unsigned long clks[] = { 1000, ULONG_MAX - 77, 0x7fffffffffUL };
	unsigned long deltas[] = {
		TW_ERL_REV - TW_ERL_GRAN - 1, TW_ERL_REV - TW_ERL_GRAN,
		TW_ERL_REV - 1, TW_ERL_REV, TW_ERL_REV + 1,
		TW_ERL_REV + TW_ERL_SOON, 2 * TW_ERL_REV + 5, 3 * TW_ERL_REV - 1,
		37 * TW_ERL_REV + 12345, 64 * TW_ERL_REV - 1, 3, TW_ERL_SOON,
	};
	unsigned int c;

	for (c = 0; c < ARRAY_SIZE(clks); c++)
		tw_exact_deltas(test, &tw_erlang_new(test, clks[c])->e, deltas,
				ARRAY_SIZE(deltas));
}

/* Across the 64-bit wrap: every delta over two soon wheels and a bit. */
static void erlang_clock_wrap(struct kunit *test)
{
	unsigned int n = 2 * TW_ERL_SOON + 3;

	tw_exact_deltas(test, &tw_erlang_new(test, ULONG_MAX - 3 * TW_ERL_GRAN - 10)->e,
			tw_deltas_from(test, -3, n), n);
	tw_exact_deltas(test, &tw_erlang_new(test, ULONG_MAX - 5)->e,
			tw_deltas_from(test, -3, n), n);
}

/* One advance over many jiffies: the timers due, in jiffy order. */
static void erlang_catch_up_one_advance(struct kunit *test)
{
	tw_exact_catch_up(test, &tw_erlang_new(test, 12345)->e);
}

/* 100000 random operations, the same on the reference. */
static void erlang_differential_vs_reference(struct kunit *test)
{
	struct twheel_erlang *er = tw_erlang_new(test, INITIAL_JIFFIES);
	struct twheel_reference *ref = tw_kvzalloc(test, sizeof(*ref));

	KUNIT_ASSERT_NOT_NULL(test, ref);
	twheel_reference_init(ref, INITIAL_JIFFIES);
	tw_exact_differential(test, &er->e, &ref->e);
}

static struct kunit_case tw_erlang_cases[] = {
	KUNIT_CASE_SLOW(erlang_every_delta_across_soon_edge),
	KUNIT_CASE(erlang_bucket_and_level),
	KUNIT_CASE(erlang_later_slot_moves_once),
	KUNIT_CASE(erlang_at_once_list),
	KUNIT_CASE(erlang_next_event_exact),
	KUNIT_CASE(erlang_beyond_later_wheel_exact),
	KUNIT_CASE(erlang_clock_wrap),
	KUNIT_CASE(erlang_catch_up_one_advance),
	KUNIT_CASE_SLOW(erlang_differential_vs_reference),
	{}
};

static struct kunit_suite tw_erlang_suite = {
	.name = "twheel_erlang",
	.test_cases = tw_erlang_cases,
};

kunit_test_suite(tw_erlang_suite);

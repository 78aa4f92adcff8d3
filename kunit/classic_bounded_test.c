// SPDX-License-Identifier: GPL-2.0
/*
 * The classic wheel with a bounded cascade: placement by round, the spread
 * of a slot over its window (per tick, with timers added or deleted in the
 * middle of it, across the clock's wrap, levels deep), the fast path
 * against the ops, exact expiry for every delta and a differential run
 * against the reference. What every engine does is in contract_test.c.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include "tw_test.h"
#include "engines/classic_bounded.h"

#define TW_L0		TW_BOUNDED_L0_SLOTS
#define TW_LN		TW_BOUNDED_LN_SLOTS

static struct twheel_engine *tw_classic_bounded_new(struct kunit *test, unsigned long clk)
{
	return &tw_engines_new(test, clk)->classic_bounded.e;
}

static struct twheel_classic_bounded *tw_cb(struct twheel_engine *e)
{
	return twheel_to_classic_bounded(e);
}

/* Timers in slot idx of levels 1-4, as the engine counts them. */
static unsigned int tw_nr(struct twheel_engine *e, unsigned int idx)
{
	return tw_cb(e)->nr[idx - TW_L0];
}

/* n fresh timers on e, each armed for x; ctx checks every run. */
static struct tw_rec *tw_recs_at(struct kunit *test, struct tw_ctx *ctx,
				 struct twheel_engine *e, unsigned int n,
				 unsigned long x)
{
	struct tw_rec *r;
	unsigned int i;

	tw_ctx_init(ctx, test, e);
	ctx->hook = tw_expect_hook;
	r = tw_recs_new(test, ctx, n);
	for (i = 0; i < n; i++)
		tw_arm_exact(test, e, &r[i], x);
	return r;
}

static void bounded_every_delta_to_70000(struct kunit *test)
{
	tw_exact_every_delta(test, tw_classic_bounded_new(test, 0), 70001);
	tw_exact_every_delta(test, tw_classic_bounded_new(test, (5UL << 14) + (17UL << 8) + 77),
			     70001);
	tw_exact_every_delta(test, tw_classic_bounded_new(test, ULONG_MAX - 1000), 3000);
	tw_exact_every_delta(test, tw_classic_bounded_new(test, INITIAL_JIFFIES), 70001);
}

/*
 * Placement by round, written out level by level: the lowest level whose
 * lap (2^(8 + 6n) jiffies) the expiry shares with the clock or follows it
 * in; beyond the top's two laps, the top's last slot of the next lap.
 */
static unsigned int tw_round_index(unsigned long clk, unsigned long x)
{
	unsigned int lvl, lap;

	if ((long)(x - clk) < 0)
		return clk & (TW_L0 - 1);
	for (lvl = 0; lvl < TW_CLASSIC_LEVELS; lvl++) {
		lap = 8 + 6 * lvl;
		if ((((x >> lap) - (clk >> lap)) & (ULONG_MAX >> lap)) > 1)
			continue;
		if (!lvl)
			return x & (TW_L0 - 1);
		return TW_L0 + (lvl - 1) * TW_LN + ((x >> (lap - 6)) & (TW_LN - 1));
	}
	return TW_L0 + 3 * TW_LN + ((((clk >> 26) | 63) + 64) & (TW_LN - 1));
}

/* The O(1) placement against that loop, at every level's edges +-2. */
static void bounded_index_by_round(struct kunit *test)
{
	static const unsigned long clks[] = {
		0, 1, 255, 256, 511, 16383, 123456789, (7UL << 32) - 3,
		ULONG_MAX - 300, ULONG_MAX,
	};
	struct twheel_engine *e = tw_classic_bounded_new(test, 0);
	unsigned int c, lvl, checked = 0, lap;
	unsigned long x, edge;
	struct rnd_state rs;
	int d, i;

	if (BITS_PER_LONG < 64)
		kunit_skip(test, "needs 64-bit jiffies");
	prandom_seed_state(&rs, 5);
	for (c = 0; c < ARRAY_SIZE(clks); c++) {
		e->clk = clks[c];
		for (lvl = 0; lvl < TW_CLASSIC_LEVELS; lvl++) {
			lap = 8 + 6 * lvl;
			/* the first delta past level lvl's next lap */
			edge = (2UL << lap) - (e->clk & ((1UL << lap) - 1));
			for (d = -2; d <= 2; d++) {
				x = e->clk + edge + d;
				KUNIT_EXPECT_EQ_MSG(test, e->ops->bucket_of(e, x),
						    tw_round_index(e->clk, x),
						    "clk %lu delta %ld", e->clk, (long)(edge + d));
				checked++;
			}
		}
		for (i = 0; i < 2000; i++) {
			x = e->clk + tw_rand_delta(&rs);
			if (i & 1)
				x = e->clk + (prandom_u32_state(&rs) |
					      (u64)prandom_u32_state(&rs) << 32 >> (i % 30));
			KUNIT_EXPECT_EQ_MSG(test, e->ops->bucket_of(e, x),
					    tw_round_index(e->clk, x), "clk %lu delta %ld",
					    e->clk, (long)(x - e->clk));
			checked++;
		}
	}
	KUNIT_EXPECT_EQ(test, checked, ARRAY_SIZE(clks) * (25U + 2000));
	/* Two laps of tv1: the next lap's jiffies in level 0, the one after not. */
	e->clk = 1000;
	KUNIT_EXPECT_EQ(test, e->ops->bucket_of(e, 1279), 1279U & 511);
	KUNIT_EXPECT_EQ(test, e->ops->bucket_of(e, 1280), TW_L0 + (1280U >> 8));
}

/* What a run jiffy by jiffy saw: timers moved per tick, and where. */
struct tw_ticks {
	unsigned long max, max_at, first_at, last_at, ticks, moved;
};

/*
 * Runs ctx's engine one jiffy at a time from its clock to until, noting
 * the timers each jiffy moved down (st.cascaded).
 */
static void tw_run_ticks(struct tw_ctx *ctx, unsigned long until,
			 struct tw_ticks *tt)
{
	struct twheel_engine *e = ctx->e;
	unsigned long m, now;
	u64 before;

	memset(tt, 0, sizeof(*tt));
	for (now = e->clk; !time_after(now, until); now++) {
		before = e->st.cascaded;
		tw_run_until(ctx, now);
		m = e->st.cascaded - before;
		if (!m)
			continue;
		if (!tt->ticks++)
			tt->first_at = now;
		tt->last_at = now;
		tt->moved += m;
		if (m > tt->max) {
			tt->max = m;
			tt->max_at = now;
		}
	}
}

#define TW_BURST	100000UL

/*
 * The burst: 100000 timers due at jiffy 1000, one tv2 slot (tv1 lap 3).
 * The classic wheel moves all of them in one tick, at 768; the bounded one
 * spreads them over tv1 lap 2, jiffies 512-767, ceil(100000 / 256) = 391
 * a tick from the first, and every timer still runs at exactly 1000.
 */
static void bounded_spread_burst(struct kunit *test)
{
	struct tw_engines *te = tw_engines_new(test, 0);
	struct twheel_engine *e = &te->classic_bounded.e, *c = &te->classic.e;
	struct tw_ctx ctx, cctx;
	struct tw_rec *r, *cr;
	struct tw_ticks tt, ct;
	unsigned long i;

	tw_ctx_init(&ctx, test, e);
	tw_ctx_init(&cctx, test, c);
	r = tw_recs_new(test, &ctx, TW_BURST);
	cr = tw_recs_new(test, &cctx, TW_BURST);
	for (i = 0; i < TW_BURST; i++) {
		tw_arm_exact(test, e, &r[i], 1000);
		tw_arm_exact(test, c, &cr[i], 1000);
	}
	ctx.hook = tw_expect_hook;
	cctx.hook = tw_expect_hook;
	KUNIT_EXPECT_EQ(test, tw_nr(e, TW_L0 + 3), (unsigned int)TW_BURST);
	tw_run_ticks(&ctx, 1100, &tt);
	tw_run_ticks(&cctx, 1100, &ct);
	KUNIT_EXPECT_EQ(test, tt.moved, TW_BURST);
	KUNIT_EXPECT_EQ(test, tt.max, DIV_ROUND_UP(TW_BURST, 256));
	KUNIT_EXPECT_EQ(test, tt.max_at, 512UL);
	KUNIT_EXPECT_EQ(test, tt.first_at, 512UL);
	KUNIT_EXPECT_EQ(test, tt.last_at, 767UL);
	KUNIT_EXPECT_EQ(test, tt.ticks, 256UL);
	KUNIT_EXPECT_EQ(test, ct.max, TW_BURST);
	KUNIT_EXPECT_EQ(test, ct.max_at, 768UL);
	KUNIT_EXPECT_GE(test, ct.max, 30 * tt.max);
	KUNIT_EXPECT_EQ(test, ctx.runs, TW_BURST);
	KUNIT_EXPECT_EQ(test, cctx.runs, TW_BURST);
	KUNIT_EXPECT_EQ(test, ctx.bad + cctx.bad, 0UL);
	tw_check_invariant(test, e);
}

/*
 * A small slot is not spread: its timers move in one tick, the last of
 * its window (tv1 lap 2's last jiffy for lap 3); a slot of 1000 from the
 * tick where 64 a tick no longer do, 16 ticks before that, 63 a tick.
 */
static void bounded_spread_small_slots(struct kunit *test)
{
	struct twheel_engine *e = tw_classic_bounded_new(test, 0);
	struct tw_ticks tt;
	struct tw_ctx ctx;
	struct tw_rec *x;
	unsigned int i;

	tw_recs_at(test, &ctx, e, 10, 1000);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX), 767UL);
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, 700), 700UL);
	x = tw_recs_new(test, &ctx, 1000);
	for (i = 0; i < 1000; i++)
		tw_arm_exact(test, e, &x[i], 1300 + i % 200);	/* lap 5 */
	tw_run_ticks(&ctx, 1000, &tt);
	KUNIT_EXPECT_EQ(test, tt.ticks, 1UL);
	KUNIT_EXPECT_EQ(test, tt.max, 10UL);
	KUNIT_EXPECT_EQ(test, tt.max_at, 767UL);
	KUNIT_EXPECT_EQ(test, e->st.cascades, 1ULL);
	KUNIT_EXPECT_EQ(test, tw_nr(e, TW_L0 + 5), 1000U);
	/* ceil(1000 / 64) = 16 ticks before lap 5: from 1264 on */
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX), 1264UL - 1001);
	tw_run_ticks(&ctx, 1279, &tt);
	KUNIT_EXPECT_EQ(test, tt.first_at, 1264UL);
	KUNIT_EXPECT_EQ(test, tt.last_at, 1279UL);
	KUNIT_EXPECT_EQ(test, tt.ticks, 16UL);
	KUNIT_EXPECT_EQ(test, tt.max, 63UL);
	KUNIT_EXPECT_EQ(test, tt.moved, 1000UL);
	tw_run_ticks(&ctx, 2000, &tt);
	KUNIT_EXPECT_EQ(test, tt.moved, 0UL);
	KUNIT_EXPECT_EQ(test, ctx.runs, 1010UL);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	tw_check_invariant(test, e);
}

/*
 * Runs ctx's engine jiffy by jiffy up to until, the window of the level-1
 * slot idx being the 256 jiffies up to end: each jiffy in it must move
 * what the rule says, ceil(r / ticks left) once chunk a tick no longer
 * does, else none; a jiffy before it none.
 */
static void tw_run_spread(struct kunit *test, struct tw_ctx *ctx,
			  unsigned int idx, unsigned long end, unsigned long until)
{
	struct twheel_engine *e = ctx->e;
	unsigned long now, r, left, want;
	u64 before;

	for (now = e->clk; now <= until; now++) {
		r = tw_nr(e, idx);
		left = end - now + 1;
		want = r > TW_BOUNDED_CHUNK * (left - 1) ? DIV_ROUND_UP(r, left) : 0;
		if (left > 256)
			want = 0;
		before = e->st.cascaded;
		tw_run_until(ctx, now);
		KUNIT_EXPECT_EQ_MSG(test, e->st.cascaded - before, (u64)want,
				    "jiffy %lu, %lu timers left", now, r);
	}
}

/*
 * Arms n timers for jiffy 1000 (tv1 lap 3) from clock 0, runs to jiffy
 * 600, in the middle of lap 3's window (512-767).
 */
static struct tw_rec *tw_mid_spread(struct kunit *test, struct tw_ctx *ctx,
				    struct twheel_engine *e, unsigned int n)
{
	struct tw_rec *r = tw_recs_at(test, ctx, e, n, 1000);

	tw_run_spread(test, ctx, TW_L0 + 3, 767, 600);
	/* more than 64 a tick: spread from the window's first tick */
	KUNIT_EXPECT_EQ(test, e->st.cascaded, (u64)n - tw_nr(e, TW_L0 + 3));
	KUNIT_EXPECT_EQ(test, e->st.cascades, 600ULL - 512 + 1);
	return r;
}

/* Timers added into lap 3 while its slot spreads go to level 0, not there. */
static void bounded_add_into_spread(struct kunit *test)
{
	struct twheel_engine *e = tw_classic_bounded_new(test, 0);
	unsigned int n = 20000, left, i;
	struct tw_ctx ctx;
	struct tw_rec *r, *x;

	r = tw_mid_spread(test, &ctx, e, n);
	left = tw_nr(e, TW_L0 + 3);
	x = tw_recs_new(test, &ctx, 1000);
	for (i = 0; i < 1000; i++) {
		tw_arm_exact(test, e, &x[i], 768 + i % 256);
		KUNIT_EXPECT_EQ(test, x[i].t.bucket, (768 + i % 256) & (TW_L0 - 1));
	}
	KUNIT_EXPECT_EQ(test, tw_nr(e, TW_L0 + 3), left);
	tw_run_spread(test, &ctx, TW_L0 + 3, 767, 767);
	KUNIT_EXPECT_EQ(test, tw_nr(e, TW_L0 + 3), 0U);
	KUNIT_EXPECT_EQ(test, e->st.cascaded, (u64)n);
	tw_run_until(&ctx, 1100);
	for (i = 0; i < 1000; i++)
		KUNIT_EXPECT_EQ(test, x[i].fired, 1U);
	KUNIT_EXPECT_EQ(test, ctx.runs, n + 1000UL);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	KUNIT_EXPECT_EQ(test, r[0].fired_at, 1000UL);
	tw_check_invariant(test, e);
}

/*
 * Timers deleted while their slot spreads, some still in it, some moved:
 * the rest are spread over the ticks left (ceil(left / ticks) a tick), all
 * run at 1000, the deleted ones never.
 */
static void bounded_del_mid_spread(struct kunit *test)
{
	struct twheel_engine *e = tw_classic_bounded_new(test, 0);
	unsigned int n = 20000, i, gone = 0, in_slot = 0;
	struct tw_ctx ctx;
	struct tw_rec *r;

	r = tw_mid_spread(test, &ctx, e, n);
	for (i = 0; i < n; i += 2) {
		in_slot += r[i].t.bucket == TW_L0 + 3;
		KUNIT_EXPECT_TRUE(test, twheel_del(e, &r[i].t));
		gone++;
	}
	KUNIT_EXPECT_GT(test, in_slot, 0U);
	KUNIT_EXPECT_LT(test, in_slot, gone);
	tw_run_spread(test, &ctx, TW_L0 + 3, 767, 767);
	KUNIT_EXPECT_EQ(test, tw_nr(e, TW_L0 + 3), 0U);
	tw_run_until(&ctx, 2000);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ_MSG(test, r[i].fired, i & 1 ? 1U : 0U, "timer %u", i);
	KUNIT_EXPECT_EQ(test, ctx.runs, (unsigned long)(n - gone));
	KUNIT_EXPECT_EQ(test, e->st.deleted, (u64)gone);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	tw_check_invariant(test, e);
}

/*
 * Spreads across the clock's wrap: a tv2 slot whose window ends at
 * ULONG_MAX (its timers at 99, after the wrap), and a tv3 slot spread into
 * tv2 and then into level 0 across it; each tick moves at most what its
 * levels' bounds allow, and every timer runs exactly.
 */
static void bounded_spread_across_wrap(struct kunit *test)
{
	const unsigned long clk = ULONG_MAX - 1000;
	struct twheel_engine *e = tw_classic_bounded_new(test, clk);
	unsigned int n = 20000, i;
	struct tw_ticks tt;
	struct tw_ctx ctx;
	struct tw_rec *r, *r3;

	r = tw_recs_at(test, &ctx, e, n, 99);			/* tv2 */
	r3 = tw_recs_new(test, &ctx, n);
	for (i = 0; i < n; i++)
		tw_arm_exact(test, e, &r3[i], clk + 20000);	/* tv3 */
	KUNIT_EXPECT_EQ(test, r[0].t.bucket, TW_L0 + 0U);
	KUNIT_EXPECT_EQ(test, r3[0].t.bucket,
			TW_L0 + TW_LN + (unsigned int)(((clk + 20000) >> 14) & 127));
	tw_run_ticks(&ctx, 99, &tt);
	/* lap 0's slot: ceil(20000 / 256) a tick from ULONG_MAX - 255 */
	KUNIT_EXPECT_EQ(test, tt.first_at, ULONG_MAX - 255);
	KUNIT_EXPECT_EQ(test, tt.last_at, ULONG_MAX);
	KUNIT_EXPECT_EQ(test, tt.max, DIV_ROUND_UP(20000UL, 256));
	KUNIT_EXPECT_EQ(test, tt.moved, (unsigned long)n);
	tw_run_ticks(&ctx, clk + 20000, &tt);
	/* tv3 to tv2 at most 64 a tick, then tv2 to level 0 at most 79 */
	KUNIT_EXPECT_LE(test, tt.max, DIV_ROUND_UP(20000UL, 256));
	KUNIT_EXPECT_EQ(test, tt.moved, 2UL * n);
	KUNIT_EXPECT_EQ(test, ctx.runs, 2UL * n);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	tw_check_invariant(test, e);
}

/*
 * 20000 timers in one tv3 slot: tv3 spreads into tv2 from the tick where
 * 64 a tick no longer do, tv2 into level 0 over its 256 ticks; each timer
 * moves twice and runs exactly.
 */
static void bounded_spread_deep(struct kunit *test)
{
	/* tv2 slot 20 of a tv3 slot two tv2 laps ahead */
	const unsigned long x = (2UL << 14) + (20UL << 8) + 77;
	struct twheel_engine *e = tw_classic_bounded_new(test, 0);
	unsigned int n = 20000;
	struct tw_ticks tt;
	struct tw_ctx ctx;

	tw_recs_at(test, &ctx, e, n, x);
	KUNIT_EXPECT_EQ(test, tw_nr(e, TW_L0 + TW_LN + 2), n);
	/* tv3's window for slot 2: jiffies 2^14 to 2^15 - 256 */
	KUNIT_EXPECT_EQ(test, twheel_next_event(e, ULONG_MAX),
			(2UL << 14) - 256 - DIV_ROUND_UP(n, 64) + 1);
	tw_run_ticks(&ctx, (2UL << 14) - 1, &tt);
	KUNIT_EXPECT_EQ(test, tt.moved, (unsigned long)n);
	KUNIT_EXPECT_EQ(test, tt.max, (unsigned long)TW_BOUNDED_CHUNK);
	KUNIT_EXPECT_EQ(test, tt.last_at, (2UL << 14) - 256);
	KUNIT_EXPECT_EQ(test, tw_nr(e, TW_L0 + ((x >> 8) & 127)), n);
	tw_run_ticks(&ctx, x, &tt);
	KUNIT_EXPECT_EQ(test, tt.first_at, (x & ~255UL) - 256);
	KUNIT_EXPECT_EQ(test, tt.max, DIV_ROUND_UP((unsigned long)n, 256));
	KUNIT_EXPECT_EQ(test, e->st.cascaded, 2ULL * n);
	KUNIT_EXPECT_EQ(test, ctx.runs, (unsigned long)n);
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	tw_check_invariant(test, e);
}

/* Beyond the top level's two laps: filed in its last slot, still exact. */
static void bounded_far_beyond_top(struct kunit *test)
{
	static const unsigned long d[] = {
		(1UL << 32) - 1, 1UL << 32, (1UL << 33) + 12345, 1UL << 38,
	};
	unsigned long clk = 77;
	struct twheel_engine *e;
	struct tw_ctx ctx;
	struct tw_rec *r;
	unsigned int i;

	if (BITS_PER_LONG < 64)
		kunit_skip(test, "needs 64-bit jiffies");
	e = tw_classic_bounded_new(test, clk);
	tw_ctx_init(&ctx, test, e);
	ctx.hook = tw_expect_hook;
	r = tw_recs_new(test, &ctx, ARRAY_SIZE(d));
	for (i = 0; i < ARRAY_SIZE(d); i++)
		tw_arm_exact(test, e, &r[i], clk + d[i]);
	/* the top's last slot of the next lap: 127 */
	KUNIT_EXPECT_EQ(test, r[2].t.bucket, TW_BOUNDED_BUCKETS - 1);
	KUNIT_EXPECT_EQ(test, r[3].t.bucket, TW_BOUNDED_BUCKETS - 1);
	KUNIT_EXPECT_LT(test, r[1].t.bucket, TW_BOUNDED_BUCKETS - 1);
	tw_run_until(&ctx, clk + d[ARRAY_SIZE(d) - 1]);
	KUNIT_EXPECT_EQ(test, ctx.runs, ARRAY_SIZE(d));
	KUNIT_EXPECT_EQ(test, ctx.bad, 0UL);
	tw_check_invariant(test, e);
}

/*
 * The inline one-jiffy step (with its cached @spread_at) spreads exactly
 * as the ops do at every jiffy: two wheels with the same 30000 timers, one
 * ticked by twheel_advance() one jiffy at a time, the other by
 * twheel_ops_advance(); the same cascaded count after each jiffy.
 */
static void bounded_fast_path_matches_ops(struct kunit *test)
{
	struct tw_engines *a = tw_engines_new(test, 1000);
	struct tw_engines *b = tw_engines_new(test, 1000);
	struct twheel_engine *fa = &a->classic_bounded.e, *fb = &b->classic_bounded.e;
	struct twheel_timer *ta, *tb, *t;
	unsigned long now, diff = 0, moved = 0, n = 30000, i;
	struct rnd_state rs;

	ta = tw_kvzalloc(test, n * sizeof(*ta));
	tb = tw_kvzalloc(test, n * sizeof(*tb));
	KUNIT_ASSERT_NOT_NULL(test, ta);
	KUNIT_ASSERT_NOT_NULL(test, tb);
	prandom_seed_state(&rs, 99);
	for (i = 0; i < n; i++) {
		unsigned long x = 1000 + prandom_u32_state(&rs) % (1U << 18);

		if (i % 3 == 0)		/* a third in a few slots: spreads */
			x = 1000 + 5000 * (1 + i % 7);
		twheel_timer_setup(fa, &ta[i], NULL);
		twheel_timer_setup(fb, &tb[i], NULL);
		twheel_add(fa, &ta[i], x);
		twheel_add(fb, &tb[i], x);
	}
	for (now = 1000; now < 1000 + (1U << 18); now++) {
		twheel_advance(fa, now);
		twheel_ops_advance(fb, now);
		while ((t = twheel_pop(fa)))
			;
		while ((t = twheel_ops_pop(fb)))
			;
		diff += fa->st.cascaded != fb->st.cascaded;
	}
	moved = fa->st.cascaded;
	KUNIT_EXPECT_EQ(test, diff, 0UL);
	KUNIT_EXPECT_GT(test, moved, n);
	KUNIT_EXPECT_EQ(test, fa->st.expired, (u64)n);
	KUNIT_EXPECT_EQ(test, fb->st.expired, (u64)n);
	KUNIT_EXPECT_EQ(test, fa->st.cascades, fb->st.cascades);
}

/* What the on_cascade hook saw. */
struct tw_classic_bounded_log {
	unsigned int calls, lvl, slot;
	u64 moved;
};

static struct tw_classic_bounded_log tw_log;

static void tw_log_spread(struct twheel_engine *e, unsigned int lvl,
			  unsigned int slot, unsigned int moved, u64 ns)
{
	tw_log.calls++;
	tw_log.lvl |= BIT(lvl);
	tw_log.slot = slot;
	tw_log.moved += moved;
}

/* The hook: one call per tick that moved timers, with level and slot. */
static void bounded_cascade_hook(struct kunit *test)
{
	struct twheel_engine *e = tw_classic_bounded_new(test, 0);
	struct tw_ctx ctx;
	struct tw_rec *r;
	unsigned int i;

	memset(&tw_log, 0, sizeof(tw_log));
	e->on_cascade = tw_log_spread;
	tw_ctx_init(&ctx, test, e);
	r = tw_recs_new(test, &ctx, 1000);
	for (i = 0; i < 1000; i++)
		twheel_add(e, &r[i].t, 1000);
	tw_run_until(&ctx, 1000);
	KUNIT_EXPECT_EQ(test, tw_log.calls, 16U);
	KUNIT_EXPECT_EQ(test, tw_log.lvl, (unsigned int)BIT(1));
	KUNIT_EXPECT_EQ(test, tw_log.slot, 3U);
	KUNIT_EXPECT_EQ(test, tw_log.moved, 1000ULL);
	KUNIT_EXPECT_EQ(test, e->st.cascades, 16ULL);
	KUNIT_EXPECT_EQ(test, ctx.runs, 1000UL);
}

static void bounded_catch_up_one_advance(struct kunit *test)
{
	tw_exact_catch_up(test, tw_classic_bounded_new(test, 12345));
}

static void bounded_differential_vs_reference(struct kunit *test)
{
	struct tw_engines *te = tw_engines_new(test, INITIAL_JIFFIES);

	tw_exact_differential(test, &te->classic_bounded.e, &te->reference.e);
}

static struct kunit_case tw_classic_bounded_cases[] = {
	KUNIT_CASE_SLOW(bounded_every_delta_to_70000),
	KUNIT_CASE(bounded_index_by_round),
	KUNIT_CASE_SLOW(bounded_spread_burst),
	KUNIT_CASE(bounded_spread_small_slots),
	KUNIT_CASE(bounded_add_into_spread),
	KUNIT_CASE(bounded_del_mid_spread),
	KUNIT_CASE(bounded_spread_across_wrap),
	KUNIT_CASE(bounded_spread_deep),
	KUNIT_CASE(bounded_far_beyond_top),
	KUNIT_CASE_SLOW(bounded_fast_path_matches_ops),
	KUNIT_CASE(bounded_cascade_hook),
	KUNIT_CASE(bounded_catch_up_one_advance),
	KUNIT_CASE_SLOW(bounded_differential_vs_reference),
	{}
};

static struct kunit_suite tw_classic_bounded_suite = {
	.name = "twheel_classic_bounded",
	.test_cases = tw_classic_bounded_cases,
};

kunit_test_suite(tw_classic_bounded_suite);

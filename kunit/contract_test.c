// SPDX-License-Identifier: GPL-2.0
/*
 * The API contract every engine keeps, run once per engine: del's return
 * values, detach (a timer moving to another engine), mod re-filing, mod
 * to the same expiry, callbacks that re-arm themselves or delete other
 * timers, and a clock that wraps.
 *
 * Each engine states when a timer armed for @expires runs (its expiry
 * rule): exact engines at @expires itself, the modern wheel at the expiry
 * of the bucket it is filed in; every engine at the clock if @expires is
 * already past. A case computes that jiffy when it arms a timer and checks
 * the run against it, and checks that no timer ever runs before its expiry.
 * The engines and the fixture are in contract_engines.c.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include "contract.h"
#include "engines/heap.h"

static void contract_del_return_values(struct kunit *test)
{
	struct tw_contract *c = test->priv;
	struct twheel_engine *e = c->e;
	struct tw_rec *r = c->r;

	KUNIT_EXPECT_FALSE(test, twheel_del(e, &r[0].t));	/* never added */
	tw_ct_expect_counts(test, &(struct tw_counts){}, "del of a never-added timer");

	tw_ct_arm(test, 0, TW_CLK + 10);
	KUNIT_EXPECT_EQ(test, twheel_add(e, &r[0].t, TW_CLK + 11), -EBUSY);
	KUNIT_EXPECT_EQ(test, r[0].t.expires, TW_CLK + 10);
	KUNIT_EXPECT_TRUE(test, twheel_pending(e, &r[0].t));
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &r[0].t));	/* pending */
	KUNIT_EXPECT_FALSE(test, twheel_pending(e, &r[0].t));
	KUNIT_EXPECT_EQ(test, tw_ct_in_buckets(e), 0UL);
	KUNIT_EXPECT_FALSE(test, twheel_del(e, &r[0].t));	/* twice */
	tw_ct_expect_counts(test, &(struct tw_counts){ .added = 1, .deleted = 1 },
			    "del of a pending timer");

	tw_ct_arm(test, 1, TW_CLK + 20);
	tw_ct_run(test, TW_CLK + 30);
	KUNIT_EXPECT_EQ(test, r[0].fired, 0U);		/* deleted: never runs */
	KUNIT_EXPECT_EQ(test, r[1].fired, 1U);
	KUNIT_EXPECT_EQ(test, r[1].fired_at, r[1].expect);
	KUNIT_EXPECT_FALSE(test, twheel_del(e, &r[1].t));	/* expired */
	tw_ct_expect_counts(test, &(struct tw_counts){ .added = 2, .deleted = 1, .expired = 1 },
			    "del of an expired timer");
}

/* Collected by twheel_advance(), not popped yet: del takes it back. */
static void contract_del_collected_before_pop(struct kunit *test)
{
	struct tw_contract *c = test->priv;
	struct twheel_engine *e = c->e;
	struct tw_rec *r = c->r;

	tw_ct_arm(test, 0, TW_CLK + 5);
	tw_ct_arm(test, 1, TW_CLK + 5);
	tw_ct_arm(test, 2, TW_CLK + 5000);
	KUNIT_EXPECT_TRUE(test, twheel_advance(e, r[0].expect));
	KUNIT_EXPECT_EQ(test, e->clk, r[0].expect + 1);
	KUNIT_EXPECT_EQ(test, tw_ct_in_buckets(e), 1UL);
	KUNIT_EXPECT_TRUE(test, twheel_pending(e, &r[0].t));
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &r[0].t));	/* collected */
	KUNIT_EXPECT_FALSE(test, twheel_del(e, &r[0].t));
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &r[2].t));	/* in a bucket */
	KUNIT_EXPECT_EQ(test, tw_ct_in_buckets(e), 0UL);
	KUNIT_EXPECT_PTR_EQ(test, twheel_pop(e), &r[1].t);
	KUNIT_EXPECT_NULL(test, twheel_pop(e));
	KUNIT_EXPECT_FALSE(test, twheel_del(e, &r[1].t));	/* popped */
	tw_ct_expect_counts(test, &(struct tw_counts){ .added = 3, .deleted = 2, .expired = 1 },
			    "after the pop");
	/* Nothing is left to run, ever. */
	tw_ct_run(test, TW_CLK + 10000);
	KUNIT_EXPECT_EQ(test, c->ctx.runs, 0UL);
}

/*
 * twheel_detach(): a timer filed, one collected and not popped, and one
 * cancelled (an engine with lazy cancel still links it) are all let go
 * of: nothing of them is left in the engine, none runs there. Set up
 * for a second engine of the same kind, as a per-CPU instance's timer
 * moves to another's, each runs there once, by that engine's rule.
 */
static void contract_detach_moves(struct kunit *test)
{
	struct tw_contract *c = test->priv;
	struct twheel_engine *e = c->e, *e2;
	struct tw_rec *r = c->r;
	struct tw_ctx ctx2;
	unsigned int i;
	void *mem2;

	tw_ct_arm(test, 0, TW_CLK + 5);
	tw_ct_arm(test, 1, TW_CLK + 5000);
	tw_ct_arm(test, 2, TW_CLK + 50);
	KUNIT_EXPECT_TRUE(test, twheel_advance(e, r[0].expect));
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &r[2].t));
	KUNIT_EXPECT_TRUE(test, twheel_detach(e, &r[0].t));	/* collected */
	KUNIT_EXPECT_TRUE(test, twheel_detach(e, &r[1].t));	/* filed */
	KUNIT_EXPECT_FALSE(test, twheel_detach(e, &r[2].t));	/* cancelled */
	KUNIT_EXPECT_FALSE(test, twheel_detach(e, &r[1].t));	/* twice */
	KUNIT_EXPECT_NULL(test, twheel_pop(e));
	KUNIT_EXPECT_EQ(test, tw_ct_in_buckets(e), 0UL);
	KUNIT_EXPECT_EQ(test, e->st.lazy_held, 0ULL);
	tw_ct_expect_counts(test, &(struct tw_counts){ .added = 3, .deleted = 3 },
			    "after the detaches");

	mem2 = tw_kvzalloc(test, c->p->size);
	KUNIT_ASSERT_NOT_NULL(test, mem2);
	e2 = tw_ct_new(c->p, mem2, e->clk);
	KUNIT_ASSERT_NOT_NULL(test, e2);
	tw_ctx_init(&ctx2, test, e2);
	ctx2.hook = tw_contract_check;
	for (i = 0; i < 3; i++) {
		twheel_timer_setup(e2, &r[i].t, r[i].t.function);
		r[i].ctx = &ctx2;
		r[i].expect = c->p->fires_at(e2, e->clk + 10 + 100 * i);
		KUNIT_ASSERT_EQ(test, twheel_add(e2, &r[i].t, e->clk + 10 + 100 * i), 0);
	}
	tw_ct_run(test, TW_CLK + 10000);
	tw_run_until(&ctx2, TW_CLK + 10000);
	KUNIT_EXPECT_EQ(test, c->ctx.runs, 0UL);
	KUNIT_EXPECT_EQ(test, ctx2.runs, 3UL);
	KUNIT_EXPECT_EQ(test, ctx2.bad, 0UL);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ_MSG(test, r[i].fired, 1U, "timer %u", i);
	KUNIT_EXPECT_EQ(test, e2->st.added, 3ULL);
	KUNIT_EXPECT_EQ(test, e2->st.expired, 3ULL);
	tw_check_invariant(test, e2);
}

/* Pops every collected timer: the ids of want[], in that order, then none. */
static void tw_expect_pops(struct kunit *test, const unsigned int *want,
			   unsigned int n, const char *when)
{
	struct tw_contract *c = test->priv;
	struct twheel_timer *t;
	unsigned int i;

	for (i = 0; i < n; i++) {
		t = twheel_pop(c->e);
		KUNIT_EXPECT_PTR_EQ_MSG(test, t, &c->r[want[i]].t,
					"%s: pop %u is timer %d, want timer %u", when, i,
					t ? (int)container_of(t, struct tw_rec, t)->id : -1,
					want[i]);
		if (!t)
			return;
	}
	KUNIT_EXPECT_NULL_MSG(test, twheel_pop(c->e), "%s: more than %u", when, n);
}

/*
 * Collected timers come out jiffy by jiffy, across advances too: a timer
 * collected at a later jiffy waits behind every one an earlier advance
 * left collected, even if it expires before them (armed in the past, or
 * taken off the collected list by a mod into the past). A budget leaves
 * timers collected like this, and this order decides which wait; it is
 * the order in which the kernel runs the timers it collects.
 */
static void contract_pop_in_collection_order(struct kunit *test)
{
	static const unsigned int first[] = { 0, 2, 1 }, then[] = { 4, 3 };
	struct tw_contract *c = test->priv;
	struct twheel_engine *e = c->e;
	struct tw_rec *r = c->r;
	unsigned long x;

	tw_ct_arm(test, 0, TW_CLK + 10);
	tw_ct_arm(test, 1, TW_CLK + 30);
	KUNIT_EXPECT_TRUE(test, twheel_advance(e, r[0].expect));
	KUNIT_EXPECT_EQ(test, tw_ct_in_buckets(e), 1UL);
	/* Not popped. Armed in the past, 10 jiffies before timer 0's expiry. */
	tw_ct_arm(test, 2, TW_CLK);
	KUNIT_EXPECT_EQ(test, r[2].expect, r[0].expect + 1);
	/* One advance collects timer 2 at its first jiffy, timer 1 later. */
	KUNIT_EXPECT_TRUE(test, twheel_advance(e, r[1].expect));
	KUNIT_EXPECT_EQ(test, tw_ct_in_buckets(e), 0UL);
	tw_expect_pops(test, first, ARRAY_SIZE(first), "a timer armed in the past");

	/* Two timers collected at one jiffy; a mod into the past re-arms one. */
	x = e->clk + 5;
	tw_ct_arm(test, 3, x);
	tw_ct_arm(test, 4, x);
	KUNIT_ASSERT_EQ(test, r[3].expect, r[4].expect);
	KUNIT_EXPECT_TRUE(test, twheel_advance(e, r[3].expect));
	KUNIT_EXPECT_TRUE(test, tw_ct_remod(test, 3, TW_CLK));
	KUNIT_EXPECT_EQ(test, r[3].expect, r[4].expect + 1);
	KUNIT_EXPECT_EQ(test, tw_ct_in_buckets(e), 1UL);
	KUNIT_EXPECT_TRUE(test, twheel_advance(e, r[3].expect));
	tw_expect_pops(test, then, ARRAY_SIZE(then), "a collected timer modded into the past");
	tw_ct_expect_counts(test, &(struct tw_counts){ .added = 5, .expired = 5, .modified = 1 },
			    "after the pops");
}

/* Runs up to the jiffy before timer i's run, then that jiffy. */
static void tw_expect_runs_at(struct kunit *test, unsigned int i)
{
	struct tw_contract *c = test->priv;
	struct tw_rec *r = &c->r[i];

	tw_ct_run(test, r->expect - 1);
	KUNIT_EXPECT_EQ_MSG(test, r->fired, 0U, "timer %u before %lu", i, r->expect);
	tw_ct_run(test, r->expect);
	KUNIT_EXPECT_EQ_MSG(test, r->fired, 1U, "timer %u at %lu", i, r->expect);
	KUNIT_EXPECT_EQ(test, r->fired_at, r->expect);
}

static void contract_mod_refiles_far(struct kunit *test)
{
	struct tw_contract *c = test->priv;
	struct tw_rec *r = c->r;

	/* mod of a timer that is not pending arms it. */
	KUNIT_EXPECT_FALSE(test, tw_ct_remod(test, 0, TW_CLK + 10));
	tw_ct_expect_counts(test, &(struct tw_counts){ .added = 1, .pending = 1 },
			    "mod arms");
	/* Far enough to go through a cascade in the classic wheel. */
	KUNIT_EXPECT_TRUE(test, tw_ct_remod(test, 0, TW_CLK + 100000));
	KUNIT_EXPECT_EQ(test, r[0].t.expires, TW_CLK + 100000);
	tw_expect_runs_at(test, 0);
	KUNIT_EXPECT_GE(test, r[0].fired_at, TW_CLK + 100000);
	tw_ct_run(test, r[0].expect + 100000);
	KUNIT_EXPECT_EQ(test, r[0].fired, 1U);
	tw_ct_expect_counts(test, &(struct tw_counts){ .added = 1, .expired = 1, .modified = 1 },
			    "mod to a far expiry");
}

static void contract_mod_refiles_near(struct kunit *test)
{
	struct tw_contract *c = test->priv;
	struct tw_rec *r = c->r;

	tw_ct_arm(test, 0, TW_CLK + 100000);
	tw_ct_arm(test, 1, TW_CLK + 3000);
	tw_ct_run(test, TW_CLK + 99);
	KUNIT_EXPECT_TRUE(test, tw_ct_remod(test, 0, TW_CLK + 107));
	KUNIT_EXPECT_TRUE(test, tw_ct_remod(test, 1, TW_CLK + 100));	/* clk itself */
	if (c->p->fires_at == tw_fires_exact)
		KUNIT_EXPECT_EQ(test, r[1].expect, TW_CLK + 100);
	tw_expect_runs_at(test, 1);
	tw_expect_runs_at(test, 0);
	/* Nothing at the old expiries. */
	tw_ct_run(test, TW_CLK + 200000);
	KUNIT_EXPECT_EQ(test, r[0].fired, 1U);
	KUNIT_EXPECT_EQ(test, r[1].fired, 1U);
	KUNIT_EXPECT_EQ(test, c->ctx.runs, 2UL);
	tw_ct_expect_counts(test, &(struct tw_counts){ .added = 2, .expired = 2, .modified = 2 },
			    "mod to a near expiry");
}

/*
 * mod to the expiry a timer already has touches nothing: neither that
 * timer nor its neighbours in the bucket change, and they run in the same
 * order as the same timers armed the same way without the mod.
 */
static void contract_mod_same_expiry(struct kunit *test)
{
	struct tw_contract *c = test->priv;
	struct tw_counts want = { .added = 8, .modified = 1, .mod_noop = 1 };
	struct twheel_timer before[4];
	unsigned int seq[8], i;
	unsigned long x;

	c->ctx.seq = seq;
	c->ctx.seq_max = ARRAY_SIZE(seq);
	x = TW_CLK + 300;
	for (i = 0; i < 4; i++)
		tw_ct_arm(test, i, x);
	tw_ct_run(test, x + 1000);
	KUNIT_ASSERT_EQ(test, c->ctx.seq_len, 4U);

	x = c->e->clk + 300;
	for (i = 0; i < 4; i++)
		tw_ct_arm(test, 4 + i, x);
	for (i = 0; i < 4; i++)
		memcpy(&before[i], &c->r[4 + i].t, sizeof(before[i]));
	KUNIT_EXPECT_TRUE(test, tw_ct_remod(test, 4, x));
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_MEMEQ_MSG(test, &c->r[4 + i].t, &before[i], sizeof(before[i]),
				       "timer %u", 4 + i);
	KUNIT_EXPECT_EQ(test, c->e->st.mod_inplace, 0ULL);
	want.pending = 4;
	want.expired = 4;
	tw_ct_expect_counts(test, &want, "mod to the same expiry");
	tw_ct_run(test, x + 1000);
	KUNIT_ASSERT_EQ(test, c->ctx.seq_len, 8U);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ_MSG(test, seq[4 + i], seq[i] + 4, "run %u", 4 + i);
	want.pending = 0;
	want.expired = 8;
	tw_ct_expect_counts(test, &want, "after the runs");
}

/*
 * Re-arms itself twice: 3 jiffies ahead, then at the jiffy it is running
 * at, which the engine has processed already, so it runs at the next one.
 */
static void tw_rearm_hook(struct tw_rec *r)
{
	struct kunit *test = r->ctx->test;
	struct tw_contract *c = test->priv;

	tw_contract_check(r);
	if (r->fired <= ARRAY_SIZE(c->runs_at))
		c->runs_at[r->fired - 1] = r->fired_at;
	KUNIT_EXPECT_FALSE(test, twheel_pending(c->e, &r->t));
	if (r->fired == 1)
		KUNIT_EXPECT_FALSE(test, tw_ct_remod(test, r->id, r->fired_at + 3));
	else if (r->fired == 2)
		KUNIT_EXPECT_FALSE(test, tw_ct_remod(test, r->id, r->fired_at));
}

static void contract_callback_rearms_itself(struct kunit *test)
{
	struct tw_contract *c = test->priv;
	struct tw_rec *r = c->r;

	c->ctx.hook = tw_rearm_hook;
	tw_ct_arm(test, 0, TW_CLK + 254);
	tw_ct_run(test, TW_CLK + 100000);
	KUNIT_EXPECT_EQ(test, r[0].fired, 3U);
	KUNIT_EXPECT_GE(test, c->runs_at[0], TW_CLK + 254);
	KUNIT_EXPECT_GE(test, c->runs_at[1], c->runs_at[0] + 3);
	KUNIT_EXPECT_EQ(test, c->runs_at[2], c->runs_at[1] + 1);
	if (c->p->fires_at == tw_fires_exact) {
		KUNIT_EXPECT_EQ(test, c->runs_at[0], TW_CLK + 254);
		KUNIT_EXPECT_EQ(test, c->runs_at[1], TW_CLK + 257);
		KUNIT_EXPECT_EQ(test, c->runs_at[2], TW_CLK + 258);
	}
	KUNIT_EXPECT_FALSE(test, twheel_pending(c->e, &r[0].t));
	tw_ct_expect_counts(test, &(struct tw_counts){ .added = 3, .expired = 3 },
			    "a callback that re-arms itself");
}

/* The first timer to run deletes every timer in c->victims. */
static void tw_delete_hook(struct tw_rec *r)
{
	struct kunit *test = r->ctx->test;
	struct tw_contract *c = test->priv;
	unsigned int i;

	tw_contract_check(r);
	if (r->ctx->runs != 1)
		return;
	for (i = 0; i < TW_NR_RECS; i++) {
		if (!(c->victims & BIT(i)))
			continue;
		/* Its own timer was popped: not pending any more. */
		KUNIT_EXPECT_EQ_MSG(test, twheel_del(c->e, &c->r[i].t), i != r->id,
				    "timer %u deletes timer %u", r->id, i);
	}
}

static void contract_callback_deletes_pending(struct kunit *test)
{
	struct tw_contract *c = test->priv;
	struct tw_rec *r = c->r;

	c->ctx.hook = tw_delete_hook;
	c->victims = BIT(1) | BIT(2);
	tw_ct_arm(test, 0, TW_CLK + 50);
	tw_ct_arm(test, 1, TW_CLK + 51);		/* the next jiffy */
	tw_ct_arm(test, 2, TW_CLK + 100000);	/* far */
	tw_ct_arm(test, 3, TW_CLK + 60);
	tw_ct_run(test, TW_CLK + 200000);
	KUNIT_EXPECT_EQ(test, r[0].fired, 1U);
	KUNIT_EXPECT_EQ(test, r[1].fired, 0U);
	KUNIT_EXPECT_EQ(test, r[2].fired, 0U);
	KUNIT_EXPECT_EQ(test, r[3].fired, 1U);
	KUNIT_EXPECT_EQ(test, r[3].fired_at, r[3].expect);
	tw_ct_expect_counts(test, &(struct tw_counts){ .added = 4, .deleted = 2, .expired = 2 },
			    "a callback that deletes pending timers");
}

/*
 * Three timers due at the same jiffy are all collected before the first
 * runs; whichever runs first deletes the other two, which never run.
 */
static void contract_callback_deletes_collected(struct kunit *test)
{
	struct tw_contract *c = test->priv;
	struct tw_rec *r = c->r;
	unsigned int i, ran = 0;

	c->ctx.hook = tw_delete_hook;
	for (i = 0; i < 3; i++)
		tw_ct_arm(test, i, TW_CLK + 40);
	tw_ct_arm(test, 3, r[0].expect + 1);
	/* Each of the three deletes the others if it runs first. */
	c->victims = BIT(0) | BIT(1) | BIT(2);
	tw_ct_run(test, r[0].expect);
	for (i = 0; i < 3; i++)
		ran += r[i].fired;
	KUNIT_EXPECT_EQ(test, ran, 1U);
	KUNIT_EXPECT_EQ(test, c->ctx.runs, 1UL);
	KUNIT_EXPECT_EQ(test, r[3].fired, 0U);
	tw_ct_run(test, r[0].expect + 100);
	KUNIT_EXPECT_EQ(test, r[3].fired, 1U);
	for (i = 0, ran = 0; i < 3; i++)
		ran += r[i].fired;
	KUNIT_EXPECT_EQ(test, ran, 1U);
	tw_ct_expect_counts(test, &(struct tw_counts){ .added = 4, .deleted = 2, .expired = 2 },
			    "a callback that deletes collected timers");
}

/* Each armed timer has run once if its run jiffy is not after until. */
static void tw_expect_ran_by(struct kunit *test, unsigned long until,
			     unsigned int n)
{
	struct tw_contract *c = test->priv;
	unsigned int i;

	tw_ct_run(test, until);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ_MSG(test, c->r[i].fired,
				    time_after(c->r[i].expect, until) ? 0U : 1U,
				    "timer %u (runs at %lu) by %lu", i, c->r[i].expect, until);
}

/* A clock just below ULONG_MAX, timers on both sides of the wrap. */
static void contract_clock_wrap(struct kunit *test)
{
	const unsigned long clk = ULONG_MAX - 100;
	static const unsigned long deltas[] = { 50, 100, 101, 102, 400, 70000 };
	struct tw_contract *c = test->priv;
	struct tw_counts want = {};
	struct tw_rec *r = c->r;
	unsigned long first = ULONG_MAX;
	unsigned int i, n = ARRAY_SIZE(deltas);

	tw_contract_restart(test, clk);
	for (i = 0; i < n; i++)
		tw_ct_arm(test, i, clk + deltas[i]);
	tw_ct_arm(test, n, clk - 10);		/* past: runs at clk */
	KUNIT_EXPECT_EQ(test, r[n].expect, clk);
	tw_ct_arm(test, n + 1, clk + 20);		/* moved across the wrap below */
	for (i = 0; i < n + 2; i++)
		first = min(first, r[i].expect - clk);
	KUNIT_EXPECT_LE(test, twheel_next_event(c->e, ULONG_MAX), first);

	tw_expect_ran_by(test, clk + 10, n + 2);
	KUNIT_EXPECT_TRUE(test, tw_ct_remod(test, n + 1, 5));
	tw_expect_ran_by(test, ULONG_MAX - 1, n + 2);
	tw_expect_ran_by(test, ULONG_MAX, n + 2);
	tw_expect_ran_by(test, 0, n + 2);
	tw_expect_ran_by(test, 1, n + 2);
	tw_expect_ran_by(test, 500, n + 2);
	tw_expect_ran_by(test, 100000, n + 2);
	KUNIT_EXPECT_EQ(test, c->e->clk, 100001UL);
	if (c->p->fires_at == tw_fires_exact) {
		KUNIT_EXPECT_EQ(test, r[1].fired_at, ULONG_MAX);
		KUNIT_EXPECT_EQ(test, r[2].fired_at, 0UL);
		KUNIT_EXPECT_EQ(test, r[3].fired_at, 1UL);
		KUNIT_EXPECT_EQ(test, r[n + 1].fired_at, 5UL);
	}
	want.added = n + 2;
	want.expired = n + 2;
	want.modified = 1;
	tw_ct_expect_counts(test, &want, "across the wrap");
}

/*
 * Pending expiries more than LONG_MAX apart: timers armed LONG_MAX jiffies
 * in the past (before and after the other is armed) next to one 123 ahead.
 * time_before() between them is no order (the far past one is "after" the
 * one ahead), yet each runs at its jiffy: the past ones at the clock, where
 * they sort first. An engine that documents that it needs pending expiries
 * within LONG_MAX of each other (twheel_ops.narrow) is skipped.
 */
static void contract_past_long_max_next_to_ahead(struct kunit *test)
{
	struct tw_contract *c = test->priv;
	struct tw_rec *r = c->r;
	unsigned long clk = c->e->clk;

	if (c->e->ops->narrow)
		kunit_skip(test, "documented: pending expiries within LONG_MAX");
	tw_ct_arm(test, 0, clk - LONG_MAX);
	tw_ct_arm(test, 1, clk + 123);
	tw_ct_arm(test, 2, clk - LONG_MAX);
	KUNIT_EXPECT_TRUE(test, time_before(r[1].t.expires, r[0].t.expires));
	KUNIT_EXPECT_EQ(test, r[0].expect, clk);
	KUNIT_EXPECT_EQ(test, r[2].expect, clk);
	KUNIT_EXPECT_EQ(test, twheel_next_event(c->e, ULONG_MAX), 0UL);
	tw_ct_run(test, clk);
	KUNIT_EXPECT_EQ(test, r[0].fired, 1U);
	KUNIT_EXPECT_EQ(test, r[2].fired, 1U);
	KUNIT_EXPECT_EQ(test, r[1].fired, 0U);
	tw_expect_ran_by(test, r[1].expect - 1, 3);
	tw_expect_ran_by(test, r[1].expect, 3);
	tw_expect_ran_by(test, clk + 100000, 3);
	tw_ct_expect_counts(test, &(struct tw_counts){ .added = 3, .expired = 3 },
			    "LONG_MAX in the past next to 123 ahead");
}

/* The roundest jiffy of a range: examples, then every range's property. */
static void contract_range_pick(struct kunit *test)
{
	struct rnd_state rs;
	unsigned long lo, hi, p, next, bad = 0;
	unsigned int i, z;

	KUNIT_EXPECT_EQ(test, twheel_range_pick(1000, 1000), 1000UL);
	KUNIT_EXPECT_EQ(test, twheel_range_pick(1000, 1100), 1024UL);
	KUNIT_EXPECT_EQ(test, twheel_range_pick(8, 15), 8UL);
	KUNIT_EXPECT_EQ(test, twheel_range_pick(9, 15), 12UL);
	KUNIT_EXPECT_EQ(test, twheel_range_pick(1030, 1200), 1152UL);
	KUNIT_EXPECT_EQ(test, twheel_range_pick(1100, 1150), 1120UL);
	KUNIT_EXPECT_EQ(test, twheel_range_pick(ULONG_MAX - 5, 10), 0UL);
	prandom_seed_state(&rs, 11);
	for (i = 0; i < 10000; i++) {
		lo = prandom_u32_state(&rs) | (u64)prandom_u32_state(&rs) << 32;
		hi = lo + (prandom_u32_state(&rs) >> (prandom_u32_state(&rs) % 32));
		p = twheel_range_pick(lo, hi);
		if (p - lo > hi - lo) {
			bad++;
			continue;
		}
		if (!p)
			continue;
		/* no jiffy of the range has more low zero bits than p */
		z = __ffs(p) + 1;
		if (z >= BITS_PER_LONG)
			continue;
		next = (lo + (1UL << z) - 1) & ~((1UL << z) - 1);
		if (next >= lo && next <= hi)
			bad++;
	}
	KUNIT_EXPECT_EQ(test, bad, 0UL);
}

/*
 * Range arming on every engine: a pending timer already in the range is
 * left alone (no relink, a mod_noop); out of it, the engine's pick in the
 * new range, which the engine then keeps to as to any expiry.
 */
static void contract_range_mod(struct kunit *test)
{
	struct tw_contract *c = test->priv;
	struct twheel_engine *e = c->e;
	struct tw_rec *r = c->r;
	unsigned long x = TW_CLK + 700, p;

	r[0].expect = c->p->fires_at(e, twheel_range_expiry(e, x, x + 40));
	KUNIT_ASSERT_EQ(test, twheel_add_range(e, &r[0].t, x, x + 40), 0);
	KUNIT_EXPECT_EQ(test, r[0].t.expires, twheel_range_expiry(e, x, x + 40));
	p = r[0].t.expires;
	KUNIT_EXPECT_TRUE(test, twheel_mod_range(e, &r[0].t, p - 30, p + 30));
	KUNIT_EXPECT_EQ(test, r[0].t.expires, p);
	KUNIT_EXPECT_EQ(test, e->st.mod_noop, 1ULL);
	r[0].expect = c->p->fires_at(e, twheel_range_expiry(e, x + 500, x + 600));
	KUNIT_EXPECT_TRUE(test, twheel_mod_range(e, &r[0].t, x + 500, x + 600));
	KUNIT_EXPECT_EQ(test, r[0].t.expires, twheel_range_expiry(e, x + 500, x + 600));
	KUNIT_EXPECT_EQ(test, e->st.mod_noop, 1ULL);
	/* not pending: armed at the pick */
	r[1].expect = c->p->fires_at(e, twheel_range_expiry(e, x, x + 3));
	KUNIT_EXPECT_FALSE(test, twheel_mod_range(e, &r[1].t, x, x + 3));
	tw_ct_run(test, x + 2000);
	KUNIT_EXPECT_EQ(test, r[0].fired, 1U);
	KUNIT_EXPECT_EQ(test, r[1].fired, 1U);
	KUNIT_EXPECT_EQ(test, c->ctx.bad, 0UL);
	tw_check_invariant(test, e);
}

/*
 * Each engine's range rule (twheel_range_expiry()): examples, then 20000
 * random ranges at random clocks, up to 2^27 jiffies out and 2^20 wide
 * (a tenth across the clock's wrap), against the rule stated independently
 * in tw_contract_engines[]; every pick is in its range.
 */
static void contract_range_rule(struct kunit *test)
{
	struct tw_contract *c = test->priv;
	struct twheel_engine *e = c->e;
	unsigned long lo, hi, x, want, bad = 0, outside = 0;
	struct rnd_state rs;
	unsigned int i;

	if (c->p->range_pick == tw_pick_cascade) {
		/* 4352 = 17 * 256; 2^14 = 16384; 2^20 in [10^6, 1.1 * 10^6] */
		KUNIT_EXPECT_EQ(test, twheel_range_expiry(e, 4000, 4500), 4352UL);
		KUNIT_EXPECT_EQ(test, twheel_range_expiry(e, 4000, 4100), 4096UL);
		KUNIT_EXPECT_EQ(test, twheel_range_expiry(e, 16000, 17000), 16384UL);
		KUNIT_EXPECT_EQ(test, twheel_range_expiry(e, 1000000, 1100000), 1UL << 20);
		KUNIT_EXPECT_EQ(test, twheel_range_expiry(e, 4097, 4300), 4300UL);
	} else if (c->p->range_pick == tw_pick_edge) {
		/* level 1 (8 jiffies) from clk 1000: 1200's granule is 1200-1207 */
		KUNIT_EXPECT_EQ(test, twheel_range_expiry(e, TW_CLK + 180, TW_CLK + 203),
				TW_CLK + 199UL);
		KUNIT_EXPECT_EQ(test, twheel_range_expiry(e, TW_CLK + 201, TW_CLK + 203),
				TW_CLK + 203UL);
	} else if (c->p->range_pick == tw_pick_digits) {
		/* 4096 = 16 * 256; 2^16 = 65536 */
		KUNIT_EXPECT_EQ(test, twheel_range_expiry(e, 4000, 4500), 4352UL);
		KUNIT_EXPECT_EQ(test, twheel_range_expiry(e, 60000, 70000), 65536UL);
		KUNIT_EXPECT_EQ(test, twheel_range_expiry(e, 4097, 4300), 4300UL);
	} else if (!c->p->range_pick) {
		KUNIT_EXPECT_EQ(test, twheel_range_expiry(e, 4000, 4500), 4500UL);
	}
	prandom_seed_state(&rs, 15);
	for (i = 0; i < 20000; i++) {
		e->clk = i % 10 ? prandom_u32_state(&rs) : ULONG_MAX - (1UL << 21);
		lo = e->clk + (prandom_u32_state(&rs) >> (5 + prandom_u32_state(&rs) % 20));
		hi = lo + (prandom_u32_state(&rs) >> (12 + prandom_u32_state(&rs) % 20));
		x = twheel_range_expiry(e, lo, hi);
		want = c->p->range_pick ? c->p->range_pick(e, lo, hi) : hi;
		outside += x - lo > hi - lo;
		if (x != want && !bad++)
			KUNIT_FAIL(test, "clk %lu [%lu, %lu]: picked %lu, want %lu",
				   e->clk, lo, hi, x, want);
	}
	KUNIT_EXPECT_EQ(test, bad, 0UL);
	KUNIT_EXPECT_EQ(test, outside, 0UL);
	e->clk = TW_CLK;
}

#define TW_BURST	100000
#define TW_BUDGET	1000
/* straight and ordered (O(n) a tick, an add) take 8192 in the module */
#define TW_BURST_SMALL	8000

KUNIT_DEFINE_ACTION_WRAPPER(tw_vfree, vfree, const void *);

/* A big buffer, freed when the case ends. */
static void *tw_vzalloc(struct kunit *test, size_t size)
{
	void *p = vzalloc(size);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tw_vfree, p), 0);
	return p;
}

/*
 * One engine running the burst of n timers (budget a tick: n / budget
 * ticks run them), and what its callbacks saw.
 */
struct tw_burst {
	struct twheel_engine *e;
	struct twheel_timer *t;
	unsigned int *order;		/* timer ids in the order they ran */
	u8 *ran;			/* runs per timer */
	unsigned long n, budget;
	unsigned long now, runs, off_now, late_max, fire;
};

static void tw_burst_fn(struct twheel_timer *t, unsigned long jiffy, void *arg)
{
	struct tw_burst *b = arg;
	unsigned int i = t - b->t;

	b->order[b->runs++] = i;
	b->ran[i]++;
	/* a timer a budget held back runs in the jiffy it really runs in */
	b->off_now += jiffy != b->now;
	b->late_max = max(b->late_max, jiffy - b->fire);
}

/* The heap with an array for the whole burst (the cases' has TW_NR_RECS). */
static struct twheel_engine *tw_burst_heap(struct kunit *test, unsigned long n)
{
	struct twheel_heap *h = tw_vzalloc(test, sizeof(*h));
	struct twheel_heap_slot *slots = tw_vzalloc(test, n * sizeof(*slots));

	return twheel_heap_init(h, TW_CLK, slots, n) ? NULL : &h->e;
}

static void tw_burst_setup(struct kunit *test, struct tw_burst *b)
{
	struct tw_contract *c = test->priv;
	unsigned int i;

	b->n = TW_BURST;
	b->budget = TW_BUDGET;
	if (!strcmp(c->p->name, "straight") || !strcmp(c->p->name, "ordered")) {
		b->n = TW_BURST_SMALL;
		b->budget = TW_BURST_SMALL / (TW_BURST / TW_BUDGET);
	}
	if (!strcmp(c->p->name, "heap"))
		b->e = tw_burst_heap(test, b->n);
	else
		b->e = tw_ct_new(c->p, tw_vzalloc(test, c->p->size), TW_CLK);
	KUNIT_ASSERT_NOT_NULL(test, b->e);
	b->t = tw_vzalloc(test, b->n * sizeof(*b->t));
	b->order = tw_vzalloc(test, b->n * sizeof(*b->order));
	b->ran = tw_vzalloc(test, b->n);
	for (i = 0; i < b->n; i++) {
		twheel_timer_setup(b->e, &b->t[i], NULL);
		KUNIT_ASSERT_EQ(test, twheel_add(b->e, &b->t[i], TW_CLK + 200), 0);
	}
	b->fire = c->p->fires_at(b->e, TW_CLK + 200);
}

/*
 * 100000 timers due at one jiffy (8000 on straight and ordered, 80 units
 * a tick there), run with a budget of 1000 units a tick:
 * exactly 100 ticks run them, 1000 each, every timer once, none before its
 * jiffy, in the order the same engine runs them with no budget; the k-th
 * of those ticks is k jiffies late, and says so. An engine that re-files
 * them on the way (volt, at 1152) is charged for it in a tick of its own,
 * which stops there and runs nothing.
 */
static void contract_budget_burst(struct kunit *test)
{
	struct tw_burst free_run = {}, b = {};
	struct twheel_run run;
	unsigned long ran, ticks = 0, stopped = 0, leftover = 0, i;
	u64 cascaded;

	tw_burst_setup(test, &free_run);
	free_run.now = free_run.fire;
	twheel_run_until(free_run.e, free_run.fire, tw_burst_fn, &free_run);
	KUNIT_ASSERT_EQ(test, free_run.runs, free_run.n);

	tw_burst_setup(test, &b);
	for (b.now = TW_CLK; b.now < b.fire + 200; b.now++) {
		memset(&run, 0, sizeof(run));
		run.budget = b.budget;
		cascaded = b.e->st.cascaded;
		ran = twheel_run(b.e, b.now, tw_burst_fn, &b, &run);
		KUNIT_EXPECT_LE(test, ran, b.budget);
		KUNIT_EXPECT_EQ(test, run.used, ran + b.e->st.cascaded - cascaded);
		ticks += ran > 0;
		stopped += run.stopped && ran;
		leftover += run.leftover;
		if (ran)
			KUNIT_EXPECT_EQ(test, ran, b.budget);
	}
	/* 100 ticks of budget timers each, whatever the burst's size */
	KUNIT_EXPECT_EQ(test, b.n / b.budget, (unsigned long)TW_BURST / TW_BUDGET);
	KUNIT_EXPECT_EQ(test, ticks, b.n / b.budget);
	KUNIT_EXPECT_EQ(test, stopped, b.n / b.budget);
	KUNIT_EXPECT_EQ(test, leftover, b.n - b.budget);
	KUNIT_EXPECT_EQ(test, b.runs, b.n);
	KUNIT_EXPECT_EQ(test, b.off_now, 0UL);
	KUNIT_EXPECT_EQ(test, b.late_max, b.n / b.budget - 1);
	KUNIT_EXPECT_EQ(test, twheel_stats_pending(&b.e->st), 0UL);
	KUNIT_EXPECT_EQ(test, b.e->clk, b.fire + 200);
	for (i = 0; i < b.n; i++) {
		if (b.ran[i] != 1) {
			KUNIT_FAIL(test, "timer %lu ran %u times", i, b.ran[i]);
			break;
		}
	}
	for (i = 0; i < b.n; i++) {
		if (b.order[i] != free_run.order[i]) {
			KUNIT_FAIL(test, "run %lu: timer %u, without a budget timer %u",
				   i, b.order[i], free_run.order[i]);
			break;
		}
	}
	tw_check_invariant(test, b.e);
}

static struct kunit_case tw_contract_cases[] = {
	KUNIT_CASE_PARAM(contract_del_return_values, tw_contract_params),
	KUNIT_CASE_PARAM(contract_del_collected_before_pop, tw_contract_params),
	KUNIT_CASE_PARAM(contract_detach_moves, tw_contract_params),
	KUNIT_CASE_PARAM(contract_pop_in_collection_order, tw_contract_params),
	KUNIT_CASE_PARAM(contract_mod_refiles_far, tw_contract_params),
	KUNIT_CASE_PARAM(contract_mod_refiles_near, tw_contract_params),
	KUNIT_CASE_PARAM(contract_mod_same_expiry, tw_contract_params),
	KUNIT_CASE_PARAM(contract_callback_rearms_itself, tw_contract_params),
	KUNIT_CASE_PARAM(contract_callback_deletes_pending, tw_contract_params),
	KUNIT_CASE_PARAM(contract_callback_deletes_collected, tw_contract_params),
	KUNIT_CASE_PARAM(contract_clock_wrap, tw_contract_params),
	KUNIT_CASE_PARAM(contract_past_long_max_next_to_ahead, tw_contract_params),
	KUNIT_CASE_PARAM(contract_range_mod, tw_contract_params),
	KUNIT_CASE_PARAM(contract_range_pick, tw_contract_params),
	KUNIT_CASE_PARAM(contract_range_rule, tw_contract_params),
	KUNIT_CASE_PARAM_ATTR(contract_budget_burst, tw_contract_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	{}
};

static struct kunit_suite tw_contract_suite = {
	.name = "twheel_contract",
	.init = tw_contract_init,
	.test_cases = tw_contract_cases,
};

kunit_test_suite(tw_contract_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * twheel KUnit module: the shared harness and the engine-independent cases.
 * The suites of each engine live in their own files.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include "tw_test.h"

static void tw_rec_fire(struct twheel_timer *t)
{
	struct tw_rec *r = container_of(t, struct tw_rec, t);
	struct tw_ctx *ctx = r->ctx;

	r->fired++;
	r->fired_at = ctx->now;
	ctx->runs++;
	if (ctx->seq && ctx->seq_len < ctx->seq_max)
		ctx->seq[ctx->seq_len++] = r->id;
	if (ctx->hook)
		ctx->hook(r);
}

static void tw_kvfree_action(void *p)
{
	kvfree(p);
}

/* kvzalloc(), freed when the case ends; NULL if out of memory. */
void *tw_kvzalloc(struct kunit *test, size_t size)
{
	void *p = kvzalloc(size, GFP_KERNEL);

	if (p && kunit_add_action_or_reset(test, tw_kvfree_action, p))
		return NULL;
	return p;
}

struct tw_engines *tw_engines_new(struct kunit *test, unsigned long clk)
{
	struct tw_engines *te = kvzalloc(sizeof(*te), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, te);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, tw_kvfree_action, te));
	twheel_classic_init(&te->classic, clk);
	KUNIT_ASSERT_EQ(test, 0, twheel_modern_init(&te->modern, clk,
						    TW_MODERN_DEFAULT_DEPTH));
	twheel_reference_init(&te->reference, clk);
	return te;
}

void tw_ctx_init(struct tw_ctx *ctx, struct kunit *test, struct twheel_engine *e)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->test = test;
	ctx->e = e;
}

struct tw_rec *tw_recs_new(struct kunit *test, struct tw_ctx *ctx,
			   unsigned int n)
{
	struct tw_rec *r = kvcalloc(n, sizeof(*r), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, tw_kvfree_action, r));
	for (i = 0; i < n; i++) {
		twheel_timer_setup(ctx->e, &r[i].t, tw_rec_fire);
		r[i].ctx = ctx;
		r[i].id = i;
	}
	return r;
}

static void tw_ctx_run(struct twheel_timer *t, unsigned long jiffy, void *arg)
{
	struct tw_ctx *ctx = arg;

	ctx->now = jiffy;
	t->function(t);
}

/*
 * Runs the engine up to and including jiffy until, so that ctx->now is the
 * jiffy each callback belongs to.
 */
void tw_run_until(struct tw_ctx *ctx, unsigned long until)
{
	twheel_run_until(ctx->e, until, tw_ctx_run, ctx);
}

/* A hook that counts every run off the jiffy the test expected. */
void tw_expect_hook(struct tw_rec *r)
{
	if (r->fired_at != r->expect && !r->ctx->bad++)
		KUNIT_FAIL(r->ctx->test, "timer %u ran at %lu, expected at %lu",
			   r->id, r->fired_at, r->expect);
}

/*
 * Arms r on an exact engine for expires and notes the jiffy it must run
 * at: expires, or the clock if that is past.
 */
void tw_arm_exact(struct kunit *test, struct twheel_engine *e,
		  struct tw_rec *r, unsigned long expires)
{
	r->expect = time_before(expires, e->clk) ? e->clk : expires;
	KUNIT_ASSERT_EQ(test, twheel_add(e, &r->t, expires), 0);
}

/*
 * n fresh timers on an exact engine, timer j armed for clk + first + j,
 * in a shuffled order (7919 is prime: every j once unless n is a multiple
 * of it); ctx is set up for e, every run checked by tw_expect_hook().
 */
struct tw_rec *tw_arm_shuffled(struct kunit *test, struct tw_ctx *ctx,
			       struct twheel_engine *e, unsigned int n,
			       long first)
{
	unsigned long clk = e->clk;
	struct tw_rec *r;
	unsigned int i, j;

	tw_ctx_init(ctx, test, e);
	ctx->hook = tw_expect_hook;
	r = tw_recs_new(test, ctx, n);
	for (i = 0; i < n; i++) {
		j = (i * 7919UL) % n;
		tw_arm_exact(test, e, &r[j], clk + first + j);
	}
	return r;
}

/* How often r[i + 1] ran before r[i]: 0 if they ran in index order. */
unsigned int tw_runs_out_of_order(const struct tw_rec *r, unsigned int n)
{
	unsigned int i, back = 0;

	for (i = 1; i < n; i++)
		back += time_before(r[i].fired_at, r[i - 1].fired_at);
	return back;
}

/**
 * tw_exact_recs() - fresh timers for an exact engine, every run checked
 * @test: the case
 * @ctx: set up for @e, each run checked against its timer's expect by
 *	tw_expect_hook()
 * @e: the engine
 * @n: how many timers
 *
 * Return: the timers, set up for @e, freed with the case.
 */
struct tw_rec *tw_exact_recs(struct kunit *test, struct tw_ctx *ctx,
			     struct twheel_engine *e, unsigned int n)
{
	tw_ctx_init(ctx, test, e);
	ctx->hook = tw_expect_hook;
	return tw_recs_new(test, ctx, n);
}

/**
 * tw_deltas_from() - every delta from first on
 * @test: the case
 * @first: the first delta (negative: in the past)
 * @n: how many
 *
 * Return: @n deltas, @first, @first + 1 and so on, freed with the case.
 */
unsigned long *tw_deltas_from(struct kunit *test, long first, unsigned int n)
{
	unsigned long *deltas = tw_kvzalloc(test, n * sizeof(*deltas));
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, deltas);
	for (i = 0; i < n; i++)
		deltas[i] = first + i;
	return deltas;
}

/**
 * tw_exact_deltas() - every timer of a delta list runs at exactly its jiffy
 * @test: the case
 * @e: an empty exact engine
 * @deltas: one timer per entry, armed for @e->clk + the delta (past ones,
 *	negative as longs, run at the clock), in a shuffled order
 * @n: entries
 *
 * Runs @e up to the jiffy before the last run (not every timer has run),
 * then that jiffy: every timer ran once, at its own jiffy, and the engine
 * holds nothing.
 *
 * Return: the timers, for further checks.
 */
struct tw_rec *tw_exact_deltas(struct kunit *test, struct twheel_engine *e,
			       const unsigned long *deltas, unsigned int n)
{
	unsigned long clk = e->clk, last = clk;
	unsigned int i, j, wrong = 0;
	struct tw_ctx *ctx;
	struct tw_rec *r;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	r = tw_exact_recs(test, ctx, e, n);
	for (i = 0; i < n; i++) {
		j = (i * 7919UL) % n;
		tw_arm_exact(test, e, &r[j], clk + deltas[j]);
		if (time_after(r[j].expect, last))
			last = r[j].expect;
	}
	tw_run_until(ctx, last - 1);
	KUNIT_EXPECT_LT(test, ctx->runs, (unsigned long)n);
	tw_run_until(ctx, last);
	for (i = 0; i < n; i++)
		wrong += r[i].fired != 1;
	KUNIT_EXPECT_EQ(test, wrong, 0U);
	KUNIT_EXPECT_EQ(test, ctx->runs, (unsigned long)n);
	KUNIT_EXPECT_EQ(test, ctx->bad, 0UL);
	KUNIT_EXPECT_EQ(test, twheel_count(e, NULL), 0UL);
	tw_check_invariant(test, e);
	return r;
}

void tw_check_invariant(struct kunit *test, const struct twheel_engine *e)
{
	const struct twheel_stats *st = &e->st;

	KUNIT_EXPECT_EQ(test, st->added, st->expired + st->deleted + st->pending);
	/* what the engine really holds, counted timer by timer */
	KUNIT_EXPECT_EQ(test, twheel_count(e, NULL), st->pending);
}

/*
 * The deltas at which a hashed wheel of nr_slots slots files differently,
 * by i: -3..-1, then every delta over six turns, then k turns - 1, k and
 * k + 1 for k from 7 on.
 */
long tw_turns_delta(unsigned int i, unsigned int nr_slots)
{
	unsigned int every = 6 * nr_slots + 2, k;

	if (i < 3)
		return (long)i - 3;
	if (i < 3 + every)
		return i - 3;
	i -= 3 + every;
	k = 7 + i / 3;
	return (long)k * nr_slots + (long)(i % 3) - 1;
}

/* ctx set up for e, every run checked by tw_expect_hook(); n fresh timers. */
struct tw_rec *tw_recs_expecting(struct kunit *test, struct tw_ctx *ctx,
				 struct twheel_engine *e, unsigned int n)
{
	tw_ctx_init(ctx, test, e);
	ctx->hook = tw_expect_hook;
	return tw_recs_new(test, ctx, n);
}

/* A delta mix: mostly near, some far, a few in the past. */
unsigned long tw_rand_delta(struct rnd_state *rs)
{
	u32 r = prandom_u32_state(rs);

	switch (r % 16) {
	case 0:
		return -(unsigned long)(r >> 24);
	case 1 ... 8:
		return (r >> 8) % 300;
	case 9 ... 12:
		return (r >> 8) % 20000;
	case 13 ... 14:
		return (r >> 8) % (1U << 22);
	default:
		return (r >> 4) % (1U << 27);
	}
}

static void tw_timer_size(struct kunit *test)
{
	/* The kernel's struct timer_list is 40 bytes on 64-bit. */
	if (IS_ENABLED(CONFIG_64BIT))
		KUNIT_EXPECT_LE(test, sizeof(struct twheel_timer), (size_t)40);
	KUNIT_EXPECT_EQ(test, sizeof(((struct twheel_timer *)NULL)->node),
			sizeof(struct rb_node));
}

static struct kunit_case tw_generic_cases[] = {
	KUNIT_CASE(tw_timer_size),
	{}
};

static struct kunit_suite tw_generic_suite = {
	.name = "twheel_generic",
	.test_cases = tw_generic_cases,
};

kunit_test_suite(tw_generic_suite);

MODULE_DESCRIPTION("KUnit tests for twheel");
MODULE_LICENSE("GPL");

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared test harness: recording timers and a driver loop that runs an
 * engine event by event, so every callback knows the jiffy it ran at.
 */
#ifndef TW_TEST_H
#define TW_TEST_H

#include <kunit/test.h>
#include <linux/prandom.h>
#include "engines/registry.h"
#include "engines/reference.h"

struct tw_ctx;

struct tw_rec {
	struct twheel_timer t;
	struct tw_ctx *ctx;
	unsigned int id;
	unsigned int fired;		/* how many times the callback ran */
	unsigned long fired_at;		/* jiffy of the last run */
	unsigned long expect;		/* jiffy a test expects it to run */
	unsigned long slack;		/* lateness a test allows */
};

struct tw_ctx {
	struct kunit *test;
	struct twheel_engine *e;
	unsigned long now;		/* the jiffy whose timers are running */
	void (*hook)(struct tw_rec *r);	/* extra behaviour of a test */
	unsigned int *seq;		/* ids in the order they ran, if set */
	unsigned int seq_len, seq_max;
	unsigned long runs;
	unsigned long bad;		/* runs off their expected jiffy */
};

/* The first engine kinds in one allocation. */
struct tw_engines {
	struct twheel_classic classic;
	struct twheel_modern modern;
	struct twheel_reference reference;
	struct twheel_classic_bounded classic_bounded;
};

void *tw_kvzalloc(struct kunit *test, size_t size);
struct tw_engines *tw_engines_new(struct kunit *test, unsigned long clk);
struct tw_rec *tw_recs_new(struct kunit *test, struct tw_ctx *ctx,
			   unsigned int n);
void tw_ctx_init(struct tw_ctx *ctx, struct kunit *test,
		 struct twheel_engine *e);
struct tw_rec *tw_seq_recs(struct kunit *test, struct tw_ctx *ctx,
			   struct twheel_engine *e, unsigned int *seq,
			   unsigned int max, unsigned int n);
void tw_run_until(struct tw_ctx *ctx, unsigned long until);
void tw_expect_hook(struct tw_rec *r);
void tw_arm_exact(struct kunit *test, struct twheel_engine *e,
		  struct tw_rec *r, unsigned long expires);
struct tw_rec *tw_arm_shuffled(struct kunit *test, struct tw_ctx *ctx,
			       struct twheel_engine *e, unsigned int n,
			       long first);
struct tw_rec *tw_exact_recs(struct kunit *test, struct tw_ctx *ctx,
			     struct twheel_engine *e, unsigned int n);
unsigned long *tw_deltas_from(struct kunit *test, long first, unsigned int n);
struct tw_rec *tw_exact_deltas(struct kunit *test, struct twheel_engine *e,
			       const unsigned long *deltas, unsigned int n);
unsigned int tw_runs_out_of_order(const struct tw_rec *r, unsigned int n);
void tw_check_invariant(struct kunit *test, const struct twheel_engine *e);
unsigned long tw_rand_delta(struct rnd_state *rs);
long tw_turns_delta(unsigned int i, unsigned int nr_slots);
struct tw_rec *tw_recs_expecting(struct kunit *test, struct tw_ctx *ctx,
				 struct twheel_engine *e, unsigned int n);
void tw_exact_every_delta(struct kunit *test, struct twheel_engine *e,
			  unsigned long n);
void tw_exact_catch_up(struct kunit *test, struct twheel_engine *e);
void tw_exact_differential(struct kunit *test, struct twheel_engine *e,
			   struct twheel_engine *ref);

/* Timers in the buckets of level lvl, counted one by one (twheel_count()). */
static inline unsigned long tw_in_level(const struct twheel_engine *e,
					unsigned int lvl)
{
	unsigned long per[TWHEEL_MAX_LEVELS];

	twheel_count(e, per);
	return per[lvl];
}

#endif /* TW_TEST_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's model of the simple engine (fuzz_lib.h): its MaxInterval from
 * the input; it refuses a delta of MaxInterval or more (-ERANGE), and
 * picks the last jiffy below it for a range that reaches beyond; each
 * timer in the slot of its jiffy, rounds 0.
 */
#include "../fuzz_lib.h"
#include "engines/simple.h"

static void fz_simple_config(struct fz_ctx *ctx, struct twheel_config *cfg)
{
	cfg->max_interval = fz_nr_slots(ctx);
}

/* Its MaxInterval less one: its slots' mask. */
static unsigned long fz_simple_mask(const struct fz_engine *fe)
{
	return container_of(fe->e, struct twheel_hash, e)->mask;
}

/* A delta from its clock of MaxInterval or more is refused. */
static bool fz_simple_refused(const struct fz_engine *fe, unsigned long expires)
{
	unsigned long delta = expires - fe->e->clk;

	return (long)delta >= 0 && delta > fz_simple_mask(fe);
}

static bool fz_simple_refuses(const struct fz_engine *fe, unsigned int i,
			      unsigned long expires)
{
	return fz_simple_refused(fe, expires);
}

/* hi, or the last jiffy below MaxInterval if hi is refused. */
static void fz_simple_pick(struct fz_engine *fe, unsigned long lo,
			   unsigned long hi, unsigned long x)
{
	unsigned long m = fe->e->clk + fz_simple_mask(fe);

	FZ_CHECK(fe, x == (fz_simple_refused(fe, hi) && m - lo <= hi - lo ? m : hi),
		 "simple pick %lu for [%lu, %lu]", x, lo, hi);
}

static bool fz_simple_collected(const struct fz_engine *fe,
				const struct twheel_timer *t)
{
	return t->rounds == TW_HASH_COLLECTED;
}

static void fz_check_simple(struct fz_engine *fe, unsigned long armed,
			    unsigned long due)
{
	const struct twheel_hash *h = fz_engine_of(fe, struct twheel_hash, e);

	fz_check_slots(fe, armed, due, h->slots, h->map, h->mask, 0, &h->collected);
}

const struct fz_model fz_model_simple = {
	.config		= fz_simple_config,
	.refuses	= fz_simple_refuses,
	.refuse_err	= -ERANGE,
	.pick		= fz_simple_pick,
	.collected	= fz_simple_collected,
	.check		= fz_check_simple,
	.next_exact	= true,
};

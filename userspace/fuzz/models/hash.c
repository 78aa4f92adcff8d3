// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's model of the hash engine (fuzz_lib.h): its slots from the
 * input, each timer in the slot of its jiffy with the rounds that bring it
 * there; advances kept below 2^16 jiffies (it visits each non-empty slot
 * once a turn however far its timers are, as Netty's wheel ticks through
 * idle time, or a run would take minutes); next_event may stop early at a
 * slot whose timers only wait a round.
 */
#include "../fuzz_lib.h"
#include "engines/hash.h"

static void fz_hash_config(struct fz_ctx *ctx, struct twheel_config *cfg)
{
	cfg->slots = fz_nr_slots(ctx);
}

static bool fz_hash_collected(const struct fz_engine *fe,
			      const struct twheel_timer *t)
{
	return t->rounds == TW_HASH_COLLECTED;
}

static void fz_check_hash(struct fz_engine *fe, unsigned long armed,
			  unsigned long due)
{
	const struct twheel_hash *h = fz_engine_of(fe, struct twheel_hash, e);

	fz_check_slots(fe, armed, due, h->slots, h->map, h->mask, h->bits,
		       &h->collected);
}

const struct fz_model fz_model_hash = {
	.config		= fz_hash_config,
	.collected	= fz_hash_collected,
	.check		= fz_check_hash,
	.step_mask	= 0xffffUL,
};

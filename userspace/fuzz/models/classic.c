// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's model of the classic wheel (fuzz_lib.h): tv1's 256 slots and
 * tv2..tv5's 64, each slot's list and bit, the levels' counts, the
 * collected list; its range pick at the cascade points; next_event may
 * stop early for a cascade.
 */
#include "../fuzz_lib.h"
#include "engines/classic.h"

static bool fz_classic_collected(const struct fz_engine *fe,
				 const struct twheel_timer *t)
{
	const struct list_head *p, *head =
		&fz_engine_of(fe, struct twheel_classic, e)->collected;

	for (p = head->next; p != head; p = p->next)
		if (p == &t->list)
			return true;
	return false;
}

static void fz_check_classic(struct fz_engine *fe, unsigned long armed,
			     unsigned long due)
{
	struct twheel_classic *c = fz_engine_of(fe, struct twheel_classic, e);
	unsigned long lvl[TWHEEL_MAX_LEVELS] = { 0 }, n;
	unsigned int b;

	for (b = 0; b < TW_CLASSIC_BUCKETS; b++) {
		n = fz_walk_list(fe, &c->vec[b], b);
		FZ_CHECK(fe, test_bit(b, c->pending_map) == !!n,
			 "bucket %u: bit %d, %lu timers", b,
			 test_bit(b, c->pending_map), n);
		lvl[b < TW_TVR_SIZE ? 0 : 1 + (b - TW_TVR_SIZE) / TW_TVN_SIZE] += n;
	}
	fz_check_levels(fe, lvl, &c->collected, due);
}

/* The latest multiple of 2^26, 2^20, 2^14 or 2^8 the range crosses. */
static void fz_classic_pick(struct fz_engine *fe, unsigned long lo,
			    unsigned long hi, unsigned long x)
{
	fz_pick_levels(fe, lo, hi, x, 6, 26);
}

const struct fz_model fz_model_classic = {
	.pick		= fz_classic_pick,
	.collected	= fz_classic_collected,
	.check		= fz_check_classic,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's model of ratas (seed 002's wheel, fuzz_lib.h): every slot's
 * hlist well linked, each timer in it armed and in the slot its next
 * processing point makes exact; the range pick at its levels' powers of
 * 256; next_event may stop early for a promotion.
 */
#include "../fuzz_lib.h"
#include "engines/ratas.h"

static bool fz_ratas_collected(const struct fz_engine *fe,
			       const struct twheel_timer *t)
{
	return t->bucket == TWHEEL_COLLECTED;
}

/*
 * The slots, the levels as twheel_count() counts them, the collected list
 * as the model's.
 */
static void fz_check_ratas(struct fz_engine *fe, unsigned long armed,
			   unsigned long due)
{
	struct twheel_ratas *ratas = fz_engine_of(fe, struct twheel_ratas, e);
	unsigned long lvl[TWHEEL_MAX_LEVELS] = { 0 }, per[TWHEEL_MAX_LEVELS], n;
	const struct twheel_timer *t;
	struct hlist_node **tail;
	unsigned int b, l, i;

	for (b = 0; b < TW_RATAS_BUCKETS; b++) {
		l = b / TW_RATAS_SIZE;
		lvl[l] += fz_walk_hlist(fe, &ratas->slots[b], b, &tail);
		hlist_for_each_entry(t, &ratas->slots[b], entry) {
			i = fz_index(fe, t);
			FZ_CHECK(fe, fe->s[i].state == FZ_ARMED,
				 "timer %u in slot %u in state %d", i, b,
				 fe->s[i].state);
			fz_check_point(fe, i, fe->s[i].fire, l * TW_RATAS_BITS,
				       TW_RATAS_BITS, b % TW_RATAS_SIZE);
		}
	}
	twheel_count(fe->e, per);
	for (l = 0; l < TWHEEL_MAX_LEVELS; l++)
		FZ_CHECK(fe, lvl[l] == per[l],
			 "level %u: %lu timers, twheel_count says %lu", l,
			 lvl[l], per[l]);
	n = fz_walk_list(fe, &ratas->collected, TWHEEL_COLLECTED);
	FZ_CHECK(fe, n == due, "%lu collected, want %lu", n, due);
	list_for_each_entry(t, &ratas->collected, list)
		FZ_CHECK(fe, t->bucket == TWHEEL_COLLECTED,
			 "collected timer %u says bucket %u", fz_index(fe, t),
			 t->bucket);
}

/* The latest multiple of 2^56, 2^48, ... or 2^8 the range crosses. */
static void fz_ratas_pick(struct fz_engine *fe, unsigned long lo,
			  unsigned long hi, unsigned long x)
{
	fz_pick_levels(fe, lo, hi, x, 8, 56);
}

const struct fz_model fz_model_ratas = {
	.pick		= fz_ratas_pick,
	.collected	= fz_ratas_collected,
	.check		= fz_check_ratas,
};

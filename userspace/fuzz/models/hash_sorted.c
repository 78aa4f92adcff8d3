// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's model of hash_sorted (fuzz_lib.h): its slots from the input,
 * each timer in the slot of its jiffy, every slot sorted by expiry;
 * advances kept below 2^16 jiffies, as the hash engine's; next_event may
 * stop early at a slot whose timers only wait a round.
 */
#include "../fuzz_lib.h"
#include "engines/hash_sorted.h"

static void fz_sorted_config(struct fz_ctx *ctx, struct twheel_config *cfg)
{
	cfg->slots = fz_nr_slots(ctx);
}

static bool fz_sorted_collected(const struct fz_engine *fe,
				const struct twheel_timer *t)
{
	return t->rounds == TW_HASH_COLLECTED;
}

/*
 * Each timer in the slot of the jiffy the model says it runs at (its
 * expiry, or the clock if armed in the past), every slot sorted by expiry,
 * the bitmap as the slots are.
 */
static void fz_check_sorted(struct fz_engine *fe, unsigned long armed,
			    unsigned long due)
{
	const struct twheel_hash *h = fz_engine_of(fe, struct twheel_hash, e);
	const struct twheel_timer *t, *prev;
	unsigned long b, n, in_slots = 0;
	const struct list_head *p;
	unsigned int i;

	for (b = 0; b <= h->mask; b++) {
		n = 0;
		prev = NULL;
		for (p = h->slots[b].next; p != &h->slots[b]; p = p->next) {
			FZ_CHECK(fe, p->next->prev == p, "slot %lu: bad link", b);
			t = container_of(p, struct twheel_timer, hash_link);
			i = fz_index(fe, t);
			FZ_CHECK(fe, i < FZ_POOL && ++n <= FZ_POOL,
				 "slot %lu: stray entry %p", b, p);
			FZ_CHECK(fe, fe->s[i].state == FZ_ARMED &&
				 (fe->s[i].fire & h->mask) == b && !t->rounds,
				 "timer %u (state %d, fire %lu) in slot %lu, rounds %lu",
				 i, fe->s[i].state, fe->s[i].fire, b, t->rounds);
			FZ_CHECK(fe, !prev || !time_before(t->expires, prev->expires),
				 "slot %lu: %lu after %lu", b, t->expires,
				 prev->expires);
			prev = t;
		}
		FZ_CHECK(fe, test_bit(b, h->map) == !!n, "slot %lu: bit %d, %lu timers",
			 b, test_bit(b, h->map), n);
		in_slots += n;
	}
	FZ_CHECK(fe, in_slots == armed && fz_level0(fe) == armed,
		 "%lu timers in slots, in level 0 %lu, want %lu", in_slots,
		 fz_level0(fe), armed);
	FZ_CHECK(fe, fz_walk_collected(fe, &h->collected,
				       offsetof(struct twheel_timer, hash_link)) == due,
		 "collected list is not %lu long", due);
}

const struct fz_model fz_model_hash_sorted = {
	.config		= fz_sorted_config,
	.collected	= fz_sorted_collected,
	.check		= fz_check_sorted,
	.step_mask	= 0xffffUL,
};

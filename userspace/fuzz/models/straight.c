// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's model of the straight engine (V&L scheme 1, fuzz_lib.h): every
 * timer in its list, due (the list's base + its ticks left) at the
 * model's jiffy.
 */
#include "../fuzz_lib.h"
#include "engines/hash.h"
#include "engines/straight.h"

static bool fz_straight_collected(const struct fz_engine *fe,
				  const struct twheel_timer *t)
{
	return t->rounds == TW_HASH_COLLECTED;
}

static void fz_check_straight(struct fz_engine *fe, unsigned long armed,
			      unsigned long due)
{
	const struct twheel_straight *st = fz_engine_of(fe, struct twheel_straight, e);
	const struct twheel_timer *t;
	const struct list_head *p;
	unsigned long n = 0;
	unsigned int i;

	for (p = st->list.next; p != &st->list; p = p->next) {
		FZ_CHECK(fe, p->next->prev == p, "list: bad link");
		t = container_of(p, struct twheel_timer, hash_link);
		i = fz_index(fe, t);
		FZ_CHECK(fe, i < FZ_POOL && ++n <= FZ_POOL, "list: stray entry %p", p);
		FZ_CHECK(fe, fe->s[i].state == FZ_ARMED, "timer %u in state %d in the list",
			 i, fe->s[i].state);
		FZ_CHECK(fe, st->base + t->rounds == fe->s[i].fire &&
			 !time_after(st->base, fe->e->clk),
			 "timer %u: base %lu + %lu ticks, model fire %lu",
			 i, st->base, t->rounds, fe->s[i].fire);
	}
	fz_check_list_counts(fe, n, armed, &st->collected, due);
}

const struct fz_model fz_model_straight = {
	.collected	= fz_straight_collected,
	.check		= fz_check_straight,
	.next_exact	= true,
};

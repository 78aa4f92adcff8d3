// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's model of the ordered engine (V&L scheme 2, fuzz_lib.h): its
 * list sorted by expiry, every timer in it armed.
 */
#include "../fuzz_lib.h"
#include "engines/hash.h"
#include "engines/ordered.h"

static bool fz_ordered_collected(const struct fz_engine *fe,
				 const struct twheel_timer *t)
{
	return t->rounds == TW_HASH_COLLECTED;
}

static void fz_check_ordered(struct fz_engine *fe, unsigned long armed,
			     unsigned long due)
{
	const struct twheel_ordered *ord = fz_engine_of(fe, struct twheel_ordered, e);
	const struct twheel_timer *t, *prev = NULL;
	const struct list_head *p;
	unsigned long n = 0;
	unsigned int i;

	for (p = ord->list.next; p != &ord->list; p = p->next) {
		FZ_CHECK(fe, p->next->prev == p, "list: bad link");
		t = container_of(p, struct twheel_timer, hash_link);
		i = fz_index(fe, t);
		FZ_CHECK(fe, i < FZ_POOL && ++n <= FZ_POOL, "list: stray entry %p", p);
		FZ_CHECK(fe, fe->s[i].state == FZ_ARMED, "timer %u in state %d in the list",
			 i, fe->s[i].state);
		FZ_CHECK(fe, !prev || !time_before(t->expires, prev->expires),
			 "list: %lu after %lu", t->expires, prev->expires);
		prev = t;
	}
	fz_check_list_counts(fe, n, armed, &ord->collected, due);
}

const struct fz_model fz_model_ordered = {
	.collected	= fz_ordered_collected,
	.check		= fz_check_ordered,
	.next_exact	= true,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's model of the heap (fuzz_lib.h): an array room for the pool,
 * each slot's timer pointing back at it, no child before its parent.
 */
#include "../fuzz_lib.h"
#include "engines/heap.h"

/* Room for every timer of the pool from the start. */
static void fz_heap_config(struct fz_ctx *ctx, struct twheel_config *cfg)
{
	cfg->cap = FZ_POOL;
}

static bool fz_heap_collected(const struct fz_engine *fe,
			      const struct twheel_timer *t)
{
	return t->heap_idx == TW_HEAP_COLLECTED;
}

/*
 * Each slot's timer points back at it and has its expiry, no child is
 * before its parent.
 */
static void fz_check_heap(struct fz_engine *fe, unsigned long armed,
			  unsigned long due)
{
	const struct twheel_heap *h = fz_engine_of(fe, struct twheel_heap, e);
	const struct twheel_heap_slot *s;
	unsigned long key;
	unsigned int i;

	FZ_CHECK(fe, h->nr == armed && h->nr <= h->cap &&
		 fz_level0(fe) == armed,
		 "heap holds %u (cap %u, in level 0 %lu), want %lu", h->nr,
		 h->cap, fz_level0(fe), armed);
	for (i = 0; i < h->nr; i++) {
		s = &h->slots[i];
		FZ_CHECK(fe, fz_index(fe, s->t) < FZ_POOL, "slot %u: stray %p",
			 i, s->t);
		/* the key: the expiry, the clock if that is past */
		key = time_before(s->t->expires, fe->e->clk) ? fe->e->clk : s->t->expires;
		FZ_CHECK(fe, s->t->heap_idx == i && s->expires == key,
			 "slot %u: timer %u says index %u, expires %lu (slot %lu)",
			 i, fz_index(fe, s->t), s->t->heap_idx, s->t->expires,
			 s->expires);
		FZ_CHECK(fe, !i || !time_before(s->expires,
						h->slots[(i - 1) / TW_HEAP_ARITY].expires),
			 "slot %u (%lu) before its parent (%lu)", i, s->expires,
			 h->slots[(i - 1) / TW_HEAP_ARITY].expires);
	}
	FZ_CHECK(fe, fz_walk_collected(fe, &h->collected,
				       offsetof(struct twheel_timer, due)) == due,
		 "heap: collected list is not %lu long", due);
}

const struct fz_model fz_model_heap = {
	.config		= fz_heap_config,
	.collected	= fz_heap_collected,
	.check		= fz_check_heap,
	.next_exact	= true,
};

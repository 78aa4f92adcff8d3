// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's model of the reference engine (fuzz_lib.h), the oracle every
 * target runs beside its engine: its two trees hold what is armed, in
 * order of expiry, and what is due, in order of collection.
 */
#include "../fuzz_lib.h"
#include "engines/reference.h"

/* Collected: not in the armed tree. */
static bool fz_ref_collected(const struct fz_engine *fe,
			     const struct twheel_timer *t)
{
	const struct rb_node *top = &t->node;

	while (rb_parent(top))
		top = rb_parent(top);
	return top != fz_engine_of(fe, struct twheel_reference, e)->armed.rb_root.rb_node;
}

/*
 * Counts the armed tree in order; keys (expiries, taken against the
 * clock) must never go down.
 */
static unsigned long fz_walk_armed(struct fz_engine *fe,
				   const struct rb_root_cached *root)
{
	const struct twheel_timer *t, *prev = NULL;
	struct rb_node *p;
	unsigned long n = 0;

	FZ_CHECK(fe, rb_first_cached(root) == rb_first(&root->rb_root),
		 "leftmost is stale");
	for (p = rb_first(&root->rb_root); p; p = rb_next(p)) {
		t = rb_entry(p, struct twheel_timer, node);
		FZ_CHECK(fe, fz_index(fe, t) < FZ_POOL && ++n <= FZ_POOL,
			 "stray node %p", p);
		FZ_CHECK(fe, !prev || (long)(t->expires - fe->e->clk) >=
				      (long)(prev->expires - fe->e->clk),
			 "timer %u (%lu) after timer %u (%lu) in the tree",
			 fz_index(fe, t), t->expires, fz_index(fe, prev),
			 prev->expires);
		prev = t;
	}
	return n;
}

/*
 * Counts the due tree, a queue: in the order the timers were collected,
 * the jiffy they fell due at (the model's) never going down, and within a
 * jiffy their expiries never going down (taken against that jiffy: all
 * are at or before it).
 */
static unsigned long fz_walk_due(struct fz_engine *fe,
				 const struct rb_root_cached *root)
{
	const struct twheel_timer *t, *prev = NULL;
	unsigned long n = 0, at, prev_at = 0;
	struct rb_node *p;

	FZ_CHECK(fe, rb_first_cached(root) == rb_first(&root->rb_root),
		 "leftmost is stale");
	for (p = rb_first(&root->rb_root); p; p = rb_next(p)) {
		t = rb_entry(p, struct twheel_timer, node);
		FZ_CHECK(fe, fz_index(fe, t) < FZ_POOL && ++n <= FZ_POOL,
			 "stray node %p", p);
		at = fe->s[fz_index(fe, t)].fire;
		FZ_CHECK(fe, !prev || time_after(at, prev_at) ||
			 (at == prev_at &&
			  (long)(t->expires - at) >= (long)(prev->expires - at)),
			 "timer %u (due %lu, expires %lu) after timer %u (due %lu, expires %lu)",
			 fz_index(fe, t), at, t->expires, fz_index(fe, prev),
			 prev_at, prev->expires);
		prev = t;
		prev_at = at;
	}
	return n;
}

/* Its two trees hold what is armed and what is due. */
static void fz_check_reference(struct fz_engine *fe, unsigned long armed,
			       unsigned long due)
{
	const struct twheel_reference *r = fz_engine_of(fe, struct twheel_reference, e);
	unsigned long n;

	n = fz_walk_armed(fe, &r->armed);
	FZ_CHECK(fe, n == armed, "%lu in the armed tree, want %lu", n, armed);
	n = fz_walk_due(fe, &r->due);
	FZ_CHECK(fe, n == due, "%lu in the due tree, want %lu", n, due);
}

const struct fz_model fz_model_reference = {
	.collected	= fz_ref_collected,
	.check		= fz_check_reference,
	.next_exact	= true,
};

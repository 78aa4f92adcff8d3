// SPDX-License-Identifier: GPL-2.0
/*
 * The reference engine: two rbtrees ordered by expiry, exact and simple;
 * what the wheels are checked against. See struct twheel_reference.
 */
#include <linux/kernel.h>
#include <linux/bitmap.h>
#include <linux/jiffies.h>
#include <linux/export.h>
#include <linux/errno.h>
#include "engines/common.h"
#include <linux/rbtree.h>

static struct twheel_reference *to_ref(const struct twheel_engine *e)
{
	return container_of(e, struct twheel_reference, e);
}

static bool tw_ref_less(struct rb_node *a, const struct rb_node *b)
{
	/* Ties go right, so equal expiries keep their insertion order. */
	return time_before(rb_entry(a, struct twheel_timer, node)->expires,
			   rb_entry(b, struct twheel_timer, node)->expires);
}

/*
 * The due tree is a queue: a timer collected goes after every one already
 * there, so they are handed out in the order they were collected.
 */
static bool tw_ref_after_all(struct rb_node *a, const struct rb_node *b)
{
	return false;
}

static void tw_ref_setup(struct twheel_timer *t)
{
	RB_CLEAR_NODE(&t->node);
}

static bool tw_ref_pending(const struct twheel_timer *t)
{
	return !RB_EMPTY_NODE(&t->node);
}

static unsigned int tw_ref_bucket_of(const struct twheel_engine *e,
				     unsigned long expires)
{
	return TWHEEL_NO_BUCKET;
}

static bool tw_ref_in_bucket(const struct twheel_engine *e,
			     const struct twheel_timer *t, unsigned int idx)
{
	return false;
}

static void tw_ref_enqueue(struct twheel_engine *e, struct twheel_timer *t)
{
	rb_add_cached(&t->node, &to_ref(e)->armed, tw_ref_less);
}

static void tw_ref_dequeue(struct twheel_engine *e, struct twheel_timer *t)
{
	struct twheel_reference *r = to_ref(e);
	struct rb_node *top = &t->node;

	while (rb_parent(top))
		top = rb_parent(top);
	if (top == r->armed.rb_root.rb_node)
		rb_erase_cached(&t->node, &r->armed);
	else
		rb_erase_cached(&t->node, &r->due);
	RB_CLEAR_NODE(&t->node);
}

static bool tw_ref_process(struct twheel_engine *e)
{
	struct twheel_reference *r = to_ref(e);
	bool collected = false;
	struct twheel_timer *t;
	struct rb_node *n;

	while ((n = rb_first_cached(&r->armed))) {
		t = rb_entry(n, struct twheel_timer, node);
		/* Due: at or before clk (timers armed in the past fire now). */
		if (time_after(t->expires, e->clk))
			break;
		rb_erase_cached(n, &r->armed);
		/*
		 * Last in the due tree: behind those collected at earlier
		 * jiffies, even if they expire later (this one was armed in
		 * the past), and behind those collected before it here.
		 */
		rb_add_cached(n, &r->due, tw_ref_after_all);
		collected = true;
	}
	return collected;
}

static unsigned long tw_ref_next_event(const struct twheel_engine *e,
				       unsigned long limit)
{
	struct rb_node *n = rb_first_cached(&to_ref(e)->armed);
	unsigned long d;

	if (!n)
		return limit;
	d = rb_entry(n, struct twheel_timer, node)->expires - e->clk;
	if ((long)d < 0)
		return 0;
	return min(d, limit);
}

static struct twheel_timer *tw_ref_pop(struct twheel_engine *e)
{
	struct twheel_reference *r = to_ref(e);
	struct rb_node *n = rb_first_cached(&r->due);

	if (!n)
		return NULL;
	rb_erase_cached(n, &r->due);
	RB_CLEAR_NODE(n);
	return rb_entry(n, struct twheel_timer, node);
}

static unsigned long tw_ref_count(const struct twheel_engine *e,
				  unsigned long *per_level)
{
	const struct twheel_reference *r = to_ref(e);
	const struct rb_node *rb;
	unsigned long n = 0;

	for (rb = rb_first_cached(&r->armed); rb; rb = rb_next(rb))
		per_level[0]++;
	for (rb = rb_first_cached(&r->due); rb; rb = rb_next(rb))
		n++;
	return n;
}

/* The reference's ops: struct twheel_reference, twheel_reference_init(). */
const struct twheel_ops twheel_reference_ops = {
	.name		= "reference",
	.kind		= TWHEEL_REFERENCE,
	.setup		= tw_ref_setup,
	.pending	= tw_ref_pending,
	.enqueue	= tw_ref_enqueue,
	.dequeue	= tw_ref_dequeue,
	.bucket_of	= tw_ref_bucket_of,
	.in_bucket	= tw_ref_in_bucket,
	.process	= tw_ref_process,
	.next_event	= tw_ref_next_event,
	.pop		= tw_ref_pop,
	.count		= tw_ref_count,
};
EXPORT_SYMBOL_GPL(twheel_reference_ops);

/**
 * twheel_reference_init() - set up an empty reference engine
 * @r: the engine; the caller's storage
 * @clk: the first jiffy it is to process
 *
 * Both trees start empty, every counter of @r->e.st at 0, @r->e.clock_ns
 * NULL and @r->e.cascade_ns 0 (the reference never cascades). Its one
 * "level" is level 0. Nothing is allocated.
 */
void twheel_reference_init(struct twheel_reference *r, unsigned long clk)
{
	tw_engine_init(&r->e, &twheel_reference_ops, clk, 1);
	r->armed = RB_ROOT_CACHED;
	r->due = RB_ROOT_CACHED;
}
EXPORT_SYMBOL_GPL(twheel_reference_init);

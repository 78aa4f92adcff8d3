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
#include "engines/reference.h"
#include <linux/rbtree.h>

static struct twheel_reference *to_ref(const struct twheel_engine *e)
{
	return container_of(e, struct twheel_reference, e);
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

/* Signed jiffies from the clock to t's expiry: negative if it is past. */
static long tw_ref_ahead(const struct twheel_engine *e,
			 const struct rb_node *n)
{
	return rb_entry(n, struct twheel_timer, node)->expires - e->clk;
}

/*
 * Files t in the armed tree by its expiry taken against the clock, ties
 * to the right (equal expiries keep their insertion order). Against the
 * clock, any two expiries are ordered, even more than LONG_MAX apart (one
 * far in the past, one ahead), where time_before() between them is not an
 * order. The order stays as the clock moves: whatever is at or before it
 * is collected before it moves on, so every timer left is 0 to LONG_MAX
 * jiffies ahead.
 */
static void tw_ref_enqueue(struct twheel_engine *e, struct twheel_timer *t)
{
	struct rb_root_cached *armed = &to_ref(e)->armed;
	struct rb_node **link = &armed->rb_root.rb_node, *parent = NULL;
	long ahead = t->expires - e->clk;
	bool leftmost = true;

	while (*link) {
		parent = *link;
		if (ahead < tw_ref_ahead(e, parent)) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			leftmost = false;
		}
	}
	rb_link_node(&t->node, parent, link);
	rb_insert_color_cached(&t->node, armed, leftmost);
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

/* twheel_ops.init */
static int tw_reference_create(void *state, unsigned long clk,
			       const struct twheel_config *cfg, void *storage)
{
	twheel_reference_init(state, clk);
	return 0;
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
	.guarantee	= "exact",
	.size		= sizeof(struct twheel_reference),
	.offset		= offsetof(struct twheel_reference, e),
	.init		= tw_reference_create,
	.entry		= TWHEEL_GENERIC_ENTRY,
	.sparse		= true,
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

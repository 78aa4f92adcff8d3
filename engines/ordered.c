// SPDX-License-Identifier: GPL-2.0
/*
 * The ordered engine: Varghese & Lauck's scheme 2, one list sorted by
 * expiry whose head is looked at each jiffy. See struct twheel_ordered and
 * engines/ordered.h for its guarantee and costs.
 */
#include <linux/kernel.h>
#include <linux/jiffies.h>
#include <linux/export.h>
#include "engines/common.h"
#include "engines/ordered.h"

static struct twheel_ordered *to_ordered(const struct twheel_engine *e)
{
	return container_of(e, struct twheel_ordered, e);
}

static unsigned int tw_ordered_bucket_of(const struct twheel_engine *e,
					 unsigned long expires)
{
	return TWHEEL_NO_BUCKET;
}

/* A past expiry sorts first: it runs at the clock. */
static void tw_ordered_enqueue(struct twheel_engine *e, struct twheel_timer *t)
{
	t->rounds = 0;
	tw_sorted_insert(&to_ordered(e)->list, t);
}

static void tw_ordered_dequeue(struct twheel_engine *e, struct twheel_timer *t)
{
	list_del(&t->hash_link);
	t->hash_link.next = NULL;
}

/* Collects the head while it is due. */
static void tw_ordered_scan(struct twheel_engine *e)
{
	struct twheel_ordered *o = to_ordered(e);
	struct twheel_timer *t;

	while ((t = list_first_entry_or_null(&o->list, struct twheel_timer,
					     hash_link))) {
		if (time_after(t->expires, e->clk))
			break;
		tw_slots_collect(e, &o->collected, t);
	}
}

/* The jiffy at the clock; true if it collected a timer (the list grew). */
static bool tw_ordered_process(struct twheel_engine *e)
{
	const struct list_head *tail = to_ordered(e)->collected.prev;

	tw_ordered_scan(e);
	return to_ordered(e)->collected.prev != tail;
}

static unsigned long tw_ordered_count(const struct twheel_engine *e,
				      unsigned long *per_level)
{
	const struct twheel_ordered *h = to_ordered(e);

	return tw_lists_count(&h->list, 1, &h->collected, per_level);
}

static unsigned long tw_ordered_next_event(const struct twheel_engine *e,
					   unsigned long limit)
{
	const struct twheel_ordered *o = to_ordered(e);
	unsigned long d;

	if (list_empty(&o->list))
		return limit;
	d = list_first_entry(&o->list, struct twheel_timer, hash_link)->expires -
	    e->clk;
	if ((long)d < 0)
		return 0;
	return min(d, limit);
}

static struct twheel_timer *tw_ordered_pop(struct twheel_engine *e)
{
	return tw_slots_pop(&to_ordered(e)->collected);
}

/* twheel_ops.max_timers: each arm walks the list. */
static unsigned long tw_ordered_max_timers(const struct twheel_engine *e)
{
	return TW_ORDERED_MAX_TIMERS;
}

/* twheel_ops.init */
static int tw_ordered_create(void *state, unsigned long clk,
			     const struct twheel_config *cfg, void *storage)
{
	twheel_ordered_init(state, clk);
	return 0;
}

/* The ordered engine's ops: struct twheel_ordered, twheel_ordered_init(). */
const struct twheel_ops twheel_ordered_ops = {
	.name		= "ordered",
	.kind		= TWHEEL_ORDERED,
	.setup		= tw_slots_setup,
	.pending	= tw_slots_pending,
	.enqueue	= tw_ordered_enqueue,
	.dequeue	= tw_ordered_dequeue,
	.bucket_of	= tw_ordered_bucket_of,
	.process	= tw_ordered_process,
	.count		= tw_ordered_count,
	.next_event	= tw_ordered_next_event,
	.pop		= tw_ordered_pop,
	.guarantee	= "exact",
	.size		= sizeof(struct twheel_ordered),
	.offset		= offsetof(struct twheel_ordered, e),
	.init		= tw_ordered_create,
	.entry		= TWHEEL_GENERIC_ENTRY,
	.max_timers	= tw_ordered_max_timers,
	.narrow		= true,
};
EXPORT_SYMBOL_GPL(twheel_ordered_ops);

/**
 * twheel_ordered_init() - set up an empty ordered engine
 * @o: the engine; the caller's storage
 * @clk: the first jiffy it is to process
 *
 * Both lists empty, every counter at 0, @o->e.clock_ns NULL; its one
 * level is level 0. Nothing is allocated.
 */
void twheel_ordered_init(struct twheel_ordered *o, unsigned long clk)
{
	tw_engine_init(&o->e, &twheel_ordered_ops, clk, 1);
	INIT_LIST_HEAD(&o->collected);
	INIT_LIST_HEAD(&o->list);
}
EXPORT_SYMBOL_GPL(twheel_ordered_init);

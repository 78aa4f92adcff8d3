// SPDX-License-Identifier: GPL-2.0
/*
 * The straight engine: Varghese & Lauck's scheme 1, every timer counted
 * down each tick. See struct twheel_straight and engines/straight.h for
 * its guarantee and costs.
 */
#include <linux/kernel.h>
#include <linux/jiffies.h>
#include <linux/export.h>
#include "engines/common.h"
#include "engines/straight.h"

static struct twheel_straight *to_straight(const struct twheel_engine *e)
{
	return container_of(e, struct twheel_straight, e);
}

static unsigned int tw_straight_bucket_of(const struct twheel_engine *e,
					  unsigned long expires)
{
	return TWHEEL_NO_BUCKET;
}

/* Ticks left from base to its jiffy (the clock, if already past). */
static void tw_straight_enqueue(struct twheel_engine *e, struct twheel_timer *t)
{
	struct twheel_straight *s = to_straight(e);
	unsigned long at = time_before(t->expires, e->clk) ? e->clk : t->expires;

	t->rounds = at - s->base;
	list_add_tail(&t->hash_link, &s->list);
}

static void tw_straight_dequeue(struct twheel_engine *e, struct twheel_timer *t)
{
	list_del(&t->hash_link);
	t->hash_link.next = NULL;
}

/* Counts every timer down by the jiffies since base; collects the done. */
static void tw_straight_scan(struct twheel_engine *e)
{
	struct twheel_straight *s = to_straight(e);
	unsigned long elapsed = e->clk - s->base;
	struct twheel_timer *t, *n;

	list_for_each_entry_safe(t, n, &s->list, hash_link) {
		if (t->rounds <= elapsed)
			tw_slots_collect(e, &s->collected, t);
		else
			t->rounds -= elapsed;
	}
	s->base = e->clk;
}

/* The jiffy at the clock; true if it collected a timer (the list grew). */
static bool tw_straight_process(struct twheel_engine *e)
{
	const struct list_head *tail = to_straight(e)->collected.prev;

	tw_straight_scan(e);
	return to_straight(e)->collected.prev != tail;
}

static unsigned long tw_straight_count(const struct twheel_engine *e,
				       unsigned long *per_level)
{
	const struct twheel_straight *h = to_straight(e);

	return tw_lists_count(&h->list, 1, &h->collected, per_level);
}

/* The least ticks left: a walk of every timer. */
static unsigned long tw_straight_next_event(const struct twheel_engine *e,
					    unsigned long limit)
{
	const struct twheel_straight *s = to_straight(e);
	const struct twheel_timer *t;
	unsigned long d;

	list_for_each_entry(t, &s->list, hash_link) {
		d = s->base + t->rounds - e->clk;
		if (d < limit)
			limit = d;
	}
	return limit;
}

static struct twheel_timer *tw_straight_pop(struct twheel_engine *e)
{
	return tw_slots_pop(&to_straight(e)->collected);
}

/* twheel_ops.max_timers: each tick counts every timer down. */
static unsigned long tw_straight_max_timers(const struct twheel_engine *e)
{
	return TW_STRAIGHT_MAX_TIMERS;
}

/* twheel_ops.init */
static int tw_straight_create(void *state, unsigned long clk,
			      const struct twheel_config *cfg, void *storage)
{
	twheel_straight_init(state, clk);
	return 0;
}

/* The straight engine's ops: struct twheel_straight, twheel_straight_init(). */
const struct twheel_ops twheel_straight_ops = {
	.name		= "straight",
	.kind		= TWHEEL_STRAIGHT,
	.setup		= tw_slots_setup,
	.pending	= tw_slots_pending,
	.enqueue	= tw_straight_enqueue,
	.dequeue	= tw_straight_dequeue,
	.bucket_of	= tw_straight_bucket_of,
	.process	= tw_straight_process,
	.count		= tw_straight_count,
	.next_event	= tw_straight_next_event,
	.pop		= tw_straight_pop,
	.guarantee	= "exact",
	.size		= sizeof(struct twheel_straight),
	.offset		= offsetof(struct twheel_straight, e),
	.init		= tw_straight_create,
	.entry		= TWHEEL_GENERIC_ENTRY,
	.max_timers	= tw_straight_max_timers,
};
EXPORT_SYMBOL_GPL(twheel_straight_ops);

/**
 * twheel_straight_init() - set up an empty straight engine
 * @s: the engine; the caller's storage
 * @clk: the first jiffy it is to process
 *
 * Both lists empty, ticks counted from @clk, every counter at 0,
 * @s->e.clock_ns NULL; its one level is level 0. Nothing is allocated.
 */
void twheel_straight_init(struct twheel_straight *s, unsigned long clk)
{
	tw_engine_init(&s->e, &twheel_straight_ops, clk, 1);
	INIT_LIST_HEAD(&s->collected);
	INIT_LIST_HEAD(&s->list);
	s->base = clk;
}
EXPORT_SYMBOL_GPL(twheel_straight_init);

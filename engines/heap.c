// SPDX-License-Identifier: GPL-2.0
/*
 * The heap engine: an array-backed TW_HEAP_ARITY-ary min-heap of expiries,
 * each timer knowing its index for an O(log n) delete. See struct
 * twheel_heap and engines/heap.h for its guarantee and costs.
 */
#include <linux/kernel.h>
#include <linux/jiffies.h>
#include <linux/export.h>
#include <linux/errno.h>
#include "engines/common.h"
#include "engines/heap.h"

static struct twheel_heap *to_heap(const struct twheel_engine *e)
{
	return container_of(e, struct twheel_heap, e);
}

static void tw_heap_setup(struct twheel_timer *t)
{
	t->heap_idx = TW_HEAP_IDLE;
}

static bool tw_heap_pending(const struct twheel_timer *t)
{
	return t->heap_idx != TW_HEAP_IDLE;
}

static unsigned int tw_heap_bucket_of(const struct twheel_engine *e,
				      unsigned long expires)
{
	return TWHEEL_NO_BUCKET;
}

static void tw_heap_put(struct twheel_heap *h, unsigned int i,
			struct twheel_heap_slot s)
{
	h->slots[i] = s;
	s.t->heap_idx = i;
}

/* Moves s up from the hole at i to its place. */
static void tw_heap_sift_up(struct twheel_heap *h, unsigned int i,
			    struct twheel_heap_slot s)
{
	unsigned int parent;

	while (i) {
		parent = (i - 1) / TW_HEAP_ARITY;
		if (!time_before(s.expires, h->slots[parent].expires))
			break;
		tw_heap_put(h, i, h->slots[parent]);
		i = parent;
	}
	tw_heap_put(h, i, s);
}

/* Moves s down from the hole at i to its place. */
static void tw_heap_sift_down(struct twheel_heap *h, unsigned int i,
			      struct twheel_heap_slot s)
{
	unsigned int child, c, end, min;

	for (;;) {
		child = TW_HEAP_ARITY * i + 1;
		if (child >= h->nr)
			break;
		end = min(child + TW_HEAP_ARITY, h->nr);
		min = child;
		for (c = child + 1; c < end; c++)
			if (time_before(h->slots[c].expires, h->slots[min].expires))
				min = c;
		if (!time_before(h->slots[min].expires, s.expires))
			break;
		tw_heap_put(h, i, h->slots[min]);
		i = min;
	}
	tw_heap_put(h, i, s);
}

/* Takes the timer at i out of the heap and fills the hole. */
static void tw_heap_remove(struct twheel_heap *h, unsigned int i)
{
	struct twheel_heap_slot last = h->slots[--h->nr];

	if (i == h->nr)
		return;
	if (i && time_before(last.expires,
			     h->slots[(i - 1) / TW_HEAP_ARITY].expires))
		tw_heap_sift_up(h, i, last);
	else
		tw_heap_sift_down(h, i, last);
}

/* The caller never arms more timers than the array has slots. */
/* A full array takes no more timers: the add fails, nothing is written. */
static int tw_heap_admit(const struct twheel_engine *e, unsigned long expires)
{
	const struct twheel_heap *h = to_heap(e);

	return h->nr < h->cap ? 0 : -ENOSPC;
}

/*
 * The heap's key is the expiry, or the clock if that is already past: then
 * every key is 0 to LONG_MAX jiffies ahead of the clock, where
 * time_before() orders them, even when a timer armed far in the past sits
 * next to one ahead (more than LONG_MAX apart). A key at the clock is
 * collected before the clock moves, so the others stay in that window.
 */
static void tw_heap_enqueue(struct twheel_engine *e, struct twheel_timer *t)
{
	struct twheel_heap *h = to_heap(e);
	struct twheel_heap_slot s = { .expires = t->expires, .t = t };

	if (time_before(s.expires, e->clk))
		s.expires = e->clk;

	tw_heap_sift_up(h, h->nr++, s);
}

static void tw_heap_dequeue(struct twheel_engine *e, struct twheel_timer *t)
{
	if (t->heap_idx == TW_HEAP_COLLECTED)
		list_del(&t->due);
	else
		tw_heap_remove(to_heap(e), t->heap_idx);
	t->heap_idx = TW_HEAP_IDLE;
}

/* Collects every timer due at or before clk: the root while it is due. */
static void tw_heap_scan(struct twheel_engine *e)
{
	struct twheel_heap *h = to_heap(e);
	struct twheel_timer *t;

	while (h->nr && !time_after(h->slots[0].expires, e->clk)) {
		t = h->slots[0].t;
		tw_heap_remove(h, 0);
		t->heap_idx = TW_HEAP_COLLECTED;
		list_add_tail(&t->due, &h->collected);
	}
}

/* The jiffy at the clock; true if it collected a timer (the list grew). */
static bool tw_heap_process(struct twheel_engine *e)
{
	const struct list_head *tail = to_heap(e)->collected.prev;

	tw_heap_scan(e);
	return to_heap(e)->collected.prev != tail;
}

static unsigned long tw_heap_count(const struct twheel_engine *e,
				   unsigned long *per_level)
{
	const struct twheel_heap *h = to_heap(e);
	const struct list_head *p;
	unsigned long c = 0;

	per_level[0] += h->nr;
	for (p = h->collected.next; p != &h->collected; p = p->next)
		c++;
	return c;
}

static unsigned long tw_heap_next_event(const struct twheel_engine *e,
					unsigned long limit)
{
	const struct twheel_heap *h = to_heap(e);
	unsigned long d;

	if (!h->nr)
		return limit;
	d = h->slots[0].expires - e->clk;
	if ((long)d < 0)
		return 0;
	return min(d, limit);
}

static struct twheel_timer *tw_heap_pop(struct twheel_engine *e)
{
	struct twheel_heap *h = to_heap(e);
	struct twheel_timer *t;

	if (list_empty(&h->collected))
		return NULL;
	t = list_first_entry(&h->collected, struct twheel_timer, due);
	list_del(&t->due);
	t->heap_idx = TW_HEAP_IDLE;
	return t;
}

/* twheel_ops.grow_size: a bigger array, if it has not room for timers. */
static size_t tw_heap_grow_size(const struct twheel_engine *e,
				unsigned long timers)
{
	const struct twheel_heap *h = container_of(e, struct twheel_heap, e);

	return timers <= h->cap ? 0 : timers * sizeof(struct twheel_heap_slot);
}

/* twheel_ops.grow: the heap moves into the new array. */
static int tw_heap_grow(struct twheel_engine *e, void *storage,
			unsigned long timers)
{
	if (timers > TW_HEAP_MAX_SLOTS)
		return -EINVAL;
	return twheel_heap_set_storage(twheel_to_heap(e), storage, timers);
}

/* twheel_ops.storage_size */
static size_t tw_heap_storage_size(const struct twheel_config *cfg)
{
	return cfg->cap * sizeof(struct twheel_heap_slot);
}

/* twheel_ops.init */
static int tw_heap_create(void *state, unsigned long clk,
			  const struct twheel_config *cfg, void *storage)
{
	return twheel_heap_init(state, clk, storage, storage ? cfg->cap : 0);
}

/* The heap's ops: struct twheel_heap, twheel_heap_init(). */
const struct twheel_ops twheel_heap_ops = {
	.name		= "heap",
	.kind		= TWHEEL_HEAP,
	.setup		= tw_heap_setup,
	.pending	= tw_heap_pending,
	.admit		= tw_heap_admit,
	.enqueue	= tw_heap_enqueue,
	.dequeue	= tw_heap_dequeue,
	.bucket_of	= tw_heap_bucket_of,
	.process	= tw_heap_process,
	.count		= tw_heap_count,
	.next_event	= tw_heap_next_event,
	.pop		= tw_heap_pop,
	.guarantee	= "exact",
	.size		= sizeof(struct twheel_heap),
	.offset		= offsetof(struct twheel_heap, e),
	.storage_size	= tw_heap_storage_size,
	.init		= tw_heap_create,
	.entry		= TWHEEL_GENERIC_ENTRY,
	.grow_size	= tw_heap_grow_size,
	.grow		= tw_heap_grow,
	.sparse		= true,
};
EXPORT_SYMBOL_GPL(twheel_heap_ops);

/**
 * twheel_heap_init() - set up an empty heap engine
 * @h: the engine; the caller's storage
 * @clk: the first jiffy it is to process
 * @slots: the heap's array, the caller's storage (may be NULL if @cap is
 *	0); its contents do not matter
 * @cap: slots in @slots: the most timers that may be pending at once
 *
 * Every counter at 0, @h->e.clock_ns NULL; its one level is level 0.
 * Nothing is allocated.
 *
 * Return: 0, or -EINVAL if @cap is above TW_HEAP_MAX_SLOTS (or not 0
 * with @slots NULL).
 */
int twheel_heap_init(struct twheel_heap *h, unsigned long clk,
		     struct twheel_heap_slot *slots, unsigned int cap)
{
	if (cap > TW_HEAP_MAX_SLOTS || (cap && !slots))
		return -EINVAL;
	tw_engine_init(&h->e, &twheel_heap_ops, clk, 1);
	INIT_LIST_HEAD(&h->collected);
	h->slots = slots;
	h->nr = 0;
	h->cap = cap;
	return 0;
}
EXPORT_SYMBOL_GPL(twheel_heap_init);

/**
 * twheel_heap_set_storage() - give a heap engine another array
 * @h: the engine, set up with twheel_heap_init()
 * @slots: the new array, the caller's storage
 * @cap: slots in @slots
 *
 * Copies the heap into @slots; the old array is no longer used, and the
 * caller may free it. Lets the caller size the array for a load without
 * allocating under its lock.
 *
 * Return: 0, or -EINVAL if @cap is above TW_HEAP_MAX_SLOTS, or below the
 * timers the heap holds now (nothing changes then).
 */
int twheel_heap_set_storage(struct twheel_heap *h,
			    struct twheel_heap_slot *slots, unsigned int cap)
{
	if (cap > TW_HEAP_MAX_SLOTS || cap < h->nr || (cap && !slots))
		return -EINVAL;
	if (h->nr)
		memcpy(slots, h->slots, h->nr * sizeof(*slots));
	h->slots = slots;
	h->cap = cap;
	return 0;
}
EXPORT_SYMBOL_GPL(twheel_heap_set_storage);

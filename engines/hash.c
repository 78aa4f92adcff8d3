// SPDX-License-Identifier: GPL-2.0
/*
 * The hash engine: Varghese & Lauck's scheme 6, Netty's HashedWheelTimer:
 * unsorted one-jiffy slots, each timer with the rounds it still has to
 * wait. See struct twheel_hash and engines/hash.h for its guarantee and
 * costs.
 */
#include <linux/kernel.h>
#include <linux/bitmap.h>
#include <linux/jiffies.h>
#include <linux/export.h>
#include <linux/errno.h>
#include "engines/common.h"
#include "engines/hash.h"
#include "engines/straight.h"

static struct twheel_hash *to_hash(const struct twheel_engine *e)
{
	return container_of(e, struct twheel_hash, e);
}

/*
 * The slot of expires mod slots, first visited at the clock plus the
 * delta's remainder: the turns left after that visit are the rounds. A
 * past expiry goes to the clock's own slot, with none.
 */
static void tw_hash_enqueue(struct twheel_engine *e, struct twheel_timer *t)
{
	struct twheel_hash *h = to_hash(e);
	unsigned long delta = t->expires - e->clk, idx;

	if ((long)delta < 0) {
		idx = e->clk & h->mask;
		t->rounds = 0;
	} else {
		idx = t->expires & h->mask;
		t->rounds = delta >> h->bits;
	}
	list_add_tail(&t->hash_link, &h->slots[idx]);
	__set_bit(idx, h->map);
}

/* Walks the clock's slot: due timers are collected, the others wait a turn. */
static void tw_hash_scan(struct twheel_engine *e)
{
	struct twheel_hash *h = to_hash(e);
	unsigned long idx = e->clk & h->mask;
	struct twheel_timer *t, *n;

	list_for_each_entry_safe(t, n, &h->slots[idx], hash_link) {
		if (t->rounds)
			t->rounds--;
		else
			tw_slots_collect(e, &h->collected, t);
	}
	if (list_empty(&h->slots[idx]))
		__clear_bit(idx, h->map);
}

static bool tw_hash_process(struct twheel_engine *e)
{
	return tw_hash_wheel_process(e, tw_hash_scan);
}

/*
 * twheel_ops.max_timers: each tick walks a slot, every timer in it whether
 * due or not: at most as many a slot on average as straight's tick walks
 * in all.
 */
static unsigned long tw_hash_max_timers(const struct twheel_engine *e)
{
	return (unsigned long)TW_STRAIGHT_MAX_TIMERS * tw_hash_nr_buckets(e);
}

/* twheel_ops.init */
static int tw_hash_create(void *state, unsigned long clk,
			  const struct twheel_config *cfg, void *storage)
{
	return twheel_hash_init(state, clk, storage, cfg->slots);
}

/* The hash engine's ops: struct twheel_hash, twheel_hash_init(). */
const struct twheel_ops twheel_hash_ops = {
	.name		= "hash",
	.kind		= TWHEEL_HASH,
	TW_HASH_WHEEL_OPS,
	.enqueue	= tw_hash_enqueue,
	.process	= tw_hash_process,
	.guarantee	= "exact",
	.size		= sizeof(struct twheel_hash),
	.offset		= offsetof(struct twheel_hash, e),
	.storage_size	= tw_hash_wheel_storage_size,
	.init		= tw_hash_create,
	.max_timers	= tw_hash_max_timers,
};
EXPORT_SYMBOL_GPL(twheel_hash_ops);

/**
 * twheel_hash_storage_size() - bytes of storage a hash engine needs
 * @nr_slots: its number of slots
 *
 * Return: the size of the storage twheel_hash_init() takes for @nr_slots:
 * a list head and a bit per slot.
 */
size_t twheel_hash_storage_size(unsigned int nr_slots)
{
	return tw_slots_storage_size(nr_slots);
}
EXPORT_SYMBOL_GPL(twheel_hash_storage_size);

/**
 * twheel_hash_init() - set up an empty hash engine
 * @h: the engine; the caller's storage
 * @clk: the first jiffy it is to process
 * @storage: twheel_hash_storage_size(@nr_slots) bytes, the caller's, for
 *	the slots and their bitmap; its contents do not matter
 * @nr_slots: slots, a power of two from 2 to 2^TW_HASH_MAX_BITS
 *
 * Every slot empty, every counter at 0, @h->e.clock_ns NULL; its one
 * level is level 0. Nothing is allocated.
 *
 * Return: 0, or -EINVAL if @nr_slots is not a power of two in range.
 */
int twheel_hash_init(struct twheel_hash *h, unsigned long clk,
		     void *storage, unsigned int nr_slots)
{
	return tw_hash_wheel_init(h, &twheel_hash_ops, clk, storage, nr_slots);
}
EXPORT_SYMBOL_GPL(twheel_hash_init);

// SPDX-License-Identifier: GPL-2.0
/*
 * The hash_sorted engine: Varghese & Lauck's scheme 5, one-jiffy slots of
 * lists sorted by expiry (a struct twheel_hash), the head of the clock's
 * slot looked at each jiffy. See engines/hash_sorted.h for its guarantee
 * and costs.
 */
#include <linux/kernel.h>
#include <linux/bitmap.h>
#include <linux/jiffies.h>
#include <linux/export.h>
#include <linux/errno.h>
#include "engines/common.h"
#include "engines/hash_sorted.h"

static struct twheel_hash *to_hs(const struct twheel_engine *e)
{
	return tw_hash_wheel(e);
}

/*
 * Into the slot of its expiry (the clock's if past, where it sorts first),
 * after the last timer that expires no later: walked from the slot's end,
 * as new timers mostly go far out.
 */
static void tw_hs_enqueue(struct twheel_engine *e, struct twheel_timer *t)
{
	struct twheel_hash *h = to_hs(e);
	unsigned long idx = t->expires & h->mask;

	if (time_before(t->expires, e->clk))
		idx = e->clk & h->mask;
	t->rounds = 0;
	tw_sorted_insert(&h->slots[idx], t);
	__set_bit(idx, h->map);
}

/* Collects the clock's slot's head while it is due; the rest wait. */
static void tw_hs_scan(struct twheel_engine *e)
{
	struct twheel_hash *h = to_hs(e);
	unsigned long idx = e->clk & h->mask;
	struct twheel_timer *t;

	while ((t = list_first_entry_or_null(&h->slots[idx], struct twheel_timer,
					     hash_link))) {
		if (time_after(t->expires, e->clk))
			return;
		tw_slots_collect(e, &h->collected, t);
	}
	__clear_bit(idx, h->map);
}

static bool tw_hs_process(struct twheel_engine *e)
{
	return tw_hash_wheel_process(e, tw_hs_scan);
}

/*
 * twheel_ops.max_timers: an arm walks its slot: at most
 * TW_HASH_SORTED_PER_SLOT timers a slot on average.
 */
static unsigned long tw_hs_max_timers(const struct twheel_engine *e)
{
	return (unsigned long)TW_HASH_SORTED_PER_SLOT * tw_hash_nr_buckets(e);
}

/* twheel_ops.init */
static int tw_hash_sorted_create(void *state, unsigned long clk,
				 const struct twheel_config *cfg, void *storage)
{
	return tw_hash_wheel_init(state, &twheel_hash_sorted_ops, clk, storage,
				  cfg->slots);
}

/* hash_sorted's ops: a struct twheel_hash, its slots sorted. */
const struct twheel_ops twheel_hash_sorted_ops = {
	.name		= "hash_sorted",
	.kind		= TWHEEL_HASH_SORTED,
	TW_HASH_WHEEL_OPS,
	.enqueue	= tw_hs_enqueue,
	.process	= tw_hs_process,
	.guarantee	= "exact",
	.size		= sizeof(struct twheel_hash),
	.offset		= offsetof(struct twheel_hash, e),
	.storage_size	= tw_hash_wheel_storage_size,
	.init		= tw_hash_sorted_create,
	.max_timers	= tw_hs_max_timers,
	.narrow		= true,
};
EXPORT_SYMBOL_GPL(twheel_hash_sorted_ops);

// SPDX-License-Identifier: GPL-2.0
/*
 * The simple engine: Varghese & Lauck's scheme 4, one circle of
 * MaxInterval one-jiffy slots (a struct twheel_hash); deltas beyond it
 * are refused. See engines/simple.h for its guarantee and costs.
 */
#include <linux/kernel.h>
#include <linux/bitmap.h>
#include <linux/jiffies.h>
#include <linux/export.h>
#include <linux/errno.h>
#include "engines/common.h"
#include "engines/simple.h"

static struct twheel_hash *to_simple(const struct twheel_engine *e)
{
	return tw_hash_wheel(e);
}

/* A delta below MaxInterval, or an expiry already past. */
static int tw_simple_admit(const struct twheel_engine *e,
			   unsigned long expires)
{
	unsigned long delta = expires - e->clk;

	if ((long)delta >= 0 && delta > to_simple(e)->mask)
		return -ERANGE;
	return 0;
}

/* The latest jiffy of [lo, hi] it takes: hi, or the last below MaxInterval. */
static unsigned long tw_simple_range_pick(const struct twheel_engine *e,
					  unsigned long lo, unsigned long hi)
{
	unsigned long last = e->clk + to_simple(e)->mask;

	return !tw_simple_admit(e, hi) || last - lo > hi - lo ? hi : last;
}

/* The slot delta ahead of the clock's: expires mod MaxInterval. */
static void tw_simple_enqueue(struct twheel_engine *e, struct twheel_timer *t)
{
	struct twheel_hash *s = to_simple(e);
	unsigned long idx = t->expires & s->mask;

	if (time_before(t->expires, e->clk))
		idx = e->clk & s->mask;
	t->rounds = 0;
	list_add_tail(&t->hash_link, &s->slots[idx]);
	__set_bit(idx, s->map);
}

/* Everything in the clock's slot is due: no delta reaches a turn. */
static void tw_simple_scan(struct twheel_engine *e)
{
	struct twheel_hash *s = to_simple(e);
	unsigned long idx = e->clk & s->mask;
	struct twheel_timer *t, *n;

	list_for_each_entry_safe(t, n, &s->slots[idx], hash_link)
		tw_slots_collect(e, &s->collected, t);
	__clear_bit(idx, s->map);
}

static bool tw_simple_process(struct twheel_engine *e)
{
	return tw_hash_wheel_process(e, tw_simple_scan);
}

/* twheel_ops.storage_size */
static size_t tw_simple_storage_size(const struct twheel_config *cfg)
{
	return twheel_hash_storage_size(cfg->max_interval);
}

/* twheel_ops.init */
static int tw_simple_create(void *state, unsigned long clk,
			    const struct twheel_config *cfg, void *storage)
{
	return tw_hash_wheel_init(state, &twheel_simple_ops, clk, storage,
				  cfg->max_interval);
}

/* The simple engine's ops: a struct twheel_hash of MaxInterval slots. */
const struct twheel_ops twheel_simple_ops = {
	.name		= "simple",
	.kind		= TWHEEL_SIMPLE,
	TW_HASH_WHEEL_OPS,
	.enqueue	= tw_simple_enqueue,
	.process	= tw_simple_process,
	.admit		= tw_simple_admit,
	.range_pick	= tw_simple_range_pick,
	.guarantee	= "exact below its MaxInterval, refuses beyond (-ERANGE)",
	.size		= sizeof(struct twheel_hash),
	.offset		= offsetof(struct twheel_hash, e),
	.storage_size	= tw_simple_storage_size,
	.init		= tw_simple_create,
};
EXPORT_SYMBOL_GPL(twheel_simple_ops);

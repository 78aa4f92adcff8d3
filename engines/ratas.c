// SPDX-License-Identifier: GPL-2.0
/*
 * The ratas engine: seed 002's wheel, 8 levels of 256 slots over the whole
 * 64-bit tick range, an outer slot promoted when the level below wraps.
 * See struct twheel_ratas and engines/ratas.h for its guarantee and costs.
 */
#include <linux/kernel.h>
#include <linux/jiffies.h>
#include <linux/export.h>
#include <linux/errno.h>
#include "engines/common.h"
#include "engines/ratas.h"

static struct twheel_ratas *to_ratas(const struct twheel_engine *e)
{
	return container_of(e, struct twheel_ratas, e);
}

static bool tw_ratas_ops_pending(const struct twheel_timer *t)
{
	return tw_ratas_pending(t);
}

static void tw_ratas_setup(struct twheel_timer *t)
{
	t->entry.next = NULL;
	t->entry.pprev = NULL;
	t->bucket = TWHEEL_COLLECTED;
}

static unsigned int tw_ratas_bucket_of(const struct twheel_engine *e,
				       unsigned long expires)
{
	return tw_ratas_index(expires, e->clk);
}

static void tw_ratas_enqueue(struct twheel_engine *e, struct twheel_timer *t)
{
	tw_ratas_link(to_ratas(e), t, tw_ratas_index(t->expires, e->clk));
}

static void tw_ratas_dequeue(struct twheel_engine *e, struct twheel_timer *t)
{
	tw_ratas_unlink(t);
}

/* Collected timers keep no bucket index, so they are never in one. */
static bool tw_ratas_in_bucket(const struct twheel_engine *e,
			       const struct twheel_timer *t, unsigned int idx)
{
	return t->bucket == idx;
}

static void tw_ratas_collect(struct twheel_ratas *r, struct twheel_timer *t)
{
	list_add_tail(&t->list, &r->collected);
	t->bucket = TWHEEL_COLLECTED;
}

/*
 * Promotes level lvl's slot of the clock (lvl >= 1; the clock's low
 * 8 * lvl bits are 0): a timer expiring now is collected, the others go
 * to a lower level. Returns how many were filed again.
 */
static unsigned int tw_ratas_promote(struct twheel_ratas *r, unsigned int lvl)
{
	struct twheel_engine *e = &r->e;
	unsigned int slot = (e->clk >> (lvl * TW_RATAS_BITS)) & (TW_RATAS_SIZE - 1);
	struct hlist_head *head = &r->slots[lvl * TW_RATAS_SIZE + slot];
	struct hlist_node *n = head->first, *next;
	struct twheel_timer *t;
	unsigned int moved = 0;
	u64 t0;

	if (!n)
		return 0;
	t0 = tw_cascade_begin(e);
	head->first = NULL;
	for (; n; n = next) {
		next = n->next;
		t = hlist_entry(n, struct twheel_timer, entry);
		if (t->expires == e->clk) {
			tw_ratas_collect(r, t);
			continue;
		}
		tw_ratas_link(r, t, tw_ratas_index(t->expires, e->clk));
		moved++;
	}
	tw_cascade_end(e, t0, lvl, slot, moved);
	return moved;
}

/* Every outer level that wraps at the clock, from the outermost in. */
static void tw_ratas_promotions(struct twheel_ratas *r)
{
	unsigned long clk = r->e.clk;
	unsigned int lvl;

	lvl = clk ? __ffs(clk) / TW_RATAS_BITS : TW_RATAS_LEVELS - 1;
	for (lvl = min(lvl, TW_RATAS_LEVELS - 1U); lvl >= 1; lvl--)
		tw_ratas_promote(r, lvl);
}

/* The jiffy at the clock: promotions, then its level-0 slot. */
static bool tw_ratas_process(struct twheel_engine *e)
{
	struct twheel_ratas *r = to_ratas(e);
	struct hlist_head *head = &r->slots[e->clk & (TW_RATAS_SIZE - 1)];
	const struct list_head *tail = r->collected.prev;
	struct hlist_node *n, *next;
	u64 t0;

	if (!(e->clk & (TW_RATAS_SIZE - 1))) {
		t0 = tw_cascades_begin(e);
		tw_ratas_promotions(r);
		tw_cascades_end(e, t0);
	}
	/* moved one by one, from an hlist onto a list: order kept */
	for (n = head->first; n; n = next) {
		next = n->next;
		tw_ratas_collect(r, hlist_entry(n, struct twheel_timer, entry));
	}
	head->first = NULL;
	return r->collected.prev != tail;
}

/**
 * twheel_ratas_tick() - the ratas engine's jiffy with work
 * @r: the engine
 *
 * The out-of-line part of a one-jiffy twheel_advance(): processes the
 * jiffy @r->e.clk (promotions, then its level-0 slot) and counts
 * st.events if there was anything to do. Leaves the clock alone.
 *
 * Return: true if it collected any timer.
 */
bool twheel_ratas_tick(struct twheel_ratas *r)
{
	u64 cascades = r->e.st.cascades;
	bool collected = tw_ratas_process(&r->e);

	if (collected || r->e.st.cascades != cascades)
		r->e.st.events++;
	return collected;
}
EXPORT_SYMBOL_GPL(twheel_ratas_tick);

/*
 * Jiffies from the clock to the first processing point of level lvl, at
 * most 256 of them, whose slot is not empty and which comes before best;
 * best if none. Level 0's points are every jiffy, level n's every 2^(8n)
 * jiffies (where the clock's low 8n bits are 0); a timer of level n is at
 * most 255 points away, so 256 points cover the level.
 */
static unsigned long tw_ratas_level_next(const struct twheel_ratas *r,
					 unsigned int lvl, unsigned long best)
{
	unsigned int shift = lvl * TW_RATAS_BITS;
	unsigned long step = 1UL << shift, clk = r->e.clk;
	unsigned long d = tw_level_first(shift, clk);
	unsigned long idx = (clk + d) >> shift;
	const struct hlist_head *slots = &r->slots[lvl * TW_RATAS_SIZE];
	unsigned int i;

	for (i = 0; i < TW_RATAS_SIZE && d < best; i++, idx++) {
		if (!hlist_empty(&slots[idx & (TW_RATAS_SIZE - 1)]))
			return d;
		if (best - d <= step)
			break;
		d += step;
	}
	return best;
}

/*
 * Ratas' ticks_to_next_event(max), by slot heads: no bitmap. A level whose
 * first point is at or past the best answer so far cannot beat it, nor
 * can any level above it.
 */
static unsigned long tw_ratas_next_event(const struct twheel_engine *e,
					 unsigned long limit)
{
	const struct twheel_ratas *r = to_ratas(e);
	unsigned long best = limit;
	unsigned int lvl;

	for (lvl = 0; lvl < TW_RATAS_LEVELS; lvl++) {
		if (tw_level_first(lvl * TW_RATAS_BITS, e->clk) >= best)
			break;
		best = tw_ratas_level_next(r, lvl, best);
	}
	return best;
}

static struct twheel_timer *tw_ratas_ops_pop(struct twheel_engine *e)
{
	return tw_ratas_take(to_ratas(e));
}

static unsigned long tw_ratas_count(const struct twheel_engine *e,
				    unsigned long *per_level)
{
	const struct twheel_ratas *r = to_ratas(e);
	const struct twheel_timer *t;
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < TW_RATAS_BUCKETS; i++)
		hlist_for_each_entry(t, &r->slots[i], entry)
			per_level[i / TW_RATAS_SIZE]++;
	list_for_each_entry(t, &r->collected, list)
		n++;
	return n;
}

/*
 * twheel_ops.range_pick, Ratas' schedule_in_range() rule: the same as the
 * classic wheels' with its levels' powers of 256. A timer due at a
 * multiple of 256^k is handed out when its slot of level k is promoted,
 * never filed lower.
 */
static unsigned long tw_ratas_range_pick(const struct twheel_engine *e,
					 unsigned long lo, unsigned long hi)
{
	return tw_levels_range_pick(lo, hi, TW_RATAS_BITS, TW_RATAS_BITS,
				    (TW_RATAS_LEVELS - 1) * TW_RATAS_BITS);
}

/* twheel_ops.level_of: TW_RATAS_SIZE slots a level. */
static unsigned int tw_ratas_level_of(const struct twheel_engine *e,
				      unsigned int bucket)
{
	return bucket / TW_RATAS_SIZE;
}

static unsigned int tw_ratas_buckets(const struct twheel_engine *e,
				     unsigned int *per, unsigned int n)
{
	return tw_count_hlists(container_of(e, struct twheel_ratas, e)->slots,
			       TW_RATAS_BUCKETS, per);
}

static unsigned int tw_ratas_nr_buckets(const struct twheel_engine *e)
{
	return TW_RATAS_BUCKETS;
}

/* twheel_ops.init */
static int tw_ratas_create(void *state, unsigned long clk,
			   const struct twheel_config *cfg, void *storage)
{
	twheel_ratas_init(state, clk);
	return 0;
}

/* The ratas engine's ops: struct twheel_ratas, twheel_ratas_init(). */
const struct twheel_ops twheel_ratas_ops = {
	.name		= "ratas",
	.kind		= TWHEEL_RATAS,
	.setup		= tw_ratas_setup,
	.pending	= tw_ratas_ops_pending,
	.enqueue	= tw_ratas_enqueue,
	.dequeue	= tw_ratas_dequeue,
	.bucket_of	= tw_ratas_bucket_of,
	.in_bucket	= tw_ratas_in_bucket,
	.process	= tw_ratas_process,
	.next_event	= tw_ratas_next_event,
	.pop		= tw_ratas_ops_pop,
	.count		= tw_ratas_count,
	.range_pick	= tw_ratas_range_pick,
	.guarantee	= "exact, no clamp: up to LONG_MAX ahead",
	.size		= sizeof(struct twheel_ratas),
	.offset		= offsetof(struct twheel_ratas, e),
	.init		= tw_ratas_create,
	.entry		= TWHEEL_FAST_ENTRY(ratas),
	.level_of	= tw_ratas_level_of,
	.buckets	= tw_ratas_buckets,
	.nr_buckets	= tw_ratas_nr_buckets,
};
EXPORT_SYMBOL_GPL(twheel_ratas_ops);

/**
 * twheel_ratas_init() - set up an empty ratas engine
 * @r: the engine; the caller's storage (about 16 KiB on 64-bit)
 * @clk: the first jiffy it is to process
 *
 * Every slot and the collected list empty, every counter at 0,
 * @r->e.clock_ns NULL. Nothing is allocated, so there is nothing to tear
 * down; initialising it again drops the timers it held without marking
 * them not pending.
 */
void twheel_ratas_init(struct twheel_ratas *r, unsigned long clk)
{
	unsigned int i;

	tw_engine_init(&r->e, &twheel_ratas_ops, clk, TW_RATAS_LEVELS);
	INIT_LIST_HEAD(&r->collected);
	for (i = 0; i < TW_RATAS_BUCKETS; i++)
		INIT_HLIST_HEAD(&r->slots[i]);
}
EXPORT_SYMBOL_GPL(twheel_ratas_init);

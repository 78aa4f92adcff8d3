// SPDX-License-Identifier: GPL-2.0
/*
 * The hash_vec engine: the hashed wheel of scheme 6 with each slot an array
 * of inlined entries (seed 004), and the pool of spare arrays its caller
 * keeps stocked. See struct twheel_hash_vec and engines/hash_vec.h for its
 * guarantee, costs and memory.
 */
#include <linux/kernel.h>
#include <linux/bitmap.h>
#include <linux/jiffies.h>
#include <linux/export.h>
#include <linux/errno.h>
#include <linux/string.h>
#include "engines/common.h"
#include "engines/hash_vec.h"
#include "engines/straight.h"

static struct twheel_hash_vec *to_vec(const struct twheel_engine *e)
{
	return container_of(e, struct twheel_hash_vec, e);
}

static unsigned int tw_vec_order(u32 cap)
{
	return ilog2(cap) - TW_VEC_MIN_SHIFT;
}

/* Not pending: in no slot, not collected. */
static void tw_vec_setup(struct twheel_timer *t)
{
	t->vec_slot = TW_VEC_IDLE;
}

/* Three quarters of an array: from there on a slot is hot. */
static u32 tw_vec_hot_mark(u32 cap)
{
	return cap - cap / 4;
}

/* Spares of order k the engine asks for. */
static u32 tw_vec_want(const struct twheel_hash_vec *hv, unsigned int k)
{
	return hv->pool[k].keep + (k ? hv->pool[k - 1].hot : 0);
}

/* Order k's bits in @avail, @low, @scarce and @high, after a change of its counts. */
static void tw_vec_note(struct twheel_hash_vec *hv, unsigned int k)
{
	const struct twheel_vec_pool *p = &hv->pool[k];
	u32 want = tw_vec_want(hv, k);

	if (p->nr)
		__set_bit(k, &hv->avail);
	else
		__clear_bit(k, &hv->avail);
	if (p->nr < want)
		__set_bit(k, &hv->low);
	else
		__clear_bit(k, &hv->low);
	if (p->nr < (want + 1) / 2)
		__set_bit(k, &hv->scarce);
	else
		__clear_bit(k, &hv->scarce);
	if (p->nr > 2 * want + 2)
		__set_bit(k, &hv->high);
	else
		__clear_bit(k, &hv->high);
}

/* A slot of order k got hot (d = 1) or cooled (d = -1). */
static void tw_vec_heat(struct twheel_hash_vec *hv, unsigned int k, int d)
{
	hv->pool[k].hot += d;
	if (k + 1 < TW_VEC_ORDERS)
		tw_vec_note(hv, k + 1);
}

static void tw_vec_put(struct twheel_hash_vec *hv, unsigned int k, void *array)
{
	struct twheel_vec_pool *p = &hv->pool[k];

	*(void **)array = p->spare;
	p->spare = array;
	p->nr++;
	tw_vec_note(hv, k);
}

static void *tw_vec_get(struct twheel_hash_vec *hv, unsigned int k)
{
	struct twheel_vec_pool *p = &hv->pool[k];
	void *array = p->spare;

	p->spare = *(void **)array;
	p->nr--;
	tw_vec_note(hv, k);
	return array;
}

static bool tw_vec_pending(const struct twheel_timer *t)
{
	return t->vec_slot != TW_VEC_IDLE;
}

/* The jiffy a timer armed now for expires is due at: its slot's key. */
static unsigned long tw_vec_when(const struct twheel_engine *e,
				 unsigned long expires)
{
	return time_before(expires, e->clk) ? e->clk : expires;
}

/*
 * The order of array a full slot moves to: the smallest spare larger than
 * its array. TW_VEC_ORDERS if there is none.
 */
static unsigned int tw_vec_next_order(const struct twheel_hash_vec *hv,
				      const struct twheel_vec_slot *s)
{
	unsigned int k = s->cap ? tw_vec_order(s->cap) + 1 : 0;

	if (k >= TW_VEC_ORDERS)
		return TW_VEC_ORDERS;
	return find_next_bit(&hv->avail, TW_VEC_ORDERS, k);
}

/* 0 if the slot of expires has room or a larger spare to move to. */
static int tw_vec_admit(const struct twheel_engine *e, unsigned long expires)
{
	const struct twheel_hash_vec *hv = to_vec(e);
	const struct twheel_vec_slot *s;

	s = &hv->slots[tw_vec_when(e, expires) & hv->mask];
	if (s->nr < s->cap)
		return 0;
	if (s->cap && tw_vec_order(s->cap) + 1 >= TW_VEC_ORDERS)
		return -ENOSPC;
	return tw_vec_next_order(hv, s) < TW_VEC_ORDERS ? 0 : -ENOMEM;
}

/* Moves a full (or empty) slot to a larger spare; tw_vec_admit() said yes. */
static void tw_vec_grow(struct twheel_hash_vec *hv, struct twheel_vec_slot *s)
{
	unsigned int k = tw_vec_next_order(hv, s), old;
	struct twheel_vec_entry *ent = tw_vec_get(hv, k);

	if (s->cap) {
		old = tw_vec_order(s->cap);
		memcpy(ent, s->ent, s->nr * sizeof(*ent));
		/* it was full, so hot; half full or less now */
		tw_vec_heat(hv, old, -1);
		tw_vec_put(hv, old, s->ent);
	}
	s->ent = ent;
	s->cap = twheel_hash_vec_cap(k);
}

static void tw_vec_enqueue(struct twheel_engine *e, struct twheel_timer *t)
{
	struct twheel_hash_vec *hv = to_vec(e);
	unsigned long when = tw_vec_when(e, t->expires);
	unsigned int idx = when & hv->mask;
	struct twheel_vec_slot *s = &hv->slots[idx];

	if (s->nr == s->cap)
		tw_vec_grow(hv, s);
	s->ent[s->nr].when = when;
	s->ent[s->nr].t = t;
	t->vec_slot = idx;
	t->vec_idx = s->nr;
	if (!s->nr++)
		__set_bit(idx, hv->map);
	if (s->nr == tw_vec_hot_mark(s->cap))
		tw_vec_heat(hv, tw_vec_order(s->cap), 1);
}

/*
 * Takes entry i out of slot idx: the last entry moves into the hole and
 * its timer learns its new index. An emptied slot hands its array back.
 */
static void tw_vec_remove(struct twheel_hash_vec *hv, unsigned int idx, u32 i)
{
	struct twheel_vec_slot *s = &hv->slots[idx];
	u32 last = s->nr - 1;

	if (i != last) {
		s->ent[i] = s->ent[last];
		s->ent[i].t->vec_idx = i;
	}
	if (s->nr == tw_vec_hot_mark(s->cap))
		tw_vec_heat(hv, tw_vec_order(s->cap), -1);
	s->nr = last;
	if (last)
		return;
	__clear_bit(idx, hv->map);
	tw_vec_put(hv, tw_vec_order(s->cap), s->ent);
	s->ent = NULL;
	s->cap = 0;
}

static void tw_vec_dequeue(struct twheel_engine *e, struct twheel_timer *t)
{
	if (t->vec_slot == TW_VEC_COLLECTED)
		list_del(&t->hash_link);
	else
		tw_vec_remove(to_vec(e), t->vec_slot, t->vec_idx);
	t->vec_slot = TW_VEC_IDLE;
}

/*
 * The jiffy at the clock: walks its slot's array from the end, so that the
 * entry a removal moves into the hole is one already looked at; the due
 * timers are collected in array order. True if it collected any.
 */
static bool tw_vec_process(struct twheel_engine *e)
{
	struct twheel_hash_vec *hv = to_vec(e);
	unsigned int idx = e->clk & hv->mask;
	struct twheel_vec_slot *s = &hv->slots[idx];
	struct twheel_timer *t;
	LIST_HEAD(due);
	u32 i;

	for (i = s->nr; i-- > 0;) {
		if (s->ent[i].when != e->clk)
			continue;
		t = s->ent[i].t;
		t->vec_slot = TW_VEC_COLLECTED;
		list_add(&t->hash_link, &due);
		tw_vec_remove(hv, idx, i);
	}
	if (list_empty(&due))
		return false;
	list_splice_tail_init(&due, &hv->collected);
	return true;
}

static unsigned long tw_vec_count(const struct twheel_engine *e,
				  unsigned long *per_level)
{
	const struct twheel_hash_vec *hv = to_vec(e);
	unsigned long i;

	for (i = 0; i <= hv->mask; i++)
		per_level[0] += hv->slots[i].nr;
	/* no lists of slots, only the collected list to count */
	return tw_lists_count(NULL, 0, &hv->collected, per_level);
}

/* Every non-empty slot is work: due timers, or a turn for the others. */
static unsigned long tw_vec_next_event(const struct twheel_engine *e,
				       unsigned long limit)
{
	const struct twheel_hash_vec *hv = to_vec(e);

	return min(tw_level_next(hv->map, hv->bits, 0, e->clk), limit);
}

static struct twheel_timer *tw_vec_pop(struct twheel_engine *e)
{
	struct twheel_timer *t = tw_slots_pop(&to_vec(e)->collected);

	if (t)
		t->vec_slot = TW_VEC_IDLE;
	return t;
}

/**
 * twheel_hash_vec_storage_size() - bytes of storage a hash_vec engine needs
 * @nr_slots: its number of slots
 *
 * Return: the size of the storage twheel_hash_vec_init() takes for
 * @nr_slots: a struct twheel_vec_slot and a bit per slot. The arrays come
 * later, through twheel_hash_vec_give().
 */
size_t twheel_hash_vec_storage_size(unsigned int nr_slots)
{
	return nr_slots * sizeof(struct twheel_vec_slot) +
	       BITS_TO_LONGS(nr_slots) * sizeof(unsigned long);
}
EXPORT_SYMBOL_GPL(twheel_hash_vec_storage_size);

/**
 * twheel_hash_vec_init() - set up an empty hash_vec engine
 * @hv: the engine; the caller's storage
 * @clk: the first jiffy it is to process
 * @storage: twheel_hash_vec_storage_size(@nr_slots) bytes, the caller's,
 *	for the slots and their bitmap; its contents do not matter
 * @nr_slots: slots, a power of two from 2 to 2^TW_HASH_MAX_BITS
 *
 * Every slot empty, no spare array yet (the engine asks for its first
 * ones: twheel_hash_vec_wanted()), every counter at 0, @hv->e.clock_ns
 * NULL; its one level is level 0. Nothing is allocated.
 *
 * Return: 0, or -EINVAL if @nr_slots is not a power of two in range.
 */
int twheel_hash_vec_init(struct twheel_hash_vec *hv, unsigned long clk,
			 void *storage, unsigned int nr_slots)
{
	unsigned int k;

	if (nr_slots < 2 || nr_slots > 1U << TW_HASH_MAX_BITS ||
	    !is_power_of_2(nr_slots) || !storage)
		return -EINVAL;
	tw_engine_init(&hv->e, &twheel_hash_vec_ops, clk, 1);
	INIT_LIST_HEAD(&hv->collected);
	hv->bits = ilog2(nr_slots);
	hv->mask = nr_slots - 1;
	hv->slots = storage;
	memset(hv->slots, 0, nr_slots * sizeof(*hv->slots));
	hv->map = (unsigned long *)(hv->slots + nr_slots);
	bitmap_zero(hv->map, nr_slots);
	hv->avail = 0;
	hv->low = 0;
	hv->scarce = 0;
	hv->high = 0;
	memset(hv->pool, 0, sizeof(hv->pool));
	for (k = 0; k < TW_VEC_ORDERS; k++) {
		if (!k)
			hv->pool[k].keep = TW_VEC_KEEP_FIRST;
		else if (k < TW_VEC_SMALL_ORDERS)
			hv->pool[k].keep = TW_VEC_KEEP_SMALL;
		tw_vec_note(hv, k);
	}
	return 0;
}
EXPORT_SYMBOL_GPL(twheel_hash_vec_init);

/**
 * twheel_hash_vec_wanted() - which arrays the engine asks its caller for
 * @hv: the engine; only read
 * @order: set to the order asked for, when there is one
 *
 * The smallest order with fewer spares than the engine asks to keep. The
 * caller allocates arrays of twheel_hash_vec_array_size(*@order) bytes in
 * process context, with no lock held, and gives them with
 * twheel_hash_vec_give() under its lock; the engine may want others by then.
 *
 * Return: how many arrays of *@order it lacks, 0 if none of any order.
 */
u32 twheel_hash_vec_wanted(const struct twheel_hash_vec *hv,
			   unsigned int *order)
{
	unsigned int k = find_first_bit(&hv->low, TW_VEC_ORDERS);

	if (k >= TW_VEC_ORDERS)
		return 0;
	*order = k;
	return tw_vec_want(hv, k) - hv->pool[k].nr;
}
EXPORT_SYMBOL_GPL(twheel_hash_vec_wanted);

/**
 * twheel_hash_vec_give() - give the engine a spare array
 * @hv: the engine
 * @order: the array's order, below TW_VEC_ORDERS
 * @array: twheel_hash_vec_array_size(@order) bytes, the caller's, aligned
 *	for a pointer; its contents do not matter
 *
 * The engine keeps it until twheel_hash_vec_take() hands it back; it may
 * be more than the engine asked for.
 */
void twheel_hash_vec_give(struct twheel_hash_vec *hv, unsigned int order,
			  void *array)
{
	tw_vec_put(hv, order, array);
}
EXPORT_SYMBOL_GPL(twheel_hash_vec_give);

/**
 * twheel_hash_vec_take() - take a spare array back from the engine
 * @hv: the engine
 * @all: take any spare; else only one of an order with more than twice
 *	what the engine asks for, plus two
 *
 * Arrays in use by a slot are never taken. An engine that holds no timer
 * has every array as a spare: taking with @all until NULL empties it.
 *
 * Return: the array, now the caller's (one given with
 * twheel_hash_vec_give()), or NULL if there is none to take.
 */
void *twheel_hash_vec_take(struct twheel_hash_vec *hv, bool all)
{
	unsigned int k = find_first_bit(all ? &hv->avail : &hv->high,
					TW_VEC_ORDERS);

	return k < TW_VEC_ORDERS ? tw_vec_get(hv, k) : NULL;
}
EXPORT_SYMBOL_GPL(twheel_hash_vec_take);

/**
 * twheel_hash_vec_keep() - set how many spares of an order the engine keeps
 * @hv: the engine
 * @order: the order, below TW_VEC_ORDERS
 * @keep: spares to ask for, besides one per slot about to outgrow the order
 *	below (twheel_hash_vec_init() sets TW_VEC_KEEP_FIRST for order 0,
 *	TW_VEC_KEEP_SMALL for the orders below TW_VEC_SMALL_ORDERS, 0 above)
 */
void twheel_hash_vec_keep(struct twheel_hash_vec *hv, unsigned int order,
			  u32 keep)
{
	hv->pool[order].keep = keep;
	tw_vec_note(hv, order);
}
EXPORT_SYMBOL_GPL(twheel_hash_vec_keep);

/**
 * twheel_hash_vec_rounds() - turns of the wheel a timer still waits
 * @hv: the engine; only read
 * @t: a timer pending on it, not collected
 *
 * Return: the visits of its slot it waits through before the one it is due
 * at: (due jiffy - clock) / slots.
 */
unsigned long twheel_hash_vec_rounds(const struct twheel_hash_vec *hv,
				     const struct twheel_timer *t)
{
	const struct twheel_vec_slot *s = &hv->slots[t->vec_slot];

	return (s->ent[t->vec_idx].when - hv->e.clk) >> hv->bits;
}
EXPORT_SYMBOL_GPL(twheel_hash_vec_rounds);

/* twheel_ops.buckets: each slot's array holds its timers. */
static unsigned int tw_vec_buckets(const struct twheel_engine *e,
				   unsigned int *per, unsigned int n)
{
	const struct twheel_hash_vec *hv = container_of(e, struct twheel_hash_vec, e);
	unsigned int i;

	for (i = 0; i <= hv->mask; i++)
		per[i] = hv->slots[i].nr;
	return hv->mask + 1;
}

static unsigned int tw_vec_nr_buckets(const struct twheel_engine *e)
{
	return container_of(e, struct twheel_hash_vec, e)->mask + 1;
}

/*
 * twheel_ops.max_timers: each tick walks a slot, every timer in it whether
 * due or not: at most as many a slot on average as straight's tick walks
 * in all.
 */
static unsigned long tw_hash_vec_max_timers(const struct twheel_engine *e)
{
	return (unsigned long)TW_STRAIGHT_MAX_TIMERS * tw_vec_nr_buckets(e);
}

/* twheel_ops.storage_size */
static size_t tw_hash_vec_storage_size(const struct twheel_config *cfg)
{
	return twheel_hash_vec_storage_size(cfg->slots);
}

/* twheel_ops.init: the spares it keeps, of each size, from cfg->keep. */
static int tw_hash_vec_create(void *state, unsigned long clk,
			      const struct twheel_config *cfg, void *storage)
{
	struct twheel_hash_vec *hv = state;
	unsigned int k;
	int ret;

	ret = twheel_hash_vec_init(hv, clk, storage, cfg->slots);
	if (ret)
		return ret;
	twheel_hash_vec_keep(hv, 0, cfg->keep);
	for (k = 1; k < TW_VEC_SMALL_ORDERS; k++)
		twheel_hash_vec_keep(hv, k, min_t(unsigned int, cfg->keep,
						  TW_VEC_KEEP_SMALL));
	return 0;
}

/* The hash_vec engine's ops: struct twheel_hash_vec, twheel_hash_vec_init(). */
const struct twheel_ops twheel_hash_vec_ops = {
	.name		= "hash_vec",
	.kind		= TWHEEL_HASH_VEC,
	.setup		= tw_vec_setup,
	.pending	= tw_vec_pending,
	.admit		= tw_vec_admit,
	.enqueue	= tw_vec_enqueue,
	.dequeue	= tw_vec_dequeue,
	.bucket_of	= tw_no_bucket_of,
	.process	= tw_vec_process,
	.count		= tw_vec_count,
	.next_event	= tw_vec_next_event,
	.pop		= tw_vec_pop,
	.guarantee	= "exact; an arm it has no array for: -ENOMEM",
	.size		= sizeof(struct twheel_hash_vec),
	.offset		= offsetof(struct twheel_hash_vec, e),
	.storage_size	= tw_hash_vec_storage_size,
	.init		= tw_hash_vec_create,
	.entry		= TWHEEL_GENERIC_ENTRY,
	.buckets	= tw_vec_buckets,
	.nr_buckets	= tw_vec_nr_buckets,
	.max_timers	= tw_hash_vec_max_timers,
};
EXPORT_SYMBOL_GPL(twheel_hash_vec_ops);

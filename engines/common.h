/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the engines' own files share: level arithmetic, bucket bookkeeping
 * and the engine's common set-up. Only engine files include this; everyone
 * else uses twheel.h.
 */
#ifndef TWHEEL_ENGINES_COMMON_H
#define TWHEEL_ENGINES_COMMON_H

#include <linux/bitmap.h>
#include <linux/errno.h>
#include <linux/jiffies.h>
#include <linux/log2.h>
#include <linux/string.h>
#include "twheel.h"
#include "engines/entry.h"
#include "engines/classic.h"
#include "engines/hash.h"

/*
 * Jiffies from clk to the next jiffy at which a level with 2^bits slots of
 * 2^shift jiffies each has a set bit in map to process, or ULONG_MAX when
 * the level is empty. A slot is processed when the low shift bits of the
 * clock are zero and the next bits equal its index, so this serves both
 * the classic wheel (tv1: shift 0; tvN: the cascade points) and every level
 * of the modern wheel.
 */
static inline unsigned long tw_level_next(const unsigned long *map,
					  unsigned int bits, unsigned int shift,
					  unsigned long clk)
{
	unsigned long size = 1UL << bits;
	unsigned long lvl_clk = clk >> shift;
	unsigned long start, slot;

	/* The first processing point of this level at or after clk. */
	if (clk & ((1UL << shift) - 1))
		lvl_clk++;
	start = lvl_clk & (size - 1);
	slot = find_next_bit(map, size, start);
	if (slot >= size) {
		slot = find_first_bit(map, size);
		if (slot >= size)
			return ULONG_MAX;
		slot += size;
	}
	return ((lvl_clk + (slot - start)) << shift) - clk;
}

/* Jiffies from clk to the first processing point of a level at all. */
static inline unsigned long tw_level_first(unsigned int shift, unsigned long clk)
{
	unsigned long mask = (1UL << shift) - 1;

	return ((clk + mask) & ~mask) - clk;
}

/*
 * One-jiffy slots of FIFO lists with a bit per non-empty slot, and a
 * collected list: the hash and the simple engines. A timer links through
 * hash_link; its rounds is TW_HASH_COLLECTED while collected.
 */
static inline size_t tw_slots_storage_size(unsigned int nr_slots)
{
	return nr_slots * sizeof(struct list_head) +
	       BITS_TO_LONGS(nr_slots) * sizeof(unsigned long);
}

/* Empty slots in storage; returns their bitmap, after them. */
static inline unsigned long *tw_slots_init(struct list_head *slots,
					   unsigned int nr_slots)
{
	unsigned long *map = (unsigned long *)(slots + nr_slots);
	unsigned int i;

	for (i = 0; i < nr_slots; i++)
		INIT_LIST_HEAD(&slots[i]);
	bitmap_zero(map, nr_slots);
	return map;
}

static inline bool tw_slots_pending(const struct twheel_timer *t)
{
	return t->hash_link.next;
}

static inline void tw_slots_setup(struct twheel_timer *t)
{
	t->hash_link.next = NULL;
	t->hash_link.prev = NULL;
	t->rounds = 0;
}

/* Takes a pending t out of its slot or off the collected list. */
static inline void tw_slots_dequeue(struct twheel_engine *e,
				    struct list_head *slots,
				    unsigned long *map, struct twheel_timer *t)
{
	struct list_head *prev = t->hash_link.prev;
	bool last = prev == t->hash_link.next;

	list_del(&t->hash_link);
	t->hash_link.next = NULL;
	if (t->rounds == TW_HASH_COLLECTED)
		return;
	/* The only other entry was the slot's head: the slot is empty. */
	if (last)
		__clear_bit(prev - slots, map);
}

/* Moves a due t from its slot to the collected list. */
static inline void tw_slots_collect(struct twheel_engine *e,
				    struct list_head *collected,
				    struct twheel_timer *t)
{
	list_move_tail(&t->hash_link, collected);
	t->rounds = TW_HASH_COLLECTED;
}

/*
 * twheel_ops.count for the engines of timers on lists (through hash_link):
 * every timer of lists[0 .. n) is in level 0; returns the collected ones.
 */
static inline unsigned long tw_lists_count(const struct list_head *lists,
					   unsigned long n,
					   const struct list_head *collected,
					   unsigned long *per_level)
{
	const struct list_head *p;
	unsigned long i, c = 0;

	for (i = 0; i < n; i++)
		for (p = lists[i].next; p != &lists[i]; p = p->next)
			per_level[0]++;
	for (p = collected->next; p != collected; p = p->next)
		c++;
	return c;
}

/*
 * Files t in a list sorted by expiry, after the last timer that expires
 * no later (FIFO on ties): walked from the end, as new timers mostly go
 * far out (the sorted slots and the ordered list).
 */
static inline void tw_sorted_insert(struct list_head *head,
				    struct twheel_timer *t)
{
	struct list_head *pos;

	for (pos = head->prev; pos != head; pos = pos->prev)
		if (!time_after(list_entry(pos, struct twheel_timer,
					   hash_link)->expires, t->expires))
			break;
	list_add(&t->hash_link, pos);
}

static inline struct twheel_timer *tw_slots_pop(struct list_head *collected)
{
	struct twheel_timer *t;

	if (list_empty(collected))
		return NULL;
	t = list_first_entry(collected, struct twheel_timer, hash_link);
	list_del(&t->hash_link);
	t->hash_link.next = NULL;
	return t;
}

/* twheel_ops.bucket_of of an engine without buckets to mod in place in. */
static inline unsigned int tw_no_bucket_of(const struct twheel_engine *e,
					   unsigned long expires)
{
	return TWHEEL_NO_BUCKET;
}

/*
 * What the classic wheels' ops share (classic, classic_bounded): a timer
 * links through list, carries its slot in bucket; slots are FIFO lists.
 */
static inline void tw_cw_setup(struct twheel_timer *t)
{
	t->list.next = NULL;
	t->list.prev = NULL;
	t->bucket = TWHEEL_COLLECTED;
}

static inline bool tw_cw_pending(const struct twheel_timer *t)
{
	return t->list.next;
}

/* Every slot of vec (n of them) empty, its bit clear, nothing collected. */
static inline void tw_cw_init_slots(struct list_head *vec, unsigned long *map,
				    unsigned int n, struct list_head *collected)
{
	unsigned int i;

	INIT_LIST_HEAD(collected);
	bitmap_zero(map, n);
	for (i = 0; i < n; i++)
		INIT_LIST_HEAD(&vec[i]);
}

/*
 * The end of a classic wheel's jiffy: with count (the fast path's tick), a
 * jiffy with work, cascaded (or spread) or collected, counts in
 * st.events. Returns collected.
 */
static inline bool tw_cw_jiffy_done(struct twheel_engine *e, bool count,
				    bool moved, bool collected)
{
	if (count && (moved || collected))
		e->st.events++;
	return collected;
}

/* The members of struct twheel_ops both classic wheels share. */
#define TW_CW_OPS						\
	.setup		= tw_cw_setup,				\
	.pending	= tw_cw_pending,			\
	.range_pick	= tw_cw_range_pick

/* twheel_ops.pop: the first collected timer, marked not pending. */
static inline struct twheel_timer *tw_cw_ops_pop(struct list_head *collected)
{
	struct twheel_timer *t;

	t = list_first_entry_or_null(collected, struct twheel_timer, list);
	if (t) {
		list_del(&t->list);
		tw_cw_setup(t);
	}
	return t;
}

/* twheel_ops.count over n slots of vec and a collected list. */
static inline unsigned long tw_cw_count(const struct twheel_engine *e,
					const struct list_head *vec,
					unsigned int n,
					const struct list_head *collected,
					unsigned long *per_level)
{
	const struct twheel_timer *t;
	unsigned long c = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		list_for_each_entry(t, &vec[i], list)
			per_level[e->ops->level_of(e, i)]++;
	list_for_each_entry(t, collected, list)
		c++;
	return c;
}

/*
 * twheel_ops.buckets for buckets that are lists (of any link) or hlists:
 * the entries of each of vec[0 .. n) added to per[]; returns n.
 */
static inline unsigned int tw_count_lists(const struct list_head *vec,
					  unsigned int n, unsigned int *per)
{
	const struct list_head *p;
	unsigned int i;

	for (i = 0; i < n; i++)
		for (p = vec[i].next; p != &vec[i]; p = p->next)
			per[i]++;
	return n;
}

static inline unsigned int tw_count_hlists(const struct hlist_head *vec,
					   unsigned int n, unsigned int *per)
{
	const struct hlist_node *p;
	unsigned int i;

	for (i = 0; i < n; i++)
		for (p = vec[i].first; p; p = p->next)
			per[i]++;
	return n;
}

/* twheel_ops.buckets and .nr_buckets of the hashed wheels' slots. */
static inline unsigned int tw_hash_buckets(const struct twheel_engine *e,
					   unsigned int *per, unsigned int n)
{
	const struct twheel_hash *h = container_of(e, struct twheel_hash, e);

	return tw_count_lists(h->slots, h->mask + 1, per);
}

static inline unsigned int tw_hash_nr_buckets(const struct twheel_engine *e)
{
	return container_of(e, struct twheel_hash, e)->mask + 1;
}

/*
 * The ops the hashed wheels (hash, hash_sorted, simple: a struct
 * twheel_hash each) share; each has its own way to file a timer and to
 * scan the clock's slot.
 */
static inline struct twheel_hash *tw_hash_wheel(const struct twheel_engine *e)
{
	return container_of(e, struct twheel_hash, e);
}

static inline void tw_hash_wheel_dequeue(struct twheel_engine *e,
					 struct twheel_timer *t)
{
	struct twheel_hash *h = tw_hash_wheel(e);

	tw_slots_dequeue(e, h->slots, h->map, t);
}

/* The jiffy at the clock scanned; true if it collected (the list grew). */
static __always_inline bool
tw_hash_wheel_process(struct twheel_engine *e,
		      void (*scan)(struct twheel_engine *e))
{
	const struct list_head *tail = tw_hash_wheel(e)->collected.prev;

	scan(e);
	return tw_hash_wheel(e)->collected.prev != tail;
}

static inline unsigned long tw_hash_wheel_count(const struct twheel_engine *e,
						unsigned long *per_level)
{
	const struct twheel_hash *h = tw_hash_wheel(e);

	return tw_lists_count(h->slots, h->mask + 1, &h->collected, per_level);
}

/*
 * Every non-empty slot is work: due timers, rounds to count down (hash) or
 * a head to look at (hash_sorted).
 */
static inline unsigned long
tw_hash_wheel_next_event(const struct twheel_engine *e, unsigned long limit)
{
	const struct twheel_hash *h = tw_hash_wheel(e);

	return min(tw_level_next(h->map, h->bits, 0, e->clk), limit);
}

static inline struct twheel_timer *tw_hash_wheel_pop(struct twheel_engine *e)
{
	return tw_slots_pop(&tw_hash_wheel(e)->collected);
}

/* twheel_ops.storage_size of the wheels of cfg->slots slots (hash, hash_sorted) */
static inline size_t tw_hash_wheel_storage_size(const struct twheel_config *cfg)
{
	return twheel_hash_storage_size(cfg->slots);
}

/*
 * The members of struct twheel_ops the hashed wheels share: how a timer is
 * set up, looked at, taken out and popped, the count, the next event and
 * the buckets (the slots). Each engine's ops add its own enqueue, process,
 * state, constructor, guarantee and limits.
 */
#define TW_HASH_WHEEL_OPS						\
	.setup = tw_slots_setup, .pending = tw_slots_pending,		\
	.dequeue = tw_hash_wheel_dequeue, .pop = tw_hash_wheel_pop,	\
	.bucket_of = tw_no_bucket_of, .count = tw_hash_wheel_count,	\
	.next_event = tw_hash_wheel_next_event,				\
	.entry = TWHEEL_GENERIC_ENTRY,					\
	.buckets = tw_hash_buckets, .nr_buckets = tw_hash_nr_buckets

/*
 * A range pick for wheels whose levels start at 2^base jiffies and grow by
 * 2^step up to 2^top: the latest multiple in [lo, hi] of the coarsest level
 * start the range holds a multiple of, else hi. A timer due at such a
 * multiple moves down once, at that point, straight into level 0, where one
 * due between two points moves at each level on its way down. The range
 * holds a multiple of 2^s exactly when s is at most the highest bit in
 * which lo and hi differ (any s when it wraps: 0 is in it).
 */
static inline unsigned long tw_levels_range_pick(unsigned long lo, unsigned long hi,
						 unsigned int base, unsigned int step,
						 unsigned int top)
{
	unsigned int b = hi < lo ? BITS_PER_LONG - 1 : __fls((lo ^ hi) | 1);
	unsigned int s;

	if (b < base)
		return hi;
	s = b >= top ? top : b - (b - base) % step;
	return hi & ~((1UL << s) - 1);
}

/*
 * twheel_ops.range_pick of the classic wheels, Ratas' rule on their
 * levels: cascade points at 2^8, 2^14, 2^20 and 2^26 jiffies.
 */
static inline unsigned long tw_cw_range_pick(const struct twheel_engine *e,
					     unsigned long lo, unsigned long hi)
{
	return tw_levels_range_pick(lo, hi, TW_TVR_BITS, TW_TVN_BITS,
				    TW_TVR_BITS + (TW_CLASSIC_LEVELS - 2) * TW_TVN_BITS);
}

/*
 * The timing of cascades, which every engine that moves timers between its
 * levels keeps the same way (struct twheel_engine's clock_ns, cascade_ns
 * and on_cascade). Around one slot's cascade: tw_cascade_begin() reads the
 * lent clock only when the cascade is traced, and tw_cascade_end() counts
 * the cascade and the timers it moved, and traces it with the ns it took
 * (0 if not measured). Around all the cascades of one jiffy:
 * tw_cascades_begin() and tw_cascades_end() add their time to
 * cascade_ns while a clock is lent.
 */
static inline u64 tw_cascade_begin(const struct twheel_engine *e)
{
	return e->on_cascade && e->clock_ns ? e->clock_ns() : 0;
}

static inline void tw_cascade_end(struct twheel_engine *e, u64 t0,
				  unsigned int lvl, unsigned int slot,
				  unsigned int moved)
{
	e->st.cascades++;
	e->st.cascaded += moved;
	if (e->on_cascade)
		e->on_cascade(e, lvl, slot, moved, t0 ? e->clock_ns() - t0 : 0);
}

static inline u64 tw_cascades_begin(const struct twheel_engine *e)
{
	return e->clock_ns ? e->clock_ns() : 0;
}

static inline void tw_cascades_end(struct twheel_engine *e, u64 t0)
{
	if (e->clock_ns)
		e->cascade_ns += e->clock_ns() - t0;
}

static inline void tw_engine_init(struct twheel_engine *e,
				  const struct twheel_ops *ops,
				  unsigned long clk, unsigned int nr_levels)
{
	e->ops = ops;
	e->kind = ops->kind;
	e->clk = clk;
	e->nr_levels = nr_levels;
	memset(&e->st, 0, sizeof(e->st));
	e->clock_ns = NULL;
	e->cascade_ns = 0;
	e->on_cascade = NULL;
}

/* Sets up an empty hashed wheel of kind ops, its slots in storage. */
static inline int tw_hash_wheel_init(struct twheel_hash *h,
				     const struct twheel_ops *ops,
				     unsigned long clk, void *storage,
				     unsigned int nr_slots)
{
	if (nr_slots < 2 || nr_slots > 1U << TW_HASH_MAX_BITS ||
	    !is_power_of_2(nr_slots) || !storage)
		return -EINVAL;
	tw_engine_init(&h->e, ops, clk, 1);
	INIT_LIST_HEAD(&h->collected);
	h->bits = ilog2(nr_slots);
	h->mask = nr_slots - 1;
	h->slots = storage;
	h->map = tw_slots_init(h->slots, nr_slots);
	return 0;
}

#endif /* TWHEEL_ENGINES_COMMON_H */

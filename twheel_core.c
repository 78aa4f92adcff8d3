// SPDX-License-Identifier: GPL-2.0
/*
 * twheel engines: the classic (Linux 2.6) cascading wheel, the modern
 * (Linux >= 4.8) non-cascading wheel and an rbtree reference.
 *
 * No locks, no clocks, no printing, no allocation: see twheel.h.
 */
#include <linux/kernel.h>
#include <linux/bitmap.h>
#include <linux/jiffies.h>
#include <linux/rbtree.h>
#include <linux/export.h>
#include <linux/math64.h>
#include <linux/errno.h>
#include "twheel.h"

/*
 * Jiffies from clk to the next jiffy at which a level with 2^bits slots of
 * 2^shift jiffies each has a set bit in map to process, or ULONG_MAX when
 * the level is empty. A slot is processed when the low shift bits of the
 * clock are zero and the next bits equal its index, so this serves both
 * the classic wheel (tv1: shift 0; tvN: the cascade points) and every level
 * of the modern wheel.
 */
static unsigned long tw_level_next(const unsigned long *map, unsigned int bits,
				   unsigned int shift, unsigned long clk)
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
static unsigned long tw_level_first(unsigned int shift, unsigned long clk)
{
	unsigned long mask = (1UL << shift) - 1;

	return ((clk + mask) & ~mask) - clk;
}

/* ---- bookkeeping shared by the two wheels ---- */

static void tw_bucket_filed(struct twheel_engine *e, unsigned long *map,
			    struct twheel_timer *t, unsigned int idx)
{
	__set_bit(idx, map);
	t->bucket = idx;
	e->st.level_pending[twheel_bucket_level(e, idx)]++;
}

/* After t left bucket idx (or the collected list, idx TWHEEL_COLLECTED). */
static void tw_bucket_left(struct twheel_engine *e, unsigned long *map,
			   unsigned int idx, bool now_empty)
{
	if (idx == TWHEEL_COLLECTED)
		return;
	e->st.level_pending[twheel_bucket_level(e, idx)]--;
	if (now_empty)
		__clear_bit(idx, map);
}

/* ---- classic wheel ---- */

static struct twheel_classic *to_classic(const struct twheel_engine *e)
{
	return container_of(e, struct twheel_classic, e);
}

static void tw_classic_setup(struct twheel_timer *t)
{
	t->list.next = NULL;
	t->list.prev = NULL;
	t->bucket = TWHEEL_COLLECTED;
}

static bool tw_classic_pending(const struct twheel_timer *t)
{
	return t->list.next;
}

/* Shift of classic level lvl (0 = tv1 .. 4 = tv5). */
static unsigned int tw_classic_shift(unsigned int lvl)
{
	return lvl ? TW_TVR_BITS + (lvl - 1) * TW_TVN_BITS : 0;
}

static unsigned int tw_classic_offset(unsigned int lvl)
{
	return lvl ? TW_TVR_SIZE + (lvl - 1) * TW_TVN_SIZE : 0;
}

/* The slot the 2.6 wheel files expires in when its clock is clk. */
static unsigned int tw_classic_index(unsigned long expires, unsigned long clk)
{
	unsigned long delta = expires - clk;
	unsigned int lvl;

	if (delta < TW_TVR_SIZE)
		return expires & (TW_TVR_SIZE - 1);
	if ((long)delta < 0)		/* in the past: the jiffy about to run */
		return clk & (TW_TVR_SIZE - 1);
	if (delta > TW_CLASSIC_MAX_DELTA)
		expires = clk + TW_CLASSIC_MAX_DELTA;
	for (lvl = 1; lvl < TW_CLASSIC_LEVELS - 1; lvl++)
		if (delta < 1UL << tw_classic_shift(lvl + 1))
			break;
	return tw_classic_offset(lvl) +
	       ((expires >> tw_classic_shift(lvl)) & (TW_TVN_SIZE - 1));
}

static unsigned int tw_classic_bucket_of(const struct twheel_engine *e,
					 unsigned long expires)
{
	return tw_classic_index(expires, e->clk);
}

static void tw_classic_enqueue(struct twheel_engine *e, struct twheel_timer *t)
{
	struct twheel_classic *c = to_classic(e);
	unsigned int idx = tw_classic_index(t->expires, e->clk);

	list_add_tail(&t->list, c->vec + idx);	/* FIFO within a slot */
	tw_bucket_filed(e, c->pending_map, t, idx);
}

static void tw_classic_dequeue(struct twheel_engine *e, struct twheel_timer *t)
{
	struct twheel_classic *c = to_classic(e);
	unsigned int idx = t->bucket;

	list_del(&t->list);
	tw_classic_setup(t);
	tw_bucket_left(e, c->pending_map, idx,
		       idx != TWHEEL_COLLECTED && list_empty(c->vec + idx));
}

/* Re-files every timer of one tvN slot against the current clock. */
static void tw_classic_cascade(struct twheel_classic *c, unsigned int lvl)
{
	struct twheel_engine *e = &c->e;
	unsigned int slot = (e->clk >> tw_classic_shift(lvl)) & (TW_TVN_SIZE - 1);
	unsigned int idx = tw_classic_offset(lvl) + slot;
	struct twheel_timer *t, *tmp;
	LIST_HEAD(moving);
	unsigned int n = 0;
	u64 t0 = 0;

	if (!__test_and_clear_bit(idx, c->pending_map))
		return;
	if (e->on_cascade && e->clock_ns)
		t0 = e->clock_ns();
	list_replace_init(c->vec + idx, &moving);
	list_for_each_entry_safe(t, tmp, &moving, list) {
		list_del(&t->list);
		tw_classic_enqueue(e, t);
		n++;
	}
	e->st.level_pending[lvl] -= n;
	e->st.cascades++;
	e->st.cascaded += n;
	if (e->on_cascade)
		e->on_cascade(e, lvl, slot, n, t0 ? e->clock_ns() - t0 : 0);
}

/*
 * tv1 wrapped: cascade tv2's slot; a level further up only when the level
 * below it wrapped too.
 */
static void tw_classic_cascades(struct twheel_classic *c)
{
	unsigned int lvl;

	for (lvl = 1; lvl < TW_CLASSIC_LEVELS; lvl++) {
		if (c->e.clk & ((1UL << tw_classic_shift(lvl)) - 1))
			break;
		tw_classic_cascade(c, lvl);
	}
}

static void tw_classic_process(struct twheel_engine *e)
{
	struct twheel_classic *c = to_classic(e);
	unsigned int idx = e->clk & (TW_TVR_SIZE - 1);
	struct twheel_timer *t;
	unsigned int n = 0;

	if (!idx && e->clock_ns) {
		u64 t0 = e->clock_ns();

		tw_classic_cascades(c);
		e->cascade_ns += e->clock_ns() - t0;
	} else if (!idx) {
		tw_classic_cascades(c);
	}
	if (!__test_and_clear_bit(idx, c->pending_map))
		return;
	list_for_each_entry(t, c->vec + idx, list) {
		t->bucket = TWHEEL_COLLECTED;
		n++;
	}
	list_splice_tail_init(c->vec + idx, &c->collected);
	e->st.level_pending[0] -= n;
	e->st.collected += n;
}

static unsigned long tw_classic_next_event(const struct twheel_engine *e,
					   unsigned long limit)
{
	const struct twheel_classic *c = to_classic(e);
	unsigned long best = limit, d;
	unsigned int lvl, shift, bits;

	for (lvl = 0; lvl < TW_CLASSIC_LEVELS; lvl++) {
		shift = tw_classic_shift(lvl);
		/*
		 * A bounded look-up, as Ratas' ticks_until_next_event(max):
		 * level lvl has no work before clk next reaches a multiple of
		 * its granularity, and every higher level's first point is
		 * later still; once that point is at or past the best answer
		 * so far (at first the caller's limit), no level can beat it.
		 */
		if (tw_level_first(shift, e->clk) >= best)
			break;
		bits = lvl ? TW_TVN_BITS : TW_TVR_BITS;
		d = tw_level_next(c->pending_map + BIT_WORD(tw_classic_offset(lvl)),
				  bits, shift, e->clk);
		best = min(best, d);
	}
	return best;
}

static struct twheel_timer *tw_classic_pop(struct twheel_engine *e)
{
	struct twheel_classic *c = to_classic(e);
	struct twheel_timer *t;

	t = list_first_entry_or_null(&c->collected, struct twheel_timer, list);
	if (t) {
		list_del(&t->list);
		tw_classic_setup(t);
	}
	return t;
}

/* The classic wheel's ops: struct twheel_classic, twheel_classic_init(). */
const struct twheel_ops twheel_classic_ops = {
	.name		= "classic",
	.kind		= TWHEEL_CLASSIC,
	.setup		= tw_classic_setup,
	.pending	= tw_classic_pending,
	.enqueue	= tw_classic_enqueue,
	.dequeue	= tw_classic_dequeue,
	.bucket_of	= tw_classic_bucket_of,
	.process	= tw_classic_process,
	.next_event	= tw_classic_next_event,
	.pop		= tw_classic_pop,
};
EXPORT_SYMBOL_GPL(twheel_classic_ops);

static void tw_engine_init(struct twheel_engine *e, const struct twheel_ops *ops,
			   unsigned long clk, unsigned int nr_levels)
{
	e->ops = ops;
	e->clk = clk;
	e->nr_levels = nr_levels;
	memset(&e->st, 0, sizeof(e->st));
	e->clock_ns = NULL;
	e->cascade_ns = 0;
	e->on_cascade = NULL;
}

/**
 * twheel_classic_init() - set up an empty classic wheel
 * @c: the wheel; the caller's storage (about 8 KiB on 64-bit)
 * @clk: the first jiffy it is to process
 *
 * Every slot and the collected list start empty, every counter of
 * @c->e.st at 0, @c->e.clock_ns NULL (not measured) and
 * @c->e.cascade_ns 0. Nothing is allocated, so there is nothing to tear
 * down; initialising it again drops the timers it held without marking
 * them not pending.
 */
void twheel_classic_init(struct twheel_classic *c, unsigned long clk)
{
	unsigned int i;

	tw_engine_init(&c->e, &twheel_classic_ops, clk, TW_CLASSIC_LEVELS);
	INIT_LIST_HEAD(&c->collected);
	bitmap_zero(c->pending_map, TW_CLASSIC_BUCKETS);
	for (i = 0; i < TW_CLASSIC_BUCKETS; i++)
		INIT_LIST_HEAD(&c->vec[i]);
}
EXPORT_SYMBOL_GPL(twheel_classic_init);

/* ---- modern wheel ---- */

static struct twheel_modern *to_modern(const struct twheel_engine *e)
{
	return container_of(e, struct twheel_modern, e);
}

/**
 * twheel_modern_index() - where the modern wheel files an expiry now
 * @m: the wheel; only read
 * @expires: the absolute jiffy, taken against @m's clock wrap-safely
 * @bucket_expiry: set to the jiffy that bucket is processed at
 *
 * The bucket the kernel's wheel files @expires in when its clock is
 * @m->e.clk, and the jiffy that bucket is processed at. Rounding up to the
 * next multiple of the level's granularity is what keeps a timer from ever
 * firing early: within the wheel's range @bucket_expiry is at least
 * @expires + 1. An @expires before the clock goes to the clock's own
 * level-0 bucket (@bucket_expiry is the clock); a delta of @m->cutoff or
 * more is clamped to @m->max_delta first, in the last level, as the kernel
 * clamps its own, and so comes before @expires.
 *
 * Return: the bucket index, level * TW_LVL_SIZE + slot.
 */
unsigned int twheel_modern_index(const struct twheel_modern *m,
				 unsigned long expires,
				 unsigned long *bucket_expiry)
{
	unsigned long clk = m->e.clk;
	unsigned long delta = expires - clk;
	unsigned int depth = m->e.nr_levels;
	unsigned int lvl;

	if ((long)delta < 0) {
		*bucket_expiry = clk;
		return clk & (TW_LVL_SIZE - 1);
	}
	if (delta >= m->cutoff) {
		expires = clk + m->max_delta;
		lvl = depth - 1;
	} else {
		for (lvl = 0; lvl < depth - 1; lvl++)
			if (delta < tw_lvl_start(lvl + 1))
				break;
	}
	expires = (expires >> tw_lvl_shift(lvl)) + 1;
	*bucket_expiry = expires << tw_lvl_shift(lvl);
	return lvl * TW_LVL_SIZE + (expires & (TW_LVL_SIZE - 1));
}
EXPORT_SYMBOL_GPL(twheel_modern_index);

static unsigned int tw_modern_bucket_of(const struct twheel_engine *e,
					unsigned long expires)
{
	unsigned long bucket_expiry;

	return twheel_modern_index(to_modern(e), expires, &bucket_expiry);
}

static void tw_modern_setup(struct twheel_timer *t)
{
	INIT_HLIST_NODE(&t->entry);
	t->bucket = TWHEEL_COLLECTED;
}

static bool tw_modern_pending(const struct twheel_timer *t)
{
	return !hlist_unhashed(&t->entry);
}

static void tw_modern_enqueue(struct twheel_engine *e, struct twheel_timer *t)
{
	struct twheel_modern *m = to_modern(e);
	unsigned int idx = tw_modern_bucket_of(e, t->expires);

	hlist_add_head(&t->entry, m->vec + idx);	/* as the kernel does */
	tw_bucket_filed(e, m->pending_map, t, idx);
}

static void tw_modern_dequeue(struct twheel_engine *e, struct twheel_timer *t)
{
	struct twheel_modern *m = to_modern(e);
	unsigned int idx = t->bucket;

	/* The collected list is appended to through a tail pointer. */
	if (idx == TWHEEL_COLLECTED && m->collected_tail == &t->entry.next)
		m->collected_tail = t->entry.pprev;
	hlist_del_init(&t->entry);
	t->bucket = TWHEEL_COLLECTED;
	tw_bucket_left(e, m->pending_map, idx,
		       idx != TWHEEL_COLLECTED && hlist_empty(m->vec + idx));
}

static void tw_modern_collect(struct twheel_modern *m, unsigned int idx)
{
	struct twheel_timer *t;
	struct hlist_node *tmp;
	unsigned int n = 0;

	if (!__test_and_clear_bit(idx, m->pending_map))
		return;
	hlist_for_each_entry_safe(t, tmp, m->vec + idx, entry) {
		hlist_del(&t->entry);
		t->entry.next = NULL;
		t->entry.pprev = m->collected_tail;
		*m->collected_tail = &t->entry;
		m->collected_tail = &t->entry.next;
		t->bucket = TWHEEL_COLLECTED;
		n++;
	}
	m->e.st.level_pending[idx / TW_LVL_SIZE] -= n;
	m->e.st.collected += n;
}

static void tw_modern_process(struct twheel_engine *e)
{
	struct twheel_modern *m = to_modern(e);
	unsigned int idx[TW_MODERN_MAX_LEVELS], n = 0, lvl;
	unsigned long clk = e->clk;

	/* Level n is looked at only when the low 3n bits of clk are zero. */
	for (lvl = 0; lvl < e->nr_levels; lvl++) {
		idx[n++] = lvl * TW_LVL_SIZE + (clk & (TW_LVL_SIZE - 1));
		if (clk & ((1UL << TW_LVL_CLK_SHIFT) - 1))
			break;
		clk >>= TW_LVL_CLK_SHIFT;
	}
	/* As the kernel's __run_timers(): the highest level's bucket first. */
	while (n--)
		tw_modern_collect(m, idx[n]);
}

static unsigned long tw_modern_next_event(const struct twheel_engine *e,
					  unsigned long limit)
{
	const struct twheel_modern *m = to_modern(e);
	unsigned long best = limit, d;
	unsigned int lvl, shift;

	for (lvl = 0; lvl < e->nr_levels; lvl++) {
		shift = tw_lvl_shift(lvl);
		if (tw_level_first(shift, e->clk) >= best)
			break;
		d = tw_level_next(m->pending_map + BIT_WORD(lvl * TW_LVL_SIZE),
				  TW_LVL_BITS, shift, e->clk);
		best = min(best, d);
	}
	return best;
}

static struct twheel_timer *tw_modern_pop(struct twheel_engine *e)
{
	struct twheel_modern *m = to_modern(e);
	struct twheel_timer *t;

	if (hlist_empty(&m->collected))
		return NULL;
	t = hlist_entry(m->collected.first, struct twheel_timer, entry);
	tw_modern_dequeue(e, t);
	return t;
}

/* The modern wheel's ops: struct twheel_modern, twheel_modern_init(). */
const struct twheel_ops twheel_modern_ops = {
	.name		= "modern",
	.kind		= TWHEEL_MODERN,
	.setup		= tw_modern_setup,
	.pending	= tw_modern_pending,
	.enqueue	= tw_modern_enqueue,
	.dequeue	= tw_modern_dequeue,
	.bucket_of	= tw_modern_bucket_of,
	.process	= tw_modern_process,
	.next_event	= tw_modern_next_event,
	.pop		= tw_modern_pop,
};
EXPORT_SYMBOL_GPL(twheel_modern_ops);

/**
 * twheel_modern_init() - set up an empty modern wheel
 * @m: the wheel; the caller's storage (about 5 KiB on 64-bit)
 * @clk: the first jiffy it is to process
 * @depth: its levels, 2 to TW_MODERN_MAX_LEVELS (the kernel's is
 *	TW_MODERN_DEFAULT_DEPTH)
 *
 * Every bucket and the collected list start empty, every counter of
 * @m->e.st at 0, @m->e.clock_ns NULL (not measured) and
 * @m->e.cascade_ns 0. Deltas of tw_lvl_start(@depth) jiffies or more will
 * be clamped to that less the last level's granularity, as the kernel
 * does. Nothing is allocated.
 *
 * Return: 0, or -EINVAL if @depth is out of range (@m is left untouched).
 */
int twheel_modern_init(struct twheel_modern *m, unsigned long clk,
		       unsigned int depth)
{
	unsigned int i;

	if (depth < 2 || depth > TW_MODERN_MAX_LEVELS)
		return -EINVAL;
	tw_engine_init(&m->e, &twheel_modern_ops, clk, depth);
	m->cutoff = tw_lvl_start(depth);
	m->max_delta = m->cutoff - tw_lvl_gran(depth - 1);
	INIT_HLIST_HEAD(&m->collected);
	m->collected_tail = &m->collected.first;
	bitmap_zero(m->pending_map, TW_MODERN_BUCKETS);
	for (i = 0; i < TW_MODERN_BUCKETS; i++)
		INIT_HLIST_HEAD(&m->vec[i]);
	return 0;
}
EXPORT_SYMBOL_GPL(twheel_modern_init);

/**
 * twheel_level_info() - one row of the modern wheel's level table
 * @hz: jiffies a second the ms columns are computed for; not 0
 * @depth: the wheel's levels (decides the last level's @li->file_hi)
 * @lvl: the level, below @depth
 * @li: filled in, every member
 *
 * A pure function of its arguments, for the read-outs and the KUnit checks
 * against the table at the top of the kernel's kernel/time/timer.c; see
 * struct twheel_level_info for what each member holds.
 */
void twheel_level_info(unsigned int hz, unsigned int depth, unsigned int lvl,
		       struct twheel_level_info *li)
{
	li->level = lvl;
	li->offset = lvl * TW_LVL_SIZE;
	li->gran = tw_lvl_gran(lvl);
	/* The kernel's table: level n covers [64 * 8^(n-1), 64 * 8^n). */
	li->start = lvl ? (unsigned long)TW_LVL_SIZE << tw_lvl_shift(lvl - 1) : 0;
	li->end = ((unsigned long)TW_LVL_SIZE << tw_lvl_shift(lvl)) - 1;
	li->gran_ms = div_u64((u64)li->gran * MSEC_PER_SEC, hz);
	li->start_ms = div_u64((u64)li->start * MSEC_PER_SEC, hz);
	li->end_ms = div_u64((u64)li->end * MSEC_PER_SEC, hz);
	/*
	 * The kernel's comment writes two ends its own way: its 9-level
	 * tables end the last level at jiffy 2^30 - 2, and at HZ 250 a range
	 * ends at the last ms of its last jiffy rather than at its first.
	 */
	if (lvl == 8)
		li->table_end_ms = div_u64((u64)(li->end - 1) * MSEC_PER_SEC, hz);
	else if (hz == 250)
		li->table_end_ms = (u64)(li->end + 1) * (MSEC_PER_SEC / hz) - 1;
	else
		li->table_end_ms = li->end_ms;
	li->file_lo = lvl ? tw_lvl_start(lvl) : 0;
	li->file_hi = lvl + 1 < depth ? tw_lvl_start(lvl + 1) - 1 : ULONG_MAX;
}
EXPORT_SYMBOL_GPL(twheel_level_info);

/* ---- reference: two rbtrees ordered by expiry ---- */

static struct twheel_reference *to_ref(const struct twheel_engine *e)
{
	return container_of(e, struct twheel_reference, e);
}

static bool tw_ref_less(struct rb_node *a, const struct rb_node *b)
{
	/* Ties go right, so equal expiries keep their insertion order. */
	return time_before(rb_entry(a, struct twheel_timer, node)->expires,
			   rb_entry(b, struct twheel_timer, node)->expires);
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

static void tw_ref_enqueue(struct twheel_engine *e, struct twheel_timer *t)
{
	rb_add_cached(&t->node, &to_ref(e)->armed, tw_ref_less);
	e->st.level_pending[0]++;
}

static void tw_ref_dequeue(struct twheel_engine *e, struct twheel_timer *t)
{
	struct twheel_reference *r = to_ref(e);
	struct rb_node *top = &t->node;

	while (rb_parent(top))
		top = rb_parent(top);
	if (top == r->armed.rb_root.rb_node) {
		rb_erase_cached(&t->node, &r->armed);
		e->st.level_pending[0]--;
	} else {
		rb_erase_cached(&t->node, &r->due);
	}
	RB_CLEAR_NODE(&t->node);
}

static void tw_ref_process(struct twheel_engine *e)
{
	struct twheel_reference *r = to_ref(e);
	struct rb_node *n;
	struct twheel_timer *t;

	while ((n = rb_first_cached(&r->armed))) {
		t = rb_entry(n, struct twheel_timer, node);
		/* Due: at or before clk (timers armed in the past fire now). */
		if (time_after(t->expires, e->clk))
			break;
		rb_erase_cached(n, &r->armed);
		/* Always the greatest so far: keeps firing order in "due". */
		rb_add_cached(n, &r->due, tw_ref_less);
		e->st.level_pending[0]--;
		e->st.collected++;
	}
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

/* The reference's ops: struct twheel_reference, twheel_reference_init(). */
const struct twheel_ops twheel_reference_ops = {
	.name		= "reference",
	.kind		= TWHEEL_REFERENCE,
	.setup		= tw_ref_setup,
	.pending	= tw_ref_pending,
	.enqueue	= tw_ref_enqueue,
	.dequeue	= tw_ref_dequeue,
	.bucket_of	= tw_ref_bucket_of,
	.process	= tw_ref_process,
	.next_event	= tw_ref_next_event,
	.pop		= tw_ref_pop,
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

/* ---- the engine-independent operations ---- */

/**
 * twheel_bucket_level() - the level of a bucket index, for occupancy read-outs
 * @e: the engine, for its kind
 * @bucket: a bucket index of @e's kind (a real one: not TWHEEL_COLLECTED
 *	or TWHEEL_NO_BUCKET)
 *
 * Return: the classic wheel: 0 for tv1, 1 to 4 for tv2 to tv5; the modern
 * wheel: @bucket / TW_LVL_SIZE; the reference engine: always 0.
 */
unsigned int twheel_bucket_level(const struct twheel_engine *e,
				 unsigned int bucket)
{
	switch (e->ops->kind) {
	case TWHEEL_CLASSIC:
		if (bucket < TW_TVR_SIZE)
			return 0;
		return 1 + (bucket - TW_TVR_SIZE) / TW_TVN_SIZE;
	case TWHEEL_MODERN:
		return bucket / TW_LVL_SIZE;
	default:
		return 0;
	}
}
EXPORT_SYMBOL_GPL(twheel_bucket_level);

/**
 * twheel_timer_setup() - prepare a timer for an engine
 * @e: the engine the timer is to be armed on
 * @t: the timer; must not be pending on any engine
 * @fn: its callback, stored in @t->function
 *
 * Marks @t not pending the way @e's kind of engine tells it, and sets
 * @t->expires to 0. Needed once before @t is first armed on @e, and again
 * before it moves to another engine (a timer belongs to one engine at a
 * time). Counts nothing.
 */
void twheel_timer_setup(struct twheel_engine *e, struct twheel_timer *t,
			twheel_fn_t fn)
{
	e->ops->setup(t);
	t->expires = 0;
	t->function = fn;
}
EXPORT_SYMBOL_GPL(twheel_timer_setup);

/**
 * twheel_pending() - whether a timer is pending on an engine
 * @e: the engine
 * @t: a timer set up for @e with twheel_timer_setup()
 *
 * Return: true if @t is armed, or was collected by twheel_advance() and not
 * yet handed out by twheel_pop(); false once popped or deleted, or if it
 * was never armed.
 */
bool twheel_pending(const struct twheel_engine *e, const struct twheel_timer *t)
{
	return e->ops->pending(t);
}
EXPORT_SYMBOL_GPL(twheel_pending);

/**
 * twheel_add() - arm a timer that is not pending
 * @e: the engine
 * @t: the timer, set up for @e
 * @expires: the absolute jiffy it is to run at
 *
 * @expires is taken against the engine's clock wrap-safely, as
 * time_before() does: an @expires before the clock (the next jiffy to
 * process) runs at that next jiffy. Otherwise @t never runs before
 * @expires: at exactly @expires on the classic wheel and the reference,
 * on the modern wheel at the end of its bucket's granule, at least
 * @expires + 1 (as the kernel's wheel). The one exception is the modern
 * wheel's clamp, as the kernel's: a delta beyond its last level's reach
 * is cut to it, and such a timer runs before @expires. Counts
 * st.added and st.pending.
 *
 * Return: 0, or -EBUSY if @t is already pending (armed, or collected and
 * not yet popped): then nothing changes, @t keeps its expiry and nothing
 * is counted.
 */
int twheel_add(struct twheel_engine *e, struct twheel_timer *t,
	       unsigned long expires)
{
	if (e->ops->pending(t))
		return -EBUSY;
	t->expires = expires;
	e->ops->enqueue(e, t);
	e->st.added++;
	e->st.pending++;
	return 0;
}
EXPORT_SYMBOL_GPL(twheel_add);

/**
 * twheel_del() - disarm a timer
 * @e: the engine
 * @t: the timer, set up for @e
 *
 * A pending timer is taken out of its bucket or, if it was collected and
 * not yet popped, out of the collected list: either way it will not run.
 * Counts st.deleted and takes it off st.pending (and off its level's
 * st.level_pending while in a bucket). A timer that is not pending is left
 * as it is, and nothing is counted.
 *
 * Return: true if @t was pending, false if not.
 */
bool twheel_del(struct twheel_engine *e, struct twheel_timer *t)
{
	if (!e->ops->pending(t))
		return false;
	e->ops->dequeue(e, t);
	e->st.deleted++;
	e->st.pending--;
	return true;
}
EXPORT_SYMBOL_GPL(twheel_del);

/**
 * twheel_mod() - give a timer a new expiry, arming it if need be
 * @e: the engine
 * @t: the timer, set up for @e
 * @expires: the absolute jiffy it is to run at, as for twheel_add()
 *
 * A timer that is not pending is armed as twheel_add() does (and counted
 * as it counts: st.added, st.pending). A pending one counts st.modified
 * and then:
 *
 * - the expiry it already has: nothing changes (st.mod_noop); a collected
 *   timer stays collected and runs when popped;
 * - an expiry that files in the bucket it is in: only @t->expires changes,
 *   no relink (st.mod_inplace; never for a collected timer, nor on the
 *   reference engine, which has no buckets);
 * - otherwise it is taken out (of its bucket, or of the collected list: it
 *   will not run for its old expiry) and filed again for @expires.
 *
 * Return: true if @t was pending, false if it was armed afresh.
 */
bool twheel_mod(struct twheel_engine *e, struct twheel_timer *t,
		unsigned long expires)
{
	unsigned int idx;

	if (!e->ops->pending(t)) {
		twheel_add(e, t, expires);
		return false;
	}
	e->st.modified++;
	if (t->expires == expires) {
		e->st.mod_noop++;
		return true;
	}
	/*
	 * Same bucket: only the expiry changes. A collected timer's bucket
	 * is TWHEEL_COLLECTED, which no wheel index equals.
	 */
	idx = e->ops->bucket_of(e, expires);
	if (idx != TWHEEL_NO_BUCKET && idx == t->bucket) {
		t->expires = expires;
		e->st.mod_inplace++;
		return true;
	}
	e->ops->dequeue(e, t);
	t->expires = expires;
	e->ops->enqueue(e, t);
	return true;
}
EXPORT_SYMBOL_GPL(twheel_mod);

/**
 * twheel_next_event() - how far the next jiffy with work is
 * @e: the engine; only read
 * @limit: the most to report
 *
 * A jiffy has work if the engine collects timers at it, or (classic) has a
 * non-empty slot to cascade. Timers already collected and waiting for
 * twheel_pop() are not looked at.
 *
 * Return: jiffies from the clock (the next jiffy to process) to the next
 * jiffy with work, 0 if the clock itself has work; @limit if there is
 * none before it.
 */
unsigned long twheel_next_event(const struct twheel_engine *e,
				unsigned long limit)
{
	return e->ops->next_event(e, limit);
}
EXPORT_SYMBOL_GPL(twheel_next_event);

/**
 * twheel_advance() - process every jiffy up to and including @now
 * @e: the engine
 * @now: the last jiffy to process, an absolute jiffy taken against the
 *	clock wrap-safely
 *
 * Processes every jiffy from the clock up to and including @now, skipping
 * the jiffies at which the engine has nothing to do (twheel_next_event()),
 * and leaves the clock at @now + 1. At each jiffy with work the classic
 * wheel cascades first, then every engine collects the timers due: they
 * are still pending, and wait in the engine for twheel_pop() (or
 * twheel_del() or twheel_mod(), which take them back). No callback is
 * run here.
 *
 * Counts st.advances once, st.jiffies for every jiffy covered, st.events
 * for each jiffy processed, st.collected for each timer collected (and
 * the classic wheel's st.cascades and st.cascaded). If @now is before the
 * clock nothing happens and nothing is counted.
 *
 * Return: how many timers were collected.
 */
unsigned long twheel_advance(struct twheel_engine *e, unsigned long now)
{
	u64 before = e->st.collected;
	unsigned long span, d;

	if (time_before(now, e->clk))
		return 0;
	span = now - e->clk;
	e->st.advances++;
	e->st.jiffies += span + 1;
	for (;;) {
		d = e->ops->next_event(e, span + 1);
		if (d > span)
			break;
		e->clk += d;
		span -= d;
		e->ops->process(e);
		e->st.events++;
		if (!span)
			break;
		e->clk++;
		span--;
	}
	e->clk = now + 1;
	return e->st.collected - before;
}
EXPORT_SYMBOL_GPL(twheel_advance);

/**
 * twheel_run_until() - run every timer due up to and including @now
 * @e: the engine
 * @now: the last jiffy to process
 * @fn: called once for each timer that falls due, in the engine's order
 * @arg: passed to @fn
 *
 * Advances @e one jiffy with work at a time (twheel_next_event() finds the
 * next one, so idle stretches cost one look-up) and hands every timer
 * collected there to @fn before going further, so each callback knows the
 * jiffy it belongs to and may re-arm itself or delete others. Leaves the
 * clock at @now + 1; does nothing if @now is before the clock.
 *
 * Return: the number of timers handed to @fn.
 */
unsigned long twheel_run_until(struct twheel_engine *e, unsigned long now,
			       twheel_run_fn fn, void *arg)
{
	struct twheel_timer *t;
	unsigned long span, d, jiffy, n = 0;

	while (!time_after(e->clk, now)) {
		span = now - e->clk;
		d = twheel_next_event(e, span + 1);
		if (d > span) {
			twheel_advance(e, now);
			break;
		}
		jiffy = e->clk + d;
		twheel_advance(e, jiffy);
		while ((t = twheel_pop(e))) {
			fn(t, jiffy, arg);
			n++;
		}
	}
	return n;
}
EXPORT_SYMBOL_GPL(twheel_run_until);

/**
 * twheel_pop() - hand out the next collected timer
 * @e: the engine
 *
 * Takes the first of the timers twheel_advance() collected off the engine,
 * in the order they fire: jiffy by jiffy, and within a jiffy in slot order
 * (first filed first) on the classic wheel, the kernel's order on the
 * modern wheel (level by level; in a bucket, an hlist, last filed first)
 * and expiry order, FIFO on ties, on the reference. The timer is no longer
 * pending: the caller runs its ->function, which may arm it again. Counts
 * st.expired and takes it off st.pending.
 *
 * Return: the timer, or NULL if no collected timer is waiting.
 */
struct twheel_timer *twheel_pop(struct twheel_engine *e)
{
	struct twheel_timer *t = e->ops->pop(e);

	if (t) {
		e->st.expired++;
		e->st.pending--;
	}
	return t;
}
EXPORT_SYMBOL_GPL(twheel_pop);

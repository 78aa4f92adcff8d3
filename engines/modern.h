/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The modern (Linux >= 4.8) wheel: its type and its fast paths, inlined
 * into twheel_add_as() and the others (engines/registry.h) and behind
 * twheel_add() out of line; the rest is in engines/modern.c.
 *
 * Guarantee: never early, late by at most the granularity of the level a
 * timer is filed in (1/8 of its delta at worst), in the bucket the kernel's
 * calc_wheel_index() picks, and run in the kernel's order; deltas beyond the
 * last level are clamped as the kernel clamps them (then it runs before its
 * expiry). Start and stop O(1), a tick O(levels) plus the timers it runs;
 * no cascades. Memory: the timer's 40 bytes; the wheel about 5 KiB.
 */
#ifndef TWHEEL_ENGINES_MODERN_H
#define TWHEEL_ENGINES_MODERN_H

#include "twheel.h"

/* Modern (Linux >= 4.8) wheel: 64 buckets a level, granularity x8 a level. */
#define TW_LVL_BITS		6
#define TW_LVL_SIZE		BIT(TW_LVL_BITS)
#define TW_LVL_CLK_SHIFT	3
#define TW_MODERN_MAX_LEVELS	9
#define TW_MODERN_BUCKETS	(TW_LVL_SIZE * TW_MODERN_MAX_LEVELS)
/* The kernel's depth: 9 levels when HZ > 100, else 8. */
#define TW_MODERN_DEFAULT_DEPTH	(HZ > 100 ? 9 : 8)

/* The modern wheel's geometry, in jiffies (for any depth). */
static inline unsigned int tw_lvl_shift(unsigned int lvl)
{
	return lvl * TW_LVL_CLK_SHIFT;
}

static inline unsigned long tw_lvl_gran(unsigned int lvl)
{
	return 1UL << tw_lvl_shift(lvl);
}

/* First delta filed in level lvl (lvl >= 1). */
static inline unsigned long tw_lvl_start(unsigned int lvl)
{
	return (unsigned long)(TW_LVL_SIZE - 1) << tw_lvl_shift(lvl - 1);
}

/**
 * struct twheel_level_info - one row of the modern wheel's level table
 * @level: the level
 * @offset: its first bucket index
 * @gran: its granularity, jiffies
 * @start: first jiffy of its range as the kernel's table gives it,
 *	64 * 8^(n-1) (0 for level 0)
 * @end: last jiffy of that range, 64 * 8^n - 1
 * @gran_ms: @gran in ms, truncated
 * @start_ms: @start in ms, truncated
 * @end_ms: @end in ms, truncated
 * @table_end_ms: the range's end exactly as the comment at the top of the
 *	kernel's kernel/time/timer.c prints it (its tables for HZ 100, 250,
 *	300 and 1000, quirks included; other HZ follow the same rules)
 * @file_lo: the smallest delta the wheel really files in this level
 * @file_hi: the largest (ULONG_MAX on the last level: the clamp)
 */
struct twheel_level_info {
	unsigned int level;
	unsigned int offset;
	unsigned long gran;
	unsigned long start;
	unsigned long end;
	u64 gran_ms, start_ms, end_ms;
	u64 table_end_ms;
	unsigned long file_lo;
	unsigned long file_hi;
};

void twheel_level_info(unsigned int hz, unsigned int depth, unsigned int lvl,
		       struct twheel_level_info *li);

/**
 * struct twheel_modern - the modern (Linux >= 4.8) non-cascading wheel
 * @e: the engine
 * @collected: timers collected and not yet popped, in the order they fire
 * @collected_tail: where the next collected one goes, or NULL when that
 *	is not known: then it is the end of the chain at @collected's head
 *	(the first bucket collected into an empty list is moved over whole,
 *	with no walk; its end is found only if a second bucket follows).
 *	Meaningless while @collected is empty (a pop of the last timer
 *	leaves it as it was): a collect into the empty list resets it
 * @cutoff: deltas from here on are clamped...
 * @max_delta: ...to this one
 * @pending_map: a bit per non-empty bucket of @vec
 * @vec: the buckets, TW_LVL_SIZE a level, level n's from n * TW_LVL_SIZE
 *	on; only the first e.nr_levels levels are used
 *
 * Set up by twheel_modern_init().
 */
struct twheel_modern {
	struct twheel_engine e;
	struct hlist_head collected;
	struct hlist_node **collected_tail;
	unsigned long cutoff;
	unsigned long max_delta;
	DECLARE_BITMAP(pending_map, TW_MODERN_BUCKETS);
	struct hlist_head vec[TW_MODERN_BUCKETS];
};

int twheel_modern_init(struct twheel_modern *m, unsigned long clk,
		       unsigned int depth);
bool twheel_modern_tick(struct twheel_modern *m);
unsigned int twheel_modern_index(const struct twheel_modern *m,
				 unsigned long expires,
				 unsigned long *bucket_expiry);

static __always_inline struct twheel_modern *twheel_to_modern(struct twheel_engine *e)
{
	return container_of(e, struct twheel_modern, e);
}

/**
 * struct twheel_modern_fls - the modern wheel's levels by a delta's highest bit
 * @level: the level of the smallest delta with that highest bit
 * @next: where the level after it starts (tw_lvl_start()); ~0 if beyond
 *
 * Level n >= 1 starts at 63 << 3(n-1), between 2^(3n+2) and 2^(3n+3), so
 * the deltas with a given highest bit span at most two levels. Indexed by
 * __fls(delta) for deltas below 2^32 (the clamp is below that).
 */
struct twheel_modern_fls {
	u32 next;
	u32 level;
};

extern const struct twheel_modern_fls twheel_modern_fls[32];

/* The level a delta below the clamp is filed in, in O(1): a look-up. */
static __always_inline unsigned int tw_modern_level(unsigned long delta)
{
	const struct twheel_modern_fls *f = &twheel_modern_fls[__fls(delta | 1)];

	return f->level + (delta >= f->next);
}

/*
 * The bucket the kernel's wheel files expires in now and the jiffy it is
 * processed at: twheel_modern_index(), inlined.
 */
static __always_inline unsigned int tw_modern_calc(const struct twheel_modern *m,
						   unsigned long expires,
						   unsigned long *bucket_expiry)
{
	unsigned long clk = m->e.clk, delta = expires - clk;
	unsigned int lvl, shift;

	/*
	 * Levels 0 and 1, up to 2 s at HZ=250, by two compares: where most
	 * timeouts are filed, cheaper than the look-up (tw_lvl_start(1) is
	 * 63, tw_lvl_start(2) 504). Level 2's start is tested first: gcc then
	 * lays out level 1, where the op stream's short mix files most of its
	 * timers, with fewer jumps (measured: 0.5 instructions less a mod).
	 */
	if (likely(delta < (TW_LVL_SIZE - 1) << TW_LVL_CLK_SHIFT)) {
		if (delta < TW_LVL_SIZE - 1) {
			*bucket_expiry = expires + 1;
			return (expires + 1) & (TW_LVL_SIZE - 1);
		}
		expires = (expires >> TW_LVL_CLK_SHIFT) + 1;
		*bucket_expiry = expires << TW_LVL_CLK_SHIFT;
		return TW_LVL_SIZE + (expires & (TW_LVL_SIZE - 1));
	}
	/* one test for the past (huge as unsigned) and the clamp */
	if (unlikely(delta >= m->cutoff)) {
		if ((long)delta < 0) {
			*bucket_expiry = clk;
			return clk & (TW_LVL_SIZE - 1);
		}
		expires = clk + m->max_delta;
		lvl = m->e.nr_levels - 1;
	} else {
		lvl = tw_modern_level(delta);
	}
	shift = lvl * TW_LVL_CLK_SHIFT;
	expires = (expires >> shift) + 1;
	*bucket_expiry = expires << shift;
	return lvl * TW_LVL_SIZE + (expires & (TW_LVL_SIZE - 1));
}

static __always_inline unsigned int tw_modern_bucket(const struct twheel_modern *m,
						     unsigned long expires)
{
	unsigned long bucket_expiry;

	return tw_modern_calc(m, expires, &bucket_expiry);
}

/* Files t, not pending, in bucket idx, first: as the kernel does. */
static __always_inline void tw_modern_link(struct twheel_modern *m,
					   struct twheel_timer *t, unsigned int idx)
{
	hlist_add_head(&t->entry, m->vec + idx);
	__set_bit(idx, m->pending_map);
	t->bucket = idx;
}

/*
 * Takes a pending t out of its bucket or the collected list, its links
 * left stale: for a caller that files it again at once (mod). Only the
 * last node of a list can leave it empty, or be the collected list's tail,
 * so anything beyond the unlinking is looked at only then. A bucket whose
 * head pointed at t is empty now. Any other last node may have been the
 * collected list's tail: the tail is forgotten (a store, where finding out
 * would take a load and a compare), and the next bucket appended behind
 * the list walks to its end. Collected timers never point into a bucket,
 * whatever t->bucket says: it is the bucket's index only while t is filed
 * in it.
 *
 * The unlinking is __hlist_del()'s, written out: the branch on next is
 * shared, and gcc reloaded pprev after the first store when it was called.
 */
static __always_inline void tw_modern_unhook(struct twheel_modern *m,
					     struct twheel_timer *t)
{
	struct hlist_node *next = t->entry.next, **pprev = t->entry.pprev;

	WRITE_ONCE(*pprev, next);
	if (next) {
		WRITE_ONCE(next->pprev, pprev);
		return;
	}
	if (pprev == &m->vec[t->bucket].first)
		__clear_bit(t->bucket, m->pending_map);
	else
		m->collected_tail = NULL;
}

/* tw_modern_unhook(), and t is not pending any more. */
static __always_inline void tw_modern_unlink(struct twheel_modern *m,
					     struct twheel_timer *t)
{
	tw_modern_unhook(m, t);
	t->entry.pprev = NULL;
}

/* Whether t, pending, is filed in bucket idx: see tw_classic_in_slot(). */
static __always_inline bool tw_modern_in_bucket(const struct twheel_modern *m,
						const struct twheel_timer *t,
						unsigned int idx)
{
	return t->bucket == idx && hlist_empty(&m->collected);
}

/*
 * Appends bucket idx, not empty, to the collected list as it is. Into an
 * empty list the chain is moved over with no walk, and where it ends stays
 * unknown; a bucket appended after it first walks it to find its end, then
 * walks itself, so that the end is known for the next one. Each timer is
 * walked at most once: the common jiffy (one bucket, popped before the
 * next) walks none.
 */
static __always_inline void tw_modern_collect_bucket(struct twheel_modern *m,
						     unsigned int idx)
{
	struct hlist_head *head = m->vec + idx;
	struct hlist_node *first = head->first, *last = first;
	struct hlist_node **tail;

	__clear_bit(idx, m->pending_map);
	head->first = NULL;
	if (hlist_empty(&m->collected)) {
		first->pprev = &m->collected.first;
		m->collected.first = first;
		m->collected_tail = NULL;
		return;
	}
	/* read only here: gcc loaded it ahead of the test when it could */
	tail = READ_ONCE(m->collected_tail);
	if (!tail) {
		struct hlist_node *n = m->collected.first;

		while (n->next)
			n = n->next;
		tail = &n->next;
	}
	while (last->next)
		last = last->next;
	first->pprev = tail;
	*tail = first;
	m->collected_tail = &last->next;
}

static __always_inline bool tw_modern_pending(const struct twheel_timer *t)
{
	return t->entry.pprev;
}

static __always_inline int tw_modern_add(struct twheel_engine *e,
					 struct twheel_timer *t, unsigned long expires)
{
	struct twheel_modern *m = twheel_to_modern(e);

	if (t->entry.pprev)
		return -EBUSY;
	t->expires = expires;
	tw_modern_link(m, t, tw_modern_bucket(m, expires));
	m->e.st.added++;
	return 0;
}

static __always_inline bool tw_modern_del(struct twheel_engine *e,
					  struct twheel_timer *t)
{
	struct twheel_modern *m = twheel_to_modern(e);

	if (!t->entry.pprev)
		return false;
	tw_modern_unlink(m, t);
	m->e.st.deleted++;
	return true;
}

static __always_inline bool tw_modern_mod(struct twheel_engine *e,
					  struct twheel_timer *t, unsigned long expires)
{
	struct twheel_modern *m = twheel_to_modern(e);
	unsigned int idx;

	if (!t->entry.pprev) {
		tw_modern_add(e, t, expires);
		return false;
	}
	m->e.st.modified++;
	if (t->expires == expires) {
		m->e.st.mod_noop++;
		return true;
	}
	idx = tw_modern_bucket(m, expires);
	t->expires = expires;
	if (tw_modern_in_bucket(m, t, idx)) {
		m->e.st.mod_inplace++;
		return true;
	}
	tw_modern_unhook(m, t);
	tw_modern_link(m, t, idx);
	return true;
}

static __always_inline struct twheel_timer *tw_modern_pop(struct twheel_engine *e)
{
	struct twheel_modern *m = twheel_to_modern(e);
	struct twheel_timer *t;

	if (hlist_empty(&m->collected))
		return NULL;
	t = hlist_entry(m->collected.first, struct twheel_timer, entry);
	/*
	 * The first node, unlinked by hand. If it was the last, the tail is
	 * left pointing into it: it is only read while the list has timers,
	 * and the next bucket collected into the empty list resets it.
	 */
	m->collected.first = t->entry.next;
	if (t->entry.next)
		t->entry.next->pprev = &m->collected.first;
	t->entry.pprev = NULL;
	m->e.st.expired++;
	return t;
}

/* Collects bucket idx if it has timers; true if it had. */
static __always_inline bool tw_modern_collect_if(struct twheel_modern *m,
						 unsigned int idx)
{
	if (!test_bit(idx, m->pending_map))
		return false;
	tw_modern_collect_bucket(m, idx);
	return true;
}

/*
 * One jiffy, the clock's own. Level 0 is due at every jiffy, level 1 when
 * the low 3 bits of the clock are zero as well (level 1's bucket first, as
 * the kernel runs them): such a jiffy costs a bit test or two when nothing
 * is due and an append per bucket when something is. A jiffy at which
 * level 2 or higher is due too, one in 64, calls twheel_modern_tick().
 */
static __always_inline bool tw_modern_step(struct twheel_engine *e)
{
	struct twheel_modern *m = twheel_to_modern(e);
	unsigned long clk = m->e.clk;
	bool collected = false;

	if (unlikely(!(clk & (BIT(TW_LVL_CLK_SHIFT) - 1)))) {
		if (unlikely(!(clk & (BIT(2 * TW_LVL_CLK_SHIFT) - 1)))) {
			collected = twheel_modern_tick(m);
			goto out;
		}
		collected = tw_modern_collect_if(m, TW_LVL_SIZE +
			((clk >> TW_LVL_CLK_SHIFT) & (TW_LVL_SIZE - 1)));
	}
	if (tw_modern_collect_if(m, clk & (TW_LVL_SIZE - 1)))
		collected = true;
	if (collected)
		m->e.st.events++;
out:
	m->e.clk = clk + 1;
	return collected;
}

#endif /* TWHEEL_ENGINES_MODERN_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * The modern (Linux >= 4.8) wheel: 64 buckets a level, each level 8 times
 * coarser than the one below, no cascading; a timer runs at the end of its
 * bucket's granule, never early, in the bucket the kernel's
 * calc_wheel_index() picks. See struct twheel_modern.
 */
#include <linux/kernel.h>
#include <linux/bitmap.h>
#include <linux/jiffies.h>
#include <linux/export.h>
#include <linux/errno.h>
#include "engines/common.h"
#include "engines/modern.h"
#include <linux/math64.h>

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
 * The level comes from the delta's highest bit (tw_modern_level()), not
 * from a walk over the levels; kunit/modern_test.c checks it against such a
 * walk at every level boundary.
 *
 * Return: the bucket index, level * TW_LVL_SIZE + slot.
 */
unsigned int twheel_modern_index(const struct twheel_modern *m,
				 unsigned long expires,
				 unsigned long *bucket_expiry)
{
	return tw_modern_calc(m, expires, bucket_expiry);
}
EXPORT_SYMBOL_GPL(twheel_modern_index);

/* Where level lvl (>= 1) starts: tw_lvl_start(), as a constant. */
#define TW_FLS_NEXT(lvl) ((u32)(TW_LVL_SIZE - 1) << (TW_LVL_CLK_SHIFT * ((lvl) - 1)))

/*
 * The levels of tw_modern_level(), by highest bit f: deltas with f < 6 are
 * in level 0 up to 62; from there on level f/3 - 1 up to where the next
 * starts. Checked at every boundary in KUnit and the fuzzer.
 */
const struct twheel_modern_fls twheel_modern_fls[32] = {
	[0 ... 5]	= { TW_FLS_NEXT(1), 0 },
	[6 ... 8]	= { TW_FLS_NEXT(2), 1 },
	[9 ... 11]	= { TW_FLS_NEXT(3), 2 },
	[12 ... 14]	= { TW_FLS_NEXT(4), 3 },
	[15 ... 17]	= { TW_FLS_NEXT(5), 4 },
	[18 ... 20]	= { TW_FLS_NEXT(6), 5 },
	[21 ... 23]	= { TW_FLS_NEXT(7), 6 },
	[24 ... 26]	= { TW_FLS_NEXT(8), 7 },
	[27 ... 31]	= { ~0U, 8 },
};
EXPORT_SYMBOL_GPL(twheel_modern_fls);

static unsigned int tw_modern_bucket_of(const struct twheel_engine *e,
					unsigned long expires)
{
	unsigned long bucket_expiry;

	return tw_modern_calc(to_modern(e), expires, &bucket_expiry);
}

static void tw_modern_setup(struct twheel_timer *t)
{
	INIT_HLIST_NODE(&t->entry);
	t->bucket = TWHEEL_COLLECTED;
}

static bool tw_modern_ops_pending(const struct twheel_timer *t)
{
	return tw_modern_pending(t);
}

static void tw_modern_enqueue(struct twheel_engine *e, struct twheel_timer *t)
{
	struct twheel_modern *m = to_modern(e);

	tw_modern_link(m, t, tw_modern_bucket(m, t->expires));
}

static void tw_modern_dequeue(struct twheel_engine *e, struct twheel_timer *t)
{
	tw_modern_unlink(to_modern(e), t);
}

static bool tw_modern_ops_in_bucket(const struct twheel_engine *e,
				    const struct twheel_timer *t,
				    unsigned int idx)
{
	return tw_modern_in_bucket(to_modern(e), t, idx);
}

/*
 * Processes jiffy clk; true if it collected anything. Level n is due when
 * the low 3n bits of clk are zero, so the levels due are 0 up to top, a
 * third of clk's trailing zero bits (all of them at clk 0); as the kernel's
 * __run_timers() does, the highest level's bucket is collected first.
 *
 * Only the two highest levels due can be due in a bucket other than their
 * first: at a level two or more below top, clk shifted by the level's
 * granularity still has six low zero bits. Those levels are looked at
 * together, by their first buckets' bits or-ed (bit 0 of a level's first
 * word, whatever the size of a long), and one by one only if that is set:
 * a jiffy at which level 5 is due looks at two bits and an or of four
 * words instead of six bits.
 */
static bool tw_modern_process_clk(struct twheel_modern *m)
{
	unsigned long clk = m->e.clk, low = 0;
	unsigned int top = m->e.nr_levels - 1, lvl;
	bool work;

	if (clk && __ffs(clk) / TW_LVL_CLK_SHIFT < top)
		top = __ffs(clk) / TW_LVL_CLK_SHIFT;
	work = tw_modern_collect_if(m, top * TW_LVL_SIZE +
				    ((clk >> tw_lvl_shift(top)) & (TW_LVL_SIZE - 1)));
	if (!top)
		return work;
	lvl = top - 1;
	if (tw_modern_collect_if(m, lvl * TW_LVL_SIZE +
				 ((clk >> tw_lvl_shift(lvl)) & (TW_LVL_SIZE - 1))))
		work = true;
	for (lvl = 0; lvl + 1 < top; lvl++)
		low |= m->pending_map[BIT_WORD(lvl * TW_LVL_SIZE)];
	if (!(low & 1))
		return work;
	for (lvl = top - 1; lvl--; )
		if (tw_modern_collect_if(m, lvl * TW_LVL_SIZE))
			work = true;
	return work;
}

static bool tw_modern_process(struct twheel_engine *e)
{
	return tw_modern_process_clk(to_modern(e));
}

/**
 * twheel_modern_tick() - the modern wheel's jiffy that may have work
 * @m: the wheel
 *
 * The out-of-line part of a one-jiffy twheel_advance(): collects the
 * buckets due at @m->e.clk and counts st.events if there were any timers.
 * Leaves the clock alone.
 *
 * Return: true if it collected any timer.
 */
bool twheel_modern_tick(struct twheel_modern *m)
{
	bool collected = tw_modern_process_clk(m);

	if (collected)
		m->e.st.events++;
	return collected;
}
EXPORT_SYMBOL_GPL(twheel_modern_tick);

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

static struct twheel_timer *tw_modern_ops_pop(struct twheel_engine *e)
{
	struct twheel_modern *m = to_modern(e);
	struct twheel_timer *t;

	if (hlist_empty(&m->collected))
		return NULL;
	t = hlist_entry(m->collected.first, struct twheel_timer, entry);
	tw_modern_unlink(m, t);
	return t;
}

static unsigned long tw_modern_count(const struct twheel_engine *e,
				     unsigned long *per_level)
{
	const struct twheel_modern *m = to_modern(e);
	const struct twheel_timer *t;
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < TW_MODERN_BUCKETS; i++)
		hlist_for_each_entry(t, &m->vec[i], entry)
			per_level[i / TW_LVL_SIZE]++;
	hlist_for_each_entry(t, &m->collected, entry)
		n++;
	return n;
}

/*
 * The latest jiffy of [lo, hi] whose bucket runs by hi: the one before
 * hi's granule (at hi's level; a lower level's granule divides it), which
 * runs at that granule's start. A range within one granule has none: hi
 * (it runs at its bucket, after hi, as any modern timer); nor has a range
 * wholly in the past (every jiffy of it runs at the clock, after hi).
 */
static unsigned long tw_modern_range_pick(const struct twheel_engine *e,
					  unsigned long lo, unsigned long hi)
{
	unsigned long edge, x;
	unsigned int idx;

	if (time_before(hi, e->clk))
		return hi;
	idx = tw_modern_calc(to_modern(e), hi, &edge);
	x = edge - tw_lvl_gran(idx / TW_LVL_SIZE) - 1;
	return x - lo <= hi - lo ? x : hi;
}

/* twheel_ops.level_of: TW_LVL_SIZE buckets a level. */
static unsigned int tw_modern_level_of(const struct twheel_engine *e,
				       unsigned int bucket)
{
	return bucket / TW_LVL_SIZE;
}

static unsigned int tw_modern_buckets(const struct twheel_engine *e,
				      unsigned int *per, unsigned int n)
{
	return tw_count_hlists(container_of(e, struct twheel_modern, e)->vec,
			       TW_MODERN_BUCKETS, per);
}

static unsigned int tw_modern_nr_buckets(const struct twheel_engine *e)
{
	return TW_MODERN_BUCKETS;
}

/* twheel_ops.index: the kernel's bucket and its expiry. */
static unsigned int tw_modern_ops_index(const struct twheel_engine *e,
					unsigned long expires,
					unsigned long *bucket_expiry)
{
	return twheel_modern_index(container_of(e, struct twheel_modern, e),
				   expires, bucket_expiry);
}

/* twheel_ops.init */
static int tw_modern_create(void *state, unsigned long clk,
			    const struct twheel_config *cfg, void *storage)
{
	return twheel_modern_init(state, clk, cfg->depth ?: TW_MODERN_DEFAULT_DEPTH);
}

/* The modern wheel's ops: struct twheel_modern, twheel_modern_init(). */
const struct twheel_ops twheel_modern_ops = {
	.name		= "modern",
	.kind		= TWHEEL_MODERN,
	.setup		= tw_modern_setup,
	.pending	= tw_modern_ops_pending,
	.enqueue	= tw_modern_enqueue,
	.dequeue	= tw_modern_dequeue,
	.bucket_of	= tw_modern_bucket_of,
	.in_bucket	= tw_modern_ops_in_bucket,
	.process	= tw_modern_process,
	.next_event	= tw_modern_next_event,
	.pop		= tw_modern_ops_pop,
	.count		= tw_modern_count,
	.range_pick	= tw_modern_range_pick,
	.guarantee	= "never early, late by at most its level's granule",
	.size		= sizeof(struct twheel_modern),
	.offset		= offsetof(struct twheel_modern, e),
	.init		= tw_modern_create,
	.entry		= TWHEEL_FAST_ENTRY(modern),
	.level_of	= tw_modern_level_of,
	.buckets	= tw_modern_buckets,
	.nr_buckets	= tw_modern_nr_buckets,
	.index		= tw_modern_ops_index,
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

	/* the per-level arrays of the read-outs hold every level */
	BUILD_BUG_ON(TW_MODERN_MAX_LEVELS > TWHEEL_MAX_LEVELS);
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

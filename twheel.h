/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twheel - timer wheels side by side.
 *
 * The engines are pure data structures: they never read a clock, never
 * lock, never print and never allocate. Time is always an argument: an
 * engine's clock (clk) is the next jiffy it will process, and
 * twheel_advance(e, now) processes every jiffy from clk up to and including
 * now. Timers that became due are collected inside the engine and handed out
 * one by one with twheel_pop(); the caller runs the callbacks. A collected
 * timer that has not been popped yet is still pending: twheel_del() takes it
 * back and it never runs (the kernel's timer_list behaves the same way).
 */
#ifndef TWHEEL_H
#define TWHEEL_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>

struct twheel_timer;
struct twheel_engine;

/**
 * typedef twheel_fn_t - a timer's callback
 * @t: the timer that expired; it is no longer pending and may be re-armed
 */
typedef void (*twheel_fn_t)(struct twheel_timer *t);

/**
 * typedef twheel_run_fn - what twheel_run_until() does with a due timer
 * @t: the timer, popped: no longer pending
 * @jiffy: the jiffy it was collected at (the engine's clock when it fell due)
 * @arg: the caller's argument
 *
 * Usually runs t->function(t). The caller may drop and retake its engine
 * lock around that, as long as nothing else advances the engine meanwhile.
 */
typedef void (*twheel_run_fn)(struct twheel_timer *t, unsigned long jiffy,
			      void *arg);

/**
 * struct twheel_timer - a timer of one of the engines
 * @list: the classic wheels' link into a slot or their collected list (the
 *	ratas engine's into its collected list)
 * @entry: the modern wheel's link into a bucket or its collected list (the
 *	ratas engine's into a slot)
 * @bucket: the wheels only: the index of the bucket the timer is filed
 *	in, while it is; TWHEEL_COLLECTED once set up. A collected timer
 *	keeps the index it had (see struct twheel_ops.in_bucket)
 * @node: the reference engine's link into its armed or its due tree
 * @due: the heap engine's link into its collected list
 * @heap_idx: the heap engine: the timer's index in the heap's array,
 *	TW_HEAP_COLLECTED while collected, TW_HEAP_IDLE when not pending
 * @hash_link: the hash engine's (and the simple, hash_sorted, straight and
 *	ordered engines') link into a slot, a list or the collected list; the
 *	hash_vec engine's into its collected list
 * @rounds: the hash engine: turns of the wheel still to wait in its slot;
 *	straight: ticks left; TW_HASH_COLLECTED while collected
 * @volt_link: the volt engine's link into a slot, its overflow list or
 *	its collected list; a cancelled timer stays linked until reclaimed
 * @volt_slot: the volt engine: the slot's index, TW_VOLT_OVERFLOW,
 *	TW_VOLT_COLLECTED, or TW_VOLT_IDLE when not linked
 * @volt_cancelled: the volt engine: cancelled and still linked (lazy
 *	cancel): not pending
 * @vec_slot: the hash_vec engine: the slot whose array holds the timer's
 *	entry, TW_VEC_COLLECTED while collected, TW_VEC_IDLE when not pending
 * @vec_idx: the hash_vec engine: the index of that entry in the array
 * @expires: the absolute jiffy it was last armed for
 * @function: its callback, run by the caller after twheel_pop()
 *
 * The classic wheel links a timer through @list (FIFO slots, as 2.6 did),
 * the modern wheel through @entry (an hlist, as the kernel does now), both
 * with @bucket; the ratas engine @entry in a slot and @list once collected
 * (its @bucket is TWHEEL_COLLECTED then); the reference engine uses @node, the heap @due and
 * @heap_idx, the hash and straight engines @hash_link and @rounds, the
 * simple, hash_sorted and ordered engines @hash_link (their @rounds is
 * TW_HASH_COLLECTED while collected), the volt engine @volt_link,
 * @volt_slot and @volt_cancelled, the hash_vec engine @hash_link, @vec_slot
 * and @vec_idx. A timer belongs to one engine at a time, so they share
 * storage and the timer stays as small as the kernel's timer_list (40
 * bytes on 64-bit). Set it up with
 * twheel_timer_setup() for the engine it is to be armed on.
 */
struct twheel_timer {
	union {
		struct {
			union {
				struct list_head list;
				struct hlist_node entry;
			};
			unsigned int bucket;
		};
		struct rb_node node;
		struct {
			struct list_head due;
			unsigned int heap_idx;
		};
		struct {
			struct list_head hash_link;
			union {
				unsigned long rounds;
				struct {
					unsigned int vec_slot;
					unsigned int vec_idx;
				};
			};
		};
		struct {
			struct list_head volt_link;
			unsigned int volt_slot;
			bool volt_cancelled;
		};
	};
	unsigned long expires;
	twheel_fn_t function;
};

/* @bucket of a wheel timer set up and never filed. */
#define TWHEEL_COLLECTED	(~0U)
/* twheel_ops.bucket_of: the engine has no buckets. */
#define TWHEEL_NO_BUCKET	(~0U)

enum twheel_kind {
	TWHEEL_CLASSIC,
	TWHEEL_MODERN,
	TWHEEL_REFERENCE,
	TWHEEL_HEAP,
	TWHEEL_HASH,
	TWHEEL_SIMPLE,
	TWHEEL_HASH_SORTED,
	TWHEEL_STRAIGHT,
	TWHEEL_ORDERED,
	TWHEEL_RATAS,
	TWHEEL_VOLT,
	TWHEEL_HASH_VEC,
	TWHEEL_CLASSIC_BOUNDED,
	TWHEEL_NR_KINDS,
};

/* Classic (Linux 2.6) wheel: tv1 of 256 slots, tv2..tv5 of 64. */
#define TW_TVR_BITS		8
#define TW_TVN_BITS		6
#define TW_TVR_SIZE		BIT(TW_TVR_BITS)
#define TW_TVN_SIZE		BIT(TW_TVN_BITS)
#define TW_CLASSIC_LEVELS	5
#define TW_CLASSIC_BUCKETS	(TW_TVR_SIZE + 4 * TW_TVN_SIZE)
/* Largest delta the classic wheel files; larger ones are clamped to it. */
#define TW_CLASSIC_MAX_DELTA	0xffffffffUL

/* Modern (Linux >= 4.8) wheel: 64 buckets a level, granularity x8 a level. */
#define TW_LVL_BITS		6
#define TW_LVL_SIZE		BIT(TW_LVL_BITS)
#define TW_LVL_CLK_SHIFT	3
#define TW_MODERN_MAX_LEVELS	9
#define TW_MODERN_BUCKETS	(TW_LVL_SIZE * TW_MODERN_MAX_LEVELS)
/* The kernel's depth: 9 levels when HZ > 100, else 8. */
#define TW_MODERN_DEFAULT_DEPTH	(HZ > 100 ? 9 : 8)

#define TWHEEL_MAX_LEVELS	TW_MODERN_MAX_LEVELS

/**
 * struct twheel_stats - the counters every engine keeps
 * @added: a non-pending timer was armed (twheel_add(), or twheel_mod() of a
 *	timer that was not pending)
 * @deleted: a pending timer was removed by twheel_del()
 * @modified: a pending timer was given an expiry by twheel_mod(), the
 *	one it already had included
 * @mod_noop: of @modified, those to the expiry the timer already had
 * @mod_inplace: of @modified, those that stayed in their bucket: no relink
 * @expired: timers handed out by twheel_pop()
 * @cascades: cascades of a non-empty slot (classic)
 * @cascaded: timers moved by cascades (classic)
 * @advances: twheel_advance() calls that moved clk
 * @jiffies: jiffies those calls covered
 * @events: jiffies that had work (collect or cascade), i.e. were processed
 * @refused: arms the engine refused (twheel_ops.admit): adds that returned
 *	an error, mods that disarmed the timer instead
 * @lazy_held: engines with lazy cancel (volt) only: timers cancelled and
 *	still linked, not pending and not yet reclaimed; the memory a lazy
 *	cancel keeps (each timer with what its owner embeds it in)
 * @lazy_held_max: the most @lazy_held was since the counters were reset
 *
 * Two things are not counted on the way, as a counter would cost every
 * add and del an instruction: what is pending (armed, or collected and not
 * yet popped), which is added - expired - deleted (twheel_stats_pending());
 * and the timers per level, which twheel_count() reports. twheel_count()
 * counts what an engine really holds, to check the first.
 */
struct twheel_stats {
	u64 added;
	u64 deleted;
	u64 modified;
	u64 mod_noop;
	u64 mod_inplace;
	u64 expired;
	u64 cascades;
	u64 cascaded;
	u64 advances;
	u64 jiffies;
	u64 events;
	u64 refused;
	u64 lazy_held;
	u64 lazy_held_max;
};

/**
 * twheel_stats_pending() - the timers pending by the counters
 * @st: the counters
 *
 * Armed, or collected and not yet popped: what was added and has neither
 * expired nor been deleted.
 *
 * Return: @st->added - @st->expired - @st->deleted.
 */
static inline unsigned long twheel_stats_pending(const struct twheel_stats *st)
{
	return st->added - st->expired - st->deleted;
}

struct twheel_engine;

/**
 * struct twheel_ops - what makes an engine one kind of engine
 * @name: the engine's name ("classic", "modern", "reference")
 * @kind: the engine's kind
 * @setup: marks a timer not pending for this kind of engine
 * @pending: whether a timer is armed, or collected and not yet popped
 * @enqueue: files t by t->expires; t is not pending
 * @dequeue: removes a pending t, from a bucket or from the collected list
 * @cancel: optional: what twheel_del() does to a pending t instead of
 *	@dequeue, for an engine with lazy cancel: t is no longer pending, but
 *	may stay linked until the engine reclaims it (counted in
 *	st.lazy_held); NULL: @dequeue
 * @bucket_of: the bucket a timer expiring at @expires would be filed in now,
 *	or TWHEEL_NO_BUCKET
 * @in_bucket: whether a pending timer is filed in bucket idx, so that a
 *	mod to an expiry of that bucket can leave it there; false when unsure
 *	(a relink is always right). NULL: never (engines without buckets)
 * @process: processes the jiffy e->clk: cascade, then collect; clk is not
 *	moved. True if it collected any timer
 * @next_event: jiffies from clk to the next jiffy with work, at most limit
 * @pop: takes the first collected timer off the collected list and marks it
 *	not pending; NULL if there is none
 * @count: walks the engine, adds the timers filed in each level to
 *	per_level[] (zeroed by the caller) and returns how many are collected
 *	and not popped (twheel_count())
 * @admit: optional: 0 if the engine takes a timer expiring at @expires
 *	now, else the error twheel_add() returns (engines with a range limit);
 *	NULL: every expiry is taken
 * @purge: optional: reclaims every cancelled timer the engine still
 *	links (twheel_purge()); NULL: @cancel is NULL, it links none
 * @range_pick: optional: the jiffy in [lo, hi] (hi at or after lo, less
 *	than LONG_MAX after it) that costs this engine least, its rule for
 *	twheel_add_range() and twheel_mod_range(); NULL: hi, the latest
 *
 * The ops keep the cascades and cascaded counters of struct twheel_stats
 * (and twheel_engine.cascade_ns); the engine-independent functions
 * (twheel_add() and the others) keep the rest.
 */
struct twheel_ops {
	const char *name;
	enum twheel_kind kind;
	void (*setup)(struct twheel_timer *t);
	bool (*pending)(const struct twheel_timer *t);
	void (*enqueue)(struct twheel_engine *e, struct twheel_timer *t);
	void (*dequeue)(struct twheel_engine *e, struct twheel_timer *t);
	void (*cancel)(struct twheel_engine *e, struct twheel_timer *t);
	unsigned int (*bucket_of)(const struct twheel_engine *e,
				  unsigned long expires);
	bool (*in_bucket)(const struct twheel_engine *e,
			  const struct twheel_timer *t, unsigned int idx);
	bool (*process)(struct twheel_engine *e);
	unsigned long (*next_event)(const struct twheel_engine *e,
				    unsigned long limit);
	struct twheel_timer *(*pop)(struct twheel_engine *e);
	unsigned long (*count)(const struct twheel_engine *e,
			       unsigned long *per_level);
	int (*admit)(const struct twheel_engine *e, unsigned long expires);
	void (*purge)(struct twheel_engine *e);
	unsigned long (*range_pick)(const struct twheel_engine *e,
				    unsigned long lo, unsigned long hi);
};

/**
 * struct twheel_engine - what every engine has; embedded in each kind's own
 * @ops: the engine's kind
 * @kind: @ops->kind, at hand for the fast paths' dispatch
 * @clk: the next jiffy to process
 * @nr_levels: levels: 5 (classic), the depth (modern), 1 (reference)
 * @st: the engine's counters
 * @clock_ns: optional, for accounting only: a clock the caller lends so
 *	that the time spent cascading can be told apart from collecting. The
 *	engine's behaviour never depends on it. NULL: not measured.
 * @cascade_ns: ns spent cascading, summed while @clock_ns is set; the
 *	caller resets it when it likes
 * @on_cascade: optional, for tracing only: called after each cascade that
 *	moved timers, with the level (1 = tv2), the slot in it, how many
 *	timers it moved and the ns it took (0 when @clock_ns is NULL). It
 *	must not touch the engine. NULL: not called.
 */
struct twheel_engine {
	const struct twheel_ops *ops;
	enum twheel_kind kind;
	unsigned long clk;
	unsigned int nr_levels;
	struct twheel_stats st;
	u64 (*clock_ns)(void);
	u64 cascade_ns;
	void (*on_cascade)(struct twheel_engine *e, unsigned int lvl,
			   unsigned int slot, unsigned int moved, u64 ns);
};

void twheel_timer_setup(struct twheel_engine *e, struct twheel_timer *t,
			twheel_fn_t fn);
bool twheel_ops_pending(const struct twheel_engine *e,
			const struct twheel_timer *t);
int twheel_ops_add(struct twheel_engine *e, struct twheel_timer *t,
		   unsigned long expires);
bool twheel_ops_del(struct twheel_engine *e, struct twheel_timer *t);
bool twheel_ops_mod(struct twheel_engine *e, struct twheel_timer *t,
		    unsigned long expires);
bool twheel_ops_advance(struct twheel_engine *e, unsigned long now);
struct twheel_timer *twheel_ops_pop(struct twheel_engine *e);
unsigned long twheel_range_pick(unsigned long lo, unsigned long hi);
unsigned long twheel_range_expiry(const struct twheel_engine *e,
				  unsigned long lo, unsigned long hi);
int twheel_add_range(struct twheel_engine *e, struct twheel_timer *t,
		     unsigned long lo, unsigned long hi);
bool twheel_mod_range(struct twheel_engine *e, struct twheel_timer *t,
		      unsigned long lo, unsigned long hi);
unsigned long twheel_next_event(const struct twheel_engine *e,
				unsigned long limit);
/**
 * struct twheel_run - a budgeted twheel_run(): its limit and what it did
 * @budget: units of work allowed, 0 for no limit: one per callback and one
 *	per timer moved by a cascade
 * @used: units used (set to 0 by the caller before the run)
 * @leftover: of the callbacks, those of timers an earlier run left
 *	collected: they ran a run later than they fell due
 * @stopped: the budget ran out: timers may still wait, collected or due
 */
struct twheel_run {
	unsigned long budget;
	unsigned long used;
	unsigned long leftover;
	bool stopped;
};

unsigned long twheel_run(struct twheel_engine *e, unsigned long now,
			 twheel_run_fn fn, void *arg, struct twheel_run *run);
unsigned long twheel_run_until(struct twheel_engine *e, unsigned long now,
			       twheel_run_fn fn, void *arg);

unsigned long twheel_count(const struct twheel_engine *e,
			   unsigned long *per_level);
void twheel_purge(struct twheel_engine *e);

/* Level of a bucket index, for occupancy read-outs. */
unsigned int twheel_bucket_level(const struct twheel_engine *e,
				 unsigned int bucket);

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

extern const struct twheel_ops twheel_classic_ops;
extern const struct twheel_ops twheel_modern_ops;
extern const struct twheel_ops twheel_reference_ops;
extern const struct twheel_ops twheel_heap_ops;
extern const struct twheel_ops twheel_hash_ops;
extern const struct twheel_ops twheel_simple_ops;
extern const struct twheel_ops twheel_hash_sorted_ops;
extern const struct twheel_ops twheel_straight_ops;
extern const struct twheel_ops twheel_ordered_ops;
extern const struct twheel_ops twheel_ratas_ops;
extern const struct twheel_ops twheel_volt_ops;
extern const struct twheel_ops twheel_hash_vec_ops;
extern const struct twheel_ops twheel_classic_bounded_ops;

/* The engines' own types, and the fast paths of those that have them. */
#include "engines/classic.h"
#include "engines/modern.h"
#include "engines/reference.h"
#include "engines/heap.h"
#include "engines/hash.h"
#include "engines/simple.h"
#include "engines/hash_sorted.h"
#include "engines/straight.h"
#include "engines/ordered.h"
#include "engines/ratas.h"
#include "engines/volt.h"
#include "engines/hash_vec.h"
#include "engines/classic_bounded.h"

/*
 * The operations. An engine with fast paths (classic, modern, ratas,
 * volt, classic_bounded) has them inlined here: no call, no indirect call;
 * any other goes through its ops (twheel_ops_add() and the others, in
 * twheel_core.c). Each is documented at its twheel_ops_ counterpart, which
 * behaves the same.
 *
 * twheel_add() and the others pick the fast path by e->kind, a test or two
 * per operation. The _as variants take the kind as an argument: a caller
 * that knows it at compile time (a constant) gets the engine's code alone,
 * with no test at all; the kind must be e->kind.
 */

/**
 * twheel_pending_as() - twheel_pending() for an engine of a known kind
 * @e: the engine
 * @kind: @e->kind, as a constant where the caller knows it
 * @t: a timer set up for @e with twheel_timer_setup()
 *
 * Return: as twheel_ops_pending().
 */
static __always_inline bool twheel_pending_as(const struct twheel_engine *e,
					      enum twheel_kind kind,
					      const struct twheel_timer *t)
{
	if (kind == TWHEEL_CLASSIC)
		return t->list.next;
	if (kind == TWHEEL_MODERN)
		return t->entry.pprev;
	if (kind == TWHEEL_RATAS)
		return tw_ratas_pending(t);
	if (kind == TWHEEL_VOLT)
		return tw_volt_pending(t);
	if (kind == TWHEEL_CLASSIC_BOUNDED)
		return t->list.next;
	return twheel_ops_pending(e, t);
}

/**
 * twheel_add_as() - twheel_add() for an engine of a known kind
 * @e: the engine
 * @kind: @e->kind, as a constant where the caller knows it
 * @t: the timer, set up for @e
 * @expires: the absolute jiffy it is to run at
 *
 * Return: as twheel_ops_add().
 */
static __always_inline int twheel_add_as(struct twheel_engine *e,
					 enum twheel_kind kind,
					 struct twheel_timer *t,
					 unsigned long expires)
{
	if (kind == TWHEEL_CLASSIC)
		return tw_classic_add(e, t, expires);
	if (kind == TWHEEL_MODERN)
		return tw_modern_add(twheel_to_modern(e), t, expires);
	if (kind == TWHEEL_RATAS)
		return tw_ratas_add(twheel_to_ratas(e), t, expires);
	if (kind == TWHEEL_VOLT)
		return tw_volt_add(twheel_to_volt(e), t, expires);
	if (kind == TWHEEL_CLASSIC_BOUNDED)
		return tw_bounded_add(e, t, expires);
	return twheel_ops_add(e, t, expires);
}

/**
 * twheel_del_as() - twheel_del() for an engine of a known kind
 * @e: the engine
 * @kind: @e->kind, as a constant where the caller knows it
 * @t: the timer, set up for @e
 *
 * Return: as twheel_ops_del().
 */
static __always_inline bool twheel_del_as(struct twheel_engine *e,
					  enum twheel_kind kind,
					  struct twheel_timer *t)
{
	if (kind == TWHEEL_CLASSIC)
		return tw_classic_del(e, t);
	if (kind == TWHEEL_MODERN)
		return tw_modern_del(twheel_to_modern(e), t);
	if (kind == TWHEEL_RATAS)
		return tw_ratas_del(twheel_to_ratas(e), t);
	if (kind == TWHEEL_VOLT)
		return tw_volt_del(twheel_to_volt(e), t);
	if (kind == TWHEEL_CLASSIC_BOUNDED)
		return tw_bounded_del(e, t);
	return twheel_ops_del(e, t);
}

/**
 * twheel_mod_as() - twheel_mod() for an engine of a known kind
 * @e: the engine
 * @kind: @e->kind, as a constant where the caller knows it
 * @t: the timer, set up for @e
 * @expires: the absolute jiffy it is to run at
 *
 * Return: as twheel_ops_mod().
 */
static __always_inline bool twheel_mod_as(struct twheel_engine *e,
					  enum twheel_kind kind,
					  struct twheel_timer *t,
					  unsigned long expires)
{
	if (kind == TWHEEL_CLASSIC)
		return tw_classic_mod(e, t, expires);
	if (kind == TWHEEL_MODERN)
		return tw_modern_mod(twheel_to_modern(e), t, expires);
	if (kind == TWHEEL_RATAS)
		return tw_ratas_mod(twheel_to_ratas(e), t, expires);
	if (kind == TWHEEL_VOLT)
		return tw_volt_mod(twheel_to_volt(e), t, expires);
	if (kind == TWHEEL_CLASSIC_BOUNDED)
		return tw_bounded_mod(e, t, expires);
	return twheel_ops_mod(e, t, expires);
}

/**
 * twheel_pop_as() - twheel_pop() for an engine of a known kind
 * @e: the engine
 * @kind: @e->kind, as a constant where the caller knows it
 *
 * Return: as twheel_ops_pop().
 */
static __always_inline struct twheel_timer *
twheel_pop_as(struct twheel_engine *e, enum twheel_kind kind)
{
	if (kind == TWHEEL_CLASSIC)
		return tw_classic_pop(e);
	if (kind == TWHEEL_MODERN)
		return tw_modern_pop(twheel_to_modern(e));
	if (kind == TWHEEL_RATAS)
		return tw_ratas_pop(twheel_to_ratas(e));
	if (kind == TWHEEL_VOLT)
		return tw_volt_pop(twheel_to_volt(e));
	if (kind == TWHEEL_CLASSIC_BOUNDED)
		return tw_bounded_pop(e);
	return twheel_ops_pop(e);
}

/**
 * twheel_advance_as() - twheel_advance() for an engine of a known kind
 * @e: the engine
 * @kind: @e->kind, as a constant where the caller knows it
 * @now: the last jiffy to process
 *
 * One jiffy, the clock's own, is the common case (a tick): the engines with
 * fast paths do it inline and leave it after a bit test when it has no
 * work. Longer spans go through twheel_ops_advance().
 *
 * Return: as twheel_ops_advance().
 */
static __always_inline bool twheel_advance_as(struct twheel_engine *e,
					      enum twheel_kind kind,
					      unsigned long now)
{
	if (now == e->clk && (kind == TWHEEL_CLASSIC || kind == TWHEEL_MODERN ||
			      kind == TWHEEL_RATAS || kind == TWHEEL_VOLT)) {
		e->st.advances++;
		e->st.jiffies++;
		if (kind == TWHEEL_CLASSIC)
			return tw_classic_step(e);
		if (kind == TWHEEL_MODERN)
			return tw_modern_step(twheel_to_modern(e));
		if (kind == TWHEEL_RATAS)
			return tw_ratas_step(twheel_to_ratas(e));
		return tw_volt_step(twheel_to_volt(e));
	}
	if (now == e->clk && kind == TWHEEL_CLASSIC_BOUNDED) {
		e->st.advances++;
		e->st.jiffies++;
		return tw_bounded_step(e);
	}
	return twheel_ops_advance(e, now);
}

/**
 * twheel_pending() - whether a timer is pending on an engine
 * @e: the engine
 * @t: a timer set up for @e with twheel_timer_setup()
 *
 * Return: as twheel_ops_pending().
 */
static __always_inline bool twheel_pending(const struct twheel_engine *e,
					   const struct twheel_timer *t)
{
	return twheel_pending_as(e, e->kind, t);
}

/**
 * twheel_add() - arm a timer that is not pending
 * @e: the engine
 * @t: the timer, set up for @e
 * @expires: the absolute jiffy it is to run at
 *
 * Return: as twheel_ops_add().
 */
static __always_inline int twheel_add(struct twheel_engine *e,
				      struct twheel_timer *t,
				      unsigned long expires)
{
	return twheel_add_as(e, e->kind, t, expires);
}

/**
 * twheel_del() - disarm a timer
 * @e: the engine
 * @t: the timer, set up for @e
 *
 * Return: as twheel_ops_del().
 */
static __always_inline bool twheel_del(struct twheel_engine *e,
				       struct twheel_timer *t)
{
	return twheel_del_as(e, e->kind, t);
}

/**
 * twheel_mod() - give a timer a new expiry, arming it if need be
 * @e: the engine
 * @t: the timer, set up for @e
 * @expires: the absolute jiffy it is to run at
 *
 * Return: as twheel_ops_mod().
 */
static __always_inline bool twheel_mod(struct twheel_engine *e,
				       struct twheel_timer *t,
				       unsigned long expires)
{
	return twheel_mod_as(e, e->kind, t, expires);
}

/**
 * twheel_pop() - hand out the next collected timer
 * @e: the engine
 *
 * Return: as twheel_ops_pop().
 */
static __always_inline struct twheel_timer *twheel_pop(struct twheel_engine *e)
{
	return twheel_pop_as(e, e->kind);
}

/**
 * twheel_advance() - process every jiffy up to and including @now
 * @e: the engine
 * @now: the last jiffy to process
 *
 * Return: as twheel_ops_advance().
 */
static __always_inline bool twheel_advance(struct twheel_engine *e,
					   unsigned long now)
{
	return twheel_advance_as(e, e->kind, now);
}

#endif /* TWHEEL_H */

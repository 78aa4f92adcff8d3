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
 * @list: the classic wheel's link into a slot or its collected list
 * @entry: the modern wheel's link into a bucket or its collected list
 * @bucket: the wheels only: the index of the bucket the timer is filed
 *	in; TWHEEL_COLLECTED while it is collected or not pending
 * @node: the reference engine's link into its armed or its due tree
 * @due: the heap engine's link into its collected list
 * @heap_idx: the heap engine: the timer's index in the heap's array,
 *	TW_HEAP_COLLECTED while collected, TW_HEAP_IDLE when not pending
 * @hash_link: the hash engine's (and the simple, hash_sorted, straight and
 *	ordered engines') link into a slot, a list or the collected list
 * @rounds: the hash engine: turns of the wheel still to wait in its slot;
 *	straight: ticks left; TW_HASH_COLLECTED while collected
 * @expires: the absolute jiffy it was last armed for
 * @function: its callback, run by the caller after twheel_pop()
 *
 * The classic wheel links a timer through @list (FIFO slots, as 2.6 did),
 * the modern wheel through @entry (an hlist, as the kernel does now), both
 * with @bucket; the reference engine uses @node, the heap @due and
 * @heap_idx, the hash and straight engines @hash_link and @rounds, the
 * simple, hash_sorted and ordered engines @hash_link (their @rounds is
 * TW_HASH_COLLECTED while collected). A timer belongs to one engine at a time, so they share
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
			unsigned long rounds;
		};
	};
	unsigned long expires;
	twheel_fn_t function;
};

/* @bucket of a wheel timer that was collected and waits to be popped. */
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
 * @collected: timers moved from buckets (the reference: the armed tree) to
 *	the collected list
 * @cascades: cascades of a non-empty slot (classic)
 * @cascaded: timers moved by cascades (classic)
 * @advances: twheel_advance() calls that moved clk
 * @jiffies: jiffies those calls covered
 * @events: jiffies that had work (collect or cascade), i.e. were processed
 * @refused: arms the engine refused (twheel_ops.admit): adds that returned
 *	an error, mods that disarmed the timer instead
 * @pending: timers armed, or collected and not yet popped
 * @level_pending: timers in buckets, per level (not the collected ones; the
 *	reference engine counts its armed timers in level 0)
 *
 * added = expired + deleted + pending, at any time.
 */
struct twheel_stats {
	u64 added;
	u64 deleted;
	u64 modified;
	u64 mod_noop;
	u64 mod_inplace;
	u64 expired;
	u64 collected;
	u64 cascades;
	u64 cascaded;
	u64 advances;
	u64 jiffies;
	u64 events;
	u64 refused;
	unsigned long pending;
	unsigned int level_pending[TWHEEL_MAX_LEVELS];
};

struct twheel_engine;

/**
 * struct twheel_ops - what makes an engine one kind of engine
 * @name: the engine's name ("classic", "modern", "reference")
 * @kind: the engine's kind
 * @setup: marks a timer not pending for this kind of engine
 * @pending: whether a timer is armed, or collected and not yet popped
 * @enqueue: files t by t->expires; t is not pending
 * @dequeue: removes a pending t, from a bucket or from the collected list
 * @bucket_of: the bucket a timer expiring at @expires would be filed in now,
 *	or TWHEEL_NO_BUCKET
 * @process: processes the jiffy e->clk: cascade, then collect; clk is not
 *	moved
 * @next_event: jiffies from clk to the next jiffy with work, at most limit
 * @pop: takes the first collected timer off the collected list and marks it
 *	not pending; NULL if there is none
 * @admit: optional: 0 if the engine takes a timer expiring at @expires
 *	now, else the error twheel_add() returns (engines with a range limit);
 *	NULL: every expiry is taken
 *
 * The ops keep the level_pending, collected, cascades and cascaded counters
 * of struct twheel_stats (and twheel_engine.cascade_ns); the
 * engine-independent functions (twheel_add() and the others) keep the rest.
 */
struct twheel_ops {
	const char *name;
	enum twheel_kind kind;
	void (*setup)(struct twheel_timer *t);
	bool (*pending)(const struct twheel_timer *t);
	void (*enqueue)(struct twheel_engine *e, struct twheel_timer *t);
	void (*dequeue)(struct twheel_engine *e, struct twheel_timer *t);
	unsigned int (*bucket_of)(const struct twheel_engine *e,
				  unsigned long expires);
	void (*process)(struct twheel_engine *e);
	unsigned long (*next_event)(const struct twheel_engine *e,
				    unsigned long limit);
	struct twheel_timer *(*pop)(struct twheel_engine *e);
	int (*admit)(const struct twheel_engine *e, unsigned long expires);
};

/**
 * struct twheel_engine - what every engine has; embedded in each kind's own
 * @ops: the engine's kind
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
	unsigned long clk;
	unsigned int nr_levels;
	struct twheel_stats st;
	u64 (*clock_ns)(void);
	u64 cascade_ns;
	void (*on_cascade)(struct twheel_engine *e, unsigned int lvl,
			   unsigned int slot, unsigned int moved, u64 ns);
};

/**
 * struct twheel_classic - the classic (Linux 2.6) cascading wheel
 * @e: the engine
 * @collected: timers collected and not yet popped, in the order they fire
 * @pending_map: a bit per non-empty slot of @vec
 * @vec: the slots: tv1's TW_TVR_SIZE, then tv2..tv5's TW_TVN_SIZE each;
 *	FIFO lists
 *
 * Set up by twheel_classic_init().
 */
struct twheel_classic {
	struct twheel_engine e;
	struct list_head collected;
	DECLARE_BITMAP(pending_map, TW_CLASSIC_BUCKETS);
	struct list_head vec[TW_CLASSIC_BUCKETS];
};

/**
 * struct twheel_modern - the modern (Linux >= 4.8) non-cascading wheel
 * @e: the engine
 * @collected: timers collected and not yet popped, in the order they fire
 * @collected_tail: where the next collected one goes
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

/**
 * struct twheel_reference - the reference engine: two rbtrees
 * @e: the engine
 * @armed: armed timers, ordered by expires, FIFO on ties
 * @due: collected timers, in the order they fire
 *
 * Exact and simple, not fast: what the wheels are checked against. Set up
 * by twheel_reference_init().
 */
struct twheel_reference {
	struct twheel_engine e;
	struct rb_root_cached armed;
	struct rb_root_cached due;
};

#include "engines/heap.h"
#include "engines/hash.h"
#include "engines/simple.h"
#include "engines/hash_sorted.h"
#include "engines/straight.h"
#include "engines/ordered.h"

void twheel_classic_init(struct twheel_classic *c, unsigned long clk);
int twheel_modern_init(struct twheel_modern *m, unsigned long clk,
		       unsigned int depth);
void twheel_reference_init(struct twheel_reference *r, unsigned long clk);

void twheel_timer_setup(struct twheel_engine *e, struct twheel_timer *t,
			twheel_fn_t fn);
bool twheel_pending(const struct twheel_engine *e,
		    const struct twheel_timer *t);
int twheel_add(struct twheel_engine *e, struct twheel_timer *t,
	       unsigned long expires);
bool twheel_del(struct twheel_engine *e, struct twheel_timer *t);
bool twheel_mod(struct twheel_engine *e, struct twheel_timer *t,
		unsigned long expires);
unsigned long twheel_advance(struct twheel_engine *e, unsigned long now);
struct twheel_timer *twheel_pop(struct twheel_engine *e);
unsigned long twheel_next_event(const struct twheel_engine *e,
				unsigned long limit);
unsigned long twheel_run_until(struct twheel_engine *e, unsigned long now,
			       twheel_run_fn fn, void *arg);

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

unsigned int twheel_modern_index(const struct twheel_modern *m,
				 unsigned long expires,
				 unsigned long *bucket_expiry);

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

#endif /* TWHEEL_H */

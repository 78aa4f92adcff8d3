/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twheel - timer wheels side by side: the engine contract.
 *
 * An engine is a pure data structure: it never reads a clock, never locks,
 * never prints and never allocates, so twheel_core.c and engines/ build as
 * user-space C too (userspace/: fuzzing, instruction counts, trace
 * replay). Time is an argument: an engine's clock (clk) is the next jiffy
 * it will process, and twheel_advance(e, now) processes every jiffy from
 * clk up to and including now. Timers that fell due are collected inside
 * the engine and handed out one by one by twheel_pop(); the caller runs
 * the callbacks with no engine lock held (a callback may re-arm itself or
 * delete others). A collected timer not popped yet is still pending:
 * twheel_del() takes it back and it never runs, as with timer_list.
 *
 * Locking: an engine has no lock of its own; its runner's spinlock
 * (struct tw_runner.lock) guards it, dropped around each callback.
 *
 * The map of the code, its layers (each using only those below it, which
 * scripts/cycles.py enforces) and where to add an engine, a runner, a
 * stats key or a workload: docs/hacking.md.
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
 * @hash_link: the link of the engines of slots or lists of timers (the
 *	hashed wheels, straight's list, the ordered list) into a slot, a list
 *	or the collected list; the hash_vec engine's into its collected list
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
 * Each engine uses the members named for it above. A timer belongs to
 * one engine at a time, so they share storage and the timer stays as
 * small as the kernel's timer_list (40 bytes on 64-bit). Set it up with
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

/* The kinds of engine, TWHEEL_<NAME>, in the registry's order. */
#define TW_KIND_OF(NAME, ...)	TWHEEL_##NAME
enum twheel_kind {
#define TWHEEL_ENGINE(name, NAME, path, exact)	TW_KIND_OF(NAME, name, path, exact),
#include "engines/list.h"
#undef TWHEEL_ENGINE
	TWHEEL_NR_KINDS,
};

/*
 * The most levels an engine has (the modern wheel's 9): the size of the
 * per-level arrays of twheel_count() and the read-outs.
 */
#define TWHEEL_MAX_LEVELS	9

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
struct twheel_run;

/**
 * typedef twheel_entry_run_fn - a run, as struct twheel_entry holds it
 * @e: the engine
 * @now: the last jiffy to process
 * @fn: called once for each timer that falls due, in the engine's order
 * @arg: passed to @fn
 * @run: the budget and what the run did; NULL: no budget
 *
 * Return: the number of timers handed to @fn (twheel_ops_run()).
 */
typedef unsigned long twheel_entry_run_fn(struct twheel_engine *e,
					  unsigned long now, twheel_run_fn fn,
					  void *arg, struct twheel_run *run);

/**
 * struct twheel_entry - the operations, as twheel_add() and the others call
 * them: one indirect call
 * @add: twheel_add(): an engine's fast path, or twheel_ops_add()
 * @del: twheel_del(): likewise, or twheel_ops_del()
 * @mod: twheel_mod(): likewise, or twheel_ops_mod()
 * @pop: twheel_pop(): likewise, or twheel_ops_pop()
 * @advance: twheel_advance(): likewise, or twheel_ops_advance()
 * @run: twheel_run(): an engine's own run, its advance and pop inline in
 *	it (tw_<name>_run(), engines/run.c), or twheel_ops_run()
 */
struct twheel_entry {
	int (*add)(struct twheel_engine *e, struct twheel_timer *t,
		   unsigned long expires);
	bool (*del)(struct twheel_engine *e, struct twheel_timer *t);
	bool (*mod)(struct twheel_engine *e, struct twheel_timer *t,
		    unsigned long expires);
	struct twheel_timer *(*pop)(struct twheel_engine *e);
	bool (*advance)(struct twheel_engine *e, unsigned long now);
	twheel_entry_run_fn *run;
};

/**
 * struct twheel_config - what an engine may be set up with
 * @depth: modern: its levels, 8 or 9 (0: the kernel's for this HZ)
 * @slots: the hashed wheels: their slots, a power of 2
 * @max_interval: simple: its MaxInterval, slots of one jiffy
 * @cap: heap: the timers its array holds at first (0: none until
 *	twheel_heap_set_storage())
 * @keep: hash_vec: spare arrays of each size it keeps at hand
 *
 * An engine reads what concerns it and ignores the rest.
 */
struct twheel_config {
	unsigned int depth;
	unsigned int slots;
	unsigned int max_interval;
	unsigned int cap;
	unsigned int keep;
};

/**
 * struct twheel_ops - what makes an engine one kind of engine
 * @name: the engine's name ("classic", "modern", "reference")
 * @kind: the engine's kind
 * @guarantee: its guarantee in words ("exact", "never early, late by at
 *	most its level's granule", ...), for read-outs and docs
 * @size: the size of its state (struct twheel_<name>, the engine in it)
 * @offset: where in that state the struct twheel_engine is
 * @storage_size: optional: the memory it needs beside its state for @cfg
 *	(slots, an array), which the caller allocates; NULL: none
 * @init: sets up an empty engine of this kind in @state, clock @clk, for
 *	@cfg, with @storage (of @storage_size bytes, or NULL); 0 or an error
 * @entry: what twheel_add() and the others call
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
 * @reclaim: optional, with @cancel: reclaims one timer, cancelled and
 *	still linked (twheel_detach()); nothing if t is not linked; NULL:
 *	@cancel is NULL
 * @range_pick: optional: the jiffy in [lo, hi] (hi at or after lo, less
 *	than LONG_MAX after it) that costs this engine least, its rule for
 *	twheel_add_range() and twheel_mod_range(); NULL: hi, the latest
 * @level_of: optional: the level of a bucket index (twheel_bucket_level());
 *	NULL: every bucket is in level 0
 * @buckets: optional: adds the timers filed in each bucket to per[0 ..
 *	n) (zeroed by the caller), n at least @nr_buckets; returns the
 *	buckets it has. NULL: the engine has none to show
 * @nr_buckets: optional: how many buckets it has, at most (for @buckets)
 * @index: optional: the bucket @expires files in now and, into
 *	@bucket_expiry, the jiffy that bucket is processed at (the modern
 *	wheel: what the kernel's timer_start tracepoint reports); NULL: the
 *	engine does not know that jiffy
 * @max_timers: optional: the most timers the module loads on it, where
 *	its operations walk its timers (O(n) engines, a hashed wheel's slot);
 *	NULL: no limit of its own
 * @grow_size: optional: bytes of new storage it needs to hold as many
 *	timers as @timers says at once, 0 if it holds them already (the heap's
 *	array)
 * @grow: optional: moves into that new storage, room for that many; 0, or
 *	an error and nothing changed. The caller frees the old storage
 * @narrow: its documented limit: pending expiries must lie within LONG_MAX
 *	of one another (it orders them by time_before() between them, which
 *	is no order beyond that); the others order them against the clock
 * @sparse: its advance over a span with no timer due costs nothing that
 *	grows with the span (a tree, a heap), so it can take any unit of
 *	time, ns included (the trace replay's hrtimer stream)
 *
 * The ops keep the cascades and cascaded counters of struct twheel_stats
 * (and twheel_engine.cascade_ns); the engine-independent functions
 * (twheel_add() and the others) keep the rest.
 */
struct twheel_ops {
	const char *name;
	enum twheel_kind kind;
	const char *guarantee;
	size_t size;
	size_t offset;
	size_t (*storage_size)(const struct twheel_config *cfg);
	int (*init)(void *state, unsigned long clk,
		    const struct twheel_config *cfg, void *storage);
	struct twheel_entry entry;
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
	void (*reclaim)(struct twheel_engine *e, struct twheel_timer *t);
	unsigned long (*range_pick)(const struct twheel_engine *e,
				    unsigned long lo, unsigned long hi);
	unsigned int (*level_of)(const struct twheel_engine *e,
				 unsigned int bucket);
	unsigned int (*buckets)(const struct twheel_engine *e,
				unsigned int *per, unsigned int n);
	unsigned int (*nr_buckets)(const struct twheel_engine *e);
	unsigned int (*index)(const struct twheel_engine *e,
			      unsigned long expires, unsigned long *bucket_expiry);
	unsigned long (*max_timers)(const struct twheel_engine *e);
	size_t (*grow_size)(const struct twheel_engine *e, unsigned long timers);
	int (*grow)(struct twheel_engine *e, void *storage, unsigned long timers);
	bool narrow;
	bool sparse;
};

/**
 * struct twheel_engine - what every engine has; embedded in each kind's own
 * @ops: the engine's kind
 * @kind: @ops->kind, at hand for read-outs
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

unsigned long twheel_count(const struct twheel_engine *e,
			   unsigned long *per_level);
void twheel_purge(struct twheel_engine *e);
twheel_entry_run_fn twheel_ops_run;
bool twheel_detach(struct twheel_engine *e, struct twheel_timer *t);

/* Level of a bucket index, for occupancy read-outs. */
unsigned int twheel_bucket_level(const struct twheel_engine *e,
				 unsigned int bucket);

/*
 * Every engine's ops, twheel_<name>_ops in its engines/<name>.c, and the
 * registry walked: every engine's ops by kind (twheel_core.c).
 */
#define TW_OPS_OF(name, ...)	twheel_##name##_ops
extern const struct twheel_ops
#define TWHEEL_ENGINE(name, NAME, path, exact)	TW_OPS_OF(name, NAME, path, exact),
#include "engines/list.h"
#undef TWHEEL_ENGINE
	*const twheel_engine_ops[TWHEEL_NR_KINDS];

const struct twheel_ops *twheel_ops_of(enum twheel_kind kind);
const struct twheel_ops *twheel_ops_by_name(const char *name);
size_t twheel_storage_size(const struct twheel_ops *ops,
			   const struct twheel_config *cfg);
int twheel_create(const struct twheel_ops *ops, void *state,
		  unsigned long clk, const struct twheel_config *cfg,
		  void *storage, struct twheel_engine **ep);

/*
 * The operations: one indirect call each, through the engine's const
 * twheel_ops.entry (an engine's inlined fast paths out of line, or the
 * engine-independent twheel_ops_*(); engines/entry.h). A caller that knows
 * the kind at compile time inlines them: twheel_add_as() and the others,
 * engines/registry.h. Each is documented at its twheel_ops_ counterpart.
 */

/**
 * twheel_pending() - whether a timer is pending on an engine
 * @e: the engine
 * @t: a timer set up for @e with twheel_timer_setup()
 *
 * Return: as twheel_ops_pending().
 */
static inline bool twheel_pending(const struct twheel_engine *e,
				  const struct twheel_timer *t)
{
	return e->ops->pending(t);
}

/**
 * twheel_add() - arm a timer that is not pending
 * @e: the engine
 * @t: the timer, set up for @e
 * @expires: the absolute jiffy it is to run at
 *
 * Return: as twheel_ops_add().
 */
static inline int twheel_add(struct twheel_engine *e, struct twheel_timer *t,
			     unsigned long expires)
{
	return e->ops->entry.add(e, t, expires);
}

/**
 * twheel_del() - disarm a timer
 * @e: the engine
 * @t: the timer, set up for @e
 *
 * Return: as twheel_ops_del().
 */
static inline bool twheel_del(struct twheel_engine *e, struct twheel_timer *t)
{
	return e->ops->entry.del(e, t);
}

/**
 * twheel_mod() - give a timer a new expiry, arming it if need be
 * @e: the engine
 * @t: the timer, set up for @e
 * @expires: the absolute jiffy it is to run at
 *
 * Return: as twheel_ops_mod().
 */
static inline bool twheel_mod(struct twheel_engine *e, struct twheel_timer *t,
			      unsigned long expires)
{
	return e->ops->entry.mod(e, t, expires);
}

/**
 * twheel_pop() - hand out the next collected timer
 * @e: the engine
 *
 * Return: as twheel_ops_pop().
 */
static inline struct twheel_timer *twheel_pop(struct twheel_engine *e)
{
	return e->ops->entry.pop(e);
}

/**
 * twheel_advance() - process every jiffy up to and including @now
 * @e: the engine
 * @now: the last jiffy to process
 *
 * Return: as twheel_ops_advance().
 */
static inline bool twheel_advance(struct twheel_engine *e, unsigned long now)
{
	return e->ops->entry.advance(e, now);
}

/**
 * twheel_run() - run the timers due up to and including @now, on a budget
 * @e: the engine
 * @now: the last jiffy to process
 * @fn: called once for each timer that falls due, in the engine's order
 * @arg: passed to @fn
 * @run: the budget and what the run did; NULL: no budget, as
 *	twheel_run_until()
 *
 * Return: as twheel_ops_run().
 */
static inline unsigned long twheel_run(struct twheel_engine *e,
				       unsigned long now, twheel_run_fn fn,
				       void *arg, struct twheel_run *run)
{
	return e->ops->entry.run(e, now, fn, arg, run);
}

/**
 * twheel_run_until() - run every timer due up to and including @now
 * @e: the engine
 * @now: the last jiffy to process
 * @fn: called once for each timer that falls due, in the engine's order
 * @arg: passed to @fn
 *
 * twheel_run() with no budget: leaves the clock at @now + 1; does nothing
 * if @now is before the clock.
 *
 * Return: the number of timers handed to @fn.
 */
static inline unsigned long twheel_run_until(struct twheel_engine *e,
					     unsigned long now,
					     twheel_run_fn fn, void *arg)
{
	return twheel_run(e, now, fn, arg, NULL);
}

#endif /* TWHEEL_H */

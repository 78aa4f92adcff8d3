// SPDX-License-Identifier: GPL-2.0
/*
 * twheel: what every engine shares, the engine-independent operations. The
 * engines themselves are in engines/, one file each.
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
#include <linux/string.h>
#include "twheel.h"

/* The registry (engines/list.h) as a table: every engine's ops by kind. */
#define TW_OPS_AT(name, NAME, ...) \
	[TWHEEL_##NAME] = &twheel_##name##_ops
const struct twheel_ops *const twheel_engine_ops[TWHEEL_NR_KINDS] = {
#define TWHEEL_ENGINE(name, NAME, path, exact)	TW_OPS_AT(name, NAME, path, exact),
#include "engines/list.h"
#undef TWHEEL_ENGINE
};

/**
 * twheel_ops_of() - an engine's ops by its kind
 * @kind: the kind, below TWHEEL_NR_KINDS
 *
 * twheel_engine_ops[] for the module's other parts (its KUnit module).
 *
 * Return: the ops of that kind of engine.
 */
const struct twheel_ops *twheel_ops_of(enum twheel_kind kind)
{
	return twheel_engine_ops[kind];
}
EXPORT_SYMBOL_GPL(twheel_ops_of);

/**
 * twheel_ops_by_name() - an engine's ops by its name
 * @name: the name, as engines= spells it ("classic", "hash_vec", ...)
 *
 * Return: the ops, or NULL if no engine has that name.
 */
const struct twheel_ops *twheel_ops_by_name(const char *name)
{
	unsigned int k;

	for (k = 0; k < TWHEEL_NR_KINDS; k++)
		if (!strcmp(twheel_engine_ops[k]->name, name))
			return twheel_engine_ops[k];
	return NULL;
}
EXPORT_SYMBOL_GPL(twheel_ops_by_name);

/**
 * twheel_storage_size() - the memory an engine needs beside its state
 * @ops: the engine's kind
 * @cfg: what it is to be set up with
 *
 * Return: the bytes twheel_create() wants as its storage for @cfg, 0 if
 * none.
 */
size_t twheel_storage_size(const struct twheel_ops *ops,
			   const struct twheel_config *cfg)
{
	return ops->storage_size ? ops->storage_size(cfg) : 0;
}
EXPORT_SYMBOL_GPL(twheel_storage_size);

/**
 * twheel_create() - set up an empty engine of any kind, the one constructor
 * @ops: the engine's kind
 * @state: @ops->size bytes, the caller's, zeroed or not
 * @clk: the first jiffy it is to process
 * @cfg: what it is set up with (struct twheel_config)
 * @storage: twheel_storage_size() bytes, the caller's; NULL if that is 0
 *	(the heap takes NULL too: an array given later)
 * @ep: set to the engine, inside @state
 *
 * The engine uses @state and @storage until the caller frees them; it
 * allocates nothing itself.
 *
 * Return: 0, or the engine's error for @cfg (-EINVAL, -E2BIG).
 */
int twheel_create(const struct twheel_ops *ops, void *state,
		  unsigned long clk, const struct twheel_config *cfg,
		  void *storage, struct twheel_engine **ep)
{
	int ret = ops->init(state, clk, cfg, storage);

	*ep = ret ? NULL : (struct twheel_engine *)((char *)state + ops->offset);
	return ret;
}
EXPORT_SYMBOL_GPL(twheel_create);

/**
 * twheel_bucket_level() - the level of a bucket index, for occupancy read-outs
 * @e: the engine, for its kind
 * @bucket: a bucket index of @e's kind (a real one: not TWHEEL_COLLECTED
 *	or TWHEEL_NO_BUCKET)
 *
 * Return: the level the engine's twheel_ops.level_of gives (the classic
 * wheel: 0 for tv1, 1 to 4 for tv2 to tv5; the modern wheel: @bucket /
 * TW_LVL_SIZE; ...); 0 for the engines of one level.
 */
unsigned int twheel_bucket_level(const struct twheel_engine *e,
				 unsigned int bucket)
{
	return e->ops->level_of ? e->ops->level_of(e, bucket) : 0;
}
EXPORT_SYMBOL_GPL(twheel_bucket_level);

/**
 * twheel_count() - count what an engine holds, for read-outs and checks
 * @e: the engine; only read
 * @per_level: if not NULL, TWHEEL_MAX_LEVELS counters, set to the timers in
 *	the buckets of each level (the reference: its armed timers, in level
 *	0); the collected ones are in no level
 *
 * Walks every bucket and the collected list, so it costs O(timers held):
 * a read-out, not something for a tick.
 *
 * Return: every timer the engine holds, armed or collected and not yet
 * popped; twheel_stats_pending() must equal it.
 */
unsigned long twheel_count(const struct twheel_engine *e,
			   unsigned long *per_level)
{
	unsigned long lvl[TWHEEL_MAX_LEVELS] = { 0 }, n;
	unsigned int i;

	n = e->ops->count(e, lvl);
	for (i = 0; i < TWHEEL_MAX_LEVELS; i++) {
		n += lvl[i];
		if (per_level)
			per_level[i] = lvl[i];
	}
	return n;
}
EXPORT_SYMBOL_GPL(twheel_count);

/**
 * twheel_purge() - let go of every cancelled timer an engine still links
 * @e: the engine
 *
 * An engine with lazy cancel (volt) keeps a cancelled timer linked until
 * it processes its slot; until then the timer's owner must not free it.
 * This reclaims all of them at once, walking every slot and list: O(slots
 * + timers held), for process context before timers are freed, not for a
 * tick. Pending timers are left as they are. Nothing to do for the others.
 */
void twheel_purge(struct twheel_engine *e)
{
	if (e->ops->purge)
		e->ops->purge(e);
}
EXPORT_SYMBOL_GPL(twheel_purge);

/**
 * twheel_detach() - let go of one timer for good, so it can move
 * @e: the engine
 * @t: the timer, set up for @e
 *
 * Takes @t out of @e whatever @e still knows of it: a pending timer (armed,
 * or collected and not popped) is removed and will not run here, counted
 * in st.deleted even on an engine with lazy cancel, which removes it at
 * once here instead of marking it; a timer such an engine cancelled and
 * still links is reclaimed (st.lazy_held). Afterwards @t may be set up for
 * another engine (twheel_timer_setup()): how a timer moves between
 * engines of the same kind, a per-CPU instance to another.
 *
 * Return: true if @t was pending, false if not.
 */
bool twheel_detach(struct twheel_engine *e, struct twheel_timer *t)
{
	if (!e->ops->pending(t)) {
		if (e->ops->reclaim)
			e->ops->reclaim(e, t);
		return false;
	}
	e->ops->dequeue(e, t);
	e->st.deleted++;
	return true;
}
EXPORT_SYMBOL_GPL(twheel_detach);

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
 * twheel_ops_pending() - whether a timer is pending on an engine
 * @e: the engine
 * @t: a timer set up for @e with twheel_timer_setup()
 *
 * Return: true if @t is armed, or was collected by twheel_advance() and not
 * yet handed out by twheel_pop(); false once popped or deleted, or if it
 * was never armed.
 */
bool twheel_ops_pending(const struct twheel_engine *e,
			const struct twheel_timer *t)
{
	return e->ops->pending(t);
}
EXPORT_SYMBOL_GPL(twheel_ops_pending);

/**
 * twheel_ops_add() - arm a timer that is not pending
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
 * is cut to it, and such a timer runs before @expires. Pending expiries
 * may be more than LONG_MAX apart (one armed far in the past next to one
 * ahead, where time_before() between them is no order): each engine still
 * runs each at its jiffy, except those that need them within LONG_MAX of
 * each other (twheel_ops.narrow; their headers say so): there a timer
 * armed far in the past may wait behind one ahead. Counts st.added.
 *
 * Return: 0; -EBUSY if @t is already pending (armed, or collected and
 * not yet popped): then nothing changes, @t keeps its expiry and nothing
 * is counted; or the error of an engine that does not take @expires
 * (twheel_ops.admit; the simple engine: -ERANGE beyond its MaxInterval):
 * then @t stays not pending and only st.refused is counted.
 */
int twheel_ops_add(struct twheel_engine *e, struct twheel_timer *t,
		   unsigned long expires)
{
	int ret;

	if (e->ops->pending(t))
		return -EBUSY;
	if (e->ops->admit) {
		ret = e->ops->admit(e, expires);
		if (ret) {
			e->st.refused++;
			return ret;
		}
	}
	t->expires = expires;
	e->ops->enqueue(e, t);
	e->st.added++;
	return 0;
}
EXPORT_SYMBOL_GPL(twheel_ops_add);

/**
 * twheel_ops_del() - disarm a timer
 * @e: the engine
 * @t: the timer, set up for @e
 *
 * A pending timer is taken out of its bucket or, if it was collected and
 * not yet popped, out of the collected list: either way it will not run.
 * An engine with lazy cancel (volt) only marks it: it is not pending any
 * more, but stays linked until the engine reclaims it (st.lazy_held).
 * Counts st.deleted. A timer that is not pending is left
 * as it is, and nothing is counted.
 *
 * Return: true if @t was pending, false if not.
 */
bool twheel_ops_del(struct twheel_engine *e, struct twheel_timer *t)
{
	if (!e->ops->pending(t))
		return false;
	if (e->ops->cancel)
		e->ops->cancel(e, t);
	else
		e->ops->dequeue(e, t);
	e->st.deleted++;
	return true;
}
EXPORT_SYMBOL_GPL(twheel_ops_del);

/**
 * twheel_ops_mod() - give a timer a new expiry, arming it if need be
 * @e: the engine
 * @t: the timer, set up for @e
 * @expires: the absolute jiffy it is to run at, as for twheel_add()
 *
 * A timer that is not pending is armed as twheel_add() does (and counted
 * as it counts: st.added). A pending one counts st.modified
 * and then:
 *
 * - the expiry it already has: nothing changes (st.mod_noop); a collected
 *   timer stays collected and runs when popped;
 * - an expiry that files in the bucket it is in: only @t->expires changes,
 *   no relink (st.mod_inplace; never for a collected timer, nor on the
 *   reference engine, which has no buckets);
 * - otherwise it is taken out (of its bucket, or of the collected list: it
 *   will not run for its old expiry) and filed again for @expires;
 * - unless the engine does not take @expires (twheel_ops.admit): then it
 *   is disarmed instead, counted in st.deleted and st.refused, so that it
 *   never runs at the expiry it had.
 *
 * Return: true if @t was pending, false if it was armed afresh.
 */
bool twheel_ops_mod(struct twheel_engine *e, struct twheel_timer *t,
		    unsigned long expires)
{
	unsigned int idx;

	if (!e->ops->pending(t)) {
		twheel_ops_add(e, t, expires);
		return false;
	}
	e->st.modified++;
	if (t->expires == expires) {
		e->st.mod_noop++;
		return true;
	}
	/* Same bucket: only the expiry changes. */
	idx = e->ops->bucket_of(e, expires);
	if (idx != TWHEEL_NO_BUCKET && e->ops->in_bucket &&
	    e->ops->in_bucket(e, t, idx)) {
		t->expires = expires;
		e->st.mod_inplace++;
		return true;
	}
	e->ops->dequeue(e, t);
	if (e->ops->admit && e->ops->admit(e, expires)) {
		e->st.refused++;
		e->st.deleted++;
		return true;
	}
	t->expires = expires;
	e->ops->enqueue(e, t);
	return true;
}
EXPORT_SYMBOL_GPL(twheel_ops_mod);

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
 * twheel_ops_advance() - process every jiffy up to and including @now
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
 * for each jiffy processed (and the classic wheel's st.cascades and
 * st.cascaded). If @now is before the clock nothing happens and nothing is
 * counted. The timers collected are not counted on the way: a slot or
 * bucket is handed on whole.
 *
 * Return: true if it collected any timer.
 */
bool twheel_ops_advance(struct twheel_engine *e, unsigned long now)
{
	unsigned long span, d;
	bool collected = false;

	if (time_before(now, e->clk))
		return false;
	span = now - e->clk;
	e->st.advances++;
	e->st.jiffies += span + 1;
	for (;;) {
		d = e->ops->next_event(e, span + 1);
		if (d > span)
			break;
		e->clk += d;
		span -= d;
		collected |= e->ops->process(e);
		e->st.events++;
		if (!span)
			break;
		e->clk++;
		span--;
	}
	e->clk = now + 1;
	return collected;
}
EXPORT_SYMBOL_GPL(twheel_ops_advance);

/**
 * twheel_range_pick() - the roundest jiffy of a range (the kernel's rule)
 * @lo: the earliest jiffy allowed
 * @hi: the latest, at or after @lo (taken wrap-safely)
 *
 * The jiffy in [@lo, @hi] with the most low zero bits: @hi with the bits
 * below the highest one where @lo and @hi differ cleared (the rule of the
 * kernel's old apply_slack()), or @lo itself when it is rounder still. No
 * engine picks by it (each has its own rule, twheel_range_expiry()); the
 * user-space bench measures it next to theirs.
 *
 * Return: the jiffy picked.
 */
unsigned long twheel_range_pick(unsigned long lo, unsigned long hi)
{
	unsigned long mask;

	if (hi < lo)		/* across the wrap: 0 is in the range */
		return 0;
	if (hi == lo)
		return hi;
	/*
	 * Under their common prefix lo has a 0 and hi a 1 at bit b: lo is
	 * the roundest if all its bits below b are 0, else hi with them
	 * cleared (then nothing in the range has more low zero bits).
	 */
	mask = (1UL << __fls(lo ^ hi)) - 1;
	return lo & mask ? hi & ~mask : lo;
}
EXPORT_SYMBOL_GPL(twheel_range_pick);

/**
 * twheel_range_expiry() - the jiffy of a range that costs an engine least
 * @e: the engine; only read
 * @lo: the earliest jiffy allowed (as twheel_add()'s @expires)
 * @hi: the latest; at or after @lo, less than LONG_MAX after it
 *
 * The engine's rule (struct twheel_ops.range_pick): the classic wheels the
 * latest jiffy at the coarsest cascade point the range holds (a timer
 * filed there is cascaded once, straight to its slot, as Ratas'
 * schedule_in_range()); the modern wheel the latest whose bucket runs by
 * @hi (the end of the granule before @hi's: it runs at that bucket's edge,
 * not a granule past @hi); simple the latest it files (below MaxInterval);
 * every other engine @hi, the latest: a timer that is re-armed again and
 * again (a timeout) is then left where it is for the longest.
 *
 * Return: the jiffy picked, in [@lo, @hi].
 */
unsigned long twheel_range_expiry(const struct twheel_engine *e,
				  unsigned long lo, unsigned long hi)
{
	return e->ops->range_pick ? e->ops->range_pick(e, lo, hi) : hi;
}
EXPORT_SYMBOL_GPL(twheel_range_expiry);

/**
 * twheel_add_range() - arm a timer that is not pending, anywhere in a range
 * @e: the engine
 * @t: the timer, set up for @e
 * @lo: the earliest jiffy it may run at (as twheel_add()'s @expires)
 * @hi: the latest; at or after @lo, less than LONG_MAX after it
 *
 * twheel_add() at twheel_range_expiry(@e, @lo, @hi), the engine's pick.
 *
 * Return: as twheel_add().
 */
int twheel_add_range(struct twheel_engine *e, struct twheel_timer *t,
		     unsigned long lo, unsigned long hi)
{
	return twheel_add(e, t, twheel_range_expiry(e, lo, hi));
}
EXPORT_SYMBOL_GPL(twheel_add_range);

/**
 * twheel_mod_range() - give a timer an expiry in a range, arming it if need be
 * @e: the engine
 * @t: the timer, set up for @e
 * @lo: the earliest jiffy it may run at
 * @hi: the latest; at or after @lo, less than LONG_MAX after it
 *
 * A pending timer whose expiry is already in [@lo, @hi] stays as it is: no
 * relink (counted as a mod to the same expiry: st.modified, st.mod_noop).
 * Otherwise twheel_mod() at twheel_range_expiry(@e, @lo, @hi).
 *
 * Return: as twheel_mod().
 */
bool twheel_mod_range(struct twheel_engine *e, struct twheel_timer *t,
		      unsigned long lo, unsigned long hi)
{
	if (twheel_pending(e, t) && t->expires - lo <= hi - lo) {
		e->st.modified++;
		e->st.mod_noop++;
		return true;
	}
	return twheel_mod(e, t, twheel_range_expiry(e, lo, hi));
}
EXPORT_SYMBOL_GPL(twheel_mod_range);

/**
 * twheel_ops_pop() - hand out the next collected timer
 * @e: the engine
 *
 * Takes the first of the timers twheel_advance() collected off the engine,
 * in the order they were collected, as the kernel runs its timers: jiffy
 * by jiffy, and within a jiffy in slot order (first filed first) on the
 * classic wheel, the kernel's order on the modern wheel (level by level;
 * in a bucket, an hlist, last filed first) and expiry order, FIFO on ties,
 * on the reference. Every engine keeps jiffy by jiffy across calls too: a
 * timer collected at a later jiffy comes after every one an earlier jiffy
 * left collected and not popped (a budget, a caller that stopped popping),
 * even one armed in the past that expires before them. The timer is no
 * longer pending: the caller runs its ->function, which may arm it again.
 * Counts st.expired.
 *
 * Return: the timer, or NULL if no collected timer is waiting.
 */
struct twheel_timer *twheel_ops_pop(struct twheel_engine *e)
{
	struct twheel_timer *t = e->ops->pop(e);

	if (t)
		e->st.expired++;
	return t;
}
EXPORT_SYMBOL_GPL(twheel_ops_pop);

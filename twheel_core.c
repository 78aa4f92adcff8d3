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
#include "twheel.h"

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
 * Return: 0; -EBUSY if @t is already pending (armed, or collected and
 * not yet popped): then nothing changes, @t keeps its expiry and nothing
 * is counted; or the error of an engine that does not take @expires
 * (twheel_ops.admit; the simple engine: -ERANGE beyond its MaxInterval):
 * then @t stays not pending and only st.refused is counted.
 */
int twheel_add(struct twheel_engine *e, struct twheel_timer *t,
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
 *   will not run for its old expiry) and filed again for @expires;
 * - unless the engine does not take @expires (twheel_ops.admit): then it
 *   is disarmed instead, counted in st.deleted and st.refused, so that it
 *   never runs at the expiry it had.
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
	if (e->ops->admit && e->ops->admit(e, expires)) {
		e->st.refused++;
		e->st.deleted++;
		e->st.pending--;
		return true;
	}
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

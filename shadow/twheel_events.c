// SPDX-License-Identifier: GPL-2.0
/*
 * twheel events: what one tracepoint event of one timer means (the rules
 * are in twheel_events.h). Pure: no lock, no clock, no printk, no
 * allocation; the module's shadow and user space's replay build it alike.
 */
#include <linux/types.h>
#include <linux/jiffies.h>
#include <linux/export.h>
#include "shadow/twheel_events.h"

/**
 * tw_ev_age_limit() - the last time an armed timer is still taken as pending
 * @t: the timer
 * @per_s: its clock's ticks per second (HZ, or NSEC_PER_SEC)
 *
 * Return: @t's expiry plus an eighth of its timeout plus TW_EV_AGE_S
 * seconds: once the clock is after it, tw_ev_aged() says the timer is gone.
 */
unsigned long tw_ev_age_limit(const struct tw_ev_timer *t, unsigned long per_s)
{
	return t->expires + t->timeout / 8 + TW_EV_AGE_S * per_s;
}
EXPORT_SYMBOL_GPL(tw_ev_age_limit);

/**
 * tw_ev_aged() - whether an armed timer the kernel never ended is gone
 * @t: the timer
 * @now: the clock
 * @per_s: its ticks per second (the traced machine's HZ for jiffies,
 *	NSEC_PER_SEC for ns)
 *
 * Return: true if @t is armed (no cancel undecided) and @now is after
 * tw_ev_age_limit().
 */
bool tw_ev_aged(const struct tw_ev_timer *t, unsigned long now,
		unsigned long per_s)
{
	return t->armed && time_after(now, tw_ev_age_limit(t, per_s));
}
EXPORT_SYMBOL_GPL(tw_ev_aged);

/**
 * tw_ev_settle() - no event is to decide a timer's cancel: it is a delete
 * @t: the timer
 *
 * For the end of a trace, a stop, or a caller that cannot wait for the
 * timer's next event any more.
 *
 * Return: true if @t had an undecided cancel (now decided a delete).
 */
bool tw_ev_settle(struct tw_ev_timer *t)
{
	bool had = t->cancel;

	t->cancel = 0;
	return had;
}
EXPORT_SYMBOL_GPL(tw_ev_settle);

/* Whether ev is the very next event on the CPU of t's undecided cancel. */
static bool tw_ev_next_to_cancel(const struct tw_ev_timer *t,
				 const struct tw_ev *ev)
{
	return ev->cpu == t->cancel_cpu && ev->cpu_prev == t->cancel_seq;
}

static u8 tw_ev_start(struct tw_ev_timer *t, const struct tw_ev *ev,
		      unsigned long per_s, struct tw_ev_verdict *v)
{
	u8 what = TW_EV_ADD;

	/* queued elsewhere: the callback it waited for has returned */
	if (t->stale && ev->has_base && ev->base_cpu != t->stale_cpu)
		t->stale = 0;
	if (t->cancel) {
		if (tw_ev_next_to_cancel(t, ev)) {
			what = TW_EV_MOD;
		} else {
			v->del = 1;
			/*
			 * Started on another CPU yet kept on the cancel's CPU's
			 * base: the kernel moves no timer whose callback runs,
			 * so that cancel detached it for its callback.
			 */
			if (!t->stale && ev->cpu != t->cancel_cpu &&
			    ev->has_base && ev->base_cpu == t->cancel_cpu) {
				t->stale = 1;
				t->stale_cpu = t->cancel_cpu;
			}
		}
		t->cancel = 0;
	} else if (t->armed) {
		if (ev->timed && tw_ev_aged(t, ev->now, per_s))
			v->aged = 1;
		else
			what = TW_EV_MOD_NOCANCEL;
	}
	t->armed = 1;
	t->expires = ev->expires;
	t->timeout = ev->timed && time_after(ev->expires, ev->now) ?
		     ev->expires - ev->now : 0;
	return what;
}

static u8 tw_ev_cancel(struct tw_ev_timer *t, const struct tw_ev *ev,
		       struct tw_ev_verdict *v)
{
	/* a cancel's next event is a cancel: the first was a delete */
	v->del = tw_ev_settle(t);
	if (!t->armed)
		return TW_EV_STRAY;
	t->armed = 0;
	t->cancel = 1;
	t->cancel_at = ev->now;
	t->cancel_seq = ev->seq;
	t->cancel_cpu = ev->cpu;
	return TW_EV_NOTED;
}

static u8 tw_ev_expire(struct tw_ev_timer *t, const struct tw_ev *ev,
		       struct tw_ev_verdict *v)
{
	/* the callback the stale start came during, at its expiry or before */
	if (t->stale && ev->cpu == t->stale_cpu) {
		t->stale = 0;
		if (!ev->timed || !time_after(ev->now, t->expires))
			return TW_EV_STRAY;
	}
	/* the kernel runs no timer before its expiry: an older arming's */
	if (ev->timed && (t->armed || t->cancel) &&
	    time_before(ev->now, t->expires))
		return TW_EV_STRAY;
	if (t->cancel) {
		t->cancel = 0;
		if (ev->cpu == t->cancel_cpu)
			return TW_EV_EXPIRY;
		v->del = 1;
		return TW_EV_STRAY;
	}
	if (!t->armed)
		return TW_EV_STRAY;
	t->armed = 0;
	return TW_EV_EXPIRY_NOCANCEL;
}

/**
 * tw_ev_take() - what one event of a timer means, and the timer after it
 * @t: the timer's state, updated
 * @ev: the event
 * @per_s: the clock's ticks per second (for tw_ev_aged())
 *
 * Applies the tracepoints' rules (twheel_events.h): a cancel is noted and
 * decided by the timer's next event; a start right after its cancel on the
 * same CPU is a re-arm, a start of an armed timer with no cancel one too
 * unless the timer was aged out; an expiry takes its cancel on the same
 * CPU in; cancels and expiries of a timer not armed are stray, and so are
 * an expiry before the timer's expiry and the callback a start from another
 * CPU came during (see twheel_events.h).
 *
 * Return: the verdict: the event's meaning, and whether the timer's
 * undecided cancel was decided a delete or its arming aged out before it.
 */
struct tw_ev_verdict tw_ev_take(struct tw_ev_timer *t, const struct tw_ev *ev,
				unsigned long per_s)
{
	struct tw_ev_verdict v = { .what = TW_EV_STRAY };

	if (ev->type == TW_EV_START)
		v.what = tw_ev_start(t, ev, per_s, &v);
	else if (ev->type == TW_EV_CANCEL)
		v.what = tw_ev_cancel(t, ev, &v);
	else
		v.what = tw_ev_expire(t, ev, &v);
	return v;
}
EXPORT_SYMBOL_GPL(tw_ev_take);

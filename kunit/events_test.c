// SPDX-License-Identifier: GPL-2.0
/*
 * The events' model (shadow/twheel_events.c), which the live shadow and the
 * offline replay both ask what a timer tracepoint event means: each rule
 * with exact events in, exact verdicts out, and the ageing rule's boundary
 * at exact jiffies (and ns).
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/time64.h>
#include "shadow/twheel_events.h"

/* A caller's event stream: numbers events and remembers each CPU's last. */
struct tw_ev_feed {
	u64 seq;
	u64 last[4];
};

static struct tw_ev_verdict tw_ev_feed(struct tw_ev_feed *f,
				       struct tw_ev_timer *t, u8 type, u32 cpu,
				       unsigned long now, unsigned long expires,
				       unsigned long per_s)
{
	struct tw_ev e = {
		.type = type, .timed = 1, .cpu = cpu, .seq = ++f->seq,
		.cpu_prev = f->last[cpu], .now = now, .expires = expires,
	};

	f->last[cpu] = e.seq;
	return tw_ev_take(t, &e, per_s);
}

/* The verdict v is exactly what, del, aged (the caller's line in the message). */
static void tw_ev_expect(struct kunit *test, struct tw_ev_verdict v, u8 what,
			 u8 del, u8 aged, int line)
{
	KUNIT_EXPECT_EQ_MSG(test, v.what, what, "line %d", line);
	KUNIT_EXPECT_EQ_MSG(test, v.del, del, "line %d", line);
	KUNIT_EXPECT_EQ_MSG(test, v.aged, aged, "line %d", line);
}

#define TW_EV_EXPECT(test, v, what, del, aged)	\
	tw_ev_expect(test, v, what, del, aged, __LINE__)

/* A start of a new timer is an add; its timeout is the expiry less now. */
static void events_add(struct kunit *test)
{
	struct tw_ev_timer t = {};
	struct tw_ev_feed f = {};
	struct tw_ev_verdict v;

	v = tw_ev_feed(&f, &t, TW_EV_START, 0, 1000, 1080, 250);
	TW_EV_EXPECT(test, v, TW_EV_ADD, 0, 0);
	KUNIT_EXPECT_EQ(test, t.armed, 1);
	KUNIT_EXPECT_EQ(test, t.cancel, 0);
	KUNIT_EXPECT_EQ(test, t.expires, 1080UL);
	KUNIT_EXPECT_EQ(test, t.timeout, 80UL);
	/* a start in the past: timeout 0 */
	v = tw_ev_feed(&f, &t, TW_EV_START, 0, 2000, 1990, 250);
	KUNIT_EXPECT_EQ(test, t.timeout, 0UL);
}

/*
 * mod_timer(): its cancel, then its start as the very next event of the
 * cancel's CPU, is one re-arm; another CPU's events in between do not
 * matter.
 */
static void events_mod(struct kunit *test)
{
	struct tw_ev_timer t = {}, other = {};
	struct tw_ev_feed f = {};
	struct tw_ev_verdict v;

	tw_ev_feed(&f, &t, TW_EV_START, 1, 1000, 1100, 250);
	v = tw_ev_feed(&f, &t, TW_EV_CANCEL, 1, 1010, 0, 250);
	TW_EV_EXPECT(test, v, TW_EV_NOTED, 0, 0);
	KUNIT_EXPECT_EQ(test, t.armed, 0);
	KUNIT_EXPECT_EQ(test, t.cancel, 1);
	KUNIT_EXPECT_EQ(test, t.cancel_at, 1010UL);
	KUNIT_EXPECT_EQ(test, t.cancel_cpu, 1U);
	tw_ev_feed(&f, &other, TW_EV_START, 0, 1010, 1500, 250);
	v = tw_ev_feed(&f, &t, TW_EV_START, 1, 1010, 1200, 250);
	TW_EV_EXPECT(test, v, TW_EV_MOD, 0, 0);
	KUNIT_EXPECT_EQ(test, t.cancel, 0);
	KUNIT_EXPECT_EQ(test, t.armed, 1);
	KUNIT_EXPECT_EQ(test, t.expires, 1200UL);
	KUNIT_EXPECT_EQ(test, t.timeout, 190UL);
}

/*
 * A cancel whose timer's next event is a start not right after it (an
 * event of its CPU in between, or another CPU) was a delete; the start is
 * an add.
 */
static void events_cancel_then_late_start(struct kunit *test)
{
	struct tw_ev_timer t = {}, other = {};
	struct tw_ev_feed f = {};
	struct tw_ev_verdict v;

	tw_ev_feed(&f, &t, TW_EV_START, 0, 1000, 1100, 250);
	tw_ev_feed(&f, &t, TW_EV_CANCEL, 0, 1001, 0, 250);
	tw_ev_feed(&f, &other, TW_EV_START, 0, 1001, 1300, 250);
	v = tw_ev_feed(&f, &t, TW_EV_START, 0, 1001, 1100, 250);
	TW_EV_EXPECT(test, v, TW_EV_ADD, 1, 0);

	tw_ev_feed(&f, &t, TW_EV_CANCEL, 2, 1002, 0, 250);
	v = tw_ev_feed(&f, &t, TW_EV_START, 3, 1002, 1100, 250);
	TW_EV_EXPECT(test, v, TW_EV_ADD, 1, 0);
	KUNIT_EXPECT_EQ(test, t.armed, 1);
}

/*
 * The kernel's expiry: its cancel on the same CPU (events in between or
 * not) is part of it; with a cancel on another CPU the cancel was a
 * delete and the expiry is stray; with no cancel, of an armed timer, an
 * expiry whose cancel was lost; of a timer not armed, stray.
 */
static void events_expiry(struct kunit *test)
{
	struct tw_ev_timer t = {}, other = {};
	struct tw_ev_feed f = {};
	struct tw_ev_verdict v;

	tw_ev_feed(&f, &t, TW_EV_START, 0, 1000, 1004, 250);
	tw_ev_feed(&f, &t, TW_EV_CANCEL, 0, 1004, 0, 250);
	tw_ev_feed(&f, &other, TW_EV_START, 0, 1004, 1300, 250);
	v = tw_ev_feed(&f, &t, TW_EV_EXPIRE, 0, 1004, 0, 250);
	TW_EV_EXPECT(test, v, TW_EV_EXPIRY, 0, 0);
	KUNIT_EXPECT_EQ(test, t.armed, 0);
	KUNIT_EXPECT_EQ(test, t.cancel, 0);
	/* the model keeps the expiry of the last start */
	KUNIT_EXPECT_EQ(test, t.expires, 1004UL);

	tw_ev_feed(&f, &t, TW_EV_START, 0, 1005, 1009, 250);
	tw_ev_feed(&f, &t, TW_EV_CANCEL, 0, 1009, 0, 250);
	v = tw_ev_feed(&f, &t, TW_EV_EXPIRE, 1, 1009, 0, 250);
	TW_EV_EXPECT(test, v, TW_EV_STRAY, 1, 0);

	tw_ev_feed(&f, &t, TW_EV_START, 0, 1010, 1012, 250);
	v = tw_ev_feed(&f, &t, TW_EV_EXPIRE, 0, 1012, 0, 250);
	TW_EV_EXPECT(test, v, TW_EV_EXPIRY_NOCANCEL, 0, 0);
	KUNIT_EXPECT_EQ(test, t.armed, 0);
	v = tw_ev_feed(&f, &t, TW_EV_EXPIRE, 0, 1013, 0, 250);
	TW_EV_EXPECT(test, v, TW_EV_STRAY, 0, 0);
}

/* A start on @cpu that the kernel queued on @base's wheel. */
static struct tw_ev_verdict tw_ev_start_on(struct tw_ev_feed *f,
					   struct tw_ev_timer *t, u32 cpu,
					   u32 base, unsigned long now,
					   unsigned long expires)
{
	struct tw_ev e = {
		.type = TW_EV_START, .timed = 1, .has_base = 1, .cpu = cpu,
		.base_cpu = base, .seq = ++f->seq, .cpu_prev = f->last[cpu],
		.now = now, .expires = expires,
	};

	f->last[cpu] = e.seq;
	return tw_ev_take(t, &e, 250);
}

/*
 * CPU 0 detaches the timer to run its callback (the cancel at 1004), and
 * before it reaches the callback CPU 1 starts the timer again (expiry
 * 1100), the kernel leaving it on CPU 0's wheel: the cancel is decided a
 * delete, the start is an add, and CPU 0's expiry at 1004 is the callback
 * of the arming before: stray, the new arming still armed, and its own
 * expiry later an expiry. The same with no base known (a trace without
 * cpu=): the expiry before the new expiry tells it alone.
 */
static void events_expiry_replaced(struct kunit *test)
{
	struct tw_ev_timer t = {};
	struct tw_ev_feed f = {};
	struct tw_ev_verdict v;
	int known;

	for (known = 1; known >= 0; known--) {
		tw_ev_feed(&f, &t, TW_EV_START, 0, 1000, 1004, 250);
		tw_ev_feed(&f, &t, TW_EV_CANCEL, 0, 1004, 0, 250);
		v = known ? tw_ev_start_on(&f, &t, 1, 0, 1004, 1100) :
			    tw_ev_feed(&f, &t, TW_EV_START, 1, 1004, 1100, 250);
		TW_EV_EXPECT(test, v, TW_EV_ADD, 1, 0);
		KUNIT_EXPECT_EQ(test, t.stale, known);
		v = tw_ev_feed(&f, &t, TW_EV_EXPIRE, 0, 1004, 0, 250);
		TW_EV_EXPECT(test, v, TW_EV_STRAY, 0, 0);
		KUNIT_EXPECT_EQ(test, t.armed, 1);
		KUNIT_EXPECT_EQ(test, t.stale, 0);
		KUNIT_EXPECT_EQ(test, t.expires, 1100UL);
		v = tw_ev_feed(&f, &t, TW_EV_CANCEL, 0, 1100, 0, 250);
		TW_EV_EXPECT(test, v, TW_EV_NOTED, 0, 0);
		v = tw_ev_feed(&f, &t, TW_EV_EXPIRE, 0, 1100, 0, 250);
		TW_EV_EXPECT(test, v, TW_EV_EXPIRY, 0, 0);
		KUNIT_EXPECT_EQ(test, t.armed, 0);
	}
}

/*
 * The callback's CPU cannot be told by time alone when the new arming is
 * due at the callback's own jiffy (a timer re-armed for now, 1004): the
 * base can. And the mark stays through a second start from a third CPU
 * (still on CPU 0's wheel, its callback still to come), and a start queued
 * elsewhere clears it: the callback has returned.
 */
static void events_expiry_replaced_now(struct kunit *test)
{
	struct tw_ev_timer t = {};
	struct tw_ev_feed f = {};
	struct tw_ev_verdict v;

	tw_ev_feed(&f, &t, TW_EV_START, 0, 1000, 1004, 250);
	tw_ev_feed(&f, &t, TW_EV_CANCEL, 0, 1004, 0, 250);
	tw_ev_start_on(&f, &t, 1, 0, 1004, 1004);
	v = tw_ev_feed(&f, &t, TW_EV_EXPIRE, 0, 1004, 0, 250);
	TW_EV_EXPECT(test, v, TW_EV_STRAY, 0, 0);
	KUNIT_EXPECT_EQ(test, t.armed, 1);
	tw_ev_feed(&f, &t, TW_EV_CANCEL, 0, 1005, 0, 250);
	v = tw_ev_feed(&f, &t, TW_EV_EXPIRE, 0, 1005, 0, 250);
	TW_EV_EXPECT(test, v, TW_EV_EXPIRY, 0, 0);

	/* two hops: CPU 1 re-arms, CPU 1 cancels, CPU 2 starts again */
	tw_ev_feed(&f, &t, TW_EV_START, 0, 2000, 2004, 250);
	tw_ev_feed(&f, &t, TW_EV_CANCEL, 0, 2004, 0, 250);
	tw_ev_start_on(&f, &t, 1, 0, 2004, 2100);
	tw_ev_feed(&f, &t, TW_EV_CANCEL, 1, 2004, 0, 250);
	v = tw_ev_start_on(&f, &t, 2, 0, 2004, 2200);
	TW_EV_EXPECT(test, v, TW_EV_ADD, 1, 0);
	KUNIT_EXPECT_EQ(test, t.stale, 1);
	KUNIT_EXPECT_EQ(test, t.stale_cpu, 0U);
	v = tw_ev_feed(&f, &t, TW_EV_EXPIRE, 0, 2004, 0, 250);
	TW_EV_EXPECT(test, v, TW_EV_STRAY, 0, 0);
	KUNIT_EXPECT_EQ(test, t.expires, 2200UL);

	/*
	 * Marked again, then re-armed by CPU 1 onto its own wheel: CPU 0's
	 * callback has returned (the kernel moved the timer), the mark goes,
	 * and CPU 0's expiry at the new expiry (CPU 0 expiring CPU 1's
	 * timers) is the new arming's.
	 */
	tw_ev_feed(&f, &t, TW_EV_CANCEL, 0, 2100, 0, 250);
	tw_ev_start_on(&f, &t, 1, 0, 2100, 2150);
	KUNIT_EXPECT_EQ(test, t.stale, 1);
	tw_ev_feed(&f, &t, TW_EV_CANCEL, 1, 2101, 0, 250);
	v = tw_ev_start_on(&f, &t, 1, 1, 2101, 2101);
	TW_EV_EXPECT(test, v, TW_EV_MOD, 0, 0);
	KUNIT_EXPECT_EQ(test, t.stale, 0);
	v = tw_ev_feed(&f, &t, TW_EV_EXPIRE, 0, 2101, 0, 250);
	TW_EV_EXPECT(test, v, TW_EV_EXPIRY_NOCANCEL, 0, 0);
}

/*
 * The kernel runs no timer before its expiry: an expiry before it leaves
 * the timer as it is, armed or with its cancel undecided.
 */
static void events_expiry_before_due(struct kunit *test)
{
	struct tw_ev_timer t = {};
	struct tw_ev_feed f = {};
	struct tw_ev_verdict v;

	tw_ev_feed(&f, &t, TW_EV_START, 0, 1000, 1100, 250);
	v = tw_ev_feed(&f, &t, TW_EV_EXPIRE, 1, 1099, 0, 250);
	TW_EV_EXPECT(test, v, TW_EV_STRAY, 0, 0);
	KUNIT_EXPECT_EQ(test, t.armed, 1);
	tw_ev_feed(&f, &t, TW_EV_CANCEL, 0, 1099, 0, 250);
	v = tw_ev_feed(&f, &t, TW_EV_EXPIRE, 1, 1099, 0, 250);
	TW_EV_EXPECT(test, v, TW_EV_STRAY, 0, 0);
	KUNIT_EXPECT_EQ(test, t.cancel, 1);
	v = tw_ev_feed(&f, &t, TW_EV_EXPIRE, 0, 1100, 0, 250);
	TW_EV_EXPECT(test, v, TW_EV_EXPIRY, 0, 0);
}

/*
 * A cancel of a timer not armed is stray; a second cancel decides the
 * first a delete (its next event is no expiry, no re-arm) and is stray.
 */
static void events_cancels(struct kunit *test)
{
	struct tw_ev_timer t = {};
	struct tw_ev_feed f = {};
	struct tw_ev_verdict v;

	v = tw_ev_feed(&f, &t, TW_EV_CANCEL, 0, 1000, 0, 250);
	TW_EV_EXPECT(test, v, TW_EV_STRAY, 0, 0);
	KUNIT_EXPECT_EQ(test, t.cancel, 0);

	tw_ev_feed(&f, &t, TW_EV_START, 0, 1000, 1100, 250);
	v = tw_ev_feed(&f, &t, TW_EV_CANCEL, 0, 1001, 0, 250);
	TW_EV_EXPECT(test, v, TW_EV_NOTED, 0, 0);
	v = tw_ev_feed(&f, &t, TW_EV_CANCEL, 0, 1002, 0, 250);
	TW_EV_EXPECT(test, v, TW_EV_STRAY, 1, 0);
	KUNIT_EXPECT_EQ(test, t.cancel, 0);
	KUNIT_EXPECT_EQ(test, t.armed, 0);
}

/* No event is to decide a cancel (the end, a stop): a delete, once. */
static void events_settle(struct kunit *test)
{
	struct tw_ev_timer t = {};
	struct tw_ev_feed f = {};
	struct tw_ev_verdict v;

	KUNIT_EXPECT_FALSE(test, tw_ev_settle(&t));
	tw_ev_feed(&f, &t, TW_EV_START, 0, 1000, 1100, 250);
	KUNIT_EXPECT_FALSE(test, tw_ev_settle(&t));
	KUNIT_EXPECT_EQ(test, t.armed, 1);
	tw_ev_feed(&f, &t, TW_EV_CANCEL, 0, 1001, 0, 250);
	KUNIT_EXPECT_TRUE(test, tw_ev_settle(&t));
	KUNIT_EXPECT_FALSE(test, tw_ev_settle(&t));
	/* settled: its start right after it is an add, no second delete */
	v = tw_ev_feed(&f, &t, TW_EV_START, 0, 1001, 1100, 250);
	TW_EV_EXPECT(test, v, TW_EV_ADD, 0, 0);
}

/*
 * A start of an armed timer with no cancel (its cancel lost, or an
 * hrtimer restarted) is a re-arm, up to the age limit: expires 1080,
 * timeout 80 (started at 1000), HZ 250: 1080 + 10 + 500 = 1590; at 1591
 * the timer was gone and the start is an add.
 */
static void events_start_armed_ages(struct kunit *test)
{
	struct tw_ev_timer t = {};
	struct tw_ev_feed f = {};
	struct tw_ev_verdict v;

	tw_ev_feed(&f, &t, TW_EV_START, 0, 1000, 1080, 250);
	KUNIT_EXPECT_EQ(test, tw_ev_age_limit(&t, 250), 1590UL);
	v = tw_ev_feed(&f, &t, TW_EV_START, 0, 1590, 1080, 250);
	TW_EV_EXPECT(test, v, TW_EV_MOD_NOCANCEL, 0, 0);
	/* that start was in the past: timeout 0, the limit 1080 + 500 */
	KUNIT_EXPECT_EQ(test, tw_ev_age_limit(&t, 250), 1580UL);
	v = tw_ev_feed(&f, &t, TW_EV_START, 0, 1581, 2000, 250);
	TW_EV_EXPECT(test, v, TW_EV_ADD, 0, 1);
	KUNIT_EXPECT_EQ(test, t.expires, 2000UL);
	KUNIT_EXPECT_EQ(test, t.timeout, 419UL);
}

/*
 * The ageing rule at exact jiffies: gone once the clock is after expires +
 * timeout / 8 + 2 s of the traced machine's HZ, at HZ 250 and 1000, across
 * the wrap of jiffies; never while a cancel is undecided, nor when not
 * armed; an untimed start gets timeout 0 and is never judged aged.
 */
static void events_age_boundaries(struct kunit *test)
{
	static const unsigned long hzs[] = { 100, 250, 1000 };
	static const unsigned long bases[] = { 5000, ULONG_MAX - 700 };
	struct tw_ev_timer t = {};
	struct tw_ev_feed f = {};
	unsigned long lim, b, hz;
	unsigned int i, j;
	struct tw_ev e = { .type = TW_EV_START, .seq = 1, .expires = 777 };

	for (i = 0; i < ARRAY_SIZE(hzs); i++) {
		for (j = 0; j < ARRAY_SIZE(bases); j++) {
			hz = hzs[i];
			b = bases[j];
			memset(&t, 0, sizeof(t));
			/* timeout 803: an eighth is 100 */
			tw_ev_feed(&f, &t, TW_EV_START, 0, b, b + 803, hz);
			lim = b + 803 + 100 + 2 * hz;
			KUNIT_EXPECT_EQ(test, tw_ev_age_limit(&t, hz), lim);
			KUNIT_EXPECT_FALSE(test, tw_ev_aged(&t, b + 803, hz));
			KUNIT_EXPECT_FALSE(test, tw_ev_aged(&t, lim - 1, hz));
			KUNIT_EXPECT_FALSE(test, tw_ev_aged(&t, lim, hz));
			KUNIT_EXPECT_TRUE(test, tw_ev_aged(&t, lim + 1, hz));
			KUNIT_EXPECT_TRUE(test, tw_ev_aged(&t, lim + 1000, hz));
			tw_ev_feed(&f, &t, TW_EV_CANCEL, 0, b + 803, 0, hz);
			KUNIT_EXPECT_FALSE(test, tw_ev_aged(&t, lim + 1, hz));
			tw_ev_settle(&t);
			KUNIT_EXPECT_FALSE(test, tw_ev_aged(&t, lim + 1, hz));
		}
	}
	/* hrtimers: the same rule in ns, a second being NSEC_PER_SEC */
	memset(&t, 0, sizeof(t));
	tw_ev_feed(&f, &t, TW_EV_START, 0, 10 * NSEC_PER_SEC,
		   10 * NSEC_PER_SEC + 8000, NSEC_PER_SEC);
	lim = 10 * NSEC_PER_SEC + 8000 + 1000 + 2 * NSEC_PER_SEC;
	KUNIT_EXPECT_FALSE(test, tw_ev_aged(&t, lim, NSEC_PER_SEC));
	KUNIT_EXPECT_TRUE(test, tw_ev_aged(&t, lim + 1, NSEC_PER_SEC));
	/* untimed: timeout 0, and a start of it armed is never aged out */
	memset(&t, 0, sizeof(t));
	e.now = 0;
	tw_ev_take(&t, &e, 250);
	KUNIT_EXPECT_EQ(test, t.timeout, 0UL);
	e.seq = 2;
	e.expires = 100000;
	KUNIT_EXPECT_EQ(test, tw_ev_take(&t, &e, 250).what, (u8)TW_EV_MOD_NOCANCEL);
}

static struct kunit_case tw_events_cases[] = {
	KUNIT_CASE(events_add),
	KUNIT_CASE(events_mod),
	KUNIT_CASE(events_cancel_then_late_start),
	KUNIT_CASE(events_expiry),
	KUNIT_CASE(events_expiry_replaced),
	KUNIT_CASE(events_expiry_replaced_now),
	KUNIT_CASE(events_expiry_before_due),
	KUNIT_CASE(events_cancels),
	KUNIT_CASE(events_settle),
	KUNIT_CASE(events_start_armed_ages),
	KUNIT_CASE(events_age_boundaries),
	{}
};

static struct kunit_suite tw_events_suite = {
	.name = "twheel_events",
	.test_cases = tw_events_cases,
};

kunit_test_suite(tw_events_suite);

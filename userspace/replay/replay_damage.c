// SPDX-License-Identifier: GPL-2.0
/*
 * Damage in a trace: what rp_line() checks an event against before it is
 * taken.
 * - The order of the timestamps (@ts_max, @back): the reader
 *   (replay_in.c) refuses a file read as it comes whose events go back.
 * - Each jiffies and ns field against the trace's own clock (struct
 *   rp_fit, fitted by rp_calibrate()): a timer_start's expires - timeout
 *   and a timer_expire_entry's now are the jiffies of the event's moment,
 *   which the HZ fit puts within a few ticks of the timestamp's; one
 *   more than RP_DMG_SLACK_S off is a damaged field (a digit changed, a
 *   sign lost), never a lag. The line is left out (malformed, its field
 *   named) rather than moving the replay's clock: one timeout=-5 for
 *   timeout=15000 would move it on a minute, and every start after it
 *   would look armed in the past. Which field: where the line has the
 *   kernel's bucket_expiry, the one of expires and timeout that does not
 *   fit it; else the timeout, unless expires itself is far behind the
 *   clock. hrtimers: an expiry or now over RP_DMG_HR_PAST_NS behind the
 *   trace's CLOCK_MONOTONIC.
 */
#include "replay_lib.h"
#include "replay_trace.h"

/*
 * A timer_list event whose jiffies are more than RP_MAX_JUMP from the
 * stream's clock is taken as corrupt: jiffies only move on, and the
 * wheels' advances cost in proportion to the span (hrtimers replay on the
 * heap and the reference only, whose cost does not depend on it). Its
 * reason says so if it is near the clock in 32 bits: a 32-bit kernel's
 * jiffies wrapped at 2^32 (not widened: see docs/replay.md).
 */
const char *rp_implausible(const struct rp_stream *s,
				  const struct tp_event *ev, int *wrap32)
{
	unsigned long t;

	*wrap32 = 0;
	if (!s->has_clock)
		return NULL;
	if (ev->type == TP_TIMER_START && ev->has_timeout)
		t = ev->expires - ev->timeout;
	else if (ev->type == TP_TIMER_EXPIRE)
		t = ev->now;
	else
		return NULL;
	if (t - s->clock <= RP_MAX_JUMP || s->clock - t <= RP_MAX_JUMP)
		return NULL;
	/* near the clock in 32 bits: a 32-bit kernel's jiffies wrapped */
	*wrap32 = (uint32_t)(t - s->clock) <= RP_MAX_JUMP ||
		  (uint32_t)(s->clock - t) <= RP_MAX_JUMP;
	return *wrap32 ? "jiffies wrapped at 2^32 (a 32-bit kernel: not supported)" :
			 "time too far from the trace's clock";
}

/* How far a field may be from the clock: 100 ms (struct rp_fit: HZ / 10). */
#define RP_DMG_SLACK_S		1
#define RP_DMG_HR_PAST_NS	10000000000LL

/* Notes the event's timestamp: the order the reader checks. */
void rp_order_note(struct rp_trace *tr, const struct tp_event *ev)
{
	if (ev->ts_ns >= tr->ts_max) {
		tr->ts_max = ev->ts_ns;
		return;
	}
	if (!tr->back++) {
		tr->back_at = tr->at;
		tr->back_ts = ev->ts_ns;
		tr->back_prev = tr->ts_max;
	}
}

/* The jiffies the trace's clock had at timestamp ts. */
/* A jiffies difference as int64_t; one past its range (damage too) is clamped, not converted. */
static int64_t rp_off(double d)
{
	if (d >= 9.2e18)
		return INT64_MAX;
	if (d <= -9.2e18)
		return INT64_MIN;
	return (int64_t)d;
}

static double rp_fit_j(const struct rp_fit *f, uint64_t ts)
{
	return f->j0 + ((double)ts - (double)f->ts0) * 1e-9 * f->hz;
}

static const char *rp_dmg(struct rp_trace *tr, const char *field, int64_t off,
			  const char *why)
{
	uint64_t n = ++tr->damaged;

	if (n <= RP_LINES_KEPT) {
		tr->dmg_at[n - 1] = tr->at;
		tr->dmg_field[n - 1] = field;
		tr->dmg_off[n - 1] = off;
	}
	return why;
}

/* A timer_start whose expires - timeout is off the clock: which field. */
static const char *rp_dmg_start(struct rp_trace *tr, const struct tp_event *ev,
				double fit, int64_t off)
{
	double be = ev->bucket_expiry, ex = ev->expires;
	int exp_bad;

	if (ev->has_be)
		/* the bucket is due at expires or up to a level's granularity after */
		exp_bad = be < ex || be - ex > (be - fit) / 4 + 2;
	else
		exp_bad = ex < fit - (double)tr->fit.j_slack;
	if (exp_bad)
		return rp_dmg(tr, "expires", rp_off(ex - fit - (double)ev->timeout),
			      "damaged: expires= is off the trace's clock");
	return rp_dmg(tr, ev->has_be ? "timeout" : "timeout (or expires)", off,
		      "damaged: timeout= is off the trace's clock");
}

/**
 * rp_damaged() - whether event ev has a damaged time field
 * @tr: the trace
 * @ev: a well-formed event
 *
 * Return: the reason, a static string (the field is kept in @tr's
 * @dmg_*), or NULL.
 */
const char *rp_damaged(struct rp_trace *tr, const struct tp_event *ev)
{
	const struct rp_fit *f = &tr->fit;
	double fit, j;
	int64_t off;

	if (ev->ts_counter)
		return NULL;
	if (ev->type == TP_HRTIMER_START || ev->type == TP_HRTIMER_EXPIRE) {
		uint64_t v = ev->type == TP_HRTIMER_START ? ev->softexpires : ev->now;
		int64_t clock = (int64_t)ev->ts_ns + f->ns_off;

		if (!f->has_ns || v >= RP_HR_WALL || ev->ts_ns >= RP_HR_WALL ||
		    (int64_t)v >= clock - RP_DMG_HR_PAST_NS)
			return NULL;
		if (ev->type == TP_HRTIMER_START)
			return rp_dmg(tr, "softexpires", (int64_t)v - clock,
				      "damaged: expires= is far behind the trace's clock");
		return rp_dmg(tr, "now", (int64_t)v - clock,
			      "damaged: now= is far behind the trace's clock");
	}
	if (!f->has_j)
		return NULL;
	fit = rp_fit_j(f, ev->ts_ns);
	if (ev->type == TP_TIMER_START && ev->has_timeout)
		j = (double)(unsigned long)(ev->expires - ev->timeout);
	else if (ev->type == TP_TIMER_EXPIRE)
		j = (double)ev->now;
	else
		return NULL;
	off = rp_off(j - fit);
	if (off <= (int64_t)f->j_slack && off >= -(int64_t)f->j_slack)
		return NULL;
	if (ev->type == TP_TIMER_START)
		return rp_dmg_start(tr, ev, fit, off);
	return rp_dmg(tr, "now", off, "damaged: now= is off the trace's clock");
}

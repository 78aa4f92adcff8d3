// SPDX-License-Identifier: GPL-2.0
/*
 * The traced machine's HZ, told by the trace itself. A timer_list event
 * shows the jiffies of its moment (timer_start: expires - timeout;
 * timer_expire_entry: now), and its line the trace clock's time then. At
 * the machine's HZ, jiffies less seconds * HZ is the same for every event,
 * give or take the jiffies' lag (a tick taken late) and their rounding; at
 * any other HZ it drifts by the difference times the seconds elapsed. So
 * each usual HZ is tried: it fits if RP_HZ_FIT of the times are within
 * RP_HZ_SLACK of their median there and those times span RP_HZ_SPAN, and
 * the trace tells its HZ if exactly one fits. A trace whose times span
 * less tells nothing, one whose HZ is none of them (or whose clocks jump)
 * fits none: then the replay takes RP_HZ_DEFAULT and says so, as it does
 * when the trace has no such times, or only counter timestamps (no
 * fraction: not seconds). rp_calibrate() (replay_core.c) feeds the times.
 */
#include <stdio.h>
#include <stdlib.h>
#include "replay_lib.h"
#include "shadow/twheel_events.h"

/*
 * A time fits an HZ within 20 ms (5 jiffies at HZ 250); the HZ fits if 90 %
 * of them do, and those span a second at least.
 */
#define RP_HZ_SLACK	0.02
#define RP_HZ_FIT	0.9
#define RP_HZ_SPAN	1.0

static const unsigned int rp_hz_usual[] = { 100, 250, 300, 1000 };

/**
 * rp_hz_time() - note an event's jiffies and timestamp, if it has both
 * @tr: the trace, in rp_calibrate()
 * @ev: an event of it
 *
 * Return: -ENOMEM if the time could not be kept, else 0.
 */
int rp_hz_time(struct rp_trace *tr, const struct tp_event *ev)
{
	struct rp_hz *h = &tr->hz;
	size_t n = h->cap ? h->cap * 2 : 1024;
	uint64_t j;
	int64_t *dt;
	long *dj;

	if (ev->type == TP_TIMER_START && ev->has_timeout)
		j = ev->expires - ev->timeout;
	else if (ev->type == TP_TIMER_EXPIRE)
		j = ev->now;
	else
		return 0;
	if (ev->ts_counter)
		return 0;
	if (h->times == h->cap) {
		dt = realloc(h->dt, n * sizeof(*dt));
		if (dt)
			h->dt = dt;
		dj = realloc(h->dj, n * sizeof(*dj));
		if (dj)
			h->dj = dj;
		if (!dt || !dj)
			return -ENOMEM;
		h->cap = n;
	}
	if (!h->times) {
		h->ts0 = ev->ts_ns;
		h->j0 = j;
	}
	h->dt[h->times] = (int64_t)(ev->ts_ns - h->ts0);
	h->dj[h->times] = (long)(j - h->j0);
	h->times++;
	return 0;
}

static int rp_hz_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * How well hz fits the times: the share of them within RP_HZ_SLACK of the
 * median offset (jiffies less seconds * hz), into *share, and the seconds
 * those span, into *span. off[] and sorted[] have room for every time.
 */
static double rp_hz_fit(const struct rp_hz *h, unsigned int hz, double *off,
			double *sorted, double *share, double *span)
{
	double med, slack = RP_HZ_SLACK * hz;
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	uint64_t i, in = 0;

	for (i = 0; i < h->times; i++) {
		off[i] = h->dj[i] - h->dt[i] * 1e-9 * hz;
		sorted[i] = off[i];
	}
	qsort(sorted, h->times, sizeof(*sorted), rp_hz_cmp);
	med = sorted[h->times / 2];
	for (i = 0; i < h->times; i++) {
		if (off[i] < med - slack || off[i] > med + slack)
			continue;
		in++;
		lo = h->dt[i] < lo ? h->dt[i] : lo;
		hi = h->dt[i] > hi ? h->dt[i] : hi;
	}
	*share = (double)in / h->times;
	*span = in ? ((double)hi - lo) * 1e-9 : 0;
	return med;
}

/**
 * rp_hz_decide() - the HZ the replay is to use, once the times are in
 * @tr: the trace, at the end of rp_calibrate()
 *
 * An HZ fits if RP_HZ_FIT of the times fit it and those span RP_HZ_SPAN:
 * over a second, no two of the usual HZ keep the same times within their
 * slack. Sets @tr->hz's @told, @fits, @best, @fit, @best_span, @span and
 * @hz, and frees the times.
 */
void rp_hz_decide(struct rp_trace *tr)
{
	struct rp_hz *h = &tr->hz;
	double *off = NULL, share, span, score, top = -1;
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	unsigned int i;
	uint64_t t;
	int fits;

	for (t = 0; t < h->times; t++) {
		lo = h->dt[t] < lo ? h->dt[t] : lo;
		hi = h->dt[t] > hi ? h->dt[t] : hi;
	}
	h->span = h->times ? ((double)hi - lo) * 1e-9 : 0;
	if (h->span >= RP_HZ_SPAN) {
		off = malloc(2 * h->times * sizeof(*off));
		if (!off)
			tr->nomem = 1;
	}
	for (i = 0; off && i < ARRAY_SIZE(rp_hz_usual); i++) {
		rp_hz_fit(h, rp_hz_usual[i], off, off + h->times, &share, &span);
		fits = share >= RP_HZ_FIT && span >= RP_HZ_SPAN;
		if (fits) {
			h->fits++;
			h->told = rp_hz_usual[i];
		}
		/* the best: one that fits, else the largest share */
		score = share + fits;
		if (score > top) {
			top = score;
			h->best = rp_hz_usual[i];
			h->fit = share;
			h->best_span = span;
		}
	}
	if (h->fits != 1)
		h->told = 0;
	h->hz = h->set ? h->set : h->told ? h->told : RP_HZ_DEFAULT;
	/* the clock the damage checks hold each event's jiffies against */
	if (off) {
		score = rp_hz_fit(h, h->hz, off, off + h->times, &share, &span);
		tr->fit.has_j = share >= RP_HZ_FIT && span >= RP_HZ_SPAN;
		tr->fit.ts0 = h->ts0;
		tr->fit.j0 = (double)h->j0 + score;
		tr->fit.hz = h->hz;
		tr->fit.j_slack = h->hz / 10 > 4 ? h->hz / 10 : 4;
	}
	free(off);
	rp_hz_free(h);
}

/* Frees the times rp_hz_time() kept. */
void rp_hz_free(struct rp_hz *h)
{
	free(h->dt);
	free(h->dj);
	h->dt = NULL;
	h->dj = NULL;
	h->cap = 0;
}

/**
 * rp_hz_report() - the header line on the HZ used, and where it came from
 * @out: where to
 * @h: the trace's, after rp_calibrate()
 */
void rp_hz_report(FILE *out, const struct rp_hz *h)
{
	unsigned long long n = h->times;
	unsigned int i;

	fprintf(out, "# HZ %lu, %s%s%s", h->hz, h->set ? "as " : h->told ? "as " : "assumed: ",
		h->set ? (h->set_by ? h->set_by : "REPLAY_HZ") : "", h->set ? " sets (" : "");
	if (h->told) {
		fprintf(out, "the trace tells: %.1f %% of its %llu timer_list times (jiffies against timestamps) fit %u a second within %.0f ms, over %.1f s",
		       100 * h->fit, n, h->told, RP_HZ_SLACK * 1000, h->best_span);
	} else if (h->span < RP_HZ_SPAN) {
		fprintf(out, "the trace cannot tell: its %llu timer_list times with a timestamp in seconds span %.3f s, %.0f s needed",
		       n, h->span, RP_HZ_SPAN);
	} else {
		fprintf(out, "the trace cannot tell: its %llu timer_list times fit %s", n,
		       h->fits ? "several of" : "none of");
		for (i = 0; i < ARRAY_SIZE(rp_hz_usual); i++)
			fprintf(out, "%s %u", i ? "," : "", rp_hz_usual[i]);
		if (!h->fits)
			fprintf(out, " (the closest, %u: %.1f %% of them within %.0f ms, over %.1f s)",
			       h->best, 100 * h->fit, RP_HZ_SLACK * 1000, h->best_span);
	}
	if (h->set)
		fprintf(out, ")");
	else if (!h->told)
		fprintf(out, "; REPLAY_HZ=N sets it");
	/* the one ageing rule, shadow/twheel_events.h's */
	fprintf(out, "; timer_list timers aged out %d s (%lu jiffies) + timeout/8 past their expiry\n",
	       TW_EV_AGE_S, TW_EV_AGE_S * h->hz);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * twheel-replay's rows and verdicts: each engine's replay of a stream as
 * the tables show it (counters, Ir and ns per call, lateness), the
 * kernel's own row from the trace, and the verdict under each table.
 */
#include <stdlib.h>
#include <string.h>
#include "replay_cmd.h"

/*
 * modern's expiries and the kernel's agree within this share: a timer
 * the kernel deleted or re-armed after its bucket was due but before its
 * softirq ran it is modern's expiry and not the kernel's (1.1 % on the
 * 6.18 trace); events out of order or lost make far more.
 */
#define RP_EXP_AGREE_PCT	5.0

/* Lateness is shown in jiffies for timer_list, us for hrtimers (never ns). */
double rp_unit(int s)
{
	return s == RP_TIMER ? 1 : 1000;
}

const char *rp_unit_name(int s)
{
	return s == RP_TIMER ? "jiffies" : "us";
}

static int rp_cmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* on time %, p50, p99, max and the histogram of n lateness values (sorted here). */
static void rp_late_row(struct rp_row *w, int s, unsigned long *late, size_t n,
			uint64_t early)
{
	double u = rp_unit(s);
	size_t zero = 0, i;

	w->nlate = n;
	w->early = early;
	w->ontime = -1;
	if (!n)
		return;
	qsort(late, n, sizeof(*late), rp_cmp);
	for (i = 0; i < n; i++) {
		zero += !late[i];
		rp_hist_add(&w->late, late[i] / u, 1);
	}
	w->ontime = 100.0 * zero / (n + early);
	w->p50 = late[(n - 1) / 2] / u;
	w->p99 = late[(n - 1) * 99 / 100] / u;
	w->max = late[n - 1] / u;
}

/* The lateness of n values against a second reference, into b (sorted here). */
static void rp_lat_row(struct rp_lat *b, int s, unsigned long *late, size_t n,
		       uint64_t early)
{
	double u = rp_unit(s);
	size_t zero = 0, i;

	memset(b, 0, sizeof(*b));
	b->ontime = -1;
	if (!late || !n)
		return;
	qsort(late, n, sizeof(*late), rp_cmp);
	for (i = 0; i < n; i++)
		zero += !late[i];
	b->n = n;
	b->early = early;
	b->ontime = 100.0 * zero / n;
	b->p50 = late[(n - 1) / 2] / u;
	b->p99 = late[(n - 1) * 99 / 100] / u;
	b->max = late[n - 1] / u;
}

/*
 * What lateness is against: timer_list's expires= (b 0) and bucket_expiry=
 * (b 1); an hrtimer's softexpires= (the earliest it may run) and expires=
 * (its hard expiry).
 */
const char *rp_ref_name(int s, int b)
{
	if (s == RP_TIMER)
		return b ? "bucket_expiry" : "expires";
	return b ? "expires" : "softexpires";
}

/* Ir/op over the kinds of call made: known if each of them is. */
static void rp_ir_row(struct rp_row *w, unsigned int e, int s)
{
	double sum = 0;
	int c, known = 1;

	for (c = 0; c < RP_NR_CALLS; c++) {
		w->ir[c] = w->r.calls[c] ? rp_o.ir[e][s][c] : -1;
		if (!w->r.calls[c])
			continue;
		if (rp_o.ir[e][s][c] < 0)
			known = 0;
		else
			sum += rp_o.ir[e][s][c] * w->r.calls[c];
	}
	w->ir_op = known && w->ops ? sum / w->ops : -1;
}

/* The rows of stream s: each engine wanted, then the kernel. Returns how many. */
int rp_rows(const struct rp_trace *tr, int s, struct rp_row *rows)
{
	const struct rp_stream *st = &tr->st[s];
	const struct rp_kernel *k = &st->k;
	unsigned int e, n = 0, done = 0, todo = 0;
	struct rp_result t;
	struct rp_row *w;
	double best, null;
	int i;

	for (e = 0; e < rp_nr_engines; e++)
		todo += rp_replays(e, s);
	for (e = 0; e < rp_nr_engines; e++) {
		if (!rp_replays(e, s))
			continue;
		rp_progress("%s: replaying through %s (%u of %u engines)", rp_stream_title[s],
			    rp_engines[e].name, ++done, todo);
		w = &rows[n++];
		memset(w, 0, sizeof(*w));
		w->name = rp_engines[e].name;
		w->exact = rp_engines[e].exact;
		w->ir_op = w->ns_op = -1;
		if (rp_run(&rp_engines[e], st, tr->nsh, -1, rp_o.hist ? RP_COST : RP_WORST, &w->r)) {
			rp_o.bad = 1;
			continue;
		}
		w->ran = 1;
		best = null = -1;
		for (i = 0; i < rp_o.repeat; i++) {
			if (!rp_run(&rp_engines[e], st, tr->nsh, -1, RP_TIME, &t) &&
			    (best < 0 || t.ns < best))
				best = t.ns;
			rp_result_free(&t);
			if (!rp_run(&rp_engines[e], st, tr->nsh, -1, RP_TIME_NULL, &t) &&
			    (null < 0 || t.ns < null))
				null = t.ns;
			rp_result_free(&t);
		}
		w->adds = w->r.st.added;
		w->mods = w->r.st.modified;
		w->dels = w->r.st.deleted;
		w->expired = w->r.st.expired;
		w->pending = twheel_stats_pending(&w->r.st);
		w->refused = w->r.st.refused;
		w->ops = w->r.calls[RP_CALL_ADD] + w->r.calls[RP_CALL_MOD] +
			 w->r.calls[RP_CALL_DEL] + w->r.st.expired;
		rp_ir_row(w, e, s);
		/* no figure when the engine's loop was no slower than the empty one */
		if (best >= 0 && null >= 0 && w->ops && best > null)
			w->ns_op = (best - null) / w->ops;
		rp_late_row(w, s, w->r.late, w->r.nlate, w->r.early);
		rp_lat_row(&w->b, s, w->r.late_b, w->r.nlate_b, w->r.early_b);
		w->deferrable = -1;
		rp_result_free(&w->r);
		w->ok = w->adds >= w->expired + w->dels && w->pending == w->r.count;
		if (!w->ok)
			rp_o.bad = 1;
	}
	w = &rows[n++];
	memset(w, 0, sizeof(*w));
	w->name = "kernel (trace)";
	w->kernel = 1;
	w->ran = 1;
	w->ok = 1;
	w->ir_op = w->ns_op = -1;
	for (i = 0; i < RP_NR_CALLS; i++)
		w->ir[i] = -1;
	w->adds = k->adds;
	w->mods = k->rearms;
	w->dels = k->dels;
	w->expired = k->expired;
	w->pending = k->pending;
	rp_late_row(w, s, st->late, st->nlate, st->early);
	rp_lat_row(&w->b, s, st->late_b, st->nlate_b, st->early_b);
	w->deferrable = s == RP_TIMER && k->flags_known ? (int64_t)k->deferrable : -1;
	return n;
}

/*
 * Exact on this trace: it ran every timer at its jiffy (tick, for
 * hrtimers), none early, none late, and refused none. The csv's and
 * json's "exact" and the verdict's "exact engine" are this.
 */
int rp_exact(const struct rp_row *w)
{
	return !w->early && !w->refused && (!w->nlate || !w->max);
}

/* The cheapest exact engine, and the next, by Ir/op (else ns/op). */
static void rp_cheapest(const struct rp_row *rows, int n, struct rp_buf *b)
{
	const struct rp_row *w, *best = NULL, *next = NULL;
	double m, mb = 0, mn = 0;
	int by_ir = 0, i;

	for (i = 0; i < n - 1; i++)
		by_ir |= rows[i].ran && rows[i].ir_op >= 0;
	for (i = 0; i < n - 1; i++) {
		w = &rows[i];
		if (!w->ran || !w->ok || !rp_exact(w))
			continue;
		m = by_ir ? w->ir_op : w->ns_op;
		if (m < 0)
			continue;
		if (!best || m < mb) {
			next = best;
			mn = mb;
			best = w;
			mb = m;
		} else if (!next || m < mn) {
			next = w;
			mn = m;
		}
	}
	if (!best)
		rp_bprintf(b, "no exact engine with a cost figure");
	else if (!next)
		rp_bprintf(b, "cheapest exact engine: %s, %.1f %s (the only exact one with a figure)",
			   best->name, mb, by_ir ? "Ir/op" : "ns/op");
	else
		rp_bprintf(b, "cheapest exact engine: %s, %.1f %s, %.1f %% below the next, %s (%.1f)%s",
			   best->name, mb, by_ir ? "Ir/op" : "ns/op",
			   mn > 0 ? 100 * (mn - mb) / mn : 0, next->name, mn,
			   by_ir ? "" : " (no callgrind: native ns, noisy)");
}

/*
 * modern against the kernel: lateness within a jiffy at p50 and p99, and
 * as many expiries within RP_EXP_AGREE_PCT.
 */
static void rp_modern_kernel(const struct rp_row *modern, const struct rp_row *kern,
			     double ms, struct rp_buf *b)
{
	double d = (double)modern->expired - (double)kern->expired;
	int late_ok, exp_ok;

	if (d < 0)
		d = -d;
	late_ok = modern->p50 - kern->p50 <= 1 && kern->p50 - modern->p50 <= 1 &&
		  modern->p99 - kern->p99 <= 1 && kern->p99 - modern->p99 <= 1;
	exp_ok = 100 * d <= RP_EXP_AGREE_PCT * (double)kern->expired;
	rp_bprintf(b, "; modern ran timers %.0f/%.0f/%.0f jiffies late (p50/p99/max, %.1f/%.1f/%.1f ms), the kernel %.0f/%.0f/%.0f; modern expired %llu, the kernel %llu: ",
		   modern->p50, modern->p99, modern->max, modern->p50 * ms,
		   modern->p99 * ms, modern->max * ms, kern->p50, kern->p99, kern->max,
		   (unsigned long long)modern->expired, (unsigned long long)kern->expired);
	if (late_ok && exp_ok)
		rp_bprintf(b, "it filed and fired like the kernel (within a jiffy at p50 and p99, expiries within %.0f %%)",
			   RP_EXP_AGREE_PCT);
	else if (!exp_ok)
		rp_bprintf(b, "the replay does NOT match the kernel: expiries differ by more than %.0f %% (events lost, or out of order?)",
			   RP_EXP_AGREE_PCT);
	else
		rp_bprintf(b, "it fired %s than the kernel did",
			   modern->p50 + modern->p99 > kern->p50 + kern->p99 ? "later" : "earlier");
	if (kern->b.n)
		rp_bprintf(b, "; against bucket_expiry the kernel ran them %.0f/%.0f/%.0f jiffies late",
			   kern->b.p50, kern->b.p99, kern->b.max);
	if (kern->b.n && modern->b.n)
		rp_bprintf(b, ", modern %.0f/%.0f/%.0f", modern->b.p50, modern->b.p99,
			   modern->b.max);
}

/**
 * rp_verdict() - the two lines under a stream's table
 * @tr: the trace
 * @s: the stream
 * @rows: its rows, the kernel's last
 * @n: how many
 * @v: v[0] the cheapest exact engine and modern against the kernel, v[1]
 *	early, refused, lost, aged out and counters
 */
void rp_verdict(const struct rp_trace *tr, int s, const struct rp_row *rows, int n,
		char v[2][1024])
{
	const struct rp_row *modern = NULL, *kern = &rows[n - 1];
	double ms = s == RP_TIMER ? 1000.0 / tr->hz.hz : 0.001;
	struct rp_buf b0 = RP_BUF(v[0]), b1 = RP_BUF(v[1]);
	int i, early = 0, refused = 0, broken = 0;

	v[0][0] = v[1][0] = 0;
	for (i = 0; i < n - 1; i++)
		if (!strcmp(rows[i].name, "modern") && rows[i].ran)
			modern = &rows[i];
	rp_cheapest(rows, n, &b0);
	if (s == RP_TIMER && modern && kern->nlate && modern->nlate)
		rp_modern_kernel(modern, kern, ms, &b0);
	else if (s == RP_TIMER && modern)
		rp_bprintf(&b0, "; the trace shows no kernel expiry to hold modern against");
	else if (s == RP_HRTIMER && kern->nlate)
		rp_bprintf(&b0, "; the kernel ran its hrtimers %.1f/%.1f/%.1f %s late (p50/p99/max)",
			   kern->p50, kern->p99, kern->max, rp_unit_name(s));
	if (s == RP_HRTIMER && kern->nlate && kern->b.n)
		rp_bprintf(&b0, " after softexpires, %.1f/%.1f/%.1f after their hard expiry (%llu ran before it)",
			   kern->b.p50, kern->b.p99, kern->b.max,
			   (unsigned long long)kern->b.early);
	rp_bprintf(&b1, "early:");
	for (i = 0; i < n; i++)
		if (rows[i].early)
			rp_bprintf(&b1, "%s %s %llu", early++ ? "," : "",
				   rows[i].kernel ? "the kernel" : rows[i].name,
				   (unsigned long long)rows[i].early);
	rp_bprintf(&b1, "%s; refused:", early ? "" : " none");
	for (i = 0; i < n - 1; i++)
		if (rows[i].refused)
			rp_bprintf(&b1, "%s %s %llu", refused++ ? "," : "", rows[i].name,
				   (unsigned long long)rows[i].refused);
	rp_bprintf(&b1, "%s; lost: ", refused ? "" : " none");
	if (tr->lost_lines || tr->overwritten || tr->was_armed_lost)
		rp_bprintf(&b1, "%llu%s events (the kernel's counts miss them)",
			   (unsigned long long)(tr->lost_events + tr->overwritten +
						tr->was_armed_lost),
			   tr->lost_unknown ? " and more" : "");
	else
		rp_bprintf(&b1, "none");
	rp_bprintf(&b1, "; aged out of the kernel's view: %llu; counters:",
		   (unsigned long long)tr->st[s].k.aged);
	for (i = 0; i < n - 1; i++)
		if (!rows[i].ran || !rows[i].ok)
			rp_bprintf(&b1, "%s %s %s", broken++ ? "," : "", rows[i].name,
				   rows[i].ran ? "BROKEN" : "could not run");
	rp_bprintf(&b1, "%s", broken ? "" : " ok");
}

/* How the oracle checked (replay_oracle.c). */
const char *rp_or_how(const struct rp_oracle *or)
{
	if (!or->idx_only)
		return "checked";
	return or->idx_only == or->starts ? "checked: idx only" :
	       "checked: idx only for some";
}

/* The oracle's verdict line, into v. */
void rp_or_verdict(const struct rp_oracle *or, char *v, size_t n)
{
	uint64_t ex = or->n[RP_OR_AHEAD] + or->n[RP_OR_BEHIND];
	struct rp_buf b;

	rp_buf_init(&b, v, n);
	if (!or->starts) {
		rp_bprintf(&b, "%s", RP_OR_NONE);
		return;
	}
	rp_bprintf(&b, "%s: agree %llu at jiffies, %llu at the base clock the trace shows, disagree %llu, of %llu starts",
		   or->n[RP_OR_DISAGREE] ? "modern filed starts elsewhere than the kernel" :
		   ex ? "modern filed every start where the kernel did, some only at the base clock the trace shows" :
		   "modern filed every start where the kernel did",
		   (unsigned long long)or->n[RP_OR_AGREE], (unsigned long long)ex,
		   (unsigned long long)or->n[RP_OR_DISAGREE],
		   (unsigned long long)or->starts);
	if (or->idx_only == or->starts)
		rp_bprintf(&b, " (idx only: the trace has no bucket_expiry)");
	else if (or->idx_only)
		rp_bprintf(&b, " (%llu idx only: no bucket_expiry)",
			   (unsigned long long)or->idx_only);
	if (or->full)
		rp_bprintf(&b, "; stopped: a base held %u timers, the later starts not checked",
			   RP_OR_LIVE_MAX);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * twheel-replay's report in text and md: the header (what was read, the
 * warnings), per stream its section, table, verdict and --hist's
 * histograms. csv and json rows are replay_json.c's.
 */
#include <stdlib.h>
#include <string.h>
#include "replay_cmd.h"
#include "replay_order.h"

static void rp_lines(FILE *out, const struct rp_input *in, const char *what, uint64_t n,
		     const uint64_t *line, const char *const *why)
{
	char at[4200];
	uint64_t i;

	if (!n)
		return;
	fprintf(out, "# %s lines (%s%llu):", what, n > RP_LINES_KEPT ? "the first of " : "",
		(unsigned long long)n);
	for (i = 0; i < n && i < RP_LINES_KEPT; i++) {
		fprintf(out, " %s", rp_where(in, line[i], at, sizeof(at)));
		if (why)
			fprintf(out, " (%s)", why[i]);
	}
	fprintf(out, "\n");
}

/**
 * rp_trace_warn() - the warnings the trace gives, once it is read
 * @tr: the trace
 * @in: how it was read
 */
void rp_trace_warn(const struct rp_trace *tr, const struct rp_input *in)
{
	char at[4200];
	uint64_t i;

	for (i = 0; i < tr->damaged && i < RP_LINES_KEPT; i++)
		rp_warn("line %s: %s= is %lld %s off the trace's own clock: damaged, the line is left out",
			rp_where(in, tr->dmg_at[i], at, sizeof(at)), tr->dmg_field[i],
			(long long)tr->dmg_off[i],
			strcmp(tr->dmg_field[i], "now") && strncmp(tr->dmg_field[i], "soft", 4) &&
			tr->dmg_off[i] > -100000000LL && tr->dmg_off[i] < 100000000LL ?
			"jiffies" : "ticks");
	if (tr->damaged > RP_LINES_KEPT)
		rp_warn("%llu damaged lines in all, left out", (unsigned long long)tr->damaged);
	if (tr->boot_timers)
		rp_warn("%llu hrtimers ran on a clock up to %.3f s ahead of the trace's own (CLOCK_BOOTTIME after a suspend, most likely): their events are set aside (\"another clock\" below)",
			(unsigned long long)tr->boot_timers, tr->boot_ahead / 1e9);
	if (tr->wrap32)
		rp_warn("%llu timer_list lines have jiffies that wrapped at 2^32, as a 32-bit kernel's do: not supported, they are malformed",
			(unsigned long long)tr->wrap32);
	if (tr->was_armed_lost)
		rp_warn("%llu hrtimer_start events say was_armed=0 of an hrtimer the trace holds armed: its cancel or expiry was lost",
			(unsigned long long)tr->was_armed_lost);
	if (tr->lost_lines || tr->overwritten || tr->was_armed_lost)
		rp_warn("events were lost: the kernel's counts below miss them, and timers may look aged out, added or deleted where they were not");
}

/* How the lines were put in order, one header line. */
static void rp_order_line(FILE *out, const struct rp_input *in)
{
	unsigned int files;
	const struct rp_order *o = rp_input_order(in, &files);
	char at[4200];

	if (!o || (!o->moved && files == 1))
		return;
	fprintf(out, "# order: %u file%s merged by timestamp, each CPU's lines in their order; %llu lines moved",
		files, files == 1 ? "" : "s", (unsigned long long)o->moved);
	if (o->back)
		fprintf(out, "; %llu events were before an earlier line's time in their file (the first at %s)",
			(unsigned long long)o->back, rp_where(in, o->back_at, at, sizeof(at)));
	fprintf(out, "\n");
}

/**
 * rp_report() - the header: what was read
 * @out: where to
 * @name: what the report calls the trace
 * @tr: the trace
 * @in: how it was read
 */
void rp_report(FILE *out, const char *name, const struct rp_trace *tr,
	       const struct rp_input *in)
{
	const char *const *warn;
	unsigned int nw = rp_warnings(&warn), w;
	int i, cpus, nocpu;

	for (w = 0; w < nw; w++)
		fprintf(out, "# WARNING: %s\n", warn[w]);
	fprintf(out, "# replay of %s\n", name);
	rp_order_line(out, in);
	rp_hz_report(out, &tr->hz);
	if (tr->streamed)
		fprintf(out, "# the HZ and the hrtimers on another clock were told from the trace's first %lu MiB (it is longer; it is read as it comes)\n",
			RP_HEAD_MAX >> 20);
	fprintf(out, "# lines %llu: events %llu, blank or header %llu, other events %llu, stack-trace %llu, malformed %llu, lost %llu events on %llu lines",
		(unsigned long long)tr->lines, (unsigned long long)rp_events(tr),
		(unsigned long long)tr->blank, (unsigned long long)tr->other,
		(unsigned long long)tr->stack, (unsigned long long)tr->malformed,
		(unsigned long long)tr->lost_events,
		(unsigned long long)tr->lost_lines);
	if (tr->lost_unknown)
		fprintf(out, " (%llu of them an unknown number)",
			(unsigned long long)tr->lost_unknown);
	fprintf(out, "\n");
	if (tr->overwritten)
		fprintf(out, "# overwritten: %llu events (the header's entries-written less entries-in-buffer: the ring buffer was full)\n",
			(unsigned long long)tr->overwritten);
	fprintf(out, "# events:");
	for (i = 0; i < TP_NR_TYPES; i++)
		fprintf(out, " %s=%llu", tp_type_name(i), (unsigned long long)tr->count[i]);
	fprintf(out, "\n# forms:");
	for (i = 0; i < TP_NR_FORMS; i++)
		fprintf(out, " %s=%llu", tp_form_name(i), (unsigned long long)tr->forms[i]);
	cpus = rp_cpus(tr, &nocpu);
	if (cpus < 0)
		fprintf(out, "\n# CPUs: unknown (the lines have no CPU column: their events are paired as one CPU's)\n");
	else
		fprintf(out, "\n# CPUs: %d with events%s\n", cpus,
			nocpu ? ", and events on lines with no CPU column (paired as one CPU's)" : "");
	rp_lines(out, in, "malformed", tr->malformed, tr->bad_line, tr->bad_why);
	rp_lines(out, in, "other-event", tr->other, tr->other_line, NULL);
	if (tr->nomem)
		fprintf(out, "# out of memory: the replay stopped taking events\n");
}

/*
 * text to stdout, each line broken at spaces to fit RP_WIDTH columns; a
 * line's continuations are indented, after its "# " if it has one, else
 * four columns past the line's own indent.
 */
void rp_wrap(const char *text)
{
	const char *p = text, *nl, *cut, *q;
	char indent[RP_WIDTH / 2 + 8];
	size_t n, room, lead;

	while (*p) {
		nl = strchr(p, '\n');
		n = nl ? (size_t)(nl - p) : strlen(p);
		for (lead = 0; lead < n && lead < RP_WIDTH / 2 && p[lead] == ' '; lead++)
			;
		if (*p == '#')
			snprintf(indent, sizeof(indent), "#     ");
		else
			snprintf(indent, sizeof(indent), "%*s", (int)lead + 4, "");
		room = RP_WIDTH;
		while (n > room) {
			cut = NULL;
			for (q = p + room; q > p; q--)
				if (*q == ' ') {
					cut = q;
					break;
				}
			if (!cut)
				break;
			printf("%.*s\n%s", (int)(cut - p), p, indent);
			n -= cut + 1 - p;
			p = cut + 1;
			room = RP_WIDTH - strlen(indent);
		}
		printf("%.*s\n", (int)n, p);
		p += n + (nl != NULL);
	}
}


#define RP_COLS		28
#define RP_CELL		32

struct rp_tab {
	int ncol, nrow;
	const char *head[RP_COLS], *unit[RP_COLS];
	char cell[RP_MAX_ROWS][RP_COLS][RP_CELL];
};

static void rp_num(char *c, double v, const char *fmt)
{
	if (v < 0)
		snprintf(c, RP_CELL, "-");
	else
		snprintf(c, RP_CELL, fmt, v);
}

static void rp_u64(char *c, uint64_t v)
{
	snprintf(c, RP_CELL, "%llu", (unsigned long long)v);
}

static void rp_late(char *c, int s, double v, int have)
{
	if (!have)
		snprintf(c, RP_CELL, "-");
	else
		snprintf(c, RP_CELL, rp_late_fmt(s), v);
}

static void rp_tab_print(const struct rp_tab *t, int md)
{
	int wd[RP_COLS], i, j, l;

	for (j = 0; j < t->ncol; j++) {
		wd[j] = strlen(t->head[j]);
		if (t->unit[j] && (int)strlen(t->unit[j]) > wd[j])
			wd[j] = strlen(t->unit[j]);
		for (i = 0; i < t->nrow; i++) {
			l = strlen(t->cell[i][j]);
			wd[j] = l > wd[j] ? l : wd[j];
		}
	}
	if (md) {
		for (j = 0; j < t->ncol; j++)
			printf("| %-*s ", wd[j], t->head[j]);
		printf("|\n");
		/* the engine's column left, the figures right */
		for (j = 0; j < t->ncol; j++) {
			putchar('|');
			for (l = 0; l < wd[j] + 1; l++)
				putchar('-');
			putchar(j ? ':' : '-');
		}
		printf("|\n");
		for (i = 0; i < t->nrow; i++) {
			for (j = 0; j < t->ncol; j++)
				printf(j ? "| %*s " : "| %-*s ", wd[j], t->cell[i][j]);
			printf("|\n");
		}
		return;
	}
	for (j = 0; j < t->ncol; j++)
		printf(j ? " %*s" : "%-*s", wd[j], t->head[j]);
	printf("\n");
	for (j = 0; j < t->ncol; j++)
		printf(j ? " %*s" : "%-*s", wd[j], t->unit[j] ? t->unit[j] : "");
	printf("\n");
	for (i = 0; i < t->nrow; i++) {
		for (j = 0; j < t->ncol; j++)
			printf(j ? " %*s" : "%-*s", wd[j], t->cell[i][j]);
		printf("\n");
	}
}

/* The md table: today's columns. */
static void rp_tab_md(struct rp_tab *t, int s, const struct rp_row *rows, int n)
{
	static const char *const md_head[2][RP_COLS] = {
		{ "engine", "adds", "mods", "dels", "expired", "pending", "refused", "Ir/op",
		  "Ir/add", "Ir/mod", "Ir/del", "Ir/adv", "ns/op", "cascades", "cascaded",
		  "worst tick", "worst adv us", "on time %", "late p50 (jiffies)",
		  "late p99 (jiffies)", "late max (jiffies)", "early", "bucket on time %",
		  "bucket late p50 (jiffies)", "bucket late p99 (jiffies)",
		  "bucket late max (jiffies)", "bucket early", "counters" },
		{ "engine", "adds", "mods", "dels", "expired", "pending", "refused", "Ir/op",
		  "Ir/add", "Ir/mod", "Ir/del", "Ir/adv", "ns/op", "cascades", "cascaded",
		  "worst tick", "worst adv us", "on time %", "late p50 (us)", "late p99 (us)",
		  "late max (us)", "early", "hard on time %", "hard late p50 (us)",
		  "hard late p99 (us)", "hard late max (us)", "hard early", "counters" },
	};
	const struct rp_row *w;
	int i, j, c;

	t->ncol = 28;
	t->nrow = n;
	for (j = 0; j < t->ncol; j++) {
		t->head[j] = md_head[s][j];
		t->unit[j] = NULL;
	}
	for (i = 0; i < n; i++) {
		w = &rows[i];
		for (j = 0; j < t->ncol; j++)
			snprintf(t->cell[i][j], RP_CELL, "-");
		snprintf(t->cell[i][0], RP_CELL, "%s", w->name);
		if (!w->ran) {
			snprintf(t->cell[i][1], RP_CELL, "could not run");
			continue;
		}
		rp_u64(t->cell[i][1], w->adds);
		rp_u64(t->cell[i][2], w->mods);
		rp_u64(t->cell[i][3], w->dels);
		rp_u64(t->cell[i][4], w->expired);
		rp_u64(t->cell[i][5], w->pending);
		if (!w->kernel) {
			rp_u64(t->cell[i][6], w->refused);
			rp_num(t->cell[i][7], w->ir_op, "%.1f");
			for (c = 0; c < RP_NR_CALLS; c++)
				rp_num(t->cell[i][8 + c], w->ir[c], "%.1f");
			rp_num(t->cell[i][12], w->ns_op, "%.1f");
			rp_u64(t->cell[i][13], w->r.st.cascades);
			rp_u64(t->cell[i][14], w->r.st.cascaded);
			rp_u64(t->cell[i][15], w->r.worst_work);
			snprintf(t->cell[i][16], RP_CELL, "%.1f", w->r.worst_ns / 1000);
			snprintf(t->cell[i][27], RP_CELL, "%s", w->ok ? "ok" : "BROKEN");
		}
		rp_num(t->cell[i][17], w->ontime, "%.1f");
		rp_late(t->cell[i][18], s, w->p50, w->nlate);
		rp_late(t->cell[i][19], s, w->p99, w->nlate);
		rp_late(t->cell[i][20], s, w->max, w->nlate);
		rp_u64(t->cell[i][21], w->early);
		if (!w->b.n)
			continue;
		rp_num(t->cell[i][22], w->b.ontime, "%.1f");
		rp_late(t->cell[i][23], s, w->b.p50, 1);
		rp_late(t->cell[i][24], s, w->b.p99, 1);
		rp_late(t->cell[i][25], s, w->b.max, 1);
		rp_u64(t->cell[i][26], w->b.early);
	}
}

/* The text table: what fits 120 columns, units on a second header line. */
static void rp_tab_text(struct rp_tab *t, int s, const struct rp_row *rows, int n)
{
	static const char *const head[] = { "engine", "adds", "mods", "dels", "expired",
		"refused", "Ir/op", "ns/op", "on time", "late p50", "late p99", "late max", "early",
		NULL };
	static const int from[] = { 0, 1, 2, 3, 4, 6, 7, 12, 17, 18, 19, 20, 21, 23 };
	struct rp_tab *md = malloc(sizeof(*md));
	int i, j;

	if (!md)
		rp_die("out of memory");
	rp_tab_md(md, s, rows, n);
	t->ncol = ARRAY_SIZE(head);
	t->nrow = n;
	for (j = 0; j < t->ncol; j++) {
		t->head[j] = head[j];
		t->unit[j] = j >= 9 && j <= 11 ? rp_unit_name(s) : j == 8 ? "%" : NULL;
		for (i = 0; i < n; i++)
			memcpy(t->cell[i][j], md->cell[i][from[j]], RP_CELL);
	}
	/* the last: late against bucket_expiry (the hard expiry), p50/p99/max in one cell */
	j = t->ncol - 1;
	t->head[j] = s == RP_TIMER ? "bucket p50/99/max" : "hard p50/99/max";
	t->unit[j] = rp_unit_name(s);
	for (i = 0; i < n; i++)
		if (rows[i].b.n)	/* us whole: the three fit */
			snprintf(t->cell[i][j], RP_CELL, "%.0f/%.0f/%.0f", rows[i].b.p50,
				 rows[i].b.p99, rows[i].b.max);
	free(md);
}

static void rp_hist_print(const char *title, const struct rp_row *rows, int n,
			  const struct rp_hist *const *h, double width, const char *fmt)
{
	const int per = 12, cw = 9;
	int a, i, j, b, any;

	for (a = 0; a < n; a += per) {
		printf("\n# %s\n%-6s", title, "Index");
		for (j = a; j < n && j < a + per; j++)
			printf(" %*.*s", cw - 1, cw - 1, rows[j].kernel ? "kernel" : rows[j].name);
		printf("\n");
		for (b = 0; b < RP_HIST_N; b++) {
			for (j = a, any = 0; j < n && j < a + per; j++)
				any |= h[j] && h[j]->b[b];
			if (!any)
				continue;
			printf("%-6.0f", b * width);
			for (j = a; j < n && j < a + per; j++)
				printf(" %*llu", cw - 1, h[j] ? (unsigned long long)h[j]->b[b] : 0ULL);
			printf("\n");
		}
		printf("%-6s", "over:");
		for (j = a; j < n && j < a + per; j++)
			printf(" %*llu", cw - 1, h[j] ? (unsigned long long)h[j]->b[RP_HIST_N] : 0ULL);
		printf("\n%-6s", "count:");
		for (j = a; j < n && j < a + per; j++)
			printf(" %*llu", cw - 1, h[j] ? (unsigned long long)h[j]->n : 0ULL);
		for (i = 0; i < 3; i++) {
			printf("\n%-6s", i == 0 ? "min:" : i == 1 ? "avg:" : "max:");
			for (j = a; j < n && j < a + per; j++) {
				if (!h[j] || !h[j]->n)
					printf(" %*s", cw - 1, "-");
				else
					printf(i == 1 ? " %*.1f" : fmt, cw - 1,
					       i == 0 ? h[j]->min : i == 1 ? h[j]->sum / h[j]->n :
					       h[j]->max);
			}
		}
		printf("\n");
	}
}

static void rp_hists(int s, const struct rp_row *rows, int n)
{
	const struct rp_hist *h[RP_MAX_ROWS];
	char title[160];
	int i;

	for (i = 0; i < n; i++)
		h[i] = rows[i].ran ? &rows[i].late : NULL;
	snprintf(title, sizeof(title), "%s lateness, %s: a row per %s late (the first %d), a column per engine",
		 rp_stream_title[s], rp_unit_name(s), s == RP_TIMER ? "jiffy" : "us", RP_HIST_N);
	rp_hist_print(title, rows, n, h, 1, s == RP_TIMER ? " %*.0f" : " %*.1f");
	for (i = 0; i < n; i++)
		h[i] = rows[i].ran && !rows[i].kernel ? &rows[i].r.cost : NULL;
	snprintf(title, sizeof(title), "%s cost per call (add, mod, del, advance), ns: a row per %d ns, the clock's own cost taken off",
		 rp_stream_title[s], RP_COST_NS);
	rp_hist_print(title, rows, n - 1, h, RP_COST_NS, " %*.0f");
}

/* Each stream's verdict, kept for json's end. */
/* The oracle's section: the classes, the first disagreements. */
static void rp_or_report(FILE *m, const struct rp_trace *tr)
{
	const struct rp_oracle *or = &tr->oracle;
	uint64_t i, ahead = or->n[RP_OR_AHEAD], behind = or->n[RP_OR_BEHIND];
	const struct rp_or_miss *x;

	if (!or->starts) {
		fprintf(m, "# oracle: %s (6.1 prints them, 6.8 and later bucket_expiry too)\n", RP_OR_NONE);
		return;
	}
	fprintf(m, "# oracle: each timer_start's bucket%s, the kernel's, against modern's, %u levels: %llu starts: agree %llu (at the event's jiffies); explained by the base clock %llu",
		or->idx_only == or->starts ? " (idx only: the trace has no bucket_expiry)" :
		" and bucket_expiry", or->depth, (unsigned long long)or->starts,
		(unsigned long long)or->n[RP_OR_AGREE],
		(unsigned long long)(ahead + behind));
	if (ahead)
		fprintf(m, " (ahead of jiffies, the base running its timers: %llu, up to %lu jiffies",
 (unsigned long long)ahead, or->ahead_max);
	if (behind)
		fprintf(m, "%sbehind, forwarded to a bucket due and not run yet: %llu, up to %lu jiffies, %llu of them deferrable",
			ahead ? "; " : " (", (unsigned long long)behind, or->behind_max,
			(unsigned long long)or->behind_def);
	fprintf(m, "%s; disagree %llu", ahead || behind ? ")" : "",
		(unsigned long long)or->n[RP_OR_DISAGREE]);
	if (or->idx_only && or->idx_only != or->starts)
		fprintf(m, "; %llu of them idx only (no bucket_expiry)",
			(unsigned long long)or->idx_only);
	if (or->unchecked)
		fprintf(m, "; %llu starts without the fields not checked",
			(unsigned long long)or->unchecked);
	if (or->full)
		fprintf(m, "; stopped: a base held %u timers, the later starts not checked",
			RP_OR_LIVE_MAX);
	fprintf(m, "\n");
	for (i = 0; i < or->n[RP_OR_DISAGREE] && i < RP_OR_KEPT; i++) {
		x = &or->miss[i];
		fprintf(m, "# oracle disagrees: line %llu, %llu.%06llu s, timer %llx, expires %lu at jiffies %lu: kernel idx %llu",
			(unsigned long long)x->line,
			(unsigned long long)(x->ts_ns / 1000000000ULL),
			(unsigned long long)(x->ts_ns % 1000000000ULL / 1000),
			(unsigned long long)x->ptr, x->expires, x->jiffies,
			(unsigned long long)x->idx);
		if (x->has_be)
			fprintf(m, " bucket_expiry %lu", x->be);
		fprintf(m, ", modern idx %u bucket_expiry %lu\n", x->ours, x->ours_be);
	}
}

/* The oracle for json (after the verdicts). */

void rp_stream_out(const struct rp_trace *tr, int s, int *first)
{
	const struct rp_stream *st = &tr->st[s];
	const struct rp_kernel *k = &st->k;
	const char *unit = s == RP_TIMER ? "jiffies" : "ns";
	struct rp_row rows[RP_MAX_ROWS];
	struct rp_tab *t;
	char v[2][1024], ov[1024], *buf = NULL;
	size_t len = 0;
	FILE *m;
	int n, i;

	n = rp_rows(tr, s, rows);
	rp_verdict(tr, s, rows, n, v);
	rp_json_keep(s, v);
	rp_progress_end();
	if (rp_o.format == RP_FMT_CSV || rp_o.format == RP_FMT_JSON) {
		for (i = 0; i < n; i++, *first = 0)
			rp_out_row(s, &rows[i], *first, &tr->oracle);
		return;
	}
	m = open_memstream(&buf, &len);
	if (!m)
		rp_die("out of memory");
	fprintf(m, "\n## %s: %zu operations, %llu starts, ticks in %s, over %lu %s",
		rp_stream_title[s], st->n, (unsigned long long)st->starts, unit,
		st->has_clock ? st->clock - st->first : 0, unit);
	if (s == RP_TIMER)
		fprintf(m, " (1 jiffy = %.3g ms at HZ %lu)", 1000.0 / tr->hz.hz, tr->hz.hz);
	fprintf(m, "\n# kernel: adds %llu, re-arms %llu (%llu with no cancel), deletes %llu, expiries %llu (%llu with no cancel), pending at the end %llu, aged out %llu, cancels and expiries of timers started before the trace %llu, ",
		(unsigned long long)k->adds, (unsigned long long)k->rearms,
		(unsigned long long)k->rearms_nocancel, (unsigned long long)k->dels,
		(unsigned long long)k->expired, (unsigned long long)k->expired_nocancel,
		(unsigned long long)k->pending, (unsigned long long)k->aged,
		(unsigned long long)k->unknown);
	/* trace-cmd report and perf script print every timer's flags "D|P|I" */
	if (s == RP_TIMER && st->starts && !k->flags_known)
		fprintf(m, "deferrable unknown (the trace's form does not show the timers' flags)");
	else if (s == RP_TIMER && k->flags_known < tr->count[TP_TIMER_START])
		fprintf(m, "deferrable %llu of the %llu starts whose flags the trace shows",
			(unsigned long long)k->deferrable, (unsigned long long)k->flags_known);
	else
		fprintf(m, "deferrable %llu", (unsigned long long)k->deferrable);
	fprintf(m, ", armed in the past %llu, wall-clock base %llu, never to expire %llu, another clock %llu\n",
		(unsigned long long)k->past, (unsigned long long)k->wall,
		(unsigned long long)k->never, (unsigned long long)k->boot);
	if (s == RP_TIMER)
		fprintf(m, "# lateness: late and on time against each timer's expires=; bucket late (p50/99/max in text), on the kernel's row and modern's, against its start's bucket_expiry= (6.8 and later), the jiffy the kernel's bucket for it fell due: the kernel's own delay (- where the trace has none)\n");
	else
		fprintf(m, "# lateness: late and on time against each hrtimer's softexpires= (the earliest it may run); hard late (p50/99/max in text), on the kernel's row, against its expires=, the hard expiry (run before it, within its slack: 0 late, counted in hard early)\n");
	if (s == RP_TIMER)
		rp_or_report(m, tr);
	fclose(m);
	if (rp_o.format == RP_FMT_TEXT)
		rp_wrap(buf);
	else
		fputs(buf, stdout);
	free(buf);
	t = malloc(sizeof(*t));
	if (!t)
		rp_die("out of memory");
	if (rp_o.format == RP_FMT_TEXT)
		rp_tab_text(t, s, rows, n);
	else
		rp_tab_md(t, s, rows, n);
	rp_tab_print(t, rp_o.format == RP_FMT_MD);
	free(t);
	ov[0] = 0;
	if (s == RP_TIMER)
		rp_or_verdict(&tr->oracle, ov, sizeof(ov));
	if (rp_o.format == RP_FMT_MD) {
		printf("\n- verdict: %s\n- %s\n", v[0], v[1]);
		if (ov[0])
			printf("- oracle: %s\n", ov);
	} else {
		buf = NULL;
		m = open_memstream(&buf, &len);
		if (!m)
			rp_die("out of memory");
		fprintf(m, "verdict: %s\n         %s\n", v[0], v[1]);
		if (ov[0])
			fprintf(m, "         oracle: %s\n", ov);
		fclose(m);
		rp_wrap(buf);
		free(buf);
	}
	if (rp_o.hist)
		rp_hists(s, rows, n);
}

/* The verdicts, for json (after the results). */

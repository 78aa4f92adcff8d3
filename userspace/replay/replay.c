// SPDX-License-Identifier: GPL-2.0
/*
 * replay: a kernel timer trace played through every engine.
 *
 *   replay [-r REPEAT] [-e ENGINE,...] [-i IRFILE] [-n NAME] TRACE|-
 *
 * TRACE is text in any of the three forms (trace.h): the tracefs files,
 * `trace-cmd report`, `perf script`. Prints what it read (events per type
 * and form, the line numbers of malformed and other lines), then per
 * stream (timer_list, hrtimer) a table: each engine's operations, cost and
 * lateness, and the kernel's own row from the trace.
 *
 * Natively it times each engine (REPEAT runs, default 3, the fastest kept).
 * Under callgrind (--instr-atstart=no --collect-atstart=no) it replays each
 * engine once per kind of call, collecting only that kind, dumps the counts
 * as "ENGINE STREAM KIND" and prints "calls ENGINE STREAM KIND N": the
 * dump's Ir over N is Ir per call. IRFILE gives those back to the native
 * run as "ir ENGINE STREAM KIND IR-PER-CALL" lines for the table (replay.sh
 * does both). NAME is what the report calls the trace (its path). The
 * traced machine's HZ (what turns the aged-out threshold's seconds into
 * jiffies) is told by the trace (replay_hz.c), or set by REPLAY_HZ=N in
 * the environment. Exits 1 if an engine's counters do not add up, 2 on a
 * usage or read error, an unknown engine, a REPLAY_HZ that is not a whole
 * number from RP_HZ_MIN to RP_HZ_MAX, or a trace with no timer event in it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/callgrind.h>
#include "replay.h"

/* The bytes a file starts with, and what it then is. */
static const struct {
	const char *magic;
	size_t n;
	const char *what;
} rp_binaries[] = {
	{ "\x1f\x8b", 2,
	  "gzip data: make replay (userspace/replay/replay.sh) decompresses it, or gunzip it" },
	/* with the string's NUL: FD 37 7A 58 5A 00 */
	{ "\xfd\x37\x7a\x58\x5a", 6,
	  "xz data: make replay (userspace/replay/replay.sh) decompresses it, or unxz it" },
	{ "\x17\x08\x44tracing", 10,
	  "trace-cmd's binary trace.dat: run trace-cmd report on it" },
	{ "PERFILE2", 8, "perf's binary perf.data: run perf script on it" },
};

static const char *const rp_stream_name[RP_NR_STREAMS] = { "timer", "hrtimer" };
static const char *const rp_call_name[RP_NR_CALLS] = { "add", "mod", "del", "adv" };

static struct {
	int repeat;
	const char *engines;	/* NULL: all */
	double ir[32][RP_NR_STREAMS][RP_NR_CALLS];	/* -1: not known */
	int bad;
} o = { .repeat = 3 };

static int rp_wanted(const char *name)
{
	const char *p = o.engines;
	size_t n = strlen(name);

	if (!p)
		return 1;
	while (p) {
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return 1;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return 0;
}

/* Refuses -e with a name that is not an engine's, listing those there are. */
static void rp_check_engines(void)
{
	const char *p = o.engines, *end;
	unsigned int e;
	size_t n;

	while (p) {
		end = strchr(p, ',');
		n = end ? (size_t)(end - p) : strlen(p);
		for (e = 0; e < rp_nr_engines; e++)
			if (strlen(rp_engines[e].name) == n &&
			    !strncmp(p, rp_engines[e].name, n))
				break;
		if (e == rp_nr_engines) {
			fprintf(stderr, "replay: unknown engine '%.*s' (engines:", (int)n, p);
			for (e = 0; e < rp_nr_engines; e++)
				fprintf(stderr, "%s %s", e ? "," : "", rp_engines[e].name);
			fprintf(stderr, ")\n");
			exit(2);
		}
		p = end ? end + 1 : NULL;
	}
}

static void rp_read_ir(const char *path)
{
	char name[64], stream[16], call[16];
	unsigned int e, s, c;
	double ir;
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		exit(2);
	}
	while (fscanf(f, "ir %63s %15s %15s %lf\n", name, stream, call, &ir) == 4)
		for (e = 0; e < rp_nr_engines; e++)
			for (s = 0; s < RP_NR_STREAMS; s++)
				for (c = 0; c < RP_NR_CALLS; c++)
					if (!strcmp(name, rp_engines[e].name) &&
					    !strcmp(stream, rp_stream_name[s]) &&
					    !strcmp(call, rp_call_name[c]))
						o.ir[e][s][c] = ir;
	fclose(f);
}

static void rp_lines(const char *what, uint64_t n, const uint64_t *line,
		     const char *const *why)
{
	uint64_t i;

	if (!n)
		return;
	printf("# %s lines (%s%llu):", what, n > RP_LINES_KEPT ? "the first of " : "",
	       (unsigned long long)n);
	for (i = 0; i < n && i < RP_LINES_KEPT; i++) {
		printf(" %llu", (unsigned long long)line[i]);
		if (why)
			printf(" (%s)", why[i]);
	}
	printf("\n");
}

static void rp_report(const char *path, const struct rp_trace *tr)
{
	uint64_t events = 0;
	int i;

	for (i = 0; i < TP_NR_TYPES; i++)
		events += tr->count[i];
	printf("# replay of %s\n", path);
	rp_hz_report(&tr->hz);
	printf("# lines %llu: events %llu, blank or header %llu, other events %llu, stack-trace %llu, malformed %llu, lost %llu events on %llu lines",
	       (unsigned long long)tr->lines, (unsigned long long)events,
	       (unsigned long long)tr->blank, (unsigned long long)tr->other,
	       (unsigned long long)tr->stack, (unsigned long long)tr->malformed,
	       (unsigned long long)tr->lost_events,
	       (unsigned long long)tr->lost_lines);
	if (tr->lost_unknown)
		printf(" (%llu of them an unknown number)",
		       (unsigned long long)tr->lost_unknown);
	printf("\n");
	if (tr->overwritten)
		printf("# overwritten: %llu events (the header's entries-written less entries-in-buffer: the ring buffer was full)\n",
		       (unsigned long long)tr->overwritten);
	if (tr->boot_timers)
		printf("# WARNING: %llu hrtimers ran on a clock up to %.3f s ahead of the trace's own (CLOCK_BOOTTIME after a suspend, most likely): their events are set aside (\"another clock\" below)\n",
		       (unsigned long long)tr->boot_timers, tr->boot_ahead / 1e9);
	if (tr->wrap32)
		printf("# WARNING: %llu timer_list lines have jiffies that wrapped at 2^32, as a 32-bit kernel's do: not supported, they are malformed\n",
		       (unsigned long long)tr->wrap32);
	if (tr->lost_lines || tr->overwritten)
		printf("# WARNING: events were lost: the kernel's counts below miss them, and timers may look aged out, added or deleted where they were not\n");
	printf("# events:");
	for (i = 0; i < TP_NR_TYPES; i++)
		printf(" %s=%llu", tp_type_name(i), (unsigned long long)tr->count[i]);
	printf("\n# forms:");
	for (i = 0; i < TP_NR_FORMS; i++)
		printf(" %s=%llu", tp_form_name(i), (unsigned long long)tr->forms[i]);
	printf("\n");
	rp_lines("malformed", tr->malformed, tr->bad_line, tr->bad_why);
	rp_lines("other-event", tr->other, tr->other_line, NULL);
	if (tr->nomem)
		printf("# out of memory: the replay stopped taking events\n");
}

static int rp_cmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* "on time %, p50, p99, max" of n lateness values (sorted here). */
static void rp_late_cells(unsigned long *late, size_t n, uint64_t early)
{
	size_t zero = 0, i;

	if (!n) {
		printf(" - | - | - | - | %llu |", (unsigned long long)early);
		return;
	}
	qsort(late, n, sizeof(*late), rp_cmp);
	for (i = 0; i < n && !late[i]; i++)
		zero++;
	printf(" %.1f | %lu | %lu | %lu | %llu |", 100.0 * zero / (n + early),
	       late[(n - 1) / 2], late[(n - 1) * 99 / 100], late[n - 1],
	       (unsigned long long)early);
}

static void rp_ir_cells(unsigned int e, int s, const struct rp_result *r)
{
	double sum = 0, ops = 0;
	int c, known = 1;

	for (c = 0; c < RP_NR_CALLS; c++) {
		if (o.ir[e][s][c] < 0)
			known = 0;
		else
			sum += o.ir[e][s][c] * r->calls[c];
	}
	ops = r->calls[RP_CALL_ADD] + r->calls[RP_CALL_MOD] +
	      r->calls[RP_CALL_DEL] + r->st.expired;
	if (known && ops)
		printf(" %.1f |", sum / ops);
	else
		printf(" - |");
	for (c = 0; c < RP_NR_CALLS; c++)
		if (o.ir[e][s][c] < 0 || !r->calls[c])
			printf(" - |");
		else
			printf(" %.1f |", o.ir[e][s][c]);
}

static void rp_table(const struct rp_trace *tr, int s)
{
	const struct rp_stream *st = &tr->st[s];
	const struct rp_kernel *k = &st->k;
	const char *unit = s == RP_TIMER ? "jiffies" : "ns";
	struct rp_result r, t;
	double best, null, ops;
	unsigned int e;
	int i;

	printf("\n## %s: %zu operations, %llu starts, ticks in %s, over %lu %s\n",
	       s == RP_TIMER ? "timer_list" : "hrtimer", st->n,
	       (unsigned long long)st->starts, unit,
	       st->has_clock ? st->clock - st->first : 0, unit);
	printf("# kernel: adds %llu, re-arms %llu (%llu with no cancel), deletes %llu, expiries %llu (%llu with no cancel), pending at the end %llu, aged out %llu, cancels and expiries of timers started before the trace %llu, deferrable %llu, armed in the past %llu, wall-clock base %llu, never to expire %llu, another clock %llu\n",
	       (unsigned long long)k->adds, (unsigned long long)k->rearms,
	       (unsigned long long)k->rearms_nocancel, (unsigned long long)k->dels,
	       (unsigned long long)k->expired, (unsigned long long)k->expired_nocancel,
	       (unsigned long long)k->pending, (unsigned long long)k->aged,
	       (unsigned long long)k->unknown, (unsigned long long)k->deferrable,
	       (unsigned long long)k->past, (unsigned long long)k->wall,
	       (unsigned long long)k->never, (unsigned long long)k->boot);
	printf("| engine | adds | mods | dels | expired | pending | refused | Ir/op | Ir/add | Ir/mod | Ir/del | Ir/adv | ns/op | cascades | cascaded | worst tick | worst adv ns | on time %% | late p50 | late p99 | late max | early | counters |\n");
	printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
	for (e = 0; e < rp_nr_engines; e++) {
		if ((s == RP_HRTIMER && !rp_hrtimer(&rp_engines[e])) ||
		    !rp_wanted(rp_engines[e].name))
			continue;
		if (rp_run(&rp_engines[e], st, tr->nsh, -1, RP_WORST, &r)) {
			printf("| %s | could not run |\n", rp_engines[e].name);
			o.bad = 1;
			continue;
		}
		best = null = -1;
		for (i = 0; i < o.repeat; i++) {
			if (!rp_run(&rp_engines[e], st, tr->nsh, -1, RP_TIME, &t) &&
			    (best < 0 || t.ns < best))
				best = t.ns;
			free(t.late);
			if (!rp_run(&rp_engines[e], st, tr->nsh, -1, RP_TIME_NULL, &t) &&
			    (null < 0 || t.ns < null))
				null = t.ns;
			free(t.late);
		}
		ops = r.calls[RP_CALL_ADD] + r.calls[RP_CALL_MOD] +
		      r.calls[RP_CALL_DEL] + r.st.expired;
		printf("| %s | %llu | %llu | %llu | %llu | %lu | %llu |",
		       rp_engines[e].name, (unsigned long long)r.st.added,
		       (unsigned long long)r.st.modified,
		       (unsigned long long)r.st.deleted,
		       (unsigned long long)r.st.expired,
		       twheel_stats_pending(&r.st),
		       (unsigned long long)r.st.refused);
		rp_ir_cells(e, s, &r);
		/* no figure when the engine's loop was no slower than the empty one */
		if (best >= 0 && null >= 0 && ops && best > null)
			printf(" %.1f |", (best - null) / ops);
		else
			printf(" - |");
		printf(" %llu | %llu | %llu | %.0f |", (unsigned long long)r.st.cascades,
		       (unsigned long long)r.st.cascaded,
		       (unsigned long long)r.worst_work, r.worst_ns);
		rp_late_cells(r.late, r.nlate, r.early);
		if (r.st.added >= r.st.expired + r.st.deleted &&
		    twheel_stats_pending(&r.st) == r.count) {
			printf(" ok |\n");
		} else {
			printf(" BROKEN |\n");
			o.bad = 1;
		}
		free(r.late);
	}
	printf("| kernel (trace) | %llu | %llu | %llu | %llu | %llu | - | - | - | - | - | - | - | - | - | - | - |",
	       (unsigned long long)k->adds, (unsigned long long)k->rearms,
	       (unsigned long long)k->dels, (unsigned long long)k->expired,
	       (unsigned long long)k->pending);
	rp_late_cells(st->late, st->nlate, st->early);
	printf(" - |\n");
}

/* Under callgrind: each engine once per kind of call. */
static void rp_callgrind(const struct rp_trace *tr)
{
	struct rp_result r;
	char what[96];
	unsigned int e;
	int s, c;

	CALLGRIND_START_INSTRUMENTATION;
	for (s = 0; s < RP_NR_STREAMS; s++) {
		for (e = 0; e < rp_nr_engines; e++) {
			if ((s == RP_HRTIMER && !rp_hrtimer(&rp_engines[e])) ||
			    !rp_wanted(rp_engines[e].name))
				continue;
			for (c = 0; c < RP_NR_CALLS; c++) {
				CALLGRIND_ZERO_STATS;
				if (rp_run(&rp_engines[e], &tr->st[s], tr->nsh, c,
					   RP_PLAIN, &r)) {
					o.bad = 1;
					continue;
				}
				snprintf(what, sizeof(what), "%s %s %s", rp_engines[e].name,
					 rp_stream_name[s], rp_call_name[c]);
				CALLGRIND_DUMP_STATS_AT(what);
				printf("calls %s %llu\n", what,
				       (unsigned long long)r.calls[c]);
				free(r.late);
			}
		}
	}
	CALLGRIND_STOP_INSTRUMENTATION;
}

/*
 * REPLAY_HZ: none if unset or empty; else a whole number from RP_HZ_MIN to
 * RP_HZ_MAX in decimal, no sign, no leading zero, nothing after it.
 */
static unsigned int rp_hz_env(void)
{
	const char *s = getenv("REPLAY_HZ");
	unsigned int v = 0, i;

	if (!s || !*s)
		return 0;
	for (i = 0; i < 6 && s[i] >= '0' && s[i] <= '9'; i++)
		v = v * 10 + (s[i] - '0');
	if (s[i] || s[0] == '0' || v < RP_HZ_MIN || v > RP_HZ_MAX) {
		fprintf(stderr, "replay: REPLAY_HZ='%s' is not an HZ: give the traced machine's as a whole number from %d to %d (250, 1000, ...), or leave REPLAY_HZ unset for the trace to tell it\n",
			s, RP_HZ_MIN, RP_HZ_MAX);
		exit(2);
	}
	return v;
}

static void rp_usage(void)
{
	fprintf(stderr,
		"usage: replay [-r REPEAT] [-e ENGINE,...] [-i IRFILE] [-n NAME] TRACE|-\n");
	exit(2);
}

/*
 * A trace with no timer event is refused: an empty file, a compressed or
 * binary one, the wrong events. head[0, n) is how the file starts.
 */
static int rp_no_events(const char *name, const struct rp_trace *tr,
			const char *head, size_t n)
{
	const char *what = NULL;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rp_binaries); i++)
		if (n >= rp_binaries[i].n &&
		    !memcmp(head, rp_binaries[i].magic, rp_binaries[i].n))
			what = rp_binaries[i].what;
	if (!what && memchr(head, '\0', n))
		what = "binary data, not text";
	if (!what && !tr->lines)
		what = "empty";
	fprintf(stderr, "replay: no timer events in %s: is this the text of tracefs trace/trace_pipe, `trace-cmd report` or `perf script`? (trace.dat is binary: run trace-cmd report on it)\n",
		name);
	if (what)
		fprintf(stderr, "replay: %s is %s\n", name, what);
	else
		fprintf(stderr, "replay: %s has %llu lines, none a timer event (timer:timer_* and timer:hrtimer_* must be enabled)\n",
			name, (unsigned long long)tr->lines);
	return 2;
}

int main(int argc, char **argv)
{
	const char *path = NULL, *irfile = NULL, *name = NULL;
	unsigned int hz;
	uint64_t events = 0;
	struct rp_trace tr;
	char *text = NULL, head[16];
	size_t cap = 0, len = 0, nhead, n;
	FILE *f;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-r") && i + 1 < argc)
			o.repeat = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-e") && i + 1 < argc)
			o.engines = argv[++i];
		else if (!strcmp(argv[i], "-i") && i + 1 < argc)
			irfile = argv[++i];
		else if (!strcmp(argv[i], "-n") && i + 1 < argc)
			name = argv[++i];
		else if (path || (argv[i][0] == '-' && argv[i][1]))
			rp_usage();
		else
			path = argv[i];
	}
	if (!path || o.repeat < 1)
		rp_usage();
	hz = rp_hz_env();
	if (!name)
		name = path;
	rp_check_engines();
	if (rp_nr_engines > ARRAY_SIZE(o.ir)) {
		fprintf(stderr, "replay: more engines than o.ir has rows\n");
		return 2;
	}
	for (i = 0; i < (int)(sizeof(o.ir) / sizeof(double)); i++)
		((double *)o.ir)[i] = -1;
	if (irfile)
		rp_read_ir(irfile);
	f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!f || rp_init(&tr)) {
		perror(path);
		return 2;
	}
	tr.hz.set = hz;
	/* the whole text: rp_calibrate() reads it before rp_text() */
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 1 << 20;
			text = realloc(text, cap);
			if (!text) {
				perror(path);
				return 2;
			}
		}
		n = fread(text + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) {
		perror(path);
		return 2;
	}
	if (f != stdin)
		fclose(f);
	nhead = len < sizeof(head) ? len : sizeof(head);
	memcpy(head, text, nhead);
	rp_calibrate(&tr, text, len);
	rp_text(&tr, text, len);
	free(text);
	rp_finish(&tr);
	for (i = 0; i < TP_NR_TYPES; i++)
		events += tr.count[i];
	if (!events) {
		i = rp_no_events(name, &tr, head, nhead);
		rp_free(&tr);
		return i;
	}
	rp_report(name, &tr);
	if (RUNNING_ON_VALGRIND)
		rp_callgrind(&tr);
	else
		for (i = 0; i < RP_NR_STREAMS; i++)
			rp_table(&tr, i);
	rp_free(&tr);
	return o.bad;
}

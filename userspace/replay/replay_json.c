// SPDX-License-Identifier: GPL-2.0
/*
 * twheel-replay's report in csv and json: one row per engine and stream
 * (and the kernel's), the header's figures, the verdicts, the oracle's
 * counts, the warnings. Every row has every key, null where a figure does
 * not apply or is not known; strings are escaped to valid JSON whatever
 * their bytes (a byte that is not UTF-8 becomes U+FFFD).
 */
#include <stdlib.h>
#include <string.h>
#include "replay_cmd.h"

/* Each stream's verdict, kept for json's end. */
static char rp_v[RP_NR_STREAMS][2][1024];
static int rp_said[RP_NR_STREAMS];

void rp_json_keep(int s, char v[2][1024])
{
	memcpy(rp_v[s], v, sizeof(rp_v[s]));
	rp_said[s] = 1;
}

/*
 * Lateness in its unit: whole jiffies; us to the ns in md, csv and json
 * (an hrtimer 40 ns late is not on time), to 0.1 in text.
 */
const char *rp_late_fmt(int s)
{
	return s == RP_TIMER ? "%.0f" : rp_o.format == RP_FMT_TEXT ? "%.1f" : "%.3f";
}

/* The length of the valid UTF-8 sequence at s, 0 if there is none. */
static int rp_utf8(const unsigned char *s)
{
	int n = s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3 :
		s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
	int i;

	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* s as a JSON string: escaped, and valid UTF-8 whatever its bytes. */
void rp_json_str(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n;

	putchar('"');
	while (*p) {
		if (*p == '"' || *p == '\\') {
			printf("\\%c", *p++);
		} else if (*p < 0x20 || *p == 0x7f) {
			printf("\\u%04x", *p++);
		} else if (*p < 0x80) {
			putchar(*p++);
		} else {
			n = rp_utf8(p);
			if (n)
				fwrite(p, 1, n, stdout);
			else
				printf("\\ufffd");
			p += n ? n : 1;
		}
	}
	putchar('"');
}

static void rp_json_num(const char *key, double v, const char *fmt)
{
	printf(", \"%s\": ", key);
	if (v < 0)
		printf("null");
	else
		printf(fmt, v);
}

static void rp_csv_num(double v, const char *fmt)
{
	putchar(',');
	if (v >= 0)
		printf(fmt, v);
}

/* Why the oracle checked nothing (replay_oracle.c), or how it checked. */

/* csv's warnings cell: on the kernel's rows, the warnings, quoted. */
static void rp_csv_warnings(int kernel)
{
	const char *const *warn;
	unsigned int n = rp_warnings(&warn), i;
	const char *p;

	printf(",");
	if (kernel && n) {
		putchar('"');
		for (i = 0; i < n; i++) {
			printf("%s", i ? "; " : "");
			for (p = warn[i]; *p; p++) {
				if (*p == '"')
					putchar('"');
				putchar(*p == '\n' ? ' ' : *p);
			}
		}
		putchar('"');
	}
	printf("\n");
}

/*
 * The oracle's cells: on the timer_list kernel row its verdict, checked
 * (idx only where the trace has no bucket_expiry) or "not checked: ...",
 * and its counts; empty on the others.
 */
static void rp_or_csv(const struct rp_oracle *or)
{
	if (!or) {
		printf(",,,,,");
		return;
	}
	if (!or->starts) {
		printf(",%s,,,,", RP_OR_NONE);
		return;
	}
	printf(",%s,%llu,%llu,%llu,%llu", rp_or_how(or),
	       (unsigned long long)or->starts,
	       (unsigned long long)or->n[RP_OR_AGREE],
	       (unsigned long long)(or->n[RP_OR_AHEAD] + or->n[RP_OR_BEHIND]),
	       (unsigned long long)or->n[RP_OR_DISAGREE]);
}

void rp_out_row(int s, const struct rp_row *w, int first,
		       const struct rp_oracle *or)
{
	const char *lf = rp_late_fmt(s);
	int c;

	if (rp_o.format == RP_FMT_CSV) {
		printf("%s,%s,%s,%s,%llu,%llu,%llu,%llu,%llu", rp_stream_title[s],
		       w->kernel ? "kernel" : w->name, w->kernel ? "" : w->exact ? "yes" : "no",
		       w->ran ? "yes" : "no", (unsigned long long)w->adds,
		       (unsigned long long)w->mods, (unsigned long long)w->dels,
		       (unsigned long long)w->expired, (unsigned long long)w->pending);
		if (w->kernel)
			printf(",,");
		else
			printf(",%llu,%llu", (unsigned long long)w->refused,
			       (unsigned long long)w->ops);
		rp_csv_num(w->ir_op, "%.1f");
		for (c = 0; c < RP_NR_CALLS; c++)
			rp_csv_num(w->ir[c], "%.1f");
		rp_csv_num(w->ns_op, "%.1f");
		printf(",%s,%s", rp_unit_name(s), rp_ref_name(s, 0));
		rp_csv_num(w->ontime, "%.1f");
		rp_csv_num(w->nlate ? w->p50 : -1, lf);
		rp_csv_num(w->nlate ? w->p99 : -1, lf);
		rp_csv_num(w->nlate ? w->max : -1, lf);
		printf(",%llu,%s", (unsigned long long)w->early, rp_ref_name(s, 1));
		rp_csv_num(w->b.n ? w->b.ontime : -1, "%.1f");
		rp_csv_num(w->b.n ? w->b.p50 : -1, lf);
		rp_csv_num(w->b.n ? w->b.p99 : -1, lf);
		rp_csv_num(w->b.n ? w->b.max : -1, lf);
		rp_csv_num(w->b.n ? (double)w->b.early : -1, "%.0f");
		printf(",%s,%s", w->kernel ? "" : rp_exact(w) ? "yes" : "no",
		       w->kernel ? "" : w->ok ? "ok" : "BROKEN");
		rp_csv_num((double)w->deferrable, "%.0f");
		rp_or_csv(w->kernel && s == RP_TIMER ? or : NULL);
		rp_csv_warnings(w->kernel);
		return;
	}
	printf("%s    {\"stream\": \"%s\", \"engine\": ", first ? "" : ",\n", rp_stream_title[s]);
	rp_json_str(w->kernel ? "kernel" : w->name);
	printf(", \"exact_claimed\": %s", w->kernel ? "null" : w->exact ? "true" : "false");
	printf(", \"ran\": %s, \"adds\": %llu, \"mods\": %llu, \"dels\": %llu, \"expired\": %llu, \"pending\": %llu",
	       w->ran ? "true" : "false", (unsigned long long)w->adds,
	       (unsigned long long)w->mods, (unsigned long long)w->dels,
	       (unsigned long long)w->expired, (unsigned long long)w->pending);
	if (w->kernel) {
		printf(", \"refused\": null, \"ops\": null, \"ir_op\": null, \"ir_add\": null, \"ir_mod\": null, \"ir_del\": null, \"ir_adv\": null, \"ns_op\": null");
	} else {
		printf(", \"refused\": %llu, \"ops\": %llu", (unsigned long long)w->refused,
		       (unsigned long long)w->ops);
		rp_json_num("ir_op", w->ir_op, "%.1f");
		for (c = 0; c < RP_NR_CALLS; c++) {
			char key[16];

			snprintf(key, sizeof(key), "ir_%s", rp_call_name[c]);
			rp_json_num(key, w->ir[c], "%.1f");
		}
		rp_json_num("ns_op", w->ns_op, "%.1f");
	}
	printf(", \"late_unit\": \"%s\", \"late_ref\": \"%s\"", rp_unit_name(s),
	       rp_ref_name(s, 0));
	rp_json_num("on_time_pct", w->ontime, "%.1f");
	rp_json_num("late_p50", w->nlate ? w->p50 : -1, lf);
	rp_json_num("late_p99", w->nlate ? w->p99 : -1, lf);
	rp_json_num("late_max", w->nlate ? w->max : -1, lf);
	printf(", \"early\": %llu, \"late_b_ref\": \"%s\"", (unsigned long long)w->early,
	       rp_ref_name(s, 1));
	rp_json_num("on_time_b_pct", w->b.n ? w->b.ontime : -1, "%.1f");
	rp_json_num("late_b_p50", w->b.n ? w->b.p50 : -1, lf);
	rp_json_num("late_b_p99", w->b.n ? w->b.p99 : -1, lf);
	rp_json_num("late_b_max", w->b.n ? w->b.max : -1, lf);
	rp_json_num("early_b", w->b.n ? (double)w->b.early : -1, "%.0f");
	rp_json_num("deferrable", (double)w->deferrable, "%.0f");
	if (w->kernel)
		printf(", \"exact\": null, \"counters\": null");
	else
		printf(", \"exact\": %s, \"counters\": \"%s\"",
		       rp_exact(w) ? "true" : "false",
		       w->ok ? "ok" : "BROKEN");
	printf("}");
}

/* rtla's timerlat hist: a row per bucket with a count, then over/count/min/avg/max. */
static void rp_or_json(const struct rp_trace *tr)
{
	const struct rp_oracle *or = &tr->oracle;
	const struct rp_or_miss *x;
	char v[1024];
	uint64_t i;

	rp_or_verdict(or, v, sizeof(v));
	printf(",\n  \"oracle\": {\"checked\": %s, \"verdict\": ", or->starts ? "true" : "false");
	rp_json_str(v);
	if (!or->starts) {
		/* every key, null: no figure */
		printf(", \"levels\": null, \"starts\": null, \"idx_only\": null, \"unchecked\": %llu, \"stopped\": null, \"agree\": null, \"explained\": null, \"explained_ahead\": null, \"explained_behind\": null, \"behind_deferrable\": null, \"ahead_max\": null, \"behind_max\": null, \"disagree\": null,\n    \"disagreements\": null}",
		       (unsigned long long)or->unchecked);
		return;
	}
	printf(", \"levels\": %u, \"starts\": %llu, \"idx_only\": %llu, \"unchecked\": %llu, \"stopped\": %s, \"agree\": %llu, \"explained\": %llu, \"explained_ahead\": %llu, \"explained_behind\": %llu, \"behind_deferrable\": %llu, \"ahead_max\": %lu, \"behind_max\": %lu, \"disagree\": %llu,\n    \"disagreements\": [",
	       or->depth, (unsigned long long)or->starts,
	       (unsigned long long)or->idx_only,
	       (unsigned long long)or->unchecked, or->full ? "true" : "false",
	       (unsigned long long)or->n[RP_OR_AGREE],
	       (unsigned long long)(or->n[RP_OR_AHEAD] + or->n[RP_OR_BEHIND]),
	       (unsigned long long)or->n[RP_OR_AHEAD],
	       (unsigned long long)or->n[RP_OR_BEHIND],
	       (unsigned long long)or->behind_def, or->ahead_max, or->behind_max,
	       (unsigned long long)or->n[RP_OR_DISAGREE]);
	for (i = 0; i < or->n[RP_OR_DISAGREE] && i < RP_OR_KEPT; i++) {
		x = &or->miss[i];
		printf("%s{\"line\": %llu, \"ts_ns\": %llu, \"timer\": \"%llx\", \"expires\": %lu, \"jiffies\": %lu, \"kernel_idx\": %llu, \"kernel_bucket_expiry\": ",
		       i ? ", " : "", (unsigned long long)x->line,
		       (unsigned long long)x->ts_ns, (unsigned long long)x->ptr,
		       x->expires, x->jiffies, (unsigned long long)x->idx);
		if (x->has_be)
			printf("%lu", x->be);
		else
			printf("null");
		printf(", \"modern_idx\": %u, \"modern_bucket_expiry\": %lu}", x->ours, x->ours_be);
	}
	printf("]}");
}

static void rp_json_verdicts(void)
{
	int s, first = 1;

	printf(",\n  \"verdicts\": {");
	for (s = 0; s < RP_NR_STREAMS; s++) {
		if (!rp_said[s])
			continue;
		printf("%s\n    \"%s\": [", first ? "" : ",", rp_stream_title[s]);
		rp_json_str(rp_v[s][0]);
		printf(", ");
		rp_json_str(rp_v[s][1]);
		printf("]");
		first = 0;
	}
	printf("\n  }");
}

/* The warnings, as a JSON array. */
static void rp_json_warnings(void)
{
	const char *const *warn;
	unsigned int n = rp_warnings(&warn), i;

	printf("[");
	for (i = 0; i < n; i++) {
		printf("%s", i ? ", " : "");
		rp_json_str(warn[i]);
	}
	printf("]");
}

/**
 * rp_json_head() - json's opening, up to its results
 * @tr: the trace
 * @name: what the report calls it
 * @head: the text header
 */
void rp_json_head(const struct rp_trace *tr, const char *name, const char *head)
{
	int cpus, nocpu;

	printf("{\n  \"version\": \"%s\",\n  \"trace\": ", RP_VERSION);
	rp_json_str(name);
	printf(",\n  \"hz\": %lu, \"hz_from\": \"%s\",\n  \"lines\": %llu, \"events\": %llu, \"malformed\": %llu, \"damaged\": %llu, \"lost_events\": %llu,\n  \"warnings\": ",
	       tr->hz.hz, tr->hz.set ? "set" : tr->hz.told ? "trace" : "assumed",
	       (unsigned long long)tr->lines, (unsigned long long)rp_events(tr),
	       (unsigned long long)tr->malformed, (unsigned long long)tr->damaged,
	       (unsigned long long)tr->lost_events);
	rp_json_warnings();
	cpus = rp_cpus(tr, &nocpu);
	if (cpus < 0)
		printf(",\n  \"cpus\": null, \"no_cpu_column\": true");
	else
		printf(",\n  \"cpus\": %d, \"no_cpu_column\": %s", cpus, nocpu ? "true" : "false");
	printf(",\n  \"header\": ");
	rp_json_str(head);
	printf(",\n  \"results\": [\n");
}

/* json's end: the verdicts and the oracle. */
void rp_json_end(const struct rp_trace *tr)
{
	printf("\n  ]");
	rp_json_verdicts();
	rp_or_json(tr);
	printf("\n}\n");
}

/* csv's header row. */
void rp_csv_head(void)
{
	printf("stream,engine,exact_claimed,ran,adds,mods,dels,expired,pending,refused,ops,ir_op,ir_add,ir_mod,ir_del,ir_adv,ns_op,late_unit,late_ref,on_time_pct,late_p50,late_p99,late_max,early,late_b_ref,on_time_b_pct,late_b_p50,late_b_p99,late_b_max,early_b,exact,counters,deferrable,oracle,oracle_starts,oracle_agree,oracle_explained,oracle_disagree,warnings\n");
}

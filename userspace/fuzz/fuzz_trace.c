// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the trace parser and the replay (trace.c,
 * replay_core.c): the input is a trace's text. It is read line by line,
 * turned into operations and played through every engine; then:
 *  - every line is accounted for once: events, blank, lost, other,
 *    stack-trace and malformed lines add up to the lines, counted here
 *    independently;
 *  - the kernel's view: every start is an add or a re-arm;
 *  - the placement oracle (replay_oracle.c): every timer_start checked or
 *    counted unchecked, every checked one in exactly one class;
 *  - every engine's counters add up (added = expired + deleted + pending,
 *    pending = what it holds), and it made one call per start and delete;
 *  - the exact engines ran every timer exactly at its due tick, when the
 *    trace's expiries are within 2^31 jiffies of its clock (beyond, the
 *    classic wheel clamps), or for hrtimers 2^62 ns (struct rp_stream).
 * ASan and UBSan watch the rest. FZ_TRACE=1 prints the failing counts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay.h"

#define fz_check(cond, what)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "twheel-fuzz-trace: %s\n", what);\
			abort();					\
		}							\
	} while (0)

static void fz_engine(const struct rp_engine_kind *k, const struct rp_trace *tr,
		      int s)
{
	const struct rp_stream *st = &tr->st[s];
	uint64_t starts = 0, dels = 0;
	struct rp_result r;
	size_t i;

	if (rp_run(k, st, tr->nsh, -1, RP_PLAIN, &r))
		return;		/* out of memory: nothing to check */
	for (i = 0; i < st->n; i++) {
		starts += st->op[i].type == RP_START;
		dels += st->op[i].type == RP_DEL;
	}
	if (getenv("FZ_TRACE"))
		fprintf(stderr, "%s/%d: added %llu expired %llu deleted %llu pending %lu count %lu late %zu early %llu\n",
			k->name, s, (unsigned long long)r.st.added,
			(unsigned long long)r.st.expired,
			(unsigned long long)r.st.deleted,
			twheel_stats_pending(&r.st), r.count,
			r.nlate, (unsigned long long)r.early);
	fz_check(r.st.added >= r.st.expired + r.st.deleted,
		 "expired + deleted > added");
	fz_check(twheel_stats_pending(&r.st) == r.count,
		 "pending is not what the engine holds");
	fz_check(r.calls[RP_CALL_ADD] + r.calls[RP_CALL_MOD] == starts,
		 "not one add or mod per start");
	fz_check(r.calls[RP_CALL_DEL] == dels, "not one del per delete");
	fz_check(r.nlate + r.early == r.st.expired, "an expiry not accounted for");
	if (k->exact && st->tame) {
		fz_check(!r.early, "an exact engine ran a timer early");
		for (i = 0; i < r.nlate; i++)
			fz_check(!r.late[i], "an exact engine ran a timer late");
	}
	free(r.late);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t lines = 0, sum = 0, forms = 0;
	struct rp_trace tr;
	unsigned int e;
	size_t i;
	int s;

	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	lines += size && data[size - 1] != '\n';
	if (rp_init(&tr))
		return 0;
	rp_calibrate(&tr, (const char *)data, size);
	rp_text(&tr, (const char *)data, size);
	rp_finish(&tr);
	for (i = 0; i < TP_NR_TYPES; i++)
		sum += tr.count[i];
	for (i = 0; i < TP_NR_FORMS; i++)
		forms += tr.forms[i];
	fz_check(tr.lines == lines, "lines miscounted");
	fz_check(sum + tr.blank + tr.lost_lines + tr.other + tr.stack +
		 tr.malformed == lines,
		 "a line not accounted for once");
	fz_check(forms == sum, "an event with no form");
	if (!tr.nomem) {
		const struct rp_oracle *o = &tr.oracle;

		fz_check(o->starts + o->unchecked == tr.count[TP_TIMER_START],
			 "a timer_start neither checked by the oracle nor not");
		fz_check(o->n[RP_OR_AGREE] + o->n[RP_OR_AHEAD] + o->n[RP_OR_BEHIND] +
			 o->n[RP_OR_DISAGREE] == o->starts,
			 "an oracle start in no class, or two");
	}
	for (s = 0; s < RP_NR_STREAMS && !tr.nomem; s++) {
		fz_check(tr.st[s].k.adds + tr.st[s].k.rearms == tr.st[s].starts,
			 "a start neither an add nor a re-arm");
		for (e = 0; e < rp_nr_engines; e++)
			if (s == RP_TIMER || rp_hrtimer(&rp_engines[e]))
				fz_engine(&rp_engines[e], &tr, s);
	}
	rp_free(&tr);
	return 0;
}

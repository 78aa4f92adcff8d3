// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the trace parser and the replay (replay_trace.c,
 * replay_core.c): the input is a trace's text. It is read line by line,
 * turned into operations and played through every engine; then:
 *  - every line is accounted for once: events, blank, lost, other,
 *    stack-trace and malformed lines add up to the lines, counted here
 *    independently;
 *  - the kernel's view: every start is an add or a re-arm;
 *  - the placement oracle (replay_oracle.c): every timer_start checked or
 *    counted unchecked; its starts that agree at jiffies are the ones
 *    the kernel's calc_wheel_index(), worked out here on its own from
 *    the kernel's rule (fz_kernel_index()), files where the trace says;
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
#include "replay_lib.h"

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
	rp_result_free(&r);
}

/*
 * The kernel's calc_wheel_index() (kernel/time/timer.c), from its rule,
 * not from any engine here: depth levels of 64 buckets, level n's
 * granularity 8^n jiffies and its range up to 63 * 8^n ahead of clk
 * (LVL_START(n + 1)); a timer goes in the first level whose range holds
 * expires - clk, in the bucket after the one its expiry falls in at that
 * granularity (so it never runs early), due at that bucket's start
 * (*be). An expiry in the past is filed at clk in level 0; one past the
 * last level's range is clamped to its last bucket's reach
 * (WHEEL_TIMEOUT_MAX: the cutoff less one granule of the last level).
 */
static unsigned int fz_kernel_index(unsigned long expires, unsigned long clk,
				    unsigned int depth, unsigned long *be)
{
	unsigned long delta = expires - clk, cutoff;
	unsigned int lvl = 0;

	while (lvl + 1 < depth && delta >= 63UL << (3 * lvl))
		lvl++;
	if (lvl + 1 == depth) {
		if ((long)delta < 0) {
			*be = clk;
			return clk & 63;
		}
		cutoff = 63UL << (3 * lvl);
		if (delta >= cutoff)
			expires = clk + cutoff - (1UL << (3 * lvl));
	}
	expires = (expires >> (3 * lvl)) + 1;
	*be = expires << (3 * lvl);
	return lvl * 64 + (expires & 63);
}

/*
 * The timer_starts of data whose placement the kernel's rule at their
 * jiffies gives, counted into *agree; the timer_starts parsed into
 * *starts (each whole line, as the replay reads them).
 */
static void fz_placements(const uint8_t *data, size_t size, unsigned int depth,
			  uint64_t *starts, uint64_t *agree)
{
	const char *s = (const char *)data, *nl;
	struct tp_event ev;
	unsigned long be;
	size_t n;

	*starts = *agree = 0;
	while (size) {
		nl = memchr(s, '\n', size);
		if (!nl)
			return;		/* cut short: malformed */
		n = nl - s;
		if (tp_parse_line(s, n, &ev) == TP_EVENT && ev.type == TP_TIMER_START) {
			++*starts;
			if (ev.has_idx && ev.has_tcpu && ev.has_timeout &&
			    fz_kernel_index(ev.expires, ev.expires - ev.timeout,
					    depth, &be) == ev.idx &&
			    (!ev.has_be || be == ev.bucket_expiry))
				++*agree;
		}
		size -= n + 1;
		s = nl + 1;
	}
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
		uint64_t starts, agree;

		fz_check(o->starts + o->unchecked == tr.count[TP_TIMER_START],
			 "a timer_start neither checked by the oracle nor not");
		fz_check(o->idx_only <= o->starts, "more idx-only starts than starts");
		fz_placements(data, size, tr.hz.hz > 100 ? 9 : 8, &starts, &agree);
		if (getenv("FZ_TRACE"))
			fprintf(stderr, "oracle: starts %llu agree %llu; by the kernel's rule: starts %llu agree %llu\n",
				(unsigned long long)o->starts,
				(unsigned long long)o->n[RP_OR_AGREE],
				(unsigned long long)starts,
				(unsigned long long)agree);
		/* a start the replay found implausible is not the oracle's */
		if (starts == tr.count[TP_TIMER_START])
			fz_check(o->n[RP_OR_AGREE] == agree,
				 "the oracle's agree at jiffies is not the kernel's rule's");
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

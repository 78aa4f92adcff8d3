// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the replay's input side: the line parser
 * (replay_trace.c), the merge of several files by timestamp (replay_order.c)
 * and the damaged fields left out (replay_damage.c), as twheel-replay
 * reads its TRACE files. The input is the files' texts, split at NUL
 * bytes (a text trace has none): up to FZ_FILES files. They are merged
 * and taken (rp_order_feed()); then:
 *  - the merge is refused exactly when, in some file, one CPU's event
 *    timestamps (or those of lines without a CPU) go back, worked out
 *    here on the parser's events alone; refused, nothing is taken, and
 *    the line it names is such a line;
 *  - else every line of every file is taken once and accounted for once
 *    (events, blank, lost, other, stack-trace and malformed lines), the
 *    events in timestamp order (the replay's own check finds none
 *    before an earlier one), the lines moved and the files' own
 *    backward steps are what the texts have, the cut short flag is set
 *    iff a file's last line has no end of line and is not blank;
 *  - each damaged line it names is an event line of the texts, and one
 *    whose time is off the trace's clock fit by more than its slack;
 *  - one file already in order, ending with a new line, replays as
 *    rp_calibrate() and rp_text() on it directly do: the same counts.
 * ASan and UBSan watch the rest. FZ_TRACE=1 prints the counts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay_lib.h"
#include "replay_order.h"

#define FZ_FILES	8

#define fz_check(cond, what)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "twheel-fuzz-input: %s\n", what);\
			abort();					\
		}							\
	} while (0)

/* Line nr (from 1) of text t, into *p and *n: 1, or 0 if it has none. */
static int fz_line(const struct rp_text *t, uint64_t nr, const char **p, size_t *n)
{
	const char *s = t->buf, *end = t->buf + t->len, *nl;
	uint64_t i;

	for (i = 1; s < end; i++) {
		nl = memchr(s, '\n', end - s);
		if (i == nr) {
			*p = s;
			*n = nl ? (size_t)(nl - s) : (size_t)(end - s);
			return 1;
		}
		s = nl ? nl + 1 : end;
	}
	return 0;
}

/*
 * What the texts say, read here line by line on their own: their lines;
 * the files with a CPU (or the lines without one) whose event timestamps
 * go back (*stuck); the event lines before an earlier event line of
 * their file (*back); a last line cut short that is not blank (*cut).
 */
static void fz_texts(const struct rp_text *t, unsigned int n, uint64_t *lines,
		     int *stuck, uint64_t *back, int *cut)
{
	static uint64_t last[TP_MAX_CPUS + 1];
	const char *s, *end, *nl;
	struct tp_event ev;
	enum tp_kind kind;
	uint64_t max;
	unsigned int f;
	size_t len;

	*lines = *back = 0;
	*stuck = *cut = 0;
	for (f = 0; f < n; f++) {
		memset(last, 0, sizeof(last));
		max = 0;
		for (s = t[f].buf, end = s + t[f].len; s < end; s = nl ? nl + 1 : end) {
			nl = memchr(s, '\n', end - s);
			len = nl ? (size_t)(nl - s) : (size_t)(end - s);
			++*lines;
			kind = tp_parse_line(s, len, &ev);
			if (!nl && kind != TP_BLANK)
				*cut = 1;
			if (kind != TP_EVENT)
				continue;
			*stuck |= ev.ts_ns < last[ev.cpu];
			*back += ev.ts_ns < max;
			if (ev.ts_ns > last[ev.cpu])
				last[ev.cpu] = ev.ts_ns;
			if (ev.ts_ns > max)
				max = ev.ts_ns;
		}
	}
}

/* A damaged line is an event whose time is off the fit by more than its slack. */
static void fz_damaged(const struct rp_trace *tr, const struct rp_text *t, unsigned int n)
{
	const struct rp_fit *f = &tr->fit;
	struct tp_event ev;
	const char *p;
	double j, fit;
	uint64_t i;
	size_t len;

	for (i = 0; i < tr->damaged && i < RP_LINES_KEPT; i++) {
		fz_check(RP_AT_FILE(tr->dmg_at[i]) < n &&
			 fz_line(&t[RP_AT_FILE(tr->dmg_at[i])], RP_AT_NR(tr->dmg_at[i]), &p, &len),
			 "a damaged line that is not in the texts");
		fz_check(tp_parse_line(p, len, &ev) == TP_EVENT && !ev.ts_counter,
			 "a damaged line that is not a timed event");
		if (ev.type >= TP_HRTIMER_START) {
			fz_check(f->has_ns, "an hrtimer damaged with no clock offset");
			continue;
		}
		fz_check(f->has_j && f->hz, "a timer_list line damaged with no clock fit");
		fit = f->j0 + ((double)ev.ts_ns - (double)f->ts0) * 1e-9 * f->hz;
		j = ev.type == TP_TIMER_START ? (double)(unsigned long)(ev.expires - ev.timeout) :
			(double)ev.now;
		fz_check(j - fit > f->j_slack || fit - j > f->j_slack,
			 "a damaged line within the fit's slack");
	}
}

/* tr, taken by rp_order_feed(), and u, by rp_calibrate() and rp_text(): the same. */
static void fz_same(const struct rp_trace *tr, const struct rp_trace *u)
{
	int s;

	fz_check(!memcmp(tr->count, u->count, sizeof(tr->count)) &&
		 tr->malformed == u->malformed && tr->damaged == u->damaged &&
		 tr->blank == u->blank && tr->other == u->other && tr->stack == u->stack &&
		 tr->lost_lines == u->lost_lines && tr->hz.hz == u->hz.hz,
		 "a file in order is not read as the direct path reads it");
	for (s = 0; s < RP_NR_STREAMS; s++)
		fz_check(!memcmp(&tr->st[s].k, &u->st[s].k, sizeof(tr->st[s].k)) &&
			 tr->st[s].n == u->st[s].n && tr->st[s].starts == u->st[s].starts,
			 "a file in order is not replayed as the direct path replays it");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *end = s + size, *z;
	struct rp_text t[FZ_FILES];
	struct rp_order ord;
	struct rp_trace tr, u;
	uint64_t lines, back, sum = 0;
	unsigned int n = 0;
	int stuck, cut, r;
	size_t i;

	while (n < FZ_FILES) {
		z = n + 1 < FZ_FILES ? memchr(s, 0, end - s) : NULL;
		t[n].buf = s;
		t[n].len = z ? (size_t)(z - s) : (size_t)(end - s);
		n++;
		if (!z)
			break;
		s = z + 1;
	}
	fz_texts(t, n, &lines, &stuck, &back, &cut);
	if (rp_init(&tr))
		return 0;
	r = rp_order_feed(&tr, t, n, &ord);
	if (getenv("FZ_TRACE"))
		fprintf(stderr, "files %u lines %llu/%llu stuck %d/%d back %llu/%llu moved %llu damaged %llu malformed %llu\n",
			n, (unsigned long long)tr.lines, (unsigned long long)lines, ord.stuck,
			stuck, (unsigned long long)ord.back, (unsigned long long)back,
			(unsigned long long)ord.moved, (unsigned long long)tr.damaged,
			(unsigned long long)tr.malformed);
	if (r < 0 || tr.nomem)
		goto out;	/* out of memory: nothing to check */
	fz_check(r == stuck && ord.stuck == stuck,
		 "refused other than when a CPU's time goes back");
	if (stuck) {
		const char *p;
		size_t len;
		struct tp_event ev;

		fz_check(!tr.lines, "lines taken from a refused merge");
		fz_check(RP_AT_FILE(ord.stuck_at) < n &&
			 fz_line(&t[RP_AT_FILE(ord.stuck_at)], RP_AT_NR(ord.stuck_at), &p, &len) &&
			 tp_parse_line(p, len, &ev) == TP_EVENT && ev.ts_ns == ord.stuck_ts &&
			 ev.cpu == ord.stuck_cpu && ord.stuck_ts < ord.stuck_prev,
			 "the refusal names a line that does not go back");
		goto out;
	}
	for (i = 0; i < TP_NR_TYPES; i++)
		sum += tr.count[i];
	fz_check(tr.lines == lines, "a line not taken once");
	fz_check(sum + tr.blank + tr.lost_lines + tr.other + tr.stack + tr.malformed == lines,
		 "a line not accounted for once");
	fz_check(!tr.back, "events taken out of timestamp order");
	fz_check(ord.back == back, "the files' backward steps miscounted");
	fz_check(ord.moved <= lines && (!back || ord.moved), "lines moved miscounted");
	fz_check(tr.cut == cut, "a file cut short not told, or told when not");
	fz_check(tr.damaged <= tr.malformed, "more damaged lines than malformed");
	fz_damaged(&tr, t, n);
	if (n == 1 && !ord.moved && (!size || data[size - 1] == '\n') && !rp_init(&u)) {
		rp_calibrate(&u, t[0].buf, t[0].len);
		rp_text(&u, t[0].buf, t[0].len);
		if (!u.nomem)
			fz_same(&tr, &u);
		rp_free(&u);
	}
out:
	rp_free(&tr);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The lines of the trace's texts in timestamp order, into the replay.
 *
 * The kernel writes each CPU's events to a ring buffer of its own, in the
 * order they happened; tracefs' trace merges the buffers by timestamp,
 * but per_cpu/cpuN/trace gives one CPU's, cat of them all one CPU's
 * after another, and a reader of trace_pipe may get a CPU's event
 * after later ones of another. The replay's rules need one order (a
 * cancel and the start after it on one CPU are a re-arm; the clock is the
 * latest time seen), so the lines are sorted by timestamp, ties in the
 * order of the files and lines. That keeps each CPU's lines in their own
 * order only if that order is the timestamps': a file where one CPU's
 * timestamps go back (a shuffled file), or where lines without a CPU
 * column do, cannot be put in order, and is refused with its first such
 * line. A line that is not an event (a header, a lost-events line, a
 * stack trace) goes after the line it follows in its file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "replay_order.h"
#include "replay_trace.h"

struct rp_ix {
	uint64_t key;		/* the timestamp, ns */
	uint64_t seq;		/* the line's place in the texts, all of them */
	uint64_t at;		/* RP_AT() */
	const char *p;
	uint32_t len;
	uint32_t eol;
};

static int rp_ix_cmp(const void *a, const void *b)
{
	const struct rp_ix *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Index text t (file f): each line's key, its place; the order checks
 * into ord. *seq numbers the lines of every text in turn; last[] (one per
 * CPU and TP_NO_CPU) each CPU's latest timestamp and its line.
 */
static void rp_ix_text(const struct rp_text *t, unsigned int f, struct rp_ix *ix,
		       size_t *n, uint64_t *seq, uint64_t *last, uint64_t *last_at,
		       struct rp_order *ord)
{
	const char *p = t->buf, *end = t->buf + t->len, *nl;
	uint64_t key = 0, max = 0, line = 0;
	struct tp_event ev;
	struct rp_ix *x;

	memset(last, 0, (TP_MAX_CPUS + 1) * sizeof(*last));
	while (p < end) {
		nl = memchr(p, '\n', end - p);
		x = &ix[(*n)++];
		x->p = p;
		x->len = nl ? nl - p : end - p;
		x->eol = !!nl;
		x->at = RP_AT(f, ++line);
		x->seq = (*seq)++;
		p = nl ? nl + 1 : end;
		if (tp_parse_line(x->p, x->len, &ev) == TP_EVENT) {
			key = ev.ts_ns;
			if (key < max && !ord->back++) {
				ord->back_at = x->at;
				ord->back_ts = key;
				ord->back_prev = max;
			}
			if (key < last[ev.cpu] && !ord->stuck) {
				ord->stuck = 1;
				ord->stuck_at = x->at;
				ord->stuck_ts = key;
				ord->stuck_prev = last[ev.cpu];
				ord->stuck_prev_at = last_at[ev.cpu];
				ord->stuck_cpu = ev.cpu;
			}
			if (key > max)
				max = key;
			if (key >= last[ev.cpu]) {
				last[ev.cpu] = key;
				last_at[ev.cpu] = x->at;
			}
		}
		x->key = key;
	}
}

static size_t rp_count_lines(const struct rp_text *t)
{
	const char *p = t->buf, *end = t->buf + t->len;
	size_t n = 0;

	while (p < end) {
		p = memchr(p, '\n', end - p);
		p = p ? p + 1 : end;
		n++;
	}
	return n;
}

/**
 * rp_order_feed() - the lines of texts t[0, n) into the replay, in order
 * @tr: the trace, before any line (rp_calibrate() is called here)
 * @t: the texts, one per file
 * @n: how many
 * @ord: what the order checks found
 *
 * Return: 0, 1 if the lines cannot be put in order (@ord->stuck: nothing
 * was taken), -ENOMEM.
 */
int rp_order_feed(struct rp_trace *tr, const struct rp_text *t, unsigned int n,
		  struct rp_order *ord)
{
	uint64_t *last, *last_at, seq = 0;
	size_t lines = 0, i, len = 0, k = 0;
	struct rp_ix *ix;
	unsigned int f;
	char *all;

	memset(ord, 0, sizeof(*ord));
	for (f = 0; f < n; f++)
		lines += rp_count_lines(&t[f]);
	ix = malloc((lines + 1) * sizeof(*ix));
	last = calloc(2 * (TP_MAX_CPUS + 1), sizeof(*last));
	if (!ix || !last) {
		free(ix);
		free(last);
		return -ENOMEM;
	}
	last_at = last + TP_MAX_CPUS + 1;
	for (f = 0, lines = 0; f < n; f++)
		rp_ix_text(&t[f], f, ix, &lines, &seq, last, last_at, ord);
	free(last);
	if (ord->stuck) {
		free(ix);
		return 1;
	}
	qsort(ix, lines, sizeof(*ix), rp_ix_cmp);
	for (i = 0; i < lines; i++) {
		ord->moved += ix[i].seq != i;
		len += ix[i].len + 1;
	}
	all = malloc(len + 1);
	if (!all) {
		free(ix);
		return -ENOMEM;
	}
	for (i = 0; i < lines; i++) {
		memcpy(all + k, ix[i].p, ix[i].len);
		k += ix[i].len;
		all[k++] = '\n';
	}
	rp_calibrate(tr, all, k);
	tr->at_set = 1;
	for (i = 0, k = 0; i < lines; i++) {
		tr->at = ix[i].at;
		rp_line(tr, all + k, ix[i].len, ix[i].eol);
		k += ix[i].len + 1;
	}
	tr->at_set = 0;
	free(all);
	free(ix);
	return 0;
}

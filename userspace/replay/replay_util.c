// SPDX-License-Identifier: GPL-2.0
/*
 * twheel-replay's shared pieces (replay_cmd.h): the options' values, the
 * progress line, errors, warnings and the string buffer. Calls no other
 * file of the command.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "replay_cmd.h"

const char *const rp_format_name[RP_NR_FMTS] = { "text", "md", "csv", "json" };
const char *const rp_stream_name[RP_NR_STREAMS] = { "timer", "hrtimer" };
const char *const rp_stream_title[RP_NR_STREAMS] = { "timer_list", "hrtimer" };
const char *const rp_call_name[RP_NR_CALLS] = { "add", "mod", "del", "adv" };

struct rp_opts rp_o = { .repeat = 3, .format = -1, .progress = -1, .callgrind = 1 };
struct rp_pg rp_pg;

double rp_secs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void rp_progress_end(void)
{
	if (rp_pg.shown && rp_pg.tty)
		fputs("\r\033[K", stderr);
	rp_pg.shown = 0;
}

void __attribute__((format(printf, 1, 2))) rp_progress(const char *fmt, ...)
{
	double now;
	va_list ap;

	if (!rp_pg.on)
		return;
	now = rp_secs();
	if (now - rp_pg.t0 < 1 || now - rp_pg.last < (rp_pg.tty ? 0.25 : 1))
		return;
	rp_pg.last = now;
	fputs(rp_pg.tty ? "\r\033[K" RP_PROG ": " : RP_PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (!rp_pg.tty)
		fputc('\n', stderr);
	fflush(stderr);
	rp_pg.shown = 1;
}

/* An error: one line on stderr, exit 2. */
void __attribute__((noreturn, format(printf, 1, 2))) rp_die(const char *fmt, ...)
{
	va_list ap;

	rp_progress_end();
	fflush(stdout);
	fputs(RP_PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

int rp_wanted(const char *name)
{
	const char *p = rp_o.engines;
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

/* Whether engine e replays stream s (and was asked for). */
int rp_replays(unsigned int e, int s)
{
	return (s == RP_TIMER || rp_hrtimer(&rp_engines[e])) && rp_wanted(rp_engines[e].name);
}

void rp_buf_init(struct rp_buf *b, char *p, size_t cap)
{
	b->p = p;
	b->cap = cap;
	b->len = 0;
	b->cut = 0;
	if (cap)
		p[0] = 0;
}

void rp_bprintf(struct rp_buf *b, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (b->len + 1 >= b->cap) {
		b->cut = 1;
		return;
	}
	va_start(ap, fmt);
	r = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (r < 0)
		return;
	if ((size_t)r >= b->cap - b->len) {
		b->cut = 1;
		b->len = b->cap - 1;
	} else {
		b->len += r;
	}
}

static char *rp_warn_list[RP_MAX_WARN];
static unsigned int rp_nwarn;

void rp_warn(const char *fmt, ...)
{
	char *w = NULL;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&w, fmt, ap);
	va_end(ap);
	if (r < 0)
		return;
	rp_progress_end();
	fprintf(stderr, RP_PROG ": WARNING: %s\n", w);
	if (rp_nwarn < RP_MAX_WARN) {
		rp_warn_list[rp_nwarn++] = w;
	} else {
		free(w);
	}
}

/* The warnings so far, into *list; how many. */
unsigned int rp_warnings(const char *const **list)
{
	*list = (const char *const *)rp_warn_list;
	return rp_nwarn;
}

uint64_t rp_events(const struct rp_trace *tr)
{
	uint64_t events = 0;
	int i;

	for (i = 0; i < TP_NR_TYPES; i++)
		events += tr->count[i];
	return events;
}

/* The events of stream s the trace has. */
uint64_t rp_stream_events(const struct rp_trace *tr, int s)
{
	int i = s == RP_TIMER ? TP_TIMER_START : TP_HRTIMER_START;

	return tr->count[i] + tr->count[i + 1] + tr->count[i + 2];
}

/*
 * The CPUs the events were on (their "[cpu]" column); -1 if none has
 * one: unknown. *nocpu: some events have none.
 */
int rp_cpus(const struct rp_trace *tr, int *nocpu)
{
	int c, n = 0;

	for (c = 0; c < TP_NO_CPU; c++)
		n += !!tr->cpu_seq[c];
	*nocpu = !!tr->cpu_seq[TP_NO_CPU];
	return n || !*nocpu ? n : -1;
}

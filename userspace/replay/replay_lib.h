/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Offline replay of a kernel timer trace through the engines, in user
 * space. rp_line() takes the trace line by line (replay_trace.h parses it) and
 * turns its events into two lists of operations, one per stream: the
 * timer_list events (ticks are jiffies) and the hrtimer events (ticks are
 * ns). rp_run() then plays a list through one engine. See replay_core.c
 * for the tracepoints' rules and how each is handled.
 */
#ifndef TWHEEL_REPLAY_LIB_H
#define TWHEEL_REPLAY_LIB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "twheel.h"
#include "replay_trace.h"
#include "shadow/twheel_events.h"

/* Line numbers kept per kind of bad line, for the report. */
#define RP_LINES_KEPT	20
/*
 * The most a timer_list event's jiffies may be from the clock: a bound in
 * jiffies, not seconds, as the wheels' advances cost per jiffy (18.6 h at
 * HZ 250, 4.7 h at HZ 1000).
 */
#define RP_MAX_JUMP	(1UL << 24)
/* hrtimer times at or above this are not CLOCK_MONOTONIC's (see docs/replay.md). */
#define RP_HR_WALL	(1ULL << 59)
/*
 * An hrtimer whose expiries' now is this far (ns) ahead of the trace's own
 * clock, beyond the offset CLOCK_MONOTONIC's show, is on another clock:
 * CLOCK_BOOTTIME after a suspend (see rp_calibrate()).
 */
#define RP_HR_AHEAD	1000000000LL
/* An hrtimer started to expire at KTIME_MAX never expires. */
#define RP_HR_NEVER	((uint64_t)INT64_MAX)

/* The HZ taken when the trace cannot tell its own (rp_calibrate()). */
#define RP_HZ_DEFAULT	250
/* REPLAY_HZ's bounds: every kernel's HZ (24 to 1200) is within. */
#define RP_HZ_MIN	10
#define RP_HZ_MAX	10000

/**
 * struct rp_hz - the traced machine's HZ (replay_hz.c)
 * @hz: the one the replay uses: @set if given, else @told, else
 *	RP_HZ_DEFAULT; set by rp_calibrate()
 * @set: REPLAY_HZ's (or --hz's: @set_by says which), 0 if none: set it
 *	before rp_calibrate()
 * @told: the usual HZ (100, 250, 300, 1000) the trace's timer_list times
 *	fit, 0 if it cannot tell
 * @times: timer_list times whose line has a timestamp in seconds (a
 *	timer_start's expires - timeout, a timer_expire_entry's now); @span
 *	the seconds they span
 * @fits: how many of the usual HZ fit them
 * @best: the usual HZ that fits them, else the one closest to: @fit the
 *	share of the times that fit it (0 to 1), @best_span the seconds
 *	those span
 * @dt: while rp_calibrate() runs, each time's timestamp less the first
 *	one's, @ts0 (ns), and @dj its jiffies less the first one's, @j0;
 *	@cap allocated
 */
struct rp_hz {
	unsigned long hz;
	unsigned int set, told, fits, best;
	const char *set_by;
	uint64_t times;
	double span, fit, best_span;
	uint64_t ts0, j0;
	int64_t *dt;
	long *dj;
	size_t cap;
};

/**
 * struct rp_fit - the trace's clock: where its jiffies and hrtimer ns
 *	should be at a timestamp (replay_hz.c, rp_calibrate())
 * @has_j: @j0 + (ts - @ts0) * HZ / 1e9 is the jiffies at timestamp ts
 *	(the median of the timer_list times'), give or take @j_slack
 * @has_ns: @ns_off + ts is CLOCK_MONOTONIC's ns at timestamp ts (the
 *	least hrtimer_expire_entry now - timestamp)
 */
struct rp_fit {
	int has_j, has_ns;
	uint64_t ts0;
	double j0;
	unsigned long hz, j_slack;
	int64_t ns_off;
};

enum rp_stream_id { RP_TIMER, RP_HRTIMER, RP_NR_STREAMS };

enum rp_op_type { RP_NOP, RP_START, RP_DEL, RP_ADV };

/* A start's bucket_expiry, if it has one (@known). */
struct rp_bref {
	unsigned long v;
	int known;
};

/* One operation: start (add or mod) or delete shadow s, or advance to v. */
struct rp_op {
	uint32_t type;
	uint32_t s;
	unsigned long v;
};

/**
 * struct rp_kernel - what the kernel itself did, as the trace shows it
 * @adds: starts of a timer that was not pending
 * @rearms: starts of a pending one: a cancel and a start next to each
 *	other on one CPU (mod_timer), or a start with no cancel before it
 * @rearms_nocancel: of @rearms, those with no cancel (hrtimer restarts of
 *	an armed timer; for timer_list, a lost event)
 * @dels: cancels that were neither part of an expiry nor of a re-arm
 * @expired: expiries of timers whose start the trace has
 * @expired_nocancel: of @expired, those with no cancel just before
 * @unknown: cancels and expiries of timers started before the trace (events,
 *	not timers: a timer's cancel and its expiry count 2)
 * @aged: timers thought pending that had no event long past their expiry:
 *	taken as gone (freed without a cancel, or events lost)
 * @pending: pending when the trace ends
 * @wall: hrtimer events on a wall-clock base (times >= RP_HR_WALL, or a
 *	cancel of a timer last started so), skipped
 * @boot: events of hrtimers on a clock ahead of the trace's (rp_calibrate()),
 *	skipped
 * @never: hrtimer starts at KTIME_MAX: the timer is never to expire, so
 *	the engines drop it
 * @deferrable: timer_start events of deferrable timers, of the
 *	@flags_known whose line shows the timer's flags (the tracefs form)
 * @past: starts whose expiry was already past (timeout <= 0 or behind
 *	the replay's clock)
 */
struct rp_kernel {
	uint64_t adds, rearms, rearms_nocancel, dels, expired, expired_nocancel;
	uint64_t unknown, aged, pending, wall, deferrable, past, never, boot;
	uint64_t flags_known;
};

/**
 * struct rp_stream - the operations of one stream and what they came from
 * @op: the operations, @n of them (@cap allocated)
 * @first: the clock at the first event that gave a time: every engine
 *	starts with its clk there
 * @clock: the latest time seen (jiffies, or ns)
 * @done: the last tick the engines have been advanced through
 * @has_clock: @first and @clock are set
 * @pre: before @has_clock, the earliest expiry started (@has_pre)
 * @k: the kernel's own counts
 * @late: the kernel's lateness per expiry (expire's now - the expiry),
 *	@nlate of them; @early: expiries before the expiry
 * @late_b: the kernel's lateness against the second reference (struct
 *	rp_shadow's @ref_b: timer_list's bucket_expiry, an hrtimer's hard
 *	expiry), 0 if before it, of the expiries whose start had it, @nlate_b
 *	of them; @early_b: of those, the ones before it
 * @bref: per RP_START operation (in their order), its start's
 *	bucket_expiry, where the start had it; allocated from the first
 *	start that has it (@bcap), NULL before (timer_list only)
 * @starts: RP_START operations, the most expiries any engine can have
 * @tame: every start within @tame_span ticks of the clock (the engines'
 *	exactness is then checked): 2^31 jiffies for timer_list (beyond, the
 *	wheels clamp or refuse), 2^62 ns for hrtimers (the heap and the
 *	reference replay them; time_before() orders up to 2^63)
 */
struct rp_stream {
	struct rp_op *op;
	size_t n, cap;
	unsigned long first, clock, done, pre;
	int has_clock, has_pre;
	unsigned long tame_span;
	struct rp_kernel k;
	unsigned long *late;
	size_t nlate, late_cap;
	uint64_t early;
	unsigned long *late_b;
	size_t nlate_b, late_b_cap;
	uint64_t early_b;
	struct rp_bref *bref;
	size_t bcap;
	uint64_t starts;
	int tame;
};

struct tw_user_engine;

/*
 * A timer as the trace shows it. @ev: the model's state of it (armed in
 * the kernel's view, its last start, its undecided cancel); @wall: an
 * hrtimer last started on a wall-clock base (not replayed); @boot: an
 * hrtimer on a clock ahead of the trace's (rp_calibrate()); @cancel:
 * index + 1 of the RP_DEL of its undecided cancel; @or_base: the timer
 * base its last start queued it on (replay_oracle.c), + 1, 0 if none;
 * @or_be: that start's bucket_expiry, when @or_be_known: the kernel's, or
 * before 6.8 modern's where it filed the start where the kernel did;
 * @or_walk: the last walk of a base's list that met it (struct
 * rp_or_base); @ref_b: its last start's second reference for lateness,
 * when @has_ref_b: a timer_list start's bucket_expiry (6.8 and later),
 * an hrtimer's hard expiry (expires=).
 */
struct rp_shadow {
	uint64_t ptr;
	uint32_t hr:1, wall:1, boot:1, or_be_known:1, has_ref_b:1;
	struct tw_ev_timer ev;
	size_t cancel;
	uint32_t or_base;
	uint64_t or_walk;
	unsigned long or_be;
	unsigned long ref_b;
};

/*
 * The kernel's timer bases (6.9 and later): per CPU, BASE_LOCAL (pinned
 * timers), BASE_GLOBAL and BASE_DEF (deferrable); RP_BASE_ANY stands for
 * the three where the trace's form does not show a timer's flags
 * (trace-cmd report, perf script).
 */
enum rp_base_kind { RP_BASE_LOCAL, RP_BASE_GLOBAL, RP_BASE_DEF, RP_BASE_ANY,
		    RP_NR_BASE_KINDS };

/*
 * What the oracle makes of a start (replay_oracle.c): modern's bucket at
 * the event's jiffies is the kernel's; it is at a base clock the trace
 * allows, past jiffies (the base running its timers) or behind them (the
 * base's clock forwarded to a bucket not run yet); neither.
 */
enum rp_or_class { RP_OR_AGREE, RP_OR_AHEAD, RP_OR_BEHIND, RP_OR_DISAGREE,
		   RP_OR_NR };

/* The disagreements kept for the report. */
#define RP_OR_KEPT	5

/**
 * struct rp_or_miss - a start modern filed elsewhere than the kernel
 * @line: its line; @ts_ns its timestamp
 * @ptr: the timer
 * @expires: its expiry; @jiffies the jiffies of the event
 * @idx: the kernel's bucket; @be its bucket_expiry, when @has_be
 * @ours: modern's at @jiffies; @ours_be its bucket_expiry
 */
struct rp_or_miss {
	uint64_t line, ts_ns, ptr;
	unsigned long expires, jiffies, be, ours_be;
	uint64_t idx;
	unsigned int ours;
	int has_be;
};

/* The most timers a base's list holds; past it the oracle stops. */
#define RP_OR_LIVE_MAX	(1U << 28)

/**
 * struct rp_or_base - what the trace shows of one timer base
 * @clk: the least its clock can be as last known (@has_clk): the clock
 *	a start was placed at, where no earlier clock gives its placement,
 *	or a timer_expire_entry's baseclk + 1 (the base runs its timers with
 *	its clock one past the bucket's)
 * @run: its clock in its latest run of its timers (@has_run): the
 *	greatest baseclk + 1 seen
 * @next: the earliest bucket_expiry queued on it since its latest clock
 *	step in a run (@has_next): the kernel's next_expiry, worked out anew
 *	at each step before the callbacks run, which a delete leaves as it
 *	was
 * @live: the timers started on it (shadow indices, @n of them, @cap
 *	allocated): those still armed there are its pending ones; the
 *	others, and a timer's second entry, are dropped when it is walked
 *	(before it grows, and for the pending timers' earliest expiry)
 */
struct rp_or_base {
	unsigned long clk, run, next;
	uint8_t has_clk, has_run, has_next;
	uint32_t *live;
	uint32_t n, cap;
};

/**
 * struct rp_oracle - the kernel's placement of each timer_start against
 *	modern's (replay_oracle.c)
 * @starts: timer_start events that have the kernel's idx and cpu (and
 *	from 6.8 on bucket_expiry) and their jiffies ([timeout=])
 * @idx_only: of @starts, those without bucket_expiry: their idx checked
 * @unchecked: timer_start events without them
 * @full: a base's list reached RP_OR_LIVE_MAX: the starts after it are
 *	@unchecked
 * @n: @starts by class
 * @ahead_max, @behind_max: the most jiffies a base's clock was past
 *	(behind) the event's jiffies in an explained start
 * @behind_def: of the RP_OR_BEHIND, deferrable timers'
 * @miss: the first RP_OR_KEPT disagreements
 * @base: per CPU and base kind, RP_NR_BASE_KINDS a CPU (TP_MAX_CPUS of
 *	them), allocated at the first start with the fields
 * @walk: the walks of a base's list so far (64 bits: never wraps back to
 *	a walk a timer's @or_walk holds)
 * @wheel: a modern wheel, empty, at the traced machine's depth (8 levels
 *	at HZ 100 and below, else 9): its clock is set to each clock tried,
 *	and its placement is its .index op's; @depth its levels
 */
struct rp_oracle {
	uint64_t starts, idx_only, unchecked;
	int full;
	uint64_t n[RP_OR_NR];
	unsigned long ahead_max, behind_max;
	uint64_t behind_def;
	struct rp_or_miss miss[RP_OR_KEPT];
	struct rp_or_base *base;
	uint64_t walk;
	struct tw_user_engine *wheel;
	unsigned int depth;
};


/**
 * struct rp_trace - a trace being read, and its report
 * @st: the two streams
 * @sh: the shadow timers, one per timer pointer (and stream), @nsh of them
 * @map: open addressing from pointer to shadow index + 1, @mapcap slots
 * @cpu_seq: per CPU (and TP_NO_CPU), the sequence number of its last event
 * @seq: events so far
 * @lines: lines read
 * @count: events per type
 * @forms: events per form
 * @blank: comments, headers and empty lines
 * @other: lines of other events; @other_line the first RP_LINES_KEPT
 * @stack: lines of stack traces (perf script -g, tracefs' stacktrace)
 * @malformed: lines that are not well-formed; @bad_line, @bad_why the first
 *	RP_LINES_KEPT
 * @lost_lines: lines of lost events ("[LOST N EVENTS]", "[N EVENTS
 *	DROPPED]"); @lost_events: the events they add up to; @lost_unknown:
 *	of the lines, those that give no count
 * @overwritten: the events tracefs' entries-in-buffer/entries-written
 *	header says were written and overwritten
 * @nomem: an allocation failed: the replay stopped taking events
 * @hr_off: the least (hrtimer_expire_entry's now - its timestamp) seen by
 *	rp_calibrate(), if @has_hr_off: CLOCK_MONOTONIC's offset
 * @boot_timers: hrtimers found on a clock ahead of it, @boot_ahead the most
 *	ahead (ns)
 * @wrap32: timer_list lines whose jiffies look like a 32-bit kernel's
 *	wrapping at 2^32 (taken as malformed)
 * @hz: the traced machine's HZ, what aged-out thresholds in seconds are
 *	turned into jiffies with
 * @streamed: rp_calibrate() saw only the trace's head (the rest is read
 *	as it comes): an hrtimer found ahead of the trace's clock after it is
 *	set aside from that event on (rp_line())
 * @oracle: the kernel's placement of each start against modern's
 * @at: the line being taken, as its reader numbers it (RP_AT() of
 *	replay_order.h), if @at_set; else rp_line() sets it to @lines
 * @ts_max: the latest timestamp of an event so far; @back the events
 *	before it, @back_at the first of them (@at), @back_ts its timestamp
 *	and @back_prev @ts_max then
 * @cut: the last line had no end of line (a file cut short)
 * @damaged: event lines left out as damaged: a time field that is an
 *	outlier against the trace's own clock (struct rp_fit); @dmg_at, the
 *	first RP_LINES_KEPT, @dmg_field the field, @dmg_off how far off
 * @fit: the trace's clock, as rp_calibrate() fitted it
 * @was_armed_lost: 6.18's hrtimer_start with was_armed=0 of a timer the
 *	trace holds armed, no cancel or expiry between: those were lost
 */
struct rp_trace {
	struct rp_stream st[RP_NR_STREAMS];
	struct rp_shadow *sh;
	uint32_t nsh, capsh;
	uint32_t *map;
	size_t mapcap;
	uint64_t *cpu_seq;
	uint64_t seq;
	uint64_t lines, count[TP_NR_TYPES], forms[TP_NR_FORMS], blank;
	uint64_t other, other_line[RP_LINES_KEPT], stack;
	uint64_t malformed, bad_line[RP_LINES_KEPT];
	const char *bad_why[RP_LINES_KEPT];
	uint64_t lost_lines, lost_events, lost_unknown, overwritten;
	int nomem;
	int64_t hr_off;
	int has_hr_off;
	uint64_t boot_timers, boot_ahead, wrap32;
	struct rp_hz hz;
	int streamed;
	struct rp_oracle oracle;
	uint64_t at;
	int at_set, cut;
	uint64_t ts_max, back, back_at, back_ts, back_prev;
	uint64_t damaged, dmg_at[RP_LINES_KEPT];
	const char *dmg_field[RP_LINES_KEPT];
	int64_t dmg_off[RP_LINES_KEPT];
	struct rp_fit fit;
	uint64_t was_armed_lost;
};

int rp_init(struct rp_trace *tr);
void rp_line(struct rp_trace *tr, const char *s, size_t n, int eol);
void rp_calibrate(struct rp_trace *tr, const char *buf, size_t len);
void rp_text(struct rp_trace *tr, const char *buf, size_t len);
void rp_finish(struct rp_trace *tr);
void rp_free(struct rp_trace *tr);
int rp_hz_time(struct rp_trace *tr, const struct tp_event *ev);
void rp_hz_decide(struct rp_trace *tr);
void rp_hz_free(struct rp_hz *hz);
void rp_hz_report(FILE *out, const struct rp_hz *hz);
void rp_or_start(struct rp_trace *tr, struct rp_shadow *sh,
		 const struct tp_event *ev);
void rp_or_expire(struct rp_trace *tr, const struct rp_shadow *sh,
		  const struct tp_event *ev);
void rp_or_free(struct rp_oracle *o);
void rp_order_note(struct rp_trace *tr, const struct tp_event *ev);
const char *rp_implausible(const struct rp_stream *s, const struct tp_event *ev,
			   int *wrap32);
const char *rp_damaged(struct rp_trace *tr, const struct tp_event *ev);

/* The engines a stream is replayed through. */
struct rp_engine_kind {
	const char *name;
	enum twheel_kind kind;
	int exact;		/* runs every timer at exactly its expiry */
};

/* Whether an engine also replays the hrtimer stream: one of any unit. */
static inline int rp_hrtimer(const struct rp_engine_kind *k)
{
	return twheel_engine_ops[k->kind]->sparse;
}

extern const struct rp_engine_kind rp_engines[];
extern const unsigned int rp_nr_engines;

/*
 * A histogram, rtla's way: RP_HIST_N buckets of one width from 0, then
 * the values beyond (b[RP_HIST_N], "over"); count, min, sum and max of
 * every value.
 */
#define RP_HIST_N	64
/* Per-call cost histograms (RP_COST): buckets of this many ns. */
#define RP_COST_NS	10

struct rp_hist {
	uint64_t b[RP_HIST_N + 1];
	uint64_t n;
	double min, max, sum;
};

static inline void rp_hist_add(struct rp_hist *h, double v, double width)
{
	double i = v / width;

	if (v < 0)
		v = i = 0;
	h->b[i >= RP_HIST_N ? RP_HIST_N : (unsigned int)i]++;
	if (!h->n || v < h->min)
		h->min = v;
	if (!h->n || v > h->max)
		h->max = v;
	h->sum += v;
	h->n++;
}

enum rp_call { RP_CALL_ADD, RP_CALL_MOD, RP_CALL_DEL, RP_CALL_ADV, RP_NR_CALLS };

/**
 * struct rp_result - one engine's replay of one stream
 * @st: the engine's counters at the end
 * @count: what twheel_count() finds in it at the end
 * @calls: the calls made, per kind
 * @late: lateness of each expiry against its due tick (the expiry, or the
 *	clock if that was already past), @nlate of them; @early: before it
 * @late_b: modern's alone, where the stream has @bref: lateness against
 *	the bucket_expiry the trace gives the timer's start (0 if before it),
 *	@nlate_b of them; @early_b: of those, the ones before it
 * @worst_work: the most timers expired and cascaded in one tick
 * @worst_ns: the longest advance, ns (RP_WORST)
 * @ns: the whole replay, ns (RP_TIME, RP_TIME_NULL)
 * @cost: each call's ns, the clock's own cost taken off (RP_COST)
 */
struct rp_result {
	struct twheel_stats st;
	unsigned long count;
	uint64_t calls[RP_NR_CALLS];
	unsigned long *late;
	size_t nlate;
	uint64_t early;
	unsigned long *late_b;
	size_t nlate_b;
	uint64_t early_b;
	uint64_t worst_work;
	double worst_ns;
	double ns;
	struct rp_hist cost;
};

/*
 * What rp_run() times: nothing; each advance (worst_ns); the whole replay
 * (ns); the whole replay's loop without the engine calls (ns); each
 * advance and each call (worst_ns and cost).
 */
enum rp_mode { RP_PLAIN, RP_WORST, RP_TIME, RP_TIME_NULL, RP_COST };

int rp_run(const struct rp_engine_kind *k, const struct rp_stream *s,
	   uint32_t nsh, int collect, enum rp_mode mode, struct rp_result *res);
void rp_result_free(struct rp_result *res);

#endif /* TWHEEL_REPLAY_LIB_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * The replay: a trace's timer events as operations on shadow timers
 * (replay_run.c plays them through an engine).
 *
 * What each event means is the one model's, shadow/twheel_events.h (the
 * live shadow in the module asks it too), and what is done with it here:
 * - a cancel is noted, as a delete to be (an RP_DEL at its place), and
 *   decided by the timer's next event: part of an expiry or of a re-arm
 *   (the RP_DEL becomes an RP_NOP: the engines run the timer themselves,
 *   or take the start as a mod), or a delete (the RP_DEL stays); at the
 *   end of the trace an undecided one stays a delete. hrtimers alike.
 * - A mod_timer that keeps the expiry, or moves it within the bucket it is
 *   in, emits nothing: the engines keep the expiry they were given.
 * - Timers can vanish without a cancel. A timer thought pending past the
 *   model's age limit (tw_ev_aged(): 2 s of the traced machine's clock and
 *   an eighth of its timeout past its expiry) is counted as aged out of
 *   the kernel's view; the engines need nothing: they run it at its
 *   expiry, as they must.
 * - Events of several CPUs interleave: the clock of a stream is the latest
 *   time any event has shown (jiffies: a timer_start's expires - timeout,
 *   a timer_expire_entry's now; hrtimer: an hrtimer_expire_entry's now),
 *   never moved back. When an event shows a later time, every engine is
 *   first advanced to the tick before it (RP_ADV), running what fell due
 *   on the way; an expiry's own tick too (see rp_clock()).
 * The kernel's own expiries are not replayed: each engine runs its timers
 * when its own rules say, and that is what it is measured on.
 */
#include <stdlib.h>
#include <string.h>
#include <linux/jiffies.h>
#include "replay_lib.h"
#include "shadow/twheel_events.h"

/* A stream's ticks per second: the traced machine's HZ, or ns. */
static unsigned long rp_per_s(const struct rp_trace *tr, int hr)
{
	return hr ? 1000000000UL : tr->hz.hz;
}

/* Event ev of timer sh, as the model takes it, at the stream's clock. */
static struct tw_ev_verdict rp_take(struct rp_trace *tr, struct rp_shadow *sh,
				    enum tw_ev_type type,
				    const struct tp_event *ev, unsigned long v)
{
	const struct rp_stream *s = &tr->st[sh->hr];
	struct tw_ev e = {
		.type = type,
		.timed = s->has_clock,
		.cpu = ev->cpu,
		.seq = tr->seq,
		.cpu_prev = tr->cpu_seq[ev->cpu],
		.now = s->clock,
		.expires = v,
		.has_base = type == TW_EV_START && ev->has_tcpu,
		.base_cpu = ev->tcpu,
	};

	return tw_ev_take(&sh->ev, &e, rp_per_s(tr, sh->hr));
}

int rp_init(struct rp_trace *tr)
{
	memset(tr, 0, sizeof(*tr));
	tr->cpu_seq = calloc(TP_MAX_CPUS + 1, sizeof(*tr->cpu_seq));
	tr->st[RP_TIMER].tame = 1;
	tr->st[RP_HRTIMER].tame = 1;
	tr->st[RP_TIMER].tame_span = 1UL << 31;
	tr->st[RP_HRTIMER].tame_span = 1UL << 62;
	tr->hz.hz = RP_HZ_DEFAULT;
	return tr->cpu_seq ? 0 : -ENOMEM;
}

void rp_free(struct rp_trace *tr)
{
	int i;

	for (i = 0; i < RP_NR_STREAMS; i++) {
		free(tr->st[i].op);
		free(tr->st[i].late);
		free(tr->st[i].late_b);
		free(tr->st[i].bref);
	}
	free(tr->sh);
	free(tr->map);
	free(tr->cpu_seq);
	rp_hz_free(&tr->hz);
	rp_or_free(&tr->oracle);
	memset(tr, 0, sizeof(*tr));
}

static int rp_grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

static size_t rp_emit(struct rp_trace *tr, struct rp_stream *s, uint32_t type,
		      uint32_t sh, unsigned long v)
{
	if (rp_grow((void **)&s->op, &s->cap, s->n + 1, sizeof(*s->op))) {
		tr->nomem = 1;
		return 0;
	}
	s->op[s->n].type = type;
	s->op[s->n].s = sh;
	s->op[s->n].v = v;
	return ++s->n;
}

/* Whether expiry v is more than the stream's tame span from clock c. */
static int rp_far(const struct rp_stream *s, unsigned long v, unsigned long c)
{
	return v - c > s->tame_span && c - v > s->tame_span;
}

/*
 * The engines' clock is set (s->first): the starts taken before it, with
 * no time to judge them by, are judged now, against the clock the engines
 * file them from.
 */
static void rp_first_set(struct rp_stream *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->op[i].type == RP_START && rp_far(s, s->op[i].v, s->first))
			s->tame = 0;
}

/*
 * The stream has seen time t. The engines advance to t - 1: what fell due
 * before t has run, what falls due at t waits, as timers the kernel's
 * softirq has not reached yet (a timer deleted or re-armed at t before
 * that never runs). An expiry at t (upto) lets them run t as well.
 */
static void rp_clock(struct rp_trace *tr, struct rp_stream *s, unsigned long t,
		     int upto)
{
	unsigned long target = upto ? t : t - 1;

	if (!s->has_clock) {
		/*
		 * The engines start early enough for every start so far, but
		 * no more than RP_MAX_JUMP early (the wheels' advances cost
		 * in proportion to the span).
		 */
		s->first = t;
		if (s->has_pre && time_before(s->pre, t) && t - s->pre <= RP_MAX_JUMP)
			s->first = s->pre;
		s->clock = t;
		s->done = s->first - 1;
		s->has_clock = 1;
		rp_first_set(s);
	} else if (time_after(t, s->clock)) {
		s->clock = t;
	}
	if (time_after(target, s->done)) {
		s->done = target;
		rp_emit(tr, s, RP_ADV, 0, target);
	}
}

static uint64_t rp_hash(uint64_t ptr, int hr)
{
	uint64_t h = (ptr ^ (hr ? 0x5bd1e995ULL : 0)) * 0x9e3779b97f4a7c15ULL;

	return h ^ (h >> 29);
}

static int rp_map_put(uint32_t *map, size_t cap, uint64_t h, uint32_t idx)
{
	size_t i = h & (cap - 1);

	while (map[i])
		i = (i + 1) & (cap - 1);
	map[i] = idx + 1;
	return 0;
}

/* The shadow of (ptr, hr), made if create; NULL if none. */
static struct rp_shadow *rp_shadow(struct rp_trace *tr, uint64_t ptr, int hr,
				   int create)
{
	size_t i, cap;
	uint32_t *map, j;
	struct rp_shadow *sh;

	if (tr->mapcap) {
		for (i = rp_hash(ptr, hr) & (tr->mapcap - 1); tr->map[i];
		     i = (i + 1) & (tr->mapcap - 1)) {
			sh = &tr->sh[tr->map[i] - 1];
			if (sh->ptr == ptr && sh->hr == !!hr)
				return sh;
		}
	}
	if (!create || tr->nsh >= UINT32_MAX / 4)
		return NULL;
	if (2 * (tr->nsh + 1) > tr->mapcap) {
		cap = tr->mapcap ? 2 * tr->mapcap : 256;
		map = calloc(cap, sizeof(*map));
		if (!map)
			return NULL;
		for (j = 0; j < tr->nsh; j++)
			rp_map_put(map, cap, rp_hash(tr->sh[j].ptr, tr->sh[j].hr), j);
		free(tr->map);
		tr->map = map;
		tr->mapcap = cap;
	}
	i = tr->capsh;
	if (rp_grow((void **)&tr->sh, &i, tr->nsh + 1, sizeof(*tr->sh)))
		return NULL;
	tr->capsh = i;
	sh = &tr->sh[tr->nsh];
	memset(sh, 0, sizeof(*sh));
	sh->ptr = ptr;
	sh->hr = !!hr;
	rp_map_put(tr->map, tr->mapcap, rp_hash(ptr, hr), tr->nsh++);
	return sh;
}

/* An undecided cancel stays a delete (its RP_DEL stays). */
static void rp_settle(struct rp_stream *s, struct rp_shadow *sh)
{
	if (tw_ev_settle(&sh->ev))
		s->k.dels++;
	sh->cancel = 0;
}

/* The model decided sh's undecided cancel: its RP_DEL stays, or goes. */
static void rp_decided(struct rp_stream *s, struct rp_shadow *sh,
		       const struct tw_ev_verdict *v)
{
	if (v->del)
		s->k.dels++;
	else if (sh->cancel && (v->what == TW_EV_MOD || v->what == TW_EV_EXPIRY))
		s->op[sh->cancel - 1].type = RP_NOP;
	sh->cancel = 0;
}

static void rp_kernel_late(struct rp_trace *tr, struct rp_stream *s,
			   unsigned long now, unsigned long expires)
{
	if (time_before(now, expires)) {
		s->early++;
		return;
	}
	if (rp_grow((void **)&s->late, &s->late_cap, s->nlate + 1, sizeof(*s->late))) {
		tr->nomem = 1;
		return;
	}
	s->late[s->nlate++] = now - expires;
}

/* Against the start's second reference (@ref_b), 0 if before it: rp_kernel_late(). */
static void rp_kernel_late_b(struct rp_trace *tr, struct rp_stream *s,
			     unsigned long now, const struct rp_shadow *sh)
{
	if (!sh->has_ref_b)
		return;
	if (rp_grow((void **)&s->late_b, &s->late_b_cap, s->nlate_b + 1, sizeof(*s->late_b))) {
		tr->nomem = 1;
		return;
	}
	s->early_b += time_before(now, sh->ref_b);
	s->late_b[s->nlate_b++] = time_before(now, sh->ref_b) ? 0 : now - sh->ref_b;
}

/* The next start's bucket_expiry for rp_run(), from the first that has one. */
static void rp_bref(struct rp_trace *tr, struct rp_stream *s, const struct tp_event *ev)
{
	size_t had = s->bcap;

	if (!s->bref && !ev->has_be)
		return;
	if (rp_grow((void **)&s->bref, &s->bcap, s->starts + 1, sizeof(*s->bref))) {
		tr->nomem = 1;
		return;
	}
	if (!had)	/* the starts before it had none */
		memset(s->bref, 0, s->starts * sizeof(*s->bref));
	s->bref[s->starts] = (struct rp_bref){ ev->bucket_expiry, ev->has_be };
}

/*
 * An hrtimer started on a wall-clock base, or to expire never (KTIME_MAX):
 * not replayed. The engines drop what they hold of it (an undecided cancel
 * stays a delete); a later cancel of a wall-clock one is counted with it,
 * one of a KTIME_MAX one is the kernel's delete of a pending timer (the
 * model holds it armed at KTIME_MAX, an expiry it never reaches).
 */
static void rp_drop(struct rp_trace *tr, struct rp_stream *s,
		    struct rp_shadow *sh, const struct tp_event *ev)
{
	rp_settle(s, sh);
	if (sh->ev.armed)
		rp_emit(tr, s, RP_DEL, sh - tr->sh, 0);
	sh->wall = ev->expires != RP_HR_NEVER;
	if (sh->wall) {
		/* not replayed: forgotten */
		memset(&sh->ev, 0, sizeof(sh->ev));
		s->k.wall++;
		return;
	}
	/* pending in the kernel, never to expire: its cancel is a delete */
	rp_take(tr, sh, TW_EV_START, ev, RP_HR_NEVER);
	s->k.never++;
}

static void rp_start(struct rp_trace *tr, const struct tp_event *ev, int hr)
{
	struct rp_stream *s = &tr->st[hr];
	unsigned long v = hr ? ev->softexpires : ev->expires;
	struct tw_ev_verdict vd;
	struct rp_shadow *sh;

	if (!hr && ev->has_timeout)
		rp_clock(tr, s, ev->expires - ev->timeout, 0);
	s->k.deferrable += !hr && ev->deferrable;
	s->k.flags_known += !hr && ev->flags_known;
	sh = rp_shadow(tr, ev->ptr, hr, 1);
	if (!sh) {
		tr->nomem = 1;
		return;
	}
	if (hr && ev->expires >= RP_HR_WALL) {
		rp_drop(tr, s, sh, ev);
		return;
	}
	sh->wall = 0;
	/* 6.18 says whether it was armed: not, though armed here, is a loss */
	tr->was_armed_lost += ev->has_was_armed && !ev->was_armed && sh->ev.armed &&
			      !sh->cancel;
	if (!hr)
		rp_or_start(tr, sh, ev);
	sh->has_ref_b = hr || ev->has_be;	/* hard expiry; bucket_expiry */
	sh->ref_b = hr ? ev->expires : ev->bucket_expiry;
	vd = rp_take(tr, sh, TW_EV_START, ev, v);
	/* mod_timer: the cancel and the start are one re-arm */
	rp_decided(s, sh, &vd);
	s->k.aged += vd.aged;
	if (vd.what == TW_EV_MOD || vd.what == TW_EV_MOD_NOCANCEL) {
		s->k.rearms++;
		s->k.rearms_nocancel += vd.what == TW_EV_MOD_NOCANCEL;
	} else {
		s->k.adds++;
	}
	if (!s->has_clock) {
		/* no time yet (hrtimer starts): the earliest expiry so far */
		if (!s->has_pre || time_before(v, s->pre))
			s->pre = v;
		s->has_pre = 1;
	} else {
		if (!time_after(v, s->clock))
			s->k.past++;
		else if (!hr && ev->has_timeout && ev->timeout <= 0)
			s->k.past++;
		if (rp_far(s, v, s->clock))
			s->tame = 0;
	}
	if (!hr)
		rp_bref(tr, s, ev);
	s->starts++;
	rp_emit(tr, s, RP_START, sh - tr->sh, v);
}

static void rp_cancel(struct rp_trace *tr, const struct tp_event *ev, int hr)
{
	struct rp_stream *s = &tr->st[hr];
	struct rp_shadow *sh = rp_shadow(tr, ev->ptr, hr, 0);
	struct tw_ev_verdict vd;

	if (!sh) {
		s->k.unknown++;
		return;
	}
	if (sh->wall) {
		s->k.wall++;
		return;
	}
	vd = rp_take(tr, sh, TW_EV_CANCEL, ev, 0);
	rp_decided(s, sh, &vd);
	if (vd.what == TW_EV_NOTED)
		sh->cancel = rp_emit(tr, s, RP_DEL, sh - tr->sh, 0);
	else	/* a timer neither pending nor just started: not ours */
		s->k.unknown++;
}

static void rp_expire(struct rp_trace *tr, const struct tp_event *ev, int hr)
{
	struct rp_stream *s = &tr->st[hr];
	struct tw_ev_verdict vd;
	struct rp_shadow *sh;

	if (hr && ev->now >= RP_HR_WALL) {
		s->k.wall++;
		return;
	}
	rp_clock(tr, s, ev->now, 1);
	sh = rp_shadow(tr, ev->ptr, hr, 0);
	if (!hr)
		rp_or_expire(tr, sh, ev);
	if (!sh) {
		s->k.unknown++;
		return;
	}
	vd = rp_take(tr, sh, TW_EV_EXPIRE, ev, 0);
	rp_decided(s, sh, &vd);
	if (vd.what == TW_EV_STRAY) {
		/* a timer neither pending nor just cancelled: not ours */
		s->k.unknown++;
		return;
	}
	s->k.expired_nocancel += vd.what == TW_EV_EXPIRY_NOCANCEL;
	s->k.expired++;
	rp_kernel_late(tr, s, ev->now, sh->ev.expires);
	rp_kernel_late_b(tr, s, ev->now, sh);
}

static void rp_keep(uint64_t *lines, uint64_t n, uint64_t line)
{
	if (n <= RP_LINES_KEPT)
		lines[n - 1] = line;
}

/*
 * An hrtimer_expire_entry's now less its timestamp, into off, if both are
 * ns (not a wall-clock time, not a counter): 1, else 0.
 */
static int rp_ev_offset(const struct tp_event *ev, int64_t *off)
{
	if (ev->type != TP_HRTIMER_EXPIRE || ev->ts_counter ||
	    ev->now >= RP_HR_WALL || ev->ts_ns >= RP_HR_WALL)
		return 0;
	*off = (int64_t)(ev->now - ev->ts_ns);
	return 1;
}

/* The hrtimer ptr runs ahead of the trace's clock by off less hr_off. */
static void rp_boot_mark(struct rp_trace *tr, uint64_t ptr, int64_t off)
{
	struct rp_shadow *sh = rp_shadow(tr, ptr, 1, 1);

	if (!sh) {
		tr->nomem = 1;
		return;
	}
	if (!sh->boot)
		tr->boot_timers++;
	sh->boot = 1;
	if ((uint64_t)(off - tr->hr_off) > tr->boot_ahead)
		tr->boot_ahead = off - tr->hr_off;
}

/*
 * Past the head rp_calibrate() saw (@streamed): an hrtimer found ahead of
 * the trace's clock is set aside from this event on (its events before it
 * were replayed), and the least offset is kept up.
 */
static void rp_boot_check(struct rp_trace *tr, const struct tp_event *ev)
{
	int64_t off;

	if (!rp_ev_offset(ev, &off))
		return;
	if (!tr->has_hr_off || off < tr->hr_off) {
		tr->hr_off = off;
		tr->has_hr_off = 1;
	} else if (off - tr->hr_off > RP_HR_AHEAD) {
		rp_boot_mark(tr, ev->ptr, off);
	}
}

/**
 * rp_line() - take the next line of the trace
 * @tr: the trace, set up by rp_init()
 * @s: the line, without its '\n'
 * @n: its length
 * @eol: it ended with a '\n'; if not (the trace's last line, cut short), it
 *	is malformed whatever it says
 */
void rp_line(struct rp_trace *tr, const char *s, size_t n, int eol)
{
	struct rp_shadow *sh;
	struct tp_event ev;
	enum tp_kind kind;
	const char *why;
	int hr, wrap32;

	tr->lines++;
	if (!tr->at_set)
		tr->at = tr->lines;
	kind = tp_parse_line(s, n, &ev);
	if (!eol && kind != TP_BLANK) {
		kind = TP_MALFORMED;
		ev.why = "truncated: no end of line";
		tr->cut = 1;
	}
	switch (kind) {
	case TP_BLANK:
		tr->blank++;
		tr->overwritten += ev.lost;
		return;
	case TP_LOST:
		tr->lost_lines++;
		tr->lost_events += ev.lost;
		tr->lost_unknown += ev.lost_unknown;
		return;
	case TP_OTHER:
		rp_keep(tr->other_line, ++tr->other, tr->at);
		return;
	case TP_STACK:
		tr->stack++;
		return;
	case TP_MALFORMED:
		if (++tr->malformed <= RP_LINES_KEPT)
			tr->bad_why[tr->malformed - 1] = ev.why;
		rp_keep(tr->bad_line, tr->malformed, tr->at);
		return;
	case TP_EVENT:
		break;
	}
	hr = ev.type >= TP_HRTIMER_START;
	rp_order_note(tr, &ev);
	why = rp_implausible(&tr->st[hr], &ev, &wrap32);
	if (!why)
		why = rp_damaged(tr, &ev);
	if (why) {
		tr->wrap32 += wrap32;
		if (++tr->malformed <= RP_LINES_KEPT)
			tr->bad_why[tr->malformed - 1] = why;
		rp_keep(tr->bad_line, tr->malformed, tr->at);
		return;
	}
	tr->count[ev.type]++;
	tr->forms[ev.form]++;
	if (tr->nomem)
		return;
	if (hr && tr->streamed)
		rp_boot_check(tr, &ev);
	if (hr && tr->boot_timers) {
		sh = rp_shadow(tr, ev.ptr, hr, 0);
		if (sh && sh->boot) {
			tr->st[hr].k.boot++;
			return;
		}
	}
	tr->seq++;
	switch (ev.type) {
	case TP_TIMER_START:
	case TP_HRTIMER_START:
		rp_start(tr, &ev, hr);
		break;
	case TP_TIMER_CANCEL:
	case TP_HRTIMER_CANCEL:
		rp_cancel(tr, &ev, hr);
		break;
	default:
		rp_expire(tr, &ev, hr);
		break;
	}
	tr->cpu_seq[ev.cpu] = tr->seq;
}

/* Each line of buf[0, len) to fn(tr, line, its length, ended by '\n'). */
static void rp_each(struct rp_trace *tr, const char *buf, size_t len,
		    void (*fn)(struct rp_trace *, const char *, size_t, int))
{
	const char *nl;

	while (len) {
		nl = memchr(buf, '\n', len);
		if (!nl) {
			fn(tr, buf, len, 0);
			return;
		}
		fn(tr, buf, nl - buf, 1);
		len -= nl + 1 - buf;
		buf = nl + 1;
	}
}

/* rp_text() - take a whole text buf[0, len), line by line. */
void rp_text(struct rp_trace *tr, const char *buf, size_t len)
{
	rp_each(tr, buf, len, rp_line);
}

/*
 * The line s[0, n) as an event, into ev, if it is a whole one; if it is an
 * hrtimer_expire_entry whose now and timestamp are both ns, that now less
 * that timestamp into off, and 2.
 */
static int rp_hr_offset(const char *s, size_t n, int eol, struct tp_event *ev,
			int64_t *off)
{
	if (!eol || tp_parse_line(s, n, ev) != TP_EVENT)
		return 0;
	return 1 + rp_ev_offset(ev, off);
}

/* The first pass: the least hrtimer offset, and the times that tell HZ. */
static void rp_cal_least(struct rp_trace *tr, const char *s, size_t n, int eol)
{
	struct tp_event ev;
	int64_t off;
	int what = rp_hr_offset(s, n, eol, &ev, &off);

	if (what && rp_hz_time(tr, &ev))
		tr->nomem = 1;
	if (what != 2)
		return;
	if (!tr->has_hr_off || off < tr->hr_off)
		tr->hr_off = off;
	tr->has_hr_off = 1;
}

static void rp_cal_ahead(struct rp_trace *tr, const char *s, size_t n, int eol)
{
	struct tp_event ev;
	int64_t off;

	if (rp_hr_offset(s, n, eol, &ev, &off) == 2 && off - tr->hr_off > RP_HR_AHEAD)
		rp_boot_mark(tr, ev.ptr, off);
}

/**
 * rp_calibrate() - the traced machine's HZ, and the hrtimers on a clock
 *	ahead of the trace's
 * @tr: the trace, before any line of it is taken (@tr->hz.set given)
 * @buf: its whole text, or its head when the rest is to be read as it
 *	comes (then set @tr->streamed before the lines are taken)
 * @len: its length
 *
 * The HZ: the one the timer_list events' jiffies and timestamps tell
 * (replay_hz.c), unless @tr->hz.set overrides it.
 *
 * An hrtimer_expire_entry's now is its base's time; its timestamp the
 * trace clock's, taken just after. For CLOCK_MONOTONIC hrtimers the two
 * differ by a constant, the least difference the trace shows; an hrtimer
 * whose now is more than RP_HR_AHEAD further ahead is on another clock
 * (CLOCK_BOOTTIME, which runs ahead of CLOCK_MONOTONIC by the time spent
 * suspended). Such timers are marked, and their events skipped and
 * counted (@boot), as the wall-clock ones are: a now an hour ahead would
 * otherwise move the stream's clock an hour on. Timestamps that are
 * counters, not seconds, are not compared.
 */
void rp_calibrate(struct rp_trace *tr, const char *buf, size_t len)
{
	rp_each(tr, buf, len, rp_cal_least);
	rp_hz_decide(tr);
	tr->fit.has_ns = tr->has_hr_off;
	tr->fit.ns_off = tr->hr_off;
	if (tr->has_hr_off)
		rp_each(tr, buf, len, rp_cal_ahead);
}

/**
 * rp_finish() - the trace has ended
 * @tr: the trace
 *
 * Undecided cancels stay deletes; timers still pending in the kernel's
 * view are counted pending, or aged out if long past their expiry.
 */
void rp_finish(struct rp_trace *tr)
{
	struct rp_shadow *sh;
	struct rp_stream *s;
	uint32_t i;

	for (s = tr->st; s < tr->st + RP_NR_STREAMS; s++) {
		if (!s->has_clock && s->has_pre) {
			s->first = s->pre;
			s->clock = s->pre;
			s->has_clock = 1;
			rp_first_set(s);
		}
	}
	for (i = 0; i < tr->nsh; i++) {
		sh = &tr->sh[i];
		rp_settle(&tr->st[sh->hr], sh);
		if (!sh->ev.armed)
			continue;
		if (tw_ev_aged(&sh->ev, tr->st[sh->hr].clock, rp_per_s(tr, sh->hr)))
			tr->st[sh->hr].k.aged++;
		else
			tr->st[sh->hr].k.pending++;
	}
}

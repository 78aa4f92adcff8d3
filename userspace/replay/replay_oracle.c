// SPDX-License-Identifier: GPL-2.0
/*
 * The trace as an oracle: each timer_start carries where the kernel filed
 * the timer (idx: level * 64 + slot, and cpu=, its base's CPU; 6.1
 * prints them, 6.8 and later bucket_expiry too) and each
 * timer_expire_entry the clock of the base that ran it (baseclk). Every
 * start is set against the modern engine's placement (its .index op, on
 * an empty wheel whose clock is set to the clock tried): its bucket, and
 * its bucket_expiry where the trace has it ("idx only" where not).
 *
 * The kernel places a timer at its base's clock, not at jiffies. Each
 * start's __mod_timer() (add_timer_on() alike) forwards the base first
 * (forward_timer_base() in kernel/time/timer.c): a clock at or past
 * jiffies stays (a base running its timers has it one past the bucket
 * it runs: a callback re-arming there sees jiffies + 1); one behind
 * moves to jiffies, or to the base's next_expiry if that is not after
 * jiffies (a bucket due and not run yet: the softirq has not run, or the
 * base is idle, as a deferrable one on an idle CPU is). The base is the
 * timer's CPU's (cpu= in the event, the flags' CPU) BASE_LOCAL if pinned,
 * BASE_DEF if deferrable, else BASE_GLOBAL (6.9 and later).
 *
 * So a start is:
 * - agree: modern's bucket (and bucket_expiry) at the event's jiffies
 *   (expires - timeout) are the kernel's;
 * - explained by the base clock: they are at the clock the trace says the
 *   base had: ahead, the base's known clock past jiffies (a
 *   timer_expire_entry on that base set it to baseclk + 1, and no start
 *   has shown it later); behind, a next_expiry not after jiffies the trace
 *   shows the base had: the earliest bucket_expiry queued on it since it
 *   last ran its timers (a delete leaves next_expiry as it was), or the
 *   earliest of its timers the trace holds pending, not before its known
 *   clock;
 * - disagree: neither.
 * What the trace shows of a base: its timers' starts (their cpu= and
 * flags) and expiries (baseclk). Where the form hides the flags
 * (trace-cmd report, perf script: "D|P|I" for every timer) a CPU's three
 * bases are taken as one.
 */
#include <stdlib.h>
#include <string.h>
#include <linux/jiffies.h>
#include "replay_lib.h"
#include "twheel_user.h"

/* The oracle's wheel and bases, at the first start with the fields. */
static int rp_or_setup(struct rp_trace *tr)
{
	struct rp_oracle *o = &tr->oracle;
	struct twheel_config cfg = tw_user_config();

	if (o->wheel)
		return 0;
	/* the kernel's LVL_DEPTH: 9 levels when HZ > 100, else 8 */
	o->depth = tr->hz.hz > 100 ? 9 : 8;
	cfg.depth = o->depth;
	o->base = calloc((size_t)TP_MAX_CPUS * RP_NR_BASE_KINDS, sizeof(*o->base));
	o->wheel = calloc(1, sizeof(*o->wheel));
	if (!o->base || !o->wheel ||
	    tw_user_engine_make(o->wheel, twheel_engine_ops[TWHEEL_MODERN], 0, &cfg)) {
		rp_or_free(o);
		return -ENOMEM;
	}
	return 0;
}

void rp_or_free(struct rp_oracle *o)
{
	size_t i;

	for (i = 0; o->base && i < (size_t)TP_MAX_CPUS * RP_NR_BASE_KINDS; i++)
		free(o->base[i].live);
	if (o->wheel)
		tw_user_engine_free(o->wheel);
	free(o->wheel);
	free(o->base);
	o->wheel = NULL;
	o->base = NULL;
}

/* Modern's bucket for expires with its clock at clk, its expiry into be. */
static unsigned int rp_or_place(struct rp_oracle *o, unsigned long clk,
				unsigned long expires, unsigned long *be)
{
	struct twheel_engine *e = o->wheel->e;

	/* the wheel holds no timer: its clock is all the placement reads */
	e->clk = clk;
	return e->ops->index(e, expires, be);
}

/*
 * Whether modern at clock clk files ev where the kernel did: its bucket,
 * and its bucket_expiry where the trace has it.
 */
static int rp_or_fits(struct rp_oracle *o, unsigned long clk,
		      const struct tp_event *ev)
{
	unsigned long be;

	return rp_or_place(o, clk, ev->expires, &be) == ev->idx &&
	       (!ev->has_be || be == ev->bucket_expiry);
}

/* The base a start's flags select, of its CPU's. */
static unsigned int rp_or_kind(const struct tp_event *ev)
{
	if (!ev->flags_known)
		return RP_BASE_ANY;
	if (ev->deferrable)
		return RP_BASE_DEF;
	return ev->pinned ? RP_BASE_LOCAL : RP_BASE_GLOBAL;
}

/* c is a next_expiry base b may have had at jiffies j. */
static int rp_or_behind_ok(const struct rp_or_base *b, unsigned long c,
			   unsigned long j)
{
	return time_before(c, j) && (!b->has_clk || time_after_eq(c, b->clk));
}

/*
 * Walks base b's list (bi + 1 in or_base): keeps each timer still armed
 * on it once, drops the rest. With j, the earliest bucket_expiry of those
 * before jiffies j and not before b's known clock into c: 1, or 0 if
 * there is none.
 */
static int rp_or_walk(struct rp_trace *tr, uint32_t bi, struct rp_or_base *b,
		      const unsigned long *j, unsigned long *c)
{
	uint64_t walk = ++tr->oracle.walk;
	struct rp_shadow *sh;
	uint32_t i, k = 0;
	int have = 0;

	for (i = 0; i < b->n; i++) {
		sh = &tr->sh[b->live[i]];
		if (sh->or_base != bi || !sh->ev.armed || sh->or_walk == walk)
			continue;
		sh->or_walk = walk;
		b->live[k++] = b->live[i];
		if (!j || !sh->or_be_known || !rp_or_behind_ok(b, sh->or_be, *j))
			continue;
		if (!have || time_before(sh->or_be, *c))
			*c = sh->or_be;
		have = 1;
	}
	b->n = k;
	return have;
}

/*
 * Timer sh is started on base b (bi + 1 in or_base): on its list. -E2BIG
 * if it would pass RP_OR_LIVE_MAX.
 */
static int rp_or_list(struct rp_trace *tr, uint32_t bi, struct rp_or_base *b,
		      struct rp_shadow *sh)
{
	uint32_t *p, cap;

	if (b->n == b->cap)
		rp_or_walk(tr, bi, b, NULL, NULL);
	/* grown when half full after the walk: each entry walked O(1) times */
	if (2 * b->n >= b->cap) {
		if (b->cap >= RP_OR_LIVE_MAX)
			return -E2BIG;
		cap = b->cap ? 2 * b->cap : 16;
		p = realloc(b->live, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		b->live = p;
		b->cap = cap;
	}
	b->live[b->n++] = sh - tr->sh;
	return 0;
}

static void rp_or_keep(struct rp_trace *tr, const struct tp_event *ev,
		       unsigned long j)
{
	struct rp_oracle *o = &tr->oracle;
	struct rp_or_miss *m;

	if (o->n[RP_OR_DISAGREE] > RP_OR_KEPT)
		return;
	m = &o->miss[o->n[RP_OR_DISAGREE] - 1];
	m->line = tr->at;
	m->ts_ns = ev->ts_ns;
	m->ptr = ev->ptr;
	m->expires = ev->expires;
	m->jiffies = j;
	m->be = ev->bucket_expiry;
	m->has_be = ev->has_be;
	m->idx = ev->idx;
	m->ours = rp_or_place(o, j, ev->expires, &m->ours_be);
}

/*
 * Start ev's class, with the clock of base b (index bi) it was filed at
 * into c (the event's jiffies j where it disagrees).
 */
static enum rp_or_class rp_or_class(struct rp_trace *tr, uint32_t bi,
				    struct rp_or_base *b,
				    const struct tp_event *ev, unsigned long j,
				    unsigned long *c)
{
	struct rp_oracle *o = &tr->oracle;
	unsigned long next;

	*c = j;
	if (rp_or_fits(o, j, ev))
		return RP_OR_AGREE;
	/* a clock past jiffies stays: the base runs its timers */
	if (b->has_clk && time_after(b->clk, j) && rp_or_fits(o, b->clk, ev)) {
		*c = b->clk;
		return RP_OR_AHEAD;
	}
	/* forwarded to a next_expiry not after jiffies */
	if (b->has_next && rp_or_behind_ok(b, b->next, j) &&
	    rp_or_fits(o, b->next, ev)) {
		*c = b->next;
		return RP_OR_BEHIND;
	}
	if (rp_or_walk(tr, bi + 1, b, &j, &next) && rp_or_fits(o, next, ev)) {
		*c = next;
		return RP_OR_BEHIND;
	}
	return RP_OR_DISAGREE;
}

/**
 * rp_or_start() - a timer_start: the kernel's placement against modern's
 * @tr: the trace
 * @sh: the started timer's shadow
 * @ev: the start
 *
 * Classifies the start (agree, explained by the base clock ahead of or
 * behind jiffies, disagree: see the top of this file), keeps the first
 * disagreements, and notes what the start shows of its base: its clock
 * (the one the start was placed at, where no earlier clock gives the
 * same placement: the least it can be), its next_expiry, the timer on
 * it. A start without idx= and cpu= (or a cpu= past TP_MAX_CPUS) or
 * without its jiffies ([timeout=]) is counted unchecked.
 */
void rp_or_start(struct rp_trace *tr, struct rp_shadow *sh,
		 const struct tp_event *ev)
{
	struct rp_oracle *o = &tr->oracle;
	enum rp_or_class cl;
	struct rp_or_base *b;
	unsigned long j, c;
	uint32_t bi;

	sh->or_base = 0;
	if (!ev->has_idx || !ev->has_tcpu || !ev->has_timeout || o->full) {
		o->unchecked++;
		return;
	}
	if (rp_or_setup(tr)) {
		tr->nomem = 1;
		return;
	}
	j = ev->expires - ev->timeout;
	bi = ev->tcpu * RP_NR_BASE_KINDS + rp_or_kind(ev);
	b = &o->base[bi];
	cl = rp_or_class(tr, bi, b, ev, j, &c);
	o->starts++;
	o->idx_only += !ev->has_be;
	o->n[cl]++;
	if (cl == RP_OR_AHEAD && c - j > o->ahead_max)
		o->ahead_max = c - j;
	if (cl == RP_OR_BEHIND) {
		if (j - c > o->behind_max)
			o->behind_max = j - c;
		o->behind_def += ev->deferrable;
	}
	if (cl == RP_OR_DISAGREE)
		rp_or_keep(tr, ev, j);
	/* the least the clock can be: an earlier one would file it elsewhere */
	else if (!rp_or_fits(o, c - 1, ev) &&
		 (!b->has_clk || time_after(c, b->clk))) {
		b->clk = c;
		b->has_clk = 1;
	}
	/* before 6.8 the bucket's expiry is modern's where it agrees */
	sh->or_be = ev->bucket_expiry;
	if (!ev->has_be && cl != RP_OR_DISAGREE)
		rp_or_place(o, c, ev->expires, &sh->or_be);
	sh->or_be_known = ev->has_be || cl != RP_OR_DISAGREE;
	if (sh->or_be_known && (!b->has_next || time_before(sh->or_be, b->next))) {
		b->next = sh->or_be;
		b->has_next = 1;
	}
	sh->or_base = bi + 1;
	switch (rp_or_list(tr, bi + 1, b, sh)) {
	case 0:
		break;
	case -E2BIG:
		o->full = 1;
		break;
	default:
		tr->nomem = 1;
	}
}

/**
 * rp_or_expire() - a timer_expire_entry: its base's clock
 * @tr: the trace
 * @sh: the expired timer's shadow, NULL if the trace has no start of it
 * @ev: the expiry
 *
 * The base the timer's last start queued it on runs its timers with its
 * clock at baseclk + 1. Where that is a clock step past its latest run,
 * it has just worked out its next_expiry anew (__run_timers() does at
 * each step, before the callbacks): the starts before are forgotten
 * there; a second expiry at the same step keeps what the callbacks
 * between queued.
 */
void rp_or_expire(struct rp_trace *tr, const struct rp_shadow *sh,
		  const struct tp_event *ev)
{
	struct rp_or_base *b;
	unsigned long c = ev->baseclk + 1;

	if (!sh || !sh->or_base || !ev->has_baseclk || !tr->oracle.base)
		return;
	b = &tr->oracle.base[sh->or_base - 1];
	if (!b->has_clk || time_after(c, b->clk))
		b->clk = c;
	b->has_clk = 1;
	if (!b->has_run || time_after(c, b->run)) {
		b->run = c;
		b->has_run = 1;
		b->has_next = 0;
	}
}

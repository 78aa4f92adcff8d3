// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's ops on one engine (fuzz_lib.h): each calls the engine, checks
 * what it returned, and moves the engine's model (struct fz_slot) to what
 * the specification says it must have done: when every timer is due (its
 * jiffy, or what a late engine's model says), what is refused (the
 * model's), collected and run; twheel_run_until() checked from its fn at
 * each jiffy with work, and a range mod's pick against the model's rule.
 * Called by fuzz.c; calls down into fuzz_check.c (the engine after a
 * step, next_event) and into the engine's model through fe->model, never
 * up.
 */
#include "fuzz_lib.h"

/*
 * Timer i armed for expires: due at that jiffy (the clock, if past), or
 * where a late engine's model says.
 */
static void fz_arm(struct fz_engine *fe, unsigned int i, unsigned long expires)
{
	struct fz_slot *s = &fe->s[i];
	unsigned long clk = fe->e->clk;

	s->state = FZ_ARMED;
	s->expires = expires;
	s->seq = fe->ctx->op;
	s->hit = false;
	s->clamped = false;
	s->fire = time_after(expires, clk) ? expires : clk;
	if (fe->model->arm)
		fe->model->arm(fe, s);
}

/* Whether arming timer i for expires is refused, as the model says. */
static bool fz_refuses(const struct fz_engine *fe, unsigned int i,
		       unsigned long expires)
{
	return fe->model->refuses && fe->model->refuses(fe, i, expires);
}

void fz_add(struct fz_engine *fe, unsigned int i, unsigned long expires)
{
	u64 refused = fe->e->st.refused;
	bool refuse = fe->s[i].state == FZ_IDLE && fz_refuses(fe, i, expires);
	int ret = fz_via_ops(fe) ? twheel_ops_add(fe->e, &fe->t[i], expires) :
				 twheel_add(fe->e, &fe->t[i], expires);

	if (fe->s[i].state != FZ_IDLE) {
		FZ_CHECK(fe, ret == -EBUSY, "add of pending timer %u: %d", i, ret);
		return;
	}
	if (refuse) {
		FZ_CHECK(fe, ret == fe->model->refuse_err &&
			 fe->e->st.refused == refused + 1,
			 "add of timer %u, delta %lu: %d", i, expires - fe->e->clk, ret);
		return;
	}
	FZ_CHECK(fe, ret == 0, "add of timer %u: %d", i, ret);
	fz_arm(fe, i, expires);
}

bool fz_del(struct fz_engine *fe, unsigned int i)
{
	bool ret = fz_via_ops(fe) ? twheel_ops_del(fe->e, &fe->t[i]) :
				  twheel_del(fe->e, &fe->t[i]);

	FZ_CHECK(fe, ret == (fe->s[i].state != FZ_IDLE),
		 "del of timer %u in state %d returned %d", i, fe->s[i].state,
		 ret);
	fe->s[i].state = FZ_IDLE;
	return ret;
}

/*
 * Timer i moves from one engine to another of its kind, as a per-CPU
 * instance's timer re-armed from another CPU does (the runner's move op,
 * then its re-arm): twheel_detach() lets go of it in from, whatever from
 * still knows of it (armed, collected and not popped, or cancelled and
 * still linked), and from is checked whole without it (a stray there if
 * from still links it); then it is set up for to and armed there for
 * expires, pending before or not, as by twheel_mod() of a timer not
 * pending (refused by to's model's rule). The reference, which holds
 * every timer, moves it within itself (from is to). Returns what
 * twheel_detach() did: true iff the model had it pending.
 */
bool fz_move(struct fz_engine *from, struct fz_engine *to, unsigned int i,
	     unsigned long expires)
{
	struct fz_ctx *ctx = from->ctx;
	const struct twheel_stats *st = &from->e->st;
	u64 deleted = st->deleted, lazy = st->lazy_held;
	enum fz_state was = from->s[i].state;
	bool ret = twheel_detach(from->e, &from->t[i]);

	FZ_CHECK(from, ret == (was != FZ_IDLE),
		 "detach of timer %u in state %d returned %d", i, was, ret);
	FZ_CHECK(from, st->deleted == deleted + ret && !twheel_pending(from->e, &from->t[i]),
		 "detach of timer %u in state %d: deleted %llu, was %llu", i,
		 was, st->deleted, deleted);
	from->s[i].state = FZ_IDLE;
	FZ_TRACE(ctx, "  %s: detach %u (state %d)%s\n", from->name, i,
		 was, st->lazy_held < lazy ? ", reclaimed" : "");
	if (from != to) {
		ctx->moved[was]++;
		ctx->reclaimed += st->lazy_held < lazy;
		ctx->home[i] = to->inst;
	}
	fz_check_engine(from, true);
	twheel_timer_setup(to->e, &to->t[i], NULL);
	fz_mod(to, i, expires);
	ctx->rearm_refused += from != to && to->s[i].state == FZ_IDLE;
	return ret;
}

/*
 * A mod to expires: by twheel_mod() (or its ops), or if ranged by
 * twheel_mod_range(e, t, lo, hi), whose pick expires is.
 */
static bool fz_mod_to(struct fz_engine *fe, unsigned int i,
		      unsigned long expires, bool ranged, unsigned long lo,
		      unsigned long hi)
{
	struct fz_slot *s = &fe->s[i];
	bool was = s->state != FZ_IDLE;
	bool refuse = (!was || s->expires != expires) && fz_refuses(fe, i, expires);
	u64 refused = fe->e->st.refused;
	bool ret = ranged ? twheel_mod_range(fe->e, &fe->t[i], lo, hi) :
		   fz_via_ops(fe) ? twheel_ops_mod(fe->e, &fe->t[i], expires) :
				  twheel_mod(fe->e, &fe->t[i], expires);

	FZ_CHECK(fe, ret == was, "mod of timer %u in state %d returned %d",
		 i, s->state, ret);
	FZ_CHECK(fe, fe->e->st.refused == refused + refuse,
		 "mod of timer %u, delta %lu: refused %llu, was %llu", i,
		 expires - fe->e->clk, fe->e->st.refused, refused);
	if (refuse) {
		/* disarmed, or left unarmed: it never runs for either expiry */
		s->state = FZ_IDLE;
		return ret;
	}
	/* As mod_timer(): the same expiry leaves a pending timer alone. */
	if (!was || s->expires != expires)
		fz_arm(fe, i, expires);
	return ret;
}

bool fz_mod(struct fz_engine *fe, unsigned int i, unsigned long expires)
{
	return fz_mod_to(fe, i, expires, false, 0, 0);
}

/*
 * twheel_mod_range(): a pending timer already in [lo, hi] stays as it is
 * (as a mod to its own expiry), anything else is a mod to the pick x of
 * the wheel under test. The reference (follow) takes the same x by a plain
 * mod, so that both keep the same expiries.
 */
bool fz_mod_range(struct fz_engine *fe, unsigned int i, unsigned long lo,
		  unsigned long hi, unsigned long x, bool follow)
{
	struct fz_slot *s = &fe->s[i];
	bool was = s->state != FZ_IDLE;
	unsigned long keep = fe->t[i].expires;
	bool ret;

	if (!was || keep - lo > hi - lo)
		return fz_mod_to(fe, i, x, !follow, lo, hi);
	ret = twheel_mod_range(fe->e, &fe->t[i], lo, hi);
	FZ_CHECK(fe, ret, "mod_range of pending timer %u returned false", i);
	FZ_CHECK(fe, fe->t[i].expires == keep,
		 "mod_range [%lu, %lu] moved timer %u from %lu", lo, hi, i, keep);
	return ret;
}

/* Pops every collected timer: exactly the ones the model has collected. */
void fz_drain(struct fz_engine *fe)
{
	struct twheel_timer *t;
	unsigned int i, want = 0;

	for (i = 0; i < FZ_POOL; i++)
		want += fe->s[i].state == FZ_COLLECTED;
	while ((t = fz_via_ops(fe) ? twheel_ops_pop(fe->e) : twheel_pop(fe->e))) {
		i = fz_index(fe, t);
		FZ_CHECK(fe, i < FZ_POOL, "pop returned %p, not a timer", t);
		FZ_CHECK(fe, fe->s[i].state == FZ_COLLECTED,
			 "popped timer %u in state %d (fire %lu)", i,
			 fe->s[i].state, fe->s[i].fire);
		FZ_CHECK(fe, !twheel_pending(fe->e, t), "popped %u pending", i);
		fe->s[i].state = FZ_IDLE;
		FZ_CHECK(fe, want--, "popped more than collected");
	}
	FZ_CHECK(fe, !want, "%u collected timers not popped", want);
}

/*
 * The model's side of a collection at now: every armed timer due by then
 * is collected (exact: due exactly then). Returns how many.
 */
static unsigned long fz_collect_due(struct fz_engine *fe, unsigned long now,
				    bool exact)
{
	unsigned long want = 0;
	struct fz_slot *s;
	unsigned int i;

	for (i = 0; i < FZ_POOL; i++) {
		s = &fe->s[i];
		if (s->state != FZ_ARMED || time_after(s->fire, now))
			continue;
		FZ_CHECK(fe, !exact || s->fire == now,
			 "timer %u due at %lu (expires %lu) collected at %lu",
			 i, s->fire, s->expires, now);
		s->state = FZ_COLLECTED;
		s->hit = true;
		s->hit_exact = exact;
		s->hit_at = now;
		want++;
	}
	return want;
}

/* twheel_advance(e, now) returned n: who is due, and exactly when. */
static void fz_advanced(struct fz_engine *fe, unsigned long now,
			unsigned long n, bool exact)
{
	unsigned long want;

	FZ_CHECK(fe, fe->e->clk == now + 1, "advance to %lu left clk at %lu",
		 now, fe->e->clk);
	want = fz_collect_due(fe, now, exact);
	FZ_CHECK(fe, n == !!want, "advance to %lu returned %lu, want %d",
		 now, n, !!want);
	if (n)
		FZ_TRACE(fe->ctx, "  %s: %lu collected by %lu%s\n", fe->name,
			 want, now, exact ? " (exactly)" : "");
	fz_check_engine(fe, false);
}

/* A twheel_run_until() in progress, as its fn sees it. */
struct fz_run {
	struct fz_engine *fe;
	unsigned long until;
	bool started;		/* fn has been called */
	unsigned long jiffy;	/* the jiffy of the last call */
	unsigned long left;	/* collected there, not handed out yet */
};

/* twheel_next_event() from the clock up to until, against the model. */
static void fz_run_check_next(struct fz_run *run)
{
	struct twheel_engine *e = run->fe->e;
	unsigned long limit;

	if (time_after(e->clk, run->until))
		return;
	limit = run->until - e->clk + 1;
	fz_check_next(run->fe, limit, twheel_next_event(e, limit));
}

/*
 * The first timer handed out at a jiffy: the engine collected everything
 * due there, exactly there, and nothing the jiffies since the last one
 * left behind; the one timer already popped is not collected any more.
 */
static void fz_run_jiffy(struct fz_run *run, unsigned long jiffy)
{
	struct fz_engine *fe = run->fe;

	FZ_CHECK(fe, !run->left, "%lu timers collected at %lu never handed out",
		 run->left, run->jiffy);
	FZ_CHECK(fe, !run->started || time_after(jiffy, run->jiffy),
		 "run at %lu after a run at %lu", jiffy, run->jiffy);
	FZ_CHECK(fe, !time_after(jiffy, run->until), "run at %lu, until %lu",
		 jiffy, run->until);
	FZ_CHECK(fe, fe->e->clk == jiffy + 1, "run at %lu with clk at %lu",
		 jiffy, fe->e->clk);
	run->started = true;
	run->jiffy = jiffy;
	run->left += fz_collect_due(fe, jiffy, true);
	FZ_TRACE(fe->ctx, "  %s: %lu collected at %lu\n", fe->name, run->left,
		 jiffy);
}

/* twheel_run_until()'s fn: one timer, popped, at the jiffy it fell due. */
static void fz_run_fn(struct twheel_timer *t, unsigned long jiffy, void *arg)
{
	struct fz_run *run = arg;
	struct fz_engine *fe = run->fe;
	bool first = !run->started || jiffy != run->jiffy;
	unsigned int i = fz_index(fe, t);

	if (first)
		fz_run_jiffy(run, jiffy);
	FZ_CHECK(fe, i < FZ_POOL, "run of %p, not a timer", t);
	FZ_CHECK(fe, fe->s[i].state == FZ_COLLECTED,
		 "timer %u run at %lu in state %d (fire %lu)", i, jiffy,
		 fe->s[i].state, fe->s[i].fire);
	FZ_CHECK(fe, !twheel_pending(fe->e, t), "timer %u run while pending", i);
	FZ_CHECK(fe, run->left, "more runs than timers collected at %lu", jiffy);
	fe->s[i].state = FZ_IDLE;
	run->left--;
	if (!first)
		return;
	/* What the loop checks between two jiffies with work. */
	fz_check_engine(fe, false);
	fz_run_check_next(run);
}

/* twheel_run_until(), every step checked from its fn. */
void fz_run_until(struct fz_engine *fe, unsigned long until)
{
	struct fz_run run = { .fe = fe, .until = until };
	unsigned long n, want = 0;
	struct fz_slot *s;
	unsigned int i;

	/* Its callers have run what an earlier advance collected. */
	fz_drain(fe);
	for (i = 0; i < FZ_POOL; i++) {
		s = &fe->s[i];
		want += s->state == FZ_ARMED && !time_before(until, fe->e->clk) &&
			!time_after(s->fire, until);
	}
	fz_run_check_next(&run);
	n = twheel_run_until(fe->e, until, fz_run_fn, &run);
	FZ_CHECK(fe, !run.left, "%lu timers collected at %lu never handed out",
		 run.left, run.jiffy);
	FZ_CHECK(fe, n == want, "run until %lu ran %lu timers, want %lu",
		 until, n, want);
	if (time_before(until, fe->ctx->clk)) {
		FZ_CHECK(fe, !n && fe->e->clk == fe->ctx->clk,
			 "run into the past moved the engine");
		return;
	}
	FZ_CHECK(fe, fe->e->clk == until + 1, "run until %lu left clk at %lu",
		 until, fe->e->clk);
	/* Nothing due is left behind, collected or not. */
	fz_advanced(fe, until, 0, false);
	fz_drain(fe);
}

void fz_jump(struct fz_engine *fe, unsigned long now, bool drain)
{
	unsigned long n = twheel_advance(fe->e, now);

	if (time_before(now, fe->ctx->clk)) {
		FZ_CHECK(fe, !n && fe->e->clk == fe->ctx->clk,
			 "advance into the past moved the engine");
		return;
	}
	fz_advanced(fe, now, n, false);
	if (drain)
		fz_drain(fe);
}

void fz_jiffies(struct fz_engine *fe, unsigned int count)
{
	unsigned long now;

	while (count--) {
		now = fe->e->clk;
		fz_advanced(fe, now, fz_via_ops(fe) ? twheel_ops_advance(fe->e, now) :
				     twheel_advance(fe->e, now), true);
		fz_drain(fe);
	}
}

/*
 * The wheel's pick for [lo, hi] (twheel_range_expiry()), checked: in the
 * range, and by its model's rule (else hi, if it has no rule of its own).
 */
unsigned long fz_pick(struct fz_engine *fe, unsigned long lo, unsigned long hi)
{
	unsigned long x = twheel_range_expiry(fe->e, lo, hi);

	FZ_CHECK(fe, x - lo <= hi - lo, "pick %lu outside [%lu, %lu]", x, lo, hi);
	if (fe->model->pick)
		fe->model->pick(fe, lo, hi, x);
	else if (!fe->e->ops->range_pick)
		FZ_CHECK(fe, x == hi, "pick %lu for [%lu, %lu], want hi", x, lo, hi);
	return x;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's checks of an engine (fuzz_lib.h), after every op: each timer
 * against the model (pending, collected, expiry; the counters and
 * twheel_count() against the model's armed and collected timers), with
 * full the engine's own structure (its model's check: lists and hlists
 * well linked, each timer in the bucket or slot it must be in, bitmaps as
 * the buckets are, per-level counts, ...), and next_event against the
 * model. Called by fuzz.c and fuzz_ops.c; calls down into the engine's
 * model (fe->model) and fuzz_model.c only.
 */
#include "fuzz_lib.h"

/* Smallest distance from clk to a timer's jiffy, at most limit. */
static unsigned long fz_next(const struct fz_engine *fe, unsigned long limit)
{
	unsigned int i;

	for (i = 0; i < FZ_POOL; i++)
		if (fe->s[i].state == FZ_ARMED)
			limit = min(limit, fe->s[i].fire - fe->e->clk);
	return limit;
}

/*
 * next_event: never after the model's next due jiffy; exactly it if the
 * model says so (an engine may stop early for work of its own: a cascade,
 * a promotion, a slot whose timers only wait a round).
 */
void fz_check_next(struct fz_engine *fe, unsigned long limit, unsigned long d)
{
	unsigned long want = fz_next(fe, limit);

	if (!fe->model->next_exact)
		FZ_CHECK(fe, d <= want, "next_event(%lu) = %lu, a timer is due in %lu",
			 limit, d, want);
	else
		FZ_CHECK(fe, d == want, "next_event(%lu) = %lu, want %lu",
			 limit, d, want);
}

/*
 * Every timer it holds against the model (one that lives in another
 * instance is idle in it); with full, the whole structure too.
 */
void fz_check_engine(struct fz_engine *fe, bool full)
{
	const struct twheel_stats *st = &fe->e->st;
	unsigned long armed = 0, due = 0, in_levels = 0, n, pending;
	unsigned long per[TWHEEL_MAX_LEVELS];
	const struct twheel_timer *t;
	const struct fz_slot *s;
	unsigned int i;

	for (i = 0; i < FZ_POOL; i++) {
		s = &fe->s[i];
		t = &fe->t[i];
		if (!fz_holds(fe, i)) {
			FZ_CHECK(fe, s->state == FZ_IDLE,
				 "timer %u lives in instance %u, model state %d",
				 i, fe->ctx->home[i], s->state);
			continue;
		}
		FZ_CHECK(fe, twheel_pending(fe->e, t) == (s->state != FZ_IDLE),
			 "timer %u pending %d, model state %d (fire %lu)", i,
			 twheel_pending(fe->e, t), s->state, s->fire);
		if (fe->model->collected)
			FZ_CHECK(fe, fz_collected(fe, t) == (s->state == FZ_COLLECTED),
				 "timer %u collected %d, model state %d (fire %lu)", i,
				 fz_collected(fe, t), s->state, s->fire);
		if (s->state != FZ_IDLE)
			FZ_CHECK(fe, t->expires == s->expires,
				 "timer %u expires %lu, want %lu", i, t->expires,
				 s->expires);
		if (fe->model->timer)
			fe->model->timer(fe, i);
		armed += s->state == FZ_ARMED;
		due += s->state == FZ_COLLECTED;
	}
	pending = twheel_stats_pending(st);
	FZ_CHECK(fe, pending == armed + due,
		 "added %llu expired %llu deleted %llu: pending %lu, want %lu + %lu",
		 st->added, st->expired, st->deleted, pending, armed, due);
	FZ_CHECK(fe, twheel_count(fe->e, per) == pending,
		 "twheel_count %lu, pending %lu", twheel_count(fe->e, NULL),
		 pending);
	for (i = 0; i < TWHEEL_MAX_LEVELS; i++)
		in_levels += per[i];
	FZ_CHECK(fe, in_levels == armed, "in the levels %lu, armed %lu",
		 in_levels, armed);
	if (!full)
		return;

	if (fe->model->check)
		fe->model->check(fe, armed, due);
	n = 1 + fe->ctx->op % 600;
	fz_check_next(fe, n, twheel_next_event(fe->e, n));
	fz_check_next(fe, LONG_MAX, twheel_next_event(fe->e, LONG_MAX));
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The operations for a caller that knows the engine's kind at compile time
 * (a benchmark's loop, a runner specialised by kind, each engine's run):
 * twheel_add_as() and the others, a switch on the kind each, its cases
 * made from the registry (engines/list.h). With a constant kind the switch
 * folds away: an engine with fast paths gets its inlined code alone, any
 * other its twheel_ops_ function; TWHEEL_NR_KINDS gets twheel_add() and
 * the others (one indirect call). TW_IF_FAST() (engines/entry.h) keeps
 * the cases of the engines with fast paths. The kind must be e->kind,
 * TWHEEL_NR_KINDS, or TWHEEL_OPS_COMPOSED for an engine without fast
 * paths.
 *
 * Includes the headers of the engines with fast paths (FAST in the list)
 * through gen/fast_engines.h, which the build makes from the list (Kbuild,
 * userspace/Makefile): an engine is its files and its line in the list.
 */
#ifndef TWHEEL_ENGINES_REGISTRY_H
#define TWHEEL_ENGINES_REGISTRY_H

#include <linux/jiffies.h>
#include "twheel.h"
#include "engines/entry.h"
#include "gen/fast_engines.h"

/*
 * For the kind of twheel_add_as() and the others: not a kind, but any
 * engine without fast paths (SLOW), whose operations are all the same
 * twheel_ops_ functions, called directly. twheel_ops_run() is
 * twheel_run_as() with it.
 */
#define TWHEEL_OPS_COMPOSED	(TWHEEL_NR_KINDS + 1)

/*
 * The kind-known operations: one switch on the kind each, with a case for
 * every engine with fast paths, which calls its inlined tw_<name>_add() or
 * the like (engines/<name>.h); TWHEEL_NR_KINDS calls twheel_add() and the
 * others (one indirect call), any other kind the composed twheel_ops_
 * function. With a constant kind the switch folds to the one call.
 * TW_IF_FAST() (engines/entry.h) keeps the cases of the engines with fast
 * paths and drops the others.
 */

/**
 * twheel_pending_as() - twheel_pending() for an engine of a known kind
 * @e: the engine
 * @kind: @e->kind, as a constant where the caller knows it
 * @t: a timer set up for @e with twheel_timer_setup()
 *
 * Return: as twheel_ops_pending().
 */
static __always_inline bool twheel_pending_as(const struct twheel_engine *e,
					      enum twheel_kind kind,
					      const struct twheel_timer *t)
{
	switch (kind) {
#define TWHEEL_ENGINE(name, NAME, path, ...)				\
	TW_IF_FAST(path, case TWHEEL_##NAME: return tw_##name##_pending(t);)
#include "engines/list.h"
#undef TWHEEL_ENGINE
	default:
		return twheel_pending(e, t);
	}
}

/**
 * twheel_add_as() - twheel_add() for an engine of a known kind
 * @e: the engine
 * @kind: @e->kind, as a constant where the caller knows it
 * @t: the timer, set up for @e
 * @expires: the absolute jiffy it is to run at
 *
 * Return: as twheel_ops_add().
 */
static __always_inline int twheel_add_as(struct twheel_engine *e,
					 enum twheel_kind kind,
					 struct twheel_timer *t,
					 unsigned long expires)
{
	switch (kind) {
#define TWHEEL_ENGINE(name, NAME, path, ...)				\
	TW_IF_FAST(path, case TWHEEL_##NAME: return tw_##name##_add(e, t, expires);)
#include "engines/list.h"
#undef TWHEEL_ENGINE
	case TWHEEL_NR_KINDS:
		return twheel_add(e, t, expires);
	default:
		return twheel_ops_add(e, t, expires);
	}
}

/**
 * twheel_del_as() - twheel_del() for an engine of a known kind
 * @e: the engine
 * @kind: @e->kind, as a constant where the caller knows it
 * @t: the timer, set up for @e
 *
 * Return: as twheel_ops_del().
 */
static __always_inline bool twheel_del_as(struct twheel_engine *e,
					  enum twheel_kind kind,
					  struct twheel_timer *t)
{
	switch (kind) {
#define TWHEEL_ENGINE(name, NAME, path, ...)				\
	TW_IF_FAST(path, case TWHEEL_##NAME: return tw_##name##_del(e, t);)
#include "engines/list.h"
#undef TWHEEL_ENGINE
	case TWHEEL_NR_KINDS:
		return twheel_del(e, t);
	default:
		return twheel_ops_del(e, t);
	}
}

/**
 * twheel_mod_as() - twheel_mod() for an engine of a known kind
 * @e: the engine
 * @kind: @e->kind, as a constant where the caller knows it
 * @t: the timer, set up for @e
 * @expires: the absolute jiffy it is to run at
 *
 * Return: as twheel_ops_mod().
 */
static __always_inline bool twheel_mod_as(struct twheel_engine *e,
					  enum twheel_kind kind,
					  struct twheel_timer *t,
					  unsigned long expires)
{
	switch (kind) {
#define TWHEEL_ENGINE(name, NAME, path, ...)				\
	TW_IF_FAST(path, case TWHEEL_##NAME: return tw_##name##_mod(e, t, expires);)
#include "engines/list.h"
#undef TWHEEL_ENGINE
	case TWHEEL_NR_KINDS:
		return twheel_mod(e, t, expires);
	default:
		return twheel_ops_mod(e, t, expires);
	}
}

/**
 * twheel_pop_as() - twheel_pop() for an engine of a known kind
 * @e: the engine
 * @kind: @e->kind, as a constant where the caller knows it
 *
 * Return: as twheel_ops_pop().
 */
static __always_inline struct twheel_timer *
twheel_pop_as(struct twheel_engine *e, enum twheel_kind kind)
{
	switch (kind) {
#define TWHEEL_ENGINE(name, NAME, path, ...)				\
	TW_IF_FAST(path, case TWHEEL_##NAME: return tw_##name##_pop(e);)
#include "engines/list.h"
#undef TWHEEL_ENGINE
	case TWHEEL_NR_KINDS:
		return twheel_pop(e);
	default:
		return twheel_ops_pop(e);
	}
}

/**
 * twheel_advance_as() - twheel_advance() for an engine of a known kind
 * @e: the engine
 * @kind: @e->kind, as a constant where the caller knows it
 * @now: the last jiffy to process
 *
 * One jiffy, the clock's own, is the common case (a tick): the engines with
 * fast paths do it inline and leave it after a bit test when it has no
 * work. Longer spans go through twheel_ops_advance().
 *
 * Return: as twheel_ops_advance().
 */
static __always_inline bool twheel_advance_as(struct twheel_engine *e,
					      enum twheel_kind kind,
					      unsigned long now)
{
	switch (kind) {
#define TWHEEL_ENGINE(name, NAME, path, ...)				\
	TW_IF_FAST(path, case TWHEEL_##NAME:				\
		if (now != e->clk)					\
			return twheel_ops_advance(e, now);		\
		e->st.advances++;					\
		e->st.jiffies++;					\
		return tw_##name##_step(e);)
#include "engines/list.h"
#undef TWHEEL_ENGINE
	case TWHEEL_NR_KINDS:
		return twheel_advance(e, now);
	default:
		return twheel_ops_advance(e, now);
	}
}

/* Pops and runs what is collected while the budget lasts; false once out. */
static __always_inline bool tw_run_collected_as(struct twheel_engine *e,
						enum twheel_kind kind,
						unsigned long jiffy,
						twheel_run_fn fn, void *arg,
						struct twheel_run *run,
						unsigned long *n)
{
	struct twheel_timer *t;

	while (!run || !run->budget || run->used < run->budget) {
		t = twheel_pop_as(e, kind);
		if (!t)
			return true;
		fn(t, jiffy, arg);
		(*n)++;
		if (run)
			run->used++;
	}
	run->stopped = true;
	return false;
}

/**
 * twheel_run_as() - twheel_run() for an engine of a known kind
 * @e: the engine
 * @kind: @e->kind, as a constant where the caller knows it
 * @now: the last jiffy to process
 * @fn: called once for each timer that falls due, in the engine's order
 * @arg: passed to @fn
 * @run: the budget and what the run did; NULL: no budget
 *
 * The run itself, as twheel_ops_run() describes it: each engine's run
 * (engines/run.c), which twheel_run() calls, is this with the engine's
 * kind; a caller that knows the kind (a runner's tick copied per kind) gets
 * the engine's own advance and pop inline, and @fn too where it is a
 * constant. With TWHEEL_NR_KINDS it is twheel_run().
 *
 * Return: the number of timers handed to @fn.
 */
static __always_inline unsigned long
twheel_run_as(struct twheel_engine *e, enum twheel_kind kind,
	      unsigned long now, twheel_run_fn fn, void *arg,
	      struct twheel_run *run)
{
	unsigned long span, d, jiffy, n = 0;
	u64 cascaded;
	bool more;

	if (kind == TWHEEL_NR_KINDS)
		return twheel_run(e, now, fn, arg, run);
	if (!run && e->clk == now) {
		/* a tick with no budget: the loop's one turn, and no more */
		twheel_advance_as(e, kind, now);
		tw_run_collected_as(e, kind, now, fn, arg, NULL, &n);
		return n;
	}
	if (run) {
		/* what an earlier run's budget left collected goes first */
		run->stopped = false;
		more = tw_run_collected_as(e, kind, now, fn, arg, run, &n);
		run->leftover = n;
		if (!more)
			return n;
	}
	while (!time_after(e->clk, now)) {
		if (e->clk == now) {	/* one jiffy left: no look-up */
			jiffy = now;
		} else {
			span = now - e->clk;
			d = twheel_next_event(e, span + 1);
			if (d > span) {
				twheel_advance_as(e, kind, now);
				break;
			}
			jiffy = e->clk + d;
		}
		cascaded = e->st.cascaded;
		twheel_advance_as(e, kind, jiffy);
		if (run)
			run->used += e->st.cascaded - cascaded;
		if (!tw_run_collected_as(e, kind, jiffy, fn, arg, run, &n))
			break;
	}
	return n;
}

#endif /* TWHEEL_ENGINES_REGISTRY_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * twheel: running what falls due, for any engine. twheel_run() makes one
 * indirect call, to the run in the engine's entry (twheel_entry.run): each
 * is twheel_run_as() (engines/registry.h) with a constant kind, so that
 * the advance and pop in it are direct calls, or inline. An engine with
 * fast paths has its own, tw_<name>_run(), made here from the registry
 * with its advance, tw_<name>_advance(); the others, whose advance and pop
 * are the same composed operations, share twheel_ops_run().
 */
#include "engines/registry.h"

/**
 * twheel_ops_run() - run the timers due up to and including @now, on a budget
 * @e: the engine
 * @now: the last jiffy to process
 * @fn: called once for each timer that falls due, in the engine's order
 * @arg: passed to @fn
 * @run: the budget and what the run did; NULL: no budget, as
 *	twheel_run_until()
 *
 * With @run, first hands to @fn the timers an earlier run's budget left
 * collected (their jiffy is @now: the one they really run in). Then it
 * advances @e one jiffy
 * with work at a time (twheel_next_event() finds the next one, so idle
 * stretches cost one look-up) and hands every timer collected there to @fn
 * before going further, so each callback knows the jiffy it belongs to and
 * may re-arm itself or delete others.
 *
 * The budget counts units of work: a callback is one, a timer moved by a
 * cascade one (a cascade is never split: it is charged whole, and may go
 * past the budget); looking at a jiffy, with or without work, is free. Once
 * @run->used reaches @run->budget (if not 0) the run stops where it is:
 * timers left collected run first in the next run, in their order, and the
 * clock may stay short of @now + 1 (the next run goes on from it). Nothing
 * is lost and nothing runs early.
 *
 * This is the run of the engines without fast paths, with
 * twheel_ops_advance() and twheel_ops_pop(); each engine with fast paths
 * has its own, tw_<name>_run(), which behaves the same.
 *
 * Return: the number of timers handed to @fn.
 */
unsigned long twheel_ops_run(struct twheel_engine *e, unsigned long now,
			     twheel_run_fn fn, void *arg, struct twheel_run *run)
{
	return twheel_run_as(e, TWHEEL_OPS_COMPOSED, now, fn, arg, run);
}

/*
 * An engine with fast paths (FAST): its entry's advance and run,
 * tw_<name>_advance() and tw_<name>_run() (engines/entry.h), with its kind
 * a constant in them.
 */
#define TW_ENTRY_FNS_FAST(name, NAME)						\
bool tw_##name##_advance(struct twheel_engine *e, unsigned long now)		\
{										\
	return twheel_advance_as(e, TWHEEL_##NAME, now);			\
}										\
unsigned long tw_##name##_run(struct twheel_engine *e, unsigned long now,	\
			      twheel_run_fn fn, void *arg,			\
			      struct twheel_run *run)				\
{										\
	return twheel_run_as(e, TWHEEL_##NAME, now, fn, arg, run);		\
}

#define TW_ENTRY_FNS_SLOW(...)
#define TWHEEL_ENGINE(name, NAME, path, ...)	TW_ENTRY_FNS_##path(name, NAME)
#include "engines/list.h"
#undef TWHEEL_ENGINE

// SPDX-License-Identifier: GPL-2.0
/*
 * twheel: running what falls due, for any engine. twheel_run() is
 * twheel_run_as() (engines/registry.h) with the kind not known: every
 * advance and pop one indirect call through the engine's entry. A caller
 * that knows the kind uses twheel_run_as() itself.
 */
#include <linux/export.h>
#include "engines/registry.h"

/**
 * twheel_run() - run the timers due up to and including @now, on a budget
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
 * Return: the number of timers handed to @fn.
 */
unsigned long twheel_run(struct twheel_engine *e, unsigned long now,
			 twheel_run_fn fn, void *arg, struct twheel_run *run)
{
	return twheel_run_as(e, TWHEEL_NR_KINDS, now, fn, arg, run);
}
EXPORT_SYMBOL_GPL(twheel_run);

/**
 * twheel_run_until() - run every timer due up to and including @now
 * @e: the engine
 * @now: the last jiffy to process
 * @fn: called once for each timer that falls due, in the engine's order
 * @arg: passed to @fn
 *
 * twheel_run() with no budget: leaves the clock at @now + 1; does nothing
 * if @now is before the clock.
 *
 * Return: the number of timers handed to @fn.
 */
unsigned long twheel_run_until(struct twheel_engine *e, unsigned long now,
			       twheel_run_fn fn, void *arg)
{
	return twheel_run_as(e, TWHEEL_NR_KINDS, now, fn, arg, NULL);
}
EXPORT_SYMBOL_GPL(twheel_run_until);

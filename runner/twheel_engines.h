/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twheel: what the engine runner (twheel_engines.c) shares with its
 * memory and calibration (twheel_engines_mem.c) and its read-outs
 * (twheel_engines_show.c). Private to those three files.
 */
#ifndef _TWHEEL_ENGINES_H
#define _TWHEEL_ENGINES_H

#include "runner/twheel_feed.h"
#include "runner/twheel_runner.h"

/**
 * struct tw_engine_runner - an engine with what its runner keeps beside it
 * @e: the engine, inside @state
 * @state: the engine's own struct (twheel_ops.size bytes), twheel_create()'s
 * @storage: what the engine needs beside it (the heap's array, the hashed
 *	engines' slots); NULL for the others
 * @cfg: what it was set up with
 * @clock_offset: engine time is jiffies plus this (wrap_secs=)
 * @tick_jiffies: a tick's own span
 * @backlog: the last tick stopped at the budget
 * @feed: the state of the engine's feed (tw_feed_of()), if it has one
 * @def_pending: of the engine's pending timers, the deferrable ones
 *	(deferrable=): what its idle next event leaves out (twheel_idle_next())
 *
 * The runner's priv (struct tw_runner.priv) for every engine kind.
 */
struct tw_engine_runner {
	struct twheel_engine *e;
	void *state;
	void *storage;
	struct tw_config cfg;
	unsigned long clock_offset;
	unsigned int tick_jiffies;
	bool backlog;
	void *feed;
	u64 def_pending;
};

static inline struct tw_engine_runner *tw_er(const struct tw_runner *r)
{
	return r->priv;
}

/* The engine's feed, if it has one (runner/twheel_feed.h). */
static inline const struct twheel_feed_ops *
tw_feed(const struct tw_engine_runner *er)
{
	return tw_feed_of(er->e->kind);
}

/* twheel_engines_mem.c: the engine runner's memory, its calibration */
int tw_engine_runner_init(struct tw_runner *r, const struct tw_config *cfg);
void tw_engine_runner_release(struct tw_runner *r);
int tw_engine_reserve(struct tw_runner *r, u32 count);
bool tw_engine_needs_room(struct tw_runner *r);
int tw_engine_make_room(struct tw_runner *r);
int tw_engine_calibrate(struct tw_runner *r, struct tw_cost *c);
u32 tw_engine_max_timers(struct tw_runner *r);
void tw_engine_forget(struct tw_runner *r);

void tw_engine_show(struct seq_file *m, struct tw_runner *r);
int tw_engine_occupancy(struct seq_file *m, struct tw_runner *r);

#endif /* _TWHEEL_ENGINES_H */

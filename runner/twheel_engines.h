/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twheel: what the engine runner (twheel_engines.c) shares with its
 * read-outs (twheel_engines_show.c). Private to those two files.
 */
#ifndef _TWHEEL_ENGINES_H
#define _TWHEEL_ENGINES_H

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
 * @feed: the state of the engine's feed (twheel_ops.feed), if it has one
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
};

static inline struct tw_engine_runner *tw_er(const struct tw_runner *r)
{
	return r->priv;
}

void tw_engine_show(struct seq_file *m, struct tw_runner *r);
int tw_engine_occupancy(struct seq_file *m, struct tw_runner *r);

#endif /* _TWHEEL_ENGINES_H */

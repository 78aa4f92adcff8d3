/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twheel: what the engine runner (twheel_engines.c) shares with its
 * read-outs (twheel_engines_show.c). Private to those two files.
 */
#ifndef _TWHEEL_ENGINES_H
#define _TWHEEL_ENGINES_H

#include "twheel_runner.h"
#include "twheel_vec.h"

/**
 * struct tw_engine_runner - an engine with what its runner keeps beside it
 * @classic: the engine itself when it is a classic one
 * @modern: the engine itself when it is a modern one
 * @reference: the engine itself when it is a reference one
 * @heap: the engine itself when it is a heap one
 * @hash: the engine itself when it is a hash one
 * @simple: the engine itself when it is a simple one
 * @hash_sorted: the engine itself when it is a hash_sorted one
 * @straight: the engine itself when it is a straight one
 * @ordered: the engine itself when it is a ordered one
 * @ratas: the engine itself when it is a ratas one
 * @volt: the engine itself when it is a volt one
 * @hash_vec: the engine itself when it is a hash_vec one
 * @classic_bounded: the engine itself when it is a classic_bounded one
 * @e: the engine (in the union)
 * @storage: the heap's array, the hashed engines' slots; NULL for the
 *	others
 * @cfg: what it was set up with
 * @clock_offset: engine time is jiffies plus this (wrap_secs=)
 * @tick_jiffies: a tick's own span
 * @backlog: the last tick stopped at the budget
 * @vec: hash_vec's arrays (twheel_vec.c)
 *
 * The runner's priv (struct tw_runner.priv) for every engine kind.
 */
struct tw_engine_runner {
	union {
		struct twheel_classic classic;
		struct twheel_modern modern;
		struct twheel_reference reference;
		struct twheel_heap heap;
		struct twheel_hash hash;
		struct twheel_simple simple;
		struct twheel_hash_sorted hash_sorted;
		struct twheel_straight straight;
		struct twheel_ordered ordered;
		struct twheel_ratas ratas;
		struct twheel_volt volt;
		struct twheel_hash_vec hash_vec;
		struct twheel_classic_bounded classic_bounded;
	};
	struct twheel_engine *e;
	void *storage;
	struct tw_config cfg;
	unsigned long clock_offset;
	unsigned int tick_jiffies;
	bool backlog;
	struct tw_vec_feed vec;
};

static inline struct tw_engine_runner *tw_er(const struct tw_runner *r)
{
	return r->priv;
}

void tw_engine_show(struct seq_file *m, struct tw_runner *r);
int tw_engine_occupancy(struct seq_file *m, struct tw_runner *r);

#endif /* _TWHEEL_ENGINES_H */

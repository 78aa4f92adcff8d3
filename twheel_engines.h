/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twheel: what the engine runner (twheel_engines.c) shares with its
 * read-outs (twheel_engines_show.c). Private to those two files.
 */
#ifndef _TWHEEL_ENGINES_H
#define _TWHEEL_ENGINES_H

#include "twheel_runner.h"
#include "twheel_vec.h"

/* An engine with what the runner keeps next to it. */
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
	void *storage;			/* the heap's array, the others' slots */
	struct tw_config cfg;		/* what it was set up with */
	unsigned long clock_offset;	/* engine time = jiffies + this */
	unsigned int tick_jiffies;	/* a tick's own span */
	bool backlog;			/* the last tick stopped at the budget */
	struct tw_vec_feed vec;		/* hash_vec's arrays */
};

static inline struct tw_engine_runner *tw_er(const struct tw_runner *r)
{
	return r->priv;
}

void tw_engine_show(struct seq_file *m, struct tw_runner *r);
int tw_engine_occupancy(struct seq_file *m, struct tw_runner *r);

#endif /* _TWHEEL_ENGINES_H */

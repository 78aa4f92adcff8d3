/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hash_vec's arrays in user space (the module's runner/twheel_vec_feed.c in miniature):
 * malloc what the engine asks for, free what it hands back. The benchmarks
 * call it between their timed batches, as the module's worker runs between
 * ticks, so its cost is not in the engine's figures.
 */
#ifndef TW_VEC_POOL_H
#define TW_VEC_POOL_H

#include <stdio.h>
#include <stdlib.h>
#include "twheel.h"
#include "engines/hash_vec.h"

static inline void vec_pool_feed(struct twheel_hash_vec *hv)
{
	unsigned int order;
	void *a;
	u32 n;

	while ((n = twheel_hash_vec_wanted(hv, &order))) {
		while (n--) {
			a = malloc(twheel_hash_vec_array_size(order));
			if (!a) {
				fprintf(stderr, "hash_vec: out of memory\n");
				exit(2);
			}
			twheel_hash_vec_give(hv, order, a);
		}
	}
	while ((a = twheel_hash_vec_take(hv, false)))
		free(a);
}

/*
 * The user-space tools' feed of an engine that asks for memory as it is
 * armed (the module's twheel_ops.feed): hash_vec's arrays; nothing for the
 * other engines.
 */
static inline void tw_user_feed(struct twheel_engine *e)
{
	if (e->ops == &twheel_hash_vec_ops)
		vec_pool_feed(twheel_to_hash_vec(e));
}

/* Takes every array back from an engine that holds no timer, and frees it. */
static inline void tw_user_unfeed(struct twheel_engine *e)
{
	void *a;

	if (e->ops != &twheel_hash_vec_ops)
		return;
	while ((a = twheel_hash_vec_take(twheel_to_hash_vec(e), true)))
		free(a);
}

#endif /* TW_VEC_POOL_H */

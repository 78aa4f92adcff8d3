/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hash_vec's arrays in user space (the module's engines/hash_vec_feed.c in miniature):
 * malloc what the engine asks for, free what it hands back. The benchmarks
 * call it between their timed batches, as the module's worker runs between
 * ticks, so its cost is not in the engine's figures.
 */
#ifndef TW_VEC_POOL_H
#define TW_VEC_POOL_H

#include <stdio.h>
#include <stdlib.h>
#include "twheel.h"

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

/* Sets up hv with nr_slots slots and its first spares; exits if no memory. */
static inline void vec_pool_init(struct twheel_hash_vec *hv, unsigned long clk,
				 unsigned int nr_slots)
{
	void *mem = malloc(twheel_hash_vec_storage_size(nr_slots));

	if (!mem || twheel_hash_vec_init(hv, clk, mem, nr_slots)) {
		fprintf(stderr, "hash_vec: out of memory\n");
		exit(2);
	}
	vec_pool_feed(hv);
}

#endif /* TW_VEC_POOL_H */

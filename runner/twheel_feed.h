/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twheel runner layer: the module's side of an engine that is fed memory
 * as it is armed (hash_vec's feed is twheel_vec_feed.c), found by the
 * engine's kind: the engines themselves know nothing of it.
 */
#ifndef TWHEEL_FEED_H
#define TWHEEL_FEED_H

#include <linux/types.h>
#include "twheel.h"

struct seq_file;
struct spinlock;
struct twheel_engine;

/**
 * struct twheel_feed_ops - how the module feeds an engine memory it asks for
 * @size: bytes of the feed's state, which the caller allocates
 * @init: sets the feed up for engine @e (set up, seen by no one else yet)
 *	and stocks the engine; process context; 0 or -ENOMEM (nothing kept)
 * @set_lock: the lock that guards the engine from now on (the runner's)
 * @refill: gives the engine what it asks for and frees what it hands back;
 *	process context, no lock held; 0 or -ENOMEM
 * @kick: after an operation or a tick, lock held: refills later (a work
 *	item) if the engine asks
 * @release: takes every array back and frees it; nothing armed
 * @short_of_room: lock held: an arm may be refused now for memory a
 *	@refill would give
 * @prefill: before a scratch engine's clock runs: stocks it for as many
 *	timers as @timers says, spread over 64 slots, so it asks for nothing
 *	meanwhile
 * @show: its lines of the engine's stats
 *
 * The engines never allocate: one that needs memory as it is armed (hash_vec)
 * asks for it, and this is the module's side, runner/twheel_<name>_feed.c
 * (the user-space tools feed it their way).
 */
struct twheel_feed_ops {
	size_t size;
	int (*init)(void *feed, struct twheel_engine *e);
	void (*set_lock)(void *feed, struct spinlock *lock);
	int (*refill)(void *feed);
	void (*kick)(void *feed);
	void (*release)(void *feed);
	bool (*short_of_room)(void *feed);
	int (*prefill)(void *feed, unsigned int timers);
	void (*show)(struct seq_file *m, void *feed);
};

extern const struct twheel_feed_ops tw_vec_feed_ops;

/* The feed of an engine of kind, or NULL: it needs none. */
static inline const struct twheel_feed_ops *tw_feed_of(enum twheel_kind kind)
{
	return kind == TWHEEL_HASH_VEC ? &tw_vec_feed_ops : NULL;
}

#endif /* TWHEEL_FEED_H */

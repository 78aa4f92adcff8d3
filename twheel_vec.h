/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hash_vec's arrays, the runner's side: the engine never allocates; it asks
 * for spare arrays ahead of need and hands back those it no longer wants
 * (engines/hash_vec.h). Here they are allocated and freed in process
 * context with no lock held, and given or taken under the runner's lock:
 * at load, between the batches of process-context loops that arm many
 * timers, and from a work item the tick and the ops queue when the engine
 * asks.
 */
#ifndef TWHEEL_VEC_H
#define TWHEEL_VEC_H

#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include "twheel.h"
#include "engines/hash_vec.h"

struct seq_file;

/**
 * struct tw_vec_feed - what keeps one hash_vec engine in arrays
 * @hv: the engine
 * @lock: the lock taken to give and take: the runner's, or @own while no
 *	one else sees the engine (set-up, the calibration's scratch engine)
 * @own: a lock of its own, for then
 * @work: refills from process context when the engine asks
 * @allocs: arrays allocated
 * @frees: arrays freed
 * @failed: allocations that failed (the engine went on without them)
 */
struct tw_vec_feed {
	struct twheel_hash_vec *hv;
	spinlock_t *lock;	/* see @lock above */
	spinlock_t own;		/* see @own above */
	struct work_struct work;
	u64 allocs;
	u64 frees;
	u64 failed;
};

int tw_vec_feed_init(struct tw_vec_feed *f, struct twheel_hash_vec *hv);
int tw_vec_refill(struct tw_vec_feed *f);
void tw_vec_release(struct tw_vec_feed *f);
void tw_vec_show(struct seq_file *m, struct tw_vec_feed *f);

/*
 * After an op, lock held: the engine wants arrays, or has some to free.
 * A high-priority worker: a tick that keeps its CPU busy (softirqs, their
 * ksoftirqd) must not starve the refill it depends on.
 */
static inline void tw_vec_kick(struct tw_vec_feed *f)
{
	if (twheel_hash_vec_wants(f->hv))
		queue_work(system_highpri_wq, &f->work);
}

#endif /* TWHEEL_VEC_H */

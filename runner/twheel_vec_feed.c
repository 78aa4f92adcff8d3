// SPDX-License-Identifier: GPL-2.0
/*
 * twheel runner layer: hash_vec's arrays, the module's side: the engine never allocates; it asks
 * for spare arrays ahead of need and hands back those it no longer wants
 * (engines/hash_vec.h). Here they are allocated and freed in process
 * context with no lock held, and given or taken under the runner's lock:
 * at load, between the batches of process-context loops that arm many
 * timers, and from a work item the tick and the ops queue when the engine
 * asks. hash_vec's feed (struct twheel_feed_ops, tw_feed_of()); the
 * user-space tools feed it their way.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include "engines/hash_vec.h"
#include "runner/twheel_feed.h"

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

/* Arrays are sized by the load: no OOM killer, no warning. */
#define TW_VEC_GFP	(GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)
/* Arrays allocated per round trip to the lock. */
#define TW_VEC_BATCH	16

/*
 * tw_vec_refill() - give the engine what it asks for, free what it hands back
 * @f: the engine's feed
 *
 * Process context, no lock held. Allocates with no lock held, gives under
 * @f->lock; the engine may ask for more meanwhile (the tick runs), which
 * this gives too, until it asks for nothing.
 *
 * Return: 0, or -ENOMEM if an allocation failed (what was allocated is
 * given; the engine refuses the arms it has no array for).
 */
static int tw_vec_refill(struct tw_vec_feed *f)
{
	void *a[TW_VEC_BATCH];
	unsigned int order, i, n;

	for (;;) {
		spin_lock_bh(f->lock);
		n = min_t(u32, twheel_hash_vec_wanted(f->hv, &order), TW_VEC_BATCH);
		a[0] = n ? NULL : twheel_hash_vec_take(f->hv, false);
		if (a[0])
			f->frees++;
		spin_unlock_bh(f->lock);
		if (a[0]) {
			kvfree(a[0]);
			continue;
		}
		if (!n)
			return 0;
		for (i = 0; i < n; i++) {
			a[i] = kvmalloc(twheel_hash_vec_array_size(order), TW_VEC_GFP);
			if (!a[i])
				break;
		}
		spin_lock_bh(f->lock);
		f->allocs += i;
		f->failed += i < n;
		n = i;
		for (i = 0; i < n; i++)
			twheel_hash_vec_give(f->hv, order, a[i]);
		spin_unlock_bh(f->lock);
		if (!n)
			return -ENOMEM;
	}
}

static void tw_vec_work_fn(struct work_struct *work)
{
	tw_vec_refill(container_of(work, struct tw_vec_feed, work));
}

static void tw_vec_release(struct tw_vec_feed *f);

/*
 * twheel_feed_ops.init: set up the feed of a hash_vec engine and stock it.
 * Process context, the engine seen by no one else yet; the feed takes its
 * own lock until the caller gives it one (twheel_feed_ops.set_lock). On
 * failure every array given is freed again.
 */
static int tw_vec_feed_init(void *feed, struct twheel_engine *e)
{
	struct tw_vec_feed *f = feed;
	int ret;

	memset(f, 0, sizeof(*f));
	f->hv = twheel_to_hash_vec(e);
	spin_lock_init(&f->own);
	f->lock = &f->own;
	INIT_WORK(&f->work, tw_vec_work_fn);
	ret = tw_vec_refill(f);
	if (ret)
		tw_vec_release(f);
	return ret;
}

static void tw_vec_set_lock(void *feed, spinlock_t *lock)
{
	((struct tw_vec_feed *)feed)->lock = lock;
}

/*
 * tw_vec_release() - free every array of an engine that holds no timer
 * @f: the feed
 *
 * Process context, nothing armed: waits for the work item, then takes
 * every array back (all are spares when no timer is held) and frees it.
 */
static void tw_vec_release(struct tw_vec_feed *f)
{
	void *a;

	cancel_work_sync(&f->work);
	WARN_ON_ONCE(twheel_stats_pending(&f->hv->e.st));
	while ((a = twheel_hash_vec_take(f->hv, true))) {
		kvfree(a);
		f->frees++;
	}
}

/*
 * tw_vec_show() - the arrays' lines of the engine's stats
 * @m: the stats file
 * @feed: the feed
 *
 * Bytes of the arrays in the slots and of the spares, spares, the feed's
 * allocations, frees and failed allocations, and for each array size
 * with spares or wants "entries:spares/wanted". A walk over the slots,
 * under the lock.
 */
static void tw_vec_show(struct seq_file *m, void *feed)
{
	struct tw_vec_feed *f = feed;
	const struct twheel_hash_vec *hv = f->hv;
	u64 in_slots = 0, spares = 0, nr_spares = 0, allocs, frees, failed;
	u32 nr[TW_VEC_ORDERS], want[TW_VEC_ORDERS];
	unsigned long i;
	unsigned int k;

	spin_lock_bh(f->lock);
	for (i = 0; i <= hv->mask; i++)
		in_slots += hv->slots[i].cap;
	for (k = 0; k < TW_VEC_ORDERS; k++) {
		nr[k] = hv->pool[k].nr;
		want[k] = hv->pool[k].keep + (k ? hv->pool[k - 1].hot : 0);
		nr_spares += nr[k];
		spares += (u64)nr[k] * twheel_hash_vec_cap(k);
	}
	allocs = f->allocs;
	frees = f->frees;
	failed = f->failed;
	spin_unlock_bh(f->lock);
	seq_printf(m, "vec_slot_bytes: %llu\n", in_slots * sizeof(struct twheel_vec_entry));
	seq_printf(m, "vec_spares: %llu\n", nr_spares);
	seq_printf(m, "vec_spare_bytes: %llu\n", spares * sizeof(struct twheel_vec_entry));
	seq_printf(m, "vec_allocs: %llu\n", allocs);
	seq_printf(m, "vec_frees: %llu\n", frees);
	seq_printf(m, "vec_alloc_failed: %llu\n", failed);
	seq_puts(m, "vec_pool:");
	for (k = 0; k < TW_VEC_ORDERS; k++)
		if (nr[k] || want[k])
			seq_printf(m, " %u:%u/%u", twheel_hash_vec_cap(k), nr[k], want[k]);
	seq_putc(m, '\n');
}

/*
 * After an op or a tick, lock held: the engine wants arrays, or has some to
 * free. A high-priority worker: a tick that keeps its CPU busy (softirqs,
 * their ksoftirqd) must not starve the refill it depends on.
 */
static void tw_vec_kick(void *feed)
{
	struct tw_vec_feed *f = feed;

	if (twheel_hash_vec_wants(f->hv))
		queue_work(system_highpri_wq, &f->work);
}

static int tw_vec_feed_refill(void *feed)
{
	return tw_vec_refill(feed);
}

static void tw_vec_feed_release(void *feed)
{
	tw_vec_release(feed);
}

/* True while an arm may be refused for an array not given yet; lock held. */
static bool tw_vec_short(void *feed)
{
	return twheel_hash_vec_short(((struct tw_vec_feed *)feed)->hv);
}

/*
 * A scratch engine's arrays for that many timers spread over 64 slots, before
 * its clock runs: none asked for on the way.
 */
static int tw_vec_prefill(void *feed, unsigned int timers)
{
	struct tw_vec_feed *f = feed;
	unsigned int k;

	for (k = 0; twheel_hash_vec_cap(k) <= timers / 64; k++)
		twheel_hash_vec_keep(f->hv, k, 64);
	return tw_vec_refill(f);
}

/* hash_vec's feed (tw_feed_of()). */
const struct twheel_feed_ops tw_vec_feed_ops = {
	.size		= sizeof(struct tw_vec_feed),
	.init		= tw_vec_feed_init,
	.set_lock	= tw_vec_set_lock,
	.refill		= tw_vec_feed_refill,
	.kick		= tw_vec_kick,
	.release	= tw_vec_feed_release,
	.short_of_room	= tw_vec_short,
	.prefill	= tw_vec_prefill,
	.show		= tw_vec_show,
};

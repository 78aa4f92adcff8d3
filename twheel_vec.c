// SPDX-License-Identifier: GPL-2.0
/*
 * hash_vec's arrays, the runner's side (twheel_vec.h): allocated and freed
 * here in process context, given to and taken from the engine under the
 * runner's lock.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include "twheel_vec.h"

/* Arrays are sized by the load: no OOM killer, no warning. */
#define TW_VEC_GFP	(GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)
/* Arrays allocated per round trip to the lock. */
#define TW_VEC_BATCH	16

/**
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
int tw_vec_refill(struct tw_vec_feed *f)
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

/**
 * tw_vec_feed_init() - set up the feed of a hash_vec engine and stock it
 * @f: the feed
 * @hv: the engine, set up and seen by no one else yet
 *
 * Process context; @f->lock is @f->own until the caller sets it. On
 * failure every array given is freed again.
 *
 * Return: 0, or -ENOMEM.
 */
int tw_vec_feed_init(struct tw_vec_feed *f, struct twheel_hash_vec *hv)
{
	int ret;

	memset(f, 0, sizeof(*f));
	f->hv = hv;
	spin_lock_init(&f->own);
	f->lock = &f->own;
	INIT_WORK(&f->work, tw_vec_work_fn);
	ret = tw_vec_refill(f);
	if (ret)
		tw_vec_release(f);
	return ret;
}

/**
 * tw_vec_release() - free every array of an engine that holds no timer
 * @f: the feed
 *
 * Process context, nothing armed: waits for the work item, then takes
 * every array back (all are spares when no timer is held) and frees it.
 */
void tw_vec_release(struct tw_vec_feed *f)
{
	void *a;

	cancel_work_sync(&f->work);
	WARN_ON_ONCE(twheel_stats_pending(&f->hv->e.st));
	while ((a = twheel_hash_vec_take(f->hv, true))) {
		kvfree(a);
		f->frees++;
	}
}

/**
 * tw_vec_show() - the arrays' lines of the engine's stats
 * @m: the stats file
 * @f: the feed
 *
 * Bytes of the arrays in the slots and of the spares, spares, the feed's
 * allocations, frees and failed allocations, and for each array size
 * with spares or wants "entries:spares/wanted". A walk over the slots,
 * under the lock.
 */
void tw_vec_show(struct seq_file *m, struct tw_vec_feed *f)
{
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

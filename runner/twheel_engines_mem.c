// SPDX-License-Identifier: GPL-2.0
/*
 * twheel engine runners: what they hold beside their timers. The engine's
 * state and storage and its feed (tw_feed_of()), set up, grown for a
 * load and released; room for an engine fed as it is armed; the
 * calibration on a scratch engine of the same kind. The ops that arm,
 * delete and tick are twheel_engines.c's, which makes each engine
 * runner's ops table with these.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/bottom_half.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include "runner/twheel_state.h"
#include "runner/twheel_engines.h"
#include "runner/twheel_feed.h"

static u64 tw_engine_clock_ns(void)
{
	return ktime_get_ns();
}

/* The engines' own arrays are sized by the user: no OOM killer, no warning. */
#define TW_GFP_STORAGE	(GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

/* Frees what tw_engine_setup_kind() allocated. */
static void tw_engine_free(struct tw_engine_runner *er)
{
	if (er->feed)
		tw_feed(er)->release(er->feed);
	kfree(er->feed);
	kvfree(er->storage);
	kvfree(er->state);
	er->feed = NULL;
	er->storage = NULL;
	er->state = NULL;
}

/*
 * Sets up the engine of kind (a runner index below TWHEEL_NR_KINDS) through
 * the registry's one constructor, with its state and the storage it needs
 * allocated here, as its ops size it for the configuration: cap timers
 * (the heap's array) and the engines' parameters, cfg->engine (the hashed
 * wheels' slots, the spare arrays hash_vec keeps, simple's MaxInterval).
 * Process context.
 */
static int tw_engine_setup_kind(struct tw_engine_runner *er, int kind,
				unsigned long clk, const struct tw_config *cfg,
				unsigned int cap)
{
	const struct twheel_ops *ops = twheel_engine_ops[kind];
	const struct twheel_feed_ops *feed = tw_feed_of(kind);
	struct twheel_config ec = cfg->engine;
	size_t size;
	int ret;

	ec.cap = cap;
	size = twheel_storage_size(ops, &ec);

	er->storage = NULL;
	er->feed = NULL;
	er->state = kvzalloc(ops->size, GFP_KERNEL);
	if (!er->state)
		return -ENOMEM;
	if (size) {
		er->storage = kvmalloc(size, TW_GFP_STORAGE);
		if (!er->storage) {
			kvfree(er->state);
			return -ENOMEM;
		}
	}
	ret = twheel_create(ops, er->state, clk, &ec, er->storage, &er->e);
	if (!ret && feed) {
		er->feed = kzalloc(feed->size, GFP_KERNEL);
		ret = er->feed ? feed->init(er->feed, er->e) : -ENOMEM;
		if (ret) {
			kfree(er->feed);
			er->feed = NULL;
		}
	}
	if (ret)
		tw_engine_free(er);
	return ret;
}

/**
 * tw_engine_runner_init() - an engine runner's init op: its engine set up
 * @r: the runner; its id is the engine's kind
 * @cfg: the module's config (the engine's parameters, the clock offset)
 *
 * Allocates the runner's state, the engine (tw_engine_setup_kind()) with
 * its clock at engine time now, and the feed it may need, which the
 * runner's lock guards from now on. Module init: may sleep.
 *
 * Return: 0 or -ENOMEM (nothing kept).
 */
int tw_engine_runner_init(struct tw_runner *r, const struct tw_config *cfg)
{
	struct tw_engine_runner *er = kvzalloc(sizeof(*er), GFP_KERNEL);
	int ret;

	if (!er)
		return -ENOMEM;
	/* The first runner indices are the engine kinds. */
	ret = tw_engine_setup_kind(er, r->id, jiffies + cfg->clock_offset, cfg, 0);
	if (ret) {
		kvfree(er);
		return ret;
	}
	if (er->feed)
		tw_feed(er)->set_lock(er->feed, &r->lock);
	r->room_watch = er->feed;
	er->cfg = *cfg;
	er->e->clock_ns = tw_engine_clock_ns;
	if (er->e->ops->cancel)
		r->caps |= TW_CAP_LAZY;
	er->clock_offset = cfg->clock_offset;
	er->tick_jiffies = cfg->tick_jiffies;
	r->priv = er;
	r->st = &er->e->st;
	return 0;
}

/**
 * tw_engine_runner_release() - undo tw_engine_runner_init(): the release op
 * @r: the runner; no timer armed
 */
void tw_engine_runner_release(struct tw_runner *r)
{
	struct tw_engine_runner *er = r->priv;

	tw_engine_free(er);
	kvfree(er);
	r->priv = NULL;
}

/**
 * tw_engine_reserve() - an engine runner's reserve op: room for a load
 * @r: the runner
 * @count: the timers the load puts on it
 *
 * Before a load of @count timers: an engine with storage that grows (the
 * heap's array: each timer is in it at most once) gets room for them all.
 * Allocated here, with no lock held, and swapped in under the lock; it
 * never shrinks, so a load that fails later leaves room enough for the
 * workload still loaded. An engine with a feed (hash_vec) gets what it
 * asks for (it asks more as it is armed: tw_engine_make_room()).
 * Process context, no lock held.
 *
 * Return: 0, or -ENOMEM (the storage it had is kept).
 */
int tw_engine_reserve(struct tw_runner *r, u32 count)
{
	struct tw_engine_runner *er = tw_er(r);
	const struct twheel_ops *ops = er->e->ops;
	void *old, *slots;
	size_t size;
	int ret;

	if (er->feed)
		return tw_feed(er)->refill(er->feed);
	size = ops->grow_size ? ops->grow_size(er->e, count) : 0;
	if (!size)
		return 0;
	slots = kvmalloc(size, TW_GFP_STORAGE);
	if (!slots)
		return -ENOMEM;
	spin_lock_bh(&r->lock);
	ret = ops->grow(er->e, slots, count);
	old = ret ? slots : er->storage;
	if (!ret)
		er->storage = slots;
	spin_unlock_bh(&r->lock);
	kvfree(old);
	return ret;
}

/**
 * tw_engine_needs_room() - an engine runner's needs_room op
 * @r: the runner; its lock held, or the runner idle
 *
 * Return: true while an arm may be refused for memory its engine's feed
 * (hash_vec's) has not given it yet; false for an engine with no feed.
 */
bool tw_engine_needs_room(struct tw_runner *r)
{
	struct tw_engine_runner *er = tw_er(r);

	return er->feed && tw_feed(er)->short_of_room(er->feed);
}

/**
 * tw_engine_make_room() - an engine runner's make_room op
 * @r: the runner
 *
 * Gives its engine's feed what it asks for. Process context, no lock held.
 *
 * Return: 0 (also with no feed), or -ENOMEM.
 */
int tw_engine_make_room(struct tw_runner *r)
{
	struct tw_engine_runner *er = tw_er(r);

	if (!er->feed)
		return 0;
	return tw_feed(er)->refill(er->feed);
}

#define TW_CAL_TIMERS	1024

static void tw_engine_cal_fn(struct twheel_timer *t)
{
}

static void tw_engine_cal_run(struct twheel_timer *t, unsigned long jiffy,
			      void *arg)
{
	t->function(t);
}

/*
 * A fed scratch engine (hash_vec) gets, before the clock runs, all the
 * calibration's arms take: TW_CAL_TIMERS timers over 64 slots.
 */
static int tw_engine_cal_room(struct tw_engine_runner *cal)
{
	if (!cal->feed)
		return 0;
	return tw_feed(cal)->prefill(cal->feed, TW_CAL_TIMERS);
}

/**
 * tw_engine_calibrate() - an engine runner's calibrate op
 * @r: the runner
 * @c: set to what an arm and an expiry cost on its engine
 *
 * Measured on a scratch engine of the same kind and config: TW_CAL_TIMERS
 * adds over 64 jiffies, then their expiry, each under a lock as in the
 * tick. Process context: may sleep.
 *
 * Return: 0 or -ENOMEM.
 */
int tw_engine_calibrate(struct tw_runner *r, struct tw_cost *c)
{
	struct tw_engine_runner *er = tw_er(r), *cal;
	struct twheel_timer *t;
	spinlock_t lock;	/* stands for the runner's lock */
	u64 t0, t1, t2;
	unsigned int i;

	cal = kvzalloc(sizeof(*cal), GFP_KERNEL);
	t = kvcalloc(TW_CAL_TIMERS, sizeof(*t), GFP_KERNEL);
	if (!cal || !t) {
		kvfree(cal);
		kvfree(t);
		return -ENOMEM;
	}
	spin_lock_init(&lock);
	if (tw_engine_setup_kind(cal, r->id, 0, &er->cfg, TW_CAL_TIMERS)) {
		kvfree(t);
		kvfree(cal);
		return -ENOMEM;
	}
	if (tw_engine_cal_room(cal)) {
		tw_engine_free(cal);
		kvfree(t);
		kvfree(cal);
		return -ENOMEM;
	}
	for (i = 0; i < TW_CAL_TIMERS; i++)
		twheel_timer_setup(cal->e, &t[i], tw_engine_cal_fn);
	local_bh_disable();
	t0 = ktime_get_ns();
	for (i = 0; i < TW_CAL_TIMERS; i++) {
		spin_lock(&lock);
		twheel_add(cal->e, &t[i], 1 + (i & 63));
		spin_unlock(&lock);
	}
	t1 = ktime_get_ns();
	spin_lock(&lock);
	twheel_run_until(cal->e, 64, tw_engine_cal_run, NULL);
	spin_unlock(&lock);
	t2 = ktime_get_ns();
	local_bh_enable();
	c->op_ns = div_u64(t1 - t0, TW_CAL_TIMERS);
	c->expire_ns = div_u64(t2 - t1, TW_CAL_TIMERS);
	kvfree(t);
	tw_engine_free(cal);
	kvfree(cal);
	return 0;
}

/**
 * tw_engine_max_timers() - an engine runner's max_timers op
 * @r: the runner
 *
 * Return: the most timers a load puts on it: its engine's limit
 * (twheel_ops.max_timers), or the module's.
 */
u32 tw_engine_max_timers(struct tw_runner *r)
{
	const struct twheel_engine *e = tw_er(r)->e;

	if (!e->ops->max_timers)
		return TWHEEL_MAX_TIMERS;
	return min_t(unsigned long, TWHEEL_MAX_TIMERS, e->ops->max_timers(e));
}

/**
 * tw_engine_forget() - an engine runner's forget op
 * @r: the runner
 *
 * The cancelled timers a lazy engine still links are let go of
 * (twheel_purge()) before their memory goes; none is pending, deferrable
 * or not. Takes the runner's lock.
 */
void tw_engine_forget(struct tw_runner *r)
{
	spin_lock_bh(&r->lock);
	tw_er(r)->def_pending = 0;
	twheel_purge(tw_er(r)->e);
	spin_unlock_bh(&r->lock);
}

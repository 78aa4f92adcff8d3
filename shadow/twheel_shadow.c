// SPDX-License-Identifier: GPL-2.0
/*
 * twheel shadow: the kernel's own timer_list traffic, mirrored live into
 * our engines. Workload "shadow" loads it (its count: the real timers it
 * can follow at once), start attaches the probes, stop detaches them.
 *
 * Probes on the timer_start, timer_cancel and timer_expire_entry
 * tracepoints copy each event into a ring and return: they run in any
 * context, hardirq included, with the timer base lock held, so they take
 * one raw spinlock (the ring's, held for a copy, under which nothing else
 * is ever taken) and never allocate; a full ring drops the event and
 * counts it. They read only what the tracepoints hand them (and, where
 * the tracepoint itself records them, the timer's expires and flags).
 *
 * The driver's tick drains the ring first (this runner's feed op), in
 * softirq context, one drain at a time. Each real timer gets a shadow, a
 * workload timer of this runner, found through a hash table keyed by the
 * timer_list's address (never dereferenced), from the pool the load
 * allocated (none free: the start is dropped and counted). Shadow k's twin
 * on engine runner e is e's workload timer k. The engines are stepped a
 * jiffy at a time in the events' own time (the kernel's jiffies at each
 * event): a start arms the twins (a re-arm is one mod each), a cancel
 * deletes them, and the engines fire the twins on their own; each firing
 * is set against the kernel's own expiry of the same arming.
 *
 * What each event means is the events' model's (twheel_events.h: the
 * tracepoints' rules; the offline replay asks it too): a cancel only
 * detaches the shadow and the timer's next event decides it; the shadow
 * cannot wait longer than the engines' time, so a cancel still alone when
 * the engines leave the jiffy after its own is settled a delete
 * (tw_ev_settle()). A mod_timer() that keeps the expiry or the bucket
 * emits nothing: the twins keep the last expiry seen. Timers vanish
 * without a cancel when they are not pending (freed, or off the stack):
 * a shadow the kernel holds no arming of is freed as soon as no engine
 * holds its twin; an armed one the kernel never ends (an event lost) is
 * closed when the model takes it as gone (tw_ev_aged(): 2 s + timeout/8
 * past its expiry), at the next aging pass or its next start.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/bottom_half.h>
#include <linux/cpumask.h>
#include <linux/hashtable.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timer.h>
#include "runner/twheel_state.h"
#include "shadow/twheel_shadow_impl.h"
#include "runner/twheel_softirq.h"

#define TW_SH_AGE_EVERY	HZ

/* Counts one event of the kernel's side (c: in sh->c). */
static void tw_sh_count(struct tw_runner *r, u64 *c)
{
	spin_lock(&r->lock);
	(*c)++;
	spin_unlock(&r->lock);
}

/* ---- the shadows: the pool and the table ---- */

static struct tw_shadow *tw_sh_find(struct tw_sh *sh, const void *key)
{
	struct tw_shadow *s;

	hash_for_each_possible(sh->tbl, s, node, (unsigned long)key)
		if (s->key == key)
			return s;
	return NULL;
}

static struct tw_shadow *tw_sh_new(struct tw_sh *sh, const void *key)
{
	struct tw_shadow *s;

	s = list_first_entry_or_null(&sh->free, struct tw_shadow, link);
	if (!s)
		return NULL;
	list_del_init(&s->link);
	s->key = key;
	memset(&s->t, 0, sizeof(s->t));
	memset(s->twin, TW_TWIN_NONE, sizeof(s->twin));
	hash_add(sh->tbl, &s->node, (unsigned long)key);
	return s;
}

static void tw_sh_put(struct tw_sh *sh, struct tw_shadow *s)
{
	hash_del(&s->node);
	s->key = NULL;
	list_add(&s->link, &sh->free);
}

/*
 * The shadowing ends s's arming (aged, or the shadowing stops): its twins
 * are deleted, the arming counted deleted and in why.
 */
static void tw_sh_end(struct tw_runner *r, struct tw_sh *sh,
		      struct tw_shadow *s, u64 *why)
{
	tw_sh_drop_twins(sh, s, true);
	spin_lock(&r->lock);
	r->st->deleted++;
	(*why)++;
	spin_unlock(&r->lock);
}

/*
 * Closes shadow s (aged, or the shadowing stops): its twins are deleted,
 * its arming, if any, counted deleted; s goes back to the pool.
 */
static void tw_sh_close(struct tw_runner *r, struct tw_sh *sh,
			struct tw_shadow *s, u64 *why)
{
	if (s->t.cancel)
		list_del_init(&s->link);
	if (tw_sh_open(s))
		tw_sh_end(r, sh, s, why);
	else
		tw_sh_drop_twins(sh, s, true);
	tw_sh_put(sh, s);
}

/* ---- the drain: the events in their order, the engines in their time ---- */

/* s's cancel was decided a delete (the model said so; s off the list). */
static void tw_sh_deleted(struct tw_runner *r, struct tw_sh *sh,
			  struct tw_shadow *s)
{
	tw_sh_drop_twins(sh, s, false);
	spin_lock(&r->lock);
	r->st->deleted++;
	sh->c.cancels++;
	spin_unlock(&r->lock);
}

/* A cancel that stood alone until the engines had to move on: a delete. */
static void tw_sh_cancelled(struct tw_runner *r, struct tw_sh *sh,
			    struct tw_shadow *s)
{
	list_del_init(&s->link);
	tw_ev_settle(&s->t);
	tw_sh_deleted(r, sh, s);
	tw_sh_put(sh, s);
}

/*
 * What the model makes of event e of s: s off the detached list if the
 * event decided its cancel, the cancel's delete done if it was one.
 */
static struct tw_ev_verdict tw_sh_take(struct tw_runner *r, struct tw_sh *sh,
				       struct tw_shadow *s,
				       const struct tw_ev *e)
{
	bool detached = s->t.cancel;
	struct tw_ev_verdict v = tw_ev_take(&s->t, e, HZ);

	if (detached)
		list_del_init(&s->link);
	if (v.del)
		tw_sh_deleted(r, sh, s);
	return v;
}

/*
 * The engines do every jiffy before target, one at a time; a cancel still
 * alone when they are to do a jiffy after its own is a delete first. A gap
 * of more than TW_SH_JUMP jiffies (the tick was held up that long) is
 * crossed in one tick of each engine, counted in jumps.
 */
#define TW_SH_JUMP	HZ

static void tw_sh_advance(struct tw_runner *r, struct tw_sh *sh,
			  unsigned long target)
{
	struct tw_shadow *s, *tmp;
	unsigned long last;
	unsigned int i;

	while (time_before(sh->clk, target)) {
		last = target - sh->clk > TW_SH_JUMP ? target - 1 : sh->clk;
		list_for_each_entry_safe(s, tmp, &sh->detached, link)
			if (time_before(s->t.cancel_at, last))
				tw_sh_cancelled(r, sh, s);
		if (last != sh->clk)
			tw_sh_count(r, &sh->c.jumps);
		sh->step = last;
		for (i = 0; i < sh->nr_eng; i++)
			sh->eng[i]->ops->tick(sh->eng[i], last);
		sh->clk = last + 1;
	}
}

static void tw_sh_start(struct tw_runner *r, struct tw_sh *sh,
			const struct tw_sh_event *ev, const struct tw_ev *e)
{
	struct tw_ev_verdict v;
	struct tw_shadow *s;
	enum tw_sh_idx where;

	/* first: the engines' move may end the shadow's last arming */
	tw_sh_advance(r, sh, ev->jiffy);
	s = tw_sh_find(sh, ev->timer);
	if (!s)
		s = tw_sh_new(sh, ev->timer);
	if (!s) {
		tw_sh_count(r, &sh->c.pool_full);
		return;
	}
	v = tw_sh_take(r, sh, s, e);
	/* the kernel never ended the arming before: the shadowing does */
	if (v.aged)
		tw_sh_end(r, sh, s, &sh->c.aged);
	s->w.expires = ev->expires;
	s->past = time_before(ev->expires, ev->jiffy);
	where = tw_sh_arm_twins(sh, s, ev);
	s->same_bucket = where == TW_SH_IDX_AGREE;
	spin_lock(&r->lock);
	if (v.what == TW_EV_ADD) {
		r->st->added++;
	} else {
		r->st->modified++;
		if (v.what == TW_EV_MOD)
			sh->c.rearmed++;
		else
			sh->c.start_armed++;
	}
	if (where < TW_SH_NR_IDX) {
		sh->c.idx[where]++;
		if (where == TW_SH_IDX_BEHIND && (ev->flags & TIMER_DEFERRABLE))
			sh->c.idx_behind_deferrable++;
		else if (where == TW_SH_IDX_BEHIND &&
			 (ev->flags & TIMER_CPUMASK) != ev->cpu)
			sh->c.idx_behind_remote++;
	}
	spin_unlock(&r->lock);
}

static void tw_sh_cancel(struct tw_runner *r, struct tw_sh *sh,
			 const struct tw_sh_event *ev, const struct tw_ev *e)
{
	struct tw_shadow *s = tw_sh_find(sh, ev->timer);
	struct tw_ev_verdict v;

	if (!s) {
		tw_sh_count(r, &sh->c.cancel_untracked);
		return;
	}
	v = tw_sh_take(r, sh, s, e);
	if (v.what == TW_EV_NOTED)
		list_add_tail(&s->link, &sh->detached);
	else
		tw_sh_count(r, &sh->c.cancel_idle);
}

static void tw_sh_expire(struct tw_runner *r, struct tw_sh *sh,
			 const struct tw_sh_event *ev, const struct tw_ev *e)
{
	struct tw_shadow *s = tw_sh_find(sh, ev->timer);
	struct tw_ev_verdict v;

	if (!s) {
		tw_sh_count(r, &sh->c.expire_untracked);
		return;
	}
	/* Its own cancel is no delete: decided before the engines move. */
	v = tw_sh_take(r, sh, s, e);
	if (v.what == TW_EV_STRAY) {
		tw_sh_count(r, &sh->c.expire_idle);
		return;
	}
	tw_sh_advance(r, sh, ev->arg + 1);
	tw_sh_expire_twins(sh, s, ev->arg);
	spin_lock(&r->lock);
	if (v.what == TW_EV_EXPIRY_NOCANCEL)
		sh->c.expire_unpaired++;
	r->st->expired++;
	/* the kernel's own lateness: the callback's jiffy against expires */
	tw_runner_ran_j(r, (long)(ev->jiffy - s->w.expires));
	spin_unlock(&r->lock);
	if (!tw_sh_held(sh, s))
		tw_sh_put(sh, s);
}

/*
 * Once every TW_SH_AGE_EVERY: idle shadows no engine holds a twin of any
 * more go back to the pool; armed ones the kernel never ended (an event
 * lost) that the model takes as gone (tw_ev_aged()) are closed.
 */
static void tw_sh_age(struct tw_runner *r, struct tw_sh *sh, unsigned long now)
{
	struct tw_shadow *s;
	u32 k;

	if (time_before(now, sh->next_age))
		return;
	sh->next_age = now + TW_SH_AGE_EVERY;
	for (k = 0; k < r->nr_timers; k++) {
		s = tw_sh_slot(r, k);
		if (!s->key)
			continue;
		if (!tw_sh_open(s) && !tw_sh_held(sh, s))
			tw_sh_put(sh, s);
		else if (tw_ev_aged(&s->t, now, HZ))
			tw_sh_close(r, sh, s, &sh->c.aged);
	}
}

/* Takes every event the probes recorded so far; drain_lock held. */
static void tw_sh_drain(struct tw_runner *r, struct tw_sh *sh)
{
	struct tw_sh_ring *ring = &sh->ring;
	const struct tw_sh_event *ev;
	unsigned long head, t, tail = ring->tail;
	struct tw_ev e = { .timed = 1 };

	if (!sh->clk_set) {
		unsigned long unused_be, clk = jiffies;
		unsigned int unused_idx;

		/* The engines' common clock: the driver ticked them all alike. */
		if (sh->nr_eng) {
			spin_lock(&sh->eng[0]->lock);
			sh->eng[0]->ops->where(sh->eng[0], 0, &unused_idx,
					       &unused_be, &clk);
			spin_unlock(&sh->eng[0]->lock);
		}
		sh->clk = clk;
		sh->next_age = jiffies + TW_SH_AGE_EVERY;
		sh->clk_set = true;
	}
	head = tw_sh_ring_head(ring);
	for (t = tail; t != head; t++) {
		ev = &ring->ev[t & ring->mask];
		/* the event as the model takes it: its number, its CPU's last */
		e.cpu = ev->cpu < nr_cpu_ids ? ev->cpu : 0;
		e.seq = ++sh->seq;
		e.cpu_prev = sh->cpu_prev[e.cpu];
		e.now = ev->jiffy;
		e.expires = ev->expires;
		e.has_base = ev->type == TW_SH_START;
		e.base_cpu = ev->flags & TIMER_CPUMASK;
		if (ev->type == TW_SH_START) {
			e.type = TW_EV_START;
			tw_sh_start(r, sh, ev, &e);
		} else if (ev->type == TW_SH_CANCEL) {
			e.type = TW_EV_CANCEL;
			tw_sh_cancel(r, sh, ev, &e);
		} else {
			e.type = TW_EV_EXPIRE;
			tw_sh_expire(r, sh, ev, &e);
		}
		sh->cpu_prev[e.cpu] = e.seq;
	}
	tw_sh_ring_done(ring, head);
	spin_lock(&r->lock);
	sh->c.drains++;
	sh->c.drained_max = max_t(u64, sh->c.drained_max, head - tail);
	spin_unlock(&r->lock);
}

/* ---- the runner ---- */

/* The driver's tick, first thing: take the events, move the engines. */
static bool tw_sh_feed(struct tw_runner *r, unsigned long now)
{
	struct tw_sh *sh = tw_sh_of(r);
	bool live;

	spin_lock(&sh->drain_lock);
	if (!sh->attached) {
		spin_unlock(&sh->drain_lock);
		return false;
	}
	/* The duration is up (or the guard ended it): record no more. */
	live = tw_workload_live();
	if (!live && READ_ONCE(sh->ring.on))
		tw_sh_ring_switch(&sh->ring, false);
	tw_sh_drain(r, sh);
	if (live) {
		tw_sh_advance(r, sh, now);
		tw_sh_age(r, sh, now);
	}
	spin_unlock(&sh->drain_lock);
	return true;
}

/*
 * Stops shadowing: no probe runs once this returns; the last events are
 * taken, the cancels still alone are deletes, and every shadow is closed
 * (its twins deleted), so that nothing stays armed. Process context.
 */
static void tw_sh_stop(struct tw_runner *r, struct tw_sh *sh)
{
	struct tw_shadow *s, *tmp;
	u32 k;

	if (!sh->attached)
		return;
	tw_sh_ring_switch(&sh->ring, false);
	tw_sh_detach(sh);
	spin_lock_bh(&sh->drain_lock);
	tw_sh_drain(r, sh);
	list_for_each_entry_safe(s, tmp, &sh->detached, link)
		tw_sh_cancelled(r, sh, s);
	for (k = 0; k < r->nr_timers; k++) {
		s = tw_sh_slot(r, k);
		if (s->key)
			tw_sh_close(r, sh, s, &sh->c.open_at_stop);
	}
	sh->attached = false;
	spin_unlock_bh(&sh->drain_lock);
}

/* Starts shadowing into every loaded engine: fresh accounts, the probes. */
static int tw_sh_activate(struct tw_runner *r, bool on)
{
	struct tw_sh *sh = tw_sh_of(r);
	struct tw_runner *e;
	int ret;

	if (!on) {
		tw_sh_stop(r, sh);
		return 0;
	}
	if (sh->why) {
		pr_warn_ratelimited("shadow: %s\n", sh->why);
		return -EOPNOTSUPP;
	}
	sh->nr_eng = 0;
	sh->modern = NULL;
	tw_for_each_runner(e) {
		if (!(e->ops->caps & TW_CAP_ENGINE) || !tw_runner_loaded(e) ||
		    WARN_ON_ONCE(e->id >= TWHEEL_NR_KINDS))
			continue;
		sh->eng[sh->nr_eng++] = e;
		/* the kernel's own wheel has the default depth */
		if (e->id == TWHEEL_MODERN && sh->depth == TW_MODERN_DEFAULT_DEPTH)
			sh->modern = e;
	}
	memset(&sh->c, 0, sizeof(sh->c));
	memset(sh->acct, 0, sizeof(sh->acct));
	sh->seq = 0;
	memset(sh->cpu_prev, 0, nr_cpu_ids * sizeof(*sh->cpu_prev));
	tw_sh_ring_reset(&sh->ring);
	ret = tw_sh_attach(sh);
	if (ret)
		return ret;
	spin_lock_bh(&sh->drain_lock);
	sh->attached = true;
	sh->clk_set = false;
	spin_unlock_bh(&sh->drain_lock);
	tw_sh_ring_switch(&sh->ring, true);
	return 0;
}

static int tw_sh_init(struct tw_runner *r, const struct tw_config *cfg)
{
	struct tw_sh *sh = kvzalloc(sizeof(*sh), GFP_KERNEL);

	if (!sh)
		return -ENOMEM;
	sh->cpu_prev = kvcalloc(nr_cpu_ids, sizeof(*sh->cpu_prev), GFP_KERNEL);
	if (!sh->cpu_prev) {
		kvfree(sh);
		return -ENOMEM;
	}
	raw_spin_lock_init(&sh->ring.lock);
	spin_lock_init(&sh->drain_lock);
	hash_init(sh->tbl);
	INIT_LIST_HEAD(&sh->free);
	INIT_LIST_HEAD(&sh->detached);
	sh->depth = cfg->engine.depth;
	tw_sh_tps_find(sh);
	r->priv = sh;
	return 0;
}

static void tw_sh_release(struct tw_runner *r)
{
	struct tw_sh *sh = tw_sh_of(r);

	/* stop detached the probes (tw_runners_activate()) before the timers went */
	WARN_ON_ONCE(sh->attached);
	kvfree(sh->ring.ev);
	kvfree(sh->cpu_prev);
	kvfree(sh);
	r->priv = NULL;
}

/* Room for a load: the ring (the shadows are the runner's timers). */
static int tw_sh_reserve(struct tw_runner *r, u32 count)
{
	return tw_sh_ring_reserve(&tw_sh_of(r)->ring, count);
}

/* A load's shadows, all free: the first one empties the pool first. */
static void tw_sh_setup(struct tw_runner *r, struct tw_wtimer *w)
{
	struct tw_sh *sh = tw_sh_of(r);
	struct tw_shadow *s = tw_shadow_of(w);

	if (!w->id) {
		hash_init(sh->tbl);
		INIT_LIST_HEAD(&sh->free);
		INIT_LIST_HEAD(&sh->detached);
	}
	INIT_HLIST_NODE(&s->node);
	s->key = NULL;
	memset(&s->t, 0, sizeof(s->t));
	list_add_tail(&s->link, &sh->free);
}

/* The kernel arms the shadows; no workload op does (none is ever asked to). */
static void tw_sh_arm(struct tw_runner *r, struct tw_wtimer *w,
		      unsigned long expires)
{
}

/* Frees a tracked shadow (stop closed them all already; lock held). */
static void tw_sh_del(struct tw_runner *r, struct tw_wtimer *w)
{
	struct tw_shadow *s = tw_shadow_of(w);

	if (!s->key)
		return;
	if (tw_sh_open(s))
		r->st->deleted++;
	if (s->t.cancel)
		list_del_init(&s->link);
	tw_sh_put(tw_sh_of(r), s);
}

static bool tw_sh_pending(struct tw_runner *r, struct tw_wtimer *w)
{
	return tw_sh_open(tw_shadow_of(w));
}

/* tick=nohz: events come at any jiffy, so the tick runs every one. */
static unsigned long tw_sh_next_event(struct tw_runner *r, unsigned long now,
				      unsigned long limit)
{
	return READ_ONCE(tw_sh_of(r)->attached) ? 0 : limit;
}

/* The real traffic's cost to the kernel: every TIMER_SOFTIRQ run. */
static bool tw_sh_busy_cost(struct tw_runner *r, struct twheel_hist *h)
{
	return tw_softirq_all(TW_SIRQ_TIMER, h);
}

static u32 tw_sh_max_timers(struct tw_runner *r)
{
	return TWHEEL_MAX_SHADOWS;
}

/* ---- read-out: the kernel's side, then one block per engine ---- */

#define TW_SH_C(k)	{ #k, offsetof(struct tw_sh_counts, k) }
static const struct {
	const char *key;
	size_t off;
} tw_sh_ckeys[] = {
	TW_SH_C(pool_full), TW_SH_C(cancel_untracked), TW_SH_C(expire_untracked),
	TW_SH_C(cancel_idle), TW_SH_C(expire_idle), TW_SH_C(rearmed),
	TW_SH_C(start_armed), TW_SH_C(expire_unpaired), TW_SH_C(cancels),
	TW_SH_C(aged), TW_SH_C(open_at_stop), TW_SH_C(jumps), TW_SH_C(drains),
	TW_SH_C(drained_max),
	{ "idx_agree", offsetof(struct tw_sh_counts, idx[TW_SH_IDX_AGREE]) },
	{ "idx_kernel_behind", offsetof(struct tw_sh_counts, idx[TW_SH_IDX_BEHIND]) },
	TW_SH_C(idx_behind_deferrable), TW_SH_C(idx_behind_remote),
	{ "idx_kernel_ahead", offsetof(struct tw_sh_counts, idx[TW_SH_IDX_AHEAD]) },
	{ "idx_unordered", offsetof(struct tw_sh_counts, idx[TW_SH_IDX_UNORDERED]) },
	{ "idx_wrong", offsetof(struct tw_sh_counts, idx[TW_SH_IDX_WRONG]) },
};

static void tw_sh_show(struct seq_file *m, struct tw_runner *r)
{
	struct tw_sh *sh = tw_sh_of(r);
	struct tw_sh_counts *c;
	unsigned int i;

	seq_printf(m, "probes: %s\n", sh->why ? sh->why :
		   READ_ONCE(sh->attached) ? "attached" : "detached");
	seq_printf(m, "bucket_expiry: %s\n", TW_SH_HAVE_BE ? "kernel" : "derived");
	seq_printf(m, "idx_engine: %s\n", sh->modern ? "modern" : "none");
	tw_sh_ring_show(m, &sh->ring);
	c = kmalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return;
	spin_lock_bh(&r->lock);
	*c = sh->c;
	spin_unlock_bh(&r->lock);
	for (i = 0; i < ARRAY_SIZE(tw_sh_ckeys); i++)
		seq_printf(m, "%s: %llu\n", tw_sh_ckeys[i].key,
			   *(u64 *)((char *)c + tw_sh_ckeys[i].off));
	kfree(c);
	tw_sh_show_twins(m, sh);
}

const struct tw_runner_ops tw_shadow_runner_ops = {
	.timer_size	= sizeof(struct tw_shadow),
	.caps		= TW_CAP_KERNEL,
	.init		= tw_sh_init,
	.release	= tw_sh_release,
	.reserve	= tw_sh_reserve,
	.setup		= tw_sh_setup,
	.arm		= tw_sh_arm,
	.del		= tw_sh_del,
	.pending	= tw_sh_pending,
	.next_event	= tw_sh_next_event,
	.busy_cost	= tw_sh_busy_cost,
	.show		= tw_sh_show,
	.twin_ran	= tw_shadow_ran,
	.max_timers	= tw_sh_max_timers,
	.activate	= tw_sh_activate,
	.feed		= tw_sh_feed,
};

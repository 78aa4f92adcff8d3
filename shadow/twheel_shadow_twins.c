// SPDX-License-Identifier: GPL-2.0
/*
 * twheel shadow: the engines' side (see twheel_shadow.c). Shadow k's twin
 * on engine runner e is e's workload timer k; every op on it is taken
 * under e's lock, and so is e's account of the real traffic (struct
 * tw_sh_eng) and the twin's state in the shadow. The drain never holds
 * another runner's lock meanwhile.
 */
#include <linux/kernel.h>
#include <linux/jiffies.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include "shadow/twheel_shadow_impl.h"

/**
 * tw_sh_level_expiry() - the kernel's bucket_expiry of a bucket
 * @expires: the timer's expiry, not in the past
 * @kidx: the kernel's bucket index it was filed in (level and slot)
 *
 * Return: the bucket_expiry the kernel's calc_index() gives @expires at
 * that bucket's level: @expires in units of the level's granularity, plus
 * one unit, back in jiffies.
 */
unsigned long tw_sh_level_expiry(unsigned long expires, unsigned int kidx)
{
	unsigned int shift = kidx / TW_LVL_SIZE * TW_LVL_CLK_SHIFT;

	return ((expires >> shift) + 1) << shift;
}

/**
 * twheel_shadow_idx() - the modern wheel's bucket for a start against the kernel's
 * @expires: the start's expiry
 * @kernel: where the kernel filed it (its bucket_expiry if known)
 * @ours: where the modern engine filed it
 * @clk: the modern engine's clock then, the next jiffy it processes
 * @depth: the levels of both wheels
 *
 * A bucket is a level and a slot; the slot is a function of @expires and
 * the level alone, the level of the delta from the wheel's clock. So the
 * kernel's bucket tells which clocks it may have had: a start in the past
 * is filed at the clock's own bucket and bucket_expiry (the clock
 * itself); any other in the level whose delta range holds @expires - clock.
 * Where @clk is one of those, our bucket must be the kernel's.
 *
 * Return: TW_SH_IDX_AGREE, or why not: the kernel's clock was behind or
 * ahead of @clk, or differs in an order unknown (a start in the past
 * without the kernel's bucket_expiry; the last level's clamp), or
 * TW_SH_IDX_WRONG: a clock the kernel may have had, or a bucket no clock
 * gives.
 */
enum tw_sh_idx twheel_shadow_idx(unsigned long expires,
				 const struct tw_sh_where *kernel,
				 const struct tw_sh_where *ours,
				 unsigned long clk, unsigned int depth)
{
	unsigned int lvl = kernel->idx / TW_LVL_SIZE;
	unsigned int slot = kernel->idx % TW_LVL_SIZE;
	long d = (long)(expires - clk), lo, hi;
	bool past;

	if (ours->idx == kernel->idx &&
	    (!kernel->have_be || !ours->have_be ||
	     ours->bucket_expiry == kernel->bucket_expiry))
		return TW_SH_IDX_AGREE;
	if (lvl >= depth)
		return TW_SH_IDX_WRONG;
	past = !lvl && (kernel->have_be ? kernel->bucket_expiry != expires + 1 :
			slot != ((expires + 1) & (TW_LVL_SIZE - 1)));
	if (past) {
		if (!kernel->have_be)
			return d < 0 ? TW_SH_IDX_UNORDERED : TW_SH_IDX_AHEAD;
		/* the clock's own bucket, or no clock's; ours, or another */
		if (slot != (kernel->bucket_expiry & (TW_LVL_SIZE - 1)) ||
		    kernel->bucket_expiry == clk)
			return TW_SH_IDX_WRONG;
		return time_after(clk, kernel->bucket_expiry) ? TW_SH_IDX_BEHIND :
								TW_SH_IDX_AHEAD;
	}
	if (slot != ((tw_sh_level_expiry(expires, kernel->idx) >>
		      (lvl * TW_LVL_CLK_SHIFT)) & (TW_LVL_SIZE - 1)) ||
	    (kernel->have_be &&
	     kernel->bucket_expiry != tw_sh_level_expiry(expires, kernel->idx)))
		return lvl == depth - 1 ? TW_SH_IDX_UNORDERED : TW_SH_IDX_WRONG;
	lo = lvl ? tw_lvl_start(lvl) : 0;
	hi = lvl + 1 < depth ? tw_lvl_start(lvl + 1) - 1 : LONG_MAX;
	if (d < lo)
		return TW_SH_IDX_BEHIND;
	if (d > hi)
		return TW_SH_IDX_AHEAD;
	return TW_SH_IDX_WRONG;
}
EXPORT_SYMBOL_GPL(twheel_shadow_idx);

/*
 * The modern engine's bucket for start ev against the kernel's; its lock
 * held. Counted by the caller, which holds no engine lock then.
 */
static enum tw_sh_idx tw_sh_where(struct tw_sh *sh, struct tw_runner *e,
				  const struct tw_sh_event *ev)
{
	struct tw_sh_where k = {
		.idx = ev->flags >> TIMER_ARRAYSHIFT,
		.bucket_expiry = ev->arg,
		.have_be = TW_SH_HAVE_BE,
	}, o;
	unsigned long clk;

	o.have_be = e->ops->where(e, ev->expires, &o.idx, &o.bucket_expiry,
				    &clk);
	return twheel_shadow_idx(ev->expires, &k, &o, clk, sh->depth);
}

/**
 * struct tw_twin_op - what is done to a shadow's twins, engine by engine
 * @ev: arm: the start
 * @kj: expire: the jiffy the kernel expired the arming at
 * @where: arm: the modern engine's bucket against the kernel's
 * @close: drop: the shadowing closes the shadow (else the kernel deleted)
 * @held: held: an engine still holds a twin
 */
struct tw_twin_op {
	const struct tw_sh_event *ev;
	unsigned long kj;
	enum tw_sh_idx where;
	bool close;
	bool held;
};

/* One engine's twin w of shadow s, its account a; the engine's lock held. */
typedef void (*tw_twin_fn)(struct tw_sh *sh, struct tw_shadow *s,
			   struct tw_runner *e, struct tw_sh_eng *a,
			   struct tw_wtimer *w, struct tw_twin_op *op);

static void tw_sh_each_twin(struct tw_sh *sh, struct tw_shadow *s,
			    tw_twin_fn fn, struct tw_twin_op *op)
{
	struct tw_runner *e;
	unsigned int i;

	for (i = 0; i < sh->nr_eng; i++) {
		e = sh->eng[i];
		spin_lock(&e->lock);
		fn(sh, s, e, &sh->acct[e->id], tw_runner_timer(e, s->w.id), op);
		spin_unlock(&e->lock);
	}
}

/*
 * A start: a mod of the twin (an add where it is not pending), closing
 * what the engine did of the arming before; on the modern engine, its
 * bucket against the kernel's first.
 */
static void tw_twin_arm(struct tw_sh *sh, struct tw_shadow *s,
			struct tw_runner *e, struct tw_sh_eng *a,
			struct tw_wtimer *w, struct tw_twin_op *op)
{
	bool was = e->ops->pending(e, w);

	if (e == sh->modern)
		op->where = tw_sh_where(sh, e, op->ev);
	if (s->twin[e->id] == TW_TWIN_FIRED)
		a->rearm_fired++;
	else if (s->twin[e->id] == TW_TWIN_AWAIT)
		a->exp_lost++;
	s->twin[e->id] = TW_TWIN_NONE;
	tw_runner_arm(e, w, op->ev->expires);
	if (!e->ops->pending(e, w)) {
		if (was)
			a->refused_mod++;
		else
			a->refused_add++;
	}
}

/**
 * tw_sh_arm_twins() - a start of the kernel's: arm the shadow's twins
 * @sh: the shadow runner's state
 * @s: the shadow of the started timer
 * @ev: the start
 *
 * On each engine, a mod of the twin (an add where it is not pending),
 * closing what the engine did of the previous arming and counting a twin
 * refused; on the modern engine, its bucket is first set against the
 * kernel's.
 * Context: the shadow's drain (@sh->drain_lock held, bottom halves off);
 * takes each engine's lock in turn.
 *
 * Return: the modern engine's verdict on its bucket (twheel_shadow_idx()),
 * or TW_SH_NR_IDX without a modern engine.
 */
enum tw_sh_idx tw_sh_arm_twins(struct tw_sh *sh, struct tw_shadow *s,
			       const struct tw_sh_event *ev)
{
	struct tw_twin_op op = { .ev = ev, .where = TW_SH_NR_IDX };

	tw_sh_each_twin(sh, s, tw_twin_arm, &op);
	return op.where;
}

/* The arming ends by a delete: the kernel's (a lone cancel), or a close. */
static void tw_twin_drop(struct tw_sh *sh, struct tw_shadow *s,
			 struct tw_runner *e, struct tw_sh_eng *a,
			 struct tw_wtimer *w, struct tw_twin_op *op)
{
	bool fired = s->twin[e->id] == TW_TWIN_FIRED;

	if (e->ops->pending(e, w)) {
		e->ops->del(e, w);
		if (!op->close) {
			a->dels++;
		} else {
			a->closed++;
			a->exp_closed += s->twin[e->id] == TW_TWIN_AWAIT;
		}
	} else if (fired) {
		if (op->close)
			a->fired_open++;
		else
			a->del_fired++;
	} else if (!op->close) {
		a->del_unheld++;
	}
	s->twin[e->id] = TW_TWIN_NONE;
}

/**
 * tw_sh_drop_twins() - a shadow's arming ended by a delete: drop its twins
 * @sh: the shadow runner's state
 * @s: the shadow
 * @close: the shadowing closes @s (aged, or stopped); false: the kernel
 *	deleted the timer (a lone cancel)
 *
 * Deletes each engine's twin where pending and counts what each engine
 * had done of the arming against the kind of delete.
 * Context: the shadow's drain (@sh->drain_lock held, bottom halves off);
 * takes each engine's lock in turn.
 */
void tw_sh_drop_twins(struct tw_sh *sh, struct tw_shadow *s, bool close)
{
	struct tw_twin_op op = { .close = close };

	tw_sh_each_twin(sh, s, tw_twin_drop, &op);
}

/* The kernel expired the arming: the engine's firing set against it. */
static void tw_twin_expire(struct tw_sh *sh, struct tw_shadow *s,
			   struct tw_runner *e, struct tw_sh_eng *a,
			   struct tw_wtimer *w, struct tw_twin_op *op)
{
	long d = (long)(op->kj - s->at[e->id]);
	bool same = e == sh->modern && s->same_bucket;

	a->same_bucket += same;
	if (s->twin[e->id] == TW_TWIN_FIRED) {
		if (!d) {
			a->exp_at++;
			a->same_bucket_at += same;
		} else if (d > 0) {
			a->exp_ahead++;
			twheel_hist_add(&a->ahead_j, d);
		} else {
			a->exp_behind++;
			a->exp_behind_past += s->past;
			twheel_hist_add(&a->behind_j, -d);
		}
		s->twin[e->id] = TW_TWIN_NONE;
	} else if (e->ops->pending(e, w)) {
		s->twin[e->id] = TW_TWIN_AWAIT;
		s->at[e->id] = op->kj;
	} else {
		a->exp_unheld++;
	}
}

/**
 * tw_sh_expire_twins() - the kernel expired a shadow's arming
 * @sh: the shadow runner's state
 * @s: the shadow
 * @kj: the jiffy the kernel expired it at; the engines have done every
 *	jiffy up to it
 *
 * Sets each engine's firing against it: at, ahead or behind the kernel's
 * jiffy if the twin fired; still awaited if it is pending (settled when it
 * fires, tw_shadow_ran()); else counted as not held.
 * Context: the shadow's drain (@sh->drain_lock held, bottom halves off);
 * takes each engine's lock in turn.
 */
void tw_sh_expire_twins(struct tw_sh *sh, struct tw_shadow *s,
			unsigned long kj)
{
	struct tw_twin_op op = { .kj = kj };

	tw_sh_each_twin(sh, s, tw_twin_expire, &op);
}

static void tw_twin_held(struct tw_sh *sh, struct tw_shadow *s,
			 struct tw_runner *e, struct tw_sh_eng *a,
			 struct tw_wtimer *w, struct tw_twin_op *op)
{
	op->held |= s->twin[e->id] == TW_TWIN_AWAIT;
}

/**
 * tw_sh_held() - whether an engine still holds a twin of an idle shadow
 * @sh: the shadow runner's state
 * @s: the idle shadow
 *
 * Context: the shadow's drain (@sh->drain_lock held, bottom halves off);
 * takes each engine's lock in turn.
 *
 * Return: true if an engine's twin of @s is still awaited (the kernel
 * expired the arming, the engine has not fired it yet).
 */
bool tw_sh_held(struct tw_sh *sh, struct tw_shadow *s)
{
	struct tw_twin_op op = {};

	tw_sh_each_twin(sh, s, tw_twin_held, &op);
	return op.held;
}

/**
 * tw_shadow_ran() - an engine fired a shadow's twin
 * @self: the shadow runner
 * @r: the engine runner; its lock held
 * @w: the twin
 *
 * The shadow's tw_runner_ops.twin_ran: the runner layer calls it for every
 * run of a shadow load's workload timer, inside the engine's tick, which
 * only the shadow's drain calls while it is attached: the jiffy is the one
 * it steps the engines through.
 */
void tw_shadow_ran(struct tw_runner *self, struct tw_runner *r,
		   struct tw_wtimer *w)
{
	struct tw_sh *sh = tw_sh_of(self);
	struct tw_shadow *s = tw_sh_slot(self, w->id);
	struct tw_sh_eng *a = &sh->acct[r->id];

	if (s->twin[r->id] == TW_TWIN_AWAIT) {
		a->exp_behind++;
		a->exp_behind_past += s->past;
		twheel_hist_add(&a->behind_j, sh->step - s->at[r->id]);
		s->twin[r->id] = TW_TWIN_NONE;
		return;
	}
	s->twin[r->id] = TW_TWIN_FIRED;
	s->at[r->id] = sh->step;
}

struct tw_sh_key {
	const char *key;
	size_t off;
};

#define TW_SH_E(k)	{ #k, offsetof(struct tw_sh_eng, k) }
static const struct tw_sh_key tw_sh_ekeys[] = {
	TW_SH_E(refused_add), TW_SH_E(refused_mod), TW_SH_E(dels),
	TW_SH_E(del_fired), TW_SH_E(del_unheld), TW_SH_E(rearm_fired),
	TW_SH_E(exp_at), TW_SH_E(exp_ahead), TW_SH_E(exp_behind),
	TW_SH_E(exp_behind_past),
	TW_SH_E(exp_lost), TW_SH_E(exp_closed), TW_SH_E(exp_unheld),
	TW_SH_E(closed), TW_SH_E(fired_open), TW_SH_E(same_bucket),
	TW_SH_E(same_bucket_at),
};

/**
 * tw_sh_show_twins() - the engines' part of the shadow's stats
 * @m: the stats file
 * @sh: the shadow runner's state
 *
 * One block per engine, [shadow:<engine>]: its account of the kernel's
 * traffic (copied under the engine's lock, bottom halves off) and the
 * histograms of its firings ahead of and behind the kernel. Prints nothing
 * if the copy's memory cannot be had. Process context.
 */
void tw_sh_show_twins(struct seq_file *m, struct tw_sh *sh)
{
	struct tw_sh_eng *a = kmalloc(sizeof(*a), GFP_KERNEL);
	unsigned int i, k;

	if (!a)
		return;
	for (i = 0; i < sh->nr_eng; i++) {
		spin_lock_bh(&sh->eng[i]->lock);
		*a = sh->acct[sh->eng[i]->id];
		spin_unlock_bh(&sh->eng[i]->lock);
		seq_printf(m, "\n[shadow:%s]\n", sh->eng[i]->name);
		for (k = 0; k < ARRAY_SIZE(tw_sh_ekeys); k++)
			seq_printf(m, "%s: %llu\n", tw_sh_ekeys[k].key,
				   *(u64 *)((char *)a + tw_sh_ekeys[k].off));
		twheel_hist_show(m, "ahead_jiffies", &a->ahead_j);
		twheel_hist_show(m, "behind_jiffies", &a->behind_j);
	}
	kfree(a);
}

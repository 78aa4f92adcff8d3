// SPDX-License-Identifier: GPL-2.0
/*
 * twheel bench: add, mod and del on the loaded timers of every runner.
 *
 * Process context, batches of TW_BENCH_BATCH ops timed with bottom halves
 * off, so no timer softirq runs inside a batch on this CPU. Same timers,
 * same deltas, same order on every runner; the deltas are drawn before a
 * batch's clock starts, so what is timed is the runner's op and the loop.
 * Small workloads repeat the add-mod-del round until TW_BENCH_MIN_OPS ops
 * of each kind are timed, so one disturbed batch weighs little.
 */
#include <linux/kernel.h>
#include <linux/bottom_half.h>
#include <linux/ktime.h>
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include "driver/twheel_bench.h"
#include "runner/twheel_state.h"
#include "runner/twheel_softirq.h"
#include "driver/twheel_tick.h"

#define TW_BENCH_BATCH		1024
#define TW_BENCH_MIN_OPS	16384

/* A batch's deltas, drawn before its clock starts; tw_bench() holds tw_ctl. */
static u32 tw_bench_dl[TW_BENCH_BATCH];

/* The jiffies a batch began and ended at. */
struct tw_bench_jif {
	unsigned long from, to;
};

/*
 * The delta of bench op @op on timer @j: the workload's draw of its first
 * arming for the add (and the del, which ignores it), of its second for the
 * mod. A mod drawn equal to the add (always so where min = max: burst) is
 * one jiffy longer, so that it moves its timer however many jiffies passed
 * since the add (one shorter would meet the add's expiry when one had):
 * the kernel's mod_timer() returns at once for an unchanged expiry, and
 * the mod's cost would follow where the ticks fell in the bench.
 */
static u32 tw_bench_delta(u32 j, enum tw_bench_op op)
{
	u32 d0 = twheel_wl_delta(&tw_wl.p, j, 0), d1;

	if (op != TW_OP_MOD)
		return d0;
	d1 = twheel_wl_delta(&tw_wl.p, j, 1);
	if (d1 != d0)
		return d1;
	return d1 + 1;
}

/*
 * After a timed mod batch [i, end) that ran from jiffy @from to @to, with
 * @add the jiffies of the add batch of the same timers: the mods that
 * re-armed to the expiry their timer had (the add's jiffy plus its delta
 * is the mod's jiffy plus its delta), which the kernel's mod_timer()
 * returns from at once. Known where no tick fell in either batch; the
 * others are counted as unknown. Untimed.
 */
static void tw_bench_same(struct tw_opcost *oc, const struct tw_bench_jif *add,
			  unsigned long from, unsigned long to, u32 i, u32 end)
{
	u32 j;

	if (add->from != add->to || from != to) {
		oc->mod_unknown += end - i;
		return;
	}
	for (j = i; j < end; j++)
		if (add->from + tw_bench_delta(j, TW_OP_ADD) ==
		    from + tw_bench_delta(j, TW_OP_MOD))
			oc->mod_same++;
}

/*
 * A batch ends early, untimed, when the runner needs room for its next arm
 * (struct tw_runner_ops.needs_room, asked of runners with room_watch only):
 * it gets it between batches. Each op is on the instance the timer lives
 * in (a per-CPU one with percpu=1). With @bj (kernel runners without
 * room_watch: batches of TW_BENCH_BATCH), the add phase keeps each batch's
 * jiffies there and the mod phase counts its same-expiry mods from them,
 * outside the timed part. @dl holds a batch's deltas.
 */
static u64 tw_bench_phase(struct tw_runner *r, enum tw_bench_op op, u32 n,
			  struct tw_bench_jif *bj, u32 *dl)
{
	unsigned long from, to;
	u64 t0, sum = 0;
	struct tw_runner *in = r;
	struct tw_wtimer *w;
	bool room;
	u32 i, j, end;

	for (i = 0; i < n; i = j) {
		end = min(n, i + TW_BENCH_BATCH);
		for (j = i; j < end; j++)
			dl[j - i] = tw_bench_delta(j, op);
		room = false;
		local_bh_disable();
		from = jiffies;
		t0 = ktime_get_ns();
		for (j = i; j < end && !room; j++) {
			w = tw_runner_timer(r, j);
			in = w->r;
			r->ops->bench_op(in, w, op, dl[j - i]);
			room = in->room_watch && r->ops->needs_room(in);
		}
		sum += ktime_get_ns() - t0;
		to = jiffies;
		local_bh_enable();
		if (bj && op == TW_OP_ADD)
			bj[i / TW_BENCH_BATCH] = (struct tw_bench_jif){ from, to };
		else if (bj && op == TW_OP_MOD)
			tw_bench_same(&r->opcost, &bj[i / TW_BENCH_BATCH], from, to,
				      i, j);
		if (room)
			r->ops->make_room(in);
		cond_resched();
	}
	return sum;
}

static void tw_bench_runner(struct tw_runner *r)
{
	u32 reps = DIV_ROUND_UP(TW_BENCH_MIN_OPS, tw_wl.p.count), i;
	struct tw_opcost *oc = &r->opcost;
	struct tw_bench_jif *bj = NULL;
	enum tw_bench_op op;

	memset(oc, 0, sizeof(*oc));
	/*
	 * One untimed round first: warm caches and, under QEMU TCG, get the
	 * code paths translated before the clock runs.
	 */
	for (op = 0; op < TW_NR_OPS; op++)
		tw_bench_phase(r, op, min_t(u32, tw_wl.p.count, TW_BENCH_BATCH),
			       NULL, tw_bench_dl);
	if ((r->ops->caps & TW_CAP_KERNEL) && !r->room_watch)
		bj = kvmalloc_array(DIV_ROUND_UP(tw_wl.p.count, TW_BENCH_BATCH),
				    sizeof(*bj), GFP_KERNEL);
	oc->mod_counted = !!bj;
	for (i = 0; i < reps; i++)
		for (op = 0; op < TW_NR_OPS; op++)
			oc->ns[op] += tw_bench_phase(r, op, tw_wl.p.count, bj,
						     tw_bench_dl);
	oc->n = tw_wl.p.count * reps;
	kvfree(bj);
}

/* Nothing armed: what r's counters say is pending is brought back to 0. */
static void tw_bench_unpend(struct tw_runner *r)
{
	spin_lock_bh(&r->lock);
	r->st->added = r->st->expired + r->st->deleted;
	spin_unlock_bh(&r->lock);
}

/**
 * tw_bench() - measure the op cost of every loaded runner
 *
 * With the tick stopped, times batches of add, mod and del on each loaded
 * runner's workload timers (one untimed round first) into its opcost,
 * disarms everything, brings the kernel runners' pending count back to 0
 * and the idle engines to now, resets the counters and starts the tick
 * again. The workload stays loaded, nothing armed. Context: tw_ctl held,
 * no workload running; process context, may sleep.
 */
void tw_bench(void)
{
	struct tw_runner *r, *in;

	/* Our engines do not move meanwhile; the kernel's timers may expire. */
	tw_tick_cancel();
	tw_for_each_runner(r)
		if (tw_runner_loaded(r))
			tw_bench_runner(r);
	tw_runners_disarm();
	tw_for_each_runner(r) {
		/*
		 * The bench armed the kernel's timers behind the counters;
		 * any that ran meanwhile counted as expired, and took what
		 * the counters say is pending below zero. Nothing is armed
		 * now: pending is brought back to 0.
		 */
		if (!(r->ops->caps & TW_CAP_KERNEL))
			continue;
		/* with percpu=1 the timer_list counts per CPU too */
		tw_for_each_inst(r, in)
			tw_bench_unpend(in);
		if (r->inst)
			tw_bench_unpend(r);
	}
	/* Bring idle engines to now, so the next tick is no catch-up. */
	tw_runners_tick(jiffies);
	tw_runners_reset_counters();
	tw_softirq_reset();
	tw_tick_start();
}

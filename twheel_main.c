// SPDX-License-Identifier: GPL-2.0
/*
 * twheel module: engine instances and their locks, the hrtimer tick that
 * drives them, workloads, and /sys/kernel/debug/twheel.
 *
 * Locking: one spinlock per engine instance. The tick (softirq) takes it
 * plainly, process context with _bh. Callbacks run with no engine lock
 * held. tw_ctl (a mutex) serialises control commands. Workload timers are
 * freed only with the tick cancelled, so no callback can touch them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <linux/jiffies.h>
#include <linux/string.h>
#include <linux/log2.h>
#include <linux/interrupt.h>
#include <linux/percpu.h>
#include <linux/tracepoint.h>
#include <linux/utsname.h>
#include "twheel.h"
#include "twheel_workload.h"
#include "twheel_hist.h"

static char *engines = "classic,modern,timer_list,hrtimer";
module_param(engines, charp, 0444);
MODULE_PARM_DESC(engines, "what workloads run on: classic,modern,reference,timer_list,hrtimer");

static unsigned int modern_depth = TW_MODERN_DEFAULT_DEPTH;
module_param(modern_depth, uint, 0444);
MODULE_PARM_DESC(modern_depth, "levels of the modern wheel (2..9; default 9 if HZ > 100, else 8)");

static unsigned int tick_jiffies = 1;
module_param(tick_jiffies, uint, 0444);
MODULE_PARM_DESC(tick_jiffies, "the driver ticks every this many jiffies (1..HZ; default 1)");

static unsigned int wrap_secs;
module_param(wrap_secs, uint, 0444);
MODULE_PARM_DESC(wrap_secs, "test only: the engines' clock wraps this many seconds after load (0: engines use jiffies)");

/*
 * The engines' time is jiffies + tw_jofs. Zero unless wrap_secs asks for a
 * wrap of unsigned long soon after load; the kernel's timers always use
 * jiffies.
 */
static unsigned long tw_jofs;

static unsigned long tw_now(void)
{
	return jiffies + tw_jofs;
}

/* What the driver measures per engine, on top of the engine's counters. */
struct tw_drv_stats {
	u64 ticks;		/* ticks that advanced the engine */
	u64 catchups;		/* ticks that had to cover missed jiffies */
	u64 missed;		/* jiffies those covered beyond their own */
	u64 runs;		/* callbacks run */
	u64 early;		/* callbacks before their expiry: must stay 0 */
	u64 exact;		/* callbacks at exactly their expiry jiffy */
	u64 cascaded_max;	/* most timers cascaded in one tick */
	u64 expired_max;	/* most callbacks in one tick */
	struct twheel_hist tick_ns;		/* whole tick, this engine */
	struct twheel_hist busy_ns;		/* ticks that ran or cascaded timers */
	struct twheel_hist cascade_ns;		/* ticks that cascaded */
	struct twheel_hist late_j;		/* jiffy run - expires */
	struct twheel_hist late_ns;		/* ns past the expiry jiffy's instant */
};

struct tw_wtimer {
	struct twheel_timer t;
	struct tw_instance *in;
	u32 id;
	u32 gen;		/* how often it was armed */
	u64 nominal_ns;		/* its expiry jiffy's instant, estimated */
};

struct tw_instance {
	spinlock_t lock;	/* the engine, its stats, active */
	enum twheel_kind kind;
	struct twheel_engine *e;
	union {
		struct twheel_classic classic;
		struct twheel_modern modern;
		struct twheel_reference reference;
	} *u;
	struct tw_drv_stats ds;
	bool active;		/* workload activity: re-arms and ops */
	struct tw_wtimer *wt;	/* this engine's workload timers */
	u32 nr_wt;
	struct dentry *dir;
};

/* One of the kernel's own timers, run by the same workload. */
struct tw_ktimer {
	union {
		struct timer_list tl;
		struct hrtimer hr;
	};
	struct tw_krunner *kr;
	u32 id;
	u32 gen;
	unsigned long expires;	/* the jiffy asked for */
	u64 nominal_ns;		/* that jiffy's instant, estimated at arming */
};

/* The kernel's timer_list or hrtimer, with counters like an engine's. */
struct tw_krunner {
	spinlock_t lock;	/* counters, active */
	int kind;		/* TWHEEL_TIMER_LIST or TWHEEL_HRTIMER */
	bool active;
	struct tw_ktimer *kt;
	u32 nr_kt;
	u64 added, deleted, expired, modified;
	u64 rearmed_inflight;	/* runs re-armed elsewhere meanwhile (SMP) */
	u64 pending;
	struct tw_drv_stats ds;	/* runs, exact, early, lateness */
};

enum tw_state { TW_EMPTY, TW_LOADED, TW_RUNNING };

static const char *const tw_state_names[] = { "empty", "loaded", "running" };

static struct tw_instance tw_inst[TWHEEL_NR_KINDS];
static struct tw_krunner tw_kr[TWHEEL_NR_RUNNERS - TWHEEL_NR_KINDS];
static unsigned long tw_mask;			/* runners that exist */

/* The bench's op cost per runner, for the loaded workload (under tw_ctl). */
enum { TW_OP_ADD, TW_OP_MOD, TW_OP_DEL, TW_NR_OPS };
#define TW_BENCH_BATCH	1024

struct tw_opcost {
	u64 ns[TW_NR_OPS];		/* total over n ops each */
	u32 n;				/* 0: not measured for this load */
};

static struct tw_opcost tw_oc[TWHEEL_NR_RUNNERS];

static DEFINE_MUTEX(tw_ctl);			/* control commands */
static enum tw_state tw_state;			/* under tw_ctl */
static struct twheel_params tw_params;		/* fixed while running */
static u64 tw_ticks_run;			/* ticks since start (tick only) */
static unsigned long tw_start_jiffies;
static bool tw_activity;			/* read by the tick */
static struct hrtimer tw_tick;
static ktime_t tw_period;
static struct dentry *tw_root;
static unsigned int tw_levels_hz = HZ, tw_levels_depth;

#define tw_names twheel_runner_names

static u64 tw_clock(void)
{
	return ktime_get_ns();
}

/*
 * ---- the kernel's own cost: TIMER_SOFTIRQ and HRTIMER_SOFTIRQ ----
 *
 * Probes on the softirq_entry/softirq_exit tracepoints time every run of
 * the two vectors on every CPU. The tracepoints are not exported to
 * modules, so they are looked up by name. Our own tick is a soft hrtimer,
 * so it runs inside HRTIMER_SOFTIRQ: the time it takes there is subtracted.
 * A run is "busy" when at least one timer_list (resp. hrtimer) workload
 * callback ran in it: those are the counterpart of our engines' busy ticks.
 */
enum { TW_SIRQ_TIMER, TW_SIRQ_HRTIMER, TW_NR_SIRQ };

static const char *const tw_sirq_names[TW_NR_SIRQ] = {
	"timer_softirq", "hrtimer_softirq"
};

/*
 * The probes run with preemption off (on PREEMPT_RT too), so the lock is
 * raw; process context takes it with bottom halves off.
 */
struct tw_sirq {
	raw_spinlock_t lock;		/* the histograms */
	struct twheel_hist all_ns;		/* every run */
	struct twheel_hist busy_ns;		/* runs with workload callbacks */
};

struct tw_sirq_cpu {
	u64 t0[TW_NR_SIRQ];		/* this run's start; 0: not seen */
	u32 cbs[TW_NR_SIRQ];		/* workload callbacks in this run */
	u64 own_ns;			/* our tick's time in this run */
};

static struct tw_sirq *tw_sirq;		/* [TW_NR_SIRQ]; NULL: no probes */
static DEFINE_PER_CPU(struct tw_sirq_cpu, tw_sirq_cpu);
static const char *tw_sirq_why = "not set up";

/* For process context. */
static void tw_sirq_lock(struct tw_sirq *s)
	__acquires(&s->lock)
{
	local_bh_disable();
	raw_spin_lock(&s->lock);
}

static void tw_sirq_unlock(struct tw_sirq *s)
	__releases(&s->lock)
{
	raw_spin_unlock(&s->lock);
	local_bh_enable();
}

/*
 * Without CONFIG_TRACEPOINTS the kernel has neither the tracepoints nor
 * the functions to attach to them.
 */
#ifdef CONFIG_TRACEPOINTS
static struct tracepoint *tw_tp_entry, *tw_tp_exit;

static int tw_sirq_vec(unsigned int vec_nr)
{
	if (vec_nr == TIMER_SOFTIRQ)
		return TW_SIRQ_TIMER;
	if (vec_nr == HRTIMER_SOFTIRQ)
		return TW_SIRQ_HRTIMER;
	return -1;
}

static void tw_sirq_entry(void *data, unsigned int vec_nr)
{
	struct tw_sirq_cpu *c = this_cpu_ptr(&tw_sirq_cpu);
	int v = tw_sirq_vec(vec_nr);

	if (v < 0)
		return;
	c->cbs[v] = 0;
	if (v == TW_SIRQ_HRTIMER)
		c->own_ns = 0;
	c->t0[v] = ktime_get_ns();
}

static void tw_sirq_exit(void *data, unsigned int vec_nr)
{
	struct tw_sirq_cpu *c = this_cpu_ptr(&tw_sirq_cpu);
	int v = tw_sirq_vec(vec_nr);
	struct tw_sirq *s;
	u64 d;

	if (v < 0 || !c->t0[v])
		return;
	d = ktime_get_ns() - c->t0[v];
	c->t0[v] = 0;
	if (v == TW_SIRQ_HRTIMER)
		d -= min(d, c->own_ns);
	s = &tw_sirq[v];
	raw_spin_lock(&s->lock);
	twheel_hist_add(&s->all_ns, d);
	if (c->cbs[v])
		twheel_hist_add(&s->busy_ns, d);
	raw_spin_unlock(&s->lock);
}

static void tw_tp_find(struct tracepoint *tp, void *unused)
{
	if (!strcmp(tp->name, "softirq_entry"))
		tw_tp_entry = tp;
	else if (!strcmp(tp->name, "softirq_exit"))
		tw_tp_exit = tp;
}

/* Attaches the probes; on failure the reason is kept for the read-outs. */
static void tw_sirq_init(void)
{
	int v, ret;

	for_each_kernel_tracepoint(tw_tp_find, NULL);
	if (!tw_tp_entry || !tw_tp_exit) {
		tw_sirq_why = "no softirq_entry/softirq_exit tracepoint in this kernel";
		goto fail;
	}
	tw_sirq = kcalloc(TW_NR_SIRQ, sizeof(*tw_sirq), GFP_KERNEL);
	if (!tw_sirq) {
		tw_sirq_why = "out of memory";
		goto fail;
	}
	for (v = 0; v < TW_NR_SIRQ; v++)
		raw_spin_lock_init(&tw_sirq[v].lock);
	ret = tracepoint_probe_register(tw_tp_entry, (void *)tw_sirq_entry, NULL);
	if (ret) {
		tw_sirq_why = "softirq_entry: probe not accepted";
		goto fail_free;
	}
	ret = tracepoint_probe_register(tw_tp_exit, (void *)tw_sirq_exit, NULL);
	if (ret) {
		tw_sirq_why = "softirq_exit: probe not accepted";
		tracepoint_probe_unregister(tw_tp_entry, (void *)tw_sirq_entry, NULL);
		tracepoint_synchronize_unregister();
		goto fail_free;
	}
	return;
fail_free:
	kfree(tw_sirq);
	tw_sirq = NULL;
fail:
	pr_info("kernel softirq cost unavailable: %s\n", tw_sirq_why);
}

static void tw_sirq_exit_all(void)
{
	if (!tw_sirq)
		return;
	tracepoint_probe_unregister(tw_tp_exit, (void *)tw_sirq_exit, NULL);
	tracepoint_probe_unregister(tw_tp_entry, (void *)tw_sirq_entry, NULL);
	tracepoint_synchronize_unregister();
	kfree(tw_sirq);
	tw_sirq = NULL;
}
#else
static void tw_sirq_init(void)
{
	tw_sirq_why = "the kernel has no tracepoints (CONFIG_TRACEPOINTS=n)";
	pr_info("kernel softirq cost unavailable: %s\n", tw_sirq_why);
}

static void tw_sirq_exit_all(void)
{
}
#endif

static void tw_sirq_reset(void)
{
	int v;

	for (v = 0; tw_sirq && v < TW_NR_SIRQ; v++) {
		tw_sirq_lock(&tw_sirq[v]);
		memset(&tw_sirq[v].all_ns, 0, sizeof(tw_sirq[v].all_ns));
		memset(&tw_sirq[v].busy_ns, 0, sizeof(tw_sirq[v].busy_ns));
		tw_sirq_unlock(&tw_sirq[v]);
	}
}

/* ---- the kernel's own timers, driven by the same workloads ---- */

/* The kernel runner at or after *k that the module runs, or NULL. */
static struct tw_krunner *tw_kr_next(int *k)
{
	*k = find_next_bit(&tw_mask, TWHEEL_NR_RUNNERS, *k);
	return *k < TWHEEL_NR_RUNNERS ? &tw_kr[*k - TWHEEL_NR_KINDS] : NULL;
}

/* Arms (or re-arms) kt for jiffy expires; kr->lock held. */
static void tw_k_arm(struct tw_ktimer *kt, unsigned long expires)
{
	struct tw_krunner *kr = kt->kr;
	long d = (long)(expires - jiffies);
	bool was;

	d = max(d, 0L);
	kt->expires = expires;
	kt->nominal_ns = ktime_get_ns() + (u64)d * TICK_NSEC;
	if (kr->kind == TWHEEL_TIMER_LIST) {
		was = mod_timer(&kt->tl, expires);
	} else {
		was = hrtimer_is_queued(&kt->hr);
		hrtimer_start(&kt->hr, ns_to_ktime((u64)d * TICK_NSEC),
			      HRTIMER_MODE_REL_SOFT);
	}
	if (was) {
		kr->modified++;
	} else {
		kr->added++;
		kr->pending++;
	}
}

/* Armed and not yet run (a running callback's timer is not pending). */
static bool tw_k_pending(struct tw_ktimer *kt)
{
	if (kt->kr->kind == TWHEEL_TIMER_LIST)
		return timer_pending(&kt->tl);
	return hrtimer_is_queued(&kt->hr);
}

/* Deletes kt if pending, without waiting; kr->lock held. */
static void tw_k_del(struct tw_ktimer *kt)
{
	struct tw_krunner *kr = kt->kr;
	int ret;

	if (kr->kind == TWHEEL_TIMER_LIST)
#ifdef TW_HAVE_TIMER_DELETE
		ret = timer_delete(&kt->tl);
#else
		ret = del_timer(&kt->tl);
#endif
	else
		ret = hrtimer_try_to_cancel(&kt->hr) == 1;
	if (ret > 0) {
		kr->deleted++;
		kr->pending--;
	}
}

/*
 * A kernel timer ran (at now_ns): account, then re-arm like our engines'
 * timers do. On SMP the tick's activity ops may have re-armed it on another
 * CPU while this callback was on its way: then kt holds the new arming, not
 * this run's, so the run is counted without a lateness sample.
 */
static void tw_k_ran(struct tw_ktimer *kt, u64 now_ns)
{
	struct tw_krunner *kr = kt->kr;
	bool hr = kr->kind == TWHEEL_HRTIMER;
	s64 late_ns;
	long late;

	spin_lock(&kr->lock);
	kr->expired++;
	kr->pending--;
	kr->ds.runs++;
	if (tw_k_pending(kt)) {
		kr->rearmed_inflight++;
		spin_unlock(&kr->lock);
		return;
	}
	late = (long)(jiffies - kt->expires);
	late_ns = (s64)(now_ns - (hr ? ktime_to_ns(hrtimer_get_expires(&kt->hr)) :
			 kt->nominal_ns));
	/* An hrtimer keeps ns time, not jiffies: early is judged in ns. */
	if (hr ? late_ns < 0 : late < 0)
		kr->ds.early++;
	else if (!late)
		kr->ds.exact++;
	twheel_hist_add(&kr->ds.late_j, max(late, 0L));
	twheel_hist_add(&kr->ds.late_ns, max_t(s64, late_ns, 0));
	if (kr->active && twheel_wl_rearms(&tw_params, kt->id)) {
		kt->gen++;
		tw_k_arm(kt, jiffies + twheel_wl_delta(&tw_params, kt->id, kt->gen));
	}
	spin_unlock(&kr->lock);
}

static void tw_tl_fn(struct timer_list *tl)
{
	struct tw_ktimer *kt = container_of(tl, struct tw_ktimer, tl);

	this_cpu_inc(tw_sirq_cpu.cbs[TW_SIRQ_TIMER]);
	tw_k_ran(kt, ktime_get_ns());
}

static enum hrtimer_restart tw_hr_fn(struct hrtimer *hr)
{
	struct tw_ktimer *kt = container_of(hr, struct tw_ktimer, hr);

	this_cpu_inc(tw_sirq_cpu.cbs[TW_SIRQ_HRTIMER]);
	tw_k_ran(kt, ktime_get_ns());
	return HRTIMER_NORESTART;
}

static void tw_k_setup(struct tw_krunner *kr, struct tw_ktimer *kt, u32 id)
{
	kt->kr = kr;
	kt->id = id;
	if (kr->kind == TWHEEL_TIMER_LIST) {
		timer_setup(&kt->tl, tw_tl_fn, 0);
		return;
	}
#ifdef TW_HAVE_HRTIMER_SETUP
	hrtimer_setup(&kt->hr, tw_hr_fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
#else
	hrtimer_init(&kt->hr, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	kt->hr.function = tw_hr_fn;
#endif
}

/* This tick's activity ops on a kernel runner. */
static void tw_k_tick_ops(struct tw_krunner *kr, u64 tick)
{
	struct twheel_op op;
	struct tw_ktimer *kt;
	u32 j;

	spin_lock(&kr->lock);
	for (j = 0; kr->active && j < tw_params.ops; j++) {
		twheel_wl_op(&tw_params, tick, j, &op);
		kt = &kr->kt[op.id];
		if (op.cancel && tw_k_pending(kt)) {
			tw_k_del(kt);
			continue;
		}
		kt->gen++;
		tw_k_arm(kt, jiffies + twheel_wl_delta(&tw_params, kt->id, kt->gen));
	}
	spin_unlock(&kr->lock);
}

/* Stops every kernel timer and waits for running callbacks; may sleep. */
static void tw_k_disarm(void)
{
	struct tw_krunner *kr;
	int k, ret;
	u32 i;

	for (k = TWHEEL_NR_KINDS; (kr = tw_kr_next(&k)); k++) {
		spin_lock_bh(&kr->lock);
		kr->active = false;
		spin_unlock_bh(&kr->lock);
		for (i = 0; i < kr->nr_kt; i++) {
			if (kr->kind == TWHEEL_TIMER_LIST)
#ifdef TW_HAVE_TIMER_DELETE
				ret = timer_delete_sync(&kr->kt[i].tl);
#else
				ret = del_timer_sync(&kr->kt[i].tl);
#endif
			else
				ret = hrtimer_cancel(&kr->kt[i].hr);
			if (ret > 0) {
				spin_lock_bh(&kr->lock);
				kr->deleted++;
				kr->pending--;
				spin_unlock_bh(&kr->lock);
			}
			if (!(i & 1023))
				cond_resched();
		}
	}
}

static void tw_k_arm_all(unsigned long base)
{
	struct tw_krunner *kr;
	u32 i, j, end;
	int k;

	for (k = TWHEEL_NR_KINDS; (kr = tw_kr_next(&k)); k++) {
		for (i = 0; i < kr->nr_kt; i = end) {
			end = min(kr->nr_kt, i + 1024);
			spin_lock_bh(&kr->lock);
			for (j = i; j < end; j++) {
				kr->kt[j].gen = 0;
				tw_k_arm(&kr->kt[j],
					 base + twheel_wl_delta(&tw_params, j, 0));
			}
			spin_unlock_bh(&kr->lock);
			cond_resched();
		}
	}
}

static void tw_k_set_active(bool on)
{
	struct tw_krunner *kr;
	int k;

	for (k = TWHEEL_NR_KINDS; (kr = tw_kr_next(&k)); k++) {
		spin_lock_bh(&kr->lock);
		kr->active = on && kr->kt;
		spin_unlock_bh(&kr->lock);
	}
}

/* ---- the tick ---- */

/*
 * Arms w for engine jiffy expires; in->lock held. The nominal instant is
 * estimated as for the kernel's timers: now + the jiffies to go.
 */
static void tw_w_arm(struct tw_instance *in, struct tw_wtimer *w,
		     unsigned long expires)
{
	long d = (long)(expires - tw_now());

	w->nominal_ns = ktime_get_ns() + (u64)max(d, 0L) * TICK_NSEC;
	twheel_mod(in->e, &w->t, expires);
}

static void tw_wtimer_fn(struct twheel_timer *t)
{
	struct tw_wtimer *w = container_of(t, struct tw_wtimer, t);
	struct tw_instance *in = w->in;

	if (!twheel_wl_rearms(&tw_params, w->id))
		return;
	spin_lock(&in->lock);
	if (in->active && !twheel_pending(in->e, t)) {
		w->gen++;
		tw_w_arm(in, w, tw_now() + twheel_wl_delta(&tw_params, w->id, w->gen));
	}
	spin_unlock(&in->lock);
}

/* Runs the timers the engine handed out at jiffy j, lock held on entry. */
static unsigned int tw_run_collected(struct tw_instance *in, unsigned long j)
{
	struct twheel_timer *t;
	struct tw_wtimer *w;
	unsigned int n = 0;
	long late;

	while ((t = twheel_pop(in->e))) {
		w = container_of(t, struct tw_wtimer, t);
		late = (long)(j - t->expires);
		in->ds.runs++;
		if (late < 0)
			in->ds.early++;
		else if (!late)
			in->ds.exact++;
		twheel_hist_add(&in->ds.late_j, late < 0 ? 0 : late);
		twheel_hist_add(&in->ds.late_ns,
				max_t(s64, ktime_get_ns() - w->nominal_ns, 0));
		n++;
		spin_unlock(&in->lock);
		t->function(t);
		spin_lock(&in->lock);
	}
	return n;
}

/* Advances one engine to now, jiffy with work by jiffy with work. */
static void tw_tick_engine(struct tw_instance *in, unsigned long now)
{
	struct twheel_engine *e = in->e;
	u64 t0 = ktime_get_ns(), cascaded;
	unsigned long span, d;
	unsigned int runs = 0;

	spin_lock(&in->lock);
	if (time_before(now, e->clk)) {
		spin_unlock(&in->lock);
		return;
	}
	span = now - e->clk;
	if (span >= tick_jiffies) {
		in->ds.catchups++;
		in->ds.missed += span + 1 - tick_jiffies;
	}
	cascaded = e->st.cascaded;
	e->cascade_ns = 0;
	while (!time_after(e->clk, now)) {
		span = now - e->clk;
		d = twheel_next_event(e, span + 1);
		if (d > span) {
			twheel_advance(e, now);
			break;
		}
		twheel_advance(e, e->clk + d);
		runs += tw_run_collected(in, e->clk - 1);
	}
	in->ds.ticks++;
	in->ds.expired_max = max_t(u64, in->ds.expired_max, runs);
	cascaded = e->st.cascaded - cascaded;
	if (cascaded) {
		in->ds.cascaded_max = max(in->ds.cascaded_max, cascaded);
		twheel_hist_add(&in->ds.cascade_ns, e->cascade_ns);
	}
	t0 = ktime_get_ns() - t0;
	twheel_hist_add(&in->ds.tick_ns, t0);
	if (runs || cascaded)
		twheel_hist_add(&in->ds.busy_ns, t0);
	spin_unlock(&in->lock);
}

/* This tick's activity ops on one engine: delete, re-arm or arm. */
static void tw_tick_ops(struct tw_instance *in, u64 tick)
{
	struct twheel_op op;
	struct tw_wtimer *w;
	u32 j;

	spin_lock(&in->lock);
	for (j = 0; in->active && j < tw_params.ops; j++) {
		twheel_wl_op(&tw_params, tick, j, &op);
		w = &in->wt[op.id];
		if (op.cancel && twheel_pending(in->e, &w->t)) {
			twheel_del(in->e, &w->t);
			continue;
		}
		w->gen++;
		tw_w_arm(in, w, tw_now() + twheel_wl_delta(&tw_params, w->id, w->gen));
	}
	spin_unlock(&in->lock);
}

static void tw_set_active(bool on, bool bh)
{
	struct tw_instance *in;
	int k;

	for_each_set_bit(k, &tw_mask, TWHEEL_NR_KINDS) {
		in = &tw_inst[k];
		if (bh)
			spin_lock_bh(&in->lock);
		else
			spin_lock(&in->lock);
		in->active = on && in->wt;
		if (bh)
			spin_unlock_bh(&in->lock);
		else
			spin_unlock(&in->lock);
	}
}

static enum hrtimer_restart tw_tick_fn(struct hrtimer *h)
{
	unsigned long now = tw_now();
	u64 t0 = ktime_get_ns();
	struct tw_krunner *kr;
	bool act = READ_ONCE(tw_activity);
	int k;

	for_each_set_bit(k, &tw_mask, TWHEEL_NR_KINDS)
		tw_tick_engine(&tw_inst[k], now);
	if (act && tw_params.duration &&
	    time_after(now, tw_start_jiffies + tw_params.duration * HZ)) {
		WRITE_ONCE(tw_activity, false);
		tw_set_active(false, false);
		for (k = TWHEEL_NR_KINDS; (kr = tw_kr_next(&k)); k++) {
			spin_lock(&kr->lock);
			kr->active = false;
			spin_unlock(&kr->lock);
		}
		act = false;
	}
	if (act) {
		for_each_set_bit(k, &tw_mask, TWHEEL_NR_KINDS)
			if (tw_inst[k].wt)
				tw_tick_ops(&tw_inst[k], tw_ticks_run);
		for (k = TWHEEL_NR_KINDS; (kr = tw_kr_next(&k)); k++)
			if (kr->kt)
				tw_k_tick_ops(kr, tw_ticks_run);
		tw_ticks_run++;
	}
	/* Not the kernel's cost: taken out of this HRTIMER_SOFTIRQ run. */
	this_cpu_add(tw_sirq_cpu.own_ns, ktime_get_ns() - t0);
	hrtimer_forward_now(h, tw_period);
	return HRTIMER_RESTART;
}

static void tw_tick_start(void)
{
	hrtimer_start(&tw_tick, tw_period, HRTIMER_MODE_REL_PINNED_SOFT);
}

/* ---- workloads ---- */

/*
 * Applies fn to every workload timer of an engine under its lock, in
 * batches, so that a million timers never keep softirqs off for long.
 */
static void tw_wl_batched(struct tw_instance *in,
			  void (*fn)(struct tw_instance *in, struct tw_wtimer *w,
				     unsigned long arg),
			  unsigned long arg)
{
	u32 i, j, end;

	for (i = 0; i < in->nr_wt; i = end) {
		end = min(in->nr_wt, i + 1024);
		spin_lock_bh(&in->lock);
		for (j = i; j < end; j++)
			fn(in, &in->wt[j], arg);
		spin_unlock_bh(&in->lock);
		cond_resched();
	}
}

static void tw_wtimer_del(struct tw_instance *in, struct tw_wtimer *w,
			  unsigned long unused)
{
	twheel_del(in->e, &w->t);
}

static void tw_wtimer_arm(struct tw_instance *in, struct tw_wtimer *w,
			  unsigned long base)
{
	w->gen = 0;
	tw_w_arm(in, w, base + twheel_wl_delta(&tw_params, w->id, 0));
}

/* Takes every workload timer out of its engine. */
static void tw_wl_disarm(void)
{
	int k;

	for_each_set_bit(k, &tw_mask, TWHEEL_NR_KINDS)
		tw_wl_batched(&tw_inst[k], tw_wtimer_del, 0);
	tw_k_disarm();
}

/* Frees the workload timers; the tick must be cancelled (no callbacks). */
static void tw_wl_free(void)
{
	struct tw_instance *in;
	struct tw_krunner *kr;
	int k;

	tw_wl_disarm();
	for_each_set_bit(k, &tw_mask, TWHEEL_NR_KINDS) {
		in = &tw_inst[k];
		kvfree(in->wt);
		in->wt = NULL;
		in->nr_wt = 0;
	}
	for (k = TWHEEL_NR_KINDS; (kr = tw_kr_next(&k)); k++) {
		kvfree(kr->kt);
		kr->kt = NULL;
		kr->nr_kt = 0;
	}
	tw_state = TW_EMPTY;
}

static void tw_reset_counters(void)
{
	struct tw_krunner *kr;
	struct tw_instance *in;
	unsigned long pending;
	int k;

	for_each_set_bit(k, &tw_mask, TWHEEL_NR_KINDS) {
		in = &tw_inst[k];
		spin_lock_bh(&in->lock);
		pending = in->e->st.pending;
		/* Every cumulative counter comes before pending. */
		BUILD_BUG_ON(offsetof(struct twheel_stats, added) != 0);
		memset(&in->e->st, 0, offsetof(struct twheel_stats, pending));
		/* Keep the invariant: what is pending now counts as added. */
		in->e->st.added = pending;
		memset(&in->ds, 0, sizeof(in->ds));
		spin_unlock_bh(&in->lock);
	}
	for (k = TWHEEL_NR_KINDS; (kr = tw_kr_next(&k)); k++) {
		spin_lock_bh(&kr->lock);
		kr->added = kr->pending;
		kr->deleted = 0;
		kr->expired = 0;
		kr->modified = 0;
		kr->rearmed_inflight = 0;
		memset(&kr->ds, 0, sizeof(kr->ds));
		spin_unlock_bh(&kr->lock);
	}
	tw_sirq_reset();
}

/*
 * The workload arrays are sized by the user (up to TWHEEL_MAX_TIMERS): if
 * memory is short the load fails with -ENOMEM, it neither wakes the OOM
 * killer nor warns.
 */
#define TW_GFP_WORKLOAD	(GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

static int tw_wl_load(const struct twheel_params *p)
{
	struct tw_wtimer *wt[TWHEEL_NR_KINDS] = {};
	struct tw_ktimer *kt[TWHEEL_NR_RUNNERS - TWHEEL_NR_KINDS] = {};
	struct tw_krunner *kr;
	struct tw_instance *in;
	unsigned long mask = p->engines ? p->engines : tw_mask;
	u32 i;
	int k;

	if (mask & ~tw_mask) {
		pr_warn_ratelimited("load: engines= names an engine the module was not loaded with (engines=%s)\n",
				    engines);
		return -EINVAL;
	}
	/* Allocate first: a load refused for memory leaves everything as it was. */
	for_each_set_bit(k, &mask, TWHEEL_NR_RUNNERS) {
		if (k < TWHEEL_NR_KINDS) {
			wt[k] = kvcalloc(p->count, sizeof(**wt), TW_GFP_WORKLOAD);
			if (!wt[k])
				goto nomem;
		} else {
			kt[k - TWHEEL_NR_KINDS] = kvcalloc(p->count, sizeof(**kt),
							   TW_GFP_WORKLOAD);
			if (!kt[k - TWHEEL_NR_KINDS])
				goto nomem;
		}
	}
	hrtimer_cancel(&tw_tick);
	tw_wl_free();
	for_each_set_bit(k, &tw_mask, TWHEEL_NR_KINDS) {
		in = &tw_inst[k];
		if (!wt[k])
			continue;
		for (i = 0; i < p->count; i++) {
			twheel_timer_setup(in->e, &wt[k][i].t, tw_wtimer_fn);
			wt[k][i].in = in;
			wt[k][i].id = i;
		}
		in->wt = wt[k];
		in->nr_wt = p->count;
	}
	for (k = TWHEEL_NR_KINDS; (kr = tw_kr_next(&k)); k++) {
		if (!kt[k - TWHEEL_NR_KINDS])
			continue;
		kr->kt = kt[k - TWHEEL_NR_KINDS];
		for (i = 0; i < p->count; i++)
			tw_k_setup(kr, &kr->kt[i], i);
		kr->nr_kt = p->count;
	}
	tw_params = *p;
	tw_state = TW_LOADED;
	memset(tw_oc, 0, sizeof(tw_oc));
	/* Fresh counters for a fresh workload (nothing is pending now). */
	tw_reset_counters();
	tw_tick_start();
	return 0;

nomem:
	pr_warn_ratelimited("load: no memory for %u timers on %s\n", p->count,
			    tw_names[k]);
	for (i = 0; i < ARRAY_SIZE(wt); i++)
		kvfree(wt[i]);
	for (i = 0; i < ARRAY_SIZE(kt); i++)
		kvfree(kt[i]);
	return -ENOMEM;
}

static void tw_wl_start(void)
{
	unsigned long base;
	int k;

	/*
	 * Same base jiffy on every engine, so the same expiries everywhere;
	 * and no tick while arming, so no engine moves past the base and
	 * takes a timer armed from it as one in the past. The first tick
	 * afterwards catches up (counted in catchups).
	 */
	hrtimer_cancel(&tw_tick);
	/* Each run counts alone (nothing is armed before a start). */
	tw_reset_counters();
	base = tw_now();
	for_each_set_bit(k, &tw_mask, TWHEEL_NR_KINDS)
		tw_wl_batched(&tw_inst[k], tw_wtimer_arm, base);
	tw_start_jiffies = base;
	tw_ticks_run = 0;
	tw_set_active(true, true);
	tw_k_set_active(true);
	tw_k_arm_all(base - tw_jofs);
	WRITE_ONCE(tw_activity, true);
	tw_state = TW_RUNNING;
	tw_tick_start();
}

/*
 * ---- op cost: add, mod and del on the loaded timers ----
 *
 * Process context, batches of TW_BENCH_BATCH ops timed with bottom halves
 * off, so no timer softirq runs inside a batch on this CPU. Same timers,
 * same deltas, same order on every runner. Our engines' op includes an
 * uncontended spinlock, as mod_timer() includes its base lock.
 */

static bool tw_runner_loaded(int r)
{
	if (r < TWHEEL_NR_KINDS)
		return tw_inst[r].wt;
	return (tw_mask & BIT(r)) && tw_kr[r - TWHEEL_NR_KINDS].kt;
}

static void tw_bench_one(int r, int op, u32 i, unsigned long base)
{
	u32 d = twheel_wl_delta(&tw_params, i, op == TW_OP_MOD);
	struct tw_instance *in;
	struct tw_ktimer *kt;

	if (r < TWHEEL_NR_KINDS) {
		in = &tw_inst[r];
		spin_lock(&in->lock);
		if (op == TW_OP_ADD)
			twheel_add(in->e, &in->wt[i].t, base + d);
		else if (op == TW_OP_MOD)
			twheel_mod(in->e, &in->wt[i].t, base + d);
		else
			twheel_del(in->e, &in->wt[i].t);
		spin_unlock(&in->lock);
		return;
	}
	kt = &tw_kr[r - TWHEEL_NR_KINDS].kt[i];
	if (r == TWHEEL_TIMER_LIST) {
		if (op != TW_OP_DEL)
			mod_timer(&kt->tl, base + d);
		else
#ifdef TW_HAVE_TIMER_DELETE
			timer_delete(&kt->tl);
#else
			del_timer(&kt->tl);
#endif
	} else {
		if (op != TW_OP_DEL)
			hrtimer_start(&kt->hr, ns_to_ktime((u64)d * TICK_NSEC),
				      HRTIMER_MODE_REL_SOFT);
		else
			hrtimer_try_to_cancel(&kt->hr);
	}
}

static u64 tw_bench_phase(int r, int op, u32 n)
{
	/* Our engines stand still during the bench: file from their clock. */
	unsigned long base = r < TWHEEL_NR_KINDS ? tw_inst[r].e->clk : jiffies;
	u64 t0, sum = 0;
	u32 i, j, end;

	for (i = 0; i < n; i = end) {
		end = min(n, i + TW_BENCH_BATCH);
		local_bh_disable();
		t0 = ktime_get_ns();
		for (j = i; j < end; j++)
			tw_bench_one(r, op, j, base);
		sum += ktime_get_ns() - t0;
		local_bh_enable();
		cond_resched();
	}
	return sum;
}

/*
 * Measures every loaded runner; the workload stays loaded, nothing armed.
 * Small workloads repeat the add-mod-del round until TW_BENCH_MIN_OPS ops
 * of each kind are timed, so one disturbed batch weighs little.
 */
#define TW_BENCH_MIN_OPS	16384

static void tw_bench(void)
{
	u32 reps = DIV_ROUND_UP(TW_BENCH_MIN_OPS, tw_params.count), i;
	struct tw_krunner *kr;
	int r, op;

	/* Our engines do not move meanwhile; the kernel's timers may expire. */
	hrtimer_cancel(&tw_tick);
	for (r = 0; r < TWHEEL_NR_RUNNERS; r++) {
		if (!tw_runner_loaded(r))
			continue;
		memset(&tw_oc[r], 0, sizeof(tw_oc[r]));
		/*
		 * One untimed round first: warm caches and, under QEMU TCG,
		 * get the code paths translated before the clock runs.
		 */
		for (op = 0; op < TW_NR_OPS; op++)
			tw_bench_phase(r, op, min_t(u32, tw_params.count, TW_BENCH_BATCH));
		for (i = 0; i < reps; i++)
			for (op = 0; op < TW_NR_OPS; op++)
				tw_oc[r].ns[op] += tw_bench_phase(r, op, tw_params.count);
		tw_oc[r].n = tw_params.count * reps;
	}
	tw_wl_disarm();
	/*
	 * The bench armed the kernel's timers behind the runners' counters;
	 * any that ran meanwhile took pending below zero. Nothing is armed
	 * now, so pending is 0 before the counters restart.
	 */
	for (r = TWHEEL_NR_KINDS; (kr = tw_kr_next(&r)); r++) {
		spin_lock_bh(&kr->lock);
		kr->pending = 0;
		spin_unlock_bh(&kr->lock);
	}
	/* Bring the idle engines to now, so the next tick is no catch-up. */
	for_each_set_bit(r, &tw_mask, TWHEEL_NR_KINDS) {
		spin_lock_bh(&tw_inst[r].lock);
		twheel_advance(tw_inst[r].e, tw_now());
		spin_unlock_bh(&tw_inst[r].lock);
	}
	tw_reset_counters();
	tw_tick_start();
}

/*
 * ---- comparison records: one row per runner and stopped run ----
 */
enum tw_col {
	TW_C_ADD, TW_C_MOD, TW_C_DEL,
	TW_C_TICKS, TW_C_T50, TW_C_T99, TW_C_TMAX, TW_C_PERRUN,
	TW_C_CASC_NS, TW_C_CASC_N,
	TW_C_LJ50, TW_C_LJ99, TW_C_LJMAX,
	TW_C_LN50, TW_C_LN99, TW_C_LNMAX,
	TW_C_RUNS, TW_C_EXPIRED, TW_C_DELETED, TW_C_EARLY,
	TW_NR_COLS
};

#define TW_NA		U64_MAX
#define TW_MAX_ROWS	(12 * TWHEEL_NR_RUNNERS)	/* the last 12 runs at least */

struct tw_row {
	u8 wl, runner;
	u32 count;
	u32 run;		/* which stopped run */
	u64 v[TW_NR_COLS];
};

static struct tw_row tw_rows[TW_MAX_ROWS];	/* under tw_ctl */
static unsigned int tw_nrows;
static u32 tw_run_nr;

/* p50, p99 and max; "n/a" for an empty histogram, never a made-up 0. */
static void tw_row_hist(u64 *v, const struct twheel_hist *h)
{
	if (!h->n) {
		v[0] = TW_NA;
		v[1] = TW_NA;
		v[2] = TW_NA;
		return;
	}
	v[0] = twheel_hist_pct(h, 500);
	v[1] = twheel_hist_pct(h, 990);
	v[2] = h->max;
}

/* Busy tick time per callback run: what one expiry costs, all in. */
static u64 tw_row_perrun(const struct twheel_hist *busy, u64 runs)
{
	return runs ? div64_u64(busy->sum, runs) : TW_NA;
}

static void tw_row_late(struct tw_row *row, const struct tw_drv_stats *ds)
{
	tw_row_hist(&row->v[TW_C_LJ50], &ds->late_j);
	tw_row_hist(&row->v[TW_C_LN50], &ds->late_ns);
	row->v[TW_C_RUNS] = ds->runs;
	row->v[TW_C_EARLY] = ds->early;
}

static void tw_row_fill(struct tw_row *row, int r)
{
	struct tw_instance *in;
	struct tw_krunner *kr;
	struct tw_sirq *sq;
	int op;

	for (op = 0; op < TW_NR_OPS; op++)
		row->v[TW_C_ADD + op] = tw_oc[r].n ?
			div_u64(tw_oc[r].ns[op], tw_oc[r].n) : TW_NA;
	if (r < TWHEEL_NR_KINDS) {
		in = &tw_inst[r];
		spin_lock_bh(&in->lock);
		row->v[TW_C_TICKS] = in->ds.busy_ns.n;
		tw_row_hist(&row->v[TW_C_T50], &in->ds.busy_ns);
		row->v[TW_C_CASC_NS] = in->ds.cascade_ns.max;
		row->v[TW_C_CASC_N] = in->ds.cascaded_max;
		tw_row_late(row, &in->ds);
		row->v[TW_C_PERRUN] = tw_row_perrun(&in->ds.busy_ns, in->ds.runs);
		row->v[TW_C_EXPIRED] = in->e->st.expired;
		row->v[TW_C_DELETED] = in->e->st.deleted;
		spin_unlock_bh(&in->lock);
		return;
	}
	row->v[TW_C_CASC_NS] = TW_NA;
	row->v[TW_C_CASC_N] = TW_NA;
	row->v[TW_C_TICKS] = TW_NA;
	row->v[TW_C_T50] = TW_NA;
	row->v[TW_C_T99] = TW_NA;
	row->v[TW_C_TMAX] = TW_NA;
	row->v[TW_C_PERRUN] = TW_NA;
	/* One section: the runner is inactive, but timers still expire. */
	kr = &tw_kr[r - TWHEEL_NR_KINDS];
	spin_lock_bh(&kr->lock);
	tw_row_late(row, &kr->ds);
	row->v[TW_C_EXPIRED] = kr->expired;
	row->v[TW_C_DELETED] = kr->deleted;
	spin_unlock_bh(&kr->lock);
	if (tw_sirq) {
		sq = &tw_sirq[r == TWHEEL_TIMER_LIST ? TW_SIRQ_TIMER : TW_SIRQ_HRTIMER];
		tw_sirq_lock(sq);
		row->v[TW_C_TICKS] = sq->busy_ns.n;
		tw_row_hist(&row->v[TW_C_T50], &sq->busy_ns);
		row->v[TW_C_PERRUN] = tw_row_perrun(&sq->busy_ns, row->v[TW_C_RUNS]);
		tw_sirq_unlock(sq);
	}
}

/* Appends the running workload's rows; the oldest runs go when full. */
static void tw_record_run(void)
{
	unsigned int n = 0, drop;
	struct tw_row *row;
	int r;

	for (r = 0; r < TWHEEL_NR_RUNNERS; r++)
		n += tw_runner_loaded(r);
	while (tw_nrows + n > TW_MAX_ROWS) {
		for (drop = 1; drop < tw_nrows &&
		     tw_rows[drop].run == tw_rows[0].run; drop++)
			;
		tw_nrows -= drop;
		memmove(tw_rows, tw_rows + drop, sizeof(tw_rows[0]) * tw_nrows);
	}
	tw_run_nr++;
	for (r = 0; r < TWHEEL_NR_RUNNERS; r++) {
		if (!tw_runner_loaded(r))
			continue;
		row = &tw_rows[tw_nrows++];
		row->wl = tw_params.type;
		row->runner = r;
		row->count = tw_params.count;
		row->run = tw_run_nr;
		tw_row_fill(row, r);
	}
}

static void tw_wl_stop(void)
{
	WRITE_ONCE(tw_activity, false);
	tw_set_active(false, true);
	tw_k_set_active(false);
	tw_record_run();
	tw_wl_disarm();
	tw_state = TW_LOADED;
}

/* ---- debugfs: control ---- */

static int tw_exec(struct twheel_cmd *cmd)
{
	switch (cmd->verb) {
	case TWHEEL_CMD_LOAD:
		if (tw_state == TW_RUNNING) {
			pr_warn_ratelimited("load: a workload is running; stop it first\n");
			return -EBUSY;
		}
		return tw_wl_load(&cmd->p);
	case TWHEEL_CMD_START:
		if (tw_state != TW_LOADED) {
			pr_warn_ratelimited("start: %s\n", tw_state == TW_RUNNING ?
					    "already running" : "no workload loaded");
			return tw_state == TW_RUNNING ? -EBUSY : -EINVAL;
		}
		tw_wl_start();
		return 0;
	case TWHEEL_CMD_STOP:
		if (tw_state != TW_RUNNING) {
			pr_warn_ratelimited("stop: nothing is running\n");
			return -EINVAL;
		}
		tw_wl_stop();
		return 0;
	case TWHEEL_CMD_RESET:
		tw_reset_counters();
		return 0;
	case TWHEEL_CMD_BENCH:
		if (tw_state != TW_LOADED) {
			pr_warn_ratelimited("bench: %s\n", tw_state == TW_RUNNING ?
					    "a workload is running; stop it first" :
					    "no workload loaded");
			return tw_state == TW_RUNNING ? -EBUSY : -EINVAL;
		}
		tw_bench();
		return 0;
	case TWHEEL_CMD_CLEAR:
		tw_nrows = 0;
		return 0;
	case TWHEEL_CMD_UNLOAD:
		if (tw_state == TW_RUNNING) {
			pr_warn_ratelimited("unload: a workload is running; stop it first\n");
			return -EBUSY;
		}
		hrtimer_cancel(&tw_tick);
		tw_wl_free();
		tw_tick_start();
		return 0;
	}
	return -EINVAL;
}

static ssize_t control_write(struct file *file, const char __user *ubuf,
			     size_t len, loff_t *ppos)
{
	struct twheel_cmd cmd;
	char buf[TWHEEL_CMD_MAX], why[160];
	int ret;

	if (len >= sizeof(buf)) {
		pr_warn_ratelimited("control: a command is at most %zu bytes\n",
				    sizeof(buf) - 1);
		return -E2BIG;
	}
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (strlen(buf) != len) {
		pr_warn_ratelimited("control: NUL byte in the command\n");
		return -EINVAL;
	}
	why[0] = '\0';
	ret = twheel_parse_cmd(buf, &cmd, why, sizeof(why));
	if (ret) {
		pr_warn_ratelimited("control: %s\n", why);
		return ret;
	}
	mutex_lock(&tw_ctl);
	ret = tw_exec(&cmd);
	mutex_unlock(&tw_ctl);
	return ret ? ret : len;
}

static const struct file_operations control_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= control_write,
	.llseek	= noop_llseek,
};

/* ---- debugfs: read-outs ---- */

static void tw_show_hist(struct seq_file *m, const char *name,
			 const struct twheel_hist *h)
{
	unsigned int k;

	seq_printf(m, "%s_n: %llu\n", name, h->n);
	seq_printf(m, "%s_max: %llu\n", name, h->max);
	seq_printf(m, "%s_avg: %llu\n", name, h->n ? div64_u64(h->sum, h->n) : 0);
	seq_printf(m, "%s_p50: %llu\n", name, twheel_hist_pct(h, 500));
	seq_printf(m, "%s_p99: %llu\n", name, twheel_hist_pct(h, 990));
	seq_printf(m, "%s_hist:", name);
	for (k = 0; k < TWHEEL_HIST_N; k++)
		if (h->b[k])
			seq_printf(m, " %llu:%llu", twheel_hist_floor(k), h->b[k]);
	seq_putc(m, '\n');
}

/* The last bench of this load: mean ns per op, or "-" if none ran. */
static void tw_show_opcost(struct seq_file *m, int r)
{
	static const char *const names[TW_NR_OPS] = { "add", "mod", "del" };
	int op;

	for (op = 0; op < TW_NR_OPS; op++) {
		seq_printf(m, "op_%s_ns: ", names[op]);
		if (tw_oc[r].n)
			seq_printf(m, "%llu\n", div_u64(tw_oc[r].ns[op], tw_oc[r].n));
		else
			seq_puts(m, "-\n");
	}
}

/* The kernel's softirq cost; h is scratch space for a copy. */
static void tw_show_sirq(struct seq_file *m, struct twheel_hist *h)
{
	char name[40];
	int v;

	seq_puts(m, "[softirq]\n");
	if (!tw_sirq) {
		seq_printf(m, "unavailable: %s\n", tw_sirq_why);
		return;
	}
	for (v = 0; v < TW_NR_SIRQ; v++) {
		tw_sirq_lock(&tw_sirq[v]);
		*h = tw_sirq[v].all_ns;
		tw_sirq_unlock(&tw_sirq[v]);
		snprintf(name, sizeof(name), "%s_ns", tw_sirq_names[v]);
		tw_show_hist(m, name, h);
		tw_sirq_lock(&tw_sirq[v]);
		*h = tw_sirq[v].busy_ns;
		tw_sirq_unlock(&tw_sirq[v]);
		snprintf(name, sizeof(name), "%s_busy_ns", tw_sirq_names[v]);
		tw_show_hist(m, name, h);
	}
}

/* The u64 counters stats shows, in order, by key. */
struct tw_key {
	const char *key;
	size_t off;
};

#define TW_ST(f)	{ #f, offsetof(struct twheel_stats, f) }
static const struct tw_key tw_st_keys[] = {
	TW_ST(added), TW_ST(deleted), TW_ST(expired), TW_ST(modified),
	TW_ST(mod_noop), TW_ST(mod_inplace), TW_ST(cascades), TW_ST(cascaded),
};

#define TW_DS(k, f)	{ k, offsetof(struct tw_drv_stats, f) }
static const struct tw_key tw_ds_keys[] = {
	TW_DS("cascaded_max_tick", cascaded_max), TW_DS("ticks", ticks),
	TW_DS("catchups", catchups), TW_DS("missed_jiffies", missed),
	TW_DS("runs", runs), TW_DS("runs_exact", exact),
	TW_DS("runs_early", early), TW_DS("expired_max_tick", expired_max),
};

static void tw_show_engine(struct seq_file *m, struct tw_instance *in,
			   struct tw_drv_stats *ds, struct twheel_stats *st)
{
	unsigned long clk;
	unsigned int i, levels;
	bool active;

	spin_lock_bh(&in->lock);
	*st = in->e->st;
	*ds = in->ds;
	clk = in->e->clk;
	levels = in->e->nr_levels;
	active = in->active;
	spin_unlock_bh(&in->lock);

	seq_printf(m, "[%s]\n", tw_names[in->kind]);
	tw_show_opcost(m, in->kind);
	seq_printf(m, "levels: %u\n", levels);
	seq_printf(m, "clk: %lu\n", clk);
	seq_printf(m, "active: %d\n", active);
	seq_printf(m, "timers: %u\n", in->nr_wt);
	seq_printf(m, "pending: %lu\n", st->pending);
	for (i = 0; i < ARRAY_SIZE(tw_st_keys); i++)
		seq_printf(m, "%s: %llu\n", tw_st_keys[i].key,
			   *(u64 *)((char *)st + tw_st_keys[i].off));
	seq_printf(m, "invariant: %s\n",
		   st->added == st->expired + st->deleted + st->pending ?
		   "ok" : "BROKEN");
	for (i = 0; i < ARRAY_SIZE(tw_ds_keys); i++)
		seq_printf(m, "%s: %llu\n", tw_ds_keys[i].key,
			   *(u64 *)((char *)ds + tw_ds_keys[i].off));
	tw_show_hist(m, "tick_ns", &ds->tick_ns);
	tw_show_hist(m, "busy_tick_ns", &ds->busy_ns);
	tw_show_hist(m, "cascade_ns", &ds->cascade_ns);
	tw_show_hist(m, "late_jiffies", &ds->late_j);
	tw_show_hist(m, "late_ns", &ds->late_ns);
	seq_puts(m, "level_pending:");
	for (i = 0; i < levels; i++)
		seq_printf(m, " %u", st->level_pending[i]);
	seq_puts(m, "\n\n");
}

static void tw_show_krunner(struct seq_file *m, struct tw_krunner *kr,
			    struct tw_drv_stats *ds)
{
	u64 added, deleted, expired, modified, pending, inflight;
	bool active;

	spin_lock_bh(&kr->lock);
	inflight = kr->rearmed_inflight;
	added = kr->added;
	deleted = kr->deleted;
	expired = kr->expired;
	modified = kr->modified;
	pending = kr->pending;
	active = kr->active;
	*ds = kr->ds;
	spin_unlock_bh(&kr->lock);

	seq_printf(m, "[%s]\n", tw_names[kr->kind]);
	tw_show_opcost(m, kr->kind);
	seq_printf(m, "active: %d\n", active);
	seq_printf(m, "timers: %u\n", kr->nr_kt);
	seq_printf(m, "pending: %llu\n", pending);
	seq_printf(m, "added: %llu\n", added);
	seq_printf(m, "deleted: %llu\n", deleted);
	seq_printf(m, "expired: %llu\n", expired);
	seq_printf(m, "modified: %llu\n", modified);
	seq_printf(m, "invariant: %s\n",
		   added == expired + deleted + pending ? "ok" : "BROKEN");
	seq_printf(m, "runs: %llu\n", ds->runs);
	seq_printf(m, "runs_exact: %llu\n", ds->exact);
	seq_printf(m, "runs_early: %llu\n", ds->early);
	seq_printf(m, "runs_rearmed_inflight: %llu\n", inflight);
	tw_show_hist(m, "late_jiffies", &ds->late_j);
	tw_show_hist(m, "late_ns", &ds->late_ns);
	seq_putc(m, '\n');
}

static int stats_show(struct seq_file *m, void *unused)
{
	struct tw_krunner *kr;
	struct twheel_stats *st;
	struct tw_drv_stats *ds;
	int k;

	/* Both are too large for the stack; copied under the engine lock. */
	ds = kvmalloc(sizeof(*ds), GFP_KERNEL);
	st = kvmalloc(sizeof(*st), GFP_KERNEL);
	if (!ds || !st) {
		kvfree(ds);
		kvfree(st);
		return -ENOMEM;
	}
	mutex_lock(&tw_ctl);
	seq_printf(m, "# HZ=%d jiffies=%lu tick_jiffies=%u engine_clock=%lu\n", HZ,
		   jiffies, tick_jiffies, tw_now());
	seq_printf(m, "workload: %s\n", tw_state == TW_EMPTY ? "none" :
		   twheel_wl_names[tw_params.type]);
	seq_printf(m, "state: %s\n", tw_state_names[tw_state]);
	if (tw_state != TW_EMPTY)
		seq_printf(m, "params: count=%u seed=%llu min=%u max=%u cancel=%u ops=%u duration=%u\n",
			   tw_params.count, tw_params.seed, tw_params.min,
			   tw_params.max, tw_params.cancel, tw_params.ops,
			   tw_params.duration);
	if (tw_state == TW_RUNNING)
		seq_printf(m, "running_for_jiffies: %lu\n", tw_now() - tw_start_jiffies);
	seq_putc(m, '\n');
	for_each_set_bit(k, &tw_mask, TWHEEL_NR_KINDS)
		tw_show_engine(m, &tw_inst[k], ds, st);
	for (k = TWHEEL_NR_KINDS; (kr = tw_kr_next(&k)); k++)
		tw_show_krunner(m, kr, ds);
	tw_show_sirq(m, &ds->tick_ns);
	mutex_unlock(&tw_ctl);
	kvfree(ds);
	kvfree(st);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

static void tw_cmp_val(struct seq_file *m, u64 v)
{
	if (v == TW_NA)
		seq_puts(m, " n/a |");
	else
		seq_printf(m, " %llu |", v);
}

static void tw_cmp_us(struct seq_file *m, u64 ns)
{
	u32 rem;
	u64 us;

	if (ns == TW_NA) {
		seq_puts(m, " n/a |");
		return;
	}
	us = div_u64_rem(ns, 1000, &rem);
	seq_printf(m, " %llu.%u |", us, rem / 100);
}

/* v as a multiple of ref, two decimals; "n/a" without both. */
static void tw_cmp_ratio(struct seq_file *m, u64 v, u64 ref, char sep)
{
	u32 hundredths;
	u64 x;

	if (v == TW_NA || ref == TW_NA || !ref) {
		seq_printf(m, "n/a%c", sep);
		return;
	}
	x = div64_u64(v * 100 + ref / 2, ref);
	x = div_u64_rem(x, 100, &hundredths);
	seq_printf(m, "%llu.%02u%c", x, hundredths, sep);
}

/*
 * The timer_list row to compare with: the same run's; else (a sweep loads
 * one runner at a time) the latest one of the same workload and size.
 */
static const struct tw_row *tw_cmp_ref(const struct tw_row *row)
{
	const struct tw_row *same = NULL;
	unsigned int i;

	for (i = 0; i < tw_nrows; i++) {
		if (tw_rows[i].runner != TWHEEL_TIMER_LIST)
			continue;
		if (tw_rows[i].run == row->run)
			return &tw_rows[i];
		if (tw_rows[i].wl == row->wl && tw_rows[i].count == row->count)
			same = &tw_rows[i];
	}
	return same;
}

static int compare_show(struct seq_file *m, void *unused)
{
	static const u64 na[TW_NR_COLS] = {
		[0 ... TW_NR_COLS - 1] = TW_NA
	};
	const struct tw_row *row, *ref_row;
	const u64 *ref;
	unsigned int i;
	int c;

	mutex_lock(&tw_ctl);
	seq_printf(m, "# twheel comparison: Linux %s, HZ=%d, %u CPUs, %u rows (one per engine and stopped run; 'clear' forgets them)\n",
		   init_utsname()->release, HZ, num_online_cpus(), tw_nrows);
	seq_puts(m, "# ns are this machine's clock: under QEMU TCG they are emulated-CPU time, so compare the engines by the x timer_list ratios of one run\n");
	seq_puts(m, "# op ns: mean per op over the N timers (repeated to >= 16384 ops), batches of 1024 with bottom halves off (bench); tick: ticks that ran or cascaded timers (per run: their total time / callbacks run), for timer_list/hrtimer the TIMER_SOFTIRQ/HRTIMER_SOFTIRQ runs that ran workload callbacks (tracepoints; our own tick subtracted); p50/p99 are histogram bucket floors (1/8 of a power of two)\n");
	if (!tw_sirq)
		seq_printf(m, "# kernel softirq cost unavailable: %s\n", tw_sirq_why);
	seq_puts(m, "| workload | N | engine | add ns | mod ns | del ns | add/mod/del x timer_list | busy ticks | tick p50 ns | tick p99 ns | tick max ns | tick ns per run | tick p99 x timer_list | cascade max ns | cascaded max | late p50 j | late p99 j | late max j | late p50 us | late p99 us | late max us | runs | expired | deleted | early |\n");
	seq_puts(m, "|---|---:|---|");
	for (c = 0; c < 22; c++)
		seq_puts(m, "---:|");
	seq_putc(m, '\n');
	for (i = 0; i < tw_nrows; i++) {
		row = &tw_rows[i];
		ref_row = tw_cmp_ref(row);
		ref = ref_row ? ref_row->v : na;
		seq_printf(m, "| %s | %u | %s |", twheel_wl_names[row->wl],
			   row->count, tw_names[row->runner]);
		for (c = TW_C_ADD; c <= TW_C_DEL; c++)
			tw_cmp_val(m, row->v[c]);
		seq_putc(m, ' ');
		for (c = TW_C_ADD; c <= TW_C_DEL; c++)
			tw_cmp_ratio(m, row->v[c], ref[c], c == TW_C_DEL ? ' ' : '/');
		seq_putc(m, '|');
		for (c = TW_C_TICKS; c <= TW_C_PERRUN; c++)
			tw_cmp_val(m, row->v[c]);
		seq_putc(m, ' ');
		tw_cmp_ratio(m, row->v[TW_C_T99], ref[TW_C_T99], ' ');
		seq_putc(m, '|');
		for (c = TW_C_CASC_NS; c <= TW_C_LJMAX; c++)
			tw_cmp_val(m, row->v[c]);
		for (c = TW_C_LN50; c <= TW_C_LNMAX; c++)
			tw_cmp_us(m, row->v[c]);
		for (c = TW_C_RUNS; c < TW_NR_COLS; c++)
			tw_cmp_val(m, row->v[c]);
		seq_putc(m, '\n');
	}
	mutex_unlock(&tw_ctl);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(compare);

static int levels_show(struct seq_file *m, void *unused)
{
	struct twheel_level_info li;
	unsigned int lvl, hz = READ_ONCE(tw_levels_hz);
	unsigned int depth = READ_ONCE(tw_levels_depth);

	seq_printf(m, "# modern wheel at HZ %u, %u levels (running: HZ %d, %u levels)\n", hz,
		   depth, HZ, modern_depth);
	seq_puts(m, "# range as the kernel's table gives it; files = the deltas filed there\n");
	seq_puts(m, "level offset  gran_jiffies   gran_ms  range_ms                        files_jiffies\n");
	for (lvl = 0; lvl < depth; lvl++) {
		twheel_level_info(hz, depth, lvl, &li);
		seq_printf(m, "%5u %6u %13lu %9llu  %10llu - %-18llu %lu - ",
			   li.level, li.offset, li.gran, li.gran_ms,
			   li.start_ms, li.end_ms, li.file_lo);
		if (li.file_hi == ULONG_MAX)
			seq_puts(m, "max (clamped)\n");
		else
			seq_printf(m, "%lu\n", li.file_hi);
	}
	return 0;
}

static int levels_open(struct inode *inode, struct file *file)
{
	return single_open(file, levels_show, inode->i_private);
}

/* "HZ" or "HZ DEPTH": show the table for another HZ; "0" back to ours. */
static ssize_t levels_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	char buf[32], *p, *tok;
	unsigned int hz, depth;

	if (len >= sizeof(buf))
		return -E2BIG;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	p = strim(buf);
	tok = strsep(&p, " \t");
	if (kstrtouint(tok, 10, &hz) || hz > 100000) {
		pr_warn_ratelimited("levels: write HZ [DEPTH], HZ up to 100000 (0: the running one)\n");
		return -EINVAL;
	}
	if (!hz)
		hz = HZ;
	depth = hz > 100 ? 9 : 8;
	if (p && *skip_spaces(p) &&
	    (kstrtouint(skip_spaces(p), 10, &depth) || depth < 2 ||
	     depth > TW_MODERN_MAX_LEVELS)) {
		pr_warn_ratelimited("levels: DEPTH is 2..%u\n", TW_MODERN_MAX_LEVELS);
		return -EINVAL;
	}
	if (hz == HZ && !(p && *skip_spaces(p)))
		depth = modern_depth;
	WRITE_ONCE(tw_levels_hz, hz);
	WRITE_ONCE(tw_levels_depth, depth);
	return len;
}

static const struct file_operations levels_fops = {
	.owner		= THIS_MODULE,
	.open		= levels_open,
	.read		= seq_read,
	.write		= levels_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int occupancy_show(struct seq_file *m, void *unused)
{
	struct tw_instance *in = m->private;
	unsigned int lvl, levels, i, nb = 0;
	unsigned int *per;
	struct twheel_stats *st;

	if (in->kind == TWHEEL_CLASSIC)
		nb = TW_CLASSIC_BUCKETS;
	else if (in->kind == TWHEEL_MODERN)
		nb = TW_MODERN_BUCKETS;
	per = kcalloc(max(nb, 1U), sizeof(*per), GFP_KERNEL);
	st = kmalloc(sizeof(*st), GFP_KERNEL);
	if (!per || !st) {
		kfree(per);
		kfree(st);
		return -ENOMEM;
	}
	spin_lock_bh(&in->lock);
	*st = in->e->st;
	levels = in->e->nr_levels;
	if (in->kind == TWHEEL_CLASSIC) {
		struct twheel_timer *t;

		for (i = 0; i < nb; i++)
			list_for_each_entry(t, &in->u->classic.vec[i], list)
				per[i]++;
	} else if (in->kind == TWHEEL_MODERN) {
		struct twheel_timer *t;

		for (i = 0; i < nb; i++)
			hlist_for_each_entry(t, &in->u->modern.vec[i], entry)
				per[i]++;
	}
	spin_unlock_bh(&in->lock);

	seq_printf(m, "# %s: pending timers per level; then 'bucket: count' for each non-empty bucket\n",
		   tw_names[in->kind]);
	for (lvl = 0; lvl < levels; lvl++)
		seq_printf(m, "level %u: %u\n", lvl, st->level_pending[lvl]);
	for (i = 0; i < nb; i++)
		if (per[i])
			seq_printf(m, "bucket %u (level %u): %u\n", i,
				   twheel_bucket_level(in->e, i), per[i]);
	kfree(per);
	kfree(st);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(occupancy);

static void tw_debugfs_init(void)
{
	struct tw_instance *in;
	int k;

	tw_root = debugfs_create_dir("twheel", NULL);
	debugfs_create_file("control", 0200, tw_root, NULL, &control_fops);
	debugfs_create_file("stats", 0400, tw_root, NULL, &stats_fops);
	debugfs_create_file("levels", 0600, tw_root, NULL, &levels_fops);
	debugfs_create_file("compare", 0400, tw_root, NULL, &compare_fops);
	for_each_set_bit(k, &tw_mask, TWHEEL_NR_KINDS) {
		in = &tw_inst[k];
		in->dir = debugfs_create_dir(tw_names[k], tw_root);
		debugfs_create_file("occupancy", 0400, in->dir, in, &occupancy_fops);
	}
}

/* ---- module ---- */

static int tw_parse_engine_param(const char *list, unsigned long *mask)
{
	char *buf, *p, *tok;
	int i, ret = 0;

	buf = kstrdup(list, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	*mask = 0;
	p = buf;
	while ((tok = strsep(&p, ",")) != NULL) {
		tok = strim(tok);
		if (!*tok)
			continue;
		i = match_string(tw_names, TWHEEL_NR_RUNNERS, tok);
		if (i < 0) {
			pr_warn("engines=: unknown '%s' (classic modern reference timer_list hrtimer)\n",
				tok);
			ret = -EINVAL;
			break;
		}
		*mask |= BIT(i);
	}
	kfree(buf);
	if (!ret && !*mask) {
		pr_warn("engines= names no engine\n");
		ret = -EINVAL;
	}
	return ret;
}

static int tw_instance_init(struct tw_instance *in, enum twheel_kind kind)
{
	unsigned long now = tw_now();

	in->u = kzalloc(sizeof(*in->u), GFP_KERNEL);
	if (!in->u)
		return -ENOMEM;
	spin_lock_init(&in->lock);
	in->kind = kind;
	switch (kind) {
	case TWHEEL_CLASSIC:
		twheel_classic_init(&in->u->classic, now);
		in->e = &in->u->classic.e;
		break;
	case TWHEEL_MODERN:
		twheel_modern_init(&in->u->modern, now, modern_depth);
		in->e = &in->u->modern.e;
		break;
	default:
		twheel_reference_init(&in->u->reference, now);
		in->e = &in->u->reference.e;
		break;
	}
	in->e->clock_ns = tw_clock;
	return 0;
}

static void tw_free_all(void)
{
	int k;

	for (k = 0; k < TWHEEL_NR_KINDS; k++) {
		kvfree(tw_inst[k].wt);
		kfree(tw_inst[k].u);
		memset(&tw_inst[k], 0, sizeof(tw_inst[k]));
	}
	tw_mask = 0;
}

static int __init twheel_init(void)
{
	unsigned long mask;
	int k, ret;

	if (modern_depth < 2 || modern_depth > TW_MODERN_MAX_LEVELS) {
		pr_warn("modern_depth=%u is out of range (2..%u)\n", modern_depth,
			TW_MODERN_MAX_LEVELS);
		return -EINVAL;
	}
	if (!tick_jiffies || tick_jiffies > HZ) {
		pr_warn("tick_jiffies=%u is out of range (1..%d)\n", tick_jiffies, HZ);
		return -EINVAL;
	}
	if (wrap_secs > 86400) {
		pr_warn("wrap_secs=%u is out of range (0..86400)\n", wrap_secs);
		return -EINVAL;
	}
	ret = tw_parse_engine_param(engines, &mask);
	if (ret)
		return ret;
	/* engine time = ULONG_MAX + 1 (that is, 0) wrap_secs from now */
	if (wrap_secs)
		tw_jofs = 0UL - jiffies - (unsigned long)wrap_secs * HZ;
	for (k = 0; k < TWHEEL_NR_KINDS; k++) {
		if (!(mask & BIT(k)))
			continue;
		ret = tw_instance_init(&tw_inst[k], k);
		if (ret) {
			tw_free_all();
			return ret;
		}
		set_bit(k, &tw_mask);
	}
	for (k = TWHEEL_NR_KINDS; k < TWHEEL_NR_RUNNERS; k++) {
		if (!(mask & BIT(k)))
			continue;
		spin_lock_init(&tw_kr[k - TWHEEL_NR_KINDS].lock);
		tw_kr[k - TWHEEL_NR_KINDS].kind = k;
		set_bit(k, &tw_mask);
	}
	tw_levels_depth = modern_depth;
	tw_period = ns_to_ktime((u64)tick_jiffies * TICK_NSEC);
#ifdef TW_HAVE_HRTIMER_SETUP
	hrtimer_setup(&tw_tick, tw_tick_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL_PINNED_SOFT);
#else
	hrtimer_init(&tw_tick, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_SOFT);
	tw_tick.function = tw_tick_fn;
#endif
	tw_sirq_init();
	tw_debugfs_init();
	tw_tick_start();
	pr_info("loaded: HZ=%d, engines=%s, modern depth %u, tick every %u jiffies\n",
		HZ, engines, modern_depth, tick_jiffies);
	if (wrap_secs)
		pr_info("test: engine clock %lu, wraps in %u s\n", tw_now(), wrap_secs);
	return 0;
}

static void __exit twheel_exit(void)
{
	/* No tick: no callback can run any more. Then nothing is reachable. */
	debugfs_remove_recursive(tw_root);
	hrtimer_cancel(&tw_tick);
	mutex_lock(&tw_ctl);
	tw_wl_free();
	tw_free_all();
	mutex_unlock(&tw_ctl);
	tw_sirq_exit_all();
	pr_info("unloaded\n");
}

module_init(twheel_init);
module_exit(twheel_exit);

MODULE_DESCRIPTION("Timer wheels side by side: classic, modern and a reference");
MODULE_LICENSE("GPL");

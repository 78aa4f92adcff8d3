// SPDX-License-Identifier: GPL-2.0
/*
 * twheel: the kernel's own timer cost, TIMER_SOFTIRQ and HRTIMER_SOFTIRQ.
 *
 * Probes on the softirq_entry/softirq_exit tracepoints time every run of
 * the two vectors on every CPU. The tracepoints are not exported to
 * modules, so they are looked up by name. Our own tick is a soft hrtimer,
 * so it runs inside HRTIMER_SOFTIRQ: the time it takes there is subtracted.
 * A run is "busy" when at least one timer_list (resp. hrtimer) workload
 * callback ran in it: those are the counterpart of our engines' busy ticks.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/interrupt.h>
#include <linux/ktime.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include "runner/twheel_softirq.h"

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

static struct tw_sirq *tw_sirq;		/* [TW_NR_SIRQ]; NULL: no probes */
DEFINE_PER_CPU(struct tw_sirq_cpu, tw_sirq_cpu);
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

/**
 * tw_softirq_init() - attach the probes timing the kernel's timer softirqs
 *
 * Looks the softirq_entry and softirq_exit tracepoints up by name and
 * registers a probe on each. On failure nothing stays attached and the
 * reason is logged and kept for the read-outs (tw_softirq_unavailable());
 * the module works on without the kernel's softirq cost. Module init.
 */
void tw_softirq_init(void)
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

/**
 * tw_softirq_exit() - detach the probes, once no probe runs any more
 *
 * Module exit; nothing if they were never attached.
 */
void tw_softirq_exit(void)
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
void tw_softirq_init(void)
{
	tw_sirq_why = "the kernel has no tracepoints (CONFIG_TRACEPOINTS=n)";
	pr_info("kernel softirq cost unavailable: %s\n", tw_sirq_why);
}

void tw_softirq_exit(void)
{
}
#endif

/**
 * tw_softirq_reset() - empty both vectors' histograms
 *
 * Process context: takes each vector's lock with bottom halves off.
 */
void tw_softirq_reset(void)
{
	int v;

	for (v = 0; tw_sirq && v < TW_NR_SIRQ; v++) {
		tw_sirq_lock(&tw_sirq[v]);
		memset(&tw_sirq[v].all_ns, 0, sizeof(tw_sirq[v].all_ns));
		memset(&tw_sirq[v].busy_ns, 0, sizeof(tw_sirq[v].busy_ns));
		tw_sirq_unlock(&tw_sirq[v]);
	}
}

/**
 * tw_softirq_unavailable() - why the kernel's softirq cost is not measured
 *
 * Return: the reason, or NULL when the probes are attached.
 */
const char *tw_softirq_unavailable(void)
{
	return tw_sirq ? NULL : tw_sirq_why;
}

/**
 * tw_softirq_total_ns() - the time the kernel's timer softirqs took
 *
 * Any context but the probes' (takes the vectors' locks with interrupts
 * off).
 *
 * Return: every ns TIMER_SOFTIRQ and HRTIMER_SOFTIRQ ran since the last
 * reset, our own tick's time taken out; 0 when not measured.
 */
u64 tw_softirq_total_ns(void)
{
	unsigned long flags;
	u64 sum = 0;
	int v;

	for (v = 0; tw_sirq && v < TW_NR_SIRQ; v++) {
		raw_spin_lock_irqsave(&tw_sirq[v].lock, flags);
		sum += tw_sirq[v].all_ns.sum;
		raw_spin_unlock_irqrestore(&tw_sirq[v].lock, flags);
	}
	return sum;
}

/* A copy of vector v's busy-run (or every run's) histogram; false when not measured. */
static bool tw_softirq_copy(enum tw_sirq_vec v, bool busy, struct twheel_hist *h)
{
	if (!tw_sirq)
		return false;
	tw_sirq_lock(&tw_sirq[v]);
	*h = busy ? tw_sirq[v].busy_ns : tw_sirq[v].all_ns;
	tw_sirq_unlock(&tw_sirq[v]);
	return true;
}

/**
 * tw_softirq_busy() - a vector's busy runs: the kernel runners' busy ticks
 * @v: the vector, TW_SIRQ_TIMER or TW_SIRQ_HRTIMER
 * @h: filled in with a copy of the histogram of its runs (ns) in which a
 *	workload callback ran
 *
 * Process context.
 *
 * Return: true, or false (@h untouched) when not measured.
 */
bool tw_softirq_busy(enum tw_sirq_vec v, struct twheel_hist *h)
{
	return tw_softirq_copy(v, true, h);
}

/**
 * tw_softirq_all() - every run of a vector: the real traffic's cost
 * @v: the vector, TW_SIRQ_TIMER or TW_SIRQ_HRTIMER
 * @h: filled in with a copy of the histogram of all its runs (ns)
 *
 * For the shadow, whose traffic is the kernel's own. Process context.
 *
 * Return: true, or false (@h untouched) when not measured.
 */
bool tw_softirq_all(enum tw_sirq_vec v, struct twheel_hist *h)
{
	return tw_softirq_copy(v, false, h);
}

/**
 * tw_softirq_show() - the [softirq] block of stats
 * @m: the stats file
 * @h: scratch space for a copy of one histogram at a time
 *
 * Prints both vectors' histograms of every run and of busy runs, or why
 * they are unavailable. Process context.
 */
void tw_softirq_show(struct seq_file *m, struct twheel_hist *h)
{
	char name[40];
	int v;

	seq_puts(m, "[softirq]\n");
	if (!tw_sirq) {
		seq_printf(m, "unavailable: %s\n", tw_sirq_why);
		return;
	}
	for (v = 0; v < TW_NR_SIRQ; v++) {
		tw_softirq_copy(v, false, h);
		snprintf(name, sizeof(name), "%s_ns", tw_sirq_names[v]);
		twheel_hist_show(m, name, h);
		tw_softirq_copy(v, true, h);
		snprintf(name, sizeof(name), "%s_busy_ns", tw_sirq_names[v]);
		twheel_hist_show(m, name, h);
	}
}

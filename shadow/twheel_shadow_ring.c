// SPDX-License-Identifier: GPL-2.0
/*
 * twheel shadow: the probes on the kernel's timer tracepoints and the ring
 * they fill (see twheel_shadow.c). A probe runs in any context, hardirq
 * included, with the timer base lock held: it takes the ring's raw
 * spinlock, under which nothing else is ever taken, copies the event and
 * returns; it never allocates, and a full ring drops the event and counts
 * it. It reads only what the tracepoint hands it (and, where the
 * tracepoint itself records them, the timer's expires and flags).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/jiffies.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <linux/tracepoint.h>
#include <trace/events/timer.h>
#include "shadow/twheel_shadow_impl.h"

#define TW_SH_RING_MIN	8192			/* events */
#define TW_SH_RING_MAX	BIT(18)

static const char *const tw_sh_ev_names[TW_SH_NR_EV] = {
	"start", "cancel", "expire"
};

static const char *const tw_sh_tp_names[TW_SH_NR_EV] = {
	"timer_start", "timer_cancel", "timer_expire_entry"
};

/* Copies one event into the ring, or counts it dropped. Any context. */
static void tw_sh_record(struct tw_sh_ring *ring, enum tw_sh_ev type,
			 const void *timer, unsigned long expires,
			 unsigned long arg, u32 flags)
{
	struct tw_sh_event *ev;
	unsigned long irq;

	if (!READ_ONCE(ring->on))
		return;
	raw_spin_lock_irqsave(&ring->lock, irq);
	if (ring->on) {
		ring->seen[type]++;
		if (ring->head - ring->tail > ring->mask) {
			ring->dropped[type]++;
		} else {
			ev = &ring->ev[ring->head & ring->mask];
			ev->timer = timer;
			ev->expires = expires;
			ev->jiffy = jiffies;
			ev->arg = arg;
			ev->flags = flags;
			ev->cpu = raw_smp_processor_id();
			ev->type = type;
			ring->head++;
		}
	}
	raw_spin_unlock_irqrestore(&ring->lock, irq);
}

#ifdef CONFIG_TRACEPOINTS
#if TW_SH_HAVE_BE
/* The tracepoint records the timer's expires and flags itself: the same read. */
static void tw_sh_probe_start(void *data, struct timer_list *timer,
			      unsigned long bucket_expiry)
{
	tw_sh_record(data, TW_SH_START, timer, READ_ONCE(timer->expires),
		     bucket_expiry, READ_ONCE(timer->flags));
}
#else
static void tw_sh_probe_start(void *data, struct timer_list *timer,
			      unsigned long expires, unsigned int flags)
{
	tw_sh_record(data, TW_SH_START, timer, expires, 0, flags);
}
#endif

static void tw_sh_probe_cancel(void *data, struct timer_list *timer)
{
	tw_sh_record(data, TW_SH_CANCEL, timer, 0, 0, 0);
}

static void tw_sh_probe_expire(void *data, struct timer_list *timer,
			       unsigned long baseclk)
{
	tw_sh_record(data, TW_SH_EXPIRE, timer, 0, baseclk, 0);
}

static void *const tw_sh_probes[TW_SH_NR_EV] = {
	tw_sh_probe_start, tw_sh_probe_cancel, tw_sh_probe_expire
};

static void tw_sh_tp_find(struct tracepoint *tp, void *data)
{
	struct tw_sh *sh = data;
	int i;

	for (i = 0; i < TW_SH_NR_EV; i++)
		if (!strcmp(tp->name, tw_sh_tp_names[i]))
			sh->tp[i] = tp;
}

/**
 * tw_sh_tps_find() - look the kernel's timer tracepoints up
 * @sh: the shadow: its @tp[] filled in, @why set if one is missing
 *
 * The tracepoints are not exported to modules: found by name, like the
 * softirq ones; the probes' types are checked against their declarations
 * at build time. Process context.
 */
void tw_sh_tps_find(struct tw_sh *sh)
{
	int i;

	check_trace_callback_type_timer_start(tw_sh_probe_start);
	check_trace_callback_type_timer_cancel(tw_sh_probe_cancel);
	check_trace_callback_type_timer_expire_entry(tw_sh_probe_expire);
	for_each_kernel_tracepoint(tw_sh_tp_find, sh);
	for (i = 0; i < TW_SH_NR_EV; i++)
		if (!sh->tp[i])
			sh->why = "no timer_start, timer_cancel or timer_expire_entry tracepoint";
}

/* Detaches the first n probes; when it returns, none runs any more. */
static void tw_sh_detach_n(struct tw_sh *sh, int n)
{
	while (n--)
		tracepoint_probe_unregister(sh->tp[n], tw_sh_probes[n], &sh->ring);
	tracepoint_synchronize_unregister();
}

/**
 * tw_sh_detach() - detach the shadow's probes from the tracepoints
 * @sh: the shadow, its probes attached
 *
 * When it returns, no probe runs any more. Process context, may sleep.
 */
void tw_sh_detach(struct tw_sh *sh)
{
	tw_sh_detach_n(sh, TW_SH_NR_EV);
}

/**
 * tw_sh_attach() - attach the shadow's probes, all or none
 * @sh: the shadow, its tracepoints found
 *
 * Each probe records into @sh->ring. Process context, may sleep.
 *
 * Return: 0, or the error of the probe refused (logged); then none is
 * attached (-EOPNOTSUPP without CONFIG_TRACEPOINTS).
 */
int tw_sh_attach(struct tw_sh *sh)
{
	int i, ret;

	for (i = 0; i < TW_SH_NR_EV; i++) {
		ret = tracepoint_probe_register(sh->tp[i], tw_sh_probes[i],
						&sh->ring);
		if (ret) {
			pr_warn_ratelimited("shadow: %s: probe not accepted (%d)\n",
					    tw_sh_tp_names[i], ret);
			tw_sh_detach_n(sh, i);
			return ret;
		}
	}
	return 0;
}
#else
void tw_sh_tps_find(struct tw_sh *sh)
{
	sh->why = "the kernel has no tracepoints (CONFIG_TRACEPOINTS=n)";
}

void tw_sh_detach(struct tw_sh *sh)
{
}

int tw_sh_attach(struct tw_sh *sh)
{
	return -EOPNOTSUPP;
}
#endif

/**
 * tw_sh_ring_reserve() - a ring large enough for a load
 * @ring: the ring; no probe may be attached
 * @count: the shadows the load mirrors at once
 *
 * Sizes the ring at twice @count events, a power of two within
 * TW_SH_RING_MIN..TW_SH_RING_MAX; a ring at least that large is kept.
 * Process context, may sleep.
 *
 * Return: 0, or -ENOMEM (the old ring kept).
 */
int tw_sh_ring_reserve(struct tw_sh_ring *ring, u32 count)
{
	unsigned long n = roundup_pow_of_two(2 * (unsigned long)count);
	struct tw_sh_event *ev;

	n = clamp_t(unsigned long, n, TW_SH_RING_MIN, TW_SH_RING_MAX);
	if (ring->ev && ring->mask + 1 >= n)
		return 0;
	ev = kvcalloc(n, sizeof(*ev), GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
	if (!ev)
		return -ENOMEM;
	/* No probe is attached: a load is refused while a workload runs. */
	kvfree(ring->ev);
	ring->ev = ev;
	ring->mask = n - 1;
	return 0;
}

/**
 * tw_sh_ring_reset() - empty the ring and zero its counts
 * @ring: the ring; no probe may be attached
 */
void tw_sh_ring_reset(struct tw_sh_ring *ring)
{
	ring->head = 0;
	ring->tail = 0;
	memset(ring->seen, 0, sizeof(ring->seen));
	memset(ring->dropped, 0, sizeof(ring->dropped));
}

/**
 * tw_sh_ring_switch() - the probes record from now on, or no more
 * @ring: the ring
 * @on: record (true) or drop every event uncounted (false)
 *
 * Any context but the probes'.
 */
void tw_sh_ring_switch(struct tw_sh_ring *ring, bool on)
{
	unsigned long irq;

	raw_spin_lock_irqsave(&ring->lock, irq);
	ring->on = on;
	raw_spin_unlock_irqrestore(&ring->lock, irq);
}

/**
 * tw_sh_ring_head() - where the probes' writes end, for the drain
 * @ring: the ring
 *
 * Any context but the probes'.
 *
 * Return: the head: every event the probes wrote so far is before it.
 */
unsigned long tw_sh_ring_head(struct tw_sh_ring *ring)
{
	unsigned long head, irq;

	raw_spin_lock_irqsave(&ring->lock, irq);
	head = ring->head;
	raw_spin_unlock_irqrestore(&ring->lock, irq);
	return head;
}

/**
 * tw_sh_ring_done() - hand the drained entries back to the probes
 * @ring: the ring
 * @head: what tw_sh_ring_head() returned: every entry before it was taken
 *
 * Any context but the probes'.
 */
void tw_sh_ring_done(struct tw_sh_ring *ring, unsigned long head)
{
	unsigned long irq;

	raw_spin_lock_irqsave(&ring->lock, irq);
	ring->tail = head;
	raw_spin_unlock_irqrestore(&ring->lock, irq);
}

/**
 * tw_sh_ring_show() - the ring's part of the shadow's stats
 * @m: the stats file
 * @ring: the ring
 *
 * Prints ring_size, then seen_<event> and ring_dropped_<event> for each
 * event type. Process context.
 */
void tw_sh_ring_show(struct seq_file *m, struct tw_sh_ring *ring)
{
	u64 seen[TW_SH_NR_EV], dropped[TW_SH_NR_EV];
	unsigned long size;
	int i;

	raw_spin_lock_irq(&ring->lock);
	memcpy(seen, ring->seen, sizeof(seen));
	memcpy(dropped, ring->dropped, sizeof(dropped));
	size = ring->ev ? ring->mask + 1 : 0;
	raw_spin_unlock_irq(&ring->lock);
	seq_printf(m, "ring_size: %lu\n", size);
	for (i = 0; i < TW_SH_NR_EV; i++)
		seq_printf(m, "seen_%s: %llu\nring_dropped_%s: %llu\n",
			   tw_sh_ev_names[i], seen[i], tw_sh_ev_names[i], dropped[i]);
}

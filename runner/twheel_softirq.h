/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twheel: the kernel's own timer cost, TIMER_SOFTIRQ and HRTIMER_SOFTIRQ
 * runs timed by probes on the softirq_entry/softirq_exit tracepoints.
 */
#ifndef TWHEEL_SOFTIRQ_H
#define TWHEEL_SOFTIRQ_H

#include <linux/percpu.h>
#include <linux/types.h>
#include "runner/twheel_hist.h"

struct seq_file;

/* The two softirq vectors timed. */
enum tw_sirq_vec { TW_SIRQ_TIMER, TW_SIRQ_HRTIMER, TW_NR_SIRQ };

/**
 * struct tw_sirq_cpu - one CPU's softirq run in progress
 * @t0: the run's start per vector; 0: not seen
 * @cbs: workload callbacks in this run, per vector
 * @own_ns: our own tick's time in this HRTIMER_SOFTIRQ run
 */
struct tw_sirq_cpu {
	u64 t0[TW_NR_SIRQ];
	u32 cbs[TW_NR_SIRQ];
	u64 own_ns;
};

DECLARE_PER_CPU(struct tw_sirq_cpu, tw_sirq_cpu);

/* A workload callback runs in this CPU's softirq run of vector v. */
static inline void tw_softirq_workload_cb(enum tw_sirq_vec v)
{
	this_cpu_inc(tw_sirq_cpu.cbs[v]);
}

/* Our tick took ns of this HRTIMER_SOFTIRQ run: not the kernel's cost. */
static inline void tw_softirq_own_ns(u64 ns)
{
	this_cpu_add(tw_sirq_cpu.own_ns, ns);
}

void tw_softirq_init(void);
void tw_softirq_exit(void);
void tw_softirq_reset(void);
const char *tw_softirq_unavailable(void);
bool tw_softirq_busy(enum tw_sirq_vec v, struct twheel_hist *h);
bool tw_softirq_all(enum tw_sirq_vec v, struct twheel_hist *h);
u64 tw_softirq_total_ns(void);
void tw_softirq_show(struct seq_file *m, struct twheel_hist *scratch);

#endif /* TWHEEL_SOFTIRQ_H */

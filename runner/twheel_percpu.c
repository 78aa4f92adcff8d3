// SPDX-License-Identifier: GPL-2.0
/*
 * twheel runner layer, per-CPU instances (percpu=1): an engine runner gets
 * one instance per possible CPU, each a runner of its own with its lock,
 * its engine (the registry's twheel_create(), through the same init op)
 * and its counters, as the kernel keeps a timer base per CPU. The engines
 * stay as they are: which instance a timer lives in is decided here (its
 * owner CPU, twheel_wl_cpu_index()), and each CPU's tick (the driver's,
 * pinned to it) advances that CPU's instances and runs its share of the
 * activity ops.
 *
 * Instances exist for every possible CPU, so none is allocated when a CPU
 * comes online. The CPUs a workload runs on are fixed at its load; if one
 * of them goes offline meanwhile, the kernel moves its tick's hrtimer to
 * a CPU still online, where its instance goes on under its own lock.
 *
 * The instances' hot paths take their lock through tw_runner_lock(): a
 * trylock first, and only when it fails, a timed wait. What the
 * acquisitions cost is counted by the CPU that made them, in its own
 * struct tw_lockstat, never under the lock it measures: the count before
 * the lock is tried, the wait once the lock is dropped again
 * (tw_runner_unlock()).
 *
 * remote=P: a CPU's activity op may pick a timer that lives in another
 * CPU's instance (tw_runner_remote(), in twheel_runner.c beside the
 * activity ops).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "runner/twheel_state.h"

/*
 * This CPU's counted runner locks: how many it holds (one at most: a
 * second is a nested acquisition), and the wait of the last one taken,
 * counted when it is dropped.
 */
struct tw_lk_cpu {
	unsigned int held;
	enum tw_lk who;
	u64 wait;
};

static DEFINE_PER_CPU(struct tw_lk_cpu, tw_lk_cpu);

/**
 * tw_runner_lock_counted() - take a runner's lock, counted
 * @r: the runner or instance (its lockstat set)
 * @who: what takes it (enum tw_lk)
 *
 * Counts the acquisition in this CPU's struct tw_lockstat for @r's runner
 * before trying the lock, and a nested one if this CPU holds another
 * counted lock; a trylock first, and if it fails, the acquisition is
 * contended and the time until the lock is had is its wait, counted by
 * tw_runner_unlock_counted(). Context: bottom halves off (the tick, or a
 * caller that disabled them).
 */
void tw_runner_lock_counted(struct tw_runner *r, enum tw_lk who)
	__acquires(&r->lock)
{
	struct tw_lockstat *ls = this_cpu_ptr(r->ls);
	struct tw_lk_cpu *lc = this_cpu_ptr(&tw_lk_cpu);
	u64 t0, wait = 0;

	ls->acquired[who]++;
	if (lc->held)
		ls->nested++;
	if (!spin_trylock(&r->lock)) {
		ls->contended[who]++;
		t0 = ktime_get_ns();
		spin_lock(&r->lock);
		wait = ktime_get_ns() - t0;
	}
	lc->held++;
	lc->who = who;
	lc->wait += wait;
}

/**
 * tw_runner_unlock_counted() - drop what tw_runner_lock_counted() took
 * @r: the runner or instance
 *
 * Drops the lock, then counts the wait its acquisition had in this CPU's
 * struct tw_lockstat. Context: as the acquisition.
 */
void tw_runner_unlock_counted(struct tw_runner *r)
	__releases(&r->lock)
{
	struct tw_lk_cpu *lc = this_cpu_ptr(&tw_lk_cpu);
	struct tw_lockstat *ls;
	enum tw_lk who = lc->who;
	u64 wait = lc->wait;

	lc->wait = 0;
	lc->held--;
	spin_unlock(&r->lock);
	ls = this_cpu_ptr(r->ls);
	ls->wait_ns[who] += wait;
	twheel_hist_add(&ls->wait, wait);
}

/**
 * tw_runner_totals() - what a runner counted, in total
 * @r: the runner, or one of its per-CPU instances
 * @st: its engine's counters, or its own: filled in
 * @rs: what the driver measured on it: filled in
 * @active: whether its workload activity is on: filled in
 *
 * A per-CPU instance: its own, copied under its lock, and what its CPU did
 * on the runner (tw_lockstat_fold()). A runner with per-CPU instances: the
 * sum of theirs (tw_stats_add(), tw_run_stats_add()), each copied under
 * its lock in turn (and, TW_CAP_LOCKFREE, its own: what start and stop
 * counted), and what every CPU did, active if one is; any other:
 * its own, copied under its lock, and what every CPU did. Process context.
 */
void tw_runner_totals(struct tw_runner *r, struct twheel_stats *st,
		      struct tw_run_stats *rs, bool *active)
{
	struct tw_runner *in;
	unsigned int cpu;

	if (!r->inst) {
		spin_lock_bh(&r->lock);
		*st = *r->st;
		*rs = r->rs;
		*active = r->active;
		spin_unlock_bh(&r->lock);
		if (r->caps & TW_CAP_PERCPU) {
			tw_lockstat_fold(rs, per_cpu_ptr(r->ls, r->cpu));
			return;
		}
	} else {
		memset(st, 0, sizeof(*st));
		memset(rs, 0, sizeof(*rs));
		*active = false;
		/* what start and stop did to the kernel's timers counts here */
		if (r->caps & TW_CAP_LOCKFREE) {
			spin_lock_bh(&r->lock);
			tw_stats_add(st, r->st);
			tw_run_stats_add(rs, &r->rs);
			spin_unlock_bh(&r->lock);
		}
		tw_for_each_inst(r, in) {
			spin_lock_bh(&in->lock);
			tw_stats_add(st, in->st);
			tw_run_stats_add(rs, &in->rs);
			*active |= in->active;
			spin_unlock_bh(&in->lock);
		}
	}
	if (r->ls)
		for_each_possible_cpu(cpu)
			tw_lockstat_fold(rs, per_cpu_ptr(r->ls, cpu));
}

/**
 * tw_runner_ls_reset() - zero what every CPU did on a runner
 * @r: the runner (not an instance)
 *
 * Process context; a CPU counting meanwhile may keep a few counts.
 */
void tw_runner_ls_reset(struct tw_runner *r)
{
	unsigned int cpu;

	if (r->ls)
		for_each_possible_cpu(cpu)
			memset(per_cpu_ptr(r->ls, cpu), 0, sizeof(struct tw_lockstat));
}

/**
 * tw_runner_inst_release() - undo tw_runner_inst_init()
 * @r: the runner
 *
 * Releases and frees every instance set up, then the per-CPU pointers.
 * Nothing may be armed; may sleep.
 */
void tw_runner_inst_release(struct tw_runner *r)
{
	struct tw_runner *in;
	unsigned int cpu;

	if (!r->inst)
		return;
	for_each_possible_cpu(cpu) {
		in = *per_cpu_ptr(r->inst, cpu);
		if (!in)
			continue;
		if (in->priv && in->ops->release)
			in->ops->release(in);
		kvfree(in);
	}
	free_percpu(r->inst);
	r->inst = NULL;
}

/**
 * tw_runner_inst_init() - give a runner its per-CPU instances
 * @r: the runner, set up (its name, id and ops)
 * @cfg: the module's parameters, for each instance's init op
 *
 * Allocates an instance for each possible CPU and sets it up as a runner
 * of its own: the runner's name, id and ops, its own lock and counters,
 * TW_CAP_PERCPU, its CPU, its lock counted, and its init op called. Module init, may sleep.
 *
 * Return: 0, or -ENOMEM or the first init op's error; then nothing is
 * left allocated.
 */
int tw_runner_inst_init(struct tw_runner *r, const struct tw_config *cfg)
{
	struct tw_runner *in;
	unsigned int cpu;
	int ret;

	r->inst = alloc_percpu(struct tw_runner *);
	if (!r->inst)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		in = kvzalloc(sizeof(*in), GFP_KERNEL);
		if (!in) {
			tw_runner_inst_release(r);
			return -ENOMEM;
		}
		*per_cpu_ptr(r->inst, cpu) = in;
		in->name = r->name;
		in->id = r->id;
		in->ops = r->ops;
		in->caps = r->ops->caps | TW_CAP_PERCPU;
		in->st = &in->own_st;
		in->cpu = cpu;
		in->lockstat = true;
		in->ls = r->ls;
		spin_lock_init(&in->lock);
		ret = in->ops->init ? in->ops->init(in, cfg) : 0;
		if (ret) {
			in->priv = NULL;
			tw_runner_inst_release(r);
			return ret;
		}
	}
	return 0;
}

/* tw_wl_cpus() but for remote=. */
static int tw_wl_cpus_of(const struct twheel_params *p, bool percpu,
			 unsigned int *cpu_at)
{
	u32 want = p->ncpus;
	unsigned int cpu;
	int n = 0;

	if (p->type == TWHEEL_WL_SHADOW || (!p->cpus && !want && !percpu))
		return 0;
	if (p->cpus) {
		for (cpu = 0; cpu < TWHEEL_MAX_CPUS; cpu++) {
			if (!(p->cpus & BIT_ULL(cpu)))
				continue;
			if (cpu >= nr_cpu_ids || !cpu_online(cpu)) {
				pr_warn_ratelimited("load: cpus=: CPU %u is not online\n", cpu);
				return -EINVAL;
			}
			cpu_at[n++] = cpu;
		}
		return n;
	}
	if (!want)
		want = TWHEEL_CPUS_ALL;
	for_each_online_cpu(cpu) {
		if (n == TWHEEL_MAX_CPUS || n == want)
			break;
		cpu_at[n++] = cpu;
	}
	if (want != TWHEEL_CPUS_ALL && n < want) {
		pr_warn_ratelimited("load: cpus=%u: only %d CPUs are online\n", want, n);
		return -EINVAL;
	}
	return n;
}

/**
 * tw_wl_cpus() - the CPUs a workload is spread over
 * @p: the workload's parameters (cpus=)
 * @percpu: percpu=1: without cpus=, spread over every online CPU
 * @cpu_at: filled in with those CPUs, in order (TWHEEL_MAX_CPUS of room)
 *
 * cpus=all is every online CPU (the first TWHEEL_MAX_CPUS), cpus=N the
 * first N online, cpus=LIST the CPUs listed, each of which must be
 * online; without cpus= every online CPU with percpu=1, none with
 * percpu=0 (the driver's one tick runs everything, as it always did).
 * remote= and on= need two CPUs or more: their ops pick another CPU's
 * timers, or aim at another CPU.
 *
 * Return: how many CPUs (0: not spread), or -EINVAL (logged).
 */
int tw_wl_cpus(const struct twheel_params *p, bool percpu,
	       unsigned int *cpu_at)
{
	int n = tw_wl_cpus_of(p, percpu, cpu_at);

	if (n >= 0 && n < 2 && p->remote) {
		pr_warn_ratelimited("load: remote=%u needs a workload spread over 2 CPUs or more (cpus=, percpu=1), not %d\n",
				    p->remote, n);
		return -EINVAL;
	}
	if (n >= 0 && n < 2 && p->on) {
		pr_warn_ratelimited("load: on=%u needs a workload spread over 2 CPUs or more (cpus=, percpu=1), not %d\n",
				    p->on, n);
		return -EINVAL;
	}
	return n;
}

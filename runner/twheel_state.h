/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twheel runners: the module's state. The runners the module runs
 * (tw_runners[], tw_runner_mask), the loaded workload they share (tw_wl),
 * the control mutex (tw_ctl), the module's parameters checked into a
 * config, and what is done to every runner at once: set up, load, start,
 * tick, stop, reset. What one runner is and does is twheel_runner.h.
 *
 * Locking: tw_ctl, taken by the control file (twheel_main.c), serialises
 * load, start, stop, bench and unload, and the read-outs that need a
 * stable state; each runner's lock is twheel_runner.h's.
 */
#ifndef TWHEEL_STATE_H
#define TWHEEL_STATE_H

#include <linux/cpumask.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include "runner/twheel_runner.h"
#include "runner/twheel_workload.h"

/**
 * struct tw_modparams - the module's parameters, as insmod gave them
 * @engine: the engines' parameters (engines/params.h: modern_depth=,
 *	hash_slots=, max_interval=, hash_vec_keep=)
 * @tick: tick=, "periodic" or "nohz"
 * @budget: budget=, our engines' work per tick (0: no limit)
 * @tick_jiffies: tick_jiffies=, the driver's period in jiffies
 * @wrap_secs: wrap_secs=, the engines' clock wraps this long after load
 * @engines: engines=, the runners, by name, split by commas, or "all"
 * @percpu: percpu=, 1: an instance of each engine per CPU
 * @pull: pull=, 1: with tick=nohz and @percpu, CPUs awake expire the
 *	timers of CPUs asleep (the driver's pull model)
 *
 * tw_config_parse() checks them in this order.
 */
struct tw_modparams {
	struct twheel_config engine;
	const char *tick;
	unsigned int budget;
	unsigned int tick_jiffies;
	unsigned int wrap_secs;
	const char *engines;
	unsigned int percpu;
	unsigned int pull;
};

/**
 * struct tw_admission - what a load asks of the machine, and what it holds
 * @demand_per_s: timer events a second the load asks of all its runners
 *	(callbacks and activity ops, closed form: twheel_wl_demand())
 * @demand_ns: CPU ns a second they cost, by the runners' calibrations
 * @capacity_per_s: events a second of this mix the admission budget holds
 */
struct tw_admission {
	u64 demand_per_s;
	u64 demand_ns;
	u64 capacity_per_s;
};

/* The control state machine (twheel_main.c draws it). */
enum tw_state { TW_EMPTY, TW_LOADED, TW_RUNNING };

/**
 * struct tw_workload - the loaded workload, shared by every runner
 * @state: where the control state machine is (under tw_ctl)
 * @p: its parameters; fixed while loaded
 * @ticks_run: ticks of activity since start (written by the tick only)
 * @start: jiffy of the start
 * @activity: the tick runs activity ops and timers re-arm
 * @adm: what admission found for it
 * @planned: jiffies the driver's tick meant to sleep after its last run
 *	(tick_jiffies, or more under tick=nohz): a runner's tick that finds
 *	more than that to cover has missed some (written by the driver)
 * @starved: the driver's overload guard, set by the driver at init: true
 *	(and the activity ended) if its tick has been starved; a re-arm asks
 *	it first. NULL: never starved
 * @armed: the driver's pull model, set by the driver at init: a timer
 *	that is not deferrable was armed on another CPU's per-CPU instance
 *	(@cpu, due at @expires), which may sleep with its first event handed
 *	over (the kernel's trigger_dyntick_cpu()). NULL: nobody to tell
 * @ncpus: the CPUs the loaded workload is spread over (cpus=, or every
 *	online CPU with percpu=1); 0: not spread, the driver's one tick runs
 *	it all (percpu=0 without cpus=)
 * @cpu_at: those CPUs, in order: a timer is owned by @cpu_at[i], i its
 *	twheel_wl_cpu_index(), and each CPU's tick runs its ops
 * @percpu: percpu=1: engine runners have per-CPU instances and a load
 *	spreads over every online CPU unless cpus= says otherwise; from the
 *	config, by tw_runners_init()
 *
 * The driver sits above the runners: it writes @planned and sets @starved
 * and @armed, so that the runner layer reads what it needs without
 * calling up.
 */
struct tw_workload {
	enum tw_state state;
	struct twheel_params p;
	u64 ticks_run;
	unsigned long start;
	bool activity;
	struct tw_admission adm;
	unsigned long planned;
	bool (*starved)(void);
	void (*armed)(unsigned int cpu, unsigned long expires);
	unsigned int ncpus;
	unsigned int cpu_at[TWHEEL_MAX_CPUS];
	bool percpu;
};

extern struct tw_workload tw_wl;

/**
 * tw_wtimer_base() - the base a workload timer's flags file it in
 * @w: the timer
 *
 * Always inline, as tw_runner_ran_base(): asked on every arm and run of
 * every runner, and the test kernel is built -Os (tinyconfig), where gcc
 * keeps small static functions out of line.
 *
 * Return: twheel_wl_base() by the loaded workload's pinned= and
 * deferrable= shares; TWHEEL_BASE_GLOBAL without them (the shadow's
 * twins among them).
 */
static __always_inline enum twheel_tbase
tw_wtimer_base(const struct tw_wtimer *w)
{
	if (likely(!twheel_wl_has_bases(&tw_wl.p)))
		return TWHEEL_BASE_GLOBAL;
	return twheel_wl_base(&tw_wl.p, w->id);
}

/**
 * tw_runner_ran_base() - count a run of a workload timer by its base
 * @r: its runner, or the per-CPU instance that counts the run
 * @w: the timer that ran
 *
 * Beside tw_runner_ran(), which knows no timer. Context: as
 * tw_runner_ran().
 */
static __always_inline void tw_runner_ran_base(struct tw_runner *r,
					       const struct tw_wtimer *w)
{
	r->rs.runs_base[tw_wtimer_base(w)]++;
}

extern struct mutex tw_ctl;
extern struct tw_runner tw_runners[TWHEEL_NR_RUNNERS];
extern unsigned long tw_runner_mask;

/* The runner at or after index *i that the module runs, or NULL. */
struct tw_runner *tw_runner_next(int *i);

/* Every runner the module runs, in index order. */
#define tw_for_each_runner(r)						\
	for (int tw_ri = 0; ((r) = tw_runner_next(&tw_ri)); tw_ri++)

int tw_config_parse(const struct tw_modparams *mp, struct tw_config *cfg,
		    unsigned long *mask, bool *nohz);
int tw_runners_init(unsigned long mask, const struct tw_config *cfg,
		    const struct tw_runner_ops *const *impl);
void tw_runners_release(void);

bool tw_workload_live(void);
int tw_wl_cpus(const struct twheel_params *p, bool percpu,
	       unsigned int *cpu_at);

void tw_runners_tick(unsigned long now);
void tw_runners_cpu_advance(unsigned int cpu, unsigned long now);
unsigned long tw_runners_cpu_next(unsigned int cpu, unsigned long now,
				  unsigned long limit);
void tw_runners_cpu_planned(unsigned int cpu, unsigned long sleep);
bool tw_runners_cpu_tick(unsigned int cpu, unsigned long now, u64 tick);
void tw_runners_tick_cpus(struct cpumask *m);
void tw_runners_set_active(bool on);
int tw_runners_activate(bool on);
void tw_runners_arm_all(unsigned long base);
void tw_runners_rearm_ran(void);
void tw_runners_disarm(void);
void tw_runners_reset_counters(void);
int tw_runners_admit(const struct twheel_params *p, unsigned long mask,
		     struct tw_admission *adm);
int tw_runners_load(const struct twheel_params *p, unsigned long mask);
void tw_runners_free_timers(void);

#endif /* TWHEEL_STATE_H */

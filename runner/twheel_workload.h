/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twheel workloads and the control-file language: pure functions, so the
 * KUnit module can test the parser and the generator directly.
 */
#ifndef TWHEEL_WORKLOAD_H
#define TWHEEL_WORKLOAD_H

#include <linux/types.h>
#include <linux/bits.h>
#include "twheel.h"

enum twheel_wl_type {
	TWHEEL_WL_TIMEOUTS,	/* armed, nearly always deleted or re-armed first */
	TWHEEL_WL_EXPIRING,	/* short, and they do expire (and re-arm) */
	TWHEEL_WL_LONG,		/* far out, across many levels */
	TWHEEL_WL_BURST,	/* all in one far bucket, one shot */
	TWHEEL_WL_MIXED,	/* 6/10 timeouts, 2/10 expiring, 2/10 long */
	TWHEEL_WL_SHADOW,	/* the kernel's own timer_list traffic, mirrored */
	TWHEEL_WL_NR,
};

/* Limits, documented in docs/usage.md; beyond them a load is refused. */
#define TWHEEL_MAX_TIMERS	BIT(20)	/* per engine */
#define TWHEEL_MAX_DELTA	BIT(30)	/* jiffies */
#define TWHEEL_MAX_OPS		20000		/* activity ops per tick */
#define TWHEEL_MAX_BUDGET	1048576		/* work units per tick */
#define TWHEEL_MAX_SLACK	100		/* percent of a delta */
#define TWHEEL_MAX_REMOTE	100		/* percent of a CPU's ops */
#define TWHEEL_MAX_DURATION	86400		/* seconds */
#define TWHEEL_CMD_MAX		256		/* bytes in one control write */
#define TWHEEL_MAX_SHADOWS	BIT(16)	/* real timers a shadow load mirrors */
#define TWHEEL_MAX_CPUS		64		/* cpus= names CPUs 0..63 */
#define TWHEEL_CPUS_ALL		U32_MAX		/* cpus=all: every online CPU */

/* The keys of a load line; BIT(key) in twheel_params.set once given. */
enum twheel_key {
	TWHEEL_KEY_COUNT,
	TWHEEL_KEY_SEED,
	TWHEEL_KEY_MIN,
	TWHEEL_KEY_MAX,
	TWHEEL_KEY_CANCEL,
	TWHEEL_KEY_OPS,
	TWHEEL_KEY_DURATION,
	TWHEEL_KEY_ENGINES,
	TWHEEL_KEY_FORCE,
	TWHEEL_KEY_BUDGET,
	TWHEEL_KEY_SLACK,
	TWHEEL_KEY_CPUS,
	TWHEEL_KEY_REMOTE,
	TWHEEL_KEY_PINNED,
	TWHEEL_KEY_ON,
	TWHEEL_KEY_DEFERRABLE,
	TWHEEL_KEY_NR,
};

/**
 * struct twheel_params - a workload, as a load line gives it
 * @type: the workload
 * @count: timers per engine
 * @seed: the seed of every random choice
 * @min: the delta range, jiffies: from @min...
 * @max: ...to @max, both included
 * @cancel: % of activity ops on a pending timer that delete
 * @ops: activity ops per tick and engine
 * @duration: seconds of activity; 0: until stop
 * @engines: mask of engine kinds (BIT() of a runner, see
 *	twheel_runner_names); 0: every loaded one
 * @set: BIT(enum twheel_key) of the keys given
 * @force: 1: load even above the admission limit
 * @budget: our engines' work per tick, in twheel_run() units (a callback,
 *	a timer moved by a cascade); 0: no limit
 * @slack: each arming of a delta d may run anywhere from d to d + d *
 *	@slack / 100 jiffies on: our engines arm by range (twheel_mod_range(),
 *	each engine's pick), hrtimer by hrtimer_start_range_ns(); timer_list
 *	has no range and arms at d. 0: every arming exact
 * @cpus: cpus=LIST, the CPUs the workload's timers are spread over, as
 *	BIT(cpu); 0: not given as a list (see @ncpus)
 * @ncpus: cpus=N, the first N online CPUs; TWHEEL_CPUS_ALL, cpus=all; 0:
 *	not given as a count (neither given: the module's default, one CPU
 *	with percpu=0, every online CPU with percpu=1)
 * @remote: per cent of each CPU's activity ops that pick a timer of
 *	another CPU's block (twheel_wl_remote()); 0: none. Needs a workload
 *	spread over two CPUs or more
 * @pinned: per cent of the workload's timers set up TIMER_PINNED (the
 *	kernel's BASE_LOCAL: twheel_wl_timer_flags()); 0: none. A re-arm
 *	from another CPU moves a pinned timer there as any other (mod_timer()
 *	enqueues on the calling CPU's base; TIMER_PINNED picks only which of
 *	its bases)
 * @on: per cent of each CPU's re-arming ops aimed at another CPU, as
 *	add_timer_on() does (twheel_wl_on()): the timer is armed in that
 *	CPU's instance and stays there (twheel_wl_on_stays()); 0: none.
 *	Needs a workload spread over two CPUs or more
 * @deferrable: per cent of the workload's timers set up TIMER_DEFERRABLE
 *	(the kernel's BASE_DEF: none of them wakes a CPU whose tick sleeps);
 *	0: none
 *
 * twheel_params_default() gives a workload's defaults, twheel_parse_cmd()
 * the load line's values on top of them.
 */
struct twheel_params {
	enum twheel_wl_type type;
	u32 count;
	u64 seed;
	u32 min, max;
	u32 cancel;
	u32 ops;
	u32 duration;
	u32 engines;
	u32 set;
	u32 force;
	u32 budget;
	u32 slack;
	u64 cpus;
	u32 ncpus;
	u32 remote;
	u32 pinned;
	u32 on;
	u32 deferrable;
};

enum twheel_verb {
	TWHEEL_CMD_LOAD,
	TWHEEL_CMD_START,
	TWHEEL_CMD_STOP,
	TWHEEL_CMD_RESET,
	TWHEEL_CMD_UNLOAD,
	TWHEEL_CMD_BENCH,	/* op cost on the loaded timers */
	TWHEEL_CMD_CLEAR,	/* forget the comparison records */
};

/**
 * struct twheel_cmd - one control line, parsed by twheel_parse_cmd()
 * @verb: what to do
 * @p: the workload, for load only (left alone for the other verbs)
 */
struct twheel_cmd {
	enum twheel_verb verb;
	struct twheel_params p;
};

/**
 * struct twheel_op - what one activity op of a tick does
 * @id: the timer it acts on, an index in the workload
 * @cancel: delete the timer if it is pending (else re-arm it, or arm it)
 *
 * Made by twheel_wl_op().
 */
struct twheel_op {
	u32 id;
	bool cancel;
};

/*
 * What a workload runs on: our engines (enum twheel_kind) and the kernel's
 * own timers, driven by the same workload; and the shadow, the kernel's
 * real timer_list traffic that the shadow workload mirrors into the engines.
 */
#define TWHEEL_TIMER_LIST	TWHEEL_NR_KINDS
#define TWHEEL_HRTIMER		(TWHEEL_NR_KINDS + 1)
#define TWHEEL_SHADOW		(TWHEEL_NR_KINDS + 2)
#define TWHEEL_NR_RUNNERS	(TWHEEL_NR_KINDS + 3)

/**
 * struct twheel_demand - a workload's expected load on one runner
 * @callbacks_per_s: expiries a second, while the activity runs
 * @ops_per_s: activity ops a second
 * @burst_callbacks: a burst's one-shot expiries at start + min...
 * @burst_jiffies: ...spread over max - min + 1 jiffies (1: one)
 * @timers: timers per class (enum twheel_wl_type)
 * @class_callbacks_per_s: @callbacks_per_s per class, each rounded
 * @expiry_ppm: per class, the share of armings that end in expiry, ppm
 *
 * See twheel_wl_demand(), which fills it in.
 */
struct twheel_demand {
	u64 callbacks_per_s;
	u64 ops_per_s;
	u32 burst_callbacks;
	u32 burst_jiffies;
	u32 timers[TWHEEL_WL_NR];
	u64 class_callbacks_per_s[TWHEEL_WL_NR];
	u32 expiry_ppm[TWHEEL_WL_NR];
};

extern const char *const twheel_wl_names[TWHEEL_WL_NR];
extern const char *const twheel_runner_names[TWHEEL_NR_RUNNERS];

void twheel_params_default(enum twheel_wl_type type, struct twheel_params *p);
int twheel_parse_cmd(char *line, struct twheel_cmd *cmd, char *why,
		     size_t why_len);
u32 twheel_wl_delta(const struct twheel_params *p, u32 id, u32 gen);
u32 twheel_wl_slack(const struct twheel_params *p, u32 delta);
bool twheel_wl_rearms(const struct twheel_params *p, u32 id);
void twheel_wl_op(const struct twheel_params *p, u64 tick, u32 j,
		  struct twheel_op *op);
u32 twheel_wl_cpu_index(const struct twheel_params *p, u32 id, u32 n);
bool twheel_wl_remote(const struct twheel_params *p, u64 tick, u32 j,
		      u32 idx, u32 n, struct twheel_op *op);
bool twheel_wl_remote_stays(bool cancel, bool pending, bool running,
			    bool same_place);
bool twheel_wl_on(const struct twheel_params *p, u64 tick, u32 j, u32 idx,
		  u32 n, const struct twheel_op *op, u32 *target);
bool twheel_wl_on_stays(bool at_target, bool running);
/* What admission weighs a remote op as, in local ops (twheel_wl_op_weight()). */
#define TWHEEL_REMOTE_OP_WEIGHT	2
u32 twheel_wl_remote_ppm(const struct twheel_params *p, u32 n);
u64 twheel_wl_op_weight(u64 ops, u32 remote_ppm);
void twheel_wl_demand(const struct twheel_params *p, unsigned int hz,
		      struct twheel_demand *d);

/*
 * A CPU's three timer bases, numbered as Linux 6.12's kernel/time/timer.c
 * numbers them with CONFIG_NO_HZ_COMMON (6.9 on): a timer's flags pick one
 * (twheel_timer_base()).
 */
enum twheel_tbase {
	TWHEEL_BASE_LOCAL,	/* TIMER_PINNED: its CPU's own */
	TWHEEL_BASE_GLOBAL,	/* the rest: an idle CPU's go to the pull */
	TWHEEL_BASE_DEF,	/* TIMER_DEFERRABLE: never wakes an idle CPU */
	TWHEEL_NR_TBASES,
};

extern const char *const twheel_tbase_names[TWHEEL_NR_TBASES];

enum twheel_tbase twheel_timer_base(u32 flags);
u32 twheel_wl_timer_flags(const struct twheel_params *p, u32 id);
enum twheel_tbase twheel_wl_base(const struct twheel_params *p, u32 id);

/**
 * twheel_wl_has_bases() - whether a workload has timers outside BASE_GLOBAL
 * @p: the workload
 *
 * Inline: asked on every arm and run of a workload timer.
 *
 * Return: true if pinned= or deferrable= gives a share.
 */
static __always_inline bool twheel_wl_has_bases(const struct twheel_params *p)
{
	return p->pinned || p->deferrable;
}

unsigned long twheel_idle_next(unsigned long d, u64 pending, u64 def_pending,
			       unsigned long none);

#endif /* TWHEEL_WORKLOAD_H */

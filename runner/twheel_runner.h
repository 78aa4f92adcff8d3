/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twheel runners: anything a workload can run on. Our engines are one kind
 * of runner (twheel_engines.c), the kernel's timer_list and hrtimer two
 * more (twheel_ktimers.c). Everything above this layer (the tick, bench,
 * comparison rows, read-outs, control) handles runners only through
 * struct tw_runner_ops and never asks which kind a runner is.
 *
 * Locking: one spinlock per runner guards its counters, its timers' state
 * and @active; with percpu=1 one per per-CPU instance of an engine runner
 * (struct tw_runner.inst), which is a runner of its own: a timer's state
 * is guarded by the lock of the instance it lives in (its w->r). The
 * ticks (softirq) take it plainly, process context with bottom halves
 * off; never two at once. A timer that moves between instances (an
 * activity op re-arming it from another CPU: tw_runner_remote()) is
 * marked TW_MIGRATING in w->r and taken out under the old instance's
 * lock, which is dropped before the new one is taken, as the kernel's
 * __mod_timer() does; whoever finds the mark waits for it to go
 * (tw_wtimer_runner()). Callbacks run with no runner lock held. An
 * activity op takes one lock at a time, around the engine operation only,
 * as the kernel's mod_timer() takes its base's: its draws, its expiry's
 * delta and its clock reads come before (struct tw_op_plan). What a CPU
 * did and how it took the locks (struct tw_lockstat) is its own, guarded
 * by no runner lock.
 *
 * This is what one runner is and does; the runners the module runs, the
 * workload they share and what is done to all of them at once are
 * twheel_state.h.
 */
#ifndef TWHEEL_RUNNER_H
#define TWHEEL_RUNNER_H

#include <linux/cpumask.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/processor.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include "twheel.h"
#include "runner/twheel_hist.h"
#include "runner/twheel_workload.h"

struct seq_file;
struct dentry;
struct tw_runner;

/**
 * struct tw_run_stats - what the driver measures on a runner
 * @ticks: ticks that advanced the runner (engines only)
 * @catchups: ticks that had to cover missed jiffies
 * @missed: jiffies those covered beyond their own
 * @runs: callbacks run
 * @early: callbacks before their expiry: must stay 0
 * @exact: callbacks at exactly their expiry jiffy
 * @rearmed_inflight: runs whose timer was re-armed on another CPU while the
 *	callback was on its way (kernel timers on SMP): no lateness sample
 * @cascaded_max: most timers cascaded in one tick
 * @expired_max: most callbacks in one tick
 * @deferred: callbacks a tick's budget held back to a later tick
 * @ticks_at_budget: ticks that stopped at the budget
 * @backlog_max: most ticks in a row that stopped at the budget: how long
 *	the longest backlog took to drain
 * @backlog: ticks in a row that stopped at the budget, so far
 * @tick_ns: whole tick, this runner
 * @busy_ns: ticks that ran or cascaded timers
 * @cascade_ns: ticks that cascaded
 * @late_j: jiffy run - jiffy asked for
 * @late_ns: ns past the instant of the jiffy asked for
 * @act_ops: activity ops run by the tick of this runner (this instance's
 *	CPU, with cpus=), remote ones included
 * @act_ns: ns those ticks spent in their activity ops, from the first to
 *	the last, lock waits and remote ops included
 * @lock_acquired: acquisitions of the runner's locks by its hot paths (its
 *	ticks, the activity ops, its timers' callbacks), where counted
 *	(struct tw_runner.lockstat)
 * @lock_contended: of those, the ones that had to wait (a trylock failed)
 * @lock_wait_total_ns: ns those waited, in all
 * @lock_nested: of those, the ones taken while the same CPU held another
 *	runner lock: must stay 0 (the kernel never holds two base locks)
 * @lock_op_acquired: of @lock_acquired, those of the activity ops (local
 *	and remote): one per local op, one or two per remote op
 * @lock_op_contended: of those, the ones that had to wait
 * @lock_op_wait_ns: ns those waited, in all
 * @lock_remote_acquired: of @lock_op_acquired, those of the remote ops
 * @lock_remote_contended: of those, the ones that had to wait
 * @lock_remote_wait_ns: ns those waited, in all
 * @lock_remote_ops: the ops those are of: @remote_ops + @on_ops
 * @lock_wait_ns: ns each counted acquisition waited (0 if it did not)
 * @remote_ops: activity ops of this CPU on a timer that lived in another
 *	CPU's instance when the op looked (remote=): each locked that instance
 * @on_ops: activity ops of this CPU that armed a timer on another CPU
 *	(on=, add_timer_on()-style): their acquisitions count as remote ones
 * @migrations: of @remote_ops, the re-arms that moved the timer into this
 *	CPU's instance (not to its own expiry or bucket, its callback not
 *	running), and of @on_ops, the arms that moved it to the CPU aimed at
 * @pulled: callbacks of this instance that another CPU's tick ran while
 *	this instance's CPU slept (tick=nohz, the pull model), or after the
 *	kernel moved its tick away from a CPU gone offline
 * @arms_base: armings (adds and re-arms) of timers of each base (enum
 *	twheel_tbase, by the workload's pinned= and deferrable= shares)
 * @runs_base: of @runs, those of timers of each base
 *
 * @act_ops, @act_ns, @remote_ops, @migrations and the lock keys are kept
 * per CPU on the acquirer's side (struct tw_lockstat), never under the
 * lock they measure, and folded in when read (tw_lockstat_fold()): an
 * instance's block shows what its CPU did, to whichever instance's lock.
 * @remote_ops and @migrations are counted on per-CPU instances only, the
 * lock keys where the lock is counted (tw_runner_lock()).
 */
struct tw_run_stats {
	u64 ticks;
	u64 catchups;
	u64 missed;
	u64 runs;
	u64 early;
	u64 exact;
	u64 rearmed_inflight;
	u64 act_ops;
	u64 act_ns;
	u64 cascaded_max;
	u64 expired_max;
	u64 deferred;
	u64 ticks_at_budget;
	u64 backlog_max;
	u64 backlog;
	struct twheel_hist tick_ns;
	struct twheel_hist busy_ns;
	struct twheel_hist cascade_ns;
	struct twheel_hist late_j;
	struct twheel_hist late_ns;
	u64 lock_acquired;
	u64 lock_contended;
	u64 lock_wait_total_ns;
	u64 lock_nested;
	u64 lock_op_acquired;
	u64 lock_op_contended;
	u64 lock_op_wait_ns;
	u64 lock_remote_acquired;
	u64 lock_remote_contended;
	u64 lock_remote_wait_ns;
	u64 lock_remote_ops;
	struct twheel_hist lock_wait_ns;
	u64 remote_ops;
	u64 on_ops;
	u64 migrations;
	u64 pulled;
	u64 arms_base[TWHEEL_NR_TBASES];
	u64 runs_base[TWHEEL_NR_TBASES];
};

/* Who takes a runner lock (struct tw_lockstat). */
enum tw_lk {
	TW_LK_TICK,		/* a tick: its advance and its timers' callbacks */
	TW_LK_OP,		/* an activity op on a timer of its own instance */
	TW_LK_REMOTE,		/* an activity op on another instance's timer */
	TW_NR_LK,
};

/**
 * struct tw_lockstat - what one CPU did on one runner, kept by that CPU
 * @act_ops: its activity ops (struct tw_run_stats.act_ops)
 * @act_ns: ns its ticks spent in them
 * @remote_ops: of those, the ones on a timer of another CPU's instance
 * @on_ops: of those, the on= arms aimed at another CPU (add_timer_on())
 * @migrations: of those, the re-arms that moved the timer here, or the
 *	on= arms that moved it to the CPU aimed at
 * @acquired: its acquisitions of the runner's locks, by who took them
 * @contended: of those, the ones that had to wait
 * @wait_ns: ns those waited, in all
 * @nested: acquisitions while it held another runner lock
 * @wait: ns each acquisition waited
 *
 * Written only by its CPU, with bottom halves off, and outside the lock
 * it measures (the wait when that lock is dropped again); read without a
 * lock (tw_lockstat_fold()). One per CPU and runner (struct
 * tw_runner.ls), shared by the runner's per-CPU instances.
 */
struct tw_lockstat {
	u64 act_ops;
	u64 act_ns;
	u64 remote_ops;
	u64 on_ops;
	u64 migrations;
	u64 acquired[TW_NR_LK];
	u64 contended[TW_NR_LK];
	u64 wait_ns[TW_NR_LK];
	u64 nested;
	struct twheel_hist wait;
};

/**
 * struct tw_wtimer - the part every runner's workload timer shares
 * @r: the runner it belongs to; while it moves between two per-CPU
 *	instances, the one it leaves with TW_MIGRATING set (tw_runner_remote();
 *	read it with tw_wtimer_runner())
 * @id: its index in the workload
 * @gen: how often it was armed since start
 * @expires: the jiffy (the kernel's jiffies) it was last armed for
 * @nominal_ns: that jiffy's instant, estimated at arming
 *
 * A runner's own timer type starts with this header; the runner layer
 * allocates ops->timer_size bytes per timer.
 */
struct tw_wtimer {
	struct tw_runner *r;
	u32 id;
	u32 gen;
	unsigned long expires;
	u64 nominal_ns;
};

/*
 * The low bit of tw_wtimer.r: the timer is on its way to another per-CPU
 * instance, in neither's engine (the kernel's TIMER_MIGRATING).
 */
#define TW_MIGRATING	1UL

static inline bool tw_wtimer_migrating(const struct tw_runner *r)
{
	return (unsigned long)r & TW_MIGRATING;
}

/**
 * tw_wtimer_runner() - the runner or instance a workload timer lives in
 * @w: the timer
 *
 * Waits while @w moves between two instances (a few hundred instructions
 * of another CPU's tick). Call it holding no instance's lock: the move
 * takes the lock of the instance it goes to.
 *
 * Return: the runner, unlocked: lock it, then check that @w->r is still it.
 */
static inline struct tw_runner *tw_wtimer_runner(struct tw_wtimer *w)
{
	struct tw_runner *r;

	while (tw_wtimer_migrating(r = READ_ONCE(w->r)))
		cpu_relax();
	return r;
}

/* The bench's operations, in the order they run. */
enum tw_bench_op { TW_OP_ADD, TW_OP_MOD, TW_OP_DEL, TW_NR_OPS };

/**
 * struct tw_opcost - the bench's op cost on a runner, for the loaded workload
 * @ns: total ns over @n ops of each kind
 * @n: ops of each kind; 0: not measured for this load
 * @mod_same: timed mods that re-armed a pending timer to the expiry it
 *	already had, which the kernel's mod_timer() returns from at once
 *	(counted outside the timed part, kernel runners only)
 * @mod_unknown: timed mods of batches a tick fell in, not counted
 * @mod_counted: @mod_same and @mod_unknown were counted
 */
struct tw_opcost {
	u64 ns[TW_NR_OPS];
	u32 n;
	u32 mod_same;
	u32 mod_unknown;
	bool mod_counted;
};

/**
 * struct tw_cost - what a runner's timer work costs on this machine
 * @op_ns: one arm or delete, mean
 * @expire_ns: one expiry with its (empty) callback, mean, timers due together
 *
 * Measured once by the runner's calibrate op on scratch timers.
 */
struct tw_cost {
	u64 op_ns;
	u64 expire_ns;
};

/**
 * struct tw_config - module parameters the runners need, passed at init
 * @engine: the engines' parameters (engines/params.h: modern_depth=,
 *	hash_slots=, ...), checked; cap is 0 (each runner sizes its own)
 * @tick_jiffies: the driver ticks every this many jiffies
 * @clock_offset: engine time = jiffies + this (wrap_secs; 0 normally)
 * @percpu: every engine runner has an instance per CPU (percpu=1)
 */
struct tw_config {
	struct twheel_config engine;
	unsigned int tick_jiffies;
	unsigned long clock_offset;
	bool percpu;
};

/* What a runner's read-outs have (struct tw_runner_ops.caps). */
#define TW_CAP_ENGINE	BIT(0)	/* one of our engines: levels, cascades, ticks */
#define TW_CAP_NS_TIME	BIT(1)	/* keeps ns time: "early" is judged in ns */
#define TW_CAP_KERNEL	BIT(2)	/* the kernel runs its callbacks */
#define TW_CAP_LAZY	BIT(3)	/* lazy cancel: lazy_held, lazy_held_max */
#define TW_CAP_PERCPU	BIT(4)	/* a per-CPU instance: remote ops */
#define TW_CAP_LOCKSTAT	BIT(5)	/* read-outs only: its lock is counted */
/*
 * The kernel serialises its timers: with percpu=1 its activity ops and its
 * callbacks take no runner lock, and count per CPU (the timer_list).
 */
#define TW_CAP_LOCKFREE	BIT(6)
/* It files timers by their flags' base (pinned=, deferrable=): per-base keys. */
#define TW_CAP_BASES	BIT(7)

/**
 * struct tw_runner_ops - what makes a runner
 * @timer_size: bytes per workload timer (its type starts with struct tw_wtimer)
 * @caps: TW_CAP_* flags
 * @init: set the runner up at module load (may sleep; may be NULL)
 * @release: undo @init (may sleep; no timer is armed; may be NULL)
 * @reserve: make room for a load of @count timers before it is taken
 *	(may sleep; nothing is armed); what it reserves must stay valid for
 *	a smaller load, since the load may still fail; may be NULL
 * @setup: prepare workload timer @w once, after allocation
 * @arm: arm or re-arm @w for jiffy @expires, or by the workload's slack up
 *	to tw_runner_slack() jiffies later; counts added or modified; lock held
 * @del: delete @w if pending, without waiting; counts deleted; lock held
 * @pending: whether @w is armed and has not run yet; lock held
 * @cancel_sync: delete @w and wait for its callback to finish; returns
 *	whether it was pending (the runner layer counts it); lock not held,
 *	may sleep. NULL: @del under the lock does it.
 * @tick: advance to jiffy @now and run what is due (the driver's tick,
 *	softirq); NULL when the kernel runs the callbacks itself
 * @bench_op: one timed op of the bench (add, mod or del) with delta @delta
 *	from the runner's own clock (and the workload's slack, as @arm); no
 *	lock held, bottom halves off
 * @calibrate: measure @c on scratch timers of this runner's kind (process
 *	context, may sleep; the runner's own timers are untouched)
 * @busy_cost: fill @h with this runner's busy-tick cost for the comparison
 *	rows; NULL: its ticks are its own (struct tw_run_stats.busy_ns)
 * @next_event: (with @tick) jiffies from now + 1 to the next jiffy its
 *	tick has work at, at most limit; 0: the next jiffy (tick=nohz)
 * @show: extra stats lines, after the common keys (may be NULL)
 * @occupancy: bucket occupancy read-out (may be NULL: no buckets)
 * @max_timers: the most workload timers the runner takes without stalling
 *	the machine, for engines whose start costs grow with the count (may
 *	be NULL: TWHEEL_MAX_TIMERS)
 * @forget: let go of every workload timer before they are freed (nothing
 *	is armed): an engine with lazy cancel still links the cancelled
 *	ones; lock not held, may sleep; may be NULL
 * @needs_room: whether an arm now may be refused for memory @make_room
 *	can get (hash_vec's arrays); lock held, or the runner idle. Asked
 *	only of runners whose init set struct tw_runner.room_watch
 * @make_room: get that memory: process context, no lock held; 0 or
 *	-ENOMEM. Process-context loops that arm many timers (start, bench)
 *	stop when @needs_room says so and call this
 * @activate: the workload's activity starts (@on) or ends on this runner,
 *	before its timers are armed or after they are disarmed (process
 *	context, may sleep; may be NULL); an error refuses the start
 * @feed: (the shadow) at the start of the driver's tick, before any
 *	runner's tick: hands the other runners what happened since the last
 *	tick; true if it ticked them itself, so that the driver does not
 *	(may be NULL)
 * @twin_ran: (the shadow) one of the timers it mirrors into runner @r,
 *	@w, ran there; @r's lock held. The runner layer calls it instead of
 *	re-arming @w (may be NULL)
 * @move: (an engine runner's per-CPU instances) @w, which lives in @from
 *	and whose callback is not running, moves to @to, an instance of the
 *	same runner: @from lets go of whatever it holds of it (counted as a
 *	delete if it was pending) and @w is set up for @to, not pending
 *	there (its writes to @w only). @from's lock held, never @to's: the
 *	caller marks @w TW_MIGRATING first and publishes it in @to under
 *	@to's lock once @from's is dropped. NULL: never moves
 * @where: (an engine runner) where it files @expires (the kernel's
 *	jiffies) now: the bucket index into @idx (TWHEEL_NO_BUCKET: none),
 *	its clock into @clk and, where it knows it (the modern wheel), the
 *	jiffy that bucket runs at into @bucket_expiry; returns whether it set
 *	that. Lock held. What the shadow compares with the kernel's own wheel
 *	(may be NULL)
 */
struct tw_runner_ops {
	size_t timer_size;
	unsigned int caps;
	int (*init)(struct tw_runner *r, const struct tw_config *cfg);
	void (*release)(struct tw_runner *r);
	int (*reserve)(struct tw_runner *r, u32 count);
	void (*setup)(struct tw_runner *r, struct tw_wtimer *w);
	void (*arm)(struct tw_runner *r, struct tw_wtimer *w,
		    unsigned long expires);
	void (*del)(struct tw_runner *r, struct tw_wtimer *w);
	bool (*pending)(struct tw_runner *r, struct tw_wtimer *w);
	bool (*cancel_sync)(struct tw_runner *r, struct tw_wtimer *w);
	void (*tick)(struct tw_runner *r, unsigned long now);
	unsigned long (*next_event)(struct tw_runner *r, unsigned long now,
				    unsigned long limit);
	void (*bench_op)(struct tw_runner *r, struct tw_wtimer *w,
			 enum tw_bench_op op, unsigned long delta);
	int (*calibrate)(struct tw_runner *r, struct tw_cost *c);
	bool (*busy_cost)(struct tw_runner *r, struct twheel_hist *h);
	void (*show)(struct seq_file *m, struct tw_runner *r);
	int (*occupancy)(struct seq_file *m, struct tw_runner *r);
	u32 (*max_timers)(struct tw_runner *r);
	void (*forget)(struct tw_runner *r);
	bool (*needs_room)(struct tw_runner *r);
	int (*make_room)(struct tw_runner *r);
	int (*activate)(struct tw_runner *r, bool on);
	bool (*feed)(struct tw_runner *r, unsigned long now);
	void (*twin_ran)(struct tw_runner *self, struct tw_runner *r,
			 struct tw_wtimer *w);
	void (*move)(struct tw_runner *from, struct tw_runner *to,
		     struct tw_wtimer *w);
	bool (*where)(struct tw_runner *r, unsigned long expires,
		      unsigned int *idx, unsigned long *bucket_expiry,
		      unsigned long *clk);
};

/**
 * struct tw_runner - one thing a workload runs on
 * @name: as users type it (engines=, stats, compare)
 * @id: its index in the one runner index space (enum twheel_runner_id)
 * @ops: its behaviour
 * @caps: what its read-outs have: @ops->caps, and what its engine adds
 *	(TW_CAP_LAZY)
 * @lock: guards everything below but @dir, @timers' allocation and @opcost
 * @active: workload activity (re-arms and ops) is on
 * @st: its counters: an engine's own, or @own_st
 * @own_st: counters of a runner that has no engine
 * @rs: what the driver measures
 * @timers: the workload timers, @nr_timers of ops->timer_size bytes
 * @nr_timers: 0 when no workload is loaded
 * @opcost: the last bench of this load (under the control mutex)
 * @cost: its calibration (under the control mutex; 0: not measured yet)
 * @priv: the implementation's state (an engine)
 * @room_watch: set by @ops->init when an arm may be refused for memory
 *	@ops->make_room can get: loops that arm many timers ask
 *	@ops->needs_room after each arm then, and only then (no indirect call
 *	per op for the others, the bench's timed loop included)
 * @dir: its debugfs directory
 * @inst: percpu=1, an engine runner: its instance on each possible CPU,
 *	each a runner of its own (its lock, engine, counters), set up by the
 *	same init op; the workload's timers live in them. NULL: none, the
 *	runner is its one instance
 * @cpu: a per-CPU instance (@caps has TW_CAP_PERCPU): its CPU
 * @lockstat: its hot paths count their acquisitions of @lock
 *	(tw_runner_lock()): a per-CPU instance, or a one-instance engine
 *	runner while the loaded workload is spread over CPUs (cpus=), whose
 *	lock every one of those CPUs' ticks takes
 * @running: a per-CPU instance: the workload timer whose callback its tick
 *	runs right now, with the lock dropped, else NULL. That timer does
 *	not move to another instance meanwhile (the kernel does not migrate
 *	a timer its base is running either)
 * @ls: what each CPU did on this runner (its activity ops, its lock
 *	acquisitions): the runner's, shared by its per-CPU instances
 * @planned: a per-CPU instance: jiffies its CPU's tick meant to sleep
 *	after its last run (struct tw_workload.planned for its CPU; written
 *	by the driver, tw_runners_cpu_planned())
 *
 * With @inst, this runner's own engine and counters stay idle (its engine
 * serves calibration and limits); stats totals its instances'.
 */
struct tw_runner {
	const char *name;
	int id;
	const struct tw_runner_ops *ops;
	unsigned int caps;
	spinlock_t lock;		/* see @lock above */
	bool active;
	struct twheel_stats *st;
	struct twheel_stats own_st;
	struct tw_run_stats rs;
	void *timers;
	u32 nr_timers;
	struct tw_opcost opcost;
	struct tw_cost cost;
	void *priv;
	bool room_watch;
	struct dentry *dir;
	struct tw_runner *__percpu *inst;
	unsigned int cpu;
	bool lockstat;
	struct tw_wtimer *running;
	struct tw_lockstat __percpu *ls;
	unsigned long planned;
};

extern const struct tw_runner_ops tw_engine_runner_ops;
/* Every engine runner's ops by the engine's kind (runner/twheel_engines.c). */
extern const struct tw_runner_ops tw_engine_runner_ops_of[TWHEEL_NR_KINDS];
extern const struct tw_runner_ops tw_timer_list_runner_ops;
extern const struct tw_runner_ops tw_hrtimer_runner_ops;

static inline struct tw_wtimer *tw_runner_timer(struct tw_runner *r, u32 i)
{
	return (struct tw_wtimer *)((char *)r->timers + i * r->ops->timer_size);
}

static inline bool tw_runner_loaded(const struct tw_runner *r)
{
	return r->nr_timers;
}

/* r's instance on CPU cpu: its own there with percpu=1, else r itself. */
static inline struct tw_runner *tw_runner_on(struct tw_runner *r,
					     unsigned int cpu)
{
	return r->inst ? *per_cpu_ptr(r->inst, cpu) : r;
}

/*
 * The instance of r on the first possible CPU at or after *c (*c set to
 * it), or NULL after the last; r itself at 0 if it has no instances.
 */
static inline struct tw_runner *tw_runner_inst_next(struct tw_runner *r,
						    unsigned int *c)
{
	if (!r->inst)
		return *c ? NULL : r;
	*c = cpumask_next((int)*c - 1, cpu_possible_mask);
	return *c < nr_cpu_ids ? *per_cpu_ptr(r->inst, *c) : NULL;
}

/* Each instance in of runner r: one per possible CPU, or r alone. */
#define tw_for_each_inst(r, in)						\
	for (unsigned int tw_ci = 0;					\
	     ((in) = tw_runner_inst_next((r), &tw_ci)); tw_ci++)

void tw_runner_lock_counted(struct tw_runner *r, enum tw_lk who)
	__acquires(&r->lock);
void tw_runner_unlock_counted(struct tw_runner *r)
	__releases(&r->lock);

/*
 * Takes r's lock in its hot paths (its tick, activity ops, callbacks):
 * where its lock is counted (r->lockstat), the acquisition counts on
 * this CPU's side as who's, and the wait if it had to. Bottom halves off.
 */
static inline void tw_runner_lock(struct tw_runner *r, enum tw_lk who)
	__acquires(&r->lock)
{
	if (READ_ONCE(r->lockstat))
		tw_runner_lock_counted(r, who);
	else
		spin_lock(&r->lock);
}

/* Drops what tw_runner_lock() took (its wait counted once dropped). */
static inline void tw_runner_unlock(struct tw_runner *r)
	__releases(&r->lock)
{
	if (READ_ONCE(r->lockstat))
		tw_runner_unlock_counted(r);
	else
		spin_unlock(&r->lock);
}

/* What an activity op did to a timer it found in another instance. */
enum tw_touch {
	TW_TOUCH_NONE,		/* nothing: the activity went off meanwhile */
	TW_TOUCH_LOCAL,		/* it had come to the op's own instance */
	TW_TOUCH_REMOTE,	/* deleted or re-armed where it lives */
	TW_TOUCH_MOVED,		/* re-armed, moved to the op's own instance */
};

/**
 * struct tw_op_plan - what an activity op will do, drawn before any lock
 * @gen: the timer's arming count the draw was made for (a re-arm by
 *	another CPU meanwhile makes the op draw again, under the lock)
 * @expires: the jiffy a re-arm takes
 * @nominal_ns: that jiffy's instant, estimated now
 */
struct tw_op_plan {
	u32 gen;
	unsigned long expires;
	u64 nominal_ns;
};

enum tw_touch tw_runner_remote(struct tw_runner *in, struct tw_wtimer *w,
			       bool cancel, struct tw_op_plan *pl);
enum tw_touch tw_runner_remote_to(struct tw_runner *in, struct tw_runner *to,
				  struct tw_wtimer *w, bool cancel,
				  struct tw_op_plan *pl);
void tw_lockstat_fold(struct tw_run_stats *rs, const struct tw_lockstat *ls);
u64 tw_per_op_milli(u64 v, u64 ops);

void tw_stats_add(struct twheel_stats *t, const struct twheel_stats *st);
void tw_run_stats_add(struct tw_run_stats *t, const struct tw_run_stats *rs);

void tw_runner_arm(struct tw_runner *r, struct tw_wtimer *w,
		   unsigned long expires);
void tw_runner_arm_at(struct tw_runner *r, struct tw_wtimer *w,
		      unsigned long expires, u64 nominal_ns);
unsigned long tw_runner_slack(unsigned long expires);
void tw_runner_ran(struct tw_runner *r, long late_j, s64 late_ns);
void tw_runner_ran_j(struct tw_runner *r, long late_j);
void tw_runner_rearm(struct tw_runner *r, struct tw_wtimer *w);
void tw_runner_activity(struct tw_runner *r, u64 tick, int idx);
void tw_runner_totals(struct tw_runner *r, struct twheel_stats *st,
		      struct tw_run_stats *rs, bool *active);
int tw_runner_inst_init(struct tw_runner *r, const struct tw_config *cfg);
void tw_runner_inst_release(struct tw_runner *r);
void tw_runner_ls_reset(struct tw_runner *r);

#endif /* TWHEEL_RUNNER_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * twheel op-stream benchmark: the stream the core-cost work is measured on,
 * and the one a second timer library can be run on for comparison
 * (stream.h generates it; ratas_stream.cc runs it on Ratas).
 *
 * N timers are always pending. Each arming draws a delay (mix "u": uniform
 * in 1..2^20 ticks; mix "s": uniform in 25..250) and decides whether it will
 * expire (1 in 10) or be touched before it does (9 in 10), at a tick drawn
 * uniformly from the ticks up to and including its expiry. A touch is a del
 * followed by an add (half of them) or a mod (the other half), both with a
 * fresh delay. Every tick runs its touches, then one 1-tick advance that
 * hands out what expired; each expired timer is armed again (its callback's
 * add). The stream is deterministic: a seed, no clock.
 *
 *   stream <engine> <u|s> <pending> [ops]
 *
 * runs ticks until about ops touches were made (default 10 * pending,
 * at least 20000). Natively it prints
 *   "ns <engine> <mix> <pending> <add> <del> <mod> <empty> <busy> <fired>"
 * with ns per add, del, mod, per empty tick (nothing fired: a cascade or
 * promotion may have run), per busy tick, and fired timers per busy tick. Under callgrind
 * (--instr-atstart=no --collect-atstart=no) it replays the same stream
 * once per kind, collecting only that kind, and prints "ops <kind> <count>"
 * after each dump "ops <kind> <ops> <batches>": kinds add, del, mod, empty
 * (advances of empty ticks), busy (advances of busy ticks, pops included);
 * then "fired <count>" and "toggle <count>": the dump "toggle" holds what
 * count empty batches cost (the timing and collection around a batch), to
 * be taken off each batch of every kind.
 *
 * STREAM_GENERIC=1: every engine through twheel_add() and the others (one
 * indirect call each) instead of its kind's own code. STREAM_RUN=1: the
 * tick is a run (twheel_run_until(), or twheel_run_as() with the kind)
 * that hands the timers to a fn, instead of an advance and pops.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <valgrind/callgrind.h>
#include "twheel.h"
#include "stream.h"
#include "twheel_user.h"
#include "vec_pool.h"
#include "engines/registry.h"

enum { K_ADD, K_DEL, K_MOD, K_EMPTY, K_BUSY, NR_KINDS };
static const char *const kind_name[NR_KINDS] = {
	"add", "del", "mod", "empty", "busy"
};

static struct tw_user_engine engine;

static struct {
	struct twheel_engine *e;
	struct twheel_timer *t;
	struct twheel_timer **batch;	/* one kind's timers of one tick */
	unsigned long *exp;		/* and their expiries */
	unsigned char *busy;		/* per tick: 1 if it fired a timer */
	unsigned long nr_ticks, clk0;
	int collect;			/* callgrind: the kind collected */
	double ns[NR_KINDS];
	unsigned long ops[NR_KINDS], calls[NR_KINDS], fired;
	int mem_told;			/* the mem line printed */
} b = { .collect = -1 };

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/*
 * Any engine of the registry by its name, with the module's defaults but
 * for the heap (room for every timer) and simple (slots for 2^20 jiffies).
 */
static void engine_init(const char *name, unsigned long clk, unsigned long n)
{
	struct twheel_config cfg = tw_user_config();
	int ret;

	cfg.cap = n;
	cfg.max_interval = 1U << 20;
	ret = tw_user_engine_new(&engine, name, clk, &cfg);

	if (ret) {
		fprintf(stderr, "stream: %s: %s\n", name,
			ret == -ENOENT ? "no such engine" : "cannot set it up");
		exit(2);
	}
	b.e = engine.e;
	tw_user_feed(b.e);
}

/*
 * The bytes the engine holds with n timers pending, beside the timers: its
 * state, its storage (cfg as engine_init() sets it) and, for hash_vec, the
 * arrays in its slots and its spares (what debugfs stats shows as
 * vec_slot_bytes and vec_spare_bytes).
 */
static unsigned long engine_bytes(unsigned long n)
{
	struct twheel_config cfg = tw_user_config();
	unsigned long bytes, i;
	unsigned int k;

	cfg.cap = n;
	cfg.max_interval = 1U << 20;
	bytes = engine.ops->size + twheel_storage_size(engine.ops, &cfg);
	if (engine.ops == &twheel_hash_vec_ops) {
		const struct twheel_hash_vec *hv = twheel_to_hash_vec(b.e);

		for (i = 0; i <= hv->mask; i++)
			bytes += hv->slots[i].cap * sizeof(struct twheel_vec_entry);
		for (k = 0; k < TW_VEC_ORDERS; k++)
			bytes += hv->pool[k].nr * twheel_hash_vec_array_size(k);
	}
	return bytes;
}

/* Gives back what engine_init() took, its timers deleted first. */
static void engine_fini(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		twheel_del(b.e, &b.t[i]);
	twheel_purge(b.e);
	tw_user_unfeed(b.e);
	tw_user_engine_free(&engine);
}

/* An engine that asks for memory (hash_vec): it, between batches (untimed). */
static void feed(void)
{
	tw_user_feed(b.e);
}

/*
 * Times (and under callgrind collects) one batch of a kind; an empty batch
 * is not a batch: nothing is toggled, so it costs the kind nothing.
 */
static void kind_start(int k, unsigned long count, double *t0)
{
	if (!count)
		return;
	*t0 = now_ns();
	if (b.collect == k)
		CALLGRIND_TOGGLE_COLLECT;
}

static void kind_stop(int k, unsigned long count, double t0)
{
	if (!count)
		return;
	if (b.collect == k)
		CALLGRIND_TOGGLE_COLLECT;
	b.ns[k] += now_ns() - t0;
	b.ops[k] += count;
	b.calls[k]++;
}

/* The run's fn (STREAM_RUN=1): the timer kept, to be armed again. */
static void ss_fired(struct twheel_timer *t, unsigned long jiffy, void *arg)
{
	unsigned long *fired = arg;

	b.batch[(*fired)++] = t;
}

/* Whether the environment sets name to 1. */
static int env_on(const char *name)
{
	const char *v = getenv(name);

	return v && !strcmp(v, "1");
}

/*
 * One tick of the stream: its touches, then its advance, or its run where
 * run is 1 (STREAM_RUN=1). The engine's kind and run are constants in
 * each copy (run_tick_pop_classic(), run_tick_run_classic() and the others),
 * so the operations are the engine's own code with no dispatch, as a
 * caller that knows its engine gets them (twheel_add_as() and the others).
 */
static __always_inline void run_tick_as(struct ss_stream *s,
					unsigned long tick, int record,
					enum twheel_kind kind, int run)
{
	struct twheel_engine *e = b.e;
	unsigned long i, n_del = 0, n_mod = 0, fired;
	struct twheel_timer **mods = b.batch + s->n;
	struct twheel_timer *t;
	unsigned int id;
	double t0 = 0;
	int k;

	/* touches due now: dels (their adds follow), then mods */
	while ((id = ss_next_touch(s, tick)) != SS_NONE) {
		if (ss_touch_is_mod(s, id))
			mods[n_mod++] = &b.t[id];
		else
			b.batch[n_del++] = &b.t[id];
	}
	feed();
	kind_start(K_DEL, n_del, &t0);
	for (i = 0; i < n_del; i++)
		twheel_del_as(e, kind, b.batch[i]);
	kind_stop(K_DEL, n_del, t0);
	for (i = 0; i < n_del; i++) {
		ss_arm(s, b.batch[i] - b.t, tick);
		b.exp[i] = s->expires[b.batch[i] - b.t];
	}
	feed();
	kind_start(K_ADD, n_del, &t0);
	for (i = 0; i < n_del; i++)
		twheel_add_as(e, kind, b.batch[i], b.exp[i]);
	kind_stop(K_ADD, n_del, t0);
	for (i = 0; i < n_mod; i++) {
		ss_arm(s, mods[i] - b.t, tick);
		b.exp[i] = s->expires[mods[i] - b.t];
	}
	feed();
	kind_start(K_MOD, n_mod, &t0);
	for (i = 0; i < n_mod; i++)
		twheel_mod_as(e, kind, mods[i], b.exp[i]);
	kind_stop(K_MOD, n_mod, t0);

	/* the tick; its kind is known from a first, uncollected pass */
	k = record || !b.busy[tick - b.clk0] ? K_EMPTY : K_BUSY;
	fired = 0;
	feed();
	kind_start(k, 1, &t0);
	if (run && kind == TWHEEL_NR_KINDS) {
		twheel_run_until(e, tick, ss_fired, &fired);
	} else if (run) {
		twheel_run_as(e, kind, tick, ss_fired, &fired, NULL);
	} else {
		twheel_advance_as(e, kind, tick);
		while ((t = twheel_pop_as(e, kind)))
			b.batch[fired++] = t;
	}
	kind_stop(k, 1, t0);
	if (record)
		b.busy[tick - b.clk0] = fired != 0;
	b.fired += fired;
	/* each callback arms its timer again, at this tick */
	for (i = 0; i < fired; i++) {
		ss_arm(s, b.batch[i] - b.t, tick);
		b.exp[i] = s->expires[b.batch[i] - b.t];
	}
	feed();
	kind_start(K_ADD, fired, &t0);
	for (i = 0; i < fired; i++)
		twheel_add_as(e, kind, b.batch[i], b.exp[i]);
	kind_stop(K_ADD, fired, t0);
}

/*
 * The copies of the tick: run_tick_pop_<name>() (advance and pops) and
 * run_tick_run_<name>() (a run) for each engine with fast paths (FAST in
 * the registry), the kind a constant in it; the others run
 * run_tick_pop_other() and run_tick_run_other(): twheel_add() and the
 * others, one indirect call through the ops.
 */
#define SS_TICK_COPIES(name, NAME)					\
static void run_tick_pop_##name(struct ss_stream *s,			\
				unsigned long tick, int record)		\
{									\
	run_tick_as(s, tick, record, TWHEEL_##NAME, 0);			\
}									\
static void run_tick_run_##name(struct ss_stream *s,			\
				unsigned long tick, int record)		\
{									\
	run_tick_as(s, tick, record, TWHEEL_##NAME, 1);			\
}

SS_TICK_COPIES(other, NR_KINDS)

#define SS_TICK_FAST(name, NAME)	SS_TICK_COPIES(name, NAME)
#define SS_TICK_SLOW(...)
#define TWHEEL_ENGINE(name, NAME, path, ...)	SS_TICK_##path(name, NAME)
#include "engines/list.h"
#undef TWHEEL_ENGINE

/* Each engine's tick, [0] advance and pops, [1] a run, by its kind. */
#define SS_TICK_REF_FAST(pre, name)	run_tick_##pre##_##name
#define SS_TICK_REF_SLOW(pre, ...)	run_tick_##pre##_other
#define SS_TICK_REF(name, NAME, path, pre)	\
	[TWHEEL_##NAME] = SS_TICK_REF_##path(pre, name),
static void (*const run_tick_of[2][TWHEEL_NR_KINDS])(struct ss_stream *s,
						      unsigned long tick,
						      int record) = {
	{
#define TWHEEL_ENGINE(name, NAME, path, ...)	SS_TICK_REF(name, NAME, path, pop)
#include "engines/list.h"
#undef TWHEEL_ENGINE
	}, {
#define TWHEEL_ENGINE(name, NAME, path, ...)	SS_TICK_REF(name, NAME, path, run)
#include "engines/list.h"
#undef TWHEEL_ENGINE
	},
};

/* The whole stream, from a fresh engine and a fresh seed. */
static void run_stream(const char *engine, int mix, unsigned long n,
		       unsigned long nr_ticks, int record)
{
	void (*run_tick)(struct ss_stream *s, unsigned long tick, int record);
	int run = env_on("STREAM_RUN");
	struct ss_stream s;
	unsigned long clk = b.clk0, i;

	engine_init(engine, clk, n);
	if (ss_init(&s, mix, n, clk)) {
		fprintf(stderr, "stream: out of memory\n");
		exit(2);
	}
	for (i = 0; i < n; i++) {
		twheel_timer_setup(b.e, &b.t[i], NULL);
		feed();
		twheel_add(b.e, &b.t[i], s.expires[i]);
	}
	/* under callgrind, once: the memory it holds, n timers pending */
	if (RUNNING_ON_VALGRIND && !b.mem_told) {
		printf("mem %lu %zu\n", engine_bytes(n), sizeof(struct twheel_timer));
		b.mem_told = 1;
	}
	memset(b.ns, 0, sizeof(b.ns));
	memset(b.ops, 0, sizeof(b.ops));
	memset(b.calls, 0, sizeof(b.calls));
	b.fired = 0;
	/* STREAM_GENERIC=1: twheel_add() and the others, for every engine */
	if (env_on("STREAM_GENERIC"))
		run_tick = run ? run_tick_run_other : run_tick_pop_other;
	else
		run_tick = run_tick_of[run][b.e->kind];
	for (i = 0; i < nr_ticks; i++)
		run_tick(&s, clk + i, record);
	if (twheel_stats_pending(&b.e->st) != n || b.e->st.refused) {
		fprintf(stderr, "stream: %s: counters do not add up\n", engine);
		exit(1);
	}
	engine_fini(n);
	ss_free(&s);
}

int main(int argc, char **argv)
{
	unsigned long n, ops, i;
	int mix, k;

	if (argc < 4 || (strcmp(argv[2], "u") && strcmp(argv[2], "s"))) {
		fprintf(stderr, "usage: stream <");
		tw_user_engine_names(stderr, "|");
		fprintf(stderr, "> <u|s> <pending> [ops]\n");
		return 2;
	}
	mix = argv[2][0];
	n = strtoul(argv[3], NULL, 0);
	if (n < 2) {
		fprintf(stderr, "stream: need at least 2 timers\n");
		return 2;
	}
	ops = argc > 4 ? strtoul(argv[4], NULL, 0) : (10 * n > 20000 ? 10 * n : 20000);
	/* a clock that wraps 32 bits during the stream */
	b.clk0 = (unsigned long)(unsigned int)(-300 * 250);
	b.t = calloc(n, sizeof(*b.t));
	b.batch = calloc(2 * n, sizeof(*b.batch));
	b.exp = calloc(n, sizeof(*b.exp));
	if (!b.t || !b.batch || !b.exp)
		return 2;
	b.nr_ticks = ss_ticks_for(mix, n, ops);
	b.busy = calloc(b.nr_ticks, 1);
	if (!b.busy)
		return 2;
	/* the first pass records which ticks are busy, and is timed */
	run_stream(argv[1], mix, n, b.nr_ticks, 1);
	if (!RUNNING_ON_VALGRIND) {
		unsigned long busy = 0;
		/* a second, timed pass with the ticks told apart */
		run_stream(argv[1], mix, n, b.nr_ticks, 0);
		for (i = 0; i < b.nr_ticks; i++)
			busy += b.busy[i];
		printf("ns %s %c %lu %.1f %.1f %.1f %.1f %.1f %.2f\n", argv[1],
		       mix, n, b.ns[K_ADD] / b.ops[K_ADD],
		       b.ns[K_DEL] / b.ops[K_DEL], b.ns[K_MOD] / b.ops[K_MOD],
		       b.ns[K_EMPTY] / (b.ops[K_EMPTY] ? b.ops[K_EMPTY] : 1),
		       b.ns[K_BUSY] / (busy ? busy : 1),
		       (double)b.fired / (busy ? busy : 1));
		return 0;
	}
	CALLGRIND_START_INSTRUMENTATION;
	for (k = 0; k < NR_KINDS; k++) {
		b.collect = k;
		CALLGRIND_ZERO_STATS;
		run_stream(argv[1], mix, n, b.nr_ticks, 0);
		CALLGRIND_DUMP_STATS_AT(kind_name[k]);
		printf("ops %s %lu %lu\n", kind_name[k], b.ops[k], b.calls[k]);
	}
	printf("fired %lu\n", b.fired);
	/* what an empty batch costs the harness, collected alone */
	b.collect = K_ADD;
	CALLGRIND_ZERO_STATS;
	for (i = 0; i < 100000; i++) {
		double t0;

		kind_start(K_ADD, 1, &t0);
		kind_stop(K_ADD, 1, t0);
	}
	CALLGRIND_DUMP_STATS_AT("toggle");
	printf("toggle %d\n", 100000);
	CALLGRIND_STOP_INSTRUMENTATION;
	return 0;
}

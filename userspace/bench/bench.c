// SPDX-License-Identifier: GPL-2.0
/*
 * twheel user-space benchmark: a timeout-heavy workload on one engine with
 * a given number of pending timers. Every timer has its own timeout (most a
 * fraction of a second to a few seconds, some minutes to an hour) and is
 * touched once every BENCH_TOUCH jiffies: deleted and armed again, or
 * re-armed with mod, in both cases before most timeouts run out. Each
 * jiffy runs a batch of dels, a batch of adds (the deleted timers), a batch
 * of mods, then one twheel_advance() that also pops what expired; expired
 * timers are armed again untimed, so the pending count stays constant.
 *
 *   bench <engine> <pending> [jiffies [slack [rule]]]
 *
 * With slack (percent, default 0), every arming is a range: a timeout d
 * may run from d to d + d * slack / 100 jiffies on, through
 * twheel_add_range() and twheel_mod_range() (rule "engine", the default:
 * the engine's own pick), or with the expiry picked by a rule and armed
 * by twheel_add() or twheel_mod(): "pick" (the engine's own,
 * twheel_range_expiry()), "lo", "hi", "round" (twheel_range_pick(), the
 * kernel's old rule), a pending timer
 * already in the range being left alone as twheel_mod_range() leaves it.
 * Natively it then prints "range <engine> <pending> <slack> <rule> <mods>
 * <noop> <inplace> <relinks> <cascaded> <expired>": over the timed jiffies,
 * mods of a pending timer, of those left alone, those in place (same
 * bucket), the rest (relinked), timers moved by cascades, timers expired.
 *
 * engine: any of the registry's (engines/list.h), made by the one
 * user-space constructor (include/twheel_user.h); hash_vec's arrays fed
 * between batches, untimed (vec_pool.h).
 *
 * Natively it prints "ns <engine> <pending> <add> <del> <mod> <advance> <x>":
 * ns per op, advance per jiffy, and x the percentage of timers that expired
 * rather than being deleted or re-armed. Under callgrind (run with --instr-atstart=no
 * --collect-atstart=no) it runs one phase per op kind, collecting only that
 * kind, dumps the counts as "<kind>" and prints "ops <kind> <count>", so the
 * dump's instruction count divided by count is instructions per op; after
 * the advance phase "fired <count>", the timers its ticks handed out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <valgrind/callgrind.h>
#include <linux/jiffies.h>
#include "twheel.h"
#include "twheel_user.h"
#include "vec_pool.h"

#define BENCH_TOUCH	64	/* jiffies between two touches of a timer */

enum { OP_ADD, OP_DEL, OP_MOD, OP_ADV, NR_OPS };
static const char *const op_name[NR_OPS] = { "add", "del", "mod", "advance" };

static struct tw_user_engine engine;

enum { RULE_ENGINE, RULE_PICK, RULE_LO, RULE_HI, RULE_ROUND, NR_RULES };
static const char *const rule_name[NR_RULES] = {
	"engine", "pick", "lo", "hi", "round"
};

static struct {
	struct twheel_engine *e;
	unsigned long slack;		/* percent of each timeout */
	int rule;
	struct twheel_timer *t;		/* the timers */
	unsigned long *timeout;		/* each timer's own timeout */
	unsigned int *order;		/* timers in touch order, shuffled */
	struct twheel_timer **popped;
	unsigned long n, batch, cursor;
	u64 rnd;
	int collect;			/* callgrind: the op kind collected */
	double ns[NR_OPS], clock_ns;
	unsigned long ops[NR_OPS], fired;
} b = { .rnd = 0x9e3779b97f4a7c15ULL, .collect = -1 };

static u64 bench_rand(void)
{
	b.rnd ^= b.rnd << 13;
	b.rnd ^= b.rnd >> 7;
	b.rnd ^= b.rnd << 17;
	return b.rnd;
}

static double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Network-ish timeouts: 60% 0.1-2 s, 30% 5-60 s, 10% 1-60 min. */
static unsigned long bench_timeout(void)
{
	u64 r = bench_rand();

	switch (r % 10) {
	case 0 ... 5:
		return HZ / 10 + (r >> 8) % (2 * HZ);
	case 6 ... 8:
		return 5 * HZ + (r >> 8) % (55 * HZ);
	default:
		return 60 * HZ + (r >> 8) % (3540 * HZ);
	}
}

/* The clock is read outside what callgrind collects. */
static void bench_start(int op, double *t0)
{
	*t0 = bench_now();
	if (b.collect == op)
		CALLGRIND_TOGGLE_COLLECT;
}

static void bench_stop(int op, double t0, unsigned long count)
{
	double ns;

	if (b.collect == op)
		CALLGRIND_TOGGLE_COLLECT;
	ns = bench_now() - t0 - b.clock_ns;
	b.ns[op] += ns > 0 ? ns : 0;
	b.ops[op] += count;
}

/* An engine that asks for memory (hash_vec): it, between batches (untimed). */
static void bench_feed(void)
{
	tw_user_feed(b.e);
}

static struct twheel_timer *bench_next(void)
{
	unsigned int i = b.order[b.cursor];

	b.cursor = (b.cursor + 1) % b.n;
	return &b.t[i];
}

static unsigned long bench_timeout_of(const struct twheel_timer *t)
{
	return b.timeout[t - b.t];
}

/* The expiry for a range, by the rule asked for. */
static unsigned long bench_pick(unsigned long lo, unsigned long hi)
{
	switch (b.rule) {
	case RULE_LO:
		return lo;
	case RULE_HI:
		return hi;
	case RULE_ROUND:
		return twheel_range_pick(lo, hi);
	default:
		return twheel_range_expiry(b.e, lo, hi);
	}
}

/* Arms t, not pending, for its timeout from clk, or within its range. */
static void bench_add(struct twheel_timer *t, unsigned long clk)
{
	unsigned long d = bench_timeout_of(t), lo = clk + d;

	if (!b.slack)
		twheel_add(b.e, t, lo);
	else if (b.rule == RULE_ENGINE)
		twheel_add_range(b.e, t, lo, lo + d * b.slack / 100);
	else
		twheel_add(b.e, t, bench_pick(lo, lo + d * b.slack / 100));
}

/* Re-arms t for its timeout from clk, or within its range. */
static void bench_mod(struct twheel_timer *t, unsigned long clk)
{
	unsigned long d = bench_timeout_of(t), lo = clk + d;
	unsigned long hi = lo + d * b.slack / 100;

	if (!b.slack) {
		twheel_mod(b.e, t, lo);
	} else if (b.rule == RULE_ENGINE) {
		twheel_mod_range(b.e, t, lo, hi);
	} else if (twheel_pending(b.e, t) && t->expires - lo <= hi - lo) {
		b.e->st.modified++;		/* as twheel_mod_range() */
		b.e->st.mod_noop++;
	} else {
		twheel_mod(b.e, t, bench_pick(lo, hi));
	}
}

/* One jiffy of the workload. */
static void bench_jiffy(void)
{
	struct twheel_engine *e = b.e;
	unsigned long clk = e->clk, i, n;
	struct twheel_timer **first = b.popped + b.n, *t;
	double t0;

	/* del, then add the same timers again */
	for (i = 0; i < b.batch; i++)
		first[i] = bench_next();
	bench_feed();
	bench_start(OP_DEL, &t0);
	for (i = 0; i < b.batch; i++)
		twheel_del(e, first[i]);
	bench_stop(OP_DEL, t0, b.batch);
	bench_feed();
	bench_start(OP_ADD, &t0);
	for (i = 0; i < b.batch; i++)
		bench_add(first[i], clk);
	bench_stop(OP_ADD, t0, b.batch);

	for (i = 0; i < b.batch; i++)
		first[i] = bench_next();
	bench_feed();
	bench_start(OP_MOD, &t0);
	for (i = 0; i < b.batch; i++)
		bench_mod(first[i], clk);
	bench_stop(OP_MOD, t0, b.batch);

	/* the tick: collect and hand out what expired */
	n = 0;
	bench_feed();
	bench_start(OP_ADV, &t0);
	twheel_advance(e, clk);
	while ((t = twheel_pop(e)))
		b.popped[n++] = t;
	bench_stop(OP_ADV, t0, 1);
	b.fired += n;
	bench_feed();
	for (i = 0; i < n; i++)
		bench_add(b.popped[i], e->clk);
}

static void bench_init(const char *name, unsigned long n)
{
	struct twheel_config cfg = tw_user_config();
	int ret;
	unsigned long clk = (unsigned long)(unsigned int)(-300 * HZ), i, j;
	unsigned int tmp;
	double t0;

	/*
	 * Every engine by its name, with the module's defaults but for the
	 * heap (every timer at most once in it) and simple (every timeout, up
	 * to an hour, is below 2^20 jiffies at HZ 250).
	 */
	cfg.cap = n;
	cfg.max_interval = 1U << 20;
	ret = tw_user_engine_new(&engine, name, clk, &cfg);
	if (ret == -ENOENT) {
		fprintf(stderr, "bench: no engine %s\n", name);
		exit(2);
	}
	if (ret)
		goto nomem;
	b.e = engine.e;
	bench_feed();
	b.n = n;
	b.batch = n / (2 * BENCH_TOUCH) ? n / (2 * BENCH_TOUCH) : 1;
	/* BENCH_EXPIRE=1: no touches, every timer runs and is armed again */
	if (getenv("BENCH_EXPIRE"))
		b.batch = 0;
	b.t = calloc(n, sizeof(*b.t));
	b.timeout = calloc(n, sizeof(*b.timeout));
	b.order = calloc(n, sizeof(*b.order));
	b.popped = calloc(n + 2 * b.batch, sizeof(*b.popped));
	if (!b.t || !b.timeout || !b.order || !b.popped)
		goto nomem;
	for (i = 0; i < n; i++) {
		b.order[i] = i;
		b.timeout[i] = bench_timeout();
		twheel_timer_setup(b.e, &b.t[i], NULL);
		bench_feed();
		/* as if armed at some earlier time */
		twheel_add(b.e, &b.t[i], clk + 1 + bench_rand() % b.timeout[i]);
	}
	for (i = n - 1; i > 0; i--) {
		j = bench_rand() % (i + 1);
		tmp = b.order[i];
		b.order[i] = b.order[j];
		b.order[j] = tmp;
	}
	t0 = bench_now();
	for (i = 0; i < 1000; i++)
		bench_now();
	b.clock_ns = (bench_now() - t0) / 1001;
	return;
nomem:
	fprintf(stderr, "bench: out of memory\n");
	exit(2);
}

static void bench_check(void)
{
	const struct twheel_stats *st = &b.e->st;

	if (twheel_stats_pending(st) != b.n || st->refused) {
		fprintf(stderr, "bench: %s: counters do not add up\n",
			b.e->ops->name);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	unsigned long n, nr_jiffies, i;
	struct twheel_stats st0;
	int op;

	if (argc < 3) {
		fprintf(stderr, "usage: bench <");
		tw_user_engine_names(stderr, "|");
		fprintf(stderr, "> <pending> [jiffies [slack [rule]]]\n");
		return 2;
	}
	n = strtoul(argv[2], NULL, 0);
	nr_jiffies = argc > 3 ? strtoul(argv[3], NULL, 0) : 2048;
	b.slack = argc > 4 ? strtoul(argv[4], NULL, 0) : 0;
	for (b.rule = 0; argc > 5 && b.rule < NR_RULES; b.rule++)
		if (!strcmp(argv[5], rule_name[b.rule]))
			break;
	if (b.rule == NR_RULES || b.slack > 100) {
		fprintf(stderr, "bench: slack is 0..100, rule engine, lo, hi or round\n");
		return 2;
	}
	if (n < 2) {
		fprintf(stderr, "bench: need at least 2 timers\n");
		return 2;
	}
	bench_init(argv[1], n);
	/*
	 * Under callgrind the steady state is reached instrumented (nothing
	 * collected): a simulated cache is as warm as a real one would be.
	 */
	CALLGRIND_START_INSTRUMENTATION;
	/* every timer touched once: the steady state */
	for (i = 0; i < BENCH_TOUCH; i++)
		bench_jiffy();
	memset(b.ns, 0, sizeof(b.ns));
	memset(b.ops, 0, sizeof(b.ops));
	st0 = b.e->st;

	if (RUNNING_ON_VALGRIND) {
		for (op = 0; op < NR_OPS; op++) {
			b.collect = op;
			memset(b.ops, 0, sizeof(b.ops));
			b.fired = 0;
			CALLGRIND_ZERO_STATS;
			/* a whole tv1 round for advance: one tv2 cascade */
			for (i = 0; i < (op == OP_ADV ? 256 : nr_jiffies); i++)
				bench_jiffy();
			CALLGRIND_DUMP_STATS_AT(op_name[op]);
			printf("ops %s %lu\n", op_name[op], b.ops[op]);
			if (op == OP_ADV)
				printf("fired %lu\n", b.fired);
		}
		CALLGRIND_STOP_INSTRUMENTATION;
	} else {
		for (i = 0; i < nr_jiffies; i++)
			bench_jiffy();
		printf("ns %s %lu", b.e->ops->name, n);
		for (op = 0; op < NR_OPS; op++)
			printf(" %.1f", b.ns[op] / b.ops[op]);
		/* how often a touch found the timer expired */
		printf(" %.1f\n", 100.0 * b.e->st.expired /
		       (b.e->st.expired + b.e->st.deleted + b.e->st.modified));
		if (b.slack)
			printf("range %s %lu %lu %s %llu %llu %llu %llu %llu %llu\n",
			       b.e->ops->name, n, b.slack, rule_name[b.rule],
			       b.e->st.modified - st0.modified,
			       b.e->st.mod_noop - st0.mod_noop,
			       b.e->st.mod_inplace - st0.mod_inplace,
			       (b.e->st.modified - st0.modified) -
			       (b.e->st.mod_noop - st0.mod_noop) -
			       (b.e->st.mod_inplace - st0.mod_inplace),
			       b.e->st.cascaded - st0.cascaded,
			       b.e->st.expired - st0.expired);
	}
	bench_check();
	return 0;
}

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
 *   bench <engine> <pending> [jiffies]
 *
 * engine: classic, modern, reference, heap, hash, simple, hash_sorted,
 * straight, ordered or classic_bounded.
 *
 * Natively it prints "ns <engine> <pending> <add> <del> <mod> <advance> <x>":
 * ns per op, advance per jiffy, and x the percentage of timers that expired
 * rather than being deleted or re-armed. Under callgrind (run with --instr-atstart=no
 * --collect-atstart=no) it runs one phase per op kind, collecting only that
 * kind, dumps the counts as "<kind>" and prints "ops <kind> <count>", so the
 * dump's instruction count divided by count is instructions per op.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <valgrind/callgrind.h>
#include <linux/jiffies.h>
#include "twheel.h"

#define BENCH_TOUCH	64	/* jiffies between two touches of a timer */

enum { OP_ADD, OP_DEL, OP_MOD, OP_ADV, NR_OPS };
static const char *const op_name[NR_OPS] = { "add", "del", "mod", "advance" };

static struct twheel_classic classic;
static struct twheel_modern modern;
static struct twheel_reference reference;
static struct twheel_heap heap;
static struct twheel_hash hash;
static struct twheel_simple simple;
static struct twheel_hash_sorted hash_sorted;
static struct twheel_straight straight;
static struct twheel_ordered ordered;
static struct twheel_classic_bounded classic_bounded;

static struct {
	struct twheel_engine *e;
	struct twheel_timer *t;		/* the timers */
	unsigned long *timeout;		/* each timer's own timeout */
	unsigned int *order;		/* timers in touch order, shuffled */
	struct twheel_timer **popped;
	unsigned long n, batch, cursor;
	u64 rnd;
	int collect;			/* callgrind: the op kind collected */
	double ns[NR_OPS], clock_ns;
	unsigned long ops[NR_OPS];
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
	bench_start(OP_DEL, &t0);
	for (i = 0; i < b.batch; i++)
		twheel_del(e, first[i]);
	bench_stop(OP_DEL, t0, b.batch);
	bench_start(OP_ADD, &t0);
	for (i = 0; i < b.batch; i++)
		twheel_add(e, first[i], clk + bench_timeout_of(first[i]));
	bench_stop(OP_ADD, t0, b.batch);

	for (i = 0; i < b.batch; i++)
		first[i] = bench_next();
	bench_start(OP_MOD, &t0);
	for (i = 0; i < b.batch; i++)
		twheel_mod(e, first[i], clk + bench_timeout_of(first[i]));
	bench_stop(OP_MOD, t0, b.batch);

	/* the tick: collect and hand out what expired */
	n = 0;
	bench_start(OP_ADV, &t0);
	twheel_advance(e, clk);
	while ((t = twheel_pop(e)))
		b.popped[n++] = t;
	bench_stop(OP_ADV, t0, 1);
	for (i = 0; i < n; i++)
		twheel_add(e, b.popped[i], e->clk + bench_timeout_of(b.popped[i]));
}

static void bench_init(const char *engine, unsigned long n)
{
	unsigned long clk = (unsigned long)(unsigned int)(-300 * HZ), i, j;
	unsigned int tmp;
	double t0;

	if (!strcmp(engine, "classic")) {
		twheel_classic_init(&classic, clk);
		b.e = &classic.e;
	} else if (!strcmp(engine, "modern")) {
		twheel_modern_init(&modern, clk, TW_MODERN_DEFAULT_DEPTH);
		b.e = &modern.e;
	} else if (!strcmp(engine, "reference")) {
		twheel_reference_init(&reference, clk);
		b.e = &reference.e;
	} else if (!strcmp(engine, "heap")) {
		/* every timer at most once in the heap */
		if (twheel_heap_init(&heap, clk, calloc(n, sizeof(*heap.slots)), n))
			goto nomem;
		b.e = &heap.e;
	} else if (!strcmp(engine, "hash")) {
		if (twheel_hash_init(&hash, clk,
				     malloc(twheel_hash_storage_size(TW_HASH_DEFAULT_SLOTS)),
				     TW_HASH_DEFAULT_SLOTS))
			goto nomem;
		b.e = &hash.e;
	} else if (!strcmp(engine, "simple")) {
		/* every timeout (up to an hour) is below 2^20 jiffies at HZ 250 */
		if (twheel_simple_init(&simple, clk,
				       malloc(twheel_hash_storage_size(1U << 20)),
				       1U << 20))
			goto nomem;
		b.e = &simple.wheel.e;
	} else if (!strcmp(engine, "hash_sorted")) {
		if (twheel_hash_sorted_init(&hash_sorted, clk,
					    malloc(twheel_hash_storage_size(TW_HASH_DEFAULT_SLOTS)),
					    TW_HASH_DEFAULT_SLOTS))
			goto nomem;
		b.e = &hash_sorted.wheel.e;
	} else if (!strcmp(engine, "straight")) {
		twheel_straight_init(&straight, clk);
		b.e = &straight.e;
	} else if (!strcmp(engine, "ordered")) {
		twheel_ordered_init(&ordered, clk);
		b.e = &ordered.e;
	} else if (!strcmp(engine, "classic_bounded")) {
		twheel_classic_bounded_init(&classic_bounded, clk);
		b.e = &classic_bounded.e;
	} else {
		fprintf(stderr, "bench: no engine %s\n", engine);
		exit(2);
	}
	b.n = n;
	b.batch = n / (2 * BENCH_TOUCH) ? n / (2 * BENCH_TOUCH) : 1;
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

	if (st->added != st->expired + st->deleted + st->pending ||
	    st->pending != b.n) {
		fprintf(stderr, "bench: %s: counters do not add up\n",
			b.e->ops->name);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	unsigned long n, nr_jiffies, i;
	int op;

	if (argc < 3) {
		fprintf(stderr, "usage: bench <classic|modern|reference|heap|hash|simple|hash_sorted|\n"
			"              straight|ordered|classic_bounded> <pending> [jiffies]\n");
		return 2;
	}
	n = strtoul(argv[2], NULL, 0);
	nr_jiffies = argc > 3 ? strtoul(argv[3], NULL, 0) : 2048;
	if (n < 2) {
		fprintf(stderr, "bench: need at least 2 timers\n");
		return 2;
	}
	bench_init(argv[1], n);
	/* every timer touched once: the steady state */
	for (i = 0; i < BENCH_TOUCH; i++)
		bench_jiffy();
	memset(b.ns, 0, sizeof(b.ns));
	memset(b.ops, 0, sizeof(b.ops));

	if (RUNNING_ON_VALGRIND) {
		CALLGRIND_START_INSTRUMENTATION;
		for (op = 0; op < NR_OPS; op++) {
			b.collect = op;
			memset(b.ops, 0, sizeof(b.ops));
			CALLGRIND_ZERO_STATS;
			/* a whole tv1 round for advance: one tv2 cascade */
			for (i = 0; i < (op == OP_ADV ? 256 : nr_jiffies); i++)
				bench_jiffy();
			CALLGRIND_DUMP_STATS_AT(op_name[op]);
			printf("ops %s %lu\n", op_name[op], b.ops[op]);
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
	}
	bench_check();
	return 0;
}

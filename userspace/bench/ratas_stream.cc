// SPDX-License-Identifier: GPL-2.0
/*
 * stream.c's op stream run on Ratas (Juho Snellman's timer wheel, a C++
 * header, MIT; not part of twheel: built only when make is given
 * RATAS=<path to its timer-wheel.h>), for the core-cost comparison. Same
 * output as stream.c; the same kinds are collected the same way.
 *
 * Ratas' clock is the last tick it processed, so during tick T (touches,
 * then the advance that processes T) an expiry tick X is a delta of
 * X - (T - 1). Its callbacks only note the timer, as the pop loop of
 * stream.c does; the re-arms follow the advance.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>
#include <valgrind/callgrind.h>
#include RATAS_HEADER
#include "stream.h"

enum { K_ADD, K_DEL, K_MOD, K_EMPTY, K_BUSY, NR_KINDS };
static const char *const kind_name[NR_KINDS] = {
	"add", "del", "mod", "empty", "busy"
};

struct rt;
static struct {
	std::vector<rt *> batch;
	rt **fired_list;
	unsigned long nr_fired;
	std::vector<unsigned long> exp;
	std::vector<unsigned char> busy;
	unsigned long nr_ticks, clk0, fired;
	int collect = -1;
	double ns[NR_KINDS];
	unsigned long ops[NR_KINDS], calls[NR_KINDS];
} b;

struct rt : public TimerEventInterface {
	void execute() { b.fired_list[b.nr_fired++] = this; }
};

static double now_ns()
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

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

static void run_stream(unsigned long n, int mix, int record)
{
	struct ss_stream s;
	TimerWheel w(b.clk0 - 1);
	std::vector<rt> t(n);
	unsigned long i, tick;

	if (ss_init(&s, mix, n, b.clk0)) {
		fprintf(stderr, "ratas-stream: out of memory\n");
		exit(2);
	}
	for (i = 0; i < n; i++)
		w.schedule(&t[i], s.expires[i] - w.now());
	memset(b.ns, 0, sizeof(b.ns));
	memset(b.ops, 0, sizeof(b.ops));
	memset(b.calls, 0, sizeof(b.calls));
	b.fired = 0;
	for (tick = b.clk0; tick < b.clk0 + b.nr_ticks; tick++) {
		unsigned long n_del = 0, n_mod = 0, now = w.now(), fired;
		rt **mods = &b.batch[n];
		double t0 = 0;
		uint32_t id;
		int k;

		while ((id = ss_next_touch(&s, tick)) != SS_NONE) {
			if (ss_touch_is_mod(&s, id))
				mods[n_mod++] = &t[id];
			else
				b.batch[n_del++] = &t[id];
		}
		kind_start(K_DEL, n_del, &t0);
		for (i = 0; i < n_del; i++)
			b.batch[i]->cancel();
		kind_stop(K_DEL, n_del, t0);
		for (i = 0; i < n_del; i++) {
			ss_arm(&s, b.batch[i] - &t[0], tick);
			b.exp[i] = s.expires[b.batch[i] - &t[0]] - now;
		}
		kind_start(K_ADD, n_del, &t0);
		for (i = 0; i < n_del; i++)
			w.schedule(b.batch[i], b.exp[i]);
		kind_stop(K_ADD, n_del, t0);
		for (i = 0; i < n_mod; i++) {
			ss_arm(&s, mods[i] - &t[0], tick);
			b.exp[i] = s.expires[mods[i] - &t[0]] - now;
		}
		kind_start(K_MOD, n_mod, &t0);
		for (i = 0; i < n_mod; i++)
			w.schedule(mods[i], b.exp[i]);
		kind_stop(K_MOD, n_mod, t0);

		k = record || !b.busy[tick - b.clk0] ? K_EMPTY : K_BUSY;
		b.nr_fired = 0;
		kind_start(k, 1, &t0);
		w.advance(1);
		kind_stop(k, 1, t0);
		fired = b.nr_fired;
		if (record)
			b.busy[tick - b.clk0] = fired != 0;
		b.fired += fired;
		for (i = 0; i < fired; i++) {
			ss_arm(&s, b.fired_list[i] - &t[0], tick);
			b.exp[i] = s.expires[b.fired_list[i] - &t[0]] - w.now();
		}
		kind_start(K_ADD, fired, &t0);
		for (i = 0; i < fired; i++)
			w.schedule(b.fired_list[i], b.exp[i]);
		kind_stop(K_ADD, fired, t0);
	}
	ss_free(&s);
}

int main(int argc, char **argv)
{
	unsigned long n, ops, i;
	int mix, k;

	if (argc < 4 || (strcmp(argv[2], "u") && strcmp(argv[2], "s"))) {
		fprintf(stderr, "usage: ratas-stream ratas_cc <u|s> <pending> [ops]\n");
		return 2;
	}
	mix = argv[2][0];
	n = strtoul(argv[3], NULL, 0);
	ops = argc > 4 ? strtoul(argv[4], NULL, 0) : (10 * n > 20000 ? 10 * n : 20000);
	b.clk0 = (unsigned long)(unsigned int)(-300 * 250);
	b.batch.resize(2 * n);
	b.exp.resize(n);
	b.fired_list = new rt *[n];
	b.nr_ticks = ss_ticks_for(mix, n, ops);
	b.busy.resize(b.nr_ticks);
	run_stream(n, mix, 1);
	if (!RUNNING_ON_VALGRIND) {
		unsigned long busy = 0;

		run_stream(n, mix, 0);
		for (i = 0; i < b.nr_ticks; i++)
			busy += b.busy[i];
		printf("ns ratas_cc %c %lu %.1f %.1f %.1f %.1f %.1f %.2f\n", mix, n,
		       b.ns[K_ADD] / b.ops[K_ADD], b.ns[K_DEL] / b.ops[K_DEL],
		       b.ns[K_MOD] / b.ops[K_MOD],
		       b.ns[K_EMPTY] / (b.ops[K_EMPTY] ? b.ops[K_EMPTY] : 1),
		       b.ns[K_BUSY] / (busy ? busy : 1),
		       (double)b.fired / (busy ? busy : 1));
		return 0;
	}
	CALLGRIND_START_INSTRUMENTATION;
	for (k = 0; k < NR_KINDS; k++) {
		b.collect = k;
		CALLGRIND_ZERO_STATS;
		run_stream(n, mix, 0);
		CALLGRIND_DUMP_STATS_AT(kind_name[k]);
		printf("ops %s %lu %lu\n", kind_name[k], b.ops[k], b.calls[k]);
	}
	printf("fired %lu\n", b.fired);
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

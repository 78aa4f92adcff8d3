// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU instances, what runs on one CPU: which CPU owns a timer, the
 * cpus= key, the remote picks (remote=), where an op from another
 * CPU is done (its timer moved or not), and the totals of per-CPU counters
 * and histograms.
 */
#include <kunit/test.h>
#include <linux/math64.h>
#include <linux/string.h>
#include "twheel.h"
#include "runner/twheel_runner.h"

static int tw_pc_parse(const char *s, struct twheel_cmd *cmd)
{
	char line[TWHEEL_CMD_MAX], why[160];

	strscpy(line, s, sizeof(line));
	return twheel_parse_cmd(line, cmd, why, sizeof(why));
}

/* Blocks of consecutive ids, as even as the count allows, every CPU one. */
static void percpu_cpu_index(struct kunit *test)
{
	static const u32 counts[] = { 1, 2, 3, 10, 2000, 20001 };
	struct twheel_params p;
	u32 share[8], n, c, id, prev;
	unsigned int i;

	twheel_params_default(TWHEEL_WL_MIXED, &p);
	for (i = 0; i < ARRAY_SIZE(counts); i++) {
		p.count = counts[i];
		for (n = 1; n <= ARRAY_SIZE(share); n++) {
			memset(share, 0, sizeof(share));
			prev = 0;
			for (id = 0; id < p.count; id++) {
				c = twheel_wl_cpu_index(&p, id, n);
				KUNIT_ASSERT_LT(test, c, n);
				KUNIT_EXPECT_LE(test, prev, c);	/* blocks */
				prev = c;
				share[c]++;
			}
			for (c = 0; c < n; c++) {
				KUNIT_EXPECT_LE(test, share[c], p.count / n + 1);
				if (p.count >= n)
					KUNIT_EXPECT_GE(test, share[c], p.count / n);
			}
		}
	}
	p.count = 2000;
	KUNIT_EXPECT_EQ(test, twheel_wl_cpu_index(&p, 999, 2), 0U);
	KUNIT_EXPECT_EQ(test, twheel_wl_cpu_index(&p, 1000, 2), 1U);
	KUNIT_EXPECT_EQ(test, twheel_wl_cpu_index(&p, 1999, 2), 1U);
}

/* A mixed workload's ops fall on each of two CPUs about evenly. */
static void percpu_ops_share(struct kunit *test)
{
	struct twheel_params p;
	struct twheel_op op;
	u32 on[2] = {}, j;
	u64 tick;

	twheel_params_default(TWHEEL_WL_MIXED, &p);
	p.count = 2000;
	p.ops = 1000;	/* 20000 ops in the 20 ticks below */
	for (tick = 0; tick < 20; tick++)
		for (j = 0; j < p.ops; j++) {
			twheel_wl_op(&p, tick, j, &op);
			on[twheel_wl_cpu_index(&p, op.id, 2)]++;
		}
	KUNIT_EXPECT_GT(test, on[0], 9000U);
	KUNIT_EXPECT_GT(test, on[1], 9000U);
}

static void percpu_parse_cpus(struct kunit *test)
{
	static const char *const bad[] = {
		"load mixed cpus=0", "load mixed cpus=65", "load mixed cpus=64-64",
		"load mixed cpus=2-1", "load mixed cpus=,", "load mixed cpus=a-b",
		"load mixed cpus=1-", "load mixed cpus=-", "load mixed cpus=",
		"load shadow cpus=all",
	};
	struct twheel_cmd cmd;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, 0, tw_pc_parse("load mixed", &cmd));
	KUNIT_EXPECT_EQ(test, cmd.p.cpus, 0ULL);
	KUNIT_EXPECT_EQ(test, cmd.p.ncpus, 0U);
	KUNIT_ASSERT_EQ(test, 0, tw_pc_parse("load mixed cpus=all", &cmd));
	KUNIT_EXPECT_EQ(test, cmd.p.ncpus, TWHEEL_CPUS_ALL);
	KUNIT_EXPECT_TRUE(test, cmd.p.set & BIT(TWHEEL_KEY_CPUS));
	KUNIT_ASSERT_EQ(test, 0, tw_pc_parse("load mixed cpus=2", &cmd));
	KUNIT_EXPECT_EQ(test, cmd.p.ncpus, 2U);
	KUNIT_EXPECT_EQ(test, cmd.p.cpus, 0ULL);
	KUNIT_ASSERT_EQ(test, 0, tw_pc_parse("load mixed cpus=0-1,3", &cmd));
	KUNIT_EXPECT_EQ(test, cmd.p.cpus, 0xbULL);
	KUNIT_EXPECT_EQ(test, cmd.p.ncpus, 0U);
	KUNIT_ASSERT_EQ(test, 0, tw_pc_parse("load mixed cpus=3-3", &cmd));
	KUNIT_EXPECT_EQ(test, cmd.p.cpus, 0x8ULL);
	KUNIT_ASSERT_EQ(test, 0, tw_pc_parse("load mixed cpus=1,", &cmd));
	KUNIT_EXPECT_EQ(test, cmd.p.cpus, 0x2ULL);
	KUNIT_ASSERT_EQ(test, 0, tw_pc_parse("load mixed cpus=63-63", &cmd));
	KUNIT_EXPECT_EQ(test, cmd.p.cpus, BIT_ULL(63));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL, tw_pc_parse(bad[i], &cmd),
				    "%s", bad[i]);
}

/*
 * The remote picks of n CPUs at remote=P, over 200 ticks of ops: each
 * CPU's share of its own ops sent elsewhere within a point of P, every
 * pick in another CPU's block (each other one taken), of the same class
 * as twheel_wl_op()'s picks, and the same on a second asking.
 */
static void tw_pc_remote_share(struct kunit *test, enum twheel_wl_type type,
			       u32 count, u32 n, u32 remote)
{
	u32 own[4] = {}, sent[4] = {}, to[4][4] = {}, idx, t, j;
	struct twheel_params p;
	struct twheel_op op, again;
	u64 tick;

	twheel_params_default(type, &p);
	p.count = count;
	p.ops = 1000;
	p.remote = remote;
	for (tick = 0; tick < 200; tick++) {
		for (j = 0; j < p.ops; j++) {
			twheel_wl_op(&p, tick, j, &op);
			idx = twheel_wl_cpu_index(&p, op.id, n);
			again = op;
			own[idx]++;
			if (!twheel_wl_remote(&p, tick, j, idx, n, &op)) {
				KUNIT_EXPECT_EQ(test, op.id, again.id);
				continue;
			}
			t = twheel_wl_cpu_index(&p, op.id, n);
			KUNIT_ASSERT_NE(test, t, idx);
			KUNIT_ASSERT_LT(test, op.id, count);
			if (type == TWHEEL_WL_MIXED)
				KUNIT_ASSERT_LT(test, op.id % 10, 6U);
			KUNIT_EXPECT_TRUE(test, twheel_wl_remote(&p, tick, j, idx, n, &again));
			KUNIT_EXPECT_EQ(test, op.id, again.id);
			sent[idx]++;
			to[idx][t]++;
		}
	}
	for (idx = 0; idx < n; idx++) {
		KUNIT_EXPECT_LE_MSG(test, abs((int)(sent[idx] * 100) - (int)(own[idx] * remote)),
				    (int)own[idx], "CPU %u of %u: %u of %u ops sent at remote=%u",
				    idx, n, sent[idx], own[idx], remote);
		for (t = 0; t < n; t++)
			if (t != idx && remote)
				KUNIT_EXPECT_GT(test, to[idx][t], 0U);
	}
}

static void percpu_remote_picks(struct kunit *test)
{
	struct twheel_op op = { .id = 3 };
	struct twheel_params p;
	u32 j, sent = 0;

	tw_pc_remote_share(test, TWHEEL_WL_MIXED, 2000, 2, 30);
	tw_pc_remote_share(test, TWHEEL_WL_MIXED, 2003, 3, 50);
	tw_pc_remote_share(test, TWHEEL_WL_TIMEOUTS, 1001, 4, 90);
	tw_pc_remote_share(test, TWHEEL_WL_MIXED, 2000, 2, 0);
	tw_pc_remote_share(test, TWHEEL_WL_MIXED, 2000, 2, 100);
	/* one CPU: nowhere to send; blocks with no timeouts timer: none */
	twheel_params_default(TWHEEL_WL_MIXED, &p);
	p.count = 2000;
	p.remote = 100;
	KUNIT_EXPECT_FALSE(test, twheel_wl_remote(&p, 0, 0, 0, 1, &op));
	KUNIT_EXPECT_EQ(test, op.id, 3U);
	/* blocks of two: 6-7 and 8-9 hold no timeouts timer, 2-3 and 4-5 do */
	p.count = 10;
	for (j = 0; j < 200; j++) {
		op.id = 0;
		if (twheel_wl_remote(&p, j, 0, 0, 5, &op)) {
			sent++;
			KUNIT_EXPECT_TRUE_MSG(test, op.id >= 2 && op.id <= 5, "id %u", op.id);
		}
	}
	KUNIT_EXPECT_GT(test, sent, 50U);
	KUNIT_EXPECT_LT(test, sent, 150U);
}

/*
 * remote=, pinned= and deferrable= (shares: kunit/bases_test.c): each
 * line's values, or its refusal (0: taken).
 */
static void percpu_parse_remote(struct kunit *test)
{
	static const struct {
		const char *line;
		int ret;
		u32 remote, pinned, deferrable;
	} lines[] = {
		{ "load mixed", 0, 0, 0 },
		{ "load mixed remote=30 pinned=1 cpus=all", 0, 30, 1 },
		{ "load timeouts remote=100", 0, 100, 0 },
		{ "load timeouts remote=0x0a pinned=0", 0, 10, 0 },
		{ "load mixed remote=101", -EINVAL }, { "load mixed remote=-1", -EINVAL },
		{ "load mixed remote=x", -EINVAL }, { "load mixed remote=", -EINVAL },
		{ "load mixed pinned=100", 0, 0, 100 },
		{ "load mixed pinned=101", -EINVAL }, { "load mixed pinned=-1", -EINVAL },
		{ "load shadow remote=10", -EINVAL }, { "load shadow pinned=1", -EINVAL },
		{ "load mixed pinned=30 deferrable=20", 0, 0, 30, 20 },
		{ "load long deferrable=100 pinned=100", 0, 0, 100, 100 },
		{ "load expiring deferrable=0x0a", 0, 0, 0, 10 },
		{ "load mixed deferrable=101", -EINVAL },
		{ "load mixed deferrable=-1", -EINVAL },
		{ "load mixed deferrable=", -EINVAL },
		{ "load mixed deferred=10", -EINVAL },
		{ "load shadow deferrable=10", -EINVAL },
	};
	struct twheel_cmd cmd;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lines); i++) {
		KUNIT_EXPECT_EQ_MSG(test, lines[i].ret, tw_pc_parse(lines[i].line, &cmd),
				    "%s", lines[i].line);
		if (lines[i].ret)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, cmd.p.remote, lines[i].remote, "%s", lines[i].line);
		KUNIT_EXPECT_EQ_MSG(test, cmd.p.pinned, lines[i].pinned, "%s", lines[i].line);
		KUNIT_EXPECT_EQ_MSG(test, cmd.p.deferrable, lines[i].deferrable,
				    "%s", lines[i].line);
		KUNIT_EXPECT_EQ_MSG(test, !!(cmd.p.set & BIT(TWHEEL_KEY_REMOTE)),
				    !!strstr(lines[i].line, "remote="), "%s", lines[i].line);
		KUNIT_EXPECT_EQ_MSG(test, !!(cmd.p.set & BIT(TWHEEL_KEY_DEFERRABLE)),
				    !!strstr(lines[i].line, "deferrable="), "%s", lines[i].line);
	}
}

/*
 * An op from another CPU on a timer another instance holds: every case of
 * the rules of Linux 6.12's timer_delete() and __mod_timer(). The op's
 * cancel is the workload's: a delete if the timer is pending, else a
 * re-arm. A collected timer not yet run is pending. same_place: the
 * re-arm's expiry is the timer's, or in the bucket it is in.
 */
static void percpu_remote_stays(struct kunit *test)
{
	static const struct {
		const char *what;
		bool cancel, pending, running, same_place, stays;
	} cases[] = {
		{ "re-arm of a pending timer elsewhere moves it", 0, 1, 0, 0, 0 },
		{ "re-arm of an idle timer moves it", 0, 0, 0, 0, 0 },
		{ "re-arm to its own expiry or bucket stays", 0, 1, 0, 1, 1 },
		{ "delete of a pending timer is done where it lives", 1, 1, 0, 0, 1 },
		{ "cancel op of an idle timer re-arms it: it moves", 1, 0, 0, 0, 0 },
		{ "callback running: a re-arm stays", 0, 0, 1, 0, 1 },
		{ "callback running, re-armed in it: a re-arm stays", 0, 1, 1, 0, 1 },
		{ "callback running: a delete stays", 1, 1, 1, 0, 1 },
		{ "an idle timer has no place to keep", 0, 0, 0, 1, 0 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, cases[i].stays,
				    twheel_wl_remote_stays(cases[i].cancel,
							   cases[i].pending,
							   cases[i].running,
							   cases[i].same_place),
				    "%s", cases[i].what);
}

/*
 * on=P: about P % of each CPU's re-arming ops aimed at another CPU, each
 * other one taken, never the op's own, never a cancel; the same on a
 * second asking; none on one CPU or at on=0.
 */
static void percpu_on_picks(struct kunit *test)
{
	static const struct { u32 n, on; } cases[] = {
		{ 2, 30 }, { 3, 50 }, { 4, 90 }, { 2, 100 }, { 2, 0 }, { 1, 100 },
	};
	struct twheel_params p;
	struct twheel_op op;
	u32 arms, aimed, to[4], t, again, j, i, c, n;
	int off;
	u64 tick;

	twheel_params_default(TWHEEL_WL_MIXED, &p);
	p.count = 2000;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		p.on = cases[i].on;
		n = cases[i].n;
		for (c = 0; c < n; c++) {
			arms = 0;
			aimed = 0;
			memset(to, 0, sizeof(to));
			for (tick = 0; tick < 100; tick++)
				for (j = 0; j < p.ops; j++) {
					twheel_wl_op(&p, tick, j, &op);
					arms += !op.cancel;
					if (!twheel_wl_on(&p, tick, j, c, n, &op, &t))
						continue;
					KUNIT_ASSERT_FALSE(test, op.cancel);
					KUNIT_ASSERT_NE(test, t, c);
					KUNIT_ASSERT_LT(test, t, n);
					again = n;
					twheel_wl_on(&p, tick, j, c, n, &op, &again);
					KUNIT_EXPECT_EQ(test, t, again);
					aimed++;
					to[t]++;
				}
			if (n < 2 || !cases[i].on) {
				KUNIT_EXPECT_EQ(test, aimed, 0U);
				continue;
			}
			off = abs((int)(aimed * 100) - (int)(arms * cases[i].on));
			KUNIT_EXPECT_LE_MSG(test, off, (int)arms,
					    "CPU %u of %u: %u of %u arms aimed at on=%u",
					    c, n, aimed, arms, cases[i].on);
			for (t = 0; t < n; t++)
				if (t != c)
					KUNIT_EXPECT_GT(test, to[t], 0U);
		}
	}
}

/* on=: its values, or its refusal (0: taken). */
static void percpu_parse_on(struct kunit *test)
{
	static const struct {
		const char *line;
		int ret;
		u32 on;
	} lines[] = {
		{ "load mixed", 0, 0 },
		{ "load mixed on=30 cpus=all", 0, 30 },
		{ "load timeouts on=100 remote=50", 0, 100 },
		{ "load mixed on=101", -EINVAL }, { "load mixed on=-1", -EINVAL },
		{ "load mixed on=x", -EINVAL }, { "load mixed on=", -EINVAL },
		{ "load shadow on=10", -EINVAL },
	};
	struct twheel_cmd cmd;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lines); i++) {
		KUNIT_EXPECT_EQ_MSG(test, lines[i].ret, tw_pc_parse(lines[i].line, &cmd),
				    "%s", lines[i].line);
		if (!lines[i].ret)
			KUNIT_EXPECT_EQ_MSG(test, cmd.p.on, lines[i].on, "%s", lines[i].line);
	}
}

/*
 * An add_timer_on()-style arm (on=): the timer goes to the CPU aimed at
 * and stays there, whoever's it was; one already there stays; one whose
 * callback runs where it lives is armed there (twheel moves no running
 * timer).
 */
static void percpu_on_stays(struct kunit *test)
{
	KUNIT_EXPECT_TRUE_MSG(test, twheel_wl_on_stays(true, false),
			      "on= stays: a timer at the CPU aimed at is armed there");
	KUNIT_EXPECT_FALSE_MSG(test, twheel_wl_on_stays(false, false),
			       "a timer elsewhere moves to the CPU aimed at");
	KUNIT_EXPECT_TRUE_MSG(test, twheel_wl_on_stays(false, true),
			      "a running timer is armed where it runs");
	KUNIT_EXPECT_TRUE(test, twheel_wl_on_stays(true, true));
	/* a re-arm of such a timer from another CPU moves it as any other */
	KUNIT_EXPECT_FALSE(test, twheel_wl_remote_stays(false, true, false, false));
}

/* The total of two instances: counters add, the most in a tick is a max. */
static void percpu_totals(struct kunit *test)
{
	struct tw_run_stats *a, *b, *t, *all;
	struct twheel_stats sa = { .added = 10, .expired = 4, .deleted = 1,
				   .modified = 7, .lazy_held_max = 2 };
	struct twheel_stats sb = { .added = 5, .expired = 5, .refused = 3,
				   .lazy_held_max = 1 };
	struct twheel_stats st = {};
	u64 v;

	a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	all = kunit_kzalloc(test, sizeof(*all), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, a && b && t && all);
	a->runs = 7;
	a->exact = 6;
	a->expired_max = 9;
	a->lock_acquired = 100;
	a->lock_contended = 3;
	a->remote_ops = 40;
	a->act_ops = 1000;
	a->act_ns = 70000;
	a->migrations = 25;
	b->runs = 5;
	b->early = 0;
	b->expired_max = 4;
	b->cascaded_max = 2;
	b->lock_acquired = 50;
	b->remote_ops = 2;
	b->act_ops = 10;
	b->migrations = 1;
	for (v = 0; v < 1000; v++) {
		twheel_hist_add(v & 1 ? &a->lock_wait_ns : &b->lock_wait_ns, v * 37);
		twheel_hist_add(&all->lock_wait_ns, v * 37);
		twheel_hist_add(v < 300 ? &a->late_j : &b->late_j, v % 5);
		twheel_hist_add(&all->late_j, v % 5);
	}
	tw_run_stats_add(t, a);
	tw_run_stats_add(t, b);
	KUNIT_EXPECT_EQ(test, t->runs, 12ULL);
	KUNIT_EXPECT_EQ(test, t->exact, 6ULL);
	KUNIT_EXPECT_EQ(test, t->expired_max, 9ULL);
	KUNIT_EXPECT_EQ(test, t->cascaded_max, 2ULL);
	KUNIT_EXPECT_EQ(test, t->lock_acquired, 150ULL);
	KUNIT_EXPECT_EQ(test, t->lock_contended, 3ULL);
	KUNIT_EXPECT_EQ(test, t->remote_ops, 42ULL);
	KUNIT_EXPECT_EQ(test, t->act_ops, 1010ULL);
	KUNIT_EXPECT_EQ(test, t->act_ns, 70000ULL);
	KUNIT_EXPECT_EQ(test, t->migrations, 26ULL);
	/* merged, a histogram is the one of every value */
	KUNIT_EXPECT_EQ(test, 0, memcmp(&t->lock_wait_ns, &all->lock_wait_ns,
					sizeof(all->lock_wait_ns)));
	KUNIT_EXPECT_EQ(test, 0, memcmp(&t->late_j, &all->late_j, sizeof(all->late_j)));
	KUNIT_EXPECT_EQ(test, twheel_hist_pct(&t->lock_wait_ns, 990),
			twheel_hist_pct(&all->lock_wait_ns, 990));
	tw_stats_add(&st, &sa);
	tw_stats_add(&st, &sb);
	KUNIT_EXPECT_EQ(test, st.added, 15ULL);
	KUNIT_EXPECT_EQ(test, st.expired, 9ULL);
	KUNIT_EXPECT_EQ(test, st.modified, 7ULL);
	KUNIT_EXPECT_EQ(test, st.refused, 3ULL);
	KUNIT_EXPECT_EQ(test, st.lazy_held_max, 3ULL);
	/* pending in total is the sum of each instance's */
	KUNIT_EXPECT_EQ(test, twheel_stats_pending(&st),
			twheel_stats_pending(&sa) + twheel_stats_pending(&sb));
}

/*
 * What a CPU counted on its side folds into an instance's measures: every
 * acquisition in lock_acquired, the activity ops' (local and remote) in
 * lock_op_*, the remote ops' alone in lock_remote_*; twice, twice as much.
 */
static void percpu_lockstat_fold(struct kunit *test)
{
	struct tw_lockstat *ls;
	struct tw_run_stats *rs;
	u64 v;

	ls = kunit_kzalloc(test, sizeof(*ls), GFP_KERNEL);
	rs = kunit_kzalloc(test, sizeof(*rs), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, ls && rs);
	ls->act_ops = 100;
	ls->act_ns = 5000;
	ls->remote_ops = 8;
	ls->on_ops = 2;
	ls->migrations = 4;
	ls->acquired[TW_LK_TICK] = 50;
	ls->acquired[TW_LK_OP] = 90;
	ls->acquired[TW_LK_REMOTE] = 14;
	ls->contended[TW_LK_TICK] = 1;
	ls->contended[TW_LK_OP] = 2;
	ls->contended[TW_LK_REMOTE] = 3;
	ls->wait_ns[TW_LK_TICK] = 10;
	ls->wait_ns[TW_LK_OP] = 20;
	ls->wait_ns[TW_LK_REMOTE] = 30;
	for (v = 0; v < 154; v++)
		twheel_hist_add(&ls->wait, v < 148 ? 0 : 10);
	tw_lockstat_fold(rs, ls);
	KUNIT_EXPECT_EQ(test, rs->act_ops, 100ULL);
	KUNIT_EXPECT_EQ(test, rs->act_ns, 5000ULL);
	KUNIT_EXPECT_EQ(test, rs->remote_ops, 8ULL);
	KUNIT_EXPECT_EQ(test, rs->on_ops, 2ULL);
	KUNIT_EXPECT_EQ(test, rs->lock_remote_ops, 10ULL);
	KUNIT_EXPECT_EQ(test, rs->migrations, 4ULL);
	KUNIT_EXPECT_EQ(test, rs->lock_acquired, 154ULL);
	KUNIT_EXPECT_EQ(test, rs->lock_contended, 6ULL);
	KUNIT_EXPECT_EQ(test, rs->lock_wait_total_ns, 60ULL);
	KUNIT_EXPECT_EQ(test, rs->lock_op_acquired, 104ULL);
	KUNIT_EXPECT_EQ(test, rs->lock_op_contended, 5ULL);
	KUNIT_EXPECT_EQ(test, rs->lock_op_wait_ns, 50ULL);
	KUNIT_EXPECT_EQ(test, rs->lock_remote_acquired, 14ULL);
	KUNIT_EXPECT_EQ(test, rs->lock_remote_contended, 3ULL);
	KUNIT_EXPECT_EQ(test, rs->lock_remote_wait_ns, 30ULL);
	KUNIT_EXPECT_EQ(test, rs->lock_nested, 0ULL);
	KUNIT_EXPECT_EQ(test, rs->lock_wait_ns.n, 154ULL);
	KUNIT_EXPECT_EQ(test, rs->lock_wait_ns.sum, 60ULL);
	ls->nested = 1;
	tw_lockstat_fold(rs, ls);
	KUNIT_EXPECT_EQ(test, rs->act_ops, 200ULL);
	KUNIT_EXPECT_EQ(test, rs->lock_op_acquired, 208ULL);
	KUNIT_EXPECT_EQ(test, rs->lock_remote_acquired, 28ULL);
	KUNIT_EXPECT_EQ(test, rs->lock_nested, 1ULL);
	KUNIT_EXPECT_EQ(test, rs->lock_wait_ns.n, 308ULL);
}

/* Per op in thousandths, rounded to the nearest; too large to scale: whole. */
static void percpu_per_op(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, tw_per_op_milli(104, 100), 1040ULL);
	KUNIT_EXPECT_EQ(test, tw_per_op_milli(100, 100), 1000ULL);
	KUNIT_EXPECT_EQ(test, tw_per_op_milli(14, 10), 1400ULL);
	KUNIT_EXPECT_EQ(test, tw_per_op_milli(2, 3), 667ULL);
	KUNIT_EXPECT_EQ(test, tw_per_op_milli(1, 3), 333ULL);
	KUNIT_EXPECT_EQ(test, tw_per_op_milli(0, 7), 0ULL);
	KUNIT_EXPECT_EQ(test, tw_per_op_milli(1, 2001), 0ULL);
	KUNIT_EXPECT_EQ(test, tw_per_op_milli(1, 2000), 1ULL);
	KUNIT_EXPECT_EQ(test, tw_per_op_milli(U64_MAX, U64_MAX), 1000ULL);
	KUNIT_EXPECT_EQ(test, tw_per_op_milli(U64_MAX / 10, 10),
			div64_u64(U64_MAX / 10, 10) * 1000);
}

static struct kunit_case tw_percpu_cases[] = {
	KUNIT_CASE(percpu_cpu_index),
	KUNIT_CASE(percpu_ops_share),
	KUNIT_CASE(percpu_parse_cpus),
	KUNIT_CASE(percpu_remote_picks),
	KUNIT_CASE(percpu_parse_remote),
	KUNIT_CASE(percpu_remote_stays),
	KUNIT_CASE(percpu_on_picks),
	KUNIT_CASE(percpu_parse_on),
	KUNIT_CASE(percpu_on_stays),
	KUNIT_CASE(percpu_totals),
	KUNIT_CASE(percpu_lockstat_fold),
	KUNIT_CASE(percpu_per_op),
	{}
};

static struct kunit_suite tw_percpu_suite = {
	.name = "twheel_percpu",
	.test_cases = tw_percpu_cases,
};

kunit_test_suite(tw_percpu_suite);

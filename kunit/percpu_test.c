// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU instances, what runs on one CPU: which CPU owns a timer, the
 * cpus= key, and the totals of per-CPU counters and histograms.
 */
#include <kunit/test.h>
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
	b->runs = 5;
	b->early = 0;
	b->expired_max = 4;
	b->cascaded_max = 2;
	b->lock_acquired = 50;
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

static struct kunit_case tw_percpu_cases[] = {
	KUNIT_CASE(percpu_cpu_index),
	KUNIT_CASE(percpu_ops_share),
	KUNIT_CASE(percpu_parse_cpus),
	KUNIT_CASE(percpu_totals),
	{}
};

static struct kunit_suite tw_percpu_suite = {
	.name = "twheel_percpu",
	.test_cases = tw_percpu_cases,
};

kunit_test_suite(tw_percpu_suite);

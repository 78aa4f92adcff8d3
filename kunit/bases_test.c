// SPDX-License-Identifier: GPL-2.0
/*
 * A CPU's three timer bases (Linux 6.12: BASE_LOCAL, BASE_GLOBAL,
 * BASE_DEF): the base a timer's flags pick, the flags a load's pinned=
 * and deferrable= shares give each timer (their parsing is
 * percpu_parse_remote's), what wakes an idle CPU's tick, and what
 * admission weighs a remote op as.
 */
#include <kunit/test.h>
#include <linux/string.h>
#include <linux/timer.h>
#include "tw_test.h"
#include "runner/twheel_workload.h"

/*
 * get_timer_this_cpu_base()'s rule: TIMER_DEFERRABLE wins, else
 * TIMER_PINNED picks BASE_LOCAL; the kernel's numbering; the other flag
 * bits and the CPU number ignored.
 */
static void bases_timer_base(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, (int)TWHEEL_BASE_LOCAL, 0);
	KUNIT_EXPECT_EQ(test, (int)TWHEEL_BASE_GLOBAL, 1);
	KUNIT_EXPECT_EQ(test, (int)TWHEEL_BASE_DEF, 2);
	KUNIT_EXPECT_EQ(test, twheel_timer_base(0), TWHEEL_BASE_GLOBAL);
	KUNIT_EXPECT_EQ(test, twheel_timer_base(TIMER_PINNED), TWHEEL_BASE_LOCAL);
	KUNIT_EXPECT_EQ(test, twheel_timer_base(TIMER_DEFERRABLE), TWHEEL_BASE_DEF);
	KUNIT_EXPECT_EQ(test, twheel_timer_base(TIMER_PINNED | TIMER_DEFERRABLE),
			TWHEEL_BASE_DEF);
	KUNIT_EXPECT_EQ(test, twheel_timer_base(TIMER_IRQSAFE | 5), TWHEEL_BASE_GLOBAL);
	KUNIT_EXPECT_EQ(test, twheel_timer_base(TIMER_PINNED | TIMER_IRQSAFE | 1),
			TWHEEL_BASE_LOCAL);
	KUNIT_EXPECT_EQ(test, twheel_timer_base(TIMER_MIGRATING | TIMER_DEFERRABLE),
			TWHEEL_BASE_DEF);
	KUNIT_EXPECT_STREQ(test, twheel_tbase_names[TWHEEL_BASE_DEF], "def");
}

/*
 * Of each hundred consecutive timers exactly pinned= are pinned and
 * deferrable= deferrable, both at once where they add up past 100 (then
 * BASE_DEF); whatever the seed; every class of a mixed load its share
 * too when the shares are multiples of 10.
 */
static void bases_shares_exact(struct kunit *test)
{
	static const struct {
		u32 pinned, deferrable, local, global, def;
	} rows[] = {
		{ 0, 0, 0, 100, 0 },
		{ 30, 20, 30, 50, 20 },
		{ 70, 50, 50, 0, 50 },
		{ 100, 0, 100, 0, 0 },
		{ 0, 100, 0, 0, 100 },
		{ 100, 100, 0, 0, 100 },
		{ 1, 0, 1, 99, 0 },
		{ 33, 67, 33, 0, 67 },
	};
	u32 n[TWHEEL_NR_TBASES], cls[10][TWHEEL_NR_TBASES], id, c;
	struct twheel_params p;
	unsigned int i;

	twheel_params_default(TWHEEL_WL_MIXED, &p);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		p.pinned = rows[i].pinned;
		p.deferrable = rows[i].deferrable;
		p.seed = i * 7919 + 1;
		memset(n, 0, sizeof(n));
		memset(cls, 0, sizeof(cls));
		/* a second block of a hundred: another CPU's with cpus=2 */
		for (id = 100; id < 1100; id++) {
			enum twheel_tbase b = twheel_wl_base(&p, id);

			KUNIT_ASSERT_LT(test, (int)b, TWHEEL_NR_TBASES);
			n[b]++;
			cls[id % 10][b]++;
			KUNIT_EXPECT_EQ(test, b,
					twheel_timer_base(twheel_wl_timer_flags(&p, id)));
		}
		KUNIT_EXPECT_EQ_MSG(test, n[TWHEEL_BASE_LOCAL], rows[i].local * 10,
				    "pinned=%u deferrable=%u", p.pinned, p.deferrable);
		KUNIT_EXPECT_EQ_MSG(test, n[TWHEEL_BASE_GLOBAL], rows[i].global * 10,
				    "pinned=%u deferrable=%u", p.pinned, p.deferrable);
		KUNIT_EXPECT_EQ_MSG(test, n[TWHEEL_BASE_DEF], rows[i].def * 10,
				    "pinned=%u deferrable=%u", p.pinned, p.deferrable);
		if (rows[i].local % 10 || rows[i].def % 10)
			continue;
		for (c = 0; c < 10; c++) {
			KUNIT_EXPECT_EQ(test, cls[c][TWHEEL_BASE_LOCAL], rows[i].local);
			KUNIT_EXPECT_EQ(test, cls[c][TWHEEL_BASE_DEF], rows[i].def);
		}
	}
	/* the flags of a timer: the first hundred's slots, by hand */
	p.pinned = 30;
	p.deferrable = 20;
	KUNIT_EXPECT_EQ(test, twheel_wl_timer_flags(&p, 0), (u32)TIMER_DEFERRABLE);
	KUNIT_EXPECT_EQ(test, twheel_wl_timer_flags(&p, 1), 0U);	/* slot 61 */
	KUNIT_EXPECT_EQ(test, twheel_wl_timer_flags(&p, 2), 0U);	/* 22 */
	KUNIT_EXPECT_EQ(test, twheel_wl_timer_flags(&p, 3), (u32)TIMER_PINNED); /* 83 */
	KUNIT_EXPECT_EQ(test, twheel_wl_timer_flags(&p, 5), (u32)TIMER_DEFERRABLE);
	p.pinned = 90;
	KUNIT_EXPECT_EQ(test, twheel_wl_timer_flags(&p, 10),	/* slot 10 */
			(u32)(TIMER_PINNED | TIMER_DEFERRABLE));
	p.pinned = 30;
	KUNIT_EXPECT_TRUE(test, twheel_wl_has_bases(&p));
	p.pinned = 0;
	p.deferrable = 0;
	KUNIT_EXPECT_FALSE(test, twheel_wl_has_bases(&p));
}

static void tw_bs_fn(struct twheel_timer *t)
{
}

/*
 * An idle CPU's next event leaves deferrable timers out: an instance
 * holding only deferrable ones answers "none"; one holding others too
 * answers its engine's first jiffy (twheel's deviation: one engine an
 * instance, which may answer a deferrable timer's jiffy).
 */
static void bases_idle_next(struct kunit *test)
{
	struct tw_engines *en = tw_engines_new(test, 1000);
	struct twheel_engine *e = &en->classic.e;
	struct twheel_timer def, other;
	unsigned long d;

	KUNIT_EXPECT_EQ(test, twheel_idle_next(5, 0, 0, 99), 5UL);
	KUNIT_EXPECT_EQ(test, twheel_idle_next(5, 3, 3, 99), 99UL);
	KUNIT_EXPECT_EQ(test, twheel_idle_next(5, 3, 2, 99), 5UL);
	KUNIT_EXPECT_EQ(test, twheel_idle_next(0, 1, 1, ULONG_MAX), ULONG_MAX);
	KUNIT_EXPECT_EQ(test, twheel_idle_next(7, 1, 2, 99), 99UL);

	twheel_timer_setup(e, &def, tw_bs_fn);
	twheel_timer_setup(e, &other, tw_bs_fn);
	twheel_add(e, &def, 1005);
	d = twheel_next_event(e, 1000);
	KUNIT_EXPECT_EQ(test, d, 5UL);	/* jiffy 1005, 5 after the clock */
	KUNIT_EXPECT_EQ(test, twheel_idle_next(d, twheel_stats_pending(&e->st), 1, 1000),
			1000UL);
	twheel_add(e, &other, 1009);
	d = twheel_next_event(e, 1000);
	/* the deferrable timer's jiffy: the deviation */
	KUNIT_EXPECT_EQ(test, twheel_idle_next(d, twheel_stats_pending(&e->st), 1, 1000),
			5UL);
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &def));
	d = twheel_next_event(e, 1000);
	KUNIT_EXPECT_EQ(test, twheel_idle_next(d, twheel_stats_pending(&e->st), 0, 1000),
			9UL);
}

/*
 * remote=P on n CPUs: an op finds its timer elsewhere with chance
 * 1 - (1 - P)^2 - P^2 / (n - 1); on= adds its share of the rest.
 */
static void bases_remote_ppm(struct kunit *test)
{
	struct twheel_params p;

	twheel_params_default(TWHEEL_WL_TIMEOUTS, &p);
	p.cancel = 0;
	KUNIT_EXPECT_EQ(test, twheel_wl_remote_ppm(&p, 2), 0U);
	p.remote = 50;
	KUNIT_EXPECT_EQ(test, twheel_wl_remote_ppm(&p, 2), 500000U);
	KUNIT_EXPECT_EQ(test, twheel_wl_remote_ppm(&p, 1), 0U);
	p.remote = 10;
	KUNIT_EXPECT_EQ(test, twheel_wl_remote_ppm(&p, 2), 180000U);
	p.remote = 90;
	KUNIT_EXPECT_EQ(test, twheel_wl_remote_ppm(&p, 2), 180000U);
	p.remote = 100;
	KUNIT_EXPECT_EQ(test, twheel_wl_remote_ppm(&p, 2), 0U);
	p.remote = 30;
	KUNIT_EXPECT_EQ(test, twheel_wl_remote_ppm(&p, 4), 480000U);
	p.remote = 0;
	p.on = 50;
	KUNIT_EXPECT_EQ(test, twheel_wl_remote_ppm(&p, 2), 500000U);
	p.remote = 50;
	p.cancel = 50;
	KUNIT_EXPECT_EQ(test, twheel_wl_remote_ppm(&p, 2), 625000U);
	p.on = 100;
	p.cancel = 0;
	KUNIT_EXPECT_EQ(test, twheel_wl_remote_ppm(&p, 2), 1000000U);
}

/* A remote op weighs TWHEEL_REMOTE_OP_WEIGHT (2) ops, rounded up. */
static void bases_op_weight(struct kunit *test)
{
	static const struct {
		u64 ops;
		u32 ppm;
		u64 weighed;
	} rows[] = {
		{ 1000, 0, 1000 }, { 1000, 500000, 1500 }, { 1000, 1000000, 2000 },
		{ 1000, 2000000, 2000 },	/* a share above one: one */
		{ 3, 333333, 4 }, { 0, 500000, 0 },
		/* 20000 ops a tick at HZ 1000, remote=50 on two CPUs */
		{ 20000000, 500000, 30000000 },
	};
	unsigned int i;

	KUNIT_EXPECT_EQ(test, TWHEEL_REMOTE_OP_WEIGHT, 2);
	for (i = 0; i < ARRAY_SIZE(rows); i++)
		KUNIT_EXPECT_EQ_MSG(test, twheel_wl_op_weight(rows[i].ops, rows[i].ppm),
				    rows[i].weighed, "%llu ops, %u ppm", rows[i].ops,
				    rows[i].ppm);
}

static struct kunit_case tw_bases_cases[] = {
	KUNIT_CASE(bases_timer_base),
	KUNIT_CASE(bases_shares_exact),
	KUNIT_CASE(bases_idle_next),
	KUNIT_CASE(bases_remote_ppm),
	KUNIT_CASE(bases_op_weight),
	{}
};

static struct kunit_suite tw_bases_suite = {
	.name = "twheel_bases",
	.test_cases = tw_bases_cases,
};

kunit_test_suite(tw_bases_suite);

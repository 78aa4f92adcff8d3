// SPDX-License-Identifier: GPL-2.0
/*
 * The pull model's hierarchy (driver/twheel_tmigr.c, after Linux 6.12's
 * kernel/time/timer_migration.c): the migrator a group keeps or hands on
 * as its children wake and sleep, a hierarchy's shape, a group's first
 * event, its way up the levels, who pulls, who wakes. Exact values, with
 * CPUs and jiffies of the test's own.
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/jiffies.h>
#include "driver/twheel_tmigr.h"

/* tmigr_active_up(): the first active child becomes the migrator */
static void pull_state_active(struct kunit *test)
{
	union tw_tmigr_state s = { .active = 0, .migrator = TW_TMIGR_NONE };

	KUNIT_EXPECT_TRUE(test, tw_tmigr_active_up(&s, BIT(2)));
	KUNIT_EXPECT_EQ(test, s.active, 0x04);
	KUNIT_EXPECT_EQ(test, s.migrator, 0x04);
	KUNIT_EXPECT_EQ(test, s.seq, 1);
	KUNIT_EXPECT_FALSE(test, tw_tmigr_active_up(&s, BIT(0)));
	KUNIT_EXPECT_EQ(test, s.active, 0x05);
	KUNIT_EXPECT_EQ(test, s.migrator, 0x04);
	KUNIT_EXPECT_EQ(test, s.seq, 2);
}

/*
 * tmigr_inactive_up(): a migrator hands on to the lowest active child; the
 * last one leaves none and goes up; a child active again changes nothing
 */
static void pull_state_inactive(struct kunit *test)
{
	union tw_tmigr_state s = { .active = 0x0d, .migrator = 0x04 };

	KUNIT_EXPECT_FALSE(test, tw_tmigr_inactive_up(&s, BIT(3), false));
	KUNIT_EXPECT_EQ(test, s.active, 0x05);
	KUNIT_EXPECT_EQ(test, s.migrator, 0x04);
	KUNIT_EXPECT_FALSE(test, tw_tmigr_inactive_up(&s, BIT(2), false));
	KUNIT_EXPECT_EQ(test, s.active, 0x01);
	KUNIT_EXPECT_EQ(test, s.migrator, 0x01);
	KUNIT_EXPECT_FALSE(test, tw_tmigr_inactive_up(&s, BIT(0), true));
	KUNIT_EXPECT_EQ(test, s.active, 0x01);
	KUNIT_EXPECT_EQ(test, s.migrator, 0x01);
	KUNIT_EXPECT_TRUE(test, tw_tmigr_inactive_up(&s, BIT(0), false));
	KUNIT_EXPECT_EQ(test, s.active, 0);
	KUNIT_EXPECT_EQ(test, s.migrator, TW_TMIGR_NONE);
	KUNIT_EXPECT_EQ(test, s.seq, 4);
}

/* levels and groups: as many as it takes, up to one group */
static void pull_levels(struct kunit *test)
{
	static const unsigned int c[][4] = {
		/* CPUs, per group, levels, groups */
		{ 1, 8, 1, 1 }, { 2, 8, 1, 1 }, { 8, 8, 1, 1 }, { 9, 8, 2, 3 },
		{ 64, 8, 2, 9 }, { 65, 8, 3, 12 }, { 4, 2, 2, 3 },
		{ 4, 4, 1, 1 }, { 5, 2, 3, 6 },
	};
	unsigned int i, n;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		KUNIT_EXPECT_EQ(test, tw_tmigr_levels(c[i][0], c[i][1], &n), c[i][2]);
		KUNIT_EXPECT_EQ(test, n, c[i][3]);
	}
}

static void pull_free(void *h)
{
	tw_tmigr_free(h);
}

static struct tw_tmigr *pull_new(struct kunit *test, unsigned int ncpus,
				 unsigned int per_group)
{
	struct tw_tmigr *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_ASSERT_EQ(test, tw_tmigr_init(h, ncpus, per_group), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, pull_free, h), 0);
	return h;
}

/* 5 CPUs in groups of 2: CPUs by number, groups level by level */
static void pull_shape(struct kunit *test)
{
	struct tw_tmigr *h = pull_new(test, 5, 2), bad = {};
	struct tw_tmigr_group *g = h->groups;

	KUNIT_EXPECT_EQ(test, h->levels, 3U);
	KUNIT_EXPECT_EQ(test, h->ngroups, 6U);
	KUNIT_EXPECT_PTR_EQ(test, h->cpus[0].group, &g[0]);
	KUNIT_EXPECT_PTR_EQ(test, h->cpus[3].group, &g[1]);
	KUNIT_EXPECT_EQ(test, h->cpus[3].groupmask, 0x02);
	KUNIT_EXPECT_PTR_EQ(test, h->cpus[4].group, &g[2]);
	KUNIT_EXPECT_EQ(test, g[2].nchildren, 1);
	KUNIT_EXPECT_EQ(test, g[2].first, 4U);
	/* level 1: g[3] over g[0] and g[1], g[4] over g[2] */
	KUNIT_EXPECT_PTR_EQ(test, g[0].parent, &g[3]);
	KUNIT_EXPECT_PTR_EQ(test, g[1].parent, &g[3]);
	KUNIT_EXPECT_EQ(test, g[1].groupmask, 0x02);
	KUNIT_EXPECT_PTR_EQ(test, g[2].parent, &g[4]);
	KUNIT_EXPECT_EQ(test, g[2].groupmask, 0x01);
	KUNIT_EXPECT_EQ(test, g[4].first, 2U);
	KUNIT_EXPECT_EQ(test, g[4].nchildren, 1);
	KUNIT_EXPECT_EQ(test, g[4].groupmask, 0x02);
	KUNIT_EXPECT_PTR_EQ(test, g[3].parent, &g[5]);
	KUNIT_EXPECT_PTR_EQ(test, g[4].parent, &g[5]);
	KUNIT_EXPECT_NULL(test, g[5].parent);
	KUNIT_EXPECT_EQ(test, g[5].level, 2);
	KUNIT_EXPECT_EQ(test, g[5].first, 3U);
	KUNIT_EXPECT_EQ(test, g[5].nchildren, 2);
	KUNIT_EXPECT_EQ(test, tw_tmigr_init(&bad, 4, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, tw_tmigr_init(&bad, 4, 16), -EINVAL);
	KUNIT_EXPECT_EQ(test, tw_tmigr_init(&bad, 4, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, tw_tmigr_init(&bad, 0, 8), -EINVAL);
}

/* the first of the idle children's events, across the jiffies' wrap */
static void pull_first(struct kunit *test)
{
	unsigned long now = ULONG_MAX - 5, never = tw_tmigr_never(now);
	unsigned long next[4] = { 3, ULONG_MAX - 2, never, 1 };

	KUNIT_EXPECT_EQ(test, tw_tmigr_first(next, 4, 0, never), ULONG_MAX - 2);
	KUNIT_EXPECT_EQ(test, tw_tmigr_first(next, 4, BIT(1), never), 1UL);
	KUNIT_EXPECT_EQ(test, tw_tmigr_first(next, 4, 0x0b, never), never);
	KUNIT_EXPECT_EQ(test, tw_tmigr_first(next, 1, 0, never), 3UL);
	KUNIT_EXPECT_TRUE(test, time_before(now + 100000, never));
}

/* a pull_fn that records whom it pulled and hands back a set next */
struct pull_rec {
	unsigned int n;
	unsigned int cpu[8];
	unsigned long next[8];
	struct tw_tmigr *wake_in;	/* a CPU that wakes while pulled */
};

static unsigned long pull_rec_fn(unsigned int cpu, unsigned long now,
				 void *arg)
{
	struct pull_rec *r = arg;

	r->cpu[r->n++] = cpu;
	if (r->wake_in)
		tw_tmigr_activate(r->wake_in, cpu, now);
	return r->next[cpu];
}

static u8 pull_migrator(struct tw_tmigr *h, unsigned int g)
{
	return h->groups[g].s.migrator;
}

/*
 * 4 CPUs in groups of 2, two levels: the migrator passes down the
 * groups as CPUs sleep, the last awake wakes for the first event of all,
 * and pulls what is due, down through the idle group.
 */
static void pull_two_levels(struct kunit *test)
{
	struct tw_tmigr *h = pull_new(test, 4, 2);
	unsigned long now = 1000, wake = 0;
	struct pull_rec rec = { .next = { 0, 1030, 0, 0 } };
	unsigned int cpu;

	tw_tmigr_reset(h, now);
	for (cpu = 0; cpu < 4; cpu++)
		tw_tmigr_activate(h, cpu, now);
	KUNIT_EXPECT_EQ(test, pull_migrator(h, 0), 0x01);	/* CPU 0 */
	KUNIT_EXPECT_EQ(test, pull_migrator(h, 1), 0x01);	/* CPU 2 */
	KUNIT_EXPECT_EQ(test, pull_migrator(h, 2), 0x01);	/* group 0 */
	KUNIT_EXPECT_EQ(test, tw_tmigr_migrator_levels(h, 0), 2U);
	KUNIT_EXPECT_EQ(test, tw_tmigr_migrator_levels(h, 2), 1U);
	KUNIT_EXPECT_EQ(test, tw_tmigr_migrator_levels(h, 1), 0U);

	/* CPU 0 sleeps: CPU 1 is group 0's migrator, and the top's */
	KUNIT_EXPECT_FALSE(test, tw_tmigr_deactivate(h, 0, now, 1010, &wake));
	KUNIT_EXPECT_EQ(test, pull_migrator(h, 0), 0x02);
	KUNIT_EXPECT_EQ(test, pull_migrator(h, 2), 0x01);
	KUNIT_EXPECT_EQ(test, h->groups[0].next_expiry, 1010UL);
	KUNIT_EXPECT_EQ(test, tw_tmigr_migrator_levels(h, 1), 2U);
	/* CPU 1 sleeps: group 0 idle, group 1 the top's migrator */
	KUNIT_EXPECT_FALSE(test, tw_tmigr_deactivate(h, 1, now, 1005, &wake));
	KUNIT_EXPECT_EQ(test, pull_migrator(h, 0), TW_TMIGR_NONE);
	KUNIT_EXPECT_EQ(test, pull_migrator(h, 2), 0x02);
	KUNIT_EXPECT_EQ(test, h->groups[0].next_expiry, 1005UL);
	KUNIT_EXPECT_EQ(test, h->groups[2].next_expiry, 1005UL);
	KUNIT_EXPECT_EQ(test, tw_tmigr_migrator_levels(h, 2), 2U);
	/* lock-free: only the top's migrator sees group 0's due event */
	KUNIT_EXPECT_FALSE(test, tw_tmigr_check(h, 2, 1004));
	KUNIT_EXPECT_TRUE(test, tw_tmigr_check(h, 2, 1005));
	KUNIT_EXPECT_FALSE(test, tw_tmigr_check(h, 3, 1005));
	/* CPU 3 sleeps with nothing: CPU 2 stays the migrator */
	KUNIT_EXPECT_FALSE(test, tw_tmigr_deactivate(h, 3, now,
						     tw_tmigr_never(now), &wake));
	KUNIT_EXPECT_EQ(test, pull_migrator(h, 1), 0x01);
	/* CPU 2, the last awake, wakes for CPU 1's event */
	KUNIT_EXPECT_TRUE(test, tw_tmigr_deactivate(h, 2, now, 1020, &wake));
	KUNIT_EXPECT_EQ(test, wake, 1005UL);
	KUNIT_EXPECT_EQ(test, tw_tmigr_top_migrator(h), TW_TMIGR_NONE);
	KUNIT_EXPECT_EQ(test, h->groups[2].next_expiry, 1005UL);

	/* at 1005 CPU 2 wakes: the migrator again, it pulls CPU 1 only */
	tw_tmigr_activate(h, 2, 1005);
	KUNIT_EXPECT_EQ(test, tw_tmigr_migrator_levels(h, 2), 2U);
	KUNIT_EXPECT_EQ(test, pull_migrator(h, 0), TW_TMIGR_NONE);
	KUNIT_EXPECT_EQ(test, tw_tmigr_handle(h, 2, 1005, pull_rec_fn, &rec), 1U);
	KUNIT_EXPECT_EQ(test, rec.n, 1U);
	KUNIT_EXPECT_EQ(test, rec.cpu[0], 1U);
	KUNIT_EXPECT_EQ(test, h->groups[0].next_expiry, 1010UL);
	KUNIT_EXPECT_EQ(test, h->groups[2].next_expiry, 1010UL);
	KUNIT_EXPECT_FALSE(test, tw_tmigr_check(h, 2, 1009));
	/* asleep again, it wakes for CPU 0's */
	KUNIT_EXPECT_TRUE(test, tw_tmigr_deactivate(h, 2, 1005, 1020, &wake));
	KUNIT_EXPECT_EQ(test, wake, 1010UL);

	/* CPU 0 wakes on its own: group 0 and the top are its again */
	tw_tmigr_activate(h, 0, 1010);
	KUNIT_EXPECT_EQ(test, pull_migrator(h, 0), 0x01);
	KUNIT_EXPECT_EQ(test, pull_migrator(h, 2), 0x01);
	KUNIT_EXPECT_EQ(test, pull_migrator(h, 1), TW_TMIGR_NONE);
	/* CPU 2's event, group 1's, is due to CPU 0 at 1020 */
	KUNIT_EXPECT_FALSE(test, tw_tmigr_check(h, 0, 1019));
	KUNIT_EXPECT_TRUE(test, tw_tmigr_check(h, 0, 1020));
	rec.n = 0;
	rec.next[2] = tw_tmigr_never(1020);
	KUNIT_EXPECT_EQ(test, tw_tmigr_handle(h, 0, 1020, pull_rec_fn, &rec), 1U);
	KUNIT_EXPECT_EQ(test, rec.cpu[0], 2U);
	/* CPU 1's 1030 is group 0's own, its migrator's to check */
	KUNIT_EXPECT_EQ(test, h->groups[0].next_expiry, 1030UL);
	KUNIT_EXPECT_EQ(test, h->groups[2].next_expiry, tw_tmigr_never(1020));
}

/* one level: 2 CPUs in a group of 8, the last one awake wakes */
static void pull_one_level(struct kunit *test)
{
	struct tw_tmigr *h = pull_new(test, 2, 8);
	unsigned long wake = 0;

	tw_tmigr_reset(h, 50);
	tw_tmigr_activate(h, 1, 50);
	tw_tmigr_activate(h, 0, 50);
	KUNIT_EXPECT_EQ(test, pull_migrator(h, 0), 0x02);
	KUNIT_EXPECT_FALSE(test, tw_tmigr_deactivate(h, 1, 50, 70, &wake));
	KUNIT_EXPECT_EQ(test, pull_migrator(h, 0), 0x01);
	KUNIT_EXPECT_TRUE(test, tw_tmigr_check(h, 0, 70));
	KUNIT_EXPECT_TRUE(test, tw_tmigr_deactivate(h, 0, 50, 90, &wake));
	KUNIT_EXPECT_EQ(test, wake, 70UL);
	/* nothing pending anywhere: nobody wakes */
	tw_tmigr_reset(h, 50);
	tw_tmigr_activate(h, 0, 50);
	KUNIT_EXPECT_FALSE(test, tw_tmigr_deactivate(h, 0, 50,
						     tw_tmigr_never(50), &wake));
}

/*
 * trigger_dyntick_cpu()'s part: an arm on an idle CPU wakes it only if
 * every CPU sleeps and it comes before what the last one wakes for
 */
static void pull_new_timer(struct kunit *test)
{
	struct tw_tmigr *h = pull_new(test, 4, 2);
	unsigned long wake = 0;
	unsigned int cpu;

	tw_tmigr_reset(h, 0);
	for (cpu = 0; cpu < 4; cpu++)
		tw_tmigr_activate(h, cpu, 0);
	/* CPU 0 idle, CPU 1 its group's migrator: that one sees it */
	KUNIT_EXPECT_FALSE(test, tw_tmigr_deactivate(h, 0, 0, 100, &wake));
	KUNIT_EXPECT_FALSE(test, tw_tmigr_new_timer(h, 0, 0, 40));
	KUNIT_EXPECT_EQ(test, h->groups[0].next_expiry, 40UL);
	/* an awake CPU's arm is its own business */
	KUNIT_EXPECT_FALSE(test, tw_tmigr_new_timer(h, 1, 0, 10));
	KUNIT_EXPECT_EQ(test, h->groups[0].next_expiry, 40UL);
	/* everyone asleep: CPU 3 the last, waking at 40 */
	KUNIT_EXPECT_FALSE(test, tw_tmigr_deactivate(h, 1, 0, 60, &wake));
	KUNIT_EXPECT_FALSE(test, tw_tmigr_deactivate(h, 2, 0, 80, &wake));
	KUNIT_EXPECT_TRUE(test, tw_tmigr_deactivate(h, 3, 0, 90, &wake));
	KUNIT_EXPECT_EQ(test, wake, 40UL);
	/* later than 40: nobody wakes; at 30 CPU 2 is woken */
	KUNIT_EXPECT_FALSE(test, tw_tmigr_new_timer(h, 2, 0, 50));
	KUNIT_EXPECT_EQ(test, h->groups[2].next_expiry, 40UL);
	KUNIT_EXPECT_TRUE(test, tw_tmigr_new_timer(h, 2, 0, 30));
	KUNIT_EXPECT_EQ(test, h->groups[1].next_expiry, 30UL);
	KUNIT_EXPECT_EQ(test, h->groups[2].next_expiry, 30UL);
}

/*
 * A CPU that wakes while it is pulled hands its own event over: the
 * puller's is not written back over it
 */
static void pull_woke_meanwhile(struct kunit *test)
{
	struct tw_tmigr *h = pull_new(test, 2, 8);
	struct pull_rec rec = { .next = { 0, 500 } };
	unsigned long wake = 0;

	tw_tmigr_reset(h, 0);
	tw_tmigr_activate(h, 0, 0);
	tw_tmigr_activate(h, 1, 0);
	KUNIT_EXPECT_FALSE(test, tw_tmigr_deactivate(h, 1, 0, 20, &wake));
	rec.wake_in = h;
	KUNIT_EXPECT_EQ(test, tw_tmigr_handle(h, 0, 20, pull_rec_fn, &rec), 1U);
	KUNIT_EXPECT_EQ(test, h->groups[0].child_next[1], 20UL);
	KUNIT_EXPECT_EQ(test, h->groups[0].next_expiry, tw_tmigr_never(20));
	KUNIT_EXPECT_EQ(test, h->groups[0].s.active, 0x03);
}

static struct kunit_case tw_pull_cases[] = {
	KUNIT_CASE(pull_state_active),
	KUNIT_CASE(pull_state_inactive),
	KUNIT_CASE(pull_levels),
	KUNIT_CASE(pull_shape),
	KUNIT_CASE(pull_first),
	KUNIT_CASE(pull_two_levels),
	KUNIT_CASE(pull_one_level),
	KUNIT_CASE(pull_new_timer),
	KUNIT_CASE(pull_woke_meanwhile),
	{}
};

static struct kunit_suite tw_pull_suite = {
	.name = "twheel_pull",
	.test_cases = tw_pull_cases,
};

kunit_test_suite(tw_pull_suite);

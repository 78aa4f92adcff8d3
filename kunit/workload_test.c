// SPDX-License-Identifier: GPL-2.0
/*
 * The control-file parser (good and bad input) and the workload generator
 * (same seed, same choices; in range; per-class deltas).
 */
#include <kunit/test.h>
#include <linux/string.h>
#include "twheel.h"
#include "twheel_workload.h"
#include "twheel_hist.h"

static int tw_parse(const char *s, struct twheel_cmd *cmd, char *why)
{
	char line[TWHEEL_CMD_MAX];

	strscpy(line, s, sizeof(line));
	why[0] = '\0';
	return twheel_parse_cmd(line, cmd, why, 160);
}

static const struct {
	const char *line;
	enum twheel_verb verb;
} verbs[] = {
	{ "start\n", TWHEEL_CMD_START }, { " stop ", TWHEEL_CMD_STOP },
	{ "reset", TWHEEL_CMD_RESET }, { "unload", TWHEEL_CMD_UNLOAD },
	{ "bench\n", TWHEEL_CMD_BENCH }, { "\tclear", TWHEEL_CMD_CLEAR },
};

static void workload_parse_good(struct kunit *test)
{
	struct twheel_cmd cmd;
	unsigned int i;
	char why[160];
	const char *all = "load timeouts count=100 seed=7 min=5 max=50 cancel=90\tops=10\n";

	KUNIT_ASSERT_EQ(test, 0, tw_parse(all, &cmd, why));
	KUNIT_EXPECT_EQ(test, cmd.verb, TWHEEL_CMD_LOAD);
	KUNIT_EXPECT_EQ(test, cmd.p.type, TWHEEL_WL_TIMEOUTS);
	KUNIT_EXPECT_EQ(test, cmd.p.count, 100U);
	KUNIT_EXPECT_EQ(test, cmd.p.seed, 7ULL);
	KUNIT_EXPECT_EQ(test, cmd.p.min, 5U);
	KUNIT_EXPECT_EQ(test, cmd.p.max, 50U);
	KUNIT_EXPECT_EQ(test, cmd.p.cancel, 90U);
	KUNIT_EXPECT_EQ(test, cmd.p.ops, 10U);
	KUNIT_EXPECT_EQ(test, cmd.p.duration, 10U);	/* the default */
	KUNIT_EXPECT_EQ(test, cmd.p.engines, 0U);	/* every engine */
	KUNIT_EXPECT_EQ(test, cmd.p.set,
			(u32)(BIT(TWHEEL_KEY_COUNT) | BIT(TWHEEL_KEY_SEED) |
			      BIT(TWHEEL_KEY_MIN) | BIT(TWHEEL_KEY_MAX) |
			      BIT(TWHEEL_KEY_CANCEL) | BIT(TWHEEL_KEY_OPS)));
	KUNIT_ASSERT_EQ(test, 0, tw_parse("load long duration=3 engines=classic,reference",
					  &cmd, why));
	KUNIT_EXPECT_EQ(test, cmd.p.type, TWHEEL_WL_LONG);
	KUNIT_EXPECT_EQ(test, cmd.p.duration, 3U);
	KUNIT_EXPECT_EQ(test, cmd.p.engines,
			(u32)(BIT(TWHEEL_CLASSIC) | BIT(TWHEEL_REFERENCE)));
	KUNIT_EXPECT_EQ(test, cmd.p.set,
			(u32)(BIT(TWHEEL_KEY_DURATION) | BIT(TWHEEL_KEY_ENGINES)));

	KUNIT_ASSERT_EQ(test, 0, tw_parse("  load   burst\tcount=0x10  ", &cmd, why));
	KUNIT_EXPECT_EQ(test, cmd.p.type, TWHEEL_WL_BURST);
	KUNIT_EXPECT_EQ(test, cmd.p.count, 16U);
	KUNIT_EXPECT_EQ(test, cmd.p.min, 1000U);	/* the burst default */
	KUNIT_EXPECT_EQ(test, cmd.p.engines, 0U);	/* every engine */
	KUNIT_EXPECT_EQ(test, cmd.p.set, (u32)BIT(TWHEEL_KEY_COUNT));

	/* A key given with its default value still counts as given. */
	KUNIT_ASSERT_EQ(test, 0, tw_parse("load mixed min=1", &cmd, why));
	KUNIT_EXPECT_EQ(test, cmd.p.min, 1U);
	KUNIT_EXPECT_EQ(test, cmd.p.max, 1U << 20);
	KUNIT_EXPECT_EQ(test, cmd.p.set, (u32)BIT(TWHEEL_KEY_MIN));
	KUNIT_ASSERT_EQ(test, 0, tw_parse("load mixed", &cmd, why));
	KUNIT_EXPECT_EQ(test, cmd.p.set, 0U);

	for (i = 0; i < ARRAY_SIZE(verbs); i++) {
		KUNIT_ASSERT_EQ_MSG(test, 0, tw_parse(verbs[i].line, &cmd, why),
				    "'%s': %s", verbs[i].line, why);
		KUNIT_EXPECT_EQ(test, cmd.verb, verbs[i].verb);
	}
	KUNIT_ASSERT_EQ(test, 0, tw_parse("load mixed count=1048576 max=1073741824", &cmd, why));
	KUNIT_EXPECT_EQ(test, cmd.p.count, TWHEEL_MAX_TIMERS);
}

static const char *const tw_bad[] = {
	"", "\n", "bogus", "LOAD timeouts", "load", "load nosuch",
	"load timeouts count=0", "load timeouts count=1048577",
	"load timeouts count=abc", "load timeouts count=-1",
	"load timeouts count=99999999999999999999", "load timeouts count=",
	"load timeouts count", "load timeouts =5", "load timeouts min=0",
	"load timeouts min=10 max=5", "load timeouts max=1073741825",
	"load timeouts cancel=101", "load timeouts ops=20001",
	"load timeouts duration=86401", "load timeouts seed=0x1g",
	"load timeouts seed=-3", "load timeouts engines=foo",
	"load timeouts engines=classic,,modern", "load timeouts frob=1",
	"start now", "stop 1", "reset all", "load timeouts count=5 count=x",
	"bench 1000", "clear all", "benchmark", "cleared",
};

static void workload_parse_bad(struct kunit *test)
{
	struct twheel_cmd cmd;
	char why[160];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tw_bad); i++) {
		KUNIT_EXPECT_EQ_MSG(test, tw_parse(tw_bad[i], &cmd, why), -EINVAL,
				    "input '%s'", tw_bad[i]);
		KUNIT_EXPECT_NE_MSG(test, why[0], '\0', "no reason for '%s'", tw_bad[i]);
	}
}

static void workload_same_seed_same_choices(struct kunit *test)
{
	struct twheel_params a, b, c;
	struct twheel_op oa, ob, oc;
	unsigned int i, diff_d = 0, diff_op = 0, cancels = 0;

	twheel_params_default(TWHEEL_WL_TIMEOUTS, &a);
	a.seed = 12345;
	b = a;
	c = a;
	c.seed = 12346;
	for (i = 0; i < 10000; i++) {
		u32 da = twheel_wl_delta(&a, i % 997, i / 997);

		KUNIT_EXPECT_EQ(test, da, twheel_wl_delta(&b, i % 997, i / 997));
		KUNIT_EXPECT_GE(test, da, a.min);
		KUNIT_EXPECT_LE(test, da, a.max);
		diff_d += da != twheel_wl_delta(&c, i % 997, i / 997);

		twheel_wl_op(&a, i / 100, i % 100, &oa);
		twheel_wl_op(&b, i / 100, i % 100, &ob);
		twheel_wl_op(&c, i / 100, i % 100, &oc);
		KUNIT_EXPECT_EQ(test, oa.id, ob.id);
		KUNIT_EXPECT_EQ(test, oa.cancel, ob.cancel);
		KUNIT_EXPECT_LT(test, oa.id, a.count);
		diff_op += oa.id != oc.id;
		cancels += oa.cancel;
	}
	/* Another seed, other choices; the cancel share follows cancel=50. */
	KUNIT_EXPECT_GT(test, diff_d, 9000U);
	KUNIT_EXPECT_GT(test, diff_op, 9900U);
	KUNIT_EXPECT_GT(test, cancels, 4500U);
	KUNIT_EXPECT_LT(test, cancels, 5500U);
}

static void workload_mixed_classes(struct kunit *test)
{
	struct twheel_params p;
	struct twheel_op op;
	u32 id, d;

	/* The defaults: each class in its named workload's default range. */
	twheel_params_default(TWHEEL_WL_MIXED, &p);
	for (id = 0; id < 3000; id++) {
		d = twheel_wl_delta(&p, id, id / 7);
		if (id % 10 < 6) {
			KUNIT_EXPECT_GE(test, d, 25U);
			KUNIT_EXPECT_LE(test, d, 250U);
		} else if (id % 10 < 8) {
			KUNIT_EXPECT_GE(test, d, 1U);
			KUNIT_EXPECT_LE(test, d, 64U);
		} else {
			KUNIT_EXPECT_GE(test, d, 256U);
			KUNIT_EXPECT_LE(test, d, 1U << 20);
		}
	}
	/* max= alone cuts every range; a class above it shrinks to max. */
	p.max = 40;
	p.set = BIT(TWHEEL_KEY_MAX);
	for (id = 0; id < 1000; id++) {
		d = twheel_wl_delta(&p, id, 1);
		if (id % 10 < 6)
			KUNIT_EXPECT_TRUE(test, d >= 25 && d <= 40);
		else if (id % 10 < 8)
			KUNIT_EXPECT_TRUE(test, d >= 1 && d <= 40);
		else
			KUNIT_EXPECT_EQ(test, d, 40U);
	}

	/* min= and max= given: the classes are cut out of [min, max]. */
	p.min = 10;
	p.max = 100000;
	p.set = BIT(TWHEEL_KEY_MIN) | BIT(TWHEEL_KEY_MAX);
	for (id = 0; id < 1000; id++) {
		d = twheel_wl_delta(&p, id, 3);
		if (id % 10 < 6)
			KUNIT_EXPECT_LE(test, d, 100U);		/* timeouts */
		else if (id % 10 < 8)
			KUNIT_EXPECT_LE(test, d, 73U);		/* expiring */
		else
			KUNIT_EXPECT_GE(test, d, 256U);		/* long */
		KUNIT_EXPECT_GE(test, d, 10U);
		KUNIT_EXPECT_TRUE(test, twheel_wl_rearms(&p, id));
		twheel_wl_op(&p, id, 0, &op);
		KUNIT_EXPECT_LT(test, op.id % 10, 6U);	/* activity: timeouts */
	}
	/* Ops on a workload of one class reach every timer, not one in ten. */
	for (d = TWHEEL_WL_EXPIRING; d <= TWHEEL_WL_BURST; d++) {
		u32 off_ten = 0;

		twheel_params_default(d, &p);
		p.ops = 10;
		for (id = 0; id < 1000; id++) {
			twheel_wl_op(&p, id, 0, &op);
			KUNIT_EXPECT_LT(test, op.id, p.count);
			off_ten += op.id % 10 != 0;
		}
		KUNIT_EXPECT_GT_MSG(test, off_ten, 850U, "workload %u", d);
	}

	twheel_params_default(TWHEEL_WL_BURST, &p);
	KUNIT_EXPECT_FALSE(test, twheel_wl_rearms(&p, 5));
	KUNIT_EXPECT_EQ(test, twheel_wl_delta(&p, 5, 0), 1000U);
	KUNIT_EXPECT_EQ(test, twheel_wl_delta(&p, 99999, 0), 1000U);
}

/* Bucket index and floor agree everywhere; percentiles pick exact ranks. */
static void workload_histogram(struct kunit *test)
{
	struct twheel_hist *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	unsigned int i;
	u64 lo, v;

	KUNIT_ASSERT_NOT_NULL(test, h);
	for (i = 0; i < TWHEEL_HIST_N; i++) {
		lo = twheel_hist_floor(i);
		KUNIT_EXPECT_EQ(test, twheel_hist_idx(lo), i);
		if (i + 1 < TWHEEL_HIST_N) {
			KUNIT_EXPECT_LT(test, lo, twheel_hist_floor(i + 1));
			KUNIT_EXPECT_EQ(test, twheel_hist_idx(twheel_hist_floor(i + 1) - 1), i);
		}
	}
	KUNIT_EXPECT_EQ(test, twheel_hist_idx(U64_MAX), TWHEEL_HIST_N - 1);
	/* Every value's floor is within 1/8 below it. */
	for (v = 1; v < (1ULL << 62); v = v * 3 + 1) {
		lo = twheel_hist_floor(twheel_hist_idx(v));
		KUNIT_EXPECT_LE(test, lo, v);
		KUNIT_EXPECT_LT(test, (v - lo) * 8, max_t(u64, lo, 1));
	}

	KUNIT_EXPECT_EQ(test, twheel_hist_pct(h, 500), 0ULL);	/* empty */
	for (v = 1; v <= 1000; v++)
		twheel_hist_add(h, v);
	KUNIT_EXPECT_EQ(test, h->n, 1000ULL);
	KUNIT_EXPECT_EQ(test, h->sum, 500500ULL);
	KUNIT_EXPECT_EQ(test, h->max, 1000ULL);
	/* rank 500 is 500, in [480, 512); rank 990 is 990, in [960, 1024) */
	KUNIT_EXPECT_EQ(test, twheel_hist_pct(h, 500), 480ULL);
	KUNIT_EXPECT_EQ(test, twheel_hist_pct(h, 990), 960ULL);
	KUNIT_EXPECT_EQ(test, twheel_hist_pct(h, 0), 1ULL);
	KUNIT_EXPECT_EQ(test, twheel_hist_pct(h, 1000), 960ULL);
	KUNIT_EXPECT_EQ(test, twheel_hist_pct(h, 5), 5ULL);	/* rank 5 */

	memset(h, 0, sizeof(*h));
	for (i = 0; i < 3; i++)
		twheel_hist_add(h, 7);
	twheel_hist_add(h, 1ULL << 40);
	KUNIT_EXPECT_EQ(test, twheel_hist_pct(h, 500), 7ULL);
	KUNIT_EXPECT_EQ(test, twheel_hist_pct(h, 750), 7ULL);
	KUNIT_EXPECT_EQ(test, twheel_hist_pct(h, 751), 1ULL << 40);
	KUNIT_EXPECT_EQ(test, twheel_hist_pct(h, 990), 1ULL << 40);
}

static struct kunit_case tw_workload_cases[] = {
	KUNIT_CASE(workload_parse_good),
	KUNIT_CASE(workload_parse_bad),
	KUNIT_CASE(workload_same_seed_same_choices),
	KUNIT_CASE(workload_mixed_classes),
	KUNIT_CASE(workload_histogram),
	{}
};

static struct kunit_suite tw_workload_suite = {
	.name = "twheel_workload",
	.test_cases = tw_workload_cases,
};

kunit_test_suite(tw_workload_suite);

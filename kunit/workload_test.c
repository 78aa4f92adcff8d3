// SPDX-License-Identifier: GPL-2.0
/*
 * The control-file parser (good and bad input) and the workload generator
 * (same seed, same choices; in range; per-class deltas).
 */
#include <kunit/test.h>
#include <linux/string.h>
#include <linux/math.h>
#include <linux/sched.h>
#include "twheel.h"
#include "runner/twheel_workload.h"
#include "runner/twheel_hist.h"

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
	/* as insmod's engines=: empty names skipped, all for every one */
	KUNIT_ASSERT_EQ(test, 0, tw_parse("load long engines=classic,,modern,", &cmd, why));
	KUNIT_EXPECT_EQ(test, cmd.p.engines,
			(u32)(BIT(TWHEEL_CLASSIC) | BIT(TWHEEL_MODERN)));
	KUNIT_ASSERT_EQ(test, 0, tw_parse("load long engines=all", &cmd, why));
	KUNIT_EXPECT_EQ(test, cmd.p.engines, 0U);
	KUNIT_EXPECT_TRUE(test, cmd.p.set & BIT(TWHEEL_KEY_ENGINES));

	KUNIT_ASSERT_EQ(test, 0, tw_parse("  load   burst\tcount=0x10  ", &cmd, why));
	KUNIT_EXPECT_EQ(test, cmd.p.type, TWHEEL_WL_BURST);
	KUNIT_EXPECT_EQ(test, cmd.p.count, 16U);
	KUNIT_EXPECT_EQ(test, cmd.p.min, 1000U);	/* the burst default */
	KUNIT_EXPECT_EQ(test, cmd.p.engines, 0U);	/* every engine */
	KUNIT_EXPECT_EQ(test, cmd.p.set, (u32)BIT(TWHEEL_KEY_COUNT));

	/* A leading zero is not octal: decimal, or hex after 0x. */
	KUNIT_ASSERT_EQ(test, 0, tw_parse("load expiring count=010 seed=010 duration=08",
					  &cmd, why));
	KUNIT_EXPECT_EQ(test, cmd.p.count, 10U);
	KUNIT_EXPECT_EQ(test, cmd.p.seed, 10ULL);
	KUNIT_EXPECT_EQ(test, cmd.p.duration, 8U);
	KUNIT_ASSERT_EQ(test, 0, tw_parse("load expiring seed=0XfF", &cmd, why));
	KUNIT_EXPECT_EQ(test, cmd.p.seed, 255ULL);

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
	KUNIT_EXPECT_EQ(test, cmd.p.slack, 0U);		/* the default */
	KUNIT_ASSERT_EQ(test, 0, tw_parse("load timeouts slack=10 budget=1000", &cmd, why));
	KUNIT_EXPECT_EQ(test, cmd.p.slack, 10U);
	KUNIT_EXPECT_EQ(test, cmd.p.budget, 1000U);
	KUNIT_EXPECT_EQ(test, cmd.p.set,
			(u32)(BIT(TWHEEL_KEY_SLACK) | BIT(TWHEEL_KEY_BUDGET)));
	KUNIT_ASSERT_EQ(test, 0, tw_parse("load timeouts slack=100", &cmd, why));
	KUNIT_EXPECT_EQ(test, cmd.p.slack, TWHEEL_MAX_SLACK);
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
	"load timeouts engines=,", "load timeouts engines=all,classic", "load timeouts frob=1",
	"start now", "stop 1", "reset all", "load timeouts count=5 count=x",
	"bench 1000", "clear all", "benchmark", "cleared",
	"load timeouts slack=101", "load timeouts slack=-1", "load timeouts slack=",
	"load timeouts slack=10%", "load timeouts slack=4294967296",
	/* one command a write, printable: nothing the log would take as its own */
	"x\nBUG: forged", "start\nstop", "start\rstop", "load timeouts\x1b[2J",
	"load timeouts count=1\xc3\xa9", "start\x7f",
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
		KUNIT_EXPECT_NULL_MSG(test, strpbrk(why, "\n\r\x1b"),
				      "the reason for '%s' has a control byte", tw_bad[i]);
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

	/*
	 * The defaults: count and ops half timeouts' (the same touches per
	 * timer), each class in its named workload's default range.
	 */
	twheel_params_default(TWHEEL_WL_MIXED, &p);
	KUNIT_EXPECT_EQ(test, p.count, 10000U);
	KUNIT_EXPECT_EQ(test, p.ops, 500U);
	KUNIT_EXPECT_EQ(test, p.cancel, 50U);
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

/* The class of timer id, as the generator deals them (not its code). */
static enum twheel_wl_type tw_test_class(const struct twheel_params *p, u32 id)
{
	if (p->type != TWHEEL_WL_MIXED)
		return p->type;
	return id % 10 < 6 ? TWHEEL_WL_TIMEOUTS :
	       id % 10 < 8 ? TWHEEL_WL_EXPIRING : TWHEEL_WL_LONG;
}

/*
 * The model's numbers for the workloads with activity, evaluated in double
 * precision outside the kernel from the formulas of twheel_wl_demand()'s
 * kernel-doc, written out directly (x = (1 - w/count)^ops, h = (1 - x) *
 * count / (ops * w), B = x^(lo-1) * (1 - x^n) / (n * (1 - x)), S_E = x * B,
 * S_O = h * B, S = S_O / (1 - S_E + S_O), mean time between armings L =
 * S * (x * G + c * (1 - S_E) * h / (1 - x)) + (1 - S) * (h * G + c * (1 -
 * S_O) * h / (1 - x)) with G = (1 - S_E) / (1 - x), rate n * S / L a tick;
 * in mixed the 2000 (at count 2^20: 104857) timeouts timers first of their
 * ten have w = 5, the others w = 1):
 * timeouts 2685.97/s at HZ=1000 (671.49 at 250), 4012.79 ppm expire;
 * at count=2^20 4836288.33 (1209072.08), 878852.97 ppm. mixed's timeouts
 * class 9136.11 (2284.03), 13518.89 ppm; at count=2^20 2817714.40
 * (704428.60), 808669.99 ppm. The class without activity, and the rest of
 * the workloads, are checked against count * hz * 2 / (lo + hi) exactly.
 * Tolerance 1 on the rounded rates and 1 ppm: Q60 fixed point against
 * double precision, nothing else. Every row at ops=1000 and, for mixed, at
 * count=20000 or 2^20 (the numbers above; mixed's defaults are half that).
 */
static const struct {
	enum twheel_wl_type type;
	u32 count, hz;
	u64 timeouts_per_s;
	u32 timeouts_ppm;
} tw_demand_ref[] = {
	{ TWHEEL_WL_TIMEOUTS, 0, 1000, 2686, 4013 },
	{ TWHEEL_WL_TIMEOUTS, 0, 250, 671, 4013 },
	{ TWHEEL_WL_TIMEOUTS, 1U << 20, 1000, 4836288, 878853 },
	{ TWHEEL_WL_TIMEOUTS, 1U << 20, 250, 1209072, 878853 },
	{ TWHEEL_WL_MIXED, 20000, 1000, 9136, 13519 },
	{ TWHEEL_WL_MIXED, 20000, 250, 2284, 13519 },
	{ TWHEEL_WL_MIXED, 1U << 20, 1000, 2817714, 808670 },
	{ TWHEEL_WL_MIXED, 1U << 20, 250, 704429, 808670 },
};

static void tw_expect_near(struct kunit *test, const char *what, u64 got,
			   u64 want, u64 tol)
{
	KUNIT_EXPECT_TRUE_MSG(test, got + tol >= want && got <= want + tol,
			      "%s: %llu, want %llu +- %llu", what, got, want, tol);
}

/* Expiries a second of count re-arming timers without activity. */
static u64 tw_untouched_per_s(u64 count, u32 hz, u32 lo, u32 hi)
{
	return DIV_ROUND_CLOSEST_ULL(count * hz * 2, (u64)lo + hi);
}

static void workload_demand_closed_form(struct kunit *test)
{
	static const u32 hzs[] = { 1000, 250 };
	struct twheel_demand d;
	struct twheel_params p;
	unsigned int t, i, h, big, id;
	u32 want[TWHEEL_WL_NR];
	u64 sum;

	/* Every workload at its defaults and at count=2^20, two HZ values. */
	for (t = 0; t < TWHEEL_WL_MIXED; t++) {
		for (big = 0; big < 2; big++) {
			for (h = 0; h < ARRAY_SIZE(hzs); h++) {
				twheel_params_default(t, &p);
				if (big)
					p.count = TWHEEL_MAX_TIMERS;
				twheel_wl_demand(&p, hzs[h], &d);
				KUNIT_EXPECT_EQ(test, d.ops_per_s, (u64)p.ops * hzs[h]);
				KUNIT_EXPECT_EQ(test, d.timers[t], p.count);
				KUNIT_EXPECT_EQ(test, d.callbacks_per_s,
						d.class_callbacks_per_s[t]);
				if (t == TWHEEL_WL_BURST) {
					KUNIT_EXPECT_EQ(test, d.callbacks_per_s, 0ULL);
					KUNIT_EXPECT_EQ(test, d.burst_callbacks, p.count);
					KUNIT_EXPECT_EQ(test, d.burst_jiffies, 1U);
				} else {
					KUNIT_EXPECT_EQ(test, d.burst_callbacks, 0U);
				}
				if (t != TWHEEL_WL_TIMEOUTS) {
					KUNIT_EXPECT_EQ(test, d.expiry_ppm[t], 1000000U);
					if (t != TWHEEL_WL_BURST)
						KUNIT_EXPECT_EQ(test, d.callbacks_per_s,
								tw_untouched_per_s(p.count, hzs[h],
										   p.min, p.max));
				}
			}
		}
	}
	twheel_params_default(TWHEEL_WL_EXPIRING, &p);
	twheel_wl_demand(&p, 1000, &d);
	KUNIT_EXPECT_EQ(test, d.callbacks_per_s, 307692ULL);	/* 10^7 / 32.5 */

	/* The activity: timeouts, and mixed's classes. */
	for (i = 0; i < ARRAY_SIZE(tw_demand_ref); i++) {
		twheel_params_default(tw_demand_ref[i].type, &p);
		if (tw_demand_ref[i].count)
			p.count = tw_demand_ref[i].count;
		p.ops = 1000;
		twheel_wl_demand(&p, tw_demand_ref[i].hz, &d);
		KUNIT_EXPECT_EQ(test, d.ops_per_s, 1000ULL * tw_demand_ref[i].hz);
		tw_expect_near(test, "timeouts/s",
			       d.class_callbacks_per_s[TWHEEL_WL_TIMEOUTS],
			       tw_demand_ref[i].timeouts_per_s, 1);
		tw_expect_near(test, "timeouts ppm", d.expiry_ppm[TWHEEL_WL_TIMEOUTS],
			       tw_demand_ref[i].timeouts_ppm, 1);
		if (p.type != TWHEEL_WL_MIXED)
			continue;
		memset(want, 0, sizeof(want));
		for (id = 0; id < p.count; id++)
			want[tw_test_class(&p, id)]++;
		for (t = 0; t < TWHEEL_WL_NR; t++)
			KUNIT_EXPECT_EQ(test, d.timers[t], want[t]);
		KUNIT_EXPECT_EQ(test, d.class_callbacks_per_s[TWHEEL_WL_EXPIRING],
				tw_untouched_per_s(d.timers[TWHEEL_WL_EXPIRING],
						   tw_demand_ref[i].hz, 1, 64));
		KUNIT_EXPECT_EQ(test, d.class_callbacks_per_s[TWHEEL_WL_LONG],
				tw_untouched_per_s(d.timers[TWHEEL_WL_LONG],
						   tw_demand_ref[i].hz, 256, 1U << 20));
		KUNIT_EXPECT_EQ(test, d.expiry_ppm[TWHEEL_WL_EXPIRING], 1000000U);
		KUNIT_EXPECT_EQ(test, d.expiry_ppm[TWHEEL_WL_LONG], 1000000U);
		sum = d.class_callbacks_per_s[TWHEEL_WL_TIMEOUTS] +
		      d.class_callbacks_per_s[TWHEEL_WL_EXPIRING] +
		      d.class_callbacks_per_s[TWHEEL_WL_LONG];
		tw_expect_near(test, "total/s", d.callbacks_per_s, sum, 2);	/* rounding */
	}

	/* Mixed deals its classes by id % 10, partial tens included. */
	twheel_params_default(TWHEEL_WL_MIXED, &p);
	for (p.count = 1; p.count <= 31; p.count++) {
		memset(want, 0, sizeof(want));
		for (id = 0; id < p.count; id++)
			want[tw_test_class(&p, id)]++;
		twheel_wl_demand(&p, 250, &d);
		for (t = 0; t < TWHEEL_WL_NR; t++)
			KUNIT_EXPECT_EQ_MSG(test, d.timers[t], want[t],
					    "count %u class %u", p.count, t);
	}
}

/*
 * The generator run as the module runs it, one tick a jiffy: first the
 * jiffy's expiries (a re-arming timer re-arms at now + its next delta),
 * then the tick's ops (delete if cancel and pending, else re-arm). Counts
 * each class's expiries from tick warm on.
 */
static void tw_simulate(struct kunit *test, const struct twheel_params *p,
			u32 ticks, u32 warm, u64 *expired)
{
	u32 *at = kunit_kcalloc(test, p->count, sizeof(*at), GFP_KERNEL);
	u32 *gen = kunit_kcalloc(test, p->count, sizeof(*gen), GFP_KERNEL);
	struct twheel_op op;
	u32 t, id, j;

	KUNIT_ASSERT_NOT_NULL(test, at);
	KUNIT_ASSERT_NOT_NULL(test, gen);
	for (id = 0; id < p->count; id++)
		at[id] = twheel_wl_delta(p, id, 0);	/* armed at start, jiffy 0 */
	for (t = 1; t < ticks; t++) {
		for (id = 0; id < p->count; id++) {
			if (at[id] != t)
				continue;
			if (t >= warm)
				expired[tw_test_class(p, id)]++;
			at[id] = U32_MAX;	/* not pending */
			if (twheel_wl_rearms(p, id))
				at[id] = t + twheel_wl_delta(p, id, ++gen[id]);
		}
		for (j = 0; j < p->ops; j++) {
			twheel_wl_op(p, t - 1, j, &op);
			if (op.cancel && at[op.id] != U32_MAX) {
				at[op.id] = U32_MAX;
				continue;
			}
			at[op.id] = t + twheel_wl_delta(p, op.id, ++gen[op.id]);
		}
		cond_resched();
	}
}

/*
 * The closed form against the simulated generator, within 10 %, on the
 * classes that reach their steady state in the 18000 ticks measured (not
 * mixed's long class: its first deltas alone span 2^20 jiffies). Each
 * count is some thousands of expiries or more, so chance stays within a
 * few percent; a model that took a tick's touch chance as ops/count
 * instead of 1 - (1 - 1/count)^ops is off by 21 % on the first case and
 * by half on the third, and one that ignored mixed's ops going to the
 * first timer of each ten by 47 % on the second.
 */
static const struct {
	enum twheel_wl_type type;
	u32 count, ops, cancel, min, max;	/* 0: the default */
} tw_sim_cases[] = {
	{ TWHEEL_WL_TIMEOUTS, 1000, 100 },	/* each touched 0.1 a tick */
	{ TWHEEL_WL_MIXED, 1000, 50 },		/* as at the defaults */
	{ TWHEEL_WL_TIMEOUTS, 200, 100, 0, 1, 10 },	/* touched often */
	{ TWHEEL_WL_TIMEOUTS, 1000, 100, 100 },	/* every touch deletes */
	{ TWHEEL_WL_BURST, 100, 5, 30, 10, 20 },	/* re-armed by ops only */
	{ TWHEEL_WL_EXPIRING, 300, 10, 20 },
};

static void workload_demand_simulated(struct kunit *test)
{
	const u32 ticks = 20000, warm = 2000;
	u64 expired[TWHEEL_WL_NR], want;
	struct twheel_demand d;
	struct twheel_params p;
	unsigned int i, c;

	for (i = 0; i < ARRAY_SIZE(tw_sim_cases); i++) {
		twheel_params_default(tw_sim_cases[i].type, &p);
		p.count = tw_sim_cases[i].count;
		p.ops = tw_sim_cases[i].ops;
		if (tw_sim_cases[i].cancel)
			p.cancel = tw_sim_cases[i].cancel;
		if (tw_sim_cases[i].min) {
			p.min = tw_sim_cases[i].min;
			p.max = tw_sim_cases[i].max;
		}
		memset(expired, 0, sizeof(expired));
		tw_simulate(test, &p, ticks, warm, expired);
		/* "hz" = the ticks measured: the expected count in them */
		twheel_wl_demand(&p, ticks - warm, &d);
		for (c = 0; c < TWHEEL_WL_NR; c++) {
			if (!d.timers[c] || c == TWHEEL_WL_LONG)
				continue;
			want = d.class_callbacks_per_s[c];
			KUNIT_EXPECT_GT_MSG(test, want, 1000ULL, "case %u class %u", i, c);
			KUNIT_EXPECT_TRUE_MSG(test, expired[c] * 10 >= want * 9 &&
					      expired[c] * 10 <= want * 11,
					      "case %u class %u: %llu expiries, model %llu",
					      i, c, expired[c], want);
		}
	}
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
	/*
	 * Rank 500 is the 21st of the 32 values of [480, 511]: 480 + 31 *
	 * 41 / 64. Rank 990 is the 31st of the 41 of [960, 1000] (the bucket
	 * ends at the max): 960 + 40 * 61 / 82; rank 1000 the 41st.
	 */
	KUNIT_EXPECT_EQ(test, twheel_hist_pct(h, 500), 499ULL);
	KUNIT_EXPECT_EQ(test, twheel_hist_pct(h, 990), 989ULL);
	KUNIT_EXPECT_EQ(test, twheel_hist_pct(h, 0), 1ULL);
	KUNIT_EXPECT_EQ(test, twheel_hist_pct(h, 1000), 999ULL);
	KUNIT_EXPECT_EQ(test, twheel_hist_pct(h, 5), 5ULL);	/* rank 5 */

	/*
	 * Values on both sides of a bucket's edge (1024): the median moves
	 * by what the values move, not by the 64 between the two floors.
	 */
	memset(h, 0, sizeof(*h));
	for (i = 0; i < 100; i++)
		twheel_hist_add(h, i < 50 ? 1023 : 1024);
	KUNIT_EXPECT_EQ(test, twheel_hist_pct(h, 500), 1022ULL);
	memset(h, 0, sizeof(*h));
	for (i = 0; i < 100; i++)
		twheel_hist_add(h, i < 49 ? 1023 : 1024);
	KUNIT_EXPECT_EQ(test, twheel_hist_pct(h, 500), 1024ULL);

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
	KUNIT_CASE(workload_demand_closed_form),
	KUNIT_CASE(workload_demand_simulated),
	KUNIT_CASE(workload_histogram),
	{}
};

static struct kunit_suite tw_workload_suite = {
	.name = "twheel_workload",
	.test_cases = tw_workload_cases,
};

kunit_test_suite(tw_workload_suite);

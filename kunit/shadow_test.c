// SPDX-License-Identifier: GPL-2.0
/*
 * The shadow workload's load line, and the shadow's judge of the modern
 * engine's bucket against the kernel's (twheel_shadow_idx()): the
 * "kernel" is the modern wheel at one clock (its placement is the kernel's
 * calc_wheel_index(), which the modern suite checks), ours the same wheel
 * at another. Equal clocks must agree; a clock difference must be told as
 * the kernel's clock behind or ahead, never as a wrong bucket; a bucket no
 * clock gives must be told wrong.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/string.h>
#include "tw_test.h"
#include "shadow/twheel_shadow.h"
#include "runner/twheel_workload.h"

/* Deltas around every level boundary of the default depth, and the past. */
static void tw_sh_deltas(long *d, unsigned int *n, unsigned int depth)
{
	unsigned int lvl, k = 0;
	long edge;
	int j;

	for (j = -3; j <= 3; j++)
		d[k++] = j;
	for (lvl = 1; lvl < depth; lvl++) {
		edge = tw_lvl_start(lvl);
		for (j = -2; j <= 2; j++)
			d[k++] = edge + j;
		d[k++] = edge + (long)tw_lvl_gran(lvl) * 17 + 3;
	}
	*n = k;
}

/* Where the wheel at clk files expires: the bucket and its expiry. */
static void tw_sh_place(struct twheel_modern *m, unsigned long clk,
			unsigned long expires, bool have_be,
			struct tw_sh_where *w)
{
	twheel_modern_init(m, clk, TW_MODERN_DEFAULT_DEPTH);
	w->idx = twheel_modern_index(m, expires, &w->bucket_expiry);
	w->have_be = have_be;
}

/*
 * Every delta, from clocks near 0, in the middle and near the wrap, with
 * our clock 0..70 jiffies (and a level's width) either side of the
 * kernel's: agreement exactly where the buckets agree, else the right
 * order; never wrong. Without the kernel's bucket_expiry (6.1) a start in
 * the past may only be told unordered.
 */
static void tw_sh_orders(struct kunit *test, bool have_be)
{
	static const unsigned long bases[] = { 1000, 0x123456789UL, ULONG_MAX - 40 };
	static const long offs[] = { 0, 1, 2, 7, 8, 63, 64, 70, 511, 4100 };
	const unsigned int depth = TW_MODERN_DEFAULT_DEPTH;
	struct twheel_modern *m = tw_kvzalloc(test, sizeof(*m));
	unsigned long kclk, oclk, e, checked = 0;
	struct tw_sh_where k, o;
	unsigned int b, i, n, s;
	enum tw_sh_idx got;
	long d[64];
	int sign;

	KUNIT_ASSERT_NOT_NULL(test, m);
	tw_sh_deltas(d, &n, depth);
	for (b = 0; b < ARRAY_SIZE(bases); b++) {
		kclk = bases[b];
		for (i = 0; i < n; i++) {
			e = kclk + d[i];
			tw_sh_place(m, kclk, e, have_be, &k);
			for (s = 0; s < ARRAY_SIZE(offs); s++) {
				for (sign = -1; sign <= 1; sign += 2) {
					oclk = kclk + sign * offs[s];
					tw_sh_place(m, oclk, e, have_be, &o);
					got = twheel_shadow_idx(e, &k, &o, oclk, depth);
					checked++;
					/* without bucket_expiry (6.1) the index is all one sees */
					if (o.idx == k.idx &&
					    (!have_be || o.bucket_expiry == k.bucket_expiry)) {
						KUNIT_EXPECT_EQ_MSG(test, got, TW_SH_IDX_AGREE,
								    "e-k %ld o-k %ld", d[i],
								    sign * offs[s]);
						continue;
					}
					if (!have_be && d[i] < 0 && got == TW_SH_IDX_UNORDERED)
						continue;
					KUNIT_EXPECT_EQ_MSG(test, got,
							    sign > 0 ? TW_SH_IDX_BEHIND :
								       TW_SH_IDX_AHEAD,
							    "e-k %ld o-k %ld", d[i],
							    sign * offs[s]);
				}
			}
		}
	}
	KUNIT_EXPECT_GT(test, checked, 1000UL);
}

static void shadow_idx_orders(struct kunit *test)
{
	tw_sh_orders(test, true);
}

static void shadow_idx_orders_no_be(struct kunit *test)
{
	tw_sh_orders(test, false);
}

/*
 * The kernel's bucket moved by one slot, or its bucket_expiry by one
 * granule, at the clock we share: no clock files it so, it is wrong (on
 * the last level the clamp may move a slot: unordered there).
 */
static void shadow_idx_wrong(struct kunit *test)
{
	const unsigned int depth = TW_MODERN_DEFAULT_DEPTH;
	struct twheel_modern *m = tw_kvzalloc(test, sizeof(*m));
	unsigned long clk = 5000, e;
	struct tw_sh_where k, o;
	unsigned int i, n, lvl;
	long d[64];

	KUNIT_ASSERT_NOT_NULL(test, m);
	tw_sh_deltas(d, &n, depth);
	for (i = 0; i < n; i++) {
		if (d[i] < 0)
			continue;
		e = clk + d[i];
		tw_sh_place(m, clk, e, true, &o);
		lvl = o.idx / TW_LVL_SIZE;
		k = o;
		k.idx = lvl * TW_LVL_SIZE + (o.idx + 1) % TW_LVL_SIZE;
		/* (level 0 with both moved is a start in the past: a clock's) */
		if (lvl)
			k.bucket_expiry += tw_lvl_gran(lvl);
		KUNIT_EXPECT_EQ_MSG(test, twheel_shadow_idx(e, &k, &o, clk, depth),
				    lvl == depth - 1 ? TW_SH_IDX_UNORDERED : TW_SH_IDX_WRONG,
				    "delta %ld", d[i]);
		/* the right bucket with a wrong bucket_expiry */
		k.idx = o.idx;
		k.bucket_expiry = o.bucket_expiry + tw_lvl_gran(lvl);
		KUNIT_EXPECT_EQ_MSG(test, twheel_shadow_idx(e, &k, &o, clk, depth),
				    lvl == depth - 1 ? TW_SH_IDX_UNORDERED : TW_SH_IDX_WRONG,
				    "delta %ld", d[i]);
	}
	/* a start in the past at our very clock, filed elsewhere */
	e = clk - 3;
	tw_sh_place(m, clk, e, true, &o);
	k = o;
	k.idx = (o.idx + 5) % TW_LVL_SIZE;
	k.bucket_expiry = clk;
	KUNIT_EXPECT_EQ(test, twheel_shadow_idx(e, &k, &o, clk, depth), TW_SH_IDX_WRONG);
}

/*
 * The shadow workload's load line: its own defaults, the keys it takes,
 * the ones it refuses (they shape timers it does not arm), its count's
 * bound; its timers never re-arm and its demand is not modelled.
 */
static void shadow_load_line(struct kunit *test)
{
	static const char *const bad[] = {
		"load shadow seed=1", "load shadow ops=5", "load shadow min=2",
		"load shadow max=9", "load shadow cancel=10",
		"load shadow count=65537",
	};
	char line[TWHEEL_CMD_MAX], why[160];
	struct twheel_demand d;
	struct twheel_cmd cmd;
	unsigned int i;

	strscpy(line, "load shadow", sizeof(line));
	KUNIT_ASSERT_EQ(test, twheel_parse_cmd(line, &cmd, why, sizeof(why)), 0);
	KUNIT_EXPECT_EQ(test, cmd.p.type, TWHEEL_WL_SHADOW);
	KUNIT_EXPECT_EQ(test, cmd.p.count, 4096U);
	KUNIT_EXPECT_EQ(test, cmd.p.ops, 0U);
	KUNIT_EXPECT_FALSE(test, twheel_wl_rearms(&cmd.p, 0));
	twheel_wl_demand(&cmd.p, HZ, &d);
	KUNIT_EXPECT_EQ(test, d.callbacks_per_s + d.ops_per_s + d.burst_callbacks, 0ULL);

	strscpy(line, "load shadow count=65536 duration=3 engines=classic,modern force=1 budget=7",
		sizeof(line));
	KUNIT_ASSERT_EQ(test, twheel_parse_cmd(line, &cmd, why, sizeof(why)), 0);
	KUNIT_EXPECT_EQ(test, cmd.p.count, 65536U);
	KUNIT_EXPECT_EQ(test, cmd.p.duration, 3U);
	KUNIT_EXPECT_EQ(test, cmd.p.budget, 7U);
	KUNIT_EXPECT_EQ(test, cmd.p.engines,
			(u32)(BIT(TWHEEL_CLASSIC) | BIT(TWHEEL_MODERN)));

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		strscpy(line, bad[i], sizeof(line));
		why[0] = '\0';
		KUNIT_EXPECT_EQ_MSG(test, twheel_parse_cmd(line, &cmd, why, sizeof(why)),
				    -EINVAL, "%s", bad[i]);
		KUNIT_EXPECT_TRUE_MSG(test, strstr(why, "shadow"), "%s: %s",
				      bad[i], why);
	}
}

static struct kunit_case tw_shadow_cases[] = {
	KUNIT_CASE(shadow_load_line),
	KUNIT_CASE(shadow_idx_orders),
	KUNIT_CASE(shadow_idx_orders_no_be),
	KUNIT_CASE(shadow_idx_wrong),
	{}
};

static struct kunit_suite tw_shadow_suite = {
	.name = "twheel_shadow",
	.test_cases = tw_shadow_cases,
};

kunit_test_suite(tw_shadow_suite);

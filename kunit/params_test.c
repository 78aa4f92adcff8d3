// SPDX-License-Identifier: GPL-2.0
/*
 * The engines' parameters (engines/params.h): the defaults the module and
 * the user-space tools load with, and the range check insmod's values go
 * through, edge by edge.
 */
#include <kunit/test.h>
#include "engines/params.h"

/* The defaults are the module's own, each in its range. */
static void params_defaults(struct kunit *test)
{
	struct twheel_config cfg = { .cap = 7 };

	twheel_config_default(&cfg);
	KUNIT_EXPECT_EQ(test, cfg.depth, (unsigned int)TW_MODERN_DEFAULT_DEPTH);
	KUNIT_EXPECT_EQ(test, cfg.slots, (unsigned int)TW_HASH_DEFAULT_SLOTS);
	KUNIT_EXPECT_EQ(test, cfg.max_interval,
			(unsigned int)TW_SIMPLE_DEFAULT_INTERVAL);
	KUNIT_EXPECT_EQ(test, cfg.keep, (unsigned int)TW_VEC_KEEP_FIRST);
	KUNIT_EXPECT_EQ(test, cfg.cap, 7U);
	KUNIT_EXPECT_NULL(test, twheel_config_check(&cfg));
}

/* Sets parameter i of a default config to v. */
static void tw_param_set(struct twheel_config *cfg, unsigned int i,
			 unsigned int v)
{
	twheel_config_default(cfg);
	*(unsigned int *)((char *)cfg + twheel_engine_params[i].offset) = v;
}

/*
 * Each parameter's ends are taken and one past them refused, naming that
 * parameter; one that must be a power of two refuses one that is not.
 */
static void params_range_edges(struct kunit *test)
{
	const struct twheel_param *p;
	struct twheel_config cfg;
	unsigned int i;

	for (i = 0; i < twheel_nr_engine_params; i++) {
		p = &twheel_engine_params[i];
		tw_param_set(&cfg, i, p->min);
		KUNIT_EXPECT_NULL_MSG(test, twheel_config_check(&cfg), "%s", p->name);
		KUNIT_EXPECT_EQ(test, twheel_param_get(p, &cfg), p->min);
		tw_param_set(&cfg, i, p->max);
		KUNIT_EXPECT_NULL_MSG(test, twheel_config_check(&cfg), "%s", p->name);
		tw_param_set(&cfg, i, p->max + 1);
		KUNIT_EXPECT_PTR_EQ(test, twheel_config_check(&cfg), p);
		if (p->min) {
			tw_param_set(&cfg, i, p->min - 1);
			KUNIT_EXPECT_PTR_EQ(test, twheel_config_check(&cfg), p);
		}
		if (p->pow2) {
			tw_param_set(&cfg, i, p->min + 1);
			KUNIT_EXPECT_PTR_EQ(test, twheel_config_check(&cfg), p);
		}
	}
}

/* Each entry sets the member its name says. */
static void params_offsets(struct kunit *test)
{
	struct twheel_config cfg = { 0 };

	twheel_config_default(&cfg);
	cfg.depth = 3;
	cfg.slots = 16;
	cfg.max_interval = 32;
	cfg.keep = 5;
	KUNIT_EXPECT_EQ(test, twheel_param_get(&twheel_engine_params[0], &cfg), 3U);
	KUNIT_EXPECT_EQ(test, twheel_param_get(&twheel_engine_params[1], &cfg), 16U);
	KUNIT_EXPECT_EQ(test, twheel_param_get(&twheel_engine_params[2], &cfg), 32U);
	KUNIT_EXPECT_EQ(test, twheel_param_get(&twheel_engine_params[3], &cfg), 5U);
}

/* With two out of range, the first in the list is the one named. */
static void params_first_refused(struct kunit *test)
{
	struct twheel_config cfg;

	twheel_config_default(&cfg);
	cfg.keep = 65537;
	cfg.slots = 3;
	KUNIT_EXPECT_PTR_EQ(test, twheel_config_check(&cfg), &twheel_engine_params[1]);
	cfg.depth = 1;
	KUNIT_EXPECT_PTR_EQ(test, twheel_config_check(&cfg), &twheel_engine_params[0]);
}

/*
 * The first four are the module parameters as they have always been
 * (docs/usage.md), in this order; an engine's new one comes after them.
 */
static void params_names(struct kunit *test)
{
	static const char *const names[] = {
		"modern_depth", "hash_slots", "max_interval", "hash_vec_keep",
	};
	unsigned int i;

	KUNIT_ASSERT_GE(test, twheel_nr_engine_params, ARRAY_SIZE(names));
	for (i = 0; i < ARRAY_SIZE(names); i++)
		KUNIT_EXPECT_STREQ(test, twheel_engine_params[i].name, names[i]);
}

static struct kunit_case tw_params_cases[] = {
	KUNIT_CASE(params_defaults),
	KUNIT_CASE(params_range_edges),
	KUNIT_CASE(params_offsets),
	KUNIT_CASE(params_first_refused),
	KUNIT_CASE(params_names),
	{}
};

static struct kunit_suite tw_params_suite = {
	.name = "twheel_params",
	.test_cases = tw_params_cases,
};

kunit_test_suite(tw_params_suite);

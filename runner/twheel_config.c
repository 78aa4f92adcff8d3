// SPDX-License-Identifier: GPL-2.0
/*
 * twheel runner layer, configuration: the module's parameters, as insmod
 * gave them, checked and turned into the runners' struct tw_config and the
 * mask of runners engines= names (the runners' names and ids live in this
 * layer).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/bitops.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "engines/params.h"
#include "runner/twheel_state.h"

/*
 * engines=: a comma-separated list of runner names into a mask; "all".
 * named: the runners named one by one, "all" aside.
 */
static int tw_parse_engine_param(const char *list, unsigned long *mask,
				 unsigned long *named)
{
	char *buf, *p, *tok;
	int i, ret = 0;

	buf = kstrdup(list, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	*mask = 0;
	*named = 0;
	p = buf;
	while ((tok = strsep(&p, ",")) != NULL) {
		tok = strim(tok);
		if (!*tok)
			continue;
		if (!strcmp(tok, "all")) {
			*mask |= BIT(TWHEEL_NR_RUNNERS) - 1;
			continue;
		}
		i = match_string(twheel_runner_names, TWHEEL_NR_RUNNERS, tok);
		if (i < 0) {
			pr_warn("engines=: unknown '%s' (" TW_ENGINE_NAMES
				",timer_list,hrtimer,shadow,all)\n",
				tok);
			ret = -EINVAL;
			break;
		}
		*mask |= BIT(i);
		*named |= BIT(i);
	}
	kfree(buf);
	if (!ret && !*mask) {
		pr_warn("engines= names no engine\n");
		ret = -EINVAL;
	}
	return ret;
}

/*
 * The engines' parameters (engines/params.h) in range, or -EINVAL with a
 * warning naming the first one that is not.
 */
static int tw_engine_params_ok(const struct twheel_config *ec)
{
	const struct twheel_param *bad = twheel_config_check(ec);
	unsigned int v;

	if (!bad)
		return 0;
	v = twheel_param_get(bad, ec);
	if (bad->pow2)
		pr_warn("%s=%u is not a power of two in %u..%u\n", bad->name,
			v, bad->min, bad->max);
	else
		pr_warn("%s=%u is out of range (%u..%u)\n", bad->name, v,
			bad->min, bad->max);
	return -EINVAL;
}

/**
 * tw_config_parse() - check the module's parameters and make the config
 * @mp: the parameters, as insmod gave them
 * @cfg: filled in on success: every member; the engines' clock offset puts
 *	their wrap @mp->wrap_secs seconds from now (0: none)
 * @mask: on success, the runners engines= names
 * @nohz: on success, whether tick=nohz (else tick=periodic)
 *
 * Checks one parameter after the other, the engines' first (in the order
 * of engines/params.h), then the others in the order of struct
 * tw_modparams, and refuses the first out of range with a warning naming
 * it. Process context (module init): allocates.
 *
 * Return: 0, -EINVAL (a parameter out of range, logged) or -ENOMEM.
 */
int tw_config_parse(const struct tw_modparams *mp, struct tw_config *cfg,
		    unsigned long *mask, bool *nohz)
{
	unsigned long named;
	int ret;

	ret = tw_engine_params_ok(&mp->engine);
	if (ret)
		return ret;
	*nohz = !strcmp(mp->tick, "nohz");
	if (!*nohz && strcmp(mp->tick, "periodic")) {
		pr_warn("tick=%s: periodic or nohz\n", mp->tick);
		return -EINVAL;
	}
	if (mp->budget > TWHEEL_MAX_BUDGET) {
		pr_warn("budget=%u is out of range (0..%u)\n", mp->budget,
			TWHEEL_MAX_BUDGET);
		return -EINVAL;
	}
	if (!mp->tick_jiffies || mp->tick_jiffies > HZ) {
		pr_warn("tick_jiffies=%u is out of range (1..%d)\n",
			mp->tick_jiffies, HZ);
		return -EINVAL;
	}
	if (mp->wrap_secs > 86400) {
		pr_warn("wrap_secs=%u is out of range (0..86400)\n",
			mp->wrap_secs);
		return -EINVAL;
	}
	ret = tw_parse_engine_param(mp->engines, mask, &named);
	if (ret)
		return ret;
	if (mp->percpu > 1) {
		pr_warn("percpu=%u: 0 (one instance an engine) or 1 (one a CPU)\n",
			mp->percpu);
		return -EINVAL;
	}
	if (mp->percpu && (named & BIT(TWHEEL_SHADOW))) {
		pr_warn("percpu=1 runs no shadow: not with engines=...,shadow\n");
		return -EINVAL;
	}
	if (mp->pull > 1) {
		pr_warn("pull=%u: 0 (each CPU wakes for its own timers) or 1 (CPUs awake expire those of CPUs asleep)\n",
			mp->pull);
		return -EINVAL;
	}
	/* engines=all with percpu=1: every runner but the shadow */
	if (mp->percpu)
		*mask &= ~BIT(TWHEEL_SHADOW);
	cfg->percpu = mp->percpu;
	cfg->engine = mp->engine;
	cfg->tick_jiffies = mp->tick_jiffies;
	/* engine time = ULONG_MAX + 1 (that is, 0) wrap_secs from now */
	cfg->clock_offset = mp->wrap_secs ?
		0UL - jiffies - (unsigned long)mp->wrap_secs * HZ : 0;
	return 0;
}

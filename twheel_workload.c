// SPDX-License-Identifier: GPL-2.0
/*
 * twheel workloads: their parameters, the control-file parser and a
 * counter-based generator. Every random choice is a pure function of
 * (seed, timer, arm number) or (seed, tick, op number), so the same
 * workload makes the same choices on every engine however differently the
 * engines time their callbacks.
 */
#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/string.h>
#include <linux/errno.h>
#include <linux/bitops.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include "twheel.h"
#include "twheel_workload.h"

const char *const twheel_wl_names[TWHEEL_WL_NR] = {
	[TWHEEL_WL_TIMEOUTS]	= "timeouts",
	[TWHEEL_WL_EXPIRING]	= "expiring",
	[TWHEEL_WL_LONG]	= "long",
	[TWHEEL_WL_BURST]	= "burst",
	[TWHEEL_WL_MIXED]	= "mixed",
};
EXPORT_SYMBOL_GPL(twheel_wl_names);

const char *const twheel_runner_names[TWHEEL_NR_RUNNERS] = {
	[TWHEEL_CLASSIC]	= "classic",
	[TWHEEL_MODERN]		= "modern",
	[TWHEEL_REFERENCE]	= "reference",
	[TWHEEL_TIMER_LIST]	= "timer_list",
	[TWHEEL_HRTIMER]	= "hrtimer",
};
EXPORT_SYMBOL_GPL(twheel_runner_names);

void twheel_params_default(enum twheel_wl_type type, struct twheel_params *p)
{
	memset(p, 0, sizeof(*p));
	p->type = type;
	p->seed = 1;
	p->duration = 10;
	switch (type) {
	case TWHEEL_WL_TIMEOUTS:
		/* Each timer is touched every ~10 ticks, long before expiry. */
		p->count = 10000;
		p->min = 25;
		p->max = 250;
		p->cancel = 50;
		p->ops = 1000;
		break;
	case TWHEEL_WL_EXPIRING:
		p->count = 10000;
		p->min = 1;
		p->max = 64;
		break;
	case TWHEEL_WL_LONG:
		p->count = 10000;
		p->min = 256;
		p->max = 1U << 20;
		break;
	case TWHEEL_WL_BURST:
		/* One tv2 slot / one level-2 bucket, away from its edges. */
		p->count = 100000;
		p->min = 1000;
		p->max = 1000;
		break;
	default:
		/*
		 * The envelope of the classes' own ranges (tw_range): each
		 * class keeps its named workload's range unless min= or
		 * max= is given.
		 */
		p->count = 20000;
		p->min = 1;
		p->max = 1U << 20;
		p->cancel = 50;
		p->ops = 1000;
		break;
	}
}
EXPORT_SYMBOL_GPL(twheel_params_default);

/* A 64-bit mixing function (the finaliser of splitmix64). */
static u64 tw_mix(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static u64 tw_rand3(u64 seed, u64 a, u64 b)
{
	return tw_mix(seed ^ tw_mix(a ^ tw_mix(b)));
}

/* The class a timer of a mixed workload belongs to. */
static enum twheel_wl_type tw_class(const struct twheel_params *p, u32 id)
{
	if (p->type != TWHEEL_WL_MIXED)
		return p->type;
	switch (id % 10) {
	case 0 ... 5:
		return TWHEEL_WL_TIMEOUTS;
	case 6 ... 7:
		return TWHEEL_WL_EXPIRING;
	default:
		return TWHEEL_WL_LONG;
	}
}

/*
 * The delta range of class c's timers. A workload of one class uses [min,
 * max]. The classes of a mixed workload use their named workloads' default
 * ranges, timeouts 25..250, expiring 1..64, long 256..2^20, as long as
 * min= is not given; with min= the timeouts span min..10*min, the expiring
 * ones min..min+63 and the long ones max(256, min)..max. Every range is cut
 * at max (mixed's default max is 2^20, the long class's own).
 */
static void tw_range(const struct twheel_params *p, enum twheel_wl_type c,
		     u32 *lo, u32 *hi)
{
	bool min_given = p->set & BIT(TWHEEL_KEY_MIN);
	u64 l, h;

	*lo = p->min;
	*hi = p->max;
	if (p->type != TWHEEL_WL_MIXED)
		return;
	switch (c) {
	case TWHEEL_WL_TIMEOUTS:
		l = min_given ? p->min : 25;
		h = l * 10;
		break;
	case TWHEEL_WL_EXPIRING:
		l = min_given ? p->min : 1;
		h = l + 63;
		break;
	default:
		l = max(256U, p->min);
		h = p->max;
		break;
	}
	*hi = min_t(u64, h, p->max);
	*lo = min_t(u64, l, *hi);
}

/* The delta of timer id's gen-th arming, within its class's range. */
u32 twheel_wl_delta(const struct twheel_params *p, u32 id, u32 gen)
{
	u32 lo, hi;

	tw_range(p, tw_class(p, id), &lo, &hi);
	return lo + tw_rand3(p->seed, id, gen) % ((u64)hi - lo + 1);
}
EXPORT_SYMBOL_GPL(twheel_wl_delta);

/* Whether timer id arms itself again when it runs. */
bool twheel_wl_rearms(const struct twheel_params *p, u32 id)
{
	return tw_class(p, id) != TWHEEL_WL_BURST;
}
EXPORT_SYMBOL_GPL(twheel_wl_rearms);

/* The j-th activity op of a tick (tick counts from the start, 0 first). */
void twheel_wl_op(const struct twheel_params *p, u64 tick, u32 j,
		  struct twheel_op *op)
{
	u64 r = tw_rand3(p->seed, tick | (1ULL << 63), j);

	op->id = (u32)(r >> 32) % p->count;
	op->cancel = (u32)r % 100 < p->cancel;
	/*
	 * In a mixed workload only the timeout class sees activity: an op
	 * that picked another class's timer goes to the first of its ten.
	 * A workload of one class spreads its ops over every timer.
	 */
	if (p->type == TWHEEL_WL_MIXED &&
	    tw_class(p, op->id) != TWHEEL_WL_TIMEOUTS)
		op->id -= op->id % 10;
}
EXPORT_SYMBOL_GPL(twheel_wl_op);

#define WHY(...) snprintf(why, why_len, __VA_ARGS__)

static int tw_parse_u32(const char *key, const char *val, u32 lo, u32 hi,
			u32 *out, char *why, size_t why_len)
{
	u32 v;

	if (kstrtou32(val, 0, &v)) {
		WHY("%s=%s is not a number from %u to %u", key, val, lo, hi);
		return -EINVAL;
	}
	if (v < lo || v > hi) {
		WHY("%s=%u is out of range [%u, %u]", key, v, lo, hi);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int tw_parse_engines(char *val, u32 *mask, char *why, size_t why_len)
{
	char *tok;
	int i;

	*mask = 0;
	while ((tok = strsep(&val, ",")) != NULL) {
		i = match_string(twheel_runner_names, TWHEEL_NR_RUNNERS, tok);
		if (i < 0) {
			WHY("engines=: unknown engine '%s'", tok);
			return -EINVAL;
		}
		*mask |= BIT(i);
	}
	return 0;
}

static const char *const tw_keys[TWHEEL_KEY_NR] = {
	[TWHEEL_KEY_COUNT]	= "count",
	[TWHEEL_KEY_SEED]	= "seed",
	[TWHEEL_KEY_MIN]	= "min",
	[TWHEEL_KEY_MAX]	= "max",
	[TWHEEL_KEY_CANCEL]	= "cancel",
	[TWHEEL_KEY_OPS]	= "ops",
	[TWHEEL_KEY_DURATION]	= "duration",
	[TWHEEL_KEY_ENGINES]	= "engines",
};

static int tw_parse_val(enum twheel_key k, char *val, struct twheel_params *p,
			char *why, size_t why_len)
{
	const char *key = tw_keys[k];

	switch (k) {
	case TWHEEL_KEY_COUNT:
		return tw_parse_u32(key, val, 1, TWHEEL_MAX_TIMERS, &p->count, why, why_len);
	case TWHEEL_KEY_SEED:
		if (kstrtou64(val, 0, &p->seed)) {
			WHY("seed=%s is not a 64-bit number", val);
			return -EINVAL;
		}
		return 0;
	case TWHEEL_KEY_MIN:
		return tw_parse_u32(key, val, 1, TWHEEL_MAX_DELTA, &p->min, why, why_len);
	case TWHEEL_KEY_MAX:
		return tw_parse_u32(key, val, 1, TWHEEL_MAX_DELTA, &p->max, why, why_len);
	case TWHEEL_KEY_CANCEL:
		return tw_parse_u32(key, val, 0, 100, &p->cancel, why, why_len);
	case TWHEEL_KEY_OPS:
		return tw_parse_u32(key, val, 0, TWHEEL_MAX_OPS, &p->ops, why, why_len);
	case TWHEEL_KEY_DURATION:
		return tw_parse_u32(key, val, 0, TWHEEL_MAX_DURATION, &p->duration,
				    why, why_len);
	default:
		return tw_parse_engines(val, &p->engines, why, why_len);
	}
}

/* One key=value; records in p->set that the key was given. */
static int tw_parse_kv(char *kv, struct twheel_params *p, char *why,
		       size_t why_len)
{
	char *key = strsep(&kv, "=");
	int k, ret;

	if (!kv || !*kv) {
		WHY("'%s' is not key=value", key);
		return -EINVAL;
	}
	k = match_string(tw_keys, TWHEEL_KEY_NR, key);
	if (k < 0) {
		WHY("unknown key '%s' (count seed min max cancel ops duration engines)",
		    key);
		return -EINVAL;
	}
	ret = tw_parse_val(k, kv, p, why, why_len);
	if (!ret)
		p->set |= BIT(k);
	return ret;
}

/*
 * Parses one control line into cmd; the line is modified. On error returns
 * -EINVAL with a one-line reason in why, and cmd is not to be used.
 */
int twheel_parse_cmd(char *line, struct twheel_cmd *cmd, char *why,
		     size_t why_len)
{
	static const char *const verbs[] = { "load", "start", "stop", "reset",
					     "unload", "bench", "clear" };
	char *verb, *tok;
	int i, ret;

	line = strim(line);
	verb = strsep(&line, " \t");
	i = match_string(verbs, ARRAY_SIZE(verbs), verb);
	if (i < 0) {
		WHY("unknown verb '%s' (load start stop reset unload bench clear)",
		    verb);
		return -EINVAL;
	}
	cmd->verb = i;
	if (cmd->verb != TWHEEL_CMD_LOAD) {
		if (line && *skip_spaces(line)) {
			WHY("'%s' takes no arguments", verb);
			return -EINVAL;
		}
		return 0;
	}
	do {
		tok = line ? strsep(&line, " \t") : NULL;
	} while (tok && !*tok);
	i = tok ? match_string(twheel_wl_names, TWHEEL_WL_NR, tok) : -EINVAL;
	if (i < 0) {
		WHY("load needs a workload: timeouts expiring long burst mixed");
		return -EINVAL;
	}
	twheel_params_default(i, &cmd->p);
	while (line && (tok = strsep(&line, " \t")) != NULL) {
		if (!*tok)
			continue;
		ret = tw_parse_kv(tok, &cmd->p, why, why_len);
		if (ret)
			return ret;
	}
	if (cmd->p.min > cmd->p.max) {
		WHY("min=%u is above max=%u", cmd->p.min, cmd->p.max);
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(twheel_parse_cmd);

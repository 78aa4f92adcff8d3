// SPDX-License-Identifier: GPL-2.0
/*
 * twheel: the control-file language. One line a write: a verb, and for
 * load a workload with its key=value pairs, each checked against its
 * limit (twheel_workload.h). Pure, like the workloads: the KUnit module
 * tests it directly.
 */
#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/string.h>
#include <linux/errno.h>
#include <linux/bitops.h>
#include <linux/ctype.h>
#include <linux/stddef.h>
#include "runner/twheel_workload.h"

#define WHY(...) snprintf(why, why_len, __VA_ARGS__)

/*
 * Numbers are decimal, or hex after 0x: a leading zero is not octal, so
 * count=010 is ten, as the levels file and every read-out count.
 */
static unsigned int tw_base(const char *val)
{
	return val[0] == '0' && _tolower(val[1]) == 'x' ? 16 : 10;
}

static int tw_parse_u32(const char *key, const char *val, u32 lo, u32 hi,
			u32 *out, char *why, size_t why_len)
{
	u32 v;

	if (kstrtou32(val, tw_base(val), &v)) {
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
	if (!strcmp(val, "all"))	/* every loaded one, as no engines= */
		return 0;
	while ((tok = strsep(&val, ",")) != NULL) {
		if (!*tok)		/* as insmod's engines= */
			continue;
		i = match_string(twheel_runner_names, TWHEEL_NR_RUNNERS, tok);
		if (i < 0) {
			WHY("engines=: unknown engine '%s'", tok);
			return -EINVAL;
		}
		*mask |= BIT(i);
	}
	if (!*mask) {
		WHY("engines=: no engine named (all, or names split by commas)");
		return -EINVAL;
	}
	return 0;
}

/*
 * cpus=all, cpus=N (the first N online CPUs) or cpus=LIST, CPU numbers and
 * ranges split by commas as the kernel writes CPU lists (0-1,3): a list
 * has a comma or a dash (one CPU by number: cpus=3-3).
 */
static int tw_parse_cpus(char *val, struct twheel_params *p, char *why,
			 size_t why_len)
{
	unsigned int a, b;
	char *tok, *hi;

	p->cpus = 0;
	p->ncpus = 0;
	if (!strcmp(val, "all")) {
		p->ncpus = TWHEEL_CPUS_ALL;
		return 0;
	}
	if (!strpbrk(val, ",-"))
		return tw_parse_u32("cpus", val, 1, TWHEEL_MAX_CPUS, &p->ncpus,
				    why, why_len);
	while ((tok = strsep(&val, ",")) != NULL) {
		if (!*tok)
			continue;
		hi = strchr(tok, '-');
		if (hi)
			*hi++ = '\0';
		if (kstrtouint(tok, 10, &a) || (hi && kstrtouint(hi, 10, &b)) ||
		    (hi ? b : a) >= TWHEEL_MAX_CPUS || (hi && b < a)) {
			WHY("cpus=: '%s%s%s' is not a CPU or a range of CPUs below %u",
			    tok, hi ? "-" : "", hi ? hi : "", TWHEEL_MAX_CPUS);
			return -EINVAL;
		}
		p->cpus |= GENMASK_ULL(hi ? b : a, a);
	}
	if (!p->cpus) {
		WHY("cpus=: no CPU named (all, a count, or a list such as 0-1,3)");
		return -EINVAL;
	}
	return 0;
}

#define TW_KEY_LIST "count seed min max cancel ops duration engines force budget slack cpus remote pinned on deferrable"

static const char *const tw_keys[TWHEEL_KEY_NR] = {
	[TWHEEL_KEY_COUNT]	= "count",
	[TWHEEL_KEY_SEED]	= "seed",
	[TWHEEL_KEY_MIN]	= "min",
	[TWHEEL_KEY_MAX]	= "max",
	[TWHEEL_KEY_CANCEL]	= "cancel",
	[TWHEEL_KEY_OPS]	= "ops",
	[TWHEEL_KEY_DURATION]	= "duration",
	[TWHEEL_KEY_ENGINES]	= "engines",
	[TWHEEL_KEY_FORCE]	= "force",
	[TWHEEL_KEY_BUDGET]	= "budget",
	[TWHEEL_KEY_SLACK]	= "slack",
	[TWHEEL_KEY_CPUS]	= "cpus",
	[TWHEEL_KEY_REMOTE]	= "remote",
	[TWHEEL_KEY_PINNED]	= "pinned",
	[TWHEEL_KEY_ON]		= "on",
	[TWHEEL_KEY_DEFERRABLE]	= "deferrable",
};

/* A key whose value is one u32 of struct twheel_params: its range, its place. */
struct tw_u32_key {
	u32 lo;
	u32 hi;
	size_t off;
};

#define TW_U32_KEY(k, l, h, field)					\
	[TWHEEL_KEY_##k] = { .lo = l, .hi = h,				\
			     .off = offsetof(struct twheel_params, field) }

/* Every key but seed, cpus and engines (hi 0: not one of these). */
static const struct tw_u32_key tw_u32_keys[TWHEEL_KEY_NR] = {
	TW_U32_KEY(COUNT, 1, TWHEEL_MAX_TIMERS, count),
	TW_U32_KEY(MIN, 1, TWHEEL_MAX_DELTA, min),
	TW_U32_KEY(MAX, 1, TWHEEL_MAX_DELTA, max),
	TW_U32_KEY(CANCEL, 0, 100, cancel),
	TW_U32_KEY(OPS, 0, TWHEEL_MAX_OPS, ops),
	TW_U32_KEY(DURATION, 0, TWHEEL_MAX_DURATION, duration),
	TW_U32_KEY(FORCE, 0, 1, force),
	TW_U32_KEY(BUDGET, 0, TWHEEL_MAX_BUDGET, budget),
	TW_U32_KEY(SLACK, 0, TWHEEL_MAX_SLACK, slack),
	TW_U32_KEY(REMOTE, 0, TWHEEL_MAX_REMOTE, remote),
	TW_U32_KEY(PINNED, 0, 100, pinned),
	TW_U32_KEY(ON, 0, TWHEEL_MAX_REMOTE, on),
	TW_U32_KEY(DEFERRABLE, 0, 100, deferrable),
};

static int tw_parse_val(enum twheel_key k, char *val, struct twheel_params *p,
			char *why, size_t why_len)
{
	const struct tw_u32_key *u = &tw_u32_keys[k];

	if (u->hi)
		return tw_parse_u32(tw_keys[k], val, u->lo, u->hi,
				    (u32 *)((char *)p + u->off), why, why_len);
	switch (k) {
	case TWHEEL_KEY_SEED:
		if (kstrtou64(val, tw_base(val), &p->seed)) {
			WHY("seed=%s is not a 64-bit number", val);
			return -EINVAL;
		}
		return 0;
	case TWHEEL_KEY_CPUS:
		return tw_parse_cpus(val, p, why, why_len);
	default:
		return tw_parse_engines(val, &p->engines, why, why_len);
	}
}

/* The keys a shadow load takes: the others shape timers it does not arm. */
#define TW_SHADOW_KEYS	(BIT(TWHEEL_KEY_COUNT) | BIT(TWHEEL_KEY_DURATION) | \
			 BIT(TWHEEL_KEY_ENGINES) | BIT(TWHEEL_KEY_FORCE) | \
			 BIT(TWHEEL_KEY_BUDGET))

static int tw_parse_shadow(const struct twheel_params *p, char *why,
			   size_t why_len)
{
	unsigned long extra = p->set & ~TW_SHADOW_KEYS;

	if (extra) {
		WHY("shadow takes count duration engines force budget, not %s=",
		    tw_keys[__ffs(extra)]);
		return -EINVAL;
	}
	if (p->count > TWHEEL_MAX_SHADOWS) {
		WHY("shadow: count=%u is above %lu real timers", p->count,
		    TWHEEL_MAX_SHADOWS);
		return -EINVAL;
	}
	return 0;
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
		WHY("unknown key '%s' (%s)", key, TW_KEY_LIST);
		return -EINVAL;
	}
	ret = tw_parse_val(k, kv, p, why, why_len);
	if (!ret)
		p->set |= BIT(k);
	return ret;
}

/**
 * twheel_parse_cmd() - parse one line written to the control file
 * @line: the line, NUL-terminated; it is modified
 * @cmd: filled in on success
 * @why: where a reason goes on error
 * @why_len: @why's size; the reason is truncated to fit
 *
 * Parses one control line into @cmd: a verb (load start stop reset unload
 * bench clear), surrounding blanks ignored; a byte that is neither a blank
 * nor printable ASCII (a second line among them) is refused. Only load
 * takes arguments, the other verbs refuse any: a workload name
 * (twheel_wl_names), then
 * key=value pairs (count seed min max cancel ops duration engines force
 * budget slack cpus remote pinned on deferrable)
 * separated by blanks, each checked against its limit. @cmd->p gets the
 * workload's defaults (twheel_params_default()) with the given keys on
 * top, recorded in @cmd->p.set; a shadow load's keys but count duration
 * engines force budget are refused, and its count above
 * TWHEEL_MAX_SHADOWS; so is min above max. For the other verbs @cmd->p is left
 * alone.
 *
 * Return: 0, or -EINVAL with a one-line reason in @why, and @cmd is not to
 * be used.
 */
int twheel_parse_cmd(char *line, struct twheel_cmd *cmd, char *why,
		     size_t why_len)
{
	static const char *const verbs[] = { "load", "start", "stop", "reset",
					     "unload", "bench", "clear" };
	char *verb, *tok;
	int i, ret;

	line = strim(line);
	/*
	 * One command a write, in printable ASCII and blanks: what the reasons
	 * below quote of the line reaches the kernel log as it is, so a
	 * newline or an escape in it could forge a log line of its own.
	 */
	for (i = 0; line[i]; i++) {
		if (line[i] == '\t' || (line[i] >= ' ' && line[i] <= '~'))
			continue;
		WHY("byte 0x%02x at offset %d is not printable ASCII (one command a write)",
		    (u8)line[i], i);
		return -EINVAL;
	}
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
		WHY("load needs a workload: timeouts expiring long burst mixed shadow");
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
	if (cmd->p.type == TWHEEL_WL_SHADOW)
		return tw_parse_shadow(&cmd->p, why, why_len);
	if (cmd->p.min > cmd->p.max) {
		WHY("min=%u is above max=%u%s", cmd->p.min, cmd->p.max,
		    !(cmd->p.set & BIT(TWHEEL_KEY_MAX)) ?
		    " (the workload's default: give max=)" :
		    !(cmd->p.set & BIT(TWHEEL_KEY_MIN)) ?
		    " (min= is the workload's default: give min=)" : "");
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(twheel_parse_cmd);

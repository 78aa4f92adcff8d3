// SPDX-License-Identifier: GPL-2.0
/*
 * twheel workloads: their parameters, a counter-based generator and the
 * demand model (twheel_parse.c parses the control file). Every random
 * choice is a pure function of (seed, timer, arm number) or (seed, tick,
 * op number), so the same workload makes the same choices on every engine
 * however differently the engines time their callbacks.
 */
#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/string.h>
#include <linux/errno.h>
#include <linux/bitops.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include "twheel.h"
#include "runner/twheel_workload.h"

/* The workloads' names, by enum twheel_wl_type, as a load line gives them. */
const char *const twheel_wl_names[TWHEEL_WL_NR] = {
	[TWHEEL_WL_TIMEOUTS]	= "timeouts",
	[TWHEEL_WL_EXPIRING]	= "expiring",
	[TWHEEL_WL_LONG]	= "long",
	[TWHEEL_WL_BURST]	= "burst",
	[TWHEEL_WL_MIXED]	= "mixed",
	[TWHEEL_WL_SHADOW]	= "shadow",
};
EXPORT_SYMBOL_GPL(twheel_wl_names);

/*
 * The runners' names as engines= (the module's and a load line's) gives
 * them: the registry's engines (engines/list.h), then the kernel's timers.
 */
const char *const twheel_runner_names[TWHEEL_NR_RUNNERS] = {
#define TW_NAME_AT(name, NAME, ...) \
	[TWHEEL_##NAME] = #name
#define TWHEEL_ENGINE(name, NAME, path, exact)	TW_NAME_AT(name, NAME, path, exact),
#include "engines/list.h"
#undef TWHEEL_ENGINE
	[TWHEEL_TIMER_LIST]	= "timer_list",
	[TWHEEL_HRTIMER]	= "hrtimer",
	[TWHEEL_SHADOW]		= "shadow",
};
EXPORT_SYMBOL_GPL(twheel_runner_names);

/**
 * twheel_params_default() - a workload's default parameters
 * @type: the workload
 * @p: filled in, every member
 *
 * Seed 1 and 10 s of activity for all; the count, delta range, cancel
 * share and ops a tick of @type (a @type past the named ones gets mixed's).
 * The shadow workload arms nothing itself: its count is the real timers it
 * can mirror at once, its ops 0, its range 1..1 (unused).
 * @p->engines is 0 (every loaded runner), @p->set 0 (no key given),
 * @p->force 0, @p->budget 0 (no limit) and @p->slack 0 (exact armings).
 */
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
	case TWHEEL_WL_SHADOW:
		p->count = 4096;
		p->min = 1;
		p->max = 1;
		break;
	default:
		/*
		 * The envelope of the classes' own ranges (tw_range): each
		 * class keeps its named workload's range unless min= or
		 * max= is given.
		 */
		/*
		 * count and ops at half the other workloads': the same
		 * touches per timer as 20000 and 1000, at about half the
		 * timer events a second, so that the default load fits what
		 * admission measures of an emulated CPU (the test kernel's
		 * guest refused 20000/1000 by about a tenth).
		 */
		p->count = 10000;
		p->min = 1;
		p->max = 1U << 20;
		p->cancel = 50;
		p->ops = 500;
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

/**
 * twheel_wl_delta() - the delta of one arming of a workload's timer
 * @p: the workload
 * @id: the timer, an index below @p->count
 * @gen: which arming of it (the runners count from 0, the first at start)
 *
 * Uniform in the range of the timer's class: [@p->min, @p->max] for a
 * workload of one class; a mixed workload's classes keep their named
 * workloads' ranges unless min= is given, each cut at @p->max. A pure
 * function of (@p->seed, @id, @gen), so every runner draws the same.
 *
 * Return: the delta, jiffies.
 */
u32 twheel_wl_delta(const struct twheel_params *p, u32 id, u32 gen)
{
	u32 lo, hi;

	tw_range(p, tw_class(p, id), &lo, &hi);
	return lo + tw_rand3(p->seed, id, gen) % ((u64)hi - lo + 1);
}
EXPORT_SYMBOL_GPL(twheel_wl_delta);

/**
 * twheel_wl_slack() - how much later than its delta an arming may run
 * @p: the workload
 * @delta: the arming's delta, jiffies
 *
 * Return: @delta * @p->slack / 100, rounded down: the arming may run
 * anywhere from @delta to @delta plus this many jiffies on.
 */
u32 twheel_wl_slack(const struct twheel_params *p, u32 delta)
{
	return div_u64((u64)delta * p->slack, 100);
}
EXPORT_SYMBOL_GPL(twheel_wl_slack);

/**
 * twheel_wl_rearms() - whether a workload's timer re-arms when it runs
 * @p: the workload
 * @id: the timer, an index below @p->count
 *
 * Return: true if timer @id arms itself again (with a fresh
 * twheel_wl_delta()) when it runs: every class but burst's (and the
 * shadow's, whose timers the kernel's traffic arms).
 */
bool twheel_wl_rearms(const struct twheel_params *p, u32 id)
{
	return tw_class(p, id) != TWHEEL_WL_BURST &&
	       p->type != TWHEEL_WL_SHADOW;
}
EXPORT_SYMBOL_GPL(twheel_wl_rearms);

/**
 * twheel_wl_op() - one activity op of a tick
 * @p: the workload; @p->count must not be 0
 * @tick: the tick, counted from the start (0 first)
 * @j: the op's number within the tick, below @p->ops
 * @op: filled in
 *
 * The @j-th op of @tick picks a timer uniformly among @p->count, and
 * cancels with probability @p->cancel %. In a mixed workload a pick of a
 * timer outside the timeouts class goes to the first of its ten, a
 * timeouts timer. A pure function of (@p->seed, @tick, @j), so every
 * runner sees the same ops.
 */
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

/**
 * twheel_wl_cpu_index() - which of a workload's CPUs owns a timer
 * @p: the workload; @p->count must not be 0
 * @id: the timer, an index below @p->count
 * @n: the CPUs the workload is spread over, at least 1
 *
 * Timers are dealt out in blocks of consecutive ids, @p->count / @n each
 * (rounded), so that every CPU owns the same mix of a mixed workload's
 * classes and the same share of the activity ops (twheel_wl_op() picks
 * uniformly, and a mixed workload's picks stay within their ten).
 *
 * Return: the owner's index among the @n CPUs, from 0 to @n - 1.
 */
u32 twheel_wl_cpu_index(const struct twheel_params *p, u32 id, u32 n)
{
	return div_u64((u64)id * n, p->count);
}
EXPORT_SYMBOL_GPL(twheel_wl_cpu_index);

/* Salt of the remote choices: not the draws of twheel_wl_op(). */
#define TW_REMOTE_SALT	0x72656d6f7465ULL

/**
 * twheel_wl_remote() - whether a CPU's activity op goes to another CPU's timer
 * @p: the workload (remote=); @p->count must not be 0
 * @tick: the op's tick
 * @j: the op's number within the tick
 * @idx: the index, among the workload's CPUs, of the CPU that runs the op
 *	(the owner of @op->id's block)
 * @n: the CPUs the workload is spread over
 * @op: the op (twheel_wl_op()); its @id replaced if it goes remote
 *
 * With probability @p->remote %, the op picks instead a timer uniformly in
 * the block (twheel_wl_cpu_index()) of one of the other @n - 1 CPUs, that
 * one uniformly too. In a mixed workload, as twheel_wl_op(), a pick outside
 * the timeouts class goes to the first of its ten (or, where that falls
 * out of the block, to the block's first such timer). A block too small
 * to hold one leaves the op where it was. A pure function of (@p->seed,
 * @tick, @j, @idx, @n), like every choice of the workload.
 *
 * Return: true if @op->id was replaced by a timer of another CPU's block.
 */
bool twheel_wl_remote(const struct twheel_params *p, u64 tick, u32 j,
		      u32 idx, u32 n, struct twheel_op *op)
{
	u32 t, lo, hi, id;
	u64 r;

	if (!p->remote || n < 2)
		return false;
	r = tw_rand3(p->seed ^ TW_REMOTE_SALT, tick, j);
	if ((u32)r % 100 >= p->remote)
		return false;
	r = tw_mix(r);
	t = (idx + 1 + (u32)r % (n - 1)) % n;
	/* block t: the ids whose twheel_wl_cpu_index() is t */
	lo = DIV_ROUND_UP_ULL((u64)t * p->count, n);
	hi = DIV_ROUND_UP_ULL((u64)(t + 1) * p->count, n);
	if (lo >= hi)
		return false;
	id = lo + (u32)(r >> 32) % (hi - lo);
	if (p->type == TWHEEL_WL_MIXED && tw_class(p, id) != TWHEEL_WL_TIMEOUTS) {
		id -= id % 10;
		if (id < lo)
			id = roundup(lo, 10);
		if (id >= hi)
			return false;
	}
	op->id = id;
	return true;
}
EXPORT_SYMBOL_GPL(twheel_wl_remote);

/**
 * twheel_wl_remote_stays() - whether an op from another CPU leaves its timer
 * @cancel: the op deletes the timer if it is pending (else re-arms it)
 * @pending: the timer is pending in the instance it lives in
 * @running: that instance runs the timer's callback right now
 * @same_place: the re-arm's expiry is the pending timer's, or falls in the
 *	bucket it is filed in (the instance's engine says, at its clock)
 *
 * The rules of Linux 6.12's timer_delete() and __mod_timer()
 * (kernel/time/timer.c) for a timer another CPU's base holds: a delete is
 * done on the owner's base; a re-arm of a pending timer to the same
 * expiry does nothing, and one into the bucket it is in updates its
 * expiry there; any other re-arm moves the timer to the calling CPU's
 * base, unless that timer's callback is running on its base. TIMER_PINNED
 * changes none of this (only which of the calling CPU's bases).
 *
 * Return: true if the op is done in the instance the timer lives in, false
 * if it is a re-arm that moves the timer into the op's own instance.
 */
bool twheel_wl_remote_stays(bool cancel, bool pending, bool running,
			    bool same_place)
{
	return (cancel && pending) || running || (pending && same_place);
}
EXPORT_SYMBOL_GPL(twheel_wl_remote_stays);

/* Salt of the on= choices: neither twheel_wl_op()'s nor the remote ones. */
#define TW_ON_SALT	0x6f6e2d637075ULL

/**
 * twheel_wl_on() - whether a CPU's activity op arms its timer on another CPU
 * @p: the workload (on=)
 * @tick: the op's tick
 * @j: the op's number within the tick
 * @idx: the index, among the workload's CPUs, of the CPU that runs the op
 * @n: the CPUs the workload is spread over
 * @op: the op (twheel_wl_op(), after twheel_wl_remote()): a cancel is never
 *	aimed anywhere (it deletes, or re-arms an idle timer where it is)
 * @target: set to the index of the CPU aimed at, another than @idx, each
 *	of the other @n - 1 uniformly
 *
 * With probability @p->on %, a re-arming op is an add_timer_on()-style
 * arm on another CPU. A pure function of (@p->seed, @tick, @j, @idx, @n,
 * @op->cancel).
 *
 * Return: true if the op is aimed at CPU index *@target.
 */
bool twheel_wl_on(const struct twheel_params *p, u64 tick, u32 j, u32 idx,
		  u32 n, const struct twheel_op *op, u32 *target)
{
	u64 r;

	if (!p->on || n < 2 || op->cancel)
		return false;
	r = tw_rand3(p->seed ^ TW_ON_SALT, tick, j);
	if ((u32)r % 100 >= p->on)
		return false;
	*target = (idx + 1 + (u32)tw_mix(r) % (n - 1)) % n;
	return true;
}
EXPORT_SYMBOL_GPL(twheel_wl_on);

/**
 * twheel_wl_on_stays() - whether an on= arm leaves its timer where it is
 * @at_target: the timer lives in the instance of the CPU aimed at already
 * @running: the instance it lives in runs its callback right now
 *
 * Linux 6.12's add_timer_on() (kernel/time/timer.c) moves the timer to the
 * base of the CPU it is given, marked TIMER_MIGRATING in between, and sets
 * TIMER_PINNED: it stays there, whoever calls, until someone re-arms it
 * with mod_timer() from another CPU. twheel arms it there too (a pending
 * timer deleted first, as add_timer_on()'s callers must), except while its
 * callback runs where it lives: add_timer_on() does not look at
 * running_timer, but twheel moves no running timer (its callback's re-arm
 * is done where it runs, as __mod_timer()'s rule keeps it).
 *
 * Return: true if the arm is done where the timer lives, false if it moves
 * the timer to the CPU aimed at.
 */
bool twheel_wl_on_stays(bool at_target, bool running)
{
	return at_target || running;
}
EXPORT_SYMBOL_GPL(twheel_wl_on_stays);

/*
 * The demand model's fixed point: probabilities in Q60 (TW_ONE is 1),
 * durations in ticks in Q30, rates per tick in Q32. Every product and
 * quotient goes through 128 bits.
 */
#define TW_ONE		BIT_ULL(60)
#define TW_TICK		BIT_ULL(30)

static u64 tw_qmul(u64 a, u64 b)
{
	return mul_u64_u64_shr(a, b, 60);
}

/* a * b / c, or U64_MAX where that does not fit (x86's divq would trap). */
static u64 tw_muldiv(u64 a, u64 b, u64 c)
{
	if (!c || mul_u64_u64_shr(a, b, 64) >= c)
		return U64_MAX;
	return mul_u64_u64_div_u64(a, b, c);
}

static u64 tw_qpow(u64 x, u64 n)
{
	u64 r = TW_ONE;

	for (; n; n >>= 1) {
		if (n & 1)
			r = tw_qmul(r, x);
		x = tw_qmul(x, x);
	}
	return r;
}

/* Timers alike for the model: same class, range and share of the ops. */
struct tw_group {
	enum twheel_wl_type class;
	u32 n;			/* timers */
	u32 w;			/* each is picked by an op with chance w/count */
};

/*
 * The model of twheel_wl_demand() for one group: expiries and armings per
 * tick of the whole group, in Q32.
 */
static void tw_group_rates(const struct twheel_params *p,
			   const struct tw_group *g, u64 *exp, u64 *arm)
{
	u64 x, y, h, b, se, so, mean, h_y, pe, len, share, c;
	bool rearms = g->class != TWHEEL_WL_BURST;
	u32 lo, hi, nd;

	*exp = 0;
	*arm = 0;
	if (!g->n)
		return;
	tw_range(p, g->class, &lo, &hi);
	if (!p->ops || !g->w) {
		/* Untouched: a re-arming timer expires every (lo+hi)/2. */
		if (rearms)
			*exp = div64_u64((u64)g->n << 33, (u64)lo + hi);
		*arm = *exp;
		return;
	}
	/* x: a timer is not touched by a tick's ops; h: by what is left of
	 * the tick after a uniformly placed op.
	 */
	x = tw_qpow(TW_ONE - div64_u64((u64)g->w << 60, p->count), p->ops);
	y = TW_ONE - x;
	h = min(tw_muldiv(y, p->count, (u64)p->ops * g->w), TW_ONE);
	/* b: the mean over the deltas of x^(d-1); then the chance that an
	 * arming at expiry (se) or by an op (so) lasts to its expiry.
	 */
	nd = hi - lo + 1;
	b = tw_qmul(tw_qpow(x, lo - 1), TW_ONE - tw_qpow(x, nd));
	b = min(tw_muldiv(tw_muldiv(b, TW_TICK, y), TW_TICK, nd), TW_ONE);
	se = tw_qmul(x, b);
	so = tw_qmul(h, b);
	/* mean: ticks of sum_{k<d} x^k over the deltas; h_y: the ticks a
	 * deleted timer waits for its next op.
	 */
	mean = tw_muldiv(TW_ONE - se, TW_TICK, y);
	h_y = tw_muldiv(h, TW_TICK, y);
	c = tw_muldiv(p->cancel, TW_ONE, 100);
	if (rearms) {
		/* An arming at expiry follows an expiry, one by an op a touch. */
		pe = tw_muldiv(so, TW_ONE, TW_ONE - se + so);
		share = pe;
		len = tw_qmul(pe, tw_qmul(x, mean) +
			      tw_qmul(c, tw_qmul(TW_ONE - se, h_y)));
		len += tw_qmul(TW_ONE - pe, tw_qmul(h, mean) +
			       tw_qmul(c, tw_qmul(TW_ONE - so, h_y)));
	} else {
		/* Every arming is by an op; after expiry the timer waits. */
		share = so;
		len = tw_qmul(h, mean) + tw_qmul(so, tw_muldiv(x, TW_TICK, y)) +
		      tw_qmul(c, tw_qmul(TW_ONE - so, h_y));
	}
	len = max(len, 1ULL);
	*exp = tw_muldiv((u64)g->n << 2, share, len);
	*arm = tw_muldiv((u64)g->n << 2, TW_ONE, len);
}

/* Q32 per tick to a rounded count per second. */
static u64 tw_per_s(u64 q32, unsigned int hz)
{
	return (mul_u64_u64_shr(q32, hz, 31) + 1) >> 1;
}

/**
 * twheel_wl_demand() - what a workload asks of one runner, in closed form
 * @p:	the workload's parameters (as parsed; the ranges as twheel_wl_delta())
 * @hz:	jiffies a second
 * @d:	the answer
 *
 * @d->ops_per_s is @p->ops * @hz. @d->callbacks_per_s is the expected
 * number of expiries a second in the steady state while the activity runs,
 * per class in @d->class_callbacks_per_s (rounded each), and
 * @d->expiry_ppm the expected share, per class, of a timer's armings that
 * end in its expiry (not in a delete or a re-arm by an op). A burst's
 * start expires its @p->count timers once (@d->burst_callbacks), in
 * @p->max - @p->min + 1 jiffies (@d->burst_jiffies): all in one by default.
 *
 * The model. Ticks are jiffies (tick_jiffies=1) and none is missed; the
 * engine expires a jiffy's timers first, then the tick's ops run. A timer
 * armed at jiffy t with delta d expires at t + d, on time. A re-arming
 * timer (every class but burst) re-arms at expiry with a fresh delta,
 * uniform in its class's range [lo, hi]. Each op picks a timer uniformly
 * among the count (in mixed, a pick of another class goes to the timeouts
 * timer first of its ten, which so gets five times the ops of the other
 * timeouts timers: a group of its own); with probability cancel% it deletes
 * the timer if pending, else it re-arms it. So each of a tick's ops misses
 * a timer picked with chance w/count independently: x = (1 - w/count)^ops
 * a tick. An arming at expiry lasts to its expiry with chance x^d; one by
 * an op, taken to sit uniformly among its tick's ops, with chance h *
 * x^(d-1), h = (1 - x) * count / (ops * w) being the mean chance to miss
 * the rest of that tick. Averaged over d: S_E and S_O. Armings at expiry
 * follow expiries, so in the steady state their share is S = S_O / (1 -
 * S_E + S_O), which is also the share of armings that expire. The mean
 * time from an arming to the next follows from the same geometric laws
 * (a deleted timer waits h / (1 - x) ticks for its next op, a burst timer
 * x / (1 - x) after its expiry), and the expiry rate is S over it (renewal
 * reward), times the group's timers. Without ops the rate is 2 / (lo + hi)
 * a tick per re-arming timer, 0 for a burst's.
 *
 * It is a mean. Where the range is narrow the expiries of the first rounds
 * come in waves, and a class far out (long) takes many deltas to get near
 * it: its first round is spread over the whole range, at about half the
 * rate. An engine that runs timers late (the modern wheel's coarse
 * levels) expires fewer. Fixed point (Q60, 128-bit products); KUnit checks
 * it against an exact evaluation and a simulation of the generator.
 */
void twheel_wl_demand(const struct twheel_params *p, unsigned int hz,
		      struct twheel_demand *d)
{
	struct tw_group g[5];
	u64 exp[TWHEEL_WL_NR] = {}, arm[TWHEEL_WL_NR] = {}, e, a, total = 0;
	u32 m = p->count / 10, rem = p->count % 10;
	unsigned int i, ng = 0;

	memset(d, 0, sizeof(*d));
	d->ops_per_s = (u64)p->ops * hz;
	/* The real traffic is not known ahead: the overload guard watches it. */
	if (p->type == TWHEEL_WL_SHADOW)
		return;
	if (p->type == TWHEEL_WL_BURST) {
		d->burst_callbacks = p->count;
		d->burst_jiffies = p->max - p->min + 1;
	}
	if (p->type != TWHEEL_WL_MIXED) {
		g[ng++] = (struct tw_group){ p->type, p->count, 1 };
	} else {
		/* ids 10k..10k+5 timeouts, 10k+6..7 expiring, 10k+8..9 long */
		g[ng++] = (struct tw_group){ TWHEEL_WL_TIMEOUTS, m, 5 };
		if (rem)
			g[ng++] = (struct tw_group){ TWHEEL_WL_TIMEOUTS, 1,
						     1 + (rem > 6 ? rem - 6 : 0) };
		g[ng++] = (struct tw_group){ TWHEEL_WL_TIMEOUTS,
					     5 * m + (rem ? min(rem, 6U) - 1 : 0), 1 };
		g[ng++] = (struct tw_group){ TWHEEL_WL_EXPIRING,
					     2 * m + clamp(rem, 6U, 8U) - 6, 0 };
		g[ng++] = (struct tw_group){ TWHEEL_WL_LONG,
					     2 * m + (rem > 8 ? rem - 8 : 0), 0 };
	}
	for (i = 0; i < ng; i++) {
		tw_group_rates(p, &g[i], &e, &a);
		d->timers[g[i].class] += g[i].n;
		exp[g[i].class] += e;
		arm[g[i].class] += a;
		total += e;
	}
	d->callbacks_per_s = tw_per_s(total, hz);
	for (i = 0; i < TWHEEL_WL_NR; i++) {
		d->class_callbacks_per_s[i] = tw_per_s(exp[i], hz);
		if (arm[i])
			d->expiry_ppm[i] = (tw_muldiv(exp[i], 2000000, arm[i]) + 1) >> 1;
		else if (d->timers[i])
			d->expiry_ppm[i] = 1000000;	/* a burst: each once */
	}
}
EXPORT_SYMBOL_GPL(twheel_wl_demand);

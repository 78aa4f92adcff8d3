// SPDX-License-Identifier: GPL-2.0
/*
 * twheel differential fuzzer (libFuzzer). Two instances of one engine of
 * the registry (FZ_ENGINE, its name; one kind and config, one clock, as
 * the module's per-CPU instances) and the reference engine run the same
 * operations on a pool of timers; each timer lives in one instance at a
 * time, and an op migrates it to the other (twheel_detach() there, an arm
 * here: a re-arm from another CPU), while the reference holds every timer.
 * A model of each engine knows, from the specification alone, the jiffy
 * at which every timer must be collected; after every step each engine
 * (both instances) is checked against its model, its structure against
 * its counters, and the instances against what the reference did, each
 * timer in the instance it lives in:
 *  - the exact engines (EXACT in engines/list.h): the same timers at
 *    exactly the same jiffy as the reference (in whatever order within a
 *    jiffy); an engine whose model refuses arms (simple beyond its
 *    MaxInterval, hash_vec without an array for it) is compared for the
 *    arms it took;
 *  - the late ones (modern): at the jiffy their model says (the modern
 *    wheel's bucket expiry, the kernel's calc_wheel_index() rule in closed
 *    form), so never before the reference and at most the model's
 *    granule after it, unless clamped beyond range.
 * What is particular to an engine is its model (FZ_MODEL, struct fz_model:
 * models/<name>.c), the rest is this harness's, the same for every engine.
 * Input: one byte picks the start clock, then whatever the engine's model
 * reads to set it up (the hashed wheels' number of slots, hash_vec the
 * spares it keeps, classic_bounded its chunk; each instance is set up from
 * the same bytes), then one byte per op (low 3 bits the op, high 5 bits
 * the timer) followed by its arguments; the byte after a mod's expiry
 * makes it a range mod (bit 0; the range's bits in bits 4 to 7), else a
 * migration (bit 7: a re-arm from the other CPU), else a plain mod. Every
 * timer starts in instance 0: an input without a migration runs there
 * alone, the other instance empty beside it, as it ran before there were
 * two. FZ_TRACE=1 in the environment prints every op, FZ_STATS=1 the
 * migrations of every input run, at exit.
 *
 * This file decodes the input into ops and runs each on the engines;
 * fuzz_ops.c applies an op to one engine and its model, fuzz_check.c
 * checks an engine against its model (fuzz_lib.h): each is given the engine
 * it works on, the context with it (fe->ctx).
 */
#include "fuzz_lib.h"
#include "twheel_user.h"

/*
 * The engines whose ops say narrow order by time_before(), which is no
 * order at all over expiries more than LONG_MAX apart: an armed-in-the-past
 * timer then may hide behind a far future one (their documented limit; the
 * others order against the clock and do not). Unless FZ_WIDE,
 * deltas are kept within +-2^62 so that no two live expiries are that far
 * apart.
 */
#ifndef FZ_WIDE
#define FZ_WIDE		0
#endif

/* The model of the engine under test (fz_model_<name>, or the default). */
extern const struct fz_model FZ_MODEL;

/* Whether each kind of engine is exact, from the registry. */
#define FZ_IS_EXACT	true
#define FZ_IS_LATE	false
static const bool fz_exact[TWHEEL_NR_KINDS] = {
#define TWHEEL_ENGINE(name, NAME, path, exact)	[TWHEEL_##NAME] = FZ_IS_##exact,
#include "engines/list.h"
#undef TWHEEL_ENGINE
};

/*
 * The engines and the input's context, set up afresh for each input by
 * LLVMFuzzerTestOneInput(): only this file's. The other files are given
 * the engine they work on (an instance, or fz_ref), and the context with
 * it.
 */
static const struct twheel_ops *fz_ops;
static struct tw_user_engine fz_inst_mem[FZ_INSTANCES], fz_ref_mem;
/* The wheel under test's instances and the reference, each with its model. */
static struct fz_engine fz_inst[FZ_INSTANCES], fz_ref;
/* The instances' pool of timers, and the reference's. */
static struct twheel_timer fz_pool[FZ_POOL], fz_ref_pool[FZ_POOL];
static struct fz_ctx fz;

/* The instance timer i lives in. */
static struct fz_engine *fz_home(unsigned int i)
{
	return &fz_inst[fz.home[i]];
}

/* n bytes, little-endian. */
static unsigned long fz_bytes(unsigned int n)
{
	unsigned long v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v |= (unsigned long)fz_byte(&fz) << (8 * i);
	return v;
}

/* Deltas at which placement changes: level edges, cascades, clamps. */
static const unsigned long fz_edges[] = {
	63UL << 0, 63UL << 3, 63UL << 6, 63UL << 9, 63UL << 12,
	63UL << 15, 63UL << 18, 63UL << 21, 63UL << 24,
	62UL << 21, 62UL << 24,		/* modern clamp, depth 8 and 9 */
	1UL << 8, 1UL << 14, 1UL << 20, 1UL << 26,	/* classic levels */
	0xffffffffUL, 1UL << 32,	/* classic clamp */
	1UL << 16, 1UL << 24, 1UL << 40, 1UL << 48, 1UL << 56,	/* ratas */
	1UL << 12, 1UL << 18, 1UL << 30,	/* volt, and its overflow */
};

/* An expiry: near, far, at an edge, in the past, or near the old one. */
static unsigned long fz_expiry(unsigned long old)
{
	u8 k = fz_byte(&fz);

	switch (k & 7) {
	case 0:
		return fz.clk + (k >> 3);
	case 1:
		return fz.clk + fz_byte(&fz);
	case 2:
		return fz.clk + fz_bytes(2);
	case 3:
		return fz.clk + fz_bytes(4);
	case 4:
		return fz.clk + fz_bytes(8);
	case 5:
		return fz.clk - 1 - fz_bytes(1 + (k >> 6));
	case 6:
		return fz.clk + fz_edges[(k >> 3) % ARRAY_SIZE(fz_edges)] +
		       (s8)fz_byte(&fz);
	default:
		return old + (s8)fz_byte(&fz);
	}
}

static unsigned long fz_expires(unsigned long old)
{
	unsigned long delta = fz_expiry(old) - fz.clk;

	if (!FZ_WIDE && (delta + (1UL << 62)) >> 63)
		delta = (long)delta >> 1;
	return fz.clk + delta;
}

/* Jiffies to advance by: 0 (nothing), up to 2^40, or to a 2^n edge. */
static unsigned long fz_step_any(void)
{
	u8 k = fz_byte(&fz);
	unsigned long edge, step;

	switch (k & 7) {
	case 0:
	case 1:
		return k >> 3;
	case 2:
		return fz_byte(&fz);
	case 3:
		return fz_bytes(2);
	case 4:
		return fz_bytes(3);
	case 5:
		return fz_bytes(4);
	case 6:
		return fz_bytes(5);
	default:
		edge = ((fz.clk >> (k >> 3)) + 1) << (k >> 3);
		step = edge - fz.clk + (s8)fz_byte(&fz);
		return (long)step < 0 ? 0 : step;
	}
}

static unsigned long fz_step(void)
{
	return fz_step_any() & (fz_inst[0].model->step_mask ?: ~0UL);
}

/*
 * Whether the wheel's return values must be the reference's: it runs
 * every timer at the same jiffy and takes every arm the reference takes.
 */
static bool fz_same_returns(void)
{
	return fz_inst[0].exact && !fz_inst[0].model->refuses;
}

/*
 * The wheel against the reference, timer by timer, for the same arm: each
 * in the instance it lives in.
 */
static void fz_cross(void)
{
	const struct fz_slot *w, *r;
	struct fz_engine *fe;
	unsigned int i;

	for (i = 0; i < FZ_POOL; i++) {
		fe = fz_home(i);
		w = &fe->s[i];
		r = &fz_ref.s[i];
		if (w->seq != r->seq || !w->seq)
			continue;
		if (fe->exact) {
			FZ_CHECK(fe, w->state == r->state && w->hit == r->hit,
				 "timer %u: state %d hit %d, reference %d %d", i,
				 w->state, w->hit, r->state, r->hit);
			FZ_CHECK(fe, !w->hit || !w->hit_exact ||
				 !r->hit_exact || w->hit_at == r->hit_at,
				 "timer %u fired at %lu, reference at %lu", i,
				 w->hit_at, r->hit_at);
			continue;
		}
		if (!w->hit || w->clamped)
			continue;
		FZ_CHECK(fe, r->hit,
			 "timer %u (expires %lu) fired before the reference's",
			 i, w->expires);
		FZ_CHECK(fe, !w->hit_exact || !r->hit_exact ||
			 (!time_before(w->hit_at, r->hit_at) &&
			  w->hit_at - r->hit_at <= w->gran),
			 "timer %u fired at %lu, reference at %lu, gran %lu",
			 i, w->hit_at, r->hit_at, w->gran);
	}
}

static void fz_op(void)
{
	u8 k = fz_byte(&fz);
	unsigned int i = k >> 3, j;
	struct fz_engine *fe = fz_home(i), *to;
	unsigned long x, w, v;
	bool r1, r2;

	switch (k & 7) {
	case 0:
		x = fz_expires(fz_ref.t[i].expires);
		FZ_TRACE(&fz, "%lu: add %u %lu (clk%+ld)\n", fz.op, i, x, (long)(x - fz.clk));
		fz_add(&fz_ref, i, x);
		fz_add(fe, i, x);
		break;
	case 1:
		x = fz_expires(fz_ref.t[i].expires);
		w = fz_byte(&fz);
		if (w & 1) {	/* a range of up to 2^(w >> 4) - 1 jiffies */
			w = (1UL << (w >> 4)) - 1 & fz_bytes(2);
			FZ_TRACE(&fz, "%lu: mod_range %u [%lu, +%lu] (clk%+ld)\n", fz.op,
				 i, x, w, (long)(x - fz.clk));
			v = fz_pick(fe, x, x + w);
			r1 = fz_mod_range(&fz_ref, i, x, x + w, v, true);
			r2 = fz_mod_range(fe, i, x, x + w, v, false);
			FZ_CHECK(fe, !fz_same_returns() || r1 == r2,
				 "mod_range %u: %d, reference %d", i, r2, r1);
			break;
		}
		if (w & 0x80) {	/* a re-arm from the other CPU: the timer moves */
			to = &fz_inst[(fe->inst + 1) % FZ_INSTANCES];
			FZ_TRACE(&fz, "%lu: migrate %u from %u to %u, %lu (clk%+ld)\n", fz.op,
				 i, fe->inst, to->inst, x, (long)(x - fz.clk));
			r1 = fz_move(&fz_ref, &fz_ref, i, x);
			r2 = fz_move(fe, to, i, x);
			FZ_CHECK(fe, !fz_same_returns() || r1 == r2,
				 "migrate %u: detach %d, reference %d", i, r2, r1);
			break;
		}
		FZ_TRACE(&fz, "%lu: mod %u %lu (clk%+ld)\n", fz.op, i, x, (long)(x - fz.clk));
		r1 = fz_mod(&fz_ref, i, x);
		r2 = fz_mod(fe, i, x);
		FZ_CHECK(fe, !fz_same_returns() || r1 == r2, "mod %u: %d, reference %d", i, r2, r1);
		break;
	case 2:
		FZ_TRACE(&fz, "%lu: del %u\n", fz.op, i);
		r1 = fz_del(&fz_ref, i);
		r2 = fz_del(fe, i);
		FZ_CHECK(fe, !fz_same_returns() || r1 == r2, "del %u: %d, reference %d", i, r2, r1);
		break;
	case 3:
	case 4:
		x = fz.clk + fz_step() - 1;
		FZ_TRACE(&fz, "%lu: advance to %lu (clk%+ld)%s\n", fz.op, x,
			 (long)(x - fz.clk), (k & 7) == 3 ? ", pop" : "");
		fz_jump(&fz_ref, x, (k & 7) == 3);
		for (j = 0; j < FZ_INSTANCES; j++)
			fz_jump(&fz_inst[j], x, (k & 7) == 3);
		if (!time_before(x, fz.clk))
			fz.clk = x + 1;
		break;
	case 5:
		x = fz.clk + fz_step() - 1;
		FZ_TRACE(&fz, "%lu: run until %lu (clk%+ld)\n", fz.op, x, (long)(x - fz.clk));
		fz_run_until(&fz_ref, x);
		for (j = 0; j < FZ_INSTANCES; j++)
			fz_run_until(&fz_inst[j], x);
		if (!time_before(x, fz.clk))
			fz.clk = x + 1;
		break;
	case 6:
		FZ_TRACE(&fz, "%lu: %u single jiffies\n", fz.op, i + 1);
		fz_jiffies(&fz_ref, i + 1);
		for (j = 0; j < FZ_INSTANCES; j++)
			fz_jiffies(&fz_inst[j], i + 1);
		fz.clk += i + 1;
		break;
	default:
		FZ_TRACE(&fz, "%lu: pop all, pool %u\n", fz.op, i);
		fz_drain(&fz_ref);
		for (j = 0; j < FZ_INSTANCES; j++) {
			fz_drain(&fz_inst[j]);
			if (fz_inst[j].model->pool)
				fz_inst[j].model->pool(&fz_inst[j], i);
		}
	}
}

/*
 * Makes an engine of kind ops at the input's clock, instance inst of the
 * engine under test or the reference (FZ_EVERY), its pool of timers pool,
 * with the config its model reads from the input, the timers it holds set
 * up, and lets its model set up the rest.
 */
static void fz_make(struct fz_engine *fe, struct tw_user_engine *u,
		    const struct twheel_ops *ops, const struct fz_model *model,
		    unsigned int inst, struct twheel_timer *pool)
{
	struct twheel_config cfg = tw_user_config();
	unsigned int i;

	fe->ctx = &fz;
	fe->model = model;
	fe->inst = inst;
	fe->t = pool;
	if (inst == FZ_EVERY)
		snprintf(fe->name, sizeof(fe->name), "%s", ops->name);
	else
		snprintf(fe->name, sizeof(fe->name), "%s/%u", ops->name, inst);
	if (model->config)
		model->config(&fz, &cfg);
	if (tw_user_engine_make(u, ops, fz.clk, &cfg))
		abort();
	fe->e = u->e;
	fe->exact = fz_exact[ops->kind];
	memset(fe->own, 0, sizeof(fe->own));
	memset(fe->s, 0, sizeof(fe->s));
	for (i = 0; i < FZ_POOL; i++)
		if (fz_holds(fe, i))
			twheel_timer_setup(fe->e, &fe->t[i], NULL);
	if (model->setup)
		model->setup(fe);
}

/*
 * The instances of the engine under test, each set up from the same bytes
 * of the input (one config, as the module's per-CPU instances have): the
 * set-up traced once. Every timer lives in instance 0 (fz.home).
 */
static void fz_make_instances(void)
{
	const u8 *p = fz.p;
	size_t n = fz.n;
	bool trace = fz.trace;
	unsigned int j;

	for (j = 0; j < FZ_INSTANCES; j++) {
		fz.p = p;
		fz.n = n;
		fz.trace = trace && !j;
		fz_make(&fz_inst[j], &fz_inst_mem[j], fz_ops, &FZ_MODEL, j, fz_pool);
	}
	fz.trace = trace;
}

/* FZ_STATS=1: the migrations of every input this process ran, at exit. */
static void fz_stats(void)
{
	fprintf(stderr, "twheel-fuzz-stats: %s", FZ_ENGINE);
	if (FZ_VARIANT)
		fprintf(stderr, "%d", FZ_VARIANT);
	fprintf(stderr, ": migrated %lu armed, %lu collected, %lu idle",
		fz.moved[FZ_ARMED], fz.moved[FZ_COLLECTED], fz.moved[FZ_IDLE]);
	fprintf(stderr, " (%lu cancelled and still linked); %lu re-arms refused\n",
		fz.reclaimed, fz.rearm_refused);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fz.trace = getenv("FZ_TRACE");
	fz_ops = twheel_ops_by_name(FZ_ENGINE);
	if (!fz_ops) {
		fprintf(stderr, "twheel-fuzz: no engine '%s' in the registry\n", FZ_ENGINE);
		exit(2);
	}
	if (getenv("FZ_STATS"))
		atexit(fz_stats);
	return 0;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	unsigned int j;
	u8 k;

	fz.p = data;
	fz.n = size;
	fz.op = 0;
	k = fz_byte(&fz);
	switch (k & 3) {
	case 0:
		fz.clk = k >> 2;
		break;
	case 1:		/* the kernel's INITIAL_JIFFIES: 32-bit wrap soon */
		fz.clk = (unsigned long)(unsigned int)(-300 * HZ) + (k >> 2);
		break;
	case 2:		/* just before the 64-bit wrap */
		fz.clk = -1UL - fz_byte(&fz);
		break;
	default:
		fz.clk = fz_bytes(8);
	}
	FZ_TRACE(&fz, "start at %lu\n", fz.clk);
	memset(fz.home, 0, sizeof(fz.home));
	fz_make(&fz_ref, &fz_ref_mem, &twheel_reference_ops, &fz_model_reference,
		FZ_EVERY, fz_ref_pool);
	fz_make_instances();
	while (fz.n) {
		fz.op++;
		fz_op();
		fz_check_engine(&fz_ref, true);
		for (j = 0; j < FZ_INSTANCES; j++)
			fz_check_engine(&fz_inst[j], true);
		fz_cross();
	}
	for (j = 0; j < FZ_INSTANCES; j++)
		if (fz_inst[j].model->done)
			fz_inst[j].model->done(&fz_inst[j]);
	for (j = 0; j < FZ_INSTANCES; j++)
		tw_user_engine_free(&fz_inst_mem[j]);
	tw_user_engine_free(&fz_ref_mem);
	return 0;
}

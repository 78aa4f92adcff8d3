// SPDX-License-Identifier: GPL-2.0
/*
 * twheel differential fuzzer (libFuzzer). One engine - FZ_WHEEL 0 for the
 * classic wheel, 8 or 9 for the modern wheel of that depth, FZ_HEAP for the
 * heap, FZ_HASH for the hash engine, FZ_SIMPLE for the simple engine,
 * FZ_HASH_SORTED, FZ_STRAIGHT, FZ_ORDERED, FZ_RATAS, FZ_VOLT, FZ_HASH_VEC for
 * those, FZ_BOUNDED for the classic wheel with a bounded cascade - and the
 * reference
 * engine run the same operations on a pool of timers. A model of
 * each engine knows, from the specification alone, the jiffy at which every
 * timer must be collected; after every step each engine is checked against
 * its model, its structure against its counters, and the wheel against what
 * the reference did:
 *  - classic, heap, hash, simple, hash_sorted, straight, ordered, ratas,
 *    volt, classic_bounded (the exact engines): the same timers at
 *    exactly the same jiffy as the reference (in whatever order within a
 *    jiffy); simple refuses deltas of MaxInterval and more, which its
 *    model knows, and is compared for the arms it took; so is hash_vec,
 *    which refuses an arm it has no array for (fuzz_vec.c: the input
 *    feeds and drains its pool);
 *  - modern: exactly at the bucket expiry of the kernel's calc_wheel_index()
 *    rule (computed in closed form), so never before the reference and
 *    at most one level granularity after it, unless clamped beyond range.
 * Input: one byte picks the start clock, then one byte per op (low 3 bits
 * the op, high 5 bits the timer) followed by its arguments; the hash,
 * simple and hash_sorted engines take one more byte first, their number
 * of slots (hash_vec a second one: the spares it keeps), and classic_bounded
 * its chunk (1 to 64). FZ_TRACE=1 in
 * the environment prints every op.
 *
 * This file decodes the input into ops and runs each on both engines;
 * fuzz_ops.c applies an op to one engine and its model, fuzz_check.c
 * checks an engine's structure, fuzz_vec.c feeds hash_vec's pool (fuzz.h):
 * each is given the engine it works on, the context with it (fe->ctx).
 */
#include "fuzz.h"

/*
 * The hash engine visits each non-empty slot once a turn however far its
 * timers are (as Netty's wheel ticks through idle time): its advances stay
 * below 2^16 jiffies, or a run would take minutes.
 */
#define FZ_STEP_MASK	(FZ_WHEEL == FZ_HASH || FZ_WHEEL == FZ_HASH_SORTED || \
			 FZ_WHEEL == FZ_HASH_VEC ? 0xffffUL : ~0UL)

/*
 * hash_sorted and ordered order by time_before(), which is no order at all
 * over expiries more than LONG_MAX apart: an armed-in-the-past timer then
 * may hide behind a far future one (their documented limit; the reference
 * and the heap order against the clock and do not). Unless FZ_WIDE,
 * deltas are kept within +-2^62 so that no two live expiries are that far
 * apart.
 */
#ifndef FZ_WIDE
#define FZ_WIDE		0
#endif

/*
 * The engines and the input's context, set up afresh for each input by
 * LLVMFuzzerTestOneInput(): only this file's. The other files are given
 * the engine they work on (fz_wheel or fz_ref), and the context with it.
 */
static struct twheel_classic fz_classic;
static struct twheel_classic_bounded fz_bounded;
static struct twheel_modern fz_modern;
static struct twheel_reference fz_reference;
static struct twheel_heap fz_heap;
static struct twheel_heap_slot fz_heap_slots[FZ_POOL];
static struct twheel_hash fz_hash;
static unsigned long fz_hash_mem[(FZ_HASH_SLOTS * sizeof(struct list_head) +
				  FZ_HASH_SLOTS / 8) / sizeof(long)];
static struct twheel_simple fz_simple;
static struct twheel_hash_sorted fz_hash_sorted;
static struct twheel_straight fz_straight;
static struct twheel_ordered fz_ordered;
static struct twheel_ratas fz_ratas;
static struct twheel_volt fz_volt;
static struct twheel_hash_vec fz_vec;
/* The wheel under test and the reference, each with its model. */
static struct fz_engine fz_wheel, fz_ref;
static struct fz_ctx fz;

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
	return fz_step_any() & FZ_STEP_MASK;
}

/* The wheel against the reference, timer by timer, for the same arm. */
static void fz_cross(void)
{
	const struct fz_slot *w, *r;
	unsigned int i;

	for (i = 0; i < FZ_POOL; i++) {
		w = &fz_wheel.s[i];
		r = &fz_ref.s[i];
		if (w->seq != r->seq || !w->seq)
			continue;
		if (fz_wheel.e->ops->kind != TWHEEL_MODERN) {
			FZ_CHECK(&fz_wheel, w->state == r->state && w->hit == r->hit,
				 "timer %u: state %d hit %d, reference %d %d", i,
				 w->state, w->hit, r->state, r->hit);
			FZ_CHECK(&fz_wheel, !w->hit || !w->hit_exact ||
				 !r->hit_exact || w->hit_at == r->hit_at,
				 "timer %u fired at %lu, reference at %lu", i,
				 w->hit_at, r->hit_at);
			continue;
		}
		if (!w->hit || w->clamped)
			continue;
		FZ_CHECK(&fz_wheel, r->hit,
			 "timer %u (expires %lu) fired before the reference's",
			 i, w->expires);
		FZ_CHECK(&fz_wheel, !w->hit_exact || !r->hit_exact ||
			 (!time_before(w->hit_at, r->hit_at) &&
			  w->hit_at - r->hit_at <= w->gran),
			 "timer %u fired at %lu, reference at %lu, gran %lu",
			 i, w->hit_at, r->hit_at, w->gran);
	}
}

static void fz_op(void)
{
	u8 k = fz_byte(&fz);
	unsigned int i = k >> 3;
	unsigned long x, w, v;
	bool r1, r2;

	switch (k & 7) {
	case 0:
		x = fz_expires(fz_ref.t[i].expires);
		FZ_TRACE(&fz, "%lu: add %u %lu (clk%+ld)\n", fz.op, i, x, (long)(x - fz.clk));
		fz_add(&fz_ref, i, x);
		fz_add(&fz_wheel, i, x);
		break;
	case 1:
		x = fz_expires(fz_ref.t[i].expires);
		w = fz_byte(&fz);
		if (w & 1) {	/* a range of up to 2^(w >> 4) - 1 jiffies */
			w = (1UL << (w >> 4)) - 1 & fz_bytes(2);
			FZ_TRACE(&fz, "%lu: mod_range %u [%lu, +%lu] (clk%+ld)\n", fz.op,
				 i, x, w, (long)(x - fz.clk));
			v = fz_pick(&fz_wheel, x, x + w);
			r1 = fz_mod_range(&fz_ref, i, x, x + w, v, true);
			r2 = fz_mod_range(&fz_wheel, i, x, x + w, v, false);
			FZ_CHECK(&fz_wheel, fz_wheel.e->ops->kind == TWHEEL_MODERN ||
				 fz_wheel.e->ops->kind == TWHEEL_SIMPLE ||
				 fz_wheel.e->ops->kind == TWHEEL_HASH_VEC ||
				 r1 == r2, "mod_range %u: %d, reference %d", i, r2, r1);
			break;
		}
		FZ_TRACE(&fz, "%lu: mod %u %lu (clk%+ld)\n", fz.op, i, x, (long)(x - fz.clk));
		r1 = fz_mod(&fz_ref, i, x);
		r2 = fz_mod(&fz_wheel, i, x);
		FZ_CHECK(&fz_wheel, fz_wheel.e->ops->kind == TWHEEL_MODERN ||
			 fz_wheel.e->ops->kind == TWHEEL_SIMPLE ||
			 fz_wheel.e->ops->kind == TWHEEL_HASH_VEC ||
			 r1 == r2, "mod %u: %d, reference %d", i, r2, r1);
		break;
	case 2:
		FZ_TRACE(&fz, "%lu: del %u\n", fz.op, i);
		r1 = fz_del(&fz_ref, i);
		r2 = fz_del(&fz_wheel, i);
		FZ_CHECK(&fz_wheel, fz_wheel.e->ops->kind == TWHEEL_MODERN ||
			 fz_wheel.e->ops->kind == TWHEEL_SIMPLE ||
			 fz_wheel.e->ops->kind == TWHEEL_HASH_VEC ||
			 r1 == r2, "del %u: %d, reference %d", i, r2, r1);
		break;
	case 3:
	case 4:
		x = fz.clk + fz_step() - 1;
		FZ_TRACE(&fz, "%lu: advance to %lu (clk%+ld)%s\n", fz.op, x,
			 (long)(x - fz.clk), (k & 7) == 3 ? ", pop" : "");
		fz_jump(&fz_ref, x, (k & 7) == 3);
		fz_jump(&fz_wheel, x, (k & 7) == 3);
		if (!time_before(x, fz.clk))
			fz.clk = x + 1;
		break;
	case 5:
		x = fz.clk + fz_step() - 1;
		FZ_TRACE(&fz, "%lu: run until %lu (clk%+ld)\n", fz.op, x, (long)(x - fz.clk));
		fz_run_until(&fz_ref, x);
		fz_run_until(&fz_wheel, x);
		if (!time_before(x, fz.clk))
			fz.clk = x + 1;
		break;
	case 6:
		FZ_TRACE(&fz, "%lu: %u single jiffies\n", fz.op, i + 1);
		fz_jiffies(&fz_ref, i + 1);
		fz_jiffies(&fz_wheel, i + 1);
		fz.clk += i + 1;
		break;
	default:
		FZ_TRACE(&fz, "%lu: pop all, pool %u\n", fz.op, i);
		fz_drain(&fz_ref);
		fz_drain(&fz_wheel);
		if (FZ_WHEEL == FZ_HASH_VEC)
			fz_vec_pool(&fz_wheel, i);
	}
}

/* The slots of a hash, hash_sorted or simple engine: 2 to FZ_HASH_SLOTS. */
static unsigned int fz_nr_slots(void)
{
	unsigned int n = 2U << (fz_byte(&fz) % 10);

	FZ_TRACE(&fz, "%u slots\n", n);
	if (sizeof(fz_hash_mem) < twheel_hash_storage_size(n))
		abort();
	return n;
}

static void fz_setup(struct fz_engine *fe, struct twheel_engine *e)
{
	unsigned int i;

	fe->ctx = &fz;
	fe->e = e;
	memset(fe->s, 0, sizeof(fe->s));
	for (i = 0; i < FZ_POOL; i++)
		twheel_timer_setup(e, &fe->t[i], NULL);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fz.trace = getenv("FZ_TRACE");
	return 0;
}

/*
 * Every level boundary +-2 from this input's clock: the modern wheel's
 * O(1) level against the model's walk over the levels.
 */
static void fz_boundaries(void)
{
	unsigned long fire;
	struct fz_slot s;
	unsigned int lvl, idx;
	int d;

	for (lvl = 1; lvl <= FZ_WHEEL; lvl++) {
		for (d = -2; d <= 2; d++) {
			s.expires = fz.clk + tw_lvl_start(lvl) + d;
			fz_bucket(&s, fz.clk, FZ_WHEEL);
			idx = twheel_modern_index(&fz_modern, s.expires, &fire);
			FZ_CHECK(&fz_wheel, idx == s.bucket && fire == s.fire,
				 "boundary %u%+d: index %u at %lu, want %u at %lu",
				 lvl, d, idx, fire, s.bucket, s.fire);
		}
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
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
	twheel_reference_init(&fz_reference, fz.clk);
	fz_setup(&fz_ref, &fz_reference.e);
	if (FZ_WHEEL == FZ_HEAP) {
		if (twheel_heap_init(&fz_heap, fz.clk, fz_heap_slots, FZ_POOL))
			abort();
		fz_setup(&fz_wheel, &fz_heap.e);
	} else if (FZ_WHEEL == FZ_HASH) {
		if (twheel_hash_init(&fz_hash, fz.clk, fz_hash_mem, fz_nr_slots()))
			abort();
		fz_setup(&fz_wheel, &fz_hash.e);
	} else if (FZ_WHEEL == FZ_STRAIGHT) {
		twheel_straight_init(&fz_straight, fz.clk);
		fz_setup(&fz_wheel, &fz_straight.e);
	} else if (FZ_WHEEL == FZ_ORDERED) {
		twheel_ordered_init(&fz_ordered, fz.clk);
		fz_setup(&fz_wheel, &fz_ordered.e);
	} else if (FZ_WHEEL == FZ_RATAS) {
		twheel_ratas_init(&fz_ratas, fz.clk);
		fz_setup(&fz_wheel, &fz_ratas.e);
	} else if (FZ_WHEEL == FZ_VOLT) {
		twheel_volt_init(&fz_volt, fz.clk);
		fz.lazy_max = 0;
		fz_setup(&fz_wheel, &fz_volt.e);
	} else if (FZ_WHEEL == FZ_HASH_SORTED) {
		if (twheel_hash_sorted_init(&fz_hash_sorted, fz.clk, fz_hash_mem,
					    fz_nr_slots()))
			abort();
		fz_setup(&fz_wheel, &fz_hash_sorted.wheel.e);
	} else if (FZ_WHEEL == FZ_HASH_VEC) {
		fz_vec_init(&fz, &fz_vec, fz_nr_slots());
		fz_setup(&fz_wheel, &fz_vec.e);
	} else if (FZ_WHEEL == FZ_BOUNDED) {
		twheel_classic_bounded_init(&fz_bounded, fz.clk);
		/* small chunks: a pool's few timers spread over several ticks */
		fz_bounded.chunk = 1U << (fz_byte(&fz) % 7);
		FZ_TRACE(&fz, "chunk %u\n", fz_bounded.chunk);
		fz_setup(&fz_wheel, &fz_bounded.e);
	} else if (FZ_WHEEL == FZ_SIMPLE) {
		/* its MaxInterval */
		if (twheel_simple_init(&fz_simple, fz.clk, fz_hash_mem, fz_nr_slots()))
			abort();
		fz_setup(&fz_wheel, &fz_simple.wheel.e);
	} else if (FZ_WHEEL) {
		if (twheel_modern_init(&fz_modern, fz.clk, FZ_WHEEL))
			abort();
		fz_setup(&fz_wheel, &fz_modern.e);
		fz_boundaries();
	} else {
		twheel_classic_init(&fz_classic, fz.clk);
		fz_setup(&fz_wheel, &fz_classic.e);
	}
	while (fz.n) {
		fz.op++;
		fz_op();
		fz_check_engine(&fz_ref, true);
		fz_check_engine(&fz_wheel, true);
		fz_cross();
	}
	if (FZ_WHEEL == FZ_HASH_VEC)
		fz_vec_done(&fz_wheel);
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the differential fuzzer's files share: the engine under test
 * (FZ_WHEEL), the model of a timer, the input's context, the check
 * macros, and each file's entry points. The files share no variables:
 * each function is given the engine it works on (struct fz_engine), and
 * through it the engine itself (fe->e, of which container_of() gives the
 * engine's own structure) and the input's context (fe->ctx).
 *
 * Calls go one way, from the top down, never back:
 *   fuzz.c        decodes the input into ops and runs them on both engines
 *   fuzz_ops.c    applies one op to one engine and moves its model
 *   fuzz_check.c  checks an engine against its model and its structure
 *                 (fuzz_seeds.h, included there: ratas and volt)
 *   fuzz_vec.c    hash_vec's pool of arrays, its refusals and structure
 * and each of them reports a failed check with fz_report(), below.
 */
#ifndef TW_FUZZ_H
#define TW_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/errno.h>
#include <linux/jiffies.h>
#include "twheel.h"
/* The engines the harness models: their structures and fast paths. */
#include "engines/registry.h"
#include "engines/hash.h"
#include "engines/hash_sorted.h"
#include "engines/hash_vec.h"
#include "engines/heap.h"
#include "engines/ordered.h"
#include "engines/reference.h"
#include "engines/simple.h"
#include "engines/straight.h"

#ifndef FZ_WHEEL
#define FZ_WHEEL	0
#endif

#define FZ_POOL		32

/* FZ_WHEEL values of the engines that are not wheels of levels. */
#define FZ_HEAP		100
#define FZ_HASH		101
#define FZ_SIMPLE	102
#define FZ_HASH_SORTED	103
#define FZ_STRAIGHT	104
#define FZ_ORDERED	105
#define FZ_RATAS	106
#define FZ_VOLT		107
#define FZ_HASH_VEC	108
#define FZ_BOUNDED	109

#define FZ_HASH_SLOTS	1024

enum fz_state { FZ_IDLE, FZ_ARMED, FZ_COLLECTED };

/* What one engine must have done with one timer. */
struct fz_slot {
	enum fz_state state;
	unsigned long expires;
	unsigned long fire;	/* ARMED: the jiffy it must be collected at */
	unsigned long gran;	/* modern: granularity of its level */
	unsigned int bucket;	/* modern: the bucket it must be in */
	bool clamped;		/* modern: beyond the wheel's range */
	unsigned long seq;	/* the op that armed it */
	bool hit;		/* collected since then ... */
	bool hit_exact;		/* ... at a known jiffy: */
	unsigned long hit_at;
};

/* The input being run: set up by fuzz.c, each engine's fe->ctx. */
struct fz_ctx {
	const u8 *p;		/* input not consumed yet */
	size_t n;
	unsigned long clk;	/* every engine's clock between ops */
	unsigned long op;	/* number of the current op */
	bool trace;
	u64 lazy_max;		/* the most cancelled timers volt held after any op */
	unsigned long vec_arrays;	/* arrays given to hash_vec, not taken back */
};

/* An engine under test (the wheel, or the reference) and its model. */
struct fz_engine {
	struct fz_ctx *ctx;
	struct twheel_engine *e;
	struct twheel_timer t[FZ_POOL];
	struct fz_slot s[FZ_POOL];
};

/* Names the failed check; the caller prints the details and aborts. */
static inline void fz_report(const struct fz_engine *fe, const char *file,
			     int line, const char *cond)
{
	fprintf(stderr, "twheel-fuzz: %s: op %lu, clk %lu: failed (%s:%d): %s\n  ",
		fe->e->ops->name, fe->ctx->op, fe->e->clk, file, line, cond);
}

/* Aborts, saying where and what, unless cond holds. */
#define FZ_CHECK(fe, cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fz_report(fe, __FILE__, __LINE__, #cond);	\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			abort();					\
		}							\
	} while (0)

#define FZ_TRACE(ctx, ...)						\
	do {								\
		if ((ctx)->trace)					\
			fprintf(stderr, __VA_ARGS__);			\
	} while (0)

/* The next input byte; 0 once it is used up. */
static inline u8 fz_byte(struct fz_ctx *ctx)
{
	if (!ctx->n)
		return 0;
	ctx->n--;
	return *ctx->p++;
}

/* Index of t in the pool, or FZ_POOL for anything else. */
static inline unsigned int fz_index(const struct fz_engine *fe,
				    const struct twheel_timer *t)
{
	uintptr_t off = (uintptr_t)t - (uintptr_t)fe->t;

	if (off % sizeof(*t) || off / sizeof(*t) >= FZ_POOL)
		return FZ_POOL;
	return off / sizeof(*t);
}

/*
 * Every operation goes one time in two through the engine's ops
 * (twheel_ops_add() and the others) instead of its inlined fast path: both
 * must keep to the model, and to each other, on every input.
 */
static inline bool fz_via_ops(const struct fz_engine *fe)
{
	return fe->ctx->op & 1;
}

/* Timers in level 0, counted one by one (twheel_count()). */
static inline unsigned long fz_level0(const struct fz_engine *fe)
{
	unsigned long per[TWHEEL_MAX_LEVELS];

	twheel_count(fe->e, per);
	return per[0];
}

/* fuzz_ops.c: an op on one engine, its model following. */
void fz_bucket(struct fz_slot *s, unsigned long clk, unsigned int depth);
void fz_add(struct fz_engine *fe, unsigned int i, unsigned long expires);
bool fz_del(struct fz_engine *fe, unsigned int i);
bool fz_mod(struct fz_engine *fe, unsigned int i, unsigned long expires);
bool fz_mod_range(struct fz_engine *fe, unsigned int i, unsigned long lo,
		  unsigned long hi, unsigned long x, bool follow);
void fz_drain(struct fz_engine *fe);
void fz_run_until(struct fz_engine *fe, unsigned long until);
void fz_jump(struct fz_engine *fe, unsigned long now, bool drain);
void fz_jiffies(struct fz_engine *fe, unsigned int count);
unsigned long fz_pick(struct fz_engine *fe, unsigned long lo, unsigned long hi);

/* fuzz_check.c: an engine against its model and its own structure. */
void fz_check_engine(struct fz_engine *fe, bool full);
void fz_check_next(struct fz_engine *fe, unsigned long limit, unsigned long d);

/* fuzz_vec.c: hash_vec's pool of arrays, its refusals, its structure. */
void fz_vec_init(struct fz_ctx *ctx, struct twheel_hash_vec *hv,
		 unsigned int nr_slots);
void fz_vec_pool(struct fz_engine *fe, unsigned int x);
bool fz_vec_refuses(const struct fz_engine *fe, unsigned int i,
		    unsigned long expires);
void fz_check_vec(struct fz_engine *fe, unsigned long armed);
void fz_vec_done(struct fz_engine *fe);

#endif /* TW_FUZZ_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the differential fuzzer's files share: the engine under test
 * (FZ_WHEEL), the model of a timer, the engines and the input's state
 * (defined in fuzz.c), the check macros, and each file's entry points.
 * fuzz.c decodes the input into ops and runs them on both engines;
 * fuzz_ops.c applies one op to one engine and its model; fuzz_check.c
 * (with fuzz_seeds.h) checks an engine's structure; fuzz_vec.c is
 * hash_vec's pool of arrays and its checks.
 */
#ifndef TW_FUZZ_H
#define TW_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/errno.h>
#include <linux/jiffies.h>
#include "twheel.h"

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

struct fz_engine {
	struct twheel_engine *e;
	struct twheel_timer t[FZ_POOL];
	struct fz_slot s[FZ_POOL];
};

/* The input being run. */
struct fz_input {
	const u8 *p;		/* input not consumed yet */
	size_t n;
	unsigned long clk;	/* every engine's clock between ops */
	unsigned long op;	/* number of the current op */
	bool trace;
};

extern struct fz_input fz;
/* The wheel under test and the reference, each with its model. */
extern struct fz_engine fz_wheel, fz_ref;

/* The engines, set up for each input by fuzz.c. */
extern struct twheel_classic fz_classic;
extern struct twheel_classic_bounded fz_bounded;
extern struct twheel_modern fz_modern;
extern struct twheel_reference fz_reference;
extern struct twheel_heap fz_heap;
extern struct twheel_hash fz_hash;
extern struct twheel_simple fz_simple;
extern struct twheel_hash_sorted fz_hash_sorted;
extern struct twheel_straight fz_straight;
extern struct twheel_ordered fz_ordered;
extern struct twheel_ratas fz_ratas;
extern struct twheel_volt fz_volt;
extern struct twheel_hash_vec fz_vec;
/* the most cancelled timers volt held after any op of this input */
extern u64 fz_lazy_max;

void fz_report(const struct fz_engine *fe, const char *file, int line,
	       const char *cond);

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

#define FZ_TRACE(...)							\
	do {								\
		if (fz.trace)						\
			fprintf(stderr, __VA_ARGS__);			\
	} while (0)

/* The next input byte; 0 once it is used up. */
static inline u8 fz_byte(void)
{
	if (!fz.n)
		return 0;
	fz.n--;
	return *fz.p++;
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
static inline bool fz_via_ops(void)
{
	return fz.op & 1;
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
void fz_check_next(struct fz_engine *fe, unsigned long limit, unsigned long d);
void fz_run_until(struct fz_engine *fe, unsigned long until);
void fz_jump(struct fz_engine *fe, unsigned long now, bool drain);
void fz_jiffies(struct fz_engine *fe, unsigned int count);
unsigned long fz_pick(struct fz_engine *fe, unsigned long lo, unsigned long hi);

/* fuzz_check.c: an engine against its model and its own structure. */
void fz_check_engine(struct fz_engine *fe, bool full);
unsigned long fz_walk_collected(struct fz_engine *fe,
				const struct list_head *head);

/* fuzz_vec.c: hash_vec's pool of arrays, its refusals, its structure. */
void fz_vec_init(unsigned int nr_slots);
void fz_vec_pool(unsigned int x);
bool fz_vec_refuses(const struct fz_engine *fe, unsigned int i,
		    unsigned long expires);
void fz_check_vec(struct fz_engine *fe, unsigned long armed, unsigned long due);
void fz_vec_done(void);

#endif /* TW_FUZZ_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the differential fuzzer's files share: the model of a timer, the
 * input's context, the engine under test, the model of an engine (struct
 * fz_model), the check macros, and each file's entry points. The files
 * share no variables: each function is given the engine it works on
 * (struct fz_engine), and through it the engine itself (fe->e, of which
 * container_of() gives the engine's own structure), its model (fe->model)
 * and the input's context (fe->ctx).
 *
 * A target is built for one engine of the registry (engines/list.h):
 * FZ_ENGINE its name, FZ_MODEL its model (fz_model_<name>, defined by
 * fuzz/models/<name>.c, or fz_model_default where there is no such file),
 * FZ_VARIANT a number the model may read (the modern wheel's depth).
 *
 * That engine runs as FZ_INSTANCES instances of one kind and config at one
 * clock, as the module's per-CPU instances do (percpu=1), each with its
 * model; a pool timer lives in one of them at a time (fz_ctx.home, which
 * the ops on it follow), and moves to another by twheel_detach() and an
 * arm there (fz_move()). The reference holds every timer in one engine.
 *
 * Calls go one way, from the top down, never back:
 *   fuzz.c         decodes the input into ops and runs them on the engines
 *   fuzz_ops.c     applies one op to one engine (a move: from one to
 *                  another) and moves its model
 *   fuzz_check.c   checks an engine against its model: counters, pops,
 *                  next_event, and the model's structure check
 *   models/<name>.c  one engine's knowledge: its set-up from the input,
 *                  expiry rule if late, refusals, range pick, structure
 *   fuzz_model.c   what the models share (walks of lists, the slots'
 *                  byte, the default model)
 * fuzz.c, fuzz_ops.c and fuzz_check.c reach a model only through
 * fe->model; each of them reports a failed check with fz_report(), below.
 */
#ifndef TW_FUZZ_LIB_H
#define TW_FUZZ_LIB_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/errno.h>
#include <linux/jiffies.h>
#include "twheel.h"

#ifndef FZ_ENGINE
#define FZ_ENGINE	"classic"
#endif
#ifndef FZ_MODEL
#define FZ_MODEL	fz_model_default
#endif
#ifndef FZ_VARIANT
#define FZ_VARIANT	0
#endif

#define FZ_POOL		32

/* Instances of the engine under test; fz_engine.inst of the reference. */
#define FZ_INSTANCES	2
#define FZ_EVERY	FZ_INSTANCES

/* Most slots fz_nr_slots() gives a hashed wheel. */
#define FZ_HASH_SLOTS	1024

enum fz_state { FZ_IDLE, FZ_ARMED, FZ_COLLECTED };

/* What one engine must have done with one timer. */
struct fz_slot {
	enum fz_state state;
	unsigned long expires;
	unsigned long fire;	/* ARMED: the jiffy it must be collected at */
	/* A late engine's model (modern) says, with fire: */
	unsigned long gran;	/* how late it may run (its level's granule) */
	unsigned int bucket;	/* the bucket it must be in */
	bool clamped;		/* beyond the engine's range: may run early */
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
	u8 home[FZ_POOL];	/* the instance each pool timer lives in */
	/* Moves between instances over every input (FZ_STATS=1 prints them): */
	unsigned long moved[3];	/* by the model's state before (enum fz_state) */
	unsigned long reclaimed;	/* of the idle ones, still linked (lazy) */
	unsigned long rearm_refused;	/* re-arms the other instance refused */
};

struct fz_engine;

/**
 * struct fz_model - what the fuzzer knows of one kind of engine beyond the
 * contract (twheel.h) and the registry (its exactness): every member is
 * optional, and a model of all NULLs (fz_model_default) fuzzes any engine
 * that is exact, refuses nothing and has no range rule of its own
 * @config: before the engine is made: its config (the module's defaults,
 *	tw_user_config(), given) from the input's bytes (ctx)
 * @setup: the engine made, no timer armed yet: what its config cannot
 *	say (from the input's bytes), and checks of an empty engine
 * @arm: a late engine's expiry rule: timer s armed now for s->expires;
 *	sets s->fire (given: the exact jiffy, expires or the clock), and
 *	s->gran, s->bucket, s->clamped. NULL: exact
 * @refuses: whether arming timer i for expires is refused (@refuse_err);
 *	NULL: never. The reference takes every arm, so the engine's return
 *	values are then compared on the timers both armed only
 * @refuse_err: the error twheel_add() returns for a refused arm (-ERANGE)
 * @pick: checks x, the engine's pick for [lo, hi] (twheel_range_expiry(),
 *	already known to be in the range); NULL: hi, if the engine has no
 *	twheel_ops.range_pick
 * @collected: whether a pending timer is on the engine's collected list
 *	(not popped yet); NULL: not checked timer by timer
 * @timer: checks of timer i after every step, beside the generic ones
 * @check: the engine's structure after every op, from its specification,
 *	with armed timers in buckets and due collected ones
 * @pool: the pop-all op's second half: x, 5 bits of the input, to feed
 *	or drain what the engine is fed (hash_vec's arrays)
 * @done: the input's end: give back what the engine was fed
 * @step_mask: advances are masked with it (an engine that visits each
 *	timer once a turn however far it is); 0: none
 * @next_exact: twheel_next_event() is exactly the model's next due jiffy;
 *	false: it may be earlier (work before it: cascades, promotions, rounds)
 *
 * A model's own state for an input is in fe->own[] (zeroed before @setup).
 * The instances of the engine under test share one pool of timers (fe->t):
 * a model that loops over the pool passes over the timers fe does not hold
 * (fz_holds()); in a walk of the engine, fz_index() gives FZ_POOL for one.
 */
struct fz_model {
	void (*config)(struct fz_ctx *ctx, struct twheel_config *cfg);
	void (*setup)(struct fz_engine *fe);
	void (*arm)(struct fz_engine *fe, struct fz_slot *s);
	bool (*refuses)(const struct fz_engine *fe, unsigned int i,
			unsigned long expires);
	int refuse_err;
	void (*pick)(struct fz_engine *fe, unsigned long lo, unsigned long hi,
		     unsigned long x);
	bool (*collected)(const struct fz_engine *fe,
			  const struct twheel_timer *t);
	void (*timer)(struct fz_engine *fe, unsigned int i);
	void (*check)(struct fz_engine *fe, unsigned long armed,
		      unsigned long due);
	void (*pool)(struct fz_engine *fe, unsigned int x);
	void (*done)(struct fz_engine *fe);
	unsigned long step_mask;
	bool next_exact;
};

/* The oracle's model (models/reference.c), and the one of all NULLs. */
extern const struct fz_model fz_model_reference;
extern const struct fz_model fz_model_default;

/*
 * An engine under test (an instance of the wheel, or the reference) and
 * its model. Its slot s[i] of a timer that lives in another instance is
 * idle.
 */
struct fz_engine {
	struct fz_ctx *ctx;
	const struct fz_model *model;
	struct twheel_engine *e;
	bool exact;		/* EXACT in the registry */
	unsigned int inst;	/* which instance, FZ_EVERY: holds every timer */
	char name[32];		/* for traces and reports: "classic/1", "reference" */
	u64 own[2];		/* the model's state for this input */
	struct twheel_timer *t;	/* the pool: the instances share theirs */
	struct fz_slot s[FZ_POOL];
};

/* The engine under test as its own structure: type, whose member is fe->e. */
#define fz_engine_of(fe, type, member)	container_of((fe)->e, type, member)

/* Whether pool timer i lives in fe (the reference holds them all). */
static inline bool fz_holds(const struct fz_engine *fe, unsigned int i)
{
	return fe->inst == FZ_EVERY || fe->ctx->home[i] == fe->inst;
}

/* Names the failed check; the caller prints the details and aborts. */
static inline void fz_report(const struct fz_engine *fe, const char *file,
			     int line, const char *cond)
{
	fprintf(stderr, "twheel-fuzz: %s: op %lu, clk %lu: failed (%s:%d): %s\n  ",
		fe->name, fe->ctx->op, fe->e->clk, file, line, cond);
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

/*
 * Index of t in the pool, or FZ_POOL for anything else: what is not a
 * pool timer, or one that lives in another instance (found in fe, a stray).
 */
static inline unsigned int fz_index(const struct fz_engine *fe,
				    const struct twheel_timer *t)
{
	uintptr_t off = (uintptr_t)t - (uintptr_t)fe->t;

	if (off % sizeof(*t) || off / sizeof(*t) >= FZ_POOL ||
	    !fz_holds(fe, off / sizeof(*t)))
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
void fz_add(struct fz_engine *fe, unsigned int i, unsigned long expires);
bool fz_del(struct fz_engine *fe, unsigned int i);
bool fz_mod(struct fz_engine *fe, unsigned int i, unsigned long expires);
bool fz_mod_range(struct fz_engine *fe, unsigned int i, unsigned long lo,
		  unsigned long hi, unsigned long x, bool follow);
bool fz_move(struct fz_engine *from, struct fz_engine *to, unsigned int i,
	     unsigned long expires);
void fz_drain(struct fz_engine *fe);
void fz_run_until(struct fz_engine *fe, unsigned long until);
void fz_jump(struct fz_engine *fe, unsigned long now, bool drain);
void fz_jiffies(struct fz_engine *fe, unsigned int count);
unsigned long fz_pick(struct fz_engine *fe, unsigned long lo, unsigned long hi);

/* fuzz_check.c: an engine against its model and its own structure. */
void fz_check_engine(struct fz_engine *fe, bool full);
void fz_check_next(struct fz_engine *fe, unsigned long limit, unsigned long d);

/* fuzz_model.c: what the models share. */
unsigned int fz_nr_slots(struct fz_ctx *ctx);
bool fz_collected(const struct fz_engine *fe, const struct twheel_timer *t);
unsigned long fz_walk_list(struct fz_engine *fe, const struct list_head *head,
			   unsigned int bucket);
unsigned long fz_walk_hlist(struct fz_engine *fe, struct hlist_head *head,
			    unsigned int bucket, struct hlist_node ***tail);
void fz_check_levels(struct fz_engine *fe, const unsigned long *lvl,
		     const struct list_head *collected, unsigned long due);
unsigned long fz_walk_collected(struct fz_engine *fe,
				const struct list_head *head, size_t link);
void fz_check_list_counts(struct fz_engine *fe, unsigned long n,
			  unsigned long armed, const struct list_head *collected,
			  unsigned long due);
void fz_check_slots(struct fz_engine *fe, unsigned long armed,
		    unsigned long due, const struct list_head *slots,
		    const unsigned long *map, unsigned long mask,
		    unsigned int bits, const struct list_head *collected);
void fz_check_point(struct fz_engine *fe, unsigned int i, unsigned long fire,
		    unsigned int shift, unsigned int bits, unsigned long slot);
void fz_pick_levels(struct fz_engine *fe, unsigned long lo, unsigned long hi,
		    unsigned long x, int step, int top);

#endif /* TW_FUZZ_LIB_H */

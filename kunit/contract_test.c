// SPDX-License-Identifier: GPL-2.0
/*
 * The API contract every engine keeps, run once per engine: del's return
 * values, mod re-filing, mod to the same expiry, callbacks that re-arm
 * themselves or delete other timers, and a clock that wraps.
 *
 * Each engine states when a timer armed for @expires runs (its expiry
 * rule): exact engines at @expires itself, the modern wheel at the expiry
 * of the bucket it is filed in; every engine at the clock if @expires is
 * already past. A case computes that jiffy when it arms a timer and checks
 * the run against it, and checks that no timer ever runs before its expiry.
 * Adding an engine is one line in tw_contract_engines[] and a five-line
 * adapter like tw_init_classic(), which gives its init the table's type
 * (and the engine its storage, as tw_init_heap() does).
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include "tw_test.h"

/**
 * struct tw_engine_param - an engine under the contract
 * @name: the parameter's name in the KTAP output
 * @size: bytes to allocate for the engine's own structure
 * @init: initialises that structure with its clock at @clk; NULL on error
 * @fires_at: the jiffy a timer armed now for @expires runs at
 * @range_pick: the jiffy its range rule picks in [lo, hi] (an independent
 *	statement of the rule); NULL: hi
 */
struct tw_engine_param {
	const char *name;
	size_t size;
	struct twheel_engine *(*init)(void *mem, unsigned long clk);
	unsigned long (*fires_at)(const struct twheel_engine *e,
				  unsigned long expires);
	unsigned long (*range_pick)(const struct twheel_engine *e,
				    unsigned long lo, unsigned long hi);
};

static struct twheel_engine *tw_init_classic(void *mem, unsigned long clk)
{
	struct twheel_classic *c = mem;

	twheel_classic_init(c, clk);
	return &c->e;
}

static struct twheel_engine *tw_init_modern(void *mem, unsigned long clk)
{
	struct twheel_modern *m = mem;

	if (twheel_modern_init(m, clk, TW_MODERN_DEFAULT_DEPTH))
		return NULL;
	return &m->e;
}

static struct twheel_engine *tw_init_reference(void *mem, unsigned long clk)
{
	struct twheel_reference *r = mem;

	twheel_reference_init(r, clk);
	return &r->e;
}

#define TW_NR_RECS	8
#define TW_CLK		1000UL

/* The heap, its array right after it: room for every timer of a case. */
struct tw_contract_heap {
	struct twheel_heap h;
	struct twheel_heap_slot slots[TW_NR_RECS];
};

static struct twheel_engine *tw_init_heap(void *mem, unsigned long clk)
{
	struct tw_contract_heap *ch = mem;

	if (twheel_heap_init(&ch->h, clk, ch->slots, TW_NR_RECS))
		return NULL;
	return &ch->h.e;
}

/*
 * The hash engine with few slots, so that the cases' far timers wait many
 * rounds; its slots and bitmap right after it.
 */
#define TW_CONTRACT_HASH_SLOTS	16

struct tw_contract_hash {
	struct twheel_hash h;
	struct list_head slots[TW_CONTRACT_HASH_SLOTS];
	unsigned long map[BITS_TO_LONGS(TW_CONTRACT_HASH_SLOTS)];
};

static struct twheel_engine *tw_init_hash(void *mem, unsigned long clk)
{
	struct tw_contract_hash *ch = mem;

	BUILD_BUG_ON(sizeof(ch->slots) + sizeof(ch->map) !=
		     TW_CONTRACT_HASH_SLOTS * sizeof(struct list_head) +
		     BITS_TO_LONGS(TW_CONTRACT_HASH_SLOTS) * sizeof(long));
	if (twheel_hash_init(&ch->h, clk, ch->slots, TW_CONTRACT_HASH_SLOTS))
		return NULL;
	return &ch->h.e;
}

/* hash_sorted in the same memory: its wheel is a struct twheel_hash. */
static struct twheel_engine *tw_init_hash_sorted(void *mem, unsigned long clk)
{
	struct tw_contract_hash *ch = mem;
	struct twheel_hash_sorted *hs = container_of(&ch->h, struct twheel_hash_sorted,
						     wheel);

	if (twheel_hash_sorted_init(hs, clk, ch->slots, TW_CONTRACT_HASH_SLOTS))
		return NULL;
	return &hs->wheel.e;
}

/*
 * The simple engine with a MaxInterval above every delta the cases arm
 * (up to 100000 jiffies): none is refused here (simple_test.c refuses).
 */
#define TW_CONTRACT_SIMPLE_INTERVAL	BIT(17)

struct tw_contract_simple {
	struct twheel_simple s;
	struct list_head slots[TW_CONTRACT_SIMPLE_INTERVAL];
	unsigned long map[BITS_TO_LONGS(TW_CONTRACT_SIMPLE_INTERVAL)];
};

static struct twheel_engine *tw_init_simple(void *mem, unsigned long clk)
{
	struct tw_contract_simple *cs = mem;

	if (twheel_simple_init(&cs->s, clk, cs->slots, TW_CONTRACT_SIMPLE_INTERVAL))
		return NULL;
	return &cs->s.wheel.e;
}

static struct twheel_engine *tw_init_straight(void *mem, unsigned long clk)
{
	struct twheel_straight *s = mem;

	twheel_straight_init(s, clk);
	return &s->e;
}

static struct twheel_engine *tw_init_ordered(void *mem, unsigned long clk)
{
	struct twheel_ordered *o = mem;

	twheel_ordered_init(o, clk);
	return &o->e;
}

/*
 * The adapter of an engine whose init takes only its clock: struct
 * twheel_<name> with its engine in @e, twheel_<name>_init().
 */
#define TW_INIT_CLK_ONLY(name)						\
static struct twheel_engine *tw_init_##name(void *mem, unsigned long clk) \
{									\
	twheel_##name##_init(mem, clk);					\
	return &((struct twheel_##name *)mem)->e;			\
}

TW_INIT_CLK_ONLY(ratas)
TW_INIT_CLK_ONLY(volt)

/*
 * hash_vec with the hash engine's few slots, and spare arrays carved out
 * of its memory: as many of orders 0 and 1 as a case has timers (each
 * non-empty slot holds one array), and one of each order above up to one
 * slot holding every timer of the burst (131072 entries). It asks for
 * nothing more.
 */
#define TW_VEC_CONTRACT_TOP	15

struct tw_contract_vec {
	struct twheel_hash_vec hv;
	struct twheel_vec_slot slots[TW_CONTRACT_HASH_SLOTS];
	unsigned long map[BITS_TO_LONGS(TW_CONTRACT_HASH_SLOTS)];
	struct twheel_vec_entry ent[TW_NR_RECS * 4 + TW_NR_RECS * 8 +
				    (4UL << (TW_VEC_CONTRACT_TOP + 1)) - 16];
};

static struct twheel_engine *tw_init_hash_vec(void *mem, unsigned long clk)
{
	struct tw_contract_vec *cv = mem;
	struct twheel_vec_entry *ent = cv->ent;
	unsigned int k, i;

	if (twheel_hash_vec_init(&cv->hv, clk, cv->slots, TW_CONTRACT_HASH_SLOTS))
		return NULL;
	for (k = 0; k <= TW_VEC_CONTRACT_TOP; k++) {
		twheel_hash_vec_keep(&cv->hv, k, 0);
		for (i = 0; i < (k < 2 ? TW_NR_RECS : 1); i++) {
			twheel_hash_vec_give(&cv->hv, k, ent);
			ent += twheel_hash_vec_cap(k);
		}
	}
	if (ent != cv->ent + ARRAY_SIZE(cv->ent))
		return NULL;
	return &cv->hv.e;
}

static struct twheel_engine *tw_init_classic_bounded(void *mem, unsigned long clk)
{
	struct twheel_classic_bounded *c = mem;

	twheel_classic_bounded_init(c, clk);
	return &c->e;
}

/* Exact: at the expiry, or at the clock if the expiry is already past. */
static unsigned long tw_fires_exact(const struct twheel_engine *e,
				    unsigned long expires)
{
	return time_before(expires, e->clk) ? e->clk : expires;
}

/* The modern wheel: at the expiry of the bucket it is filed in. */
static unsigned long tw_fires_bucket(const struct twheel_engine *e,
				     unsigned long expires)
{
	const struct twheel_modern *m = container_of_const(e, struct twheel_modern, e);
	unsigned long bucket_expiry;

	twheel_modern_index(m, expires, &bucket_expiry);
	return bucket_expiry;
}

/*
 * Of the powers of two 2^top, 2^(top - step), ... down to 2^8, the largest
 * with a multiple in (lo, hi]: its latest multiple; else hi.
 */
static unsigned long tw_pick_powers(unsigned long lo, unsigned long hi,
				    int top, int step)
{
	unsigned long m;
	int s;

	for (s = top; s >= 8; s -= step) {
		m = hi & ~((1UL << s) - 1);
		if (m != lo && m - lo <= hi - lo)
			return m;
	}
	return hi;
}

/* The classic wheels' rule: their cascade points 2^26, 2^20, 2^14, 2^8. */
static unsigned long tw_pick_cascade(const struct twheel_engine *e,
				     unsigned long lo, unsigned long hi)
{
	return tw_pick_powers(lo, hi, 26, 6);
}

/*
 * The modern wheel's: the jiffy before hi's granule, if in the range; hi
 * if that is past.
 */
static unsigned long tw_pick_edge(const struct twheel_engine *e,
				  unsigned long lo, unsigned long hi)
{
	const struct twheel_modern *m = container_of_const(e, struct twheel_modern, e);
	unsigned long edge, x;
	unsigned int idx = twheel_modern_index(m, hi, &edge);

	if ((long)(hi - e->clk) < 0)
		return hi;
	x = edge - tw_lvl_gran(idx / TW_LVL_SIZE) - 1;
	return x - lo <= hi - lo ? x : hi;
}

/* ratas': its levels' powers of 256, 2^56 down to 2^8. */
static unsigned long tw_pick_digits(const struct twheel_engine *e,
				    unsigned long lo, unsigned long hi)
{
	return tw_pick_powers(lo, hi, 56, 8);
}

/* simple's: hi, or the last jiffy below MaxInterval if hi is beyond. */
static unsigned long tw_pick_simple(const struct twheel_engine *e,
				    unsigned long lo, unsigned long hi)
{
	unsigned long last = e->clk + TW_CONTRACT_SIMPLE_INTERVAL - 1;

	if ((long)(hi - e->clk) < 0 || hi - e->clk < TW_CONTRACT_SIMPLE_INTERVAL)
		return hi;		/* taken as it is */
	return last - lo <= hi - lo ? last : hi;
}

static const struct tw_engine_param tw_contract_engines[] = {
	{ "classic", sizeof(struct twheel_classic), tw_init_classic, tw_fires_exact,
	  tw_pick_cascade },
	{ "modern", sizeof(struct twheel_modern), tw_init_modern, tw_fires_bucket,
	  tw_pick_edge },
	{ "reference", sizeof(struct twheel_reference), tw_init_reference, tw_fires_exact },
	{ "heap", sizeof(struct tw_contract_heap), tw_init_heap, tw_fires_exact },
	{ "hash", sizeof(struct tw_contract_hash), tw_init_hash, tw_fires_exact },
	{ "simple", sizeof(struct tw_contract_simple), tw_init_simple, tw_fires_exact,
	  tw_pick_simple },
	{ "hash_sorted", sizeof(struct tw_contract_hash), tw_init_hash_sorted,
	  tw_fires_exact },
	{ "straight", sizeof(struct twheel_straight), tw_init_straight, tw_fires_exact },
	{ "ordered", sizeof(struct twheel_ordered), tw_init_ordered, tw_fires_exact },
	{ "ratas", sizeof(struct twheel_ratas), tw_init_ratas, tw_fires_exact,
	  tw_pick_digits },
	{ "volt", sizeof(struct twheel_volt), tw_init_volt, tw_fires_exact },
	{ "hash_vec", sizeof(struct tw_contract_vec), tw_init_hash_vec, tw_fires_exact },
	{ "classic_bounded", sizeof(struct twheel_classic_bounded),
	  tw_init_classic_bounded, tw_fires_exact, tw_pick_cascade },
};

static void tw_engine_desc(const struct tw_engine_param *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(tw_engine, tw_contract_engines, tw_engine_desc);

/* A case's state, in test->priv; everything is freed when the case ends. */
struct tw_contract {
	const struct tw_engine_param *p;
	void *mem;			/* the engine's structure */
	struct twheel_engine *e;
	struct tw_ctx ctx;
	struct tw_rec *r;
	unsigned int victims;		/* ids a callback deletes, as bits */
	unsigned long runs_at[4];	/* of a timer that re-arms itself */
};

/* Checks every run: at the jiffy the rule gave, never before the expiry. */
static void tw_contract_check(struct tw_rec *r)
{
	struct tw_ctx *ctx = r->ctx;

	if (r->fired_at != r->expect || time_before(r->fired_at, r->t.expires)) {
		ctx->bad++;
		KUNIT_FAIL(ctx->test, "timer %u (expires %lu) ran at %lu, expected at %lu",
			   r->id, r->t.expires, r->fired_at, r->expect);
	}
}

static int tw_contract_init(struct kunit *test)
{
	const struct tw_engine_param *p = test->param_value;
	struct tw_contract *c;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->p = p;
	c->mem = tw_kvzalloc(test, p->size);
	if (!c->mem)
		return -ENOMEM;
	c->e = p->init(c->mem, TW_CLK);
	if (!c->e)
		return -EINVAL;
	tw_ctx_init(&c->ctx, test, c->e);
	c->ctx.hook = tw_contract_check;
	c->r = tw_recs_new(test, &c->ctx, TW_NR_RECS);
	test->priv = c;
	return 0;
}

/* Starts the (still empty) engine over at another clock. */
static void tw_contract_restart(struct kunit *test, unsigned long clk)
{
	struct tw_contract *c = test->priv;

	KUNIT_ASSERT_EQ(test, c->e->st.added, 0ULL);
	KUNIT_ASSERT_PTR_EQ(test, c->p->init(c->mem, clk), c->e);
}

/* Arms timer i for expires and notes when the engine's rule runs it. */
static void tw_arm(struct kunit *test, unsigned int i, unsigned long expires)
{
	struct tw_contract *c = test->priv;

	c->r[i].expect = c->p->fires_at(c->e, expires);
	KUNIT_ASSERT_EQ(test, twheel_add(c->e, &c->r[i].t, expires), 0);
}

/* twheel_mod(), noting the new run jiffy unless the expiry stays. */
static bool tw_remod(struct kunit *test, unsigned int i, unsigned long expires)
{
	struct tw_contract *c = test->priv;
	struct tw_rec *r = &c->r[i];

	if (!twheel_pending(c->e, &r->t) || r->t.expires != expires)
		r->expect = c->p->fires_at(c->e, expires);
	return twheel_mod(c->e, &r->t, expires);
}

static void tw_run(struct kunit *test, unsigned long until)
{
	struct tw_contract *c = test->priv;

	tw_run_until(&c->ctx, until);
}

struct tw_counts {
	u64 added, deleted, expired, modified, mod_noop;
	unsigned long pending;
};

static void tw_expect_counts(struct kunit *test, const struct tw_counts *want,
			     const char *when)
{
	struct tw_contract *c = test->priv;
	const struct twheel_stats *st = &c->e->st;

	KUNIT_EXPECT_EQ_MSG(test, st->added, want->added, "%s", when);
	KUNIT_EXPECT_EQ_MSG(test, st->deleted, want->deleted, "%s", when);
	KUNIT_EXPECT_EQ_MSG(test, st->expired, want->expired, "%s", when);
	KUNIT_EXPECT_EQ_MSG(test, st->pending, want->pending, "%s", when);
	KUNIT_EXPECT_EQ_MSG(test, st->modified, want->modified, "%s", when);
	KUNIT_EXPECT_EQ_MSG(test, st->mod_noop, want->mod_noop, "%s", when);
	KUNIT_EXPECT_EQ_MSG(test, c->ctx.bad, 0UL, "%s", when);
	tw_check_invariant(test, c->e);
}

/* Timers in buckets, i.e. pending and not collected yet. */
static unsigned long tw_in_buckets(const struct twheel_engine *e)
{
	unsigned long per[TWHEEL_MAX_LEVELS], n = 0;
	unsigned int lvl;

	twheel_count(e, per);
	for (lvl = 0; lvl < e->nr_levels; lvl++)
		n += per[lvl];
	return n;
}

static void contract_del_return_values(struct kunit *test)
{
	struct tw_contract *c = test->priv;
	struct twheel_engine *e = c->e;
	struct tw_rec *r = c->r;

	KUNIT_EXPECT_FALSE(test, twheel_del(e, &r[0].t));	/* never added */
	tw_expect_counts(test, &(struct tw_counts){}, "del of a never-added timer");

	tw_arm(test, 0, TW_CLK + 10);
	KUNIT_EXPECT_EQ(test, twheel_add(e, &r[0].t, TW_CLK + 11), -EBUSY);
	KUNIT_EXPECT_EQ(test, r[0].t.expires, TW_CLK + 10);
	KUNIT_EXPECT_TRUE(test, twheel_pending(e, &r[0].t));
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &r[0].t));	/* pending */
	KUNIT_EXPECT_FALSE(test, twheel_pending(e, &r[0].t));
	KUNIT_EXPECT_EQ(test, tw_in_buckets(e), 0UL);
	KUNIT_EXPECT_FALSE(test, twheel_del(e, &r[0].t));	/* twice */
	tw_expect_counts(test, &(struct tw_counts){ .added = 1, .deleted = 1 },
			 "del of a pending timer");

	tw_arm(test, 1, TW_CLK + 20);
	tw_run(test, TW_CLK + 30);
	KUNIT_EXPECT_EQ(test, r[0].fired, 0U);		/* deleted: never runs */
	KUNIT_EXPECT_EQ(test, r[1].fired, 1U);
	KUNIT_EXPECT_EQ(test, r[1].fired_at, r[1].expect);
	KUNIT_EXPECT_FALSE(test, twheel_del(e, &r[1].t));	/* expired */
	tw_expect_counts(test, &(struct tw_counts){ .added = 2, .deleted = 1, .expired = 1 },
			 "del of an expired timer");
}

/* Collected by twheel_advance(), not popped yet: del takes it back. */
static void contract_del_collected_before_pop(struct kunit *test)
{
	struct tw_contract *c = test->priv;
	struct twheel_engine *e = c->e;
	struct tw_rec *r = c->r;

	tw_arm(test, 0, TW_CLK + 5);
	tw_arm(test, 1, TW_CLK + 5);
	tw_arm(test, 2, TW_CLK + 5000);
	KUNIT_EXPECT_TRUE(test, twheel_advance(e, r[0].expect));
	KUNIT_EXPECT_EQ(test, e->clk, r[0].expect + 1);
	KUNIT_EXPECT_EQ(test, tw_in_buckets(e), 1UL);
	KUNIT_EXPECT_TRUE(test, twheel_pending(e, &r[0].t));
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &r[0].t));	/* collected */
	KUNIT_EXPECT_FALSE(test, twheel_del(e, &r[0].t));
	KUNIT_EXPECT_TRUE(test, twheel_del(e, &r[2].t));	/* in a bucket */
	KUNIT_EXPECT_EQ(test, tw_in_buckets(e), 0UL);
	KUNIT_EXPECT_PTR_EQ(test, twheel_pop(e), &r[1].t);
	KUNIT_EXPECT_NULL(test, twheel_pop(e));
	KUNIT_EXPECT_FALSE(test, twheel_del(e, &r[1].t));	/* popped */
	tw_expect_counts(test, &(struct tw_counts){ .added = 3, .deleted = 2, .expired = 1 },
			 "after the pop");
	/* Nothing is left to run, ever. */
	tw_run(test, TW_CLK + 10000);
	KUNIT_EXPECT_EQ(test, c->ctx.runs, 0UL);
}

/* Runs up to the jiffy before timer i's run, then that jiffy. */
static void tw_expect_runs_at(struct kunit *test, unsigned int i)
{
	struct tw_contract *c = test->priv;
	struct tw_rec *r = &c->r[i];

	tw_run(test, r->expect - 1);
	KUNIT_EXPECT_EQ_MSG(test, r->fired, 0U, "timer %u before %lu", i, r->expect);
	tw_run(test, r->expect);
	KUNIT_EXPECT_EQ_MSG(test, r->fired, 1U, "timer %u at %lu", i, r->expect);
	KUNIT_EXPECT_EQ(test, r->fired_at, r->expect);
}

static void contract_mod_refiles_far(struct kunit *test)
{
	struct tw_contract *c = test->priv;
	struct tw_rec *r = c->r;

	/* mod of a timer that is not pending arms it. */
	KUNIT_EXPECT_FALSE(test, tw_remod(test, 0, TW_CLK + 10));
	tw_expect_counts(test, &(struct tw_counts){ .added = 1, .pending = 1 },
			 "mod arms");
	/* Far enough to go through a cascade in the classic wheel. */
	KUNIT_EXPECT_TRUE(test, tw_remod(test, 0, TW_CLK + 100000));
	KUNIT_EXPECT_EQ(test, r[0].t.expires, TW_CLK + 100000);
	tw_expect_runs_at(test, 0);
	KUNIT_EXPECT_GE(test, r[0].fired_at, TW_CLK + 100000);
	tw_run(test, r[0].expect + 100000);
	KUNIT_EXPECT_EQ(test, r[0].fired, 1U);
	tw_expect_counts(test, &(struct tw_counts){ .added = 1, .expired = 1, .modified = 1 },
			 "mod to a far expiry");
}

static void contract_mod_refiles_near(struct kunit *test)
{
	struct tw_contract *c = test->priv;
	struct tw_rec *r = c->r;

	tw_arm(test, 0, TW_CLK + 100000);
	tw_arm(test, 1, TW_CLK + 3000);
	tw_run(test, TW_CLK + 99);
	KUNIT_EXPECT_TRUE(test, tw_remod(test, 0, TW_CLK + 107));
	KUNIT_EXPECT_TRUE(test, tw_remod(test, 1, TW_CLK + 100));	/* clk itself */
	if (c->p->fires_at == tw_fires_exact)
		KUNIT_EXPECT_EQ(test, r[1].expect, TW_CLK + 100);
	tw_expect_runs_at(test, 1);
	tw_expect_runs_at(test, 0);
	/* Nothing at the old expiries. */
	tw_run(test, TW_CLK + 200000);
	KUNIT_EXPECT_EQ(test, r[0].fired, 1U);
	KUNIT_EXPECT_EQ(test, r[1].fired, 1U);
	KUNIT_EXPECT_EQ(test, c->ctx.runs, 2UL);
	tw_expect_counts(test, &(struct tw_counts){ .added = 2, .expired = 2, .modified = 2 },
			 "mod to a near expiry");
}

/*
 * mod to the expiry a timer already has touches nothing: neither that
 * timer nor its neighbours in the bucket change, and they run in the same
 * order as the same timers armed the same way without the mod.
 */
static void contract_mod_same_expiry(struct kunit *test)
{
	struct tw_contract *c = test->priv;
	struct tw_counts want = { .added = 8, .modified = 1, .mod_noop = 1 };
	struct twheel_timer before[4];
	unsigned int seq[8], i;
	unsigned long x;

	c->ctx.seq = seq;
	c->ctx.seq_max = ARRAY_SIZE(seq);
	x = TW_CLK + 300;
	for (i = 0; i < 4; i++)
		tw_arm(test, i, x);
	tw_run(test, x + 1000);
	KUNIT_ASSERT_EQ(test, c->ctx.seq_len, 4U);

	x = c->e->clk + 300;
	for (i = 0; i < 4; i++)
		tw_arm(test, 4 + i, x);
	for (i = 0; i < 4; i++)
		memcpy(&before[i], &c->r[4 + i].t, sizeof(before[i]));
	KUNIT_EXPECT_TRUE(test, tw_remod(test, 4, x));
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_MEMEQ_MSG(test, &c->r[4 + i].t, &before[i], sizeof(before[i]),
				       "timer %u", 4 + i);
	KUNIT_EXPECT_EQ(test, c->e->st.mod_inplace, 0ULL);
	want.pending = 4;
	want.expired = 4;
	tw_expect_counts(test, &want, "mod to the same expiry");
	tw_run(test, x + 1000);
	KUNIT_ASSERT_EQ(test, c->ctx.seq_len, 8U);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ_MSG(test, seq[4 + i], seq[i] + 4, "run %u", 4 + i);
	want.pending = 0;
	want.expired = 8;
	tw_expect_counts(test, &want, "after the runs");
}

/*
 * Re-arms itself twice: 3 jiffies ahead, then at the jiffy it is running
 * at, which the engine has processed already, so it runs at the next one.
 */
static void tw_rearm_hook(struct tw_rec *r)
{
	struct kunit *test = r->ctx->test;
	struct tw_contract *c = test->priv;

	tw_contract_check(r);
	if (r->fired <= ARRAY_SIZE(c->runs_at))
		c->runs_at[r->fired - 1] = r->fired_at;
	KUNIT_EXPECT_FALSE(test, twheel_pending(c->e, &r->t));
	if (r->fired == 1)
		KUNIT_EXPECT_FALSE(test, tw_remod(test, r->id, r->fired_at + 3));
	else if (r->fired == 2)
		KUNIT_EXPECT_FALSE(test, tw_remod(test, r->id, r->fired_at));
}

static void contract_callback_rearms_itself(struct kunit *test)
{
	struct tw_contract *c = test->priv;
	struct tw_rec *r = c->r;

	c->ctx.hook = tw_rearm_hook;
	tw_arm(test, 0, TW_CLK + 254);
	tw_run(test, TW_CLK + 100000);
	KUNIT_EXPECT_EQ(test, r[0].fired, 3U);
	KUNIT_EXPECT_GE(test, c->runs_at[0], TW_CLK + 254);
	KUNIT_EXPECT_GE(test, c->runs_at[1], c->runs_at[0] + 3);
	KUNIT_EXPECT_EQ(test, c->runs_at[2], c->runs_at[1] + 1);
	if (c->p->fires_at == tw_fires_exact) {
		KUNIT_EXPECT_EQ(test, c->runs_at[0], TW_CLK + 254);
		KUNIT_EXPECT_EQ(test, c->runs_at[1], TW_CLK + 257);
		KUNIT_EXPECT_EQ(test, c->runs_at[2], TW_CLK + 258);
	}
	KUNIT_EXPECT_FALSE(test, twheel_pending(c->e, &r[0].t));
	tw_expect_counts(test, &(struct tw_counts){ .added = 3, .expired = 3 },
			 "a callback that re-arms itself");
}

/* The first timer to run deletes every timer in c->victims. */
static void tw_delete_hook(struct tw_rec *r)
{
	struct kunit *test = r->ctx->test;
	struct tw_contract *c = test->priv;
	unsigned int i;

	tw_contract_check(r);
	if (r->ctx->runs != 1)
		return;
	for (i = 0; i < TW_NR_RECS; i++) {
		if (!(c->victims & BIT(i)))
			continue;
		/* Its own timer was popped: not pending any more. */
		KUNIT_EXPECT_EQ_MSG(test, twheel_del(c->e, &c->r[i].t), i != r->id,
				    "timer %u deletes timer %u", r->id, i);
	}
}

static void contract_callback_deletes_pending(struct kunit *test)
{
	struct tw_contract *c = test->priv;
	struct tw_rec *r = c->r;

	c->ctx.hook = tw_delete_hook;
	c->victims = BIT(1) | BIT(2);
	tw_arm(test, 0, TW_CLK + 50);
	tw_arm(test, 1, TW_CLK + 51);		/* the next jiffy */
	tw_arm(test, 2, TW_CLK + 100000);	/* far */
	tw_arm(test, 3, TW_CLK + 60);
	tw_run(test, TW_CLK + 200000);
	KUNIT_EXPECT_EQ(test, r[0].fired, 1U);
	KUNIT_EXPECT_EQ(test, r[1].fired, 0U);
	KUNIT_EXPECT_EQ(test, r[2].fired, 0U);
	KUNIT_EXPECT_EQ(test, r[3].fired, 1U);
	KUNIT_EXPECT_EQ(test, r[3].fired_at, r[3].expect);
	tw_expect_counts(test, &(struct tw_counts){ .added = 4, .deleted = 2, .expired = 2 },
			 "a callback that deletes pending timers");
}

/*
 * Three timers due at the same jiffy are all collected before the first
 * runs; whichever runs first deletes the other two, which never run.
 */
static void contract_callback_deletes_collected(struct kunit *test)
{
	struct tw_contract *c = test->priv;
	struct tw_rec *r = c->r;
	unsigned int i, ran = 0;

	c->ctx.hook = tw_delete_hook;
	for (i = 0; i < 3; i++)
		tw_arm(test, i, TW_CLK + 40);
	tw_arm(test, 3, r[0].expect + 1);
	/* Each of the three deletes the others if it runs first. */
	c->victims = BIT(0) | BIT(1) | BIT(2);
	tw_run(test, r[0].expect);
	for (i = 0; i < 3; i++)
		ran += r[i].fired;
	KUNIT_EXPECT_EQ(test, ran, 1U);
	KUNIT_EXPECT_EQ(test, c->ctx.runs, 1UL);
	KUNIT_EXPECT_EQ(test, r[3].fired, 0U);
	tw_run(test, r[0].expect + 100);
	KUNIT_EXPECT_EQ(test, r[3].fired, 1U);
	for (i = 0, ran = 0; i < 3; i++)
		ran += r[i].fired;
	KUNIT_EXPECT_EQ(test, ran, 1U);
	tw_expect_counts(test, &(struct tw_counts){ .added = 4, .deleted = 2, .expired = 2 },
			 "a callback that deletes collected timers");
}

/* Each armed timer has run once if its run jiffy is not after until. */
static void tw_expect_ran_by(struct kunit *test, unsigned long until,
			     unsigned int n)
{
	struct tw_contract *c = test->priv;
	unsigned int i;

	tw_run(test, until);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ_MSG(test, c->r[i].fired,
				    time_after(c->r[i].expect, until) ? 0U : 1U,
				    "timer %u (runs at %lu) by %lu", i, c->r[i].expect, until);
}

/* A clock just below ULONG_MAX, timers on both sides of the wrap. */
static void contract_clock_wrap(struct kunit *test)
{
	const unsigned long clk = ULONG_MAX - 100;
	static const unsigned long deltas[] = { 50, 100, 101, 102, 400, 70000 };
	struct tw_contract *c = test->priv;
	struct tw_counts want = {};
	struct tw_rec *r = c->r;
	unsigned long first = ULONG_MAX;
	unsigned int i, n = ARRAY_SIZE(deltas);

	tw_contract_restart(test, clk);
	for (i = 0; i < n; i++)
		tw_arm(test, i, clk + deltas[i]);
	tw_arm(test, n, clk - 10);		/* past: runs at clk */
	KUNIT_EXPECT_EQ(test, r[n].expect, clk);
	tw_arm(test, n + 1, clk + 20);		/* moved across the wrap below */
	for (i = 0; i < n + 2; i++)
		first = min(first, r[i].expect - clk);
	KUNIT_EXPECT_LE(test, twheel_next_event(c->e, ULONG_MAX), first);

	tw_expect_ran_by(test, clk + 10, n + 2);
	KUNIT_EXPECT_TRUE(test, tw_remod(test, n + 1, 5));
	tw_expect_ran_by(test, ULONG_MAX - 1, n + 2);
	tw_expect_ran_by(test, ULONG_MAX, n + 2);
	tw_expect_ran_by(test, 0, n + 2);
	tw_expect_ran_by(test, 1, n + 2);
	tw_expect_ran_by(test, 500, n + 2);
	tw_expect_ran_by(test, 100000, n + 2);
	KUNIT_EXPECT_EQ(test, c->e->clk, 100001UL);
	if (c->p->fires_at == tw_fires_exact) {
		KUNIT_EXPECT_EQ(test, r[1].fired_at, ULONG_MAX);
		KUNIT_EXPECT_EQ(test, r[2].fired_at, 0UL);
		KUNIT_EXPECT_EQ(test, r[3].fired_at, 1UL);
		KUNIT_EXPECT_EQ(test, r[n + 1].fired_at, 5UL);
	}
	want.added = n + 2;
	want.expired = n + 2;
	want.modified = 1;
	tw_expect_counts(test, &want, "across the wrap");
}

/* The roundest jiffy of a range: examples, then every range's property. */
static void contract_range_pick(struct kunit *test)
{
	struct rnd_state rs;
	unsigned long lo, hi, p, next, bad = 0;
	unsigned int i, z;

	KUNIT_EXPECT_EQ(test, twheel_range_pick(1000, 1000), 1000UL);
	KUNIT_EXPECT_EQ(test, twheel_range_pick(1000, 1100), 1024UL);
	KUNIT_EXPECT_EQ(test, twheel_range_pick(8, 15), 8UL);
	KUNIT_EXPECT_EQ(test, twheel_range_pick(9, 15), 12UL);
	KUNIT_EXPECT_EQ(test, twheel_range_pick(1030, 1200), 1152UL);
	KUNIT_EXPECT_EQ(test, twheel_range_pick(1100, 1150), 1120UL);
	KUNIT_EXPECT_EQ(test, twheel_range_pick(ULONG_MAX - 5, 10), 0UL);
	prandom_seed_state(&rs, 11);
	for (i = 0; i < 10000; i++) {
		lo = prandom_u32_state(&rs) | (u64)prandom_u32_state(&rs) << 32;
		hi = lo + (prandom_u32_state(&rs) >> (prandom_u32_state(&rs) % 32));
		p = twheel_range_pick(lo, hi);
		if (p - lo > hi - lo) {
			bad++;
			continue;
		}
		if (!p)
			continue;
		/* no jiffy of the range has more low zero bits than p */
		z = __ffs(p) + 1;
		if (z >= BITS_PER_LONG)
			continue;
		next = (lo + (1UL << z) - 1) & ~((1UL << z) - 1);
		if (next >= lo && next <= hi)
			bad++;
	}
	KUNIT_EXPECT_EQ(test, bad, 0UL);
}

/*
 * Range arming on every engine: a pending timer already in the range is
 * left alone (no relink, a mod_noop); out of it, the engine's pick in the
 * new range, which the engine then keeps to as to any expiry.
 */
static void contract_range_mod(struct kunit *test)
{
	struct tw_contract *c = test->priv;
	struct twheel_engine *e = c->e;
	struct tw_rec *r = c->r;
	unsigned long x = TW_CLK + 700, p;

	r[0].expect = c->p->fires_at(e, twheel_range_expiry(e, x, x + 40));
	KUNIT_ASSERT_EQ(test, twheel_add_range(e, &r[0].t, x, x + 40), 0);
	KUNIT_EXPECT_EQ(test, r[0].t.expires, twheel_range_expiry(e, x, x + 40));
	p = r[0].t.expires;
	KUNIT_EXPECT_TRUE(test, twheel_mod_range(e, &r[0].t, p - 30, p + 30));
	KUNIT_EXPECT_EQ(test, r[0].t.expires, p);
	KUNIT_EXPECT_EQ(test, e->st.mod_noop, 1ULL);
	r[0].expect = c->p->fires_at(e, twheel_range_expiry(e, x + 500, x + 600));
	KUNIT_EXPECT_TRUE(test, twheel_mod_range(e, &r[0].t, x + 500, x + 600));
	KUNIT_EXPECT_EQ(test, r[0].t.expires, twheel_range_expiry(e, x + 500, x + 600));
	KUNIT_EXPECT_EQ(test, e->st.mod_noop, 1ULL);
	/* not pending: armed at the pick */
	r[1].expect = c->p->fires_at(e, twheel_range_expiry(e, x, x + 3));
	KUNIT_EXPECT_FALSE(test, twheel_mod_range(e, &r[1].t, x, x + 3));
	tw_run(test, x + 2000);
	KUNIT_EXPECT_EQ(test, r[0].fired, 1U);
	KUNIT_EXPECT_EQ(test, r[1].fired, 1U);
	KUNIT_EXPECT_EQ(test, c->ctx.bad, 0UL);
	tw_check_invariant(test, e);
}

/*
 * Each engine's range rule (twheel_range_expiry()): examples, then 20000
 * random ranges at random clocks, up to 2^27 jiffies out and 2^20 wide
 * (a tenth across the clock's wrap), against the rule stated independently
 * in tw_contract_engines[]; every pick is in its range.
 */
static void contract_range_rule(struct kunit *test)
{
	struct tw_contract *c = test->priv;
	struct twheel_engine *e = c->e;
	unsigned long lo, hi, x, want, bad = 0, outside = 0;
	struct rnd_state rs;
	unsigned int i;

	if (c->p->range_pick == tw_pick_cascade) {
		/* 4352 = 17 * 256; 2^14 = 16384; 2^20 in [10^6, 1.1 * 10^6] */
		KUNIT_EXPECT_EQ(test, twheel_range_expiry(e, 4000, 4500), 4352UL);
		KUNIT_EXPECT_EQ(test, twheel_range_expiry(e, 4000, 4100), 4096UL);
		KUNIT_EXPECT_EQ(test, twheel_range_expiry(e, 16000, 17000), 16384UL);
		KUNIT_EXPECT_EQ(test, twheel_range_expiry(e, 1000000, 1100000), 1UL << 20);
		KUNIT_EXPECT_EQ(test, twheel_range_expiry(e, 4097, 4300), 4300UL);
	} else if (c->p->range_pick == tw_pick_edge) {
		/* level 1 (8 jiffies) from clk 1000: 1200's granule is 1200-1207 */
		KUNIT_EXPECT_EQ(test, twheel_range_expiry(e, TW_CLK + 180, TW_CLK + 203),
				TW_CLK + 199UL);
		KUNIT_EXPECT_EQ(test, twheel_range_expiry(e, TW_CLK + 201, TW_CLK + 203),
				TW_CLK + 203UL);
	} else if (c->p->range_pick == tw_pick_digits) {
		/* 4096 = 16 * 256; 2^16 = 65536 */
		KUNIT_EXPECT_EQ(test, twheel_range_expiry(e, 4000, 4500), 4352UL);
		KUNIT_EXPECT_EQ(test, twheel_range_expiry(e, 60000, 70000), 65536UL);
		KUNIT_EXPECT_EQ(test, twheel_range_expiry(e, 4097, 4300), 4300UL);
	} else if (!c->p->range_pick) {
		KUNIT_EXPECT_EQ(test, twheel_range_expiry(e, 4000, 4500), 4500UL);
	}
	prandom_seed_state(&rs, 15);
	for (i = 0; i < 20000; i++) {
		e->clk = i % 10 ? prandom_u32_state(&rs) : ULONG_MAX - (1UL << 21);
		lo = e->clk + (prandom_u32_state(&rs) >> (5 + prandom_u32_state(&rs) % 20));
		hi = lo + (prandom_u32_state(&rs) >> (12 + prandom_u32_state(&rs) % 20));
		x = twheel_range_expiry(e, lo, hi);
		want = c->p->range_pick ? c->p->range_pick(e, lo, hi) : hi;
		outside += x - lo > hi - lo;
		if (x != want && !bad++)
			KUNIT_FAIL(test, "clk %lu [%lu, %lu]: picked %lu, want %lu",
				   e->clk, lo, hi, x, want);
	}
	KUNIT_EXPECT_EQ(test, bad, 0UL);
	KUNIT_EXPECT_EQ(test, outside, 0UL);
	e->clk = TW_CLK;
}

#define TW_BURST	100000
#define TW_BUDGET	1000

KUNIT_DEFINE_ACTION_WRAPPER(tw_vfree, vfree, const void *);

/* A big buffer, freed when the case ends. */
static void *tw_vzalloc(struct kunit *test, size_t size)
{
	void *p = vzalloc(size);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tw_vfree, p), 0);
	return p;
}

/* One engine running the burst, and what its callbacks saw. */
struct tw_burst {
	struct twheel_engine *e;
	struct twheel_timer *t;
	unsigned int *order;		/* timer ids in the order they ran */
	u8 *ran;			/* runs per timer */
	unsigned long now, runs, off_now, late_max, fire;
};

static void tw_burst_fn(struct twheel_timer *t, unsigned long jiffy, void *arg)
{
	struct tw_burst *b = arg;
	unsigned int i = t - b->t;

	b->order[b->runs++] = i;
	b->ran[i]++;
	/* a timer a budget held back runs in the jiffy it really runs in */
	b->off_now += jiffy != b->now;
	b->late_max = max(b->late_max, jiffy - b->fire);
}

static void tw_burst_setup(struct kunit *test, struct tw_burst *b, void *mem)
{
	struct tw_contract *c = test->priv;
	unsigned int i;

	b->e = c->p->init(mem, TW_CLK);
	KUNIT_ASSERT_NOT_NULL(test, b->e);
	b->t = tw_vzalloc(test, TW_BURST * sizeof(*b->t));
	b->order = tw_vzalloc(test, TW_BURST * sizeof(*b->order));
	b->ran = tw_vzalloc(test, TW_BURST);
	/*
	 * The heap's array here has room for a case's few timers only, and
	 * straight and ordered (O(n) a tick, an add) are capped at 8192 in
	 * the module: the burst is for the others.
	 */
	if (!strcmp(c->p->name, "heap") || !strcmp(c->p->name, "straight") ||
	    !strcmp(c->p->name, "ordered"))
		kunit_skip(test, "%s holds fewer than %u timers here", c->p->name,
			   TW_BURST);
	for (i = 0; i < TW_BURST; i++) {
		twheel_timer_setup(b->e, &b->t[i], NULL);
		KUNIT_ASSERT_EQ(test, twheel_add(b->e, &b->t[i], TW_CLK + 200), 0);
	}
	b->fire = c->p->fires_at(b->e, TW_CLK + 200);
}

/*
 * 100000 timers due at one jiffy, run with a budget of 1000 units a tick:
 * exactly 100 ticks run them, 1000 each, every timer once, none before its
 * jiffy, in the order the same engine runs them with no budget; the k-th
 * of those ticks is k jiffies late, and says so. An engine that re-files
 * them on the way (volt, at 1152) is charged for it in a tick of its own,
 * which stops there and runs nothing.
 */
static void contract_budget_burst(struct kunit *test)
{
	struct tw_contract *c = test->priv;
	struct tw_burst free_run = {}, b = {};
	struct twheel_run run;
	unsigned long ran, ticks = 0, stopped = 0, leftover = 0, i;
	u64 cascaded;

	tw_burst_setup(test, &free_run, tw_vzalloc(test, c->p->size));
	free_run.now = free_run.fire;
	twheel_run_until(free_run.e, free_run.fire, tw_burst_fn, &free_run);
	KUNIT_ASSERT_EQ(test, free_run.runs, (unsigned long)TW_BURST);

	tw_burst_setup(test, &b, tw_vzalloc(test, c->p->size));
	for (b.now = TW_CLK; b.now < b.fire + 200; b.now++) {
		memset(&run, 0, sizeof(run));
		run.budget = TW_BUDGET;
		cascaded = b.e->st.cascaded;
		ran = twheel_run(b.e, b.now, tw_burst_fn, &b, &run);
		KUNIT_EXPECT_LE(test, ran, (unsigned long)TW_BUDGET);
		KUNIT_EXPECT_EQ(test, run.used, ran + b.e->st.cascaded - cascaded);
		ticks += ran > 0;
		stopped += run.stopped && ran;
		leftover += run.leftover;
		if (ran)
			KUNIT_EXPECT_EQ(test, ran, (unsigned long)TW_BUDGET);
	}
	KUNIT_EXPECT_EQ(test, ticks, (unsigned long)TW_BURST / TW_BUDGET);
	KUNIT_EXPECT_EQ(test, stopped, (unsigned long)TW_BURST / TW_BUDGET);
	KUNIT_EXPECT_EQ(test, leftover, (unsigned long)TW_BURST - TW_BUDGET);
	KUNIT_EXPECT_EQ(test, b.runs, (unsigned long)TW_BURST);
	KUNIT_EXPECT_EQ(test, b.off_now, 0UL);
	KUNIT_EXPECT_EQ(test, b.late_max, (unsigned long)TW_BURST / TW_BUDGET - 1);
	KUNIT_EXPECT_EQ(test, b.e->st.pending, 0UL);
	KUNIT_EXPECT_EQ(test, b.e->clk, b.fire + 200);
	for (i = 0; i < TW_BURST; i++) {
		if (b.ran[i] != 1) {
			KUNIT_FAIL(test, "timer %lu ran %u times", i, b.ran[i]);
			break;
		}
	}
	for (i = 0; i < TW_BURST; i++) {
		if (b.order[i] != free_run.order[i]) {
			KUNIT_FAIL(test, "run %lu: timer %u, without a budget timer %u",
				   i, b.order[i], free_run.order[i]);
			break;
		}
	}
	tw_check_invariant(test, b.e);
}

static struct kunit_case tw_contract_cases[] = {
	KUNIT_CASE_PARAM(contract_del_return_values, tw_engine_gen_params),
	KUNIT_CASE_PARAM(contract_del_collected_before_pop, tw_engine_gen_params),
	KUNIT_CASE_PARAM(contract_mod_refiles_far, tw_engine_gen_params),
	KUNIT_CASE_PARAM(contract_mod_refiles_near, tw_engine_gen_params),
	KUNIT_CASE_PARAM(contract_mod_same_expiry, tw_engine_gen_params),
	KUNIT_CASE_PARAM(contract_callback_rearms_itself, tw_engine_gen_params),
	KUNIT_CASE_PARAM(contract_callback_deletes_pending, tw_engine_gen_params),
	KUNIT_CASE_PARAM(contract_callback_deletes_collected, tw_engine_gen_params),
	KUNIT_CASE_PARAM(contract_clock_wrap, tw_engine_gen_params),
	KUNIT_CASE_PARAM(contract_range_mod, tw_engine_gen_params),
	KUNIT_CASE_PARAM(contract_range_pick, tw_engine_gen_params),
	KUNIT_CASE_PARAM(contract_range_rule, tw_engine_gen_params),
	KUNIT_CASE_PARAM_ATTR(contract_budget_burst, tw_engine_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	{}
};

static struct kunit_suite tw_contract_suite = {
	.name = "twheel_contract",
	.init = tw_contract_init,
	.test_cases = tw_contract_cases,
};

kunit_test_suite(tw_contract_suite);

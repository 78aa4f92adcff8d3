// SPDX-License-Identifier: GPL-2.0
/*
 * The engines under the API contract (contract_test.c): each one's adapter
 * to the table's init type, its expiry rule (when a timer armed for
 * @expires runs) and its range rule stated independently of the engine,
 * and the fixture every contract case starts from. Adding an engine is one
 * line in tw_contract_engines[] and a five-line adapter like
 * tw_init_classic() (and the engine its storage, as tw_init_heap() does).
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/string.h>
#include "contract.h"
#include "engines/hash.h"
#include "engines/hash_sorted.h"
#include "engines/hash_vec.h"
#include "engines/heap.h"
#include "engines/ordered.h"
#include "engines/simple.h"
#include "engines/straight.h"

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
unsigned long tw_fires_exact(const struct twheel_engine *e,
			     unsigned long expires)
{
	return time_before(expires, e->clk) ? e->clk : expires;
}

/* The modern wheel: at the expiry of the bucket it is filed in. */
unsigned long tw_fires_bucket(const struct twheel_engine *e,
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
unsigned long tw_pick_cascade(const struct twheel_engine *e,
			      unsigned long lo, unsigned long hi)
{
	return tw_pick_powers(lo, hi, 26, 6);
}

/*
 * The modern wheel's: the jiffy before hi's granule, if in the range; hi
 * if that is past.
 */
unsigned long tw_pick_edge(const struct twheel_engine *e,
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
unsigned long tw_pick_digits(const struct twheel_engine *e,
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

/* The contract suite's parameters: every engine of tw_contract_engines[]. */
const void *tw_contract_params(const void *prev, char *desc)
{
	return tw_engine_gen_params(prev, desc);
}

/* Checks every run: at the jiffy the rule gave, never before the expiry. */
void tw_contract_check(struct tw_rec *r)
{
	struct tw_ctx *ctx = r->ctx;

	if (r->fired_at != r->expect || time_before(r->fired_at, r->t.expires)) {
		ctx->bad++;
		KUNIT_FAIL(ctx->test, "timer %u (expires %lu) ran at %lu, expected at %lu",
			   r->id, r->t.expires, r->fired_at, r->expect);
	}
}

int tw_contract_init(struct kunit *test)
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
void tw_contract_restart(struct kunit *test, unsigned long clk)
{
	struct tw_contract *c = test->priv;

	KUNIT_ASSERT_EQ(test, c->e->st.added, 0ULL);
	KUNIT_ASSERT_PTR_EQ(test, c->p->init(c->mem, clk), c->e);
}

/* Arms timer i for expires and notes when the engine's rule runs it. */
void tw_ct_arm(struct kunit *test, unsigned int i, unsigned long expires)
{
	struct tw_contract *c = test->priv;

	c->r[i].expect = c->p->fires_at(c->e, expires);
	KUNIT_ASSERT_EQ(test, twheel_add(c->e, &c->r[i].t, expires), 0);
}

/* twheel_mod(), noting the new run jiffy unless the expiry stays. */
bool tw_ct_remod(struct kunit *test, unsigned int i, unsigned long expires)
{
	struct tw_contract *c = test->priv;
	struct tw_rec *r = &c->r[i];

	if (!twheel_pending(c->e, &r->t) || r->t.expires != expires)
		r->expect = c->p->fires_at(c->e, expires);
	return twheel_mod(c->e, &r->t, expires);
}

void tw_ct_run(struct kunit *test, unsigned long until)
{
	struct tw_contract *c = test->priv;

	tw_run_until(&c->ctx, until);
}

void tw_ct_expect_counts(struct kunit *test, const struct tw_counts *want,
			 const char *when)
{
	struct tw_contract *c = test->priv;
	const struct twheel_stats *st = &c->e->st;

	KUNIT_EXPECT_EQ_MSG(test, st->added, want->added, "%s", when);
	KUNIT_EXPECT_EQ_MSG(test, st->deleted, want->deleted, "%s", when);
	KUNIT_EXPECT_EQ_MSG(test, st->expired, want->expired, "%s", when);
	KUNIT_EXPECT_EQ_MSG(test, twheel_stats_pending(st), want->pending, "%s", when);
	KUNIT_EXPECT_EQ_MSG(test, st->modified, want->modified, "%s", when);
	KUNIT_EXPECT_EQ_MSG(test, st->mod_noop, want->mod_noop, "%s", when);
	KUNIT_EXPECT_EQ_MSG(test, c->ctx.bad, 0UL, "%s", when);
	tw_check_invariant(test, c->e);
}

/* Timers in buckets, i.e. pending and not collected yet. */
unsigned long tw_ct_in_buckets(const struct twheel_engine *e)
{
	unsigned long per[TWHEEL_MAX_LEVELS], n = 0;
	unsigned int lvl;

	twheel_count(e, per);
	for (lvl = 0; lvl < e->nr_levels; lvl++)
		n += per[lvl];
	return n;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The engines under the API contract (contract_test.c): every engine of the
 * registry (engines/list.h), set up through the one constructor, with its
 * expiry rule (when a timer armed for @expires runs: exact for the EXACT
 * engines) and its range rule (hi, unless tw_contract_rules[] states its
 * own, independently of the engine), and the fixture every contract case
 * starts from. A new exact engine without a range rule needs nothing here.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/string.h>
#include "contract.h"
#include "engines/hash_vec.h"

/*
 * What every engine is set up with here: the hashed wheels with few slots,
 * so that the cases' far timers wait many rounds; simple with a MaxInterval
 * above every delta the cases arm (up to 100000 jiffies: none is refused
 * here, simple_test.c refuses); the heap with room for every timer of a
 * case. The engine's state, then its storage, in one allocation.
 */
#define TW_CONTRACT_HASH_SLOTS		16
#define TW_CONTRACT_SIMPLE_INTERVAL	BIT(17)

static const struct twheel_config tw_contract_cfg = {
	.slots = TW_CONTRACT_HASH_SLOTS,
	.max_interval = TW_CONTRACT_SIMPLE_INTERVAL,
	.cap = TW_NR_RECS,
};

static size_t tw_contract_state(const struct twheel_ops *ops)
{
	return ALIGN(ops->size, sizeof(long));
}

static size_t tw_contract_size(const struct twheel_ops *ops)
{
	return tw_contract_state(ops) + twheel_storage_size(ops, &tw_contract_cfg);
}

static struct twheel_engine *tw_contract_create(const struct twheel_ops *ops,
						void *mem, unsigned long clk)
{
	void *storage = twheel_storage_size(ops, &tw_contract_cfg) ?
			(char *)mem + tw_contract_state(ops) : NULL;
	struct twheel_engine *e;

	return twheel_create(ops, mem, clk, &tw_contract_cfg, storage, &e) ? NULL : e;
}

/**
 * tw_ct_new() - set up a contract case's engine in its memory
 * @p: the engine under the contract
 * @mem: @p->size bytes, zeroed
 * @clk: its clock
 *
 * Return: the engine, through its own set-up (@p->init) or the one
 * constructor (twheel_create() with the contract's configuration); NULL
 * if it refused.
 */
struct twheel_engine *tw_ct_new(const struct tw_engine_param *p, void *mem,
				unsigned long clk)
{
	return p->init ? p->init(mem, clk) : tw_contract_create(p->ops, mem, clk);
}

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

/*
 * An engine's rules here, where they are not the defaults: exact (EXACT in
 * the registry) or no expiry rule at all (a LATE engine must state one),
 * and hi for a range; its own set-up where the one constructor does not
 * do. Each rule is stated independently of the engine.
 */
static const struct tw_engine_param tw_contract_rules[] = {
	{ "classic", .range_pick = tw_pick_cascade },
	{ "classic_bounded", .range_pick = tw_pick_cascade },
	{ "modern", .fires_at = tw_fires_bucket, .range_pick = tw_pick_edge },
	{ "ratas", .range_pick = tw_pick_digits },
	{ "simple", .range_pick = tw_pick_simple },
	{ "hash_vec", .size = sizeof(struct tw_contract_vec), .init = tw_init_hash_vec },
};

#define TW_FIRES_EXACT	tw_fires_exact
#define TW_FIRES_LATE	NULL
#define TW_CONTRACT_PARAM(id, ID, exact, ...) \
	[TWHEEL_##ID] = { .name = #id, .fires_at = TW_FIRES_##exact }

/* Every engine of the registry, in the order of their kinds. */
static struct tw_engine_param tw_contract_engines[TWHEEL_NR_KINDS] = {
#define TWHEEL_ENGINE(name, NAME, path, exact)	TW_CONTRACT_PARAM(name, NAME, exact, path),
#include "engines/list.h"
#undef TWHEEL_ENGINE
};

/* The contract suite's parameters: every engine, its rules applied. */
const void *tw_contract_params(const void *prev, char *desc)
{
	struct tw_engine_param *p = prev ? (struct tw_engine_param *)prev + 1 :
					   tw_contract_engines;
	const struct tw_engine_param *rule;

	if (p >= tw_contract_engines + TWHEEL_NR_KINDS)
		return NULL;
	if (!p->size) {
		p->ops = twheel_ops_of(p - tw_contract_engines);
		p->size = tw_contract_size(p->ops);
		for (rule = tw_contract_rules;
		     rule < tw_contract_rules + ARRAY_SIZE(tw_contract_rules); rule++) {
			if (strcmp(rule->name, p->name))
				continue;
			if (rule->init) {
				p->size = rule->size;
				p->init = rule->init;
			}
			if (rule->fires_at)
				p->fires_at = rule->fires_at;
			p->range_pick = rule->range_pick;
		}
	}
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
	return p;
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
	if (!p->fires_at) {
		KUNIT_FAIL(test, "%s may run a timer late: the contract needs its expiry rule",
			   p->name);
		return -EINVAL;
	}
	c->mem = tw_kvzalloc(test, p->size);
	if (!c->mem)
		return -ENOMEM;
	c->e = tw_ct_new(p, c->mem, TW_CLK);
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
	KUNIT_ASSERT_PTR_EQ(test, tw_ct_new(c->p, c->mem, clk), c->e);
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

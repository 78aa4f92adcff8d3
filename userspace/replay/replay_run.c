// SPDX-License-Identifier: GPL-2.0
/*
 * The replay's operations (replay_core.c) played through one engine: the
 * engines it knows, each made as the module makes it, the play loop with
 * its lateness and worst-tick accounting, and callgrind's collection of
 * one kind of call at a time.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <valgrind/callgrind.h>
#include <linux/jiffies.h>
#include "replay_lib.h"
#include "twheel_user.h"
#include "vec_pool.h"

/* Every engine of the registry (engines/list.h), in the order of its kinds. */
#define RP_EXACT_EXACT	1
#define RP_EXACT_LATE	0
#define RP_KIND(name, NAME, path, exact)	\
	{ #name, TWHEEL_##NAME, RP_EXACT_##exact },
const struct rp_engine_kind rp_engines[] = {
#define TWHEEL_ENGINE(name, NAME, path, exact)	RP_KIND(name, NAME, path, exact)
#include "engines/list.h"
#undef TWHEEL_ENGINE
};
const unsigned int rp_nr_engines = ARRAY_SIZE(rp_engines);

/*
 * A new engine of kind k, with its clock at clk, room for cap timers where
 * it needs to be told (the heap), and the sizes the module gives them by
 * default (the hashed wheels: 256 slots; simple: MaxInterval 4096);
 * the one user-space constructor. Its memory is u's, for
 * tw_user_engine_free().
 */
static struct twheel_engine *rp_engine_new(const struct rp_engine_kind *k,
					   unsigned long clk, unsigned int cap,
					   struct tw_user_engine *u)
{
	struct twheel_config cfg = tw_user_config();

	cfg.cap = cap;
	if (tw_user_engine_make(u, twheel_engine_ops[k->kind], clk, &cfg))
		return NULL;
	tw_user_feed(u->e);	/* hash_vec: its first spares */
	return u->e;
}

/* Playing a stream through an engine. */

struct rp_play {
	struct twheel_engine *e;
	struct twheel_timer *tm;
	unsigned long *due;
	struct rp_bref *due_b;	/* modern's: each timer's start's bucket_expiry */
	size_t start;		/* the RP_START operations so far */
	struct rp_result *res;
	unsigned long jiffy;	/* the tick whose work is being added up */
	uint64_t work;
};

static double rp_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* What a pair of rp_now() costs: the least of a few tries. */
static double rp_now_cost(void)
{
	static double cost = -1;
	double t, d;
	int i;

	for (i = 0; cost < 0 && i < 1000; i++) {
		t = rp_now();
		d = rp_now() - t;
		if (!i || d < cost)
			cost = d;
	}
	return cost < 0 ? 0 : cost;
}

static void rp_tick_work(struct rp_play *p, unsigned long jiffy, uint64_t n)
{
	if (jiffy != p->jiffy) {
		if (p->work > p->res->worst_work)
			p->res->worst_work = p->work;
		p->jiffy = jiffy;
		p->work = 0;
	}
	p->work += n;
}

static void rp_fired(struct twheel_timer *t, unsigned long jiffy, void *arg)
{
	struct rp_play *p = arg;
	struct rp_result *r = p->res;
	unsigned long due = p->due[t - p->tm];

	if (time_before(jiffy, due))
		r->early++;
	else
		r->late[r->nlate++] = jiffy - due;
	if (p->due_b && p->due_b[t - p->tm].known) {
		due = p->due_b[t - p->tm].v;
		r->early_b += time_before(jiffy, due);
		r->late_b[r->nlate_b++] = time_before(jiffy, due) ? 0 : jiffy - due;
	}
	rp_tick_work(p, jiffy, 1);
}

/* Callgrind collects only the calls of kind c->collect. */
#define RP_COLLECT(collect, kind)					\
	do {								\
		if ((collect) == (kind))				\
			CALLGRIND_TOGGLE_COLLECT;			\
	} while (0)

static void rp_play_ops(struct rp_play *p, const struct rp_stream *s,
			int collect, int mode)
{
	struct twheel_engine *e = p->e;
	struct rp_result *r = p->res;
	const struct rp_op *op;
	struct twheel_timer *t;
	uint64_t cascaded;
	double t0, c0 = 0, clock_cost = mode == RP_COST ? rp_now_cost() : 0;
	int timed = mode == RP_WORST || mode == RP_COST;
	size_t i;

	for (i = 0; i < s->n; i++) {
		op = &s->op[i];
		t = &p->tm[op->s];
		if (mode == RP_TIME_NULL) {
			/* the loop stays, with nothing in it */
			__asm__ __volatile__("" : : "r"(t) : "memory");
			continue;
		}
		if (mode == RP_COST)
			c0 = rp_now();
		switch (op->type) {
		case RP_START:
			p->due[op->s] = time_after(op->v, e->clk) ? op->v : e->clk;
			if (p->due_b)
				p->due_b[op->s] = s->bref[p->start++];
			if (twheel_pending(e, t)) {
				RP_COLLECT(collect, RP_CALL_MOD);
				twheel_mod(e, t, op->v);
				RP_COLLECT(collect, RP_CALL_MOD);
				r->calls[RP_CALL_MOD]++;
			} else {
				RP_COLLECT(collect, RP_CALL_ADD);
				twheel_add(e, t, op->v);
				RP_COLLECT(collect, RP_CALL_ADD);
				r->calls[RP_CALL_ADD]++;
			}
			break;
		case RP_DEL:
			RP_COLLECT(collect, RP_CALL_DEL);
			twheel_del(e, t);
			RP_COLLECT(collect, RP_CALL_DEL);
			r->calls[RP_CALL_DEL]++;
			break;
		case RP_ADV:
			t0 = timed ? rp_now() : 0;
			cascaded = e->st.cascaded;
			RP_COLLECT(collect, RP_CALL_ADV);
			twheel_run_until(e, op->v, rp_fired, p);
			RP_COLLECT(collect, RP_CALL_ADV);
			/* a cascade is charged to the last tick it ran in */
			if (e->st.cascaded != cascaded)
				rp_tick_work(p, op->v, e->st.cascaded - cascaded);
			if (timed && rp_now() - t0 > r->worst_ns)
				r->worst_ns = rp_now() - t0;
			r->calls[RP_CALL_ADV]++;
			break;
		}
		if (mode == RP_COST && op->type != RP_NOP)
			rp_hist_add(&r->cost, rp_now() - c0 - clock_cost, RP_COST_NS);
		/*
		 * hash_vec's arrays, when it is down to half the spares it
		 * asks for (as the module's batches): outside what callgrind
		 * collects, inside the ns (an allocation now and then)
		 */
		if (e->kind == TWHEEL_HASH_VEC &&
		    twheel_hash_vec_short(container_of(e, struct twheel_hash_vec, e)))
			vec_pool_feed(container_of(e, struct twheel_hash_vec, e));
	}
	rp_tick_work(p, p->jiffy + 1, 0);
}

/* hash_vec's arrays back from its slots and spares, and freed. */
/* Takes every timer back, and then the memory the engine was fed. */
static void rp_release(struct rp_play *p, unsigned int cap)
{
	unsigned int i;

	for (i = 0; i < cap; i++)
		twheel_del(p->e, &p->tm[i]);
	twheel_purge(p->e);
	tw_user_unfeed(p->e);
}

/**
 * rp_run() - play one stream through one engine
 * @k: the kind of engine
 * @s: the stream
 * @nsh: shadow timers in the trace (indices in @s are below it)
 * @collect: callgrind collects only calls of this enum rp_call, -1 none
 * @mode: what is timed (enum rp_mode)
 * @res: the result, for rp_result_free()
 *
 * Return: 0, or -ENOMEM, or the engine's init error.
 */
int rp_run(const struct rp_engine_kind *k, const struct rp_stream *s,
	   uint32_t nsh, int collect, enum rp_mode mode, struct rp_result *res)
{
	unsigned long clk = s->has_clock ? s->first : 0;
	struct rp_play p = { .res = res };
	unsigned int cap = nsh ? nsh : 1;
	struct tw_user_engine engine = { 0 };
	double t0;
	uint32_t i;
	int ret = -ENOMEM;

	memset(res, 0, sizeof(*res));
	p.tm = calloc(cap, sizeof(*p.tm));
	p.due = calloc(cap, sizeof(*p.due));
	res->late = malloc((s->starts + 1) * sizeof(*res->late));
	if (!p.tm || !p.due || !res->late)
		goto out;
	/* modern's lateness against the kernel's buckets, where the trace has them */
	if (s->bref && k->kind == TWHEEL_MODERN) {
		p.due_b = calloc(cap, sizeof(*p.due_b));
		res->late_b = malloc((s->starts + 1) * sizeof(*res->late_b));
		if (!p.due_b || !res->late_b)
			goto out;
	}
	p.e = rp_engine_new(k, clk, cap, &engine);
	if (!p.e)
		goto out;
	ret = 0;
	p.jiffy = clk;
	for (i = 0; i < cap; i++)
		twheel_timer_setup(p.e, &p.tm[i], NULL);
	t0 = rp_now();
	rp_play_ops(&p, s, collect, mode);
	if (mode == RP_TIME || mode == RP_TIME_NULL)
		res->ns = rp_now() - t0;
	res->st = p.e->st;
	res->count = twheel_count(p.e, NULL);
	rp_release(&p, cap);
out:
	tw_user_engine_free(&engine);
	free(p.due_b);
	free(p.due);
	free(p.tm);
	if (ret)
		rp_result_free(res);
	return ret;
}

/* What rp_run() allocated in res. */
void rp_result_free(struct rp_result *res)
{
	free(res->late);
	free(res->late_b);
	res->late = NULL;
	res->late_b = NULL;
}

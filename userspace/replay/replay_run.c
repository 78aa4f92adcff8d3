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
#include "replay.h"
#include "vec_pool.h"

/* In the order of enum twheel_kind; new engines at the end, one a line. */
const struct rp_engine_kind rp_engines[] = {
	{ "classic", TWHEEL_CLASSIC, 1, 0, sizeof(struct twheel_classic) },
	{ "modern", TWHEEL_MODERN, 0, 0, sizeof(struct twheel_modern) },
	{ "reference", TWHEEL_REFERENCE, 1, 1, sizeof(struct twheel_reference) },
	{ "heap", TWHEEL_HEAP, 1, 1, sizeof(struct twheel_heap) },
	{ "hash", TWHEEL_HASH, 1, 0, sizeof(struct twheel_hash) },
	{ "simple", TWHEEL_SIMPLE, 1, 0, sizeof(struct twheel_simple) },
	{ "hash_sorted", TWHEEL_HASH_SORTED, 1, 0, sizeof(struct twheel_hash_sorted) },
	{ "straight", TWHEEL_STRAIGHT, 1, 0, sizeof(struct twheel_straight) },
	{ "ordered", TWHEEL_ORDERED, 1, 0, sizeof(struct twheel_ordered) },
	{ "ratas", TWHEEL_RATAS, 1, 0, sizeof(struct twheel_ratas) },
	{ "volt", TWHEEL_VOLT, 1, 0, sizeof(struct twheel_volt) },
	{ "hash_vec", TWHEEL_HASH_VEC, 1, 0, sizeof(struct twheel_hash_vec) },
	{ "classic_bounded", TWHEEL_CLASSIC_BOUNDED, 1, 0,
	  sizeof(struct twheel_classic_bounded) },
};
const unsigned int rp_nr_engines = ARRAY_SIZE(rp_engines);

/* A case of rp_engine_new(): an engine set up from its clock alone ... */
#define RP_PLAIN(kind, init)	case kind: init(o, clk); break
/* ... or with its storage, of n slots. */
#define RP_SLOTS(kind, init, n)	case kind: ret = init(o, clk, *storage, n); break

/*
 * A new engine of kind k, with its clock at clk, room for cap timers where
 * it needs to be told (the heap), and the sizes the module gives them by
 * default (hash and hash_sorted: 256 slots; simple: MaxInterval 4096). The
 * engine and its storage (*storage) are the caller's to free.
 */
static struct twheel_engine *rp_engine_new(const struct rp_engine_kind *k,
					   unsigned long clk, unsigned int cap,
					   void **storage)
{
	unsigned int slots = k->kind == TWHEEL_SIMPLE ? TW_SIMPLE_DEFAULT_INTERVAL :
			     TW_HASH_DEFAULT_SLOTS;
	void *o = calloc(1, k->size);
	size_t need = 0;
	int ret = 0;

	*storage = NULL;
	if (!o)
		return NULL;
	if (k->kind == TWHEEL_HEAP)
		need = cap * sizeof(struct twheel_heap_slot);
	else if (k->kind == TWHEEL_HASH || k->kind == TWHEEL_SIMPLE ||
		 k->kind == TWHEEL_HASH_SORTED)
		need = twheel_hash_storage_size(slots);
	else if (k->kind == TWHEEL_HASH_VEC)
		need = twheel_hash_vec_storage_size(slots);
	if (need) {
		*storage = calloc(1, need);
		if (!*storage)
			goto fail;
	}
	switch (k->kind) {
	RP_PLAIN(TWHEEL_CLASSIC, twheel_classic_init);
	RP_PLAIN(TWHEEL_REFERENCE, twheel_reference_init);
	RP_PLAIN(TWHEEL_STRAIGHT, twheel_straight_init);
	RP_PLAIN(TWHEEL_ORDERED, twheel_ordered_init);
	RP_PLAIN(TWHEEL_RATAS, twheel_ratas_init);
	RP_PLAIN(TWHEEL_VOLT, twheel_volt_init);
	RP_PLAIN(TWHEEL_CLASSIC_BOUNDED, twheel_classic_bounded_init);
	case TWHEEL_MODERN:
		ret = twheel_modern_init(o, clk, TW_MODERN_DEFAULT_DEPTH);
		break;
	RP_SLOTS(TWHEEL_HEAP, twheel_heap_init, cap);
	RP_SLOTS(TWHEEL_HASH, twheel_hash_init, slots);
	RP_SLOTS(TWHEEL_SIMPLE, twheel_simple_init, slots);
	RP_SLOTS(TWHEEL_HASH_SORTED, twheel_hash_sorted_init, slots);
	RP_SLOTS(TWHEEL_HASH_VEC, twheel_hash_vec_init, slots);
	default:
		ret = -EINVAL;
	}
	if (!ret && k->kind == TWHEEL_HASH_VEC)
		vec_pool_feed(o);	/* its first spares */
	if (!ret)
		return o;	/* each engine's struct starts with its twheel_engine */
fail:
	free(*storage);
	*storage = NULL;
	free(o);
	return NULL;
}

/* Playing a stream through an engine. */

struct rp_play {
	struct twheel_engine *e;
	struct twheel_timer *tm;
	unsigned long *due;
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
	double t0;
	size_t i;

	for (i = 0; i < s->n; i++) {
		op = &s->op[i];
		t = &p->tm[op->s];
		if (mode == RP_TIME_NULL) {
			/* the loop stays, with nothing in it */
			__asm__ __volatile__("" : : "r"(t) : "memory");
			continue;
		}
		switch (op->type) {
		case RP_START:
			p->due[op->s] = time_after(op->v, e->clk) ? op->v : e->clk;
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
			t0 = mode == RP_WORST ? rp_now() : 0;
			cascaded = e->st.cascaded;
			RP_COLLECT(collect, RP_CALL_ADV);
			twheel_run_until(e, op->v, rp_fired, p);
			RP_COLLECT(collect, RP_CALL_ADV);
			/* a cascade is charged to the last tick it ran in */
			if (e->st.cascaded != cascaded)
				rp_tick_work(p, op->v, e->st.cascaded - cascaded);
			if (mode == RP_WORST && rp_now() - t0 > r->worst_ns)
				r->worst_ns = rp_now() - t0;
			r->calls[RP_CALL_ADV]++;
			break;
		}
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
static void rp_vec_release(struct rp_play *p, unsigned int cap)
{
	struct twheel_hash_vec *hv = container_of(p->e, struct twheel_hash_vec, e);
	unsigned int i;
	void *a;

	for (i = 0; i < cap; i++)
		twheel_del(p->e, &p->tm[i]);
	while ((a = twheel_hash_vec_take(hv, true)))
		free(a);
}

/**
 * rp_run() - play one stream through one engine
 * @k: the kind of engine
 * @s: the stream
 * @nsh: shadow timers in the trace (indices in @s are below it)
 * @collect: callgrind collects only calls of this enum rp_call, -1 none
 * @mode: what is timed (enum rp_mode)
 * @res: the result; res->late is the caller's to free
 *
 * Return: 0, or -ENOMEM, or the engine's init error.
 */
int rp_run(const struct rp_engine_kind *k, const struct rp_stream *s,
	   uint32_t nsh, int collect, enum rp_mode mode, struct rp_result *res)
{
	unsigned long clk = s->has_clock ? s->first : 0;
	struct rp_play p = { .res = res };
	unsigned int cap = nsh ? nsh : 1;
	void *storage = NULL;
	double t0;
	uint32_t i;
	int ret = -ENOMEM;

	memset(res, 0, sizeof(*res));
	p.tm = calloc(cap, sizeof(*p.tm));
	p.due = calloc(cap, sizeof(*p.due));
	res->late = malloc((s->starts + 1) * sizeof(*res->late));
	if (!p.tm || !p.due || !res->late)
		goto out;
	p.e = rp_engine_new(k, clk, cap, &storage);
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
	if (p.e->kind == TWHEEL_HASH_VEC)
		rp_vec_release(&p, cap);
out:
	free(storage);
	free(p.due);
	free(p.tm);
	free(p.e);
	if (ret) {
		free(res->late);
		res->late = NULL;
	}
	return ret;
}

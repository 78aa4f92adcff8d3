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
 *    which refuses an arm it has no array for (fuzz_vec.h: the input
 *    feeds and drains its pool);
 *  - modern: exactly at the bucket expiry of the kernel's calc_wheel_index()
 *    rule (computed here in closed form), so never before the reference and
 *    at most one level granularity after it, unless clamped beyond range.
 * Input: one byte picks the start clock, then one byte per op (low 3 bits
 * the op, high 5 bits the timer) followed by its arguments; the hash,
 * simple and hash_sorted engines take one more byte first, their number
 * of slots (hash_vec a second one: the spares it keeps), and classic_bounded
 * its chunk (1 to 64). FZ_TRACE=1 in
 * the environment prints every op.
 */
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

/*
 * The hash engine visits each non-empty slot once a turn however far its
 * timers are (as Netty's wheel ticks through idle time): its advances stay
 * below 2^16 jiffies, or a run would take minutes.
 */
#define FZ_STEP_MASK	(FZ_WHEEL == FZ_HASH || FZ_WHEEL == FZ_HASH_SORTED || \
			 FZ_WHEEL == FZ_HASH_VEC ? 0xffffUL : ~0UL)
#define FZ_HASH_SLOTS	1024

/*
 * The reference engine orders by time_before(), which is no order at all
 * over expiries more than LONG_MAX apart: an armed-in-the-past timer then
 * hides behind a far future one. Unless FZ_WIDE, deltas are kept within
 * +-2^62 so that no two live expiries are that far apart.
 */
#ifndef FZ_WIDE
#define FZ_WIDE		0
#endif

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
static struct fz_engine fz_wheel, fz_ref;

static struct {
	const u8 *p;		/* input not consumed yet */
	size_t n;
	unsigned long clk;	/* every engine's clock between ops */
	unsigned long op;	/* number of the current op */
	bool trace;
} fz;

/* Names the failed check; the caller prints the details and aborts. */
static void fz_report(const struct fz_engine *fe, int line, const char *cond)
{
	fprintf(stderr, "twheel-fuzz: %s: op %lu, clk %lu: failed (line %d): %s\n  ",
		fe->e->ops->name, fz.op, fe->e->clk, line, cond);
}

#define FZ_CHECK(fe, cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fz_report(fe, __LINE__, #cond);			\
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

static u8 fz_byte(void)
{
	if (!fz.n)
		return 0;
	fz.n--;
	return *fz.p++;
}

/* n bytes, little-endian. */
static unsigned long fz_bytes(unsigned int n)
{
	unsigned long v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v |= (unsigned long)fz_byte() << (8 * i);
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
	u8 k = fz_byte();

	switch (k & 7) {
	case 0:
		return fz.clk + (k >> 3);
	case 1:
		return fz.clk + fz_byte();
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
		       (s8)fz_byte();
	default:
		return old + (s8)fz_byte();
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
	u8 k = fz_byte();
	unsigned long edge, step;

	switch (k & 7) {
	case 0:
	case 1:
		return k >> 3;
	case 2:
		return fz_byte();
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
		step = edge - fz.clk + (s8)fz_byte();
		return (long)step < 0 ? 0 : step;
	}
}

static unsigned long fz_step(void)
{
	return fz_step_any() & FZ_STEP_MASK;
}

/*
 * The kernel's calc_wheel_index() in closed form: level n holds the deltas
 * below 63 * 8^n (the last level all others, clamped to 62 * 8^(depth-1));
 * a bucket fires at the first multiple of its granularity after expires.
 */
static void fz_bucket(struct fz_slot *s, unsigned long clk, unsigned int depth)
{
	unsigned long delta = s->expires - clk, expires = s->expires;
	unsigned long gran = 1, top = 1;
	unsigned int lvl;

	s->clamped = false;
	if ((long)delta < 0) {
		s->gran = 1;
		s->fire = clk;
		s->bucket = clk % TW_LVL_SIZE;
		return;
	}
	for (lvl = 0; lvl + 1 < depth; lvl++)
		top *= 8;
	for (lvl = 0; lvl + 1 < depth && delta >= 63 * gran; lvl++)
		gran *= 8;
	if (delta >= 63 * top) {
		expires = clk + 62 * top;
		s->clamped = true;
	}
	s->gran = gran;
	s->fire = expires - expires % gran + gran;
	s->bucket = lvl * TW_LVL_SIZE + (s->fire / gran) % TW_LVL_SIZE;
}

static void fz_arm(struct fz_engine *fe, unsigned int i, unsigned long expires)
{
	struct fz_slot *s = &fe->s[i];
	unsigned long clk = fe->e->clk;
	unsigned long exact = time_after(expires, clk) ? expires : clk;
	unsigned long fire;
	unsigned int idx;

	s->state = FZ_ARMED;
	s->expires = expires;
	s->seq = fz.op;
	s->hit = false;
	s->clamped = false;
	s->fire = exact;
	if (fe->e->ops->kind != TWHEEL_MODERN)
		return;
	fz_bucket(s, clk, fe->e->nr_levels);
	/* The rule: never early unless clamped, late by at most a granule. */
	FZ_CHECK(fe, s->clamped || (!time_before(s->fire, exact) &&
				    s->fire - exact <= s->gran),
		 "model: expires %lu bucket expiry %lu gran %lu", expires,
		 s->fire, s->gran);
	idx = twheel_modern_index(&fz_modern, expires, &fire);
	FZ_CHECK(fe, idx == s->bucket && fire == s->fire,
		 "twheel_modern_index(%lu) = %u at %lu, want %u at %lu",
		 expires, idx, fire, s->bucket, s->fire);
}

/* Index of t in the pool, or FZ_POOL for anything else. */
static unsigned int fz_index(const struct fz_engine *fe,
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
static bool fz_via_ops(void)
{
	return fz.op & 1;
}

/* The simple engine refuses a delta from its clock of MaxInterval or more. */
static bool fz_refused(const struct fz_engine *fe, unsigned long expires)
{
	unsigned long delta = expires - fe->e->clk;

	return fe->e->ops->kind == TWHEEL_SIMPLE && (long)delta >= 0 &&
	       delta > fz_simple.wheel.mask;
}

static bool fz_vec_refuses(const struct fz_engine *fe, unsigned int i,
			   unsigned long expires);

/* Whether arming timer i for expires is refused: simple's range, hash_vec's pool. */
static bool fz_refuses(const struct fz_engine *fe, unsigned int i,
		       unsigned long expires)
{
	if (fe->e->ops->kind == TWHEEL_HASH_VEC)
		return fz_vec_refuses(fe, i, expires);
	return fz_refused(fe, expires);
}

static void fz_add(struct fz_engine *fe, unsigned int i, unsigned long expires)
{
	u64 refused = fe->e->st.refused;
	bool refuse = fe->s[i].state == FZ_IDLE && fz_refuses(fe, i, expires);
	int ret = fz_via_ops() ? twheel_ops_add(fe->e, &fe->t[i], expires) :
				 twheel_add(fe->e, &fe->t[i], expires);

	if (fe->s[i].state != FZ_IDLE) {
		FZ_CHECK(fe, ret == -EBUSY, "add of pending timer %u: %d", i, ret);
		return;
	}
	if (refuse) {
		FZ_CHECK(fe, ret == (fe->e->ops->kind == TWHEEL_HASH_VEC ? -ENOMEM : -ERANGE) &&
			 fe->e->st.refused == refused + 1,
			 "add of timer %u, delta %lu: %d", i, expires - fe->e->clk, ret);
		return;
	}
	FZ_CHECK(fe, ret == 0, "add of timer %u: %d", i, ret);
	fz_arm(fe, i, expires);
}

static bool fz_del(struct fz_engine *fe, unsigned int i)
{
	bool ret = fz_via_ops() ? twheel_ops_del(fe->e, &fe->t[i]) :
				  twheel_del(fe->e, &fe->t[i]);

	FZ_CHECK(fe, ret == (fe->s[i].state != FZ_IDLE),
		 "del of timer %u in state %d returned %d", i, fe->s[i].state,
		 ret);
	fe->s[i].state = FZ_IDLE;
	return ret;
}

/*
 * A mod to expires: by twheel_mod() (or its ops), or if ranged by
 * twheel_mod_range(e, t, lo, hi), whose pick expires is.
 */
static bool fz_mod_to(struct fz_engine *fe, unsigned int i,
		      unsigned long expires, bool ranged, unsigned long lo,
		      unsigned long hi)
{
	struct fz_slot *s = &fe->s[i];
	bool was = s->state != FZ_IDLE;
	bool refuse = (!was || s->expires != expires) && fz_refuses(fe, i, expires);
	u64 refused = fe->e->st.refused;
	bool ret = ranged ? twheel_mod_range(fe->e, &fe->t[i], lo, hi) :
		   fz_via_ops() ? twheel_ops_mod(fe->e, &fe->t[i], expires) :
				  twheel_mod(fe->e, &fe->t[i], expires);

	FZ_CHECK(fe, ret == was, "mod of timer %u in state %d returned %d",
		 i, s->state, ret);
	FZ_CHECK(fe, fe->e->st.refused == refused + refuse,
		 "mod of timer %u, delta %lu: refused %llu, was %llu", i,
		 expires - fe->e->clk, fe->e->st.refused, refused);
	if (refuse) {
		/* disarmed, or left unarmed: it never runs for either expiry */
		s->state = FZ_IDLE;
		return ret;
	}
	/* As mod_timer(): the same expiry leaves a pending timer alone. */
	if (!was || s->expires != expires)
		fz_arm(fe, i, expires);
	return ret;
}

static bool fz_mod(struct fz_engine *fe, unsigned int i, unsigned long expires)
{
	return fz_mod_to(fe, i, expires, false, 0, 0);
}

/*
 * twheel_mod_range(): a pending timer already in [lo, hi] stays as it is
 * (as a mod to its own expiry), anything else is a mod to the pick x of
 * the wheel under test. The reference (follow) takes the same x by a plain
 * mod, so that both keep the same expiries.
 */
static bool fz_mod_range(struct fz_engine *fe, unsigned int i, unsigned long lo,
			 unsigned long hi, unsigned long x, bool follow)
{
	struct fz_slot *s = &fe->s[i];
	bool was = s->state != FZ_IDLE;
	unsigned long keep = fe->t[i].expires;
	bool ret;

	if (!was || keep - lo > hi - lo)
		return fz_mod_to(fe, i, x, !follow, lo, hi);
	ret = twheel_mod_range(fe->e, &fe->t[i], lo, hi);
	FZ_CHECK(fe, ret, "mod_range of pending timer %u returned false", i);
	FZ_CHECK(fe, fe->t[i].expires == keep,
		 "mod_range [%lu, %lu] moved timer %u from %lu", lo, hi, i, keep);
	return ret;
}

/* Pops every collected timer: exactly the ones the model has collected. */
static void fz_drain(struct fz_engine *fe)
{
	struct twheel_timer *t;
	unsigned int i, want = 0;

	for (i = 0; i < FZ_POOL; i++)
		want += fe->s[i].state == FZ_COLLECTED;
	while ((t = fz_via_ops() ? twheel_ops_pop(fe->e) : twheel_pop(fe->e))) {
		i = fz_index(fe, t);
		FZ_CHECK(fe, i < FZ_POOL, "pop returned %p, not a timer", t);
		FZ_CHECK(fe, fe->s[i].state == FZ_COLLECTED,
			 "popped timer %u in state %d (fire %lu)", i,
			 fe->s[i].state, fe->s[i].fire);
		FZ_CHECK(fe, !twheel_pending(fe->e, t), "popped %u pending", i);
		fe->s[i].state = FZ_IDLE;
		FZ_CHECK(fe, want--, "popped more than collected");
	}
	FZ_CHECK(fe, !want, "%u collected timers not popped", want);
}

/* Smallest distance from clk to a timer's jiffy, at most limit. */
static unsigned long fz_next(const struct fz_engine *fe, unsigned long limit)
{
	unsigned int i;

	for (i = 0; i < FZ_POOL; i++)
		if (fe->s[i].state == FZ_ARMED)
			limit = min(limit, fe->s[i].fire - fe->e->clk);
	return limit;
}

/*
 * The classic wheel may stop early for a cascade, ratas for a promotion,
 * volt to re-file a slot or reclaim cancelled timers, the hash engines for
 * a slot whose timers only wait a round; the others may not.
 */
static void fz_check_next(struct fz_engine *fe, unsigned long limit,
			  unsigned long d)
{
	unsigned long want = fz_next(fe, limit);

	if (fe->e->ops->kind == TWHEEL_CLASSIC || fe->e->ops->kind == TWHEEL_HASH ||
	    fe->e->ops->kind == TWHEEL_HASH_SORTED || fe->e->ops->kind == TWHEEL_RATAS ||
	    fe->e->ops->kind == TWHEEL_VOLT || fe->e->ops->kind == TWHEEL_HASH_VEC ||
	    fe->e->ops->kind == TWHEEL_CLASSIC_BOUNDED)
		FZ_CHECK(fe, d <= want, "next_event(%lu) = %lu, a timer is due in %lu",
			 limit, d, want);
	else
		FZ_CHECK(fe, d == want, "next_event(%lu) = %lu, want %lu",
			 limit, d, want);
}

/* Timers in level 0, counted one by one (twheel_count()). */
static unsigned long fz_level0(const struct fz_engine *fe)
{
	unsigned long per[TWHEEL_MAX_LEVELS];

	twheel_count(fe->e, per);
	return per[0];
}

static bool fz_collected(const struct fz_engine *fe,
			 const struct twheel_timer *t)
{
	const struct rb_node *top = &t->node;

	if (!twheel_pending(fe->e, t))
		return false;
	if (fe->e->ops->kind == TWHEEL_CLASSIC ||
	    fe->e->ops->kind == TWHEEL_CLASSIC_BOUNDED) {
		const struct list_head *p, *head = fe->e->ops->kind == TWHEEL_CLASSIC ?
			&fz_classic.collected : &fz_bounded.collected;

		for (p = head->next; p != head; p = p->next)
			if (p == &t->list)
				return true;
		return false;
	}
	if (fe->e->ops->kind == TWHEEL_MODERN) {
		const struct hlist_node *p;

		for (p = fz_modern.collected.first; p; p = p->next)
			if (p == &t->entry)
				return true;
		return false;
	}
	if (fe->e->ops->kind == TWHEEL_HEAP)
		return t->heap_idx == TW_HEAP_COLLECTED;
	if (fe->e->ops->kind == TWHEEL_RATAS)
		return t->bucket == TWHEEL_COLLECTED;
	if (fe->e->ops->kind == TWHEEL_VOLT)
		return t->volt_slot == TW_VOLT_COLLECTED;
	if (fe->e->ops->kind == TWHEEL_HASH_VEC)
		return t->vec_slot == TW_VEC_COLLECTED;
	if (fe->e->ops->kind == TWHEEL_HASH || fe->e->ops->kind == TWHEEL_SIMPLE ||
	    fe->e->ops->kind == TWHEEL_HASH_SORTED ||
	    fe->e->ops->kind == TWHEEL_STRAIGHT || fe->e->ops->kind == TWHEEL_ORDERED)
		return t->rounds == TW_HASH_COLLECTED;
	while (rb_parent(top))
		top = rb_parent(top);
	return top != fz_reference.armed.rb_root.rb_node;
}

static unsigned long fz_walk_list(struct fz_engine *fe,
				  const struct list_head *head,
				  unsigned int bucket)
{
	const struct list_head *p;
	const struct twheel_timer *t;
	unsigned long n = 0;

	FZ_CHECK(fe, head->next->prev == head, "bucket %u: bad head", bucket);
	for (p = head->next; p != head; p = p->next) {
		t = container_of(p, struct twheel_timer, list);
		FZ_CHECK(fe, fz_index(fe, t) < FZ_POOL && ++n <= FZ_POOL,
			 "bucket %u: stray entry %p", bucket, p);
		FZ_CHECK(fe, p->next->prev == p, "bucket %u: bad link", bucket);
		FZ_CHECK(fe, bucket == TWHEEL_COLLECTED || t->bucket == bucket,
			 "timer %u in bucket %u says %u",
			 fz_index(fe, t), bucket, t->bucket);
	}
	return n;
}

/* Counts an hlist and returns where its last next pointer is. */
static unsigned long fz_walk_hlist(struct fz_engine *fe,
				   struct hlist_head *head, unsigned int bucket,
				   struct hlist_node ***tail)
{
	struct hlist_node **link = &head->first, *p;
	const struct twheel_timer *t;
	unsigned long n = 0;

	for (p = head->first; p; p = p->next) {
		t = hlist_entry(p, struct twheel_timer, entry);
		FZ_CHECK(fe, fz_index(fe, t) < FZ_POOL && ++n <= FZ_POOL,
			 "bucket %u: stray entry %p", bucket, p);
		FZ_CHECK(fe, p->pprev == link, "bucket %u: bad pprev", bucket);
		FZ_CHECK(fe, bucket == TWHEEL_COLLECTED || t->bucket == bucket,
			 "timer %u in bucket %u says %u",
			 fz_index(fe, t), bucket, t->bucket);
		link = &p->next;
	}
	*tail = link;
	return n;
}

/*
 * A classic wheel's timers per level, counted walking its slots, against
 * twheel_count(); its collected list holds the due ones.
 */
static void fz_check_levels(struct fz_engine *fe, const unsigned long *lvl,
			    const struct list_head *collected, unsigned long due)
{
	unsigned long per[TWHEEL_MAX_LEVELS], n;
	unsigned int l;

	twheel_count(fe->e, per);
	for (l = 0; l < TWHEEL_MAX_LEVELS; l++)
		FZ_CHECK(fe, lvl[l] == per[l],
			 "level %u: %lu timers, twheel_count says %lu", l,
			 lvl[l], per[l]);
	n = fz_walk_list(fe, collected, TWHEEL_COLLECTED);
	FZ_CHECK(fe, n == due, "%lu collected, want %lu", n, due);
}
#include "fuzz_seeds.h"

static void fz_check_classic(struct fz_engine *fe, unsigned long due)
{
	struct twheel_classic *c = &fz_classic;
	unsigned long lvl[TWHEEL_MAX_LEVELS] = { 0 }, n;
	unsigned int b;

	for (b = 0; b < TW_CLASSIC_BUCKETS; b++) {
		n = fz_walk_list(fe, &c->vec[b], b);
		FZ_CHECK(fe, test_bit(b, c->pending_map) == !!n,
			 "bucket %u: bit %d, %lu timers", b,
			 test_bit(b, c->pending_map), n);
		lvl[b < TW_TVR_SIZE ? 0 : 1 + (b - TW_TVR_SIZE) / TW_TVN_SIZE] += n;
	}
	fz_check_levels(fe, lvl, &c->collected, due);
}

/*
 * classic_bounded, from its specification: each slot's list, bit and (above
 * level 0) count agree; a level-0 timer is in the slot of the jiffy it runs
 * at, less than two tv1 laps ahead; a timer of level n >= 1 is in the slot
 * numbered expires >> (6n + 2) (one beyond the top's two laps: in an
 * earlier top slot), and that slot's window, which moves it down, has not
 * ended: its last jiffy is not before the clock.
 */
static void fz_check_bounded(struct fz_engine *fe, unsigned long due)
{
	struct twheel_classic_bounded *c = &fz_bounded;
	unsigned long lvl[TWHEEL_MAX_LEVELS] = { 0 };
	unsigned long clk = fe->e->clk, n, s, d, fire, end;
	const struct list_head *p;
	unsigned int b, l, i, shift, ring;

	for (b = 0; b < TW_BOUNDED_BUCKETS; b++) {
		n = fz_walk_list(fe, &c->vec[b], b);
		FZ_CHECK(fe, test_bit(b, c->pending_map) == !!n,
			 "bucket %u: bit %d, %lu timers", b,
			 test_bit(b, c->pending_map), n);
		l = b < TW_BOUNDED_L0_SLOTS ? 0 :
			1 + (b - TW_BOUNDED_L0_SLOTS) / TW_BOUNDED_LN_SLOTS;
		lvl[l] += n;
		if (l)
			FZ_CHECK(fe, c->nr[b - TW_BOUNDED_L0_SLOTS] == n,
				 "bucket %u: count %u, %lu timers", b,
				 c->nr[b - TW_BOUNDED_L0_SLOTS], n);
		shift = 6 * l + 2;
		ring = (b - (l ? TW_BOUNDED_L0_SLOTS + (l - 1) * TW_BOUNDED_LN_SLOTS : 0));
		for (p = c->vec[b].next; p != &c->vec[b]; p = p->next) {
			i = fz_index(fe, container_of(p, struct twheel_timer, list));
			fire = fe->s[i].fire;
			if (!l) {
				FZ_CHECK(fe, (fire & 511) == b && fire - clk < 512,
					 "timer %u (runs at %lu) in level-0 slot %u", i,
					 fire, b);
				continue;
			}
			/* the slot's number: the first after clk's with this ring index */
			s = (clk >> shift) + 1;
			s += (ring - s) & (TW_BOUNDED_LN_SLOTS - 1);
			end = (s << shift) - (l > 1 ? 1UL << (shift - 6) : 1);
			/* slot numbers wrap at 2^(64 - shift) */
			d = ((fire >> shift) - s) & (ULONG_MAX >> shift);
			FZ_CHECK(fe, !d || (l == 4 && d < (ULONG_MAX >> (shift + 1))),
				 "timer %u (runs at %lu) in level-%u slot %u (number %lu)",
				 i, fire, l, b, s);
			FZ_CHECK(fe, (long)(end - clk) >= 0,
				 "timer %u (runs at %lu) in level-%u slot %lu, whose window ended at %lu",
				 i, fire, l, s, end);
		}
	}
	fz_check_levels(fe, lvl, &c->collected, due);
}

static void fz_check_modern(struct fz_engine *fe, unsigned long due)
{
	struct twheel_modern *m = &fz_modern;
	unsigned long lvl[TWHEEL_MAX_LEVELS] = { 0 }, per[TWHEEL_MAX_LEVELS], n;
	struct hlist_node **tail;
	unsigned int b, l;

	for (b = 0; b < TW_MODERN_BUCKETS; b++) {
		n = fz_walk_hlist(fe, &m->vec[b], b, &tail);
		FZ_CHECK(fe, test_bit(b, m->pending_map) == !!n,
			 "bucket %u: bit %d, %lu timers", b,
			 test_bit(b, m->pending_map), n);
		lvl[b / TW_LVL_SIZE] += n;
	}
	twheel_count(fe->e, per);
	for (l = 0; l < TWHEEL_MAX_LEVELS; l++)
		FZ_CHECK(fe, lvl[l] == per[l] && (l < fe->e->nr_levels || !lvl[l]),
			 "level %u: %lu timers, twheel_count says %lu", l,
			 lvl[l], per[l]);
	n = fz_walk_hlist(fe, &m->collected, TWHEEL_COLLECTED, &tail);
	FZ_CHECK(fe, n == due, "%lu collected, want %lu", n, due);
	FZ_CHECK(fe, !n || !m->collected_tail || m->collected_tail == tail,
		 "collected_tail is stale");
}

/* A collected list of the heap or the hash engine: count and marks. */
static unsigned long fz_walk_collected(struct fz_engine *fe,
				       const struct list_head *head)
{
	const struct list_head *p;
	const struct twheel_timer *t;
	unsigned long n = 0;

	for (p = head->next; p != head; p = p->next) {
		FZ_CHECK(fe, p->next->prev == p, "collected: bad link");
		t = fe->e->ops->kind == TWHEEL_HEAP ?
			container_of(p, struct twheel_timer, due) :
			container_of(p, struct twheel_timer, hash_link);
		FZ_CHECK(fe, fz_index(fe, t) < FZ_POOL && ++n <= FZ_POOL,
			 "collected: stray entry %p", p);
		FZ_CHECK(fe, fz_collected(fe, t), "timer %u on the collected list, not marked",
			 fz_index(fe, t));
	}
	return n;
}

/*
 * The heap: each slot's timer points back at it and has its expiry, no
 * child is before its parent.
 */
static void fz_check_heap(struct fz_engine *fe, unsigned long armed,
			  unsigned long due)
{
	const struct twheel_heap *h = &fz_heap;
	const struct twheel_heap_slot *s;
	unsigned int i;

	FZ_CHECK(fe, h->nr == armed && h->nr <= h->cap &&
		 fz_level0(fe) == armed,
		 "heap holds %u (cap %u, in level 0 %lu), want %lu", h->nr,
		 h->cap, fz_level0(fe), armed);
	for (i = 0; i < h->nr; i++) {
		s = &h->slots[i];
		FZ_CHECK(fe, fz_index(fe, s->t) < FZ_POOL, "slot %u: stray %p",
			 i, s->t);
		FZ_CHECK(fe, s->t->heap_idx == i && s->expires == s->t->expires,
			 "slot %u: timer %u says index %u, expires %lu (slot %lu)",
			 i, fz_index(fe, s->t), s->t->heap_idx, s->t->expires,
			 s->expires);
		FZ_CHECK(fe, !i || !time_before(s->expires,
						h->slots[(i - 1) / TW_HEAP_ARITY].expires),
			 "slot %u (%lu) before its parent (%lu)", i, s->expires,
			 h->slots[(i - 1) / TW_HEAP_ARITY].expires);
	}
	FZ_CHECK(fe, fz_walk_collected(fe, &h->collected) == due,
		 "heap: collected list is not %lu long", due);
}

/*
 * The hash and simple engines: each timer in the slot of its expiry (of
 * the clock if armed in the past), its rounds (always 0 on simple: bits 0)
 * such that the slot's visit after them is the jiffy the model says, the
 * bitmap as the slots are.
 */
static void fz_check_slots(struct fz_engine *fe, unsigned long armed,
			   unsigned long due, const struct list_head *slots,
			   const unsigned long *map, unsigned long mask,
			   unsigned int bits, const struct list_head *collected)
{
	unsigned long clk = fe->e->clk, b, n, in_slots = 0, visit;
	const struct list_head *p;
	const struct twheel_timer *t;
	unsigned int i;

	for (b = 0; b <= mask; b++) {
		n = 0;
		visit = clk + ((b - clk) & mask);
		for (p = slots[b].next; p != &slots[b]; p = p->next) {
			FZ_CHECK(fe, p->next->prev == p, "slot %lu: bad link", b);
			t = container_of(p, struct twheel_timer, hash_link);
			i = fz_index(fe, t);
			FZ_CHECK(fe, i < FZ_POOL && ++n <= FZ_POOL,
				 "slot %lu: stray entry %p", b, p);
			FZ_CHECK(fe, fe->s[i].state == FZ_ARMED &&
				 visit + (t->rounds << bits) == fe->s[i].fire,
				 "timer %u (state %d, expires %lu, fire %lu) in slot %lu with %lu rounds",
				 i, fe->s[i].state, t->expires, fe->s[i].fire, b,
				 t->rounds);
		}
		FZ_CHECK(fe, test_bit(b, map) == !!n, "slot %lu: bit %d, %lu timers",
			 b, test_bit(b, map), n);
		in_slots += n;
	}
	FZ_CHECK(fe, in_slots == armed && fz_level0(fe) == armed,
		 "%lu timers in slots, in level 0 %lu, want %lu", in_slots,
		 fz_level0(fe), armed);
	FZ_CHECK(fe, fz_walk_collected(fe, collected) == due,
		 "collected list is not %lu long", due);
}

/*
 * hash_sorted: each timer in the slot of the jiffy the model says it runs
 * at (its expiry, or the clock if armed in the past), every slot sorted by
 * expiry, the bitmap as the slots are.
 */
static void fz_check_sorted(struct fz_engine *fe, unsigned long armed,
			    unsigned long due)
{
	const struct twheel_hash *h = &fz_hash_sorted.wheel;
	const struct twheel_timer *t, *prev;
	unsigned long b, n, in_slots = 0;
	const struct list_head *p;
	unsigned int i;

	for (b = 0; b <= h->mask; b++) {
		n = 0;
		prev = NULL;
		for (p = h->slots[b].next; p != &h->slots[b]; p = p->next) {
			FZ_CHECK(fe, p->next->prev == p, "slot %lu: bad link", b);
			t = container_of(p, struct twheel_timer, hash_link);
			i = fz_index(fe, t);
			FZ_CHECK(fe, i < FZ_POOL && ++n <= FZ_POOL,
				 "slot %lu: stray entry %p", b, p);
			FZ_CHECK(fe, fe->s[i].state == FZ_ARMED &&
				 (fe->s[i].fire & h->mask) == b && !t->rounds,
				 "timer %u (state %d, fire %lu) in slot %lu, rounds %lu",
				 i, fe->s[i].state, fe->s[i].fire, b, t->rounds);
			FZ_CHECK(fe, !prev || !time_before(t->expires, prev->expires),
				 "slot %lu: %lu after %lu", b, t->expires,
				 prev->expires);
			prev = t;
		}
		FZ_CHECK(fe, test_bit(b, h->map) == !!n, "slot %lu: bit %d, %lu timers",
			 b, test_bit(b, h->map), n);
		in_slots += n;
	}
	FZ_CHECK(fe, in_slots == armed && fz_level0(fe) == armed,
		 "%lu timers in slots, in level 0 %lu, want %lu", in_slots,
		 fz_level0(fe), armed);
	FZ_CHECK(fe, fz_walk_collected(fe, &h->collected) == due,
		 "collected list is not %lu long", due);
}

/*
 * straight: every timer in its list, due (base + its ticks left) at the
 * model's jiffy; ordered: its list sorted by expiry, every timer in it
 * armed.
 */
static void fz_check_list(struct fz_engine *fe, unsigned long armed,
			  unsigned long due)
{
	bool straight = fe->e->ops->kind == TWHEEL_STRAIGHT;
	const struct list_head *head = straight ? &fz_straight.list : &fz_ordered.list;
	const struct twheel_timer *t, *prev = NULL;
	const struct list_head *p;
	unsigned long n = 0;
	unsigned int i;

	for (p = head->next; p != head; p = p->next) {
		FZ_CHECK(fe, p->next->prev == p, "list: bad link");
		t = container_of(p, struct twheel_timer, hash_link);
		i = fz_index(fe, t);
		FZ_CHECK(fe, i < FZ_POOL && ++n <= FZ_POOL, "list: stray entry %p", p);
		FZ_CHECK(fe, fe->s[i].state == FZ_ARMED, "timer %u in state %d in the list",
			 i, fe->s[i].state);
		if (straight)
			FZ_CHECK(fe, fz_straight.base + t->rounds == fe->s[i].fire &&
				 !time_after(fz_straight.base, fe->e->clk),
				 "timer %u: base %lu + %lu ticks, model fire %lu",
				 i, fz_straight.base, t->rounds, fe->s[i].fire);
		else
			FZ_CHECK(fe, !prev || !time_before(t->expires, prev->expires),
				 "list: %lu after %lu", t->expires, prev->expires);
		prev = t;
	}
	FZ_CHECK(fe, n == armed && fz_level0(fe) == armed,
		 "%lu timers in the list, in level 0 %lu, want %lu", n,
		 fz_level0(fe), armed);
	FZ_CHECK(fe, fz_walk_collected(fe, straight ? &fz_straight.collected :
				       &fz_ordered.collected) == due,
		 "collected list is not %lu long", due);
}

/* Counts a tree in order; keys must never go down. */
static unsigned long fz_walk_tree(struct fz_engine *fe,
				  const struct rb_root_cached *root)
{
	const struct twheel_timer *t, *prev = NULL;
	struct rb_node *p;
	unsigned long n = 0;

	FZ_CHECK(fe, rb_first_cached(root) == rb_first(&root->rb_root),
		 "leftmost is stale");
	for (p = rb_first(&root->rb_root); p; p = rb_next(p)) {
		t = rb_entry(p, struct twheel_timer, node);
		FZ_CHECK(fe, fz_index(fe, t) < FZ_POOL && ++n <= FZ_POOL,
			 "stray node %p", p);
		FZ_CHECK(fe, !prev || !time_before(t->expires, prev->expires),
			 "timer %u (%lu) after timer %u (%lu) in the tree",
			 fz_index(fe, t), t->expires, fz_index(fe, prev),
			 prev->expires);
		prev = t;
	}
	return n;
}

#include "fuzz_vec.h"

/* Every timer against the model; with full, the whole structure too. */
static void fz_check_engine(struct fz_engine *fe, bool full)
{
	const struct twheel_stats *st = &fe->e->st;
	unsigned long armed = 0, due = 0, in_levels = 0, n, pending;
	unsigned long per[TWHEEL_MAX_LEVELS];
	const struct twheel_timer *t;
	const struct fz_slot *s;
	unsigned int i;

	for (i = 0; i < FZ_POOL; i++) {
		s = &fe->s[i];
		t = &fe->t[i];
		FZ_CHECK(fe, twheel_pending(fe->e, t) == (s->state != FZ_IDLE),
			 "timer %u pending %d, model state %d (fire %lu)", i,
			 twheel_pending(fe->e, t), s->state, s->fire);
		FZ_CHECK(fe, fz_collected(fe, t) == (s->state == FZ_COLLECTED),
			 "timer %u collected %d, model state %d (fire %lu)", i,
			 fz_collected(fe, t), s->state, s->fire);
		if (s->state != FZ_IDLE)
			FZ_CHECK(fe, t->expires == s->expires,
				 "timer %u expires %lu, want %lu", i, t->expires,
				 s->expires);
		if (s->state == FZ_ARMED && fe->e->ops->kind == TWHEEL_MODERN)
			FZ_CHECK(fe, t->bucket == s->bucket,
				 "timer %u (expires %lu) in bucket %u, want %u",
				 i, t->expires, t->bucket, s->bucket);
		armed += s->state == FZ_ARMED;
		due += s->state == FZ_COLLECTED;
	}
	pending = twheel_stats_pending(st);
	FZ_CHECK(fe, pending == armed + due,
		 "added %llu expired %llu deleted %llu: pending %lu, want %lu + %lu",
		 st->added, st->expired, st->deleted, pending, armed, due);
	FZ_CHECK(fe, twheel_count(fe->e, per) == pending,
		 "twheel_count %lu, pending %lu", twheel_count(fe->e, NULL),
		 pending);
	for (i = 0; i < TWHEEL_MAX_LEVELS; i++)
		in_levels += per[i];
	FZ_CHECK(fe, in_levels == armed, "in the levels %lu, armed %lu",
		 in_levels, armed);
	if (!full)
		return;

	switch (fe->e->ops->kind) {
	case TWHEEL_CLASSIC:
		fz_check_classic(fe, due);
		break;
	case TWHEEL_CLASSIC_BOUNDED:
		fz_check_bounded(fe, due);
		break;
	case TWHEEL_MODERN:
		fz_check_modern(fe, due);
		break;
	case TWHEEL_HEAP:
		fz_check_heap(fe, armed, due);
		break;
	case TWHEEL_HASH:
		fz_check_slots(fe, armed, due, fz_hash.slots, fz_hash.map,
			       fz_hash.mask, fz_hash.bits, &fz_hash.collected);
		break;
	case TWHEEL_SIMPLE:
		fz_check_slots(fe, armed, due, fz_simple.wheel.slots, fz_simple.wheel.map,
			       fz_simple.wheel.mask, 0, &fz_simple.wheel.collected);
		break;
	case TWHEEL_HASH_SORTED:
		fz_check_sorted(fe, armed, due);
		break;
	case TWHEEL_STRAIGHT:
	case TWHEEL_ORDERED:
		fz_check_list(fe, armed, due);
		break;
	case TWHEEL_RATAS:
		fz_check_ratas(fe, due);
		break;
	case TWHEEL_VOLT:
		fz_check_volt(fe, due);
		break;
	case TWHEEL_HASH_VEC:
		fz_check_vec(fe, armed, due);
		break;
	default:
		n = fz_walk_tree(fe, &fz_reference.armed);
		FZ_CHECK(fe, n == armed, "%lu in the armed tree, want %lu",
			 n, armed);
		n = fz_walk_tree(fe, &fz_reference.due);
		FZ_CHECK(fe, n == due, "%lu in the due tree, want %lu", n, due);
	}
	n = 1 + fz.op % 600;
	fz_check_next(fe, n, twheel_next_event(fe->e, n));
	fz_check_next(fe, LONG_MAX, twheel_next_event(fe->e, LONG_MAX));
}

/*
 * The model's side of a collection at now: every armed timer due by then
 * is collected (exact: due exactly then). Returns how many.
 */
static unsigned long fz_collect_due(struct fz_engine *fe, unsigned long now,
				    bool exact)
{
	unsigned long want = 0;
	struct fz_slot *s;
	unsigned int i;

	for (i = 0; i < FZ_POOL; i++) {
		s = &fe->s[i];
		if (s->state != FZ_ARMED || time_after(s->fire, now))
			continue;
		FZ_CHECK(fe, !exact || s->fire == now,
			 "timer %u due at %lu (expires %lu) collected at %lu",
			 i, s->fire, s->expires, now);
		s->state = FZ_COLLECTED;
		s->hit = true;
		s->hit_exact = exact;
		s->hit_at = now;
		want++;
	}
	return want;
}

/* twheel_advance(e, now) returned n: who is due, and exactly when. */
static void fz_advanced(struct fz_engine *fe, unsigned long now,
			unsigned long n, bool exact)
{
	unsigned long want;

	FZ_CHECK(fe, fe->e->clk == now + 1, "advance to %lu left clk at %lu",
		 now, fe->e->clk);
	want = fz_collect_due(fe, now, exact);
	FZ_CHECK(fe, n == !!want, "advance to %lu returned %lu, want %d",
		 now, n, !!want);
	if (n)
		FZ_TRACE("  %s: %lu collected by %lu%s\n", fe->e->ops->name,
			 want, now, exact ? " (exactly)" : "");
	fz_check_engine(fe, false);
}

/* A twheel_run_until() in progress, as its fn sees it. */
struct fz_run {
	struct fz_engine *fe;
	unsigned long until;
	bool started;		/* fn has been called */
	unsigned long jiffy;	/* the jiffy of the last call */
	unsigned long left;	/* collected there, not handed out yet */
};

/* twheel_next_event() from the clock up to until, against the model. */
static void fz_run_check_next(struct fz_run *run)
{
	struct twheel_engine *e = run->fe->e;
	unsigned long limit;

	if (time_after(e->clk, run->until))
		return;
	limit = run->until - e->clk + 1;
	fz_check_next(run->fe, limit, twheel_next_event(e, limit));
}

/*
 * The first timer handed out at a jiffy: the engine collected everything
 * due there, exactly there, and nothing the jiffies since the last one
 * left behind; the one timer already popped is not collected any more.
 */
static void fz_run_jiffy(struct fz_run *run, unsigned long jiffy)
{
	struct fz_engine *fe = run->fe;

	FZ_CHECK(fe, !run->left, "%lu timers collected at %lu never handed out",
		 run->left, run->jiffy);
	FZ_CHECK(fe, !run->started || time_after(jiffy, run->jiffy),
		 "run at %lu after a run at %lu", jiffy, run->jiffy);
	FZ_CHECK(fe, !time_after(jiffy, run->until), "run at %lu, until %lu",
		 jiffy, run->until);
	FZ_CHECK(fe, fe->e->clk == jiffy + 1, "run at %lu with clk at %lu",
		 jiffy, fe->e->clk);
	run->started = true;
	run->jiffy = jiffy;
	run->left += fz_collect_due(fe, jiffy, true);
	FZ_TRACE("  %s: %lu collected at %lu\n", fe->e->ops->name, run->left,
		 jiffy);
}

/* twheel_run_until()'s fn: one timer, popped, at the jiffy it fell due. */
static void fz_run_fn(struct twheel_timer *t, unsigned long jiffy, void *arg)
{
	struct fz_run *run = arg;
	struct fz_engine *fe = run->fe;
	bool first = !run->started || jiffy != run->jiffy;
	unsigned int i = fz_index(fe, t);

	if (first)
		fz_run_jiffy(run, jiffy);
	FZ_CHECK(fe, i < FZ_POOL, "run of %p, not a timer", t);
	FZ_CHECK(fe, fe->s[i].state == FZ_COLLECTED,
		 "timer %u run at %lu in state %d (fire %lu)", i, jiffy,
		 fe->s[i].state, fe->s[i].fire);
	FZ_CHECK(fe, !twheel_pending(fe->e, t), "timer %u run while pending", i);
	FZ_CHECK(fe, run->left, "more runs than timers collected at %lu", jiffy);
	fe->s[i].state = FZ_IDLE;
	run->left--;
	if (!first)
		return;
	/* What the loop checks between two jiffies with work. */
	fz_check_engine(fe, false);
	fz_run_check_next(run);
}

/* twheel_run_until(), every step checked from its fn. */
static void fz_run_until(struct fz_engine *fe, unsigned long until)
{
	struct fz_run run = { .fe = fe, .until = until };
	unsigned long n, want = 0;
	struct fz_slot *s;
	unsigned int i;

	/* Its callers have run what an earlier advance collected. */
	fz_drain(fe);
	for (i = 0; i < FZ_POOL; i++) {
		s = &fe->s[i];
		want += s->state == FZ_ARMED && !time_before(until, fe->e->clk) &&
			!time_after(s->fire, until);
	}
	fz_run_check_next(&run);
	n = twheel_run_until(fe->e, until, fz_run_fn, &run);
	FZ_CHECK(fe, !run.left, "%lu timers collected at %lu never handed out",
		 run.left, run.jiffy);
	FZ_CHECK(fe, n == want, "run until %lu ran %lu timers, want %lu",
		 until, n, want);
	if (time_before(until, fz.clk)) {
		FZ_CHECK(fe, !n && fe->e->clk == fz.clk,
			 "run into the past moved the engine");
		return;
	}
	FZ_CHECK(fe, fe->e->clk == until + 1, "run until %lu left clk at %lu",
		 until, fe->e->clk);
	/* Nothing due is left behind, collected or not. */
	fz_advanced(fe, until, 0, false);
	fz_drain(fe);
}

static void fz_jump(struct fz_engine *fe, unsigned long now, bool drain)
{
	unsigned long n = twheel_advance(fe->e, now);

	if (time_before(now, fz.clk)) {
		FZ_CHECK(fe, !n && fe->e->clk == fz.clk,
			 "advance into the past moved the engine");
		return;
	}
	fz_advanced(fe, now, n, false);
	if (drain)
		fz_drain(fe);
}

static void fz_jiffies(struct fz_engine *fe, unsigned int count)
{
	unsigned long now;

	while (count--) {
		now = fe->e->clk;
		fz_advanced(fe, now, fz_via_ops() ? twheel_ops_advance(fe->e, now) :
				     twheel_advance(fe->e, now), true);
		fz_drain(fe);
	}
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

/*
 * The wheel's pick for [lo, hi] (twheel_range_expiry()), checked against
 * its rule: in the range, and the classic wheels the latest multiple of
 * the coarsest cascade point the range crosses (else hi), ratas the same
 * with its levels' powers of 256; the modern wheel the latest whose bucket
 * runs by hi (else hi); simple hi, or the last jiffy below MaxInterval;
 * the others hi.
 */
static unsigned long fz_pick(struct fz_engine *fe, unsigned long lo,
			     unsigned long hi)
{
	unsigned long x = twheel_range_expiry(fe->e, lo, hi), want = hi, m, e1;
	struct fz_slot b;
	int s, step;

	FZ_CHECK(fe, x - lo <= hi - lo, "pick %lu outside [%lu, %lu]", x, lo, hi);
	switch (fe->e->ops->kind) {
	case TWHEEL_CLASSIC:
	case TWHEEL_CLASSIC_BOUNDED:
	case TWHEEL_RATAS:
		/* cascade points 2^26, 2^20, 2^14, 2^8; ratas' 2^56, 2^48, ... */
		step = fe->e->ops->kind == TWHEEL_RATAS ? 8 : 6;
		for (s = step == 8 ? 56 : 26; s >= 8 && want == hi; s -= step) {
			m = hi & ~((1UL << s) - 1);
			if (m - lo <= hi - lo && m != lo)
				want = m;
		}
		FZ_CHECK(fe, x == want, "%s pick %lu for [%lu, %lu], want %lu",
			 fe->e->ops->name, x, lo, hi, want);
		break;
	case TWHEEL_MODERN:
		/*
		 * the jiffy before hi's granule, if in the range: it runs by
		 * hi; none when hi is past (every jiffy runs at the clock)
		 */
		b.expires = hi;
		fz_bucket(&b, fe->e->clk, fe->e->nr_levels);
		m = b.fire - b.gran - 1;
		want = m - lo <= hi - lo && (long)(hi - fe->e->clk) >= 0 ? m : hi;
		b.expires = x;
		fz_bucket(&b, fe->e->clk, fe->e->nr_levels);
		e1 = b.fire;
		FZ_CHECK(fe, x == want && (x == hi || e1 - lo <= hi - lo),
			 "modern pick %lu for [%lu, %lu], want %lu: runs at %lu",
			 x, lo, hi, want, e1);
		break;
	case TWHEEL_SIMPLE:
		m = fe->e->clk + fz_simple.wheel.mask;
		FZ_CHECK(fe, x == (fz_refused(fe, hi) && m - lo <= hi - lo ? m : hi),
			 "simple pick %lu for [%lu, %lu]", x, lo, hi);
		break;
	default:
		FZ_CHECK(fe, x == hi, "pick %lu for [%lu, %lu], want hi", x, lo, hi);
	}
	return x;
}

static void fz_op(void)
{
	u8 k = fz_byte();
	unsigned int i = k >> 3;
	unsigned long x, w, v;
	bool r1, r2;

	switch (k & 7) {
	case 0:
		x = fz_expires(fz_ref.t[i].expires);
		FZ_TRACE("%lu: add %u %lu (clk%+ld)\n", fz.op, i, x, (long)(x - fz.clk));
		fz_add(&fz_ref, i, x);
		fz_add(&fz_wheel, i, x);
		break;
	case 1:
		x = fz_expires(fz_ref.t[i].expires);
		w = fz_byte();
		if (w & 1) {	/* a range of up to 2^(w >> 4) - 1 jiffies */
			w = (1UL << (w >> 4)) - 1 & fz_bytes(2);
			FZ_TRACE("%lu: mod_range %u [%lu, +%lu] (clk%+ld)\n", fz.op,
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
		FZ_TRACE("%lu: mod %u %lu (clk%+ld)\n", fz.op, i, x, (long)(x - fz.clk));
		r1 = fz_mod(&fz_ref, i, x);
		r2 = fz_mod(&fz_wheel, i, x);
		FZ_CHECK(&fz_wheel, fz_wheel.e->ops->kind == TWHEEL_MODERN ||
			 fz_wheel.e->ops->kind == TWHEEL_SIMPLE ||
			 fz_wheel.e->ops->kind == TWHEEL_HASH_VEC ||
			 r1 == r2, "mod %u: %d, reference %d", i, r2, r1);
		break;
	case 2:
		FZ_TRACE("%lu: del %u\n", fz.op, i);
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
		FZ_TRACE("%lu: advance to %lu (clk%+ld)%s\n", fz.op, x,
			 (long)(x - fz.clk), (k & 7) == 3 ? ", pop" : "");
		fz_jump(&fz_ref, x, (k & 7) == 3);
		fz_jump(&fz_wheel, x, (k & 7) == 3);
		if (!time_before(x, fz.clk))
			fz.clk = x + 1;
		break;
	case 5:
		x = fz.clk + fz_step() - 1;
		FZ_TRACE("%lu: run until %lu (clk%+ld)\n", fz.op, x, (long)(x - fz.clk));
		fz_run_until(&fz_ref, x);
		fz_run_until(&fz_wheel, x);
		if (!time_before(x, fz.clk))
			fz.clk = x + 1;
		break;
	case 6:
		FZ_TRACE("%lu: %u single jiffies\n", fz.op, i + 1);
		fz_jiffies(&fz_ref, i + 1);
		fz_jiffies(&fz_wheel, i + 1);
		fz.clk += i + 1;
		break;
	default:
		FZ_TRACE("%lu: pop all, pool %u\n", fz.op, i);
		fz_drain(&fz_ref);
		fz_drain(&fz_wheel);
		if (FZ_WHEEL == FZ_HASH_VEC)
			fz_vec_pool(i);
	}
}

/* The slots of a hash, hash_sorted or simple engine: 2 to FZ_HASH_SLOTS. */
static unsigned int fz_nr_slots(void)
{
	unsigned int n = 2U << (fz_byte() % 10);

	FZ_TRACE("%u slots\n", n);
	if (sizeof(fz_hash_mem) < twheel_hash_storage_size(n))
		abort();
	return n;
}

static void fz_setup(struct fz_engine *fe, struct twheel_engine *e)
{
	unsigned int i;

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
	k = fz_byte();
	switch (k & 3) {
	case 0:
		fz.clk = k >> 2;
		break;
	case 1:		/* the kernel's INITIAL_JIFFIES: 32-bit wrap soon */
		fz.clk = (unsigned long)(unsigned int)(-300 * HZ) + (k >> 2);
		break;
	case 2:		/* just before the 64-bit wrap */
		fz.clk = -1UL - fz_byte();
		break;
	default:
		fz.clk = fz_bytes(8);
	}
	FZ_TRACE("start at %lu\n", fz.clk);
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
		fz_lazy_max = 0;
		fz_setup(&fz_wheel, &fz_volt.e);
	} else if (FZ_WHEEL == FZ_HASH_SORTED) {
		if (twheel_hash_sorted_init(&fz_hash_sorted, fz.clk, fz_hash_mem,
					    fz_nr_slots()))
			abort();
		fz_setup(&fz_wheel, &fz_hash_sorted.wheel.e);
	} else if (FZ_WHEEL == FZ_HASH_VEC) {
		fz_vec_init(fz_nr_slots());
		fz_setup(&fz_wheel, &fz_vec.e);
	} else if (FZ_WHEEL == FZ_BOUNDED) {
		twheel_classic_bounded_init(&fz_bounded, fz.clk);
		/* small chunks: a pool's few timers spread over several ticks */
		fz_bounded.chunk = 1U << (fz_byte() % 7);
		FZ_TRACE("chunk %u\n", fz_bounded.chunk);
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
		fz_vec_done();
	return 0;
}

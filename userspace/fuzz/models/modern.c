// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's model of the modern wheel (fuzz_lib.h), built at the depth
 * FZ_VARIANT (8 or 9: targets fuzz-modern8 and fuzz-modern9). Its expiry
 * rule, the kernel's calc_wheel_index() in closed form: a timer runs at
 * its bucket's expiry, never early unless clamped beyond the range, late
 * by at most its level's granule; the O(1) placement (twheel_modern_index())
 * against it at every arm and at every level boundary +-2 from the input's
 * clock; each armed timer in the bucket of the rule; the buckets' bitmap,
 * hlists and levels, the collected tail; its range pick.
 */
#include "../fuzz_lib.h"
#include "engines/modern.h"

/* fuzz variants: 8 9 */

/*
 * calc_wheel_index() in closed form: level n holds the deltas below
 * 63 * 8^n (the last level all others, clamped to 62 * 8^(depth-1)); a
 * bucket fires at the first multiple of its granularity after expires.
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

static void fz_modern_config(struct fz_ctx *ctx, struct twheel_config *cfg)
{
	cfg->depth = FZ_VARIANT;
}

/* Every level boundary +-2 from the clock: O(1) level against the walk. */
static void fz_modern_setup(struct fz_engine *fe)
{
	struct twheel_modern *m = fz_engine_of(fe, struct twheel_modern, e);
	unsigned long fire, clk = fe->e->clk;
	struct fz_slot s;
	unsigned int lvl, idx;
	int d;

	for (lvl = 1; lvl <= fe->e->nr_levels; lvl++) {
		for (d = -2; d <= 2; d++) {
			s.expires = clk + tw_lvl_start(lvl) + d;
			fz_bucket(&s, clk, fe->e->nr_levels);
			idx = twheel_modern_index(m, s.expires, &fire);
			FZ_CHECK(fe, idx == s.bucket && fire == s.fire,
				 "boundary %u%+d: index %u at %lu, want %u at %lu",
				 lvl, d, idx, fire, s.bucket, s.fire);
		}
	}
}

/* A timer armed now: its bucket and the jiffy that bucket runs at. */
static void fz_modern_arm(struct fz_engine *fe, struct fz_slot *s)
{
	unsigned long exact = s->fire, fire;
	unsigned int idx;

	fz_bucket(s, fe->e->clk, fe->e->nr_levels);
	/* The rule: never early unless clamped, late by at most a granule. */
	FZ_CHECK(fe, s->clamped || (!time_before(s->fire, exact) &&
				    s->fire - exact <= s->gran),
		 "model: expires %lu bucket expiry %lu gran %lu", s->expires,
		 s->fire, s->gran);
	idx = twheel_modern_index(fz_engine_of(fe, struct twheel_modern, e),
				  s->expires, &fire);
	FZ_CHECK(fe, idx == s->bucket && fire == s->fire,
		 "twheel_modern_index(%lu) = %u at %lu, want %u at %lu",
		 s->expires, idx, fire, s->bucket, s->fire);
}

/*
 * The jiffy before hi's granule, if in the range: it runs by hi; none when
 * hi is past (every jiffy runs at the clock).
 */
static void fz_modern_pick(struct fz_engine *fe, unsigned long lo,
			   unsigned long hi, unsigned long x)
{
	unsigned long want, m, e1;
	struct fz_slot b;

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
}

static bool fz_modern_collected(const struct fz_engine *fe,
				const struct twheel_timer *t)
{
	const struct hlist_node *p;

	for (p = fz_engine_of(fe, struct twheel_modern, e)->collected.first; p;
	     p = p->next)
		if (p == &t->entry)
			return true;
	return false;
}

/* An armed timer is in the bucket of the rule. */
static void fz_modern_timer(struct fz_engine *fe, unsigned int i)
{
	const struct twheel_timer *t = &fe->t[i];
	const struct fz_slot *s = &fe->s[i];

	if (s->state == FZ_ARMED)
		FZ_CHECK(fe, t->bucket == s->bucket,
			 "timer %u (expires %lu) in bucket %u, want %u",
			 i, t->expires, t->bucket, s->bucket);
}

static void fz_check_modern(struct fz_engine *fe, unsigned long armed,
			    unsigned long due)
{
	struct twheel_modern *m = fz_engine_of(fe, struct twheel_modern, e);
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

const struct fz_model fz_model_modern = {
	.config		= fz_modern_config,
	.setup		= fz_modern_setup,
	.arm		= fz_modern_arm,
	.pick		= fz_modern_pick,
	.collected	= fz_modern_collected,
	.timer		= fz_modern_timer,
	.check		= fz_check_modern,
	.next_exact	= true,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * What the fuzzer's engine models (models/<name>.c, fuzz_lib.h) share: the
 * input's byte that gives a hashed wheel its slots, whether a timer is
 * collected by its engine's model, walks of a bucket's list or hlist and
 * of a collected list, a hashed wheel's slots, a level's processing
 * points and the cascade points' range pick; and the default model, of an
 * engine with no model file. The lowest of the fuzzer's files: called by
 * the models and fuzz_check.c, it calls none of them (a model only
 * through fe->model).
 */
#include "fuzz_lib.h"

/* The model of an engine that has no models/<name>.c: nothing to add. */
const struct fz_model fz_model_default;

/* The slots of a hashed wheel: 2 to FZ_HASH_SLOTS, from the input. */
unsigned int fz_nr_slots(struct fz_ctx *ctx)
{
	unsigned int n = 2U << (fz_byte(ctx) % 10);

	FZ_TRACE(ctx, "%u slots\n", n);
	return n;
}

/* Whether t is collected and not popped, as its engine's model tells. */
bool fz_collected(const struct fz_engine *fe, const struct twheel_timer *t)
{
	if (!twheel_pending(fe->e, t))
		return false;
	return fe->model->collected(fe, t);
}

/* A bucket's list (the classic wheels' @list): links, stray, bucket index. */
unsigned long fz_walk_list(struct fz_engine *fe, const struct list_head *head,
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

/* Counts an hlist (@entry) and returns where its last next pointer is. */
unsigned long fz_walk_hlist(struct fz_engine *fe, struct hlist_head *head,
			    unsigned int bucket, struct hlist_node ***tail)
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
void fz_check_levels(struct fz_engine *fe, const unsigned long *lvl,
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

/*
 * A collected list of timers linked by the list_head at offset link in
 * struct twheel_timer (the heap's @due, the hash engines' @hash_link):
 * count, links, and every timer on it collected by the model.
 */
unsigned long fz_walk_collected(struct fz_engine *fe,
				const struct list_head *head, size_t link)
{
	const struct list_head *p;
	const struct twheel_timer *t;
	unsigned long n = 0;

	for (p = head->next; p != head; p = p->next) {
		FZ_CHECK(fe, p->next->prev == p, "collected: bad link");
		t = (const struct twheel_timer *)((const char *)p - link);
		FZ_CHECK(fe, fz_index(fe, t) < FZ_POOL && ++n <= FZ_POOL,
			 "collected: stray entry %p", p);
		FZ_CHECK(fe, fz_collected(fe, t), "timer %u on the collected list, not marked",
			 fz_index(fe, t));
	}
	return n;
}

/*
 * The hash and simple engines: each timer in the slot of its expiry (of
 * the clock if armed in the past), its rounds (always 0 on simple: bits 0)
 * such that the slot's visit after them is the jiffy the model says, the
 * bitmap as the slots are.
 */
/*
 * The engines of one list of timers (straight, ordered): n timers walked in
 * it, all in level 0, must be the armed ones; the collected list (through
 * hash_link) is due long.
 */
void fz_check_list_counts(struct fz_engine *fe, unsigned long n,
			  unsigned long armed, const struct list_head *collected,
			  unsigned long due)
{
	FZ_CHECK(fe, n == armed && fz_level0(fe) == armed,
		 "%lu timers in the list, in level 0 %lu, want %lu", n,
		 fz_level0(fe), armed);
	FZ_CHECK(fe, fz_walk_collected(fe, collected,
				       offsetof(struct twheel_timer, hash_link)) == due,
		 "collected list is not %lu long", due);
}

void fz_check_slots(struct fz_engine *fe, unsigned long armed,
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
	FZ_CHECK(fe, fz_walk_collected(fe, collected,
				       offsetof(struct twheel_timer, hash_link)) == due,
		 "collected list is not %lu long", due);
}

/*
 * The next jiffy at or after clk at which a level of 2^bits slots of
 * 2^shift jiffies processes slot: the clock's low shift bits are 0 and its
 * next bits are the slot's number.
 */
static unsigned long fz_slot_point(unsigned long clk, unsigned int shift,
				   unsigned int bits, unsigned long slot)
{
	unsigned long mask = (1UL << shift) - 1, size = 1UL << bits;
	unsigned long first = (clk + mask) & ~mask;

	return first + (((slot - (first >> shift)) & (size - 1)) << shift);
}

/*
 * A timer in a slot of such a level (ratas, volt) must run at fire: the
 * slot is next processed no later, and less than a slot's span (2^shift)
 * before it; so the promotion or re-filing there, or the collection, comes
 * in time and files it exactly.
 */
void fz_check_point(struct fz_engine *fe, unsigned int i, unsigned long fire,
		    unsigned int shift, unsigned int bits, unsigned long slot)
{
	unsigned long clk = fe->e->clk;
	unsigned long p = fz_slot_point(clk, shift, bits, slot);

	FZ_CHECK(fe, fire - clk >= p - clk && fire - p <= (1UL << shift) - 1,
		 "timer %u (fire %lu) in slot %lu (shift %u), processed at %lu",
		 i, fire, slot, shift, p);
}

/*
 * The range pick of a wheel that cascades (classic, classic_bounded) or
 * promotes (ratas): the latest multiple of the coarsest cascade point the
 * range crosses (else hi); cascade points 2^top, 2^(top - step), ... down
 * to 2^8 (classic's 2^26, 2^20, 2^14, 2^8; ratas' 2^56, 2^48, ...).
 */
void fz_pick_levels(struct fz_engine *fe, unsigned long lo, unsigned long hi,
		    unsigned long x, int step, int top)
{
	unsigned long want = hi, m;
	int s;

	for (s = top; s >= 8 && want == hi; s -= step) {
		m = hi & ~((1UL << s) - 1);
		if (m - lo <= hi - lo && m != lo)
			want = m;
	}
	FZ_CHECK(fe, x == want, "%s pick %lu for [%lu, %lu], want %lu",
		 fe->e->ops->name, x, lo, hi, want);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's checks of an engine (fuzz.h), after every op: each timer
 * against the model (pending, collected, expiry; the counters and
 * twheel_count() against the model's armed and collected timers), and
 * with full each engine's own structure, from its specification: lists
 * and hlists well linked, each timer in the bucket or slot it must be in,
 * bitmaps as the buckets are, per-level counts, the heap's order, the
 * reference's trees; next_event against the model. The seeds' engines'
 * checks are in fuzz_seeds.h, hash_vec's in fuzz_vec.c. Called by fuzz.c
 * and fuzz_ops.c; calls down into fuzz_vec.c only. Each engine's own
 * structure is container_of() the engine under test (fe->e).
 */
#include "fuzz.h"

/* The engine under test as its own structure: type, whose member is fe->e. */
#define fz_engine_of(fe, type, member)	container_of((fe)->e, type, member)

static bool fz_collected(const struct fz_engine *fe,
			 const struct twheel_timer *t)
{
	const struct rb_node *top = &t->node;

	if (!twheel_pending(fe->e, t))
		return false;
	if (fe->e->ops->kind == TWHEEL_CLASSIC ||
	    fe->e->ops->kind == TWHEEL_CLASSIC_BOUNDED) {
		const struct list_head *p, *head = fe->e->ops->kind == TWHEEL_CLASSIC ?
			&fz_engine_of(fe, struct twheel_classic, e)->collected :
			&fz_engine_of(fe, struct twheel_classic_bounded, e)->collected;

		for (p = head->next; p != head; p = p->next)
			if (p == &t->list)
				return true;
		return false;
	}
	if (fe->e->ops->kind == TWHEEL_MODERN) {
		const struct hlist_node *p;

		for (p = fz_engine_of(fe, struct twheel_modern, e)->collected.first; p;
		     p = p->next)
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
	return top != fz_engine_of(fe, struct twheel_reference, e)->armed.rb_root.rb_node;
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

static void fz_check_classic(struct fz_engine *fe, unsigned long armed,
			     unsigned long due)
{
	struct twheel_classic *c = fz_engine_of(fe, struct twheel_classic, e);
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
static void fz_check_bounded(struct fz_engine *fe, unsigned long armed,
			     unsigned long due)
{
	struct twheel_classic_bounded *c = fz_engine_of(fe, struct twheel_classic_bounded, e);
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
	const struct twheel_heap *h = fz_engine_of(fe, struct twheel_heap, e);
	const struct twheel_heap_slot *s;
	unsigned long key;
	unsigned int i;

	FZ_CHECK(fe, h->nr == armed && h->nr <= h->cap &&
		 fz_level0(fe) == armed,
		 "heap holds %u (cap %u, in level 0 %lu), want %lu", h->nr,
		 h->cap, fz_level0(fe), armed);
	for (i = 0; i < h->nr; i++) {
		s = &h->slots[i];
		FZ_CHECK(fe, fz_index(fe, s->t) < FZ_POOL, "slot %u: stray %p",
			 i, s->t);
		/* the key: the expiry, the clock if that is past */
		key = time_before(s->t->expires, fe->e->clk) ? fe->e->clk : s->t->expires;
		FZ_CHECK(fe, s->t->heap_idx == i && s->expires == key,
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
	const struct twheel_hash *h = &fz_engine_of(fe, struct twheel_hash_sorted, wheel.e)->wheel;
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
	const struct twheel_straight *st = straight ?
		fz_engine_of(fe, struct twheel_straight, e) : NULL;
	const struct twheel_ordered *ord = straight ? NULL :
		fz_engine_of(fe, struct twheel_ordered, e);
	const struct list_head *head = straight ? &st->list : &ord->list;
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
			FZ_CHECK(fe, st->base + t->rounds == fe->s[i].fire &&
				 !time_after(st->base, fe->e->clk),
				 "timer %u: base %lu + %lu ticks, model fire %lu",
				 i, st->base, t->rounds, fe->s[i].fire);
		else
			FZ_CHECK(fe, !prev || !time_before(t->expires, prev->expires),
				 "list: %lu after %lu", t->expires, prev->expires);
		prev = t;
	}
	FZ_CHECK(fe, n == armed && fz_level0(fe) == armed,
		 "%lu timers in the list, in level 0 %lu, want %lu", n,
		 fz_level0(fe), armed);
	FZ_CHECK(fe, fz_walk_collected(fe, straight ? &st->collected :
				       &ord->collected) == due,
		 "collected list is not %lu long", due);
}

/*
 * Counts the reference's armed tree in order; keys (expiries, taken
 * against the clock) must never go down.
 */
static unsigned long fz_walk_armed(struct fz_engine *fe,
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
		FZ_CHECK(fe, !prev || (long)(t->expires - fe->e->clk) >=
				      (long)(prev->expires - fe->e->clk),
			 "timer %u (%lu) after timer %u (%lu) in the tree",
			 fz_index(fe, t), t->expires, fz_index(fe, prev),
			 prev->expires);
		prev = t;
	}
	return n;
}

/*
 * Counts the reference's due tree, a queue: in the order the timers were
 * collected, the jiffy they fell due at (the model's) never going down,
 * and within a jiffy their expiries never going down (taken against that
 * jiffy: all are at or before it).
 */
static unsigned long fz_walk_due(struct fz_engine *fe,
				 const struct rb_root_cached *root)
{
	const struct twheel_timer *t, *prev = NULL;
	unsigned long n = 0, at, prev_at = 0;
	struct rb_node *p;

	FZ_CHECK(fe, rb_first_cached(root) == rb_first(&root->rb_root),
		 "leftmost is stale");
	for (p = rb_first(&root->rb_root); p; p = rb_next(p)) {
		t = rb_entry(p, struct twheel_timer, node);
		FZ_CHECK(fe, fz_index(fe, t) < FZ_POOL && ++n <= FZ_POOL,
			 "stray node %p", p);
		at = fe->s[fz_index(fe, t)].fire;
		FZ_CHECK(fe, !prev || time_after(at, prev_at) ||
			 (at == prev_at &&
			  (long)(t->expires - at) >= (long)(prev->expires - at)),
			 "timer %u (due %lu, expires %lu) after timer %u (due %lu, expires %lu)",
			 fz_index(fe, t), at, t->expires, fz_index(fe, prev),
			 prev_at, prev->expires);
		prev = t;
		prev_at = at;
	}
	return n;
}

static void fz_check_hash(struct fz_engine *fe, unsigned long armed,
			  unsigned long due)
{
	const struct twheel_hash *h = fz_engine_of(fe, struct twheel_hash, e);

	fz_check_slots(fe, armed, due, h->slots, h->map, h->mask, h->bits,
		       &h->collected);
}

static void fz_check_simple(struct fz_engine *fe, unsigned long armed,
			    unsigned long due)
{
	const struct twheel_hash *h = &fz_engine_of(fe, struct twheel_simple, wheel.e)->wheel;

	fz_check_slots(fe, armed, due, h->slots, h->map, h->mask, 0, &h->collected);
}

/* The reference: its two trees hold what is armed and what is due. */
static void fz_check_reference(struct fz_engine *fe, unsigned long armed,
			       unsigned long due)
{
	const struct twheel_reference *r = fz_engine_of(fe, struct twheel_reference, e);
	unsigned long n;

	n = fz_walk_armed(fe, &r->armed);
	FZ_CHECK(fe, n == armed, "%lu in the armed tree, want %lu", n, armed);
	n = fz_walk_due(fe, &r->due);
	FZ_CHECK(fe, n == due, "%lu in the due tree, want %lu", n, due);
}

/*
 * hash_vec: its slots and pool (fuzz_vec.c), then its collected list as
 * the other hash engines'.
 */
static void fz_check_hash_vec(struct fz_engine *fe, unsigned long armed,
			      unsigned long due)
{
	const struct twheel_hash_vec *hv = fz_engine_of(fe, struct twheel_hash_vec, e);

	fz_check_vec(fe, armed);
	FZ_CHECK(fe, fz_walk_collected(fe, &hv->collected) == due,
		 "collected list is not %lu long", due);
}

/* Each engine's structure check, by its kind. */
static void (*const fz_checks[TWHEEL_NR_KINDS])(struct fz_engine *fe,
						unsigned long armed,
						unsigned long due) = {
	[TWHEEL_CLASSIC]	 = fz_check_classic,
	[TWHEEL_MODERN]		 = fz_check_modern,
	[TWHEEL_REFERENCE]	 = fz_check_reference,
	[TWHEEL_HEAP]		 = fz_check_heap,
	[TWHEEL_HASH]		 = fz_check_hash,
	[TWHEEL_SIMPLE]		 = fz_check_simple,
	[TWHEEL_HASH_SORTED]	 = fz_check_sorted,
	[TWHEEL_STRAIGHT]	 = fz_check_list,
	[TWHEEL_ORDERED]	 = fz_check_list,
	[TWHEEL_RATAS]		 = fz_check_ratas,
	[TWHEEL_VOLT]		 = fz_check_volt,
	[TWHEEL_HASH_VEC]	 = fz_check_hash_vec,
	[TWHEEL_CLASSIC_BOUNDED] = fz_check_bounded,
};

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
void fz_check_next(struct fz_engine *fe, unsigned long limit, unsigned long d)
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

/* Every timer against the model; with full, the whole structure too. */
void fz_check_engine(struct fz_engine *fe, bool full)
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

	fz_checks[fe->e->ops->kind](fe, armed, due);
	n = 1 + fe->ctx->op % 600;
	fz_check_next(fe, n, twheel_next_event(fe->e, n));
	fz_check_next(fe, LONG_MAX, twheel_next_event(fe->e, LONG_MAX));
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's model of hash_vec (fuzz_lib.h): its slots from the input, its
 * pool of arrays fed and drained by the input (the pop-all op's second
 * half), the refusals that follow from it (-ENOMEM; a mod disarms)
 * predicted from the slots and the pool alone, its structure checked
 * after every op, and at the input's end every array back. The arrays
 * given and not taken back are counted in fz_vec_arrays(fe). Advances are
 * kept below 2^16 jiffies, as the hash engine's; next_event may stop early
 * at a slot whose timers only wait a round.
 */
#include <linux/log2.h>
#include "../fuzz_lib.h"
#include "engines/hash_vec.h"

/* The arrays given to the engine and not taken back yet. */
#define fz_vec_arrays(fe)	((fe)->own[0])

/* The hash_vec engine fe tests. */
static struct twheel_hash_vec *fz_vec_of(const struct fz_engine *fe)
{
	return container_of(fe->e, struct twheel_hash_vec, e);
}

static void fz_vec_give(struct fz_engine *fe, unsigned int order)
{
	void *a = malloc(twheel_hash_vec_array_size(order));

	if (!a)
		abort();
	twheel_hash_vec_give(fz_vec_of(fe), order, a);
	fz_vec_arrays(fe)++;
}

static bool fz_vec_take(struct fz_engine *fe, bool all)
{
	void *a = twheel_hash_vec_take(fz_vec_of(fe), all);

	if (!a)
		return false;
	free(a);
	fz_vec_arrays(fe)--;
	return true;
}

/* Its slots from the input; it keeps no spares until fz_vec_setup(). */
static void fz_vec_config(struct fz_ctx *ctx, struct twheel_config *cfg)
{
	cfg->slots = fz_nr_slots(ctx);
	cfg->keep = 0;
}

/*
 * How many spares of order 0 and of the small orders it asks to keep: a
 * small pool, so that arms are refused often.
 */
static void fz_vec_setup(struct fz_engine *fe)
{
	struct twheel_hash_vec *hv = fz_vec_of(fe);
	u8 k = fz_byte(fe->ctx);
	unsigned int o;

	twheel_hash_vec_keep(hv, 0, k & 7);
	for (o = 1; o < TW_VEC_SMALL_ORDERS; o++)
		twheel_hash_vec_keep(hv, o, (k >> 3) & 3);
	FZ_TRACE(fe->ctx, "keep %u first, %u small\n", k & 7, (k >> 3) & 3);
}

/*
 * The pool op (x, 5 bits): give what the engine asks for, give one array
 * of some order, take back the excess, or take any one spare.
 */
static void fz_vec_pool(struct fz_engine *fe, unsigned int x)
{
	struct twheel_hash_vec *hv = fz_vec_of(fe);
	unsigned int order;
	u32 n;

	switch (x & 3) {
	case 0:
		while ((n = twheel_hash_vec_wanted(hv, &order)))
			while (n--)
				fz_vec_give(fe, order);
		FZ_CHECK(fe, !twheel_hash_vec_short(hv),
			 "short after every want was given");
		break;
	case 1:
		fz_vec_give(fe, (x >> 2) & 7);
		break;
	case 2:
		while (fz_vec_take(fe, false))
			;
		FZ_CHECK(fe, !hv->high, "high after the excess was taken");
		break;
	default:
		fz_vec_take(fe, true);
	}
}

/*
 * Whether arming timer i for expires is refused now: its slot (of its
 * due jiffy) is full and no spare is larger than the slot's array. A mod
 * of a pending timer takes it out first: from the same slot that makes
 * room; emptying another slot makes that slot's array a spare.
 */
static bool fz_vec_refuses(const struct fz_engine *fe, unsigned int i,
			   unsigned long expires)
{
	const struct twheel_hash_vec *hv = fz_vec_of(fe);
	const struct twheel_timer *t = &fe->t[i];
	unsigned long clk = hv->e.clk, when = time_before(expires, clk) ? clk : expires;
	const struct twheel_vec_slot *s = &hv->slots[when & hv->mask];
	unsigned int k, freed = TW_VEC_ORDERS;
	u32 nr = s->nr;

	if (fe->s[i].state == FZ_ARMED) {
		if (t->vec_slot == (when & hv->mask))
			nr--;
		else if (hv->slots[t->vec_slot].nr == 1)
			freed = ilog2(hv->slots[t->vec_slot].cap) - TW_VEC_MIN_SHIFT;
	}
	if (nr < s->cap)
		return false;
	for (k = s->cap ? ilog2(s->cap) - TW_VEC_MIN_SHIFT + 1 : 0; k < TW_VEC_ORDERS; k++)
		if (hv->pool[k].nr || k == freed)
			return false;
	/*
	 * The promise of twheel_hash_vec_short(): an add it did not warn of
	 * is refused only for an array of a size the engine asks none of.
	 */
	k = s->cap ? ilog2(s->cap) - TW_VEC_MIN_SHIFT + 1 : 0;
	FZ_CHECK(fe, fe->s[i].state != FZ_IDLE || twheel_hash_vec_short(hv) ||
		 k >= TW_VEC_ORDERS || (!hv->pool[k].keep && !(k && hv->pool[k - 1].hot)),
		 "add of timer %u refused, the engine not short (order %u)", i, k);
	return true;
}

/*
 * Every slot: its array as long as its count (none while empty), every
 * entry's timer pointing back at it and due at the model's jiffy, in the
 * slot of that jiffy; the bitmap; every pending timer's slot and index at
 * an entry that holds it; each order's spares, hot slots and bits; then
 * its collected list, as the other hash engines'.
 */
static void fz_check_vec(struct fz_engine *fe, unsigned long armed,
			 unsigned long due)
{
	const struct twheel_hash_vec *hv = fz_vec_of(fe);
	u32 hot[TW_VEC_ORDERS] = { 0 }, want, n;
	unsigned long b, in_slots = 0, arrays = 0;
	const struct twheel_vec_slot *s;
	const struct twheel_timer *t;
	unsigned int i, k;
	void *p;

	for (b = 0; b <= hv->mask; b++) {
		s = &hv->slots[b];
		FZ_CHECK(fe, s->nr <= s->cap && !s->nr == !s->cap && !s->ent == !s->cap,
			 "slot %lu: %u of %u entries, array %p", b, s->nr, s->cap, s->ent);
		FZ_CHECK(fe, test_bit(b, hv->map) == !!s->nr, "slot %lu: bit %d, %u timers",
			 b, test_bit(b, hv->map), s->nr);
		if (!s->cap)
			continue;
		k = ilog2(s->cap) - TW_VEC_MIN_SHIFT;
		FZ_CHECK(fe, is_power_of_2(s->cap) && k < TW_VEC_ORDERS,
			 "slot %lu: %u entries", b, s->cap);
		hot[k] += s->nr >= s->cap - s->cap / 4;
		arrays++;
		for (n = 0; n < s->nr; n++) {
			t = s->ent[n].t;
			i = fz_index(fe, t);
			FZ_CHECK(fe, i < FZ_POOL, "slot %lu entry %u: stray %p", b, n, t);
			FZ_CHECK(fe, t->vec_slot == b && t->vec_idx == n,
				 "slot %lu entry %u: timer %u says slot %u entry %u",
				 b, n, i, t->vec_slot, t->vec_idx);
			FZ_CHECK(fe, fe->s[i].state == FZ_ARMED &&
				 s->ent[n].when == fe->s[i].fire &&
				 (s->ent[n].when & hv->mask) == b,
				 "slot %lu entry %u: timer %u (state %d, fire %lu) due %lu",
				 b, n, i, fe->s[i].state, fe->s[i].fire, s->ent[n].when);
		}
		in_slots += s->nr;
	}
	FZ_CHECK(fe, in_slots == armed && fz_level0(fe) == armed,
		 "%lu timers in slots, in level 0 %lu, want %lu", in_slots,
		 fz_level0(fe), armed);
	for (i = 0; i < FZ_POOL; i++) {
		t = &fe->t[i];
		if (!fz_holds(fe, i))
			continue;
		if (fe->s[i].state != FZ_ARMED) {
			FZ_CHECK(fe, t->vec_slot == (fe->s[i].state == FZ_IDLE ?
						     TW_VEC_IDLE : TW_VEC_COLLECTED),
				 "timer %u in state %d says slot %u", i,
				 fe->s[i].state, t->vec_slot);
			continue;
		}
		FZ_CHECK(fe, t->vec_slot <= hv->mask &&
			 t->vec_idx < hv->slots[t->vec_slot].nr &&
			 hv->slots[t->vec_slot].ent[t->vec_idx].t == t,
			 "timer %u says slot %u entry %u: not its entry", i,
			 t->vec_slot, t->vec_idx);
	}
	for (k = 0; k < TW_VEC_ORDERS; k++) {
		const struct twheel_vec_pool *pool = &hv->pool[k];

		for (n = 0, p = pool->spare; p; p = *(void **)p)
			FZ_CHECK(fe, ++n <= pool->nr, "order %u: more spares than %u", k,
				 pool->nr);
		want = pool->keep + (k ? hot[k - 1] : 0);
		FZ_CHECK(fe, n == pool->nr && pool->hot == hot[k],
			 "order %u: %u spares (says %u), %u hot (says %u)", k, n,
			 pool->nr, hot[k], pool->hot);
		FZ_CHECK(fe, test_bit(k, &hv->avail) == !!n &&
			 test_bit(k, &hv->low) == (n < want) &&
			 test_bit(k, &hv->scarce) == (n < (want + 1) / 2) &&
			 test_bit(k, &hv->high) == (n > 2 * want + 2),
			 "order %u: %u spares, want %u: bits avail %d low %d scarce %d high %d",
			 k, n, want, test_bit(k, &hv->avail), test_bit(k, &hv->low),
			 test_bit(k, &hv->scarce), test_bit(k, &hv->high));
		arrays += n;
	}
	FZ_CHECK(fe, arrays == fz_vec_arrays(fe), "%lu arrays in slots and spares, %llu given",
		 arrays, fz_vec_arrays(fe));
	FZ_CHECK(fe, fz_walk_collected(fe, &hv->collected,
				       offsetof(struct twheel_timer, hash_link)) == due,
		 "collected list is not %lu long", due);
}

/*
 * The input's end: every timer it holds deleted, every array back, none
 * lost.
 */
static void fz_vec_done(struct fz_engine *fe)
{
	unsigned int i;

	for (i = 0; i < FZ_POOL; i++)
		if (fz_holds(fe, i))
			twheel_del(fe->e, &fe->t[i]);
	while (fz_vec_take(fe, true))
		;
	FZ_CHECK(fe, !fz_vec_arrays(fe) && !twheel_stats_pending(&fe->e->st),
		 "%llu arrays not handed back, %lu timers pending", fz_vec_arrays(fe),
		 twheel_stats_pending(&fe->e->st));
}

static bool fz_vec_collected(const struct fz_engine *fe,
			     const struct twheel_timer *t)
{
	return t->vec_slot == TW_VEC_COLLECTED;
}

const struct fz_model fz_model_hash_vec = {
	.config		= fz_vec_config,
	.setup		= fz_vec_setup,
	.refuses	= fz_vec_refuses,
	.refuse_err	= -ENOMEM,
	.collected	= fz_vec_collected,
	.check		= fz_check_vec,
	.pool		= fz_vec_pool,
	.done		= fz_vec_done,
	.step_mask	= 0xffffUL,
};

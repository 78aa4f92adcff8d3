// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's model of classic_bounded (fuzz_lib.h): its cascade chunk from
 * the input (small: a pool's few timers spread over several ticks), each
 * timer in the slot its specification gives, the classic wheel's range
 * pick; next_event may stop early for a cascade.
 */
#include "../fuzz_lib.h"
#include "engines/classic_bounded.h"

/* The chunk: 1 to 64 timers a tick, one byte of the input. */
static void fz_bounded_setup(struct fz_engine *fe)
{
	struct twheel_classic_bounded *c =
		fz_engine_of(fe, struct twheel_classic_bounded, e);

	c->chunk = 1U << (fz_byte(fe->ctx) % 7);
	FZ_TRACE(fe->ctx, "chunk %u\n", c->chunk);
}

static bool fz_bounded_collected(const struct fz_engine *fe,
				 const struct twheel_timer *t)
{
	const struct list_head *p, *head =
		&fz_engine_of(fe, struct twheel_classic_bounded, e)->collected;

	for (p = head->next; p != head; p = p->next)
		if (p == &t->list)
			return true;
	return false;
}

/*
 * From its specification: each slot's list, bit and (above level 0) count
 * agree; a level-0 timer is in the slot of the jiffy it runs at, less than
 * two tv1 laps ahead; a timer of level n >= 1 is in the slot numbered
 * expires >> (6n + 2) (one beyond the top's two laps: in an earlier top
 * slot), and that slot's window, which moves it down, has not ended: its
 * last jiffy is not before the clock.
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

/* The classic wheel's: the latest multiple of 2^26, 2^20, 2^14 or 2^8. */
static void fz_bounded_pick(struct fz_engine *fe, unsigned long lo,
			    unsigned long hi, unsigned long x)
{
	fz_pick_levels(fe, lo, hi, x, 6, 26);
}

const struct fz_model fz_model_classic_bounded = {
	.setup		= fz_bounded_setup,
	.pick		= fz_bounded_pick,
	.collected	= fz_bounded_collected,
	.check		= fz_check_bounded,
};

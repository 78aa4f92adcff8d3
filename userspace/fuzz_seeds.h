/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz.c's structure checks of the seeds' engines (ratas, volt), in a file
 * of their own; included by fuzz.c once its helpers are defined.
 */
#ifndef FZ_SEEDS_H
#define FZ_SEEDS_H

static struct twheel_ratas fz_ratas;

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
 * A timer in a slot of such a level must run at fire: the slot is next
 * processed no later, and less than a slot's span (2^shift) before it;
 * so the promotion or re-filing there, or the collection, comes in time
 * and files it exactly.
 */
static void fz_check_point(struct fz_engine *fe, unsigned int i,
			   unsigned long fire, unsigned int shift,
			   unsigned int bits, unsigned long slot)
{
	unsigned long clk = fe->e->clk;
	unsigned long p = fz_slot_point(clk, shift, bits, slot);

	FZ_CHECK(fe, fire - clk >= p - clk && fire - p <= (1UL << shift) - 1,
		 "timer %u (fire %lu) in slot %lu (shift %u), processed at %lu",
		 i, fire, slot, shift, p);
}

/*
 * ratas: every slot's hlist well linked, each timer in it armed and in the
 * slot its next processing point makes exact; the levels as twheel_count()
 * counts them, the collected list as the model's.
 */
static void fz_check_ratas(struct fz_engine *fe, unsigned long due)
{
	unsigned long lvl[TWHEEL_MAX_LEVELS] = { 0 }, per[TWHEEL_MAX_LEVELS], n;
	const struct twheel_timer *t;
	struct hlist_node **tail;
	unsigned int b, l, i;

	for (b = 0; b < TW_RATAS_BUCKETS; b++) {
		l = b / TW_RATAS_SIZE;
		lvl[l] += fz_walk_hlist(fe, &fz_ratas.slots[b], b, &tail);
		hlist_for_each_entry(t, &fz_ratas.slots[b], entry) {
			i = fz_index(fe, t);
			FZ_CHECK(fe, fe->s[i].state == FZ_ARMED,
				 "timer %u in slot %u in state %d", i, b,
				 fe->s[i].state);
			fz_check_point(fe, i, fe->s[i].fire, l * TW_RATAS_BITS,
				       TW_RATAS_BITS, b % TW_RATAS_SIZE);
		}
	}
	twheel_count(fe->e, per);
	for (l = 0; l < TWHEEL_MAX_LEVELS; l++)
		FZ_CHECK(fe, lvl[l] == per[l],
			 "level %u: %lu timers, twheel_count says %lu", l,
			 lvl[l], per[l]);
	n = fz_walk_list(fe, &fz_ratas.collected, TWHEEL_COLLECTED);
	FZ_CHECK(fe, n == due, "%lu collected, want %lu", n, due);
	list_for_each_entry(t, &fz_ratas.collected, list)
		FZ_CHECK(fe, t->bucket == TWHEEL_COLLECTED,
			 "collected timer %u says bucket %u", fz_index(fe, t),
			 t->bucket);
}

#endif /* FZ_SEEDS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The structure checks of the seeds' engines (ratas, volt), in a file of
 * their own; included by fuzz_check.c once its walks are defined.
 */
#ifndef FZ_SEEDS_H
#define FZ_SEEDS_H

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
static void fz_check_ratas(struct fz_engine *fe, unsigned long armed,
			   unsigned long due)
{
	struct twheel_ratas *ratas = fz_engine_of(fe, struct twheel_ratas, e);
	unsigned long lvl[TWHEEL_MAX_LEVELS] = { 0 }, per[TWHEEL_MAX_LEVELS], n;
	const struct twheel_timer *t;
	struct hlist_node **tail;
	unsigned int b, l, i;

	for (b = 0; b < TW_RATAS_BUCKETS; b++) {
		l = b / TW_RATAS_SIZE;
		lvl[l] += fz_walk_hlist(fe, &ratas->slots[b], b, &tail);
		hlist_for_each_entry(t, &ratas->slots[b], entry) {
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
	n = fz_walk_list(fe, &ratas->collected, TWHEEL_COLLECTED);
	FZ_CHECK(fe, n == due, "%lu collected, want %lu", n, due);
	list_for_each_entry(t, &ratas->collected, list)
		FZ_CHECK(fe, t->bucket == TWHEEL_COLLECTED,
			 "collected timer %u says bucket %u", fz_index(fe, t),
			 t->bucket);
}

/*
 * One of volt's lists (a slot, the overflow list or the collected list,
 * idx as its timers must say): well linked, each timer in it from the
 * pool and saying idx; a live one in model state want, a cancelled one
 * not pending in the model. Adds the cancelled ones to *lazy and, unless
 * idx is TW_VOLT_COLLECTED, checks when each is processed: a slot in time
 * to file it exactly, the overflow list's next walk no later than it.
 */
static unsigned long fz_walk_volt(struct fz_engine *fe,
				  const struct list_head *head, unsigned int idx,
				  enum fz_state want, unsigned long *lazy)
{
	const struct twheel_volt *v = fz_engine_of(fe, struct twheel_volt, e);
	const struct list_head *p;
	const struct twheel_timer *t;
	unsigned long n = 0;
	unsigned int i;

	FZ_CHECK(fe, head->next->prev == head, "list %u: bad head", idx);
	for (p = head->next; p != head; p = p->next) {
		t = container_of(p, struct twheel_timer, volt_link);
		i = fz_index(fe, t);
		FZ_CHECK(fe, i < FZ_POOL && ++n <= FZ_POOL, "list %u: stray entry %p",
			 idx, p);
		FZ_CHECK(fe, p->next->prev == p, "list %u: bad link", idx);
		FZ_CHECK(fe, t->volt_slot == idx, "timer %u on list %u says %u", i,
			 idx, t->volt_slot);
		FZ_CHECK(fe, fe->s[i].state == (t->volt_cancelled ? FZ_IDLE : want),
			 "timer %u on list %u (cancelled %d) in state %d", i, idx,
			 t->volt_cancelled, fe->s[i].state);
		*lazy += t->volt_cancelled;
		if (idx < TW_VOLT_BUCKETS)
			fz_check_point(fe, i, fe->s[i].fire,
				       idx / TW_VOLT_SIZE * TW_VOLT_BITS, TW_VOLT_BITS,
				       idx % TW_VOLT_SIZE);
		else if (idx == TW_VOLT_OVERFLOW)
			FZ_CHECK(fe, fe->s[i].fire - fe->e->clk >=
				 v->overflow_next - fe->e->clk &&
				 !(v->overflow_next & ((1UL << TW_VOLT_SPAN_BITS) - 1)),
				 "timer %u (fire %lu) on the overflow list, walked at %lu",
				 i, fe->s[i].fire, v->overflow_next);
	}
	return n;
}

/*
 * volt: every slot, the overflow list and the collected list as the model
 * says (each cancelled timer still linked counted), each level's word with
 * a bit exactly for its non-empty slots, lazy_held what is linked and
 * cancelled, lazy_held_max the most it has been, an unlinked timer idle.
 */
static void fz_check_volt(struct fz_engine *fe, unsigned long armed,
			  unsigned long due)
{
	const struct twheel_volt *v = fz_engine_of(fe, struct twheel_volt, e);
	unsigned long lazy = 0, n;
	unsigned int b, i;
	bool bit;

	for (b = 0; b < TW_VOLT_BUCKETS; b++) {
		n = fz_walk_volt(fe, &v->slots[b], b, FZ_ARMED, &lazy);
		bit = v->occupied[b / TW_VOLT_SIZE] & BIT_ULL(b % TW_VOLT_SIZE);
		FZ_CHECK(fe, bit == !!n, "slot %u: bit %d, %lu timers", b, bit, n);
	}
	fz_walk_volt(fe, &v->overflow, TW_VOLT_OVERFLOW, FZ_ARMED, &lazy);
	n = lazy;
	FZ_CHECK(fe, fz_walk_volt(fe, &v->collected, TW_VOLT_COLLECTED,
				  FZ_COLLECTED, &lazy) - (lazy - n) == due,
		 "collected list: not %lu live timers", due);
	fe->ctx->lazy_max = max(fe->ctx->lazy_max, (u64)lazy);
	FZ_CHECK(fe, v->e.st.lazy_held == lazy && v->e.st.lazy_held_max == fe->ctx->lazy_max,
		 "lazy_held %llu (max %llu), %lu cancelled timers linked (max %llu)",
		 v->e.st.lazy_held, v->e.st.lazy_held_max, lazy, fe->ctx->lazy_max);
	for (i = 0; i < FZ_POOL; i++)
		FZ_CHECK(fe, fe->t[i].volt_link.next ||
			 (fe->t[i].volt_slot == TW_VOLT_IDLE && !fe->t[i].volt_cancelled),
			 "timer %u not linked, slot %u, cancelled %d", i,
			 fe->t[i].volt_slot, fe->t[i].volt_cancelled);
}

#endif /* FZ_SEEDS_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's model of volt (seed 003's wheel, fuzz_lib.h): every slot, the
 * overflow list and the collected list as the model says, each level's
 * occupancy word, and its lazy cancel: every cancelled timer still linked
 * is not pending in the model, lazy_held is their number and
 * lazy_held_max the most it has been after any step (kept in
 * fz_volt_max(fe)), and a timer the engine has let go of (reclaimed, or
 * detached to move to another instance) is unlinked and unflagged;
 * next_event may stop early to re-file a slot or reclaim.
 */
#include "../fuzz_lib.h"
#include "engines/volt.h"

/* The most cancelled timers it held linked after any step of this input. */
#define fz_volt_max(fe)	((fe)->own[0])

static bool fz_volt_collected(const struct fz_engine *fe,
			      const struct twheel_timer *t)
{
	return t->volt_slot == TW_VOLT_COLLECTED;
}

/*
 * One of its lists (a slot, the overflow list or the collected list, idx
 * as its timers must say): well linked, each timer in it from the pool and
 * saying idx; a live one in model state want, a cancelled one not pending
 * in the model. Adds the cancelled ones to *lazy and, unless idx is
 * TW_VOLT_COLLECTED, checks when each is processed: a slot in time to file
 * it exactly, the overflow list's next walk no later than it.
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
 * Every slot, the overflow list and the collected list as the model says
 * (each cancelled timer still linked counted), each level's word with a
 * bit exactly for its non-empty slots, lazy_held what is linked and
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
	fz_volt_max(fe) = max(fz_volt_max(fe), (u64)lazy);
	FZ_CHECK(fe, v->e.st.lazy_held == lazy && v->e.st.lazy_held_max == fz_volt_max(fe),
		 "lazy_held %llu (max %llu), %lu cancelled timers linked (max %llu)",
		 v->e.st.lazy_held, v->e.st.lazy_held_max, lazy, fz_volt_max(fe));
	for (i = 0; i < FZ_POOL; i++)
		FZ_CHECK(fe, !fz_holds(fe, i) || fe->t[i].volt_link.next ||
			 (fe->t[i].volt_slot == TW_VOLT_IDLE && !fe->t[i].volt_cancelled),
			 "timer %u not linked, slot %u, cancelled %d", i,
			 fe->t[i].volt_slot, fe->t[i].volt_cancelled);
}

const struct fz_model fz_model_volt = {
	.collected	= fz_volt_collected,
	.check		= fz_check_volt,
};

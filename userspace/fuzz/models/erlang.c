// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's model of the erlang engine (fuzz_lib.h): Erlang/OTP's soon
 * wheel of 2^14 one-jiffy slots, its later wheel of 2^14 slots of 2^13
 * jiffies, its at-once list and its slot range counters. Every slot's
 * hlist well linked, each timer in it armed, due at its expiry and in the
 * slot its expiry and the clock make: a soon slot (expires mod 2^14) only
 * within 2^14 jiffies of the clock; a later slot (its block, expires >>
 * 13, mod 2^14) only before its move point, the first jiffy of the block
 * before its own (which may be less than 2^14 jiffies from its expiry);
 * the at-once list only for an expiry before the clock, due at the clock.
 * Each range's counter and bit as its slots are, the levels as
 * twheel_count() counts them, the collected list as the model's.
 * next_event may stop early, at a non-empty later slot's move point (a
 * timer moved into the soon wheel, or one of a later revolution kept).
 */
#include "../fuzz_lib.h"
#include "engines/erlang.h"

static bool fz_erlang_collected(const struct fz_engine *fe,
				const struct twheel_timer *t)
{
	const struct list_head *p, *head =
		&fz_engine_of(fe, struct twheel_erlang, e)->collected;

	for (p = head->next; p != head; p = p->next)
		if (p == &t->list)
			return true;
	return false;
}

/*
 * Timer i, in bucket b: armed, due at its expiry, and filed where the
 * clock says. Returns the level twheel_count() counts it in.
 */
static unsigned int fz_erlang_timer_in(struct fz_engine *fe, unsigned int i,
				       const struct twheel_timer *t,
				       unsigned int b)
{
	const unsigned long soon_mask = TW_ERLANG_SOON_SIZE - 1;
	const unsigned long gran_mask = TW_ERLANG_LATER_GRAN - 1;
	unsigned long clk = fe->e->clk, delta = t->expires - clk;
	const struct fz_slot *s = &fe->s[i];

	FZ_CHECK(fe, s->state == FZ_ARMED,
		 "timer %u in bucket %u in state %d", i, b, s->state);
	if (b == TW_ERLANG_AT_ONCE) {
		/* armed already due: runs at the next jiffy processed */
		FZ_CHECK(fe, (long)delta < 0 && s->fire == clk,
			 "timer %u (expires %lu, fire %lu) on the at-once list",
			 i, t->expires, s->fire);
		return 0;
	}
	FZ_CHECK(fe, s->fire == t->expires,
		 "timer %u (expires %lu) in bucket %u, due at %lu", i,
		 t->expires, b, s->fire);
	if (b < TW_ERLANG_SOON_SIZE) {
		/* within the soon wheel's window, in its expiry's slot */
		FZ_CHECK(fe, delta < TW_ERLANG_SOON_SIZE &&
			 b == (t->expires & soon_mask),
			 "timer %u (expires %lu) in soon slot %u", i,
			 t->expires, b);
		return 0;
	}
	/*
	 * In its block's later slot, not moved yet: the clock no later than
	 * the move point ((expires >> 13) - 1) << 13, so at least 2^13 plus
	 * the expiry's low 13 bits ahead (its revolution, or a later one).
	 */
	FZ_CHECK(fe, b == TW_ERLANG_SOON_SIZE +
		 ((t->expires >> TW_ERLANG_LATER_SHIFT) &
		  (TW_ERLANG_LATER_SIZE - 1)) &&
		 (long)delta >= 0 &&
		 delta >= TW_ERLANG_LATER_GRAN + (t->expires & gran_mask),
		 "timer %u (expires %lu) in later slot %u", i, t->expires,
		 (unsigned int)(b - TW_ERLANG_SOON_SIZE));
	return 1;
}

/*
 * The slots and the at-once list, each timer where its expiry says; the
 * range counters and bits, the levels, the collected list.
 */
static void fz_check_erlang(struct fz_engine *fe, unsigned long armed,
			    unsigned long due)
{
	struct twheel_erlang *er = fz_engine_of(fe, struct twheel_erlang, e);
	unsigned long lvl[TWHEEL_MAX_LEVELS] = { 0 }, in_range = 0, n, total = 0;
	const struct twheel_timer *t;
	const struct list_head *p;
	struct hlist_node **tail;
	unsigned int b, i, r;

	for (b = 0; b < TW_ERLANG_BUCKETS; b++) {
		n = fz_walk_hlist(fe, &er->slots[b], b, &tail);
		hlist_for_each_entry(t, &er->slots[b], entry) {
			i = fz_index(fe, t);
			lvl[fz_erlang_timer_in(fe, i, t, b)]++;
		}
		in_range += n;
		total += n;
		if ((b + 1) % TW_ERLANG_RANGE)
			continue;
		r = b >> TW_ERLANG_RANGE_BITS;
		FZ_CHECK(fe, er->scnt[r] == in_range &&
			 test_bit(r, er->ranges) == !!in_range,
			 "range %u: counter %u, bit %d, %lu timers", r,
			 er->scnt[r], test_bit(r, er->ranges), in_range);
		in_range = 0;
	}

	n = 0;
	FZ_CHECK(fe, er->at_once.next->prev == &er->at_once,
		 "at-once: bad head");
	for (p = er->at_once.next; p != &er->at_once; p = p->next) {
		t = container_of(p, struct twheel_timer, list);
		i = fz_index(fe, t);
		FZ_CHECK(fe, i < FZ_POOL && ++n <= FZ_POOL,
			 "at-once: stray entry %p", p);
		FZ_CHECK(fe, p->next->prev == p, "at-once: bad link");
		FZ_CHECK(fe, t->bucket == TW_ERLANG_AT_ONCE,
			 "timer %u on the at-once list says bucket %u", i,
			 t->bucket);
		lvl[fz_erlang_timer_in(fe, i, t, TW_ERLANG_AT_ONCE)]++;
	}
	total += n;
	FZ_CHECK(fe, total == armed, "%lu timers in slots and at once, armed %lu",
		 total, armed);

	fz_check_levels(fe, lvl, &er->collected, due);
	list_for_each_entry(t, &er->collected, list)
		FZ_CHECK(fe, t->bucket == TWHEEL_COLLECTED &&
			 fe->s[fz_index(fe, t)].state == FZ_COLLECTED,
			 "collected timer %u says bucket %u, model state %d",
			 fz_index(fe, t), t->bucket,
			 fe->s[fz_index(fe, t)].state);
}

const struct fz_model fz_model_erlang = {
	.collected	= fz_erlang_collected,
	.check		= fz_check_erlang,
	.next_exact	= false,
};

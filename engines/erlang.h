/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The erlang engine: the timer wheel of Erlang/OTP's runtime (ERTS, one per
 * scheduler), in jiffies where ERTS counts milliseconds.
 *
 * A soon wheel of 2^14 one-jiffy slots holds every timer due within 2^14
 * jiffies of the clock: the slot is the expiry mod 2^14, and as the clock
 * is the next jiffy to process the window [clk, clk + 2^14) maps onto the
 * slots one to one. A later wheel of 2^14 slots of 2^13 jiffies each (half
 * the soon wheel) holds the timers further out: the slot is the expiry's
 * block (expires >> 13) mod 2^14. Block b is moved into the soon wheel once,
 * when the clock reaches the first jiffy of block b - 1, (b - 1) << 13: its
 * timers are then 2^13 to 2^14 - 1 jiffies from their expiry, inside the
 * soon wheel's window (ERTS moves a later slot when its position comes
 * within one later slot of the soon wheel's, 8 to 16 seconds before the
 * timer is due). A timer armed already due (an expiry before the clock)
 * goes on the at-once list, run at the next jiffy processed; it has no
 * bucket, and twheel_count() counts its timers in level 0.
 *
 * Beyond the later wheel (2^27 jiffies, a revolution of it): as ERTS does,
 * the timer is filed in the later slot of its block mod 2^14 and stays there
 * when that slot is moved in a revolution that is not its own (its block
 * is not the one being moved); it is moved in the revolution of its block.
 * So it is visited once every 2^27 jiffies, and still runs at its jiffy.
 *
 * Guarantee: exact, for every delta up to LONG_MAX (every expiry
 * time_after() orders): a timer runs at the jiffy it asked for, one in the
 * past at the next jiffy processed. Within a jiffy: the at-once list first
 * (in the order armed), then the soon slot in the order it was filed.
 * Cost: start O(1), stop O(1) (an hlist unlink and a counter); per tick
 * O(1) plus the timers due, and every 2^13-th jiffy one later slot moved:
 * a timer is moved at most once (a far one kept once per revolution).
 * next_event: counters of the timers in each range of 512 slots (ERTS'
 * slot range counters) and a bit per non-empty range skip the empty
 * ranges; a non-empty one has its slot heads read: at most 3 x 512 heads
 * and 33 bits a wheel (the clock's range in part at both ends, and the
 * first other non-empty range, which holds the answer), fewer with a limit.
 * Memory: the timer's own 40 bytes (hlist link and slot in its union);
 * per engine 32768 one-pointer slot heads (256 KiB on 64-bit), 64
 * counters, a bitmap word and two list heads.
 */
#ifndef TWHEEL_ENGINES_ERLANG_H
#define TWHEEL_ENGINES_ERLANG_H

#include "twheel.h"

#define TW_ERLANG_SOON_BITS	14
#define TW_ERLANG_SOON_SIZE	BIT(TW_ERLANG_SOON_BITS)
/* A later slot: 2^13 jiffies, half the soon wheel. */
#define TW_ERLANG_LATER_SHIFT	(TW_ERLANG_SOON_BITS - 1)
#define TW_ERLANG_LATER_GRAN	BIT(TW_ERLANG_LATER_SHIFT)
#define TW_ERLANG_LATER_BITS	14
#define TW_ERLANG_LATER_SIZE	BIT(TW_ERLANG_LATER_BITS)
/* Buckets: the soon wheel's from 0, the later wheel's after them. */
#define TW_ERLANG_BUCKETS	(TW_ERLANG_SOON_SIZE + TW_ERLANG_LATER_SIZE)
/* @bucket of a timer on the at-once list: past every real bucket. */
#define TW_ERLANG_AT_ONCE	TW_ERLANG_BUCKETS
/* A slot range: 2^9 slots, one counter each (ERTS' scnt). */
#define TW_ERLANG_RANGE_BITS	9
#define TW_ERLANG_RANGE		BIT(TW_ERLANG_RANGE_BITS)
#define TW_ERLANG_RANGES	(TW_ERLANG_BUCKETS >> TW_ERLANG_RANGE_BITS)

/**
 * struct twheel_erlang - Erlang/OTP's soon and later wheels
 * @e: the engine
 * @collected: timers collected and not yet popped, in the order they fire;
 *	linked through their @list (in a slot they use @entry)
 * @at_once: timers armed with an expiry before the clock, linked through
 *	their @list (their @bucket is TW_ERLANG_AT_ONCE), collected at the
 *	next jiffy processed
 * @ranges: a bit per slot range with a timer in it (@scnt not 0)
 * @scnt: timers filed in each range of TW_ERLANG_RANGE slots
 * @slots: the soon wheel's TW_ERLANG_SOON_SIZE slots, then the later
 *	wheel's TW_ERLANG_LATER_SIZE; each an hlist, newest first
 *
 * Set up by twheel_erlang_init().
 */
struct twheel_erlang {
	struct twheel_engine e;
	struct list_head collected;
	struct list_head at_once;
	unsigned long ranges[BITS_TO_LONGS(TW_ERLANG_RANGES)];
	unsigned int scnt[TW_ERLANG_RANGES];
	struct hlist_head slots[TW_ERLANG_BUCKETS];
};

void twheel_erlang_init(struct twheel_erlang *er, unsigned long clk);

/*
 * The bucket expires files in when the clock is clk: the soon slot of
 * the expiry within 2^14 jiffies, else the later slot of its block;
 * TW_ERLANG_AT_ONCE if it is before the clock.
 */
static inline unsigned int tw_erlang_index(unsigned long expires,
					   unsigned long clk)
{
	unsigned long delta = expires - clk;

	if ((long)delta < 0)
		return TW_ERLANG_AT_ONCE;
	if (delta < TW_ERLANG_SOON_SIZE)
		return expires & (TW_ERLANG_SOON_SIZE - 1);
	return TW_ERLANG_SOON_SIZE +
	       ((expires >> TW_ERLANG_LATER_SHIFT) & (TW_ERLANG_LATER_SIZE - 1));
}

#endif /* TWHEEL_ENGINES_ERLANG_H */

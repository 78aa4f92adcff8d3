/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twheel events: the one model of what the kernel's timer tracepoints mean,
 * event by event and timer by timer. The live shadow (twheel_shadow.c)
 * and the offline replay (userspace/replay/replay_core.c) both ask it;
 * twheel_events.c is pure (no lock, no clock, no printk, no allocation) and
 * builds in the module and in user space alike.
 *
 * The tracepoints' rules (timer_start, timer_cancel, timer_expire_entry;
 * the hrtimer ones alike), and what the model makes of them:
 * - timer_cancel precedes every expiry (the timer is detached, then its
 *   callback runs) and every re-arm of a pending timer (mod_timer()
 *   detaches it, then starts it again). So a cancel is only noted, and
 *   decided by the timer's next event: its expiry on the cancel's CPU makes
 *   it part of the expiry (TW_EV_EXPIRY); its start on the cancel's CPU,
 *   with no other event of that CPU in between, part of a re-arm
 *   (TW_EV_MOD); any other event of the timer (a start elsewhere or
 *   later, an expiry on another CPU, a second cancel) makes it a delete
 *   (@del in the verdict), and so does no event at all (tw_ev_settle(): the
 *   end of a trace, a stop, or a live caller that cannot wait any longer).
 * - A mod_timer() that keeps the expiry or the bucket emits nothing: the
 *   model keeps the last expiry seen.
 * - Timers vanish without a cancel (freed when not pending, off the
 *   stack, or an event lost). One ageing rule: an armed timer the kernel
 *   never ended is taken as gone once its clock is more than TW_EV_AGE_S
 *   seconds of the traced machine's clock plus an eighth of its timeout
 *   past its expiry (tw_ev_aged()): time_after(now, expires + timeout / 8
 *   + TW_EV_AGE_S * per_s), where per_s is the clock's ticks per second
 *   (the traced machine's HZ for timer_list jiffies, NSEC_PER_SEC for
 *   hrtimer ns) and timeout the expiry less the clock at the timer's last
 *   start (0 for a start in the past). The eighth is the kernel wheel's
 *   granularity: the bucket a timer is filed in is due at most about
 *   timeout / 8 after its expiry, so the rule is "2 s after its bucket was
 *   due" without needing the bucket. A start of an aged timer is an add,
 *   not a re-arm (@aged in the verdict).
 * - A cancel or an expiry of a timer not armed in the model (its start,
 *   or the event before it, was lost) means nothing: TW_EV_STRAY.
 * - The kernel runs no timer before its expiry: an expiry before the
 *   model's expiry of the timer is an older arming's callback (see next),
 *   TW_EV_STRAY, and leaves the timer as it is.
 * - A timer can be started on one CPU while another CPU, which detached it
 *   to run its callback (the cancel), has not reached the callback yet.
 *   That start decides the cancel a delete, as above, and the expiry that
 *   follows on the cancel's CPU is the old arming's callback. Before the
 *   new arming's expiry the rule above tells it; at that very jiffy (a
 *   timer re-armed for now) only the start's base can: since the kernel
 *   moves no timer whose callback is running, a start on one CPU queued on
 *   the cancel's CPU's base (struct tw_ev's base_cpu) marks that CPU's
 *   next expiry of the timer as the old callback (TW_EV_STRAY), at the new
 *   expiry or before it. A later expiry is the new arming's own (since 6.9 a CPU
 *   may expire another's timers). Before 6.9 the kernel could also queue
 *   a start on another CPU's base when idle (the nohz target), which this
 *   rule would take for such a start: an expiry of the new arming at its
 *   very jiffy, on that CPU, would be missed.
 */
#ifndef TWHEEL_EVENTS_H
#define TWHEEL_EVENTS_H

#include <linux/types.h>

/* Seconds past its expiry (and timeout / 8) an armed timer is taken as gone. */
#define TW_EV_AGE_S	2

/* The kind of a tracepoint event. */
enum tw_ev_type {
	TW_EV_START,	/* timer_start, hrtimer_start */
	TW_EV_CANCEL,	/* timer_cancel, hrtimer_cancel */
	TW_EV_EXPIRE,	/* timer_expire_entry, hrtimer_expire_entry */
};

/* What an event means to the engines. */
enum tw_ev_what {
	TW_EV_STRAY,		/* a cancel or expiry of a timer not armed: nothing */
	TW_EV_NOTED,		/* a cancel: noted; the timer's next event decides it */
	TW_EV_ADD,		/* a start of a timer not armed: an add */
	TW_EV_MOD,		/* a start right after its cancel: a re-arm */
	TW_EV_MOD_NOCANCEL,	/* a start of an armed timer, no cancel: a re-arm */
	TW_EV_EXPIRY,		/* the kernel's expiry, its cancel part of it */
	TW_EV_EXPIRY_NOCANCEL,	/* the kernel's expiry of an armed timer, no cancel */
};

/**
 * struct tw_ev_timer - one timer as its events show it
 * @expires: the expiry of its last start
 * @timeout: @expires less the clock at that start (0 if in the past)
 * @cancel_at: the clock at its undecided cancel
 * @cancel_seq: that cancel's event number (struct tw_ev's @seq)
 * @cancel_cpu: that cancel's CPU
 * @stale_cpu: while @stale, the CPU whose next expiry of the timer is the
 *	callback of the arming before the last start (see the rules)
 * @armed: pending in the kernel's view, and not cancelled
 * @cancel: it has an undecided cancel (then not @armed)
 * @stale: @stale_cpu is set
 *
 * All zero: a timer with no event yet.
 */
struct tw_ev_timer {
	unsigned long expires;
	unsigned long timeout;
	unsigned long cancel_at;
	u64 cancel_seq;
	u32 cancel_cpu;
	u32 stale_cpu;
	u8 armed;
	u8 cancel;
	u8 stale;
};

/**
 * struct tw_ev - one tracepoint event of one timer
 * @type: enum tw_ev_type
 * @cpu: the CPU it happened on
 * @seq: its number among the caller's events, all CPUs, from 1
 * @cpu_prev: the number of the event before it on @cpu, 0 if none
 * @now: the clock when it happened (jiffies, or ns), if @timed
 * @expires: a start's expiry
 * @timed: @now is known; a start without it (a trace's hrtimer starts
 *	before its first time) gets timeout 0 and is not judged aged
 * @has_base: a start's @base_cpu is known
 * @base_cpu: a start's base: the CPU whose wheel the kernel queued the
 *	timer on (the timer's flags), which need not be @cpu
 */
struct tw_ev {
	u8 type;
	u8 timed;
	u8 has_base;
	u32 cpu;
	u32 base_cpu;
	u64 seq;
	u64 cpu_prev;
	unsigned long now;
	unsigned long expires;
};

/**
 * struct tw_ev_verdict - what an event means
 * @what: enum tw_ev_what: the event itself
 * @del: before it, the timer's undecided cancel was decided a delete (at
 *	the cancel's own place)
 * @aged: before it, the armed timer was taken as gone (tw_ev_aged()): an
 *	add follows
 */
struct tw_ev_verdict {
	u8 what;
	u8 del;
	u8 aged;
};

struct tw_ev_verdict tw_ev_take(struct tw_ev_timer *t, const struct tw_ev *ev,
				unsigned long per_s);
bool tw_ev_settle(struct tw_ev_timer *t);
bool tw_ev_aged(const struct tw_ev_timer *t, unsigned long now,
		unsigned long per_s);
unsigned long tw_ev_age_limit(const struct tw_ev_timer *t, unsigned long per_s);

#endif /* TWHEEL_EVENTS_H */

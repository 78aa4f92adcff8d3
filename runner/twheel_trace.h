/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twheel tracepoints: the twheel trace system, emitted by the engine
 * runners (twheel_engines.c) around their calls into our engines. The pure core never
 * traces. Every jiffy below is engine time: jiffies + the clock offset
 * (wrap_secs; plain jiffies normally).
 *
 * Field names follow the kernel's timer:* events (timer, function, expires,
 * bucket_expiry, now, baseclk), so one parser reads both. What differs:
 * twheel_start is emitted for every arming and every change of expiry,
 * in place or not (the kernel's timer_start misses a mod_timer() that
 * stays in its bucket), with mod=1 when the timer was pending; and
 * twheel_cancel is emitted only for a deletion of a pending timer (the
 * kernel's timer_cancel also precedes every expiry and every re-arm).
 * So, over a run, in the counters of stats:
 *	twheel_start		added + modified - mod_noop (mod=0: added)
 *	twheel_cancel		deleted
 *	twheel_expire_entry	expired (= runs), and as many twheel_expire_exit
 *	twheel_cascade		cascades; the sum of moved is cascaded
 *	twheel_tick		ticks; those with expired or cascaded > 0 are
 *				busy_tick_ns_n
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM twheel

#if !defined(_TWHEEL_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TWHEEL_TRACE_H

#include <linux/jiffies.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include "twheel.h"

#ifndef _TWHEEL_TRACE_HELPERS
#define _TWHEEL_TRACE_HELPERS

#define TW_TRACE_NAME_LEN	16

/*
 * Where an engine files a timer for @expires now: the bucket (-1: the
 * engine has none) and, in *@bucket_expiry, the jiffy it will run at (the
 * modern wheel's bucket expiry; the others run it at @expires, or at the
 * clock if @expires is past).
 */
static inline int tw_trace_filed(const struct twheel_engine *e,
				 unsigned long expires,
				 unsigned long *bucket_expiry)
{
	unsigned int b;

	if (e->ops->index)
		return e->ops->index(e, expires, bucket_expiry);
	*bucket_expiry = time_before(expires, e->clk) ? e->clk : expires;
	b = e->ops->bucket_of(e, expires);
	return b == TWHEEL_NO_BUCKET ? -1 : (int)b;
}

static inline int tw_trace_level(const struct twheel_engine *e, int bucket)
{
	return bucket < 0 ? -1 : (int)twheel_bucket_level(e, bucket);
}
#endif /* _TWHEEL_TRACE_HELPERS */

/**
 * twheel_start - a timer was armed, or its expiry changed
 * @e: the engine
 * @t: the timer, already filed
 * @offset: engine time = jiffies + @offset
 * @mod: it was pending (twheel_mod() of a pending timer)
 *
 * Not emitted when twheel_mod() finds the expiry the timer already has.
 */
TRACE_EVENT(twheel_start,
	    TP_PROTO(const struct twheel_engine *e, const struct twheel_timer *t,
		     unsigned long offset, bool mod),
	    TP_ARGS(e, t, offset, mod),
	    TP_STRUCT__entry(__array(char, engine, TW_TRACE_NAME_LEN)
			     __field(const void *, timer)
			     __field(void *, function)
			     __field(unsigned long, expires)
			     __field(unsigned long, bucket_expiry)
			     __field(unsigned long, now)
			     __field(int, bucket)
			     __field(int, level)
			     __field(bool, mod)
	    ),
	    TP_fast_assign(strscpy(__entry->engine, e->ops->name, TW_TRACE_NAME_LEN);
			   __entry->timer = t;
			   __entry->function = t->function;
			   __entry->expires = t->expires;
			   __entry->bucket = tw_trace_filed(e, t->expires, &__entry->bucket_expiry);
			   __entry->level = tw_trace_level(e, __entry->bucket);
			   __entry->now = jiffies + offset;
			   __entry->mod = mod;
	    ),
	    TP_printk("engine=%s timer=%p function=%ps expires=%lu [timeout=%ld] bucket_expiry=%lu now=%lu bucket=%d level=%d mod=%d",
		      __entry->engine, __entry->timer, __entry->function,
		      __entry->expires, (long)(__entry->expires - __entry->now),
		      __entry->bucket_expiry, __entry->now, __entry->bucket,
		      __entry->level, __entry->mod)
);

/*
 * A timer left the engine without running, or its callback returned:
 * engine, timer, the jiffy it had been asked for, and now (engine time =
 * jiffies + offset).
 */
DECLARE_EVENT_CLASS(twheel_timer_done,
		    TP_PROTO(const struct twheel_engine *e,
			     const struct twheel_timer *t, unsigned long offset,
			     unsigned long expires),
		    TP_ARGS(e, t, offset, expires),
		    TP_STRUCT__entry(__array(char, engine, TW_TRACE_NAME_LEN)
				     __field(const void *, timer)
				     __field(unsigned long, expires)
				     __field(unsigned long, now)
		    ),
		    TP_fast_assign(strscpy(__entry->engine, e->ops->name, TW_TRACE_NAME_LEN);
				   __entry->timer = t;
				   __entry->expires = expires;
				   __entry->now = jiffies + offset;
		    ),
		    TP_printk("engine=%s timer=%p expires=%lu now=%lu",
			      __entry->engine, __entry->timer,
			      __entry->expires, __entry->now)
);

#define TW_TIMER_DONE_EVENT(name)					\
	DEFINE_EVENT(twheel_timer_done, name,				\
		     TP_PROTO(const struct twheel_engine *e,		\
			      const struct twheel_timer *t,		\
			      unsigned long offset, unsigned long expires), \
		     TP_ARGS(e, t, offset, expires))

/*
 * twheel_cancel: a pending timer was deleted (twheel_del()); expires is
 * the expiry it had.
 */
TW_TIMER_DONE_EVENT(twheel_cancel);

/*
 * twheel_expire_exit: a timer's callback returned (it may have armed the
 * timer again); expires is the jiffy it had been asked for, as in its
 * twheel_expire_entry.
 */
TW_TIMER_DONE_EVENT(twheel_expire_exit);

/**
 * twheel_expire_entry - a timer's callback is about to run
 * @e: the engine
 * @t: the timer, popped: no longer pending
 * @offset: engine time = jiffies + @offset
 * @expires: the jiffy it was asked for
 * @baseclk: the jiffy the engine processed when it fell due
 *
 * baseclk - expires is how late the engine ran it (its design lateness),
 * now - expires how late the callback really is, in jiffies.
 */
TRACE_EVENT(twheel_expire_entry,
	    TP_PROTO(const struct twheel_engine *e, const struct twheel_timer *t,
		     unsigned long offset, unsigned long expires,
		     unsigned long baseclk),
	    TP_ARGS(e, t, offset, expires, baseclk),
	    TP_STRUCT__entry(__array(char, engine, TW_TRACE_NAME_LEN)
			     __field(const void *, timer)
			     __field(unsigned long, now)
			     __field(void *, function)
			     __field(unsigned long, baseclk)
			     __field(unsigned long, expires)
	    ),
	    TP_fast_assign(strscpy(__entry->engine, e->ops->name, TW_TRACE_NAME_LEN);
			   __entry->timer = t;
			   __entry->function = t->function;
			   __entry->expires = expires;
			   __entry->now = jiffies + offset;
			   __entry->baseclk = baseclk;
	    ),
	    TP_printk("engine=%s timer=%p function=%ps now=%lu baseclk=%lu expires=%lu",
		      __entry->engine, __entry->timer, __entry->function,
		      __entry->now, __entry->baseclk, __entry->expires)
);

/**
 * twheel_cascade - a classic wheel's slot was cascaded
 * @e: the engine
 * @level: the level of the slot (1 = tv2)
 * @slot: the slot in that level
 * @moved: timers re-filed (at least one: empty slots are not reported)
 * @ns: the time it took
 */
TRACE_EVENT(twheel_cascade,
	    TP_PROTO(const struct twheel_engine *e, unsigned int level,
		     unsigned int slot, unsigned int moved, u64 ns),
	    TP_ARGS(e, level, slot, moved, ns),
	    TP_STRUCT__entry(__array(char, engine, TW_TRACE_NAME_LEN)
			     __field(unsigned long, now)
			     __field(unsigned int, level)
			     __field(unsigned int, slot)
			     __field(unsigned int, moved)
			     __field(u64, ns)
	    ),
	    TP_fast_assign(strscpy(__entry->engine, e->ops->name, TW_TRACE_NAME_LEN);
			   __entry->now = e->clk;
			   __entry->level = level;
			   __entry->slot = slot;
			   __entry->moved = moved;
			   __entry->ns = ns;
	    ),
	    TP_printk("engine=%s now=%lu level=%u slot=%u moved=%u ns=%llu",
		      __entry->engine, __entry->now, __entry->level, __entry->slot,
		      __entry->moved, __entry->ns)
);

/**
 * twheel_tick - the driver's tick advanced an engine
 * @e: the engine; its clock is now @now + 1
 * @now: the last jiffy processed
 * @span: jiffies the tick covered (more than its own: a catch-up)
 * @expired: callbacks run
 * @cascaded: timers moved by cascades
 * @ns: the tick's time on this engine, callbacks included
 */
TRACE_EVENT(twheel_tick,
	    TP_PROTO(const struct twheel_engine *e, unsigned long now,
		     unsigned long span, unsigned long expired,
		     unsigned long cascaded, u64 ns),
	    TP_ARGS(e, now, span, expired, cascaded, ns),
	    TP_STRUCT__entry(__array(char, engine, TW_TRACE_NAME_LEN)
			     __field(unsigned long, now)
			     __field(unsigned long, jiffies)
			     __field(unsigned long, expired)
			     __field(unsigned long, cascaded)
			     __field(u64, ns)
	    ),
	    TP_fast_assign(strscpy(__entry->engine, e->ops->name, TW_TRACE_NAME_LEN);
			   __entry->now = now;
			   __entry->jiffies = span;
			   __entry->expired = expired;
			   __entry->cascaded = cascaded;
			   __entry->ns = ns;
	    ),
	    TP_printk("engine=%s now=%lu jiffies=%lu expired=%lu cascaded=%lu ns=%llu",
		      __entry->engine, __entry->now, __entry->jiffies,
		      __entry->expired, __entry->cascaded, __entry->ns)
);

#endif /* _TWHEEL_TRACE_H */

/* Out of tree: define_trace.h finds this file through -I$(src) (Kbuild). */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH runner
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE twheel_trace
#include <trace/define_trace.h>

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twheel shadow, inside: what its three files share. twheel_shadow.c has
 * the overview, the drain and the runner; twheel_shadow_ring.c the probes
 * and their ring; twheel_shadow_twins.c the engines' side.
 */
#ifndef TWHEEL_SHADOW_IMPL_H
#define TWHEEL_SHADOW_IMPL_H

#include <linux/hashtable.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include "engines/modern.h"
#include "runner/twheel_hist.h"
#include "runner/twheel_runner.h"
#include "shadow/twheel_shadow.h"
#include "shadow/twheel_events.h"

struct seq_file;
struct tracepoint;

/*
 * timer_start hands the bucket_expiry since 6.8 (Kbuild looks for it in the
 * headers built against), the timer's expires and flags before.
 */
#ifdef TW_HAVE_TIMER_START_BE
#define TW_SH_HAVE_BE	1
#else
#define TW_SH_HAVE_BE	0
#endif

#define TW_SH_HASH_BITS	14

enum tw_sh_ev { TW_SH_START, TW_SH_CANCEL, TW_SH_EXPIRE, TW_SH_NR_EV };

/**
 * struct tw_sh_event - one tracepoint event, as the probe copied it
 * @timer: the timer_list: a key, never dereferenced
 * @expires: start: its expiry
 * @jiffy: jiffies when it happened
 * @arg: start: the kernel's bucket_expiry (TW_SH_HAVE_BE); expire: the
 *	base clock it expired at (baseclk)
 * @flags: start: the timer's flags (its base's CPU, its bucket, D, P)
 * @cpu: the CPU it happened on
 * @type: enum tw_sh_ev
 */
struct tw_sh_event {
	const void *timer;
	unsigned long expires;
	unsigned long jiffy;
	unsigned long arg;
	u32 flags;
	u16 cpu;
	u16 type;
};

/**
 * struct tw_sh_ring - what the probes fill and the drain empties
 * @lock: guards all but @ev's entries from @tail to @head, the drain's
 * @on: the probes record (else they return at once)
 * @head: the next entry the probes write, counted from 0
 * @tail: the next entry the drain reads
 * @mask: entries - 1, a power of two
 * @seen: events the probes saw while on, per type
 * @dropped: of those, the ones a full ring dropped
 * @ev: the entries
 */
struct tw_sh_ring {
	raw_spinlock_t lock;
	bool on;
	unsigned long head, tail, mask;
	u64 seen[TW_SH_NR_EV];
	u64 dropped[TW_SH_NR_EV];
	struct tw_sh_event *ev;
};

/* A twin's state for the current arming. */
enum tw_sh_twin {
	TW_TWIN_NONE,
	TW_TWIN_FIRED,		/* the engine fired it, at[] */
	TW_TWIN_AWAIT,		/* the kernel expired it at at[], the engine not yet */
};

/**
 * struct tw_shadow - the shadow of one real timer (the runner's workload timer)
 * @w: the workload timer; @w.expires is the expiry of its last start
 * @node: in the hash table while tracked
 * @link: in the pool's free list, or in the detached list (while @t has
 *	an undecided cancel)
 * @key: the real timer_list's address, never dereferenced; NULL: free, in
 *	the pool
 * @t: what the kernel holds of the real timer, in the events' model
 *	(twheel_events.h): armed; detached by a cancel the next event decides;
 *	neither (idle: tracked while an engine still holds a twin)
 * @same_bucket: the modern engine filed the last start where the kernel did
 * @past: the last start was for a jiffy already past
 * @twin: per engine, enum tw_sh_twin (under the engine runner's lock)
 * @at: per engine, the jiffy of @twin's state (under the same lock)
 */
struct tw_shadow {
	struct tw_wtimer w;
	struct hlist_node node;
	struct list_head link;
	const void *key;
	struct tw_ev_timer t;
	u8 same_bucket;
	u8 past;
	u8 twin[TWHEEL_NR_KINDS];
	unsigned long at[TWHEEL_NR_KINDS];
};

/**
 * struct tw_sh_eng - the real traffic's account on one engine
 * @refused_add: a start the engine refused (not pending before)
 * @refused_mod: a re-arm it refused (it disarmed the twin)
 * @dels: a cancel that deleted a pending twin
 * @del_fired: a cancel of an arming the engine had fired
 * @del_unheld: a cancel of an arming it had refused
 * @rearm_fired: a re-arm of an arming the engine had fired
 * @exp_at: a real expiry the engine fired at its jiffy
 * @exp_ahead: a real expiry the engine fired before the kernel's jiffy
 * @exp_behind: a real expiry it fired after the kernel's jiffy
 * @exp_behind_past: of those, started in the past
 * @exp_lost: a real expiry it never fired: the kernel re-armed it first
 * @exp_closed: a real expiry it never fired: still pending when closed
 * @exp_unheld: a real expiry of an arming it had refused
 * @closed: twins pending when their shadow closed
 * @fired_open: firings of armings the kernel had not ended then
 * @same_bucket: modern: real expiries filed where the kernel filed them
 * @same_bucket_at: of those, fired at the kernel's jiffy
 * @ahead_j: the kernel's jiffy - the engine's
 * @behind_j: the engine's jiffy - the kernel's
 *
 * Every start, cancel and expiry of the kernel's, and every firing of the
 * engine's, lands in exactly one key (docs/shadow.md states the identities).
 * Under the engine runner's lock.
 */
struct tw_sh_eng {
	u64 refused_add;
	u64 refused_mod;
	u64 dels;
	u64 del_fired;
	u64 del_unheld;
	u64 rearm_fired;
	u64 exp_at;
	u64 exp_ahead;
	u64 exp_behind;
	u64 exp_behind_past;
	u64 exp_lost;
	u64 exp_closed;
	u64 exp_unheld;
	u64 closed;
	u64 fired_open;
	u64 same_bucket;
	u64 same_bucket_at;
	struct twheel_hist ahead_j;
	struct twheel_hist behind_j;
};

/**
 * struct tw_sh_counts - the kernel's side: how the shadow took the events
 * @pool_full: starts of untracked timers, no shadow free
 * @cancel_untracked: cancels of timers without a shadow
 * @expire_untracked: expiries of timers without a shadow
 * @cancel_idle: a cancel of a shadow not armed (an event lost)
 * @expire_idle: an expiry of a shadow not armed (an event lost)
 * @rearmed: a cancel, then a start: one mod
 * @start_armed: a start on an armed shadow (its cancel lost)
 * @expire_unpaired: an expiry of an armed shadow (its cancel lost)
 * @cancels: a cancel alone: a delete
 * @aged: armed shadows the kernel never ended, closed
 * @open_at_stop: armed at stop, closed
 * @idx: the modern engine's bucket against the kernel's
 * @idx_behind_deferrable: TW_SH_IDX_BEHIND of a deferrable timer
 * @idx_behind_remote: TW_SH_IDX_BEHIND of a timer on another CPU's base
 * @drains: drains of the ring
 * @drained_max: most events in one drain
 * @jumps: gaps the engines crossed in one tick
 *
 * Under the shadow runner's lock.
 */
struct tw_sh_counts {
	u64 pool_full;
	u64 cancel_untracked;
	u64 expire_untracked;
	u64 cancel_idle;
	u64 expire_idle;
	u64 rearmed;
	u64 start_armed;
	u64 expire_unpaired;
	u64 cancels;
	u64 aged;
	u64 open_at_stop;
	u64 idx[TW_SH_NR_IDX];
	u64 idx_behind_deferrable;
	u64 idx_behind_remote;
	u64 drains;
	u64 drained_max;
	u64 jumps;
};

/**
 * struct tw_sh - the shadow runner's state (its priv)
 * @ring: the probes' ring
 * @drain_lock: one drain at a time (the tick's, or stop's last one)
 * @tbl: the tracked shadows by key
 * @free: the pool's free shadows
 * @detached: shadows cancelled and not yet resolved, oldest first
 * @eng: the engine runners the traffic is mirrored into, @nr_eng of them
 * @nr_eng: how many
 * @modern: the modern engine's runner, if loaded and of the kernel's depth
 * @depth: the modern engine's levels
 * @seq: the events drained since start, the model's event numbers
 * @cpu_prev: per CPU (nr_cpu_ids of them), the number of its last event
 * @clk: the next jiffy the engines process
 * @step: the jiffy they process now (for tw_shadow_ran())
 * @next_age: the jiffy of the next aging pass
 * @attached: probes registered, drains running
 * @clk_set: @clk was taken from the engines since @attached
 * @tp: the tracepoints, by enum tw_sh_ev; NULL if this kernel lacks one
 * @why: why the shadow is not available, or NULL
 * @c: the kernel's side, under the runner's lock
 * @acct: the engines' side, by runner index (under each one's lock)
 */
struct tw_sh {
	struct tw_sh_ring ring;
	spinlock_t drain_lock;		/* see @drain_lock above */
	DECLARE_HASHTABLE(tbl, TW_SH_HASH_BITS);
	struct list_head free;
	struct list_head detached;
	struct tw_runner *eng[TWHEEL_NR_KINDS];
	unsigned int nr_eng;
	struct tw_runner *modern;
	unsigned int depth;
	u64 seq;
	u64 *cpu_prev;
	unsigned long clk, step, next_age;
	bool attached, clk_set;
	struct tracepoint *tp[TW_SH_NR_EV];
	const char *why;
	struct tw_sh_counts c;
	struct tw_sh_eng acct[TWHEEL_NR_KINDS];
};

/* The kernel holds an arming of s's timer: armed, or detached by a cancel. */
static inline bool tw_sh_open(const struct tw_shadow *s)
{
	return s->t.armed || s->t.cancel;
}

static inline struct tw_sh *tw_sh_of(const struct tw_runner *r)
{
	return r->priv;
}

static inline struct tw_shadow *tw_shadow_of(struct tw_wtimer *w)
{
	return container_of(w, struct tw_shadow, w);
}

static inline struct tw_shadow *tw_sh_slot(struct tw_runner *r, u32 k)
{
	return tw_shadow_of(tw_runner_timer(r, k));
}

/* the ring (twheel_shadow_ring.c) */
void tw_sh_tps_find(struct tw_sh *sh);
int tw_sh_attach(struct tw_sh *sh);
void tw_sh_detach(struct tw_sh *sh);
int tw_sh_ring_reserve(struct tw_sh_ring *ring, u32 count);
void tw_sh_ring_reset(struct tw_sh_ring *ring);
void tw_sh_ring_switch(struct tw_sh_ring *ring, bool on);
unsigned long tw_sh_ring_head(struct tw_sh_ring *ring);
void tw_sh_ring_done(struct tw_sh_ring *ring, unsigned long head);
void tw_sh_ring_show(struct seq_file *m, struct tw_sh_ring *ring);

/* the engines' side (twheel_shadow_twins.c) */
bool tw_sh_held(struct tw_sh *sh, struct tw_shadow *s);
unsigned long tw_sh_level_expiry(unsigned long expires, unsigned int kidx);
enum tw_sh_idx tw_sh_arm_twins(struct tw_sh *sh, struct tw_shadow *s,
			       const struct tw_sh_event *ev);
void tw_sh_drop_twins(struct tw_sh *sh, struct tw_shadow *s, bool close);
void tw_sh_expire_twins(struct tw_sh *sh, struct tw_shadow *s,
			unsigned long kj);
void tw_sh_show_twins(struct seq_file *m, struct tw_sh *sh);

#endif /* TWHEEL_SHADOW_IMPL_H */

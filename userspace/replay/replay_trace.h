/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timer events of a kernel trace, in the three text forms people have:
 * the tracefs files (/sys/kernel/tracing/trace and trace_pipe), `trace-cmd
 * report` and `perf script`. One line at a time, from a buffer that need not
 * be NUL-terminated; no allocation, no global state.
 */
#ifndef TWHEEL_REPLAY_TRACE_H
#define TWHEEL_REPLAY_TRACE_H

#include <stddef.h>
#include <stdint.h>

/* The longest line taken; longer ones are malformed. */
#define TP_LINE_MAX	4096
/* CPUs numbered 0 .. TP_MAX_CPUS - 1; TP_NO_CPU when the line has none. */
#define TP_MAX_CPUS	8192
#define TP_NO_CPU	TP_MAX_CPUS

enum tp_type {
	TP_TIMER_START,
	TP_TIMER_CANCEL,
	TP_TIMER_EXPIRE,	/* timer_expire_entry */
	TP_HRTIMER_START,
	TP_HRTIMER_CANCEL,
	TP_HRTIMER_EXPIRE,	/* hrtimer_expire_entry */
	TP_NR_TYPES,
};

/* What a line is. */
enum tp_kind {
	TP_EVENT,	/* one of enum tp_type, in the event */
	TP_BLANK,	/* empty, a comment ('#') or a header (cpus=, version =) */
	TP_LOST,	/* "CPU:N [LOST M EVENTS]", "CPU:N [M EVENTS DROPPED]" */
	TP_OTHER,	/* a well-formed line of another event */
	TP_STACK,	/* a stack trace's: perf script -g's frames, tracefs' "=> f" */
	TP_MALFORMED,	/* anything else; the reason in the event's @why */
};

/*
 * The form a line is in: perf's events have their system ("timer:"),
 * trace-cmd's (libtraceevent's) pointers are "0x...", tracefs' are not.
 */
enum tp_form {
	TP_FORM_TRACEFS,	/* "comm-pid [cpu] flags ts: event: timer=ffff..." */
	TP_FORM_TRACE_CMD,	/* "comm-pid [cpu] ts: event: timer=0xffff..." */
	TP_FORM_PERF,		/* "comm pid [cpu] ts: timer:event: ..." */
	TP_NR_FORMS,
};

/**
 * struct tp_event - one timer event
 * @type: which event
 * @form: the form of the line
 * @cpu: the CPU of the line's "[cpu]", TP_NO_CPU if it has none
 * @ts_ns: its timestamp, ns
 * @ts_counter: the timestamp has no fraction: a counter (trace_clock
 *	counter, x86-tsc), not seconds; @ts_ns is its value
 * @ptr: the timer_list or hrtimer pointer
 * @expires: timer_start: the expiry, jiffies; hrtimer_start: ns
 * @softexpires: hrtimer_start: the soft expiry, ns (@expires if absent)
 * @now: the expire events: jiffies (timer) or the base's time, ns (hrtimer)
 * @timeout: timer_start: expires - jiffies at the call, when @has_timeout
 * @has_timeout: timer_start printed [timeout=]
 * @deferrable: timer_start: flags has D (TIMER_DEFERRABLE); tracefs form
 *	only: trace-cmd report and perf script (libtraceevent 1.7) print
 *	"D|P|I" for every timer
 * @pinned: timer_start: flags has P (TIMER_PINNED); tracefs form only, as
 *	@deferrable
 * @flags_known: @deferrable and @pinned are the timer's (the tracefs form)
 * @bucket_expiry: timer_start (6.8 and later): the jiffy the bucket the
 *	kernel filed the timer in is due, when @has_be
 * @idx: timer_start (6.1 prints it too): that bucket's index in the
 *	wheel (level * 64 + slot: the flags' bits from TIMER_ARRAYSHIFT on),
 *	when @has_idx
 * @tcpu: timer_start (6.1 prints it too): the CPU of the base the timer is
 *	queued on (the flags' TIMER_CPUMASK bits), which need not be the
 *	line's @cpu, when @has_tcpu: cpu= printed and below TP_MAX_CPUS (a
 *	larger one leaves the line well-formed, the placement unknown)
 * @has_be: timer_start printed bucket_expiry= (6.8 and later)
 * @has_idx: timer_start printed idx=
 * @has_tcpu: timer_start printed cpu=, below TP_MAX_CPUS
 * @baseclk: timer_expire_entry (6.1 prints it too): the clock of the base
 *	running the timer, when @has_baseclk
 * @lost: TP_LOST: the events the line says were lost (0 with @lost_unknown);
 *	TP_BLANK: the events tracefs' "# entries-in-buffer/entries-written:
 *	A/B" header says were overwritten (B - A)
 * @lost_unknown: TP_LOST: the line gives no count ("[LOST EVENTS]",
 *	"[EVENTS DROPPED]")
 * @was_armed: hrtimer_start (6.18 and later): the hrtimer was armed when
 *	it was started, when @has_was_armed
 * @why: TP_MALFORMED: a static string saying why
 */
struct tp_event {
	enum tp_type type;
	enum tp_form form;
	unsigned int cpu;
	uint64_t ts_ns;
	int ts_counter;
	uint64_t ptr;
	uint64_t expires;
	uint64_t softexpires;
	uint64_t now;
	int64_t timeout;
	int has_timeout;
	int deferrable;
	int pinned;
	int flags_known;
	uint64_t bucket_expiry;
	uint64_t idx;
	uint64_t tcpu;
	int has_be;
	int has_idx;
	int has_tcpu;
	uint64_t baseclk;
	int has_baseclk;
	uint64_t lost;
	int lost_unknown;
	int was_armed, has_was_armed;
	const char *why;
};

enum tp_kind tp_parse_line(const char *s, size_t n, struct tp_event *ev);
const char *tp_type_name(enum tp_type type);
const char *tp_form_name(enum tp_form form);

#endif /* TWHEEL_REPLAY_TRACE_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * The timer events of a kernel trace in text: see replay_trace.h. A line is
 *
 *	PREFIX TIMESTAMP: [SYSTEM:]EVENT: FIELDS
 *
 * PREFIX is "comm-pid [cpu] flags" (tracefs; no flags with irq-info off),
 * "comm-pid [cpu]" (trace-cmd report; flags too from 3.3 on, "comm-pid
 * CPUflags" with -l) or "comm pid [cpu]" (perf script); TIMESTAMP is
 * seconds with a fraction. The form is told by what does not depend on
 * options: perf's EVENT has its system ("timer:"); libtraceevent (trace-cmd
 * and perf) prints pointers as "0x...", the kernel's %p (tracefs) without. The event is found as
 * the first ": " after a timestamp that is followed by an event name and a
 * colon, so a task name with spaces or colons in it does not matter. FIELDS
 * are key=value tokens ([timeout=N] too), each found by its key. Every
 * byte is looked at within the length given; nothing is allocated.
 */
#include <string.h>
#include "replay_trace.h"

/* In the order of enum tp_type and enum tp_form. */
static const char *const tp_names[TP_NR_TYPES] = {
	"timer_start", "timer_cancel", "timer_expire_entry",
	"hrtimer_start", "hrtimer_cancel", "hrtimer_expire_entry",
};

static const char *const tp_forms[TP_NR_FORMS] = { "tracefs", "trace-cmd", "perf" };

const char *tp_type_name(enum tp_type type)
{
	return type < TP_NR_TYPES ? tp_names[type] : "?";
}

const char *tp_form_name(enum tp_form form)
{
	return form < TP_NR_FORMS ? tp_forms[form] : "?";
}

static int tp_isdigit(char c)
{
	return c >= '0' && c <= '9';
}

static int tp_isxdigit(char c)
{
	return tp_isdigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int tp_isname(char c)
{
	return tp_isdigit(c) || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || c == '_';
}

static int tp_starts(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w);

	return n >= k && !memcmp(s, w, k);
}

static int tp_ends(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w);

	return n >= k && !memcmp(s + n - k, w, k);
}

/* The digits at p[0, n), as many as there are. */
static size_t tp_digits(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n && tp_isdigit(p[i]))
		i++;
	return i;
}

/* An unsigned decimal filling p[0, n) exactly; 0 on overflow or junk. */
static int tp_udec(const char *p, size_t n, uint64_t *v)
{
	uint64_t x = 0;
	unsigned int d;
	size_t i;

	if (!n)
		return 0;
	for (i = 0; i < n; i++) {
		d = p[i] - '0';
		if (!tp_isdigit(p[i]) || x > UINT64_MAX / 10 ||
		    (x == UINT64_MAX / 10 && d > UINT64_MAX % 10))
			return 0;
		x = x * 10 + d;
	}
	*v = x;
	return 1;
}

static int tp_sdec(const char *p, size_t n, int64_t *v)
{
	uint64_t x;

	if (n && p[0] == '-') {
		if (!tp_udec(p + 1, n - 1, &x) || x > (uint64_t)INT64_MAX)
			return 0;
		*v = -(int64_t)x;
		return 1;
	}
	if (!tp_udec(p, n, &x) || x > (uint64_t)INT64_MAX)
		return 0;
	*v = (int64_t)x;
	return 1;
}

/* A pointer: 1 to 16 hex digits, "0x" or not. */
static int tp_hex(const char *p, size_t n, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;
	char c;

	if (n > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		n -= 2;
	}
	if (!n || n > 16)
		return 0;
	for (i = 0; i < n; i++) {
		c = p[i];
		if (tp_isdigit(c))
			x = x << 4 | (c - '0');
		else if (c >= 'a' && c <= 'f')
			x = x << 4 | (c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			x = x << 4 | (c - 'A' + 10);
		else
			return 0;
	}
	*v = x;
	return 1;
}

/*
 * The value of "key=" among the space-separated tokens of p[0, n), a
 * token's brackets stripped ("[timeout=1]"); 0 if there is none.
 */
static int tp_field(const char *p, size_t n, const char *key,
		    const char **v, size_t *vn)
{
	size_t k = strlen(key), i = 0, j;

	while (i < n) {
		while (i < n && p[i] == ' ')
			i++;
		j = i;
		while (j < n && p[j] != ' ')
			j++;
		/* p[i, j) is a token */
		if (j > i && p[i] == '[') {
			i++;
			if (j > i && p[j - 1] == ']')
				j--;
		}
		if (j - i > k && !memcmp(p + i, key, k) && p[i + k] == '=') {
			*v = p + i + k + 1;
			*vn = j - i - k - 1;
			return 1;
		}
		while (j < n && p[j] != ' ')
			j++;
		i = j;
	}
	return 0;
}

enum { TP_HEX, TP_UDEC };

/*
 * Field key of the fields f[0, n) into *v as kind; the reason if not (the
 * caller's nan, naming the field: TP_GET() makes it).
 */
static const char *tp_get(const char *f, size_t n, const char *key, int kind,
			  void *v, int required, const char *nan)
{
	const char *p;
	size_t pn;
	int ok;

	if (!tp_field(f, n, key, &p, &pn))
		return required ? "a field is missing" : NULL;
	if (kind == TP_HEX)
		ok = tp_hex(p, pn, v);
	else
		ok = tp_udec(p, pn, v);
	return ok ? NULL : nan;
}

#define TP_GET(f, n, key, kind, v, required)	\
	tp_get(f, n, key, kind, v, required, "field '" key "' is not a number")

/*
 * If s[i] starts ": " after a timestamp and before "[SYSTEM:]EVENT:", sets
 * the timestamp's start, the name's bounds and returns 1.
 */
static int tp_marker(const char *s, size_t n, size_t i, size_t *ts,
		     size_t *name, size_t *name_end)
{
	size_t j = i, k;

	/* TIMESTAMP: digits, or digits '.' digits, at the start or after ' ' */
	while (j > 0 && tp_isdigit(s[j - 1]))
		j--;
	if (j == i)
		return 0;
	if (j > 0 && s[j - 1] == '.') {
		j--;
		k = j;
		while (j > 0 && tp_isdigit(s[j - 1]))
			j--;
		if (j == k)
			return 0;
	}
	if (j > 0 && s[j - 1] != ' ')
		return 0;
	/* the event's name, then ':' and a space or the end */
	k = i + 2;
	while (k < n && s[k] == ' ')
		k++;
	*name = k;
	while (k < n && (tp_isname(s[k]) || s[k] == ':'))
		k++;
	if (k == *name || s[k - 1] != ':' || (k < n && s[k] != ' '))
		return 0;
	*ts = j;
	*name_end = k - 1;
	return 1;
}

/* The timestamp t[0, n): seconds[.fraction], in ns. */
static int tp_timestamp(const char *t, size_t n, uint64_t *ns)
{
	size_t dot = 0, f;
	uint64_t sec, frac = 0;

	while (dot < n && t[dot] != '.')
		dot++;
	if (!tp_udec(t, dot, &sec))
		return 0;
	if (dot == n) {		/* a counter, not seconds: taken as ns */
		*ns = sec;
		return 1;
	}
	if (sec > UINT64_MAX / 1000000000ULL - 1)
		return 0;
	for (f = 0; f < 9; f++)
		frac = frac * 10 + (dot + 1 + f < n ? t[dot + 1 + f] - '0' : 0);
	*ns = sec * 1000000000ULL + frac;
	return 1;
}

/*
 * trace-cmd report -l's latency column, "CPU" then the flags ("0d.h1."),
 * p[0, n): its CPU's digits' length, 0 if it is not one. The flags start
 * with irqs-off's: 'd', 'D', 'X' or '.'.
 */
static size_t tp_latency_cpu(const char *p, size_t n)
{
	size_t d = tp_digits(p, n), i;

	if (!d || n - d < 4 || !strchr("dDX.", p[d]))
		return 0;
	for (i = d; i < n; i++)
		if (!tp_isdigit(p[i]) && !strchr("dDXNnpPhHsSbBzZ.", p[i]))
			return 0;
	return d;
}

/*
 * The CPU, from the prefix p[0, n) (before the timestamp): its last
 * "[cpu]" token (tracefs, trace-cmd report, perf script -F cpu), or the
 * latency column of trace-cmd report -l as its last token; none if
 * neither (perf script -F without cpu).
 */
static const char *tp_prefix(const char *p, size_t n, struct tp_event *ev)
{
	size_t e = n, b, d;
	uint64_t cpu;

	ev->cpu = TP_NO_CPU;
	while (e > 0 && p[e - 1] == ' ')
		e--;
	/* the last token first: the latency column */
	for (b = e; b > 0 && p[b - 1] != ' '; b--)
		;
	d = tp_latency_cpu(p + b, e - b);
	if (!d) {
		/* the last token of the form "[digits]" */
		for (e = n; e > 0; e = b) {
			while (e > 0 && p[e - 1] == ' ')
				e--;
			for (b = e; b > 0 && p[b - 1] != ' '; b--)
				;
			if (e - b >= 3 && p[b] == '[' && p[e - 1] == ']' &&
			    tp_digits(p + b + 1, e - b - 2) == e - b - 2)
				break;
		}
		if (!e)
			return NULL;
		b++;
		d = e - b - 1;
	}
	if (!tp_udec(p + b, d, &cpu) || cpu >= TP_MAX_CPUS)
		return "cpu out of range";
	ev->cpu = cpu;
	return NULL;
}

/*
 * timer_start's bucket_expiry= (6.8 and later), idx= and cpu= (6.1 prints
 * these two too), into ev, each with its has_ flag; a cpu= of TP_MAX_CPUS
 * or more is taken as absent (the start cannot be checked), the line is
 * not malformed for it.
 */
static const char *tp_placement(const char *f, size_t n, struct tp_event *ev)
{
	const char *why, *p;
	size_t pn;

	ev->has_be = tp_field(f, n, "bucket_expiry", &p, &pn);
	why = TP_GET(f, n, "bucket_expiry", TP_UDEC, &ev->bucket_expiry, 0);
	ev->has_idx = tp_field(f, n, "idx", &p, &pn);
	if (!why)
		why = TP_GET(f, n, "idx", TP_UDEC, &ev->idx, 0);
	ev->has_tcpu = tp_field(f, n, "cpu", &p, &pn);
	if (!why)
		why = TP_GET(f, n, "cpu", TP_UDEC, &ev->tcpu, 0);
	ev->has_tcpu &= ev->tcpu < TP_MAX_CPUS;
	return why;
}

/* The fields f[0, n) of an event of type ev->type. */
static const char *tp_fields(const char *f, size_t n, struct tp_event *ev)
{
	int hr = ev->type >= TP_HRTIMER_START;
	const char *why, *p;
	size_t pn, i;

	/* every event has its timer; the start its expiry, the expiry now */
	why = hr ? TP_GET(f, n, "hrtimer", TP_HEX, &ev->ptr, 1) :
		   TP_GET(f, n, "timer", TP_HEX, &ev->ptr, 1);
	/* libtraceevent prints a pointer "0x...", the kernel's %p bare */
	if (!why && ev->form != TP_FORM_PERF &&
	    tp_field(f, n, hr ? "hrtimer" : "timer", &p, &pn) && pn > 2 &&
	    p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		ev->form = TP_FORM_TRACE_CMD;
	if (!why && (ev->type == TP_TIMER_START || ev->type == TP_HRTIMER_START))
		why = TP_GET(f, n, "expires", TP_UDEC, &ev->expires, 1);
	if (!why && (ev->type == TP_TIMER_EXPIRE || ev->type == TP_HRTIMER_EXPIRE))
		why = TP_GET(f, n, "now", TP_UDEC, &ev->now, 1);
	if (why)
		return why;
	if (ev->type == TP_TIMER_START) {
		if (tp_field(f, n, "timeout", &p, &pn)) {
			if (!tp_sdec(p, pn, &ev->timeout))
				return "field 'timeout' is not a number";
			ev->has_timeout = 1;
		}
		if (tp_field(f, n, "flags", &p, &pn))
			for (i = 0; i < pn; i++) {
				ev->deferrable |= p[i] == 'D';
				ev->pinned |= p[i] == 'P';
			}
		/* where the kernel filed it, as much as the kernel prints */
		why = tp_placement(f, n, ev);
	} else if (ev->type == TP_TIMER_EXPIRE) {
		why = TP_GET(f, n, "baseclk", TP_UDEC, &ev->baseclk, 0);
		ev->has_baseclk = !why && tp_field(f, n, "baseclk", &p, &pn);
	} else if (ev->type == TP_HRTIMER_START) {
		ev->softexpires = ev->expires;
		why = TP_GET(f, n, "softexpires", TP_UDEC, &ev->softexpires, 0);
		if (!why && ev->softexpires > ev->expires)
			why = "softexpires after expires";
		/* 6.18: whether the hrtimer was armed when it was started */
		if (!why && tp_field(f, n, "was_armed", &p, &pn) && pn == 1 &&
		    (p[0] == '0' || p[0] == '1')) {
			ev->has_was_armed = 1;
			ev->was_armed = p[0] == '1';
		}
	}
	return why;
}

/*
 * A line of lost events, s[0, n) from its first non-blank byte: tracefs'
 * "CPU:N [LOST M EVENTS]" or "CPU:N [LOST EVENTS]" (the count unknown),
 * trace-cmd report's "CPU:N [M EVENTS DROPPED]" or "CPU:N [EVENTS
 * DROPPED]". Sets ev->lost or ev->lost_unknown.
 */
static int tp_lost(const char *s, size_t n, struct tp_event *ev)
{
	size_t i = 4, d;
	int lost;

	if (!tp_starts(s, n, "CPU:") || !tp_digits(s + i, n - i))
		return 0;
	i += tp_digits(s + i, n - i);
	if (!tp_starts(s + i, n - i, " ["))
		return 0;
	i += 2;
	lost = tp_starts(s + i, n - i, "LOST ");
	if (lost)
		i += 5;
	d = tp_digits(s + i, n - i);
	if (d) {
		if (i + d >= n || s[i + d] != ' ' || !tp_udec(s + i, d, &ev->lost))
			return 0;
		i += d + 1;
	} else {
		ev->lost_unknown = 1;
	}
	if (!tp_starts(s + i, n - i, lost ? "EVENTS]" : "EVENTS DROPPED]"))
		return 0;
	i += lost ? 7 : 15;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i == n;
}

/*
 * tracefs' "# entries-in-buffer/entries-written: A/B": B - A events were
 * written and are not in the buffer (overwritten), into ev->lost.
 */
static void tp_entries(const char *s, size_t n, struct tp_event *ev)
{
	const char *key = "# entries-in-buffer/entries-written: ";
	size_t i = strlen(key), a, b;
	uint64_t in, written;

	if (!tp_starts(s, n, key))
		return;
	a = tp_digits(s + i, n - i);
	if (!a || i + a >= n || s[i + a] != '/')
		return;
	b = tp_digits(s + i + a + 1, n - i - a - 1);
	if (tp_udec(s + i, a, &in) && tp_udec(s + i + a + 1, b, &written) &&
	    written > in)
		ev->lost = written - in;
}

/*
 * A line of a stack trace, s[0, n) whole: a frame of perf script -g
 * ("\t" blanks, an address in hex, a blank, the symbol and its object),
 * a frame of tracefs' options/stacktrace and userstacktrace (" => f"), or
 * the line that heads the latter ("PREFIX TIMESTAMP: <stack trace>").
 */
static int tp_stack(const char *s, size_t n)
{
	size_t i = 0, h;

	if (n && s[0] == '\t') {
		while (i < n && (s[i] == '\t' || s[i] == ' '))
			i++;
		for (h = i; i < n && i - h <= 16 && tp_isxdigit(s[i]); i++)
			;
		return i > h && i - h <= 16 && i + 1 < n && s[i] == ' ';
	}
	while (i < n && s[i] == ' ')
		i++;
	return tp_starts(s + i, n - i, "=> ") || tp_ends(s, n, ": <stack trace>") ||
	       tp_ends(s, n, ": <user stack trace>");
}

/**
 * tp_parse_line() - what one line of a trace is
 * @s: the line, without its '\n'; need not be NUL-terminated
 * @n: its length
 * @ev: filled in for TP_EVENT; @ev->lost for TP_LOST and TP_BLANK (see
 *	struct tp_event), @ev->why for TP_MALFORMED
 *
 * Return: the kind of line.
 */
enum tp_kind tp_parse_line(const char *s, size_t n, struct tp_event *ev)
{
	size_t i, ts = 0, name = 0, name_end = 0, sys = 0, k;
	const char *why;
	int type;

	memset(ev, 0, sizeof(*ev));
	if (n && s[n - 1] == '\r')
		n--;
	if (n > TP_LINE_MAX) {
		ev->why = "line too long";
		return TP_MALFORMED;
	}
	i = 0;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i == n || s[i] == '#' || tp_starts(s + i, n - i, "cpus=") ||
	    tp_starts(s + i, n - i, "version = ")) {
		tp_entries(s + i, n - i, ev);
		return TP_BLANK;
	}
	if (tp_lost(s + i, n - i, ev))
		return TP_LOST;
	ev->lost = 0;
	ev->lost_unknown = 0;
	for (i = 1; i + 1 < n; i++)
		if (s[i] == ':' && s[i + 1] == ' ' &&
		    tp_marker(s, n, i, &ts, &name, &name_end))
			break;
	if (i + 1 >= n) {
		if (tp_stack(s, n))
			return TP_STACK;
		ev->why = "not an event line";
		return TP_MALFORMED;
	}
	/* "timer:timer_start" (perf) or "timer_start" */
	for (k = name; k < name_end; k++)
		if (s[k] == ':')
			sys = k + 1;
	if (sys && (sys - name != 6 || memcmp(s + name, "timer:", 6)))
		return TP_OTHER;
	k = sys ? sys : name;
	for (type = 0; type < TP_NR_TYPES; type++)
		if (strlen(tp_names[type]) == name_end - k &&
		    !memcmp(s + k, tp_names[type], name_end - k))
			break;
	if (type == TP_NR_TYPES)
		return TP_OTHER;
	ev->type = type;
	why = tp_prefix(s, ts, ev);
	ev->form = sys ? TP_FORM_PERF : TP_FORM_TRACEFS;
	if (!why && !tp_timestamp(s + ts, i - ts, &ev->ts_ns))
		why = "bad timestamp";
	ev->ts_counter = !memchr(s + ts, '.', i - ts);
	if (!why)
		why = tp_fields(s + name_end + 1, n - name_end - 1, ev);
	if (why) {
		ev->why = why;
		return TP_MALFORMED;
	}
	/* libtraceevent prints every flag whatever the timer's are */
	ev->flags_known = ev->form == TP_FORM_TRACEFS;
	if (!ev->flags_known) {
		ev->deferrable = 0;
		ev->pinned = 0;
	}
	return TP_EVENT;
}

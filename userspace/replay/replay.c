// SPDX-License-Identifier: GPL-2.0
/*
 * twheel-replay: a kernel timer trace played through every engine.
 *
 *   replay [OPTIONS] TRACE|-        (--help lists them; twheel-replay runs it)
 *
 * TRACE is text in any of the three forms (trace.h): the tracefs files,
 * `trace-cmd report`, `perf script`; plain, gzip or xz (told by its first
 * bytes: the decompressor runs in a pipe). It is read once, as it comes:
 * the first RP_HEAD_MAX bytes are held to tell the traced machine's HZ and
 * the hrtimers on a clock ahead of the trace's (rp_calibrate()), then
 * replayed, and the rest line by line. Prints what it read (events per
 * type and form, the line numbers of malformed and other lines), then per
 * stream that has events (timer_list, hrtimer) a table, each engine's
 * operations, cost and lateness and the kernel's own row from the trace,
 * and a verdict; --hist adds histograms of lateness and per-call cost.
 *
 * Natively it times each engine (REPEAT runs, the fastest kept). Unless
 * --no-callgrind, it also writes the operations (not the text) to a
 * temporary file and runs itself on them under callgrind
 * (--instr-atstart=no --collect-atstart=no, --ops-file): each engine once
 * per kind of call, collecting only that kind, dumped as "ENGINE STREAM
 * KIND", with "calls ENGINE STREAM KIND N" on its standard output: a
 * dump's Ir over N is Ir per call. Exits 1 if an engine's counters do not
 * add up, 2 on a usage or read error, an unknown engine, an HZ that is not
 * a whole number from RP_HZ_MIN to RP_HZ_MAX, or a trace with no timer
 * event in it: one line on stderr naming the file and what it is. The
 * placement oracle's disagreements (replay_oracle.c) are reported, not
 * an exit status.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <valgrind/callgrind.h>
#include "replay.h"

#define RP_PROG		"twheel-replay"
/* The head of the trace held for rp_calibrate(); the rest streams. */
#define RP_HEAD_MAX	(16UL << 20)
#define RP_CHUNK	(1UL << 20)
/* What text output fits in. */
#define RP_WIDTH	120

enum rp_format { RP_FMT_TEXT, RP_FMT_MD, RP_FMT_CSV, RP_FMT_JSON, RP_NR_FMTS };
static const char *const rp_format_name[RP_NR_FMTS] = { "text", "md", "csv", "json" };

static const char *const rp_stream_name[RP_NR_STREAMS] = { "timer", "hrtimer" };
static const char *const rp_stream_title[RP_NR_STREAMS] = { "timer_list", "hrtimer" };
static const char *const rp_call_name[RP_NR_CALLS] = { "add", "mod", "del", "adv" };

static struct {
	int repeat;
	const char *engines;	/* NULL: all */
	double ir[32][RP_NR_STREAMS][RP_NR_CALLS];	/* -1: not known */
	int bad;
	int format;
	int hist;
	int progress;		/* 1 on, 0 off, -1 when stderr is a terminal */
	int callgrind;
	unsigned int hz;
	const char *name;	/* what the report calls the trace */
	const char *ops_file;	/* the callgrind pass: operations from here */
} o = { .repeat = 3, .format = -1, .progress = -1, .callgrind = 1 };

/* Progress on stderr, for work longer than a second. */
static struct {
	int on, tty, shown;
	double t0, last;
} pg;

static double rp_secs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void rp_progress_end(void)
{
	if (pg.shown && pg.tty)
		fputs("\r\033[K", stderr);
	pg.shown = 0;
}

static void __attribute__((format(printf, 1, 2))) rp_progress(const char *fmt, ...)
{
	double now;
	va_list ap;

	if (!pg.on)
		return;
	now = rp_secs();
	if (now - pg.t0 < 1 || now - pg.last < (pg.tty ? 0.25 : 1))
		return;
	pg.last = now;
	fputs(pg.tty ? "\r\033[K" RP_PROG ": " : RP_PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (!pg.tty)
		fputc('\n', stderr);
	fflush(stderr);
	pg.shown = 1;
}

/* An error: one line on stderr, exit 2. */
static void __attribute__((noreturn, format(printf, 1, 2))) rp_die(const char *fmt, ...)
{
	va_list ap;

	rp_progress_end();
	fflush(stdout);
	fputs(RP_PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static int rp_wanted(const char *name)
{
	const char *p = o.engines;
	size_t n = strlen(name);

	if (!p)
		return 1;
	while (p) {
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return 1;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return 0;
}

/* Whether engine e replays stream s (and was asked for). */
static int rp_replays(unsigned int e, int s)
{
	return (s == RP_TIMER || rp_hrtimer(&rp_engines[e])) && rp_wanted(rp_engines[e].name);
}

/* Refuses --engines with a name that is not an engine's, listing those there are. */
static void rp_check_engines(void)
{
	const char *p = o.engines, *end;
	char list[1024];
	size_t n, l = 0;
	unsigned int e;

	for (e = 0; e < rp_nr_engines && l < sizeof(list); e++)
		l += snprintf(list + l, sizeof(list) - l, "%s%s", e ? ", " : "",
			      rp_engines[e].name);
	while (p) {
		end = strchr(p, ',');
		n = end ? (size_t)(end - p) : strlen(p);
		for (e = 0; e < rp_nr_engines; e++)
			if (strlen(rp_engines[e].name) == n &&
			    !strncmp(p, rp_engines[e].name, n))
				break;
		if (e == rp_nr_engines)
			rp_die("unknown engine '%.*s' (engines: %s)", (int)n, p, list);
		p = end ? end + 1 : NULL;
	}
}

/* The header: what was read. */

static void rp_lines(FILE *out, const char *what, uint64_t n, const uint64_t *line,
		     const char *const *why)
{
	uint64_t i;

	if (!n)
		return;
	fprintf(out, "# %s lines (%s%llu):", what, n > RP_LINES_KEPT ? "the first of " : "",
		(unsigned long long)n);
	for (i = 0; i < n && i < RP_LINES_KEPT; i++) {
		fprintf(out, " %llu", (unsigned long long)line[i]);
		if (why)
			fprintf(out, " (%s)", why[i]);
	}
	fprintf(out, "\n");
}

static uint64_t rp_events(const struct rp_trace *tr)
{
	uint64_t events = 0;
	int i;

	for (i = 0; i < TP_NR_TYPES; i++)
		events += tr->count[i];
	return events;
}

/* The events of stream s the trace has. */
static uint64_t rp_stream_events(const struct rp_trace *tr, int s)
{
	int i = s == RP_TIMER ? TP_TIMER_START : TP_HRTIMER_START;

	return tr->count[i] + tr->count[i + 1] + tr->count[i + 2];
}

static void rp_report(FILE *out, const char *path, const struct rp_trace *tr,
		      const char *early)
{
	int i;

	if (early)
		fprintf(out, "# %s\n", early);
	fprintf(out, "# replay of %s\n", path);
	rp_hz_report(out, &tr->hz);
	if (tr->streamed)
		fprintf(out, "# the HZ and the hrtimers on another clock were told from the trace's first %lu MiB (it is longer; it is read as it comes)\n",
			RP_HEAD_MAX >> 20);
	fprintf(out, "# lines %llu: events %llu, blank or header %llu, other events %llu, stack-trace %llu, malformed %llu, lost %llu events on %llu lines",
		(unsigned long long)tr->lines, (unsigned long long)rp_events(tr),
		(unsigned long long)tr->blank, (unsigned long long)tr->other,
		(unsigned long long)tr->stack, (unsigned long long)tr->malformed,
		(unsigned long long)tr->lost_events,
		(unsigned long long)tr->lost_lines);
	if (tr->lost_unknown)
		fprintf(out, " (%llu of them an unknown number)",
			(unsigned long long)tr->lost_unknown);
	fprintf(out, "\n");
	if (tr->overwritten)
		fprintf(out, "# overwritten: %llu events (the header's entries-written less entries-in-buffer: the ring buffer was full)\n",
			(unsigned long long)tr->overwritten);
	if (tr->boot_timers)
		fprintf(out, "# WARNING: %llu hrtimers ran on a clock up to %.3f s ahead of the trace's own (CLOCK_BOOTTIME after a suspend, most likely): their events are set aside (\"another clock\" below)\n",
			(unsigned long long)tr->boot_timers, tr->boot_ahead / 1e9);
	if (tr->wrap32)
		fprintf(out, "# WARNING: %llu timer_list lines have jiffies that wrapped at 2^32, as a 32-bit kernel's do: not supported, they are malformed\n",
			(unsigned long long)tr->wrap32);
	if (tr->lost_lines || tr->overwritten)
		fprintf(out, "# WARNING: events were lost: the kernel's counts below miss them, and timers may look aged out, added or deleted where they were not\n");
	fprintf(out, "# events:");
	for (i = 0; i < TP_NR_TYPES; i++)
		fprintf(out, " %s=%llu", tp_type_name(i), (unsigned long long)tr->count[i]);
	fprintf(out, "\n# forms:");
	for (i = 0; i < TP_NR_FORMS; i++)
		fprintf(out, " %s=%llu", tp_form_name(i), (unsigned long long)tr->forms[i]);
	fprintf(out, "\n");
	rp_lines(out, "malformed", tr->malformed, tr->bad_line, tr->bad_why);
	rp_lines(out, "other-event", tr->other, tr->other_line, NULL);
	if (tr->nomem)
		fprintf(out, "# out of memory: the replay stopped taking events\n");
}

/*
 * text to stdout, each line broken at spaces to fit RP_WIDTH columns; a
 * line's continuations are indented, after its "# " if it has one, else
 * four columns past the line's own indent.
 */
static void rp_wrap(const char *text)
{
	const char *p = text, *nl, *cut, *q;
	char indent[RP_WIDTH / 2 + 8];
	size_t n, room, lead;

	while (*p) {
		nl = strchr(p, '\n');
		n = nl ? (size_t)(nl - p) : strlen(p);
		for (lead = 0; lead < n && lead < RP_WIDTH / 2 && p[lead] == ' '; lead++)
			;
		if (*p == '#')
			snprintf(indent, sizeof(indent), "#     ");
		else
			snprintf(indent, sizeof(indent), "%*s", (int)lead + 4, "");
		room = RP_WIDTH;
		while (n > room) {
			cut = NULL;
			for (q = p + room; q > p; q--)
				if (*q == ' ') {
					cut = q;
					break;
				}
			if (!cut)
				break;
			printf("%.*s\n%s", (int)(cut - p), p, indent);
			n -= cut + 1 - p;
			p = cut + 1;
			room = RP_WIDTH - strlen(indent);
		}
		printf("%.*s\n", (int)n, p);
		p += n + (nl != NULL);
	}
}

/* Reading the trace, once, as it comes. */

struct rp_in {
	const char *path;	/* the user's, or "-" */
	const char *name;	/* what errors call it */
	int fd;			/* the text */
	const char *unpack;	/* "gzip", "xz", or NULL: plain */
	pid_t pid, feeder;	/* the decompressor; what feeds it a pipe's bytes */
	int errfd;		/* the decompressor's stderr */
	int direct;		/* it reads the file itself (its offset is ours to see) */
	uint64_t size;		/* the file's bytes, 0 if not known */
	uint64_t bytes;		/* text read so far */
	char early[PATH_MAX + 4096 + 128];	/* the decompressor's complaint: a warning */
};

static size_t rp_read_some(struct rp_in *in, char *buf, size_t n)
{
	ssize_t r;

	do
		r = read(in->fd, buf, n);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		rp_die("%s: cannot read it: %s", in->name,
		       errno == EISDIR ? "it is a directory" : strerror(errno));
	in->bytes += r;
	return r;
}

/* Up to n bytes, fewer only at the end. */
static size_t rp_read_full(struct rp_in *in, char *buf, size_t n)
{
	size_t got = 0, r;

	while (got < n && (r = rp_read_some(in, buf + got, n - got)))
		got += r;
	return got;
}

static void rp_write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			_exit(1);
		p += w;
		n -= w;
	}
}

/*
 * The trace is gzip or xz data: its decompressor in a pipe. It reads the
 * file itself when that can be read from the start again, else a child
 * feeds it what was read (head[0, n)) and the rest.
 */
static void rp_unpack(struct rp_in *in, const char *head, size_t n)
{
	int out[2], err[2], feed[2], src = in->fd;
	char buf[65536];
	ssize_t r;

	if (lseek(in->fd, 0, SEEK_SET) == 0) {
		in->direct = 1;
	} else {
		in->size = 0;
		if (pipe(feed))
			rp_die("%s: %s", in->name, strerror(errno));
		in->feeder = fork();
		if (in->feeder < 0)
			rp_die("%s: %s", in->name, strerror(errno));
		if (!in->feeder) {
			close(feed[0]);
			rp_write_all(feed[1], head, n);
			while ((r = read(in->fd, buf, sizeof(buf))) > 0 ||
			       (r < 0 && errno == EINTR))
				if (r > 0)
					rp_write_all(feed[1], buf, r);
			_exit(0);
		}
		close(feed[1]);
		src = feed[0];
	}
	if (pipe(out) || pipe(err))
		rp_die("%s: %s", in->name, strerror(errno));
	in->pid = fork();
	if (in->pid < 0)
		rp_die("%s: %s", in->name, strerror(errno));
	if (!in->pid) {
		dup2(src, 0);
		dup2(out[1], 1);
		dup2(err[1], 2);
		close(out[0]);
		close(err[0]);
		execlp(in->unpack, in->unpack, "-dc", (char *)NULL);
		fprintf(stderr, "cannot run %s: %s\n", in->unpack, strerror(errno));
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	if (src != in->fd)
		close(src);
	close(in->fd);
	in->fd = out[0];
	in->errfd = err[0];
	in->bytes = 0;
}

/*
 * The decompressor has ended: one that failed after some text is a
 * warning (a trace cut short: replayed as far as it went), one that gave
 * nothing an error.
 */
static void rp_unpack_end(struct rp_in *in)
{
	char msg[4096], *last, *nl;
	size_t n = 0;
	ssize_t r;
	int st = 0;

	if (!in->unpack)
		return;
	while ((r = read(in->errfd, msg + n, sizeof(msg) - 1 - n)) > 0 ||
	       (r < 0 && errno == EINTR))
		if (r > 0)
			n += r;
	msg[n] = 0;
	close(in->errfd);
	waitpid(in->pid, &st, 0);
	if (in->feeder > 0)
		waitpid(in->feeder, NULL, 0);
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		return;
	while (n && msg[n - 1] == '\n')
		msg[--n] = 0;
	last = strrchr(msg, '\n');
	last = last ? last + 1 : msg;
	nl = strchr(last, '\n');
	if (nl)
		*nl = 0;
	if (!in->bytes)
		rp_die("%s: %s data that does not decompress (%s)", in->name, in->unpack,
		       *last ? last : "no message");
	snprintf(in->early, sizeof(in->early),
		 "WARNING: %s ended early or is damaged (%s): replaying the %llu bytes it decompressed to",
		 in->name, last, (unsigned long long)in->bytes);
}

/*
 * Opens the trace: a file is refused if it is not there, a directory, or
 * not readable; gzip and xz data go through their decompressor. The bytes
 * read to tell which (the text's first, if plain) into head, their number
 * returned.
 */
static size_t rp_open(struct rp_in *in, char *head, size_t max)
{
	struct stat sb;
	size_t n;

	if (!strcmp(in->path, "-")) {
		in->fd = 0;
		in->name = o.name ? o.name : "standard input";
	} else {
		in->name = in->path;
		if (stat(in->path, &sb))
			rp_die("%s: %s", in->path,
			       errno == ENOENT ? "no such file" : strerror(errno));
		if (S_ISDIR(sb.st_mode))
			rp_die("%s: is a directory, not a trace file", in->path);
		in->fd = open(in->path, O_RDONLY);
		if (in->fd < 0)
			rp_die("%s: cannot read it: %s", in->path, strerror(errno));
	}
	if (!fstat(in->fd, &sb) && S_ISREG(sb.st_mode))
		in->size = sb.st_size;
	n = rp_read_full(in, head, max < 6 ? max : 6);
	if (n >= 2 && !memcmp(head, "\x1f\x8b", 2))
		in->unpack = "gzip";
	else if (n == 6 && !memcmp(head, "\xfd\x37\x7a\x58\x5a", 6))	/* and its NUL */
		in->unpack = "xz";
	if (!in->unpack)
		return n;
	rp_unpack(in, head, n);
	return 0;
}

/* The share of the input read, -1 if not known. */
static double rp_fraction(const struct rp_in *in)
{
	unsigned long long pos;
	char path[64], line[128];
	double f = -1;
	FILE *fi;

	if (!in->size)
		return -1;
	if (!in->unpack)
		return (double)in->bytes / in->size;
	if (!in->direct)
		return -1;
	/* the decompressor's offset in the file */
	snprintf(path, sizeof(path), "/proc/%d/fdinfo/0", (int)in->pid);
	fi = fopen(path, "r");
	if (!fi)
		return -1;
	while (fgets(line, sizeof(line), fi))
		if (sscanf(line, "pos: %llu", &pos) == 1)
			f = (double)pos / in->size;
	fclose(fi);
	return f;
}

static void rp_read_progress(const struct rp_trace *tr, const struct rp_in *in)
{
	double f = rp_fraction(in), t = rp_secs() - pg.t0;
	char pct[32] = "";

	if (f >= 0)
		snprintf(pct, sizeof(pct), ", %.0f %%", 100 * (f > 1 ? 1 : f));
	rp_progress("reading %s: %llu events%s, %.0f MiB at %.0f MiB/s", in->name,
		    (unsigned long long)rp_events(tr), pct, in->bytes / 1048576.0,
		    in->bytes / 1048576.0 / (t > 0 ? t : 1));
}

/* Refuses a text starting with head[0, n) that is not a text trace. */
static void rp_binary(const struct rp_in *in, const char *head, size_t n)
{
	const char *f = strcmp(in->path, "-") ? in->path : "FILE";

	if (n >= 8 && !memcmp(head, "PERFILE2", 8))
		rp_die("%s: perf's binary perf.data, not text: run `perf script -i '%s' > timers.txt` first and replay that",
		       in->name, f);
	if (n >= 10 && !memcmp(head, "\x17\x08\x44tracing", 10))
		rp_die("%s: trace-cmd's binary trace.dat, not text: run `trace-cmd report -i '%s' > timers.txt` first and replay that",
		       in->name, f);
	if (memchr(head, '\0', n < 512 ? n : 512))
		rp_die("%s: binary data, not the text of a trace", in->name);
}

/*
 * The lines of the rest of the trace, after the head: buf (cap bytes)
 * holds len bytes of a line begun; a line longer than TP_LINE_MAX is kept
 * as its first TP_LINE_MAX + 2 bytes (malformed: too long).
 */
static void rp_stream(struct rp_trace *tr, struct rp_in *in, char *buf, size_t cap,
		      size_t len)
{
	const size_t keep = TP_LINE_MAX + 2;
	int toolong = len > keep;
	char *p, *end, *nl;
	size_t n;

	if (toolong)
		len = keep;
	while ((n = rp_read_some(in, buf + len, cap - len))) {
		p = buf;
		end = buf + len + n;
		if (toolong) {
			/* the rest of a line too long: dropped up to its end */
			nl = memchr(buf + len, '\n', n);
			if (!nl)
				continue;
			rp_line(tr, buf, keep, 1);
			toolong = 0;
			p = nl + 1;
		}
		while ((nl = memchr(p, '\n', end - p))) {
			rp_line(tr, p, nl - p, 1);
			p = nl + 1;
		}
		len = end - p;
		memmove(buf, p, len);
		if (len > keep) {
			toolong = 1;
			len = keep;
		}
		rp_read_progress(tr, in);
	}
	if (len)
		rp_line(tr, buf, len, 0);
}

/*
 * The trace, read once: its head (all of it if it is short) calibrated
 * and replayed, the rest line by line.
 */
static void rp_read(struct rp_trace *tr, struct rp_in *in)
{
	size_t len, n, cut;
	char *buf, *nl;

	buf = malloc(RP_HEAD_MAX);
	if (!buf)
		rp_die("%s: out of memory", in->name);
	len = rp_open(in, buf, RP_HEAD_MAX);
	while (len < RP_HEAD_MAX && (n = rp_read_some(in, buf + len, RP_HEAD_MAX - len))) {
		len += n;
		rp_read_progress(tr, in);
	}
	rp_binary(in, buf, len);
	if (len < RP_HEAD_MAX) {
		rp_calibrate(tr, buf, len);
		rp_text(tr, buf, len);
		free(buf);
		return;
	}
	for (cut = len; cut && buf[cut - 1] != '\n'; cut--)
		;
	rp_calibrate(tr, buf, cut);
	tr->streamed = 1;
	rp_text(tr, buf, cut);
	memmove(buf, buf + cut, len - cut);
	len -= cut;
	/* a line begun, at most the head: the rest in chunks */
	if (len > RP_CHUNK)
		len = TP_LINE_MAX + 3;
	nl = realloc(buf, RP_CHUNK + TP_LINE_MAX + 3);
	if (nl)
		buf = nl;
	rp_stream(tr, in, buf, nl ? RP_CHUNK + TP_LINE_MAX + 3 : RP_HEAD_MAX, len);
	free(buf);
}

/* The callgrind pass: the operations to a file, this binary on them. */

static const char rp_ops_magic[8] = "TWRPOPS1";

static void rp_ops_write(const char *path, const struct rp_trace *tr)
{
	FILE *f = fopen(path, "w");
	const struct rp_stream *st;
	int s, ok;

	ok = f && fwrite(rp_ops_magic, 8, 1, f) == 1 &&
	     fwrite(&tr->nsh, sizeof(tr->nsh), 1, f) == 1;
	for (s = 0; ok && s < RP_NR_STREAMS; s++) {
		st = &tr->st[s];
		ok = fwrite(&st->has_clock, sizeof(st->has_clock), 1, f) == 1 &&
		     fwrite(&st->first, sizeof(st->first), 1, f) == 1 &&
		     fwrite(&st->starts, sizeof(st->starts), 1, f) == 1 &&
		     fwrite(&st->n, sizeof(st->n), 1, f) == 1 &&
		     fwrite(st->op, sizeof(*st->op), st->n, f) == st->n;
	}
	if (!f || fclose(f) || !ok)
		rp_die("%s: cannot write the operations for callgrind: %s", path, strerror(errno));
}

static void rp_ops_read(const char *path, struct rp_trace *tr)
{
	FILE *f = fopen(path, "r");
	struct rp_stream *st;
	char magic[8];
	int s, ok;

	ok = f && fread(magic, 8, 1, f) == 1 && !memcmp(magic, rp_ops_magic, 8) &&
	     fread(&tr->nsh, sizeof(tr->nsh), 1, f) == 1;
	for (s = 0; ok && s < RP_NR_STREAMS; s++) {
		st = &tr->st[s];
		ok = fread(&st->has_clock, sizeof(st->has_clock), 1, f) == 1 &&
		     fread(&st->first, sizeof(st->first), 1, f) == 1 &&
		     fread(&st->starts, sizeof(st->starts), 1, f) == 1 &&
		     fread(&st->n, sizeof(st->n), 1, f) == 1;
		st->op = ok ? malloc((st->n + 1) * sizeof(*st->op)) : NULL;
		ok = ok && st->op && fread(st->op, sizeof(*st->op), st->n, f) == st->n;
		st->cap = st->n;
	}
	if (!ok)
		rp_die("%s: not the operations this replay wrote", path);
	fclose(f);
}

/* Under callgrind: each engine once per kind of call. */
static void rp_callgrind(const struct rp_trace *tr)
{
	struct rp_result r;
	char what[96];
	unsigned int e;
	int s, c;

	CALLGRIND_START_INSTRUMENTATION;
	for (s = 0; s < RP_NR_STREAMS; s++) {
		for (e = 0; e < rp_nr_engines; e++) {
			if (!rp_replays(e, s))
				continue;
			for (c = 0; c < RP_NR_CALLS; c++) {
				CALLGRIND_ZERO_STATS;
				if (rp_run(&rp_engines[e], &tr->st[s], tr->nsh, c,
					   RP_PLAIN, &r)) {
					o.bad = 1;
					continue;
				}
				snprintf(what, sizeof(what), "%s %s %s", rp_engines[e].name,
					 rp_stream_name[s], rp_call_name[c]);
				CALLGRIND_DUMP_STATS_AT(what);
				printf("calls %s %llu\n", what,
				       (unsigned long long)r.calls[c]);
				free(r.late);
			}
		}
	}
	CALLGRIND_STOP_INSTRUMENTATION;
}

/* The Ir of dump file path, per call, into o.ir, by the calls in calls. */
static void rp_ir_dump(const char *path, const char *calls)
{
	char line[512], what[192] = "", name[64], stream[16], call[16], want[128];
	unsigned long long n, ncalls = 0;
	double ir = -1;
	unsigned int e, s, c;
	const char *p;
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "desc: Trigger: Client Request: %191[^\n]", what) == 1)
			continue;
		if (sscanf(line, "summary: %lf", &ir) == 1)
			break;
	}
	fclose(f);
	if (ir < 0 || sscanf(what, "%63s %15s %15s", name, stream, call) != 3)
		return;
	snprintf(want, sizeof(want), "calls %s ", what);
	for (p = calls; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, want, strlen(want)) &&
		    sscanf(p + strlen(want), "%llu", &n) == 1)
			ncalls = n;
	if (!ncalls)
		return;
	for (e = 0; e < rp_nr_engines; e++)
		for (s = 0; s < RP_NR_STREAMS; s++)
			for (c = 0; c < RP_NR_CALLS; c++)
				if (!strcmp(name, rp_engines[e].name) &&
				    !strcmp(stream, rp_stream_name[s]) &&
				    !strcmp(call, rp_call_name[c]))
					o.ir[e][s][c] = ir / ncalls;
}

/* Reads the whole of a small file; NULL if it cannot. */
static char *rp_slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0;

	if (!f)
		return NULL;
	if (getdelim(&text, &len, '\0', f) < 0) {
		free(text);
		text = NULL;
	}
	fclose(f);
	return text;
}

static void rp_ir_run(const struct rp_trace *tr)
{
	char dir[PATH_MAX], ops[PATH_MAX + 16], out[PATH_MAX + 32], calls[PATH_MAX + 16];
	char err[PATH_MAX + 16], self[PATH_MAX], opt[PATH_MAX + 64], *text, path[PATH_MAX + 300];
	const char *tmp = getenv("TMPDIR");
	double t0 = rp_secs();
	struct dirent *de;
	ssize_t n;
	int st = 0, fd;
	pid_t pid;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/twheel-replay.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0 || !mkdtemp(dir)) {
		fprintf(stderr, RP_PROG ": warning: no callgrind pass (%s): the Ir columns stay \"-\"\n",
			strerror(errno));
		return;
	}
	self[n] = 0;
	snprintf(ops, sizeof(ops), "%s/ops", dir);
	snprintf(out, sizeof(out), "--callgrind-out-file=%s/cg.out", dir);
	snprintf(calls, sizeof(calls), "%s/calls", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	snprintf(opt, sizeof(opt), "--ops-file=%s", ops);
	rp_ops_write(ops, tr);
	pid = fork();
	if (!pid) {
		fd = open(calls, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(fd, 1);
		fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(fd, 2);
		execlp("valgrind", "valgrind", "-q", "--tool=callgrind", "--instr-atstart=no",
		       "--collect-atstart=no", out, self, opt,
		       o.engines ? "-e" : (char *)NULL, o.engines, (char *)NULL);
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, &st, WNOHANG) == 0) {
		rp_progress("callgrind: one replay per engine and kind of call, %.0f s so far",
			    rp_secs() - t0);
		usleep(100000);
	}
	if (pid < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		text = rp_slurp(err);
		rp_progress_end();
		fprintf(stderr, RP_PROG ": warning: the callgrind pass failed (%s): the Ir columns stay \"-\" (--no-callgrind skips it)\n",
			WIFEXITED(st) && WEXITSTATUS(st) == 127 ? "valgrind not found" :
			text && *text ? strtok(text, "\n") : "no message");
		free(text);
	} else {
		text = rp_slurp(calls);
		d = opendir(dir);
		while (d && text && (de = readdir(d)))
			if (!strncmp(de->d_name, "cg.out.", 7)) {
				snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
				rp_ir_dump(path, text);
			}
		if (d)
			closedir(d);
		free(text);
	}
	d = opendir(dir);
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			unlink(path);
		}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* Each engine's replay of a stream, as the tables show it. */

struct rp_row {
	const char *name;
	int kernel, ran, ok, exact;	/* exact: the registry says so */
	struct rp_result r;		/* late freed */
	uint64_t adds, mods, dels, expired, pending, refused, ops;
	double ir_op, ir[RP_NR_CALLS], ns_op;	/* < 0: not known */
	size_t nlate;
	uint64_t early;
	double ontime, p50, p99, max;	/* lateness in the stream's unit */
	struct rp_hist late;
};

/* Lateness is shown in jiffies for timer_list, us for hrtimers (never ns). */
static double rp_unit(int s)
{
	return s == RP_TIMER ? 1 : 1000;
}

static const char *rp_unit_name(int s)
{
	return s == RP_TIMER ? "jiffies" : "us";
}

static int rp_cmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* on time %, p50, p99, max and the histogram of n lateness values (sorted here). */
static void rp_late_row(struct rp_row *w, int s, unsigned long *late, size_t n,
			uint64_t early)
{
	double u = rp_unit(s);
	size_t zero = 0, i;

	w->nlate = n;
	w->early = early;
	w->ontime = -1;
	if (!n)
		return;
	qsort(late, n, sizeof(*late), rp_cmp);
	for (i = 0; i < n; i++) {
		zero += !late[i];
		rp_hist_add(&w->late, late[i] / u, 1);
	}
	w->ontime = 100.0 * zero / (n + early);
	w->p50 = late[(n - 1) / 2] / u;
	w->p99 = late[(n - 1) * 99 / 100] / u;
	w->max = late[n - 1] / u;
}

/* Ir/op over the kinds of call made: known if each of them is. */
static void rp_ir_row(struct rp_row *w, unsigned int e, int s)
{
	double sum = 0;
	int c, known = 1;

	for (c = 0; c < RP_NR_CALLS; c++) {
		w->ir[c] = w->r.calls[c] ? o.ir[e][s][c] : -1;
		if (!w->r.calls[c])
			continue;
		if (o.ir[e][s][c] < 0)
			known = 0;
		else
			sum += o.ir[e][s][c] * w->r.calls[c];
	}
	w->ir_op = known && w->ops ? sum / w->ops : -1;
}

/* The rows of stream s: each engine wanted, then the kernel. Returns how many. */
static int rp_rows(const struct rp_trace *tr, int s, struct rp_row *rows)
{
	const struct rp_stream *st = &tr->st[s];
	const struct rp_kernel *k = &st->k;
	unsigned int e, n = 0, done = 0, todo = 0;
	struct rp_result t;
	struct rp_row *w;
	double best, null;
	int i;

	for (e = 0; e < rp_nr_engines; e++)
		todo += rp_replays(e, s);
	for (e = 0; e < rp_nr_engines; e++) {
		if (!rp_replays(e, s))
			continue;
		rp_progress("%s: replaying through %s (%u of %u engines)", rp_stream_title[s],
			    rp_engines[e].name, ++done, todo);
		w = &rows[n++];
		memset(w, 0, sizeof(*w));
		w->name = rp_engines[e].name;
		w->exact = rp_engines[e].exact;
		w->ir_op = w->ns_op = -1;
		if (rp_run(&rp_engines[e], st, tr->nsh, -1, o.hist ? RP_COST : RP_WORST, &w->r)) {
			o.bad = 1;
			continue;
		}
		w->ran = 1;
		best = null = -1;
		for (i = 0; i < o.repeat; i++) {
			if (!rp_run(&rp_engines[e], st, tr->nsh, -1, RP_TIME, &t) &&
			    (best < 0 || t.ns < best))
				best = t.ns;
			free(t.late);
			if (!rp_run(&rp_engines[e], st, tr->nsh, -1, RP_TIME_NULL, &t) &&
			    (null < 0 || t.ns < null))
				null = t.ns;
			free(t.late);
		}
		w->adds = w->r.st.added;
		w->mods = w->r.st.modified;
		w->dels = w->r.st.deleted;
		w->expired = w->r.st.expired;
		w->pending = twheel_stats_pending(&w->r.st);
		w->refused = w->r.st.refused;
		w->ops = w->r.calls[RP_CALL_ADD] + w->r.calls[RP_CALL_MOD] +
			 w->r.calls[RP_CALL_DEL] + w->r.st.expired;
		rp_ir_row(w, e, s);
		/* no figure when the engine's loop was no slower than the empty one */
		if (best >= 0 && null >= 0 && w->ops && best > null)
			w->ns_op = (best - null) / w->ops;
		rp_late_row(w, s, w->r.late, w->r.nlate, w->r.early);
		free(w->r.late);
		w->r.late = NULL;
		w->ok = w->adds >= w->expired + w->dels && w->pending == w->r.count;
		if (!w->ok)
			o.bad = 1;
	}
	w = &rows[n++];
	memset(w, 0, sizeof(*w));
	w->name = "kernel (trace)";
	w->kernel = 1;
	w->ran = 1;
	w->ok = 1;
	w->ir_op = w->ns_op = -1;
	for (i = 0; i < RP_NR_CALLS; i++)
		w->ir[i] = -1;
	w->adds = k->adds;
	w->mods = k->rearms;
	w->dels = k->dels;
	w->expired = k->expired;
	w->pending = k->pending;
	rp_late_row(w, s, st->late, st->nlate, st->early);
	return n;
}

/*
 * Exact on this trace: it ran every timer at its jiffy (tick, for
 * hrtimers), none early, none late, and refused none. The csv's and
 * json's "exact" and the verdict's "exact engine" are this.
 */
static int rp_exact(const struct rp_row *w)
{
	return !w->early && !w->refused && (!w->nlate || !w->max);
}

/* The verdict: v[0] the cheapest exact engine and modern against the kernel, v[1] early and lost. */
static void rp_verdict(const struct rp_trace *tr, int s, const struct rp_row *rows, int n,
		       char v[2][1024])
{
	const struct rp_row *w, *best = NULL, *next = NULL, *modern = NULL, *kern = &rows[n - 1];
	const char *unit = rp_unit_name(s);
	int by_ir = 0, i, early = 0, refused = 0, broken = 0;
	double m, mb = 0, mn = 0, ms = s == RP_TIMER ? 1000.0 / tr->hz.hz : 0.001;
	size_t l = 0, l2 = 0;

	for (i = 0; i < n - 1; i++)
		by_ir |= rows[i].ran && rows[i].ir_op >= 0;
	for (i = 0; i < n - 1; i++) {
		w = &rows[i];
		if (!strcmp(w->name, "modern") && w->ran)
			modern = w;
		if (!w->ran || !w->ok || !rp_exact(w))
			continue;
		m = by_ir ? w->ir_op : w->ns_op;
		if (m < 0)
			continue;
		if (!best || m < mb) {
			next = best;
			mn = mb;
			best = w;
			mb = m;
		} else if (!next || m < mn) {
			next = w;
			mn = m;
		}
	}
	if (!best)
		l += snprintf(v[0] + l, 1024 - l, "no exact engine with a cost figure");
	else if (!next)
		l += snprintf(v[0] + l, 1024 - l, "cheapest exact engine: %s, %.1f %s (the only exact one with a figure)",
			      best->name, mb, by_ir ? "Ir/op" : "ns/op");
	else
		l += snprintf(v[0] + l, 1024 - l, "cheapest exact engine: %s, %.1f %s, %.1f %% below the next, %s (%.1f)%s",
			      best->name, mb, by_ir ? "Ir/op" : "ns/op",
			      mn > 0 ? 100 * (mn - mb) / mn : 0, next->name, mn,
			      by_ir ? "" : " (no callgrind: native ns, noisy)");
	if (s == RP_TIMER && modern && kern->nlate && modern->nlate) {
		l += snprintf(v[0] + l, 1024 - l, "; modern ran timers %.0f/%.0f/%.0f jiffies late (p50/p99/max, %.1f/%.1f/%.1f ms), the kernel %.0f/%.0f/%.0f: ",
			      modern->p50, modern->p99, modern->max, modern->p50 * ms,
			      modern->p99 * ms, modern->max * ms, kern->p50, kern->p99, kern->max);
		if (modern->p50 - kern->p50 <= 1 && kern->p50 - modern->p50 <= 1 &&
		    modern->p99 - kern->p99 <= 1 && kern->p99 - modern->p99 <= 1)
			snprintf(v[0] + l, 1024 - l, "it filed and fired like the kernel (within a jiffy at p50 and p99)");
		else
			snprintf(v[0] + l, 1024 - l, "it fired %s than the kernel did",
				 modern->p50 + modern->p99 > kern->p50 + kern->p99 ? "later" : "earlier");
	} else if (s == RP_TIMER && modern) {
		snprintf(v[0] + l, 1024 - l, "; the trace shows no kernel expiry to hold modern against");
	} else if (s == RP_HRTIMER && kern->nlate) {
		snprintf(v[0] + l, 1024 - l, "; the kernel ran its hrtimers %.1f/%.1f/%.1f %s late (p50/p99/max)",
			 kern->p50, kern->p99, kern->max, unit);
	}
	l2 += snprintf(v[1] + l2, 1024 - l2, "early:");
	for (i = 0; i < n; i++)
		if (rows[i].early) {
			l2 += snprintf(v[1] + l2, 1024 - l2, "%s %s %llu", early++ ? "," : "",
				       rows[i].kernel ? "the kernel" : rows[i].name,
				       (unsigned long long)rows[i].early);
		}
	l2 += snprintf(v[1] + l2, 1024 - l2, "%s; refused:", early ? "" : " none");
	for (i = 0; i < n - 1; i++)
		if (rows[i].refused)
			l2 += snprintf(v[1] + l2, 1024 - l2, "%s %s %llu", refused++ ? "," : "",
				       rows[i].name, (unsigned long long)rows[i].refused);
	l2 += snprintf(v[1] + l2, 1024 - l2, "%s; lost: ", refused ? "" : " none");
	if (tr->lost_lines || tr->overwritten)
		l2 += snprintf(v[1] + l2, 1024 - l2, "%llu%s events (the kernel's counts miss them)",
			       (unsigned long long)(tr->lost_events + tr->overwritten),
			       tr->lost_unknown ? " and more" : "");
	else
		l2 += snprintf(v[1] + l2, 1024 - l2, "none");
	l2 += snprintf(v[1] + l2, 1024 - l2, "; aged out of the kernel's view: %llu; counters:",
		       (unsigned long long)tr->st[s].k.aged);
	for (i = 0; i < n - 1; i++)
		if (!rows[i].ran || !rows[i].ok)
			l2 += snprintf(v[1] + l2, 1024 - l2, "%s %s %s", broken++ ? "," : "",
				       rows[i].name, rows[i].ran ? "BROKEN" : "could not run");
	snprintf(v[1] + l2, 1024 - l2, "%s", broken ? "" : " ok");
}

/* Cells. */

#define RP_COLS		24
#define RP_CELL		32

struct rp_tab {
	int ncol, nrow;
	const char *head[RP_COLS], *unit[RP_COLS];
	char cell[34][RP_COLS][RP_CELL];
};

static void rp_num(char *c, double v, const char *fmt)
{
	if (v < 0)
		snprintf(c, RP_CELL, "-");
	else
		snprintf(c, RP_CELL, fmt, v);
}

static void rp_u64(char *c, uint64_t v)
{
	snprintf(c, RP_CELL, "%llu", (unsigned long long)v);
}

/*
 * Lateness in its unit: whole jiffies; us to the ns in md, csv and json
 * (an hrtimer 40 ns late is not on time), to 0.1 in text.
 */
static const char *rp_late_fmt(int s)
{
	return s == RP_TIMER ? "%.0f" : o.format == RP_FMT_TEXT ? "%.1f" : "%.3f";
}

static void rp_late(char *c, int s, double v, int have)
{
	if (!have)
		snprintf(c, RP_CELL, "-");
	else
		snprintf(c, RP_CELL, rp_late_fmt(s), v);
}

static void rp_tab_print(const struct rp_tab *t, int md)
{
	int wd[RP_COLS], i, j, l;

	for (j = 0; j < t->ncol; j++) {
		wd[j] = strlen(t->head[j]);
		if (t->unit[j] && (int)strlen(t->unit[j]) > wd[j])
			wd[j] = strlen(t->unit[j]);
		for (i = 0; i < t->nrow; i++) {
			l = strlen(t->cell[i][j]);
			wd[j] = l > wd[j] ? l : wd[j];
		}
	}
	if (md) {
		for (j = 0; j < t->ncol; j++)
			printf("| %-*s ", wd[j], t->head[j]);
		printf("|\n");
		/* the engine's column left, the figures right */
		for (j = 0; j < t->ncol; j++) {
			putchar('|');
			for (l = 0; l < wd[j] + 1; l++)
				putchar('-');
			putchar(j ? ':' : '-');
		}
		printf("|\n");
		for (i = 0; i < t->nrow; i++) {
			for (j = 0; j < t->ncol; j++)
				printf(j ? "| %*s " : "| %-*s ", wd[j], t->cell[i][j]);
			printf("|\n");
		}
		return;
	}
	for (j = 0; j < t->ncol; j++)
		printf(j ? " %*s" : "%-*s", wd[j], t->head[j]);
	printf("\n");
	for (j = 0; j < t->ncol; j++)
		printf(j ? " %*s" : "%-*s", wd[j], t->unit[j] ? t->unit[j] : "");
	printf("\n");
	for (i = 0; i < t->nrow; i++) {
		for (j = 0; j < t->ncol; j++)
			printf(j ? " %*s" : "%-*s", wd[j], t->cell[i][j]);
		printf("\n");
	}
}

/* The md table: today's columns. */
static void rp_tab_md(struct rp_tab *t, int s, const struct rp_row *rows, int n)
{
	static const char *const md_head[2][RP_COLS] = {
		{ "engine", "adds", "mods", "dels", "expired", "pending", "refused", "Ir/op",
		  "Ir/add", "Ir/mod", "Ir/del", "Ir/adv", "ns/op", "cascades", "cascaded",
		  "worst tick", "worst adv us", "on time %", "late p50 (jiffies)",
		  "late p99 (jiffies)", "late max (jiffies)", "early", "counters" },
		{ "engine", "adds", "mods", "dels", "expired", "pending", "refused", "Ir/op",
		  "Ir/add", "Ir/mod", "Ir/del", "Ir/adv", "ns/op", "cascades", "cascaded",
		  "worst tick", "worst adv us", "on time %", "late p50 (us)", "late p99 (us)",
		  "late max (us)", "early", "counters" },
	};
	const struct rp_row *w;
	int i, j, c;

	t->ncol = 23;
	t->nrow = n;
	for (j = 0; j < t->ncol; j++) {
		t->head[j] = md_head[s][j];
		t->unit[j] = NULL;
	}
	for (i = 0; i < n; i++) {
		w = &rows[i];
		for (j = 0; j < t->ncol; j++)
			snprintf(t->cell[i][j], RP_CELL, "-");
		snprintf(t->cell[i][0], RP_CELL, "%s", w->name);
		if (!w->ran) {
			snprintf(t->cell[i][1], RP_CELL, "could not run");
			continue;
		}
		rp_u64(t->cell[i][1], w->adds);
		rp_u64(t->cell[i][2], w->mods);
		rp_u64(t->cell[i][3], w->dels);
		rp_u64(t->cell[i][4], w->expired);
		rp_u64(t->cell[i][5], w->pending);
		if (!w->kernel) {
			rp_u64(t->cell[i][6], w->refused);
			rp_num(t->cell[i][7], w->ir_op, "%.1f");
			for (c = 0; c < RP_NR_CALLS; c++)
				rp_num(t->cell[i][8 + c], w->ir[c], "%.1f");
			rp_num(t->cell[i][12], w->ns_op, "%.1f");
			rp_u64(t->cell[i][13], w->r.st.cascades);
			rp_u64(t->cell[i][14], w->r.st.cascaded);
			rp_u64(t->cell[i][15], w->r.worst_work);
			snprintf(t->cell[i][16], RP_CELL, "%.1f", w->r.worst_ns / 1000);
			snprintf(t->cell[i][22], RP_CELL, "%s", w->ok ? "ok" : "BROKEN");
		}
		rp_num(t->cell[i][17], w->ontime, "%.1f");
		rp_late(t->cell[i][18], s, w->p50, w->nlate);
		rp_late(t->cell[i][19], s, w->p99, w->nlate);
		rp_late(t->cell[i][20], s, w->max, w->nlate);
		rp_u64(t->cell[i][21], w->early);
	}
}

/* The text table: what fits 120 columns, units on a second header line. */
static void rp_tab_text(struct rp_tab *t, int s, const struct rp_row *rows, int n)
{
	static const char *const head[] = { "engine", "adds", "mods", "dels", "expired",
		"refused", "Ir/op", "ns/op", "on time", "late p50", "late p99", "late max", "early" };
	static const int from[] = { 0, 1, 2, 3, 4, 6, 7, 12, 17, 18, 19, 20, 21 };
	struct rp_tab *md = malloc(sizeof(*md));
	int i, j;

	if (!md)
		rp_die("out of memory");
	rp_tab_md(md, s, rows, n);
	t->ncol = ARRAY_SIZE(head);
	t->nrow = n;
	for (j = 0; j < t->ncol; j++) {
		t->head[j] = head[j];
		t->unit[j] = j >= 9 && j <= 11 ? rp_unit_name(s) : j == 8 ? "%" : NULL;
		for (i = 0; i < n; i++)
			memcpy(t->cell[i][j], md->cell[i][from[j]], RP_CELL);
	}
	free(md);
}

static void rp_json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void rp_json_num(const char *key, double v, const char *fmt)
{
	printf(", \"%s\": ", key);
	if (v < 0)
		printf("null");
	else
		printf(fmt, v);
}

static void rp_csv_num(double v, const char *fmt)
{
	putchar(',');
	if (v >= 0)
		printf(fmt, v);
}

/* Why the oracle checked nothing (replay_oracle.c), or how it checked. */
#define RP_OR_NONE	"not checked: the trace's timer_start has no idx= and cpu="

static const char *rp_or_how(const struct rp_oracle *or)
{
	if (!or->idx_only)
		return "checked";
	return or->idx_only == or->starts ? "checked: idx only" :
	       "checked: idx only for some";
}

/*
 * The oracle's cells: on the timer_list kernel row its verdict, checked
 * (idx only where the trace has no bucket_expiry) or "not checked: ...",
 * and its counts; empty on the others.
 */
static void rp_or_csv(const struct rp_oracle *or)
{
	if (!or) {
		printf(",,,,,\n");
		return;
	}
	if (!or->starts) {
		printf(",%s,,,,\n", RP_OR_NONE);
		return;
	}
	printf(",%s,%llu,%llu,%llu,%llu\n", rp_or_how(or),
	       (unsigned long long)or->starts,
	       (unsigned long long)or->n[RP_OR_AGREE],
	       (unsigned long long)(or->n[RP_OR_AHEAD] + or->n[RP_OR_BEHIND]),
	       (unsigned long long)or->n[RP_OR_DISAGREE]);
}

static void rp_out_row(int s, const struct rp_row *w, int first,
		       const struct rp_oracle *or)
{
	const char *lf = rp_late_fmt(s);
	int c;

	if (o.format == RP_FMT_CSV) {
		printf("%s,%s,%s,%s,%llu,%llu,%llu,%llu,%llu", rp_stream_title[s],
		       w->kernel ? "kernel" : w->name, w->kernel ? "" : w->exact ? "yes" : "no",
		       w->ran ? "yes" : "no", (unsigned long long)w->adds,
		       (unsigned long long)w->mods, (unsigned long long)w->dels,
		       (unsigned long long)w->expired, (unsigned long long)w->pending);
		if (w->kernel)
			printf(",,");
		else
			printf(",%llu,%llu", (unsigned long long)w->refused,
			       (unsigned long long)w->ops);
		rp_csv_num(w->ir_op, "%.1f");
		for (c = 0; c < RP_NR_CALLS; c++)
			rp_csv_num(w->ir[c], "%.1f");
		rp_csv_num(w->ns_op, "%.1f");
		printf(",%s", rp_unit_name(s));
		rp_csv_num(w->ontime, "%.1f");
		rp_csv_num(w->nlate ? w->p50 : -1, lf);
		rp_csv_num(w->nlate ? w->p99 : -1, lf);
		rp_csv_num(w->nlate ? w->max : -1, lf);
		printf(",%llu,%s,%s", (unsigned long long)w->early,
		       w->kernel ? "" : rp_exact(w) ? "yes" : "no",
		       w->kernel ? "" : w->ok ? "ok" : "BROKEN");
		rp_or_csv(w->kernel && s == RP_TIMER ? or : NULL);
		return;
	}
	printf("%s    {\"stream\": \"%s\", \"engine\": ", first ? "" : ",\n", rp_stream_title[s]);
	rp_json_str(w->kernel ? "kernel" : w->name);
	if (!w->kernel)
		printf(", \"exact_claimed\": %s", w->exact ? "true" : "false");
	printf(", \"ran\": %s, \"adds\": %llu, \"mods\": %llu, \"dels\": %llu, \"expired\": %llu, \"pending\": %llu",
	       w->ran ? "true" : "false", (unsigned long long)w->adds,
	       (unsigned long long)w->mods, (unsigned long long)w->dels,
	       (unsigned long long)w->expired, (unsigned long long)w->pending);
	if (!w->kernel) {
		printf(", \"refused\": %llu, \"ops\": %llu", (unsigned long long)w->refused,
		       (unsigned long long)w->ops);
		rp_json_num("ir_op", w->ir_op, "%.1f");
		for (c = 0; c < RP_NR_CALLS; c++) {
			char key[16];

			snprintf(key, sizeof(key), "ir_%s", rp_call_name[c]);
			rp_json_num(key, w->ir[c], "%.1f");
		}
		rp_json_num("ns_op", w->ns_op, "%.1f");
	}
	printf(", \"late_unit\": \"%s\"", rp_unit_name(s));
	rp_json_num("on_time_pct", w->ontime, "%.1f");
	rp_json_num("late_p50", w->nlate ? w->p50 : -1, lf);
	rp_json_num("late_p99", w->nlate ? w->p99 : -1, lf);
	rp_json_num("late_max", w->nlate ? w->max : -1, lf);
	printf(", \"early\": %llu", (unsigned long long)w->early);
	if (!w->kernel)
		printf(", \"exact\": %s, \"counters\": \"%s\"",
		       rp_exact(w) ? "true" : "false",
		       w->ok ? "ok" : "BROKEN");
	printf("}");
}

/* rtla's timerlat hist: a row per bucket with a count, then over/count/min/avg/max. */
static void rp_hist_print(const char *title, const struct rp_row *rows, int n,
			  const struct rp_hist *const *h, double width, const char *fmt)
{
	const int per = 12, cw = 9;
	int a, i, j, b, any;

	for (a = 0; a < n; a += per) {
		printf("\n# %s\n%-6s", title, "Index");
		for (j = a; j < n && j < a + per; j++)
			printf(" %*.*s", cw - 1, cw - 1, rows[j].kernel ? "kernel" : rows[j].name);
		printf("\n");
		for (b = 0; b < RP_HIST_N; b++) {
			for (j = a, any = 0; j < n && j < a + per; j++)
				any |= h[j] && h[j]->b[b];
			if (!any)
				continue;
			printf("%-6.0f", b * width);
			for (j = a; j < n && j < a + per; j++)
				printf(" %*llu", cw - 1, h[j] ? (unsigned long long)h[j]->b[b] : 0ULL);
			printf("\n");
		}
		printf("%-6s", "over:");
		for (j = a; j < n && j < a + per; j++)
			printf(" %*llu", cw - 1, h[j] ? (unsigned long long)h[j]->b[RP_HIST_N] : 0ULL);
		printf("\n%-6s", "count:");
		for (j = a; j < n && j < a + per; j++)
			printf(" %*llu", cw - 1, h[j] ? (unsigned long long)h[j]->n : 0ULL);
		for (i = 0; i < 3; i++) {
			printf("\n%-6s", i == 0 ? "min:" : i == 1 ? "avg:" : "max:");
			for (j = a; j < n && j < a + per; j++) {
				if (!h[j] || !h[j]->n)
					printf(" %*s", cw - 1, "-");
				else
					printf(i == 1 ? " %*.1f" : fmt, cw - 1,
					       i == 0 ? h[j]->min : i == 1 ? h[j]->sum / h[j]->n :
					       h[j]->max);
			}
		}
		printf("\n");
	}
}

static void rp_hists(int s, const struct rp_row *rows, int n)
{
	const struct rp_hist *h[34];
	char title[160];
	int i;

	for (i = 0; i < n; i++)
		h[i] = rows[i].ran ? &rows[i].late : NULL;
	snprintf(title, sizeof(title), "%s lateness, %s: a row per %s late (the first %d), a column per engine",
		 rp_stream_title[s], rp_unit_name(s), s == RP_TIMER ? "jiffy" : "us", RP_HIST_N);
	rp_hist_print(title, rows, n, h, 1, s == RP_TIMER ? " %*.0f" : " %*.1f");
	for (i = 0; i < n; i++)
		h[i] = rows[i].ran && !rows[i].kernel ? &rows[i].r.cost : NULL;
	snprintf(title, sizeof(title), "%s cost per call (add, mod, del, advance), ns: a row per %d ns, the clock's own cost taken off",
		 rp_stream_title[s], RP_COST_NS);
	rp_hist_print(title, rows, n - 1, h, RP_COST_NS, " %*.0f");
}

/* Each stream's verdict, kept for json's end. */
static char rp_v[RP_NR_STREAMS][2][1024];
static int rp_said[RP_NR_STREAMS];

/* The oracle (replay_oracle.c): its one line, into v. */
static void rp_or_verdict(const struct rp_oracle *or, char *v, size_t n)
{
	uint64_t ex = or->n[RP_OR_AHEAD] + or->n[RP_OR_BEHIND];
	size_t l;

	if (!or->starts) {
		snprintf(v, n, "%s", RP_OR_NONE);
		return;
	}
	l = snprintf(v, n, "%s: agree %llu at jiffies, %llu at the base clock the trace shows, disagree %llu, of %llu starts",
		     or->n[RP_OR_DISAGREE] ? "modern filed starts elsewhere than the kernel" :
		     ex ? "modern filed every start where the kernel did, some only at the base clock the trace shows" :
		     "modern filed every start where the kernel did",
		     (unsigned long long)or->n[RP_OR_AGREE], (unsigned long long)ex,
		     (unsigned long long)or->n[RP_OR_DISAGREE],
		     (unsigned long long)or->starts);
	if (or->idx_only && l < n)
		l += snprintf(v + l, n - l, or->idx_only == or->starts ?
			      " (idx only: the trace has no bucket_expiry)" :
			      " (%llu idx only: no bucket_expiry)",
			      (unsigned long long)or->idx_only);
	if (or->full && l < n)
		snprintf(v + l, n - l, "; stopped: a base held %u timers, the later starts not checked",
			 RP_OR_LIVE_MAX);
}

/* The oracle's section: the classes, the first disagreements. */
static void rp_or_report(FILE *m, const struct rp_trace *tr)
{
	const struct rp_oracle *or = &tr->oracle;
	uint64_t i, ahead = or->n[RP_OR_AHEAD], behind = or->n[RP_OR_BEHIND];
	const struct rp_or_miss *x;

	if (!or->starts) {
		fprintf(m, "# oracle: %s (6.1 prints them, 6.8 and later bucket_expiry too)\n", RP_OR_NONE);
		return;
	}
	fprintf(m, "# oracle: each timer_start's bucket%s, the kernel's, against modern's, %u levels: %llu starts: agree %llu (at the event's jiffies); explained by the base clock %llu",
		or->idx_only == or->starts ? " (idx only: the trace has no bucket_expiry)" :
		" and bucket_expiry", or->depth, (unsigned long long)or->starts,
		(unsigned long long)or->n[RP_OR_AGREE],
		(unsigned long long)(ahead + behind));
	if (ahead)
		fprintf(m, " (ahead of jiffies, the base running its timers: %llu, up to %lu jiffies",
 (unsigned long long)ahead, or->ahead_max);
	if (behind)
		fprintf(m, "%sbehind, forwarded to a bucket due and not run yet: %llu, up to %lu jiffies, %llu of them deferrable",
			ahead ? "; " : " (", (unsigned long long)behind, or->behind_max,
			(unsigned long long)or->behind_def);
	fprintf(m, "%s; disagree %llu", ahead || behind ? ")" : "",
		(unsigned long long)or->n[RP_OR_DISAGREE]);
	if (or->idx_only && or->idx_only != or->starts)
		fprintf(m, "; %llu of them idx only (no bucket_expiry)",
			(unsigned long long)or->idx_only);
	if (or->unchecked)
		fprintf(m, "; %llu starts without the fields not checked",
			(unsigned long long)or->unchecked);
	if (or->full)
		fprintf(m, "; stopped: a base held %u timers, the later starts not checked",
			RP_OR_LIVE_MAX);
	fprintf(m, "\n");
	for (i = 0; i < or->n[RP_OR_DISAGREE] && i < RP_OR_KEPT; i++) {
		x = &or->miss[i];
		fprintf(m, "# oracle disagrees: line %llu, %llu.%06llu s, timer %llx, expires %lu at jiffies %lu: kernel idx %llu",
			(unsigned long long)x->line,
			(unsigned long long)(x->ts_ns / 1000000000ULL),
			(unsigned long long)(x->ts_ns % 1000000000ULL / 1000),
			(unsigned long long)x->ptr, x->expires, x->jiffies,
			(unsigned long long)x->idx);
		if (x->has_be)
			fprintf(m, " bucket_expiry %lu", x->be);
		fprintf(m, ", modern idx %u bucket_expiry %lu\n", x->ours, x->ours_be);
	}
}

/* The oracle for json (after the verdicts). */
static void rp_or_json(const struct rp_trace *tr)
{
	const struct rp_oracle *or = &tr->oracle;
	const struct rp_or_miss *x;
	char v[1024];
	uint64_t i;

	rp_or_verdict(or, v, sizeof(v));
	printf(",\n  \"oracle\": {\"checked\": %s, \"verdict\": ", or->starts ? "true" : "false");
	rp_json_str(v);
	if (!or->starts) {
		printf("}");
		return;
	}
	printf(", \"levels\": %u, \"starts\": %llu, \"idx_only\": %llu, \"unchecked\": %llu, \"stopped\": %s, \"agree\": %llu, \"explained\": %llu, \"explained_ahead\": %llu, \"explained_behind\": %llu, \"behind_deferrable\": %llu, \"ahead_max\": %lu, \"behind_max\": %lu, \"disagree\": %llu,\n    \"disagreements\": [",
	       or->depth, (unsigned long long)or->starts,
	       (unsigned long long)or->idx_only,
	       (unsigned long long)or->unchecked, or->full ? "true" : "false",
	       (unsigned long long)or->n[RP_OR_AGREE],
	       (unsigned long long)(or->n[RP_OR_AHEAD] + or->n[RP_OR_BEHIND]),
	       (unsigned long long)or->n[RP_OR_AHEAD],
	       (unsigned long long)or->n[RP_OR_BEHIND],
	       (unsigned long long)or->behind_def, or->ahead_max, or->behind_max,
	       (unsigned long long)or->n[RP_OR_DISAGREE]);
	for (i = 0; i < or->n[RP_OR_DISAGREE] && i < RP_OR_KEPT; i++) {
		x = &or->miss[i];
		printf("%s{\"line\": %llu, \"ts_ns\": %llu, \"timer\": \"%llx\", \"expires\": %lu, \"jiffies\": %lu, \"kernel_idx\": %llu, \"kernel_bucket_expiry\": ",
		       i ? ", " : "", (unsigned long long)x->line,
		       (unsigned long long)x->ts_ns, (unsigned long long)x->ptr,
		       x->expires, x->jiffies, (unsigned long long)x->idx);
		if (x->has_be)
			printf("%lu", x->be);
		else
			printf("null");
		printf(", \"modern_idx\": %u, \"modern_bucket_expiry\": %lu}", x->ours, x->ours_be);
	}
	printf("]}");
}

static void rp_stream_out(const struct rp_trace *tr, int s, int *first)
{
	const struct rp_stream *st = &tr->st[s];
	const struct rp_kernel *k = &st->k;
	const char *unit = s == RP_TIMER ? "jiffies" : "ns";
	struct rp_row rows[34];
	struct rp_tab *t;
	char v[2][1024], ov[1024], *buf = NULL;
	size_t len = 0;
	FILE *m;
	int n, i;

	n = rp_rows(tr, s, rows);
	rp_verdict(tr, s, rows, n, v);
	memcpy(rp_v[s], v, sizeof(v));
	rp_said[s] = 1;
	rp_progress_end();
	if (o.format == RP_FMT_CSV || o.format == RP_FMT_JSON) {
		for (i = 0; i < n; i++, *first = 0)
			rp_out_row(s, &rows[i], *first, &tr->oracle);
		return;
	}
	m = open_memstream(&buf, &len);
	if (!m)
		rp_die("out of memory");
	fprintf(m, "\n## %s: %zu operations, %llu starts, ticks in %s, over %lu %s",
		rp_stream_title[s], st->n, (unsigned long long)st->starts, unit,
		st->has_clock ? st->clock - st->first : 0, unit);
	if (s == RP_TIMER)
		fprintf(m, " (1 jiffy = %.3g ms at HZ %lu)", 1000.0 / tr->hz.hz, tr->hz.hz);
	fprintf(m, "\n# kernel: adds %llu, re-arms %llu (%llu with no cancel), deletes %llu, expiries %llu (%llu with no cancel), pending at the end %llu, aged out %llu, cancels and expiries of timers started before the trace %llu, deferrable %llu, armed in the past %llu, wall-clock base %llu, never to expire %llu, another clock %llu\n",
		(unsigned long long)k->adds, (unsigned long long)k->rearms,
		(unsigned long long)k->rearms_nocancel, (unsigned long long)k->dels,
		(unsigned long long)k->expired, (unsigned long long)k->expired_nocancel,
		(unsigned long long)k->pending, (unsigned long long)k->aged,
		(unsigned long long)k->unknown, (unsigned long long)k->deferrable,
		(unsigned long long)k->past, (unsigned long long)k->wall,
		(unsigned long long)k->never, (unsigned long long)k->boot);
	if (s == RP_TIMER)
		rp_or_report(m, tr);
	fclose(m);
	if (o.format == RP_FMT_TEXT)
		rp_wrap(buf);
	else
		fputs(buf, stdout);
	free(buf);
	t = malloc(sizeof(*t));
	if (!t)
		rp_die("out of memory");
	if (o.format == RP_FMT_TEXT)
		rp_tab_text(t, s, rows, n);
	else
		rp_tab_md(t, s, rows, n);
	rp_tab_print(t, o.format == RP_FMT_MD);
	free(t);
	ov[0] = 0;
	if (s == RP_TIMER)
		rp_or_verdict(&tr->oracle, ov, sizeof(ov));
	if (o.format == RP_FMT_MD) {
		printf("\n- verdict: %s\n- %s\n", v[0], v[1]);
		if (ov[0])
			printf("- oracle: %s\n", ov);
	} else {
		buf = NULL;
		m = open_memstream(&buf, &len);
		if (!m)
			rp_die("out of memory");
		fprintf(m, "verdict: %s\n         %s\n", v[0], v[1]);
		if (ov[0])
			fprintf(m, "         oracle: %s\n", ov);
		fclose(m);
		rp_wrap(buf);
		free(buf);
	}
	if (o.hist)
		rp_hists(s, rows, n);
}

/* The verdicts, for json (after the results). */
static void rp_json_verdicts(void)
{
	int s, first = 1;

	printf(",\n  \"verdicts\": {");
	for (s = 0; s < RP_NR_STREAMS; s++) {
		if (!rp_said[s])
			continue;
		printf("%s\n    \"%s\": [", first ? "" : ",", rp_stream_title[s]);
		rp_json_str(rp_v[s][0]);
		printf(", ");
		rp_json_str(rp_v[s][1]);
		printf("]");
		first = 0;
	}
	printf("\n  }");
}

static void rp_usage(FILE *f)
{
	fprintf(f,
"usage: twheel-replay [OPTIONS] TRACE|-\n"
"Replays the timer events of a kernel trace (text of tracefs trace/trace_pipe,\n"
"`trace-cmd report` or `perf script`; plain, gzip or xz; - for standard input)\n"
"through every twheel engine, and prints per stream (timer_list, hrtimer) a table\n"
"of each engine's operations, cost and lateness, the kernel's own row and a verdict.\n"
"\n"
"  -h, --help           this help, on stdout\n"
"  -f, --format=FMT     text, md, csv or json (default: text on a terminal, else md)\n"
"  -e, --engines=A,B    the engines to replay (default: all of the registry;\n"
"                       REPLAY_ENGINES)\n"
"  -r, --repeat=N       native timed runs per engine, the fastest kept (3;\n"
"                       REPLAY_REPEAT)\n"
"      --no-callgrind   no callgrind pass: the Ir columns stay \"-\" (REPLAY_CALLGRIND=0)\n"
"      --callgrind      the callgrind pass, one replay per engine and kind of call\n"
"                       (the default; REPLAY_CALLGRIND=1)\n"
"      --hz=N           the traced machine's HZ, a whole number from %d to %d\n"
"                       (REPLAY_HZ; default: the trace tells it, else %d)\n"
"      --hist           histograms of lateness and per-call cost, rtla timerlat hist\n"
"                       style: a row per bucket, a column per engine, then\n"
"                       over/count/min/avg/max (text and md)\n"
"      --progress       progress on stderr (events, per cent, rate), even when\n"
"                       stderr is not a terminal\n"
"      --no-progress    none, even on a terminal (default: on a terminal, for work\n"
"                       longer than a second)\n"
"  -n, --name=NAME      what the report calls the trace (default: its path)\n"
"      --ops-file=FILE  internal: the callgrind pass replays the operations in FILE\n"
"\n"
"For timer_list the placement oracle sets each timer_start's bucket (idx=, with\n"
"cpu=; bucket_expiry= too where the trace has it, 6.8 and later) against the\n"
"modern engine's, always modern's, whatever -e names: its counts are in the\n"
"report and the verdict's \"oracle:\" line.\n"
"\n"
"Options override the environment variables. Exit status: 0, 1 if an engine's\n"
"counters do not add up, 2 on an error (one line on stderr naming the file);\n"
"the oracle's disagreements do not change it.\n"
"docs/replay.md tells how to record a trace and read the tables.\n",
		RP_HZ_MIN, RP_HZ_MAX, RP_HZ_DEFAULT);
}

/*
 * An HZ: none if unset or empty; else a whole number from RP_HZ_MIN to
 * RP_HZ_MAX in decimal, no sign, no leading zero, nothing after it.
 */
static unsigned int rp_hz_arg(const char *what, const char *s)
{
	unsigned int v = 0, i;

	if (!s || !*s)
		return 0;
	for (i = 0; i < 6 && s[i] >= '0' && s[i] <= '9'; i++)
		v = v * 10 + (s[i] - '0');
	if (s[i] || s[0] == '0' || v < RP_HZ_MIN || v > RP_HZ_MAX)
		rp_die("%s='%s' is not an HZ: give the traced machine's as a whole number from %d to %d (250, 1000, ...), or leave %s unset for the trace to tell it",
		       what, s, RP_HZ_MIN, RP_HZ_MAX, what);
	return v;
}

static int rp_repeat_arg(const char *what, const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < 1 || v > 1000)
		rp_die("%s='%s' is not a number of runs from 1 to 1000", what, s);
	return v;
}

static void rp_options(int argc, char **argv, const char **path)
{
	enum { O_NOCG = 256, O_CG, O_HZ, O_HIST, O_PROG, O_NOPROG, O_OPS };
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "format", required_argument, NULL, 'f' },
		{ "engines", required_argument, NULL, 'e' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "no-callgrind", no_argument, NULL, O_NOCG },
		{ "callgrind", no_argument, NULL, O_CG },
		{ "hz", required_argument, NULL, O_HZ },
		{ "hist", no_argument, NULL, O_HIST },
		{ "progress", no_argument, NULL, O_PROG },
		{ "no-progress", no_argument, NULL, O_NOPROG },
		{ "name", required_argument, NULL, 'n' },
		{ "ops-file", required_argument, NULL, O_OPS },
		{ NULL, 0, NULL, 0 },
	};
	const char *env;
	int c, i;

	env = getenv("REPLAY_REPEAT");
	if (env && *env)
		o.repeat = rp_repeat_arg("REPLAY_REPEAT", env);
	env = getenv("REPLAY_ENGINES");
	if (env && *env)
		o.engines = env;
	env = getenv("REPLAY_CALLGRIND");
	if (env && *env)
		o.callgrind = strcmp(env, "0") != 0;
	o.hz = rp_hz_arg("REPLAY_HZ", getenv("REPLAY_HZ"));
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hf:e:r:n:", lo, NULL)) != -1) {
		switch (c) {
		case 'h':
			rp_usage(stdout);
			exit(0);
		case 'f':
			for (i = 0; i < RP_NR_FMTS && strcmp(optarg, rp_format_name[i]); i++)
				;
			if (i == RP_NR_FMTS)
				rp_die("--format=%s: not text, md, csv or json", optarg);
			o.format = i;
			break;
		case 'e':
			o.engines = optarg;
			break;
		case 'r':
			o.repeat = rp_repeat_arg("--repeat", optarg);
			break;
		case 'n':
			o.name = optarg;
			break;
		case O_NOCG:
			o.callgrind = 0;
			break;
		case O_CG:
			o.callgrind = 1;
			break;
		case O_HZ:
			o.hz = rp_hz_arg("--hz", optarg);
			if (!o.hz)
				rp_die("--hz='' is not an HZ: give the traced machine's as a whole number from %d to %d",
				       RP_HZ_MIN, RP_HZ_MAX);
			break;
		case O_HIST:
			o.hist = 1;
			break;
		case O_PROG:
			o.progress = 1;
			break;
		case O_NOPROG:
			o.progress = 0;
			break;
		case O_OPS:
			o.ops_file = optarg;
			break;
		case ':':
			rp_die("%s needs a value (try --help)", argv[optind - 1]);
		default:
			rp_die("unknown option '%s' (try --help)", argv[optind - 1]);
		}
	}
	if (o.ops_file)
		return;
	if (optind == argc)
		rp_die("no trace given: twheel-replay [OPTIONS] TRACE|- (try --help)");
	if (optind + 1 < argc)
		rp_die("one trace at a time: '%s' and '%s' given", argv[optind], argv[optind + 1]);
	*path = argv[optind];
}

int main(int argc, char **argv)
{
	struct rp_in in = { 0 };
	const char *path = NULL;
	struct rp_trace tr;
	char *head = NULL;
	size_t hlen = 0;
	FILE *m;
	int i, s, first = 1;

	rp_options(argc, argv, &path);
	rp_check_engines();
	if (rp_nr_engines > ARRAY_SIZE(o.ir))
		rp_die("more engines than o.ir has rows");
	for (i = 0; i < (int)(sizeof(o.ir) / sizeof(double)); i++)
		((double *)o.ir)[i] = -1;
	if (rp_init(&tr))
		rp_die("out of memory");
	if (o.ops_file) {
		rp_ops_read(o.ops_file, &tr);
		rp_callgrind(&tr);
		return o.bad;
	}
	if (o.format < 0)
		o.format = isatty(1) ? RP_FMT_TEXT : RP_FMT_MD;
	pg.tty = isatty(2);
	pg.on = o.progress < 0 ? pg.tty : o.progress;
	pg.t0 = rp_secs();
	tr.hz.set = o.hz;
	in.path = path;
	rp_read(&tr, &in);
	rp_unpack_end(&in);
	rp_finish(&tr);
	if (!rp_events(&tr)) {
		if (!in.bytes)
			rp_die("%s: empty%s: no timer events in it", in.name,
			       in.unpack ? " once decompressed" : "");
		rp_die("%s: none of its %llu lines is a timer event: is it the text of tracefs trace/trace_pipe, `trace-cmd report` or `perf script`, with timer:timer_* and timer:hrtimer_* enabled?",
		       in.name, (unsigned long long)tr.lines);
	}
	if (o.callgrind)
		rp_ir_run(&tr);
	m = open_memstream(&head, &hlen);
	if (!m)
		rp_die("out of memory");
	rp_report(m, o.name ? o.name : path, &tr, in.early[0] ? in.early : NULL);
	fclose(m);
	if (o.format == RP_FMT_TEXT)
		rp_wrap(head);
	else if (o.format == RP_FMT_MD)
		fputs(head, stdout);
	else if (in.early[0])
		fprintf(stderr, RP_PROG ": %s\n", in.early);
	if (o.format == RP_FMT_CSV)
		printf("stream,engine,exact_claimed,ran,adds,mods,dels,expired,pending,refused,ops,ir_op,ir_add,ir_mod,ir_del,ir_adv,ns_op,late_unit,on_time_pct,late_p50,late_p99,late_max,early,exact,counters,oracle,oracle_starts,oracle_agree,oracle_explained,oracle_disagree\n");
	if (o.format == RP_FMT_JSON) {
		printf("{\n  \"trace\": ");
		rp_json_str(o.name ? o.name : path);
		printf(",\n  \"hz\": %lu, \"hz_from\": \"%s\",\n  \"lines\": %llu, \"events\": %llu, \"malformed\": %llu, \"lost_events\": %llu,\n  \"header\": ",
		       tr.hz.hz, tr.hz.set ? "set" : tr.hz.told ? "trace" : "assumed",
		       (unsigned long long)tr.lines, (unsigned long long)rp_events(&tr),
		       (unsigned long long)tr.malformed,
		       (unsigned long long)tr.lost_events);
		rp_json_str(head);
		printf(",\n  \"results\": [\n");
	}
	free(head);
	for (s = 0; s < RP_NR_STREAMS; s++)
		if (rp_stream_events(&tr, s))
			rp_stream_out(&tr, s, &first);
	if (o.format == RP_FMT_JSON) {
		printf("\n  ]");
		rp_json_verdicts();
		rp_or_json(&tr);
		printf("\n}\n");
	}
	rp_progress_end();
	rp_free(&tr);
	return o.bad;
}

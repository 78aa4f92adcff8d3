// SPDX-License-Identifier: GPL-2.0
/*
 * twheel-replay's input: the trace files, each read once, plain or
 * through its decompressor (gzip, xz, zstd, bzip2: told by the first
 * bytes) in a pipe, into the replay (rp_line()) in timestamp order.
 *
 * One file whose head (its first RP_HEAD_MAX bytes, all of a shorter one)
 * is in timestamp order is read as it comes: the head calibrated and
 * replayed, the rest line by line, refused if its timestamps go back
 * there. Anything else (several files, a directory of per-CPU files, a
 * file whose head goes back) is read whole and merged by timestamp
 * (replay_order.c), each CPU's lines in their order.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "replay_cmd.h"
#include "replay_order.h"

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
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		rp_die("%s: %s data, and %s cannot be run here (%s): install it, or decompress the file first",
		       in->name, in->unpack, in->unpack, *last ? last : "not found");
	if (!in->bytes)
		rp_die("%s: %s data that does not decompress (%s)", in->name, in->unpack,
		       *last ? last : "no message");
	rp_warn("%s ended early or is damaged (%s): replaying the %llu bytes it decompressed to",
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
		in->name = rp_o.name ? rp_o.name : "standard input";
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
	else if (n >= 4 && !memcmp(head, "\x28\xb5\x2f\xfd", 4))
		in->unpack = "zstd";
	else if (n >= 4 && !memcmp(head, "BZh", 3) && head[3] >= '1' && head[3] <= '9')
		in->unpack = "bzip2";
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
	double f = rp_fraction(in), t = rp_secs() - rp_pg.t0;
	char pct[32] = "";

	if (f >= 0)
		snprintf(pct, sizeof(pct), ", %.0f %%", 100 * (f > 1 ? 1 : f));
	rp_progress("reading %s: %llu events%s, %.0f MiB at %.0f MiB/s", in->name,
		    (unsigned long long)(tr ? rp_events(tr) : 0), pct, in->bytes / 1048576.0,
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

/* All the trace files, and how they were read. */
struct rp_input {
	unsigned int n;
	char *name[RP_MAX_FILES];	/* what errors call each */
	uint64_t bytes;
	struct rp_order ord;
	int whole;			/* read whole and merged (replay_order.c) */
};

/* Whether the events of buf[0, len) go back in time anywhere. */
static int rp_goes_back(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *nl;
	struct tp_event ev;
	uint64_t max = 0;

	while (p < end) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			break;
		if (tp_parse_line(p, nl - p, &ev) == TP_EVENT) {
			if (ev.ts_ns < max)
				return 1;
			max = ev.ts_ns;
		}
		p = nl + 1;
	}
	return 0;
}

/* The whole text of a file whose first len bytes are in *buf (cap allocated). */
static size_t rp_slurp_rest(struct rp_in *in, char **buf, size_t cap, size_t len)
{
	size_t n;
	char *p;

	for (;;) {
		if (len == cap) {
			p = realloc(*buf, cap * 2);
			if (!p)
				rp_die("%s: out of memory reading it whole", in->name);
			*buf = p;
			cap *= 2;
		}
		n = rp_read_some(in, *buf + len, cap - len);
		if (!n)
			return len;
		len += n;
		rp_read_progress(NULL, in);
	}
}

/* The last line of a text has no end of line: cut short. */
static void rp_cut_warn(const char *name, const char *buf, size_t len)
{
	if (!len || buf[len - 1] == '\n')
		return;
	rp_warn("%s: its last line has no end of line (cut short while it was written?): that line is left out",
		name);
}

/* The lines cannot be put in timestamp order: the first that goes back. */
static void __attribute__((noreturn)) rp_stuck(const struct rp_input *in)
{
	const struct rp_order *o = &in->ord;
	char cpu[32];

	if (o->stuck_cpu == TP_NO_CPU)
		snprintf(cpu, sizeof(cpu), "its lines have no CPU column");
	else
		snprintf(cpu, sizeof(cpu), "on CPU %u", o->stuck_cpu);
	rp_die("%s:%llu: timestamps go backwards, %llu.%06llu s after %llu.%06llu s at line %llu, %s: not in an order the replay can merge (each CPU's lines must be in time order)",
	       in->name[RP_AT_FILE(o->stuck_at)], (unsigned long long)RP_AT_NR(o->stuck_at),
	       (unsigned long long)(o->stuck_ts / 1000000000ULL),
	       (unsigned long long)(o->stuck_ts % 1000000000ULL / 1000),
	       (unsigned long long)(o->stuck_prev / 1000000000ULL),
	       (unsigned long long)(o->stuck_prev % 1000000000ULL / 1000),
	       (unsigned long long)RP_AT_NR(o->stuck_prev_at), cpu);
}

/* Texts t[0, n) merged into tr. */
static void rp_merge(struct rp_trace *tr, struct rp_input *in, const struct rp_text *t,
		     unsigned int n)
{
	int r = rp_order_feed(tr, t, n, &in->ord);

	if (r < 0)
		rp_die("%s: out of memory merging the lines", in->name[0]);
	if (r)
		rp_stuck(in);
	in->whole = 1;
}

/*
 * One file: its head in order is calibrated and replayed, the rest taken
 * as it comes; else it is read whole and merged.
 */
static void rp_read_one(struct rp_trace *tr, struct rp_input *inp, struct rp_in *in)
{
	size_t len, n, cut;
	struct rp_text t;
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
	if (len == RP_HEAD_MAX && rp_goes_back(buf, len))
		len = rp_slurp_rest(in, &buf, RP_HEAD_MAX, len);
	if (len < RP_HEAD_MAX || rp_goes_back(buf, len)) {
		t.buf = buf;
		t.len = len;
		rp_unpack_end(in);
		rp_cut_warn(in->name, buf, len);
		rp_merge(tr, inp, &t, 1);
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
	rp_unpack_end(in);
	if (tr->back)
		rp_die("%s:%llu: timestamps go backwards there (%llu.%06llu s after %llu.%06llu s), past the first %lu MiB, which were in order: a file that long is merged only when its start shows it is out of order; give each CPU's lines as a file of its own (per_cpu/cpuN/trace)",
		       in->name, (unsigned long long)tr->back_at,
		       (unsigned long long)(tr->back_ts / 1000000000ULL),
		       (unsigned long long)(tr->back_ts % 1000000000ULL / 1000),
		       (unsigned long long)(tr->back_prev / 1000000000ULL),
		       (unsigned long long)(tr->back_prev % 1000000000ULL / 1000),
		       RP_HEAD_MAX >> 20);
	if (tr->cut)
		rp_warn("%s: its last line has no end of line (cut short while it was written?): that line is left out",
			in->name);
}

/* Several files: each read whole, then merged. */
static void rp_read_all(struct rp_trace *tr, struct rp_input *inp, struct rp_in *in,
			unsigned int n)
{
	struct rp_text *t = calloc(n, sizeof(*t));
	unsigned int f;
	size_t len;
	char *buf;

	if (!t)
		rp_die("out of memory");
	for (f = 0; f < n; f++) {
		buf = malloc(RP_CHUNK);
		if (!buf)
			rp_die("%s: out of memory", in[f].name);
		len = rp_open(&in[f], buf, RP_CHUNK);
		len = rp_slurp_rest(&in[f], &buf, RP_CHUNK, len);
		rp_binary(&in[f], buf, len);
		rp_unpack_end(&in[f]);
		rp_cut_warn(in[f].name, buf, len);
		t[f].buf = buf;
		t[f].len = len;
	}
	rp_merge(tr, inp, t, n);
	for (f = 0; f < n; f++)
		free((char *)t[f].buf);
	free(t);
}

static int rp_name_cmp(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	size_t lx = strlen(x), ly = strlen(y);

	/* cpu2 before cpu10 */
	return lx != ly ? (lx < ly ? -1 : 1) : strcmp(x, y);
}

/*
 * A directory: its per_cpu/cpuN/trace files (a tracefs mount, or a copy
 * of its per_cpu folder), or its cpuN/trace ones, into names from *n.
 */
static void rp_dir(const char *dir, char **names, unsigned int *n)
{
	static const char *const under[] = { "per_cpu/", "" };
	char path[PATH_MAX], *list[RP_MAX_FILES];
	unsigned int i, k, got = 0;
	struct dirent *de;
	struct stat sb;
	DIR *d;

	for (i = 0; i < ARRAY_SIZE(under) && !got; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, under[i]);
		d = opendir(path);
		while (d && (de = readdir(d))) {
			if (strncmp(de->d_name, "cpu", 3) || got == RP_MAX_FILES)
				continue;
			list[got] = malloc(PATH_MAX);
			if (!list[got])
				rp_die("out of memory");
			snprintf(list[got], PATH_MAX, "%s/%s%s/trace", dir, under[i], de->d_name);
			if (stat(list[got], &sb) || !S_ISREG(sb.st_mode))
				free(list[got]);
			else
				got++;
		}
		if (d)
			closedir(d);
	}
	if (!got)
		rp_die("%s: is a directory with no per_cpu/cpuN/trace or cpuN/trace files in it, not a trace file",
		       dir);
	qsort(list, got, sizeof(*list), rp_name_cmp);
	for (k = 0; k < got; k++) {
		if (*n == RP_MAX_FILES)
			rp_die("more than %d trace files", RP_MAX_FILES);
		names[(*n)++] = list[k];
	}
}

/**
 * rp_input_read() - the trace files, in timestamp order, into tr
 * @tr: the trace, after rp_init()
 * @paths: the files as the user gave them ("-": standard input), a
 *	directory standing for its per-CPU files
 * @n: how many
 *
 * Refuses (exit 2) what is not a text trace, and lines that cannot be put
 * in order. Return: what was read, for rp_where() and the report.
 */
struct rp_input *rp_input_read(struct rp_trace *tr, const char *const *paths, int n)
{
	struct rp_input *inp = calloc(1, sizeof(*inp));
	struct rp_in *in;
	struct stat sb;
	unsigned int f;
	int i;

	if (!inp)
		rp_die("out of memory");
	for (i = 0; i < n; i++) {
		if (strcmp(paths[i], "-") && !stat(paths[i], &sb) && S_ISDIR(sb.st_mode)) {
			rp_dir(paths[i], inp->name, &inp->n);
			continue;
		}
		if (inp->n == RP_MAX_FILES)
			rp_die("more than %d trace files", RP_MAX_FILES);
		inp->name[inp->n] = strdup(paths[i]);
		if (!inp->name[inp->n++])
			rp_die("out of memory");
	}
	in = calloc(inp->n, sizeof(*in));
	if (!in)
		rp_die("out of memory");
	for (f = 0; f < inp->n; f++)
		in[f].path = inp->name[f];
	if (inp->n == 1)
		rp_read_one(tr, inp, in);
	else
		rp_read_all(tr, inp, in, inp->n);
	for (f = 0; f < inp->n; f++) {
		inp->bytes += in[f].bytes;
		if (in[f].name != inp->name[f]) {
			free(inp->name[f]);
			inp->name[f] = strdup(in[f].name);
		}
	}
	free(in);
	return inp;
}

void rp_input_free(struct rp_input *in)
{
	unsigned int f;

	for (f = 0; in && f < in->n; f++)
		free(in->name[f]);
	free(in);
}

uint64_t rp_input_bytes(const struct rp_input *in)
{
	return in->bytes;
}

/* How the lines were put in order, for the report: 0 if they were in it. */
const struct rp_order *rp_input_order(const struct rp_input *in, unsigned int *files)
{
	*files = in->n;
	return in->whole ? &in->ord : NULL;
}

/* Line at (RP_AT()) as the user knows it: "LINE" of the one file, else "FILE:LINE". */
const char *rp_where(const struct rp_input *in, uint64_t at, char *buf, size_t n)
{
	unsigned int f = RP_AT_FILE(at);

	if (in && in->n > 1 && f < in->n)
		snprintf(buf, n, "%s:%llu", in->name[f], (unsigned long long)RP_AT_NR(at));
	else
		snprintf(buf, n, "%llu", (unsigned long long)RP_AT_NR(at));
	return buf;
}

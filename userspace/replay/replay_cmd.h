/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twheel-replay, the command: what its files share. Each file holds one
 * concern, and calls go one way:
 *   replay.c         the options and main()
 *   replay_in.c      reading the trace(s): files, decompressors, the
 *                    order of the lines (replay_order.c merges them)
 *   replay_cg.c      the callgrind pass
 *   replay_report.c  the text and md report: header, tables, histograms
 *   replay_json.c    the csv and json report
 *   replay_rows.c    each engine's row of a stream, and the verdicts
 *   replay_util.c    the options' values, progress, errors, string buffers
 * replay.c calls the others; replay_report.c calls replay_json.c and
 * replay_rows.c; every file may call replay_util.c, which calls none.
 */
#ifndef TWHEEL_REPLAY_CMD_H
#define TWHEEL_REPLAY_CMD_H

#include <stdarg.h>
#include <stdio.h>
#include "replay_lib.h"

#define RP_PROG		"twheel-replay"
#define RP_VERSION	"1.1"
/* The head of the trace held for rp_calibrate(); the rest streams. */
#define RP_HEAD_MAX	(16UL << 20)
#define RP_CHUNK	(1UL << 20)
/* What text output fits in. */
#define RP_WIDTH	120
/* The most engines the registry may have, and rows a stream's table. */
#define RP_MAX_ENGINES	32
#define RP_MAX_ROWS	(RP_MAX_ENGINES + 2)
/* The most trace files merged, and warnings kept. */
#define RP_MAX_FILES	256
#define RP_MAX_WARN	32

enum rp_format { RP_FMT_TEXT, RP_FMT_MD, RP_FMT_CSV, RP_FMT_JSON, RP_NR_FMTS };

extern const char *const rp_format_name[RP_NR_FMTS];
extern const char *const rp_stream_name[RP_NR_STREAMS];
extern const char *const rp_stream_title[RP_NR_STREAMS];
extern const char *const rp_call_name[RP_NR_CALLS];

/**
 * struct rp_opts - what the options (and REPLAY_* variables) set
 * @repeat: native timed runs per engine
 * @engines: the engines asked for, "a,b"; NULL: all
 * @ir: Ir per call, per engine, stream and kind of call; -1: not known
 * @bad: an engine's counters did not add up (exit 1)
 * @format: enum rp_format, -1 until decided
 * @hist: --hist
 * @progress: 1 on, 0 off, -1 when stderr is a terminal
 * @callgrind: the callgrind pass is asked for
 * @hz: --hz or REPLAY_HZ, 0 if neither
 * @hz_from: which of the two set @hz
 * @name: what the report calls the trace, NULL: its path(s)
 * @ops_file: the callgrind pass: the operations are read from here
 * @out: -o's file, NULL: standard output
 */
struct rp_opts {
	int repeat;
	const char *engines;
	double ir[RP_MAX_ENGINES][RP_NR_STREAMS][RP_NR_CALLS];
	int bad;
	int format;
	int hist;
	int progress;
	int callgrind;
	unsigned int hz;
	const char *hz_from;
	const char *name;
	const char *ops_file;
	const char *out;
};

extern struct rp_opts rp_o;

/* Progress on stderr, for work longer than a second. */
struct rp_pg {
	int on, tty, shown;
	double t0, last;
};

extern struct rp_pg rp_pg;

double rp_secs(void);
void rp_progress_end(void);
void __attribute__((format(printf, 1, 2))) rp_progress(const char *fmt, ...);
void __attribute__((noreturn, format(printf, 1, 2))) rp_die(const char *fmt, ...);
int rp_wanted(const char *name);
int rp_replays(unsigned int e, int s);

/*
 * A string being built in a buffer of its own: rp_bprintf() appends, and
 * never past the end (what does not fit is cut, and @cut says so).
 */
struct rp_buf {
	char *p;
	size_t cap, len;
	int cut;
};

#define RP_BUF(arr)	((struct rp_buf){ .p = (arr), .cap = sizeof(arr) })

void rp_buf_init(struct rp_buf *b, char *p, size_t cap);
void __attribute__((format(printf, 2, 3))) rp_bprintf(struct rp_buf *b, const char *fmt, ...);

/*
 * The warnings: each said once on stderr as it is found, and kept for the
 * report ("# WARNING: " in text and md, "warnings" in json and csv).
 */
void __attribute__((format(printf, 1, 2))) rp_warn(const char *fmt, ...);
unsigned int rp_warnings(const char *const **list);

/* replay_in.c: every trace file, in timestamp order, into tr. */
struct rp_input;
struct rp_input *rp_input_read(struct rp_trace *tr, const char *const *paths, int n);
void rp_input_free(struct rp_input *in);
/* The user's name of a line, "FILE:LINE" (or "LINE" with one file). */
const char *rp_where(const struct rp_input *in, uint64_t line, char *buf, size_t n);
uint64_t rp_input_bytes(const struct rp_input *in);

/* replay_cg.c */
void rp_ops_read(const char *path, struct rp_trace *tr);
void rp_callgrind(const struct rp_trace *tr);
void rp_ir_run(const struct rp_trace *tr);

/* replay_rows.c */
/*
 * Lateness against a second reference (replay_lib.h's @late_b): @n values
 * (0: no figure), @early of them before it (counted 0 late), @ontime the
 * share 0 late.
 */
struct rp_lat {
	size_t n;
	uint64_t early;
	double ontime, p50, p99, max;
};

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
	struct rp_lat b;		/* against bucket_expiry, hard expiry */
	int64_t deferrable;		/* the kernel's timer_list row; -1 unknown */
};

const char *rp_ref_name(int s, int b);
double rp_unit(int s);
const char *rp_unit_name(int s);
int rp_rows(const struct rp_trace *tr, int s, struct rp_row *rows);
int rp_exact(const struct rp_row *w);
void rp_verdict(const struct rp_trace *tr, int s, const struct rp_row *rows, int n,
		char v[2][1024]);
#define RP_OR_NONE	"not checked: the trace's timer_start has no idx= and cpu="
const char *rp_or_how(const struct rp_oracle *or);
void rp_or_verdict(const struct rp_oracle *or, char *v, size_t n);
uint64_t rp_events(const struct rp_trace *tr);
int rp_cpus(const struct rp_trace *tr, int *nocpu);
uint64_t rp_stream_events(const struct rp_trace *tr, int s);

/* replay_json.c */
const char *rp_late_fmt(int s);
void rp_json_str(const char *s);
void rp_out_row(int s, const struct rp_row *w, int first, const struct rp_oracle *or);
void rp_json_keep(int s, char v[2][1024]);
void rp_json_head(const struct rp_trace *tr, const char *name, const char *head);
void rp_json_end(const struct rp_trace *tr);
void rp_csv_head(void);

/* replay_report.c */
void rp_report(FILE *out, const char *name, const struct rp_trace *tr,
	       const struct rp_input *in);
void rp_wrap(const char *text);
void rp_stream_out(const struct rp_trace *tr, int s, int *first);
void rp_trace_warn(const struct rp_trace *tr, const struct rp_input *in);
struct rp_order;
const struct rp_order *rp_input_order(const struct rp_input *in, unsigned int *files);

#endif /* TWHEEL_REPLAY_CMD_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * twheel-replay: a kernel timer trace played through every engine.
 *
 *   replay [OPTIONS] TRACE|- [TRACE...]  (--help lists them; twheel-replay runs it)
 *
 * TRACE is text in any of the three forms (replay_trace.h): the tracefs files,
 * `trace-cmd report`, `perf script`; plain, gzip, xz, zstd or bzip2 (told
 * by its first bytes: the decompressor runs in a pipe); several files, or
 * a directory of per-CPU ones, are merged by timestamp (replay_in.c). One
 * file in order is read once, as it comes:
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
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "replay_cmd.h"

/* Refuses --engines with a name that is not an engine's, listing those there are. */
static void rp_check_engines(void)
{
	const char *p = rp_o.engines, *end;
	char list[1024];
	struct rp_buf b = RP_BUF(list);
	unsigned int e;
	size_t n;

	for (e = 0; e < rp_nr_engines; e++)
		rp_bprintf(&b, "%s%s", e ? ", " : "", rp_engines[e].name);
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

/* --list-engines: one a line, its name, whether exact, its streams. */
static void rp_list_engines(void)
{
	unsigned int e;

	for (e = 0; e < rp_nr_engines; e++)
		printf("%-12s %-6s %s\n", rp_engines[e].name,
		       rp_engines[e].exact ? "exact" : "late",
		       rp_hrtimer(&rp_engines[e]) ? "timer_list,hrtimer" : "timer_list");
	exit(0);
}

static void rp_usage(FILE *f)
{
	fprintf(f,
"usage: twheel-replay [OPTIONS] TRACE|- [TRACE...]\n"
"Replays the timer events of a kernel trace (text of tracefs trace/trace_pipe,\n"
"`trace-cmd report` or `perf script`; plain, gzip, xz, zstd or bzip2; - for\n"
"standard input) through every twheel engine, and prints per stream (timer_list,\n"
"hrtimer) a table of each engine's operations, cost and lateness, the kernel's own\n"
"row and a verdict. Several TRACEs (one per CPU), or a directory of per-CPU files\n"
"(per_cpu/cpuN/trace, cpuN/trace), are merged by timestamp; so is one file whose\n"
"timestamps go back, each CPU's lines in their order, or it is refused.\n"
"\n"
"  -h, --help           this help, on stdout\n"
"  -V, --version        the version, on stdout\n"
"  -o, --output=FILE    the report into FILE, not stdout\n"
"      --list-engines   the engines (name, exact or late, streams), one a line\n"
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

static int rp_options(int argc, char **argv)
{
	enum { O_NOCG = 256, O_CG, O_HZ, O_HIST, O_PROG, O_NOPROG, O_OPS, O_LIST };
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "output", required_argument, NULL, 'o' },
		{ "list-engines", no_argument, NULL, O_LIST },
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
		rp_o.repeat = rp_repeat_arg("REPLAY_REPEAT", env);
	env = getenv("REPLAY_ENGINES");
	if (env && *env)
		rp_o.engines = env;
	env = getenv("REPLAY_CALLGRIND");
	if (env && *env)
		rp_o.callgrind = strcmp(env, "0") != 0;
	rp_o.hz = rp_hz_arg("REPLAY_HZ", getenv("REPLAY_HZ"));
	rp_o.hz_from = "REPLAY_HZ";
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hVo:f:e:r:n:", lo, NULL)) != -1) {
		switch (c) {
		case 'h':
			rp_usage(stdout);
			exit(0);
		case 'V':
			printf(RP_PROG " %s\n", RP_VERSION);
			exit(0);
		case 'o':
			rp_o.out = optarg;
			break;
		case O_LIST:
			rp_list_engines();
			break;
		case 'f':
			for (i = 0; i < RP_NR_FMTS && strcmp(optarg, rp_format_name[i]); i++)
				;
			if (i == RP_NR_FMTS)
				rp_die("--format=%s: not text, md, csv or json", optarg);
			rp_o.format = i;
			break;
		case 'e':
			rp_o.engines = optarg;
			break;
		case 'r':
			rp_o.repeat = rp_repeat_arg("--repeat", optarg);
			break;
		case 'n':
			rp_o.name = optarg;
			break;
		case O_NOCG:
			rp_o.callgrind = 0;
			break;
		case O_CG:
			rp_o.callgrind = 1;
			break;
		case O_HZ:
			rp_o.hz = rp_hz_arg("--hz", optarg);
			rp_o.hz_from = "--hz";
			if (!rp_o.hz)
				rp_die("--hz='' is not an HZ: give the traced machine's as a whole number from %d to %d",
				       RP_HZ_MIN, RP_HZ_MAX);
			break;
		case O_HIST:
			rp_o.hist = 1;
			break;
		case O_PROG:
			rp_o.progress = 1;
			break;
		case O_NOPROG:
			rp_o.progress = 0;
			break;
		case O_OPS:
			rp_o.ops_file = optarg;
			break;
		case ':':
			rp_die("%s needs a value (try --help)", argv[optind - 1]);
		default:
			rp_die("unknown option '%s' (try --help)", argv[optind - 1]);
		}
	}
	if (rp_o.ops_file)
		return optind;
	if (optind == argc)
		rp_die("no trace given: twheel-replay [OPTIONS] TRACE|- [TRACE...] (try --help)");
	if (argc - optind > RP_MAX_FILES)
		rp_die("more than %d trace files", RP_MAX_FILES);
	return optind;
}

int main(int argc, char **argv)
{
	struct rp_input *in;
	const char *name;
	struct rp_trace tr;
	char *head = NULL;
	size_t hlen = 0;
	int i, s, first = 1, at;
	FILE *m;

	at = rp_options(argc, argv);
	rp_check_engines();
	if (rp_nr_engines > RP_MAX_ENGINES)
		rp_die("more engines than rp_o.ir has rows");
	for (i = 0; i < (int)(sizeof(rp_o.ir) / sizeof(double)); i++)
		((double *)rp_o.ir)[i] = -1;
	if (rp_init(&tr))
		rp_die("out of memory");
	if (rp_o.ops_file) {
		rp_ops_read(rp_o.ops_file, &tr);
		rp_callgrind(&tr);
		return rp_o.bad;
	}
	rp_pg.tty = isatty(2);
	rp_pg.on = rp_o.progress < 0 ? rp_pg.tty : rp_o.progress;
	rp_pg.t0 = rp_secs();
	tr.hz.set = rp_o.hz;
	tr.hz.set_by = rp_o.hz_from;
	in = rp_input_read(&tr, (const char *const *)argv + at, argc - at);
	rp_finish(&tr);
	name = rp_o.name ? rp_o.name : argv[at];
	if (!rp_events(&tr)) {
		if (!rp_input_bytes(in))
			rp_die("%s: empty: no timer events in it", name);
		rp_die("%s: none of its %llu lines is a timer event: is it the text of tracefs trace/trace_pipe, `trace-cmd report` or `perf script`, with timer:timer_* and timer:hrtimer_* enabled?",
		       name, (unsigned long long)tr.lines);
	}
	rp_trace_warn(&tr, in);
	if (rp_o.callgrind)
		rp_ir_run(&tr);
	if (rp_o.out && !freopen(rp_o.out, "w", stdout))
		rp_die("%s: cannot write it: %s", rp_o.out, strerror(errno));
	if (rp_o.format < 0)
		rp_o.format = isatty(1) ? RP_FMT_TEXT : RP_FMT_MD;
	m = open_memstream(&head, &hlen);
	if (!m)
		rp_die("out of memory");
	rp_report(m, name, &tr, in);
	fclose(m);
	if (rp_o.format == RP_FMT_TEXT)
		rp_wrap(head);
	else if (rp_o.format == RP_FMT_MD)
		fputs(head, stdout);
	else if (rp_o.format == RP_FMT_CSV)
		rp_csv_head();
	else
		rp_json_head(&tr, name, head);
	free(head);
	for (s = 0; s < RP_NR_STREAMS; s++)
		if (rp_stream_events(&tr, s))
			rp_stream_out(&tr, s, &first);
	if (rp_o.format == RP_FMT_JSON)
		rp_json_end(&tr);
	rp_progress_end();
	rp_free(&tr);
	rp_input_free(in);
	if (fflush(stdout))
		rp_die("%s: cannot write it: %s", rp_o.out ? rp_o.out : "standard output",
		       strerror(errno));
	return rp_o.bad;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * twheel-replay's callgrind pass: the operations written to a temporary
 * folder under $TMPDIR, this binary run on them under valgrind's
 * callgrind (--ops-file: each engine once per kind of call, collecting
 * that kind only), and the Ir per call read back into rp_o.ir. Without
 * valgrind, or if the pass fails, the Ir columns stay "-" under a
 * warning; SIGINT, SIGTERM or SIGHUP during it stop valgrind and remove
 * the folder before the signal ends the replay.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <valgrind/callgrind.h>
#include "replay_cmd.h"

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

void rp_ops_read(const char *path, struct rp_trace *tr)
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
void rp_callgrind(const struct rp_trace *tr)
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
					rp_o.bad = 1;
					continue;
				}
				snprintf(what, sizeof(what), "%s %s %s", rp_engines[e].name,
					 rp_stream_name[s], rp_call_name[c]);
				CALLGRIND_DUMP_STATS_AT(what);
				printf("calls %s %llu\n", what,
				       (unsigned long long)r.calls[c]);
				rp_result_free(&r);
			}
		}
	}
	CALLGRIND_STOP_INSTRUMENTATION;
}

/* The Ir of dump file path, per call, into rp_o.ir, by the calls in calls. */
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
					rp_o.ir[e][s][c] = ir / ncalls;
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

/* The signal that is to end the replay once the pass is cleaned up. */
static volatile sig_atomic_t rp_cg_sig;

static void rp_cg_catch(int sig)
{
	rp_cg_sig = sig;
}

/* Removes dir and what is in it. */
static void rp_cg_clean(const char *dir)
{
	char path[PATH_MAX + 300];
	struct dirent *de;
	DIR *d = opendir(dir);

	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			unlink(path);
		}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* The Ir per call of every dump in dir, by the calls file's counts. */
static void rp_cg_read(const char *dir, const char *calls)
{
	char path[PATH_MAX + 300], *text = rp_slurp(calls);
	struct dirent *de;
	DIR *d = opendir(dir);

	while (d && text && (de = readdir(d)))
		if (!strncmp(de->d_name, "cg.out.", 7)) {
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			rp_ir_dump(path, text);
		}
	if (d)
		closedir(d);
	free(text);
}

/* Runs valgrind on this binary and the operations in ops; its pid. */
static pid_t rp_cg_spawn(const char *dir, const char *ops, const char *calls,
			 const char *err)
{
	char out[PATH_MAX + 32], self[PATH_MAX], opt[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	pid_t pid;
	int fd;

	if (n <= 0)
		return -1;
	self[n] = 0;
	snprintf(out, sizeof(out), "--callgrind-out-file=%s/cg.out", dir);
	snprintf(opt, sizeof(opt), "--ops-file=%s", ops);
	pid = fork();
	if (!pid) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		fd = open(calls, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(fd, 1);
		fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(fd, 2);
		execlp("valgrind", "valgrind", "-q", "--tool=callgrind", "--instr-atstart=no",
		       "--collect-atstart=no", out, self, opt,
		       rp_o.engines ? "-e" : (char *)NULL, rp_o.engines, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/**
 * rp_ir_run() - the callgrind pass
 * @tr: the trace, its operations made
 */
void rp_ir_run(const struct rp_trace *tr)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	char dir[PATH_MAX], ops[PATH_MAX + 16], calls[PATH_MAX + 16], err[PATH_MAX + 16];
	struct sigaction sa = { .sa_handler = rp_cg_catch }, old[ARRAY_SIZE(sigs)];
	const char *tmp = getenv("TMPDIR");
	double t0 = rp_secs();
	pid_t pid = -1;
	unsigned int i;
	char *text;
	int st = 0;

	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, &old[i]);
	snprintf(dir, sizeof(dir), "%s/twheel-replay.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		rp_warn("no callgrind pass (%s: %s): the Ir columns stay \"-\"", dir,
			strerror(errno));
		goto out;
	}
	snprintf(ops, sizeof(ops), "%s/ops", dir);
	snprintf(calls, sizeof(calls), "%s/calls", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	rp_ops_write(ops, tr);
	if (!rp_cg_sig)
		pid = rp_cg_spawn(dir, ops, calls, err);
	while (pid > 0 && waitpid(pid, &st, WNOHANG) == 0) {
		if (rp_cg_sig) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			break;
		}
		rp_progress("callgrind: one replay per engine and kind of call, %.0f s so far",
			    rp_secs() - t0);
		usleep(100000);
	}
	if (rp_cg_sig) {
		rp_cg_clean(dir);
		goto out;
	}
	if (pid < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		text = rp_slurp(err);
		rp_warn("the callgrind pass failed (%s): the Ir columns stay \"-\" (--no-callgrind skips it)",
			pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 127 ?
			"valgrind is not installed" :
			text && *text ? strtok(text, "\n") : "no message");
		free(text);
	} else {
		rp_cg_read(dir, calls);
	}
	rp_cg_clean(dir);
out:
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &old[i], NULL);
	if (rp_cg_sig)
		raise(rp_cg_sig);
}

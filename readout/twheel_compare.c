// SPDX-License-Identifier: GPL-2.0
/*
 * twheel comparison records: when a run stops, one row per loaded runner
 * (op cost, busy-tick cost, cascades, lateness, counts); debugfs "compare"
 * prints them as one markdown table with ratios to the same run's
 * timer_list row. The columns come from one table, tw_cols[].
 */
#include <linux/kernel.h>
#include <linux/debugfs.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/utsname.h>
#include "readout/twheel_compare.h"
#include "runner/twheel_state.h"
#include "runner/twheel_softirq.h"

/* The values a row holds. */
enum tw_val {
	TW_V_ADD, TW_V_MOD, TW_V_DEL,
	TW_V_TICKS, TW_V_T50, TW_V_T99, TW_V_TMAX, TW_V_PERRUN,
	TW_V_CASC_NS, TW_V_CASC_N,
	TW_V_LJ50, TW_V_LJ99, TW_V_LJMAX,
	TW_V_LN50, TW_V_LN99, TW_V_LNMAX,
	TW_V_RUNS, TW_V_EXPIRED, TW_V_DELETED, TW_V_EARLY,
	TW_NR_VALS
};

#define TW_NA		U64_MAX
#define TW_MAX_ROWS	(12 * TWHEEL_NR_RUNNERS)	/* the last 12 runs at least */

/* How a column prints its values. */
enum tw_fmt {
	TW_F_NUM,	/* the value */
	TW_F_US,	/* ns shown in us, one decimal */
	TW_F_RATIO,	/* each value / timer_list's, '/'-joined, two decimals */
};

/**
 * struct tw_col - one column of the compare table
 * @head: its header, which the scripts find it by
 * @fmt: how it prints
 * @first: the first value it shows
 * @n: how many (ratio columns may show several)
 */
struct tw_col {
	const char *head;
	enum tw_fmt fmt;
	enum tw_val first;
	unsigned int n;
};

#define TW_COL(h, f, v)		{ h, f, v, 1 }
static const struct tw_col tw_cols[] = {
	TW_COL("add ns", TW_F_NUM, TW_V_ADD),
	TW_COL("mod ns", TW_F_NUM, TW_V_MOD),
	TW_COL("del ns", TW_F_NUM, TW_V_DEL),
	{ "add/mod/del x timer_list", TW_F_RATIO, TW_V_ADD, TW_NR_OPS },
	TW_COL("busy ticks", TW_F_NUM, TW_V_TICKS),
	TW_COL("tick p50 ns", TW_F_NUM, TW_V_T50),
	TW_COL("tick p99 ns", TW_F_NUM, TW_V_T99),
	TW_COL("tick max ns", TW_F_NUM, TW_V_TMAX),
	TW_COL("tick ns per run", TW_F_NUM, TW_V_PERRUN),
	TW_COL("tick p99 x timer_list", TW_F_RATIO, TW_V_T99),
	TW_COL("cascade max ns", TW_F_NUM, TW_V_CASC_NS),
	TW_COL("cascaded max", TW_F_NUM, TW_V_CASC_N),
	TW_COL("late p50 j", TW_F_NUM, TW_V_LJ50),
	TW_COL("late p99 j", TW_F_NUM, TW_V_LJ99),
	TW_COL("late max j", TW_F_NUM, TW_V_LJMAX),
	TW_COL("late p50 us", TW_F_US, TW_V_LN50),
	TW_COL("late p99 us", TW_F_US, TW_V_LN99),
	TW_COL("late max us", TW_F_US, TW_V_LNMAX),
	TW_COL("runs", TW_F_NUM, TW_V_RUNS),
	TW_COL("expired", TW_F_NUM, TW_V_EXPIRED),
	TW_COL("deleted", TW_F_NUM, TW_V_DELETED),
	TW_COL("early", TW_F_NUM, TW_V_EARLY),
};

struct tw_row {
	u8 wl, runner;
	u32 count;
	u32 slack, budget;	/* the load's, shown with its name */
	u32 run;		/* which stopped run */
	u64 v[TW_NR_VALS];
};

static struct tw_row tw_rows[TW_MAX_ROWS];	/* under tw_ctl */
static unsigned int tw_nrows;
static u32 tw_run_nr;

/* p50, p99 and max into v[0..2]; "n/a" for an empty histogram, never 0. */
static void tw_row_hist(u64 *v, const struct twheel_hist *h)
{
	if (!h->n) {
		v[0] = TW_NA;
		v[1] = TW_NA;
		v[2] = TW_NA;
		return;
	}
	v[0] = twheel_hist_pct(h, 500);
	v[1] = twheel_hist_pct(h, 990);
	v[2] = h->max;
}

/* Busy tick time per callback run: what one expiry costs, all in. */
static u64 tw_row_perrun(const struct twheel_hist *busy, u64 runs)
{
	return runs ? div64_u64(busy->sum, runs) : TW_NA;
}

/*
 * One row from runner r (the totals of its per-CPU instances, if it has
 * them); rs is scratch space for them, busy for a histogram.
 */
static void tw_row_fill(struct tw_row *row, struct tw_runner *r,
			struct tw_run_stats *rs, struct twheel_hist *busy)
{
	const struct tw_opcost *oc = &r->opcost;
	bool have_busy = true, active;
	struct twheel_stats st;
	int op;

	for (op = 0; op < TW_NR_OPS; op++)
		row->v[TW_V_ADD + op] = oc->n ? div_u64(oc->ns[op], oc->n) : TW_NA;
	row->v[TW_V_CASC_NS] = TW_NA;
	row->v[TW_V_CASC_N] = TW_NA;
	tw_runner_totals(r, &st, rs, &active);
	if (r->ops->caps & TW_CAP_ENGINE) {
		row->v[TW_V_CASC_NS] = rs->cascade_ns.max;
		row->v[TW_V_CASC_N] = rs->cascaded_max;
	}
	if (!r->ops->busy_cost)
		*busy = rs->busy_ns;
	tw_row_hist(&row->v[TW_V_LJ50], &rs->late_j);
	tw_row_hist(&row->v[TW_V_LN50], &rs->late_ns);
	row->v[TW_V_RUNS] = rs->runs;
	row->v[TW_V_EARLY] = rs->early;
	row->v[TW_V_EXPIRED] = st.expired;
	row->v[TW_V_DELETED] = st.deleted;
	/* The kernel's timers: their softirq runs, measured by the probes. */
	if (r->ops->busy_cost)
		have_busy = r->ops->busy_cost(r, busy);
	if (!have_busy) {
		for (op = TW_V_TICKS; op <= TW_V_PERRUN; op++)
			row->v[op] = TW_NA;
		return;
	}
	row->v[TW_V_TICKS] = busy->n;
	tw_row_hist(&row->v[TW_V_T50], busy);
	row->v[TW_V_PERRUN] = tw_row_perrun(busy, row->v[TW_V_RUNS]);
}

/**
 * tw_compare_record_run() - keep the stopped run's comparison rows
 *
 * Appends one row per loaded runner: the workload, its count, slack= and
 * budget=, and the runner's op cost, busy-tick cost, cascades, lateness
 * and counts. When the table is full, whole runs go, the oldest first.
 * Records nothing if its scratch space cannot be allocated. Context:
 * tw_ctl held, at stop; process context.
 */
void tw_compare_record_run(void)
{
	unsigned int n = 0, drop;
	struct twheel_hist *busy;
	struct tw_run_stats *rs;
	struct tw_runner *r;
	struct tw_row *row;

	busy = kmalloc(sizeof(*busy), GFP_KERNEL);
	rs = kvmalloc(sizeof(*rs), GFP_KERNEL);
	if (!busy || !rs) {
		kfree(busy);
		kvfree(rs);
		return;
	}
	tw_for_each_runner(r)
		n += tw_runner_loaded(r);
	while (tw_nrows + n > TW_MAX_ROWS) {
		for (drop = 1; drop < tw_nrows &&
		     tw_rows[drop].run == tw_rows[0].run; drop++)
			;
		tw_nrows -= drop;
		memmove(tw_rows, tw_rows + drop, sizeof(tw_rows[0]) * tw_nrows);
	}
	tw_run_nr++;
	tw_for_each_runner(r) {
		if (!tw_runner_loaded(r))
			continue;
		row = &tw_rows[tw_nrows++];
		row->wl = tw_wl.p.type;
		row->runner = r->id;
		row->count = tw_wl.p.count;
		row->slack = tw_wl.p.slack;
		row->budget = tw_wl.p.budget;
		row->run = tw_run_nr;
		tw_row_fill(row, r, rs, busy);
	}
	kfree(busy);
	kvfree(rs);
}

/**
 * tw_compare_clear() - forget every comparison row (the clear command)
 *
 * Context: tw_ctl held.
 */
void tw_compare_clear(void)
{
	tw_nrows = 0;
}

static void tw_cmp_val(struct seq_file *m, u64 v)
{
	if (v == TW_NA)
		seq_puts(m, " n/a");
	else
		seq_printf(m, " %llu", v);
}

static void tw_cmp_us(struct seq_file *m, u64 ns)
{
	u32 rem;
	u64 us;

	if (ns == TW_NA) {
		seq_puts(m, " n/a");
		return;
	}
	us = div_u64_rem(ns, 1000, &rem);
	seq_printf(m, " %llu.%u", us, rem / 100);
}

/* v as a multiple of ref, two decimals; "n/a" without both. */
static void tw_cmp_ratio(struct seq_file *m, u64 v, u64 ref)
{
	u32 hundredths;
	u64 x;

	if (v == TW_NA || ref == TW_NA || !ref) {
		seq_puts(m, "n/a");
		return;
	}
	x = div64_u64(v * 100 + ref / 2, ref);
	x = div_u64_rem(x, 100, &hundredths);
	seq_printf(m, "%llu.%02u", x, hundredths);
}

static void tw_cmp_cell(struct seq_file *m, const struct tw_col *c,
			const u64 *v, const u64 *ref)
{
	enum tw_val k;

	switch (c->fmt) {
	case TW_F_NUM:
		tw_cmp_val(m, v[c->first]);
		break;
	case TW_F_US:
		tw_cmp_us(m, v[c->first]);
		break;
	case TW_F_RATIO:
		seq_putc(m, ' ');
		for (k = c->first; k < c->first + c->n; k++) {
			if (k != c->first)
				seq_putc(m, '/');
			tw_cmp_ratio(m, v[k], ref[k]);
		}
		break;
	}
	seq_puts(m, " |");
}

/*
 * The timer_list row to compare with: the same run's (a shadow run's is the
 * shadow's, the kernel's real timer_list traffic); else (a sweep loads one
 * runner at a time) the latest one of the same workload and size.
 */
static const struct tw_row *tw_cmp_ref(const struct tw_row *row)
{
	const struct tw_row *same = NULL;
	unsigned int i;

	for (i = 0; i < tw_nrows; i++) {
		if (tw_rows[i].runner != TWHEEL_TIMER_LIST &&
		    tw_rows[i].runner != TWHEEL_SHADOW)
			continue;
		if (tw_rows[i].run == row->run)
			return &tw_rows[i];
		if (tw_rows[i].wl == row->wl && tw_rows[i].count == row->count)
			same = &tw_rows[i];
	}
	return same;
}

static int compare_show(struct seq_file *m, void *unused)
{
	static const u64 na[TW_NR_VALS] = {
		[0 ... TW_NR_VALS - 1] = TW_NA
	};
	const struct tw_row *row, *ref_row;
	const char *why = tw_softirq_unavailable();
	unsigned int i, c;

	mutex_lock(&tw_ctl);
	seq_printf(m, "# twheel comparison: Linux %s, HZ=%d, %u CPUs, %u rows (one per engine and stopped run; 'clear' forgets them)\n",
		   init_utsname()->release, HZ, num_online_cpus(), tw_nrows);
	seq_puts(m, "# ns are this machine's clock: under QEMU TCG they are emulated-CPU time, so compare the engines by the x timer_list ratios of one run\n");
	seq_puts(m, "# op ns: mean per op over the N timers (repeated to >= 16384 ops), batches of 1024 with bottom halves off (bench); tick: ticks that ran or cascaded timers (per run: their total time / callbacks run), for timer_list/hrtimer the TIMER_SOFTIRQ/HRTIMER_SOFTIRQ runs that ran workload callbacks (tracepoints; our own tick subtracted); p50/p99 are interpolated within histogram buckets (1/8 of a power of two wide)\n");
	if (why)
		seq_printf(m, "# kernel softirq cost unavailable: %s\n", why);
	seq_puts(m, "| workload | N | engine |");
	for (c = 0; c < ARRAY_SIZE(tw_cols); c++)
		seq_printf(m, " %s |", tw_cols[c].head);
	seq_puts(m, "\n|---|---:|---|");
	for (c = 0; c < ARRAY_SIZE(tw_cols); c++)
		seq_puts(m, "---:|");
	seq_putc(m, '\n');
	for (i = 0; i < tw_nrows; i++) {
		row = &tw_rows[i];
		ref_row = tw_cmp_ref(row);
		seq_printf(m, "| %s", twheel_wl_names[row->wl]);
		if (row->slack)
			seq_printf(m, " slack=%u", row->slack);
		if (row->budget)
			seq_printf(m, " budget=%u", row->budget);
		seq_printf(m, " | %u | %s |", row->count,
			   twheel_runner_names[row->runner]);
		for (c = 0; c < ARRAY_SIZE(tw_cols); c++)
			tw_cmp_cell(m, &tw_cols[c], row->v,
				    ref_row ? ref_row->v : na);
		seq_putc(m, '\n');
	}
	mutex_unlock(&tw_ctl);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(compare);

/**
 * tw_compare_debugfs() - create the debugfs file "compare"
 * @root: the module's debugfs directory
 *
 * Reading it prints the rows kept as one markdown table, under tw_ctl.
 * Module init.
 */
void tw_compare_debugfs(struct dentry *root)
{
	debugfs_create_file("compare", 0400, root, NULL, &compare_fops);
}

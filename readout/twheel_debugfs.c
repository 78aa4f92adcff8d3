// SPDX-License-Identifier: GPL-2.0
/*
 * twheel read-outs in /sys/kernel/debug/twheel: stats (one block per
 * runner, "key: value" lines from one key table, the totals of its per-CPU
 * instances if it has them, then a block per instance), levels (the modern
 * wheel's level table) and <runner>/occupancy (per level and bucket).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/debugfs.h>
#include <linux/jiffies.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "engines/modern.h"
#include "readout/twheel_debugfs.h"
#include "runner/twheel_state.h"
#include "runner/twheel_softirq.h"
#include "driver/twheel_tick.h"

static const struct tw_config *tw_cfg;	/* the module's parameters */
static unsigned int tw_levels_hz, tw_levels_depth;

static const char *const tw_state_names[] = {
	[TW_EMPTY]	= "empty",
	[TW_LOADED]	= "loaded",
	[TW_RUNNING]	= "running",
};

/* What stats shows of a runner: a snapshot taken under its lock. */
struct tw_snap {
	struct twheel_stats st;
	struct tw_run_stats rs;
	bool active;
};

/* Where a key's value comes from. */
enum tw_key_src {
	TW_SRC_ST,		/* a u64 of struct twheel_stats */
	TW_SRC_RS,		/* a u64 of struct tw_run_stats */
	TW_SRC_INVARIANT,	/* the counters agree (tw_show_key()): ok or BROKEN */
	TW_SRC_RELINKS,		/* modified - mod_noop - mod_inplace */
	TW_SRC_PER_OP,		/* a u64 of struct tw_run_stats per another's */
};

/**
 * struct tw_key - one stats key
 * @key: its name, which the scripts find it by
 * @src: where its value comes from
 * @off: the value's offset in its struct (a histogram's, for tw_hist_keys)
 * @caps: the runner capabilities it needs (TW_CAP_*); 0: every runner
 * @per: TW_SRC_PER_OP: the offset of the u64 of struct tw_run_stats that
 *	the value is per (the ops it is per)
 */
struct tw_key {
	const char *key;
	enum tw_key_src src;
	size_t off;
	unsigned int caps;
	size_t per;
};

#define TW_ST(k, f, c)	{ k, TW_SRC_ST, offsetof(struct twheel_stats, f), c }
#define TW_RS(k, f, c)	{ k, TW_SRC_RS, offsetof(struct tw_run_stats, f), c }
#define TW_PER(k, f, d, c)						\
	{ k, TW_SRC_PER_OP, offsetof(struct tw_run_stats, f), c,		\
	  offsetof(struct tw_run_stats, d) }
#define TW_LK_CAPS	(TW_CAP_LOCKSTAT | TW_CAP_PERCPU)

/* The counters, the invariant, then what the driver measured. */
static const struct tw_key tw_keys[] = {
	TW_ST("added", added, 0),
	TW_ST("deleted", deleted, 0),
	TW_ST("expired", expired, 0),
	TW_ST("modified", modified, 0),
	TW_ST("mod_noop", mod_noop, TW_CAP_ENGINE),
	TW_ST("mod_inplace", mod_inplace, TW_CAP_ENGINE),
	{ "relinks", TW_SRC_RELINKS, 0, TW_CAP_ENGINE },
	TW_ST("cascades", cascades, TW_CAP_ENGINE),
	TW_ST("cascaded", cascaded, TW_CAP_ENGINE),
	TW_ST("refused", refused, TW_CAP_ENGINE),
	TW_ST("lazy_held", lazy_held, TW_CAP_LAZY),
	TW_ST("lazy_held_max", lazy_held_max, TW_CAP_LAZY),
	{ "invariant", TW_SRC_INVARIANT, 0, 0 },
	TW_RS("cascaded_max_tick", cascaded_max, TW_CAP_ENGINE),
	TW_RS("ticks", ticks, TW_CAP_ENGINE),
	TW_RS("catchups", catchups, TW_CAP_ENGINE),
	TW_RS("missed_jiffies", missed, TW_CAP_ENGINE),
	TW_RS("runs", runs, 0),
	TW_RS("runs_exact", exact, 0),
	TW_RS("runs_early", early, 0),
	TW_RS("activity_ops", act_ops, 0),
	TW_RS("activity_ns", act_ns, 0),
	TW_RS("runs_rearmed_inflight", rearmed_inflight, TW_CAP_KERNEL),
	TW_RS("expired_max_tick", expired_max, TW_CAP_ENGINE),
	TW_RS("deferred", deferred, TW_CAP_ENGINE),
	TW_RS("ticks_at_budget", ticks_at_budget, TW_CAP_ENGINE),
	TW_RS("backlog_max", backlog_max, TW_CAP_ENGINE),
	TW_RS("lock_acquired", lock_acquired, TW_CAP_LOCKSTAT),
	TW_RS("lock_contended", lock_contended, TW_CAP_LOCKSTAT),
	TW_RS("lock_wait_total_ns", lock_wait_total_ns, TW_CAP_LOCKSTAT),
	TW_RS("lock_nested", lock_nested, TW_CAP_LOCKSTAT),
	TW_RS("lock_op_acquired", lock_op_acquired, TW_CAP_LOCKSTAT),
	TW_RS("lock_op_contended", lock_op_contended, TW_CAP_LOCKSTAT),
	TW_RS("lock_op_wait_ns", lock_op_wait_ns, TW_CAP_LOCKSTAT),
	TW_PER("lock_per_op_acquired", lock_op_acquired, act_ops, TW_CAP_LOCKSTAT),
	TW_PER("lock_per_op_contended", lock_op_contended, act_ops, TW_CAP_LOCKSTAT),
	TW_PER("lock_per_op_wait_ns", lock_op_wait_ns, act_ops, TW_CAP_LOCKSTAT),
	TW_RS("lock_remote_acquired", lock_remote_acquired, TW_LK_CAPS),
	TW_RS("lock_remote_contended", lock_remote_contended, TW_LK_CAPS),
	TW_RS("lock_remote_wait_ns", lock_remote_wait_ns, TW_LK_CAPS),
	TW_PER("lock_per_remote_op_acquired", lock_remote_acquired, lock_remote_ops, TW_LK_CAPS),
	TW_PER("lock_per_remote_op_contended", lock_remote_contended, lock_remote_ops, TW_LK_CAPS),
	TW_PER("lock_per_remote_op_wait_ns", lock_remote_wait_ns, lock_remote_ops, TW_LK_CAPS),
	TW_RS("remote_ops", remote_ops, TW_CAP_PERCPU),
	TW_RS("on_ops", on_ops, TW_CAP_PERCPU),
	TW_RS("migrations", migrations, TW_CAP_PERCPU),
	TW_RS("pulled", pulled, TW_CAP_PERCPU),
	TW_RS("arms_local", arms_base[TWHEEL_BASE_LOCAL], TW_CAP_BASES),
	TW_RS("arms_global", arms_base[TWHEEL_BASE_GLOBAL], TW_CAP_BASES),
	TW_RS("arms_def", arms_base[TWHEEL_BASE_DEF], TW_CAP_BASES),
	TW_RS("runs_local", runs_base[TWHEEL_BASE_LOCAL], TW_CAP_BASES),
	TW_RS("runs_global", runs_base[TWHEEL_BASE_GLOBAL], TW_CAP_BASES),
	TW_RS("runs_def", runs_base[TWHEEL_BASE_DEF], TW_CAP_BASES),
};

/* Histograms: name_n, _max, _avg, _p50, _p99, _hist each. */
static const struct tw_key tw_hist_keys[] = {
	TW_RS("tick_ns", tick_ns, TW_CAP_ENGINE),
	TW_RS("busy_tick_ns", busy_ns, TW_CAP_ENGINE),
	TW_RS("cascade_ns", cascade_ns, TW_CAP_ENGINE),
	TW_RS("late_jiffies", late_j, 0),
	TW_RS("late_ns", late_ns, 0),
	TW_RS("lock_wait_ns", lock_wait_ns, TW_CAP_LOCKSTAT),
};

static const void *tw_key_ptr(const struct tw_key *k, const struct tw_snap *s)
{
	const void *base = k->src == TW_SRC_ST ? (const void *)&s->st :
						 (const void *)&s->rs;

	return base + k->off;
}

/*
 * A runner with per-CPU instances shows their keys too, totalled; one
 * whose lock is counted, the lock keys.
 */
static bool tw_key_shown(const struct tw_runner *r, const struct tw_key *k)
{
	bool inst = r->inst && (r->caps & TW_CAP_ENGINE);
	unsigned int caps = r->caps | (inst ? TW_CAP_PERCPU : 0) |
			    (inst || r->lockstat ? TW_CAP_LOCKSTAT : 0);

	return (caps & k->caps) == k->caps;
}

/* A count per op, three decimals ("-": no op). */
static void tw_show_per_op(struct seq_file *m, const char *key, u64 v, u64 ops)
{
	u64 whole;
	u32 rem;

	if (!ops) {
		seq_printf(m, "%s: -\n", key);
		return;
	}
	whole = div_u64_rem(tw_per_op_milli(v, ops), 1000, &rem);
	seq_printf(m, "%s: %llu.%03u\n", key, whole, rem);
}

static void tw_show_key(struct seq_file *m, const struct tw_key *k,
			const struct tw_snap *s)
{
	const struct twheel_stats *st = &s->st;

	if (k->src == TW_SRC_RELINKS) {
		seq_printf(m, "%s: %llu\n", k->key,
			   st->modified - st->mod_noop - st->mod_inplace);
		return;
	}
	if (k->src == TW_SRC_PER_OP) {
		tw_show_per_op(m, k->key, *(const u64 *)tw_key_ptr(k, s),
			       *(const u64 *)((const void *)&s->rs + k->per));
		return;
	}
	if (k->src != TW_SRC_INVARIANT) {
		seq_printf(m, "%s: %llu\n", k->key, *(const u64 *)tw_key_ptr(k, s));
		return;
	}
	/*
	 * pending is added - expired - deleted, so it is never below zero;
	 * and the mods with no relink are some of the mods.
	 */
	seq_printf(m, "%s: %s\n", k->key,
		   st->expired + st->deleted <= st->added &&
		   st->mod_noop + st->mod_inplace <= st->modified ?
		   "ok" : "BROKEN");
}

/* The last bench of this load: mean ns per op, or "-" if none ran. */
static void tw_show_opcost(struct seq_file *m, const struct tw_opcost *oc)
{
	static const char *const names[TW_NR_OPS] = { "add", "mod", "del" };
	int op;

	for (op = 0; op < TW_NR_OPS; op++) {
		seq_printf(m, "op_%s_ns: ", names[op]);
		if (oc->n)
			seq_printf(m, "%llu\n", div_u64(oc->ns[op], oc->n));
		else
			seq_puts(m, "-\n");
	}
}

/* The keys of a snapshot, the runner's show op, the blank line after. */
static void tw_show_keys(struct seq_file *m, struct tw_runner *r,
			 const struct tw_snap *s)
{
	unsigned int i;

	seq_printf(m, "pending: %lu\n", twheel_stats_pending(&s->st));
	for (i = 0; i < ARRAY_SIZE(tw_keys); i++)
		if (tw_key_shown(r, &tw_keys[i]))
			tw_show_key(m, &tw_keys[i], s);
	for (i = 0; i < ARRAY_SIZE(tw_hist_keys); i++)
		if (tw_key_shown(r, &tw_hist_keys[i]))
			twheel_hist_show(m, tw_hist_keys[i].key,
					 tw_key_ptr(&tw_hist_keys[i], s));
	if (r->ops->show)
		r->ops->show(m, r);
	seq_putc(m, '\n');
}

/*
 * [<runner>]: the runner's own lines and keys, the totals of its per-CPU
 * instances if it has them; then [<runner>/cpu<N>] for each instance on
 * an online CPU, with its own keys and the lock's.
 */
static void tw_show_runner(struct seq_file *m, struct tw_runner *r,
			   struct tw_snap *s)
{
	struct tw_runner *in;
	unsigned int cpu;

	tw_runner_totals(r, &s->st, &s->rs, &s->active);
	seq_printf(m, "[%s]\n", r->name);
	tw_show_opcost(m, &r->opcost);
	seq_printf(m, "active: %d\n", s->active);
	seq_printf(m, "timers: %u\n", r->nr_timers);
	seq_printf(m, "cost_op_ns: %llu\n", r->cost.op_ns);
	seq_printf(m, "cost_expire_ns: %llu\n", r->cost.expire_ns);
	tw_show_keys(m, r, s);
	/* the kernel's timer_list counts per CPU, but its timers are any CPU's */
	if (!r->inst || !(r->caps & TW_CAP_ENGINE))
		return;
	for_each_online_cpu(cpu) {
		in = tw_runner_on(r, cpu);
		tw_runner_totals(in, &s->st, &s->rs, &s->active);
		seq_printf(m, "[%s/cpu%u]\n", r->name, cpu);
		seq_printf(m, "active: %d\n", s->active);
		tw_show_keys(m, in, s);
	}
}

static int stats_show(struct seq_file *m, void *unused)
{
	const struct twheel_params *p = &tw_wl.p;
	struct tw_runner *r;
	struct tw_snap *s;

	/* Too large for the stack. */
	s = kvmalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	mutex_lock(&tw_ctl);
	seq_printf(m, "# HZ=%d jiffies=%lu tick_jiffies=%u engine_clock=%lu\n",
		   HZ, jiffies, tw_cfg->tick_jiffies,
		   jiffies + tw_cfg->clock_offset);
	seq_printf(m, "workload: %s\n", tw_wl.state == TW_EMPTY ? "none" :
		   twheel_wl_names[p->type]);
	seq_printf(m, "state: %s\n", tw_state_names[tw_wl.state]);
	if (tw_wl.state != TW_EMPTY)
		seq_printf(m, "params: count=%u seed=%llu min=%u max=%u cancel=%u ops=%u duration=%u budget=%u slack=%u remote=%u pinned=%u on=%u deferrable=%u\n",
			   p->count, p->seed, p->min, p->max, p->cancel, p->ops,
			   p->duration, p->budget, p->slack, p->remote, p->pinned, p->on,
			   p->deferrable);
	if (tw_wl.state != TW_EMPTY) {
		seq_printf(m, "demand_per_s: %llu\n", tw_wl.adm.demand_per_s);
		seq_printf(m, "demand_cpu_ms_per_s: %llu\n",
			   div_u64(tw_wl.adm.demand_ns, NSEC_PER_MSEC));
		seq_printf(m, "capacity_per_s: %llu\n", tw_wl.adm.capacity_per_s);
	}
	if (tw_wl.state != TW_EMPTY && tw_wl.ncpus) {
		unsigned int i;

		seq_puts(m, "cpus:");
		for (i = 0; i < tw_wl.ncpus; i++)
			seq_printf(m, " %u", tw_wl.cpu_at[i]);
		seq_putc(m, '\n');
	}
	if (tw_wl.state == TW_RUNNING)
		seq_printf(m, "running_for_jiffies: %lu\n", jiffies - tw_wl.start);
	tw_tick_show(m);
	tw_tick_show_guard(m);
	seq_putc(m, '\n');
	tw_for_each_runner(r)
		tw_show_runner(m, r, s);
	tw_softirq_show(m, &s->rs.tick_ns);
	mutex_unlock(&tw_ctl);
	kvfree(s);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

static int levels_show(struct seq_file *m, void *unused)
{
	struct twheel_level_info li;
	unsigned int lvl, hz = READ_ONCE(tw_levels_hz);
	unsigned int depth = READ_ONCE(tw_levels_depth);

	seq_printf(m, "# modern wheel at HZ %u, %u levels (running: HZ %d, %u levels)\n",
		   hz, depth, HZ, tw_cfg->engine.depth);
	seq_puts(m, "# range_ms: as the comment atop the kernel's kernel/time/timer.c writes it (its quirks included); files_jiffies: the deltas the wheel really files in the level\n");
	seq_puts(m, "level offset  gran_jiffies   gran_ms  range_ms                        files_jiffies\n");
	for (lvl = 0; lvl < depth; lvl++) {
		twheel_level_info(hz, depth, lvl, &li);
		seq_printf(m, "%5u %6u %13lu %9llu  %10llu - %-18llu %lu - ",
			   li.level, li.offset, li.gran, li.gran_ms,
			   li.start_ms, li.table_end_ms, li.file_lo);
		if (li.file_hi == ULONG_MAX)
			seq_puts(m, "max (clamped)\n");
		else
			seq_printf(m, "%lu\n", li.file_hi);
	}
	return 0;
}

static int levels_open(struct inode *inode, struct file *file)
{
	return single_open(file, levels_show, inode->i_private);
}

/* "HZ" or "HZ DEPTH": show the table for another HZ; "0" back to ours. */
static ssize_t levels_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	char buf[32], *p, *tok;
	unsigned int hz, depth;

	if (len >= sizeof(buf)) {
		pr_warn_ratelimited("levels: a write is at most %zu bytes: HZ [DEPTH]\n",
				    sizeof(buf) - 1);
		return -E2BIG;
	}
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	p = strim(buf);
	tok = strsep(&p, " \t");
	if (kstrtouint(tok, 10, &hz) || hz > 100000) {
		pr_warn_ratelimited("levels: write HZ [DEPTH], HZ up to 100000 (0: the running one)\n");
		return -EINVAL;
	}
	if (!hz)
		hz = HZ;
	depth = hz > 100 ? 9 : 8;
	if (p && *skip_spaces(p) &&
	    (kstrtouint(skip_spaces(p), 10, &depth) || depth < 2 ||
	     depth > TW_MODERN_MAX_LEVELS)) {
		pr_warn_ratelimited("levels: DEPTH is 2..%u\n", TW_MODERN_MAX_LEVELS);
		return -EINVAL;
	}
	if (hz == HZ && !(p && *skip_spaces(p)))
		depth = tw_cfg->engine.depth;
	WRITE_ONCE(tw_levels_hz, hz);
	WRITE_ONCE(tw_levels_depth, depth);
	return len;
}

static const struct file_operations levels_fops = {
	.owner		= THIS_MODULE,
	.open		= levels_open,
	.read		= seq_read,
	.write		= levels_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int occupancy_show(struct seq_file *m, void *unused)
{
	struct tw_runner *r = m->private;

	return r->ops->occupancy(m, r);
}
DEFINE_SHOW_ATTRIBUTE(occupancy);

/**
 * tw_readouts_debugfs() - create the read-outs' debugfs files
 * @root: the module's debugfs directory
 * @cfg: the module's configuration; kept, so it must outlive the files
 *
 * Creates "stats", "levels" (the modern wheel's level table, for our HZ
 * and depth until a write asks for another) and, for each runner with an
 * occupancy read-out, <runner>/occupancy. Module init, after the runners
 * are set up.
 */
void tw_readouts_debugfs(struct dentry *root, const struct tw_config *cfg)
{
	struct tw_runner *r;

	tw_cfg = cfg;
	tw_levels_hz = HZ;
	tw_levels_depth = cfg->engine.depth;
	debugfs_create_file("stats", 0400, root, NULL, &stats_fops);
	debugfs_create_file("levels", 0600, root, NULL, &levels_fops);
	tw_for_each_runner(r) {
		if (!r->ops->occupancy)
			continue;
		r->dir = debugfs_create_dir(r->name, root);
		debugfs_create_file("occupancy", 0400, r->dir, r, &occupancy_fops);
	}
}

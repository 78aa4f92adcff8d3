// SPDX-License-Identifier: GPL-2.0
/*
 * twheel module: the engine instances, their locks and the debugfs
 * read-outs under /sys/kernel/debug/twheel.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/jiffies.h>
#include <linux/string.h>
#include "twheel.h"

static char *engines = "classic,modern";
module_param(engines, charp, 0444);
MODULE_PARM_DESC(engines, "comma-separated engines to run: classic,modern,reference");

static unsigned int modern_depth = TW_MODERN_DEFAULT_DEPTH;
module_param(modern_depth, uint, 0444);
MODULE_PARM_DESC(modern_depth, "levels of the modern wheel (2..9; default 9 if HZ > 100, else 8)");

struct tw_instance {
	spinlock_t lock;		/* the engine and its counters */
	struct twheel_engine *e;
	struct dentry *dir;
	union {
		struct twheel_classic classic;
		struct twheel_modern modern;
		struct twheel_reference reference;
	} *u;
};

static struct tw_instance tw_inst[TWHEEL_NR_KINDS];
static struct dentry *tw_root;

static const char *const tw_names[TWHEEL_NR_KINDS] = {
	[TWHEEL_CLASSIC]	= "classic",
	[TWHEEL_MODERN]		= "modern",
	[TWHEEL_REFERENCE]	= "reference",
};

static int tw_parse_engines(const char *list, unsigned long *mask)
{
	char *buf, *p, *tok;
	int i, ret = 0;

	buf = kstrdup(list, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	*mask = 0;
	p = buf;
	while ((tok = strsep(&p, ",")) != NULL) {
		tok = strim(tok);
		if (!*tok)
			continue;
		i = match_string(tw_names, TWHEEL_NR_KINDS, tok);
		if (i < 0) {
			pr_warn("unknown engine '%s' in engines=\n", tok);
			ret = -EINVAL;
			break;
		}
		*mask |= BIT(i);
	}
	kfree(buf);
	if (!ret && !*mask) {
		pr_warn("engines= names no engine\n");
		ret = -EINVAL;
	}
	return ret;
}

static int tw_instance_init(struct tw_instance *in, enum twheel_kind kind)
{
	int ret = 0;

	in->u = kzalloc(sizeof(*in->u), GFP_KERNEL);
	if (!in->u)
		return -ENOMEM;
	spin_lock_init(&in->lock);
	switch (kind) {
	case TWHEEL_CLASSIC:
		twheel_classic_init(&in->u->classic, jiffies);
		in->e = &in->u->classic.e;
		break;
	case TWHEEL_MODERN:
		ret = twheel_modern_init(&in->u->modern, jiffies, modern_depth);
		in->e = &in->u->modern.e;
		break;
	default:
		twheel_reference_init(&in->u->reference, jiffies);
		in->e = &in->u->reference.e;
		break;
	}
	if (ret) {
		pr_warn("modern_depth=%u out of range (2..%u)\n", modern_depth,
			TW_MODERN_MAX_LEVELS);
		kfree(in->u);
		in->u = NULL;
		in->e = NULL;
	}
	return ret;
}

/* ---- debugfs ---- */

static void tw_show_engine(struct seq_file *m, struct tw_instance *in)
{
	struct twheel_stats st;
	unsigned long clk;
	unsigned int i, levels;

	spin_lock_bh(&in->lock);
	st = in->e->st;
	clk = in->e->clk;
	levels = in->e->nr_levels;
	spin_unlock_bh(&in->lock);

	seq_printf(m, "engine: %s\n", in->e->ops->name);
	seq_printf(m, "levels: %u\n", levels);
	seq_printf(m, "clk: %lu\n", clk);
	seq_printf(m, "pending: %lu\n", st.pending);
	seq_printf(m, "added: %llu\n", st.added);
	seq_printf(m, "deleted: %llu\n", st.deleted);
	seq_printf(m, "modified: %llu\n", st.modified);
	seq_printf(m, "mod_noop: %llu\n", st.mod_noop);
	seq_printf(m, "mod_inplace: %llu\n", st.mod_inplace);
	seq_printf(m, "expired: %llu\n", st.expired);
	seq_printf(m, "cascades: %llu\n", st.cascades);
	seq_printf(m, "cascaded: %llu\n", st.cascaded);
	seq_printf(m, "advances: %llu\n", st.advances);
	seq_printf(m, "events: %llu\n", st.events);
	seq_puts(m, "level_pending:");
	for (i = 0; i < levels; i++)
		seq_printf(m, " %u", st.level_pending[i]);
	seq_puts(m, "\n\n");
}

static int stats_show(struct seq_file *m, void *unused)
{
	int k;

	seq_printf(m, "# HZ=%d jiffies=%lu\n\n", HZ, jiffies);
	for (k = 0; k < TWHEEL_NR_KINDS; k++)
		if (tw_inst[k].e)
			tw_show_engine(m, &tw_inst[k]);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

static void tw_show_levels(struct seq_file *m, unsigned int hz,
			   unsigned int depth)
{
	struct twheel_level_info li;
	unsigned int lvl;

	seq_printf(m, "# modern wheel at HZ %u, %u levels; ranges as the kernel's table gives them,\n",
		   hz, depth);
	seq_puts(m, "# 'files' = the deltas (jiffies) actually filed in the level\n");
	seq_puts(m, "level offset  gran_jiffies   gran_ms  range_ms                        files_jiffies\n");
	for (lvl = 0; lvl < depth; lvl++) {
		twheel_level_info(hz, depth, lvl, &li);
		seq_printf(m, "%5u %6u %13lu %9llu  %10llu - %-18llu %lu - ",
			   li.level, li.offset, li.gran, li.gran_ms,
			   li.start_ms, li.end_ms, li.file_lo);
		if (li.file_hi == ULONG_MAX)
			seq_puts(m, "max (clamped)\n");
		else
			seq_printf(m, "%lu\n", li.file_hi);
	}
}

static int levels_show(struct seq_file *m, void *unused)
{
	tw_show_levels(m, HZ, modern_depth);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(levels);

static int occupancy_show(struct seq_file *m, void *unused)
{
	struct tw_instance *in = m->private;
	struct twheel_stats st;
	unsigned int i, levels;

	spin_lock_bh(&in->lock);
	st = in->e->st;
	levels = in->e->nr_levels;
	spin_unlock_bh(&in->lock);

	seq_puts(m, "level pending\n");
	for (i = 0; i < levels; i++)
		seq_printf(m, "%5u %lu\n", i, (unsigned long)st.level_pending[i]);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(occupancy);

static void tw_debugfs_init(void)
{
	int k;

	tw_root = debugfs_create_dir("twheel", NULL);
	debugfs_create_file("stats", 0400, tw_root, NULL, &stats_fops);
	debugfs_create_file("levels", 0400, tw_root, NULL, &levels_fops);
	for (k = 0; k < TWHEEL_NR_KINDS; k++) {
		if (!tw_inst[k].e)
			continue;
		tw_inst[k].dir = debugfs_create_dir(tw_names[k], tw_root);
		debugfs_create_file("occupancy", 0400, tw_inst[k].dir,
				    &tw_inst[k], &occupancy_fops);
	}
}

static void tw_free_all(void)
{
	int k;

	for (k = 0; k < TWHEEL_NR_KINDS; k++) {
		kfree(tw_inst[k].u);
		tw_inst[k].u = NULL;
		tw_inst[k].e = NULL;
	}
}

static int __init twheel_init(void)
{
	unsigned long mask;
	int k, ret;

	ret = tw_parse_engines(engines, &mask);
	if (ret)
		return ret;
	for (k = 0; k < TWHEEL_NR_KINDS; k++) {
		if (!(mask & BIT(k)))
			continue;
		ret = tw_instance_init(&tw_inst[k], k);
		if (ret) {
			tw_free_all();
			return ret;
		}
	}
	tw_debugfs_init();
	pr_info("loaded: HZ=%d, engines=%s, modern depth %u\n", HZ, engines,
		modern_depth);
	return 0;
}

static void __exit twheel_exit(void)
{
	debugfs_remove_recursive(tw_root);
	tw_free_all();
	pr_info("unloaded\n");
}

module_init(twheel_init);
module_exit(twheel_exit);

MODULE_DESCRIPTION("Timer wheels side by side: classic, modern and a reference");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * twheel module: its parameters, init and exit, the control state machine
 * and the control file /sys/kernel/debug/twheel/control (the map of the
 * module's files and layers: docs/hacking.md).
 *
 * Locking: tw_ctl (a mutex) serialises control commands and the read-outs
 * that need a stable state (twheel_state.h); each runner has a spinlock
 * (twheel_runner.h). Workload timers are freed only with the tick and
 * every kernel timer cancelled synchronously: no callback can touch them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/preempt.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "engines/modern.h"
#include "engines/params.h"
#include "driver/twheel_bench.h"
#include "readout/twheel_compare.h"
#include "readout/twheel_debugfs.h"
#include "runner/twheel_state.h"
#include "runner/twheel_softirq.h"
#include "shadow/twheel_shadow.h"
#include "driver/twheel_tick.h"

/*
 * The one table of runners: each runner's ops by its id (the order of
 * twheel_runner_names[]). Assembled here, above every layer that provides
 * a runner: the runner layer's engines and kernel timers, the shadow.
 */
static const struct tw_runner_ops *const tw_runner_impl[TWHEEL_NR_RUNNERS] = {
	/* every engine of the registry (engines/list.h) */
#define TW_RUNNER_OPS_AT(NAME, ...) \
	[TWHEEL_##NAME] = &tw_engine_runner_ops_of[TWHEEL_##NAME]
#define TWHEEL_ENGINE(name, NAME, path, exact)	TW_RUNNER_OPS_AT(NAME, name, path, exact),
#include "engines/list.h"
#undef TWHEEL_ENGINE
#undef TW_RUNNER_OPS_AT
	[TWHEEL_TIMER_LIST]	= &tw_timer_list_runner_ops,
	[TWHEEL_HRTIMER]	= &tw_hrtimer_runner_ops,
	[TWHEEL_SHADOW]		= &tw_shadow_runner_ops,
};

static unsigned int percpu;
module_param(percpu, uint, 0444);
MODULE_PARM_DESC(percpu, "1: every engine has an instance per CPU, each with its lock and its pinned tick; workloads spread over cpus= (default every online CPU); 0: one instance (default)");

static char *engines = "classic,modern,timer_list,hrtimer";
module_param(engines, charp, 0444);
/* TW_ENGINE_NAMES: the registry's names (engines/list.h), from Kbuild. */
MODULE_PARM_DESC(engines, "what workloads run on: " TW_ENGINE_NAMES
		 ",timer_list,hrtimer,shadow, or all (shadow: the kernel's timer_list traffic, mirrored into the engines)");

/*
 * The engines' parameters (engines/param_list.h), members of tw_ecfg. Each
 * ends in a build-time check of its default: a function, as the kernel's
 * param_check_*() are, so the list needs no separator.
 */
static struct twheel_config tw_ecfg = {
#define TWHEEL_PARAM(field, def, ...)	.field = def,
#include "engines/param_list.h"
#undef TWHEEL_PARAM
};

#define TWHEEL_PARAM(field, def, min, max, pow2, desc, name)		\
	module_param_named(name, tw_ecfg.field, uint, 0444);		\
	MODULE_INFO(parm, #name ":" desc);				\
	static inline void __maybe_unused tw_param_check_##field(void)	\
	{								\
		enum { d = (def) };					\
		static_assert(d >= (min) && d <= (max) &&		\
			      (!(pow2) || !(d & (d - 1))));		\
	}
#include "engines/param_list.h"
#undef TWHEEL_PARAM

static unsigned int tick_jiffies = 1;
module_param(tick_jiffies, uint, 0444);
MODULE_PARM_DESC(tick_jiffies, "the driver ticks every this many jiffies (1..HZ; default 1)");

static char *tick = "periodic";
module_param(tick, charp, 0444);
MODULE_PARM_DESC(tick, "periodic: the driver ticks every tick_jiffies; nohz: it sleeps until an engine's next event (default periodic)");

static unsigned int pull = 1;
module_param(pull, uint, 0444);
MODULE_PARM_DESC(pull, "with tick=nohz and percpu=1: 1, a CPU whose tick sleeps leaves its timers (not a pinned= or deferrable= load's) to a CPU awake, which expires them, as the kernel's timer migration does (default); 0: each CPU wakes for its own");

static unsigned int budget;
module_param(budget, uint, 0444);
MODULE_PARM_DESC(budget, "our engines' work per tick when a load gives no budget= (callbacks and cascaded timers; 0: no limit, the default)");

static unsigned int wrap_secs;
module_param(wrap_secs, uint, 0444);
MODULE_PARM_DESC(wrap_secs, "test only: the engines' clock wraps this many seconds after load (0: engines use jiffies)");

static struct tw_config tw_cfg;
static struct dentry *tw_root;

/*
 * The control state machine (tw_wl.state, under tw_ctl):
 *
 *            load                 start
 *   EMPTY ----------> LOADED ------------> RUNNING
 *     ^   <----------  |  ^  <------------    |
 *     |     unload     |  |      stop         |
 *     |                |  +--- load, bench,   |  (duration up: activity
 *     +----------------+       reset, clear   |   ends, still RUNNING
 *          load (fails: state unchanged)      |   until stop)
 *
 * reset and clear are accepted in every state; load, bench and unload
 * are refused with -EBUSY while RUNNING, start with -EINVAL when EMPTY.
 */

/*
 * The runners a load of p runs on, from those asked for: a shadow load
 * mirrors the kernel's traffic (the shadow runner) into our engines only;
 * the other workloads run on everything but the shadow. 0: refused.
 */
static unsigned long tw_load_mask(const struct twheel_params *p,
				  unsigned long mask)
{
	unsigned long engines = BIT(TWHEEL_NR_KINDS) - 1;

	if (p->type != TWHEEL_WL_SHADOW) {
		mask &= ~BIT(TWHEEL_SHADOW);
		if (!mask)
			pr_warn_ratelimited("load: %s runs on engines or kernel timers, not on the shadow\n",
					    twheel_wl_names[p->type]);
		return mask;
	}
	if (!(tw_runner_mask & BIT(TWHEEL_SHADOW))) {
		pr_warn_ratelimited("load shadow: the module was loaded without the shadow (engines=...,shadow)\n");
		return 0;
	}
	if (p->engines & ~(engines | BIT(TWHEEL_SHADOW))) {
		pr_warn_ratelimited("load shadow: engines= names a kernel timer runner; the shadow mirrors into engines only\n");
		return 0;
	}
	return (mask & engines) | BIT(TWHEEL_SHADOW);
}

/*
 * Whether every arming of p stays below the clamp of the wheels in mask
 * that clamp: the modern wheel's (its depth) and the kernel's timer_list
 * (the kernel's own depth). A clamped timer runs before its expiry, which
 * no run of a workload may show; classic clamps only beyond 2^32 - 1,
 * above any max=. 0, or -EINVAL with the reason logged.
 */
static int tw_load_unclamped(const struct twheel_params *p, unsigned long mask)
{
	u64 reach = (u64)p->max + twheel_wl_slack(p, p->max);
	unsigned long cut;

	if (p->type == TWHEEL_WL_SHADOW)
		return 0;
	if (mask & BIT(TWHEEL_MODERN)) {
		cut = tw_lvl_start(tw_ecfg.depth);
		if (reach >= cut) {
			pr_warn_ratelimited("load: max=%u%s reaches %llu jiffies: the modern wheel (%u levels) clamps deltas from %lu on, and a clamped timer runs early\n",
					    p->max, p->slack ? " with its slack" : "",
					    reach, tw_ecfg.depth, cut);
			return -EINVAL;
		}
	}
	if (mask & BIT(TWHEEL_TIMER_LIST)) {
		cut = tw_lvl_start(TW_MODERN_DEFAULT_DEPTH);
		if (p->max >= cut) {
			pr_warn_ratelimited("load: max=%u: the kernel's timer_list clamps deltas from %lu jiffies on (HZ=%d), and a clamped timer runs early\n",
					    p->max, cut, HZ);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * load: admission first (what the load asks of the machine), then new
 * timers for the runners p asks for; the tick stops meanwhile.
 */
static int tw_ctl_load(const struct twheel_params *given)
{
	unsigned long mask = given->engines ? given->engines : tw_runner_mask;
	struct twheel_params params = *given, *p = &params;
	struct tw_admission adm;
	int ret;

	if (!(p->set & BIT(TWHEEL_KEY_BUDGET)))
		p->budget = budget;
	if (mask & ~tw_runner_mask) {
		pr_warn_ratelimited("load: engines= names an engine the module was not loaded with (engines=%s)\n",
				    engines);
		return -EINVAL;
	}
	mask = tw_load_mask(p, mask);
	if (!mask)
		return -EINVAL;
	ret = tw_load_unclamped(p, mask);
	if (ret)
		return ret;
	ret = tw_runners_admit(p, mask, &adm);
	if (ret)
		return ret;
	tw_tick_cancel();
	if (tw_wl.state != TW_EMPTY)
		tw_runners_disarm();
	ret = tw_runners_load(p, mask);
	if (!ret) {
		tw_softirq_reset();
		tw_wl.adm = adm;
		tw_wl.state = TW_LOADED;
	}
	tw_tick_start();
	return ret;
}

static int tw_ctl_start(void)
{
	int ret;

	/*
	 * Same base jiffy on every runner, so the same expiries everywhere;
	 * and no tick while arming, so no engine moves past the base and
	 * takes a timer armed from it as one in the past. The first tick
	 * afterwards catches up (counted in catchups).
	 */
	tw_tick_cancel();
	/*
	 * tick=nohz may have slept through seconds with nothing due: every
	 * engine's clock to now first, so that each timer is filed by its
	 * delta from the present (from a stale clock the modern wheel would
	 * file a short timer in a coarse level). Nothing is armed: nothing
	 * runs.
	 */
	tw_runners_tick(jiffies);
	/* Each run counts alone (nothing is armed before a start). */
	tw_runners_reset_counters();
	tw_softirq_reset();
	tw_wl.start = jiffies;
	tw_wl.ticks_run = 0;
	tw_runners_arm_all(tw_wl.start);
	/* The shadow's probes: refused, nothing was armed (it arms nothing). */
	ret = tw_runners_activate(true);
	if (ret) {
		tw_tick_start();
		return ret;
	}
	tw_runners_set_active(true);
	/*
	 * The tick only once the activity is on: one that ran while the
	 * shadow's probes recorded but the activity was not on yet took the
	 * run for ended, and the shadow stopped recording before its first
	 * event. Nothing delays the tick's start past the activity's.
	 */
	preempt_disable();
	tw_guard_restart();
	/* a re-arm that sees the activity on sees the guard begun now */
	smp_store_release(&tw_wl.activity, true);
	tw_tick_start();
	preempt_enable();
	tw_runners_rearm_ran();
	tw_tick_rearmed();
	tw_wl.state = TW_RUNNING;
	return 0;
}

static void tw_ctl_stop(void)
{
	WRITE_ONCE(tw_wl.activity, false);
	tw_runners_set_active(false);
	tw_runners_activate(false);
	tw_compare_record_run();
	tw_runners_disarm();
	tw_wl.state = TW_LOADED;
}

static void tw_ctl_unload(void)
{
	tw_tick_cancel();
	tw_runners_disarm();
	tw_runners_free_timers();
	tw_wl.state = TW_EMPTY;
	tw_tick_start();
}

static const char *tw_ctl_why(void)
{
	return tw_wl.state == TW_RUNNING ? "a workload is running; stop it first" :
					   "no workload loaded";
}

/* -EBUSY while running, -EINVAL with nothing loaded. */
static int tw_ctl_refuse(const char *verb)
{
	pr_warn_ratelimited("%s: %s\n", verb, tw_ctl_why());
	return tw_wl.state == TW_RUNNING ? -EBUSY : -EINVAL;
}

static int tw_ctl_exec(const struct twheel_cmd *cmd)
{
	switch (cmd->verb) {
	case TWHEEL_CMD_LOAD:
		if (tw_wl.state == TW_RUNNING)
			return tw_ctl_refuse("load");
		return tw_ctl_load(&cmd->p);
	case TWHEEL_CMD_START:
		if (tw_wl.state == TW_RUNNING) {
			pr_warn_ratelimited("start: already running\n");
			return -EBUSY;
		}
		if (tw_wl.state != TW_LOADED)
			return tw_ctl_refuse("start");
		return tw_ctl_start();
	case TWHEEL_CMD_STOP:
		if (tw_wl.state != TW_RUNNING) {
			pr_warn_ratelimited("stop: nothing is running\n");
			return -EINVAL;
		}
		tw_ctl_stop();
		return 0;
	case TWHEEL_CMD_RESET:
		tw_runners_reset_counters();
		tw_softirq_reset();
		return 0;
	case TWHEEL_CMD_BENCH:
		if (tw_wl.state != TW_LOADED)
			return tw_ctl_refuse("bench");
		if (tw_wl.p.type == TWHEEL_WL_SHADOW) {
			pr_warn_ratelimited("bench: a shadow load has no timers of its own to time\n");
			return -EINVAL;
		}
		tw_bench();
		return 0;
	case TWHEEL_CMD_CLEAR:
		tw_compare_clear();
		return 0;
	case TWHEEL_CMD_UNLOAD:
		if (tw_wl.state == TW_RUNNING)
			return tw_ctl_refuse("unload");
		tw_ctl_unload();
		return 0;
	}
	return -EINVAL;
}

static ssize_t control_write(struct file *file, const char __user *ubuf,
			     size_t len, loff_t *ppos)
{
	struct twheel_cmd cmd;
	char buf[TWHEEL_CMD_MAX], why[160];
	int ret;

	if (len >= sizeof(buf)) {
		pr_warn_ratelimited("control: a command is at most %zu bytes\n",
				    sizeof(buf) - 1);
		return -E2BIG;
	}
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (strlen(buf) != len) {
		pr_warn_ratelimited("control: NUL byte in the command\n");
		return -EINVAL;
	}
	why[0] = '\0';
	ret = twheel_parse_cmd(buf, &cmd, why, sizeof(why));
	if (ret) {
		pr_warn_ratelimited("control: %s\n", why);
		return ret;
	}
	mutex_lock(&tw_ctl);
	ret = tw_ctl_exec(&cmd);
	mutex_unlock(&tw_ctl);
	return ret ? ret : len;
}

static const struct file_operations control_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= control_write,
	.llseek	= noop_llseek,
};

static int __init twheel_init(void)
{
	const struct tw_modparams mp = {
		.engine = tw_ecfg, .tick = tick, .budget = budget, .pull = pull,
		.tick_jiffies = tick_jiffies, .wrap_secs = wrap_secs,
		.engines = engines, .percpu = percpu,
	};
	unsigned long mask;
	bool nohz;
	int ret;

	ret = tw_config_parse(&mp, &tw_cfg, &mask, &nohz);
	if (ret)
		return ret;
	ret = tw_runners_init(mask, &tw_cfg, tw_runner_impl);
	if (ret)
		return ret;
	ret = tw_tick_init(tick_jiffies, nohz, pull, tw_cfg.percpu);
	if (ret) {
		tw_runners_release();
		return ret;
	}
	tw_softirq_init();
	tw_root = debugfs_create_dir("twheel", NULL);
	debugfs_create_file("control", 0200, tw_root, NULL, &control_fops);
	tw_readouts_debugfs(tw_root, &tw_cfg);
	tw_compare_debugfs(tw_root);
	tw_tick_start();
	pr_info("loaded: HZ=%d, engines=%s, modern depth %u, tick every %u jiffies\n",
		HZ, engines, tw_ecfg.depth, tick_jiffies);
	if (wrap_secs)
		pr_info("test: engine clock %lu, wraps in %u s\n",
			jiffies + tw_cfg.clock_offset, wrap_secs);
	return 0;
}

static void __exit twheel_exit(void)
{
	/* No file, no tick: nothing reaches the runners any more. */
	debugfs_remove_recursive(tw_root);
	tw_tick_cancel();
	mutex_lock(&tw_ctl);
	WRITE_ONCE(tw_wl.activity, false);
	tw_runners_set_active(false);
	/* the shadow's probes first: none may run once its ring is freed */
	tw_runners_activate(false);
	tw_runners_disarm();
	tw_runners_free_timers();
	tw_runners_release();
	mutex_unlock(&tw_ctl);
	tw_softirq_exit();
	tw_tick_exit();
	pr_info("unloaded\n");
}

module_init(twheel_init);
module_exit(twheel_exit);

MODULE_DESCRIPTION("Timer wheels side by side: classic, modern, a reference, and Varghese & Lauck's schemes");
MODULE_LICENSE("GPL");
MODULE_VERSION(TWHEEL_VERSION);

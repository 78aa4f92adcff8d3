// SPDX-License-Identifier: GPL-2.0
/*
 * twheel: the pull model's hierarchy, after Linux 6.12's timer migration
 * (kernel/time/timer_migration.c, timer_migration.h).
 *
 * CPUs sit in groups of per_group (the kernel's TMIGR_CHILDREN_PER_GROUP,
 * 8; pull_group= makes them smaller), groups in groups of as many, up to
 * one group at the top. A child is active while its CPU's tick runs
 * every period (a CPU) or while any of its children is (a group). In each
 * group one active child is the migrator (tmigr_active_up(),
 * tmigr_inactive_up()): it looks after the events its idle children
 * handed over. A CPU that goes idle hands its first event to its group
 * (tw_tmigr_deactivate(), the kernel's tmigr_cpu_deactivate()); a group
 * left with no active child hands its first event to its parent, and so
 * on; the CPU that leaves the top group with no migrator is the last one
 * awake and wakes for the top's first event, anyone's
 * (tmigr_update_events()' check_toplvl). A CPU that wakes takes the
 * migrator's part in each group left without one on its way up
 * (tw_tmigr_activate(), tmigr_cpu_activate()). Those are the only
 * changes to a group's state: on idle entry and exit, never per tick.
 *
 * On the active path a CPU walks up as long as it is the migrator and
 * reads each group's first event without its lock (tw_tmigr_check(), the
 * kernel's tmigr_requires_handle_remote() on 64-bit: READ_ONCE of
 * group->next_expiry); only if one is due does it lock the group and
 * pull what is due (tw_tmigr_handle(), tmigr_handle_remote()), down
 * through the idle groups below it.
 *
 * Where it deviates: the state word changes under the group's lock, not
 * by cmpxchg (it changes only on idle entry and exit); a group holds an
 * event per child, not a timer queue, and its first is found by a scan
 * of at most 8; a group's first event is one jiffy (an unsigned long,
 * read whole on every architecture), with "none" encoded as far ahead
 * (tw_tmigr_never()) where the kernel has KTIME_MAX in a u64; no lock is
 * held with another (the kernel nests a child's and its parent's in
 * tmigr_update_events()): a parent reads its child's state and first
 * event without the child's lock, as tmigr_inactive_up() reads the
 * child's state; no NUMA levels; CPUs are placed by number, not as they
 * come online.
 */
#include <linux/kernel.h>
#include <linux/bitops.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "driver/twheel_tmigr.h"

/**
 * tw_tmigr_active_up() - a child of a group becomes active
 * @s: the group's state, updated
 * @childmask: the child's bit
 *
 * It becomes the migrator if the group had none (tmigr_active_up()).
 *
 * Return: whether the group became active with it, so that its parent
 * has to hear of it too.
 */
bool tw_tmigr_active_up(union tw_tmigr_state *s, u8 childmask)
{
	bool up = s->migrator == TW_TMIGR_NONE;

	if (up)
		s->migrator = childmask;
	s->active |= childmask;
	s->seq++;
	return up;
}
EXPORT_SYMBOL_GPL(tw_tmigr_active_up);

/**
 * tw_tmigr_inactive_up() - a child of a group goes idle
 * @s: the group's state, updated
 * @childmask: the child's bit
 * @child_active: the child (a group) is active again by now: nothing
 *	changes but @seq
 *
 * A migrator that goes idle hands its part to the active child with the
 * lowest bit, or leaves the group with none (tmigr_inactive_up()).
 *
 * Return: whether the group is left with no active child, so that its
 * parent has to hear of it too.
 */
bool tw_tmigr_inactive_up(union tw_tmigr_state *s, u8 childmask,
			  bool child_active)
{
	bool up = false;

	if (!child_active) {
		s->active &= ~childmask;
		if (s->migrator == childmask) {
			if (s->active) {
				s->migrator = BIT(__ffs(s->active));
			} else {
				s->migrator = TW_TMIGR_NONE;
				up = true;
			}
		}
	}
	s->seq++;
	return up;
}
EXPORT_SYMBOL_GPL(tw_tmigr_inactive_up);

/**
 * tw_tmigr_first() - a group's first event, from its children's
 * @next: each child's first event
 * @n: its children
 * @active: the children active, whose events are their own
 * @never: the group's "none" (tw_tmigr_never() of now)
 *
 * An event half as far ahead as @never or more is a "none" written
 * earlier.
 *
 * Return: the earliest of the idle children's events, @never if none.
 */
unsigned long tw_tmigr_first(const unsigned long *next, unsigned int n,
			     u8 active, unsigned long never)
{
	unsigned long first = never - TW_TMIGR_FAR / 2;
	bool any = false;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (active & BIT(i) || !time_before(next[i], first))
			continue;
		first = next[i];
		any = true;
	}
	return any ? first : never;
}
EXPORT_SYMBOL_GPL(tw_tmigr_first);

/**
 * tw_tmigr_levels() - the shape of a hierarchy
 * @ncpus: its CPUs, at least 1
 * @per_group: children per group
 * @ngroups: set to its groups
 *
 * As many groups at level 0 as it takes to hold @ncpus, at each level
 * above as many as it takes to hold those below, up to one.
 *
 * Return: its levels.
 */
unsigned int tw_tmigr_levels(unsigned int ncpus, unsigned int per_group,
			     unsigned int *ngroups)
{
	unsigned int n = ncpus, levels = 0;

	*ngroups = 0;
	do {
		n = DIV_ROUND_UP(n, per_group);
		*ngroups += n;
		levels++;
	} while (n > 1);
	return levels;
}
EXPORT_SYMBOL_GPL(tw_tmigr_levels);

/**
 * tw_tmigr_init() - build a hierarchy, every CPU idle with no event
 * @h: the hierarchy
 * @ncpus: its CPUs, numbered from 0
 * @per_group: children per group: a power of 2, 2 to TW_TMIGR_CHILDREN
 *
 * Context: process, may sleep.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int tw_tmigr_init(struct tw_tmigr *h, unsigned int ncpus,
		  unsigned int per_group)
{
	unsigned int lvl, i, base = 0, below, n;
	struct tw_tmigr_group *g;

	if (!ncpus || per_group < 2 || per_group > TW_TMIGR_CHILDREN ||
	    !is_power_of_2(per_group))
		return -EINVAL;
	h->ncpus = ncpus;
	h->per_group = per_group;
	h->levels = tw_tmigr_levels(ncpus, per_group, &h->ngroups);
	if (h->levels > TW_TMIGR_LEVELS)
		return -EINVAL;
	h->groups = kcalloc(h->ngroups, sizeof(*h->groups), GFP_KERNEL);
	h->cpus = kcalloc(ncpus, sizeof(*h->cpus), GFP_KERNEL);
	if (!h->groups || !h->cpus) {
		tw_tmigr_free(h);
		return -ENOMEM;
	}
	for (i = 0; i < ncpus; i++) {
		h->cpus[i].group = &h->groups[i / per_group];
		h->cpus[i].groupmask = BIT(i % per_group);
	}
	/* level lvl's groups from @base on, @below children under them */
	below = ncpus;
	for (lvl = 0; lvl < h->levels; lvl++) {
		n = DIV_ROUND_UP(below, per_group);
		for (i = 0; i < n; i++) {
			g = &h->groups[base + i];
			raw_spin_lock_init(&g->lock);
			g->level = lvl;
			g->first = (lvl ? base - below : 0) + i * per_group;
			g->nchildren = min(per_group, below - i * per_group);
			g->groupmask = BIT(i % per_group);
			if (n > 1)
				g->parent = &h->groups[base + n + i / per_group];
		}
		base += n;
		below = n;
	}
	tw_tmigr_reset(h, 0);
	return 0;
}
EXPORT_SYMBOL_GPL(tw_tmigr_init);

/**
 * tw_tmigr_free() - free a hierarchy
 * @h: the hierarchy
 */
void tw_tmigr_free(struct tw_tmigr *h)
{
	kfree(h->groups);
	kfree(h->cpus);
	memset(h, 0, sizeof(*h));
}
EXPORT_SYMBOL_GPL(tw_tmigr_free);

/**
 * tw_tmigr_reset() - every CPU idle with no event, no group active
 * @h: the hierarchy
 * @now: the jiffy
 *
 * Context: no CPU uses @h meanwhile.
 */
void tw_tmigr_reset(struct tw_tmigr *h, unsigned long now)
{
	unsigned int i, c;

	for (i = 0; i < h->ngroups; i++) {
		struct tw_tmigr_group *g = &h->groups[i];

		g->s.active = 0;
		g->s.migrator = TW_TMIGR_NONE;
		g->s.seq = 0;
		g->next_expiry = tw_tmigr_never(now);
		for (c = 0; c < TW_TMIGR_CHILDREN; c++)
			g->child_next[c] = tw_tmigr_never(now);
	}
	for (i = 0; i < h->ncpus; i++)
		h->cpus[i].idle = true;
}
EXPORT_SYMBOL_GPL(tw_tmigr_reset);

/* @g's first event from its children's, under its lock */
static void tw_tmigr_refirst(struct tw_tmigr_group *g, unsigned long now)
{
	lockdep_assert_held(&g->lock);
	WRITE_ONCE(g->next_expiry,
		   tw_tmigr_first(g->child_next, g->nchildren, g->s.active,
				  tw_tmigr_never(now)));
}

/**
 * tw_tmigr_activate() - a CPU wakes: idle exit
 * @h: the hierarchy
 * @cpu: the CPU, idle
 * @now: the jiffy
 *
 * Its events are its own again; it becomes the migrator of every group
 * on its way up that had none (tmigr_cpu_activate()), and each of those
 * leaves its event out of its first (the kernel's groupevt.ignore). Its
 * own CPU.
 */
void tw_tmigr_activate(struct tw_tmigr *h, unsigned int cpu,
		       unsigned long now)
{
	struct tw_tmigr_cpu *c = &h->cpus[cpu];
	struct tw_tmigr_group *g = c->group;
	u8 mask = c->groupmask;
	union tw_tmigr_state s;
	bool up;

	for (; g; mask = g->groupmask, g = g->parent) {
		raw_spin_lock(&g->lock);
		if (g == c->group) {
			c->idle = false;
			c->gen++;
		}
		s = g->s;
		up = tw_tmigr_active_up(&s, mask);
		WRITE_ONCE(g->s.state, s.state);
		tw_tmigr_refirst(g, now);
		raw_spin_unlock(&g->lock);
		if (!up)
			break;
	}
}
EXPORT_SYMBOL_GPL(tw_tmigr_activate);

/**
 * tw_tmigr_deactivate() - a CPU goes idle: idle entry
 * @h: the hierarchy
 * @cpu: the CPU, active
 * @now: the jiffy
 * @next: its first event (tw_tmigr_never() of @now if none)
 * @wake: set to the jiffy it wakes at, if it does
 *
 * Hands @next to its group, and each group it leaves with no active
 * child hands its first event up (tmigr_cpu_deactivate()). Its own CPU.
 *
 * Return: whether it has to wake (at @wake): it was the last CPU awake
 * and some CPU has an event. Otherwise a migrator looks after @next, or
 * nothing is pending.
 */
bool tw_tmigr_deactivate(struct tw_tmigr *h, unsigned int cpu,
			 unsigned long now, unsigned long next,
			 unsigned long *wake)
{
	struct tw_tmigr_cpu *c = &h->cpus[cpu];
	struct tw_tmigr_group *g = c->group, *child = NULL;
	u8 mask = c->groupmask;
	union tw_tmigr_state s;
	unsigned int i;
	bool up;

	for (; g; child = g, mask = g->groupmask, g = g->parent) {
		union tw_tmigr_state cs = { .state = 0 };

		i = __ffs(mask);
		raw_spin_lock(&g->lock);
		if (child) {
			cs.state = READ_ONCE(child->s.state);
			g->child_next[i] = READ_ONCE(child->next_expiry);
		} else {
			c->idle = true;
			g->child_next[i] = next;
		}
		s = g->s;
		up = tw_tmigr_inactive_up(&s, mask, cs.active);
		WRITE_ONCE(g->s.state, s.state);
		tw_tmigr_refirst(g, now);
		*wake = g->next_expiry;
		raw_spin_unlock(&g->lock);
		if (!up)
			return false;
	}
	/* the top has no migrator left: the last CPU awake wakes for it */
	return time_before(*wake, tw_tmigr_never(now));
}
EXPORT_SYMBOL_GPL(tw_tmigr_deactivate);

/**
 * tw_tmigr_check() - whether a CPU awake has events of others to pull
 * @h: the hierarchy
 * @cpu: the CPU, active
 * @now: the jiffy
 *
 * Walks up as long as @cpu is the migrator and reads each group's first
 * event without its lock (tmigr_requires_handle_remote()). A CPU that is
 * the migrator of no group reads one word. Its own CPU, every tick.
 *
 * Return: whether one of those is due.
 */
bool tw_tmigr_check(struct tw_tmigr *h, unsigned int cpu, unsigned long now)
{
	struct tw_tmigr_group *g = h->cpus[cpu].group;
	u8 mask = h->cpus[cpu].groupmask;
	union tw_tmigr_state s;

	for (; g; mask = g->groupmask, g = g->parent) {
		s.state = READ_ONCE(g->s.state);
		if (s.migrator != mask)
			return false;
		if (!time_before(now, READ_ONCE(g->next_expiry)))
			return true;
	}
	return false;
}
EXPORT_SYMBOL_GPL(tw_tmigr_check);

/*
 * Pulls what is due at @now in @g's idle children, a group's down through
 * its own idle children; @g's first event updated.
 */
static unsigned int tw_tmigr_handle_group(struct tw_tmigr *h,
					  struct tw_tmigr_group *g,
					  unsigned long now,
					  tw_tmigr_pull_fn pull, void *arg)
{
	u32 gen[TW_TMIGR_CHILDREN] = {};
	unsigned int i, n = 0;
	unsigned long due = 0, next;

	raw_spin_lock(&g->lock);
	for (i = 0; i < g->nchildren; i++) {
		if (g->s.active & BIT(i) || time_before(now, g->child_next[i]))
			continue;
		__set_bit(i, &due);
		if (!g->level)
			gen[i] = h->cpus[g->first + i].gen;
	}
	raw_spin_unlock(&g->lock);
	for_each_set_bit(i, &due, TW_TMIGR_CHILDREN) {
		if (g->level) {
			struct tw_tmigr_group *child = &h->groups[g->first + i];

			n += tw_tmigr_handle_group(h, child, now, pull, arg);
			raw_spin_lock(&g->lock);
			g->child_next[i] = READ_ONCE(child->next_expiry);
		} else {
			struct tw_tmigr_cpu *c = &h->cpus[g->first + i];

			next = pull(g->first + i, now, arg);
			n++;
			raw_spin_lock(&g->lock);
			/* one that woke meanwhile hands its own over */
			if (c->idle && c->gen == gen[i])
				g->child_next[i] = next;
		}
		tw_tmigr_refirst(g, now);
		raw_spin_unlock(&g->lock);
	}
	if (!due) {
		/* an old "never" that looked due: written afresh */
		raw_spin_lock(&g->lock);
		tw_tmigr_refirst(g, now);
		raw_spin_unlock(&g->lock);
	}
	return n;
}

/**
 * tw_tmigr_handle() - a CPU awake pulls what is due on CPUs idle
 * @h: the hierarchy
 * @cpu: the CPU, active
 * @now: the jiffy
 * @pull: runs a due idle CPU's timers
 * @arg: @pull's
 *
 * In every group on its way up of which it is the migrator, whose first
 * event is due (tmigr_handle_remote()). Its own CPU.
 *
 * Return: the CPUs pulled.
 */
unsigned int tw_tmigr_handle(struct tw_tmigr *h, unsigned int cpu,
			     unsigned long now, tw_tmigr_pull_fn pull,
			     void *arg)
{
	struct tw_tmigr_group *g = h->cpus[cpu].group;
	u8 mask = h->cpus[cpu].groupmask;
	union tw_tmigr_state s;
	unsigned int n = 0;

	for (; g; mask = g->groupmask, g = g->parent) {
		s.state = READ_ONCE(g->s.state);
		if (s.migrator != mask)
			break;
		/* a migrator is one of the group's active children */
		WARN_ON_ONCE(!(s.active & mask));
		if (!time_before(now, READ_ONCE(g->next_expiry)))
			n += tw_tmigr_handle_group(h, g, now, pull, arg);
	}
	return n;
}
EXPORT_SYMBOL_GPL(tw_tmigr_handle);

/**
 * tw_tmigr_new_timer() - an idle CPU's first event moved earlier
 * @h: the hierarchy
 * @cpu: the CPU
 * @now: the jiffy
 * @next: its first event now
 *
 * Another CPU armed a timer there. The event goes up as far as a group
 * with a migrator, which sees it on its next tick, as tmigr_new_timer()
 * takes an idle CPU's new first timer up. Any CPU.
 *
 * Return: whether @cpu has to be woken (the kernel's
 * trigger_dyntick_cpu()): every CPU is idle and @next comes before what
 * the last of them wakes for. Not for a CPU awake, nor for a
 * deferrable timer, which the caller does not bring here.
 */
bool tw_tmigr_new_timer(struct tw_tmigr *h, unsigned int cpu,
			unsigned long now, unsigned long next)
{
	struct tw_tmigr_cpu *c = &h->cpus[cpu];
	struct tw_tmigr_group *g = c->group, *child = NULL;
	u8 mask = c->groupmask;
	unsigned long before;
	bool idle;

	for (; g; child = g, mask = g->groupmask, g = g->parent) {
		unsigned int i = __ffs(mask);
		union tw_tmigr_state cs = { .state = 0 };

		raw_spin_lock(&g->lock);
		if (child)
			cs.state = READ_ONCE(child->s.state);
		if (child ? cs.active : !c->idle) {
			raw_spin_unlock(&g->lock);
			return false;
		}
		before = g->next_expiry;
		if (child)
			g->child_next[i] = READ_ONCE(child->next_expiry);
		else if (time_before(next, g->child_next[i]))
			g->child_next[i] = next;
		tw_tmigr_refirst(g, now);
		idle = g->s.migrator == TW_TMIGR_NONE;
		next = g->next_expiry;
		raw_spin_unlock(&g->lock);
		if (!idle)
			return false;
	}
	return time_before(next, before);
}
EXPORT_SYMBOL_GPL(tw_tmigr_new_timer);

/**
 * tw_tmigr_migrator_levels() - the levels a CPU is the migrator of
 * @h: the hierarchy
 * @cpu: the CPU
 *
 * Return: how many levels up from its group it is the migrator of each
 * group, @h->levels if of the top one.
 */
unsigned int tw_tmigr_migrator_levels(struct tw_tmigr *h, unsigned int cpu)
{
	struct tw_tmigr_group *g = h->cpus[cpu].group;
	u8 mask = h->cpus[cpu].groupmask;
	union tw_tmigr_state s;
	unsigned int n = 0;

	for (; g; mask = g->groupmask, g = g->parent, n++) {
		s.state = READ_ONCE(g->s.state);
		if (s.migrator != mask)
			break;
	}
	return n;
}
EXPORT_SYMBOL_GPL(tw_tmigr_migrator_levels);

/**
 * tw_tmigr_top_migrator() - the top group's migrator bit
 * @h: the hierarchy
 *
 * Return: TW_TMIGR_NONE if every CPU is idle.
 */
u8 tw_tmigr_top_migrator(struct tw_tmigr *h)
{
	union tw_tmigr_state s;

	s.state = READ_ONCE(h->groups[h->ngroups - 1].s.state);
	return s.migrator;
}
EXPORT_SYMBOL_GPL(tw_tmigr_top_migrator);

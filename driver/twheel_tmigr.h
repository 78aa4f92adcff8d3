/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twheel: the pull model's hierarchy of groups (twheel_tmigr.c), after
 * Linux 6.12's kernel/time/timer_migration.c. Its slots are CPU numbers;
 * nothing here reads a CPU's identity, a clock or a per-CPU variable, so
 * KUnit drives it with CPUs and jiffies of its own (kunit/pull_test.c).
 */
#ifndef TWHEEL_TMIGR_H
#define TWHEEL_TMIGR_H

#include <linux/types.h>
#include <linux/spinlock.h>

/* Children per group: the kernel's TMIGR_CHILDREN_PER_GROUP */
#define TW_TMIGR_CHILDREN	8
/* No migrator in a group: the kernel's TMIGR_NONE */
#define TW_TMIGR_NONE		0xff
/* Levels at most: groups of 2 over 2^15 CPUs */
#define TW_TMIGR_LEVELS		16

/*
 * A group's first expiry is one jiffy, read without its lock. With no
 * event it is "never": this far after the jiffy it was written at, so
 * that time_before() puts every real event first. A group left untouched
 * that long would look due once; the walk that finds nothing due writes
 * it afresh.
 */
#define TW_TMIGR_FAR		(ULONG_MAX / 2)

static inline unsigned long tw_tmigr_never(unsigned long now)
{
	return now + TW_TMIGR_FAR;
}

/**
 * union tw_tmigr_state - a group's migration state, one word
 * @state: the word, as it is written (WRITE_ONCE under the group's lock)
 *	and read (READ_ONCE, anywhere)
 * @active: a bit for each of its children that is active
 * @migrator: the bit of the one child that looks after the idle
 *	children's events, TW_TMIGR_NONE if all are idle
 * @seq: counts its changes
 */
union tw_tmigr_state {
	u32 state;
	struct {
		u8 active;
		u8 migrator;
		u16 seq;
	};
};

/**
 * struct tw_tmigr_group - a group of CPUs (level 0) or of groups
 * @lock: its state, its children's events; never held with another's
 * @s: its migration state
 * @next_expiry: the first event of its idle children (tw_tmigr_never()
 *	if none): WRITE_ONCE under @lock, read without it on the active path
 * @child_next: each child's first event as last handed over: a CPU's
 *	own, a group's @next_expiry; an active child's is ignored
 * @parent: the group above, NULL at the top
 * @groupmask: its bit in @parent
 * @nchildren: its children, at most TW_TMIGR_CHILDREN
 * @level: 0: its children are CPUs
 * @first: its first child: a CPU's number at level 0, else the index of
 *	a group of the level below
 */
struct tw_tmigr_group {
	raw_spinlock_t lock;
	union tw_tmigr_state s;
	unsigned long next_expiry;
	unsigned long child_next[TW_TMIGR_CHILDREN];
	struct tw_tmigr_group *parent;
	u8 groupmask;
	u8 nchildren;
	u8 level;
	unsigned int first;
};

/**
 * struct tw_tmigr_cpu - a CPU of the hierarchy
 * @group: its group at level 0
 * @groupmask: its bit there
 * @idle: it handed its events over (under @group's lock)
 * @gen: its activations (under @group's lock), so that a pull that ran
 *	while it woke does not hand back an event from before
 */
struct tw_tmigr_cpu {
	struct tw_tmigr_group *group;
	u8 groupmask;
	bool idle;
	u32 gen;
};

/**
 * struct tw_tmigr - the hierarchy
 * @groups: level 0's first, the top's last
 * @cpus: one per CPU number
 * @ncpus: CPUs
 * @per_group: children per group, a power of 2 from 2 to TW_TMIGR_CHILDREN
 * @levels: its levels, 1 with no more CPUs than a group holds
 * @ngroups: its groups
 */
struct tw_tmigr {
	struct tw_tmigr_group *groups;
	struct tw_tmigr_cpu *cpus;
	unsigned int ncpus;
	unsigned int per_group;
	unsigned int levels;
	unsigned int ngroups;
};

/*
 * What a migrator's walk does with a due idle CPU: runs what is due on it
 * at @now and returns its next event (tw_tmigr_never() if none).
 */
typedef unsigned long (*tw_tmigr_pull_fn)(unsigned int cpu, unsigned long now,
					  void *arg);

bool tw_tmigr_active_up(union tw_tmigr_state *s, u8 childmask);
bool tw_tmigr_inactive_up(union tw_tmigr_state *s, u8 childmask,
			  bool child_active);
unsigned long tw_tmigr_first(const unsigned long *next, unsigned int n,
			     u8 active, unsigned long never);
unsigned int tw_tmigr_levels(unsigned int ncpus, unsigned int per_group,
			     unsigned int *ngroups);

int tw_tmigr_init(struct tw_tmigr *h, unsigned int ncpus,
		  unsigned int per_group);
void tw_tmigr_free(struct tw_tmigr *h);
void tw_tmigr_reset(struct tw_tmigr *h, unsigned long now);
void tw_tmigr_activate(struct tw_tmigr *h, unsigned int cpu,
		       unsigned long now);
bool tw_tmigr_deactivate(struct tw_tmigr *h, unsigned int cpu,
			 unsigned long now, unsigned long next,
			 unsigned long *wake);
bool tw_tmigr_check(struct tw_tmigr *h, unsigned int cpu, unsigned long now);
unsigned int tw_tmigr_handle(struct tw_tmigr *h, unsigned int cpu,
			     unsigned long now, tw_tmigr_pull_fn pull,
			     void *arg);
bool tw_tmigr_new_timer(struct tw_tmigr *h, unsigned int cpu,
			unsigned long now, unsigned long next);
u8 tw_tmigr_top_migrator(struct tw_tmigr *h);
unsigned int tw_tmigr_migrator_levels(struct tw_tmigr *h, unsigned int cpu);

#endif /* TWHEEL_TMIGR_H */

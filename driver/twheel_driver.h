/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twheel: what the driver's tick (twheel_tick.c) calls of its overload
 * guard (twheel_guard.c) and its pull model (twheel_pull.c). Private to
 * driver/; neither calls the tick.
 */
#ifndef TWHEEL_DRIVER_H
#define TWHEEL_DRIVER_H

#include <linux/types.h>

struct cpumask;
struct seq_file;

/*
 * The overload guard's window, in jiffies: under tick=nohz the tick runs
 * at least once a window during an activity, for the guard to check it.
 */
#define TW_GUARD_WINDOW		HZ

void tw_guard_init(unsigned int tick_jiffies);
void tw_guard_begin(unsigned long now);
void tw_guard_tick(unsigned long now, u64 t0, u64 now_ns);
void tw_guard_wake_at(unsigned long wake);
void tw_activity_end(void);

int tw_group_init(unsigned int tick_jiffies);
void tw_group_exit(void);
void tw_group_start(const struct cpumask *ticking);
void tw_group_own(unsigned int cpu, unsigned long now, bool pulling);
void tw_group_unown(unsigned int cpu);
void tw_group_planned(unsigned int cpu, unsigned long d);
void tw_group_pull(unsigned int self, unsigned long now);
bool tw_group_armed(unsigned int cpu, unsigned long now, unsigned long expires);
unsigned long tw_group_sleep(unsigned int self, unsigned long now,
			     unsigned long d);

void tw_group_show(struct seq_file *m, const struct cpumask *cpus);

#endif /* TWHEEL_DRIVER_H */

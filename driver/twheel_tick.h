/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twheel: the driver's tick, one soft hrtimer that advances every runner
 * that has a tick and runs the workload's activity.
 */
#ifndef TWHEEL_TICK_H
#define TWHEEL_TICK_H

struct seq_file;

int tw_tick_init(unsigned int tick_jiffies, bool nohz, bool pull,
		 bool percpu);
void tw_tick_exit(void);
void tw_tick_show(struct seq_file *m);
void tw_tick_show_guard(struct seq_file *m);
bool tw_guard_starved(void);
void tw_guard_restart(void);
void tw_tick_start(void);
void tw_tick_cancel(void);
void tw_tick_rearmed(void);

#endif /* TWHEEL_TICK_H */

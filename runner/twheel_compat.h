/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twheel: the timer API across the kernels we build for, in one place.
 * TW_HAVE_* come from Kbuild, which looks into the headers we build
 * against (so distribution kernels with backports work too): 6.2 added
 * timer_delete() and timer_delete_sync() (6.15 removed del_timer*()), 6.13
 * added hrtimer_setup() (and later kernels removed hrtimer_init()).
 */
#ifndef TWHEEL_COMPAT_H
#define TWHEEL_COMPAT_H

#include <linux/hrtimer.h>
#include <linux/timer.h>

#ifndef TW_HAVE_TIMER_DELETE
#define timer_delete(t)		del_timer(t)
#define timer_delete_sync(t)	del_timer_sync(t)
#endif

/* hrtimer_setup() where the kernel has it, else its older spelling. */
static inline void tw_hrtimer_setup(struct hrtimer *hr,
				    enum hrtimer_restart (*fn)(struct hrtimer *),
				    enum hrtimer_mode mode)
{
#ifdef TW_HAVE_HRTIMER_SETUP
	hrtimer_setup(hr, fn, CLOCK_MONOTONIC, mode);
#else
	hrtimer_init(hr, CLOCK_MONOTONIC, mode);
	hr->function = fn;
#endif
}

#endif /* TWHEEL_COMPAT_H */

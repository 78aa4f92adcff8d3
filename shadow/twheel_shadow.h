/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twheel shadow: the kernel's own timer_list traffic mirrored live into
 * our engines (the shadow workload and runner, twheel_shadow.c).
 */
#ifndef TWHEEL_SHADOW_H
#define TWHEEL_SHADOW_H

#include <linux/types.h>

struct tw_runner;
struct tw_runner_ops;
struct tw_wtimer;

/*
 * Where the modern engine's bucket for a real timer's start stands
 * against the kernel's (twheel_shadow_idx()).
 */
enum tw_sh_idx {
	TW_SH_IDX_AGREE,	/* the kernel's bucket (and bucket_expiry) */
	TW_SH_IDX_BEHIND,	/* another bucket: the kernel's clock was behind ours */
	TW_SH_IDX_AHEAD,	/* another bucket: the kernel's clock was ahead of ours */
	TW_SH_IDX_UNORDERED,	/* another bucket, clocks differ, order unknown */
	TW_SH_IDX_WRONG,	/* another bucket with a clock the kernel may have had */
	TW_SH_NR_IDX
};

/**
 * struct tw_sh_where - where a wheel filed a start
 * @idx: the bucket index, level * 64 + slot
 * @bucket_expiry: the jiffy that bucket is processed at
 * @have_be: whether @bucket_expiry is known (the kernel's timer_start has
 *	it since 6.8)
 */
struct tw_sh_where {
	unsigned int idx;
	unsigned long bucket_expiry;
	bool have_be;
};

enum tw_sh_idx twheel_shadow_idx(unsigned long expires,
				 const struct tw_sh_where *kernel,
				 const struct tw_sh_where *ours,
				 unsigned long clk, unsigned int depth);

extern const struct tw_runner_ops tw_shadow_runner_ops;

void tw_shadow_ran(struct tw_runner *self, struct tw_runner *r,
		   struct tw_wtimer *w);

#endif /* TWHEEL_SHADOW_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* twheel: op cost (add, mod, del) of every runner on the loaded timers. */
#ifndef TWHEEL_BENCH_H
#define TWHEEL_BENCH_H

void tw_bench(void);

#endif /* TWHEEL_BENCH_H */

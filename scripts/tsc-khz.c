// SPDX-License-Identifier: GPL-2.0
/*
 * Prints this x86 host's TSC rate in kHz, measured against
 * CLOCK_MONOTONIC_RAW (the median of five 100 ms intervals). Under TCG,
 * QEMU's guest TSC ticks at the host's rate, so qemu.sh hands this to the
 * guest as tsc_early_khz=:
 * a guest on a busy host then needs no PIT calibration, which can fail
 * there and leave it on a jiffies clocksource.
 */
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static unsigned long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* One reading of both clocks: the TSC taken on either side of the clock. */
static void sample(unsigned long long *ns, unsigned long long *tsc)
{
	unsigned long long a = __rdtsc();

	*ns = mono_ns();
	*tsc = a + (__rdtsc() - a) / 2;
}

int main(void)
{
	struct timespec pause = { 0, 100 * 1000 * 1000 };
	unsigned long long t0, c0, t1, c1, khz[5], tmp;
	int i, j;

	/* Five 100 ms intervals; the median rate wipes out a preempted one. */
	for (i = 0; i < 5; i++) {
		sample(&t0, &c0);
		nanosleep(&pause, NULL);
		sample(&t1, &c1);
		if (t1 <= t0 || c1 <= c0)
			return 1;
		khz[i] = (c1 - c0) * 1000000ULL / (t1 - t0);
	}
	for (i = 1; i < 5; i++)
		for (j = i; j > 0 && khz[j - 1] > khz[j]; j--) {
			tmp = khz[j];
			khz[j] = khz[j - 1];
			khz[j - 1] = tmp;
		}
	printf("%llu\n", khz[2]);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Prints this x86 host's TSC rate in kHz, measured against
 * CLOCK_MONOTONIC_RAW over 200 ms. Under TCG, QEMU's guest TSC ticks at
 * the host's rate, so qemu.sh hands this to the guest as tsc_early_khz=:
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

int main(void)
{
	struct timespec pause = { 0, 200 * 1000 * 1000 };
	unsigned long long t0, c0, t1, c1;

	t0 = mono_ns();
	c0 = __rdtsc();
	nanosleep(&pause, NULL);
	t1 = mono_ns();
	c1 = __rdtsc();
	if (t1 <= t0 || c1 <= c0)
		return 1;
	printf("%llu\n", (c1 - c0) * 1000000ULL / (t1 - t0));
	return 0;
}

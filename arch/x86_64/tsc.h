/* The monotonic clock: TSC calibrated against the PIT at boot. */
#ifndef ARCH_X86_64_TSC_H
#define ARCH_X86_64_TSC_H

#include <stdint.h>

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

/* Measure the TSC rate; returns 0 or a negative error (no PIT answer). */
int tsc_calibrate(void);
uint64_t tsc_hz(void);

/*
 * Busy-wait on PIT channel 2 for @us microseconds (at most 54925, the
 * 16-bit counter's range) and return the TSC ticks that elapsed, or 0 when
 * the PIT never signalled.
 */
uint64_t pit_wait_tsc(unsigned us);

/* Nanoseconds since tsc_calibrate(); monotonic on one CPU. */
uint64_t clock_ns(void);

#endif

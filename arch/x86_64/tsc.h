/* The monotonic clock: TSC calibrated against the PIT at boot. */
#ifndef ARCH_X86_64_TSC_H
#define ARCH_X86_64_TSC_H

#include <stdbool.h>
#include <stdint.h>

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

/*
 * Measure the TSC rate; returns 0 or a negative error: -ENODEV no PIT
 * answer, -EAGAIN the host stalled every window (tsc.c).
 */
int tsc_calibrate(void);
/* Windows the calibration measured again because the vCPU was stalled. */
unsigned tsc_calibration_stalls(void);
uint64_t tsc_hz(void);

#define PIT_TICK_HZ 1193182ULL

/* One measured PIT interval and the TSC ticks over it. */
struct pit_window {
	uint64_t tsc_ticks;
	uint64_t pit_ticks;
	uint64_t error_tsc; /* +- bound from the sample brackets */
	unsigned stalls;    /* windows discarded first: the vCPU was stalled */
};

/*
 * Busy-wait on PIT channel 2 for at least @pit_ticks (<= 32767) and
 * report the interval; returns 0, or a negative error: -EINVAL for
 * @pit_ticks, -ENODEV when the PIT does not count, -EAGAIN when every
 * window was stalled by the host (a gap of a quarter of it or more
 * between two samples: the 55 ms counter may have wrapped unseen).
 */
int pit_measure(unsigned pit_ticks, struct pit_window *w);

uint64_t tsc_to_ns(uint64_t ticks);
uint64_t ns_to_tsc_ticks(uint64_t ns);

/*
 * Nanoseconds since tsc_calibrate(), comparable across CPUs to within the
 * bring-up sync's error (half a cache-line round trip).  Needs this CPU's
 * per-CPU area installed.
 */
uint64_t clock_ns(void);

/* Busy-wait for at least @ns nanoseconds. */
void delay_ns(uint64_t ns);

/*
 * Run together at AP bring-up, one @s per AP (with parallel bring-up many
 * APs wait at once, and each must answer only its own rounds):
 * tsc_sync_bsp() returns the AP's offset, measured over at least
 * TSC_SYNC_MIN_ROUNDS round trips, then until one is short enough, the
 * time budget is spent or TSC_SYNC_MAX_ROUNDS ran (tsc.c says why), and
 * fills @res.  @s->ap_stall_ticks (test only, set before the AP starts):
 * the AP holds each answer that long, as a host that deschedules it
 * every round would.
 */
#define TSC_SYNC_MAX_ROUNDS 256
#define TSC_SYNC_BUDGET_NS  20000000ULL
struct tsc_sync {
	uint64_t round, ack, ap_tsc;
	uint64_t ap_stall_ticks;
};
struct tsc_sync_result {
	uint64_t rtt; /* the kept round trip, TSC ticks: offset good to half */
	unsigned rounds; /* round trips run */
	bool cut_short;	 /* stopped by the budget, with no good round */
};
int64_t tsc_sync_bsp(struct tsc_sync *s, struct tsc_sync_result *res);
void tsc_sync_ap(struct tsc_sync *s);

#endif

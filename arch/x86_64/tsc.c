/*
 * TSC calibration against PIT channel 2 (Intel 8254 data sheet; the
 * channel 2 gate and OUT2 are bits 0 and 5 of port 0x61 on PCs).  Mode 0
 * counts down once from the loaded value at 1.193182 MHz and raises OUT2
 * at zero, so the TSC ticks between loading and OUT2 give the rate.  The
 * best (shortest) of a few windows is taken: an interruption or a host
 * preemption only ever makes a window look longer.
 */
#include "arch/x86_64/tsc.h"
#include "arch/x86_64/cpu.h"

#define PIT_HZ		1193182ULL
#define PIT_CH2		0x42
#define PIT_CMD		0x43
#define PIT_CMD_CH2_MODE0 0xB0	/* channel 2, lobyte/hibyte, mode 0, binary */
#define PORT_61		0x61
#define P61_GATE2	0x01
#define P61_SPEAKER	0x02
#define P61_OUT2	0x20
#define CALIB_US	10000
#define CALIB_ROUNDS	5
/* Bound on the OUT2 poll: far more port reads than a 55 ms window needs. */
#define PIT_SPINS	50000000UL

static uint64_t tsc_rate;
static uint64_t tsc_base;
/* ns = (ticks * ns_mult) >> 32 */
static uint64_t ns_mult;

uint64_t pit_wait_tsc(unsigned us)
{
	uint64_t count = PIT_HZ * us / 1000000;
	uint64_t t0, t1;
	uint8_t p61;

	if (count == 0 || count > 0xffff)
		return 0;
	p61 = inb(PORT_61);
	outb(PORT_61, (p61 & ~P61_SPEAKER) | P61_GATE2);
	outb(PIT_CMD, PIT_CMD_CH2_MODE0);
	outb(PIT_CH2, count & 0xff);
	t0 = rdtsc();
	outb(PIT_CH2, count >> 8);	/* counting starts on the high byte */
	for (unsigned long i = 0; i < PIT_SPINS; i++) {
		if (inb(PORT_61) & P61_OUT2) {
			t1 = rdtsc();
			outb(PORT_61, p61);
			return t1 - t0;
		}
	}
	outb(PORT_61, p61);
	return 0;
}

int tsc_calibrate(void)
{
	uint64_t best = ~0ULL;

	for (int i = 0; i < CALIB_ROUNDS; i++) {
		uint64_t ticks = pit_wait_tsc(CALIB_US);

		if (!ticks)
			return -19;	/* -ENODEV: no PIT */
		if (ticks < best)
			best = ticks;
	}
	tsc_rate = best * (1000000 / CALIB_US);
	/* 10^9 << 32 still fits in 64 bits. */
	ns_mult = (1000000000ULL << 32) / tsc_rate;
	tsc_base = rdtsc();
	return 0;
}

uint64_t tsc_hz(void)
{
	return tsc_rate;
}

uint64_t clock_ns(void)
{
	uint64_t d = rdtsc() - tsc_base;

	return (uint64_t)(((unsigned __int128)d * ns_mult) >> 32);
}

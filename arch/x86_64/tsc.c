/*
 * TSC calibration against PIT channel 2 (Intel 8254 data sheet; the
 * channel 2 gate is bit 0 of port 0x61 on PCs).  Channel 2 counts down
 * from 0xffff at 1.193182 MHz in mode 0.  Each sample latches the counter
 * between two TSC reads; the pair is trusted only when those reads are
 * close together, so a vCPU preempted by the host (or an SMI) in the middle
 * of a sample is detected and the sample retaken, instead of silently
 * stretching the window.  The rate is then (TSC delta) / (PIT delta) over
 * a ~20 ms window, as good as the bracket width allows.
 *
 * A preemption between two samples is the other danger: the counter wraps
 * every 55 ms, so a vCPU the host did not run for 35 ms or more can come
 * back to a count that looks like the end of a normal window (a loaded
 * host gave tsc_khz=9725738 against 2596124 that way).  Such a gap is
 * most of the window's TSC time, while the loop's own samples are
 * microseconds apart: a window with one gap of a quarter of its length or
 * more is stalled and measured again (pit_measure()).
 */
#include "arch/x86_64/tsc.h"
#include "arch/x86_64/cpu.h"
#include "kernel/percpu.h"
#include "lib/atomic.h"
#include "lib/errno.h"
#include "lib/time.h"

#define PIT_HZ		  PIT_TICK_HZ
#define PIT_CH2		  0x42
#define PIT_CMD		  0x43
#define PIT_CMD_CH2_MODE0 0xB0 /* channel 2, lobyte/hibyte, mode 0, binary */
#define PIT_CMD_CH2_LATCH 0x80 /* counter latch, channel 2 */
#define PORT_61		  0x61
#define P61_GATE2	  0x01
#define P61_SPEAKER	  0x02
#define PIT_MAX_COUNT	  0xffff
#define CALIB_PIT_TICKS	  23864 /* 20 ms */
/* Bound on retries and on the spin to the end of the window. */
#define SAMPLE_TRIES	  1000
#define WINDOW_SPINS	  100000000UL
/* Windows pit_measure() takes before it gives up on a stalling host. */
#define STALL_TRIES	  50

static uint64_t tsc_rate;
static unsigned calib_stalls;
static uint64_t tsc_base;
/* ns = (ticks * ns_mult) >> 32 */
static uint64_t ns_mult;
static uint64_t tsc_mult; /* TSC ticks per ns, << 24 */

struct pit_sample {
	uint64_t tsc;	/* midpoint of the bracketing TSC reads */
	uint64_t width; /* TSC ticks between them */
	unsigned count; /* PIT counter value */
};

static unsigned pit_read_count(void)
{
	unsigned lo, hi;

	outb(PIT_CMD, PIT_CMD_CH2_LATCH);
	lo = inb(PIT_CH2);
	hi = inb(PIT_CH2);
	return lo | hi << 8;
}

/* The narrowest of a few bracketed samples. */
static struct pit_sample pit_sample(void)
{
	struct pit_sample best = { .width = ~0ULL };

	for (int i = 0; i < 8; i++) {
		uint64_t t0 = rdtsc();
		unsigned c = pit_read_count();
		uint64_t t1 = rdtsc();

		if (t1 - t0 < best.width) {
			best.width = t1 - t0;
			best.tsc = t0 + (t1 - t0) / 2;
			best.count = c;
		}
	}
	return best;
}

static void pit_start(void)
{
	uint8_t p61 = inb(PORT_61);

	outb(PORT_61, (p61 & ~P61_SPEAKER) | P61_GATE2);
	outb(PIT_CMD, PIT_CMD_CH2_MODE0);
	outb(PIT_CH2, PIT_MAX_COUNT & 0xff);
	outb(PIT_CH2, PIT_MAX_COUNT >> 8);
}

/* One window: 0, -EAGAIN if stalled (top of file), -ENODEV. */
static int pit_measure_once(unsigned pit_ticks, struct pit_window *w)
{
	struct pit_sample a, b, prev;
	unsigned long spins = 0;
	uint64_t gap = 0;

	pit_start();
	/* Let the counter load (it counts from the next PIT clock). */
	while (pit_read_count() == 0 || pit_read_count() > PIT_MAX_COUNT - 2)
		if (++spins > WINDOW_SPINS)
			return -ENODEV;
	a = prev = pit_sample();
	do {
		b = pit_sample();
		if (++spins > WINDOW_SPINS)
			return -ENODEV; /* the PIT does not count */
		if (b.count > a.count)
			return -EAGAIN; /* wrapped: preempted for 35 ms or more */
		if (b.tsc - prev.tsc > gap)
			gap = b.tsc - prev.tsc;
		prev = b;
	} while (a.count - b.count < pit_ticks);
	w->tsc_ticks = b.tsc - a.tsc;
	w->pit_ticks = a.count - b.count;
	w->error_tsc = a.width / 2 + b.width / 2;
	return gap * 4 >= w->tsc_ticks ? -EAGAIN : 0;
}

int pit_measure(unsigned pit_ticks, struct pit_window *w)
{
	int err = -EAGAIN;

	if (pit_ticks == 0 || pit_ticks > PIT_MAX_COUNT / 2)
		return -EINVAL;
	w->stalls = 0;
	for (unsigned i = 0; i < STALL_TRIES && err == -EAGAIN; i++) {
		unsigned stalls = w->stalls;

		err = pit_measure_once(pit_ticks, w);
		w->stalls = stalls + (err == -EAGAIN);
	}
	return err;
}

int tsc_calibrate(void)
{
	struct pit_window w, best = { 0 };
	uint64_t best_rel = ~0ULL;

	/* Keep the window whose sample brackets were tightest. */
	for (int i = 0; i < 5; i++) {
		int err = pit_measure(CALIB_PIT_TICKS, &w);

		calib_stalls += w.stalls;
		if (err)
			return err;
		if (w.error_tsc < best_rel) {
			best_rel = w.error_tsc;
			best = w;
		}
	}
	tsc_rate = best.tsc_ticks * PIT_HZ / best.pit_ticks;
	/* 10^9 << 32 still fits in 64 bits. */
	ns_mult = (NSEC_PER_SEC << 32) / tsc_rate;
	tsc_mult = (tsc_rate << 24) / NSEC_PER_SEC;
	tsc_base = rdtsc();
	return 0;
}

unsigned tsc_calibration_stalls(void)
{
	return calib_stalls;
}

uint64_t tsc_hz(void)
{
	return tsc_rate;
}

uint64_t tsc_to_ns(uint64_t ticks)
{
	return (uint64_t)(((unsigned __int128)ticks * ns_mult) >> 32);
}

/* ticks = (ns * tsc_mult) >> 24: no 128-bit division in the kernel. */
uint64_t ns_to_tsc_ticks(uint64_t ns)
{
	return (uint64_t)(((unsigned __int128)ns * tsc_mult) >> 24);
}

/*
 * TSCs are not synchronised across CPUs here: QEMU starts an AP's TSC at
 * its INIT, not with the boot CPU's.  Each CPU adds its own offset, which
 * tsc_sync_ap() measures against the boot CPU at bring-up.
 */
uint64_t clock_ns(void)
{
	return tsc_to_ns(rdtsc() + this_cpu()->tsc_offset - tsc_base);
}

/*
 * Called on the boot CPU and the new AP at once, in rounds, on the AP's
 * own @s (zeroed before the AP starts): the boot CPU
 * stamps t0, releases the AP for round r, which stamps its TSC and
 * answers r; the boot CPU stamps t1.  The AP's stamp lies between t0 and
 * t1, so a round's offset is good to half its round trip, and the
 * shortest round is kept: one round the host stretched (a vCPU
 * descheduled between release and answer, hundreds of ms under TCG on a
 * loaded host) would put the AP's clock that far off for good.  At least
 * TSC_SYNC_MIN_ROUNDS, then until one took under TSC_SYNC_GOOD_NS, at
 * most TSC_SYNC_MAX_ROUNDS, and no new round once TSC_SYNC_BUDGET_NS have
 * passed: on a host that stretches every round (two vCPU threads taking
 * turns on a busy host CPU, a few ms each) no round is ever good, and 256
 * of them per AP made bring-up of 64 CPUs outlast any boot timeout.  The
 * budget bounds bring-up at about MIN_ROUNDS slow rounds plus the budget
 * per AP; the offset is then good only to its wider kept round trip,
 * which tsc_sync_ns says (the clock suite checks against it).  Round
 * TSC_SYNC_DONE tells the AP it is over.
 */
#define TSC_SYNC_MIN_ROUNDS 4
#define TSC_SYNC_GOOD_NS    50000ULL
#define TSC_SYNC_DONE	    (~0ULL)

int64_t tsc_sync_bsp(struct tsc_sync *s, struct tsc_sync_result *res)
{
	uint64_t good = ns_to_tsc_ticks(TSC_SYNC_GOOD_NS);
	uint64_t budget = ns_to_tsc_ticks(TSC_SYNC_BUDGET_NS);
	uint64_t start = rdtsc(), r;
	int64_t best = 0;

	res->rtt = ~0ULL;
	res->cut_short = false;
	for (r = 1; r <= TSC_SYNC_MAX_ROUNDS; r++) {
		uint64_t t0, t1;

		if (r > TSC_SYNC_MIN_ROUNDS) {
			if (res->rtt < good)
				break;
			if (rdtsc() - start >= budget) {
				res->cut_short = true;
				break;
			}
		}
		t0 = rdtsc() + this_cpu()->tsc_offset;
		smp_store_release(&s->round, r);
		while (smp_load_acquire(&s->ack) != r)
			cpu_relax();
		t1 = rdtsc() + this_cpu()->tsc_offset;
		if (t1 - t0 < res->rtt) {
			res->rtt = t1 - t0;
			best = (int64_t)(t0 / 2 + t1 / 2 -
					 READ_ONCE(s->ap_tsc));
		}
	}
	res->rounds = (unsigned)(r - 1);
	smp_store_release(&s->round, TSC_SYNC_DONE);
	while (smp_load_acquire(&s->ack) != TSC_SYNC_DONE)
		cpu_relax();
	return best;
}

void tsc_sync_ap(struct tsc_sync *s)
{
	uint64_t stall = READ_ONCE(s->ap_stall_ticks);

	for (uint64_t r = 1;; r++) {
		uint64_t got;

		while ((got = smp_load_acquire(&s->round)) != r &&
		       got != TSC_SYNC_DONE)
			cpu_relax();
		if (got == TSC_SYNC_DONE)
			break;
		WRITE_ONCE(s->ap_tsc, rdtsc());
		/* After the stamp: the offset stays within half the round. */
		for (uint64_t t = rdtsc(); rdtsc() - t < stall;)
			cpu_relax();
		smp_store_release(&s->ack, r);
	}
	smp_store_release(&s->ack, TSC_SYNC_DONE);
}

void delay_ns(uint64_t ns)
{
	uint64_t t0 = clock_ns();

	while (clock_ns() - t0 < ns)
		cpu_relax();
}

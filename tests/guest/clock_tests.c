/* The monotonic clock: calibration plausibility, monotonicity, agreement. */
#include "arch/x86_64/tsc.h"
#include "kernel/ktest.h"

static void tsc_rate_is_plausible(struct ktest *t)
{
	/* Any x86_64 TSC, emulated or real, runs between 100 MHz and 10 GHz. */
	KEXPECT(t, tsc_hz() > 100000000ULL);
	KEXPECT(t, tsc_hz() < 10000000000ULL);
}

static void clock_ns_is_monotonic(struct ktest *t)
{
	uint64_t prev = clock_ns(), backwards = 0;

	for (int i = 0; i < 100000; i++) {
		uint64_t now = clock_ns();

		backwards += now < prev;
		prev = now;
	}
	KEXPECT_EQ(t, backwards, 0);
}

static void clock_ns_agrees_with_pit(struct ktest *t)
{
	uint64_t best = ~0ULL;

	/*
	 * A 20 ms PIT window measured with clock_ns: the shortest of three
	 * (host preemption only lengthens a window) within 10 %.
	 */
	for (int i = 0; i < 3; i++) {
		uint64_t t0 = clock_ns(), ticks = pit_wait_tsc(20000);
		uint64_t d = clock_ns() - t0;

		KEXPECT(t, ticks != 0);
		if (d < best)
			best = d;
	}
	KEXPECT(t, best >= 18000000ULL);
	KEXPECT(t, best <= 22000000ULL);
}

static const struct ktest_case clock_cases[] = {
	KTEST_CASE(tsc_rate_is_plausible),
	KTEST_CASE(clock_ns_is_monotonic),
	KTEST_CASE(clock_ns_agrees_with_pit),
};
KTEST_SUITE(clock_suite, .name = "clock", .cases = clock_cases,
	    .ncases = sizeof(clock_cases) / sizeof(clock_cases[0]));

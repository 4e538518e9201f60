/* The monotonic clock: calibration plausibility, monotonicity, agreement. */
#include "arch/x86_64/tsc.h"
#include "kernel/ktest.h"
#include "lib/time.h"

static void tsc_rate_is_plausible(struct ktest *t)
{
	/* Any x86_64 TSC, emulated or real, runs between 100 MHz and 10 GHz. */
	KEXPECT(t, tsc_hz() > 100000000ULL);
	KEXPECT(t, tsc_hz() < 10 * NSEC_PER_SEC);
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
	struct pit_window w;
	uint64_t pit_ns, tsc_ns, err_ns;

	/*
	 * A fresh 20 ms PIT window, converted with the calibrated rate, must
	 * match the PIT's own length within 2 % plus the window's sampling
	 * error.
	 */
	KEXPECT_EQ(t, pit_measure(23864, &w), 0);
	pit_ns = w.pit_ticks * NSEC_PER_SEC / PIT_TICK_HZ;
	tsc_ns = tsc_to_ns(w.tsc_ticks);
	err_ns = tsc_to_ns(w.error_tsc) + pit_ns / 50;
	if (tsc_ns + err_ns < pit_ns || tsc_ns > pit_ns + err_ns)
		ktest_fail(t, __FILE__, __LINE__,
			   "PIT window %lu ns measured as %lu ns (+- %lu)",
			   pit_ns, tsc_ns, err_ns);
}

static const struct ktest_case clock_cases[] = {
	KTEST_CASE(tsc_rate_is_plausible),
	KTEST_CASE(clock_ns_is_monotonic),
	KTEST_CASE(clock_ns_agrees_with_pit),
};
KTEST_SUITE(clock_suite, .name = "clock", .cases = clock_cases,
	    .ncases = sizeof(clock_cases) / sizeof(clock_cases[0]));

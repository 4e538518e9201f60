// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/test_scenario_bound.c - kernel/scenario_bound.c, the
 * all-idle scenarios' lower bound on wakes.
 */
#include "tests/host/registry.h"
#include "kernel/scenario_bound.h"

#define E(f, r, s, c)                                            \
	{                                                        \
		.first = (f), .ran = (r), .seq = (s), .cpu = (c) \
	}

/* Disjoint spans in distinct wakes of the window each count. */
START_TEST(test_disjoint_spans_each_count)
{
	struct scenario_expiry log[] = { E(30, 30, 3, 1), E(10, 10, 1, 0),
					 E(20, 20, 2, 0) };
	uint64_t lo[] = { 0, 2 }, hi[] = { 2, 3 };

	ck_assert_uint_eq(scenario_bound(log, 3, lo, hi), 3);
	/* Sorted in place by first jiffy. */
	ck_assert_uint_eq(log[0].first, 10);
	ck_assert_uint_eq(log[2].first, 30);
}
END_TEST

/* Overlapping spans, and two expiries of one wake, need one wake. */
START_TEST(test_overlap_and_one_wake_count_once)
{
	struct scenario_expiry overlap[] = { E(10, 15, 1, 0), E(12, 12, 1, 1) };
	struct scenario_expiry same[] = { E(10, 10, 1, 0), E(11, 11, 1, 0) };
	uint64_t lo[] = { 0, 0 }, hi[] = { 5, 5 };

	ck_assert_uint_eq(scenario_bound(overlap, 2, lo, hi), 1);
	lo[0] = lo[1] = 0;
	ck_assert_uint_eq(scenario_bound(same, 2, lo, hi), 1);
}
END_TEST

/*
 * The failure it fixes: an expiry logged after the closing snapshot, in a
 * wake the window left out (seq past hi), counted for the bound, and an
 * all_idle run read 254 idle wakes against a bound of 255.
 */
START_TEST(test_wake_after_the_window_counts_for_nothing)
{
	struct scenario_expiry log[] = { E(10, 10, 1, 0), E(20, 20, 2, 0) };
	uint64_t lo[] = { 0 }, hi[] = { 1 };

	ck_assert_uint_eq(scenario_bound(log, 2, lo, hi), 1);
}
END_TEST

/* Nor does a wake begun before the window opened (seq == lo). */
START_TEST(test_wake_before_the_window_counts_for_nothing)
{
	struct scenario_expiry log[] = { E(10, 10, 4, 0), E(20, 20, 5, 0) };
	uint64_t lo[] = { 4 }, hi[] = { 5 };

	ck_assert_uint_eq(scenario_bound(log, 2, lo, hi), 1);
}
END_TEST

/* Jiffies near the wrap: spans compare wrap-safely. */
START_TEST(test_spans_across_the_jiffies_wrap)
{
	struct scenario_expiry log[] = { E(UINT64_MAX - 1, UINT64_MAX, 1, 0),
					 E(1, 1, 1, 1),
					 E(UINT64_MAX, 0, 2, 0) };
	uint64_t lo[] = { 0, 0 }, hi[] = { 2, 1 };

	/* Sorted: MAX-1, MAX, 1; MAX overlaps MAX-1's span, 1 does not. */
	ck_assert_uint_eq(scenario_bound(log, 3, lo, hi), 2);
}
END_TEST

/* Whatever the log, the bound never exceeds the window's wakes. */
START_TEST(test_never_above_the_window_wakes)
{
	enum { NCPU = 5, N = 400 };
	static struct scenario_expiry log[N];
	uint64_t lo[NCPU], hi[NCPU], wakes = 0, x = 12345;

	for (unsigned c = 0; c < NCPU; c++) {
		lo[c] = 10 + c;
		hi[c] = lo[c] + c * 7;
		wakes += hi[c] - lo[c];
	}
	for (unsigned i = 0; i < N; i++) {
		unsigned c;

		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		c = (x >> 33) % NCPU;
		log[i].cpu = c;
		log[i].first = (x >> 20) % 1000;
		log[i].ran = log[i].first + (x >> 50) % 3;
		/* Wakes from before, in and after the window. */
		log[i].seq = lo[c] - 1 + (x >> 40) % (c * 7 + 3);
	}
	ck_assert_uint_le(scenario_bound(log, N, lo, hi), wakes);
}
END_TEST

static Suite *scenario_bound_suite(void)
{
	Suite *s = suite_create("scenario_bound");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_disjoint_spans_each_count);
	tcase_add_test(tc, test_overlap_and_one_wake_count_once);
	tcase_add_test(tc, test_wake_after_the_window_counts_for_nothing);
	tcase_add_test(tc, test_wake_before_the_window_counts_for_nothing);
	tcase_add_test(tc, test_spans_across_the_jiffies_wrap);
	tcase_add_test(tc, test_never_above_the_window_wakes);
	suite_add_tcase(s, tc);
	return s;
}
HOST_SUITE(scenario_bound_suite);

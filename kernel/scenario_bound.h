/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel/scenario_bound.h - the all-idle scenarios' lower bound on wakes,
 * from the expiries a run had (kernel/scenario.c logs them).  Pure: no
 * per-CPU state, so the host unit tests run it
 * (tests/host/test_scenario_bound.c).
 */
#ifndef KERNEL_SCENARIO_BOUND_H
#define KERNEL_SCENARIO_BOUND_H

#include <stdint.h>

/* One expiry of the window. */
struct scenario_expiry {
	uint64_t first, ran; /* jiffies: the first it could run, it ran */
	uint64_t seq;	     /* the running CPU's wake count then */
	unsigned cpu;	     /* the running CPU */
};

/*
 * The bound for @n expiries @log (sorted in place by first jiffy).  @lo
 * and @hi give, per CPU, its wake count at the window's opening and
 * closing snapshots: only wakes in (lo, hi] are the window's.  @lo is
 * used as scratch and left changed.  Never more than the window's wakes,
 * the sum of hi - lo.
 */
uint64_t scenario_bound(struct scenario_expiry *log, uint64_t n, uint64_t *lo,
			const uint64_t *hi);

#endif /* KERNEL_SCENARIO_BOUND_H */

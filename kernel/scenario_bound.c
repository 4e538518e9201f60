// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/scenario_bound.c - see kernel/scenario_bound.h.
 *
 * With every CPU idle, each expiry needs a wake somewhere in [first, ran]
 * (kernel/scenario.c says why first is expires + 1).  Greedily, by first
 * jiffy, an expiry counts if its first jiffy comes after the last counted
 * one ran, and it ran in a wake of its CPU that no counted one ran in and
 * that the window counted.  Counted expiries' spans are then disjoint, so
 * any placement needs a wake for each (the bound); and each ran in a
 * distinct wake of the window, so the run itself had at least as many
 * (the bound never beats the run it came from).
 *
 * Why the window's wakes only: an expiry is logged until the scenario
 * stops, which is after the closing snapshots; one that ran in a wake the
 * snapshot left out (a wake after the window's end) would count for the
 * bound and not for the run, and the run would beat its own bound.
 *
 * Per CPU, counted expiries are in the order they ran (each ran before
 * the next one's first jiffy), and a CPU's wake count only grows; so
 * checking against the CPU's last counted wake is enough for "no counted
 * one ran in it".
 */
#include "kernel/scenario_bound.h"
#include "timer/timer.h"

/* Heap sort by first jiffy (n log n: the log can be long). */
static bool first_before(const struct scenario_expiry *a,
			 const struct scenario_expiry *b)
{
	return timer_before(a->first, b->first);
}

static void sift(struct scenario_expiry *v, uint64_t i, uint64_t n)
{
	for (uint64_t c; (c = 2 * i + 1) < n; i = c) {
		struct scenario_expiry t;

		if (c + 1 < n && first_before(&v[c], &v[c + 1]))
			c++;
		if (!first_before(&v[i], &v[c]))
			return;
		t = v[i];
		v[i] = v[c];
		v[c] = t;
	}
}

static void sort_by_first(struct scenario_expiry *v, uint64_t n)
{
	for (uint64_t i = n / 2; i-- > 0;)
		sift(v, i, n);
	while (n-- > 1) {
		struct scenario_expiry t = v[0];

		v[0] = v[n];
		v[n] = t;
		sift(v, 0, n);
	}
}

uint64_t scenario_bound(struct scenario_expiry *log, uint64_t n, uint64_t *lo,
			const uint64_t *hi)
{
	uint64_t bound = 0, last = 0;

	sort_by_first(log, n);
	for (uint64_t i = 0; i < n; i++) {
		const struct scenario_expiry *e = &log[i];

		if ((bound && !timer_after(e->first, last)) ||
		    e->seq <= lo[e->cpu] || e->seq > hi[e->cpu])
			continue;
		bound++;
		last = e->ran;
		lo[e->cpu] = e->seq;
	}
	return bound;
}

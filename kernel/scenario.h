/*
 * kernel/scenario.h - workloads run after the self-tests (scenario=).
 *
 * Every CPU arms one periodic global timer (re-armed from its callback,
 * wherever that runs); the scenario's busy CPUs spin with their tick on,
 * the others idle.  At the end: one `# scenario` line, one `# stat
 * scenario=...` line per CPU with the deltas over the run, a `# scenario_
 * result` line with wakes against the lower bound and expiry lateness, and
 * a self-check (docs/scenarios.md).
 */
#ifndef KERNEL_SCENARIO_H
#define KERNEL_SCENARIO_H

#include <stdint.h>

#include "kernel/scenario_opts.h"

/*
 * Expiry lateness in jiffies, for every scenario: updated lock-free from
 * timer callbacks on any CPU (docs/scenarios.md, "Why the accounting takes
 * no lock"); the last bucket holds everything later.
 */
#define SCENARIO_LATE_BUCKETS 64

struct late_hist {
	uint64_t bucket[SCENARIO_LATE_BUCKETS];
	uint64_t max, count;
};

void late_hist_add(struct late_hist *h, uint64_t late);
/* The smallest lateness that @pct percent of the expiries did not exceed. */
uint64_t late_hist_pct(const struct late_hist *h, unsigned pct);

/* After SMP bring-up: are the busy= CPUs online?  0, or -1 after a message. */
int scenario_check(const struct scenario_opts *o);
/* Run it; returns the number of failed self-checks. */
unsigned scenario_run(const struct scenario_opts *o);

#endif

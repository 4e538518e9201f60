/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel/scenario_opts.h - parse `scenario=NAME[,key=value...]`.
 *
 * Portable (host-tested).  Keys: period_ms= (timer period, default 10),
 * duration_ms= (default 1000), busy=CPU[,CPU...] (CPU lists with ranges,
 * e.g. busy=0,4-5; a comma-separated word without '=' continues the list
 * of the key before it), hotplug=CPU@MS[,CPU@MS...] (MS ms into the run
 * CPU goes offline; its next entry brings it back, and so on; every CPU
 * still offline comes back at the end, before the report), seed=N (mixed:
 * the workload's random seed, default 1).  The CPU lists
 * are checked against the real CPUs later, when they are known.
 */
#ifndef KERNEL_SCENARIO_OPTS_H
#define KERNEL_SCENARIO_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum scenario_kind {
	SCENARIO_NONE,
	SCENARIO_ONE_BUSY,	/* busy CPUs (default CPU 0) run, others idle */
	SCENARIO_ALL_IDLE,	/* every CPU idle, the boot CPU too */
	SCENARIO_BUSY_PER_NODE, /* the first CPU of each node busy */
	SCENARIO_MIXED,		/* random busy/idle, timers of every kind */
};

#define SCENARIO_MAX_BUSY    64 /* explicit busy= entries */
#define SCENARIO_MAX_HOTPLUG 64 /* hotplug= entries */

struct scenario_hotplug {
	unsigned int cpu;
	unsigned int at_ms; /* from the start of the run */
};

struct scenario_opts {
	enum scenario_kind kind;
	unsigned int period_ms;
	unsigned int duration_ms;
	unsigned int seed; /* mixed: the workload's seed */
	/*
	 * Test only: the boot CPU, when idle, wakes this much after the
	 * window's end, as a vCPU the host did not run in time would.
	 */
	unsigned int close_late_ms;
	unsigned int nbusy; /* 0: the scenario's default */
	unsigned int busy[SCENARIO_MAX_BUSY];
	unsigned int nhotplug;
	struct scenario_hotplug hotplug[SCENARIO_MAX_HOTPLUG]; /* by at_ms */
};

int scenario_parse(const char *s, struct scenario_opts *out, char *err,
		   size_t errlen);
const char *scenario_name(enum scenario_kind kind);

#endif

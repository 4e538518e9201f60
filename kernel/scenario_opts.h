/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel/scenario_opts.h - parse `scenario=NAME[,key=value...]`.
 *
 * Portable (host-tested).  Keys: period_ms= (timer period, default 10),
 * duration_ms= (default 1000), busy=CPU[,CPU...] (CPU lists with ranges,
 * e.g. busy=0,4-5; a comma-separated word without '=' continues the list
 * of the key before it).  The CPU list is checked against the real CPU
 * count later, when it is known.
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
	SCENARIO_BUSY_PER_NODE,	/* the first CPU of each node busy */
};

#define SCENARIO_MAX_BUSY	64	/* explicit busy= entries */

struct scenario_opts {
	enum scenario_kind kind;
	unsigned int period_ms;
	unsigned int duration_ms;
	unsigned int nbusy;		/* 0: the scenario's default */
	unsigned int busy[SCENARIO_MAX_BUSY];
};

int scenario_parse(const char *s, struct scenario_opts *out, char *err,
		   size_t errlen);
const char *scenario_name(enum scenario_kind kind);

#endif

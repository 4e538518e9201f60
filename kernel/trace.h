/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel/trace.h - per-CPU trace buffers and tracepoints (docs/tracing.md).
 *
 * trace(event, args...) records one event (lib/trace_events.h lists them
 * with their fields) in the current CPU's ring when trace= enabled it.
 * Off, it is one load of trace_enabled_mask, a test and a branch not
 * taken; its arguments are not evaluated.  timer/ reaches the same
 * through timer_env_trace() (kernel/env/timer_env.h).
 *
 * Building with -DTRACE_COMPILED_OUT removes every tracepoint (for the
 * cost comparison in docs/tracing.md); trace= then records nothing.
 */
#ifndef KERNEL_TRACE_H
#define KERNEL_TRACE_H

#include <stdint.h>

#include "lib/trace_events.h"

/* Bit TRACE_BIT(id) set: the event is recorded.  Written at boot and
 * when the dump starts, read by every tracepoint. */
extern uint32_t trace_enabled_mask;

void trace_record(unsigned int id, const uint64_t *args, unsigned int n);

#define trace(ev, ...) \
	TRACE_POINT(trace_enabled_mask, trace_record, ev, __VA_ARGS__)

/*
 * Boot: after the command line, the per-CPU areas and the clock, before
 * the timers are set up (so the hierarchy's construction is traced).
 * Fails the boot with a message if the buffers do not fit in memory.
 */
void trace_init(void);

/*
 * End of the run: stop recording and print every CPU's records merged
 * in time order between "# trace begin" and "# trace end".  Prints
 * nothing when tracing is off.
 */
void trace_dump(void);

/* CPU @cpu's ring, for the in-guest tests; NULL when tracing is off. */
struct trace_ring;
const struct trace_ring *trace_cpu_ring(unsigned int cpu);

#endif /* KERNEL_TRACE_H */

/*
 * tests/guest/probe.h - what the timer-facing guest suites share: a timer
 * that records where and when it ran, and a wait for the other CPUs to be
 * halted in their idle loops.
 */
#ifndef TESTS_GUEST_PROBE_H
#define TESTS_GUEST_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "timer/timer.h"

struct probe {
	struct timer_list timer; /* first: the callback casts back */
	uint64_t expires;
	volatile uint64_t fired_j; /* jiffies64 in the callback */
	volatile unsigned fired_cpu;
	volatile unsigned fired; /* callback runs */
	uint64_t irq_delay_ns;	 /* how late the expiring CPU's irq was */
	uint64_t awake_ns;	 /* its cpu_idle_awake_ns() then */
	/* Where it was queued, as a lateness report says (probe_queued()). */
	unsigned queued_cpu;
	uint64_t queued_j, base_clk, base_next;
	bool base_recalc, base_idle;
};

/* The callback: timer_setup(&p->timer, probe_fn, flags). */
void probe_fn(struct timer_list *t);
/* Record, right after arming @p, which base it went to and its state. */
void probe_queued(struct probe *p, uint64_t now_j);
/* Has @arg (a struct probe) run?  Fits cpu_idle_until(). */
bool probe_fired(void *arg);

/* Every online CPU but this one is halted in its idle loop. */
bool other_cpus_idle(void *arg);
/* Wait for other_cpus_idle(), at most @timeout_ns; false on timeout. */
bool wait_other_cpus_idle(uint64_t timeout_ns);

#endif

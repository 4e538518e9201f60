/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/host/stress/stress.h - pthreads as CPUs, for ThreadSanitizer.
 *
 * Each CPU is a thread with host_cpu set; one more thread moves the
 * shared jiffies/ns clock, in real time while the CPUs race, then in step
 * with them while they all idle (stress.c).  CPUs tick, arm and cancel
 * timers, go idle through timer_nohz_next_event() (tmigr_cpu_deactivate()
 * and tmigr_cpu_new_timer() underneath), wake for their programmed event
 * or an IPI, and leave idle through timer_nohz_idle_exit()
 * (tmigr_cpu_activate()); busy CPUs also call tmigr_requires_handle_remote()
 * and tmigr_handle_remote() between ticks.  Files:
 *
 *   stress.c         boot, the clock, the CPU threads, the end checks
 *   stress_timers.c  the timers, their accounting and the operations
 */
#ifndef TESTS_HOST_STRESS_STRESS_H
#define TESTS_HOST_STRESS_STRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "timer/timer.h"
#include "tests/host/sim/rng.h"

#define STRESS_MAX_CPUS 64

/*
 * Timer classes, by who may touch a timer when:
 *   OWN_PINNED, OWN_DEF  pinned or deferrable on the owner's own base: only
 *                        the owner arms them and only the owner's CPU
 *                        expires them, so the owner tracks them exactly and
 *                        uses every arming call;
 *   GLOBAL, REMOTE       movable, or pinned onto another CPU with
 *                        add_timer_on(): they expire on any CPU (the
 *                        target), so the owner arms them only when idle
 *                        (state IDLE, set by whoever ended the last arm),
 *                        and otherwise only cancels them.
 */
enum stress_class { OWN_PINNED, OWN_DEF, GLOBAL, REMOTE, NR_CLASSES };

enum { ST_IDLE, ST_ARMED };

struct stress_timer {
	struct timer_list t; /* first: the callback's pointer is ours */
	enum stress_class cls;
	unsigned int owner;
	unsigned int target; /* REMOTE: the CPU it is pinned to */
	uint64_t period;     /* re-armed in the callback if non-zero */
	/* Shared, accessed with __atomic builtins only. */
	int state;		       /* GLOBAL, REMOTE */
	uint64_t exp;		       /* expires of the arm in flight */
	uint64_t enq, sup, can, fired; /* accounting, see stress_check() */
	uint64_t early, twice, wrong_cpu;
	uint64_t bad_ret; /* a call's return contradicted the state */
	/* Owner's exact view for OWN_*; not shared. */
	bool pending;
};

struct stress_cpu {
	struct sim_rng rng;
	struct stress_timer *timers; /* this CPU's, STRESS_PER_CPU */
	uint64_t last_tick_j;
	int ipi;	  /* atomic: a wake-up IPI arrived */
	uint64_t acked_j; /* atomic: last jiffy served idle, see stress.c */
	uint64_t w;	  /* atomic: the wake-up programmed when idle */
	uint64_t ticks, idles, wakes, ipis, handle_remote;
};

extern unsigned int stress_ncpus;
extern struct stress_cpu stress_cpus[STRESS_MAX_CPUS];
extern int stress_no_rearm;	 /* atomic: callbacks stop re-arming */
extern uint64_t stress_late_max; /* atomic: information only */
/* atomic: the same, idle phase only (the lock-step clock); information */
extern uint64_t stress_idle_late_max;

#define STRESS_PER_CPU 24

/* stress_timers.c */
void stress_timers_init(unsigned int cpu, uint64_t seed);
void stress_timer_op(unsigned int cpu);
int stress_check_lost(uint64_t now, uint64_t slack);
int stress_check_final(void);
void stress_timers_free(void);

#endif /* TESTS_HOST_STRESS_STRESS_H */

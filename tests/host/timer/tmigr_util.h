/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/host/timer/tmigr_util.h - driving timer/ and the pull hierarchy
 * on the host for the tmigr unit and race tests.
 *
 * Time: jiffies and the ns clock move together, jiffy j starts at
 * j * tick_ns.  A "CPU" is host_cpu; the helpers switch to it and back.
 * Idle means: timer_nohz_next_event() said the tick may stop; such a CPU
 * is only ticked when its wake time has come (a timer interrupt), and
 * then re-enters idle, as a real idle loop does.
 */
#ifndef TESTS_HOST_TIMER_TMIGR_UTIL_H
#define TESTS_HOST_TIMER_TMIGR_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "timer/timer.h"
#include "timer/timer_migration.h"

#define TM_HZ	   1000u
#define TM_TICK_NS (1000000000ull / TM_HZ)

struct tm_cpu {
	bool up;	    /* online in the hierarchy */
	bool idle;	    /* ticks stopped */
	uint64_t wake_ns;   /* armed wake-up, TMIGR_NONE_NS */
	unsigned int wakes; /* timer wake-ups while idle */
};

extern struct tm_cpu tm_cpus[];

/* A timer recording where and when it fired. */
struct tm_rec {
	struct timer_list t;
	unsigned int fired;
	uint64_t fired_at;
	unsigned int fired_cpu;
};

void tm_env(unsigned int ncpus);
void tm_start_tmigr(unsigned int nnodes);
void tm_start_wheel(uint64_t j0);
void tm_start(unsigned int nnodes, uint64_t j0);
void tm_setup(unsigned int ncpus, unsigned int nnodes, uint64_t j0);
void tm_teardown(void);
void tm_set_time(uint64_t j);
uint64_t tm_ns(uint64_t j);

void tm_prepare(unsigned int cpu, unsigned int on);
void tm_online(unsigned int cpu);
void tm_bringup_all(void);

uint64_t tm_idle(unsigned int cpu);
void tm_wake(unsigned int cpu);
void tm_tick(unsigned int cpu);
void tm_advance_to(uint64_t j);

void tm_rec_arm(struct tm_rec *r, unsigned int cpu, uint32_t flags,
		uint64_t expires);

uint64_t tm_deactivate(unsigned int cpu, uint64_t nextexp);
uint64_t tm_new_timer(unsigned int cpu, uint64_t nextexp);
void tm_activate(unsigned int cpu);
void tm_handle_remote(unsigned int cpu);
bool tm_requires_remote(unsigned int cpu);

int tm_root(void);
int tm_check_invariants(char *why, unsigned int len);
void tm_assert_invariants(void);
/* The invariants hold and no WARN fired: the usual end of a test. */
void tm_assert_clean(void);
unsigned int tm_group_of(unsigned int cpu);

#endif /* TESTS_HOST_TIMER_TMIGR_UTIL_H */

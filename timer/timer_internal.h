/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timer/timer_internal.h - what timer.c (the wheel) and timer_idle.c (next
 * event, NOHZ idle, remote expiry) share.  Not for users of timer/.
 */
#ifndef TIMER_TIMER_INTERNAL_H
#define TIMER_TIMER_INTERNAL_H

#include "timer/timer.h"
#include "timer_env.h"

#define LVL_BITS       6
#define LVL_SIZE       (1u << LVL_BITS)
#define LVL_DEPTH_MAX  9
#define WHEEL_SIZE_MAX (LVL_SIZE * LVL_DEPTH_MAX)

/* An empty base looks this far ahead; beyond any clamped timer. */
#define NEXT_TIMER_MAX_DELTA ((1ull << 30) - 1)

enum { BASE_LOCAL, BASE_GLOBAL, BASE_DEF, NR_BASES };

struct timer_base {
	spinlock_t lock;
	struct timer_list *running_timer;
	unsigned int cpu;
	unsigned int expiry_cpu; /* valid while expiry_active */
	bool expiry_active;	 /* a CPU is in __run_timers() */
	bool next_expiry_recalc; /* next_expiry may be early */
	bool timers_pending;
	bool is_idle;
	bool offline;	      /* timers_cpu_dead(): takes no timer */
	uint64_t clk;	      /* next jiffy to collect */
	uint64_t next_expiry; /* earliest bucket expiry */
	uint64_t pending_map[LVL_DEPTH_MAX]; /* one word per level */
	struct timer_list *vectors[WHEEL_SIZE_MAX];
};

/*
 * One CPU's bases and counters.  A counter has one writer: the CPU itself,
 * or for pulled_for whoever holds the CPU's global base lock; readers use
 * READ_ONCE().
 */
struct timer_cpu {
	struct timer_base bases[NR_BASES];
	struct timer_cpu_stats stats;
};

extern struct timer_cpu *timer_cpus;
extern unsigned int timer_nr_cpus;
extern enum timer_model timer_model;

static inline struct timer_base *cpu_base(unsigned int cpu, unsigned int idx)
{
	return &timer_cpus[cpu].bases[idx];
}

void timer_recalc_next_expiry(struct timer_base *base);
void __forward_timer_base(struct timer_base *base, uint64_t basej);
void __run_timers(struct timer_base *base, unsigned long *flags);
unsigned int __timer_move_all(struct timer_base *from, struct timer_base *to);

#endif /* TIMER_TIMER_INTERNAL_H */

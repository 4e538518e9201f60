/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/host/sim/sim.h - the many-CPU discrete-event simulator.
 *
 * The simulator drives the real timer/ sources through the host environment
 * (tests/host/env/timer_env.h): one OS thread plays every CPU in turn by
 * setting host_cpu, virtual time advances a jiffy per step, and after each
 * step the invariants of DESIGN.md are checked.  Files:
 *
 *   main.c    command line, the default run list, summary lines
 *   sim.c     boot, the per-jiffy loop, CPU busy/idle/wake transitions
 *   report.c  violations, traces, the watchdog
 *   work.c    the random workload and the timers' bookkeeping
 *   check.c   hierarchy invariants read through tmigr_*_get()
 *   topo.c    the CPU-to-node/core shapes
 */
#ifndef TESTS_HOST_SIM_SIM_H
#define TESTS_HOST_SIM_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "timer/timer.h"
#include "tests/host/sim/rng.h"

#define SIM_MAX_NODES	64

enum sim_shape { SHAPE_EVEN, SHAPE_UNEVEN, SHAPE_INTERLEAVED, SHAPE_SMT };

struct sim_config {
	unsigned int cpus;
	unsigned int nodes;
	enum sim_shape shape;
	enum timer_model model;
	uint64_t seed;
	uint64_t steps;		/* jiffies simulated */
	uint64_t wrap;		/* start this many jiffies before 2^64 */
	bool steady;		/* workload without the quiet/all-idle phases */
	unsigned int hz;
	unsigned int verbose;	/* violations printed beyond the first */
	int trace_timer;	/* print every event of this timer, or -1 */
	int trace_cpu;		/* print every transition of this CPU, or -1 */
};

/* Why an idle CPU's wake-up was programmed or delivered. */
enum sim_wake {
	WAKE_NONE,
	WAKE_LOCAL,	/* its own pinned timer */
	WAKE_GLOBAL,	/* its own movable timer (push/local models only) */
	WAKE_HIER,	/* last active CPU: first event of the hierarchy */
	WAKE_TICK,	/* tick kept: an event within the next jiffy */
	WAKE_IPI,	/* a pinned timer queued on it remotely */
	WAKE_IRQ,	/* a device interrupt (workload), not a timer */
	NR_SIM_WAKE
};

struct sim_stats {
	uint64_t steps;
	uint64_t armed;		/* arms of a timer that was not pending */
	uint64_t modified;	/* re-arms of a pending timer */
	uint64_t expired;
	uint64_t cancelled;
	uint64_t pending;	/* at the end */
	uint64_t early;
	uint64_t twice;
	uint64_t lost;
	uint64_t late_max_j;	/* worst lateness of a non-exempt timer */
	uint64_t violations;
	uint64_t wakes[NR_SIM_WAKE];	/* delivered to idle CPUs */
	uint64_t wakes_idle;	/* timer wakes: all but WAKE_TICK, WAKE_IRQ */
	uint64_t wakes_global_busy;	/* for a movable timer, a CPU busy */
	uint64_t wakes_empty[NR_SIM_WAKE];	/* that expired no timer */
	uint64_t hier_stale;	/* WAKE_HIER programmed after a CPU woke */
	uint64_t remote_expiries;	/* movable timers run on another CPU */
	uint64_t global_expired;
	uint64_t ipis;
	uint64_t warns;		/* WARN_ON_ONCE hits inside timer/ */
	uint64_t busy_jiffies;	/* sum over jiffies of busy CPUs */
	uint64_t time_jumps;	/* jiffies that began inside a softirq */
};

/* One virtual CPU as the simulator sees it. */
struct sim_cpu {
	bool busy;
	bool tick_stopped;	/* idle with the tick off: only wake_ns wakes */
	bool ipi;		/* a wake-up IPI is waiting */
	enum sim_wake reason;	/* of the programmed wake-up */
	uint64_t wake_ns;	/* programmed wake-up (a jiffy start), or NONE */
	uint64_t asked_ns;	/* what timer_nohz_next_event() returned */
	uint64_t hier_wakeup;	/* tmigr wakeup seen set legitimately */
	uint32_t idle_gen;	/* bumped on every idle entry */
	uint64_t tick_j;	/* jiffy of its last tick (busy, or woken) */
	unsigned int wakes_now;	/* wakes in the current jiffy (storm guard) */
	struct sim_timer *head;	/* sim's list of timers on its bases */
};

/* A timer of the workload, with what the simulator knows about it. */
struct sim_timer {
	struct timer_list t;	/* first: the callback's pointer is ours */
	unsigned int id;
	uint32_t kind;		/* 0, TIMER_PINNED or TIMER_DEFERRABLE */
	bool pending;		/* armed and not yet expired or cancelled */
	bool reported;		/* overdue already counted as lost */
	bool armed_idle;	/* armed while @cpu was idle */
	unsigned int cpu;	/* the base's CPU while pending */
	unsigned int level;	/* wheel level chosen at enqueue */
	uint64_t expires;
	uint64_t bucket;	/* jiffy its wheel bucket is due */
	uint32_t idle_gen;	/* of @cpu when armed (deferrable exemption) */
	uint64_t period;	/* re-arms in its callback if non-zero */
	struct sim_timer *next, **pprev;	/* on sim_cpu.head */
};

struct sim {
	struct sim_config cfg;
	struct sim_stats st;
	struct sim_rng rng;
	uint64_t tick_ns;
	uint64_t j0;		/* jiffies at step 0 */
	uint64_t step;		/* keys the workload's decisions */
	bool jumped;		/* the clock ticked inside this step */
	bool in_ticks;		/* in run_jiffy(): the clock may tick */
	uint64_t now_j;		/* jiffies: wraps, compare with timer_after() */
	uint64_t now_ns;	/* never wraps: sim_j2ns(now_j) */
	unsigned int phase;	/* workload phase, see work.c */
	uint64_t phase_end_ns;
	int expect_ipi;		/* CPU an add_timer_on() may IPI, or -1 */
	unsigned int nr_busy;
	struct sim_cpu *cpus;
	struct sim_timer *timers;
	unsigned int nr_timers;
	unsigned int *ipi_queue;	/* CPUs with sim_cpu.ipi set */
	unsigned int nr_ipi;
	unsigned int nr_groups;	/* of the hierarchy, read by check.c */
	void *bases;		/* timer_init() storage */
};

/* "None" for ns values (jiffies wrap, so they have no free value). */
#define SIM_NONE	UINT64_MAX
/* The ns clock at step 0, so that ns - tick_ns never underflows. */
#define SIM_NS_BASE	1000000000ull

/** sim_j2ns - start of jiffy @j on the ns clock */
static inline uint64_t sim_j2ns(const struct sim *s, uint64_t j)
{
	return SIM_NS_BASE + (j - s->j0) * s->tick_ns;
}

/** sim_ns2j - the jiffy @ns falls in (for messages) */
static inline uint64_t sim_ns2j(const struct sim *s, uint64_t ns)
{
	return s->j0 + (ns - SIM_NS_BASE) / s->tick_ns;
}

/* sim.c */
int sim_run(const struct sim_config *cfg, struct sim_stats *out);
void sim_cpu_enter_idle(struct sim *s, unsigned int cpu);
void sim_cpu_exit_idle(struct sim *s, unsigned int cpu);
void sim_cpu_irq_exit(struct sim *s, unsigned int cpu);
void sim_deliver_ipis(struct sim *s);

/* report.c */
void sim_violation(struct sim *s, int cpu, int timer, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void sim_trace(struct sim *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sim_watchdog_arm(const struct sim *s);
void sim_watchdog_step(uint64_t step);
void sim_watchdog_disarm(void);

/* work.c */
int sim_work_init(struct sim *s);
void sim_work_step(struct sim *s);
void sim_work_check(struct sim *s);
void sim_work_finish(struct sim *s);
struct sim_timer *sim_cpu_first_events(struct sim *s, unsigned int cpu,
				       uint64_t *local, uint64_t *global);

/* check.c */
bool sim_check_boot(struct sim *s);
void sim_check_hierarchy(struct sim *s);
bool sim_hierarchy_idle(void);
uint64_t sim_tmigr_wakeup(unsigned int cpu);

/* topo.c */
int sim_topo_apply(const struct sim_config *cfg);
int sim_shape_parse(const char *name, enum sim_shape *shape);
const char *sim_shape_name(enum sim_shape shape);
const char *sim_model_name(enum timer_model model);

#endif /* TESTS_HOST_SIM_SIM_H */

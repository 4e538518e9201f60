/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/host/sim/sim.h - the many-CPU discrete-event simulator.
 *
 * The simulator drives the real timer/ sources through the host environment
 * (tests/host/env/timer_env.h): one OS thread plays every CPU in turn by
 * setting host_cpu, virtual time advances a jiffy per step, and after each
 * step the invariants of docs/design.md ("Testing and measuring") are
 * checked.  Files:
 *
 *   main.c    command line, the default run list, summary lines
 *   sim.c     boot, the per-jiffy loop, CPU busy/idle/wake transitions
 *   report.c  violations, traces, the watchdog
 *   work.c    the random workload and the timers' bookkeeping
 *   check.c   hierarchy invariants read through tmigr_*_get()
 *   topo.c    the CPU-to-node/core shapes
 *   fault.c   torture faults: CPUs going offline and online inside other
 *             CPUs' walks, delayed and coalesced wake-up IPIs
 *   bound.c   the lower bound of idle wakes, idle residency, lateness
 *   replay*.c a Linux trace as the workload (replay.h)
 */
#ifndef TESTS_HOST_SIM_SIM_H
#define TESTS_HOST_SIM_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "timer/timer.h"
#include "tests/host/sim/rng.h"

struct rp_trace;

#define SIM_MAX_NODES 64
/* More wake-ups of one CPU in one jiffy than this is a livelock. */
#define SIM_STORM     16
#define SIM_LATE0_MAX 31 /* late0[] histogram's last bucket */

enum sim_shape { SHAPE_EVEN, SHAPE_UNEVEN, SHAPE_INTERLEAVED, SHAPE_SMT };

/* Torture faults (--faults), see fault.c. */
#define SIM_FAULT_OFFLINE   0x1u /* CPUs go offline and come back */
#define SIM_FAULT_IPI_DELAY 0x2u /* wake-up IPIs late, coalesced */

/* expect_ipi: push may wake the idle CPU an isolated CPU's timer went to. */
#define SIM_IPI_PUSHED (-2)

struct sim_config {
	unsigned int cpus;
	unsigned int nodes;
	enum sim_shape shape;
	enum timer_model model;
	unsigned int tmigr_wake; /* enum tmigr_wake, under pull */
	bool both_wakes;	 /* --tmigr-wake both: linux, then one */
	uint64_t seed;
	uint64_t steps; /* jiffies simulated */
	uint64_t wrap;	/* start this many jiffies before 2^64 */
	bool steady;	/* workload without the quiet/all-idle phases */
	unsigned int hz;
	unsigned int verbose;	/* violations printed beyond the first */
	int trace_timer;	/* print every event of this timer, or -1 */
	int trace_cpu;		/* print every transition of this CPU, or -1 */
	uint64_t ops;		/* torture: run until this many operations */
	unsigned int faults;	/* SIM_FAULT_* */
	unsigned int ipi_delay; /* jiffies an IPI may be late, at most */
	unsigned int offline_rate;     /* permille a step, per 64 CPUs */
	const struct rp_trace *replay; /* the workload, else work.c's */
	const uint16_t *node_of;       /* CPU to node, else @shape's */
	const char *isolcpus;	       /* isolcpus= list ("0,3-5"), or NULL */
};

/* Why an idle CPU's wake-up was programmed or delivered. */
enum sim_wake {
	WAKE_NONE,
	WAKE_LOCAL,  /* its own pinned timer */
	WAKE_GLOBAL, /* its own movable timer (push/local models only) */
	WAKE_HIER,   /* last active CPU: first event of the hierarchy */
	WAKE_TICK,   /* tick kept: an event within the next jiffy */
	WAKE_IPI,    /* a pinned timer queued on it remotely */
	WAKE_IRQ,    /* a device interrupt (workload), not a timer */
	NR_SIM_WAKE
};

/* Why a hierarchy wake expired nothing (empty.c). */
enum sim_empty {
	EMPTY_OWNER,
	EMPTY_BUSY,
	EMPTY_DUP,
	EMPTY_IDLE,
	EMPTY_STALE,
	EMPTY_GONE,
	EMPTY_BELOW,
	NR_SIM_EMPTY
};

/* An empty hierarchy wake, classified at the end of its jiffy. */
struct sim_empty_wake {
	unsigned int owner; /* CPU of the event it was armed for */
	uint64_t armed_j;   /* the jiffy it was armed for */
	bool stale;	    /* the owner had nothing due then already */
};

/*
 * Where a CPU went offline: inside another CPU's walk at one of timer/'s
 * race points (timer_migration.h), or between two CPUs' actions.
 */
enum sim_at {
	AT_STEP,	     /* between the workload's actions */
	AT_INACTIVE_CMPXCHG, /* a CPU going idle, about to cmpxchg */
	AT_UPDATE_EVENTS,    /* a CPU going idle, queueing its event */
	AT_REMOTE_CPU,	     /* a migrator about to pull a CPU */
	AT_REMOTE_UNLOCKED,  /* a migrator pulling a CPU, unlocked */
	AT_SOFTIRQ_REMOTE,   /* a softirq between own and remote timers */
	NR_SIM_AT
};

/* Hotplug state: DYING is out of the hierarchy, timers not moved yet. */
enum sim_cpu_state { CPU_ONLINE, CPU_DYING, CPU_DEAD };

/* What the CPU of the current timer/ call is doing (race point safety). */
enum sim_ctx { CTX_NONE, CTX_TICK, CTX_IDLE };

struct sim_stats {
	uint64_t steps;
	uint64_t armed;	   /* arms of a timer that was not pending */
	uint64_t modified; /* re-arms of a pending timer */
	uint64_t expired;
	uint64_t cancelled;
	uint64_t pending; /* at the end */
	uint64_t early;
	uint64_t twice;
	uint64_t lost;
	uint64_t late_max_j; /* worst lateness of a non-exempt timer */
	/* lateness of level-0 movable timers, jiffies (last: that or more) */
	uint64_t late0[SIM_LATE0_MAX + 1];
	uint64_t violations;
	uint64_t wakes[NR_SIM_WAKE]; /* delivered to idle CPUs */
	uint64_t wakes_idle; /* timer wakes: all but WAKE_TICK, WAKE_IRQ */
	uint64_t wakes_global_busy; /* for a movable timer, a CPU busy */
	uint64_t irq_before_halt;   /* wake-up due before the CPU halted */
	uint64_t wakes_empty[NR_SIM_WAKE]; /* that expired no timer */
	uint64_t hier_stale; /* WAKE_HIER programmed after a CPU woke */
	uint64_t hier_empty_why[NR_SIM_EMPTY]; /* empty.c */
	uint64_t remote_expiries; /* movable timers run on another CPU */
	uint64_t global_expired;
	uint64_t ipis;
	uint64_t warns;	       /* WARN_ON_ONCE hits inside timer/ */
	uint64_t busy_jiffies; /* sum over jiffies of busy CPUs */
	uint64_t time_jumps;   /* jiffies that began inside a softirq */
	/* torture (fault.c) */
	uint64_t ops;	   /* timer ops, busy/idle changes, hotplug */
	uint64_t offlines; /* tmigr_cpu_offline() of a CPU */
	uint64_t offline_at[NR_SIM_AT]; /* where it happened */
	uint64_t offline_pulled;	/* the CPU a migrator was pulling */
	uint64_t handovers;	 /* tmigr_cpu_offline() kicked a successor */
	uint64_t onlines;	 /* tmigr_cpu_online() of a CPU again */
	uint64_t online_in_walk; /* of those, inside another's walk */
	uint64_t dead_later;	 /* timers_cpu_dead() jiffies after */
	uint64_t moved;		 /* timers moved by timers_cpu_dead() */
	uint64_t offline_max;	 /* most CPUs offline at once */
	uint64_t ipis_delayed;	 /* delivered a jiffy or more late */
	uint64_t ipis_coalesced; /* merged into one already in flight */
	uint64_t ipis_dropped;	 /* in flight to a CPU that went offline */
	uint64_t add_on_offline; /* add_timer_on() of an offline CPU */
	uint64_t late_relaxed;	 /* expiries that needed the fault slack */
	/* bound.c */
	uint64_t lb_pinned;    /* jiffies x idle CPUs with a pinned timer due */
	uint64_t lb_global;    /* all-idle jiffies with only movable ones due */
	uint64_t lb_forced;    /* wakes a remote pinned arm or cancel forces */
	uint64_t idle_ns;      /* idle time, summed over CPUs */
	uint64_t idle_1ms_ns;  /* of it in idle periods of >= 1 ms */
	uint64_t idle_10ms_ns; /* and >= 10 ms */
#define SIM_LATE_BINS 65       /* jiffies 0..63, then 64 or more */
	uint64_t late_hist[SIM_LATE_BINS]; /* non-exempt expiries */
	uint64_t late_n;
	uint64_t late_l0_hist[SIM_LATE_BINS]; /* movable, wheel level 0 */
	uint64_t late_l0_n;
};

/* One virtual CPU as the simulator sees it. */
struct sim_cpu {
	bool busy;
	bool tick_stopped;     /* idle with the tick off: only wake_ns wakes */
	bool ipi;	       /* a wake-up IPI is waiting */
	enum sim_wake reason;  /* of the programmed wake-up */
	uint64_t wake_ns;      /* programmed wake-up (a jiffy start), or NONE */
	bool due_at_program;   /* wake_ns had come when it was programmed */
	uint64_t asked_ns;     /* what timer_nohz_next_event() returned */
	uint64_t hier_wakeup;  /* tmigr wakeup seen set legitimately */
	uint64_t offer_wakeup; /* ... and as an offer (tmigr_wake=own) */
	uint32_t idle_gen;     /* bumped on every idle entry */
	uint64_t tick_j;       /* jiffy of its last tick (busy, or woken) */
	unsigned int wakes_now; /* wakes in the current jiffy (storm guard) */
	struct sim_timer *head; /* sim's list of timers on its bases */
	enum sim_cpu_state state;
	uint64_t ipi_at_j;	/* the waiting IPI arrives at this jiffy */
	uint64_t off_j;		/* DYING: jiffy of tmigr_cpu_offline() */
	uint64_t until_j;	/* DYING: timers_cpu_dead(); DEAD: back up */
	uint64_t idle_since_ns; /* start of the current idle period */
	/* bound.c: forced-wake windows (lb_forced) */
	uint64_t lb_anchor_j; /* last jiffy up under any placement */
	uint64_t lb_stab_j;   /* last jiffy it was up at no extra cost, or
			       * bound.c placed a forced wake at */
	/* empty.c: the hierarchy event it is armed for (owner, jiffy) ... */
	unsigned int hier_owner;
	uint64_t hier_j;
	bool hier_stale;
	/* ... and who last ran one of this CPU's movable timers, when */
	uint64_t served_j;
	unsigned int served_by;
	bool served_busy, served_hier;
};

/* A timer of the workload, with what the simulator knows about it. */
struct sim_timer {
	struct timer_list t; /* first: the callback's pointer is ours */
	unsigned int id;
	uint32_t kind;	    /* 0, TIMER_PINNED or TIMER_DEFERRABLE */
	bool pending;	    /* armed and not yet expired or cancelled */
	bool reported;	    /* overdue already counted as lost */
	bool armed_idle;    /* armed while @cpu was idle */
	bool lb_done;	    /* bound.c counted its bucket */
	unsigned int cpu;   /* the base's CPU while pending */
	unsigned int level; /* wheel level chosen at enqueue */
	uint64_t expires;
	uint64_t bucket;   /* jiffy its wheel bucket is due */
	uint64_t arm_j;	   /* jiffy it was last enqueued */
	uint32_t idle_gen; /* of @cpu when armed (deferrable exemption) */
	uint64_t period;   /* re-arms in its callback if non-zero */
	uint64_t slack;	   /* extra lateness: moved by timers_cpu_dead() */
	struct sim_timer *next, **pprev; /* on sim_cpu.head */
};

struct sim {
	struct sim_config cfg;
	struct sim_stats st;
	struct sim_rng rng;
	uint64_t tick_ns;
	uint64_t j0;	    /* jiffies at step 0 */
	uint64_t step;	    /* keys the workload's decisions */
	bool jumped;	    /* the clock ticked inside this step */
	bool in_ticks;	    /* in run_jiffy(): the clock may tick */
	uint64_t now_j;	    /* jiffies: wraps, compare with timer_after() */
	uint64_t now_ns;    /* never wraps: sim_j2ns(now_j) */
	unsigned int phase; /* workload phase, see work.c */
	uint64_t phase_end_ns;
	int expect_ipi; /* CPU an add_timer_on() may IPI, or -1,
				 * or SIM_IPI_PUSHED while push arms */
	unsigned int nr_busy;
	struct sim_cpu *cpus;
	struct sim_timer *timers;
	unsigned int nr_timers;
	unsigned int *ipi_queue; /* CPUs with sim_cpu.ipi set */
	unsigned int nr_ipi;
	unsigned int nr_groups;	   /* of the hierarchy, read by check.c */
	void *bases;		   /* timer_init() storage */
	unsigned int *ipi_scratch; /* sim_deliver_ipis() */
	enum sim_ctx ctx;
	enum sim_wake waking; /* why the CPU in wake_idle() woke */
	struct sim_empty_wake *empty_queue; /* this jiffy's (empty.c) */
	unsigned int nr_empty;
	unsigned int ctx_cpu;	 /* the CPU of ctx */
	bool faulted;		 /* a fault fired inside the current call */
	struct sim_fault *fault; /* fault.c's state, NULL: no faults */
	uint64_t ev_ns;		 /* replay: the event's own time, else 0 */
	/* replay: a timer expired (instead of work.c's periodic re-arm) */
	void (*expire_hook)(struct sim *s, struct sim_timer *st,
			    unsigned int cpu, uint64_t now_j);
	struct rp_run *run; /* replay.c's state */
	/* bound.c: open forced-wake windows, closed when now_j passes r */
	struct sim_window {
		unsigned int cpu;
		uint64_t l, r; /* jiffies, inclusive */
	} * lb_win;
	size_t nr_win, cap_win;
	uint64_t lb_global_j; /* last jiffy counted in lb_global */
	bool lb_global_seen;
};

/* "None" for ns values (jiffies wrap, so they have no free value). */
#define SIM_NONE    UINT64_MAX
/* The ns clock at step 0, so that ns - tick_ns never underflows. */
#define SIM_NS_BASE 1000000000ull
#define SIM_NO_CPU  (~0u) /* no CPU, where a CPU number goes */

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
void sim_note_wakeup(struct sim *s, unsigned int cpu);
void sim_cpu_enter_idle(struct sim *s, unsigned int cpu);
void sim_cpu_exit_idle(struct sim *s, unsigned int cpu);
void sim_cpu_irq_exit(struct sim *s, unsigned int cpu);
void sim_deliver_ipis(struct sim *s);
void sim_cpu_reprogram(struct sim *s, unsigned int cpu);

/* bound.c */
void sim_bound_init(struct sim *s);
void sim_bound_free(struct sim *s);
void sim_bound_step(struct sim *s, unsigned int awake);
void sim_bound_up(struct sim *s, unsigned int cpu);
void sim_bound_sure_up(struct sim *s, unsigned int cpu);
void sim_bound_removed(struct sim *s, const struct sim_timer *st,
		       unsigned int cpu, uint64_t bucket);
void sim_bound_added(struct sim *s, const struct sim_timer *st);
uint64_t sim_bound_total(const struct sim_stats *st);
void sim_bound_finish(struct sim *s);
void sim_resid_start(struct sim *s, unsigned int cpu, uint64_t ns);
void sim_resid_end(struct sim *s, unsigned int cpu, uint64_t ns);
void sim_resid_finish(struct sim *s);
void sim_note_late(struct sim *s, const struct sim_timer *st, uint64_t late);
double sim_resid_pct(uint64_t part, uint64_t idle_ns);
void sim_print_bound(const struct sim_stats *st);

/* replay.c */
int sim_replay_init(struct sim *s);
bool sim_replay_done(const struct sim *s);
void sim_replay_step(struct sim *s);
void sim_replay_finish(struct sim *s);

/* replay_main.c */
int sim_replay_main(const struct sim_config *c, const char *file,
		    const char *nodes_arg, bool all);

/* fault.c */
int sim_fault_init(struct sim *s);
void sim_fault_free(struct sim *s);
void sim_fault_step(struct sim *s);
void sim_fault_race_point(struct sim *s, int id);
void sim_fault_check(struct sim *s);
uint64_t sim_ipi_arrival(struct sim *s);
uint64_t sim_fault_slack(const struct sim *s);
const char *sim_at_name(enum sim_at at);
const char *sim_faults_name(unsigned int faults);
int sim_faults_parse(const char *list, unsigned int *faults);

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
unsigned int sim_work_move_timers(struct sim *s, unsigned int from,
				  unsigned int to, uint64_t since_j);
int sim_work_init_pool(struct sim *s, unsigned int n);
void sim_work_set_kind(struct sim *s, struct sim_timer *st, uint32_t kind);
void sim_work_arm(struct sim *s, struct sim_timer *st, uint64_t expires,
		  int add_on_cpu);
void sim_work_cancel(struct sim *s, struct sim_timer *st);

/* empty.c */
void sim_empty_armed(struct sim *s, unsigned int cpu);
void sim_empty_served(struct sim *s, unsigned int owner, unsigned int cpu);
void sim_empty_note(struct sim *s, unsigned int cpu);
void sim_empty_step(struct sim *s);
const char *sim_empty_name(enum sim_empty why);

/* check.c */
bool sim_check_boot(struct sim *s);
void sim_check_hierarchy(struct sim *s);
bool sim_hierarchy_idle(void);
uint64_t sim_tmigr_wakeup(unsigned int cpu);
unsigned int sim_root_first_cpu(void);

/* topo.c */
int sim_topo_apply(const struct sim_config *cfg);
int sim_shape_parse(const char *name, enum sim_shape *shape);
const char *sim_shape_name(enum sim_shape shape);
const char *sim_model_name(enum timer_model model);
const char *sim_wake_name(unsigned int wake); /* enum tmigr_wake */

#endif /* TESTS_HOST_SIM_SIM_H */

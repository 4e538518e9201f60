/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/host/sim/replay.h - Linux timer traces replayed through timer/.
 *
 * A trace is the text of tracefs' "trace" file (docs/replay.md).  Files:
 *
 *   replay_parse.c   one line at a time into struct rp_trace (no I/O, no
 *                    simulator: the fuzzer's target)
 *   replay_class.c   after the last line: time-to-jiffies map, CPU and node
 *                    count, each idle exit's cause, which cancels are
 *                    Linux detaching a timer to run it, which arms come from
 *                    a timer's own callback, and what Linux itself did
 *   replay_read.c    a file (plain or gzip) through the two above
 *   replay.c         the simulator's workload for a trace (sim_run())
 *   replay_main.c    tmigr_sim --replay: every model, the report lines
 */
#ifndef TESTS_HOST_SIM_REPLAY_H
#define TESTS_HOST_SIM_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RP_MAX_CPUS  4096 /* as the simulator (HOST_MAX_CPUS) */
#define RP_MAX_NODES 64	  /* as the simulator (SIM_MAX_NODES) */
#define RP_NONE	     UINT32_MAX
#define RP_ERR_LEN   160

enum rp_type {
	RP_IDLE_ENTER,	     /* power:cpu_idle, any state but -1 */
	RP_IDLE_EXIT,	     /* power:cpu_idle state=4294967295 */
	RP_LOC,		     /* irq_vectors:local_timer_entry */
	RP_RES,		     /* irq_vectors:reschedule_entry */
	RP_CALL,	     /* irq_vectors:call_function{,_single}_entry */
	RP_START,	     /* timer:timer_start */
	RP_CANCEL,	     /* timer:timer_cancel */
	RP_INIT,	     /* timer:timer_init */
	RP_EXP_ENTRY,	     /* timer:timer_expire_entry */
	RP_EXP_EXIT,	     /* timer:timer_expire_exit */
	RP_HR_EXP,	     /* timer:hrtimer_expire_entry */
	RP_TMIGR_REMOTE,     /* timer_migration:tmigr_handle_remote */
	RP_TMIGR_REMOTE_CPU, /* timer_migration:tmigr_handle_remote_cpu */
	NR_RP_TYPES
};

/* rp_event.flags */
#define RP_F_PINNED 0x01 /* START: flags= has P */
#define RP_F_DEFER  0x02 /* START: flags= has D */
#define RP_F_TICK   0x04 /* HR_EXP: the tick's own hrtimer */
#define RP_F_TIMER  0x08 /* IDLE_EXIT: Linux serving a timer, no work */
#define RP_F_SHORT  0x10 /* IDLE_EXIT: idle again within the jiffy */
#define RP_F_INCB   0x20 /* START: from the timer's own callback */
#define RP_F_DETACH 0x40 /* CANCEL: Linux detaching it to run it */

struct rp_event {
	uint64_t ns;	  /* trace clock */
	uint64_t expires; /* START */
	uint64_t jif;	  /* START: jiffies then; EXP_ENTRY: now= */
	uint64_t sim_j;	  /* replay_class.c: the jiffy it falls in */
	uint32_t timer;	  /* START..EXP_EXIT: index of its pointer */
	uint32_t target;  /* START: cpu=; EXP_EXIT: its re-arm, or RP_NONE */
	uint16_t cpu;
	uint8_t type;
	uint8_t flags;
};

/* What Linux did in the trace (replay_class.c), see docs/replay.md. */
struct rp_linux {
	uint64_t exits;	      /* idle exits */
	uint64_t wheel;	      /* ran a wheel callback or the hierarchy */
	uint64_t empty;	      /* a timer interrupt that ran only the tick */
	uint64_t hrtimer;     /* ran another hrtimer (the workload's sleeps) */
	uint64_t ipi;	      /* a reschedule or call-function IPI */
	uint64_t other;	      /* no traced interrupt: a device's */
	uint64_t timer_exits; /* RP_F_TIMER exits: not replayed as work */
	uint64_t busy_timer_ns;	  /* busy after those, to the next idle entry */
	uint64_t busy_work_ns;	  /* busy after the other exits */
	uint64_t expiries;	  /* timer_expire_entry */
	uint64_t remote_expiries; /* run on another CPU than its base */
	uint64_t remote_cpu_walks; /* tmigr_handle_remote_cpu */
	uint64_t unknown_expiries; /* of a timer not armed in the trace */
	uint64_t late_hist[65];	   /* lateness in jiffies, 64: 64 or more */
	uint64_t late_n;
	uint64_t late_max_j;
	uint64_t idle_ns; /* idle residency, as the replay counts it */
	uint64_t idle_1ms_ns, idle_10ms_ns;
};

struct rp_trace {
	const char *name; /* for messages */
	struct rp_event *ev;
	size_t nr_ev, cap_ev;
	uint64_t *ptrs; /* timer pointers, by index */
	uint32_t *hash; /* open addressing over ptrs, RP_NONE empty */
	uint32_t nr_timers, hash_cap;
	unsigned int cpus; /* "#P:" header, --cpus, or highest seen + 1 */
	unsigned int hz;   /* header, or from the jiffies' rate */
	unsigned int nodes;
	uint16_t node_of[RP_MAX_CPUS]; /* valid when nodes != 0 */
	const char *nodes_arg;	       /* --nodes: a map or a count, or NULL */
	char hdr_nodes[256];	       /* "# tinykernel-replay: nodes=" */
	unsigned int hdr_cpus;	       /* "#P:" */
	uint64_t lines, skipped;       /* skipped: events we do not use */
	uint64_t last_ns;   /* of the last event line: the order check */
	uint64_t hr_events; /* hrtimer_* lines, counted only */
	uint64_t j0;	    /* jiffy before the first event */
	uint64_t t0_ns;	    /* trace clock at the start of jiffy j0 */
	uint64_t last_j;    /* jiffy of the last event */
	struct rp_linux linux_;
};

/* replay_parse.c */
void rp_trace_init(struct rp_trace *tr, const char *name);
void rp_trace_free(struct rp_trace *tr);
int rp_parse_line(struct rp_trace *tr, const char *line, size_t len, char *err,
		  size_t errlen);
int rp_parse_nodes(const char *map, unsigned int cpus, uint16_t *node_of,
		   unsigned int *nodes, char *err, size_t errlen);

/* replay_class.c */
int rp_finish(struct rp_trace *tr, char *err, size_t errlen);
uint64_t rp_hist_pct(const uint64_t *hist, unsigned int bins, uint64_t n,
		     unsigned int pct);

/* replay_read.c */
int rp_read_file(struct rp_trace *tr, const char *path);
int rp_read_buf(struct rp_trace *tr, const char *buf, size_t len, char *err,
		size_t errlen);

#endif /* TESTS_HOST_SIM_REPLAY_H */

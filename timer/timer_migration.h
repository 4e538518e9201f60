/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timer/timer_migration.h - the pull hierarchy (Linux 6.9's
 * kernel/time/timer_migration.c, rewritten for this tree).
 *
 * Portable C, like timer.c.  Times here are in ns of the monotonic clock
 * (timer_env_now_ns()); TMIGR_NONE_NS means "no event".  CPUs are grouped
 * TMIGR_CHILDS_PER_GROUP at a time, within a node first (in the order they
 * come online, so SMT siblings brought up together share a group), levels
 * above the cross-node level join nodes.
 *
 * Callers (the kernel's idle path and tick, the host simulator):
 *   boot:      tmigr_init(); then for each CPU, tmigr_cpu_prepare(cpu) on a
 *              CPU that is already up, then tmigr_cpu_online() on the CPU
 *   idle:      timer/ calls tmigr_cpu_deactivate()/tmigr_cpu_new_timer()
 *              itself from timer_nohz_next_event() (timer.h)
 *   wake:      timer_nohz_idle_exit() calls tmigr_cpu_activate()
 *   tick:      timer_tick() asks tmigr_requires_handle_remote(),
 *              run_timer_softirq() calls tmigr_handle_remote()
 */
#ifndef TIMER_TIMER_MIGRATION_H
#define TIMER_TIMER_MIGRATION_H

#include <stdbool.h>
#include <stdint.h>

#define TMIGR_CHILDS_PER_GROUP 8
#define TMIGR_NONE_NS	       UINT64_MAX
#define TMIGR_NONE	       0xffu /* no migrator in union tmigr_state */
#define TMIGR_NO_NODE	       0xffffffffu /* at or above crossnode */

/*
 * Setup.  Returns 0 or a negative errno-style code (lib/errno.h: -EINVAL for
 * a bad argument or state, -ENOMEM when out of memory, -ERANGE when out of
 * group slots, which tmigr_init() sized and is a bug).  A setup call that
 * fails leaves no partial groups behind: a failed tmigr_cpu_prepare()
 * leaves the hierarchy as it was for the CPUs already in it, and may be
 * retried.
 *
 * tmigr_init() reads timer_env_cpu_node() and timer_env_cpu_core() of every
 * CPU: set the topology first.  The levels are Linux's estimate from the
 * CPU and node counts, with "CPUs per node" taken as the largest node so
 * that uneven nodes still fit under one root.  It may be called again to
 * start over (tests); memory of the previous run is not freed.
 *
 * tmigr_cpu_prepare() may run on any CPU, also one not (yet) in the
 * hierarchy; calls are serialised internally.  Preparing a prepared CPU
 * again (after offline) is a no-op.
 */
int tmigr_init(unsigned int ncpus, unsigned int nnodes);
void tmigr_reset(void); /* tests: forget it all before freeing */
void tmigr_set_inactive_up_mainline(bool on); /* tests: docs/findings/ */
int tmigr_cpu_prepare(unsigned int cpu);      /* build @cpu's groups */
int tmigr_cpu_online(void);		      /* current CPU joins */
int tmigr_cpu_offline(void);		      /* current CPU leaves */

/* The walks; all on the current CPU with interrupts off. */
void tmigr_cpu_activate(void);
uint64_t tmigr_cpu_deactivate(uint64_t nextexp);
uint64_t tmigr_cpu_new_timer(uint64_t nextexp);
bool tmigr_requires_handle_remote(void);
void tmigr_handle_remote(void);
/* timer.c: idle @cpu's first global timer was taken off its base */
void tmigr_cpu_event_later(unsigned int cpu, uint64_t nextexp);

/*
 * Which idle CPU wakes for the idle hierarchy's first event (tmigr_wake=,
 * docs/tmigr-wake.md): ONE, one armed CPU per event (the default); OWN,
 * ONE and an idle CPU's own timer's wake counts as armed; LINUX,
 * every CPU that finds the hierarchy idle arms, as Linux does.  Set before
 * the CPUs use the hierarchy.  tmigr_wake_armed() says whether @cpu is
 * the armed CPU of record and for when (tests).
 */
enum tmigr_wake {
	TMIGR_WAKE_ONE,
	TMIGR_WAKE_LINUX,
	/* ONE, and an idle CPU waking for its own timer counts as armed */
	TMIGR_WAKE_OWN,
	NR_TMIGR_WAKE
};
/*
 * The policy a boot starts with (docs/tmigr-wake.md, "Why own is not the
 * default").
 */
#define TMIGR_WAKE_DEFAULT TMIGR_WAKE_ONE
void tmigr_set_wake(enum tmigr_wake policy);
enum tmigr_wake tmigr_get_wake(void);
bool tmigr_wake_armed(unsigned int cpu, uint64_t *exp);
/* timer_idle.c: the idle current CPU wakes at @own for its own timers. */
uint64_t tmigr_cpu_offer(uint64_t own, uint64_t wakeup);

/* Shape, for the boot line and the tree dump. */
struct tmigr_shape {
	unsigned int levels;
	unsigned int crossnode_level;
	unsigned int groups;
	unsigned int cores_per_group; /* level 0: SMT cores per group */
};
void tmigr_get_shape(struct tmigr_shape *shape);

/*
 * Read-only views for tests, the simulator's invariant checks and the tree
 * dump.  Group ids are dense 0..groups-1 in creation order.  The values are
 * a snapshot taken under the group's lock.
 */
struct tmigr_group_view {
	unsigned int id;
	unsigned int level;
	unsigned int node; /* TMIGR_NO_NODE from crossnode up */
	int parent;	   /* group id, -1 for the root */
	unsigned int num_children;
	uint8_t childmask; /* this group's bit in its parent */
	uint8_t active;	   /* bitmask of active children */
	uint8_t migrator;  /* child bit, or TMIGR_NONE */
	uint16_t seq;
	uint64_t next_expiry;	   /* first queued event, TMIGR_NONE_NS */
	unsigned int next_cpu;	   /* CPU of that event */
	uint64_t next_expiry_hint; /* the lockless copy the tick reads */
};
struct tmigr_cpu_view {
	bool online;
	bool idle;
	bool remote;   /* being handled by a migrator now */
	bool isolated; /* isolcpus=: never active in a group */
	int group;     /* level-0 group id, -1 if none */
	uint8_t childmask;
	uint64_t wakeup; /* TMIGR_NONE_NS if none */
	uint64_t cpuevt; /* the CPU's queued event, or NONE */
};
bool tmigr_group_get(unsigned int id, struct tmigr_group_view *v);
bool tmigr_cpu_get(unsigned int cpu, struct tmigr_cpu_view *v);

/*
 * Race points: timer/ calls timer_env_race_point(id) with these ids where
 * another CPU's action may interleave; the host tests replay interleavings
 * there (the sections of docs/races.md in brackets).  The current CPU
 * holds no group lock at any of them; it may hold its own per-CPU tmigr lock and, inside
 * timer_nohz_next_event(), its own timer base locks.  So the hook may run
 * any action of another CPU that does not touch this CPU's timers.
 */
enum tmigr_race_point {
	/* inactive_up read group, then child state; before cmpxchg ["Stale
	 * child state without a sequence count"] */
	TMIGR_RP_INACTIVE_CMPXCHG = 1,
	/* update_events, before it takes the locks ["Parent pointer read
	 * twice", "New event while the last CPU goes idle", "Last active CPU
	 * goes offline", "Event queued after the group went idle"] */
	TMIGR_RP_UPDATE_EVENTS,
	/* handle_remote is about to pull a CPU ["Own due timer met in remote
	 * handling"] */
	TMIGR_RP_REMOTE_CPU,
	/* the pulled CPU is marked remote and unlocked, not yet expired ["CPU
	 * leaves idle while it is pulled"] */
	TMIGR_RP_REMOTE_UNLOCKED,
	/* old root's path to the new root published, its state not yet;
	 * the setup lock is held ["New root connected while the last CPU
	 * goes idle", "Walker reaches a new parent before its mask"] */
	TMIGR_RP_CONNECT_PUBLISHED,
	/* connection read group, then child state; before cmpxchg ["New root
	 * connected while the last CPU goes idle"] */
	TMIGR_RP_CONNECT_SYNC,
	/* run_timer_softirq: own bases expired, tmigr_handle_remote() next
	 * ["Own due timer met in remote handling"] */
	TMIGR_RP_SOFTIRQ_REMOTE,
	/* timers_cpu_dead(): a timer unlinked from the dead CPU's base, not
	 * yet queued on the live one; both base locks held, so the hook may
	 * only look (timer_pending()) ["Pending timer seen idle while it
	 * moves"] */
	TIMER_RP_MOVE_UNLINKED,
};

#endif /* TIMER_TIMER_MIGRATION_H */

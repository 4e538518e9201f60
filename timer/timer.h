/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timer/timer.h - per-CPU timer wheel: what the timer core offers.
 *
 * Portable C: the machine is reached only through "timer_env.h" (the kernel
 * and the host tests each provide one).  Times are in jiffies, compared
 * wrap-safely with timer_after()/timer_before().
 */
#ifndef TIMER_TIMER_H
#define TIMER_TIMER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/atomic.h"

/*
 * timer->flags: the low bits hold the CPU whose base the timer belongs to,
 * the high bits the user flags below and TIMER_MIGRATING (internal: the
 * timer is between two bases and must not be locked through either).
 */
#define TIMER_CPUMASK	 0x0003ffffu
#define TIMER_MIGRATING	 0x00040000u
#define TIMER_DEFERRABLE 0x00080000u
#define TIMER_PINNED	 0x00100000u
#define TIMER_IRQSAFE	 0x00200000u
#define TIMER_USER_FLAGS (TIMER_DEFERRABLE | TIMER_PINNED | TIMER_IRQSAFE)

struct timer_list {
	struct timer_list *next;   /* bucket list */
	struct timer_list **pprev; /* NULL when not pending */
	uint64_t expires;	   /* jiffies */
	void (*function)(struct timer_list *timer);
	uint32_t flags;
	uint32_t idx; /* wheel bucket while pending */
};

/*
 * Next events of one CPU, in jiffies.  Every jiffy is a legal expiry (they
 * wrap), so "none" is a flag: a field is meaningful, and set, only if its
 * has_ flag is, and is 0 otherwise.
 */
struct timer_events {
	uint64_t local;	 /* pinned timers (the CPU must wake itself) */
	uint64_t global; /* movable timers, only if before local */
	bool has_local, has_global;
};

static inline bool timer_after(uint64_t a, uint64_t b)
{
	return (int64_t)(b - a) < 0;
}

static inline bool timer_before(uint64_t a, uint64_t b)
{
	return timer_after(b, a);
}

static inline bool timer_after_eq(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) >= 0;
}

static inline bool timer_before_eq(uint64_t a, uint64_t b)
{
	return timer_after_eq(b, a);
}

size_t timer_bases_size(unsigned int ncpus);
int timer_init(void *storage, unsigned int ncpus, unsigned int hz);

void timer_setup(struct timer_list *timer, void (*fn)(struct timer_list *timer),
		 uint32_t flags);

/**
 * timer_pending - is the timer queued?
 * @timer: the timer
 *
 * Unlocked: the answer may be stale by the time the caller looks at it.
 */
static inline bool timer_pending(const struct timer_list *timer)
{
	/* A relaxed atomic load: the READ_ONCE() of the stores in timer.c. */
	return READ_ONCE(timer->pprev) != NULL;
}

void add_timer(struct timer_list *timer);
void add_timer_on(struct timer_list *timer, unsigned int cpu);
int mod_timer(struct timer_list *timer, uint64_t expires);
int mod_timer_pending(struct timer_list *timer, uint64_t expires);
int timer_reduce(struct timer_list *timer, uint64_t expires);
int timer_delete(struct timer_list *timer);
int timer_delete_sync(struct timer_list *timer);

void timer_tick(void);
void run_timer_softirq(void);

void fetch_next_timer_interrupt(unsigned int cpu, uint64_t basej,
				struct timer_events *tevt);
void timer_clear_idle(void);

void timer_lock_remote_bases(unsigned int cpu);
void timer_unlock_remote_bases(unsigned int cpu);
void fetch_next_timer_interrupt_remote(uint64_t basej,
				       struct timer_events *tevt,
				       unsigned int cpu);
void timer_expire_remote(unsigned int cpu);

/*
 * Placement models, chosen once at boot before any timer is armed:
 *   PULL   global timers stay on their CPU's global base; when it idles
 *          the hierarchy (timer_migration.c) has a busy CPU expire them;
 *   PUSH   the pre-6.9 heuristic: at enqueue a non-pinned timer, also
 *          a deferrable one, goes to the nearest busy CPU (SMT sibling,
 *          then node, then any), idle CPUs keep and wake for what they
 *          hold (docs/push-model.md: what differs from Linux 6.8);
 *   LOCAL  never migrated: an idle CPU wakes for every timer it holds.
 */
enum timer_model { TIMER_MODEL_PULL, TIMER_MODEL_PUSH, TIMER_MODEL_LOCAL };
void timer_set_model(enum timer_model model);
void timer_set_migration(bool on); /* 6.8's timers_migration_enabled */
uint64_t timer_tick_ns(void);	   /* NSEC_PER_SEC / hz */
/* ns of jiffy @j (any), given that jiffy @basej started at @basem. */
uint64_t timer_jiffies_to_ns(uint64_t j, uint64_t basej, uint64_t basem);

/*
 * NOHZ glue for the idle path (the kernel's, and the host simulator's).
 *
 * timer_nohz_next_event - called with irqs off each time the current CPU
 * enters or re-enters idle.  @basej is jiffies and @basem the ns time of
 * that jiffy's start.  Forwards and idles the bases; under PULL hands the
 * first global event to the hierarchy (tmigr_cpu_deactivate() the first
 * time, tmigr_cpu_new_timer() when the CPU is already idle).  Returns the
 * ns time this CPU must wake at (TMIGR_NONE_NS: nothing) and sets *@stop
 * to whether the tick may stop (no event within the next jiffy).  The
 * bases are idle, and under PULL the CPU inactive in the hierarchy, exactly
 * when *@stop is true: with an event within the next jiffy (its own, or
 * the hierarchy's first when it is the last CPU) the CPU keeps its tick
 * and stays, or becomes again, active.  Under PUSH and LOCAL the time
 * includes the CPU's own global timers.  Deferrable timers never count.
 *
 * timer_nohz_idle_exit - the CPU leaves idle for work: bases busy again,
 * and under PULL it rejoins the hierarchy (tmigr_cpu_activate()).
 */
uint64_t timer_nohz_next_event(uint64_t basej, uint64_t basem, bool *stop);
void timer_nohz_idle_exit(void);

/*
 * CPU hotplug (Linux's timers_dead_cpu() and timers_prepare_cpu()).
 *
 * timers_cpu_dead - @cpu is going offline and runs no timer code any more:
 * every timer on its three bases, pinned ones included, moves to the same
 * base of online CPU @to, after any remote expiry of @cpu's bases in
 * flight has finished.  From then on @cpu's bases are offline: PUSH never
 * picks @cpu, and add_timer_on(@cpu) warns and arms on the calling CPU
 * instead (a timer queued on a dead CPU would never run).  If @to idles
 * and got timers it is woken to re-arm.  Pre: @cpu has left the hierarchy
 * (tmigr_cpu_offline()), @cpu != @to; any CPU, irqs on or off.  Returns the
 * number of timers moved.
 *
 * timers_cpu_up - @cpu's bases are forwarded to jiffies and accept timers
 * again; call before @cpu runs timer code or rejoins the hierarchy.
 *
 * timer_cpu_online - false between timers_cpu_dead() and timers_cpu_up().
 */
unsigned int timers_cpu_dead(unsigned int cpu, unsigned int to);
void timers_cpu_up(unsigned int cpu);
bool timer_cpu_online(unsigned int cpu);

/* Per-CPU expiry counts, for the `# stat` line. */
struct timer_cpu_stats {
	uint64_t expired_local;	 /* own timers expired on this CPU */
	uint64_t expired_remote; /* other CPUs' timers expired here */
	uint64_t pulled_for;	 /* own timers other CPUs expired */
};
void timer_get_stats(unsigned int cpu, struct timer_cpu_stats *stats);

#endif /* TIMER_TIMER_H */

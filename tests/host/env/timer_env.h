/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/host/env/timer_env.h - the host's machine for the timer core.
 *
 * The files of timer/ reach CPU identity, locks, the clock, the softirq
 * and IPIs only through this header; the kernel has its own.  Here a "CPU"
 * is a thread-local number the test sets, spinlocks are pthread mutexes,
 * jiffies is a variable the test advances, and softirq raises, wake-up IPIs
 * and warnings are counted so tests can assert on them.
 *
 * Besides the interface timer/ was promised, timer_env_cpu_relax() is what
 * a lock or delete_sync waiter does while it spins.
 */
#ifndef TESTS_HOST_ENV_TIMER_ENV_H
#define TESTS_HOST_ENV_TIMER_ENV_H

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define HOST_MAX_CPUS 4096

/* CPUs */
extern __thread unsigned int host_cpu;
extern unsigned int nr_cpu_ids;

static inline unsigned int smp_processor_id(void)
{
	return host_cpu;
}

void host_env_reset(unsigned int ncpus);
void host_set_cpu(unsigned int cpu);

/* Marked accesses, barriers, atomics: shared with the kernel. */
#include "lib/atomic.h"

/* Spinlocks: a mutex plus its owner, so lockdep_assert_held() can check. */
typedef struct {
	pthread_mutex_t mutex;
	const void *owner;
} spinlock_t;

const void *host_thread_token(void);
void spin_lock_init(spinlock_t *lock);
void spin_lock(spinlock_t *lock);
void spin_unlock(spinlock_t *lock);
/* Held by some thread (timer_peek.c's lockless views report it). */
static inline bool spin_is_locked(spinlock_t *lock)
{
	return __atomic_load_n(&lock->owner, __ATOMIC_RELAXED) != NULL;
}
#define spin_lock_irqsave(lock, flags) \
	do {                           \
		(flags) = 0;           \
		spin_lock(lock);       \
	} while (0)
#define spin_unlock_irqrestore(lock, flags) \
	do {                                \
		(void)(flags);              \
		spin_unlock(lock);          \
	} while (0)

#define lockdep_assert_held(lock)                                              \
	do {                                                                   \
		if (__atomic_load_n(&(lock)->owner, __ATOMIC_RELAXED) !=       \
		    host_thread_token()) {                                     \
			fprintf(stderr, "%s:%d: lock %s not held\n", __FILE__, \
				__LINE__, #lock);                              \
			abort();                                               \
		}                                                              \
	} while (0)

static inline void timer_env_cpu_relax(void)
{
	sched_yield();
}

/* Clock */
extern uint64_t host_jiffies;

static inline uint64_t timer_env_jiffies(void)
{
	return __atomic_load_n(&host_jiffies, __ATOMIC_RELAXED);
}

static inline void host_set_jiffies(uint64_t j)
{
	__atomic_store_n(&host_jiffies, j, __ATOMIC_RELAXED);
}

/* Monotonic ns clock; the test (or the simulator) moves it with jiffies. */
extern uint64_t host_now_ns;

static inline uint64_t timer_env_now_ns(void)
{
	return __atomic_load_n(&host_now_ns, __ATOMIC_RELAXED);
}

static inline void host_set_now_ns(uint64_t ns)
{
	__atomic_store_n(&host_now_ns, ns, __ATOMIC_RELAXED);
}

/* Memory that lives as long as the run: zeroed, 64-byte aligned, or NULL. */
void *timer_env_zalloc(size_t size);
/* Free everything timer_env_zalloc() gave (between tests; not in timer/). */
void host_env_free_all(void);

/*
 * Allocation failure injection, off after host_env_reset().  Calls of
 * timer_env_zalloc() are numbered from 1 since the reset; call number
 * host_alloc_fail_at fails (0: none), and with host_alloc_fail_toggle
 * every call after one that succeeded fails, so that each
 * allocation a retried operation makes fails once before it succeeds.
 * host_alloc_live counts blocks not yet freed by host_env_free_all().
 */
extern unsigned long host_alloc_calls;
extern unsigned long host_alloc_failed;
extern unsigned long host_alloc_fail_at;
extern bool host_alloc_fail_toggle;
extern unsigned long host_alloc_live;

/*
 * Topology: node and core (SMT siblings share a core id; ids unique
 * system-wide).  host_env_reset() makes every CPU its own core on node 0.
 */
extern unsigned int host_cpu_node[HOST_MAX_CPUS];
extern unsigned int host_cpu_core[HOST_MAX_CPUS];
extern unsigned int host_nr_nodes;

static inline unsigned int timer_env_cpu_node(unsigned int cpu)
{
	return host_cpu_node[cpu];
}

static inline unsigned int timer_env_cpu_core(unsigned int cpu)
{
	return host_cpu_core[cpu];
}

/* isolcpus=: host_env_reset() makes every CPU a housekeeping CPU. */
extern bool host_cpu_isolated[HOST_MAX_CPUS];

static inline bool timer_env_cpu_housekeeping(unsigned int cpu)
{
	return !host_cpu_isolated[cpu];
}

/*
 * Race points: timer/ calls timer_env_race_point(id) at the places where
 * another CPU's action can interleave (ids in timer_migration.h).  The
 * host runs host_race_hook there, so a test can replay an interleaving
 * deterministically; the kernel compiles them away.
 */
extern void (*host_race_hook)(int id);

static inline void timer_env_race_point(int id)
{
	void (*hook)(int) = __atomic_load_n(&host_race_hook, __ATOMIC_RELAXED);

	if (hook)
		hook(id);
}

/* Softirq and IPIs: counted per CPU; host_wake_hook (if set) sees IPIs. */
extern void (*host_wake_hook)(unsigned int cpu);
extern unsigned int host_softirq_raised[HOST_MAX_CPUS];
extern unsigned int host_wake_ipis[HOST_MAX_CPUS];
extern bool host_cpu_idle[HOST_MAX_CPUS];

void timer_env_raise_softirq(void);
void timer_env_wake_cpu(unsigned int cpu);
bool timer_env_cpu_idle(unsigned int cpu);

/*
 * Tracepoints: timer_env_trace(event, args...) as in the kernel, but an
 * enabled event (bit TRACE_BIT(TRACE_event) of host_trace_mask, all off
 * after host_env_reset()) is only counted in host_trace_hits[].  The
 * argument count is checked at compile time, as in the kernel.
 */
#include "lib/trace_events.h"

extern uint32_t host_trace_mask;
extern unsigned long host_trace_hits[TRACE_NR_EVENTS];
void host_trace_record(unsigned int id, const uint64_t *args, unsigned int n);

#define timer_env_trace(ev, ...) \
	TRACE_POINT(host_trace_mask, host_trace_record, ev, __VA_ARGS__)

/* Warnings: every hit counted, printed once per site. */
extern unsigned int host_warn_hits;
extern unsigned int host_warn_printed;

#define WARN_ON_ONCE(cond)                                                \
	({                                                                \
		static bool __warned;                                     \
		bool __c = !!(cond);                                      \
		if (__c) {                                                \
			__atomic_fetch_add(&host_warn_hits, 1,            \
					   __ATOMIC_RELAXED);             \
			if (!__atomic_exchange_n(&__warned, true,         \
						 __ATOMIC_RELAXED)) {     \
				__atomic_fetch_add(&host_warn_printed, 1, \
						   __ATOMIC_RELAXED);     \
				fprintf(stderr, "WARNING: %s:%d: %s\n",   \
					__FILE__, __LINE__, #cond);       \
			}                                                 \
		}                                                         \
		__c;                                                      \
	})

#define pr_warn(...) fprintf(stderr, __VA_ARGS__)
/* Informational lines: off unless a test turns them on. */
extern bool host_pr_info_on;
#define pr_info(...)                         \
	do {                                 \
		if (host_pr_info_on)         \
			printf(__VA_ARGS__); \
	} while (0)

#endif /* TESTS_HOST_ENV_TIMER_ENV_H */

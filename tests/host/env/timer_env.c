// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/env/timer_env.c - host implementation of timer_env.h.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "timer_env.h"

__thread unsigned int host_cpu;
unsigned int nr_cpu_ids = 1;
uint64_t host_jiffies;
unsigned int host_softirq_raised[HOST_MAX_CPUS];
unsigned int host_wake_ipis[HOST_MAX_CPUS];
bool host_cpu_idle[HOST_MAX_CPUS];
uint64_t host_now_ns;
unsigned int host_cpu_node[HOST_MAX_CPUS];
unsigned int host_cpu_core[HOST_MAX_CPUS];
bool host_cpu_isolated[HOST_MAX_CPUS];
unsigned int host_nr_nodes = 1;
void (*host_race_hook)(int id);
void (*host_wake_hook)(unsigned int cpu);
bool host_pr_info_on;
unsigned int host_warn_hits;
unsigned int host_warn_printed;
uint32_t host_trace_mask;
unsigned long host_trace_hits[TRACE_NR_EVENTS];
unsigned long host_alloc_calls;
unsigned long host_alloc_failed;
unsigned long host_alloc_fail_at;
bool host_alloc_fail_toggle;
unsigned long host_alloc_live;

static __thread char thread_token;

/**
 * host_env_reset - forget counters and flags; the caller is CPU 0
 * @ncpus: number of CPUs to pretend (<= HOST_MAX_CPUS)
 */
void host_env_reset(unsigned int ncpus)
{
	if (ncpus == 0 || ncpus > HOST_MAX_CPUS)
		abort();
	nr_cpu_ids = ncpus;
	host_cpu = 0;
	host_jiffies = 0;
	host_now_ns = 0;
	for (unsigned int i = 0; i < HOST_MAX_CPUS; i++) {
		host_cpu_node[i] = 0;
		host_cpu_core[i] = i;
		host_cpu_isolated[i] = false;
	}
	host_nr_nodes = 1;
	host_race_hook = NULL;
	host_wake_hook = NULL;
	memset(host_softirq_raised, 0, sizeof(host_softirq_raised));
	memset(host_wake_ipis, 0, sizeof(host_wake_ipis));
	memset(host_cpu_idle, 0, sizeof(host_cpu_idle));
	host_warn_hits = 0;
	host_warn_printed = 0;
	host_alloc_calls = 0;
	host_alloc_failed = 0;
	host_alloc_fail_at = 0;
	host_alloc_fail_toggle = false;
	__atomic_store_n(&host_trace_mask, 0, __ATOMIC_RELAXED);
	for (unsigned int i = 0; i < TRACE_NR_EVENTS; i++)
		__atomic_store_n(&host_trace_hits[i], 0, __ATOMIC_RELAXED);
}

/* The host's trace "ring": a count per event (threads may race here). */
void host_trace_record(unsigned int id, const uint64_t *args, unsigned int n)
{
	(void)args;
	(void)n;
	if (id < TRACE_NR_EVENTS)
		__atomic_fetch_add(&host_trace_hits[id], 1, __ATOMIC_RELAXED);
}

void host_set_cpu(unsigned int cpu)
{
	if (cpu >= nr_cpu_ids)
		abort();
	host_cpu = cpu;
}

const void *host_thread_token(void)
{
	return &thread_token;
}

void spin_lock_init(spinlock_t *lock)
{
	pthread_mutex_init(&lock->mutex, NULL);
	lock->owner = NULL;
}

void spin_lock(spinlock_t *lock)
{
	if (__atomic_load_n(&lock->owner, __ATOMIC_RELAXED) == &thread_token) {
		fprintf(stderr, "spin_lock: recursive locking\n");
		abort();
	}
	pthread_mutex_lock(&lock->mutex);
	__atomic_store_n(&lock->owner, &thread_token, __ATOMIC_RELAXED);
}

void spin_unlock(spinlock_t *lock)
{
	if (__atomic_load_n(&lock->owner, __ATOMIC_RELAXED) != &thread_token) {
		fprintf(stderr, "spin_unlock: lock not held\n");
		abort();
	}
	__atomic_store_n(&lock->owner, NULL, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&lock->mutex);
}

void timer_env_raise_softirq(void)
{
	__atomic_fetch_add(&host_softirq_raised[host_cpu], 1, __ATOMIC_RELAXED);
}

void timer_env_wake_cpu(unsigned int cpu)
{
	if (cpu >= HOST_MAX_CPUS)
		abort();
	void (*hook)(unsigned int) =
		__atomic_load_n(&host_wake_hook, __ATOMIC_RELAXED);

	__atomic_fetch_add(&host_wake_ipis[cpu], 1, __ATOMIC_RELAXED);
	if (hook)
		hook(cpu);
}

/* Blocks handed out by timer_env_zalloc(), freed by host_env_free_all(). */
struct host_block {
	struct host_block *next;
	unsigned char pad[56];
};
static struct host_block *host_blocks;
static pthread_mutex_t host_blocks_lock = PTHREAD_MUTEX_INITIALIZER;

/* Whether this call fails by injection.  Pre: host_blocks_lock held. */
static bool host_alloc_should_fail(void)
{
	static bool last_failed;
	bool fail = ++host_alloc_calls == host_alloc_fail_at;

	if (host_alloc_fail_toggle)
		fail = !last_failed;
	last_failed = fail;
	if (fail)
		host_alloc_failed++;
	return fail;
}

void *timer_env_zalloc(size_t size)
{
	struct host_block *b;

	pthread_mutex_lock(&host_blocks_lock);
	if (host_alloc_should_fail()) {
		pthread_mutex_unlock(&host_blocks_lock);
		return NULL;
	}
	pthread_mutex_unlock(&host_blocks_lock);
	if (posix_memalign((void **)&b, 64, sizeof(*b) + size))
		return NULL;
	memset(b, 0, sizeof(*b) + size);
	pthread_mutex_lock(&host_blocks_lock);
	b->next = host_blocks;
	host_blocks = b;
	host_alloc_live++;
	pthread_mutex_unlock(&host_blocks_lock);
	return b + 1;
}

void host_env_free_all(void)
{
	pthread_mutex_lock(&host_blocks_lock);
	while (host_blocks) {
		struct host_block *b = host_blocks;

		host_blocks = b->next;
		free(b);
	}
	host_alloc_live = 0;
	pthread_mutex_unlock(&host_blocks_lock);
}

bool timer_env_cpu_idle(unsigned int cpu)
{
	return cpu < HOST_MAX_CPUS &&
	       __atomic_load_n(&host_cpu_idle[cpu], __ATOMIC_RELAXED);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel/env/timer_env.h - the kernel's machine for timer/.
 *
 * The files of timer/ reach CPU identity, locks, the clock, the softirq and IPIs
 * only through this header (the host tests have their own, with the same
 * names: tests/host/env/timer_env.h); what is not inline here is in
 * kernel/env/timer_env.c, as the host's is in tests/host/env/timer_env.c.
 * This header names kernel/ only, never arch/: the arch details stay
 * behind timer_env.c, kernel/tick.c and kernel/percpu.h.
 */
#ifndef KERNEL_ENV_TIMER_ENV_H
#define KERNEL_ENV_TIMER_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/kmem.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "kernel/trace.h"
#include "lib/atomic.h"

/* CPUs: smp_processor_id() comes from kernel/percpu.h. */
static inline unsigned int timer_env_cpu_node(unsigned int cpu)
{
	return per_cpu(cpu)->node;
}

static inline unsigned int timer_env_cpu_core(unsigned int cpu)
{
	return per_cpu(cpu)->core_id;
}

/* isolcpus=: not a timer housekeeping CPU (push avoids it). */
static inline bool timer_env_cpu_housekeeping(unsigned int cpu)
{
	return !per_cpu(cpu)->isolated;
}

/* A ticket lock cannot tell who holds it; "held by someone" is checked. */
#define lockdep_assert_held(l) \
	WARN_ONCE(!spin_is_locked(l), "lock %s not held", #l)

static inline void timer_env_cpu_relax(void)
{
	cpu_relax();
}

/* Clock: jiffies (kept by kernel/tick.c) and the ns time. */
extern uint64_t jiffies64;

static inline uint64_t timer_env_jiffies(void)
{
	return READ_ONCE(jiffies64);
}

uint64_t timer_env_now_ns(void);

/* Softirq, wake-up IPIs, idle state: kernel/env/timer_env.c. */
void timer_env_raise_softirq(void);
void timer_env_wake_cpu(unsigned int cpu);
bool timer_env_cpu_idle(unsigned int cpu);

/* Boot-lifetime memory, zeroed, 64-byte aligned: kernel/kmem.c. */
#define timer_env_zalloc(size) kzalloc(size)

/* Race points exist for the host's deterministic replays only. */
static inline void timer_env_race_point(int id)
{
	(void)id;
}

/*
 * Tracepoints: timer_env_trace(event, args...) records one event of
 * lib/trace_events.h in this CPU's trace ring (kernel/trace.c).  Off, it
 * is a test of trace_enabled_mask and a branch; the arguments are then
 * not evaluated.
 */
#define timer_env_trace(ev, ...) trace(ev, __VA_ARGS__)

#define WARN_ON_ONCE(cond) WARN_ONCE(cond, "WARN_ON_ONCE(%s)", #cond)
#define pr_warn(...)	   printk(__VA_ARGS__)
#define pr_info(...)	   printk(__VA_ARGS__)

#endif /* KERNEL_ENV_TIMER_ENV_H */

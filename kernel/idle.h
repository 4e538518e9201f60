/*
 * kernel/idle.h - the idle loop and the kernel's timer set-up.
 *
 * An idle period lasts until the CPU has work (a function queued with
 * smp_run_on(), or a wait condition met).  Interrupts inside it, the
 * CPU's own timers, smp_call_on() functions and wake-up IPIs, are served
 * without leaving it, as Linux serves interrupts in idle: the tick stays
 * stopped and the CPU stays idle in the migration hierarchy.
 */
#ifndef KERNEL_IDLE_H
#define KERNEL_IDLE_H

#include <stdbool.h>
#include <stdint.h>

/* Boot CPU: timer bases, model, hierarchy; before any AP starts. */
void timers_init(void);
/* Boot CPU, for @cpu before it starts (its hierarchy path is built). */
void timers_cpu_prepare(unsigned int cpu);
/* On each CPU as it comes up: tick on, join the hierarchy. */
void timers_cpu_online(void);

/* An AP's life after bring-up. */
__attribute__((noreturn)) void cpu_idle_loop(void);

/*
 * Idle this CPU until @done(@arg) is true; returns with interrupts as they
 * were.  Wake-ups that leave @done false go straight back to HLT.
 */
void cpu_idle_until(bool (*done)(void *arg), void *arg);
/* Idle (NOHZ) for @ns, woken by a pinned timer. */
void cpu_idle_sleep_ns(uint64_t ns);


/*
 * Time @cpu has spent out of HLT inside its idle loop, from each interrupt
 * that woke it to its next HLT, the current stretch included.  Its idle
 * path takes microseconds; more is time the host did not run the vCPU
 * (TCG: a descheduled host thread), which tests measure with this.
 */
uint64_t cpu_idle_awake_ns(unsigned int cpu);

/* Is @cpu in its idle loop?  (For timer/: push placement, remote wakes.) */
bool cpu_is_idle(unsigned int cpu);

#endif

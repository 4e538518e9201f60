/*
 * kernel/idle.h - the idle loop.
 *
 * An idle period lasts until the CPU has work (a function queued with
 * smp_run_on(), or a wait condition met).  Interrupts inside it, the
 * CPU's own timers, smp_call_on() functions and wake-up IPIs, are served
 * without leaving it, as Linux serves interrupts in idle: the tick stays
 * stopped and the CPU stays idle in the migration hierarchy.
 *
 * The words for "idle", one each:
 *   idle period   percpu idle.in_period: idle entry to exit (cpu_is_idle());
 *   halted        percpu idle.halted: one HLT of it, until the first interrupt
 *                 (the wake the "# stat" lines count);
 *   tick stopped  percpu tick.stopped: NOHZ stopped the tick for the period;
 *   bases idle    timer/ base->is_idle: the CPU's timer bases were left
 *                 idle, so a timer queued on them remotely must wake it;
 *   inactive      timer/ tmc->idle: out of the migration hierarchy's active
 *                 set (another CPU may expire its global timers).
 * The last two keep Linux's names (kernel/time/timer.c, timer_migration.c).
 */
#ifndef KERNEL_IDLE_H
#define KERNEL_IDLE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * An AP's life after bring-up (arch/x86_64/smp.c calls it once the AP's
 * clock is synced): timers_cpu_online(), then the idle loop for good.
 */
__attribute__((noreturn)) void cpu_startup_entry(void);

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

/*
 * Idle residency, the seed's "deep idle" measure: of @cpu's HLT stretches
 * (each ends at the interrupt that woke it), the total time, and the time
 * in stretches of at least 1 ms and of at least 10 ms.  A stretch still
 * open counts as long as it is at the read, so a CPU that halts through a
 * whole window shows it all, in the bins it has reached.  Counters only
 * grow; a window's figures are the differences of two reads: a stretch
 * that was open at the first read and reached a bin after it enters that
 * bin for all of its length, which idle_residency_add() clamps to the
 * window's idle time.
 */
struct idle_residency {
	uint64_t idle_ns, ge1ms_ns, ge10ms_ns;
};

void cpu_idle_residency(unsigned int cpu, struct idle_residency *r);
/* @sum += @end - @start */
void idle_residency_add(struct idle_residency *sum,
			const struct idle_residency *end,
			const struct idle_residency *start);
/* Per mille of @r's idle time in stretches of >= 1 ms, >= 10 ms (0 if none). */
unsigned idle_residency_1ms_pm(const struct idle_residency *r);
unsigned idle_residency_10ms_pm(const struct idle_residency *r);

/* Is @cpu in its idle loop?  (For timer/: push placement, remote wakes.) */
bool cpu_is_idle(unsigned int cpu);

#endif

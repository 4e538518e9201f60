#ifndef ARCH_X86_64_IDLE_H
#define ARCH_X86_64_IDLE_H

#include <stdbool.h>

/* Halt until the next interrupt; entered and left with interrupts off. */
void arch_cpu_idle(void);
__attribute__((noreturn)) void cpu_idle_loop(void);

/*
 * Run @fn(@arg) on @cpu (from its idle loop, interrupts off) and wait for
 * it, at most 1 s; false if the IPI failed or the CPU never ran it.
 */
bool smp_call_on(unsigned cpu, void (*fn)(void *), void *arg);

/* The two halves of smp_call_on(), to start work on several CPUs at once. */
bool smp_call_async(unsigned cpu, void (*fn)(void *), void *arg);
bool smp_call_wait(unsigned cpu);

#endif

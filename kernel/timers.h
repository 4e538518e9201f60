/* kernel/timers.h - the kernel's set-up of timer/ (kernel/timers.c). */
#ifndef KERNEL_TIMERS_H
#define KERNEL_TIMERS_H

/* Boot CPU: timer bases, model, hierarchy; before any AP starts. */
void timers_init(void);
/* Boot CPU, for @cpu before it starts (its hierarchy path is built). */
void timers_cpu_prepare(unsigned int cpu);
/* On each CPU as it comes up: tick on, join the hierarchy. */
void timers_cpu_online(void);

#endif

/*
 * kernel/tick.h - jiffies, the per-CPU tick and NOHZ idle.
 *
 * Each CPU's tick is its LAPIC timer, reprogrammed one-shot at every jiffy
 * boundary while the CPU is busy.  jiffies64 is not counted by any one CPU:
 * it is derived from the monotonic clock, so whichever CPU looks first after
 * a stopped-tick period catches it up (no lost jiffies, no owner to hand
 * over).  It starts TICK_INITIAL_SECONDS before its wrap, as Linux's
 * INITIAL_JIFFIES does, so every run longer than that crosses the wrap.
 */
#ifndef KERNEL_TICK_H
#define KERNEL_TICK_H

#include <stdbool.h>
#include <stdint.h>

#define TICK_INITIAL_SECONDS 5

extern uint64_t jiffies64;

/*
 * Boot CPU, once, before any CPU ticks; timer_init() with the same hz
 * must follow before jiffies are computed: the jiffy's length,
 * tick_period_ns(), is timer_tick_ns().
 */
void tick_init(unsigned int hz, bool nohz);
unsigned int tick_hz(void);
bool tick_nohz_enabled(void);
uint64_t tick_period_ns(void);

/* A running tick this late counts in struct cpu_tick's run_late_long. */
#define TICK_LATE_LONG_J 50

/* Bring jiffies64 up to the clock; returns the current jiffy. */
uint64_t tick_update_jiffies(void);
/* Clock time (ns) at which jiffy @j began. */
uint64_t tick_jiffy_start_ns(uint64_t j);
/* Jiffies for a delay of @ns from now, rounded up. */
uint64_t tick_ns_to_jiffies(uint64_t ns);

/* This CPU starts its periodic tick (at boot and cpu_up(), irqs off). */
void tick_cpu_start(void);
/* This CPU goes offline: LAPIC timer disarmed, nothing re-arms it. */
void tick_cpu_stop(void);
/* The LAPIC timer interrupt (LOCAL_TIMER_VECTOR), irqs off. */
void tick_interrupt(void);

/*
 * Idle: tick_nohz_idle_stop_tick() before each HLT of an idle period (it
 * asks timer/ for the next event and programs the LAPIC for it, or keeps
 * the tick when nohz=off or an event is a jiffy away);
 * tick_nohz_idle_exit() when the period ends because there is work.
 */
void tick_nohz_idle_stop_tick(void);
void tick_nohz_idle_exit(void);

#endif

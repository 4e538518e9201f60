/*
 * kernel/hotplug.h - CPU offline and online at run time.
 *
 * cpu_down(@cpu), called on another online CPU (the controller): @cpu
 * leaves the idle loop, marks itself offline (set_cpu_online(@cpu, false)), leaves
 * the pull hierarchy (tmigr_cpu_offline(): if it was the last active CPU it
 * hands the first global event to another online CPU), stops its tick,
 * moves every timer it holds, pinned ones included, to the controller
 * (timers_cpu_dead()) and parks: HLT with its LAPIC timer stopped, serving
 * nothing until cpu_up().  The controller spins while it waits (it stays
 * busy, as a CPU running Linux's hotplug thread does).
 *
 * cpu_up(@cpu): the parked CPU forwards its bases (timers_cpu_up()),
 * restarts its tick, rejoins the hierarchy (tmigr_cpu_online()), marks
 * itself online and enters the idle loop.
 *
 * Both return 0 or a negative code and print why on serial:
 *   -EINVAL  no such CPU, or it never came up
 *   -EBUSY   the calling CPU itself, the boot CPU (it runs the test runner
 *            and the exit path), the last online CPU, or another hotplug
 *            operation in progress
 *   -EALREADY  already offline (cpu_down) or online (cpu_up)
 *   -ETIMEDOUT the CPU did not answer within a second (it was busy)
 * Only one operation runs at a time; callers may race, the loser gets
 * -EBUSY.
 */
#ifndef KERNEL_HOTPLUG_H
#define KERNEL_HOTPLUG_H

#include <stdbool.h>
#include <stdint.h>

int cpu_down(unsigned cpu);
int cpu_up(unsigned cpu);
/* Quiet variants for torture: same checks and codes, no message. */
int cpu_down_quiet(unsigned cpu);
int cpu_up_quiet(unsigned cpu);
/* Timers moved off CPUs going offline since boot (timers_cpu_dead()). */
uint64_t hotplug_timers_moved(void);
/* Was @cpu brought up at boot (and so can come back after cpu_down())? */
bool cpu_present_booted(unsigned cpu);

/*
 * The idle loop calls this on a CPU that has just gone offline (irqs off):
 * HLT until cpu_up() asks, then come back up; returns to the idle loop.
 */
void cpu_park(void);

#endif

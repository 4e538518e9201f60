/* Bringing up the application processors (APs). */
#ifndef ARCH_X86_64_SMP_H
#define ARCH_X86_64_SMP_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/atomic.h"

/*
 * Start every enabled CPU of the MADT but the boot CPU, all at once
 * (@parallel) or one at a time, and wait (bounded) for each to report in;
 * a CPU that does not is put back into INIT, reported and left out.
 * Returns the number of CPUs online, the boot CPU included.
 */
struct smp_boot_args {
	bool parallel;
	/* cpu_init_udelay=, or CPU_INIT_UDELAY_AUTO: the CPU model's. */
	unsigned init_udelay;
	/* Test only: a MADT CPU to give up on at once (as an AP that never
	 * reports in), or any index past the last. */
	unsigned late_test;
	/* Test only: each AP holds every TSC sync answer this long. */
	unsigned sync_stall_us;
	/* Test only: MADT CPU i reports in (ncpus - i) times this late. */
	unsigned report_delay_ms;
};
unsigned smp_boot_aps(const struct smp_boot_args *args);

/*
 * Online CPUs, by MADT index, one byte each so that a CPU sets its own
 * without a read-modify-write of its neighbours'.  Set (release) by each
 * CPU itself once it runs C code, cleared by itself when it goes offline;
 * a reader that then touches the CPU's per-CPU data pairs with acquire.
 */
extern uint8_t *cpu_online_map;

static inline bool cpu_online(unsigned int cpu)
{
	return READ_ONCE(cpu_online_map[cpu]);
}

static inline void set_cpu_online(unsigned int cpu, bool online)
{
	smp_store_release(&cpu_online_map[cpu], online);
}

unsigned num_online_cpus(void);

#endif

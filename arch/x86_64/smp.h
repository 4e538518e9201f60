/* Bringing up the application processors (APs). */
#ifndef ARCH_X86_64_SMP_H
#define ARCH_X86_64_SMP_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Start every enabled CPU of the MADT but the boot CPU, all at once
 * (@parallel) or one at a time, and wait (bounded) for each to report in;
 * a CPU that does not is put back into INIT, reported and left out.
 * @init_udelay: cpu_init_udelay=, or CPU_INIT_UDELAY_AUTO for the CPU
 * model's default.  @late_test: a MADT CPU to give up on at once (test
 * only: as an AP that never reports in), or any index past the last.
 * Returns the number of CPUs online, the boot CPU included.
 */
unsigned smp_boot_aps(bool parallel, unsigned init_udelay, unsigned late_test);

/* Online CPUs, by MADT index; set by each CPU itself once it runs C code. */
extern volatile uint8_t *cpu_online;
unsigned num_online_cpus(void);

#endif

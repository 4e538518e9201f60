/* Bringing up the application processors (APs). */
#ifndef ARCH_X86_64_SMP_H
#define ARCH_X86_64_SMP_H

#include <stdint.h>

/*
 * Start every enabled CPU of the MADT but the boot CPU, one at a time, and
 * wait (bounded) for each to report in; a CPU that does not is reported
 * and left out.  Returns the number of CPUs online, the boot CPU included.
 */
unsigned smp_boot_aps(void);

/* Online CPUs, by MADT index; set by each CPU itself once it runs C code. */
extern volatile uint8_t *cpu_online;
unsigned num_online_cpus(void);

#endif

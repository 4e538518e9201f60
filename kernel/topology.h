/* The machine's CPUs and NUMA nodes as the firmware (ACPI) describes them. */
#ifndef KERNEL_TOPOLOGY_H
#define KERNEL_TOPOLOGY_H

#include "drivers/acpi.h"

/* Room for this many CPUs; more are reported as truncated, not dropped silently. */
#define TOPOLOGY_MAX_CPUS	4096

extern struct acpi_topology acpi_topo;

/*
 * Find the RSDP (loader tag, else the BIOS areas), parse MADT/SRAT/SLIT
 * into acpi_topo and print the `# acpi` lines.  Needs the final direct map.
 * Returns 0, or -1 after printing why.
 */
int topology_init(void);

/* After topology_init(): same value for SMT siblings, distinct otherwise. */
uint32_t topology_core_key(unsigned cpu);

#endif

/* The machine's CPUs and NUMA nodes as the firmware (ACPI) describes them. */
#ifndef KERNEL_TOPOLOGY_H
#define KERNEL_TOPOLOGY_H

#include "drivers/acpi.h"

extern struct acpi_topology acpi_topo;

/*
 * Find the RSDP (loader tag, else the BIOS areas), parse MADT/SRAT/SLIT
 * into acpi_topo and print the `# acpi` line.  acpi_topo.cpus is sized
 * from the MADT's own count (kzalloc), so any number of CPUs fits.  Needs
 * the final direct map and the page allocator.  Returns 0, or -1 after
 * printing why.
 */
int topology_init(void);
/*
 * After topology_init(): the `# topology` line and one `# cpu` line per
 * CPU.  A phase of its own in the boot timeline: at 1024 CPUs these lines
 * are tens of kilobytes over the UART.
 */
void topology_print_cpus(void);

/* After topology_init(): same value for SMT siblings, distinct otherwise. */
uint32_t topology_core_key(unsigned cpu);

#endif

/*
 * The boot timeline: the boot CPU stamps the TSC at kmain's entry and at
 * the end of each phase, and prints one "# boot_phase" line per phase
 * once the TSC is calibrated (docs/serial-format.md).
 */
#ifndef KERNEL_BOOTTIME_H
#define KERNEL_BOOTTIME_H

enum boot_phase {
	BOOT_PHASE_MEMORY,   /* boot information, command line, pages, paging */
	BOOT_PHASE_ACPI,     /* MADT, SRAT, SLIT: the CPUs and nodes */
	BOOT_PHASE_CPU_LIST, /* the `# topology` and `# cpu` lines */
	BOOT_PHASE_CLOCK, /* TSC and LAPIC timer calibration, per-CPU areas */
	BOOT_PHASE_HIERARCHY, /* timer bases and the pull hierarchy */
	BOOT_PHASE_APS,	      /* AP bring-up */
	BOOT_PHASES
};

void boot_time_entry(void);
void boot_phase_done(enum boot_phase phase);
/* The phase lines and the total, entry to the end of the last phase. */
void boot_time_print(void);

#endif

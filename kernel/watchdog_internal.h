/*
 * kernel/watchdog_internal.h - what watchdog.c (the checks) and
 * watchdog_dump.c (the dump) share.  Not for other users.
 */
#ifndef KERNEL_WATCHDOG_INTERNAL_H
#define KERNEL_WATCHDOG_INTERNAL_H

#include "kernel/watchdog.h"

/*
 * One per CPU.  The wait fields have one writer, the CPU itself; the NMI
 * sample is written by the CPU's NMI handler, which then sets nmi_seq to
 * the nmi_req the dumping CPU bumped; readers on other CPUs use READ_ONCE.
 */
struct wd_cpu {
	struct watchdog_wait wait;
	uint32_t nmi_req, nmi_seq;
	bool nmi_asked; /* sent an NMI in the current dump */
	uint64_t rip, rsp, rbp, rflags;
};

struct wd_stage {
	const char *what, *detail;
	uint64_t since_ns;
	uint64_t expect_ns; /* 0: no bound */
};

extern struct wd_cpu *wd_cpus; /* nr_cpus of them, NULL when off */
extern uint64_t wd_stall_ns;   /* N, in ns */
extern struct wd_stage wd_stage;

/*
 * Look for stalls at @now; with @print, say each one as a `# watchdog
 * stall` line.  Returns how many were found.
 */
unsigned int wd_scan(uint64_t now, bool print);

#endif

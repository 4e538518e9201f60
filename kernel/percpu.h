/*
 * Per-CPU data, reached through GS: IA32_GS_BASE points at the CPU's own
 * struct percpu, whose first word points at itself, so this_cpu() is one
 * load.  Index = the CPU's position in the MADT (acpi_topo.cpus[]).
 */
#ifndef KERNEL_PERCPU_H
#define KERNEL_PERCPU_H

#include <stdbool.h>
#include <stdint.h>

/* Shared with the caller: marked accesses only (lib/atomic.h). */
struct percpu_call {
	void (*fn)(void *arg);
	void *arg;
	bool done;
};

struct percpu {
	struct percpu *self;
	unsigned cpu;
	uint32_t apic_id;
	unsigned node;
	/*
	 * The idle words (kernel/idle.h): halted from just before an idle
	 * HLT to the first interrupt after it; in_idle_period from idle
	 * entry to exit (many HLTs); tick_stopped while NOHZ holds the tick.
	 */
	bool halted;
	/*
	 * Added to this CPU's TSC to line it up with the boot CPU's; good to
	 * tsc_sync_ns either way (half the kept sync round trip; 0 on CPU 0).
	 */
	uint64_t tsc_offset, tsc_sync_ns;
	uint64_t idle_entries;
	uint64_t wakes_timer, wakes_ipi, wakes_other;
	uint64_t idle_ns, idle_since;
	/*
	 * Residency (kernel/idle.h, cpu_idle_residency): of idle_ns, the HLT
	 * stretches of at least 1 ms and at least 10 ms.  Written by this
	 * CPU's first interrupt out of HLT, read anywhere.  idle_seq is odd
	 * while this CPU changes halted, idle_since, idle_ns or the bins, so
	 * that a reader sees one stretch either ended or open, never both.
	 */
	uint64_t idle_1ms_ns, idle_10ms_ns;
	unsigned idle_seq;
	/*
	 * Out of HLT inside the idle loop (kernel/idle.h, cpu_idle_awake_ns):
	 * when the last interrupt woke it (0: not woken from the idle loop's
	 * HLT), and the total from such wakes to the next HLT.
	 */
	uint64_t idle_woke_ns, idle_awake_ns;
	/*
	 * The last wake out of HLT, kept past the idle loop's exit: its
	 * clock_ns() and its enum irq_source (kernel/scenario.c leaves out a
	 * wake that came after its window).
	 */
	uint64_t last_wake_ns;
	uint8_t last_wake_src;
	uint64_t ipis_received;
	uint64_t timer_irqs;
	uint64_t last_timer_irq_ns;
	/* smp_call_on() and smp_run_on() requests (kernel/smp_call.h). */
	struct percpu_call call, work;
	/* kernel/idle.c, kernel/tick.c, kernel/softirq.c */
	unsigned core_id;    /* shared by SMT siblings */
	bool isolated;	     /* isolcpus= */
	bool in_idle_period; /* between idle entry and exit */
	bool tick_stopped;
	bool nohz_asked; /* timer_nohz_next_event() this period */
	bool softirq_pending, in_softirq;
	uint64_t softirq_deferred; /* passes left for the next irq exit */
	uint64_t tick_next_ns;	   /* LAPIC armed for, TMIGR_NONE_NS */
	uint64_t ticks, tick_stops;
	uint64_t tick_irq_delay_ns; /* last LAPIC interrupt vs armed time */
	/* kernel/hotplug.c */
	bool booted;	     /* came up at boot: may go and return */
	bool offline;	     /* parked: interrupts serve nothing */
	bool online_request; /* cpu_up() asks the parked CPU */
	uint64_t offlines, offline_ns;
	uint64_t parked_wakes; /* interrupts while parked */
	/* kernel/panic.c: counted among the CPUs a panic stopped */
	bool panic_stopped;
};

extern struct percpu *percpu_areas;
extern unsigned nr_cpus;

static inline struct percpu *this_cpu(void)
{
	struct percpu *p;

	__asm__ volatile("movq %%gs:0, %0" : "=r"(p));
	return p;
}

static inline unsigned smp_processor_id(void)
{
	return this_cpu()->cpu;
}

static inline struct percpu *per_cpu(unsigned cpu)
{
	return &percpu_areas[cpu];
}

/* Allocate the areas for @ncpus CPUs; then percpu_install() on each CPU. */
int percpu_alloc(unsigned ncpus);
void percpu_install(unsigned cpu);
/* Whether this CPU has its area (GS base set), so this_cpu() works. */
bool percpu_installed(void);

#endif

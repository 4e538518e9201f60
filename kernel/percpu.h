/*
 * Per-CPU data, reached through GS: IA32_GS_BASE points at the CPU's own
 * struct percpu, whose first word points at itself, so this_cpu() is one
 * load.  Index = the CPU's position in the MADT (acpi_topo.cpus[]).
 */
#ifndef KERNEL_PERCPU_H
#define KERNEL_PERCPU_H

#include <stdbool.h>
#include <stdint.h>

struct percpu_call {
	void (*volatile fn)(void *arg);
	void *volatile arg;
	volatile bool done;
};

struct percpu {
	struct percpu *self;
	unsigned cpu;
	uint32_t apic_id;
	unsigned node;
	/* Set by arch_cpu_idle() before HLT, cleared by the first interrupt. */
	volatile bool in_idle;
	/* Added to this CPU's TSC to line it up with the boot CPU's. */
	uint64_t tsc_offset;
	uint64_t idle_entries;
	uint64_t wakes_timer, wakes_ipi, wakes_other;
	uint64_t idle_ns, idle_since;
	uint64_t ipis_received;
	uint64_t timer_irqs;
	volatile uint64_t last_timer_irq_ns;
	/* smp_call_on() and smp_run_on() requests (kernel/smp_call.h). */
	struct percpu_call call, work;
	/* kernel/idle.c, kernel/tick.c, kernel/softirq.c */
	unsigned core_id;		/* shared by SMT siblings */
	bool isolated;			/* isolcpus= */
	bool in_idle_loop;		/* between idle entry and exit */
	bool tick_stopped;
	bool nohz_asked;		/* timer_nohz_next_event() this period */
	bool softirq_pending, in_softirq;
	uint64_t softirq_deferred;	/* passes left for the next irq exit */
	uint64_t tick_next_ns;		/* LAPIC armed for, TICK_NONE_NS */
	uint64_t ticks, tick_stops;
	uint64_t tick_irq_delay_ns;	/* last LAPIC interrupt vs armed time */
	/* kernel/hotplug.c */
	bool booted;			/* came up at boot: may go and return */
	volatile bool offline;		/* parked: interrupts serve nothing */
	volatile bool online_request;	/* cpu_up() asks the parked CPU */
	uint64_t offlines, offline_ns;
	uint64_t parked_wakes;		/* interrupts while parked */
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

#endif

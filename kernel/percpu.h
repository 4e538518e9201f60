/*
 * Per-CPU data, reached through GS: IA32_GS_BASE points at the CPU's own
 * struct percpu, whose first word points at itself, so this_cpu() is one
 * load.  Index = the CPU's position in the MADT (acpi_topo.cpus[]).
 */
#ifndef KERNEL_PERCPU_H
#define KERNEL_PERCPU_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/atomic.h"

/* Shared with the caller: marked accesses only (lib/atomic.h). */
struct percpu_call {
	void (*fn)(void *arg);
	void *arg;
	bool done;
};

/*
 * Idle accounting (kernel/idle.h): written by this CPU, in its idle loop
 * and by its first interrupt out of HLT; read anywhere.
 */
struct cpu_idle_stats {
	/*
	 * halted from just before an idle HLT to the first interrupt after
	 * it; in_period from idle entry to exit (many HLTs).
	 */
	bool halted;
	bool in_period;
	uint64_t entries;
	uint64_t wakes_timer, wakes_ipi, wakes_other;
	/*
	 * Timer interrupts found pending just before an HLT and taken
	 * without halting (do_idle()): raised while the CPU ran, so no wake.
	 */
	uint64_t irq_before_halt;
	uint64_t ns, since;
	/*
	 * Residency (cpu_idle_residency()): of ns, the HLT stretches of at
	 * least 1 ms and at least 10 ms.  seq is odd while this CPU changes
	 * halted, since, ns or the bins, so that a reader sees one stretch
	 * either ended or open, never both.
	 */
	uint64_t ns_1ms, ns_10ms;
	unsigned seq;
	/*
	 * Out of HLT inside the idle loop (cpu_idle_awake_ns()): when the
	 * last interrupt woke it (0: not woken from the idle loop's HLT),
	 * and the total from such wakes to the next HLT.
	 */
	uint64_t woke_ns, awake_ns;
	/*
	 * The last wake out of HLT, kept past the idle loop's exit: its
	 * clock_ns() and its enum irq_source (kernel/scenario.c leaves out a
	 * wake that came after its window).
	 */
	uint64_t last_wake_ns;
	uint8_t last_wake_src;
};

/* Wakes out of HLT of every cause; each counter is read once. */
static inline uint64_t cpu_idle_wakes(const struct cpu_idle_stats *s)
{
	return READ_ONCE(s->wakes_timer) + READ_ONCE(s->wakes_ipi) +
	       READ_ONCE(s->wakes_other);
}

/* The tick (kernel/tick.c) and the LAPIC timer interrupt (kernel/irq.c). */
struct cpu_tick {
	bool stopped;	  /* NOHZ holds the tick */
	bool nohz_asked;  /* timer_nohz_next_event() this period */
	uint64_t next_ns; /* LAPIC armed for, TMIGR_NONE_NS if not */
	uint64_t ticks, stops;
	uint64_t irq_delay_ns; /* last LAPIC interrupt vs armed time */
	uint64_t irq_armed_ns; /* what it was armed for, TMIGR_NONE_NS: unknown */
	uint64_t timer_irqs;
	uint64_t last_irq_ns;
	/*
	 * Of the interrupts of the running tick (a busy CPU's): the latest
	 * against its armed time, and how many came more than
	 * TICK_LATE_LONG_J jiffies late.  Such a CPU was not run by the host:
	 * as a migrator it served nobody meanwhile (docs/torture.md).
	 */
	uint64_t run_late_max_ns, run_late_long;
};

/* kernel/softirq.c */
struct cpu_softirq {
	bool pending, running;
	uint64_t deferred; /* passes left for the next irq exit */
	/*
	 * The LAPIC timer interrupt the current run follows (tick's
	 * last_irq_ns and irq_armed_ns when it began): interrupts nested in
	 * a run change the tick's own.
	 */
	uint64_t run_irq_ns, run_irq_armed_ns;
};

/* kernel/hotplug.c */
struct cpu_hotplug {
	bool booted;	     /* came up at boot: may go and return */
	bool offline;	     /* parked: interrupts serve nothing */
	bool online_request; /* cpu_up() asks the parked CPU */
	uint64_t offlines, offline_ns;
	uint64_t parked_wakes; /* interrupts while parked */
};

/* One per CPU; each part names the file that writes it. */
struct percpu {
	struct percpu *self;
	unsigned cpu;
	uint32_t apic_id;
	unsigned node;
	unsigned core_id; /* shared by SMT siblings */
	bool isolated;	  /* isolcpus= */
	/*
	 * Added to this CPU's TSC to line it up with the boot CPU's; good to
	 * tsc_sync_ns either way (half the kept sync round trip; 0 on CPU 0).
	 */
	uint64_t tsc_offset, tsc_sync_ns;
	uint64_t ipis_received;
	/* kernel/irq.c: interrupts taken, parked or not (smp_call.c reads) */
	uint64_t irq_entries;
	/* smp_call_on() and smp_run_on() requests (kernel/smp_call.h). */
	struct percpu_call call, work;
	struct cpu_idle_stats idle;
	struct cpu_tick tick;
	struct cpu_softirq softirq;
	struct cpu_hotplug hp;
	/* kernel/panic.c: counted among the CPUs a panic stopped */
	bool panic_stopped;
	/*
	 * kernel/spinlock.c, this CPU only: its longest wait for a ticket
	 * lock, and the longest stretch within any such wait in which it did
	 * not run (its own TSC jumped between two looks at the lock).
	 */
	uint64_t lock_wait_max_ns, lock_not_run_max_ns;
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

/*
 * The kernel's side of an interrupt (kernel/irq.h): parking, wake
 * accounting, the tick and the softirq.  The first interrupt after
 * idle_halt()'s HLT is that idle period's wake reason: timer (the LAPIC
 * timer vector), IPI (call-function or reschedule) or other.
 */
#include "kernel/irq.h"
#include "arch/x86_64/arch.h"
#include "kernel/percpu.h"
#include "kernel/softirq.h"
#include "kernel/tick.h"
#include "kernel/trace.h"
#include "lib/atomic.h"
#include "lib/time.h"

static void account_wake(struct percpu *p, enum irq_source src,
			 unsigned int vector)
{
	uint64_t idle;

	if (!READ_ONCE(p->idle.halted))
		return;
	WRITE_ONCE(p->idle.seq, p->idle.seq + 1);
	smp_wmb();
	WRITE_ONCE(p->idle.halted, false);
	/*
	 * The first interrupt out of HLT: jiffies may be stale if every CPU
	 * was idle, and what this handler arms must see the current jiffy
	 * (Linux's tick_nohz_irq_enter() does the same).
	 */
	tick_update_jiffies();
	p->idle.woke_ns = clock_ns();
	idle = p->idle.woke_ns - p->idle.since;
	/* Under idle.seq with idle.halted: cpu_idle_residency() sees all or none. */
	WRITE_ONCE(p->idle.ns, p->idle.ns + idle);
	if (idle >= NSEC_PER_MSEC)
		WRITE_ONCE(p->idle.ns_1ms, p->idle.ns_1ms + idle);
	if (idle >= 10 * NSEC_PER_MSEC)
		WRITE_ONCE(p->idle.ns_10ms, p->idle.ns_10ms + idle);
	smp_wmb();
	WRITE_ONCE(p->idle.seq, p->idle.seq + 1);
	WRITE_ONCE(p->idle.last_wake_ns, p->idle.woke_ns);
	WRITE_ONCE(p->idle.last_wake_src, (uint8_t)src);
	if (src == IRQ_SRC_TIMER)
		p->idle.wakes_timer++;
	else if (src == IRQ_SRC_IPI)
		p->idle.wakes_ipi++;
	else
		p->idle.wakes_other++;
	trace(idle_exit, src, vector, idle);
}

bool irq_enter(enum irq_source src, unsigned int vector)
{
	struct percpu *p = this_cpu();

	WRITE_ONCE(p->irq_entries, p->irq_entries + 1);

	/* Parked by cpu_down(): no tick, no softirq; count what came. */
	if (READ_ONCE(p->hp.offline)) {
		p->hp.parked_wakes++;
		return false;
	}
	account_wake(p, src, vector);
	return true;
}

void irq_handle(enum irq_source src, unsigned int vector)
{
	struct percpu *p = this_cpu();

	if (src == IRQ_SRC_IPI) {
		p->ipis_received++;
		trace(ipi_receive, vector);
	} else if (src == IRQ_SRC_TIMER) {
		/* Stamp first: a reader that sees the count sees the stamp. */
		WRITE_ONCE(p->tick.last_irq_ns, clock_ns());
		smp_store_release(&p->tick.timer_irqs, p->tick.timer_irqs + 1);
		tick_interrupt();
	}
	irq_exit_softirq();
}

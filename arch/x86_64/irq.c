/*
 * Interrupt dispatch and wake accounting.  The first interrupt after
 * arch_cpu_idle()'s HLT is that idle period's wake reason: timer (the
 * LAPIC timer vector), IPI (call-function or reschedule) or other.
 */
#include "arch/x86_64/irq.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/trap.h"
#include "arch/x86_64/tsc.h"
#include "kernel/percpu.h"
#include "kernel/softirq.h"
#include "kernel/tick.h"
#include "kernel/trace.h"
#include "kernel/watchdog.h"

extern const uint64_t irq_stubs[4];
static const uint8_t irq_vectors[4] = {
	LOCAL_TIMER_VECTOR, CALL_FUNCTION_VECTOR, RESCHEDULE_VECTOR,
	SPURIOUS_VECTOR,
};

void idt_set_gate(unsigned vec, uint64_t handler, uint8_t ist);

void irq_init(void)
{
	for (unsigned i = 0; i < sizeof(irq_vectors); i++)
		idt_set_gate(irq_vectors[i], irq_stubs[i], 0);
}

/* idle_exit's reason field (lib/trace_events.h). */
enum { WAKE_TIMER, WAKE_IPI, WAKE_OTHER };

static void account_wake(struct percpu *p, unsigned vector)
{
	uint64_t idle;
	unsigned reason;

	if (!p->in_idle)
		return;
	p->in_idle = false;
	/*
	 * The first interrupt out of HLT: jiffies may be stale if every CPU
	 * was idle, and what this handler arms must see the current jiffy
	 * (Linux's tick_nohz_irq_enter() does the same).
	 */
	tick_update_jiffies();
	idle = clock_ns() - p->idle_since;
	p->idle_ns += idle;
	if (vector == LOCAL_TIMER_VECTOR) {
		p->wakes_timer++;
		reason = WAKE_TIMER;
	} else if (vector == CALL_FUNCTION_VECTOR ||
		   vector == RESCHEDULE_VECTOR) {
		p->wakes_ipi++;
		reason = WAKE_IPI;
	} else {
		p->wakes_other++;
		reason = WAKE_OTHER;
	}
	trace(idle_exit, reason, vector, idle);
}

void irq_dispatch(struct trap_frame *f)
{
	struct percpu *p = this_cpu();

	/* Parked by cpu_down(): no tick, no softirq; count what came. */
	if (p->offline) {
		p->parked_wakes++;
		if (f->vector != SPURIOUS_VECTOR)
			lapic_eoi();
		return;
	}
	account_wake(p, (unsigned)f->vector);
	if (f->vector == SPURIOUS_VECTOR)
		return;		/* no EOI for a spurious interrupt (SDM 11.9) */
	if (f->vector == CALL_FUNCTION_VECTOR ||
	    f->vector == RESCHEDULE_VECTOR) {
		p->ipis_received++;
		trace(ipi_receive, f->vector);
	}
	/*
	 * EOI before the tick's work: the timer softirq runs with interrupts
	 * on and must not hold off further timer interrupts (the one-shot is
	 * re-armed inside tick_interrupt()).
	 */
	lapic_eoi();
	if (f->vector == LOCAL_TIMER_VECTOR) {
		/* Stamp first: a reader that sees the count sees the stamp. */
		p->last_timer_irq_ns = clock_ns();
		__atomic_store_n(&p->timer_irqs, p->timer_irqs + 1,
				 __ATOMIC_RELEASE);
		tick_interrupt();
		watchdog_tick(f);
	}
	irq_exit_softirq();
}

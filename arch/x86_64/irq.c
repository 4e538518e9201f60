/*
 * Interrupt dispatch: name the vector's source, EOI, and hand the rest to
 * the kernel (kernel/irq.h: parking, wake accounting, the tick, the
 * softirq).
 */
#include "arch/x86_64/irq.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/trap.h"
#include "kernel/irq.h"
#include "kernel/watchdog.h"

extern const uint64_t irq_stubs[4];
static const uint8_t irq_vectors[4] = {
	LOCAL_TIMER_VECTOR,
	CALL_FUNCTION_VECTOR,
	RESCHEDULE_VECTOR,
	SPURIOUS_VECTOR,
};

void idt_set_gate(unsigned vec, uint64_t handler, uint8_t ist);

void irq_init(void)
{
	for (unsigned i = 0; i < sizeof(irq_vectors); i++)
		idt_set_gate(irq_vectors[i], irq_stubs[i], 0);
}

static enum irq_source vector_source(unsigned vector)
{
	if (vector == LOCAL_TIMER_VECTOR)
		return IRQ_SRC_TIMER;
	if (vector == CALL_FUNCTION_VECTOR || vector == RESCHEDULE_VECTOR)
		return IRQ_SRC_IPI;
	return IRQ_SRC_OTHER;
}

void irq_dispatch(struct trap_frame *f)
{
	unsigned vector = (unsigned)f->vector;
	enum irq_source src = vector_source(vector);
	bool serve = irq_enter(src, vector);

	if (vector == SPURIOUS_VECTOR)
		return; /* no EOI for a spurious interrupt (SDM 11.9) */
	/*
	 * EOI before the tick's work: the timer softirq runs with interrupts
	 * on and must not hold off further timer interrupts (the one-shot is
	 * re-armed inside tick_interrupt()).
	 */
	lapic_eoi();
	if (serve)
		irq_handle(src, vector);
	/* After the tick: the watchdog's check (kernel/watchdog.h). */
	if (serve && src == IRQ_SRC_TIMER)
		watchdog_tick(f);
}

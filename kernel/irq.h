/*
 * kernel/irq.h - the kernel's side of an interrupt.
 *
 * The arch's dispatcher (arch/x86_64/irq.c) names the vector's source and
 * calls irq_enter() first, then, after its EOI and unless irq_enter()
 * said no, irq_handle().  Both run with interrupts off.
 */
#ifndef KERNEL_IRQ_H
#define KERNEL_IRQ_H

#include <stdbool.h>

/* What raised the interrupt; also the idle_exit trace's reason field. */
enum irq_source { IRQ_SRC_TIMER, IRQ_SRC_IPI, IRQ_SRC_OTHER };

/*
 * The first interrupt after an idle HLT is that idle period's wake
 * reason; irq_enter() accounts it and catches jiffies up.  False when
 * this CPU is parked by cpu_down(): the interrupt is counted and serves
 * nothing.
 */
bool irq_enter(enum irq_source src, unsigned int vector);
/* The tick, the IPI counters, then the timer softirq. */
void irq_handle(enum irq_source src, unsigned int vector);

#endif

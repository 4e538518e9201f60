/*
 * kernel/softirq.h - one softirq, the timer's, run on interrupt exit.
 *
 * raise marks it pending on this CPU; irq_exit_softirq() (called by the
 * interrupt dispatcher after EOI) runs it with interrupts enabled, once per
 * outermost interrupt: an interrupt nested inside it only marks it pending
 * again, and the loop picks that up.
 */
#ifndef KERNEL_SOFTIRQ_H
#define KERNEL_SOFTIRQ_H

void raise_timer_softirq(void);
void irq_exit_softirq(void);

#endif

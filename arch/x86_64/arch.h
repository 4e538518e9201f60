/*
 * arch/x86_64/arch.h - the machine as kernel/ sees it.
 *
 * kernel/ reaches the arch through this header: spinning (cpu_relax()),
 * halting, IPIs and NMIs, CPUID (cpuid.h), the clock (tsc.h), the online
 * map (smp.h), the clockevent, and for the panic and watchdog paths the
 * trap frame, stack walking and the frame check (trap.h, below).  kmain's
 * boot sequence (kernel/main.c), which sets the machine up step by step,
 * is the one file in kernel/ that also names the arch's set-up headers.
 */
#ifndef ARCH_X86_64_ARCH_H
#define ARCH_X86_64_ARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/irq.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/smp.h"
#include "arch/x86_64/trap.h"
#include "arch/x86_64/tsc.h"
#include "kernel/mm.h"
#include "kernel/percpu.h"

/*
 * Fixed-vector IPI to CPU @cpu (CALL_FUNCTION_VECTOR, RESCHEDULE_VECTOR);
 * false if it could not be sent (see lapic_send_ipi()).
 */
static inline bool arch_send_ipi(unsigned int cpu, uint8_t vector)
{
	return lapic_send_ipi(per_cpu(cpu)->apic_id, vector);
}

/* NMI to CPU @cpu (it arrives with interrupts off); false if not sent. */
static inline bool arch_send_nmi(unsigned int cpu)
{
	return lapic_send_nmi(per_cpu(cpu)->apic_id);
}

/*
 * May a stack walk follow frame pointer @rbp?  Only if it is aligned, in
 * the kernel half and both its words (saved RBP, return address) are
 * mapped: after a stack overflow it may point into a guard page, and a
 * fault while dumping (in the #DF handler, or in an NMI) would be fatal.
 */
static inline bool arch_frame_readable(uint64_t rbp)
{
	int level;

	return rbp >= DIRECT_MAP_BASE && !(rbp & 7) && rbp + 16 > rbp &&
	       paging_lookup((const void *)rbp, &level) &&
	       paging_lookup((const void *)(rbp + 8), &level);
}

/* Halt until the next interrupt; entered and left with interrupts off. */
void arch_cpu_idle(void);

/*
 * Arm this CPU's LAPIC timer, one-shot, to fire LOCAL_TIMER_VECTOR in
 * @delta_ns (rounded to the timer's tick, at least one tick, at most 2^32).
 */
void arch_clockevent_program(uint64_t delta_ns);
void arch_clockevent_cancel(void);
/*
 * Has the LAPIC timer raised its interrupt, not yet taken (interrupts
 * off)?  It stays pending when the timer is armed anew: a deadline that
 * passed before it was moved still interrupts.
 */
bool arch_clockevent_irq_pending(void);

/*
 * Let pending interrupts in, from and back to interrupts off.  STI holds
 * them off for one more instruction, hence the NOP before CLI.
 */
static inline void arch_irq_window(void)
{
	__asm__ volatile("sti; nop; cli" ::: "memory");
}

#endif

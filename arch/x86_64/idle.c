/*
 * arch_cpu_idle() is entered with interrupts off and executes "sti; hlt"
 * in one asm: STI takes effect only after the next instruction, so an
 * interrupt that became pending after the caller's last check is taken
 * once HLT has started and ends it; no wake-up is lost between the check
 * and the halt.  The idle accounting around it is the kernel's
 * (kernel/idle.c, kernel/irq.c).
 */
#include "arch/x86_64/arch.h"

void arch_cpu_idle(void)
{
	__asm__ volatile("sti; hlt; cli" ::: "memory");
}

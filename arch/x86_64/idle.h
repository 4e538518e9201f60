#ifndef ARCH_X86_64_IDLE_H
#define ARCH_X86_64_IDLE_H

/* Halt until the next interrupt; entered and left with interrupts off. */
void arch_cpu_idle(void);
/* The same for a parked (offline) CPU: no idle accounting, no wake reason. */
void arch_cpu_halt(void);

#endif

/* Local APIC (xAPIC, MMIO) access and inter-processor interrupts. */
#ifndef ARCH_X86_64_LAPIC_H
#define ARCH_X86_64_LAPIC_H

#include <stdbool.h>
#include <stdint.h>

#define LAPIC_SPURIOUS_VECTOR	0xFF

void lapic_init(uint64_t phys);
/* Software-enable this CPU's LAPIC (SVR), masking nothing else. */
void lapic_enable(void);
uint32_t lapic_id(void);
void lapic_eoi(void);
/* Fixed-vector IPI to one CPU; false if the ICR stayed busy (bounded). */
bool lapic_send_ipi(uint32_t apic_id, uint8_t vector);
/* The same vector to every other CPU (destination shorthand). */
bool lapic_send_ipi_all_but_self(uint8_t vector);
/* Measure the LAPIC timer rate against the TSC (boot CPU, once). */
void lapic_timer_calibrate(void);
uint64_t lapic_timer_rate(void);
/*
 * Arm this CPU's LAPIC timer, one-shot, to fire LOCAL_TIMER_VECTOR in
 * @delta_ns (rounded to the timer's tick, at least one tick, at most 2^32).
 */
void arch_clockevent_program(uint64_t delta_ns);
void arch_clockevent_cancel(void);

/*
 * Clockevent mode, chosen once on the boot CPU: TSC-deadline when asked
 * for and CPUID.01H:ECX[24] says the LAPIC has it, else one-shot count-
 * down.  Returns -1 only when @require and deadline mode is missing.
 */
bool lapic_has_tsc_deadline(void);
int lapic_clockevent_select(bool want_deadline, bool require);
const char *lapic_clockevent_mode(void);

/* INIT then the SIPI pair (SDM vol. 3A 9.4.4.1); false if an IPI hung. */
bool lapic_start_ap(uint32_t apic_id, uint64_t trampoline_phys);

#endif

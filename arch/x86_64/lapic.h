/*
 * Local APIC access (xAPIC through MMIO, or x2APIC through MSRs, chosen once
 * at boot) and inter-processor interrupts.  APIC ids are 32 bits throughout.
 */
#ifndef ARCH_X86_64_LAPIC_H
#define ARCH_X86_64_LAPIC_H

#include <stdbool.h>
#include <stdint.h>

#define LAPIC_SPURIOUS_VECTOR 0xFF

/*
 * Boot CPU, once, before any other lapic_*() call: pick the mode (x2APIC
 * when CPUID.01H:ECX[21] has it or the firmware left x2APIC on, else xAPIC
 * at MMIO @phys) and enter it on this CPU.
 */
void lapic_init(uint64_t phys);
bool lapic_has_x2apic(void);
bool lapic_x2apic_mode(void);
const char *lapic_mode_name(void); /* "x2apic" or "xapic" */
/* Whether an IPI can name @apic_id in this mode (xAPIC: ids below 0xFF). */
bool lapic_id_reachable(uint32_t apic_id);
/*
 * Enter the boot CPU's mode on this CPU (an AP comes out of INIT in xAPIC
 * mode, or still in x2APIC mode) and software-enable its LAPIC (SVR),
 * masking nothing else.  An AP's first LAPIC access.
 */
void lapic_enable(void);
uint32_t lapic_id(void);
void lapic_eoi(void);
/*
 * Fixed-vector IPI to one CPU; false if the ICR stayed busy (bounded, xAPIC
 * only) or @apic_id cannot be named in this mode.
 */
bool lapic_send_ipi(uint32_t apic_id, uint8_t vector);
/* The same vector to every other CPU (destination shorthand). */
bool lapic_send_ipi_all_but_self(uint8_t vector);
/* Measure the LAPIC timer rate against the TSC (boot CPU, once). */
void lapic_timer_calibrate(void);
uint64_t lapic_timer_rate(void);
/* The calibrated rate's error bound, parts per million (rounded up). */
uint64_t lapic_timer_rate_error_ppm(void);
/*
 * The rate over one bracketed window of at least @window_ns (< 4 s), and
 * its error bound in *@err_ppm.  Uses this CPU's LAPIC timer: nothing may
 * be armed on it meanwhile.
 */
uint64_t lapic_timer_measure(uint64_t window_ns, uint64_t *err_ppm);
/* arch_clockevent_program() and _cancel(): arch/x86_64/arch.h. */

/*
 * Clockevent mode, chosen once on the boot CPU: TSC-deadline when asked
 * for and CPUID.01H:ECX[24] says the LAPIC has it, else one-shot count-
 * down.  Returns -1 only when @require and deadline mode is missing.
 */
bool lapic_has_tsc_deadline(void);
int lapic_clockevent_select(bool want_deadline, bool require);
const char *lapic_clockevent_mode(void);
/*
 * What this CPU's LAPIC timer still has to run, read back from the
 * hardware (the TSC deadline less the TSC, or the current count at the
 * calibrated rate), in ns; 0 if it is not armed or has run out.  For the
 * tests, which check what the kernel programmed apart from when the host
 * delivers the interrupt.
 */
uint64_t lapic_timer_remaining_ns(void);

/*
 * INIT, @init_udelay us, then the SIPI pair (SDM vol. 3A 9.4.4.1) through
 * the mode's ICR; false if an IPI hung or @apic_id cannot be named in this
 * mode.  The SDM's 10 ms after INIT is for old CPUs (see smp.c).
 */
bool lapic_start_ap(uint32_t apic_id, uint64_t trampoline_phys,
		    unsigned init_udelay);
/* INIT alone: the CPU stops whatever it runs and waits for a SIPI. */
bool lapic_send_init(uint32_t apic_id);
/*
 * An NMI to one CPU (delivery mode NMI, SDM 11.6.1): it arrives even with
 * interrupts off (the panic's stop, the watchdog's register request).
 * False if @apic_id cannot be named or the ICR hung.
 */
bool lapic_send_nmi(uint32_t apic_id);

#endif

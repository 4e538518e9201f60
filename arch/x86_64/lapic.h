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
/* INIT then the SIPI pair (SDM vol. 3A 9.4.4.1); false if an IPI hung. */
bool lapic_start_ap(uint32_t apic_id, uint64_t trampoline_phys);

#endif

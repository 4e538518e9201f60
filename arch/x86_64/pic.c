/*
 * The legacy 8259A pair.  The BIOS leaves it mapped at vectors 8-15 with
 * the PIT on IRQ 0, so the first STI would deliver the PIT as "vector 8",
 * indistinguishable from a double fault.  We never use it (the LAPIC does
 * everything), so it is re-based above the exceptions (0x20-0x2f, where a
 * stray one cannot pose as an exception) and every line is masked.
 */
#include "arch/x86_64/pic.h"
#include "arch/x86_64/cpu.h"

#define PIC1_CMD  0x20
#define PIC1_DATA 0x21
#define PIC2_CMD  0xA0
#define PIC2_DATA 0xA1
#define ICW1_INIT 0x11 /* edge, cascade, ICW4 follows */
#define ICW4_8086 0x01

void pic_disable(void)
{
	outb(PIC1_CMD, ICW1_INIT);
	outb(PIC2_CMD, ICW1_INIT);
	outb(PIC1_DATA, 0x20); /* ICW2: master base vector */
	outb(PIC2_DATA, 0x28); /* ICW2: slave base vector */
	outb(PIC1_DATA, 0x04); /* ICW3: slave on IRQ 2 */
	outb(PIC2_DATA, 0x02); /* ICW3: slave's cascade id */
	outb(PIC1_DATA, ICW4_8086);
	outb(PIC2_DATA, ICW4_8086);
	outb(PIC1_DATA, 0xff); /* OCW1: mask everything */
	outb(PIC2_DATA, 0xff);
}

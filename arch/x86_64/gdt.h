/* GDT and TSS.  One set per CPU; the boot CPU's is static. */
#ifndef ARCH_X86_64_GDT_H
#define ARCH_X86_64_GDT_H

#include <stdint.h>

#define KERNEL_CS 0x08
#define KERNEL_DS 0x10
#define TSS_SEL	  0x18

/* IST slots (1-based, as the IDT gate encodes them). */
#define IST_DF	       1
#define IST_NMI	       2
#define IST_MC	       3
#define IST_COUNT      3
#define IST_STACK_SIZE 8192

struct tss64 {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __attribute__((packed));

/* An IST stack with an unmapped guard page under it. */
struct ist_stack {
	uint8_t guard[4096];
	uint8_t stack[IST_STACK_SIZE];
} __attribute__((aligned(4096)));

struct cpu_desc {
	uint64_t gdt[5]; /* null, code, data, TSS (two slots) */
	struct tss64 tss;
	struct ist_stack *ist; /* IST_COUNT stacks */
};

void gdt_init_cpu(struct cpu_desc *d, struct ist_stack *ist);
void gdt_init_boot_cpu(void);

#endif

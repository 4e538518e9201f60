/*
 * Per-CPU GDT and 64-bit TSS.  Long mode ignores segment bases and limits
 * for CS/DS, so the GDT only needs the code/data descriptors, plus the TSS
 * whose IST slots give #DF, NMI and #MC known-good stacks (SDM vol. 3A
 * 6.14.5): a #DF from a kernel stack overflow must not push onto the stack
 * that just overflowed.
 */
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/paging.h"

static struct cpu_desc boot_cpu_desc;
static struct ist_stack boot_ist[IST_COUNT];

static void set_tss_desc(uint64_t *slot, const struct tss64 *tss)
{
	uint64_t base = (uint64_t)tss;
	uint64_t limit = sizeof(*tss) - 1;

	/* Available 64-bit TSS: type 9, present (SDM vol. 3A 8.2.3). */
	slot[0] = (limit & 0xffff) | ((base & 0xffffff) << 16) |
		  (0x89ULL << 40) | (((limit >> 16) & 0xf) << 48) |
		  (((base >> 24) & 0xff) << 56);
	slot[1] = base >> 32;
}

/**
 * gdt_init_cpu - build and load the GDT and TSS of the calling CPU
 * @d: this CPU's descriptor storage, live for as long as the CPU runs
 * @ist: IST_COUNT stacks for #DF, NMI and #MC
 */
void gdt_init_cpu(struct cpu_desc *d, struct ist_stack *ist)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) ptr;

	d->gdt[0] = 0;
	d->gdt[1] = 0x00af9a000000ffffULL; /* 64-bit code, DPL 0 */
	d->gdt[2] = 0x00cf92000000ffffULL; /* data */
	d->ist = ist;
	for (int i = 0; i < IST_COUNT; i++)
		d->tss.ist[i] = (uint64_t)(ist[i].stack + IST_STACK_SIZE);
	d->tss.iomap_base = sizeof(d->tss);
	set_tss_desc(&d->gdt[3], &d->tss);

	ptr.limit = sizeof(d->gdt) - 1;
	ptr.base = (uint64_t)d->gdt;
	__asm__ volatile("lgdt %0\n\t"
			 "pushq %1\n\t"
			 "leaq 1f(%%rip), %%rax\n\t"
			 "pushq %%rax\n\t"
			 "lretq\n"
			 "1:\n\t"
			 "movw %w2, %%ax\n\t"
			 "movw %%ax, %%ds\n\t"
			 "movw %%ax, %%es\n\t"
			 "movw %%ax, %%ss\n\t"
			 "ltr %w3"
			 :
			 : "m"(ptr), "i"(KERNEL_CS), "r"(KERNEL_DS),
			   "r"(TSS_SEL)
			 : "rax", "memory");
}

void gdt_init_boot_cpu(void)
{
	for (int i = 0; i < IST_COUNT; i++)
		paging_register_guard(boot_ist[i].guard);
	gdt_init_cpu(&boot_cpu_desc, boot_ist);
}

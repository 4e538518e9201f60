/* Address-space layout shared by the boot path, paging and drivers. */
#ifndef KERNEL_MM_H
#define KERNEL_MM_H

#include <stdint.h>

#define PAGE_SIZE	4096UL
#define KERNEL_VMA	0xffffffff80000000UL
/* All physical memory (and the 3-4 GiB MMIO hole) is mapped here. */
#define DIRECT_MAP_BASE 0xffff800000000000UL

static inline void *phys_to_virt(uint64_t pa)
{
	return (void *)(DIRECT_MAP_BASE + pa);
}

/* Only for addresses inside the kernel image (linked at KERNEL_VMA). */
static inline uint64_t kernel_virt_to_phys(const void *va)
{
	return (uint64_t)va - KERNEL_VMA;
}

/* __kernel_phys_start is an absolute (physical) symbol from linker.ld. */
extern char __kernel_phys_start[];
extern char __text_start[], __text_end[], __rodata_start[], __rodata_end[];
extern char __data_start[], __bss_start[], __bss_end[], __kernel_end[];
extern char boot_stack_guard[], boot_stack_top[];

#endif

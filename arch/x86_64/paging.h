/* Kernel page tables: direct map, W^X kernel image, guard pages. */
#ifndef ARCH_X86_64_PAGING_H
#define ARCH_X86_64_PAGING_H

#include <stdbool.h>
#include <stdint.h>

#define PTE_P	      (1ULL << 0)
#define PTE_W	      (1ULL << 1)
#define PTE_PWT	      (1ULL << 3)
#define PTE_PCD	      (1ULL << 4)
#define PTE_PS	      (1ULL << 7)
#define PTE_G	      (1ULL << 8)
#define PTE_NX	      (1ULL << 63)
#define PTE_ADDR_MASK 0x000ffffffffff000ULL

/* Leave the page at @va unmapped when the final tables are built. */
void paging_register_guard(const void *va);

/*
 * Build the final tables: the direct map of [0, max(phys_top, 4 GiB)) with
 * 2 MiB pages (RW, NX; MMIO hole uncached) and the kernel image with 4 KiB
 * pages: text RX, rodata R, data and bss RW+NX, guard pages absent.
 * Returns 0 or a negative error when page-table memory runs out.
 */
int paging_init(uint64_t phys_top);

/*
 * Identity-map the page at @pa (below 1 MiB) read-only and executable, for
 * the AP trampoline, which runs there while it turns paging on.
 */
int paging_map_low_exec(uint64_t pa);

/* Leaf entry that maps @va, and its level (1 = 4 KiB, 2 = 2 MiB); 0 if none. */
uint64_t paging_lookup(const void *va, int *level);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel/pmm.h - physical page allocator (4 KiB pages, one bitmap bit each).
 *
 * Built once from the loader's memory map by pmm_init().  Usable memory is
 * the type 1 regions rounded inward to whole pages, minus any page touched
 * by a region of another type, minus everything below 1 MiB and minus the
 * caller's reserved range (the kernel image).
 *
 * Locking: none.  The caller serialises every call (single CPU for now);
 * SMP bring-up will add a spinlock inside these functions.
 */
#ifndef KERNEL_PMM_H
#define KERNEL_PMM_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/bootinfo.h"

#define PMM_PAGE_SIZE	4096ULL
#define PMM_LOW_LIMIT	0x100000ULL /* nothing below 1 MiB is handed out */
#define PMM_MAX_REGIONS 128	    /* entries pmm_init() accepts */

/*
 * Called with a one-line message (no trailing newline) when pmm_init()
 * fails or pmm_free_page() ignores a bad free.  Default: a no-op.
 */
extern void (*pmm_warn)(const char *msg);

size_t pmm_bitmap_bytes(const struct mem_region *r, unsigned n);
int pmm_init(const struct mem_region *r, unsigned n, uint64_t reserve_lo,
	     uint64_t reserve_hi, void *bitmap_storage, size_t storage_bytes);
uint64_t pmm_alloc_page(void);
uint64_t pmm_alloc_contig(uint64_t npages);
void pmm_free_page(uint64_t pa);
uint64_t pmm_free_pages(void);

#endif /* KERNEL_PMM_H */

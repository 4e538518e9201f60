/*
 * Final kernel page tables (SDM vol. 3A 4.5, 4-level paging).
 *
 *   0xffff800000000000  direct map of physical memory, 2 MiB pages, NX
 *   0xffffffff80000000  kernel image: + physical address, 4 KiB pages
 *
 * The low identity map of the boot tables is dropped; nothing after
 * kmain's first lines uses a physical address as a pointer.
 */
#include "arch/x86_64/paging.h"
#include "arch/x86_64/cpu.h"
#include "kernel/mm.h"
#include "kernel/pmm.h"
#include "lib/errno.h"
#include "lib/string.h"

#define MAX_GUARDS   16
#define MMIO_HOLE_LO 0xC0000000ULL
#define GIB	     (1ULL << 30)

static const void *guards[MAX_GUARDS];
static unsigned nguards;
static uint64_t *pml4;

void paging_register_guard(const void *va)
{
	if (nguards < MAX_GUARDS)
		guards[nguards++] = va;
}

static bool is_guard(uint64_t va)
{
	for (unsigned i = 0; i < nguards; i++)
		if ((uint64_t)guards[i] == va)
			return true;
	return false;
}

static uint64_t *alloc_table(void)
{
	uint64_t pa = pmm_alloc_page();

	if (!pa)
		return 0;
	memset(phys_to_virt(pa), 0, PAGE_SIZE);
	return phys_to_virt(pa);
}

static uint64_t table_pa(const uint64_t *t)
{
	return (uint64_t)t - DIRECT_MAP_BASE;
}

/* Next-level table under @t[idx], created on demand. */
static uint64_t *next_table(uint64_t *t, unsigned idx)
{
	uint64_t *n;

	if (t[idx] & PTE_P)
		return phys_to_virt(t[idx] & PTE_ADDR_MASK);
	n = alloc_table();
	if (n)
		t[idx] = table_pa(n) | PTE_P | PTE_W;
	return n;
}

static unsigned idx(uint64_t va, int level)
{
	return (va >> (12 + 9 * (level - 1))) & 511;
}

static int map_2m(uint64_t va, uint64_t pa, uint64_t flags)
{
	uint64_t *pdpt = next_table(pml4, idx(va, 4));
	uint64_t *pd = pdpt ? next_table(pdpt, idx(va, 3)) : 0;

	if (!pd)
		return -ENOMEM;
	pd[idx(va, 2)] = pa | flags | PTE_P | PTE_PS;
	return 0;
}

static int map_4k(uint64_t va, uint64_t pa, uint64_t flags)
{
	uint64_t *pdpt = next_table(pml4, idx(va, 4));
	uint64_t *pd = pdpt ? next_table(pdpt, idx(va, 3)) : 0;
	uint64_t *pt = pd ? next_table(pd, idx(va, 2)) : 0;

	if (!pt)
		return -ENOMEM;
	pt[idx(va, 1)] = pa | flags | PTE_P;
	return 0;
}

static uint64_t image_flags(uint64_t va)
{
	if (va >= (uint64_t)__text_start && va < (uint64_t)__rodata_start)
		return PTE_G;
	if (va >= (uint64_t)__rodata_start && va < (uint64_t)__data_start)
		return PTE_G | PTE_NX;
	return PTE_G | PTE_W | PTE_NX;
}

int paging_init(uint64_t phys_top)
{
	uint64_t top = phys_top > 4 * GIB ? phys_top : 4 * GIB;
	uint64_t va;
	int err;

	pml4 = alloc_table();
	if (!pml4)
		return -ENOMEM;
	top = (top + (1ULL << 21) - 1) & ~((1ULL << 21) - 1);
	for (uint64_t pa = 0; pa < top; pa += 1ULL << 21) {
		uint64_t fl = PTE_W | PTE_NX | PTE_G;

		if (pa >= MMIO_HOLE_LO && pa < 4 * GIB)
			fl |= PTE_PCD | PTE_PWT;
		err = map_2m(DIRECT_MAP_BASE + pa, pa, fl);
		if (err)
			return err;
	}
	for (va = (uint64_t)__text_start; va < (uint64_t)__kernel_end;
	     va += PAGE_SIZE) {
		if (is_guard(va))
			continue;
		err = map_4k(va, va - KERNEL_VMA, image_flags(va));
		if (err)
			return err;
	}
	write_cr3(table_pa(pml4));
	return 0;
}

int paging_map_low_exec(uint64_t pa)
{
	int err = map_4k(pa, pa, 0);

	invlpg((const void *)pa);
	return err;
}

uint64_t paging_lookup(const void *p, int *level)
{
	uint64_t va = (uint64_t)p;
	uint64_t *t = phys_to_virt(read_cr3() & PTE_ADDR_MASK);

	for (int l = 4; l >= 1; l--) {
		uint64_t e = t[idx(va, l)];

		if (!(e & PTE_P))
			return 0;
		if (l == 1 || (e & PTE_PS)) {
			*level = l;
			return e;
		}
		t = phys_to_virt(e & PTE_ADDR_MASK);
	}
	return 0;
}

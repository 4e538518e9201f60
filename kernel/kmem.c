/*
 * kzalloc: memory that lives as long as the run (per-CPU timer bases, the
 * migration hierarchy's groups).  Nothing is freed, so a bump pointer over
 * pages from the page allocator is the whole allocator: small requests
 * share a page, 64-byte aligned so that no two objects share a cache line;
 * a request of half a page or more gets its own contiguous pages.
 */
#include "kernel/kmem.h"
#include "kernel/mm.h"
#include "kernel/pmm.h"
#include "kernel/spinlock.h"
#include "lib/string.h"

#define KMEM_ALIGN 64

static spinlock_t kmem_lock = SPINLOCK_INIT;
static uint8_t *chunk; /* current small-object page */
static size_t chunk_used;

static void *alloc_pages_zeroed(uint64_t npages)
{
	uint64_t pa = npages == 1 ? pmm_alloc_page() : pmm_alloc_contig(npages);
	void *va;

	if (!pa)
		return 0;
	va = phys_to_virt(pa);
	memset(va, 0, npages * PAGE_SIZE);
	return va;
}

void *kzalloc(size_t size)
{
	unsigned long flags;
	void *p = 0;

	if (size == 0)
		return 0;
	size = (size + KMEM_ALIGN - 1) & ~(size_t)(KMEM_ALIGN - 1);
	spin_lock_irqsave(&kmem_lock, flags);
	if (size >= PAGE_SIZE / 2) {
		p = alloc_pages_zeroed((size + PAGE_SIZE - 1) / PAGE_SIZE);
	} else {
		if (!chunk || chunk_used + size > PAGE_SIZE) {
			chunk = alloc_pages_zeroed(1);
			chunk_used = 0;
		}
		if (chunk) {
			p = chunk + chunk_used;
			chunk_used += size;
		}
	}
	spin_unlock_irqrestore(&kmem_lock, flags);
	return p;
}

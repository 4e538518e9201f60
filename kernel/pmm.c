// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/pmm.c - bitmap physical page allocator.
 *
 * One bit per 4 KiB page frame from frame 0 up to the highest usable frame:
 * 1 = free, 0 = allocated or not managed.  Whether a frame is managed at
 * all is decided by a predicate over a private copy of the memory map, so
 * pmm_free_page() can tell a double free (managed, bit already set) from a
 * stray address (not managed) without a second bitmap.
 *
 * A frame is managed if it lies entirely inside some type 1 region, does
 * not touch any region of another type (overlaps are resolved in favour of
 * the reserved type), lies at or above PMM_LOW_LIMIT and does not touch
 * [reserve_lo, reserve_hi).
 *
 * Allocation takes the lowest free frame, scanning 64-bit bitmap words from
 * a hint that never passes a free frame.
 *
 * Locking: none.  Callers serialise all calls; SMP bring-up will add a
 * spinlock around the bitmap, the hint and the free count.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/pmm.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"

#define PAGE_SHIFT    12
#define BITS_PER_WORD 64

static void pmm_warn_nop(const char *msg)
{
	(void)msg;
}

void (*pmm_warn)(const char *msg) = pmm_warn_nop;

static struct mem_region regions[PMM_MAX_REGIONS];
static unsigned nregions;
static uint64_t res_lo, res_hi; /* reserved byte range */
static uint64_t *bitmap;
static uint64_t nframes; /* frames covered by the bitmap */
static uint64_t nwords;
static uint64_t hint; /* no free frame in words < hint */
static uint64_t nfree;

static __printf_fmt(1, 2) void warn(const char *fmt, ...)
{
	char buf[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (pmm_warn)
		pmm_warn(buf);
}

static uint64_t region_end(const struct mem_region *r)
{
	uint64_t end = r->base + r->len;

	return end < r->base ? UINT64_MAX : end; /* saturate */
}

static uint64_t pfn_down(uint64_t addr)
{
	return addr >> PAGE_SHIFT;
}

static uint64_t pfn_up(uint64_t addr)
{
	return (addr >> PAGE_SHIFT) + ((addr & (PMM_PAGE_SIZE - 1)) != 0);
}

/* Whole frames inside @r: [*lo, *hi); false if there are none. */
static bool inward_frames(const struct mem_region *r, uint64_t *lo,
			  uint64_t *hi)
{
	*lo = pfn_up(r->base);
	*hi = pfn_down(region_end(r));
	return *lo < *hi;
}

/* Frames touched by the byte range [base, end): [*lo, *hi). */
static void outward_frames(uint64_t base, uint64_t end, uint64_t *lo,
			   uint64_t *hi)
{
	*lo = pfn_down(base);
	*hi = end > base ? pfn_up(end) : *lo;
}

/* One past the highest frame any type 1 region fully contains. */
static uint64_t top_frame(const struct mem_region *r, unsigned n)
{
	uint64_t top = 0, lo, hi;

	for (unsigned i = 0; i < n; i++)
		if (r[i].type == MEM_REGION_AVAILABLE &&
		    inward_frames(&r[i], &lo, &hi) && hi > top)
			top = hi;
	return top;
}

static void fill_frames(uint64_t lo, uint64_t hi, bool free)
{
	if (hi > nframes)
		hi = nframes;
	while (lo < hi) {
		uint64_t w = lo / BITS_PER_WORD;
		unsigned bit = lo % BITS_PER_WORD;
		uint64_t cnt = BITS_PER_WORD - bit;
		uint64_t mask;

		if (cnt > hi - lo)
			cnt = hi - lo;
		mask = (cnt == BITS_PER_WORD ? ~0ULL : ((1ULL << cnt) - 1))
		       << bit;
		if (free)
			bitmap[w] |= mask;
		else
			bitmap[w] &= ~mask;
		lo += cnt;
	}
}

static bool frame_managed(uint64_t pfn)
{
	uint64_t lo, hi;
	bool in_ram = false;

	if (pfn >= nframes || pfn < pfn_up(PMM_LOW_LIMIT))
		return false;
	outward_frames(res_lo, res_hi, &lo, &hi);
	if (pfn >= lo && pfn < hi)
		return false;
	for (unsigned i = 0; i < nregions; i++) {
		const struct mem_region *r = &regions[i];

		if (r->type == MEM_REGION_AVAILABLE) {
			if (inward_frames(r, &lo, &hi) && pfn >= lo && pfn < hi)
				in_ram = true;
		} else {
			outward_frames(r->base, region_end(r), &lo, &hi);
			if (pfn >= lo && pfn < hi)
				return false;
		}
	}
	return in_ram;
}

/**
 * pmm_bitmap_bytes() - bitmap storage pmm_init() needs for a memory map
 * @r: memory map entries (any order, may overlap)
 * @n: number of entries in @r
 *
 * Return: bytes of 8-byte aligned storage for one bit per 4 KiB frame up
 * to the highest frame fully inside a type 1 region, rounded up to whole
 * 64-bit words; 0 if there is no such frame.
 */
size_t pmm_bitmap_bytes(const struct mem_region *r, unsigned n)
{
	uint64_t top = r ? top_frame(r, n) : 0;

	return (size_t)((top + BITS_PER_WORD - 1) / BITS_PER_WORD *
			sizeof(uint64_t));
}

/**
 * pmm_init() - (re)build the allocator from a memory map
 * @r: memory map entries; copied, so it need not outlive the call
 * @n: number of entries, at most PMM_MAX_REGIONS
 * @reserve_lo: start of a byte range never to hand out (the kernel image)
 * @reserve_hi: end of that range (exclusive); equal to @reserve_lo for none
 * @bitmap_storage: 8-byte aligned memory for the bitmap; owned by the
 *                  allocator from now on
 * @storage_bytes: size of @bitmap_storage, at least pmm_bitmap_bytes(@r, @n)
 *
 * Every frame that is usable (see kernel/pmm.h) becomes free; all previous
 * state is discarded.  On failure pmm_warn() gets the reason and the
 * allocator is left empty (pmm_alloc_page() returns 0).
 *
 * Context: caller serialises against all other pmm calls.
 * Return: 0 on success; -ERANGE if @storage_bytes is too small (the message
 * says how many bytes are needed); -EINVAL for too many entries, a NULL
 * @r with @n > 0, @reserve_lo > @reserve_hi or misaligned storage.
 */
int pmm_init(const struct mem_region *r, unsigned n, uint64_t reserve_lo,
	     uint64_t reserve_hi, void *bitmap_storage, size_t storage_bytes)
{
	uint64_t lo, hi;
	size_t need;

	bitmap = NULL;
	nregions = 0;
	nframes = nwords = hint = nfree = 0;

	if (n > PMM_MAX_REGIONS) {
		warn("pmm: %u memory map entries, at most %u supported", n,
		     PMM_MAX_REGIONS);
		return -EINVAL;
	}
	if (n && !r) {
		warn("pmm: NULL memory map with %u entries", n);
		return -EINVAL;
	}
	if (reserve_lo > reserve_hi) {
		warn("pmm: reserved range [0x%llx, 0x%llx) is inverted",
		     (unsigned long long)reserve_lo,
		     (unsigned long long)reserve_hi);
		return -EINVAL;
	}
	need = pmm_bitmap_bytes(r, n);
	if (storage_bytes < need || (need && !bitmap_storage)) {
		warn("pmm: bitmap storage of %zu bytes is too small, need %zu bytes",
		     bitmap_storage ? storage_bytes : 0, need);
		return -ERANGE;
	}
	if ((uintptr_t)bitmap_storage % sizeof(uint64_t)) {
		warn("pmm: bitmap storage at %p is not 8-byte aligned",
		     bitmap_storage);
		return -EINVAL;
	}

	if (n)
		memcpy(regions, r, n * sizeof(*r));
	nregions = n;
	res_lo = reserve_lo;
	res_hi = reserve_hi;
	bitmap = bitmap_storage;
	nframes = top_frame(regions, nregions);
	nwords = need / sizeof(uint64_t);
	if (nwords)
		memset(bitmap, 0, need);

	for (unsigned i = 0; i < nregions; i++)
		if (regions[i].type == MEM_REGION_AVAILABLE &&
		    inward_frames(&regions[i], &lo, &hi))
			fill_frames(lo, hi, true);
	for (unsigned i = 0; i < nregions; i++) {
		if (regions[i].type == MEM_REGION_AVAILABLE)
			continue;
		outward_frames(regions[i].base, region_end(&regions[i]), &lo,
			       &hi);
		fill_frames(lo, hi, false);
	}
	fill_frames(0, pfn_up(PMM_LOW_LIMIT), false);
	outward_frames(res_lo, res_hi, &lo, &hi);
	fill_frames(lo, hi, false);

	for (uint64_t w = 0; w < nwords; w++)
		for (uint64_t x = bitmap[w]; x; x &= x - 1)
			nfree++;
	return 0;
}

/**
 * pmm_alloc_page() - allocate one 4 KiB physical page frame
 *
 * The lowest free frame is taken; its contents are not cleared.
 *
 * Context: caller serialises against all other pmm calls.
 * Return: the frame's physical address (page aligned, never 0), or 0 when
 * no free frame is left.
 */
uint64_t pmm_alloc_page(void)
{
	if (!nfree)
		return 0;
	for (; hint < nwords; hint++) {
		uint64_t x = bitmap[hint];

		if (x) {
			unsigned bit = (unsigned)__builtin_ctzll(x);

			bitmap[hint] = x & (x - 1);
			nfree--;
			return (hint * BITS_PER_WORD + bit) << PAGE_SHIFT;
		}
	}
	return 0; /* not reached while nfree is right */
}

/**
 * pmm_free_page() - give a frame from pmm_alloc_page() back
 * @pa: its physical address
 *
 * A misaligned address, an address the allocator does not manage (below
 * 1 MiB, reserved, outside type 1 memory) and a frame that is already free
 * are reported through pmm_warn() and otherwise ignored.
 *
 * Context: caller serialises against all other pmm calls.
 */
static bool frame_free(uint64_t pfn)
{
	return bitmap[pfn / BITS_PER_WORD] & (1ULL << (pfn % BITS_PER_WORD));
}

/**
 * pmm_alloc_contig - allocate @npages physically contiguous pages
 * @npages: number of pages, at least 1
 *
 * First fit from the lowest address.  Free each page with pmm_free_page().
 *
 * Return: physical address of the first page, or 0 when no run is free.
 */
uint64_t pmm_alloc_contig(uint64_t npages)
{
	uint64_t run = 0;

	if (!npages || npages > nfree)
		return 0;
	for (uint64_t pfn = hint * BITS_PER_WORD; pfn < nframes; pfn++) {
		run = frame_free(pfn) ? run + 1 : 0;
		if (run == npages) {
			uint64_t first = pfn + 1 - npages;

			for (uint64_t f = first; f <= pfn; f++)
				bitmap[f / BITS_PER_WORD] &=
					~(1ULL << (f % BITS_PER_WORD));
			nfree -= npages;
			return first << PAGE_SHIFT;
		}
	}
	return 0;
}

void pmm_free_page(uint64_t pa)
{
	uint64_t pfn = pa >> PAGE_SHIFT, w = pfn / BITS_PER_WORD;
	uint64_t mask = 1ULL << (pfn % BITS_PER_WORD);

	if (pa & (PMM_PAGE_SIZE - 1)) {
		warn("pmm: free of misaligned address 0x%llx ignored",
		     (unsigned long long)pa);
		return;
	}
	if (!frame_managed(pfn)) {
		warn("pmm: free of unmanaged address 0x%llx ignored",
		     (unsigned long long)pa);
		return;
	}
	if (bitmap[w] & mask) {
		warn("pmm: double free of 0x%llx ignored",
		     (unsigned long long)pa);
		return;
	}
	bitmap[w] |= mask;
	nfree++;
	if (w < hint)
		hint = w;
}

/**
 * pmm_free_pages() - number of free 4 KiB frames
 *
 * Context: caller serialises against all other pmm calls.
 * Return: frames pmm_alloc_page() can still hand out.
 */
uint64_t pmm_free_pages(void)
{
	return nfree;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/test_pmm.c - kernel/pmm.c.
 *
 * The allocator never touches the frames it manages, so the "physical"
 * memory here is just numbers; only the bitmap storage is real.
 */
#include <stdio.h>
#include <string.h>

#include "tests/host/registry.h"
#include "kernel/pmm.h"

#define KIB 1024ULL
#define MIB (1024 * KIB)
#define PG  PMM_PAGE_SIZE

static uint64_t storage[8192]; /* enough for 2 GiB */
static unsigned nwarn;
static char last_warn[256];

static void record_warn(const char *msg)
{
	nwarn++;
	snprintf(last_warn, sizeof(last_warn), "%s", msg);
}

static void setup(void)
{
	nwarn = 0;
	last_warn[0] = '\0';
	pmm_warn = record_warn;
}

static int init(const struct mem_region *r, unsigned n, uint64_t lo,
		uint64_t hi)
{
	return pmm_init(r, n, lo, hi, storage, sizeof(storage));
}

/* Allocate everything; check each frame is fresh and allowed; count. */
static uint64_t drain(uint64_t lo, uint64_t hi, uint64_t *seen, size_t cap)
{
	uint64_t n = 0, pa;

	while ((pa = pmm_alloc_page())) {
		ck_assert_uint_eq(pa % PG, 0);
		ck_assert_uint_ge(pa, lo);
		ck_assert_uint_lt(pa, hi);
		if (seen) {
			uint64_t i = (pa - lo) / PG;

			ck_assert_uint_lt(i, cap);
			ck_assert_msg(!seen[i], "0x%llx handed out twice",
				      (unsigned long long)pa);
			seen[i] = 1;
		}
		n++;
	}
	ck_assert_uint_eq(pmm_free_pages(), 0);
	return n;
}

START_TEST(alloc_all_then_oom)
{
	const struct mem_region r[] = {
		{ 0, 0x9fc00, 1 },
		{ 0xf0000, 0x10000, 2 },
		{ 1 * MIB, 64 * PG, 1 },
	};
	static uint64_t seen[64];

	ck_assert_int_eq(init(r, 3, 0, 0), 0);
	ck_assert_uint_eq(pmm_free_pages(), 64);
	ck_assert_uint_eq(drain(1 * MIB, 1 * MIB + 64 * PG, seen, 64), 64);
	ck_assert_uint_eq(pmm_alloc_page(), 0);
	ck_assert_uint_eq(pmm_alloc_page(), 0);
	ck_assert_uint_eq(nwarn, 0);
}
END_TEST

START_TEST(free_and_realloc)
{
	const struct mem_region r[] = { { 1 * MIB, 16 * PG, 1 } };
	uint64_t a, b, c;

	ck_assert_int_eq(init(r, 1, 0, 0), 0);
	a = pmm_alloc_page();
	b = pmm_alloc_page();
	ck_assert_uint_eq(a, 1 * MIB); /* lowest first */
	ck_assert_uint_eq(b, 1 * MIB + PG);
	ck_assert_uint_eq(pmm_free_pages(), 14);
	pmm_free_page(a);
	ck_assert_uint_eq(pmm_free_pages(), 15);
	c = pmm_alloc_page();
	ck_assert_uint_eq(c, a);
	drain(1 * MIB, 1 * MIB + 16 * PG, NULL, 0);
	pmm_free_page(b);
	ck_assert_uint_eq(pmm_free_pages(), 1);
	ck_assert_uint_eq(pmm_alloc_page(), b);
	ck_assert_uint_eq(pmm_alloc_page(), 0);
	ck_assert_uint_eq(nwarn, 0);
}
END_TEST

START_TEST(free_refills_across_words)
{
	const struct mem_region r[] = { { 1 * MIB, 300 * PG, 1 } };
	uint64_t pa[300];

	ck_assert_int_eq(init(r, 1, 0, 0), 0);
	for (int i = 0; i < 300; i++)
		pa[i] = pmm_alloc_page();
	ck_assert_uint_eq(pmm_alloc_page(), 0);
	for (int i = 299; i >= 0; i -= 7)
		pmm_free_page(pa[i]);
	ck_assert_uint_eq(pmm_free_pages(), 43);
	/* comes back lowest first */
	ck_assert_uint_eq(pmm_alloc_page(), pa[5]);
	ck_assert_uint_eq(pmm_alloc_page(), pa[12]);
	ck_assert_uint_eq(nwarn, 0);
}
END_TEST

START_TEST(reserve_excluded)
{
	const struct mem_region r[] = { { 1 * MIB, 64 * PG, 1 } };
	uint64_t lo = 1 * MIB + 10 * PG, hi = 1 * MIB + 20 * PG, pa;

	ck_assert_int_eq(init(r, 1, lo, hi), 0);
	ck_assert_uint_eq(pmm_free_pages(), 54);
	while ((pa = pmm_alloc_page()))
		ck_assert(pa < lo || pa >= hi);

	/* unaligned reserve rounds outward: touches frames 10..20 */
	ck_assert_int_eq(init(r, 1, lo + 100, hi + 100), 0);
	ck_assert_uint_eq(pmm_free_pages(), 53);
	while ((pa = pmm_alloc_page()))
		ck_assert(pa + PG <= lo || pa >= hi + PG);

	/* freeing a reserved frame is refused */
	pmm_free_page(lo);
	ck_assert_uint_eq(nwarn, 1);
	ck_assert_str_eq(last_warn,
			 "pmm: free of unmanaged address 0x10a000 ignored");
	ck_assert_uint_eq(pmm_free_pages(), 0);
}
END_TEST

START_TEST(low_mib_excluded)
{
	const struct mem_region r[] = { { 0, 2 * MIB, 1 } };
	uint64_t pa;

	ck_assert_int_eq(init(r, 1, 0, 0), 0);
	ck_assert_uint_eq(pmm_free_pages(), 256);
	pa = pmm_alloc_page();
	ck_assert_uint_eq(pa, 1 * MIB);
	pmm_free_page(0x1000);
	pmm_free_page(0);
	ck_assert_uint_eq(nwarn, 2);
	ck_assert_uint_eq(pmm_free_pages(), 255);

	/* only low memory: nothing at all */
	const struct mem_region low[] = { { 0, 0x9fc00, 1 } };

	ck_assert_int_eq(init(low, 1, 0, 0), 0);
	ck_assert_uint_eq(pmm_free_pages(), 0);
	ck_assert_uint_eq(pmm_alloc_page(), 0);
}
END_TEST

START_TEST(overlapping_and_unaligned)
{
	const struct mem_region r[] = {
		{ 1 * MIB + 20 * PG, 40 * PG, 1 }, /* frames 20..60 */
		{ 1 * MIB, 40 * PG, 1 },	   /* frames 0..40 */
		{ 1 * MIB, 10 * PG, 1 },	   /* duplicate */
	};
	static uint64_t seen[60];

	ck_assert_int_eq(init(r, 3, 0, 0), 0);
	ck_assert_uint_eq(pmm_free_pages(), 60);
	ck_assert_uint_eq(drain(1 * MIB, 1 * MIB + 60 * PG, seen, 60), 60);

	/* unaligned: rounded inward to frames 1..10 */
	const struct mem_region u[] = { { 1 * MIB + 1, 10 * PG + 4, 1 } };

	ck_assert_int_eq(init(u, 1, 0, 0), 0);
	ck_assert_uint_eq(pmm_free_pages(), 9);
	ck_assert_uint_eq(pmm_alloc_page(), 1 * MIB + PG);
	/* a region smaller than a page gives nothing */
	const struct mem_region tiny[] = { { 1 * MIB + 1, PG, 1 } };

	ck_assert_int_eq(init(tiny, 1, 0, 0), 0);
	ck_assert_uint_eq(pmm_free_pages(), 0);
}
END_TEST

START_TEST(reserved_type_wins)
{
	const struct mem_region r[] = {
		{ 1 * MIB, 64 * PG, 1 },
		/* touches frames 10..12 (partially 10 and 12) */
		{ 1 * MIB + 10 * PG + 8, 2 * PG, 2 },
		{ 1 * MIB + 60 * PG, 0, 3 }, /* empty: no effect */
	};
	uint64_t pa;

	ck_assert_int_eq(init(r, 3, 0, 0), 0);
	ck_assert_uint_eq(pmm_free_pages(), 61);
	while ((pa = pmm_alloc_page()))
		ck_assert(pa < 1 * MIB + 10 * PG || pa >= 1 * MIB + 13 * PG);
	pmm_free_page(1 * MIB + 11 * PG);
	ck_assert_uint_eq(nwarn, 1);
	ck_assert_uint_eq(pmm_free_pages(), 0);
}
END_TEST

START_TEST(double_free_warns)
{
	const struct mem_region r[] = { { 1 * MIB, 8 * PG, 1 } };
	uint64_t a;

	ck_assert_int_eq(init(r, 1, 0, 0), 0);
	a = pmm_alloc_page();
	pmm_free_page(a);
	ck_assert_uint_eq(nwarn, 0);
	pmm_free_page(a);
	ck_assert_uint_eq(nwarn, 1);
	ck_assert_str_eq(last_warn, "pmm: double free of 0x100000 ignored");
	ck_assert_uint_eq(pmm_free_pages(), 8);
	/* never allocated but free: also a double free */
	pmm_free_page(a + PG);
	ck_assert_uint_eq(nwarn, 2);
	ck_assert_uint_eq(pmm_free_pages(), 8);
}
END_TEST

START_TEST(bad_free_warns)
{
	const struct mem_region r[] = {
		{ 1 * MIB, 8 * PG, 1 },
		{ 2 * MIB, 8 * PG, 1 }, /* hole in between */
	};
	uint64_t a;

	ck_assert_int_eq(init(r, 2, 0, 0), 0);
	a = pmm_alloc_page();
	pmm_free_page(a + 1);
	ck_assert_str_eq(last_warn,
			 "pmm: free of misaligned address 0x100001 ignored");
	pmm_free_page(1 * MIB + 100 * PG); /* in the hole */
	ck_assert_str_eq(last_warn,
			 "pmm: free of unmanaged address 0x164000 ignored");
	pmm_free_page(2 * MIB + 8 * PG); /* past the top */
	pmm_free_page(UINT64_MAX & ~(PG - 1));
	ck_assert_uint_eq(nwarn, 4);
	ck_assert_uint_eq(pmm_free_pages(), 15);

	/* the default hook is a silent no-op; NULL is tolerated too */
	pmm_warn = NULL;
	pmm_free_page(a + 1);
	ck_assert_uint_eq(pmm_free_pages(), 15);
}
END_TEST

START_TEST(storage_too_small)
{
	const struct mem_region r[] = { { 0, 64 * MIB, 1 } };
	size_t need = pmm_bitmap_bytes(r, 1);

	ck_assert_uint_eq(need, 64 * MIB / PG / 8); /* 2048 */
	ck_assert_int_eq(pmm_init(r, 1, 0, 0, storage, need - 8), -34);
	ck_assert_str_eq(
		last_warn,
		"pmm: bitmap storage of 2040 bytes is too small, need 2048 bytes");
	ck_assert_uint_eq(pmm_free_pages(), 0);
	ck_assert_uint_eq(pmm_alloc_page(), 0);
	ck_assert_int_eq(pmm_init(r, 1, 0, 0, NULL, 0), -34);
	ck_assert_int_eq(pmm_init(r, 1, 0, 0, storage, need), 0);
	ck_assert_uint_eq(pmm_free_pages(), (64 * MIB - 1 * MIB) / PG);

	/* a region reaching the top of the address space */
	const struct mem_region big[] = { { 1 * MIB, UINT64_MAX, 1 } };

	ck_assert_uint_eq(pmm_bitmap_bytes(big, 1), 1ULL << 49);
	ck_assert_int_eq(init(big, 1, 0, 0), -34);
	ck_assert_uint_eq(pmm_bitmap_bytes(NULL, 0), 0);
}
END_TEST

START_TEST(bitmap_bytes_rounding)
{
	/* 257 frames up to the top -> 5 words */
	const struct mem_region r[] = {
		{ 1 * MIB, PG, 1 },
		{ 0x100000000ULL, 0x10000, 2 }, /* not type 1 */
	};

	ck_assert_uint_eq(pmm_bitmap_bytes(r, 2), 40);
	ck_assert_int_eq(pmm_init(r, 2, 0, 0, storage, 40), 0);
	ck_assert_uint_eq(pmm_free_pages(), 1);
}
END_TEST

START_TEST(bad_args)
{
	static struct mem_region many[PMM_MAX_REGIONS + 1];
	const struct mem_region r[] = { { 1 * MIB, 8 * PG, 1 } };

	ck_assert_int_eq(init(many, PMM_MAX_REGIONS + 1, 0, 0), -22);
	ck_assert_str_eq(last_warn,
			 "pmm: 129 memory map entries, at most 128 supported");
	ck_assert_int_eq(init(NULL, 1, 0, 0), -22);
	ck_assert_int_eq(init(r, 1, 2 * MIB, 1 * MIB), -22);
	ck_assert_int_eq(pmm_init(r, 1, 0, 0, (char *)storage + 4,
				  sizeof(storage) - 4),
			 -22);
	ck_assert_uint_eq(pmm_alloc_page(), 0);
	ck_assert_int_eq(init(NULL, 0, 0, 0), 0);
	ck_assert_uint_eq(pmm_free_pages(), 0);
	ck_assert_int_eq(init(many, PMM_MAX_REGIONS, 0, 0), 0);
	ck_assert_uint_eq(pmm_free_pages(), 0);
}
END_TEST

START_TEST(contig_skips_holes_and_used_pages)
{
	/* Two runs: 3 pages at 1 MiB, then a hole, then 8 pages. */
	const struct mem_region r[] = {
		{ 1 * MIB, 3 * PG, 1 },
		{ 1 * MIB + 4 * PG, 8 * PG, 1 },
	};
	uint64_t a, b;

	ck_assert_int_eq(init(r, 2, 0, 0), 0);
	ck_assert_uint_eq(pmm_alloc_contig(0), 0);
	a = pmm_alloc_contig(4); /* does not fit in the first run */
	ck_assert_uint_eq(a, 1 * MIB + 4 * PG);
	ck_assert_uint_eq(pmm_free_pages(), 7);
	b = pmm_alloc_contig(3); /* first fit: the first run */
	ck_assert_uint_eq(b, 1 * MIB);
	ck_assert_uint_eq(pmm_alloc_contig(5), 0); /* only 4 left in a row */
	ck_assert_uint_eq(pmm_alloc_contig(4), 1 * MIB + 8 * PG);
	ck_assert_uint_eq(pmm_free_pages(), 0);
	pmm_free_page(a + PG);
	ck_assert_uint_eq(pmm_alloc_contig(1), a + PG);
	ck_assert_uint_eq(nwarn, 0);
}
END_TEST

static Suite *pmm_suite(void)
{
	Suite *s = suite_create("pmm");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, alloc_all_then_oom);
	tcase_add_test(tc, free_and_realloc);
	tcase_add_test(tc, free_refills_across_words);
	tcase_add_test(tc, reserve_excluded);
	tcase_add_test(tc, low_mib_excluded);
	tcase_add_test(tc, overlapping_and_unaligned);
	tcase_add_test(tc, reserved_type_wins);
	tcase_add_test(tc, double_free_warns);
	tcase_add_test(tc, bad_free_warns);
	tcase_add_test(tc, storage_too_small);
	tcase_add_test(tc, bitmap_bytes_rounding);
	tcase_add_test(tc, bad_args);
	tcase_add_test(tc, contig_skips_holes_and_used_pages);
	suite_add_tcase(s, tc);
	return s;
}

HOST_SUITE(pmm_suite);

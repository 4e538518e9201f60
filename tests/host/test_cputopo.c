// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/test_cputopo.c - kernel/cputopo.c against fake CPUID tables.
 *
 * The qemu_* tables are what QEMU 7.2 TCG -cpu qemu64 reported (BSP, dumped
 * by a throwaway multiboot probe): AuthenticAMD, max leaf 0DH, HTT set,
 * CPUID.01H:EBX[23:16] = cores * threads, leaf 04H all zeros, leaf 0BH
 * levels, and APIC IDs with each field rounded up to a power of two (SDM
 * vol. 2A CPUID 01H/04H/0BH/1FH; vol. 3A 9.9).  The other tables are
 * Intel-style, with a valid leaf 04H.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/host/registry.h"
#include "kernel/cputopo.h"
#include "lib/errno.h"

#define HTT	       (UINT32_C(1) << 28)
#define LVL(type, sub) (((uint32_t)(type) << 8) | (sub))
/* Unformatted: clang-format 14 reads "(cores) - 1" as a cast of -1. */
/* clang-format off */
#define L4_DCACHE(cores) ((((uint32_t)(cores) - 1) << 26) | 0x121)
/* clang-format on */

struct fake_entry {
	uint32_t leaf, sub;
	struct cpuid_leaf r;
};

struct fake_cpu {
	const struct fake_entry *e;
	unsigned n;
	bool asked[0x20]; /* leaves looked up, 0..1FH */
};

/*
 * Exact (leaf, subleaf) match; subleafs of a present 04H/0BH/1FH that the
 * table leaves out read as zeros (level type 0 / cache type 0), as on
 * hardware.  Anything else is unsupported.
 */
static bool fake_cpuid(uint32_t leaf, uint32_t sub, struct cpuid_leaf *out,
		       void *arg)
{
	struct fake_cpu *cpu = arg;
	bool have_leaf = false;
	unsigned i;

	if (leaf < 0x20)
		cpu->asked[leaf] = true;
	for (i = 0; i < cpu->n; i++) {
		if (cpu->e[i].leaf != leaf)
			continue;
		have_leaf = true;
		if (cpu->e[i].sub == sub) {
			*out = cpu->e[i].r;
			return true;
		}
	}
	if (have_leaf && (leaf == 4 || leaf == 0xb || leaf == 0x1f)) {
		memset(out, 0, sizeof(*out));
		out->ecx = leaf == 4 ? 0 : sub;
		return true;
	}
	return false;
}

#define FAKE(tbl)                                      \
	{                                              \
		(tbl), sizeof(tbl) / sizeof((tbl)[0]), \
		{                                      \
			false                          \
		}                                      \
	}

static int layout(struct fake_cpu *cpu, struct apic_id_layout *l)
{
	l->smt_shift = 99;
	l->core_shift = 99;
	return cputopo_layout(fake_cpuid, cpu, l);
}

static void expect_decode(const struct apic_id_layout *l, uint32_t id,
			  unsigned pkg, unsigned core, unsigned thread)
{
	unsigned p, c, t;

	cputopo_decode(l, id, &p, &c, &t);
	ck_assert_msg(p == pkg && c == core && t == thread,
		      "id %u: got %u/%u/%u, want %u/%u/%u", id, p, c, t, pkg,
		      core, thread);
}

/* -smp 16,sockets=4,cores=2,threads=2 */
static const struct fake_entry qemu_4s2c2t[] = {
	{ 0x0, 0, { 0xd, 0x68747541, 0x444d4163, 0x69746e65 } },
	{ 0x1, 0, { 0x60fb1, 0x00040800, 0x80002001, 0x178bfbfd } },
	{ 0x4, 0, { 0, 0, 0, 0 } },
	{ 0xb, 0, { 1, 2, LVL(1, 0), 0 } },
	{ 0xb, 1, { 2, 4, LVL(2, 1), 0 } },
	{ 0xb, 2, { 0, 0, LVL(0, 2), 0 } },
};

START_TEST(test_qemu_4s2c2t_leaf0b)
{
	struct fake_cpu cpu = FAKE(qemu_4s2c2t);
	struct apic_id_layout l;
	uint32_t ids[16];
	uint32_t id;

	ck_assert_int_eq(layout(&cpu, &l), CPUTOPO_SRC_LEAF0B);
	ck_assert_uint_eq(l.smt_shift, 1);
	ck_assert_uint_eq(l.core_shift, 2);
	ck_assert(!cpu.asked[0x1f]); /* max leaf 0DH */
	for (id = 0; id < 16; id++) {
		expect_decode(&l, id, id >> 2, (id >> 1) & 1, id & 1);
		ids[id] = id;
	}
	ck_assert_uint_eq(cputopo_count_packages(ids, 16, &l), 4);
	ck_assert_uint_eq(cputopo_threads_per_core(ids, 16, &l), 2);
	/* Only the first package's first core, one thread of the second. */
	ck_assert_uint_eq(cputopo_count_packages(ids, 3, &l), 1);
	ck_assert_uint_eq(cputopo_threads_per_core(ids + 1, 2, &l), 1);
}
END_TEST

/* -smp 12,sockets=2,cores=3,threads=2: core field 2 bits, IDs 0-5, 8-13 */
static const struct fake_entry qemu_2s3c2t[] = {
	{ 0x0, 0, { 0xd, 0x68747541, 0x444d4163, 0x69746e65 } },
	{ 0x1, 0, { 0x60fb1, 0x00060800, 0x80002001, 0x178bfbfd } },
	{ 0x4, 0, { 0, 0, 0, 0 } },
	{ 0xb, 0, { 1, 2, LVL(1, 0), 0 } },
	{ 0xb, 1, { 3, 6, LVL(2, 1), 0 } },
	{ 0xb, 2, { 0, 0, LVL(0, 2), 0 } },
};

static const uint32_t ids_2s3c2t[12] = {
	0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13
};

static void check_2s3c2t(const struct apic_id_layout *l)
{
	unsigned i;

	ck_assert_uint_eq(l->smt_shift, 1);
	ck_assert_uint_eq(l->core_shift, 3);
	for (i = 0; i < 12; i++) {
		uint32_t id = ids_2s3c2t[i];

		expect_decode(l, id, i / 6, (i % 6) / 2, i % 2);
	}
	expect_decode(l, 13, 1, 2, 1);
	ck_assert_uint_eq(cputopo_count_packages(ids_2s3c2t, 12, l), 2);
	ck_assert_uint_eq(cputopo_threads_per_core(ids_2s3c2t, 12, l), 2);
}

START_TEST(test_qemu_2s3c2t_leaf0b)
{
	struct fake_cpu cpu = FAKE(qemu_2s3c2t);
	struct apic_id_layout l;

	ck_assert_int_eq(layout(&cpu, &l), CPUTOPO_SRC_LEAF0B);
	check_2s3c2t(&l);
}
END_TEST

/*
 * qemu64's leaves 00H/01H/04H without 0BH: leaf 04H is all zeros (AMD
 * vendor), so no core count: per SDM 9.9 all 4 logical processors of a
 * package are taken as threads of one core.  Packages still come out right.
 */
START_TEST(test_qemu64_no_leaf0b)
{
	struct fake_cpu cpu = { qemu_4s2c2t, 3, { false } };
	struct apic_id_layout l;
	uint32_t ids[16];
	uint32_t id;

	ck_assert_int_eq(layout(&cpu, &l), CPUTOPO_SRC_LEAF1);
	ck_assert(cpu.asked[0xb] && cpu.asked[4]);
	ck_assert_uint_eq(l.smt_shift, 2);
	ck_assert_uint_eq(l.core_shift, 2);
	for (id = 0; id < 16; id++) {
		expect_decode(&l, id, id >> 2, 0, id & 3);
		ids[id] = id;
	}
	ck_assert_uint_eq(cputopo_count_packages(ids, 16, &l), 4);
	ck_assert_uint_eq(cputopo_threads_per_core(ids, 16, &l), 4);
}
END_TEST

/* The same machine through leaves 01H/04H only (max leaf 0AH). */
START_TEST(test_qemu_2s3c2t_legacy)
{
	static const struct fake_entry tbl[] = {
		{ 0x0, 0, { 0xa, 0x756e6547, 0x6c65746e, 0x49656e69 } },
		{ 0x1, 0, { 0x663, 6 << 16, 0, HTT } },
		{ 0x4, 0, { L4_DCACHE(3), 0, 0, 0 } },
		/* above the max leaf: must not be used */
		{ 0xb, 0, { 4, 16, LVL(1, 0), 0 } },
		{ 0xb, 1, { 8, 32, LVL(2, 1), 0 } },
	};
	struct fake_cpu cpu = FAKE(tbl);
	struct apic_id_layout l;

	ck_assert_int_eq(layout(&cpu, &l), CPUTOPO_SRC_LEAF1);
	ck_assert(!cpu.asked[0xb] && !cpu.asked[0x1f]);
	check_2s3c2t(&l);
}
END_TEST

START_TEST(test_legacy_4s2c2t)
{
	static const struct fake_entry tbl[] = {
		{ 0x0, 0, { 0x4, 0, 0, 0 } },
		{ 0x1, 0, { 0x663, 4 << 16, 0, HTT } },
		{ 0x4, 0, { L4_DCACHE(2), 0, 0, 0 } },
	};
	struct fake_cpu cpu = FAKE(tbl);
	struct apic_id_layout l;

	ck_assert_int_eq(layout(&cpu, &l), CPUTOPO_SRC_LEAF1);
	ck_assert_uint_eq(l.smt_shift, 1);
	ck_assert_uint_eq(l.core_shift, 2);
	expect_decode(&l, 7, 1, 1, 1);
}
END_TEST

/* HTT but no leaf 04H (max leaf 1): all logical processors are threads. */
START_TEST(test_legacy_no_leaf4)
{
	static const struct fake_entry tbl[] = {
		{ 0x0, 0, { 0x1, 0, 0, 0 } },
		{ 0x1, 0, { 0xf29, 2 << 16, 0, HTT } },
		{ 0x4, 0, { L4_DCACHE(8), 0, 0, 0 } }, /* above max leaf */
	};
	struct fake_cpu cpu = FAKE(tbl);
	struct apic_id_layout l;

	ck_assert_int_eq(layout(&cpu, &l), CPUTOPO_SRC_LEAF1);
	ck_assert(!cpu.asked[4]);
	ck_assert_uint_eq(l.smt_shift, 1);
	ck_assert_uint_eq(l.core_shift, 1);
	expect_decode(&l, 3, 1, 0, 1);
}
END_TEST

/* HTT = 0: one logical processor per package, whatever EBX[23:16] says. */
START_TEST(test_leaf1_no_htt)
{
	static const struct fake_entry tbl[] = {
		{ 0x0, 0, { 0x4, 0, 0, 0 } },
		{ 0x1, 0, { 0x663, 8 << 16, 0, 0 } },
		{ 0x4, 0, { L4_DCACHE(4), 0, 0, 0 } },
	};
	struct fake_cpu cpu = FAKE(tbl);
	struct apic_id_layout l;
	uint32_t ids[3] = { 0, 1, 5 };

	ck_assert_int_eq(layout(&cpu, &l), CPUTOPO_SRC_DEFAULT);
	ck_assert_uint_eq(l.smt_shift, 0);
	ck_assert_uint_eq(l.core_shift, 0);
	expect_decode(&l, 5, 5, 0, 0);
	ck_assert_uint_eq(cputopo_count_packages(ids, 3, &l), 3);
	ck_assert_uint_eq(cputopo_threads_per_core(ids, 3, &l), 1);
}
END_TEST

START_TEST(test_no_cpuid)
{
	static const struct fake_entry tbl[] = {
		{ 0x1, 0, { 0x663, 8 << 16, 0, HTT } }, /* no leaf 0 */
	};
	struct fake_cpu cpu = FAKE(tbl);
	struct apic_id_layout l;

	ck_assert_int_eq(layout(&cpu, &l), CPUTOPO_SRC_DEFAULT);
	ck_assert_uint_eq(l.smt_shift, 0);
	ck_assert_uint_eq(l.core_shift, 0);
	ck_assert_int_eq(cputopo_layout(NULL, &cpu, &l), -EINVAL);
	ck_assert_int_eq(cputopo_layout(fake_cpuid, &cpu, NULL), -EINVAL);
}
END_TEST

/*
 * Leaf 1FH with a module and a die level; leaf 0BH disagrees on purpose
 * so the test sees which one was used.
 */
START_TEST(test_leaf1f_preferred)
{
	static const struct fake_entry tbl[] = {
		{ 0x00, 0, { 0x1f, 0x756e6547, 0x6c65746e, 0x49656e69 } },
		{ 0x01, 0, { 0x906a0, 64 << 16, 0, HTT } },
		{ 0x04, 0, { L4_DCACHE(32), 0, 0, 0 } },
		{ 0x0b, 0, { 2, 4, LVL(1, 0), 0 } },
		{ 0x0b, 1, { 7, 128, LVL(2, 1), 0 } },
		{ 0x1f, 0, { 1, 2, LVL(1, 0), 0 } },
		{ 0x1f, 1, { 3, 8, LVL(2, 1), 0 } },
		{ 0x1f, 2, { 4, 16, LVL(3, 2), 0 } }, /* module */
		{ 0x1f, 3, { 6, 64, LVL(5, 3), 0 } }, /* die */
	};
	struct fake_cpu cpu = FAKE(tbl);
	struct apic_id_layout l;

	ck_assert_int_eq(layout(&cpu, &l), CPUTOPO_SRC_LEAF1F);
	ck_assert_uint_eq(l.smt_shift, 1);
	ck_assert_uint_eq(l.core_shift, 6);
	/*
	 * thread bit 0, core bits [2:1], module bit 3, die bits [5:4]; the
	 * core ID is bits [5:1], module and die included.
	 * package 2, die 2, module 0, core 1, thread 1 -> core 0b10001;
	 * package 2, die 1, module 0, core 2, thread 1 -> core 0b01010.
	 */
	expect_decode(&l, (2u << 6) | (2u << 4) | (1u << 1) | 1, 2, 0x11, 1);
	expect_decode(&l, (2u << 6) | (1u << 4) | (2u << 1) | 1, 2, 0x0a, 1);
}
END_TEST

/* Leaf 1FH within the max leaf but empty (EBX[15:0] = 0): use 0BH. */
START_TEST(test_leaf1f_empty_falls_back)
{
	static const struct fake_entry tbl[] = {
		{ 0x00, 0, { 0x1f, 0, 0, 0 } },
		{ 0x0b, 0, { 1, 2, LVL(1, 0), 0 } },
		{ 0x0b, 1, { 3, 6, LVL(2, 1), 0 } },
		{ 0x1f, 0, { 0, 0, LVL(0, 0), 0 } },
	};
	struct fake_cpu cpu = FAKE(tbl);
	struct apic_id_layout l;

	ck_assert_int_eq(layout(&cpu, &l), CPUTOPO_SRC_LEAF0B);
	ck_assert(cpu.asked[0x1f]);
	check_2s3c2t(&l);
}
END_TEST

/* Leaf 0BH with a core level only (no SMT): smt_shift 0. */
START_TEST(test_leaf0b_no_smt)
{
	static const struct fake_entry tbl[] = {
		{ 0x00, 0, { 0xd, 0, 0, 0 } },
		{ 0x0b, 0, { 2, 3, LVL(2, 0), 0 } },
	};
	struct fake_cpu cpu = FAKE(tbl);
	struct apic_id_layout l;
	uint32_t ids[6] = { 0, 1, 2, 4, 5, 6 };

	ck_assert_int_eq(layout(&cpu, &l), CPUTOPO_SRC_LEAF0B);
	ck_assert_uint_eq(l.smt_shift, 0);
	ck_assert_uint_eq(l.core_shift, 2);
	expect_decode(&l, 6, 1, 2, 0);
	ck_assert_uint_eq(cputopo_count_packages(ids, 6, &l), 2);
	ck_assert_uint_eq(cputopo_threads_per_core(ids, 6, &l), 1);
}
END_TEST

/* Large and degenerate inputs for the counting helpers. */
START_TEST(test_count_4096)
{
	const struct apic_id_layout l = { .smt_shift = 1, .core_shift = 3 };
	const struct apic_id_layout wide = { .smt_shift = 32,
					     .core_shift = 32 };
	uint32_t *ids = malloc(4096 * sizeof(*ids));
	unsigned i, p, c, t;

	ck_assert_ptr_nonnull(ids);
	for (i = 0; i < 4096; i++)
		ids[i] = 4095 - i;
	ck_assert_uint_eq(cputopo_count_packages(ids, 4096, &l), 512);
	ck_assert_uint_eq(cputopo_threads_per_core(ids, 4096, &l), 2);
	ck_assert_uint_eq(cputopo_count_packages(ids, 0, &l), 0);
	ck_assert_uint_eq(cputopo_threads_per_core(ids, 0, &l), 0);
	/* a duplicated APIC ID counts twice: 4095, 4094 and 4095 again */
	ids[2] = ids[0];
	ck_assert_uint_eq(cputopo_threads_per_core(ids, 4096, &l), 3);
	/* shifts of 32: everything in package 0, no undefined shifts */
	ck_assert_uint_eq(cputopo_count_packages(ids, 4096, &wide), 1);
	cputopo_decode(&wide, 0xffffffffu, &p, &c, &t);
	ck_assert_uint_eq(p, 0);
	ck_assert_uint_eq(c, 0);
	ck_assert_uint_eq(t, 0xffffffffu);
	free(ids);
}
END_TEST

static Suite *cputopo_suite(void)
{
	Suite *s = suite_create("cputopo");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_qemu_4s2c2t_leaf0b);
	tcase_add_test(tc, test_qemu_2s3c2t_leaf0b);
	tcase_add_test(tc, test_qemu64_no_leaf0b);
	tcase_add_test(tc, test_qemu_2s3c2t_legacy);
	tcase_add_test(tc, test_legacy_4s2c2t);
	tcase_add_test(tc, test_legacy_no_leaf4);
	tcase_add_test(tc, test_leaf1_no_htt);
	tcase_add_test(tc, test_no_cpuid);
	tcase_add_test(tc, test_leaf1f_preferred);
	tcase_add_test(tc, test_leaf1f_empty_falls_back);
	tcase_add_test(tc, test_leaf0b_no_smt);
	tcase_add_test(tc, test_count_4096);
	suite_add_tcase(s, tc);
	return s;
}
HOST_SUITE(cputopo_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/test_acpi.c - drivers/acpi.c.
 *
 * ACPI tables are built in mem[]; a "physical address" is an offset into
 * it, and map() refuses anything not entirely inside it.  Helpers fill in
 * lengths and checksums so each test only describes what it changes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/host/registry.h"
#include "drivers/acpi.h"
#include "lib/errno.h"

#define MEM_SIZE    0x110000 /* covers the 0xE0000-0xFFFFF BIOS area */
#define RSDT_AT	    0x200
#define XSDT_AT	    0x600
#define MADT_AT	    0x1000
#define MADT2_AT    0x4000
#define SRAT_AT	    0x8000
#define SLIT_AT	    0xc000
/* Room for the QEMU-sized tables of qemu_style_1024_cpus (~14 and ~23 KiB). */
#define BIG_MADT_AT 0x20000
#define BIG_SRAT_AT 0x30000
#define MAX_CPUS    1024

static uint8_t mem[MEM_SIZE] __attribute__((aligned(8)));
static struct acpi_cpu cpus[MAX_CPUS];
static struct acpi_topology topo;
static char err[256];
static uint8_t rsdp[36];

static const void *map(uint64_t phys, uint64_t len)
{
	if (phys >= MEM_SIZE || len > MEM_SIZE - phys)
		return NULL;
	return mem + phys;
}

static void put16(uint64_t at, uint16_t v)
{
	memcpy(mem + at, &v, 2);
}

static void put32(uint64_t at, uint32_t v)
{
	memcpy(mem + at, &v, 4);
}

static void put64(uint64_t at, uint64_t v)
{
	memcpy(mem + at, &v, 8);
}

static uint8_t sum(const uint8_t *p, size_t n)
{
	uint8_t s = 0;

	while (n--)
		s += *p++;
	return s;
}

/* ---- table builder: header, then appended bytes, then fix() ---- */

struct tb {
	uint64_t at;
	uint32_t len;
};

static struct tb tb_start(uint64_t at, const char *sig, uint32_t hdr_len)
{
	struct tb t = { at, hdr_len };

	memset(mem + at, 0, hdr_len);
	memcpy(mem + at, sig, 4);
	mem[at + 8] = 1; /* revision */
	memcpy(mem + at + 10, "TESTOE", 6);
	return t;
}

static void tb_add(struct tb *t, const void *p, size_t n)
{
	memcpy(mem + t->at + t->len, p, n);
	t->len += n;
}

/* set the length field and the checksum */
static void tb_fix(const struct tb *t)
{
	put32(t->at + 4, t->len);
	mem[t->at + 9] = 0;
	mem[t->at + 9] = (uint8_t)-sum(mem + t->at, t->len);
}

static void refix(uint64_t at)
{
	uint32_t len;

	memcpy(&len, mem + at + 4, 4);
	mem[at + 9] = 0;
	mem[at + 9] = (uint8_t)-sum(mem + at, len);
}

static struct tb madt_start(uint64_t at)
{
	struct tb t = tb_start(at, "APIC", 44);

	put32(at + 36, 0xfee00000);
	put32(at + 40, 1);
	return t;
}

static void madt_lapic(struct tb *t, uint8_t uid, uint8_t id, uint32_t flags)
{
	uint8_t e[8] = { 0, 8, uid, id };

	memcpy(e + 4, &flags, 4);
	tb_add(t, e, sizeof(e));
}

static void madt_x2apic(struct tb *t, uint32_t id, uint32_t flags, uint32_t uid)
{
	uint8_t e[16] = { 9, 16 };

	memcpy(e + 4, &id, 4);
	memcpy(e + 8, &flags, 4);
	memcpy(e + 12, &uid, 4);
	tb_add(t, e, sizeof(e));
}

static void madt_ioapic(struct tb *t, uint8_t id, uint32_t phys,
			uint32_t gsi_base)
{
	uint8_t e[12] = { 1, 12, id };

	memcpy(e + 4, &phys, 4);
	memcpy(e + 8, &gsi_base, 4);
	tb_add(t, e, sizeof(e));
}

static void madt_iso(struct tb *t, uint8_t irq, uint32_t gsi, uint16_t flags)
{
	uint8_t e[10] = { 2, 10, 0, irq };

	memcpy(e + 4, &gsi, 4);
	memcpy(e + 8, &flags, 2);
	tb_add(t, e, sizeof(e));
}

static void madt_lapic_ovr(struct tb *t, uint64_t addr)
{
	uint8_t e[12] = { 5, 12 };

	memcpy(e + 4, &addr, 8);
	tb_add(t, e, sizeof(e));
}

static struct tb srat_start(uint64_t at)
{
	struct tb t = tb_start(at, "SRAT", 48);

	put32(at + 36, 1);
	return t;
}

static void srat_lapic(struct tb *t, uint8_t id, uint32_t dom, uint32_t flags)
{
	uint8_t e[16] = { 0, 16, (uint8_t)dom, id };

	memcpy(e + 4, &flags, 4);
	e[9] = (uint8_t)(dom >> 8);
	e[10] = (uint8_t)(dom >> 16);
	e[11] = (uint8_t)(dom >> 24);
	tb_add(t, e, sizeof(e));
}

static void srat_x2apic(struct tb *t, uint32_t id, uint32_t dom, uint32_t flags)
{
	uint8_t e[24] = { 2, 24 };

	memcpy(e + 4, &dom, 4);
	memcpy(e + 8, &id, 4);
	memcpy(e + 12, &flags, 4);
	tb_add(t, e, sizeof(e));
}

static void srat_mem(struct tb *t, uint64_t base, uint64_t len, uint32_t dom,
		     uint32_t flags)
{
	uint8_t e[40] = { 1, 40 };

	memcpy(e + 2, &dom, 4);
	memcpy(e + 8, &base, 8);
	memcpy(e + 16, &len, 8);
	memcpy(e + 28, &flags, 4);
	tb_add(t, e, sizeof(e));
}

static void build_slit(uint64_t at, unsigned int n, const uint8_t *matrix)
{
	struct tb t = tb_start(at, "SLIT", 44);

	put64(at + 36, n);
	tb_add(&t, matrix, (size_t)n * n);
	tb_fix(&t);
}

static void build_rsdt(const uint32_t *tabs, unsigned int n)
{
	struct tb t = tb_start(RSDT_AT, "RSDT", 36);

	tb_add(&t, tabs, n * 4);
	tb_fix(&t);
}

static void build_xsdt(const uint64_t *tabs, unsigned int n)
{
	struct tb t = tb_start(XSDT_AT, "XSDT", 36);

	tb_add(&t, tabs, n * 8);
	tb_fix(&t);
}

/* RSDP into @p (36 bytes); rev 0 = ACPI 1.0 */
static void build_rsdp(uint8_t *p, uint8_t rev, uint32_t rsdt, uint64_t xsdt)
{
	uint32_t len = 36;

	memset(p, 0, 36);
	memcpy(p, "RSD PTR ", 8);
	memcpy(p + 9, "TESTOE", 6);
	p[15] = rev;
	memcpy(p + 16, &rsdt, 4);
	if (rev >= 2) {
		memcpy(p + 20, &len, 4);
		memcpy(p + 24, &xsdt, 8);
	}
	p[8] = (uint8_t)-sum(p, 20);
	if (rev >= 2)
		p[32] = (uint8_t)-sum(p, 36);
}

static void setup(void)
{
	memset(mem, 0, sizeof(mem));
	memset(cpus, 0xaa, sizeof(cpus));
	memset(&topo, 0x55, sizeof(topo));
	topo.cpus = cpus;
	topo.cpus_cap = MAX_CPUS;
	err[0] = '\0';
}

static int parse(void)
{
	return acpi_parse(map, rsdp, sizeof(rsdp), &topo, err, sizeof(err));
}

/* v2 RSDP -> XSDT -> the given tables */
static void use_xsdt(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t tabs[3] = { a, b, c };
	unsigned int n = c ? 3 : b ? 2 : 1;

	build_xsdt(tabs, n);
	build_rsdp(rsdp, 2, 0, XSDT_AT);
}

/* MADT with @n enabled LAPICs, ids 0..n-1 */
static void simple_madt(uint64_t at, unsigned int n)
{
	struct tb t = madt_start(at);
	unsigned int i;

	for (i = 0; i < n; i++)
		madt_lapic(&t, (uint8_t)i, (uint8_t)i, 1);
	tb_fix(&t);
}

/* 8 CPUs, SRAT puts even ones on @dom_even and odd ones on @dom_odd */
static void interleaved_srat(uint32_t dom_even, uint32_t dom_odd)
{
	struct tb t = srat_start(SRAT_AT);
	unsigned int i;

	for (i = 0; i < 8; i++)
		srat_lapic(&t, (uint8_t)i, i % 2 ? dom_odd : dom_even, 1);
	srat_mem(&t, 0, 0x80000000, dom_even, 1);
	srat_mem(&t, 0x80000000, 0x80000000, dom_odd, 3);
	tb_fix(&t);
}

#define PARSE_OK() ck_assert_msg(parse() == 0, "parse failed: %s", err)

#define PARSE_ERR(substr)                                                   \
	do {                                                                \
		ck_assert_int_eq(parse(), -EINVAL);                         \
		ck_assert_msg(strstr(err, (substr)), "err '%s' lacks '%s'", \
			      err, (substr));                               \
	} while (0)

/* ---- good tables ---- */

START_TEST(rsdp_v1_with_rsdt)
{
	uint32_t tabs[1] = { MADT_AT };

	setup();
	simple_madt(MADT_AT, 4);
	build_rsdt(tabs, 1);
	build_rsdp(rsdp, 0, RSDT_AT, 0);
	/* a v1 RSDP is only 20 bytes */
	ck_assert_int_eq(acpi_parse(map, rsdp, 20, &topo, err, sizeof(err)), 0);
	ck_assert_uint_eq(topo.ncpus, 4);
	ck_assert_uint_eq(topo.ncpus_present, 4);
	ck_assert(!topo.cpus_truncated);
	ck_assert_uint_eq(topo.lapic_phys, 0xfee00000);
	ck_assert_uint_eq(topo.nnodes, 1);
	ck_assert(!topo.have_srat);
	ck_assert(!topo.have_slit);
	ck_assert_str_eq(err, "");
}
END_TEST

START_TEST(rsdp_v2_with_xsdt)
{
	uint32_t tabs[1] = { MADT2_AT };

	setup();
	simple_madt(MADT_AT, 6);
	simple_madt(MADT2_AT, 2);
	build_rsdt(tabs, 1);	 /* RSDT -> 2-CPU MADT */
	use_xsdt(MADT_AT, 0, 0); /* XSDT -> 6-CPU MADT */
	build_rsdp(rsdp, 2, RSDT_AT, XSDT_AT);
	PARSE_OK();
	ck_assert_uint_eq(topo.ncpus, 6);

	/* revision 2 but no XSDT address: RSDT */
	build_rsdp(rsdp, 2, RSDT_AT, 0);
	PARSE_OK();
	ck_assert_uint_eq(topo.ncpus, 2);

	/* revision 0 ignores the (garbage) XSDT field */
	build_rsdp(rsdp, 0, RSDT_AT, 0);
	memset(rsdp + 24, 0xff, 8);
	PARSE_OK();
	ck_assert_uint_eq(topo.ncpus, 2);

	/* XSDT entries need not be 8-byte aligned (XSDT at +4 mod 8) */
	ck_assert_uint_eq((XSDT_AT + 36) % 8, 4);
}
END_TEST

START_TEST(find_rsdp_in_bios_area)
{
	uint64_t phys = 0;
	uint8_t tmp[36];

	setup();
	ck_assert_int_eq(acpi_find_rsdp(map, &phys), -EINVAL);

	simple_madt(MADT_AT, 3);
	use_xsdt(MADT_AT, 0, 0);
	put16(0x40e, 0x9fc0); /* EBDA at 0x9fc00, no RSDP there */
	memcpy(mem + 0x9fc00, "RSD PTR ", 8); /* bad checksum */
	/* valid but misaligned: must be ignored */
	build_rsdp(mem + 0xe0008, 2, 0, XSDT_AT);
	/* signature with a bad v1 checksum */
	build_rsdp(mem + 0xe0010, 0, RSDT_AT, 0);
	mem[0xe0010 + 8] ^= 1;
	/* good v1 checksum, bad extended checksum */
	build_rsdp(mem + 0xe0020, 2, 0, XSDT_AT);
	mem[0xe0020 + 33] ^= 1;
	build_rsdp(mem + 0xf0020, 2, 0, XSDT_AT);
	ck_assert_int_eq(acpi_find_rsdp(map, &phys), 0);
	ck_assert_uint_eq(phys, 0xf0020);
	ck_assert_msg(acpi_parse(map, map(phys, 36), 36, &topo, err,
				 sizeof(err)) == 0,
		      "%s", err);
	ck_assert_uint_eq(topo.ncpus, 3);

	/* the EBDA is searched first */
	build_rsdp(tmp, 2, 0, XSDT_AT);
	memcpy(mem + 0x9fc00 + 0x3e0, tmp, 36);
	ck_assert_int_eq(acpi_find_rsdp(map, &phys), 0);
	ck_assert_uint_eq(phys, 0x9fc00 + 0x3e0);
	/* but only its first KiB */
	memset(mem + 0x9fc00 + 0x3e0, 0, 36);
	memcpy(mem + 0x9fc00 + 0x400, tmp, 36);
	ck_assert_int_eq(acpi_find_rsdp(map, &phys), 0);
	ck_assert_uint_eq(phys, 0xf0020);
	/* last slot where a 20-byte RSDP fits in the ROM area */
	memset(mem + 0xf0020, 0, 36);
	build_rsdp(tmp, 0, RSDT_AT, 0);
	memcpy(mem + 0xfffe0, tmp, 20);
	ck_assert_int_eq(acpi_find_rsdp(map, &phys), 0);
	ck_assert_uint_eq(phys, 0xfffe0);
}
END_TEST

START_TEST(madt_8_lapics_one_disabled)
{
	struct tb t;
	unsigned int i;

	setup();
	t = madt_start(MADT_AT);
	for (i = 0; i < 8; i++)
		madt_lapic(&t, (uint8_t)(10 + i), (uint8_t)(7 - i),
			   i == 3 ? 0 : 1);
	madt_lapic(&t, 99, 99, 2); /* online-capable, not enabled */
	tb_fix(&t);
	use_xsdt(MADT_AT, 0, 0);
	PARSE_OK();
	ck_assert_uint_eq(topo.ncpus, 7);
	ck_assert_uint_eq(topo.ncpus_present, 7);
	for (i = 0; i < 7; i++) {
		unsigned int m = i < 3 ? i : i + 1; /* MADT order */

		ck_assert_uint_eq(cpus[i].apic_id, 7 - m);
		ck_assert_uint_eq(cpus[i].acpi_uid, 10 + m);
		ck_assert(!cpus[i].x2apic);
		ck_assert_uint_eq(cpus[i].node, 0);
	}
	ck_assert_uint_eq(topo.madt_flags, 1);
}
END_TEST

START_TEST(madt_x2apic_entries)
{
	struct tb t;

	setup();
	t = madt_start(MADT_AT);
	madt_lapic(&t, 0, 0, 1);
	madt_x2apic(&t, 0x100, 1, 1000);
	madt_x2apic(&t, 0x12345678, 0, 1001); /* disabled */
	madt_x2apic(&t, 0xfffffffe, 1, 0xdeadbeef);
	tb_fix(&t);
	use_xsdt(MADT_AT, 0, 0);
	PARSE_OK();
	ck_assert_uint_eq(topo.ncpus, 3);
	ck_assert(!cpus[0].x2apic);
	ck_assert(cpus[1].x2apic);
	ck_assert_uint_eq(cpus[1].apic_id, 0x100);
	ck_assert_uint_eq(cpus[1].acpi_uid, 1000);
	ck_assert_uint_eq(cpus[2].apic_id, 0xfffffffe);
	ck_assert_uint_eq(cpus[2].acpi_uid, 0xdeadbeef);
}
END_TEST

START_TEST(madt_ioapic_and_overrides)
{
	struct tb t;
	uint8_t unknown[6] = { 0x7f, 6, 1, 2, 3, 4 };
	unsigned int i;

	setup();
	t = madt_start(MADT_AT);
	madt_lapic(&t, 0, 0, 1);
	madt_ioapic(&t, 2, 0xfec00000, 0);
	tb_add(&t, unknown, sizeof(unknown)); /* skipped by length */
	madt_ioapic(&t, 3, 0xfec01000, 24);
	madt_iso(&t, 0, 2, 0);
	madt_iso(&t, 9, 9, 0x000d);
	madt_lapic_ovr(&t, 0x1fee00000ull);
	tb_fix(&t);
	use_xsdt(MADT_AT, 0, 0);
	PARSE_OK();
	ck_assert_uint_eq(topo.nioapics, 2);
	ck_assert_uint_eq(topo.ioapics[0].id, 2);
	ck_assert_uint_eq(topo.ioapics[0].phys, 0xfec00000);
	ck_assert_uint_eq(topo.ioapics[0].gsi_base, 0);
	ck_assert_uint_eq(topo.ioapics[1].id, 3);
	ck_assert_uint_eq(topo.ioapics[1].phys, 0xfec01000);
	ck_assert_uint_eq(topo.ioapics[1].gsi_base, 24);
	ck_assert_uint_eq(topo.noverrides, 2);
	ck_assert_uint_eq(topo.overrides[0].bus_irq, 0);
	ck_assert_uint_eq(topo.overrides[0].gsi, 2);
	ck_assert_uint_eq(topo.overrides[1].bus_irq, 9);
	ck_assert_uint_eq(topo.overrides[1].gsi, 9);
	ck_assert_uint_eq(topo.overrides[1].flags, 0x000d);
	ck_assert_uint_eq(topo.lapic_phys, 0x1fee00000ull);
	ck_assert(!topo.ioapics_truncated && !topo.overrides_truncated);

	/* more than the fixed capacities: truncated, not overflowed */
	t = madt_start(MADT_AT);
	madt_lapic(&t, 0, 0, 1);
	for (i = 0; i < ACPI_MAX_IOAPICS + 2; i++)
		madt_ioapic(&t, (uint8_t)i, 0xfec00000 + i * 0x1000, i * 24);
	for (i = 0; i < ACPI_MAX_OVERRIDES + 3; i++)
		madt_iso(&t, (uint8_t)i, i, 0);
	tb_fix(&t);
	PARSE_OK();
	ck_assert_uint_eq(topo.nioapics, ACPI_MAX_IOAPICS);
	ck_assert(topo.ioapics_truncated);
	ck_assert_uint_eq(topo.noverrides, ACPI_MAX_OVERRIDES);
	ck_assert(topo.overrides_truncated);
}
END_TEST

START_TEST(srat_two_nodes_interleaved)
{
	unsigned int i;

	setup();
	simple_madt(MADT_AT, 8);
	interleaved_srat(0, 1);
	use_xsdt(MADT_AT, SRAT_AT, 0);
	PARSE_OK();
	ck_assert(topo.have_srat);
	ck_assert(!topo.srat_incomplete);
	ck_assert_uint_eq(topo.nnodes, 2);
	for (i = 0; i < 8; i++) {
		ck_assert_uint_eq(cpus[i].node, i % 2);
		ck_assert_uint_eq(cpus[i].proximity_domain, i % 2);
		ck_assert(cpus[i].srat_found);
	}
	ck_assert_uint_eq(topo.nmem, 2);
	ck_assert_uint_eq(topo.mem[1].base, 0x80000000);
	ck_assert_uint_eq(topo.mem[1].len, 0x80000000);
	ck_assert_uint_eq(topo.mem[1].domain, 1);
	ck_assert(topo.mem[1].enabled && topo.mem[1].hotplug);
	ck_assert(!topo.mem[0].hotplug);
}
END_TEST

START_TEST(srat_domains_5_and_9)
{
	struct tb t;
	unsigned int i;

	setup();
	simple_madt(MADT_AT, 8);
	interleaved_srat(9, 5); /* even CPUs 9, odd CPUs 5 */
	use_xsdt(MADT_AT, SRAT_AT, 0);
	PARSE_OK();
	ck_assert_uint_eq(topo.nnodes, 2);
	for (i = 0; i < 8; i++)
		ck_assert_uint_eq(cpus[i].node, i % 2 ? 0 : 1);

	/* domains using the high bytes and the x2APIC affinity entry */
	t = srat_start(SRAT_AT);
	for (i = 0; i < 8; i++) {
		if (i < 4)
			srat_lapic(&t, (uint8_t)i, 0x01000005, 1);
		else
			srat_x2apic(&t, i, 0x7, 1);
	}
	srat_lapic(&t, 0, 3, 0); /* disabled: ignored */
	tb_fix(&t);
	PARSE_OK();
	ck_assert_uint_eq(topo.nnodes, 2);
	for (i = 0; i < 8; i++) {
		ck_assert_uint_eq(cpus[i].node, i < 4 ? 1 : 0);
		ck_assert_uint_eq(cpus[i].proximity_domain,
				  i < 4 ? 0x01000005 : 7);
	}
}
END_TEST

START_TEST(no_srat_one_node)
{
	unsigned int i;

	setup();
	simple_madt(MADT_AT, 8);
	use_xsdt(MADT_AT, 0, 0);
	PARSE_OK();
	ck_assert(!topo.have_srat);
	ck_assert(!topo.srat_incomplete);
	ck_assert_uint_eq(topo.nnodes, 1);
	for (i = 0; i < 8; i++)
		ck_assert_uint_eq(cpus[i].node, 0);
}
END_TEST

START_TEST(srat_missing_cpu_is_incomplete)
{
	struct tb t;

	setup();
	simple_madt(MADT_AT, 3);
	t = srat_start(SRAT_AT);
	srat_lapic(&t, 0, 4, 1);
	srat_lapic(&t, 2, 6, 1);
	srat_lapic(&t, 77, 8, 1); /* unknown CPU: ignored */
	tb_fix(&t);
	use_xsdt(MADT_AT, SRAT_AT, 0);
	PARSE_OK();
	ck_assert(topo.srat_incomplete);
	ck_assert_uint_eq(topo.nnodes, 2);
	ck_assert_uint_eq(cpus[0].node, 0);
	ck_assert_uint_eq(cpus[1].node, 0);
	ck_assert(!cpus[1].srat_found);
	ck_assert_uint_eq(cpus[2].node, 1);

	/* SRAT with no CPU entries at all */
	t = srat_start(SRAT_AT);
	srat_mem(&t, 0, 1 << 20, 0, 1);
	tb_fix(&t);
	PARSE_OK();
	ck_assert(topo.have_srat && topo.srat_incomplete);
	ck_assert_uint_eq(topo.nnodes, 1);
}
END_TEST

START_TEST(slit_2x2)
{
	static const uint8_t m[4] = { 10, 21, 21, 10 };

	setup();
	simple_madt(MADT_AT, 8);
	interleaved_srat(0, 1);
	build_slit(SLIT_AT, 2, m);
	use_xsdt(SLIT_AT, MADT_AT, SRAT_AT);
	PARSE_OK();
	ck_assert(topo.have_slit);
	ck_assert(!topo.slit_truncated);
	ck_assert_uint_eq(topo.slit_n, 2);
	ck_assert_uint_eq(topo.slit_localities, 2);
	ck_assert_uint_eq(topo.slit[0][0], 10);
	ck_assert_uint_eq(topo.slit[0][1], 21);
	ck_assert_uint_eq(topo.slit[1][0], 21);
	ck_assert_uint_eq(topo.slit[1][1], 10);
}
END_TEST

START_TEST(slit_larger_than_cap)
{
	static uint8_t m[70 * 70];
	unsigned int i, j;

	setup();
	for (i = 0; i < 70; i++)
		for (j = 0; j < 70; j++)
			m[i * 70 + j] =
				(uint8_t)(i == j ? 10 : 20 + (i + j) % 50);
	simple_madt(MADT_AT, 2);
	build_slit(SLIT_AT, 70, m);
	use_xsdt(MADT_AT, SLIT_AT, 0);
	PARSE_OK();
	ck_assert(topo.slit_truncated);
	ck_assert_uint_eq(topo.slit_n, ACPI_SLIT_MAX);
	ck_assert_uint_eq(topo.slit_localities, 70);
	ck_assert_uint_eq(topo.slit[63][62], 20 + 125 % 50);
	ck_assert_uint_eq(topo.slit[5][5], 10);
}
END_TEST

START_TEST(capacity_truncation)
{
	unsigned int i;

	setup();
	simple_madt(MADT_AT, 8);
	interleaved_srat(3, 1);
	use_xsdt(MADT_AT, SRAT_AT, 0);
	topo.cpus_cap = 4;
	cpus[4].apic_id = 0x5a5a; /* must not be written */
	PARSE_OK();
	ck_assert_uint_eq(topo.ncpus, 4);
	ck_assert_uint_eq(topo.ncpus_present, 8);
	ck_assert(topo.cpus_truncated);
	ck_assert_uint_eq(cpus[4].apic_id, 0x5a5a);
	ck_assert_uint_eq(topo.nnodes, 2);
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(cpus[i].node, i % 2 ? 0 : 1);

	/* capacity 0 (or no storage) still parses */
	topo.cpus_cap = 0;
	PARSE_OK();
	ck_assert_uint_eq(topo.ncpus, 0);
	ck_assert_uint_eq(topo.ncpus_present, 8);
	ck_assert(topo.cpus_truncated);
	ck_assert_uint_eq(topo.nnodes, 1);
	topo.cpus = NULL;
	topo.cpus_cap = 8;
	PARSE_OK();
	ck_assert_uint_eq(topo.ncpus, 0);
	ck_assert(topo.cpus_truncated);
}
END_TEST

START_TEST(cpus_255_and_more)
{
	struct tb t;
	unsigned int i, count[3] = { 0 };

	setup();
	simple_madt(MADT_AT, 255); /* APIC ids 0..254 */
	t = srat_start(SRAT_AT);
	for (i = 0; i < 255; i++) /* 3 nodes, non-contiguous lists */
		srat_lapic(&t, (uint8_t)i, 10 * (i % 3), 1);
	tb_fix(&t);
	use_xsdt(MADT_AT, SRAT_AT, 0);
	PARSE_OK();
	ck_assert_uint_eq(topo.ncpus, 255);
	ck_assert(!topo.cpus_truncated);
	ck_assert_uint_eq(topo.nnodes, 3);
	for (i = 0; i < 255; i++) {
		ck_assert_uint_eq(cpus[i].apic_id, i);
		ck_assert_uint_eq(cpus[i].node, i % 3);
		count[cpus[i].node]++;
	}
	ck_assert_uint_eq(count[0], 85);

	/* 300 x2APIC CPUs, exactly filling the capacity */
	t = madt_start(MADT_AT);
	for (i = 0; i < 300; i++)
		madt_x2apic(&t, i * 3 + 1, 1, i);
	tb_fix(&t);
	t = srat_start(SRAT_AT);
	for (i = 0; i < 300; i++)
		srat_x2apic(&t, i * 3 + 1, i % 5, 1);
	tb_fix(&t);
	topo.cpus_cap = 300;
	PARSE_OK();
	ck_assert_uint_eq(topo.ncpus, 300);
	ck_assert(!topo.cpus_truncated);
	ck_assert_uint_eq(topo.nnodes, 5);
	ck_assert_uint_eq(cpus[299].apic_id, 898);
	ck_assert_uint_eq(cpus[299].node, 4);
}
END_TEST

/*
 * The tables QEMU >= 9 builds for -smp 1024 with 16 nodes of 64: APIC ids
 * below 255 as Local APIC (type 0) entries, the rest as Local x2APIC
 * (type 9) entries with an x2APIC NMI (type 0xA) the parser must step over,
 * and SRAT affinity the same way (types 0 and 2).  Counted first with no
 * storage, then parsed into exactly that many, as topology_init() does.
 */
START_TEST(qemu_style_1024_cpus)
{
	uint8_t nmi[12] = { 0xa, 12, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 1 };
	struct tb t;
	unsigned int i;

	setup();
	t = madt_start(BIG_MADT_AT);
	for (i = 0; i < 1024; i++) {
		if (i < 255)
			madt_lapic(&t, (uint8_t)i, (uint8_t)i, 1);
		else
			madt_x2apic(&t, i, 1, i);
	}
	tb_add(&t, nmi, sizeof(nmi));
	tb_fix(&t);
	t = srat_start(BIG_SRAT_AT);
	for (i = 0; i < 1024; i++) {
		if (i < 255)
			srat_lapic(&t, (uint8_t)i, i / 64, 1);
		else
			srat_x2apic(&t, i, i / 64, 1);
	}
	for (i = 0; i < 16; i++)
		srat_mem(&t, (uint64_t)i << 27, 1u << 27, i, 1);
	tb_fix(&t);
	use_xsdt(BIG_MADT_AT, BIG_SRAT_AT, 0);

	topo.cpus = NULL;
	topo.cpus_cap = 0;
	PARSE_OK();
	ck_assert_uint_eq(topo.ncpus, 0);
	ck_assert_uint_eq(topo.ncpus_present, 1024);

	topo.cpus = cpus;
	topo.cpus_cap = topo.ncpus_present;
	PARSE_OK();
	ck_assert_uint_eq(topo.ncpus, 1024);
	ck_assert(!topo.cpus_truncated);
	ck_assert(topo.have_srat);
	ck_assert(!topo.srat_incomplete);
	ck_assert_uint_eq(topo.nnodes, 16);
	ck_assert_uint_eq(topo.nmem, 16);
	for (i = 0; i < 1024; i++) {
		ck_assert_uint_eq(cpus[i].apic_id, i);
		ck_assert_uint_eq(cpus[i].acpi_uid, i);
		ck_assert_uint_eq(cpus[i].node, i / 64);
		ck_assert(cpus[i].x2apic == (i >= 255));
		ck_assert(cpus[i].srat_found);
	}
}
END_TEST

/*
 * 32-bit ids and domains survive whole; a disabled SRAT x2APIC entry names
 * no CPU (and leaves the topology incomplete), and so does one for an id
 * the MADT does not have.
 */
START_TEST(srat_x2apic_full_width_and_disabled)
{
	struct tb t;

	setup();
	t = madt_start(MADT_AT);
	madt_x2apic(&t, 0x00010000, 1, 1);
	madt_x2apic(&t, 0xfffffffe, 1, 2);
	madt_x2apic(&t, 0x00000300, 1, 3);
	tb_fix(&t);
	t = srat_start(SRAT_AT);
	srat_x2apic(&t, 0x00010000, 0xdeadbeef, 1);
	srat_x2apic(&t, 0xfffffffe, 0x7, 1);
	srat_x2apic(&t, 0x00000300, 0x7, 0); /* disabled */
	srat_x2apic(&t, 0x00000301, 0x9, 1); /* no such CPU */
	tb_fix(&t);
	use_xsdt(MADT_AT, SRAT_AT, 0);
	PARSE_OK();
	ck_assert_uint_eq(topo.ncpus, 3);
	ck_assert_uint_eq(cpus[0].apic_id, 0x00010000);
	ck_assert_uint_eq(cpus[0].proximity_domain, 0xdeadbeef);
	ck_assert_uint_eq(cpus[1].apic_id, 0xfffffffe);
	ck_assert_uint_eq(cpus[1].proximity_domain, 7);
	ck_assert_uint_eq(topo.nnodes, 2);
	ck_assert_uint_eq(cpus[0].node, 1); /* 0xdeadbeef sorts after 7 */
	ck_assert_uint_eq(cpus[1].node, 0);
	ck_assert(!cpus[2].srat_found);
	ck_assert_uint_eq(cpus[2].node, 0);
	ck_assert(topo.srat_incomplete);
}
END_TEST

/* ---- corrupted tables ---- */

/* x2APIC entries shorter than their structures are refused, not read past. */
START_TEST(x2apic_entries_too_short)
{
	uint8_t e[24] = { 9, 12 };
	struct tb t;

	setup();
	t = madt_start(MADT_AT);
	tb_add(&t, e, 12); /* Local x2APIC: 16 bytes */
	tb_fix(&t);
	use_xsdt(MADT_AT, 0, 0);
	PARSE_ERR(
		"acpi: MADT entry type 9 at offset 44 has length 12, need 16");
	ck_assert_uint_eq(topo.ncpus, 0);

	simple_madt(MADT_AT, 2);
	t = srat_start(SRAT_AT);
	srat_lapic(&t, 0, 0, 1);
	e[0] = 2;
	e[1] = 16;
	tb_add(&t, e, 16); /* x2APIC affinity: 24 bytes */
	tb_fix(&t);
	use_xsdt(MADT_AT, SRAT_AT, 0);
	PARSE_ERR(
		"acpi: SRAT entry type 2 at offset 64 has length 16, need 24");
	ck_assert_uint_eq(topo.ncpus, 0);
	ck_assert_uint_eq(topo.nnodes, 1);
}
END_TEST

START_TEST(bad_checksum_each_table)
{
	static const uint8_t m[4] = { 10, 20, 20, 10 };
	static const struct {
		uint64_t at;
		const char *msg;
	} tabs[] = {
		{ XSDT_AT, "acpi: XSDT checksum mismatch" },
		{ MADT_AT, "acpi: MADT checksum mismatch" },
		{ SRAT_AT, "acpi: SRAT checksum mismatch (sum 0x" },
		{ SLIT_AT, "acpi: SLIT checksum mismatch" },
		{ RSDT_AT, "acpi: RSDT checksum mismatch" },
	};
	uint32_t rsdt[3] = { MADT_AT, SRAT_AT, SLIT_AT };
	size_t i;

	for (i = 0; i < sizeof(tabs) / sizeof(tabs[0]); i++) {
		setup();
		simple_madt(MADT_AT, 8);
		interleaved_srat(0, 1);
		build_slit(SLIT_AT, 2, m);
		use_xsdt(MADT_AT, SRAT_AT, SLIT_AT);
		build_rsdt(rsdt, 3);
		if (tabs[i].at == RSDT_AT)
			build_rsdp(rsdp, 0, RSDT_AT, 0);
		PARSE_OK();
		mem[tabs[i].at + 20] += 0x3c;
		PARSE_ERR(tabs[i].msg);
		ck_assert_uint_eq(topo.ncpus, 0); /* nothing half-done */
	}
	setup();
	simple_madt(MADT_AT, 2);
	interleaved_srat(0, 1);
	use_xsdt(MADT_AT, SRAT_AT, 0);
	mem[SRAT_AT + 20] += 0x3c;
	PARSE_ERR("acpi: SRAT checksum mismatch (sum 0x3c)");

	/* RSDP v1 and extended checksums */
	build_rsdp(rsdp, 2, 0, XSDT_AT);
	rsdp[18] ^= 0x80;
	PARSE_ERR("acpi: RSDP checksum mismatch");
	build_rsdp(rsdp, 2, 0, XSDT_AT);
	rsdp[34] ^= 0x80;
	PARSE_ERR("acpi: RSDP extended checksum mismatch");
	build_rsdp(rsdp, 2, 0, XSDT_AT);
	memcpy(rsdp, "RSD PTX ", 8);
	PARSE_ERR("signature");
	/* v2 RSDP but only the v1 bytes supplied */
	build_rsdp(rsdp, 2, 0, XSDT_AT);
	ck_assert_int_eq(acpi_parse(map, rsdp, 20, &topo, err, sizeof(err)),
			 -EINVAL);
	ck_assert_int_eq(acpi_parse(map, rsdp, 19, &topo, err, sizeof(err)),
			 -EINVAL);
}
END_TEST

START_TEST(length_smaller_than_header)
{
	setup();
	simple_madt(MADT_AT, 2);
	use_xsdt(MADT_AT, 0, 0);
	put32(XSDT_AT + 4, 30);
	refix(XSDT_AT);
	PARSE_ERR("acpi: XSDT length 30 smaller than header");

	use_xsdt(MADT_AT, 0, 0);
	put32(MADT_AT + 4, 0);
	PARSE_ERR("acpi: MADT length 0 smaller than header");

	/* header-sized MADT lacks the local APIC address and flags */
	put32(MADT_AT + 4, 40);
	refix(MADT_AT);
	PARSE_ERR("acpi: MADT length 40 smaller than 44");

	/* absurd length */
	put32(MADT_AT + 4, 0xffffffff);
	PARSE_ERR("exceeds limit");

	/* XSDT length not header + whole entries */
	simple_madt(MADT_AT, 2);
	put32(XSDT_AT + 4, 36 + 8 + 3);
	refix(XSDT_AT);
	PARSE_ERR("acpi: XSDT length 47 is not header");
}
END_TEST

START_TEST(length_beyond_mapped_range)
{
	uint64_t at = MEM_SIZE - 100;

	setup();
	simple_madt(at, 4); /* 44 + 32 = 76 bytes: fits */
	use_xsdt(at, 0, 0);
	PARSE_OK();
	put32(at + 4, 200); /* now extends past the end */
	PARSE_ERR("length 200 extends beyond mapped memory");

	/* header itself straddles the end */
	use_xsdt(MEM_SIZE - 20, 0, 0);
	memcpy(mem + MEM_SIZE - 20, "APIC", 4);
	PARSE_ERR("outside mapped memory");
}
END_TEST

START_TEST(madt_entry_length_zero)
{
	struct tb t;
	uint8_t bad[8] = { 0, 0 };

	setup();
	t = madt_start(MADT_AT);
	madt_lapic(&t, 0, 0, 1);
	tb_add(&t, bad, sizeof(bad));
	madt_lapic(&t, 1, 1, 1);
	tb_fix(&t);
	use_xsdt(MADT_AT, 0, 0);
	PARSE_ERR("acpi: MADT entry type 0 at offset 52 has length 0");
	ck_assert_str_eq(err,
			 "acpi: MADT entry type 0 at offset 52 has length 0");
	ck_assert_uint_eq(topo.ncpus, 0);

	bad[1] = 1;
	t = madt_start(MADT_AT);
	tb_add(&t, bad, sizeof(bad));
	tb_fix(&t);
	PARSE_ERR("acpi: MADT entry type 0 at offset 44 has length 1");

	/* known type shorter than its structure */
	bad[1] = 6;
	t = madt_start(MADT_AT);
	tb_add(&t, bad, 6);
	tb_fix(&t);
	PARSE_ERR("acpi: MADT entry type 0 at offset 44 has length 6, need 8");
}
END_TEST

START_TEST(madt_entry_overruns_table)
{
	struct tb t;
	uint8_t e[8] = { 9, 16 }; /* x2APIC claiming 16, 8 present */

	setup();
	t = madt_start(MADT_AT);
	madt_lapic(&t, 0, 0, 1);
	tb_add(&t, e, sizeof(e));
	tb_fix(&t);
	use_xsdt(MADT_AT, 0, 0);
	PARSE_ERR(
		"acpi: MADT entry type 9 at offset 52 length 16 overruns table (length 60)");

	/* a single trailing byte: not even a subtable header */
	t = madt_start(MADT_AT);
	madt_lapic(&t, 0, 0, 1);
	tb_add(&t, e, 1);
	tb_fix(&t);
	PARSE_ERR("acpi: MADT entry at offset 52 truncated");
}
END_TEST

START_TEST(corrupted_srat_gives_error_not_crash)
{
	struct tb t;
	uint8_t e[16] = { 0, 16 };
	uint32_t len;
	unsigned int iter, i;
	int ret;

	setup();
	simple_madt(MADT_AT, 8);
	use_xsdt(MADT_AT, SRAT_AT, 0);

	/* last entry truncated by the table length */
	t = srat_start(SRAT_AT);
	srat_lapic(&t, 0, 0, 1);
	tb_add(&t, e, 10);
	tb_fix(&t);
	PARSE_ERR(
		"acpi: SRAT entry type 0 at offset 64 length 16 overruns table");
	ck_assert_uint_eq(topo.ncpus, 0);
	ck_assert_uint_eq(topo.nnodes, 1);

	/* entry of length 0 */
	e[1] = 0;
	t = srat_start(SRAT_AT);
	tb_add(&t, e, 16);
	tb_fix(&t);
	PARSE_ERR("acpi: SRAT entry type 0 at offset 48 has length 0");

	/* memory affinity entry too short */
	e[0] = 1;
	e[1] = 16;
	t = srat_start(SRAT_AT);
	tb_add(&t, e, 16);
	tb_fix(&t);
	PARSE_ERR(
		"acpi: SRAT entry type 1 at offset 48 has length 16, need 40");

	/* x2APIC affinity truncated */
	e[0] = 2;
	e[1] = 24;
	t = srat_start(SRAT_AT);
	tb_add(&t, e, 16);
	tb_fix(&t);
	PARSE_ERR("overruns table");

	/* shorter than the SRAT header */
	t = srat_start(SRAT_AT);
	t.len = 40;
	tb_fix(&t);
	PARSE_ERR("acpi: SRAT length 40 smaller than 48");

	/* random byte damage, checksum fixed up: error or success, no UB */
	srand(1);
	for (iter = 0; iter < 2000; iter++) {
		interleaved_srat(0, 1);
		memcpy(&len, mem + SRAT_AT + 4, 4);
		for (i = 0; i < 1 + iter % 4; i++)
			mem[SRAT_AT + 36 + rand() % (len - 36)] =
				(uint8_t)rand();
		if (iter % 7 == 0)
			put32(SRAT_AT + 4, 36 + rand() % (len - 20));
		refix(SRAT_AT);
		ret = parse();
		ck_assert(ret == 0 || ret == -EINVAL);
		ck_assert(topo.nnodes >= 1 && topo.nnodes <= 8);
		if (ret)
			ck_assert(strstr(err, "SRAT"));
	}
}
END_TEST

START_TEST(rsdt_pointing_outside)
{
	uint32_t tabs[2] = { MADT_AT, 0x7ffff000 };

	setup();
	simple_madt(MADT_AT, 2);
	build_rsdp(rsdp, 0, 0x7ffff000, 0);
	PARSE_ERR("acpi: RSDT at 0x7ffff000 is outside mapped memory");

	build_rsdp(rsdp, 2, RSDT_AT, 0xffffffff00000000ull);
	PARSE_ERR("acpi: XSDT at 0xffffffff00000000 is outside mapped memory");

	build_rsdp(rsdp, 0, 0, 0);
	PARSE_ERR("acpi: RSDT address is zero");

	/* an entry of the RSDT pointing outside */
	build_rsdt(tabs, 2);
	build_rsdp(rsdp, 0, RSDT_AT, 0);
	PARSE_ERR("acpi: RSDT entry 1 (0x7ffff000) is outside mapped memory");

	/* RSDT address pointing at something that is not an RSDT */
	build_rsdp(rsdp, 0, MADT_AT, 0);
	PARSE_ERR("acpi: RSDT at 0x1000 has signature 'APIC'");
}
END_TEST

START_TEST(missing_madt_is_error)
{
	uint32_t tabs[2] = { SRAT_AT, 0 };

	setup();
	interleaved_srat(0, 1);
	build_rsdt(tabs, 2);
	build_rsdp(rsdp, 0, RSDT_AT, 0);
	PARSE_ERR("acpi: no MADT (\"APIC\") in RSDT");
	/* NULL error buffer is fine */
	ck_assert_int_eq(acpi_parse(map, rsdp, 20, &topo, NULL, 0), -EINVAL);
	/* tiny error buffer: truncated but terminated */
	ck_assert_int_eq(acpi_parse(map, rsdp, 20, &topo, err, 5), -EINVAL);
	ck_assert_str_eq(err, "acpi");
	ck_assert_int_eq(acpi_parse(map, NULL, 20, &topo, err, sizeof(err)),
			 -EINVAL);
}
END_TEST

static Suite *acpi_suite(void)
{
	Suite *s = suite_create("acpi");
	TCase *tc = tcase_create("good");
	TCase *bad = tcase_create("corrupted");

	tcase_add_test(tc, rsdp_v1_with_rsdt);
	tcase_add_test(tc, rsdp_v2_with_xsdt);
	tcase_add_test(tc, find_rsdp_in_bios_area);
	tcase_add_test(tc, madt_8_lapics_one_disabled);
	tcase_add_test(tc, madt_x2apic_entries);
	tcase_add_test(tc, madt_ioapic_and_overrides);
	tcase_add_test(tc, srat_two_nodes_interleaved);
	tcase_add_test(tc, srat_domains_5_and_9);
	tcase_add_test(tc, no_srat_one_node);
	tcase_add_test(tc, srat_missing_cpu_is_incomplete);
	tcase_add_test(tc, slit_2x2);
	tcase_add_test(tc, slit_larger_than_cap);
	tcase_add_test(tc, capacity_truncation);
	tcase_add_test(tc, cpus_255_and_more);
	tcase_add_test(tc, qemu_style_1024_cpus);
	tcase_add_test(tc, srat_x2apic_full_width_and_disabled);
	suite_add_tcase(s, tc);

	tcase_add_test(bad, bad_checksum_each_table);
	tcase_add_test(bad, length_smaller_than_header);
	tcase_add_test(bad, length_beyond_mapped_range);
	tcase_add_test(bad, madt_entry_length_zero);
	tcase_add_test(bad, madt_entry_overruns_table);
	tcase_add_test(bad, x2apic_entries_too_short);
	tcase_add_test(bad, corrupted_srat_gives_error_not_crash);
	tcase_add_test(bad, rsdt_pointing_outside);
	tcase_add_test(bad, missing_madt_is_error);
	suite_add_tcase(s, bad);
	return s;
}
HOST_SUITE(acpi_suite);

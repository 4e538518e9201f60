// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/test_bootinfo.c - kernel/bootinfo.c.
 *
 * Multiboot structures are built in mem[]; a "physical address" is an
 * offset into it, and map() refuses anything not entirely inside it.
 */
#include <stdio.h>
#include <string.h>

#include "tests/host/registry.h"
#include "kernel/bootinfo.h"

#define MEM_SIZE    0x10000
#define MB1_INFO    0x100
#define MB1_CMDLINE 0x400
#define MB1_MMAP    0x800
#define MB2_INFO    0x1000

static uint8_t mem[MEM_SIZE] __attribute__((aligned(8)));
static struct bootinfo bi;
static char err[256];
static uint32_t mb2_off; /* next free byte in the mb2 blob */

static const void *map(uint64_t phys, uint64_t len)
{
	if (phys >= MEM_SIZE || len > MEM_SIZE - phys)
		return NULL;
	return mem + phys;
}

static void put32(uint64_t at, uint32_t v)
{
	memcpy(mem + at, &v, 4);
}

static void put64(uint64_t at, uint64_t v)
{
	memcpy(mem + at, &v, 8);
}

static int parse(uint32_t magic, uint64_t phys)
{
	memset(&bi, 0x5a, sizeof(bi)); /* must be overwritten */
	memset(err, 'E', sizeof(err) - 1);
	err[sizeof(err) - 1] = '\0';
	return bootinfo_parse(magic, phys, map, &bi, err, sizeof(err));
}

static void setup(void)
{
	memset(mem, 0, sizeof(mem));
	mb2_off = 0;
}

#define ck_assert_err_has(s) \
	ck_assert_msg(strstr(err, (s)), "err \"%s\" lacks \"%s\"", err, (s))

/* ---- multiboot1 ---- */

/* A packed mmap entry with the given size field; returns bytes used. */
static uint32_t mb1_entry(uint64_t at, uint32_t size, uint64_t base,
			  uint64_t len, uint32_t type)
{
	put32(at, size);
	put64(at + 4, base);
	put64(at + 12, len);
	put32(at + 20, type);
	return 4 + size;
}

static void mb1_info(uint32_t flags, uint32_t cmdline, uint32_t mmap_addr,
		     uint32_t mmap_len)
{
	put32(MB1_INFO, flags);
	put32(MB1_INFO + 16, cmdline);
	put32(MB1_INFO + 44, mmap_len);
	put32(MB1_INFO + 48, mmap_addr);
}

START_TEST(mb1_valid)
{
	uint32_t len = 0;

	strcpy((char *)mem + MB1_CMDLINE, "selftest=all hz=1000");
	len += mb1_entry(MB1_MMAP + len, 20, 0, 0x9fc00, 1);
	len += mb1_entry(MB1_MMAP + len, 20, 0xf0000, 0x10000, 2);
	/* a larger size field: the extra bytes are skipped */
	len += mb1_entry(MB1_MMAP + len, 28, 0x100000, 0x7ee0000, 1);
	len += mb1_entry(MB1_MMAP + len, 20, 0xfffc0000ULL, 0x40000, 2);
	mb1_info(1u << 2 | 1u << 6, MB1_CMDLINE, MB1_MMAP, len);

	ck_assert_int_eq(parse(MULTIBOOT1_MAGIC, MB1_INFO), 0);
	ck_assert_str_eq(err, "");
	ck_assert_int_eq(bi.proto, 1);
	ck_assert_str_eq(bi.cmdline, "selftest=all hz=1000");
	ck_assert(!bi.cmdline_truncated);
	ck_assert_uint_eq(bi.nregions, 4);
	ck_assert(!bi.regions_truncated);
	ck_assert_uint_eq(bi.regions[0].base, 0);
	ck_assert_uint_eq(bi.regions[0].len, 0x9fc00);
	ck_assert_uint_eq(bi.regions[0].type, 1);
	ck_assert_uint_eq(bi.regions[1].type, 2);
	ck_assert_uint_eq(bi.regions[2].base, 0x100000);
	ck_assert_uint_eq(bi.regions[2].len, 0x7ee0000);
	ck_assert_uint_eq(bi.regions[3].base, 0xfffc0000ULL);
	ck_assert_uint_eq(bi.rsdp_len, 0);
}
END_TEST

START_TEST(mb1_no_flags)
{
	/* garbage in the fields must be ignored without their flag bits */
	mb1_info(0, 0xdeadbeef, 0xdeadbeef, 0xdeadbeef);
	ck_assert_int_eq(parse(MULTIBOOT1_MAGIC, MB1_INFO), 0);
	ck_assert_str_eq(bi.cmdline, "");
	ck_assert_uint_eq(bi.nregions, 0);
	ck_assert_uint_eq(bi.rsdp_len, 0);
}
END_TEST

/*
 * QEMU -kernel under qboot at 1024 CPUs: the loader sets the mmap flag but
 * the firmware's E820 gave nothing, so the map is empty; mem_lower and
 * mem_upper (QEMU's own) are the memory.
 */
START_TEST(mb1_empty_mmap_falls_back_to_meminfo)
{
	mb1_info(1u << 0 | 1u << 6, 0, MB1_MMAP, 0);
	put32(MB1_INFO + 4, 639);
	put32(MB1_INFO + 8, 511 * 1024);
	ck_assert_int_eq(parse(MULTIBOOT1_MAGIC, MB1_INFO), 0);
	ck_assert_uint_eq(bi.nregions, 2);
	ck_assert(bi.regions_from_meminfo);
	ck_assert_uint_eq(bi.regions[0].base, 0);
	ck_assert_uint_eq(bi.regions[0].len, 639 * 1024);
	ck_assert_uint_eq(bi.regions[0].type, 1);
	ck_assert_uint_eq(bi.regions[1].base, 0x100000);
	ck_assert_uint_eq(bi.regions[1].len, 511ULL << 20);
	ck_assert_uint_eq(bi.regions[1].type, 1);
}
END_TEST

START_TEST(mb1_meminfo_ignored_when_the_map_has_entries)
{
	uint32_t len = mb1_entry(MB1_MMAP, 20, 0x100000, 0x7ee0000, 1);

	mb1_info(1u << 0 | 1u << 6, 0, MB1_MMAP, len);
	put32(MB1_INFO + 4, 639);
	put32(MB1_INFO + 8, 4096);
	ck_assert_int_eq(parse(MULTIBOOT1_MAGIC, MB1_INFO), 0);
	ck_assert_uint_eq(bi.nregions, 1);
	ck_assert(!bi.regions_from_meminfo);
	ck_assert_uint_eq(bi.regions[0].len, 0x7ee0000);
}
END_TEST

START_TEST(mb1_info_out_of_range)
{
	ck_assert_int_eq(parse(MULTIBOOT1_MAGIC, MEM_SIZE), -22);
	ck_assert_err_has("multiboot1 info at 0x10000");
	/* flags readable, but the mmap fields (up to offset 52) are not */
	put32(MEM_SIZE - 8, 1u << 6);
	ck_assert_int_eq(parse(MULTIBOOT1_MAGIC, MEM_SIZE - 8), -22);
	ck_assert_err_has("outside mapped memory");
}
END_TEST

START_TEST(mb1_cmdline_out_of_range)
{
	mb1_info(1u << 2, 0xffffff00u, 0, 0);
	ck_assert_int_eq(parse(MULTIBOOT1_MAGIC, MB1_INFO), -22);
	ck_assert_err_has("bootinfo: multiboot1 cmdline at 0xffffff00");
}
END_TEST

START_TEST(mb1_cmdline_no_nul)
{
	memset(mem + MEM_SIZE - 16, 'x', 16);
	mb1_info(1u << 2, MEM_SIZE - 16, 0, 0);
	ck_assert_int_eq(parse(MULTIBOOT1_MAGIC, MB1_INFO), -22);
	ck_assert_err_has("byte 16 is outside mapped memory");
}
END_TEST

START_TEST(mb1_cmdline_truncated)
{
	memset(mem + MB1_CMDLINE, 'a', 600);
	mb1_info(1u << 2, MB1_CMDLINE, 0, 0);
	ck_assert_int_eq(parse(MULTIBOOT1_MAGIC, MB1_INFO), 0);
	ck_assert_uint_eq(strlen(bi.cmdline), BOOTINFO_CMDLINE_MAX - 1);
	ck_assert(bi.cmdline_truncated);

	/* exactly 511 characters still fit */
	mem[MB1_CMDLINE + 511] = '\0';
	ck_assert_int_eq(parse(MULTIBOOT1_MAGIC, MB1_INFO), 0);
	ck_assert_uint_eq(strlen(bi.cmdline), 511);
	ck_assert(!bi.cmdline_truncated);
}
END_TEST

START_TEST(mb1_mmap_stray_bytes)
{
	uint32_t len = mb1_entry(MB1_MMAP, 20, 0x100000, 0x1000, 1);

	mb1_info(1u << 6, 0, MB1_MMAP, len + 3);
	ck_assert_int_eq(parse(MULTIBOOT1_MAGIC, MB1_INFO), -22);
	ck_assert_str_eq(
		err,
		"bootinfo: multiboot1 mmap_length 27 leaves 3 stray bytes at offset 24");
}
END_TEST

START_TEST(mb1_mmap_entry_too_small)
{
	mb1_entry(MB1_MMAP, 0, 0, 0, 1);
	mb1_info(1u << 6, 0, MB1_MMAP, 48);
	ck_assert_int_eq(parse(MULTIBOOT1_MAGIC, MB1_INFO), -22);
	ck_assert_err_has("offset 0 has size 0 < 20");

	mb1_entry(MB1_MMAP, 20, 0, 0x1000, 1);
	mb1_entry(MB1_MMAP + 24, 16, 0, 0, 1);
	ck_assert_int_eq(parse(MULTIBOOT1_MAGIC, MB1_INFO), -22);
	ck_assert_err_has("offset 24 has size 16 < 20");
}
END_TEST

START_TEST(mb1_mmap_entry_overruns)
{
	mb1_entry(MB1_MMAP, 20, 0, 0x1000, 1);
	mb1_entry(MB1_MMAP + 24, 40, 0, 0x1000, 1);
	mb1_info(1u << 6, 0, MB1_MMAP, 48);
	ck_assert_int_eq(parse(MULTIBOOT1_MAGIC, MB1_INFO), -22);
	ck_assert_str_eq(
		err,
		"bootinfo: multiboot1 mmap entry at offset 24 (size 40) overruns mmap_length 48");
}
END_TEST

START_TEST(mb1_mmap_out_of_range)
{
	mb1_info(1u << 6, 0, MEM_SIZE - 24, 48);
	ck_assert_int_eq(parse(MULTIBOOT1_MAGIC, MB1_INFO), -22);
	ck_assert_err_has("multiboot1 mmap at 0xffe8 (48 bytes) is outside");

	/* 32-bit address + length past 4 GiB must not wrap */
	mb1_info(1u << 6, 0, 0xfffffff0u, 0x20);
	ck_assert_int_eq(parse(MULTIBOOT1_MAGIC, MB1_INFO), -22);
}
END_TEST

START_TEST(mb1_too_many_regions)
{
	uint32_t len = 0;

	for (unsigned i = 0; i < 70; i++)
		len += mb1_entry(MB1_MMAP + len, 20, i * 0x1000ULL, 0x1000, 1);
	mb1_info(1u << 6, 0, MB1_MMAP, len);
	ck_assert_int_eq(parse(MULTIBOOT1_MAGIC, MB1_INFO), 0);
	ck_assert_uint_eq(bi.nregions, BOOTINFO_MAX_REGIONS);
	ck_assert(bi.regions_truncated);
	ck_assert_uint_eq(bi.regions[63].base, 63 * 0x1000ULL);

	/* exactly 64 is not truncated */
	mb1_info(1u << 6, 0, MB1_MMAP, 64 * 24);
	ck_assert_int_eq(parse(MULTIBOOT1_MAGIC, MB1_INFO), 0);
	ck_assert_uint_eq(bi.nregions, 64);
	ck_assert(!bi.regions_truncated);
}
END_TEST

/* ---- multiboot2 ---- */

static void mb2_begin(void)
{
	mb2_off = 8;
}

/* Append a tag (header + payload), padded to 8; returns its offset. */
static uint32_t mb2_tag(uint32_t type, const void *payload, uint32_t len)
{
	uint32_t off = mb2_off;

	put32(MB2_INFO + off, type);
	put32(MB2_INFO + off + 4, 8 + len);
	if (len)
		memcpy(mem + MB2_INFO + off + 8, payload, len);
	mb2_off = (off + 8 + len + 7) & ~7u;
	return off;
}

static void mb2_end(void)
{
	mb2_tag(0, NULL, 0);
	put32(MB2_INFO, mb2_off);
	put32(MB2_INFO + 4, 0);
}

static void mb2_mmap(uint32_t entry_size, uint32_t entry_version, unsigned n,
		     uint32_t extra)
{
	uint8_t buf[8 + 100 * 32 + 16] = { 0 };

	memcpy(buf, &entry_size, 4);
	memcpy(buf + 4, &entry_version, 4);
	for (unsigned i = 0; i < n; i++) {
		uint8_t *e = buf + 8 + i * entry_size;
		uint64_t base = 0x100000ULL * (i + 1), len = 0x80000;
		uint32_t type = i % 2 ? 2 : 1;

		memcpy(e, &base, 8);
		memcpy(e + 8, &len, 8);
		memcpy(e + 16, &type, 4);
	}
	mb2_tag(6, buf, 8 + n * entry_size + extra);
}

static uint8_t rsdp_v1[20], rsdp_v2[36];

static void make_rsdps(void)
{
	memcpy(rsdp_v1, "RSD PTR ", 8);
	rsdp_v1[15] = 0; /* revision 0 */
	memcpy(rsdp_v2, "RSD PTR ", 8);
	rsdp_v2[15] = 2;
	for (unsigned i = 16; i < 36; i++)
		rsdp_v2[i] = (uint8_t)i;
}

START_TEST(mb2_valid)
{
	static const char cmd[] = "selftest=none nohz";
	uint8_t meminfo[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	make_rsdps();
	mb2_begin();
	mb2_tag(4, meminfo, sizeof(meminfo)); /* unknown: skipped */
	mb2_tag(1, cmd, sizeof(cmd));
	mb2_mmap(24, 0, 3, 0);
	mb2_tag(15, rsdp_v2, sizeof(rsdp_v2));
	mb2_tag(14, rsdp_v1, sizeof(rsdp_v1)); /* new one wins anyway */
	mb2_end();

	ck_assert_int_eq(parse(MULTIBOOT2_MAGIC, MB2_INFO), 0);
	ck_assert_str_eq(err, "");
	ck_assert_int_eq(bi.proto, 2);
	ck_assert_str_eq(bi.cmdline, cmd);
	ck_assert(!bi.cmdline_truncated);
	ck_assert_uint_eq(bi.nregions, 3);
	ck_assert(!bi.regions_truncated);
	ck_assert_uint_eq(bi.regions[0].base, 0x100000);
	ck_assert_uint_eq(bi.regions[0].len, 0x80000);
	ck_assert_uint_eq(bi.regions[0].type, 1);
	ck_assert_uint_eq(bi.regions[1].base, 0x200000);
	ck_assert_uint_eq(bi.regions[1].type, 2);
	ck_assert_uint_eq(bi.regions[2].base, 0x300000);
	ck_assert_uint_eq(bi.rsdp_len, 36);
	ck_assert_mem_eq(bi.rsdp, rsdp_v2, 36);
}
END_TEST

START_TEST(mb2_acpi_old_only)
{
	make_rsdps();
	mb2_begin();
	mb2_tag(14, rsdp_v1, sizeof(rsdp_v1));
	mb2_end();
	ck_assert_int_eq(parse(MULTIBOOT2_MAGIC, MB2_INFO), 0);
	ck_assert_uint_eq(bi.rsdp_len, 20);
	ck_assert_mem_eq(bi.rsdp, rsdp_v1, 20);
	ck_assert_str_eq(bi.cmdline, "");
	ck_assert_uint_eq(bi.nregions, 0);

	/* an old tag after a new one does not replace it */
	mb2_begin();
	mb2_tag(15, rsdp_v2, sizeof(rsdp_v2));
	mb2_tag(14, rsdp_v1, sizeof(rsdp_v1));
	mb2_end();
	ck_assert_int_eq(parse(MULTIBOOT2_MAGIC, MB2_INFO), 0);
	ck_assert_uint_eq(bi.rsdp_len, 36);
	ck_assert_mem_eq(bi.rsdp, rsdp_v2, 36);
}
END_TEST

START_TEST(mb2_acpi_too_short)
{
	make_rsdps();
	mb2_begin();
	mb2_tag(15, rsdp_v2, 20);
	mb2_end();
	ck_assert_int_eq(parse(MULTIBOOT2_MAGIC, MB2_INFO), -22);
	ck_assert_str_eq(
		err,
		"bootinfo: multiboot2 tag 15 at offset 8: RSDP of 20 bytes < 36");
}
END_TEST

START_TEST(mb2_mmap_larger_entries)
{
	mb2_begin();
	mb2_mmap(32, 1, 4, 0); /* future version, bigger entries */
	mb2_end();
	ck_assert_int_eq(parse(MULTIBOOT2_MAGIC, MB2_INFO), 0);
	ck_assert_uint_eq(bi.nregions, 4);
	ck_assert_uint_eq(bi.regions[3].base, 0x400000);
	ck_assert_uint_eq(bi.regions[3].type, 2);
}
END_TEST

START_TEST(mb2_tag_overruns_total)
{
	char cmd[48];

	memset(cmd, 'c', sizeof(cmd) - 1);
	cmd[sizeof(cmd) - 1] = '\0';
	mb2_begin();
	mb2_tag(1, cmd, sizeof(cmd)); /* offset 8, size 56 */
	mb2_mmap(24, 0, 3, 0);	      /* offset 64, size 88 */
	mb2_end();
	put32(MB2_INFO, 120);
	ck_assert_int_eq(parse(MULTIBOOT2_MAGIC, MB2_INFO), -22);
	ck_assert_str_eq(
		err,
		"bootinfo: multiboot2 tag 6 at offset 64 overruns total_size 120");
}
END_TEST

START_TEST(mb2_entry_size_bad)
{
	mb2_begin();
	mb2_mmap(0, 0, 0, 24);
	mb2_end();
	ck_assert_int_eq(parse(MULTIBOOT2_MAGIC, MB2_INFO), -22);
	ck_assert_str_eq(
		err,
		"bootinfo: multiboot2 tag 6 at offset 8: entry_size 0 < 24");

	mb2_begin();
	mb2_mmap(16, 0, 3, 0);
	mb2_end();
	ck_assert_int_eq(parse(MULTIBOOT2_MAGIC, MB2_INFO), -22);
	ck_assert_err_has("entry_size 16 < 24");
}
END_TEST

START_TEST(mb2_mmap_not_multiple)
{
	mb2_begin();
	mb2_mmap(24, 0, 2, 8);
	mb2_end();
	ck_assert_int_eq(parse(MULTIBOOT2_MAGIC, MB2_INFO), -22);
	ck_assert_str_eq(
		err,
		"bootinfo: multiboot2 tag 6 at offset 8: 56 bytes of entries is not a multiple of entry_size 24");
}
END_TEST

START_TEST(mb2_mmap_tag_too_small)
{
	uint32_t es = 24;

	mb2_begin();
	mb2_tag(6, &es, 4); /* no entry_version */
	mb2_end();
	ck_assert_int_eq(parse(MULTIBOOT2_MAGIC, MB2_INFO), -22);
	ck_assert_err_has("tag 6 at offset 8: size 12 < 16");
}
END_TEST

START_TEST(mb2_too_many_regions)
{
	mb2_begin();
	mb2_mmap(24, 0, 100, 0);
	mb2_end();
	ck_assert_int_eq(parse(MULTIBOOT2_MAGIC, MB2_INFO), 0);
	ck_assert_uint_eq(bi.nregions, BOOTINFO_MAX_REGIONS);
	ck_assert(bi.regions_truncated);
	ck_assert_uint_eq(bi.regions[63].base, 64 * 0x100000ULL);
}
END_TEST

START_TEST(mb2_bad_magic)
{
	mb2_begin();
	mb2_end();
	ck_assert_int_eq(parse(0x12345678, MB2_INFO), -22);
	ck_assert_str_eq(
		err,
		"bootinfo: bad magic 0x12345678 (expected multiboot1 0x2badb002 or multiboot2 0x36d76289)");
	/* the multiboot2 *header* magic is not a boot magic */
	ck_assert_int_eq(parse(0xe85250d6, MB2_INFO), -22);
}
END_TEST

START_TEST(mb2_total_size_small)
{
	put32(MB2_INFO, 4);
	ck_assert_int_eq(parse(MULTIBOOT2_MAGIC, MB2_INFO), -22);
	ck_assert_err_has("total_size 4 is too small");
	put32(MB2_INFO, 8);
	ck_assert_int_eq(parse(MULTIBOOT2_MAGIC, MB2_INFO), -22);
	ck_assert_err_has("total_size 8 is too small");
	put32(MB2_INFO, 0);
	ck_assert_int_eq(parse(MULTIBOOT2_MAGIC, MB2_INFO), -22);
}
END_TEST

START_TEST(mb2_total_size_unmapped)
{
	mb2_begin();
	mb2_end();
	put32(MB2_INFO, MEM_SIZE); /* runs past the buffer */
	ck_assert_int_eq(parse(MULTIBOOT2_MAGIC, MB2_INFO), -22);
	ck_assert_err_has("(total_size 65536) is outside mapped memory");
	put32(MB2_INFO, 0xffffffffu);
	ck_assert_int_eq(parse(MULTIBOOT2_MAGIC, MB2_INFO), -22);
	ck_assert_int_eq(parse(MULTIBOOT2_MAGIC, MEM_SIZE), -22);
	ck_assert_err_has("is outside mapped memory");
}
END_TEST

START_TEST(mb2_misaligned)
{
	/* a valid blob, but at a misaligned address */
	mb2_begin();
	mb2_end();
	memmove(mem + MB2_INFO + 4, mem + MB2_INFO, 16);
	ck_assert_int_eq(parse(MULTIBOOT2_MAGIC, MB2_INFO + 4), -22);
	ck_assert_str_eq(
		err,
		"bootinfo: multiboot2 info at 0x1004 is not 8-byte aligned");
}
END_TEST

START_TEST(mb2_misaligned_tag)
{
	uint8_t pad[4] = { 0 };

	/*
	 * A tag whose size is not a multiple of 8 followed directly by the
	 * next one (no padding): the parser must look at the aligned offset,
	 * find garbage/zero there, and not read the unaligned tag.
	 */
	mb2_begin();
	mb2_tag(4, pad, 4);	 /* size 12, next at 24 */
	put32(MB2_INFO + 20, 1); /* fake tag at 20: ignored */
	put32(MB2_INFO + 24, 7); /* a real tag at 24 */
	put32(MB2_INFO + 28, 0); /* with size 0 */
	put32(MB2_INFO, 48);
	ck_assert_int_eq(parse(MULTIBOOT2_MAGIC, MB2_INFO), -22);
	ck_assert_str_eq(
		err, "bootinfo: multiboot2 tag 7 at offset 24 has size 0 < 8");
}
END_TEST

START_TEST(mb2_no_end_tag)
{
	uint8_t pad[8] = { 0 };

	mb2_begin();
	mb2_tag(4, pad, 8);
	put32(MB2_INFO, mb2_off); /* ends right after it */
	ck_assert_int_eq(parse(MULTIBOOT2_MAGIC, MB2_INFO), -22);
	ck_assert_err_has("missing end tag");

	/* padding of the last tag runs past total_size */
	mb2_begin();
	mb2_tag(4, pad, 4);
	put32(MB2_INFO, 20);
	ck_assert_int_eq(parse(MULTIBOOT2_MAGIC, MB2_INFO), -22);
	ck_assert_err_has("missing end tag");

	/* header of the next tag straddles total_size */
	mb2_begin();
	mb2_tag(4, pad, 8);
	put32(MB2_INFO, 28);
	ck_assert_int_eq(parse(MULTIBOOT2_MAGIC, MB2_INFO), -22);
	ck_assert_str_eq(
		err,
		"bootinfo: multiboot2 tag header at offset 24 overruns total_size 28 (missing end tag?)");
}
END_TEST

START_TEST(mb2_huge_tag_size)
{
	mb2_begin();
	mb2_end();
	put32(MB2_INFO + 12, 0xfffffff8u); /* end tag claims 4 GiB */
	ck_assert_int_eq(parse(MULTIBOOT2_MAGIC, MB2_INFO), -22);
	ck_assert_err_has("tag 0 at offset 8 overruns total_size 16");
}
END_TEST

START_TEST(mb2_cmdline_no_nul)
{
	mb2_begin();
	mb2_tag(1, "abcdefgh", 8);
	mb2_end();
	ck_assert_int_eq(parse(MULTIBOOT2_MAGIC, MB2_INFO), -22);
	ck_assert_str_eq(
		err,
		"bootinfo: multiboot2 tag 1 at offset 8: cmdline is not NUL-terminated within the tag");
}
END_TEST

START_TEST(mb2_cmdline_truncated)
{
	char cmd[700];

	memset(cmd, 'q', sizeof(cmd) - 1);
	cmd[sizeof(cmd) - 1] = '\0';
	mb2_begin();
	mb2_tag(1, cmd, sizeof(cmd));
	mb2_tag(1, "second", 7); /* only the first counts */
	mb2_end();
	ck_assert_int_eq(parse(MULTIBOOT2_MAGIC, MB2_INFO), 0);
	ck_assert_uint_eq(strlen(bi.cmdline), BOOTINFO_CMDLINE_MAX - 1);
	ck_assert(bi.cmdline_truncated);
	ck_assert_int_eq(bi.cmdline[0], 'q');
}
END_TEST

START_TEST(err_buffer_handling)
{
	char small[8];

	/* tiny buffer: cut and terminated */
	memset(small, 'E', sizeof(small));
	ck_assert_int_eq(bootinfo_parse(0, 0, map, &bi, small, sizeof(small)),
			 -22);
	ck_assert_str_eq(small, "bootinf");
	/* no buffer at all */
	ck_assert_int_eq(bootinfo_parse(0, 0, map, &bi, NULL, 0), -22);
	mb2_begin();
	mb2_end();
	ck_assert_int_eq(bootinfo_parse(MULTIBOOT2_MAGIC, MB2_INFO, map, &bi,
					NULL, 0),
			 0);
	ck_assert_int_eq(bootinfo_parse(MULTIBOOT2_MAGIC, MB2_INFO, NULL, &bi,
					err, sizeof(err)),
			 -22);
}
END_TEST

static Suite *bootinfo_suite(void)
{
	Suite *s = suite_create("bootinfo");
	TCase *mb1 = tcase_create("multiboot1");
	TCase *mb2 = tcase_create("multiboot2");

	tcase_add_checked_fixture(mb1, setup, NULL);
	tcase_add_test(mb1, mb1_valid);
	tcase_add_test(mb1, mb1_no_flags);
	tcase_add_test(mb1, mb1_empty_mmap_falls_back_to_meminfo);
	tcase_add_test(mb1, mb1_meminfo_ignored_when_the_map_has_entries);
	tcase_add_test(mb1, mb1_info_out_of_range);
	tcase_add_test(mb1, mb1_cmdline_out_of_range);
	tcase_add_test(mb1, mb1_cmdline_no_nul);
	tcase_add_test(mb1, mb1_cmdline_truncated);
	tcase_add_test(mb1, mb1_mmap_stray_bytes);
	tcase_add_test(mb1, mb1_mmap_entry_too_small);
	tcase_add_test(mb1, mb1_mmap_entry_overruns);
	tcase_add_test(mb1, mb1_mmap_out_of_range);
	tcase_add_test(mb1, mb1_too_many_regions);
	suite_add_tcase(s, mb1);

	tcase_add_checked_fixture(mb2, setup, NULL);
	tcase_add_test(mb2, mb2_valid);
	tcase_add_test(mb2, mb2_acpi_old_only);
	tcase_add_test(mb2, mb2_acpi_too_short);
	tcase_add_test(mb2, mb2_mmap_larger_entries);
	tcase_add_test(mb2, mb2_tag_overruns_total);
	tcase_add_test(mb2, mb2_entry_size_bad);
	tcase_add_test(mb2, mb2_mmap_not_multiple);
	tcase_add_test(mb2, mb2_mmap_tag_too_small);
	tcase_add_test(mb2, mb2_too_many_regions);
	tcase_add_test(mb2, mb2_bad_magic);
	tcase_add_test(mb2, mb2_total_size_small);
	tcase_add_test(mb2, mb2_total_size_unmapped);
	tcase_add_test(mb2, mb2_misaligned);
	tcase_add_test(mb2, mb2_misaligned_tag);
	tcase_add_test(mb2, mb2_no_end_tag);
	tcase_add_test(mb2, mb2_huge_tag_size);
	tcase_add_test(mb2, mb2_cmdline_no_nul);
	tcase_add_test(mb2, mb2_cmdline_truncated);
	tcase_add_test(mb2, err_buffer_handling);
	suite_add_tcase(s, mb2);
	return s;
}

HOST_SUITE(bootinfo_suite);

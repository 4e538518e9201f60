/*
 * `selftest=acpi_dump` (explicit only): hex-dump the raw firmware and
 * loader data the kernel parsed at boot -- the RSDP, the RSDT/XSDT and
 * every table they list, and the multiboot information structure -- so
 * that tests/host/fuzz/seed_from_boot.py can turn real QEMU boots into
 * seed corpora for the host fuzzers (docs/fuzzing.md).
 *
 * Lines (all diagnostics, so KTAP readers skip them):
 *
 *   # dump_begin name=NAME phys=0xADDR len=N [key=value...]
 *   # dump_hex HEX            (up to 32 bytes, two lower-case digits each)
 *   # dump_end name=NAME
 *   # dump_info key=value...  (rsdp_phys=, ebda_seg=, magic=, ...)
 *
 * NAME is RSDP, RSDT, XSDT, a table signature (APIC, SRAT, ...; one
 * block per root entry, in root order), MBI (the multiboot information
 * structure: multiboot2's whole total_size, multiboot1's fixed 88-byte
 * part), MB1_CMDLINE and MB1_MMAP (the blocks multiboot1 points to).
 *
 * The loader's information may have been reused as free memory by the
 * time the self-tests run; mbi_is_intact re-parses it with the kernel's
 * own parser and skips (and the dump says mbi=clobbered) when it no
 * longer gives what boot saw.  The memory map the kernel kept is printed
 * either way (`# dump_info region=I base= len= type=`), so a seed can be
 * rebuilt from it.
 */
#include "drivers/acpi.h"
#include "kernel/boot.h"
#include "kernel/bootinfo.h"
#include "kernel/ktest.h"
#include "kernel/mm.h"
#include "kernel/printk.h"
#include "lib/string.h"

extern uint32_t boot_magic, boot_info_phys; /* boot/entry.S */

#define DUMP_MAX_LEN (64u * 1024) /* larger blocks are not dumped */
#define LIMIT_4G     (1ULL << 32)
#define MB1_INFO_LEN 88 /* through the VBE fields */

static const void *dump_map(uint64_t phys, uint64_t len)
{
	if (phys >= LIMIT_4G || len > LIMIT_4G - phys)
		return 0;
	return phys_to_virt(phys);
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static void hexdump(const char *name, uint64_t phys, const uint8_t *p,
		    uint32_t len, const char *extra)
{
	static const char digits[] = "0123456789abcdef";
	char line[2 * 32 + 1];

	printk("# dump_begin name=%s phys=0x%lx len=%u%s%s\n", name,
	       (unsigned long)phys, len, extra[0] ? " " : "", extra);
	for (uint32_t off = 0; off < len; off += 32) {
		uint32_t n = len - off < 32 ? len - off : 32, i;

		for (i = 0; i < n; i++) {
			line[2 * i] = digits[p[off + i] >> 4];
			line[2 * i + 1] = digits[p[off + i] & 15];
		}
		line[2 * n] = '\0';
		printk("# dump_hex %s\n", line);
	}
	printk("# dump_end name=%s\n", name);
}

/* Dump the table at @phys by its header length; false if unreadable. */
static bool dump_table(struct ktest *t, uint64_t phys, const char *want)
{
	const uint8_t *h = dump_map(phys, 36);
	char sig[5];
	uint32_t len;

	if (!h) {
		ktest_fail(t, __FILE__, __LINE__,
			   "table at 0x%lx is not mapped", (unsigned long)phys);
		return false;
	}
	len = rd32(h + 4);
	for (int i = 0; i < 4; i++)
		sig[i] = (h[i] >= 0x20 && h[i] < 0x7f) ? (char)h[i] : '?';
	sig[4] = '\0';
	if (want && memcmp(sig, want, 4)) {
		ktest_fail(t, __FILE__, __LINE__,
			   "%s at 0x%lx has signature %s", want,
			   (unsigned long)phys, sig);
		return false;
	}
	if (len < 36 || len > DUMP_MAX_LEN || !dump_map(phys, len)) {
		printk("# dump_info skipped=%s phys=0x%lx len=%u\n", sig,
		       (unsigned long)phys, len);
		return true;
	}
	hexdump(sig, phys, h, len, "");
	return true;
}

static void acpi_tables_are_dumped(struct ktest *t)
{
	uint64_t rsdp_phys = 0, root;
	const uint8_t *rsdp, *h;
	const uint8_t *seg = dump_map(0x40e, 2);
	uint32_t rsdp_len, esize, len;

	if (acpi_find_rsdp(dump_map, &rsdp_phys))
		rsdp_phys = 0;
	printk("# dump_info rsdp_phys=0x%lx ebda_seg=0x%x\n",
	       (unsigned long)rsdp_phys, seg ? seg[0] | seg[1] << 8 : 0);
	if (boot_info.rsdp_len) {
		rsdp = boot_info.rsdp;
		rsdp_len = boot_info.rsdp_len;
		hexdump("RSDP", rsdp_phys, rsdp, rsdp_len, "source=loader");
	} else if (rsdp_phys) {
		rsdp = dump_map(rsdp_phys, 36);
		rsdp_len = rsdp[15] >= 2 ? 36 : 20;
		hexdump("RSDP", rsdp_phys, rsdp, rsdp_len, "source=bios");
	} else {
		ktest_fail(t, __FILE__, __LINE__, "no RSDP");
		return;
	}
	if (rsdp_phys && boot_info.rsdp_len) {
		const uint8_t *b = dump_map(rsdp_phys, 36);

		hexdump("BIOS_RSDP", rsdp_phys, b, b[15] >= 2 ? 36 : 20,
			"source=bios");
	}
	if (rsdp[15] >= 2 && rsdp_len >= 36 && rd64(rsdp + 24)) {
		root = rd64(rsdp + 24);
		esize = 8;
		if (!dump_table(t, root, "XSDT"))
			return;
	} else {
		root = rd32(rsdp + 16);
		esize = 4;
		if (!dump_table(t, root, "RSDT"))
			return;
	}
	h = dump_map(root, 36);
	len = rd32(h + 4);
	for (uint32_t off = 36; off + esize <= len; off += esize) {
		uint64_t phys = esize == 8 ? rd64(h + off) : rd32(h + off);

		if (phys && !dump_table(t, phys, 0))
			return;
	}
}

/* What kmain kept against a fresh parse, the command line aside. */
static bool same_bootinfo(const struct bootinfo *a, const struct bootinfo *b)
{
	if (a->proto != b->proto || a->nregions != b->nregions ||
	    a->rsdp_len != b->rsdp_len || memcmp(a->rsdp, b->rsdp, a->rsdp_len))
		return false;
	for (unsigned i = 0; i < a->nregions; i++)
		if (a->regions[i].base != b->regions[i].base ||
		    a->regions[i].len != b->regions[i].len ||
		    a->regions[i].type != b->regions[i].type)
			return false;
	return true;
}

/* kmain's copy has multiboot1's image path stripped: a suffix, then. */
static bool same_cmdline(const char *kept, const char *again)
{
	size_t lk = strlen(kept), la = strlen(again);

	return lk <= la && !memcmp(kept, again + la - lk, lk);
}

/*
 * QEMU's multiboot1 command line sits above the kernel image, in memory
 * the page allocator has handed out by now; the information structure
 * and the memory map (low memory) survive.  So a clobbered command line
 * alone is reported (cmdline=clobbered) and the rest still dumped: the
 * seed script puts back the one the `# boot` line shows.
 */
static void mbi_is_intact(struct ktest *t)
{
	static struct bootinfo again;
	char err[160];
	const uint8_t *p;
	bool cmdline_ok;

	printk("# dump_info magic=0x%x mbi_phys=0x%x\n", boot_magic,
	       boot_info_phys);
	for (unsigned i = 0; i < boot_info.nregions; i++)
		printk("# dump_info region=%u base=0x%lx len=0x%lx type=%u\n",
		       i, (unsigned long)boot_info.regions[i].base,
		       (unsigned long)boot_info.regions[i].len,
		       boot_info.regions[i].type);
	if (bootinfo_parse(boot_magic, boot_info_phys, dump_map, &again, err,
			   sizeof(err)) ||
	    !same_bootinfo(&boot_info, &again)) {
		printk("# dump_info mbi=clobbered\n");
		ktest_skip(t, "the loader's information was reused as memory");
		return;
	}
	cmdline_ok = same_cmdline(boot_info.cmdline, again.cmdline);
	printk("# dump_info mbi=intact cmdline=%s\n",
	       cmdline_ok ? "intact" : "clobbered");
	if (boot_magic == MULTIBOOT2_MAGIC) {
		p = dump_map(boot_info_phys, 8);
		hexdump("MBI", boot_info_phys, p, rd32(p), "proto=2");
		return;
	}
	p = dump_map(boot_info_phys, MB1_INFO_LEN);
	hexdump("MBI", boot_info_phys, p, MB1_INFO_LEN, "proto=1");
	if ((rd32(p) & (1u << 2)) && cmdline_ok) {
		uint32_t c = rd32(p + 16);
		const char *s = dump_map(c, 1);

		hexdump("MB1_CMDLINE", c, (const uint8_t *)s,
			(uint32_t)strlen(s) + 1, "");
	}
	if (rd32(p) & (1u << 6)) {
		uint32_t len = rd32(p + 44), addr = rd32(p + 48);

		hexdump("MB1_MMAP", addr, dump_map(addr, len), len, "");
	}
}

static const struct ktest_case acpi_dump_cases[] = {
	KTEST_CASE(acpi_tables_are_dumped),
	KTEST_CASE(mbi_is_intact),
};

KTEST_SUITE(acpi_dump_suite, .name = "acpi_dump", .cases = acpi_dump_cases,
	    .ncases = sizeof(acpi_dump_cases) / sizeof(acpi_dump_cases[0]),
	    .explicit_only = true);

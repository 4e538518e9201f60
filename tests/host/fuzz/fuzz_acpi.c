// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/fuzz/fuzz_acpi.c - libFuzzer harness for drivers/acpi.c.
 *
 * Input (little-endian; docs/fuzzing.md has the same table):
 *
 *   0   u8   flags: bit 0 find the RSDP with acpi_find_rsdp() in a
 *                   synthetic BIOS area instead of passing the bytes
 *                   below; bit 1 fix up checksums first (RSDP, the root
 *                   table and each table it lists inside the image), so
 *                   mutations get past them
 *   1   u8   rsdp_len given to acpi_parse() (at most 36; find mode: 36)
 *   2   u16  cpus_cap (taken modulo FUZZ_MAX_CPUS + 1)
 *   4   u16  find mode: where the RSDP is put, in 16-byte slots: below
 *            8192 in 0xE0000-0xFFFFF, else in the EBDA's first KiB
 *   6   u16  find mode: the EBDA segment stored at 0x40E
 *   8   u64  physical address of the image's first byte
 *   16  36   RSDP bytes
 *   52  ...  the image: physical memory holding RSDT/XSDT and tables
 *
 * A map() succeeds when the range lies inside the image (or, in find
 * mode, inside the BIOS area or the 2 bytes at 0x40E) and returns an
 * exact-size copy (fuzz_util.h).  After a successful parse the results
 * are checked against the promises of drivers/acpi.h.
 */
#include <stdbool.h>

#include "drivers/acpi.h"
#include "lib/errno.h"
#include "tests/host/fuzz/fuzz_util.h"

#define FUZZ_MAX_CPUS 600
#define HDR_LEN	      16
#define RSDP_LEN      36
#define IMAGE_OFF     (HDR_LEN + RSDP_LEN)
#define BIOS_START    0xe0000u
#define BIOS_END      0x100000u
#define EBDA_LEN      1024u
#define LOW_MAP_MAX   64

static struct {
	const uint8_t *image;
	uint64_t base, len;
	bool find;
	uint8_t rsdp[RSDP_LEN];
	uint64_t rsdp_phys;
	uint16_t ebda_seg;
} in;

static struct acpi_cpu cpus[FUZZ_MAX_CPUS];
static struct acpi_topology topo;

static bool inside(uint64_t phys, uint64_t len, uint64_t start, uint64_t n)
{
	return phys >= start && phys - start <= n && len <= n - (phys - start);
}

/* Byte of the synthetic low memory: EBDA pointer, RSDP, else zero. */
static uint8_t low_byte(uint64_t a)
{
	if (a == 0x40e)
		return (uint8_t)in.ebda_seg;
	if (a == 0x40f)
		return (uint8_t)(in.ebda_seg >> 8);
	if (a >= in.rsdp_phys && a < in.rsdp_phys + RSDP_LEN)
		return in.rsdp[a - in.rsdp_phys];
	return 0;
}

static const void *map(uint64_t phys, uint64_t len)
{
	if (inside(phys, len, in.base, in.len))
		return fuzz_copy(in.image + (phys - in.base), len);
	if (in.find &&
	    (inside(phys, len, 0x40e, 2) ||
	     inside(phys, len, BIOS_START, BIOS_END - BIOS_START) ||
	     inside(phys, len, (uint64_t)in.ebda_seg << 4, EBDA_LEN))) {
		static uint8_t *zeros[LOW_MAP_MAX + 1];
		uint8_t buf[LOW_MAP_MAX];
		bool zero = true;

		/* the parser maps 2, 20, 36 or the RSDP's length */
		if (len > LOW_MAP_MAX)
			return NULL;
		if (phys < in.rsdp_phys + RSDP_LEN && phys + len > in.rsdp_phys)
			zero = false;
		if (phys < 0x410 && phys + len > 0x40e)
			zero = false;
		for (uint64_t i = 0; !zero && i < len; i++)
			buf[i] = low_byte(phys + i);
		if (!zero)
			return fuzz_copy(buf, len);
		/*
		 * Most of the 8192 slots scanned are empty: share one
		 * exact-size zeroed block per length (never freed, never
		 * written) instead of a copy each.
		 */
		if (!zeros[len]) {
			zeros[len] = calloc(1, len ? len : 1);
			if (!zeros[len])
				abort();
		}
		return zeros[len];
	}
	return NULL;
}

static void fix_sum(uint8_t *p, uint64_t len, uint64_t at)
{
	uint8_t s = 0;

	p[at] = 0;
	for (uint64_t i = 0; i < len; i++)
		s += p[i];
	p[at] = (uint8_t)-s;
}

/* The table at @phys, if its header and length fit the image. */
static uint8_t *image_table(uint8_t *img, uint64_t phys, uint32_t *len)
{
	if (!inside(phys, 36, in.base, in.len))
		return NULL;
	*len = fuzz_le32(img + (phys - in.base) + 4);
	if (*len < 36 || !inside(phys, *len, in.base, in.len))
		return NULL;
	return img + (phys - in.base);
}

static void fix_checksums(uint8_t *img)
{
	uint8_t *r = in.rsdp, *root, *t;
	uint32_t len, tlen, esize = 4;
	uint64_t root_phys = fuzz_le32(r + 16);

	fix_sum(r, 20, 8);
	if (r[15] >= 2) {
		len = fuzz_le32(r + 20);
		if (len >= RSDP_LEN && len <= RSDP_LEN)
			fix_sum(r, len, 32);
		if (fuzz_le64(r + 24)) {
			root_phys = fuzz_le64(r + 24);
			esize = 8;
		}
	}
	root = image_table(img, root_phys, &len);
	if (!root)
		return;
	for (uint32_t off = 36; off + esize <= len; off += esize) {
		uint64_t phys = esize == 8 ? fuzz_le64(root + off) :
					     fuzz_le32(root + off);

		t = image_table(img, phys, &tlen);
		if (t && t != root)
			fix_sum(t, tlen, 9);
	}
	fix_sum(root, len, 9);
}

static void check_result(void)
{
	FUZZ_CHECK(topo.cpus == cpus);
	FUZZ_CHECK(topo.ncpus <= topo.cpus_cap);
	FUZZ_CHECK(topo.ncpus <= topo.ncpus_present);
	FUZZ_CHECK(topo.cpus_truncated == (topo.ncpus_present > topo.ncpus));
	FUZZ_CHECK(topo.nnodes >= 1);
	FUZZ_CHECK(topo.nnodes <= (topo.ncpus ? topo.ncpus : 1));
	FUZZ_CHECK(topo.nioapics <= ACPI_MAX_IOAPICS);
	FUZZ_CHECK(topo.noverrides <= ACPI_MAX_OVERRIDES);
	FUZZ_CHECK(topo.nmem <= ACPI_MAX_MEM_RANGES);
	FUZZ_CHECK(topo.slit_n <= ACPI_SLIT_MAX);
	FUZZ_CHECK(topo.slit_n <= topo.slit_localities);
	FUZZ_CHECK(topo.have_slit || topo.slit_n == 0);
	for (unsigned i = 0; i < topo.ncpus; i++) {
		FUZZ_CHECK(cpus[i].node < topo.nnodes);
		FUZZ_CHECK(topo.have_srat || !cpus[i].srat_found);
		FUZZ_CHECK(cpus[i].srat_found || cpus[i].node == 0);
		/* nodes are numbered in increasing domain order */
		for (unsigned j = 0; j < topo.ncpus; j++)
			if (cpus[i].srat_found && cpus[j].srat_found)
				FUZZ_CHECK((cpus[i].proximity_domain <
					    cpus[j].proximity_domain) ==
					   (cpus[i].node < cpus[j].node));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char err[160];
	uint8_t *img;
	const void *rsdp;
	size_t rsdp_len;
	uint64_t found;
	int ret;

	if (size < IMAGE_OFF)
		return -1; /* not a valid input: keep it out of the corpus */
	memset(&in, 0, sizeof(in));
	in.find = data[0] & 1;
	rsdp_len = data[1] > RSDP_LEN ? RSDP_LEN : data[1];
	topo.cpus = cpus;
	topo.cpus_cap = fuzz_le16(data + 2) % (FUZZ_MAX_CPUS + 1);
	in.ebda_seg = fuzz_le16(data + 6);
	in.base = fuzz_le64(data + 8);
	memcpy(in.rsdp, data + HDR_LEN, RSDP_LEN);
	in.len = size - IMAGE_OFF;
	/* an exact-size copy: ASan sees any read past the image */
	img = malloc(in.len ? in.len : 1);
	if (!img)
		abort();
	memcpy(img, data + IMAGE_OFF, in.len);
	in.image = img;
	if (data[0] & 2)
		fix_checksums(img);

	if (in.find) {
		uint16_t slot = fuzz_le16(data + 4);

		if (slot < (BIOS_END - BIOS_START) / 16)
			in.rsdp_phys = BIOS_START + 16u * slot;
		else
			in.rsdp_phys = ((uint64_t)in.ebda_seg << 4) +
				       16u * (slot % (EBDA_LEN / 16));
		if (acpi_find_rsdp(map, &found)) {
			if (fuzz_debug())
				fprintf(stderr, "acpi_find_rsdp: none\n");
			goto out;
		}
		FUZZ_CHECK(found % 16 == 0);
		/* as kernel/topology.c does */
		rsdp_len = RSDP_LEN;
		rsdp = map(found, rsdp_len);
		if (!rsdp)
			goto out;
	} else {
		rsdp = fuzz_copy(in.rsdp, rsdp_len);
	}
	ret = acpi_parse(map, rsdp, rsdp_len, &topo, err, sizeof(err));
	FUZZ_CHECK_STR(err, sizeof(err));
	if (fuzz_debug())
		fprintf(stderr,
			"acpi_parse: %d %s cpus=%u/%u nodes=%u srat=%d "
			"slit=%llu ioapics=%u overrides=%u mem=%u\n",
			ret, err, topo.ncpus, topo.ncpus_present, topo.nnodes,
			topo.have_srat,
			(unsigned long long)topo.slit_localities, topo.nioapics,
			topo.noverrides, topo.nmem);
	if (ret == 0) {
		FUZZ_CHECK(err[0] == '\0');
		check_result();
	} else {
		FUZZ_CHECK(ret == -EINVAL && err[0] != '\0');
		FUZZ_CHECK(topo.ncpus == 0 && topo.nnodes == 1);
	}
	/*
	 * An error again, into a too-small buffer (still terminated) and
	 * into none; done for errors only, as only they write a message.
	 */
	if (ret) {
		char *small = malloc(8);

		if (!small)
			abort();
		FUZZ_CHECK(acpi_parse(map, rsdp, rsdp_len, &topo, small, 8) ==
			   ret);
		FUZZ_CHECK_STR(small, 8);
		free(small);
		FUZZ_CHECK(acpi_parse(map, rsdp, rsdp_len, &topo, NULL, 0) ==
			   ret);
	}
out:
	fuzz_unmap_all();
	free(img);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/fuzz/fuzz_bootinfo.c - libFuzzer harness for kernel/bootinfo.c.
 *
 * Input (little-endian; docs/fuzzing.md has the same table):
 *
 *   0   u8   magic: 0 multiboot1, 1 multiboot2, 2 the u32 at 4, 3 multiboot2
 *   1   3    unused
 *   4   u32  raw magic (selector 2)
 *   8   u64  info_phys handed to bootinfo_parse()
 *   16  ...  up to 16 chunks of physical memory, each
 *            u64 phys, u16 len, then len bytes (cut at the input's end)
 *
 * A map() succeeds when the range lies inside one chunk and returns an
 * exact-size copy (fuzz_util.h).  Chunks let a seed keep the loader's
 * real layout: multiboot1's information, memory map and command line sit
 * at unrelated addresses.  After a successful parse the result is checked
 * against the promises of kernel/bootinfo.h.
 */
#include <stdbool.h>

#include "kernel/bootinfo.h"
#include "lib/errno.h"
#include "tests/host/fuzz/fuzz_util.h"

#define HDR_LEN	   16
#define MAX_CHUNKS 16

static struct chunk {
	uint64_t phys;
	uint64_t len;
	const uint8_t *p;
} chunks[MAX_CHUNKS];
static unsigned nchunks;

static const void *map(uint64_t phys, uint64_t len)
{
	for (unsigned i = 0; i < nchunks; i++) {
		const struct chunk *c = &chunks[i];

		if (phys >= c->phys && phys - c->phys <= c->len &&
		    len <= c->len - (phys - c->phys))
			return fuzz_copy(c->p + (phys - c->phys), len);
	}
	return NULL;
}

static void check_result(const struct bootinfo *bi, uint32_t magic)
{
	size_t n = strnlen(bi->cmdline, sizeof(bi->cmdline));

	FUZZ_CHECK(n < sizeof(bi->cmdline));
	FUZZ_CHECK(bi->proto == (magic == MULTIBOOT1_MAGIC ? 1 : 2));
	FUZZ_CHECK(bi->cmdline_truncated ? n == BOOTINFO_CMDLINE_MAX - 1 :
					   true);
	FUZZ_CHECK(bi->nregions <= BOOTINFO_MAX_REGIONS);
	FUZZ_CHECK(!bi->regions_truncated ||
		   bi->nregions == BOOTINFO_MAX_REGIONS);
	FUZZ_CHECK(bi->rsdp_len == 0 || bi->rsdp_len == 20 ||
		   bi->rsdp_len == 36);
	FUZZ_CHECK(bi->proto == 2 || bi->rsdp_len == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct bootinfo bi;
	static const uint32_t magics[] = {
		MULTIBOOT1_MAGIC,
		MULTIBOOT2_MAGIC,
		0,
		MULTIBOOT2_MAGIC,
	};
	uint8_t *copy;
	char err[160], *small;
	uint32_t magic;
	uint64_t info;
	size_t off;
	int ret;

	if (size < HDR_LEN)
		return -1;
	magic = magics[data[0] & 3];
	if ((data[0] & 3) == 2)
		magic = fuzz_le32(data + 4);
	info = fuzz_le64(data + 8);
	/* one exact-size copy of the input: chunk bytes end where it ends */
	copy = malloc(size);
	if (!copy)
		abort();
	memcpy(copy, data, size);
	nchunks = 0;
	for (off = HDR_LEN; off + 10 <= size && nchunks < MAX_CHUNKS;) {
		struct chunk *c = &chunks[nchunks++];
		uint64_t len = fuzz_le16(copy + off + 8);

		c->phys = fuzz_le64(copy + off);
		off += 10;
		if (len > size - off)
			len = size - off;
		c->len = len;
		c->p = copy + off;
		off += len;
	}

	ret = bootinfo_parse(magic, info, map, &bi, err, sizeof(err));
	FUZZ_CHECK_STR(err, sizeof(err));
	if (fuzz_debug())
		fprintf(stderr,
			"bootinfo_parse: %d %s proto=%d cmdline=\"%s\" "
			"regions=%u rsdp=%u\n",
			ret, err, bi.proto, bi.cmdline, bi.nregions,
			bi.rsdp_len);
	if (ret == 0) {
		FUZZ_CHECK(err[0] == '\0');
		check_result(&bi, magic);
	} else {
		FUZZ_CHECK(ret == -EINVAL && err[0] != '\0');
	}
	/* an error again, into a too-small buffer (still terminated) */
	if (ret) {
		small = malloc(5);
		if (!small)
			abort();
		FUZZ_CHECK(bootinfo_parse(magic, info, map, &bi, small, 5) ==
			   ret);
		FUZZ_CHECK_STR(small, 5);
		free(small);
		FUZZ_CHECK(bootinfo_parse(magic, info, map, &bi, NULL, 0) ==
			   ret);
	}
	fuzz_unmap_all();
	free(copy);
	return 0;
}

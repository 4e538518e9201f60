// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/bootinfo.c - multiboot1 / multiboot2 boot information parser.
 *
 * Everything the loader hands over is treated as untrusted input: each
 * structure is mapped through the caller's translator with its full length
 * before it is read, every length and count is checked against the
 * enclosing structure, and all multi-byte fields are read byte-wise (the
 * multiboot1 memory map is packed, so its 64-bit fields are unaligned).
 *
 * Rules:
 *  - the first problem stops parsing with -EINVAL and one line in err
 *    (no trailing newline), e.g. "bootinfo: multiboot2 tag 6 at offset 64
 *    overruns total_size 120"; *out is then unspecified;
 *  - a command line longer than BOOTINFO_CMDLINE_MAX - 1 characters is cut
 *    and cmdline_truncated is set; a missing one gives "";
 *  - memory map entries are kept in loader order, unsorted and unmerged
 *    (zero-length entries included); entries past BOOTINFO_MAX_REGIONS are
 *    dropped and regions_truncated is set;
 *  - multiboot1: a memory map that is missing or empty while mem_lower and
 *    mem_upper are given becomes the two type 1 regions those name (low
 *    RAM, and RAM from 1 MiB), with regions_from_meminfo set.  QEMU's
 *    loader fills those two fields itself, but the map through the
 *    firmware's INT 15h E820, which qboot answered with no entries at 1024
 *    CPUs (QEMU 10.0.2; 8 CPUs get a full map);
 *  - multiboot2: only the first cmdline and the first memory map tag are
 *    used; an ACPI new (tag 15) RSDP wins over an old (tag 14) one whatever
 *    their order; unknown tags are skipped; an end tag is required.
 *
 * References: Multiboot Specification 0.6.96 (section 3.3) and Multiboot2
 * Specification 2.0 (section 3.6).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/bootinfo.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"

/* multiboot1 info: flag bits and field offsets */
#define MB1_FLAG_MEM	    (1u << 0)
#define MB1_FLAG_CMDLINE    (1u << 2)
#define MB1_FLAG_MMAP	    (1u << 6)
#define MB1_OFF_MEM_LOWER   4
#define MB1_OFF_MEM_UPPER   8
#define MB1_OFF_CMDLINE	    16
#define MB1_HIGH_MEM	    0x100000u /* mem_upper counts from 1 MiB */
#define MB1_OFF_MMAP_LENGTH 44
#define MB1_OFF_MMAP_ADDR   48
#define MB1_MMAP_ENTRY_MIN  20 /* base(8) + len(8) + type(4) */

/* multiboot2 info: header, tag types and sizes */
#define MB2_HDR_SIZE	   8 /* total_size, reserved */
#define MB2_TAG_HDR_SIZE   8 /* type, size */
#define MB2_TAG_ALIGN	   8
#define MB2_TAG_END	   0
#define MB2_TAG_CMDLINE	   1
#define MB2_TAG_MMAP	   6
#define MB2_TAG_ACPI_OLD   14
#define MB2_TAG_ACPI_NEW   15
#define MB2_MMAP_HDR_SIZE  16 /* tag hdr + entry_size + entry_version */
#define MB2_MMAP_ENTRY_MIN 24 /* base(8) + len(8) + type(4) + rsvd(4) */
#define ACPI_RSDP_V1_SIZE  20
#define ACPI_RSDP_V2_SIZE  36

/* Give up looking for a multiboot1 cmdline's NUL after this many bytes. */
#define MB1_CMDLINE_SCAN_MAX 0x10000u /* 64 KiB */

struct parse_ctx {
	phys_map_fn map;
	struct bootinfo *out;
	char *err;
	size_t errlen;
};

static __printf_fmt(2, 3) int fail(struct parse_ctx *c, const char *fmt, ...)
{
	va_list ap;

	if (c->err && c->errlen) {
		va_start(ap, fmt);
		vsnprintf(c->err, c->errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static uint32_t ld32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t ld64(const uint8_t *p)
{
	return (uint64_t)ld32(p) | (uint64_t)ld32(p + 4) << 32;
}

/* Map [phys, phys + len), refusing ranges that wrap around 2^64. */
static const uint8_t *map_range(struct parse_ctx *c, uint64_t phys,
				uint64_t len)
{
	if (len == 0 || phys + len < phys)
		return NULL;
	return c->map(phys, len);
}

static void add_region(struct bootinfo *bi, uint64_t base, uint64_t len,
		       uint32_t type)
{
	struct mem_region *r;

	if (bi->nregions >= BOOTINFO_MAX_REGIONS) {
		bi->regions_truncated = true;
		return;
	}
	r = &bi->regions[bi->nregions++];
	r->base = base;
	r->len = len;
	r->type = type;
}

static bool memchr_nul(const uint8_t *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!s[i])
			return true;
	return false;
}

/* Copy up to @len bytes of @s (stopping at a NUL) into out->cmdline. */
static void set_cmdline(struct bootinfo *bi, const uint8_t *s, size_t len)
{
	size_t n = 0;

	while (n < len && s[n])
		n++;
	if (n > BOOTINFO_CMDLINE_MAX - 1) {
		n = BOOTINFO_CMDLINE_MAX - 1;
		bi->cmdline_truncated = true;
	}
	memcpy(bi->cmdline, s, n);
	bi->cmdline[n] = '\0';
}

/*
 * The multiboot1 command line is a bare physical pointer to a C string of
 * unknown length: map it byte by byte until its NUL.
 */
static int mb1_cmdline(struct parse_ctx *c, uint64_t phys)
{
	struct bootinfo *bi = c->out;
	uint64_t i;

	for (i = 0; i < MB1_CMDLINE_SCAN_MAX; i++) {
		const uint8_t *p = map_range(c, phys + i, 1);

		if (!p)
			return fail(
				c,
				"bootinfo: multiboot1 cmdline at 0x%llx: byte %llu is outside mapped memory (no NUL before it)",
				(unsigned long long)phys,
				(unsigned long long)i);
		if (*p == '\0')
			break;
		if (i < BOOTINFO_CMDLINE_MAX - 1)
			bi->cmdline[i] = (char)*p;
		else
			bi->cmdline_truncated = true;
	}
	if (i == MB1_CMDLINE_SCAN_MAX)
		bi->cmdline_truncated = true;
	if (i > BOOTINFO_CMDLINE_MAX - 1)
		i = BOOTINFO_CMDLINE_MAX - 1;
	bi->cmdline[i] = '\0';
	return 0;
}

static int mb1_mmap(struct parse_ctx *c, uint64_t addr, uint32_t length)
{
	const uint8_t *m;
	uint32_t off = 0;

	if (length == 0)
		return 0;
	m = map_range(c, addr, length);
	if (!m)
		return fail(
			c,
			"bootinfo: multiboot1 mmap at 0x%llx (%u bytes) is outside mapped memory",
			(unsigned long long)addr, length);

	while (off < length) {
		uint32_t size;

		if (length - off < 4)
			return fail(
				c,
				"bootinfo: multiboot1 mmap_length %u leaves %u stray bytes at offset %u",
				length, length - off, off);
		size = ld32(m + off);
		if (size < MB1_MMAP_ENTRY_MIN)
			return fail(
				c,
				"bootinfo: multiboot1 mmap entry at offset %u has size %u < %u",
				off, size, MB1_MMAP_ENTRY_MIN);
		if (size > length - off - 4)
			return fail(
				c,
				"bootinfo: multiboot1 mmap entry at offset %u (size %u) overruns mmap_length %u",
				off, size, length);
		add_region(c->out, ld64(m + off + 4), ld64(m + off + 12),
			   ld32(m + off + 20));
		off += 4 + size;
	}
	return 0;
}

/* mem_lower and mem_upper are KiB below 640 KiB and from 1 MiB. */
static void mb1_meminfo(struct bootinfo *bi, uint32_t lower_kib,
			uint32_t upper_kib)
{
	if (lower_kib)
		add_region(bi, 0, (uint64_t)lower_kib << 10,
			   MEM_REGION_AVAILABLE);
	if (upper_kib)
		add_region(bi, MB1_HIGH_MEM, (uint64_t)upper_kib << 10,
			   MEM_REGION_AVAILABLE);
	bi->regions_from_meminfo = bi->nregions > 0;
}

static int parse_mb1(struct parse_ctx *c, uint64_t info_phys)
{
	const uint8_t *info;
	uint32_t flags, need = 4;
	int ret;

	info = map_range(c, info_phys, 4);
	if (!info)
		return fail(
			c,
			"bootinfo: multiboot1 info at 0x%llx is outside mapped memory",
			(unsigned long long)info_phys);
	flags = ld32(info);
	if (flags & MB1_FLAG_CMDLINE)
		need = MB1_OFF_CMDLINE + 4;
	if (flags & MB1_FLAG_MMAP)
		need = MB1_OFF_MMAP_ADDR + 4;
	else if ((flags & MB1_FLAG_MEM) && need < MB1_OFF_MEM_UPPER + 4)
		need = MB1_OFF_MEM_UPPER + 4;
	info = map_range(c, info_phys, need);
	if (!info)
		return fail(
			c,
			"bootinfo: multiboot1 info at 0x%llx (%u bytes for flags 0x%x) is outside mapped memory",
			(unsigned long long)info_phys, need, flags);

	if (flags & MB1_FLAG_CMDLINE) {
		ret = mb1_cmdline(c, ld32(info + MB1_OFF_CMDLINE));
		if (ret)
			return ret;
	}
	if (flags & MB1_FLAG_MMAP) {
		ret = mb1_mmap(c, ld32(info + MB1_OFF_MMAP_ADDR),
			       ld32(info + MB1_OFF_MMAP_LENGTH));
		if (ret)
			return ret;
	}
	if ((flags & MB1_FLAG_MEM) && c->out->nregions == 0)
		mb1_meminfo(c->out, ld32(info + MB1_OFF_MEM_LOWER),
			    ld32(info + MB1_OFF_MEM_UPPER));
	return 0;
}

static int mb2_mmap(struct parse_ctx *c, const uint8_t *tag, uint32_t off,
		    uint32_t size)
{
	uint32_t entry_size, body, i;

	if (size < MB2_MMAP_HDR_SIZE)
		return fail(
			c,
			"bootinfo: multiboot2 tag 6 at offset %u: size %u < %u",
			off, size, MB2_MMAP_HDR_SIZE);
	entry_size = ld32(tag + 8);
	/* entry_version (tag + 12) is ignored: newer ones only extend */
	if (entry_size < MB2_MMAP_ENTRY_MIN)
		return fail(
			c,
			"bootinfo: multiboot2 tag 6 at offset %u: entry_size %u < %u",
			off, entry_size, MB2_MMAP_ENTRY_MIN);
	body = size - MB2_MMAP_HDR_SIZE;
	if (body % entry_size)
		return fail(
			c,
			"bootinfo: multiboot2 tag 6 at offset %u: %u bytes of entries is not a multiple of entry_size %u",
			off, body, entry_size);
	for (i = 0; i < body / entry_size; i++) {
		const uint8_t *e =
			tag + MB2_MMAP_HDR_SIZE + (size_t)i * entry_size;

		add_region(c->out, ld64(e), ld64(e + 8), ld32(e + 16));
	}
	return 0;
}

static int mb2_acpi(struct parse_ctx *c, const uint8_t *tag, uint32_t off,
		    uint32_t type, uint32_t size)
{
	struct bootinfo *bi = c->out;
	uint32_t want = type == MB2_TAG_ACPI_NEW ? ACPI_RSDP_V2_SIZE :
						   ACPI_RSDP_V1_SIZE;

	if (size - MB2_TAG_HDR_SIZE < want)
		return fail(
			c,
			"bootinfo: multiboot2 tag %u at offset %u: RSDP of %u bytes < %u",
			type, off, size - MB2_TAG_HDR_SIZE, want);
	/* keep a v2 RSDP over a v1 one, and the first of each kind */
	if (bi->rsdp_len >= want)
		return 0;
	memcpy(bi->rsdp, tag + MB2_TAG_HDR_SIZE, want);
	bi->rsdp_len = want;
	return 0;
}

/*
 * Map the whole multiboot2 information, *@total bytes; NULL (said through
 * fail(), so the error is -EINVAL) when it is malformed or unmapped.
 */
static const uint8_t *mb2_map_info(struct parse_ctx *c, uint64_t info_phys,
				   uint32_t *total)
{
	const uint8_t *info;

	if (info_phys % MB2_TAG_ALIGN) {
		fail(c,
		     "bootinfo: multiboot2 info at 0x%llx is not %u-byte aligned",
		     (unsigned long long)info_phys, MB2_TAG_ALIGN);
		return NULL;
	}
	info = map_range(c, info_phys, MB2_HDR_SIZE);
	if (!info) {
		fail(c,
		     "bootinfo: multiboot2 info at 0x%llx is outside mapped memory",
		     (unsigned long long)info_phys);
		return NULL;
	}
	*total = ld32(info);
	if (*total < MB2_HDR_SIZE + MB2_TAG_HDR_SIZE) {
		fail(c,
		     "bootinfo: multiboot2 total_size %u is too small (< %u, no room for the end tag)",
		     *total, MB2_HDR_SIZE + MB2_TAG_HDR_SIZE);
		return NULL;
	}
	info = map_range(c, info_phys, *total);
	if (!info)
		fail(c,
		     "bootinfo: multiboot2 info at 0x%llx (total_size %u) is outside mapped memory",
		     (unsigned long long)info_phys, *total);
	return info;
}

/* The type and size of the tag at @off, checked against @total. */
static int mb2_tag_header(struct parse_ctx *c, const uint8_t *info,
			  uint32_t total, uint32_t off, uint32_t *type,
			  uint32_t *size)
{
	const uint8_t *tag = info + off;

	if (total - off < MB2_TAG_HDR_SIZE)
		return fail(
			c,
			"bootinfo: multiboot2 tag header at offset %u overruns total_size %u (missing end tag?)",
			off, total);
	*type = ld32(tag);
	*size = ld32(tag + 4);
	if (*size < MB2_TAG_HDR_SIZE)
		return fail(
			c,
			"bootinfo: multiboot2 tag %u at offset %u has size %u < %u",
			*type, off, *size, MB2_TAG_HDR_SIZE);
	if (*size > total - off)
		return fail(
			c,
			"bootinfo: multiboot2 tag %u at offset %u overruns total_size %u",
			*type, off, total);
	return 0;
}

/* Every cmdline tag is checked; only the @first one is taken. */
static int mb2_cmdline(struct parse_ctx *c, const uint8_t *tag, uint32_t off,
		       uint32_t size, bool first)
{
	const uint8_t *s = tag + MB2_TAG_HDR_SIZE;
	size_t len = size - MB2_TAG_HDR_SIZE;

	if (!memchr_nul(s, len))
		return fail(
			c,
			"bootinfo: multiboot2 tag 1 at offset %u: cmdline is not NUL-terminated within the tag",
			off);
	if (first)
		set_cmdline(c->out, s, len);
	return 0;
}

/* Which one-per-boot tags were taken: the first of each is used. */
struct mb2_seen {
	bool cmdline, mmap;
};

/* Take the tag at @off (not the end tag) into c->out. */
static int mb2_tag(struct parse_ctx *c, const uint8_t *tag, uint32_t off,
		   uint32_t type, uint32_t size, struct mb2_seen *seen)
{
	int ret = 0;

	switch (type) {
	case MB2_TAG_CMDLINE:
		ret = mb2_cmdline(c, tag, off, size, !seen->cmdline);
		seen->cmdline = true;
		break;
	case MB2_TAG_MMAP:
		if (!seen->mmap)
			ret = mb2_mmap(c, tag, off, size);
		seen->mmap = true;
		break;
	case MB2_TAG_ACPI_OLD:
	case MB2_TAG_ACPI_NEW:
		ret = mb2_acpi(c, tag, off, type, size);
		break;
	default:
		break;
	}
	return ret;
}

static int parse_mb2(struct parse_ctx *c, uint64_t info_phys)
{
	struct mb2_seen seen = { false, false };
	const uint8_t *info;
	uint32_t total = 0, off;
	int ret;

	info = mb2_map_info(c, info_phys, &total);
	if (!info)
		return -EINVAL;
	for (off = MB2_HDR_SIZE;;) {
		uint32_t type = 0, size = 0;
		uint64_t next;

		ret = mb2_tag_header(c, info, total, off, &type, &size);
		if (ret)
			return ret;
		if (type == MB2_TAG_END)
			return 0;
		ret = mb2_tag(c, info + off, off, type, size, &seen);
		if (ret)
			return ret;
		/* the next tag starts at the next 8-byte boundary */
		next = ((uint64_t)off + size + MB2_TAG_ALIGN - 1) &
		       ~(uint64_t)(MB2_TAG_ALIGN - 1);
		if (next >= total)
			return fail(
				c,
				"bootinfo: multiboot2 tag %u at offset %u is the last one before total_size %u: missing end tag",
				type, off, total);
		off = (uint32_t)next;
	}
}

/**
 * bootinfo_parse() - copy the loader's boot information into @out
 * @magic: value the loader left in %eax (MULTIBOOT1_MAGIC or
 *         MULTIBOOT2_MAGIC); anything else is an error
 * @info_phys: physical address of the information structure (%ebx)
 * @map: translator used for every read; it must return NULL for a range
 *       it cannot map entirely
 * @out: result; fully overwritten (zeroed first)
 * @err: buffer for a one-line error message, may be NULL if @errlen is 0;
 *       set to "" on success
 * @errlen: size of @err in bytes
 *
 * Context: any; reads memory only through @map and writes only @out and @err.
 * Return: 0 on success, -EINVAL if the magic is unknown or the structure is
 * malformed or not fully mappable (the reason is in @err).
 */
int bootinfo_parse(uint32_t magic, uint64_t info_phys, phys_map_fn map,
		   struct bootinfo *out, char *err, size_t errlen)
{
	struct parse_ctx c = {
		.map = map,
		.out = out,
		.err = err,
		.errlen = errlen,
	};

	if (err && errlen)
		err[0] = '\0';
	if (!out || !map)
		return fail(&c, "bootinfo: no output or translator given");
	memset(out, 0, sizeof(*out));

	switch (magic) {
	case MULTIBOOT1_MAGIC:
		out->proto = 1;
		return parse_mb1(&c, info_phys);
	case MULTIBOOT2_MAGIC:
		out->proto = 2;
		return parse_mb2(&c, info_phys);
	default:
		return fail(
			&c,
			"bootinfo: bad magic 0x%08x (expected multiboot1 0x%08x or multiboot2 0x%08x)",
			magic, MULTIBOOT1_MAGIC, MULTIBOOT2_MAGIC);
	}
}

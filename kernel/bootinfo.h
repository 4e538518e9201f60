/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel/bootinfo.h - boot information handed over by the loader.
 *
 * bootinfo_parse() reads a multiboot1 or multiboot2 information structure
 * through a caller-supplied physical-to-virtual translator and copies what
 * the kernel needs (command line, memory map, ACPI RSDP) into a fixed-size
 * struct bootinfo, so nothing later depends on the loader's memory.  It is
 * portable code (no hardware access) and is unit-tested on the host.
 */
#ifndef KERNEL_BOOTINFO_H
#define KERNEL_BOOTINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MULTIBOOT1_MAGIC 0x2BADB002u /* in %eax from the loader */
#define MULTIBOOT2_MAGIC 0x36d76289u

#define BOOTINFO_CMDLINE_MAX 512 /* incl. the NUL */
#define BOOTINFO_MAX_REGIONS 64
#define BOOTINFO_RSDP_MAX    36 /* ACPI 2.0+ RSDP; ACPI 1.0 is 20 */

#define MEM_REGION_AVAILABLE 1 /* the only type usable as RAM */

/* One memory map entry, exactly as the loader reported it. */
struct mem_region {
	uint64_t base;
	uint64_t len;
	uint32_t type; /* 1 = available; 2+ = reserved, ACPI, ... */
};

struct bootinfo {
	int proto;			    /* 1 or 2 (multiboot version) */
	char cmdline[BOOTINFO_CMDLINE_MAX]; /* always NUL-terminated */
	bool cmdline_truncated;		    /* longer than 511 chars */
	struct mem_region regions[BOOTINFO_MAX_REGIONS]; /* loader order */
	unsigned nregions;
	bool regions_truncated;		 /* > 64 entries given */
	bool regions_from_meminfo;	 /* mb1 mem_lower/upper, no map */
	uint8_t rsdp[BOOTINFO_RSDP_MAX]; /* raw copy, unchecked */
	unsigned rsdp_len;		 /* 0 if the loader gave none */
};

/*
 * Translate [phys, phys + len) to a pointer to readable memory, or return
 * NULL if any part of the range is not accessible.
 */
typedef const void *(*phys_map_fn)(uint64_t phys, uint64_t len);

int bootinfo_parse(uint32_t magic, uint64_t info_phys, phys_map_fn map,
		   struct bootinfo *out, char *err, size_t errlen);

#endif /* KERNEL_BOOTINFO_H */

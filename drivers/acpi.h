/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drivers/acpi.h - portable ACPI table parser (RSDP, RSDT/XSDT, MADT,
 * SRAT, SLIT) for CPU / interrupt-controller / NUMA topology discovery.
 *
 * References are to the ACPI 6.5 specification.  The parser never touches
 * memory directly: every table access goes through a caller-supplied
 * acpi_map_fn with the exact length that will be read, so the same code
 * runs in the kernel (identity / direct map) and in host unit tests
 * (a buffer with bounds checking).  All input is treated as untrusted.
 */
#ifndef DRIVERS_ACPI_H
#define DRIVERS_ACPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * typedef acpi_map_fn - make [phys, phys + len) readable.
 * @phys: physical address of the first byte.
 * @len:  number of bytes that will be read.
 *
 * Return: a pointer to the bytes, or NULL if the range cannot be mapped
 * (e.g. out of range).  The pointer must stay valid until acpi_parse()
 * or acpi_find_rsdp() returns.
 */
typedef const void *(*acpi_map_fn)(uint64_t phys, uint64_t len);

/* Largest table length accepted; anything larger is treated as corrupt. */
#define ACPI_MAX_TABLE_LEN (1u << 20)

#define ACPI_MAX_IOAPICS    8
#define ACPI_MAX_OVERRIDES  16
#define ACPI_MAX_MEM_RANGES 32
#define ACPI_SLIT_MAX	    64 /* SLIT matrix kept up to 64x64 */

/**
 * struct acpi_cpu - one enabled processor from the MADT.
 * @apic_id:         local APIC / x2APIC id.
 * @acpi_uid:        ACPI processor UID.
 * @node:            dense NUMA node index 0..nnodes-1 (see acpi_topology).
 * @proximity_domain: SRAT proximity domain (valid only if @srat_found).
 * @x2apic:          described by an x2APIC (type 9) MADT entry.
 * @srat_found:      an enabled SRAT affinity entry names this CPU.
 */
struct acpi_cpu {
	uint32_t apic_id;
	uint32_t acpi_uid;
	uint32_t node;
	uint32_t proximity_domain;
	bool x2apic;
	bool srat_found;
};

struct acpi_ioapic {
	uint8_t id;
	uint32_t phys;
	uint32_t gsi_base;
};

struct acpi_override {
	uint8_t bus_irq; /* ISA IRQ (source) */
	uint32_t gsi;
	uint16_t flags; /* MPS INTI flags: polarity, trigger mode */
};

struct acpi_mem_range {
	uint64_t base;
	uint64_t len;
	uint32_t domain; /* raw SRAT proximity domain */
	bool enabled;
	bool hotplug;
	bool nonvolatile;
};

/**
 * struct acpi_topology - result of acpi_parse().
 *
 * The caller provides @cpus (storage for @cpus_cap entries) and sets
 * @cpus_cap before calling acpi_parse(); everything else is filled in.
 * Enabled CPUs beyond @cpus_cap are counted in @ncpus_present but not
 * stored, and @cpus_truncated is set.
 *
 * Node numbering: the distinct proximity domains of the stored, SRAT-named
 * CPUs are sorted by domain number and numbered 0..nnodes-1 (domains 5 and
 * 9 become nodes 0 and 1).  Without an SRAT every CPU is on node 0 and
 * nnodes is 1; a CPU the SRAT does not name goes to node 0 and sets
 * @srat_incomplete.  nnodes is always >= 1.
 *
 * The SLIT matrix is indexed by proximity domain (ACPI "locality"), as in
 * the spec, not by dense node: slit[i][j] is the distance from locality i
 * to locality j, for i, j < slit_n.  slit_localities is the count in the
 * table; if it exceeds ACPI_SLIT_MAX only the top-left corner is kept and
 * slit_truncated is set.
 */
struct acpi_topology {
	/* caller-provided */
	struct acpi_cpu *cpus;
	unsigned int cpus_cap;

	unsigned int ncpus;	    /* stored, <= cpus_cap */
	unsigned int ncpus_present; /* enabled CPUs in the MADT */
	bool cpus_truncated;

	uint64_t lapic_phys; /* MADT address, or type-5 override */
	uint32_t madt_flags; /* bit 0: PC-AT compatible (8259s present) */

	unsigned int nioapics;
	struct acpi_ioapic ioapics[ACPI_MAX_IOAPICS];
	bool ioapics_truncated;

	unsigned int noverrides;
	struct acpi_override overrides[ACPI_MAX_OVERRIDES];
	bool overrides_truncated;

	unsigned int nnodes;
	bool have_srat;
	bool srat_incomplete;

	unsigned int nmem;
	struct acpi_mem_range mem[ACPI_MAX_MEM_RANGES];
	bool mem_truncated;

	bool have_slit;
	bool slit_truncated;
	uint64_t slit_localities;
	unsigned int slit_n;
	uint8_t slit[ACPI_SLIT_MAX][ACPI_SLIT_MAX];
};

int acpi_find_rsdp(acpi_map_fn map, uint64_t *rsdp_phys);
int acpi_parse(acpi_map_fn map, const void *rsdp, size_t rsdp_len,
	       struct acpi_topology *out, char *err, size_t errlen);

#endif /* DRIVERS_ACPI_H */

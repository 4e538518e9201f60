// SPDX-License-Identifier: GPL-2.0
/*
 * drivers/acpi.c - portable ACPI table parser.
 *
 * Section numbers refer to ACPI 6.5.  Tables are read byte by byte in
 * little-endian order (no unaligned or packed-struct access), every length
 * is validated before use, and every mapping asks for exactly the bytes
 * that are then read.
 */

#include "drivers/acpi.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"

/* 5.2.5.3 Root System Description Pointer (RSDP) Structure */
#define RSDP_SIG	  "RSD PTR "
#define RSDP_SIG_LEN	  8
#define RSDP_OFF_CHECKSUM 8
#define RSDP_OFF_REVISION 15
#define RSDP_OFF_RSDT	  16
#define RSDP_OFF_LENGTH	  20
#define RSDP_OFF_XSDT	  24
#define RSDP_V1_LEN	  20 /* checksum covers bytes 0..19 */
#define RSDP_V2_LEN	  36
#define RSDP_ALIGN	  16 /* 5.2.5.1: on a 16-byte boundary */

/* 5.2.5.1 Finding the RSDP on IA-PC Systems */
#define BDA_EBDA_SEG   0x40e /* 16-bit real-mode segment of EBDA */
#define EBDA_SCAN_LEN  1024
#define BIOS_ROM_START 0xe0000
#define BIOS_ROM_END   0x100000

/* 5.2.6 System Description Table Header */
#define SDT_HDR_LEN	 36
#define SDT_OFF_LENGTH	 4
#define SDT_OFF_CHECKSUM 9

/* 5.2.7 RSDT (32-bit entries), 5.2.8 XSDT (64-bit entries) */
#define RSDT_ENTRY_LEN 4
#define XSDT_ENTRY_LEN 8

/* 5.2.12 Multiple APIC Description Table (MADT) */
#define MADT_OFF_LAPIC_ADDR   36
#define MADT_OFF_FLAGS	      40
#define MADT_ENTRIES	      44
#define MADT_LAPIC	      0 /* 5.2.12.2 Processor Local APIC */
#define MADT_LAPIC_LEN	      8
#define MADT_IOAPIC	      1 /* 5.2.12.3 I/O APIC */
#define MADT_IOAPIC_LEN	      12
#define MADT_ISO	      2 /* 5.2.12.5 Interrupt Source Override */
#define MADT_ISO_LEN	      10
#define MADT_LAPIC_OVR	      5 /* 5.2.12.8 Local APIC Address Override */
#define MADT_LAPIC_OVR_LEN    12
#define MADT_X2APIC	      9 /* 5.2.12.12 Processor Local x2APIC */
#define MADT_X2APIC_LEN	      16
#define MADT_LAPIC_ENABLED    (1u << 0) /* Table 5.23 Local APIC Flags */
#define MADT_LAPIC_ONLINE_CAP (1u << 1)

/* 5.2.16 System Resource Affinity Table (SRAT) */
#define SRAT_ENTRIES	     48 /* header + reserved(4) + reserved(8) */
#define SRAT_LAPIC	     0	/* 5.2.16.1 Processor LAPIC Affinity */
#define SRAT_LAPIC_LEN	     16
#define SRAT_MEM	     1 /* 5.2.16.2 Memory Affinity */
#define SRAT_MEM_LEN	     40
#define SRAT_X2APIC	     2 /* 5.2.16.3 Processor x2APIC Affinity */
#define SRAT_X2APIC_LEN	     24
#define SRAT_ENABLED	     (1u << 0)
#define SRAT_MEM_HOTPLUG     (1u << 1)
#define SRAT_MEM_NONVOLATILE (1u << 2)

/* 5.2.17 System Locality Information Table (SLIT) */
#define SLIT_OFF_COUNT 36
#define SLIT_MATRIX    44

/* Subtable header common to MADT and SRAT entries: type, length. */
#define SUB_HDR_LEN 2

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

static uint8_t sum8(const uint8_t *p, size_t len)
{
	uint8_t s = 0;

	while (len--)
		s += *p++;
	return s;
}

/* ---- RSDP ---- */

static bool rsdp_valid(acpi_map_fn map, uint64_t phys, const uint8_t *p)
{
	const uint8_t *full;
	uint32_t len;

	if (memcmp(p, RSDP_SIG, RSDP_SIG_LEN) != 0 || sum8(p, RSDP_V1_LEN))
		return false;
	if (p[RSDP_OFF_REVISION] < 2)
		return true;
	full = map(phys, RSDP_V2_LEN);
	if (!full)
		return false;
	len = get32(full + RSDP_OFF_LENGTH);
	if (len < RSDP_V2_LEN || len > ACPI_MAX_TABLE_LEN)
		return false;
	full = map(phys, len);
	return full && !sum8(full, len);
}

static int scan_rsdp(acpi_map_fn map, uint64_t start, uint64_t len,
		     uint64_t *rsdp_phys)
{
	uint64_t off;

	for (off = 0; off + RSDP_V1_LEN <= len; off += RSDP_ALIGN) {
		const uint8_t *p = map(start + off, RSDP_V1_LEN);

		if (p && rsdp_valid(map, start + off, p)) {
			*rsdp_phys = start + off;
			return 0;
		}
	}
	return -EINVAL;
}

/**
 * acpi_find_rsdp - locate the RSDP in legacy BIOS memory (5.2.5.1).
 * @map:       mapping callback.
 * @rsdp_phys: where to store the physical address found.
 *
 * Scans the first KiB of the EBDA (real-mode segment stored at 0x40E) and
 * then 0xE0000-0xFFFFF on 16-byte boundaries for "RSD PTR " with a valid
 * checksum (and a valid extended checksum when revision >= 2).
 *
 * Return: 0 and *@rsdp_phys set, or -EINVAL if no valid RSDP was found.
 */
int acpi_find_rsdp(acpi_map_fn map, uint64_t *rsdp_phys)
{
	const uint8_t *seg;

	if (!map || !rsdp_phys)
		return -EINVAL;
	seg = map(BDA_EBDA_SEG, 2);
	if (seg) {
		uint64_t ebda = (uint64_t)get16(seg) << 4;

		if (ebda && !scan_rsdp(map, ebda, EBDA_SCAN_LEN, rsdp_phys))
			return 0;
	}
	return scan_rsdp(map, BIOS_ROM_START, BIOS_ROM_END - BIOS_ROM_START,
			 rsdp_phys);
}

/* ---- tables ---- */

struct table {
	const uint8_t *p;
	uint32_t len;
};

static void sig_str(char out[5], const uint8_t *sig)
{
	int i;

	for (i = 0; i < 4; i++)
		out[i] = (char)((sig[i] >= 0x20 && sig[i] < 0x7f) ? sig[i] :
								    '?');
	out[4] = '\0';
}

/*
 * Map and validate the table at @phys: header length sane, whole table
 * mappable, checksum zero and (if @want is non-NULL) signature @want.
 * @name is used in messages.
 */
static int load_table(acpi_map_fn map, uint64_t phys, const char *want,
		      const char *name, struct table *t, char *err,
		      size_t errlen)
{
	const uint8_t *p = map(phys, SDT_HDR_LEN);
	uint32_t len;
	uint8_t sum;

	if (!p) {
		errfmt(err, errlen,
		       "acpi: %s at 0x%llx is outside mapped memory", name,
		       (unsigned long long)phys);
		return -EINVAL;
	}
	if (want && memcmp(p, want, 4) != 0) {
		char s[5];

		sig_str(s, p);
		errfmt(err, errlen, "acpi: %s at 0x%llx has signature '%s'",
		       name, (unsigned long long)phys, s);
		return -EINVAL;
	}
	len = get32(p + SDT_OFF_LENGTH);
	if (len < SDT_HDR_LEN) {
		errfmt(err, errlen, "acpi: %s length %u smaller than header",
		       name, len);
		return -EINVAL;
	}
	if (len > ACPI_MAX_TABLE_LEN) {
		errfmt(err, errlen, "acpi: %s length %u exceeds limit %u", name,
		       len, ACPI_MAX_TABLE_LEN);
		return -EINVAL;
	}
	p = map(phys, len);
	if (!p) {
		errfmt(err, errlen,
		       "acpi: %s at 0x%llx length %u extends beyond mapped memory",
		       name, (unsigned long long)phys, len);
		return -EINVAL;
	}
	sum = sum8(p, len);
	if (sum) {
		errfmt(err, errlen, "acpi: %s checksum mismatch (sum 0x%x)",
		       name, sum);
		return -EINVAL;
	}
	t->p = p;
	t->len = len;
	return 0;
}

/*
 * Step over one MADT/SRAT subtable at *@off.  On success *@type / *@elen
 * describe it and *@off is unchanged (the caller advances by *@elen).
 * @need is indexed by type and gives the minimum length of known types.
 */
static int check_entry(const struct table *t, const char *name, uint32_t off,
		       const uint8_t *need, unsigned int nneed, uint8_t *type,
		       uint8_t *elen, char *err, size_t errlen)
{
	if (t->len - off < SUB_HDR_LEN) {
		errfmt(err, errlen,
		       "acpi: %s entry at offset %u truncated (%u bytes left)",
		       name, off, t->len - off);
		return -EINVAL;
	}
	*type = t->p[off];
	*elen = t->p[off + 1];
	if (*elen < SUB_HDR_LEN) {
		errfmt(err, errlen,
		       "acpi: %s entry type %u at offset %u has length %u",
		       name, *type, off, *elen);
		return -EINVAL;
	}
	if (*elen > t->len - off) {
		errfmt(err, errlen,
		       "acpi: %s entry type %u at offset %u length %u overruns table (length %u)",
		       name, *type, off, *elen, t->len);
		return -EINVAL;
	}
	if (*type < nneed && need[*type] && *elen < need[*type]) {
		errfmt(err, errlen,
		       "acpi: %s entry type %u at offset %u has length %u, need %u",
		       name, *type, off, *elen, need[*type]);
		return -EINVAL;
	}
	return 0;
}

static void add_cpu(struct acpi_topology *out, uint32_t apic_id, uint32_t uid,
		    bool x2apic)
{
	struct acpi_cpu *c;

	out->ncpus_present++;
	if (out->ncpus >= out->cpus_cap) {
		out->cpus_truncated = true;
		return;
	}
	c = &out->cpus[out->ncpus++];
	c->apic_id = apic_id;
	c->acpi_uid = uid;
	c->node = 0;
	c->proximity_domain = 0;
	c->x2apic = x2apic;
	c->srat_found = false;
}

static int parse_madt(const struct table *t, struct acpi_topology *out,
		      char *err, size_t errlen)
{
	static const uint8_t need[] = {
		[MADT_LAPIC] = MADT_LAPIC_LEN,
		[MADT_IOAPIC] = MADT_IOAPIC_LEN,
		[MADT_ISO] = MADT_ISO_LEN,
		[MADT_LAPIC_OVR] = MADT_LAPIC_OVR_LEN,
		[MADT_X2APIC] = MADT_X2APIC_LEN,
	};
	uint32_t off;

	if (t->len < MADT_ENTRIES) {
		errfmt(err, errlen, "acpi: MADT length %u smaller than %u",
		       t->len, MADT_ENTRIES);
		return -EINVAL;
	}
	out->lapic_phys = get32(t->p + MADT_OFF_LAPIC_ADDR);
	out->madt_flags = get32(t->p + MADT_OFF_FLAGS);

	for (off = MADT_ENTRIES; off < t->len;) {
		const uint8_t *e = t->p + off;
		uint8_t type, elen;
		int ret;

		ret = check_entry(t, "MADT", off, need, sizeof(need), &type,
				  &elen, err, errlen);
		if (ret)
			return ret;
		switch (type) {
		case MADT_LAPIC:
			if (get32(e + 4) & MADT_LAPIC_ENABLED)
				add_cpu(out, e[3], e[2], false);
			break;
		case MADT_X2APIC:
			if (get32(e + 8) & MADT_LAPIC_ENABLED)
				add_cpu(out, get32(e + 4), get32(e + 12), true);
			break;
		case MADT_IOAPIC:
			if (out->nioapics >= ACPI_MAX_IOAPICS) {
				out->ioapics_truncated = true;
				break;
			}
			out->ioapics[out->nioapics].id = e[2];
			out->ioapics[out->nioapics].phys = get32(e + 4);
			out->ioapics[out->nioapics].gsi_base = get32(e + 8);
			out->nioapics++;
			break;
		case MADT_ISO:
			if (out->noverrides >= ACPI_MAX_OVERRIDES) {
				out->overrides_truncated = true;
				break;
			}
			out->overrides[out->noverrides].bus_irq = e[3];
			out->overrides[out->noverrides].gsi = get32(e + 4);
			out->overrides[out->noverrides].flags = get16(e + 8);
			out->noverrides++;
			break;
		case MADT_LAPIC_OVR:
			out->lapic_phys = get64(e + 4);
			break;
		default: /* unknown or unused: skip by length */
			break;
		}
		off += elen;
	}
	return 0;
}

static void srat_cpu(struct acpi_topology *out, uint32_t apic_id,
		     uint32_t domain)
{
	unsigned int i;

	for (i = 0; i < out->ncpus; i++) {
		if (out->cpus[i].apic_id == apic_id &&
		    !out->cpus[i].srat_found) {
			out->cpus[i].proximity_domain = domain;
			out->cpus[i].srat_found = true;
			return;
		}
	}
}

static int parse_srat(const struct table *t, struct acpi_topology *out,
		      char *err, size_t errlen)
{
	static const uint8_t need[] = {
		[SRAT_LAPIC] = SRAT_LAPIC_LEN,
		[SRAT_MEM] = SRAT_MEM_LEN,
		[SRAT_X2APIC] = SRAT_X2APIC_LEN,
	};
	uint32_t off;

	if (t->len < SRAT_ENTRIES) {
		errfmt(err, errlen, "acpi: SRAT length %u smaller than %u",
		       t->len, SRAT_ENTRIES);
		return -EINVAL;
	}
	for (off = SRAT_ENTRIES; off < t->len;) {
		const uint8_t *e = t->p + off;
		uint8_t type, elen;
		uint32_t flags;
		int ret;

		ret = check_entry(t, "SRAT", off, need, sizeof(need), &type,
				  &elen, err, errlen);
		if (ret)
			return ret;
		switch (type) {
		case SRAT_LAPIC:
			if (get32(e + 4) & SRAT_ENABLED)
				srat_cpu(out, e[3],
					 e[2] | (uint32_t)e[9] << 8 |
						 (uint32_t)e[10] << 16 |
						 (uint32_t)e[11] << 24);
			break;
		case SRAT_X2APIC:
			if (get32(e + 12) & SRAT_ENABLED)
				srat_cpu(out, get32(e + 8), get32(e + 4));
			break;
		case SRAT_MEM:
			if (out->nmem >= ACPI_MAX_MEM_RANGES) {
				out->mem_truncated = true;
				break;
			}
			flags = get32(e + 28);
			out->mem[out->nmem].domain = get32(e + 2);
			out->mem[out->nmem].base = get64(e + 8);
			out->mem[out->nmem].len = get64(e + 16);
			out->mem[out->nmem].enabled = flags & SRAT_ENABLED;
			out->mem[out->nmem].hotplug = flags & SRAT_MEM_HOTPLUG;
			out->mem[out->nmem].nonvolatile = flags &
							  SRAT_MEM_NONVOLATILE;
			out->nmem++;
			break;
		default:
			break;
		}
		off += elen;
	}
	out->have_srat = true;
	return 0;
}

/*
 * Number the distinct proximity domains of SRAT-named CPUs in increasing
 * domain order; O(ncpus * nnodes), no extra storage, any CPU count.
 */
static void assign_nodes(struct acpi_topology *out)
{
	uint64_t last = 0; /* domains handled so far are < last */
	unsigned int node = 0, i;

	for (;;) {
		uint64_t next = UINT64_MAX;

		for (i = 0; i < out->ncpus; i++) {
			const struct acpi_cpu *c = &out->cpus[i];

			if (c->srat_found && c->proximity_domain >= last &&
			    c->proximity_domain < next)
				next = c->proximity_domain;
		}
		if (next == UINT64_MAX)
			break;
		for (i = 0; i < out->ncpus; i++) {
			struct acpi_cpu *c = &out->cpus[i];

			if (c->srat_found && c->proximity_domain == next)
				c->node = node;
		}
		node++;
		last = next + 1;
	}
	for (i = 0; i < out->ncpus; i++) {
		if (!out->cpus[i].srat_found) {
			out->cpus[i].node = 0;
			if (out->have_srat)
				out->srat_incomplete = true;
		}
	}
	out->nnodes = node ? node : 1;
}

static int parse_slit(const struct table *t, struct acpi_topology *out,
		      char *err, size_t errlen)
{
	uint64_t n;
	unsigned int i, j, keep;

	if (t->len < SLIT_MATRIX) {
		errfmt(err, errlen, "acpi: SLIT length %u smaller than %u",
		       t->len, SLIT_MATRIX);
		return -EINVAL;
	}
	n = get64(t->p + SLIT_OFF_COUNT);
	/* len <= 1 MiB, so n < 2^10 whenever n * n fits; no overflow */
	if (n > 0xffff || n * n > t->len - SLIT_MATRIX) {
		errfmt(err, errlen,
		       "acpi: SLIT with %llu localities does not fit length %u",
		       (unsigned long long)n, t->len);
		return -EINVAL;
	}
	keep = n > ACPI_SLIT_MAX ? ACPI_SLIT_MAX : (unsigned int)n;
	for (i = 0; i < keep; i++)
		for (j = 0; j < keep; j++)
			out->slit[i][j] = t->p[SLIT_MATRIX + i * n + j];
	out->slit_localities = n;
	out->slit_n = keep;
	out->slit_truncated = n > ACPI_SLIT_MAX;
	out->have_slit = true;
	return 0;
}

static void reset_topology(struct acpi_topology *out)
{
	struct acpi_cpu *cpus = out->cpus;
	unsigned int cap = out->cpus ? out->cpus_cap : 0;

	memset(out, 0, sizeof(*out));
	out->cpus = cpus;
	out->cpus_cap = cap;
	out->nnodes = 1;
}

/* The RSDP's signature, checksum and, from revision 2, its length. */
static int check_rsdp(const uint8_t *r, size_t rsdp_len, char *err,
		      size_t errlen)
{
	uint32_t len;

	if (rsdp_len < RSDP_V1_LEN) {
		errfmt(err, errlen, "acpi: RSDP length %lu smaller than %u",
		       (unsigned long)rsdp_len, RSDP_V1_LEN);
		return -EINVAL;
	}
	if (memcmp(r, RSDP_SIG, RSDP_SIG_LEN) != 0) {
		errfmt(err, errlen, "acpi: RSDP signature mismatch");
		return -EINVAL;
	}
	if (sum8(r, RSDP_V1_LEN)) {
		errfmt(err, errlen, "acpi: RSDP checksum mismatch (sum 0x%x)",
		       sum8(r, RSDP_V1_LEN));
		return -EINVAL;
	}
	if (r[RSDP_OFF_REVISION] < 2)
		return 0;
	if (rsdp_len < RSDP_V2_LEN) {
		errfmt(err, errlen,
		       "acpi: RSDP revision %u but only %lu bytes given",
		       r[RSDP_OFF_REVISION], (unsigned long)rsdp_len);
		return -EINVAL;
	}
	len = get32(r + RSDP_OFF_LENGTH);
	if (len < RSDP_V2_LEN || len > rsdp_len) {
		errfmt(err, errlen,
		       "acpi: RSDP length %u invalid (%lu bytes given)", len,
		       (unsigned long)rsdp_len);
		return -EINVAL;
	}
	if (sum8(r, len)) {
		errfmt(err, errlen,
		       "acpi: RSDP extended checksum mismatch (sum 0x%x)",
		       sum8(r, len));
		return -EINVAL;
	}
	return 0;
}

/* The root table (XSDT or RSDT) and the size of its entries. */
struct root_table {
	struct table t;
	const char *name;
	unsigned int esize;
};

/* Load the XSDT if the checked RSDP @r names one, else the RSDT. */
static int load_root(acpi_map_fn map, const uint8_t *r, struct root_table *root,
		     char *err, size_t errlen)
{
	uint64_t phys;
	int ret;

	if (r[RSDP_OFF_REVISION] >= 2 && get64(r + RSDP_OFF_XSDT)) {
		phys = get64(r + RSDP_OFF_XSDT);
		root->name = "XSDT";
		root->esize = XSDT_ENTRY_LEN;
	} else {
		phys = get32(r + RSDP_OFF_RSDT);
		root->name = "RSDT";
		root->esize = RSDT_ENTRY_LEN;
	}
	if (!phys) {
		errfmt(err, errlen, "acpi: %s address is zero", root->name);
		return -EINVAL;
	}
	ret = load_table(map, phys, root->name, root->name, &root->t, err,
			 errlen);
	if (ret)
		return ret;
	if ((root->t.len - SDT_HDR_LEN) % root->esize) {
		errfmt(err, errlen,
		       "acpi: %s length %u is not header + %u-byte entries",
		       root->name, root->t.len, root->esize);
		return -EINVAL;
	}
	return 0;
}

/* The tables acpi_parse() reads; .p is NULL for one not found. */
struct topo_tables {
	struct table madt, srat, slit;
};

/* Load the first MADT, SRAT and SLIT the root table lists. */
static int find_tables(acpi_map_fn map, const struct root_table *root,
		       struct topo_tables *tt, char *err, size_t errlen)
{
	unsigned int i, n = (root->t.len - SDT_HDR_LEN) / root->esize;
	int ret;

	for (i = 0; i < n; i++) {
		const uint8_t *ep =
			root->t.p + SDT_HDR_LEN + (size_t)i * root->esize;
		uint64_t phys = root->esize == 8 ? get64(ep) : get32(ep);
		const uint8_t *h;
		struct table *dst;
		const char *name;

		if (!phys)
			continue;
		h = map(phys, SDT_HDR_LEN);
		if (!h) {
			errfmt(err, errlen,
			       "acpi: %s entry %u (0x%llx) is outside mapped memory",
			       root->name, i, (unsigned long long)phys);
			return -EINVAL;
		}
		if (!memcmp(h, "APIC", 4)) {
			dst = &tt->madt;
			name = "MADT";
		} else if (!memcmp(h, "SRAT", 4)) {
			dst = &tt->srat;
			name = "SRAT";
		} else if (!memcmp(h, "SLIT", 4)) {
			dst = &tt->slit;
			name = "SLIT";
		} else {
			continue;
		}
		if (dst->p)
			continue; /* duplicate: keep the first */
		ret = load_table(map, phys, NULL, name, dst, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}

/* Fill @out from the tables found; on failure @out is reset. */
static int parse_tables(const struct topo_tables *tt, struct acpi_topology *out,
			char *err, size_t errlen)
{
	int ret = parse_madt(&tt->madt, out, err, errlen);

	if (!ret && tt->srat.p)
		ret = parse_srat(&tt->srat, out, err, errlen);
	if (!ret && tt->slit.p)
		ret = parse_slit(&tt->slit, out, err, errlen);
	if (ret) {
		reset_topology(out);
		return ret;
	}
	assign_nodes(out);
	return 0;
}

/**
 * acpi_parse - parse MADT, SRAT and SLIT reachable from an RSDP.
 * @map:      mapping callback used for every table access.
 * @rsdp:     the RSDP bytes (a copy, e.g. from a multiboot2 tag, or
 *            map(rsdp_phys, 36) after acpi_find_rsdp()).
 * @rsdp_len: number of valid bytes at @rsdp.
 * @out:      result; @out->cpus and @out->cpus_cap must be set by the
 *            caller, everything else is overwritten.
 * @err:      buffer for a human-readable message on failure (may be NULL).
 * @errlen:   size of @err.
 *
 * Uses the XSDT when the RSDP revision is >= 2 and its XSDT address is
 * nonzero, else the RSDT.  The MADT ("APIC") is required; SRAT and SLIT
 * are optional.  Tables listed more than once: the first one is used.
 *
 * Return: 0 on success, -EINVAL on malformed or missing data (with @err
 * describing the problem).
 */
int acpi_parse(acpi_map_fn map, const void *rsdp, size_t rsdp_len,
	       struct acpi_topology *out, char *err, size_t errlen)
{
	struct topo_tables tt = { { 0 }, { 0 }, { 0 } };
	struct root_table root;
	int ret;

	if (err && errlen)
		err[0] = '\0';
	if (!map || !rsdp || !out) {
		errfmt(err, errlen, "acpi: invalid arguments");
		return -EINVAL;
	}
	reset_topology(out);
	ret = check_rsdp(rsdp, rsdp_len, err, errlen);
	if (!ret)
		ret = load_root(map, rsdp, &root, err, errlen);
	if (!ret)
		ret = find_tables(map, &root, &tt, err, errlen);
	if (ret)
		return ret;
	if (!tt.madt.p) {
		errfmt(err, errlen, "acpi: no MADT (\"APIC\") in %s",
		       root.name);
		return -EINVAL;
	}
	return parse_tables(&tt, out, err, errlen);
}

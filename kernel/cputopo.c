// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/cputopo.c - CPU topology from CPUID (no asm: see cputopo.h).
 *
 * The APIC ID layout comes from, in order of preference (Intel SDM vol. 3A
 * 9.9 "Identifying Logical Processors in an MP System"):
 *
 *  1. CPUID leaf 1FH, V2 extended topology (SDM vol. 2A, CPUID 1FH);
 *  2. CPUID leaf 0BH, extended topology (SDM vol. 2A, CPUID 0BH).
 *     Each subleaf n describes one level: ECX[15:8] is its type (0 =
 *     invalid, ends the list; 1 = SMT; 2 = core; 1FH adds 3 = module,
 *     4 = tile, 5 = die, 6 = die group) and EAX[4:0] the number of APIC ID
 *     bits to shift right to get the next level's ID.  The leaf exists
 *     only if the maximum basic leaf (CPUID.00H:EAX) reaches it and its
 *     subleaf 0 reports EBX[15:0] != 0;
 *  3. the legacy leaves: CPUID.01H:EDX[28] (HTT) says EBX[23:16] holds the
 *     maximum number of addressable logical processor IDs per package, and
 *     CPUID.(EAX=04H,ECX=0):EAX[31:26] + 1 the maximum number of
 *     addressable core IDs per package (SDM vol. 2A, CPUID 01H and 04H).
 *     Each field is a count rounded up to a power of two, so its width is
 *     the number of bits needed for count - 1;
 *  4. otherwise: one logical processor per core, one core per package.
 *
 * Locking: none; everything here works on its arguments only.
 */
#include <stdbool.h>
#include <stdint.h>

#include "kernel/cputopo.h"
#include "lib/errno.h"

#define LEAF_MAX_SUBLEAFS 32 /* bound on a broken level list */

enum topo_level_type {
	LEVEL_INVALID = 0,
	LEVEL_SMT = 1,
	LEVEL_CORE = 2,
};

/* Number of bits needed to hold the values 0..count-1 (0 for count <= 1). */
static unsigned count_bits(uint32_t count)
{
	unsigned bits = 0;

	if (count <= 1)
		return 0;
	count--;
	while (count) {
		bits++;
		count >>= 1;
	}
	return bits;
}

/* v >> shift, 0 for shift >= 32 (avoids the undefined full-width shift). */
static uint32_t shr(uint32_t v, unsigned shift)
{
	return shift >= 32 ? 0 : v >> shift;
}

/* The low @bits bits of @v. */
static uint32_t low_bits(uint32_t v, unsigned bits)
{
	return bits >= 32 ? v : v & ((UINT32_C(1) << bits) - 1);
}

/*
 * Walk leaf 0BH or 1FH.  Returns false if the leaf is missing or empty.
 * smt_shift is the SMT level's shift (0 if none); core_shift the largest
 * shift of any level, i.e. the bits below the package ID.
 */
static bool layout_from_ext_leaf(cpuid_fn fn, void *arg, uint32_t leaf,
				 uint32_t max_leaf, struct apic_id_layout *out)
{
	struct apic_id_layout l = { 0, 0 };
	struct cpuid_leaf r;
	uint32_t sub;

	if (max_leaf < leaf || !fn(leaf, 0, &r, arg))
		return false;
	if ((r.ebx & 0xffff) == 0 || ((r.ecx >> 8) & 0xff) == LEVEL_INVALID)
		return false;

	for (sub = 0; sub < LEAF_MAX_SUBLEAFS; sub++) {
		unsigned type, shift;

		if (sub && !fn(leaf, sub, &r, arg))
			break;
		type = (r.ecx >> 8) & 0xff;
		if (type == LEVEL_INVALID)
			break;
		shift = r.eax & 0x1f;
		if (type == LEVEL_SMT)
			l.smt_shift = shift;
		if (shift > l.core_shift)
			l.core_shift = shift;
	}
	if (l.smt_shift > l.core_shift)
		l.smt_shift = l.core_shift;
	*out = l;
	return true;
}

/* Legacy leaves 01H and 04H.  Returns false without HTT. */
static bool layout_from_leaf1(cpuid_fn fn, void *arg, uint32_t max_leaf,
			      struct apic_id_layout *out)
{
	struct cpuid_leaf r;
	uint32_t max_lp, max_cores = 1;
	unsigned pkg_bits, core_bits;

	if (max_leaf < 1 || !fn(1, 0, &r, arg))
		return false;
	if (!(r.edx & (UINT32_C(1) << 28))) /* HTT */
		return false;
	max_lp = (r.ebx >> 16) & 0xff;

	/* Leaf 04H subleaf 0 is valid if its cache type EAX[4:0] != 0. */
	if (max_leaf >= 4 && fn(4, 0, &r, arg) && (r.eax & 0x1f))
		max_cores = (r.eax >> 26) + 1;

	pkg_bits = count_bits(max_lp);
	core_bits = count_bits(max_cores);
	out->core_shift = pkg_bits;
	out->smt_shift = pkg_bits > core_bits ? pkg_bits - core_bits : 0;
	return true;
}

/**
 * cputopo_layout() - find how the APIC ID splits into package/core/thread
 * @fn: CPUID callback (kernel_cpuid() on the running CPU, a table on the host)
 * @arg: passed to @fn
 * @out: the layout
 *
 * Tries leaf 1FH, then 0BH, then the legacy leaves 01H/04H, and otherwise
 * assumes one thread per core and one core per package (both shifts 0).
 * Leaves above CPUID.00H:EAX are never asked for.  The result describes
 * the CPU @fn runs on; all CPUs of a system share it in practice.
 *
 * Return: the source, CPUTOPO_SRC_LEAF1F, _LEAF0B, _LEAF1 or _DEFAULT
 * (all >= 0), or -EINVAL if @fn or @out is NULL.
 */
int cputopo_layout(cpuid_fn fn, void *arg, struct apic_id_layout *out)
{
	struct cpuid_leaf r;
	uint32_t max_leaf;

	if (!fn || !out)
		return -EINVAL;
	out->smt_shift = 0;
	out->core_shift = 0;
	if (!fn(0, 0, &r, arg))
		return CPUTOPO_SRC_DEFAULT;
	max_leaf = r.eax;

	if (layout_from_ext_leaf(fn, arg, 0x1f, max_leaf, out))
		return CPUTOPO_SRC_LEAF1F;
	if (layout_from_ext_leaf(fn, arg, 0x0b, max_leaf, out))
		return CPUTOPO_SRC_LEAF0B;
	if (layout_from_leaf1(fn, arg, max_leaf, out))
		return CPUTOPO_SRC_LEAF1;
	return CPUTOPO_SRC_DEFAULT;
}

/**
 * cputopo_decode() - split an APIC ID into its topology IDs
 * @l: layout from cputopo_layout()
 * @apic_id: the (x2)APIC ID
 * @package: package ID (APIC ID >> core_shift); may be NULL
 * @core: core ID within the package; may be NULL
 * @thread: SMT thread ID within the core; may be NULL
 *
 * The IDs are the APIC ID fields, not dense indices: with 3 cores per
 * package the core IDs are 0, 1 and 2 of a 2-bit field.
 */
void cputopo_decode(const struct apic_id_layout *l, uint32_t apic_id,
		    unsigned *package, unsigned *core, unsigned *thread)
{
	unsigned smt = l->smt_shift < l->core_shift ? l->smt_shift :
						      l->core_shift;

	if (package)
		*package = shr(apic_id, l->core_shift);
	if (core)
		*core = shr(low_bits(apic_id, l->core_shift), smt);
	if (thread)
		*thread = low_bits(apic_id, smt);
}

/* Count the distinct values of apic_id >> shift, or the largest group. */
static unsigned group_stat(const uint32_t *ids, unsigned n, unsigned shift,
			   bool largest)
{
	unsigned i, j, result = 0;

	for (i = 0; i < n; i++) {
		uint32_t key = shr(ids[i], shift);
		unsigned members = 1;
		bool first = true;

		/* Handle each group once, at its first member. */
		for (j = 0; j < i && first; j++)
			first = shr(ids[j], shift) != key;
		if (!first)
			continue;
		if (!largest) {
			result++;
			continue;
		}
		for (j = i + 1; j < n; j++)
			members += shr(ids[j], shift) == key;
		if (members > result)
			result = members;
	}
	return result;
}

/**
 * cputopo_count_packages() - number of distinct packages among APIC IDs
 * @apic_ids: the CPUs' APIC IDs (e.g. from the MADT)
 * @n: number of entries
 * @l: layout from cputopo_layout()
 *
 * O(n^2) compares, no memory: about 8M for n = 4096.
 *
 * Return: the number of distinct package IDs, 0 if @n is 0.
 */
unsigned cputopo_count_packages(const uint32_t *apic_ids, unsigned n,
				const struct apic_id_layout *l)
{
	return group_stat(apic_ids, n, l->core_shift, false);
}

/**
 * cputopo_threads_per_core() - most CPUs sharing one core
 * @apic_ids: the CPUs' APIC IDs (e.g. from the MADT)
 * @n: number of entries
 * @l: layout from cputopo_layout()
 *
 * Counts, for each (package, core), the entries of @apic_ids in it; a
 * duplicated APIC ID counts twice.  O(n^2) compares, no memory.
 *
 * Return: the largest such count, 0 if @n is 0.
 */
unsigned cputopo_threads_per_core(const uint32_t *apic_ids, unsigned n,
				  const struct apic_id_layout *l)
{
	unsigned smt = l->smt_shift < l->core_shift ? l->smt_shift :
						      l->core_shift;

	return group_stat(apic_ids, n, smt, true);
}

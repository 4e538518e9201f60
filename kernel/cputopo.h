/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel/cputopo.h - CPU topology from CPUID: APIC ID -> package/core/thread.
 *
 * Portable: the CPUID results come through a callback, so the host unit
 * tests feed fake tables and the kernel passes kernel_cpuid() from
 * arch/x86_64/cpuid.h.
 *
 * References: Intel SDM vol. 2A, CPUID leaves 00H, 01H, 04H, 0BH and 1FH;
 * vol. 3A 9.9 "Identifying Logical Processors in an MP System".
 */
#ifndef KERNEL_CPUTOPO_H
#define KERNEL_CPUTOPO_H

#include <stdbool.h>
#include <stdint.h>

struct cpuid_leaf {
	uint32_t eax, ebx, ecx, edx;
};

/*
 * Execute (or fake) CPUID.(EAX=leaf, ECX=sub) into *out.  Return false if
 * the leaf is unsupported (then *out is not used).
 */
typedef bool (*cpuid_fn)(uint32_t leaf, uint32_t sub, struct cpuid_leaf *out,
			 void *arg);

/*
 * APIC ID = [ package | core | thread ]:
 *   thread  = bits [smt_shift-1 : 0]
 *   core    = bits [core_shift-1 : smt_shift]
 *   package = bits [31 : core_shift]
 * core_shift is the number of APIC ID bits below the package field, so with
 * leaf 1FH levels between core and package (module, tile, die) "core" is
 * the core's index within its package, those levels' bits included.
 */
struct apic_id_layout {
	unsigned smt_shift;
	unsigned core_shift;
};

/* cputopo_layout() return values >= 0: where the layout came from. */
#define CPUTOPO_SRC_DEFAULT 0x00 /* no usable leaf: 1 thread, 1 core */
#define CPUTOPO_SRC_LEAF1   0x01 /* legacy: leaf 01H (+ leaf 04H) */
#define CPUTOPO_SRC_LEAF0B  0x0b /* extended topology, leaf 0BH */
#define CPUTOPO_SRC_LEAF1F  0x1f /* V2 extended topology, leaf 1FH */

int cputopo_layout(cpuid_fn fn, void *arg, struct apic_id_layout *out);
void cputopo_decode(const struct apic_id_layout *l, uint32_t apic_id,
		    unsigned *package, unsigned *core, unsigned *thread);
unsigned cputopo_count_packages(const uint32_t *apic_ids, unsigned n,
				const struct apic_id_layout *l);
unsigned cputopo_threads_per_core(const uint32_t *apic_ids, unsigned n,
				  const struct apic_id_layout *l);

#endif /* KERNEL_CPUTOPO_H */

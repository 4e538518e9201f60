/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arch/x86_64/cpuid.h - the CPUID instruction (Intel SDM vol. 2A, CPUID).
 */
#ifndef ARCH_X86_64_CPUID_H
#define ARCH_X86_64_CPUID_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/cputopo.h"

/**
 * cpuid() - execute CPUID.(EAX=@leaf, ECX=@sub)
 * @leaf: EAX input
 * @sub: ECX input (subleaf; ignored by leaves that have none)
 * @a: EAX output
 * @b: EBX output
 * @c: ECX output
 * @d: EDX output
 */
static inline void cpuid(uint32_t leaf, uint32_t sub, uint32_t *a, uint32_t *b,
			 uint32_t *c, uint32_t *d)
{
	__asm__ volatile("cpuid"
			 : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d)
			 : "a"(leaf), "c"(sub));
}

/**
 * kernel_cpuid() - cpuid_fn for cputopo_layout() on the running CPU
 * @leaf: CPUID leaf
 * @sub: subleaf
 * @out: the four result registers
 * @arg: unused
 *
 * A leaf above the maximum of its range (CPUID.00H:EAX for basic leaves,
 * CPUID.80000000H:EAX for extended ones) is reported unsupported instead of
 * returning the data of the highest basic leaf, as Intel CPUs do.
 *
 * Return: true if @leaf is supported and @out is filled in.
 */
static inline bool kernel_cpuid(uint32_t leaf, uint32_t sub,
				struct cpuid_leaf *out, void *arg)
{
	uint32_t max, b, c, d;

	(void)arg;
	cpuid(leaf & 0x80000000u, 0, &max, &b, &c, &d);
	if (leaf > max)
		return false;
	cpuid(leaf, sub, &out->eax, &out->ebx, &out->ecx, &out->edx);
	return true;
}

#endif /* ARCH_X86_64_CPUID_H */

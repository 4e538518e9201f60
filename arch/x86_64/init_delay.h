/*
 * How long to wait after an AP's INIT before its SIPI.  The SDM's MP
 * start-up sequence (vol. 3A 9.4.4.1) waits 10 ms, which only processors
 * older than the P6 and the K8 need; Linux skips it (init_udelay = 0) on
 * Intel from family 6, AMD from family 0xF, and Hygon, and keeps 10 ms for
 * anything else.  cpu_init_udelay= overrides either way.  Pure, so that
 * the rule is unit-tested on the host.
 */
#ifndef ARCH_X86_64_INIT_DELAY_H
#define ARCH_X86_64_INIT_DELAY_H

#include <stdint.h>

#define INIT_UDELAY_LEGACY 10000u
#define INIT_UDELAY_UNSET  0xFFFFFFFFu /* = CPU_INIT_UDELAY_AUTO */

/* The display family of CPUID.01H:EAX (SDM vol. 2A, CPUID, figure 3-6). */
static inline unsigned cpuid_family(uint32_t leaf1_eax)
{
	unsigned fam = (leaf1_eax >> 8) & 0xF;

	return fam == 0xF ? fam + ((leaf1_eax >> 20) & 0xFF) : fam;
}

static inline int vendor_is(const char v[12], const char *want)
{
	for (int i = 0; i < 12; i++)
		if (v[i] != want[i])
			return 0;
	return 1;
}

/*
 * @vendor: CPUID.00H's EBX, EDX, ECX as 12 characters; @leaf1_eax:
 * CPUID.01H:EAX; @asked: cpu_init_udelay= or INIT_UDELAY_UNSET.
 */
static inline unsigned init_udelay_for(const char vendor[12],
				       uint32_t leaf1_eax, unsigned asked)
{
	unsigned fam = cpuid_family(leaf1_eax);

	if (asked != INIT_UDELAY_UNSET)
		return asked;
	if ((vendor_is(vendor, "GenuineIntel") && fam >= 6) ||
	    (vendor_is(vendor, "AuthenticAMD") && fam >= 0xF) ||
	    vendor_is(vendor, "HygonGenuine"))
		return 0;
	return INIT_UDELAY_LEGACY;
}

#endif

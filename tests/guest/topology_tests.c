/*
 * The firmware's view of the machine against what tools/boot asked QEMU
 * for (--expect-topology passes expect_cpus= and expect_nodes=).
 */
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/lapic.h"
#include "kernel/boot.h"
#include "kernel/ktest.h"
#include "kernel/topology.h"

/*
 * The initial APIC id as CPUID reports it, independent of the LAPIC: all
 * 32 bits from CPUID.0BH:EDX where leaf 0BH exists, else the 8 bits of
 * CPUID.01H:EBX[31:24] (SDM vol. 2A, CPUID).
 */
static uint32_t this_cpu_apic_id(void)
{
	struct cpuid_leaf l = { 0, 0, 0, 0 };

	if (kernel_cpuid(0xb, 0, &l, 0) && (l.ebx & 0xffff))
		return l.edx;
	kernel_cpuid(1, 0, &l, 0);
	return l.ebx >> 24;
}

/* The LAPIC's id register (xAPIC or x2APIC) agrees with CPUID. */
static void lapic_id_matches_cpuid(struct ktest *t)
{
	KEXPECT_EQ(t, lapic_id(), this_cpu_apic_id());
}

static void madt_lists_the_boot_cpu(struct ktest *t)
{
	bool found = false;

	for (unsigned i = 0; i < acpi_topo.ncpus; i++)
		found |= acpi_topo.cpus[i].apic_id == this_cpu_apic_id();
	KEXPECT(t, found);
}

static void apic_ids_are_unique(struct ktest *t)
{
	unsigned dups = 0;

	for (unsigned i = 0; i < acpi_topo.ncpus; i++)
		for (unsigned j = i + 1; j < acpi_topo.ncpus; j++)
			dups += acpi_topo.cpus[i].apic_id ==
				acpi_topo.cpus[j].apic_id;
	KEXPECT_EQ(t, dups, 0);
}

static void every_node_has_a_cpu(struct ktest *t)
{
	for (unsigned n = 0; n < acpi_topo.nnodes; n++) {
		unsigned cpus = 0;

		for (unsigned i = 0; i < acpi_topo.ncpus; i++)
			cpus += acpi_topo.cpus[i].node == n;
		KEXPECT(t, cpus > 0);
	}
	for (unsigned i = 0; i < acpi_topo.ncpus; i++)
		KEXPECT(t, acpi_topo.cpus[i].node < acpi_topo.nnodes);
}

static void cpu_count_matches_command_line(struct ktest *t)
{
	if (!boot_opts.expect_cpus) {
		ktest_skip(t, "no expect_cpus=");
		return;
	}
	KEXPECT_EQ(t, acpi_topo.ncpus, boot_opts.expect_cpus);
}

static void node_count_matches_command_line(struct ktest *t)
{
	if (!boot_opts.expect_nodes) {
		ktest_skip(t, "no expect_nodes=");
		return;
	}
	KEXPECT_EQ(t, acpi_topo.nnodes, boot_opts.expect_nodes);
}

static const struct ktest_case topo_cases[] = {
	KTEST_CASE(madt_lists_the_boot_cpu),
	KTEST_CASE(lapic_id_matches_cpuid),
	KTEST_CASE(apic_ids_are_unique),
	KTEST_CASE(every_node_has_a_cpu),
	KTEST_CASE(cpu_count_matches_command_line),
	KTEST_CASE(node_count_matches_command_line),
};
KTEST_SUITE(topo_suite, .name = "topology", .cases = topo_cases,
	    .ncases = sizeof(topo_cases) / sizeof(topo_cases[0]));

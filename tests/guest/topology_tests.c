/*
 * The firmware's view of the machine against what tools/boot asked QEMU
 * for (--expect-topology passes expect_cpus= and expect_nodes=).
 */
#include "kernel/boot.h"
#include "kernel/ktest.h"
#include "kernel/topology.h"

static uint32_t this_cpu_apic_id(void)
{
	uint32_t a = 1, b, c = 0, d;

	/* CPUID.01H:EBX[31:24] is the initial APIC ID (SDM vol. 2A, CPUID). */
	__asm__ volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
	return b >> 24;
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
	KTEST_CASE(apic_ids_are_unique),
	KTEST_CASE(every_node_has_a_cpu),
	KTEST_CASE(cpu_count_matches_command_line),
	KTEST_CASE(node_count_matches_command_line),
};
KTEST_SUITE(topo_suite, .name = "topology", .cases = topo_cases,
	    .ncases = sizeof(topo_cases) / sizeof(topo_cases[0]));

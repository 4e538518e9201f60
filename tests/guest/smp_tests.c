/* AP bring-up: every CPU the firmware lists must report in. */
#include "arch/x86_64/smp.h"
#include "kernel/boot.h"
#include "kernel/ktest.h"
#include "kernel/topology.h"

static void every_madt_cpu_is_online(struct ktest *t)
{
	for (unsigned i = 0; i < acpi_topo.ncpus; i++)
		if (!cpu_online[i])
			ktest_fail(t, __FILE__, __LINE__,
				   "CPU %u (apic %u) is not online", i,
				   acpi_topo.cpus[i].apic_id);
}

static void online_count_matches_command_line(struct ktest *t)
{
	if (!boot_opts.expect_cpus) {
		ktest_skip(t, "no expect_cpus=");
		return;
	}
	KEXPECT_EQ(t, num_online_cpus(), boot_opts.expect_cpus);
}

static const struct ktest_case smp_cases[] = {
	KTEST_CASE(every_madt_cpu_is_online),
	KTEST_CASE(online_count_matches_command_line),
};
KTEST_SUITE(smp_suite, .name = "smp", .cases = smp_cases,
	    .ncases = sizeof(smp_cases) / sizeof(smp_cases[0]));

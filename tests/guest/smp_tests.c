/* AP bring-up: every CPU the firmware lists must report in. */
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/smp.h"
#include "kernel/boot.h"
#include "kernel/ktest.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/smp_call.h"
#include "kernel/topology.h"

static void every_madt_cpu_is_online(struct ktest *t)
{
	for (unsigned i = 0; i < acpi_topo.ncpus; i++)
		if (!cpu_online(i))
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

static void read_lapic_id(void *arg)
{
	*(volatile uint32_t *)arg = lapic_id();
}

/*
 * Each online CPU reads its own LAPIC id (all 32 bits in x2APIC mode) and
 * it must be the id the MADT gave for that CPU: the id IPIs are sent to.
 */
static void every_cpu_reads_its_madt_apic_id(struct ktest *t)
{
	for (unsigned i = 0; i < acpi_topo.ncpus; i++) {
		volatile uint32_t id = ~0U;

		if (!cpu_online(i))
			continue;
		if (i == smp_processor_id())
			read_lapic_id((void *)&id);
		else if (!smp_call_on(i, read_lapic_id, (void *)&id))
			ktest_fail(t, __FILE__, __LINE__,
				   "CPU %u: call timed out", i);
		if (id != acpi_topo.cpus[i].apic_id)
			ktest_fail(t, __FILE__, __LINE__,
				   "CPU %u: LAPIC id %u, MADT apic %u", i, id,
				   acpi_topo.cpus[i].apic_id);
	}
}

/* An id above 0xFE exists only in x2APIC mode; xAPIC cannot name it. */
static void apic_mode_can_address_every_cpu(struct ktest *t)
{
	for (unsigned i = 0; i < acpi_topo.ncpus; i++)
		if (!lapic_id_reachable(acpi_topo.cpus[i].apic_id))
			ktest_fail(t, __FILE__, __LINE__,
				   "CPU %u (apic %u) unreachable in %s mode", i,
				   acpi_topo.cpus[i].apic_id,
				   lapic_mode_name());
	printk("        # apic mode=%s x2apic_cpuid=%s\n", lapic_mode_name(),
	       lapic_has_x2apic() ? "yes" : "no");
}

static const struct ktest_case smp_cases[] = {
	KTEST_CASE(every_madt_cpu_is_online),
	KTEST_CASE(online_count_matches_command_line),
	KTEST_CASE(every_cpu_reads_its_madt_apic_id),
	KTEST_CASE(apic_mode_can_address_every_cpu),
};
KTEST_SUITE(smp_suite, .name = "smp", .cases = smp_cases,
	    .ncases = sizeof(smp_cases) / sizeof(smp_cases[0]));

#include "kernel/topology.h"
#include "arch/x86_64/arch.h"
#include "kernel/cputopo.h"
#include "kernel/boot.h"
#include "kernel/kmem.h"
#include "kernel/mm.h"
#include "kernel/printk.h"

struct acpi_topology acpi_topo;
/* [acpi_topo.ncpus], sized by topology_init() from the MADT's count. */
static struct acpi_cpu *acpi_cpus;

/* ACPI tables live in RAM or in the BIOS area, all under the direct map. */
static const void *acpi_map(uint64_t phys, uint64_t len)
{
	const uint64_t limit = 1ULL << 32;

	if (phys >= limit || len > limit - phys)
		return 0;
	return phys_to_virt(phys);
}

/*
 * Packages, cores and SMT threads from the APIC id layout that CPUID
 * describes (leaf 0x1F/0xB, else 1/4), applied to the MADT's APIC ids.
 */
static struct apic_id_layout layout;

void topology_print_cpus(void)
{
	unsigned n = acpi_topo.ncpus;
	/* Boot-lifetime like everything kzalloc() gives; 4 bytes a CPU. */
	uint32_t *ids = kzalloc((n ? n : 1) * sizeof(*ids));

	cputopo_layout(kernel_cpuid, 0, &layout);
	if (!ids) {
		printk("topology: no memory to list %u CPUs\n", n);
		return;
	}
	for (unsigned i = 0; i < n; i++)
		ids[i] = acpi_cpus[i].apic_id;
	printk("# topology cpus=%u nodes=%u packages=%u threads_per_core=%u\n",
	       n, acpi_topo.nnodes, cputopo_count_packages(ids, n, &layout),
	       cputopo_threads_per_core(ids, n, &layout));
	for (unsigned i = 0; i < n; i++) {
		unsigned pkg, core, thread;

		cputopo_decode(&layout, ids[i], &pkg, &core, &thread);
		printk("# cpu cpu=%u apic=%u node=%u package=%u core=%u "
		       "thread=%u\n",
		       i, ids[i], acpi_cpus[i].node, pkg, core, thread);
	}
}

int topology_init(void)
{
	const void *rsdp;
	size_t rsdp_len;
	uint64_t rsdp_phys;
	char err[160];

	if (boot_info.rsdp_len) {
		rsdp = boot_info.rsdp;
		rsdp_len = boot_info.rsdp_len;
	} else if (!acpi_find_rsdp(acpi_map, &rsdp_phys)) {
		rsdp_len = 36;
		rsdp = acpi_map(rsdp_phys, rsdp_len);
	} else {
		printk("acpi: no RSDP from the loader or in the BIOS areas\n");
		return -1;
	}
	/*
	 * Twice: without storage the parser only counts the enabled CPUs
	 * (ncpus_present); the second pass fills an array of exactly that
	 * many, so no compile-time maximum bounds the machine.
	 */
	for (int pass = 0; pass < 2; pass++) {
		if (pass) {
			unsigned n = acpi_topo.ncpus_present;

			acpi_cpus = kzalloc((n ? n : 1) * sizeof(*acpi_cpus));
			if (!acpi_cpus) {
				printk("acpi: no memory for %u CPUs\n", n);
				return -1;
			}
			acpi_topo.cpus_cap = n;
		}
		acpi_topo.cpus = acpi_cpus;
		if (acpi_parse(acpi_map, rsdp, rsdp_len, &acpi_topo, err,
			       sizeof(err))) {
			printk("%s\n", err);
			return -1;
		}
	}
	if (acpi_topo.cpus_truncated)
		printk("acpi: %u CPUs present, only the first %u are used\n",
		       acpi_topo.ncpus_present, acpi_topo.ncpus);
	printk("# acpi cpus=%u nodes=%u srat=%s slit=%s ioapics=%u "
	       "lapic=0x%lx\n",
	       acpi_topo.ncpus, acpi_topo.nnodes,
	       acpi_topo.have_srat ? "yes" : "no",
	       acpi_topo.have_slit ? "yes" : "no", acpi_topo.nioapics,
	       (unsigned long)acpi_topo.lapic_phys);
	return 0;
}

/* The APIC id without its SMT bits: equal exactly for SMT siblings. */
uint32_t topology_core_key(unsigned cpu)
{
	return acpi_cpus[cpu].apic_id >> layout.smt_shift;
}

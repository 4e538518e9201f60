#include "kernel/topology.h"
#include "kernel/boot.h"
#include "kernel/mm.h"
#include "kernel/printk.h"

struct acpi_topology acpi_topo;
static struct acpi_cpu acpi_cpus[TOPOLOGY_MAX_CPUS];

/* ACPI tables live in RAM or in the BIOS area, all under the direct map. */
static const void *acpi_map(uint64_t phys, uint64_t len)
{
	const uint64_t limit = 1ULL << 32;

	if (phys >= limit || len > limit - phys)
		return 0;
	return phys_to_virt(phys);
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
	acpi_topo.cpus = acpi_cpus;
	acpi_topo.cpus_cap = TOPOLOGY_MAX_CPUS;
	if (acpi_parse(acpi_map, rsdp, rsdp_len, &acpi_topo, err,
		       sizeof(err))) {
		printk("%s\n", err);
		return -1;
	}
	if (acpi_topo.cpus_truncated)
		printk("acpi: %u CPUs present, only the first %u are used\n",
		       acpi_topo.ncpus_present, acpi_topo.ncpus);
	printk("# acpi cpus=%u nodes=%u srat=%s slit=%s ioapics=%u "
	       "lapic=0x%lx\n", acpi_topo.ncpus, acpi_topo.nnodes,
	       acpi_topo.have_srat ? "yes" : "no",
	       acpi_topo.have_slit ? "yes" : "no", acpi_topo.nioapics,
	       (unsigned long)acpi_topo.lapic_phys);
	for (unsigned i = 0; i < acpi_topo.ncpus; i++)
		printk("# acpi_cpu index=%u apic=%u node=%u\n", i,
		       acpi_cpus[i].apic_id, acpi_cpus[i].node);
	return 0;
}

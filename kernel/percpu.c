#include "kernel/percpu.h"
#include "arch/x86_64/arch.h"
#include "kernel/mm.h"
#include "kernel/pmm.h"
#include "lib/errno.h"
#include "lib/string.h"

#define MSR_GS_BASE 0xC0000101

struct percpu *percpu_areas;
unsigned nr_cpus;

int percpu_alloc(unsigned ncpus)
{
	uint64_t bytes = (uint64_t)ncpus * sizeof(struct percpu);
	uint64_t pa = pmm_alloc_contig((bytes + PAGE_SIZE - 1) / PAGE_SIZE);

	if (!pa)
		return -ENOMEM;
	percpu_areas = phys_to_virt(pa);
	memset(percpu_areas, 0, bytes);
	for (unsigned i = 0; i < ncpus; i++) {
		percpu_areas[i].self = &percpu_areas[i];
		percpu_areas[i].cpu = i;
	}
	nr_cpus = ncpus;
	return 0;
}

/* Point this CPU's GS base at its area; called once on each CPU. */
void percpu_install(unsigned cpu)
{
	wrmsr(MSR_GS_BASE, (uint64_t)&percpu_areas[cpu]);
}

bool percpu_installed(void)
{
	return rdmsr(MSR_GS_BASE) != 0;
}

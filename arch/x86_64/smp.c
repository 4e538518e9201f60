/*
 * AP bring-up (SDM vol. 3A 9.4.4): for each AP in turn, copy the trampoline
 * below 1 MiB, give it a stack and the kernel's CR3, send INIT-SIPI-SIPI
 * and wait for the AP to mark itself online.  One AP at a time because the
 * trampoline's parameter block is shared.
 */
#include "arch/x86_64/smp.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/gdt.h"
#include "kernel/idle.h"
#include "kernel/kmem.h"
#include "kernel/percpu.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/trap.h"
#include "arch/x86_64/tsc.h"
#include "kernel/mm.h"
#include "kernel/panic.h"
#include "kernel/pmm.h"
#include "kernel/printk.h"
#include "kernel/topology.h"
#include "lib/atomic.h"
#include "lib/string.h"
#include "lib/time.h"

#define AP_TRAMPOLINE_PHYS	0x8000
#define AP_STACK_PAGES		4
/* How long an AP may take from SIPI to reporting in (TCG is slow). */
#define AP_ONLINE_WAIT_NS	NSEC_PER_SEC

extern const char ap_trampoline_start[], ap_trampoline_end[];
extern const char ap_trampoline_params[];

struct tramp_params {
	uint64_t cr3, stack, entry, arg;
};

/* One per AP, allocated at bring-up. */
struct ap_boot {
	struct ist_stack ist[IST_COUNT];
	struct cpu_desc desc;
	unsigned idx;
	bool synced;
};

/* [acpi_topo.ncpus], allocated by smp_boot_aps(); NULL before it. */
volatile uint8_t *cpu_online;

unsigned num_online_cpus(void)
{
	unsigned n = 0;

	for (unsigned i = 0; i < acpi_topo.ncpus; i++)
		n += cpu_online[i];
	return n;
}

static __attribute__((noreturn)) void ap_entry_c(struct ap_boot *b)
{
	gdt_init_cpu(&b->desc, b->ist);
	idt_load();
	percpu_install(b->idx);
	lapic_enable();
	this_cpu()->booted = true;
	smp_store_release(&cpu_online[b->idx], 1);
	tsc_sync_ap();
	/* The boot CPU stores our offset before it lets anyone call us. */
	while (!smp_load_acquire(&b->synced))
		cpu_relax();
	cpu_startup_entry();
}

static void *alloc_pages(uint64_t n)
{
	uint64_t pa = pmm_alloc_contig(n);

	return pa ? phys_to_virt(pa) : 0;
}

/* The longest of the APs' kept TSC sync round trips, for # tsc_sync. */
static uint64_t sync_worst_rtt;
static unsigned sync_worst_cpu;

static bool start_one(unsigned idx, uint32_t apic_id)
{
	struct tramp_params *p = phys_to_virt(AP_TRAMPOLINE_PHYS +
					      (ap_trampoline_params -
					       ap_trampoline_start));
	uint64_t pages = (sizeof(struct ap_boot) + PAGE_SIZE - 1) / PAGE_SIZE;
	struct ap_boot *b = alloc_pages(pages);
	char *stack = alloc_pages(AP_STACK_PAGES);
	uint64_t t0, rtt;

	if (!b || !stack) {
		printk("smp: out of memory for CPU %u\n", idx);
		return false;
	}
	memset(b, 0, sizeof(*b));
	b->idx = idx;
	p->cr3 = read_cr3();
	p->stack = (uint64_t)(stack + AP_STACK_PAGES * PAGE_SIZE);
	p->entry = (uint64_t)ap_entry_c;
	p->arg = (uint64_t)b;
	smp_mb();
	if (!lapic_start_ap(apic_id, AP_TRAMPOLINE_PHYS)) {
		printk("smp: CPU %u (apic %u): IPI not delivered\n", idx,
		       apic_id);
		return false;
	}
	t0 = clock_ns();
	while (!smp_load_acquire(&cpu_online[idx])) {
		if (clock_ns() - t0 > AP_ONLINE_WAIT_NS) {
			printk("smp: CPU %u (apic %u) did not report in, "
			       "left out\n", idx, apic_id);
			return false;
		}
		cpu_relax();
	}
	per_cpu(idx)->tsc_offset = (uint64_t)tsc_sync_bsp(&rtt);
	per_cpu(idx)->tsc_sync_ns = tsc_to_ns(rtt) / 2 + 1;
	if (rtt > sync_worst_rtt) {
		sync_worst_rtt = rtt;
		sync_worst_cpu = idx;
	}
	smp_store_release(&b->synced, true);
	return true;
}

unsigned smp_boot_aps(void)
{
	uint32_t self = lapic_id();
	size_t len = (size_t)(ap_trampoline_end - ap_trampoline_start);
	/* At least one byte: the boot CPU is online even with no MADT CPU. */
	volatile uint8_t *online = kzalloc(acpi_topo.ncpus + 1);

	if (!online)
		panic("smp: no memory for the online map of %u CPUs",
		      acpi_topo.ncpus);
	cpu_online = online;
	memcpy(phys_to_virt(AP_TRAMPOLINE_PHYS), ap_trampoline_start, len);
	if (paging_map_low_exec(AP_TRAMPOLINE_PHYS))
		printk("smp: cannot map the trampoline\n");
	for (unsigned i = 0; i < acpi_topo.ncpus; i++) {
		if (acpi_topo.cpus[i].apic_id == self) {
			per_cpu(i)->booted = true;
			cpu_online[i] = 1;
			continue;
		}
		if (!lapic_id_reachable(acpi_topo.cpus[i].apic_id)) {
			printk("smp: CPU %u (apic %u) cannot be addressed in "
			       "%s mode, left out\n", i,
			       acpi_topo.cpus[i].apic_id, lapic_mode_name());
			continue;
		}
		start_one(i, acpi_topo.cpus[i].apic_id);
	}
	printk("# smp cpus_online=%u cpus_present=%u apic=%s\n",
	       num_online_cpus(), acpi_topo.ncpus, lapic_mode_name());
	printk("# tsc_sync max_rounds=%u worst_rtt_ns=%lu cpu=%u\n",
	       (unsigned)TSC_SYNC_MAX_ROUNDS,
	       (unsigned long)tsc_to_ns(sync_worst_rtt), sync_worst_cpu);
	return num_online_cpus();
}

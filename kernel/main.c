/*
 * kmain: the boot CPU's C entry, called from boot/entry.S in long mode on
 * the boot stack with the loader's magic and boot-information address.
 */
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/irq.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/pic.h"
#include "arch/x86_64/smp.h"
#include "arch/x86_64/trap.h"
#include "arch/x86_64/tsc.h"
#include "drivers/debugexit.h"
#include "drivers/uart.h"
#include "kernel/boot.h"
#include "kernel/boottime.h"
#include "kernel/fault_test.h"
#include "kernel/idle.h"
#include "kernel/ktest.h"
#include "kernel/mm.h"
#include "kernel/panic.h"
#include "kernel/pmm.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/scenario.h"
#include "kernel/spinlock.h"
#include "kernel/timers.h"
#include "kernel/topology.h"
#include "kernel/trace.h"
#include "kernel/watchdog.h"
#include "lib/atomic.h"
#include "lib/errno.h"
#include "lib/parse.h"
#include "lib/string.h"
#include "lib/time.h"
#include "timer/timer.h"

#define GIB	      (1UL << 30)
#define PMM_MAX_PHYS  (64 * GIB)
/* Bitmap for the page allocator: one bit per 4 KiB page below PMM_MAX_PHYS. */
#define PMM_MAX_BYTES (PMM_MAX_PHYS / PAGE_SIZE / 8)

struct bootinfo boot_info;
struct boot_options boot_opts;
static struct scenario_opts scenario;
static uint8_t pmm_bitmap[PMM_MAX_BYTES] __attribute__((aligned(8)));

/* Until paging_init, only the boot tables' 4 GiB direct map exists. */
static const void *boot_phys_map(uint64_t phys, uint64_t len)
{
	if (phys >= 4 * GIB || len > 4 * GIB - phys)
		return 0;
	return phys_to_virt(phys);
}

static void cmdline_help_line(const char *line, void *arg)
{
	(void)arg;
	printk("%s\n", line);
}

static __attribute__((noreturn)) void fail_boot(const char *why)
{
	printk("%s\n", why);
	debug_exit(EXIT_FAIL);
}

/*
 * Multiboot1 loaders (QEMU -kernel, GRUB's multiboot) put the image path
 * before the arguments; multiboot2 GRUB passes the arguments alone.
 */
static void strip_image_path(struct bootinfo *bi)
{
	char *p = bi->cmdline;

	if (bi->proto != 1)
		return;
	while (*p == ' ')
		p++;
	while (*p && *p != ' ')
		p++;
	while (*p == ' ')
		p++;
	memmove(bi->cmdline, p, strlen(p) + 1);
}

static uint64_t usable_top(const struct bootinfo *bi)
{
	uint64_t top = 0;

	for (unsigned i = 0; i < bi->nregions; i++)
		if (bi->regions[i].type == 1 &&
		    bi->regions[i].base + bi->regions[i].len > top)
			top = bi->regions[i].base + bi->regions[i].len;
	return top;
}

static void pmm_warn_printk(const char *msg)
{
	printk("%s\n", msg);
}

/*
 * The page allocator and the direct map cover RAM below PMM_MAX_PHYS; RAM
 * above it is left unused (said once), so every page handed out is mapped.
 */
static void mm_init(void)
{
	static struct mem_region clipped[BOOTINFO_MAX_REGIONS];
	uint64_t top = usable_top(&boot_info);
	unsigned n = 0;
	int err;

	if (!top)
		fail_boot("mm: the loader gave no usable RAM (no memory map "
			  "entry of type 1, no mem_lower/mem_upper)");
	if (boot_info.regions_from_meminfo)
		printk("mm: no memory map from the loader, using its mem_lower"
		       " and mem_upper (RAM below 4 GiB only)\n");

	if (top > PMM_MAX_PHYS)
		printk("mm: using the first %lu GiB of %lu MiB\n",
		       PMM_MAX_PHYS / GIB, top >> 20);
	for (unsigned i = 0; i < boot_info.nregions; i++) {
		struct mem_region r = boot_info.regions[i];

		if (r.base >= PMM_MAX_PHYS)
			continue;
		if (r.len > PMM_MAX_PHYS - r.base)
			r.len = PMM_MAX_PHYS - r.base;
		clipped[n++] = r;
	}
	if (top > PMM_MAX_PHYS)
		top = PMM_MAX_PHYS;
	pmm_warn = pmm_warn_printk;
	err = pmm_init(clipped, n, (uint64_t)__kernel_phys_start,
		       kernel_virt_to_phys(__kernel_end), pmm_bitmap,
		       sizeof(pmm_bitmap));
	if (err)
		panic("pmm_init failed: %d", err);
	err = paging_init(top);
	if (err)
		panic("paging_init failed: %d", err);
}

/* Per-CPU areas for every MADT CPU; the boot CPU installs its own. */
static void cpus_init(void)
{
	uint32_t self = lapic_id();

	if (percpu_alloc(acpi_topo.ncpus))
		panic("percpu: no memory for %u CPUs", acpi_topo.ncpus);
	for (unsigned i = 0; i < acpi_topo.ncpus; i++) {
		per_cpu(i)->apic_id = acpi_topo.cpus[i].apic_id;
		per_cpu(i)->node = acpi_topo.cpus[i].node;
		per_cpu(i)->core_id = topology_core_key(i);
		if (acpi_topo.cpus[i].apic_id == self)
			percpu_install(i);
	}
}

static void isolate_cpu(unsigned cpu, void *arg)
{
	unsigned *bad = arg;

	if (cpu >= nr_cpus) {
		if (*bad == ~0U)
			*bad = cpu;
		return;
	}
	per_cpu(cpu)->isolated = true;
}

/* isolcpus=: syntax was checked with the command line, CPUs only now. */
static void apply_isolcpus(void)
{
	unsigned bad = ~0U;
	const char *l = boot_opts.isolcpus;

	if (!*l)
		return;
	parse_cpulist(l, strlen(l), isolate_cpu, &bad, 1u << 20);
	if (bad != ~0U) {
		printk("isolcpus: CPU %u does not exist (CPUs 0-%u)\n", bad,
		       nr_cpus - 1);
		debug_exit(EXIT_FAIL);
	}
}

/* One `# stat` line per online CPU (docs/serial-format.md). */
/*
 * Last, so it counts every byte before it: tools/boot fails a boot whose
 * serial output lost bytes (the host left the UART full past its bound).
 */
static void print_console_stats(void)
{
	struct uart_stats u;

	uart_get_stats(&u);
	printk("# console lost_bytes=%lu stall_max_ms=%lu\n", u.lost_bytes,
	       u.stall_max_ns / NSEC_PER_MSEC);
}

static void print_cpu_stats(void)
{
	for (unsigned i = 0; i < nr_cpus; i++) {
		const struct percpu *p = per_cpu(i);
		struct timer_cpu_stats ts;
		uint64_t idle_ns = p->idle.ns;

		if (!cpu_online(i))
			continue;
		/* A CPU halted right now: count its current idle period too. */
		if (READ_ONCE(p->idle.halted))
			idle_ns += clock_ns() - p->idle.since;
		timer_get_stats(i, &ts);
		printk("# stat cpu=%u node=%u wakes=%lu wakes_timer=%lu "
		       "wakes_ipi=%lu wakes_other=%lu idle_us=%lu ticks=%lu "
		       "tick_stops=%lu expired_local=%lu expired_remote=%lu "
		       "pulled_for=%lu offlines=%lu offline_us=%lu "
		       "parked_wakes=%lu softirq_deferred=%lu "
		       "irq_before_halt=%lu\n",
		       i, p->node, cpu_idle_wakes(&p->idle),
		       p->idle.wakes_timer, p->idle.wakes_ipi,
		       p->idle.wakes_other, idle_ns / NSEC_PER_USEC,
		       p->tick.ticks, p->tick.stops, ts.expired_local,
		       ts.expired_remote, ts.pulled_for, p->hp.offlines,
		       p->hp.offline_ns / NSEC_PER_USEC, p->hp.parked_wakes,
		       p->softirq.deferred, p->idle.irq_before_halt);
	}
}

/*
 * The loader's boot information, the command line, the self-test names and
 * the scenario: bad input ends the boot with its message and EXIT_FAIL,
 * before anything is brought up.
 */
static void parse_boot_args(uint32_t magic, uint32_t info_phys)
{
	char err[160];

	if (bootinfo_parse(magic, info_phys, boot_phys_map, &boot_info, err,
			   sizeof(err)))
		fail_boot(err);
	strip_image_path(&boot_info);
	if (cmdline_parse(boot_info.cmdline, &boot_opts, err, sizeof(err))) {
		printk("%s\n", err);
		printk("cmdline: known options:\n");
		cmdline_help(cmdline_help_line, 0);
		debug_exit(EXIT_FAIL);
	}
	if (ktest_validate(boot_opts.selftest))
		debug_exit(EXIT_FAIL);
	if (scenario_parse(boot_opts.scenario, &scenario, err, sizeof(err)))
		fail_boot(err);
}

/* The TSC, calibrated against the PIT: every clock_ns() reads it. */
static void clocksource_init(void)
{
	int cal = tsc_calibrate();

	if (cal == -EAGAIN)
		panic("clock: the host stalled every PIT window (%u), cannot "
		      "calibrate the TSC",
		      tsc_calibration_stalls());
	if (cal)
		panic("clock: PIT channel 2 never signalled, cannot calibrate "
		      "the TSC");
	printk("# clock source=tsc calibrated_by=pit tsc_khz=%lu "
	       "stalled_windows=%u\n",
	       tsc_hz() / 1000, tsc_calibration_stalls());
}

/* The boot CPU's LAPIC timer, calibrated, in the mode clockevent= asks. */
static void clockevent_init(void)
{
	lapic_enable();
	lapic_timer_calibrate();
	if (lapic_clockevent_select(boot_opts.clockevent != CLOCKEVENT_ONESHOT,
				    boot_opts.clockevent ==
					    CLOCKEVENT_DEADLINE))
		fail_boot("clockevent: deadline asked for, but CPUID.01H:ECX"
			  "[24] says this CPU has no TSC-deadline timer");
	printk("# clockevent lapic_timer_khz=%lu err_ppm=%lu mode=%s\n",
	       lapic_timer_rate() / 1000,
	       (unsigned long)lapic_timer_rate_error_ppm(),
	       lapic_clockevent_mode());
}

void kmain(uint32_t magic, uint32_t info_phys);
void kmain(uint32_t magic, uint32_t info_phys)
{
	unsigned failed;

	boot_time_entry();
	uart_init();
	printk("\n# tinykernel: x86_64 timer pull-model kernel\n");
	paging_register_guard(boot_stack_guard);
	gdt_init_boot_cpu();
	idt_init();
	pic_disable();

	parse_boot_args(magic, info_phys);

	mm_init();
	boot_phase_done(BOOT_PHASE_MEMORY);
	printk("# boot proto=multiboot%d cmdline=\"%s\" free_kib=%lu\n",
	       boot_info.proto, boot_info.cmdline,
	       (unsigned long)(pmm_free_pages() * (PAGE_SIZE / 1024)));

	if (topology_init())
		debug_exit(EXIT_FAIL);
	boot_phase_done(BOOT_PHASE_ACPI);
	topology_print_cpus();
	boot_phase_done(BOOT_PHASE_CPU_LIST);
	clocksource_init();

	lapic_init(acpi_topo.lapic_phys);
	cpus_init();
	apply_isolcpus();
	trace_init(); /* before timers_init(): the tree is traced */
	irq_init();
	clockevent_init();
	boot_phase_done(BOOT_PHASE_CLOCK);
	timers_init();
	timers_cpu_online();
	boot_phase_done(BOOT_PHASE_HIERARCHY);
	smp_boot_aps(&(struct smp_boot_args){
		.parallel = boot_opts.cpuhp_parallel,
		.init_udelay = boot_opts.cpu_init_udelay,
		.late_test = boot_opts.ap_late_test,
		.sync_stall_us = boot_opts.tsc_sync_stall_test,
		.report_delay_ms = boot_opts.ap_report_delay_test,
	});
	boot_phase_done(BOOT_PHASE_APS);
	boot_time_print();
	/* The boot CPU is busy (it runs the tests): its tick runs. */
	local_irq_enable();
	/* Not earlier: AP bring-up keeps this CPU's interrupts off. */
	watchdog_init(boot_opts.watchdog_s);

	if (scenario_check(&scenario))
		debug_exit(EXIT_FAIL);

	if (boot_opts.fault_test == FAULT_TEST_ALLCPUS)
		fault_test_allcpus();
	failed = ktest_run(boot_opts.selftest);
	if (scenario.kind != SCENARIO_NONE)
		failed += scenario_run(&scenario);
	watchdog_stage("report", 0, 0);
	trace_dump();
	print_cpu_stats();
	print_console_stats();
	debug_exit(failed ? EXIT_FAIL : EXIT_PASS);
}

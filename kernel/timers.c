/*
 * The kernel's set-up of timer/: the bases, the placement model and the
 * migration hierarchy at boot, and each CPU's tick and hierarchy entry as
 * it comes up.
 */
#include "kernel/timers.h"
#include "kernel/boot.h"
#include "kernel/kmem.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/tick.h"
#include "kernel/topology.h"
#include "timer/timer.h"
#include "timer/timer_migration.h"

void timers_init(void)
{
	size_t size = timer_bases_size(nr_cpus);
	void *bases = kzalloc(size);
	struct tmigr_shape shape;
	int err;

	if (!bases)
		panic("timers: no memory for %u CPUs' bases (%zu bytes)",
		      nr_cpus, size);
	tick_init(boot_opts.hz, boot_opts.nohz);
	if (timer_init(bases, nr_cpus, boot_opts.hz))
		panic("timers: timer_init failed");
	timer_set_model(boot_opts.timer_model);
	/* As Linux 6.8: migration needs the sysctl and NOHZ active. */
	timer_set_migration(boot_opts.timer_migration && boot_opts.nohz);
	tmigr_set_wake(boot_opts.tmigr_wake);
	err = tmigr_init(nr_cpus, acpi_topo.nnodes);
	if (err)
		panic("tmigr: init failed (%d)", err);
	for (unsigned i = 0; i < nr_cpus; i++)
		timers_cpu_prepare(i);
	tmigr_get_shape(&shape);
	printk("# timer model=%s hz=%u nohz=%s isolcpus=%s initial_jiffies=%lu\n",
	       timer_model_name(boot_opts.timer_model), boot_opts.hz,
	       boot_opts.nohz ? "on" : "off",
	       boot_opts.isolcpus[0] ? boot_opts.isolcpus : "none",
	       (unsigned long)jiffies64);
	printk("# tmigr levels=%u children=%u crossnode=%u groups=%u wake=%s\n",
	       shape.levels, TMIGR_CHILDS_PER_GROUP, shape.crossnode_level,
	       shape.groups, tmigr_wake_name(boot_opts.tmigr_wake));
}

void timers_cpu_prepare(unsigned int cpu)
{
	int err = tmigr_cpu_prepare(cpu);

	if (err)
		panic("tmigr: cannot prepare CPU %u (%d)", cpu, err);
}

void timers_cpu_online(void)
{
	int err;

	tick_cpu_start();
	err = tmigr_cpu_online();
	if (err)
		panic("tmigr: CPU %u cannot join (%d)", smp_processor_id(),
		      err);
}

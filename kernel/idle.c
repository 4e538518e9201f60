/*
 * The idle loop, NOHZ entry and exit, and the kernel's side of timer/.
 *
 * Data flow (docs/design.md, "Going idle"): idle entry -> tick_nohz_idle_stop_tick() ->
 * timer_nohz_next_event() (forward and idle the bases; under the pull
 * model hand the first global event to the hierarchy) -> LAPIC armed for
 * what this CPU must serve itself -> HLT.  An interrupt ends the HLT; its
 * handler runs the tick and the timer softirq; if it left no work the CPU
 * re-enters HLT, re-asking timer/ (a timer queued meanwhile is then passed
 * on with tmigr_cpu_new_timer()).  Work ends the period: timer_nohz_idle_
 * exit() (tmigr_cpu_activate()), tick restarted, jiffies caught up.
 */
#include "kernel/idle.h"
#include "kernel/hotplug.h"
#include "arch/x86_64/idle.h"
#include "arch/x86_64/irq.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/tsc.h"
#include "kernel/cmdline.h"
#include "kernel/kmem.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/smp_call.h"
#include "kernel/spinlock.h"
#include "kernel/tick.h"
#include "kernel/topology.h"
#include "kernel/trace.h"
#include "lib/atomic.h"
#include "timer/timer.h"
#include "timer/timer_migration.h"

extern struct boot_options boot_opts;

uint64_t timer_env_now_ns(void)
{
	return clock_ns();
}

bool cpu_is_idle(unsigned int cpu)
{
	return READ_ONCE(per_cpu(cpu)->in_idle_loop);
}

bool timer_env_cpu_idle(unsigned int cpu)
{
	return cpu_is_idle(cpu);
}

void timer_env_wake_cpu(unsigned int cpu)
{
	if (cpu == smp_processor_id())
		return;		/* we are awake; the idle path re-asks */
	lapic_send_ipi(per_cpu(cpu)->apic_id, RESCHEDULE_VECTOR);
}

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
	printk("# tmigr levels=%u children=%u crossnode=%u groups=%u\n",
	       shape.levels, TMIGR_CHILDS_PER_GROUP, shape.crossnode_level,
	       shape.groups);
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

/*
 * One idle period, entered with interrupts off: HLT until @done (or, for
 * the idle loop, until work is queued), then leave NOHZ.
 */
static void do_idle(bool (*done)(void *), void *arg)
{
	struct percpu *p = this_cpu();

	WRITE_ONCE(p->in_idle_loop, true);
	for (;;) {
		/* Short calls are served in idle, as Linux's IPI handlers. */
		if (smp_call_run_pending(false))
			continue;
		if (done ? done(arg) : smp_call_work_pending())
			break;
		tick_nohz_idle_stop_tick();
		trace(idle_enter, p->tick_stopped, p->tick_next_ns);
		arch_cpu_idle();
	}
	WRITE_ONCE(p->in_idle_loop, false);
	tick_nohz_idle_exit();
}

__attribute__((noreturn)) void cpu_idle_loop(void)
{
	local_irq_disable();
	for (;;) {
		do_idle(0, 0);
		smp_call_run_pending(true);
		/* The work was cpu_down()'s: park until cpu_up(). */
		if (this_cpu()->offline)
			cpu_park();
	}
}

void cpu_idle_until(bool (*done)(void *), void *arg)
{
	unsigned long flags = local_irq_save();

	do_idle(done, arg);
	local_irq_restore(flags);
}

struct sleeper {
	struct timer_list timer;
	volatile bool fired;
};

static void sleeper_fn(struct timer_list *t)
{
	((struct sleeper *)t)->fired = true;
}

static bool sleeper_done(void *arg)
{
	return ((struct sleeper *)arg)->fired;
}

void cpu_idle_sleep_ns(uint64_t ns)
{
	struct sleeper s = { .fired = false };

	timer_setup(&s.timer, sleeper_fn, TIMER_PINNED);
	mod_timer(&s.timer, tick_update_jiffies() + tick_ns_to_jiffies(ns) + 1);
	cpu_idle_until(sleeper_done, &s);
	timer_delete_sync(&s.timer);
}

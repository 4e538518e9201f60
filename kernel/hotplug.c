/*
 * CPU offline and online at run time (kernel/hotplug.h).
 *
 * Linux runs a state machine per CPU; here one request at a time is enough.
 * The controller hands the going CPU a piece of work (smp_run_async()), so
 * that CPU leaves idle and goes down from the running state, as Linux's
 * hotplug thread does: offline in the map first (no new calls or work are
 * sent to it), out of the hierarchy (tmigr_cpu_offline() first expires the
 * idle CPUs' due global timers if it is a migrator, docs/races.md, "CPU
 * online for less than a tick", and may hand the first event still to
 * come to another CPU: "Last active CPU goes offline"), tick stopped,
 * timers moved to the controller
 * (timers_cpu_dead()).  It then parks in the idle loop.
 *
 * A request that is not taken within a second (the CPU was busy with other
 * work) is cancelled: the work, when it finally runs, sees the state is no
 * longer PENDING, or belongs to an older generation, and does nothing.
 */
#include "kernel/hotplug.h"
#include "arch/x86_64/arch.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/smp_call.h"
#include "kernel/spinlock.h"
#include "kernel/tick.h"
#include "lib/atomic.h"
#include "lib/errno.h"
#include "lib/time.h"
#include "timer/timer.h"
#include "timer/timer_migration.h"

#define HOTPLUG_WAIT_NS NSEC_PER_SEC

enum { REQ_IDLE, REQ_PENDING, REQ_RUNNING, REQ_DONE, REQ_CANCELLED };

/* The one request in flight; written by its controller under hotplug_busy. */
static struct {
	unsigned state; /* REQ_*, atomic */
	unsigned gen;	/* which cpu_down() the work belongs to */
	unsigned to;	/* controller: gets the timers */
	unsigned moved;
} req;
static unsigned hotplug_busy;
static uint64_t moved_total; /* under hotplug_busy */

uint64_t hotplug_timers_moved(void)
{
	return READ_ONCE(moved_total);
}

bool cpu_present_booted(unsigned cpu)
{
	return cpu < nr_cpus && per_cpu(cpu)->hp.booted;
}

static unsigned req_state(void)
{
	return smp_load_acquire(&req.state);
}

/* Take the one hotplug slot; false (said when @verbose) if it is taken. */
static bool hotplug_begin(const char *op, bool verbose)
{
	unsigned expect = 0;

	if (try_cmpxchg(&hotplug_busy, &expect, 1))
		return true;
	if (verbose)
		printk("%s: another hotplug operation is in progress\n", op);
	return false;
}

static void hotplug_end(void)
{
	smp_store_release(&hotplug_busy, 0);
}

/* On the going CPU, as work (irqs on); returns with irqs off. */
static void cpu_offline_work(void *arg)
{
	struct percpu *p = this_cpu();
	unsigned expect = REQ_PENDING;

	if ((unsigned)(uintptr_t)arg != READ_ONCE(req.gen) ||
	    !try_cmpxchg(&req.state, &expect, REQ_RUNNING))
		return; /* a cancelled or older request */
	local_irq_disable();
	set_cpu_online(p->cpu, false);
	WRITE_ONCE(p->hp.offline, true);
	tmigr_cpu_offline();
	tick_cpu_stop();
	req.moved = timers_cpu_dead(p->cpu, req.to);
	smp_store_release(&req.state, REQ_DONE);
}

void cpu_park(void)
{
	struct percpu *p = this_cpu();
	uint64_t t0 = clock_ns();

	p->hp.offlines++;
	while (!smp_load_acquire(&p->hp.online_request))
		arch_cpu_idle(); /* no idle accounting: parked */
	WRITE_ONCE(p->hp.online_request, false);
	p->hp.offline_ns += clock_ns() - t0;
	timers_cpu_up(p->cpu);
	WRITE_ONCE(p->hp.offline, false);
	/*
	 * Straight back to idle, tick still stopped: the idle path arms what
	 * the CPU must serve.  Restarting it here could leave a tick pending
	 * in the LAPIC past the idle entry's cancel, and the CPU would wake
	 * for nothing.  With nohz=off the idle path never starts it: here.
	 */
	if (!tick_nohz_enabled())
		tick_cpu_start();
	if (tmigr_cpu_online())
		panic("hotplug: CPU %u cannot rejoin the hierarchy", p->cpu);
	set_cpu_online(p->cpu, true);
}

/* The checks both directions share; 0 or a code, said when @verbose. */
static int check_cpu(const char *op, unsigned cpu, bool verbose)
{
	if (cpu >= nr_cpus) {
		if (verbose)
			printk("%s: CPU %u does not exist (CPUs 0-%u)\n", op,
			       cpu, nr_cpus - 1);
		return -EINVAL;
	}
	if (!per_cpu(cpu)->hp.booted) {
		if (verbose)
			printk("%s: CPU %u never came up at boot\n", op, cpu);
		return -EINVAL;
	}
	return 0;
}

static int check_down(unsigned cpu, bool verbose)
{
	const char *why = 0;
	int err = check_cpu("cpu_down", cpu, verbose);

	if (err)
		return err;
	if (!cpu_online(cpu)) {
		if (verbose)
			printk("cpu_down: CPU %u is already offline\n", cpu);
		return -EALREADY;
	}
	if (num_online_cpus() == 1)
		why = "it is the last online CPU";
	else if (cpu == smp_processor_id())
		why = "it is the calling CPU; offline it from another one";
	else if (cpu == 0)
		why = "it is the boot CPU, which runs the tests and the exit path";
	else if (READ_ONCE(per_cpu(cpu)->work.fn))
		why = "it has work queued";
	if (!why)
		return 0;
	if (verbose)
		printk("cpu_down: refusing CPU %u: %s\n", cpu, why);
	return -EBUSY;
}

static bool req_done(void *arg)
{
	(void)arg;
	return req_state() == REQ_DONE;
}

/* Pre: hotplug_busy held, check_down() passed. */
static int do_cpu_down(unsigned cpu, bool verbose)
{
	unsigned expect = REQ_PENDING;

	req.gen++;
	req.to = smp_processor_id();
	req.moved = 0;
	smp_store_release(&req.state, REQ_PENDING);
	if (!smp_run_async(cpu, cpu_offline_work, (void *)(uintptr_t)req.gen)) {
		req.state = REQ_IDLE;
		if (verbose)
			printk("cpu_down: CPU %u: IPI not delivered\n", cpu);
		return -ETIMEDOUT;
	}
	/*
	 * The controller stays busy while it waits, as Linux's hotplug thread
	 * runs on it: a scenario's busy CPU stays busy, and the going CPU is
	 * never the last active one because of us (host tests and the
	 * simulator cover that case).
	 */
	if (!spin_wait_until(req_done, 0, HOTPLUG_WAIT_NS) &&
	    try_cmpxchg(&req.state, &expect, REQ_CANCELLED)) {
		if (verbose)
			printk("cpu_down: CPU %u did not answer within 1 s "
			       "(busy?)\n",
			       cpu);
		return -ETIMEDOUT;
	}
	/* Taken: it finishes in microseconds. */
	while (req_state() != REQ_DONE)
		cpu_relax();
	WRITE_ONCE(moved_total, moved_total + req.moved);
	if (verbose)
		printk("# hotplug cpu=%u offline timers_moved=%u to=%u\n", cpu,
		       req.moved, req.to);
	return 0;
}

static int cpu_down_common(unsigned cpu, bool verbose)
{
	int err = check_down(cpu, verbose);

	if (err)
		return err;
	if (!hotplug_begin("cpu_down", verbose))
		return -EBUSY;
	/* Again, now that nobody else changes the map. */
	err = check_down(cpu, verbose);
	if (!err)
		err = do_cpu_down(cpu, verbose);
	hotplug_end();
	return err;
}

static bool cpu_is_up(void *arg)
{
	return smp_load_acquire(&cpu_online_map[(uintptr_t)arg]);
}

/* Pre: hotplug_busy held, check_cpu() passed. */
static int do_cpu_up(unsigned cpu, bool verbose)
{
	struct percpu *p = per_cpu(cpu);

	if (cpu_online(cpu) || !READ_ONCE(p->hp.offline)) {
		if (verbose)
			printk("cpu_up: CPU %u is already online\n", cpu);
		return -EALREADY;
	}
	smp_store_release(&p->hp.online_request, true);
	arch_send_ipi(cpu, RESCHEDULE_VECTOR);
	if (!spin_wait_until(cpu_is_up, (void *)(uintptr_t)cpu,
			     HOTPLUG_WAIT_NS)) {
		if (verbose)
			printk("cpu_up: CPU %u did not come back within 1 s\n",
			       cpu);
		return -ETIMEDOUT;
	}
	if (verbose)
		printk("# hotplug cpu=%u online\n", cpu);
	return 0;
}

static int cpu_up_common(unsigned cpu, bool verbose)
{
	int err = check_cpu("cpu_up", cpu, verbose);

	if (err)
		return err;
	if (!hotplug_begin("cpu_up", verbose))
		return -EBUSY;
	err = do_cpu_up(cpu, verbose);
	hotplug_end();
	return err;
}

int cpu_down(unsigned cpu)
{
	return cpu_down_common(cpu, true);
}

int cpu_up(unsigned cpu)
{
	return cpu_up_common(cpu, true);
}

int cpu_down_quiet(unsigned cpu)
{
	return cpu_down_common(cpu, false);
}

int cpu_up_quiet(unsigned cpu)
{
	return cpu_up_common(cpu, false);
}

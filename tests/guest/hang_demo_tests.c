/*
 * hang_demo: a deliberately stuck kernel for the hang tools (docs/hang.md).
 * CPU 1 spins with interrupts off for a release that never comes, with a
 * pinned timer of its own due; every other CPU waits, interrupts on, for
 * CPU 1 to finish, the boot CPU in a stage bounded to 1 ms.  Nothing
 * ends the boot but tools/boot's --timeout: its hang dump must name
 * hang_demo_spin() for CPU 1 and hang_demo_wait() for the others, and the
 * in-guest watchdog (on the waiters' ticks) must dump first, with all four
 * kinds of stall.  Only run when named (not part of selftest=all).
 */
#include "arch/x86_64/smp.h"
#include "kernel/ktest.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/smp_call.h"
#include "kernel/spinlock.h"
#include "kernel/tick.h"
#include "kernel/watchdog.h"
#include "lib/atomic.h"
#include "timer/timer.h"

#define SPIN_CPU 1

static bool released;		/* never set: the hang */
static bool spinner_done;	/* what the waiters wait for */
static struct timer_list stuck; /* CPU 1's, due while it spins */

static void stuck_fn(struct timer_list *t)
{
	(void)t;
}

/* noinline: the hang dump must see these names, not their callers'. */
static __attribute__((noinline)) void hang_demo_spin(void *arg)
{
	struct watchdog_wait saved;

	(void)arg;
	local_irq_disable();
	/* Armed here, interrupts off: it can only expire late (overdue). */
	timer_setup(&stuck, stuck_fn, TIMER_PINNED);
	mod_timer(&stuck, tick_update_jiffies() + 1);
	watchdog_wait_begin(&saved, "hang_demo_release", 0);
	while (!READ_ONCE(released))
		__asm__ volatile("pause");
	watchdog_wait_end(&saved);
	WRITE_ONCE(spinner_done, true);
}

static __attribute__((noinline)) void hang_demo_wait(void *arg)
{
	struct watchdog_wait saved;

	(void)arg;
	watchdog_wait_begin(&saved, "hang_demo_spinner", per_cpu(SPIN_CPU));
	while (!READ_ONCE(spinner_done))
		__asm__ volatile("pause");
	watchdog_wait_end(&saved);
}

static void one_cpu_spins_the_others_wait(struct ktest *t)
{
	unsigned int self = smp_processor_id();

	if (num_online_cpus() < 2 || !cpu_online(SPIN_CPU) ||
	    self == SPIN_CPU) {
		ktest_skip(t, "needs CPU 1 online besides the boot CPU");
		return;
	}
	printk("# hang_demo spin_cpu=%u waiters=%u\n", SPIN_CPU,
	       num_online_cpus() - 1);
	smp_run_async(SPIN_CPU, hang_demo_spin, 0);
	for (unsigned int c = 0; c < nr_cpus; c++)
		if (c != self && c != SPIN_CPU && cpu_online(c))
			smp_run_async(c, hang_demo_wait, 0);
	watchdog_stage("hang_demo", "wait_for_spinner", 1);
	hang_demo_wait(0);
	ktest_fail(t, __FILE__, __LINE__, "the spinner was released");
}

static const struct ktest_case hang_demo_cases[] = {
	KTEST_CASE(one_cpu_spins_the_others_wait),
};
KTEST_SUITE(hang_demo_suite, .name = "hang_demo", .cases = hang_demo_cases,
	    .ncases = 1, .explicit_only = true);

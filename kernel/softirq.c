#include "kernel/softirq.h"
#include "arch/x86_64/arch.h"
#include "kernel/percpu.h"
#include "kernel/spinlock.h"
#include "lib/time.h"
#include "timer/timer.h"

void raise_timer_softirq(void)
{
	this_cpu()->softirq.pending = true;
}

/*
 * At most this many passes, and this long, per interrupt exit (Linux's
 * MAX_SOFTIRQ_RESTART and MAX_SOFTIRQ_TIME): interrupts that keep raising
 * it while it runs (each tick of a CPU whose callbacks outlast a jiffy)
 * must not keep the interrupted context from ever running again.  What is
 * left stays pending for the next interrupt's exit; having no ksoftirqd,
 * that is the deferral, and an idle CPU keeps its tick while the wheel
 * has work due.
 */
#define SOFTIRQ_MAX_RESTART 10
#define SOFTIRQ_MAX_NS	    (2 * NSEC_PER_MSEC)

void irq_exit_softirq(void)
{
	struct percpu *p = this_cpu();
	unsigned passes = 0;
	uint64_t t0;

	if (p->softirq.running || !p->softirq.pending)
		return;
	p->softirq.running = true;
	p->softirq.run_irq_ns = p->tick.last_irq_ns;
	p->softirq.run_irq_armed_ns = p->tick.irq_armed_ns;
	t0 = clock_ns();
	while (p->softirq.pending) {
		if (passes++ == SOFTIRQ_MAX_RESTART ||
		    clock_ns() - t0 > SOFTIRQ_MAX_NS) {
			p->softirq.deferred++;
			break;
		}
		p->softirq.pending = false;
		local_irq_enable();
		run_timer_softirq();
		local_irq_disable();
	}
	p->softirq.running = false;
}

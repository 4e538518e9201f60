#include "kernel/softirq.h"
#include "kernel/percpu.h"
#include "kernel/spinlock.h"
#include "timer/timer.h"

void raise_timer_softirq(void)
{
	this_cpu()->softirq_pending = true;
}

void irq_exit_softirq(void)
{
	struct percpu *p = this_cpu();

	if (p->in_softirq || !p->softirq_pending)
		return;
	p->in_softirq = true;
	while (p->softirq_pending) {
		p->softirq_pending = false;
		local_irq_enable();
		run_timer_softirq();
		local_irq_disable();
	}
	p->in_softirq = false;
}

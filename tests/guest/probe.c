#include "tests/guest/probe.h"
#include "arch/x86_64/smp.h"
#include "kernel/idle.h"
#include "kernel/percpu.h"
#include "kernel/smp_call.h"
#include "kernel/tick.h"
#include "lib/atomic.h"
#include "timer/timer_peek.h"

void probe_fn(struct timer_list *t)
{
	struct probe *p = (struct probe *)t;

	p->fired_j = READ_ONCE(jiffies64);
	p->fired_cpu = smp_processor_id();
	p->irq_delay_ns = this_cpu()->tick.irq_delay_ns;
	p->awake_ns = cpu_idle_awake_ns(smp_processor_id());
	__atomic_fetch_add(&p->fired, 1, __ATOMIC_RELEASE);
}

void probe_queued(struct probe *p, uint64_t now_j)
{
	uint32_t flags = READ_ONCE(p->timer.flags);
	unsigned base = flags & TIMER_DEFERRABLE ? TIMER_PEEK_DEF :
			flags & TIMER_PINNED	 ? TIMER_PEEK_LOCAL :
						   TIMER_PEEK_GLOBAL;
	struct timer_base_peek v = { 0 };

	p->queued_cpu = flags & TIMER_CPUMASK;
	p->queued_j = now_j;
	timer_base_peek(p->queued_cpu, base, &v);
	p->base_clk = v.clk;
	p->base_next = v.next_expiry;
	p->base_recalc = v.recalc;
	p->base_idle = v.idle;
}

bool probe_fired(void *arg)
{
	return __atomic_load_n(&((struct probe *)arg)->fired, __ATOMIC_ACQUIRE);
}

bool other_cpus_idle(void *arg)
{
	(void)arg;
	for (unsigned c = 0; c < nr_cpus; c++)
		if (cpu_online(c) && c != smp_processor_id() &&
		    !(READ_ONCE(per_cpu(c)->idle.in_period) &&
		      READ_ONCE(per_cpu(c)->idle.halted)))
			return false;
	return true;
}

bool wait_other_cpus_idle(uint64_t timeout_ns)
{
	return spin_wait_until(other_cpus_idle, 0, timeout_ns);
}

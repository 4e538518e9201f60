#include "tests/guest/probe.h"
#include "arch/x86_64/smp.h"
#include "kernel/idle.h"
#include "kernel/percpu.h"
#include "kernel/smp_call.h"
#include "kernel/tick.h"
#include "lib/atomic.h"

void probe_fn(struct timer_list *t)
{
	struct probe *p = (struct probe *)t;

	p->fired_j = READ_ONCE(jiffies64);
	p->fired_cpu = smp_processor_id();
	p->irq_delay_ns = this_cpu()->tick.irq_delay_ns;
	p->awake_ns = cpu_idle_awake_ns(smp_processor_id());
	__atomic_fetch_add(&p->fired, 1, __ATOMIC_RELEASE);
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

#include <stddef.h>

#include "kernel/smp_call.h"
#include "arch/x86_64/arch.h"
#include "kernel/percpu.h"
#include "kernel/spinlock.h"
#include "kernel/watchdog.h"
#include "lib/atomic.h"
#include "lib/time.h"

#define CALL_WAIT_NS NSEC_PER_SEC

static bool send(unsigned cpu, struct percpu_call *c, void (*fn)(void *),
		 void *arg)
{
	WRITE_ONCE(c->done, false);
	WRITE_ONCE(c->arg, arg);
	smp_store_release(&c->fn, fn);
	return arch_send_ipi(cpu, CALL_FUNCTION_VECTOR);
}

bool spin_wait_until_named(const char *what, bool (*done)(void *arg), void *arg,
			   unsigned long long timeout_ns)
{
	uint64_t t0 = clock_ns();
	struct watchdog_wait saved;
	bool ok = true;

	watchdog_wait_begin(&saved, what, arg);
	while (!done(arg)) {
		if (clock_ns() - t0 > timeout_ns) {
			ok = false;
			break;
		}
		cpu_relax();
	}
	watchdog_wait_end(&saved);
	return ok;
}

static bool call_done(void *arg)
{
	return smp_load_acquire(&((struct percpu_call *)arg)->done);
}

static bool wait(struct percpu_call *c, uint64_t timeout_ns)
{
	return spin_wait_until(call_done, c, timeout_ns);
}

bool smp_call_async(unsigned cpu, void (*fn)(void *), void *arg)
{
	return send(cpu, &per_cpu(cpu)->call, fn, arg);
}

bool smp_call_wait(unsigned cpu)
{
	return wait(&per_cpu(cpu)->call, CALL_WAIT_NS);
}

bool smp_call_on(unsigned cpu, void (*fn)(void *), void *arg)
{
	if (cpu == smp_processor_id()) {
		fn(arg);
		return true;
	}
	return smp_call_async(cpu, fn, arg) && smp_call_wait(cpu);
}

bool smp_run_async(unsigned cpu, void (*fn)(void *), void *arg)
{
	return send(cpu, &per_cpu(cpu)->work, fn, arg);
}

bool smp_run_wait(unsigned cpu, unsigned long long timeout_ns)
{
	return wait(&per_cpu(cpu)->work, timeout_ns);
}

bool smp_call_work_pending(void)
{
	return smp_load_acquire(&this_cpu()->work.fn) != 0;
}

bool smp_call_run_pending(bool work)
{
	struct percpu *p = this_cpu();
	struct percpu_call *c = work ? &p->work : &p->call;
	void (*fn)(void *) = smp_load_acquire(&c->fn);

	if (!fn)
		return false;
	WRITE_ONCE(c->fn, NULL);
	if (work)
		local_irq_enable();
	fn(READ_ONCE(c->arg));
	if (work)
		local_irq_disable();
	smp_store_release(&c->done, true);
	return true;
}

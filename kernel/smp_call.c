#include <stddef.h>

#include "kernel/smp_call.h"
#include "arch/x86_64/arch.h"
#include "kernel/percpu.h"
#include "kernel/spinlock.h"
#include "kernel/watchdog.h"
#include "lib/atomic.h"
#include "lib/time.h"

/* See smp_call_wait(). */
#define CALL_WAIT_NS	 NSEC_PER_SEC
#define CALL_WAIT_MAX_NS (10 * NSEC_PER_SEC)

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

struct call_wait {
	struct percpu_call *call;
	const struct percpu *target;
	uint64_t entries, seen_ns; /* its interrupt count, and when it moved */
};

/* Answered, or given up on: CALL_WAIT_NS since the target last took an
 * interrupt, the call's own IPI included, and it took one since the wait
 * began. */
static bool call_answered_or_lost(void *arg)
{
	struct call_wait *w = arg;
	uint64_t now, entries;

	if (call_done(w->call))
		return true;
	now = clock_ns();
	entries = READ_ONCE(w->target->irq_entries);
	if (entries != w->entries) {
		w->entries = entries;
		w->seen_ns = now;
		return false;
	}
	return w->seen_ns && now - w->seen_ns > CALL_WAIT_NS;
}

/*
 * Wait for the answer as long as the target CPU shows no sign of running,
 * up to CALL_WAIT_MAX_NS, but only CALL_WAIT_NS once it has taken an
 * interrupt.  Under TCG on a loaded host a vCPU thread can wait more than
 * a second for a host CPU (1.15 s in a soak run, where a fixed 1 s failed
 * the call): that is the host's doing, not a lost IPI.  A CPU that takes
 * interrupts serves the call in its IPI handler (or its idle loop), so one
 * that took an interrupt and still did not answer a second later lost it,
 * or is parked; one silent for CALL_WAIT_MAX_NS is stuck (the watchdog
 * says where).
 */
bool smp_call_wait(unsigned cpu)
{
	const struct percpu *target = per_cpu(cpu);
	struct call_wait w = {
		.call = &per_cpu(cpu)->call,
		.target = target,
		.entries = READ_ONCE(target->irq_entries),
	};

	spin_wait_until(call_answered_or_lost, &w, CALL_WAIT_MAX_NS);
	return call_done(w.call);
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

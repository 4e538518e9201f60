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
	uint64_t entries0, t0_ns; /* its interrupt count when the wait began */
};

/*
 * Interrupts the target takes after the call's IPI is pending before the
 * call counts as lost.  The IPI is in its IRR from the send on; each entry
 * needs interrupts on, when the highest pending vector is delivered, and
 * the timer softirq runs with them on: by the third entry the call's own
 * IPI has been taken, if it arrived.
 */
#define CALL_LOST_ENTRIES 3

/*
 * Answered, or given up on: lost once the target took CALL_LOST_ENTRIES
 * interrupts since the wait began and CALL_WAIT_NS passed.  Not a time
 * since the target's last interrupt: under TCG a vCPU may be descheduled
 * for more than a second right after an entry (a soak run failed a call
 * so, 2026-12-07, before the call's handler ran).
 */
static bool call_answered_or_lost(void *arg)
{
	const struct call_wait *w = arg;

	if (call_done(w->call))
		return true;
	return READ_ONCE(w->target->irq_entries) - w->entries0 >=
		       CALL_LOST_ENTRIES &&
	       clock_ns() - w->t0_ns > CALL_WAIT_NS;
}

/*
 * Wait for the answer as long as the target CPU shows no sign of running,
 * up to CALL_WAIT_MAX_NS, but only CALL_WAIT_NS once it has taken
 * interrupts enough to have served the call.  Under TCG on a loaded host
 * a vCPU thread can wait more than a second for a host CPU (1.15 s in a
 * soak run, where a fixed 1 s failed the call): that is the host's doing,
 * not a lost IPI.  A CPU that takes interrupts serves the call in its IPI
 * handler (or its idle loop), so one that took several and still did not
 * answer lost it, or is parked; one that took none for CALL_WAIT_MAX_NS is
 * stuck (the watchdog says where).
 */
bool smp_call_wait(unsigned cpu)
{
	struct percpu *target = per_cpu(cpu);
	struct call_wait w = {
		.call = &target->call,
		.target = target,
		.entries0 = READ_ONCE(target->irq_entries),
		.t0_ns = clock_ns(),
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

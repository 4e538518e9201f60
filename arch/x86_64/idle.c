/*
 * The idle loop of the APs and cross-CPU function calls.
 *
 * arch_cpu_idle() is entered with interrupts off and executes "sti; hlt":
 * STI takes effect only after the next instruction, so an interrupt that
 * became pending after the caller's last check is taken once HLT has
 * started and ends it; no wake-up is lost between the check and the halt.
 */
#include "arch/x86_64/idle.h"
#include "arch/x86_64/irq.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/tsc.h"
#include "kernel/percpu.h"

#define CALL_WAIT_NS	1000000000ULL

void arch_cpu_idle(void)
{
	struct percpu *p = this_cpu();

	p->idle_entries++;
	p->idle_since = clock_ns();
	p->in_idle = true;
	__asm__ volatile("sti; hlt; cli" ::: "memory");
}

__attribute__((noreturn)) void cpu_idle_loop(void)
{
	struct percpu *p = this_cpu();

	for (;;) {
		void (*fn)(void *) = __atomic_load_n(&p->call_fn,
						     __ATOMIC_ACQUIRE);

		if (fn) {
			p->call_fn = 0;
			fn(p->call_arg);
			__atomic_store_n(&p->call_done, true,
					 __ATOMIC_RELEASE);
			continue;
		}
		arch_cpu_idle();
	}
}

bool smp_call_async(unsigned cpu, void (*fn)(void *), void *arg)
{
	struct percpu *p = per_cpu(cpu);

	p->call_done = false;
	p->call_arg = arg;
	__atomic_store_n(&p->call_fn, fn, __ATOMIC_RELEASE);
	return lapic_send_ipi(p->apic_id, CALL_FUNCTION_VECTOR);
}

bool smp_call_wait(unsigned cpu)
{
	struct percpu *p = per_cpu(cpu);
	uint64_t t0 = clock_ns();

	while (!__atomic_load_n(&p->call_done, __ATOMIC_ACQUIRE)) {
		if (clock_ns() - t0 > CALL_WAIT_NS)
			return false;
		__asm__ volatile("pause");
	}
	return true;
}

bool smp_call_on(unsigned cpu, void (*fn)(void *), void *arg)
{
	if (cpu == smp_processor_id()) {
		fn(arg);
		return true;
	}
	return smp_call_async(cpu, fn, arg) && smp_call_wait(cpu);
}

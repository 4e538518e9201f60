/*
 * arch_cpu_idle() and arch_cpu_halt() are entered with interrupts off and
 * execute "sti; hlt" in one asm: STI takes effect only after the next
 * instruction, so an interrupt that became pending after the caller's last
 * check is taken once HLT has started and ends it; no wake-up is lost
 * between the check and the halt.
 */
#include "arch/x86_64/idle.h"
#include "arch/x86_64/tsc.h"
#include "kernel/percpu.h"
#include "lib/atomic.h"

void arch_cpu_idle(void)
{
	struct percpu *p = this_cpu();

	p->idle_entries++;
	p->idle_since = clock_ns();
	/* Total before stretch (cpu_idle_awake_ns() reads the other way). */
	if (p->idle_woke_ns) {
		WRITE_ONCE(p->idle_awake_ns, p->idle_awake_ns + p->idle_since -
						     p->idle_woke_ns);
		__atomic_store_n(&p->idle_woke_ns, 0, __ATOMIC_RELEASE);
	}
	p->in_idle = true;
	arch_cpu_halt();
}

void arch_cpu_halt(void)
{
	__asm__ volatile("sti; hlt; cli" ::: "memory");
}

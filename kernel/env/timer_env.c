/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel/env/timer_env.c - the kernel's implementation of timer_env.h.
 *
 * Everything timer/ asks of the machine and does not get inline from the
 * header: the clock, the softirq, wake-up IPIs and idle state.  The host's
 * counterpart is tests/host/env/timer_env.c.
 */
#include "kernel/env/timer_env.h"
#include "arch/x86_64/arch.h"
#include "kernel/idle.h"
#include "kernel/softirq.h"

uint64_t timer_env_now_ns(void)
{
	return clock_ns();
}

void timer_env_raise_softirq(void)
{
	raise_timer_softirq();
}

void timer_env_wake_cpu(unsigned int cpu)
{
	if (cpu == smp_processor_id())
		return; /* we are awake; the idle path re-asks */
	arch_send_ipi(cpu, RESCHEDULE_VECTOR);
}

bool timer_env_cpu_idle(unsigned int cpu)
{
	return cpu_is_idle(cpu);
}

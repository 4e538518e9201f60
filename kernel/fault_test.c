/*
 * fault_test=allcpus (test only): every online CPU takes a page fault at
 * the same moment, to show that many CPUs faulting at once still give one
 * whole dump (kernel/panic.c).  The other CPUs are called into a spin on
 * one flag; once all are there, the boot CPU raises it and faults too.
 */
#include "kernel/fault_test.h"
#include "arch/x86_64/arch.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "lib/atomic.h"
#include "lib/time.h"
#include "kernel/smp_call.h"

/* In the null page, which no page table maps: a not-present read fault. */
#define FAULT_ADDR     0x10UL
#define GATHER_WAIT_NS 2000000000ULL

/* A volatile pointer: the compiler may not reason about what it reads. */
static const volatile uint64_t *volatile fault_ptr =
	(const volatile uint64_t *)FAULT_ADDR;
static unsigned arrived;
static bool go;

static void fault_now(void)
{
	(void)*fault_ptr;
}

static void fault_on_go(void *arg)
{
	(void)arg;
	atomic_fetch_add(&arrived, 1);
	while (!smp_load_acquire(&go))
		cpu_relax();
	fault_now();
}

void fault_test_allcpus(void)
{
	unsigned self = smp_processor_id(), called = 0;
	uint64_t t0;

	for (unsigned c = 0; c < nr_cpus; c++)
		if (c != self && cpu_online(c) &&
		    smp_call_async(c, fault_on_go, 0))
			called++;
	t0 = clock_ns();
	while (smp_load_acquire(&arrived) < called &&
	       clock_ns() - t0 < GATHER_WAIT_NS)
		cpu_relax();
	printk("# fault_test allcpus cpus=%u\n",
	       smp_load_acquire(&arrived) + 1);
	smp_store_release(&go, true);
	fault_now();
	panic("fault_test: reading 0x%lx did not fault", FAULT_ADDR);
}

/*
 * Fatal errors.  When several CPUs fault or panic at once, only the first
 * prints: it takes the console, stops every other CPU with an NMI (as
 * Linux's panic path does with smp_send_stop()), and prints its dump
 * whole.  A CPU that faults or panics meanwhile waits, silent, halted with
 * interrupts off; the NMI finds it there.  Each stopped CPU counts itself
 * once, and the dump ends with "# panic cpu=C stopped=S".
 */
#include "kernel/panic.h"
#include "arch/x86_64/arch.h"
#include "drivers/debugexit.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "lib/atomic.h"
#include "lib/time.h"

/* How long the panicking CPU waits for the others to stop (TCG is slow). */
#define PANIC_STOP_WAIT_NS NSEC_PER_SEC

static unsigned warnings;
/* -1 until the first CPU panics, then that CPU's number. */
static int panic_owner = -1;
static unsigned panic_stopped;

/* Before its per-CPU area exists only the boot CPU runs: call it 0. */
static int panic_this_cpu(void)
{
	return percpu_installed() ? (int)smp_processor_id() : 0;
}

void panic_stop_self(void)
{
	if (percpu_installed() && !this_cpu()->panic_stopped) {
		this_cpu()->panic_stopped = true;
		atomic_fetch_add(&panic_stopped, 1);
	}
	halt_forever();
}

bool panic_in_progress(void)
{
	return smp_load_acquire(&panic_owner) >= 0;
}

/* NMI every other CPU that came up, and wait (bounded) for each to stop. */
static void stop_other_cpus(int self)
{
	unsigned sent = 0;
	uint64_t t0;

	if (!percpu_installed())
		return;
	for (unsigned i = 0; i < nr_cpus; i++)
		if ((int)i != self && per_cpu(i)->hp.booted && arch_send_nmi(i))
			sent++;
	t0 = clock_ns();
	while (smp_load_acquire(&panic_stopped) < sent &&
	       clock_ns() - t0 < PANIC_STOP_WAIT_NS)
		cpu_relax();
}

void panic_begin(void)
{
	int self, owner = -1;

	cli();
	self = panic_this_cpu();
	if (try_cmpxchg(&panic_owner, &owner, self)) {
		stop_other_cpus(self);
		printk_force_unlock(); /* a stopped CPU may have held it */
		return;
	}
	if (owner != self)
		panic_stop_self();
	/* A fault inside our own dump: go on, the console is ours. */
}

void panic(const char *fmt, ...)
{
	va_list ap;

	panic_begin();
	printk("PANIC: ");
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
	printk("\n");
	dump_stack_from((uint64_t)__builtin_frame_address(0));
	printk("# panic cpu=%d stopped=%u\n", panic_this_cpu(),
	       smp_load_acquire(&panic_stopped));
	debug_exit(EXIT_PANIC);
}

void warn_print(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	warnings++;
	printk("WARNING: %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
	printk("\n");
}

unsigned warn_count(void)
{
	return warnings;
}

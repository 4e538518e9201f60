// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/spinlock.c - the contended path of spin_lock(), measured.
 *
 * Why measured: under TCG a vCPU may not run for seconds (its host thread
 * not scheduled, or waiting for QEMU's own lock), and a ticket lock makes
 * everyone queued behind such a vCPU wait as long.  An operation that took
 * seconds is then either this CPU waiting for a lock (lock_wait_max_ns)
 * or this CPU not running at all; and a wait in which this CPU itself saw
 * its TSC jump (lock_not_run_max_ns) was the host's, not the lock's.  The
 * TSC runs on whether or not the vCPU is run, so a jump between two looks
 * at the lock is time this CPU was not run.  Only contended acquisitions
 * pay for it, a TSC read every 32 looks at the lock.
 */
#include "kernel/spinlock.h"
#include "arch/x86_64/tsc.h"
#include "kernel/percpu.h"

void spin_lock_contended(spinlock_t *l, uint32_t me)
{
	uint64_t t0 = rdtsc(), last = t0, gap = 0, t;
	bool done = false;

	for (unsigned n = 1; !done; n++) {
		done = smp_load_acquire(&l->owner) == me;
		/* Every 32nd look: a TSC read is a helper call under TCG. */
		if (!done && n % 32) {
			cpu_relax();
			continue;
		}
		t = rdtsc();
		if (t - last > gap)
			gap = t - last;
		last = t;
	}
	/* Early in kmain the boot CPU has no per-CPU area yet. */
	if (percpu_installed()) {
		struct percpu *p = this_cpu();
		uint64_t wait = tsc_to_ns(last - t0), run = tsc_to_ns(gap);

		if (wait > p->lock_wait_max_ns)
			WRITE_ONCE(p->lock_wait_max_ns, wait);
		if (run > p->lock_not_run_max_ns)
			WRITE_ONCE(p->lock_not_run_max_ns, run);
	}
}

/*
 * kernel/smp_call.h - run a function on another CPU.
 *
 * Two kinds, as in Linux:
 *   smp_call_on()  a short function served where the CPU is, interrupts
 *                  off; an idle CPU runs it without leaving idle (like an
 *                  IPI handler), so its tick and its hierarchy state stay
 *                  as they were;
 *   smp_run_on()   work: the CPU leaves idle (tick on, active in the
 *                  hierarchy), runs it with interrupts on, then idles.
 * One of each may be outstanding per target CPU; callers serialise.
 */
#ifndef KERNEL_SMP_CALL_H
#define KERNEL_SMP_CALL_H

#include <stdbool.h>

/*
 * Run @fn(@arg) on @cpu and wait for it; false if it did not answer within
 * 1 s of taking an interrupt, or 10 s in all (smp_call_wait()).
 */
bool smp_call_on(unsigned cpu, void (*fn)(void *), void *arg);
/* The two halves, to start a call on several CPUs at once. */
bool smp_call_async(unsigned cpu, void (*fn)(void *), void *arg);
bool smp_call_wait(unsigned cpu);

/* Work: start @fn(@arg) on idle @cpu; wait for it up to @timeout_ns. */
bool smp_run_async(unsigned cpu, void (*fn)(void *), void *arg);
bool smp_run_wait(unsigned cpu, unsigned long long timeout_ns);

/*
 * Spin (interrupts as they are, the CPU stays busy) until @done(@arg), at
 * most @timeout_ns; returns whether @done became true.
 */
bool spin_wait_until_named(const char *what, bool (*done)(void *arg), void *arg,
			   unsigned long long timeout_ns);
/* The watchdog's dump names the wait after the @done predicate. */
#define spin_wait_until(done, arg, timeout_ns) \
	spin_wait_until_named(#done, (done), (arg), (timeout_ns))

/* For the idle loop: run what is queued of one kind; true if it ran. */
bool smp_call_run_pending(bool work);
bool smp_call_work_pending(void);

#endif

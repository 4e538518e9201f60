/*
 * The idle loop and NOHZ entry and exit (set-up: kernel/timers.c).
 *
 * Data flow (docs/design.md, "Going idle"): idle entry -> tick_nohz_idle_stop_tick() ->
 * timer_nohz_next_event() (forward and idle the bases; under the pull
 * model hand the first global event to the hierarchy) -> LAPIC armed for
 * what this CPU must serve itself -> HLT.  An interrupt ends the HLT; its
 * handler runs the tick and the timer softirq; if it left no work the CPU
 * re-enters HLT, re-asking timer/ (a timer queued meanwhile is then passed
 * on with tmigr_cpu_new_timer()).  Work ends the period: timer_nohz_idle_
 * exit() (tmigr_cpu_activate()), tick restarted, jiffies caught up.
 */
#include "kernel/idle.h"
#include "kernel/hotplug.h"
#include "arch/x86_64/arch.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/smp_call.h"
#include "kernel/spinlock.h"
#include "kernel/tick.h"
#include "kernel/timers.h"
#include "kernel/trace.h"
#include "lib/atomic.h"
#include "lib/time.h"
#include "timer/timer.h"

uint64_t cpu_idle_awake_ns(unsigned int cpu)
{
	struct percpu *p = per_cpu(cpu);
	/*
	 * The stretch first: if it ends and is added to the total between
	 * the two reads it is counted twice, never missed (an upper bound).
	 */
	uint64_t woke = smp_load_acquire(&p->idle.woke_ns);
	uint64_t awake = READ_ONCE(p->idle.awake_ns);
	uint64_t now = clock_ns();

	return awake + (woke && now > woke ? now - woke : 0);
}

/* The stretch @ns long, into @r's total and the bins it reaches. */
static void residency_count(struct idle_residency *r, uint64_t ns)
{
	r->idle_ns += ns;
	if (ns >= NSEC_PER_MSEC)
		r->ge1ms_ns += ns;
	if (ns >= 10 * NSEC_PER_MSEC)
		r->ge10ms_ns += ns;
}

void cpu_idle_residency(unsigned int cpu, struct idle_residency *r)
{
	struct percpu *p = per_cpu(cpu);
	unsigned seq;
	uint64_t since;
	bool halted;

	do {
		while ((seq = smp_load_acquire(&p->idle.seq)) & 1)
			cpu_relax();
		r->idle_ns = READ_ONCE(p->idle.ns);
		r->ge1ms_ns = READ_ONCE(p->idle.ns_1ms);
		r->ge10ms_ns = READ_ONCE(p->idle.ns_10ms);
		halted = READ_ONCE(p->idle.halted);
		since = READ_ONCE(p->idle.since);
		smp_rmb();
	} while (READ_ONCE(p->idle.seq) != seq);
	/* Halted now: the open stretch counts, as long as it is so far. */
	if (halted) {
		uint64_t now = clock_ns();

		residency_count(r, now > since ? now - since : 0);
	}
}

void idle_residency_add(struct idle_residency *sum,
			const struct idle_residency *end,
			const struct idle_residency *start)
{
	uint64_t idle = end->idle_ns - start->idle_ns;
	uint64_t ge1 = end->ge1ms_ns - start->ge1ms_ns;
	uint64_t ge10 = end->ge10ms_ns - start->ge10ms_ns;

	/*
	 * A stretch open at @start and shorter than a bin then, longer at
	 * @end, enters the bin whole at @end: its part before @start would
	 * count in the bin and not in the total (kernel/idle.h).
	 */
	sum->idle_ns += idle;
	sum->ge1ms_ns += ge1 < idle ? ge1 : idle;
	sum->ge10ms_ns += ge10 < idle ? ge10 : idle;
}

static unsigned per_mille(uint64_t part, uint64_t whole)
{
	return whole ? (unsigned)(part * 1000 / whole) : 0;
}

unsigned idle_residency_1ms_pm(const struct idle_residency *r)
{
	return per_mille(r->ge1ms_ns, r->idle_ns);
}

unsigned idle_residency_10ms_pm(const struct idle_residency *r)
{
	return per_mille(r->ge10ms_ns, r->idle_ns);
}

bool cpu_is_idle(unsigned int cpu)
{
	return READ_ONCE(per_cpu(cpu)->idle.in_period);
}

/*
 * One HLT of an idle period, stamped for the wake accounting that the
 * first interrupt does (kernel/irq.c).
 */
static void idle_halt(struct percpu *p)
{
	p->idle.entries++;
	WRITE_ONCE(p->idle.seq, p->idle.seq + 1);
	smp_wmb();
	WRITE_ONCE(p->idle.since, clock_ns());
	/* Total before stretch (cpu_idle_awake_ns() reads the other way). */
	if (p->idle.woke_ns) {
		WRITE_ONCE(p->idle.awake_ns,
			   p->idle.awake_ns + p->idle.since - p->idle.woke_ns);
		smp_store_release(&p->idle.woke_ns, 0);
	}
	WRITE_ONCE(p->idle.halted, true);
	smp_wmb();
	WRITE_ONCE(p->idle.seq, p->idle.seq + 1);
	arch_cpu_idle();
}

/*
 * One idle period, entered with interrupts off: HLT until @done (or, for
 * the idle loop, until work is queued), then leave NOHZ.
 */
static void do_idle(bool (*done)(void *), void *arg)
{
	struct percpu *p = this_cpu();

	WRITE_ONCE(p->idle.in_period, true);
	for (;;) {
		/* Short calls are served in idle, as Linux's IPI handlers. */
		if (smp_call_run_pending(false))
			continue;
		if (done ? done(arg) : smp_call_work_pending())
			break;
		tick_nohz_idle_stop_tick();
		/*
		 * A timer interrupt already pending was raised while this CPU
		 * ran: a deadline that passed before the line above moved it
		 * (the vCPU stalled, interrupts off, longer than a tick).  HLT
		 * would end at once and count that as a wake of the idle CPU;
		 * take it here instead and look again.
		 */
		if (arch_clockevent_irq_pending()) {
			p->idle.irq_before_halt++;
			arch_irq_window();
			continue;
		}
		trace(idle_enter, p->tick.stopped, p->tick.next_ns);
		idle_halt(p);
	}
	WRITE_ONCE(p->idle.in_period, false);
	p->idle.woke_ns = 0; /* what follows is work, not the idle path */
	tick_nohz_idle_exit();
}

static __attribute__((noreturn)) void cpu_idle_loop(void)
{
	local_irq_disable();
	for (;;) {
		do_idle(0, 0);
		smp_call_run_pending(true);
		/* The work was cpu_down()'s: park until cpu_up(). */
		if (READ_ONCE(this_cpu()->hp.offline))
			cpu_park();
	}
}

__attribute__((noreturn)) void cpu_startup_entry(void)
{
	timers_cpu_online();
	cpu_idle_loop();
}

void cpu_idle_until(bool (*done)(void *), void *arg)
{
	unsigned long flags = local_irq_save();

	do_idle(done, arg);
	local_irq_restore(flags);
}

struct sleeper {
	struct timer_list timer;
	bool fired;
};

static void sleeper_fn(struct timer_list *t)
{
	WRITE_ONCE(((struct sleeper *)t)->fired, true);
}

static bool sleeper_done(void *arg)
{
	return READ_ONCE(((struct sleeper *)arg)->fired);
}

void cpu_idle_sleep_ns(uint64_t ns)
{
	struct sleeper s = { .fired = false };

	timer_setup(&s.timer, sleeper_fn, TIMER_PINNED);
	mod_timer(&s.timer, tick_update_jiffies() + tick_ns_to_jiffies(ns) + 1);
	cpu_idle_until(sleeper_done, &s);
	timer_delete_sync(&s.timer);
}

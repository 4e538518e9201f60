/*
 * The tick and NOHZ idle (Linux's kernel/time/tick-sched.c, in small).
 *
 * Per CPU, tick.next_ns is the absolute time the LAPIC timer is armed for
 * (TMIGR_NONE_NS, the one "no time" in ns: disarmed).  The tick layer only
 * writes the LAPIC when that changes, so an idle CPU re-entering HLT for
 * the same event costs nothing, and a clockevent armed directly (the arch
 * self-test) is left alone.
 */
#include "kernel/tick.h"
#include "arch/x86_64/arch.h"
#include "kernel/percpu.h"
#include "kernel/softirq.h"
#include "kernel/trace.h"
#include "lib/atomic.h"
#include "timer/timer.h"
#include "timer/timer_migration.h"

uint64_t jiffies64;

/* tick_restart's reason field (lib/trace_events.h). */
enum { TICK_RESTART_EVENT_DUE, TICK_RESTART_IDLE_EXIT };

static uint64_t initial_jiffies;
static uint64_t jiffies_epoch_ns; /* clock time of initial_jiffies */
static unsigned int hz;
static bool nohz;

void tick_init(unsigned int tick_hz_arg, bool nohz_arg)
{
	hz = tick_hz_arg;
	nohz = nohz_arg;
	initial_jiffies = (uint64_t)0 - (uint64_t)TICK_INITIAL_SECONDS * hz;
	jiffies_epoch_ns = clock_ns();
	WRITE_ONCE(jiffies64, initial_jiffies);
}

unsigned int tick_hz(void)
{
	return hz;
}

bool tick_nohz_enabled(void)
{
	return nohz;
}

/* The jiffy's length is timer/'s, set by timer_init() from the same hz. */
uint64_t tick_period_ns(void)
{
	return timer_tick_ns();
}

uint64_t tick_jiffy_start_ns(uint64_t j)
{
	return jiffies_epoch_ns + (j - initial_jiffies) * tick_period_ns();
}

uint64_t tick_ns_to_jiffies(uint64_t ns)
{
	uint64_t period_ns = tick_period_ns();

	return (ns + period_ns - 1) / period_ns;
}

/*
 * Any CPU may call this; jiffies64 only moves forward (a CPU whose clock
 * reads a little behind another's must not pull it back).
 */
uint64_t tick_update_jiffies(void)
{
	uint64_t now = clock_ns(), want, cur;

	if (now < jiffies_epoch_ns)
		now = jiffies_epoch_ns;
	want = initial_jiffies + (now - jiffies_epoch_ns) / tick_period_ns();
	cur = READ_ONCE(jiffies64);
	while (timer_after(want, cur))
		if (try_cmpxchg(&jiffies64, &cur, want))
			return want;
	return cur;
}

/* Arm this CPU's LAPIC timer for absolute time @when (or disarm). */
static void tick_program(struct percpu *p, uint64_t when)
{
	uint64_t now;

	if (when == p->tick.next_ns)
		return;
	p->tick.next_ns = when;
	if (when == TMIGR_NONE_NS) {
		arch_clockevent_cancel();
		return;
	}
	now = clock_ns();
	arch_clockevent_program(when > now ? when - now : 0);
}

static void tick_program_next_jiffy(struct percpu *p)
{
	uint64_t j = tick_update_jiffies();

	tick_program(p, tick_jiffy_start_ns(j + 1));
}

void tick_cpu_start(void)
{
	struct percpu *p = this_cpu();

	p->tick.next_ns = TMIGR_NONE_NS;
	p->tick.stopped = false;
	tick_program_next_jiffy(p);
}

void tick_cpu_stop(void)
{
	struct percpu *p = this_cpu();

	p->tick.stopped = true;
	p->tick.nohz_asked = false;
	p->tick.next_ns = TMIGR_NONE_NS;
	arch_clockevent_cancel();
}

void tick_interrupt(void)
{
	struct percpu *p = this_cpu();

	uint64_t now = clock_ns();

	/*
	 * How late the interrupt came against what was armed: under TCG the
	 * host's scheduling, which timer tests allow for (0 when unknown).
	 */
	p->tick.irq_delay_ns = p->tick.next_ns != TMIGR_NONE_NS &&
					       now > p->tick.next_ns ?
				       now - p->tick.next_ns :
				       0;
	WRITE_ONCE(p->tick.irq_armed_ns, p->tick.next_ns);
	if (!p->tick.stopped) {
		if (p->tick.irq_delay_ns > p->tick.run_late_max_ns)
			WRITE_ONCE(p->tick.run_late_max_ns,
				   p->tick.irq_delay_ns);
		if (p->tick.irq_delay_ns > TICK_LATE_LONG_J * tick_period_ns())
			WRITE_ONCE(p->tick.run_late_long,
				   p->tick.run_late_long + 1);
	}
	/* The one-shot fired: nothing is armed until we say so. */
	p->tick.next_ns = TMIGR_NONE_NS;
	tick_update_jiffies();
	p->tick.ticks++;
	timer_tick();
	if (!p->tick.stopped)
		tick_program_next_jiffy(p);
}

void tick_nohz_idle_stop_tick(void)
{
	struct percpu *p = this_cpu();
	uint64_t basej, wake;
	bool stop;

	if (!nohz)
		return;
	basej = tick_update_jiffies();
	wake = timer_nohz_next_event(basej, tick_jiffy_start_ns(basej), &stop);
	p->tick.nohz_asked = true;
	if (!stop) {
		/* An event within a jiffy: keep (or restart) the tick. */
		if (p->tick.stopped) {
			p->tick.stopped = false;
			trace(tick_restart, TICK_RESTART_EVENT_DUE);
			tick_program_next_jiffy(p);
		}
		return;
	}
	if (!p->tick.stopped) {
		p->tick.stopped = true;
		p->tick.stops++;
		trace(tick_stop, wake);
	}
	tick_program(p, wake);
}

void tick_nohz_idle_exit(void)
{
	struct percpu *p = this_cpu();

	if (!p->tick.nohz_asked)
		return;
	p->tick.nohz_asked = false;
	timer_nohz_idle_exit();
	if (p->tick.stopped) {
		p->tick.stopped = false;
		trace(tick_restart, TICK_RESTART_IDLE_EXIT);
		tick_program_next_jiffy(p);
	}
}

/*
 * The timer wheel in the guest: timers on every CPU expire no
 * earlier than asked and within their level's granularity; a pinned timer
 * queued on a remote idle CPU costs it exactly one IPI wake; a deferrable
 * timer never wakes an idle CPU; add_timer_on() without TIMER_PINNED warns
 * once; an idle boot CPU catches jiffies up when it wakes; a timer
 * interrupt raised before the idle path halts is no wake.
 *
 * Bounds: "not early" is exact (jiffies at expiry >= expires).  The late
 * bound is the level's granularity plus TIMER_SLACK_J jiffies (a global
 * timer of an idle CPU waits for the migrator's next tick), plus what the
 * host took, measured in the same run: under TCG every vCPU is a host
 * thread, and one the host does not run (1.8 s seen at 255 CPUs on two
 * loaded cores) runs its timers that much late whatever the kernel
 * programmed.  That share is the test CPU's longest stall, how late the
 * expiring CPU's timer interrupt came, and the time the arming and the
 * expiring CPU spent out of HLT in their idle loops (cpu_idle_awake_ns(),
 * microseconds when the host runs them); all of it is printed.
 */
#include "arch/x86_64/arch.h"
#include "arch/x86_64/smp.h"
#include "arch/x86_64/tsc.h"
#include "kernel/boot.h"
#include "kernel/idle.h"
#include "kernel/kmem.h"
#include "kernel/ktest.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/smp_call.h"
#include "kernel/spinlock.h"
#include "kernel/tick.h"
#include "lib/atomic.h"
#include "lib/time.h"
#include "tests/guest/probe.h"
#include "timer/timer.h"

#define TIMER_SLACK_J 10
#define WAIT_NS	      5000000000ULL

/* Granularity (jiffies) of the wheel level a timer @delta away lands in. */
static uint64_t level_granularity(uint64_t delta)
{
	uint64_t gran = 1, start = 63; /* LVL_START(1) = 63 */

	while (delta >= start) {
		gran *= 8;
		start *= 8;
	}
	return gran;
}

/*
 * Wait for @n probes; false if WAIT_NS pass in which none more fires.  A
 * timer that never fires fails the wait; one that fires late, because the
 * host did not run its CPU, does not: its lateness is judged against the
 * host's share of it by the caller.  (A fixed deadline failed
 * smp255-5n under make soak: the last probe fired 7 s late, with 14.8 s
 * of host share.)  The largest gap between two clock reads of this loop is
 * time the guest did not run us (the host descheduled the vCPU or all of
 * QEMU); it goes into *@stall_ns so a late bound can allow for it.
 */
static bool wait_fired_stall(struct probe *p, unsigned n, uint64_t *stall_ns)
{
	uint64_t t0 = clock_ns(), last = t0, now;
	unsigned seen = 0;

	*stall_ns = 0;
	while ((now = clock_ns()) - t0 < WAIT_NS) {
		unsigned fired = 0;

		if (now - last > *stall_ns)
			*stall_ns = now - last;
		last = now;
		for (unsigned i = 0; i < n; i++)
			fired += __atomic_load_n(&p[i].fired,
						 __ATOMIC_ACQUIRE) != 0;
		if (fired == n)
			return true;
		if (fired > seen) {
			seen = fired;
			t0 = now; /* progress: WAIT_NS more */
		}
		cpu_relax();
	}
	return false;
}

static bool wait_fired(struct probe *p, unsigned n)
{
	uint64_t stall;

	return wait_fired_stall(p, n, &stall);
}

/* Per CPU: pinned and global, at level 0 and level 1 distances. */
static const struct {
	uint32_t flags;
	uint64_t delta;
} kinds[] = {
	{ TIMER_PINNED, 3 },
	{ TIMER_PINNED, 70 },
	{ 0, 3 },
	{ 0, 70 },
};
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

static void arm_kinds(void *arg)
{
	struct probe *p = arg;
	uint64_t now = tick_update_jiffies();

	for (unsigned k = 0; k < NKINDS; k++) {
		timer_setup(&p[k].timer, probe_fn, kinds[k].flags);
		p[k].expires = now + kinds[k].delta;
		mod_timer(&p[k].timer, p[k].expires);
		probe_queued(&p[k], now);
	}
}

/*
 * The host's share of probe @i's lateness (see the top of the file):
 * @awake0 and @awake1 are each CPU's cpu_idle_awake_ns() before arming
 * and after the wait.
 */
static uint64_t host_share_ns(const struct probe *p, unsigned c,
			      const uint64_t *awake0, const uint64_t *awake1,
			      uint64_t stall)
{
	uint64_t ns = stall + p->irq_delay_ns + (awake1[c] - awake0[c]);

	if (p->fired_cpu != c && p->fired_cpu < nr_cpus)
		ns += p->awake_ns - awake0[p->fired_cpu];
	return ns;
}

static void timers_on_every_cpu_expire_in_bounds(struct ktest *t)
{
	unsigned ncpus = 0, worst_i = 0, awake_cpu = 0;
	struct probe *p = kzalloc(nr_cpus * NKINDS * sizeof(*p));
	uint64_t *awake0 = kzalloc(2 * nr_cpus * sizeof(uint64_t)), *awake1;
	uint64_t worst = 0, t0 = clock_ns(), j0 = tick_update_jiffies(), stall;
	uint64_t awake_max = 0;

	if (!p || !awake0) {
		ktest_fail(t, __FILE__, __LINE__, "no memory");
		return;
	}
	awake1 = awake0 + nr_cpus;
	for (unsigned c = 0; c < nr_cpus; c++) {
		if (!cpu_online(c))
			continue;
		awake0[c] = cpu_idle_awake_ns(c);
		KEXPECT(t, smp_call_on(c, arm_kinds, &p[c * NKINDS]));
		ncpus++;
	}
	printk("        # armed in %lu us, %lu jiffies\n",
	       (unsigned long)((clock_ns() - t0) / NSEC_PER_USEC),
	       (unsigned long)(tick_update_jiffies() - j0));
	KEXPECT(t, wait_fired_stall(p, nr_cpus * NKINDS, &stall));
	for (unsigned c = 0; c < nr_cpus; c++) {
		awake1[c] = cpu_online(c) ? cpu_idle_awake_ns(c) : 0;
		if (awake1[c] - awake0[c] > awake_max) {
			awake_max = awake1[c] - awake0[c];
			awake_cpu = c;
		}
	}
	for (unsigned i = 0; i < nr_cpus * NKINDS; i++) {
		unsigned c = i / NKINDS, k = i % NKINDS;
		uint64_t late, bound, host;

		if (!cpu_online(c) || !p[i].fired)
			continue;
		late = p[i].fired_j - p[i].expires;
		host = host_share_ns(&p[i], c, awake0, awake1, stall);
		bound = level_granularity(kinds[k].delta) + TIMER_SLACK_J +
			tick_ns_to_jiffies(host);
		KEXPECT_EQ(t, p[i].fired, 1);
		if (timer_before(p[i].fired_j, p[i].expires))
			ktest_fail(t, __FILE__, __LINE__,
				   "CPU %u kind %u: fired at %lu, before %lu",
				   c, k, (unsigned long)p[i].fired_j,
				   (unsigned long)p[i].expires);
		else if (late > bound)
			ktest_fail(
				t, __FILE__, __LINE__,
				"CPU %u kind %u: %lu jiffies late (bound %lu; "
				"host share %lu us: irq %lu us late, CPU %u "
				"%lu us out of HLT; queued on CPU %u at %lu "
				"for %lu, its base clk %lu next %lu%s%s)",
				c, k, (unsigned long)late, (unsigned long)bound,
				(unsigned long)(host / 1000),
				(unsigned long)(p[i].irq_delay_ns / 1000),
				p[i].fired_cpu,
				(unsigned long)((awake1[c] - awake0[c]) / 1000),
				p[i].queued_cpu, (unsigned long)p[i].queued_j,
				(unsigned long)p[i].expires,
				(unsigned long)p[i].base_clk,
				(unsigned long)p[i].base_next,
				p[i].base_recalc ? " recalc" : "",
				p[i].base_idle ? " idle" : "");
		else if (late > worst) {
			worst = late;
			worst_i = i;
		}
		/* A pinned timer runs where it was queued, nowhere else. */
		if (kinds[k].flags & TIMER_PINNED)
			KEXPECT_EQ(t, p[i].fired_cpu, c);
	}
	printk("        # %u CPUs x %u timers, worst lateness %lu jiffies "
	       "(CPU %u kind %u, host share %lu us), runner stalled up to "
	       "%lu us, most time out of HLT %lu us (CPU %u)\n",
	       ncpus, (unsigned)NKINDS, (unsigned long)worst,
	       (unsigned)(worst_i / NKINDS), (unsigned)(worst_i % NKINDS),
	       (unsigned long)(host_share_ns(&p[worst_i],
					     (unsigned)(worst_i / NKINDS),
					     awake0, awake1, stall) /
			       NSEC_PER_USEC),
	       (unsigned long)(stall / NSEC_PER_USEC),
	       (unsigned long)(awake_max / NSEC_PER_USEC), awake_cpu);
}

/* An online CPU other than the test runner, settled in NOHZ idle. */
static int idle_target(void)
{
	unsigned self = smp_processor_id();

	for (unsigned c = nr_cpus; c-- > 0;) {
		if (c == self || !cpu_online(c))
			continue;
		uint64_t t0 = clock_ns();

		while (!(READ_ONCE(per_cpu(c)->idle.in_period) &&
			 READ_ONCE(per_cpu(c)->tick.stopped) &&
			 READ_ONCE(per_cpu(c)->idle.halted))) {
			if (clock_ns() - t0 > WAIT_NS)
				return -1;
			cpu_relax();
		}
		return (int)c;
	}
	return -1;
}

static const char *needs_nohz(void)
{
	return tick_nohz_enabled() ? 0 : "needs nohz=on";
}

static void remote_pinned_timer_costs_one_ipi_wake(struct ktest *t)
{
	struct probe p = { 0 };
	int c = idle_target();
	struct percpu *pc;
	uint64_t ipi0, tmr0, bh0;

	if (c < 0 || needs_nohz()) {
		ktest_skip(t, c < 0 ? "no idle CPU settled" : needs_nohz());
		return;
	}
	pc = per_cpu((unsigned)c);
	ipi0 = READ_ONCE(pc->idle.wakes_ipi);
	tmr0 = READ_ONCE(pc->idle.wakes_timer);
	bh0 = READ_ONCE(pc->idle.irq_before_halt);
	timer_setup(&p.timer, probe_fn, TIMER_PINNED);
	p.timer.expires = p.expires = tick_update_jiffies() + 20;
	add_timer_on(&p.timer, (unsigned)c);
	KEXPECT(t, wait_fired(&p, 1));
	KEXPECT_EQ(t, p.fired_cpu, (unsigned)c);
	KEXPECT(t, !timer_before(p.fired_j, p.expires));
	/* Let the CPU settle back into HLT before reading its counts. */
	KEXPECT_EQ(t, idle_target(), c);
	KEXPECT_EQ(t, READ_ONCE(pc->idle.wakes_ipi) - ipi0, 1);
	/*
	 * The timer's wake, or its interrupt taken before HLT if the host
	 * stalled the CPU past the deadline after the IPI (kernel/idle.c).
	 */
	KEXPECT_EQ(t,
		   READ_ONCE(pc->idle.wakes_timer) - tmr0 +
			   READ_ONCE(pc->idle.irq_before_halt) - bh0,
		   1);
}

/*
 * Under push a non-pinned deferrable timer moves to a busy CPU, as in
 * Linux 6.8 (docs/push-model.md); pinned, it stays on this idle CPU.
 */
static void arm_deferrable(void *arg)
{
	struct probe *p = arg;
	uint32_t pin =
		boot_opts.timer_model == TIMER_MODEL_PUSH ? TIMER_PINNED : 0;

	timer_setup(&p->timer, probe_fn, TIMER_DEFERRABLE | pin);
	p->expires = tick_update_jiffies() + 2;
	mod_timer(&p->timer, p->expires);
}

/*
 * Work until this CPU has taken three ticks (interrupts are on in work),
 * at most a second: by time alone a vCPU the host descheduled for the
 * whole span would return having taken none.
 */
static void tick_work(void *arg)
{
	uint64_t t0 = clock_ns(), ticks0 = READ_ONCE(this_cpu()->tick.ticks);

	(void)arg;
	while (READ_ONCE(this_cpu()->tick.ticks) - ticks0 < 3 &&
	       clock_ns() - t0 < NSEC_PER_SEC)
		cpu_relax();
}

static void deferrable_timer_does_not_wake_idle_cpu(struct ktest *t)
{
	struct probe p = { 0 };
	int c = idle_target();
	struct percpu *pc;
	uint64_t wakes0, t0, ticks0;

	if (c < 0 || needs_nohz()) {
		ktest_skip(t, c < 0 ? "no idle CPU settled" : needs_nohz());
		return;
	}
	pc = per_cpu((unsigned)c);
	/* Armed from the CPU's idle context: it does not leave idle. */
	KEXPECT(t, smp_call_on((unsigned)c, arm_deferrable, &p));
	KEXPECT_EQ(t, idle_target(), c);
	wakes0 = cpu_idle_wakes(&pc->idle);
	t0 = clock_ns();
	while (clock_ns() - t0 < 20 * tick_period_ns())
		cpu_relax();
	KEXPECT_EQ(t, cpu_idle_wakes(&pc->idle), wakes0);
	KEXPECT_EQ(t, p.fired, 0);
	/* Once the CPU has work its tick runs and the timer expires. */
	ticks0 = READ_ONCE(pc->tick.ticks);
	KEXPECT(t, smp_run_async((unsigned)c, tick_work, 0) &&
			   smp_run_wait((unsigned)c, WAIT_NS));
	if (!wait_fired(&p, 1))
		ktest_fail(t, __FILE__, __LINE__,
			   "CPU %d: deferrable timer (expires %lu) not run; "
			   "%lu ticks in the work, pending=%d, jiffies %lu",
			   c, (unsigned long)p.expires,
			   (unsigned long)(READ_ONCE(pc->tick.ticks) - ticks0),
			   timer_pending(&p.timer),
			   (unsigned long)READ_ONCE(jiffies64));
	else
		KEXPECT_EQ(t, p.fired_cpu, (unsigned)c);
	timer_delete_sync(&p.timer);
}

static void add_timer_on_without_pinned_warns_once(struct ktest *t)
{
	struct probe p[2] = { 0 };
	unsigned target = nr_cpus - 1, w0 = warn_count();

	while (!cpu_online(target))
		target--;
	for (unsigned i = 0; i < 2; i++) {
		timer_setup(&p[i].timer, probe_fn, 0);
		p[i].timer.expires = p[i].expires = tick_update_jiffies() + 2;
		add_timer_on(&p[i].timer, target);
	}
	KEXPECT_EQ(t, warn_count() - w0, 1);
	KEXPECT(t, wait_fired(p, 2));
	/* Queued on that CPU's local base anyway: it expires there. */
	KEXPECT_EQ(t, p[0].fired_cpu, target);
	KEXPECT_EQ(t, p[1].fired_cpu, target);
}

static uint64_t all_ticks(void)
{
	uint64_t n = 0;

	for (unsigned c = 0; c < nr_cpus; c++)
		n += READ_ONCE(per_cpu(c)->tick.ticks);
	return n;
}

/*
 * The boot CPU sleeps 100 ms in NOHZ idle while every other CPU idles with
 * nothing armed: almost no CPU ticks, yet jiffies must have moved on by
 * the whole sleep when it wakes (they are caught up from the clock), and
 * never past the clock.
 */
static void idle_boot_cpu_catches_jiffies_up(struct ktest *t)
{
	struct percpu *self = this_cpu();
	uint64_t sleep_j = tick_ns_to_jiffies(100000000ULL);
	/* t0..t1 must enclose j0..j1, or a stall between them breaks the bound. */
	uint64_t t0 = clock_ns(), j0 = tick_update_jiffies(), j1, t1;
	uint64_t ticks0 = all_ticks(), idle0 = self->idle.entries;

	if (!tick_nohz_enabled()) {
		ktest_skip(t, "needs nohz=on");
		return;
	}
	cpu_idle_sleep_ns(100000000ULL);
	j1 = READ_ONCE(jiffies64);
	t1 = clock_ns();
	KEXPECT(t, self->idle.entries > idle0);
	KEXPECT(t, j1 - j0 >= sleep_j);
	KEXPECT(t, j1 - j0 <= (t1 - t0) / tick_period_ns() + 1);
	/* The wake itself, and maybe one tick before idle entry settled. */
	KEXPECT(t, all_ticks() - ticks0 <= 3);
}

/*
 * nohz=off keeps the tick in idle: over 50 ticks' time an idle CPU never
 * stops its tick and takes timer wakes, at most one a jiffy of the window
 * as it really was: the window ends at the first clock read past 50 ticks,
 * and a host that stalls this CPU's vCPU there stretches it (once 0.85 s,
 * 213 ticks), so the bound is taken from the window's measured length,
 * printed with it.  How many wakes is the host's to decide (a vCPU the
 * host does not run loses the ticks it missed: the next one is armed from
 * the current jiffy), so they are printed with the CPU's latest tick
 * interrupt delay, not bounded from below beyond one: with the tick
 * stopped it would be none.
 */
static void nohz_off_keeps_the_tick_in_idle(struct ktest *t)
{
	int c = -1;
	uint64_t w0, s0, t0, t1, ticks, want;
	bool stopped = false;
	struct percpu *pc;

	if (tick_nohz_enabled()) {
		ktest_skip(t, "needs nohz=off");
		return;
	}
	for (unsigned i = nr_cpus; i-- > 0;)
		if (cpu_online(i) && i != smp_processor_id())
			c = (int)i;
	if (c < 0) {
		ktest_skip(t, "needs 2 CPUs");
		return;
	}
	pc = per_cpu((unsigned)c);
	w0 = pc->idle.wakes_timer;
	s0 = pc->tick.stops;
	t0 = clock_ns();
	while ((t1 = clock_ns()) - t0 < 50 * tick_period_ns()) {
		stopped |= READ_ONCE(pc->tick.stopped);
		cpu_relax();
	}
	ticks = READ_ONCE(pc->idle.wakes_timer) - w0;
	/* One tick per jiffy boundary: at most this many in [t0, now]. */
	want = (clock_ns() - t0) / tick_period_ns() + 1;
	KEXPECT(t, !stopped);
	KEXPECT_EQ(t, pc->tick.stops, s0);
	if (ticks < 1 || ticks > want + 1)
		ktest_fail(t, __FILE__, __LINE__,
			   "CPU %d: %lu timer wakes in %lu ticks' time", c,
			   (unsigned long)ticks, (unsigned long)want);
	printk("        # CPU %d: %lu timer wakes in %lu ticks' time (window "
	       "%lu us, 50 ticks asked), last tick interrupt %lu us late\n",
	       c, (unsigned long)ticks, (unsigned long)want,
	       (unsigned long)((t1 - t0) / 1000),
	       (unsigned long)(READ_ONCE(pc->tick.irq_delay_ns) / 1000));
}

/*
 * A timer interrupt raised while the CPU ran, interrupts off, and still
 * pending when its idle path reprograms the timer for later (what a vCPU
 * the host stalls for more than a tick between deciding to stop the tick
 * and halting sees): the idle path takes it before HLT, so it is no
 * wake.  The sleep costs its own timer's wake alone.
 */
static void timer_irq_raised_before_halt_is_no_wake(struct ktest *t)
{
	struct percpu *self = this_cpu();
	uint64_t w0, b0, h0, t0;
	unsigned long flags;
	bool pending, halted;

	if (!tick_nohz_enabled()) {
		ktest_skip(t, "needs nohz=on");
		return;
	}
	flags = local_irq_save();
	arch_clockevent_program(1000);
	t0 = clock_ns();
	while (!(pending = arch_clockevent_irq_pending()) &&
	       clock_ns() - t0 < 100 * NSEC_PER_MSEC)
		cpu_relax();
	w0 = self->idle.wakes_timer;
	b0 = self->idle.irq_before_halt;
	h0 = self->idle.ns;
	cpu_idle_sleep_ns(20 * NSEC_PER_MSEC);
	local_irq_restore(flags);
	/*
	 * The sleep's own timer wakes it once from HLT; if the host held
	 * the vCPU past the sleep's end before it halted (soak, 2026-12-07),
	 * the timer ran on the pending interrupt's tick and the CPU never
	 * halted: no wake, and no time halted either.
	 */
	halted = self->idle.ns != h0;
	printk("        # pending=%d irq_before_halt=%lu halted=%d "
	       "wakes_timer=%lu\n",
	       pending, (unsigned long)(self->idle.irq_before_halt - b0),
	       halted, (unsigned long)(self->idle.wakes_timer - w0));
	KEXPECT(t, pending);
	KEXPECT_EQ(t, self->idle.irq_before_halt - b0, 1);
	KEXPECT_EQ(t, self->idle.wakes_timer - w0, halted ? 1 : 0);
}

static const struct ktest_case timer_cases[] = {
	KTEST_CASE(timers_on_every_cpu_expire_in_bounds),
	KTEST_CASE(remote_pinned_timer_costs_one_ipi_wake),
	KTEST_CASE(deferrable_timer_does_not_wake_idle_cpu),
	KTEST_CASE(add_timer_on_without_pinned_warns_once),
	KTEST_CASE(idle_boot_cpu_catches_jiffies_up),
	KTEST_CASE(nohz_off_keeps_the_tick_in_idle),
	KTEST_CASE(timer_irq_raised_before_halt_is_no_wake),
};

KTEST_SUITE(timer_suite, .name = "timer", .cases = timer_cases,
	    .ncases = sizeof(timer_cases) / sizeof(timer_cases[0]));

/*
 * CPU offline and online at run time (kernel/hotplug.h, docs/hotplug.md).
 *
 * Going offline moves every timer of the CPU, pinned ones included, to the
 * controller with its expiry unchanged; the parked CPU is not woken by
 * anything but cpu_up()'s IPI; back online it serves its own timers and
 * the hierarchy's again.  Bad requests are refused with a code and a line.
 * "Not early" is exact; the late bound allows the same TCG slack as the
 * timer suite, plus the host's share measured in the same run
 * (expect_on_time()).
 */
#include "arch/x86_64/arch.h"
#include "arch/x86_64/smp.h"
#include "arch/x86_64/tsc.h"
#include "kernel/hotplug.h"
#include "kernel/idle.h"
#include "kernel/kmem.h"
#include "kernel/ktest.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/smp_call.h"
#include "kernel/tick.h"
#include "lib/atomic.h"
#include "lib/errno.h"
#include "lib/time.h"
#include "tests/guest/probe.h"
#include "timer/timer.h"

#define WAIT_NS	     5000000000ULL
#define LATE_SLACK_J (10 + nr_cpus / 4)

/* The highest-numbered online CPU other than this one, or -1. */
static int victim_cpu(void)
{
	for (unsigned c = nr_cpus; c-- > 0;)
		if (c != smp_processor_id() && c != 0 && cpu_online(c))
			return (int)c;
	return -1;
}

static bool need_victim(struct ktest *t, int *cpu)
{
	*cpu = victim_cpu();
	if (*cpu < 0)
		ktest_skip(t, "needs a second online CPU");
	return *cpu >= 0;
}

static void arm_here(void *arg)
{
	struct probe *p = arg;

	mod_timer(&p->timer, p->expires);
	probe_queued(p, tick_update_jiffies());
}

/* Arm @p on @cpu (mod_timer() there) @ms from now, with @flags. */
static void arm_on(struct probe *p, unsigned cpu, uint32_t flags, unsigned ms)
{
	*p = (struct probe){ .fired = 0 };
	timer_setup(&p->timer, probe_fn, flags);
	p->expires =
		tick_update_jiffies() + tick_ns_to_jiffies(ms * NSEC_PER_MSEC);
	smp_call_on(cpu, arm_here, p);
}

static bool wait_fired(struct probe *p)
{
	uint64_t t0 = clock_ns();

	while (!probe_fired(p))
		if (clock_ns() - t0 > WAIT_NS)
			return false;
		else
			cpu_idle_sleep_ns(tick_period_ns());
	return true;
}

/*
 * Every online CPU's cpu_idle_awake_ns() now, taken before arming probes
 * that expect_on_time() judges.  One buffer, allocated once (kmem never
 * frees); the cases run one at a time on one CPU.
 */
static const uint64_t *awake_snapshot(void)
{
	static uint64_t *awake;

	if (!awake)
		awake = kzalloc(nr_cpus * sizeof(*awake));
	for (unsigned c = 0; awake && c < nr_cpus; c++)
		awake[c] = cpu_online(c) ? cpu_idle_awake_ns(c) : 0;
	return awake;
}

/*
 * Fired once, never early, and late by at most the level's granularity,
 * the TCG slack and the host's share measured in this run: how late the
 * expiring CPU's timer interrupt came, and the time that CPU spent out of
 * HLT in its idle loop since @awake0 (a vCPU thread the host did not run).
 */
static void expect_on_time(struct ktest *t, const struct probe *p,
			   const uint64_t *awake0)
{
	uint64_t host = p->irq_delay_ns, bound;

	if (awake0 && p->fired_cpu < nr_cpus)
		host += p->awake_ns - awake0[p->fired_cpu];
	/* Level 0 or 1 (<= 8 jiffies) plus the TCG slack. */
	bound = p->expires + 8 + LATE_SLACK_J + tick_ns_to_jiffies(host);
	KEXPECT_EQ(t, p->fired, 1);
	KEXPECT(t, timer_after_eq(p->fired_j, p->expires));
	if (timer_after(p->fired_j, bound))
		ktest_fail(t, __FILE__, __LINE__,
			   "expires %lu, fired at %lu on CPU %u, bound %lu "
			   "(host share %lu us: irq %lu us late); queued on "
			   "CPU %u at %lu, %s, base clk %lu next %lu%s%s",
			   (unsigned long)p->expires, (unsigned long)p->fired_j,
			   p->fired_cpu, (unsigned long)bound,
			   (unsigned long)(host / NSEC_PER_USEC),
			   (unsigned long)(p->irq_delay_ns / NSEC_PER_USEC),
			   p->queued_cpu, (unsigned long)p->queued_j,
			   p->timer.flags & TIMER_PINNED ? "pinned" : "global",
			   (unsigned long)p->base_clk,
			   (unsigned long)p->base_next,
			   p->base_recalc ? " recalc" : "",
			   p->base_idle ? " idle" : "");
}

static void refuses_bad_requests(struct ktest *t)
{
	int victim = victim_cpu();

	KEXPECT_EQ(t, cpu_down(nr_cpus), -EINVAL);
	KEXPECT_EQ(t, cpu_up(nr_cpus + 7), -EINVAL);
	/* On one CPU this is "the last online CPU"; else "the calling CPU". */
	KEXPECT_EQ(t, cpu_down(smp_processor_id()), -EBUSY);
	KEXPECT_EQ(t, cpu_up(smp_processor_id()), -EALREADY);
	KEXPECT(t, cpu_online(smp_processor_id()));
	if (victim < 0)
		return;
	KEXPECT_EQ(t, cpu_up((unsigned)victim), -EALREADY);
	KEXPECT_EQ(t, cpu_down((unsigned)victim), 0);
	KEXPECT_EQ(t, cpu_down((unsigned)victim), -EALREADY);
	KEXPECT_EQ(t, cpu_up((unsigned)victim), 0);
	KEXPECT(t, cpu_online(victim));
}

static void offline_refuses_the_last_online_cpu(struct ktest *t)
{
	unsigned downed[8], n = 0;

	/* Take the others down (a few, to keep it short), then ourselves. */
	for (unsigned c = nr_cpus; c-- > 1 && n < 8;)
		if (cpu_online(c) && cpu_down_quiet(c) == 0)
			downed[n++] = c;
	if (num_online_cpus() != 1) {
		for (unsigned i = 0; i < n; i++)
			KEXPECT_EQ(t, cpu_up(downed[i]), 0);
		ktest_skip(t, "needs at most 9 CPUs");
		return;
	}
	KEXPECT_EQ(t, cpu_down(smp_processor_id()), -EBUSY);
	KEXPECT_EQ(t, num_online_cpus(), 1);
	for (unsigned i = 0; i < n; i++)
		KEXPECT_EQ(t, cpu_up(downed[i]), 0);
	KEXPECT_EQ(t, num_online_cpus(), n + 1);
}

/* Delete @p if it is pending, else check it ran once, not early. */
static void drop_or_check(struct ktest *t, struct probe *p)
{
	if (timer_delete_sync(&p->timer))
		return;
	KEXPECT_EQ(t, p->fired, 1);
	KEXPECT(t, timer_after_eq(p->fired_j, p->expires));
}

#define OFFLINE_TRIES 3

static void offline_moves_every_timer_to_the_caller(struct ktest *t)
{
	struct probe pinned, global, def;
	unsigned self = smp_processor_id(), try;
	const uint64_t *awake0;
	uint64_t t0;
	int x;

	if (!need_victim(t, &x))
		return;
	/*
	 * The timers are due 100 ms on; under TCG the host may run CPU x's
	 * offline work later than that (a soak run under four hogs did),
	 * and then they rightly run on CPU x first.  Such a round says how
	 * long cpu_down() took, checks what ran, and is tried again.
	 */
	for (try = 1;; try++) {
		awake0 = awake_snapshot();
		arm_on(&pinned, (unsigned)x, TIMER_PINNED, 100);
		arm_on(&global, (unsigned)x, 0, 100);
		arm_on(&def, (unsigned)x, TIMER_DEFERRABLE, 100);
		KEXPECT_EQ(t, pinned.timer.flags & TIMER_CPUMASK, x);
		t0 = clock_ns();
		KEXPECT_EQ(t, cpu_down((unsigned)x), 0);
		if (!probe_fired(&pinned) && !probe_fired(&global) &&
		    !probe_fired(&def))
			break;
		printk("        # try %u: cpu_down(%d) took %lu ms, and a "
		       "timer due in 100 ms ran on CPU %d first\n",
		       try, x,
		       (unsigned long)((clock_ns() - t0) / NSEC_PER_MSEC), x);
		drop_or_check(t, &pinned);
		drop_or_check(t, &global);
		drop_or_check(t, &def);
		KEXPECT_EQ(t, cpu_up((unsigned)x), 0);
		if (try == OFFLINE_TRIES) {
			ktest_skip(t, "the host ran the offline later than "
				      "the timers each try");
			return;
		}
	}
	KEXPECT(t, !cpu_online(x));
	KEXPECT(t, !timer_cpu_online((unsigned)x));
	/* All pending still, now on this CPU's bases, flags otherwise kept. */
	KEXPECT(t, timer_pending(&pinned.timer) &&
			   timer_pending(&global.timer) &&
			   timer_pending(&def.timer));
	KEXPECT_EQ(t, pinned.timer.flags & TIMER_CPUMASK, self);
	KEXPECT_EQ(t, global.timer.flags & TIMER_CPUMASK, self);
	KEXPECT_EQ(t, def.timer.flags & TIMER_CPUMASK, self);
	KEXPECT(t, pinned.timer.flags & TIMER_PINNED);
	KEXPECT(t, def.timer.flags & TIMER_DEFERRABLE);

	KEXPECT(t, wait_fired(&pinned) && wait_fired(&global));
	/* A deferrable timer waits for a tick: stay busy a few. */
	for (uint64_t t0 = clock_ns();
	     !probe_fired(&def) && clock_ns() - t0 < WAIT_NS;)
		cpu_relax();
	expect_on_time(t, &pinned, awake0);
	expect_on_time(t, &global, awake0);
	KEXPECT(t, probe_fired(&def));
	KEXPECT(t, timer_after_eq(def.fired_j, def.expires));
	KEXPECT_EQ(t, pinned.fired_cpu, self);
	KEXPECT_EQ(t, def.fired_cpu, self);
	KEXPECT(t, global.fired_cpu != (unsigned)x);
	KEXPECT_EQ(t, cpu_up((unsigned)x), 0);
}

static void parked_cpu_is_woken_only_by_cpu_up(struct ktest *t)
{
	struct percpu *p;
	struct probe around[4];
	uint64_t wakes0, offlines0;
	int x;

	if (!need_victim(t, &x))
		return;
	p = per_cpu((unsigned)x);
	wakes0 = p->hp.parked_wakes;
	offlines0 = p->hp.offlines;
	KEXPECT_EQ(t, cpu_down((unsigned)x), 0);
	/* Timer traffic elsewhere, pinned and global, while it is parked. */
	for (unsigned i = 0; i < 4; i++) {
		unsigned c = (unsigned)x;

		while (c == (unsigned)x || !cpu_online(c))
			c = (c + 1) % nr_cpus;
		arm_on(&around[i], c, i & 1 ? TIMER_PINNED : 0, 20 + 10 * i);
	}
	for (unsigned i = 0; i < 4; i++)
		KEXPECT(t, wait_fired(&around[i]));
	cpu_idle_sleep_ns(50000000ULL);
	KEXPECT_EQ(t, p->hp.parked_wakes, wakes0);
	KEXPECT_EQ(t, p->hp.offlines, offlines0 + 1);
	KEXPECT_EQ(t, cpu_up((unsigned)x), 0);
	KEXPECT_EQ(t, p->hp.parked_wakes, wakes0 + 1);
	KEXPECT(t, !READ_ONCE(p->hp.offline));
}

static void online_cpu_serves_its_timers_again(struct ktest *t)
{
	struct probe pinned, global;
	const uint64_t *awake0;
	int x;

	if (!need_victim(t, &x))
		return;
	KEXPECT_EQ(t, cpu_down((unsigned)x), 0);
	cpu_idle_sleep_ns(20000000ULL);
	KEXPECT_EQ(t, cpu_up((unsigned)x), 0);
	KEXPECT(t, timer_cpu_online((unsigned)x));
	/* It went back to idle: a pinned timer must wake it. */
	KEXPECT(t, wait_other_cpus_idle(WAIT_NS));
	awake0 = awake_snapshot();
	*(&pinned) = (struct probe){ .fired = 0 };
	timer_setup(&pinned.timer, probe_fn, TIMER_PINNED);
	pinned.timer.expires = pinned.expires = tick_update_jiffies() + 10;
	add_timer_on(&pinned.timer, (unsigned)x);
	arm_on(&global, (unsigned)x, 0, 60);
	KEXPECT(t, wait_fired(&pinned) && wait_fired(&global));
	expect_on_time(t, &pinned, awake0);
	expect_on_time(t, &global, awake0);
	KEXPECT_EQ(t, pinned.fired_cpu, x);
}

static void add_timer_on_an_offline_cpu_arms_here(struct ktest *t)
{
	struct probe p = { .fired = 0 };
	const uint64_t *awake0;
	int x;

	if (!need_victim(t, &x))
		return;
	KEXPECT_EQ(t, cpu_down((unsigned)x), 0);
	awake0 = awake_snapshot();
	timer_setup(&p.timer, probe_fn, TIMER_PINNED);
	p.timer.expires = p.expires = tick_update_jiffies() + 5;
	add_timer_on(&p.timer, (unsigned)x);
	KEXPECT_EQ(t, p.timer.flags & TIMER_CPUMASK, smp_processor_id());
	KEXPECT(t, wait_fired(&p));
	expect_on_time(t, &p, awake0);
	KEXPECT_EQ(t, p.fired_cpu, smp_processor_id());
	KEXPECT_EQ(t, cpu_up((unsigned)x), 0);
}

/*
 * Every other CPU in turn goes down and comes back while each online CPU
 * holds a pinned and a global timer: each fires once, never early.
 */
#define CYCLE_TIMERS 16

static void cycles_lose_no_timer(struct ktest *t)
{
	static struct probe p[CYCLE_TIMERS];
	unsigned cycles = 0, n = 0;
	const uint64_t *awake0;
	uint64_t start_j, end_j;

	if (victim_cpu() < 0) {
		ktest_skip(t, "needs a second online CPU");
		return;
	}
	awake0 = awake_snapshot();
	for (unsigned i = 0; i < CYCLE_TIMERS; i++) {
		unsigned c = i % nr_cpus;

		if (!cpu_online(c))
			continue;
		arm_on(&p[n++], c, i & 1 ? TIMER_PINNED : 0, 30 + 7 * i);
	}
	/* The jiffies the cycles span, for reading a late probe's report. */
	start_j = tick_update_jiffies();
	for (unsigned c = 1; c < nr_cpus && cycles < 8; c++) {
		if (!cpu_online(c))
			continue;
		KEXPECT_EQ(t, cpu_down_quiet(c), 0);
		KEXPECT_EQ(t, cpu_up_quiet(c), 0);
		cycles++;
	}
	end_j = tick_update_jiffies();
	for (unsigned i = 0; i < n; i++) {
		KEXPECT(t, wait_fired(&p[i]));
		expect_on_time(t, &p[i], awake0);
	}
	printk("# hotplug_cycles cycles=%u timers=%u from_j=%lu to_j=%lu\n",
	       cycles, n, (unsigned long)start_j, (unsigned long)end_j);
}

static const struct ktest_case hotplug_cases[] = {
	KTEST_CASE(refuses_bad_requests),
	KTEST_CASE(offline_moves_every_timer_to_the_caller),
	KTEST_CASE(parked_cpu_is_woken_only_by_cpu_up),
	KTEST_CASE(online_cpu_serves_its_timers_again),
	KTEST_CASE(add_timer_on_an_offline_cpu_arms_here),
	KTEST_CASE(cycles_lose_no_timer),
	KTEST_CASE(offline_refuses_the_last_online_cpu),
};

KTEST_SUITE(hotplug_suite, .name = "hotplug", .cases = hotplug_cases,
	    .ncases = sizeof(hotplug_cases) / sizeof(hotplug_cases[0]));

/*
 * `selftest=torture` (explicit only, docs/torture.md): for torture_ms= every
 * online CPU arms, re-arms, cancels and deletes timers at random (seeded
 * by torture_seed=), busy in bursts and idle between them, while the boot
 * CPU (the controller) takes CPUs offline and brings them back.  At the
 * end the accounting must be exact: armed = expired + cancelled + pending,
 * no timer ran before its expiry and none ran twice.
 *
 * Ownership, so that the counts need no lock: each CPU owns a slice of
 * timers and only it arms or deletes them (the callback runs anywhere).
 * Each mod_timer()/add_timer_on() is one arm; mod_timer() returning 1
 * superseded a pending arm (one cancelled), timer_delete() returning 1
 * cancelled one; each callback is one expiry; what the final sweep
 * deletes is pending.  The owner's counters have one writer; the
 * callback's are atomics, since two arms of one timer may expire on two
 * CPUs at once (the second armed while the first's callback is running).
 *
 * Not early: a callback cannot tell which arm it runs for (the owner may
 * re-arm while it is in flight), so each timer carries a floor that no
 * live arm expires before: the arm's own expiry when nothing else is live
 * (exact), else the earliest of the live ones.  "Live" = armed - cancelled
 * - expired, with the expiry counted when the callback is done with the
 * floor, so the floor only rises when no callback can be reading it.
 * Expiries checked against a floor that was not exact count as `loose`
 * (still checked, but not measured for lateness).
 *
 * Not twice: every expiry is a different arm that was not cancelled, so a
 * callback that finds more expiries than armed - cancelled counts `twice`.
 *
 * Offline: the controller never takes down a CPU with a burst in flight
 * (cpu_down() uses the same work slot) nor one another CPU is about to
 * add_timer_on() to (a handshake on target_ok/using, below): that would
 * only test add_timer_on()'s "CPU is offline" warning.
 *
 * Lines: `# torture start ...`, then after the run one `# torture cpu=`
 * line per CPU and `# torture total ...` (docs/torture.md).
 */
#include "arch/x86_64/arch.h"
#include "arch/x86_64/smp.h"
#include "arch/x86_64/tsc.h"
#include "kernel/boot.h"
#include "kernel/cmdline.h"
#include "kernel/hotplug.h"
#include "kernel/idle.h"
#include "kernel/kmem.h"
#include "kernel/ktest.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/smp_call.h"
#include "kernel/tick.h"
#include "lib/atomic.h"
#include "lib/rand.h"
#include "lib/time.h"
#include "timer/timer.h"

#define TT_TIMERS     32 /* per CPU */
#define TT_NO_CPU     (-1)
#define TT_REST_NS    5000000ULL	  /* most a CPU idles between bursts */
#define TT_HOTPLUG_NS 10000000ULL	  /* up to this between hotplug steps */
#define TT_WAIT_NS    (10 * NSEC_PER_SEC) /* for a burst, for the last expiries */

static const uint32_t tt_kinds[] = {
	TIMER_PINNED,
	0,
	TIMER_DEFERRABLE,
	TIMER_PINNED | TIMER_DEFERRABLE,
};

struct tt_timer {
	struct timer_list timer; /* first: the callback casts back */
	uint32_t flags;
	unsigned owner;
	/* Floor: written by the owner under seq (odd while changing). */
	uint32_t seq;
	bool exact;
	uint64_t floor;
	unsigned queued_cpu; /* where the last arm asked to run */
	/* The owner's counts. */
	uint64_t armed, cancelled, pending;
	/* The callback's counts, atomics. */
	uint64_t fired, early, twice, loose, late_max, migrated;
	uint64_t woken_late_max; /* tt_woken_late() */
	uint64_t queued_ns;	 /* clock when the last arm's call returned */
};

struct tt_cpu {
	uint64_t rng;
	struct tt_timer *timers; /* this CPU's slice, TT_TIMERS */
	uint64_t ops, op_max_ns; /* owner */
	bool lock_stats_reset; /* its CPU's lock_*_max_ns, at its first burst */
	/* Controller: burst state, hotplug counts. */
	bool used, busy, down, stuck;
	uint64_t rest_until, offlines, onlines;
	/* add_timer_on() handshake with cpu_down(). */
	volatile bool target_ok;
	volatile int using;
	uint64_t ran; /* callbacks run here, atomic */
} __attribute__((aligned(64)));

struct tt_sum {
	uint64_t ops, armed, expired, cancelled, pending, early, twice, lost;
	uint64_t loose, late_max, ran, migrated, offlines, onlines;
	uint64_t op_max_us, woken_late_max;
	uint64_t lock_wait_max_us, lock_not_run_max_us;
	uint64_t tick_late_max_us, ticks_late_long;
};

struct tt_early { /* the first early expiry seen */
	bool seen;
	unsigned owner, index, cpu;
	uint32_t flags;
	uint64_t now, floor;
};

static struct tt_cpu *tt_cpus;
static struct tt_timer *tt_timers;
static struct tt_sum tt_total;
static struct tt_early tt_first_early;
static bool tt_ran;
static uint64_t tt_moved0; /* hotplug_timers_moved() at the start */
static unsigned tt_hotplug_errors, tt_stuck;
static int tt_hotplug_err_code;
static unsigned tt_hotplug_err_cpu;

/* lib/rand.h: per CPU, so a seed gives each CPU the same op sequence. */
static unsigned tt_below(uint64_t *s, unsigned n)
{
	return rand_below(s, n);
}

static uint64_t tt_seed_cpu(uint64_t seed, unsigned cpu)
{
	return rand_seed(seed, cpu);
}

static void tt_note_early(struct tt_timer *tt, uint64_t now, uint64_t floor)
{
	atomic_fetch_add(&tt->early, 1);
	if (atomic_xchg(&tt_first_early.seen, true))
		return;
	tt_first_early.owner = tt->owner;
	tt_first_early.index = (unsigned)(tt - tt_cpus[tt->owner].timers);
	tt_first_early.cpu = smp_processor_id();
	tt_first_early.flags = tt->flags;
	tt_first_early.now = now;
	tt_first_early.floor = floor;
}

/*
 * Where an expiry's lateness came from, told apart by what the kernel
 * controls.  The reference is the first jiffy the timer could run (@floor)
 * or, if later, when the arm's call returned (an arm held up past its own
 * expiry, by a lock or a vCPU not run, is queued late).  If the softirq
 * running the callback follows a LAPIC timer interrupt that came after the
 * reference, the kernel's part is how late that interrupt was armed: 0 if
 * in time, when the rest is delivery (a vCPU the host did not run, or one
 * spinning for a lock with interrupts off) and waits after it.  If no
 * timer interrupt came since (an IPI's softirq), all of it counts.
 * Returns the kernel's part in jiffies (woken_late_max_j), and counts the
 * expiries more than TT_LATE_CLASS_J late by cause (tt_late).
 */
#define TT_LATE_CLASS_J 50

static struct {
	uint64_t n;	       /* expiries more than TT_LATE_CLASS_J late */
	uint64_t timely_irq;   /* after a timer interrupt armed in time */
	uint64_t late_wake;    /* after one armed late: no wake in time here */
	uint64_t no_timer_irq; /* no timer interrupt since the reference */
} tt_late;

static uint64_t tt_woken_late(const struct tt_timer *tt, uint64_t floor)
{
	const struct percpu *p = this_cpu();
	uint64_t now = clock_ns(), ref = tick_jiffy_start_ns(floor);
	uint64_t queued = READ_ONCE(tt->queued_ns), slack;
	uint64_t irq_at = p->softirq.run_irq_ns;
	uint64_t armed = p->softirq.run_irq_armed_ns;
	uint64_t woke = now, *cls = &tt_late.no_timer_irq;
	uint64_t jiffy = tick_period_ns();

	if (queued > ref && queued <= now)
		ref = queued;
	if (irq_at >= ref && irq_at <= now)
		woke = armed == TMIGR_NONE_NS || armed > irq_at ? irq_at :
								  armed;
	slack = TT_LATE_CLASS_J * jiffy;
	if (now > ref + slack) {
		if (irq_at >= ref && irq_at <= now)
			cls = woke > ref + slack ? &tt_late.late_wake :
						   &tt_late.timely_irq;
		atomic_fetch_add(cls, 1);
		atomic_fetch_add(&tt_late.n, 1);
	}
	return woke > ref ? (woke - ref) / jiffy : 0;
}

/*
 * The callback.  The expiry is counted last but for the twice check: the
 * owner raises the floor only once every callback is past reading it.
 */
static void tt_fn(struct timer_list *t)
{
	struct tt_timer *tt = (struct tt_timer *)t;
	unsigned here = smp_processor_id();
	uint32_t s1 = smp_load_acquire(&tt->seq);
	uint64_t floor = READ_ONCE(tt->floor), now, n, cancelled, armed;
	bool exact = READ_ONCE(tt->exact);

	now = READ_ONCE(jiffies64);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	exact = exact && !(s1 & 1) && READ_ONCE(tt->seq) == s1;
	if (timer_before(now, floor))
		tt_note_early(tt, now, floor);
	else if (!exact)
		atomic_fetch_add(&tt->loose, 1);
	else if (!(tt->flags & TIMER_DEFERRABLE)) {
		atomic_max(&tt->late_max, now - floor);
		atomic_max(&tt->woken_late_max, tt_woken_late(tt, floor));
	}
	if (here != READ_ONCE(tt->queued_cpu))
		atomic_fetch_add(&tt->migrated, 1);
	atomic_fetch_add(&tt_cpus[here].ran, 1);
	n = atomic_fetch_add(&tt->fired, 1) + 1;
	/* Read after our expiry is counted: every earlier one's arm is in. */
	cancelled = smp_load_acquire(&tt->cancelled);
	armed = smp_load_acquire(&tt->armed);
	if (n > armed - cancelled)
		atomic_fetch_add(&tt->twice, 1);
}

static void tt_set_floor(struct tt_timer *tt, uint64_t floor, bool exact)
{
	WRITE_ONCE(tt->seq, tt->seq + 1);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	WRITE_ONCE(tt->floor, floor);
	WRITE_ONCE(tt->exact, exact);
	smp_store_release(&tt->seq, tt->seq + 1);
}

/* Owner, before arming @tt for @exp on @cpu; returns the arms live before. */
static uint64_t tt_before_arm(struct tt_timer *tt, uint64_t exp, unsigned cpu)
{
	uint64_t live =
		tt->armed - tt->cancelled - smp_load_acquire(&tt->fired);

	if (live == 0)
		tt_set_floor(tt, exp, true);
	else if (timer_before(exp, tt->floor) || tt->exact)
		tt_set_floor(tt, timer_before(exp, tt->floor) ? exp : tt->floor,
			     false);
	WRITE_ONCE(tt->queued_cpu, cpu);
	smp_store_release(&tt->armed, tt->armed + 1);
	return live;
}

static void tt_cancelled(struct tt_timer *tt, int ret)
{
	if (ret == 1)
		smp_store_release(&tt->cancelled, tt->cancelled + 1);
}

static void tt_mod(struct tt_timer *tt, uint64_t exp)
{
	uint64_t live = tt_before_arm(tt, exp, smp_processor_id());

	if (mod_timer(&tt->timer, exp) == 1) {
		tt_cancelled(tt, 1);
		/* The one live arm was the pending one: only ours is left. */
		if (live == 1)
			tt_set_floor(tt, exp, true);
	}
	WRITE_ONCE(tt->queued_ns, clock_ns());
}

/* A CPU add_timer_on() may use: starts at a random one; this one at worst. */
static unsigned tt_pick_target(struct tt_cpu *c)
{
	unsigned r = tt_below(&c->rng, nr_cpus);

	for (unsigned k = 0; k < nr_cpus; k++) {
		unsigned t = (r + k) % nr_cpus;

		if (tt_cpus[t].target_ok)
			return t;
	}
	return smp_processor_id();
}

/*
 * Pinned timer onto a random online CPU.  @using is published before
 * target_ok is read again, and the controller clears target_ok before it
 * reads @using (all sequentially consistent): one of the two sees the
 * other's store.
 */
static bool tt_arm_on(struct tt_cpu *c, struct tt_timer *tt, uint64_t exp)
{
	unsigned t = tt_pick_target(c);

	__atomic_store_n(&c->using, (int)t, __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&tt_cpus[t].target_ok, __ATOMIC_SEQ_CST)) {
		smp_store_release(&c->using, TT_NO_CPU);
		return false;
	}
	if (timer_pending(&tt->timer))
		tt_cancelled(tt, timer_delete(&tt->timer));
	/* Only we arm it, so it stays not pending. */
	tt->timer.expires = exp;
	tt_before_arm(tt, exp, t);
	add_timer_on(&tt->timer, t);
	WRITE_ONCE(tt->queued_ns, clock_ns());
	smp_store_release(&c->using, TT_NO_CPU);
	return true;
}

/* Mostly level 0; some to level 2; a few long ones, pending at the end. */
static uint64_t tt_delta(uint64_t *r)
{
	unsigned x = tt_below(r, 100);

	if (x < 75)
		return tt_below(r, 8);
	if (x < 95)
		return 8 + tt_below(r, 600);
	return 600 + tt_below(r, 20000);
}

/* Arm a timer that is not pending: on this CPU, or pinned on another. */
static void tt_arm(struct tt_cpu *c, struct tt_timer *tt, uint64_t exp)
{
	if (!(tt->flags & TIMER_PINNED) || tt_below(&c->rng, 2) ||
	    !tt_arm_on(c, tt, exp))
		tt_mod(tt, exp);
}

/*
 * One operation on a random timer of this CPU's slice.  A pending one is
 * left alone half the time, so that timers do expire as often as they are
 * cancelled: operations come much faster than level-0 expiries.
 */
static void tt_op(struct tt_cpu *c)
{
	struct tt_timer *tt = &c->timers[tt_below(&c->rng, TT_TIMERS)];
	uint64_t exp = tick_update_jiffies() + tt_delta(&c->rng);
	unsigned x = timer_pending(&tt->timer) ? tt_below(&c->rng, 100) : 0;
	uint64_t t0 = clock_ns();

	if (x >= 50)
		return;
	c->ops++;
	if (x == 0)
		tt_arm(c, tt, exp);
	else if (x < 25)
		tt_mod(tt, exp);
	else if (x < 45)
		tt_cancelled(tt, timer_delete(&tt->timer));
	else
		tt_cancelled(tt, timer_delete_sync(&tt->timer));
	/* Long only if the vCPU was not run, or a lock or callback held it. */
	t0 = clock_ns() - t0;
	if (t0 > c->op_max_ns)
		c->op_max_ns = t0;
}

/* Pauses inside a burst: spins, and now and then a NOHZ sleep. */
static void tt_pause(struct tt_cpu *c)
{
	unsigned x = tt_below(&c->rng, 32);

	if (x == 0)
		cpu_idle_sleep_ns(tt_below(&c->rng, 3) * tick_period_ns());
	else if (x < 4)
		delay_ns(tt_below(&c->rng, 20000));
}

/* Work handed to an idle CPU: a burst of operations on its own slice. */
static void tt_burst(void *arg)
{
	struct tt_cpu *c = arg;

	if (!c->lock_stats_reset) {
		/* The run's lock waits, not the boot's. */
		this_cpu()->lock_wait_max_ns = 0;
		this_cpu()->lock_not_run_max_ns = 0;
		WRITE_ONCE(this_cpu()->tick.run_late_max_ns, 0);
		WRITE_ONCE(this_cpu()->tick.run_late_long, 0);
		c->lock_stats_reset = true;
	}
	for (unsigned n = 1 + tt_below(&c->rng, 64); n--;) {
		tt_op(c);
		tt_pause(c);
	}
}

/* The last work on each CPU: what is still pending is counted, deleted. */
static void tt_sweep(void *arg)
{
	struct tt_cpu *c = arg;

	for (unsigned i = 0; i < TT_TIMERS; i++)
		c->timers[i].pending += timer_delete(&c->timers[i].timer) == 1;
}

static bool tt_setup(void)
{
	unsigned self = smp_processor_id();

	tt_cpus = kzalloc(nr_cpus * sizeof(*tt_cpus));
	tt_timers = kzalloc(nr_cpus * TT_TIMERS * sizeof(*tt_timers));
	if (!tt_cpus || !tt_timers)
		return false;
	for (unsigned c = 0; c < nr_cpus; c++) {
		struct tt_cpu *tc = &tt_cpus[c];

		tc->rng = tt_seed_cpu(boot_opts.torture_seed, c);
		tc->timers = &tt_timers[c * TT_TIMERS];
		tc->using = TT_NO_CPU;
		tc->used = cpu_online(c) &&
			   (c == self || cpu_present_booted(c));
		tc->target_ok = tc->used;
		for (unsigned i = 0; i < TT_TIMERS; i++) {
			struct tt_timer *tt = &tc->timers[i];

			tt->owner = c;
			tt->flags = tt_kinds[i % 4];
			timer_setup(&tt->timer, tt_fn, tt->flags);
		}
	}
	return true;
}

/* Start a burst on each idle, rested CPU; collect the finished ones. */
static void tt_dispatch(uint64_t now)
{
	unsigned self = smp_processor_id();

	for (unsigned c = 0; c < nr_cpus; c++) {
		struct tt_cpu *tc = &tt_cpus[c];

		if (!tc->used || tc->down || c == self)
			continue;
		if (tc->busy && smp_run_wait(c, 0)) {
			tc->busy = false;
			tc->rest_until =
				now + tt_below(&tt_cpus[self].rng, TT_REST_NS);
		}
		if (!tc->busy && now >= tc->rest_until) {
			tc->busy = true;
			smp_run_async(c, tt_burst, tc);
		}
	}
}

static void tt_hotplug_error(unsigned cpu, int ret)
{
	if (!tt_hotplug_errors++) {
		tt_hotplug_err_code = ret;
		tt_hotplug_err_cpu = cpu;
	}
}

/* No add_timer_on() to @cpu from now on, and none still in progress. */
static void tt_fence_target(unsigned cpu)
{
	__atomic_store_n(&tt_cpus[cpu].target_ok, false, __ATOMIC_SEQ_CST);
	for (unsigned c = 0; c < nr_cpus; c++)
		while (__atomic_load_n(&tt_cpus[c].using, __ATOMIC_SEQ_CST) ==
		       (int)cpu)
			cpu_relax();
}

static void tt_down(unsigned cpu)
{
	struct tt_cpu *tc = &tt_cpus[cpu];
	int ret;

	tt_fence_target(cpu);
	ret = cpu_down_quiet(cpu);
	if (ret) {
		tt_hotplug_error(cpu, ret);
		tc->target_ok = cpu_online(cpu);
		tc->down = !cpu_online(cpu);
		return;
	}
	tc->down = true;
	tc->offlines++;
}

static void tt_up(unsigned cpu)
{
	struct tt_cpu *tc = &tt_cpus[cpu];
	int ret = cpu_up_quiet(cpu);

	if (ret)
		tt_hotplug_error(cpu, ret);
	tc->down = !cpu_online(cpu);
	tc->target_ok = !tc->down;
	if (!ret) {
		tc->onlines++;
		tc->rest_until = 0;
	}
}

/*
 * One hotplug step: bring a random offline CPU back, or take a random
 * idle one down while at most half of the others are down.
 */
static void tt_hotplug_step(unsigned *ndown)
{
	unsigned self = smp_processor_id(), n = nr_cpus;
	uint64_t *r = &tt_cpus[self].rng;
	bool up = tt_below(r, 2) || *ndown >= (num_online_cpus() + *ndown) / 2;
	unsigned start = tt_below(r, n);

	for (unsigned k = 0; k < n; k++) {
		unsigned c = (start + k) % n;
		struct tt_cpu *tc = &tt_cpus[c];

		if (!tc->used || c == self || tc->down != up ||
		    (!up && tc->busy))
			continue;
		if (up)
			tt_up(c);
		else
			tt_down(c);
		*ndown = 0;
		for (unsigned i = 0; i < n; i++)
			*ndown += tt_cpus[i].down;
		return;
	}
}

/* The controller: bursts, its own operations, hotplug, its own idling. */
static void tt_control(uint64_t duration_ns)
{
	unsigned self = smp_processor_id(), ndown = 0;
	struct tt_cpu *me = &tt_cpus[self];
	uint64_t now = clock_ns(), end = now + duration_ns, next_hp = now;

	while ((now = clock_ns()) < end) {
		tt_dispatch(now);
		for (unsigned k = tt_below(&me->rng, 4); k--;)
			tt_op(me);
		if (now >= next_hp) {
			tt_hotplug_step(&ndown);
			next_hp =
				clock_ns() + tt_below(&me->rng, TT_HOTPLUG_NS);
		}
		tt_pause(me);
	}
}

/* Every burst done, every CPU back online. */
static void tt_quiesce(void)
{
	unsigned self = smp_processor_id();

	for (unsigned c = 0; c < nr_cpus; c++) {
		struct tt_cpu *tc = &tt_cpus[c];

		/* A stuck burst stays busy: its slice is not swept. */
		if (tc->busy && !smp_run_wait(c, TT_WAIT_NS)) {
			tc->stuck = true;
			tt_stuck++;
			continue;
		}
		if (tc->down)
			tt_up(c);
		tc->busy = tc->used && c != self && !tc->down;
		if (tc->busy)
			smp_run_async(c, tt_sweep, tc);
	}
	for (unsigned c = 0; c < nr_cpus; c++) {
		struct tt_cpu *tc = &tt_cpus[c];

		/* A CPU that did not come back: its slice is ours now. */
		if (tc->used && (c == self || tc->down))
			tt_sweep(tc);
		else if (tc->busy && !tc->stuck && !smp_run_wait(c, TT_WAIT_NS))
			tt_stuck++;
	}
}

/* Expiries still owed: arms neither cancelled, pending nor run yet. */
static int64_t tt_owed(const struct tt_timer *tt)
{
	return (int64_t)(tt->armed - tt->cancelled - tt->pending -
			 smp_load_acquire(&tt->fired));
}

/* Wait for expiries in flight; then no callback of ours is running. */
static void tt_settle(void)
{
	uint64_t t0 = clock_ns();
	bool owed = true;

	while (owed && clock_ns() - t0 < TT_WAIT_NS) {
		owed = false;
		for (unsigned i = 0; i < nr_cpus * TT_TIMERS && !owed; i++)
			owed = tt_owed(&tt_timers[i]) > 0;
		if (owed)
			cpu_idle_sleep_ns(tick_period_ns());
	}
	for (unsigned i = 0; i < nr_cpus * TT_TIMERS; i++)
		timer_delete_sync(&tt_timers[i].timer);
}

static void tt_add_timer(struct tt_sum *s, const struct tt_timer *tt)
{
	int64_t owed = tt_owed(tt);

	s->armed += tt->armed;
	s->expired += tt->fired;
	s->cancelled += tt->cancelled;
	s->pending += tt->pending;
	s->early += tt->early;
	s->twice += tt->twice;
	s->lost += owed > 0 ? (uint64_t)owed : 0;
	s->loose += tt->loose;
	s->migrated += tt->migrated;
	if (tt->late_max > s->late_max)
		s->late_max = tt->late_max;
	if (tt->woken_late_max > s->woken_late_max)
		s->woken_late_max = tt->woken_late_max;
}

static void tt_add_sum(struct tt_sum *to, const struct tt_sum *s)
{
	uint64_t late = to->late_max > s->late_max ? to->late_max : s->late_max;

	to->ops += s->ops;
	to->armed += s->armed;
	to->expired += s->expired;
	to->cancelled += s->cancelled;
	to->pending += s->pending;
	to->early += s->early;
	to->twice += s->twice;
	to->lost += s->lost;
	to->loose += s->loose;
	to->late_max = late;
	if (s->op_max_us > to->op_max_us)
		to->op_max_us = s->op_max_us;
	if (s->woken_late_max > to->woken_late_max)
		to->woken_late_max = s->woken_late_max;
	if (s->lock_wait_max_us > to->lock_wait_max_us)
		to->lock_wait_max_us = s->lock_wait_max_us;
	if (s->lock_not_run_max_us > to->lock_not_run_max_us)
		to->lock_not_run_max_us = s->lock_not_run_max_us;
	if (s->tick_late_max_us > to->tick_late_max_us)
		to->tick_late_max_us = s->tick_late_max_us;
	to->ticks_late_long += s->ticks_late_long;
	to->ran += s->ran;
	to->migrated += s->migrated;
	to->offlines += s->offlines;
	to->onlines += s->onlines;
}

static void tt_print_cpu(unsigned c, const struct tt_sum *s)
{
	printk("# torture cpu=%u node=%u ops=%lu armed=%lu expired=%lu "
	       "cancelled=%lu pending=%lu early=%lu twice=%lu lost=%lu "
	       "loose=%lu late_max_j=%lu woken_late_max_j=%lu op_max_us=%lu "
	       "lock_wait_max_us=%lu lock_not_run_max_us=%lu "
	       "tick_late_max_us=%lu ticks_late_%uj=%lu ran=%lu "
	       "migrated=%lu offline=%lu online=%lu\n",
	       c, per_cpu(c)->node, s->ops, s->armed, s->expired, s->cancelled,
	       s->pending, s->early, s->twice, s->lost, s->loose, s->late_max,
	       s->woken_late_max, s->op_max_us, s->lock_wait_max_us,
	       s->lock_not_run_max_us, s->tick_late_max_us, TICK_LATE_LONG_J,
	       s->ticks_late_long, s->ran, s->migrated, s->offlines,
	       s->onlines);
}

/* Per-CPU lines (by owner; ran= by where the callback ran), then totals. */
static void tt_report(unsigned ncpus)
{
	struct tt_sum *t = &tt_total;

	for (unsigned c = 0; c < nr_cpus; c++) {
		const struct tt_cpu *tc = &tt_cpus[c];
		struct tt_sum s = {
			.ops = tc->ops,
			.offlines = tc->offlines,
			.onlines = tc->onlines,
			.ran = READ_ONCE(tc->ran),
			.op_max_us = tc->op_max_ns / NSEC_PER_USEC,
			.lock_wait_max_us =
				READ_ONCE(per_cpu(c)->lock_wait_max_ns) /
				NSEC_PER_USEC,
			.lock_not_run_max_us =
				READ_ONCE(per_cpu(c)->lock_not_run_max_ns) /
				NSEC_PER_USEC,
			.tick_late_max_us =
				READ_ONCE(per_cpu(c)->tick.run_late_max_ns) /
				NSEC_PER_USEC,
			.ticks_late_long =
				READ_ONCE(per_cpu(c)->tick.run_late_long),
		};

		if (!tc->used)
			continue;
		for (unsigned i = 0; i < TT_TIMERS; i++)
			tt_add_timer(&s, &tc->timers[i]);
		tt_print_cpu(c, &s);
		tt_add_sum(t, &s);
	}
	printk("# torture late_over_%uj expiries=%lu timely_irq=%lu late_wake=%lu "
	       "no_timer_irq=%lu\n",
	       TT_LATE_CLASS_J, tt_late.n, tt_late.timely_irq,
	       tt_late.late_wake, tt_late.no_timer_irq);
	printk("# torture total seed=%lu duration_ms=%u cpus=%u timers=%u "
	       "ops=%lu armed=%lu expired=%lu cancelled=%lu pending=%lu "
	       "early=%lu twice=%lu lost=%lu loose=%lu late_max_j=%lu "
	       "woken_late_max_j=%lu op_max_us=%lu lock_wait_max_us=%lu "
	       "lock_not_run_max_us=%lu tick_late_max_us=%lu ticks_late_%uj=%lu "
	       "offline=%lu online=%lu migrated=%lu "
	       "offline_moved=%lu hotplug_errors=%u\n",
	       (unsigned long)boot_opts.torture_seed, boot_opts.torture_ms,
	       ncpus, ncpus * TT_TIMERS, t->ops, t->armed, t->expired,
	       t->cancelled, t->pending, t->early, t->twice, t->lost, t->loose,
	       t->late_max, t->woken_late_max, t->op_max_us,
	       t->lock_wait_max_us, t->lock_not_run_max_us, t->tick_late_max_us,
	       TICK_LATE_LONG_J, t->ticks_late_long, t->offlines, t->onlines,
	       t->migrated, hotplug_timers_moved() - tt_moved0,
	       tt_hotplug_errors);
}

static unsigned tt_used_cpus(void)
{
	unsigned n = 0;

	for (unsigned c = 0; c < nr_cpus; c++)
		n += tt_cpus[c].used;
	return n;
}

static void torture_runs_with_hotplug(struct ktest *t)
{
	unsigned ncpus;

	if (!tt_setup()) {
		ktest_fail(t, __FILE__, __LINE__, "no memory for the timers");
		return;
	}
	ncpus = tt_used_cpus();
	tt_moved0 = hotplug_timers_moved();
	printk("# torture start seed=%lu duration_ms=%u cpus=%u timers=%u "
	       "model=%s hz=%u nohz=%s\n",
	       (unsigned long)boot_opts.torture_seed, boot_opts.torture_ms,
	       ncpus, ncpus * TT_TIMERS,
	       timer_model_name(boot_opts.timer_model), boot_opts.hz,
	       boot_opts.nohz ? "on" : "off");
	tt_control(boot_opts.torture_ms * NSEC_PER_MSEC);
	tt_quiesce();
	tt_settle();
	tt_ran = true;
	tt_report(ncpus);
	KEXPECT(t, tt_total.ops > 0);
	KEXPECT_EQ(t, tt_stuck, 0);
	if (tt_hotplug_errors)
		ktest_fail(t, __FILE__, __LINE__,
			   "%u hotplug calls failed, first CPU %u: %d",
			   tt_hotplug_errors, tt_hotplug_err_cpu,
			   tt_hotplug_err_code);
	KEXPECT_EQ(t, num_online_cpus(), ncpus);
}

static bool tt_skip_unrun(struct ktest *t)
{
	if (!tt_ran)
		ktest_skip(t, "the torture run did not happen");
	return !tt_ran;
}

/* Per CPU too: a timer counted on the wrong slice would cancel out. */
static void torture_accounting_is_exact(struct ktest *t)
{
	if (tt_skip_unrun(t))
		return;
	for (unsigned c = 0; c < nr_cpus; c++) {
		uint64_t armed = 0, acc = 0;

		for (unsigned i = 0; tt_cpus[c].used && i < TT_TIMERS; i++) {
			const struct tt_timer *tt = &tt_cpus[c].timers[i];

			armed += tt->armed;
			acc += tt->fired + tt->cancelled + tt->pending;
		}
		if (armed != acc)
			ktest_fail(t, __FILE__, __LINE__,
				   "CPU %u: armed %lu, expired + cancelled + "
				   "pending %lu",
				   c, armed, acc);
	}
	KEXPECT_EQ(t, tt_total.armed,
		   tt_total.expired + tt_total.cancelled + tt_total.pending);
	KEXPECT_EQ(t, tt_total.lost, 0);
}

static void torture_no_timer_early(struct ktest *t)
{
	const struct tt_early *e = &tt_first_early;

	if (tt_skip_unrun(t))
		return;
	if (tt_total.early)
		ktest_fail(t, __FILE__, __LINE__,
			   "%lu early, first: CPU %u timer %u flags 0x%x ran "
			   "on CPU %u at jiffy %lu, floor %lu",
			   tt_total.early, e->owner, e->index, e->flags, e->cpu,
			   e->now, e->floor);
}

static void torture_no_timer_twice(struct ktest *t)
{
	if (tt_skip_unrun(t))
		return;
	KEXPECT_EQ(t, tt_total.twice, 0);
}

static const struct ktest_case torture_cases[] = {
	KTEST_CASE(torture_runs_with_hotplug),
	KTEST_CASE(torture_accounting_is_exact),
	KTEST_CASE(torture_no_timer_early),
	KTEST_CASE(torture_no_timer_twice),
};
KTEST_SUITE(torture_suite, .name = "torture", .cases = torture_cases,
	    .ncases = 4, .explicit_only = true);

/*
 * Scenarios: see kernel/scenario.h and docs/scenarios.md.
 *
 * Wake accounting: a CPU's wakes over the run are the deltas of its
 * per-CPU counters.  The lower bound is what the placement could reach at
 * best: a CPU that is idle for the whole run and owns no pinned timer need
 * not wake at all when some CPU is busy (a busy CPU can expire everything).
 * With every CPU idle, each expiry of the window needs a wake somewhere
 * between the first jiffy the wheel can run it and the jiffy it ran (the
 * lateness the run actually had, which a placement may trade for fewer
 * wakes).  The first is expires + 1: calc_index() rounds every level's
 * bucket up by at least one jiffy, so that a timer armed late in a jiffy
 * does not fire early, and no model runs it at its expires jiffy (the
 * bound used expires itself before, and counted only every other jiffy of
 * timers due each jiffy).  Expiries whose [first, ran] spans are pairwise
 * disjoint, and that ran in distinct
 * wakes (a wake the host stretched over several jiffies may serve more
 * than one), each cost a wake of their own, so their number is a lower
 * bound on the run's wakes.  scenario_bound() (kernel/scenario_bound.c)
 * counts such a set greedily from the expiries logged in the window.
 */
#include "kernel/scenario.h"
#include "kernel/scenario_bound.h"
#include "kernel/scenario_mixed.h"
#include "arch/x86_64/arch.h"
#include "kernel/boot.h"
#include "kernel/cmdline.h"
#include "kernel/hotplug.h"
#include "kernel/idle.h"
#include "kernel/irq.h"
#include "kernel/kmem.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/smp_call.h"
#include "kernel/tick.h"
#include "kernel/watchdog.h"
#include "lib/atomic.h"
#include "lib/time.h"
#include "timer/timer.h"

/*
 * The watchdog's expectation of each stage (kernel/watchdog.h): what its
 * bounded waits add up to, plus slack; it dumps N s past that.
 */
#define STAGE_SLACK_MS 2000
#define CALL_BOUND_MS  1000  /* smp_call_on(), a hotplug operation */
#define BUSY_WAIT_MS   10000 /* the busy CPUs' work, after the run */

struct periodic {
	struct timer_list timer; /* first: the callback casts back */
	unsigned owner;		 /* CPU that armed it first */
	uint64_t period_j;
	uint64_t expires;
	uint64_t expiries;
};

struct snap {
	uint64_t wakes_timer, wakes_ipi, wakes_other, idle_ns, ticks;
	struct idle_residency res;
	struct timer_cpu_stats ts;
};

/* What report() sums over the run's CPUs. */
struct totals {
	unsigned nidle;		   /* CPUs not busy= */
	uint64_t idle_wakes;	   /* theirs, every cause */
	uint64_t idle_timer_wakes; /* theirs, by their LAPIC timer */
	struct idle_residency res; /* theirs */
	unsigned iso_remote;	   /* isolated CPUs that expired remotely */
};

/*
 * The per-expiry accounting is lock-free: every CPU's callback updates it
 * every period, and a lock there is a convoy when the host deschedules
 * vCPUs (docs/scenarios.md, "Why the accounting takes no lock").
 */

static struct {
	struct periodic *timers;
	bool *busy;
	struct snap *before, *after; /* the window's ends, per CPU */
	bool stop;
	uint64_t end_ns;
	bool closed; /* the closing snapshots are taken */
	struct late_hist late;
	/*
	 * The window's expiries for the bound (count_bound()): once
	 * counting, those due at win_j or later and run before stop, in
	 * slots taken with an atomic increment (nlog may pass cap: the rest
	 * are dropped, which only lowers the bound).
	 */
	bool counting;
	uint64_t win_j, nlog, cap;
	struct scenario_expiry *log;
} sc;

void late_hist_add(struct late_hist *h, uint64_t late)
{
	atomic_fetch_add(&h->bucket[late < SCENARIO_LATE_BUCKETS ?
					    late :
					    SCENARIO_LATE_BUCKETS - 1],
			 1);
	atomic_max(&h->max, late);
	atomic_fetch_add(&h->count, 1);
}

uint64_t late_hist_pct(const struct late_hist *h, unsigned pct)
{
	uint64_t want = (h->count * pct + 99) / 100, seen = 0;

	for (unsigned i = 0; i < SCENARIO_LATE_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= want && want)
			return i;
	}
	return 0;
}

/* One expiry due at @due that ran at @ran on this CPU, for the bound. */
static void log_expiry(uint64_t due, uint64_t ran)
{
	/* The earliest it could have run: due + 1, or @ran for a timeout
	 * the wheel capped, which runs early. */
	uint64_t first = timer_before(due + 1, ran) ? due + 1 : ran;

	const struct percpu *pc = this_cpu();
	uint64_t i;

	if (!smp_load_acquire(&sc.counting) ||
	    timer_before(due, READ_ONCE(sc.win_j)) || READ_ONCE(sc.stop))
		return;
	i = atomic_fetch_add(&sc.nlog, 1);
	if (i >= sc.cap)
		return;
	sc.log[i] = (struct scenario_expiry){ first, ran,
					      cpu_idle_wakes(&pc->idle),
					      pc->cpu };
}

static void periodic_fn(struct timer_list *t)
{
	struct periodic *p = (struct periodic *)t;
	uint64_t now = READ_ONCE(jiffies64);

	late_hist_add(&sc.late, now - p->expires);
	log_expiry(p->expires, now);
	p->expiries++;
	if (READ_ONCE(sc.stop))
		return;
	p->expires += p->period_j;
	if (timer_before_eq(p->expires, now))
		p->expires = now + 1; /* fell behind: skip, do not burst */
	mod_timer(&p->timer, p->expires);
}

static void arm_periodic(void *arg)
{
	struct periodic *p = arg;

	timer_setup(&p->timer, periodic_fn, 0);
	mod_timer(&p->timer, p->expires);
}

/*
 * A busy CPU other than this one spins past the window's end until the
 * closing snapshots are taken.  Stopping at end_ns instead would let the
 * whole machine go idle before them, whenever this CPU wakes late for
 * the end (a vCPU the host did not run): the hierarchy's all-idle wakes
 * of that gap would then be counted as the window's.
 */
static void busy_loop(void *arg)
{
	(void)arg;
	while (!smp_load_acquire(&sc.closed))
		cpu_relax();
}

static uint64_t snap_wakes(const struct snap *s)
{
	return s->wakes_timer + s->wakes_ipi + s->wakes_other;
}

static void snapshot(unsigned cpu, struct snap *s)
{
	const struct percpu *p = per_cpu(cpu);

	s->wakes_timer = p->idle.wakes_timer;
	s->wakes_ipi = p->idle.wakes_ipi;
	s->wakes_other = p->idle.wakes_other;
	s->idle_ns = p->idle.ns;
	/* A CPU halted right now: count its current idle period too. */
	if (READ_ONCE(p->idle.halted))
		s->idle_ns += clock_ns() - p->idle.since;
	s->ticks = p->tick.ticks;
	cpu_idle_residency(cpu, &s->res);
	timer_get_stats(cpu, &s->ts);
}

static void pick_busy(const struct scenario_opts *o)
{
	unsigned self = smp_processor_id();

	if (o->kind == SCENARIO_ONE_BUSY && !o->nbusy)
		sc.busy[self] = true;
	for (unsigned i = 0; i < o->nbusy; i++)
		sc.busy[o->busy[i]] = true;
	if (o->kind == SCENARIO_BUSY_PER_NODE && !o->nbusy) {
		for (unsigned c = 0; c < nr_cpus; c++) {
			bool first = cpu_online(c);

			for (unsigned d = 0; d < c && first; d++)
				if (cpu_online(d) &&
				    per_cpu(d)->node == per_cpu(c)->node)
					first = false;
			if (first)
				sc.busy[c] = true;
		}
	}
}

int scenario_check(const struct scenario_opts *o)
{
	for (unsigned i = 0; i < o->nbusy; i++) {
		if (o->busy[i] >= nr_cpus || !cpu_online(o->busy[i])) {
			printk("scenario: busy CPU %u is not online (CPUs "
			       "0-%u)\n",
			       o->busy[i], nr_cpus - 1);
			return -1;
		}
	}
	for (unsigned i = 0; i < o->nhotplug; i++) {
		unsigned c = o->hotplug[i].cpu;

		if (!cpu_present_booted(c) || c == smp_processor_id()) {
			printk("scenario: hotplug CPU %u is not one that can "
			       "go offline (CPUs 1-%u that came up)\n",
			       c, nr_cpus - 1);
			return -1;
		}
	}
	return 0;
}

/*
 * hotplug= needs the boot CPU busy (it runs the events between its busy
 * stretches) and only idle CPUs offline (a busy one runs its loop).
 */
static int check_hotplug_busy(const struct scenario_opts *o)
{
	unsigned self = smp_processor_id();

	if (o->nhotplug && !sc.busy[self]) {
		printk("scenario: hotplug= needs the boot CPU %u busy; it runs "
		       "the hotplug events\n",
		       self);
		return -1;
	}
	for (unsigned i = 0; i < o->nhotplug; i++) {
		if (sc.busy[o->hotplug[i].cpu]) {
			printk("scenario: hotplug CPU %u is busy in this "
			       "scenario; only idle CPUs go offline\n",
			       o->hotplug[i].cpu);
			return -1;
		}
	}
	return 0;
}

static void spin_until_ns(uint64_t t)
{
	while (clock_ns() < t)
		cpu_relax();
}

/*
 * The boot CPU's busy stretch, with the hotplug events at their times:
 * each entry flips its CPU, offline then online.  Returns the failures;
 * every CPU still offline at the end comes back.
 */
static unsigned busy_with_hotplug(const struct scenario_opts *o, uint64_t t0)
{
	unsigned failed = 0;

	for (unsigned i = 0; i < o->nhotplug; i++) {
		const struct scenario_hotplug *h = &o->hotplug[i];
		uint64_t at = t0 + h->at_ms * NSEC_PER_MSEC;

		spin_until_ns(at);
		if ((cpu_online(h->cpu) ? cpu_down(h->cpu) : cpu_up(h->cpu)))
			failed++;
	}
	spin_until_ns(READ_ONCE(sc.end_ns));
	for (unsigned c = 0; c < nr_cpus; c++)
		if (cpu_present_booted(c) && !cpu_online(c) && cpu_up(c))
			failed++;
	return failed;
}

/* The window's bound (scenario_bound()); 0 if no memory to count with. */
static uint64_t count_bound(void)
{
	uint64_t n = sc.nlog < sc.cap ? sc.nlog : sc.cap;
	uint64_t *lo = kzalloc(nr_cpus * sizeof(*lo));
	uint64_t *hi = kzalloc(nr_cpus * sizeof(*hi));

	if (!lo || !hi)
		return 0;
	for (unsigned c = 0; c < nr_cpus; c++) {
		lo[c] = snap_wakes(&sc.before[c]);
		hi[c] = snap_wakes(&sc.after[c]);
	}
	return scenario_bound(sc.log, n, lo, hi);
}

/* Bounds the wait for the CPUs to settle before the window. */
#define SETTLE_NS (5 * NSEC_PER_SEC)

/* Every other online idle CPU halted, its tick off if NOHZ. */
static bool others_settled(void *arg)
{
	unsigned self = smp_processor_id();

	(void)arg;
	for (unsigned c = 0; c < nr_cpus; c++) {
		const struct percpu *p = per_cpu(c);

		if (!cpu_online(c) || c == self || sc.busy[c])
			continue;
		if (!READ_ONCE(p->idle.in_period) ||
		    !READ_ONCE(p->idle.halted) ||
		    (tick_nohz_enabled() && !READ_ONCE(p->tick.stopped)))
			return false;
	}
	return true;
}

static void sleep_until_end(const struct scenario_opts *o)
{
	uint64_t end = READ_ONCE(sc.end_ns) + o->close_late_ms * NSEC_PER_MSEC;
	uint64_t now = clock_ns();

	if (end > now)
		cpu_idle_sleep_ns(end - now);
}

/*
 * The window is [t0, end_ns); its closing snapshots come just after.  The
 * wake that ends the boot CPU's sleep_until_end() is at or after end_ns
 * (its timer's jiffy is past the end), and would read as one idle wake of
 * the model under test; so would any CPU's wake between end_ns and the
 * snapshot.  Leave out a CPU's last wake when it came at or after end_ns
 * (one: the other busy CPUs spin until the snapshots, so the gap is like
 * the window, however late the boot CPU woke).  Read without
 * the CPU's cooperation: a wake racing with this read is counted or not,
 * as a wake at the edge of any window is.
 */
static void drop_wake_after_window(unsigned cpu, struct snap *s)
{
	const struct percpu *p = per_cpu(cpu);
	uint8_t src = READ_ONCE(p->idle.last_wake_src);

	if (READ_ONCE(p->idle.last_wake_ns) < READ_ONCE(sc.end_ns))
		return;
	if (src == IRQ_SRC_TIMER && s->wakes_timer)
		s->wakes_timer--;
	else if (src == IRQ_SRC_IPI && s->wakes_ipi)
		s->wakes_ipi--;
	else if (src == IRQ_SRC_OTHER && s->wakes_other)
		s->wakes_other--;
}

/* Print per-CPU deltas and sum them into @t. */
static void report(const struct scenario_opts *o, struct totals *t)
{
	*t = (struct totals){ 0 };
	for (unsigned c = 0; c < nr_cpus; c++) {
		struct snap now = sc.after[c], *b = &sc.before[c];
		uint64_t wt, wi, wo;

		if (!cpu_online(c))
			continue;
		wt = now.wakes_timer - b->wakes_timer;
		wi = now.wakes_ipi - b->wakes_ipi;
		wo = now.wakes_other - b->wakes_other;
		if (!sc.busy[c]) {
			t->nidle++;
			t->idle_wakes += wt + wi + wo;
			t->idle_timer_wakes += wt;
			idle_residency_add(&t->res, &now.res, &b->res);
		}
		if (per_cpu(c)->isolated &&
		    now.ts.expired_remote != b->ts.expired_remote)
			t->iso_remote++;
		printk("# stat scenario=%s cpu=%u node=%u busy=%u wakes=%lu "
		       "wakes_timer=%lu wakes_ipi=%lu wakes_other=%lu "
		       "idle_us=%lu ticks=%lu expired_local=%lu "
		       "expired_remote=%lu pulled_for=%lu timer_expiries=%lu "
		       "isolated=%u\n",
		       scenario_name(o->kind), c, per_cpu(c)->node, sc.busy[c],
		       wt + wi + wo, wt, wi, wo,
		       (now.idle_ns - b->idle_ns) / NSEC_PER_USEC,
		       now.ticks - b->ticks,
		       now.ts.expired_local - b->ts.expired_local,
		       now.ts.expired_remote - b->ts.expired_remote,
		       now.ts.pulled_for - b->ts.pulled_for,
		       sc.timers[c].expiries, per_cpu(c)->isolated ? 1 : 0);
	}
}

/* The run's tables and the busy set; nonzero (said) when they cannot be. */
static int scenario_setup(const struct scenario_opts *o)
{
	sc.timers = kzalloc(nr_cpus * sizeof(*sc.timers));
	sc.busy = kzalloc(nr_cpus * sizeof(*sc.busy));
	sc.before = kzalloc(nr_cpus * sizeof(*sc.before));
	sc.after = kzalloc(nr_cpus * sizeof(*sc.after));
	/*
	 * Each timer once a period (one that fell behind may fire more
	 * often: its extra expiries are dropped, lowering the bound only).
	 */
	sc.cap = (uint64_t)nr_cpus *
		 (tick_ns_to_jiffies(o->duration_ms * NSEC_PER_MSEC) /
			  tick_ns_to_jiffies(o->period_ms * NSEC_PER_MSEC) +
		  2);
	sc.log = kzalloc(sc.cap * sizeof(*sc.log));
	if (!sc.timers || !sc.busy || !sc.before || !sc.after || !sc.log) {
		printk("scenario: no memory\n");
		return 1;
	}
	pick_busy(o);
	return check_hotplug_busy(o);
}

/* Timers first, each from its own CPU, phases spread over a period. */
static void arm_timers(uint64_t period_j)
{
	uint64_t j0 = tick_update_jiffies();

	watchdog_stage("scenario", "arm_timers",
		       STAGE_SLACK_MS + (uint64_t)nr_cpus * CALL_BOUND_MS);
	for (unsigned c = 0; c < nr_cpus; c++) {
		struct periodic *p = &sc.timers[c];

		if (!cpu_online(c))
			continue;
		p->owner = c;
		p->period_j = period_j;
		p->expires = j0 + period_j + c % period_j;
		smp_call_on(c, arm_periodic, p);
	}
}

/*
 * The measured window: snapshots, the busy CPUs spinning (this one with
 * the hotplug events, if busy) until it ends.  Returns the hotplug
 * operations that failed.
 */
static unsigned run_window(const struct scenario_opts *o)
{
	unsigned self = smp_processor_id(), hotplug_failed = 0;
	uint64_t t0;

	/*
	 * The other busy CPUs spin from before the settling, not from the
	 * window's start: until one of them is active in the hierarchy, an
	 * idle CPU may be the last one going idle there (this CPU, when
	 * isolated, never counts as active) and arm for everyone's first
	 * timer, and that wake stays armed once the busy CPU comes up.
	 * Settling lets such a wake happen before the window.  busy_loop()
	 * spins until the closing snapshots are taken.
	 */
	WRITE_ONCE(sc.end_ns, UINT64_MAX);
	WRITE_ONCE(sc.closed, false);
	for (unsigned c = 0; c < nr_cpus; c++)
		if (cpu_online(c) && sc.busy[c] && c != self)
			smp_run_async(c, busy_loop, 0);
	/*
	 * Let the idle CPUs settle with their timers handed over: some ticks
	 * (more than a period), then until each is halted (a vCPU the host
	 * has not run yet would otherwise take its settling wake inside the
	 * window).
	 */
	delay_ns(20 * tick_period_ns());
	if (!spin_wait_until(others_settled, 0, SETTLE_NS))
		printk("# scenario note: not every idle CPU halted after %lu "
		       "ms; the window starts anyway\n",
		       (unsigned long)(SETTLE_NS / NSEC_PER_MSEC));
	for (unsigned c = 0; c < nr_cpus; c++)
		if (cpu_online(c))
			snapshot(c, &sc.before[c]);
	/* Each hotplug operation waits up to a second for its CPU. */
	watchdog_stage("scenario", "run",
		       STAGE_SLACK_MS + o->duration_ms +
			       2 * o->nhotplug * CALL_BOUND_MS + BUSY_WAIT_MS);
	t0 = clock_ns();
	WRITE_ONCE(sc.win_j, tick_update_jiffies() + 1);
	smp_store_release(&sc.counting, true);
	WRITE_ONCE(sc.end_ns, t0 + o->duration_ms * NSEC_PER_MSEC);
	if (sc.busy[self])
		hotplug_failed = busy_with_hotplug(o, t0);
	else
		sleep_until_end(o);
	/* Before waiting for the busy CPUs: that wait may halt and wake. */
	for (unsigned c = 0; c < nr_cpus; c++) {
		if (!cpu_online(c))
			continue;
		snapshot(c, &sc.after[c]);
		drop_wake_after_window(c, &sc.after[c]);
	}
	smp_store_release(&sc.closed, true);
	for (unsigned c = 0; c < nr_cpus; c++)
		if (cpu_online(c) && sc.busy[c] && c != self)
			smp_run_wait(c, BUSY_WAIT_MS * NSEC_PER_MSEC);
	WRITE_ONCE(sc.stop, true);
	return hotplug_failed;
}

static void print_result(const struct scenario_opts *o, uint64_t bound,
			 const struct totals *t)
{
	unsigned nidle = t->nidle;
	uint64_t idle_wakes = t->idle_wakes;
	unsigned r1 = idle_residency_1ms_pm(&t->res);
	unsigned r10 = idle_residency_10ms_pm(&t->res);
	uint64_t per_cpu_s_x1000 =
		nidle ? idle_wakes * 1000000ULL /
				((uint64_t)nidle * o->duration_ms) :
			0;

	printk("# scenario_result name=%s model=%s idle_cpus=%u "
	       "idle_wakes=%lu idle_timer_wakes=%lu "
	       "wakes_per_idle_cpu_s=%lu.%03lu lower_bound_wakes=%lu "
	       "expiries=%lu late_p50_j=%lu late_p99_j=%lu late_max_j=%lu "
	       "jiffy_us=%lu res_1ms_pct=%u.%u res_10ms_pct=%u.%u\n",
	       scenario_name(o->kind), timer_model_name(boot_opts.timer_model),
	       nidle, idle_wakes, t->idle_timer_wakes, per_cpu_s_x1000 / 1000,
	       per_cpu_s_x1000 % 1000, bound, sc.late.count,
	       late_hist_pct(&sc.late, 50), late_hist_pct(&sc.late, 99),
	       sc.late.max, (unsigned long)(tick_period_ns() / NSEC_PER_USEC),
	       r1 / 10, r1 % 10, r10 / 10, r10 % 10);
}

/* The self-checks; returns how many failed (each is said). */
static unsigned check_result(unsigned nbusy_hk, const struct totals *t,
			     uint64_t bound, unsigned hotplug_failed)
{
	uint64_t idle_twakes = t->idle_timer_wakes;
	unsigned iso_remote = t->iso_remote, failed = 0;

	/*
	 * With a busy housekeeping CPU (only those are ever migrators), the
	 * pull model leaves idle CPUs no timer wake for global timers (they
	 * own nothing else here).
	 */
	if (boot_opts.timer_model == TIMER_MODEL_PULL && nbusy_hk &&
	    tick_nohz_enabled() && idle_twakes) {
		printk("# scenario_check FAIL: %lu timer wakes on idle CPUs "
		       "under pull with %u busy housekeeping CPU(s)\n",
		       idle_twakes, nbusy_hk);
		failed++;
	}
	if (boot_opts.timer_model == TIMER_MODEL_PULL && iso_remote) {
		printk("# scenario_check FAIL: %u isolated CPU(s) expired other "
		       "CPUs' timers\n",
		       iso_remote);
		failed++;
	}
	if (t->idle_wakes < bound) {
		printk("# scenario_check FAIL: %lu idle wakes beat the lower "
		       "bound %lu\n",
		       t->idle_wakes, bound);
		failed++;
	}
	if (!sc.late.count) {
		printk("# scenario_check FAIL: no timer expired\n");
		failed++;
	}
	if (hotplug_failed) {
		printk("# scenario_check FAIL: %u hotplug operations failed\n",
		       hotplug_failed);
		failed++;
	}
	if (!failed)
		printk("# scenario_check ok\n");
	return failed;
}

unsigned scenario_run(const struct scenario_opts *o)
{
	unsigned nbusy = 0, nbusy_hk = 0, hotplug_failed;
	struct totals t;
	uint64_t period_j, bound;

	if (o->kind == SCENARIO_MIXED)
		return scenario_mixed_run(o);
	if (scenario_setup(o))
		return 1;
	period_j = tick_ns_to_jiffies(o->period_ms * NSEC_PER_MSEC);
	for (unsigned c = 0; c < nr_cpus; c++) {
		nbusy += cpu_online(c) && sc.busy[c];
		nbusy_hk += cpu_online(c) && sc.busy[c] &&
			    !per_cpu(c)->isolated;
	}
	printk("# scenario name=%s model=%s cpus=%u busy=%u period_ms=%u "
	       "period_jiffies=%lu duration_ms=%u hz=%lu nohz=%s "
	       "hotplug_events=%u\n",
	       scenario_name(o->kind), timer_model_name(boot_opts.timer_model),
	       num_online_cpus(), nbusy, o->period_ms, (unsigned long)period_j,
	       o->duration_ms, (unsigned long)tick_hz(),
	       tick_nohz_enabled() ? "on" : "off", o->nhotplug);
	arm_timers(period_j);
	hotplug_failed = run_window(o);
	watchdog_stage("scenario", "report", STAGE_SLACK_MS);
	report(o, &t);
	for (unsigned c = 0; c < nr_cpus; c++)
		if (cpu_online(c))
			timer_delete_sync(&sc.timers[c].timer);
	/* The bound: 0 with a busy CPU; else count_bound()'s count. */
	bound = nbusy ? 0 : count_bound();
	print_result(o, bound, &t);
	return check_result(nbusy_hk, &t, bound, hotplug_failed);
}

/*
 * scenario=mixed: every CPU alternates busy bursts and idle sleeps at
 * random (seeded), and in each burst arms, re-arms and cancels timers of
 * every kind the way real code does (docs/scenarios.md, "mixed").
 *
 * Per CPU, MX_TIMERS timers:
 *   timeouts   global one-shots a burst arms 2..50 jiffies out; most are
 *              re-armed or cancelled by a later burst before they expire
 *   periodic   a global timer re-armed from its callback every period
 *   deferrable a global deferrable timer every 4 periods
 *   pinned     a pinned periodic timer every 2 periods, and a pinned
 *              one-shot a burst arms 2..30 jiffies out
 * The sleep that ends an idle period is a pinned timer of the CPU too.
 *
 * The lower bound counts what no placement avoids, from the expiries the
 * run had: each CPU's idle periods ended by one of its pinned timers (the
 * workload's own wake-ups and its pinned timers), and each stretch of
 * jiffies at which a global, non-deferrable timer ran while no CPU was busy
 * and no CPU woke for a pinned timer.  Consecutive jiffies count once: a
 * CPU woken for the first may still be awake for the next.
 */
#include "kernel/scenario_mixed.h"
#include "kernel/scenario.h"
#include "arch/x86_64/arch.h"
#include "kernel/boot.h"
#include "kernel/cmdline.h"
#include "kernel/idle.h"
#include "kernel/kmem.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/smp_call.h"
#include "kernel/tick.h"
#include "lib/atomic.h"
#include "lib/rand.h"
#include "lib/time.h"
#include "timer/timer.h"

enum mx_kind {
	MX_TIMEOUT,
	MX_PERIODIC,
	MX_DEFERRABLE,
	MX_PINNED_PERIODIC,
	MX_PINNED_TIMEOUT,
	MX_SLEEP
};

#define MX_TIMEOUTS 3
#define MX_TIMERS   (MX_TIMEOUTS + 4) /* and the sleeper, apart */

/* Per jiffy of the window: some CPU busy, a pinned wake, a global expiry. */
enum mx_map { MX_BUSY, MX_PINNED_WAKE, MX_GLOBAL_DUE, MX_NR_MAPS };

struct mx_timer {
	struct timer_list t; /* first: the callback casts back */
	enum mx_kind kind;
	unsigned owner;
	uint64_t period_j; /* periodic kinds */
	uint64_t expires;
	bool fired; /* MX_SLEEP; marked accesses */
};

struct mx_cpu {
	uint64_t rng;
	struct mx_timer timers[MX_TIMERS];
	struct mx_timer sleeper;
	bool sleeping;			 /* marked: its interrupts read it */
	bool stopping;			 /* its timers re-arm no more */
	uint64_t last_counted_entry;	 /* idle period already counted */
	uint64_t w0, w1, twake0, twake1; /* wakes at start, end */
	uint64_t idle0, idle1;
	struct idle_residency res0, res1;
	uint64_t sleeps, bursts, ops;
	uint64_t pinned_wakes; /* idle periods a pinned timer ended */
};

static struct {
	struct mx_cpu *cpu;
	uint64_t t0_ns, end_ns, win_j, win_len, period_j;
	/* Bit maps over the window's jiffies, updated with atomic OR. */
	uint8_t *map[MX_NR_MAPS];
	struct late_hist late;
	uint64_t early;
	unsigned done;
} mx;

static void map_set(enum mx_map m, uint64_t j)
{
	uint64_t i = j - mx.win_j;

	if (i < mx.win_len)
		atomic_fetch_or(&mx.map[m][i / 8], (uint8_t)(1u << (i % 8)));
}

static bool map_test(enum mx_map m, uint64_t i)
{
	return (READ_ONCE(mx.map[m][i / 8]) >> (i % 8)) & 1;
}

static void note_expiry(uint64_t now, uint64_t expires)
{
	if (timer_before(now, expires))
		atomic_fetch_add(&mx.early, 1);
	else
		late_hist_add(&mx.late, now - expires);
}

/*
 * A pinned timer runs on its own CPU: if that CPU is in one of its idle
 * periods, that period is one no placement avoids; count each period once.
 */
static void note_pinned(uint64_t now)
{
	unsigned here = smp_processor_id();
	struct mx_cpu *c = &mx.cpu[here];
	uint64_t entry = per_cpu(here)->idle.entries;

	if (!READ_ONCE(c->sleeping) || entry == c->last_counted_entry)
		return;
	c->last_counted_entry = entry;
	c->pinned_wakes++;
	map_set(MX_PINNED_WAKE, now);
}

static void mx_fn(struct timer_list *t)
{
	struct mx_timer *m = (struct mx_timer *)t;
	uint64_t now = READ_ONCE(jiffies64);

	note_expiry(now, m->expires);
	if (m->t.flags & TIMER_PINNED)
		note_pinned(now);
	else if (!(m->t.flags & TIMER_DEFERRABLE))
		map_set(MX_GLOBAL_DUE, now);
	if (m->kind == MX_SLEEP) {
		WRITE_ONCE(m->fired, true);
		return;
	}
	if (!m->period_j || READ_ONCE(mx.cpu[m->owner].stopping))
		return;
	m->expires += m->period_j;
	if (timer_before_eq(m->expires, now))
		m->expires = now + 1; /* fell behind: skip, do not burst */
	mod_timer(&m->t, m->expires);
}

static void mx_arm(struct mx_timer *m, uint64_t expires)
{
	m->expires = expires;
	mod_timer(&m->t, expires);
}

static void setup_timers(struct mx_cpu *c, unsigned cpu)
{
	static const struct {
		enum mx_kind kind;
		unsigned flags, periods;
	} kinds[MX_TIMERS - MX_TIMEOUTS] = {
		{ MX_PERIODIC, 0, 1 },
		{ MX_DEFERRABLE, TIMER_DEFERRABLE, 4 },
		{ MX_PINNED_PERIODIC, TIMER_PINNED, 2 },
		{ MX_PINNED_TIMEOUT, TIMER_PINNED, 0 },
	};
	uint64_t now = tick_update_jiffies();

	for (unsigned i = 0; i < MX_TIMERS; i++) {
		struct mx_timer *m = &c->timers[i];
		unsigned k = i < MX_TIMEOUTS ? 0 : i - MX_TIMEOUTS + 1;

		m->owner = cpu;
		m->kind = k ? kinds[k - 1].kind : MX_TIMEOUT;
		timer_setup(&m->t, mx_fn, k ? kinds[k - 1].flags : 0);
		m->period_j = k ? kinds[k - 1].periods * mx.period_j : 0;
		if (m->period_j)
			mx_arm(m, now + 1 +
					  rand_below(&c->rng,
						     (unsigned)m->period_j));
	}
	c->sleeper.owner = cpu;
	c->sleeper.kind = MX_SLEEP;
	timer_setup(&c->sleeper.t, mx_fn, TIMER_PINNED);
}

/* One burst's timer work: re-arm or cancel most timeouts, as I/O does. */
static void burst_ops(struct mx_cpu *c)
{
	uint64_t now = tick_update_jiffies();

	for (unsigned i = 0; i < MX_TIMEOUTS; i++) {
		struct mx_timer *m = &c->timers[i];
		unsigned x = rand_below(&c->rng, 10);

		if (x < 6)
			mx_arm(m, now + rand_range(&c->rng, 2, 50));
		else if (x < 8)
			timer_delete(&m->t);
		c->ops++;
	}
	if (rand_below(&c->rng, 2)) {
		mx_arm(&c->timers[MX_TIMERS - 1],
		       now + rand_range(&c->rng, 2, 30));
		c->ops++;
	}
}

static void busy_for(uint64_t ns)
{
	uint64_t t0 = clock_ns(), j0 = tick_update_jiffies();

	while (clock_ns() - t0 < ns)
		cpu_relax();
	for (uint64_t j = j0, j1 = tick_update_jiffies(); !timer_after(j, j1);
	     j++)
		map_set(MX_BUSY, j);
}

static bool sleeper_done(void *arg)
{
	return READ_ONCE(((struct mx_timer *)arg)->fired);
}

/* Idle until @until (ns), on a pinned timer: the workload's own wake. */
static void sleep_until(struct mx_cpu *c, uint64_t until)
{
	uint64_t now = clock_ns();

	if (until <= now)
		return;
	WRITE_ONCE(c->sleeper.fired, false);
	mx_arm(&c->sleeper,
	       tick_update_jiffies() + tick_ns_to_jiffies(until - now) + 1);
	WRITE_ONCE(c->sleeping, true);
	cpu_idle_until(sleeper_done, &c->sleeper);
	WRITE_ONCE(c->sleeping, false);
	c->sleeps++;
}

static void snapshot(unsigned cpu, uint64_t *wakes, uint64_t *twakes,
		     uint64_t *idle, struct idle_residency *res)
{
	const struct percpu *p = per_cpu(cpu);

	*wakes = cpu_idle_wakes(&p->idle);
	*twakes = p->idle.wakes_timer;
	*idle = p->idle.ns;
	cpu_idle_residency(cpu, res);
}

/* Each CPU's workload, from the window's start to its end. */
static void worker(void *arg)
{
	unsigned cpu = smp_processor_id();
	struct mx_cpu *c = arg;

	/* Set up here, so that the timers start on this CPU's bases. */
	setup_timers(c, cpu);
	snapshot(cpu, &c->w0, &c->twake0, &c->idle0, &c->res0);
	/*
	 * The schedule is the seed's, in absolute time: burst k starts at
	 * t0 + the lengths before it, late if the vCPU was, so every model
	 * runs the same bursts and the same timer operations.
	 */
	for (uint64_t next = mx.t0_ns; next < mx.end_ns;) {
		uint64_t busy = (uint64_t)rand_range(&c->rng, 200, 4000) *
				NSEC_PER_USEC;
		uint64_t idle = (uint64_t)rand_range(&c->rng, 1000, 25000) *
				NSEC_PER_USEC;

		sleep_until(c, next);
		c->bursts++;
		burst_ops(c);
		busy_for(busy);
		next += busy + idle;
	}
	snapshot(cpu, &c->w1, &c->twake1, &c->idle1, &c->res1);
	/* A callback running elsewhere re-arms until it sees this. */
	WRITE_ONCE(c->stopping, true);
	for (unsigned i = 0; i < MX_TIMERS; i++)
		timer_delete_sync(&c->timers[i].t);
	atomic_fetch_add(&mx.done, 1);
}

/* Maximal runs of consecutive jiffies in @want and in none of @not. */
static uint64_t stretches(void)
{
	uint64_t n = 0;
	bool prev = false;

	for (uint64_t i = 0; i < mx.win_len; i++) {
		bool in = map_test(MX_GLOBAL_DUE, i) && !map_test(MX_BUSY, i) &&
			  !map_test(MX_PINNED_WAKE, i);

		n += in && !prev;
		prev = in;
	}
	return n;
}

static bool all_done(void *arg)
{
	return READ_ONCE(mx.done) == *(unsigned *)arg;
}

static unsigned report(const struct scenario_opts *o, unsigned ncpus)
{
	uint64_t wakes = 0, twakes = 0, bound = stretches(), ops = 0;
	struct idle_residency res = { 0 };
	unsigned failed = 0, r1, r10;

	for (unsigned c = 0; c < nr_cpus; c++) {
		struct mx_cpu *m = &mx.cpu[c];

		if (!cpu_online(c))
			continue;
		wakes += m->w1 - m->w0;
		twakes += m->twake1 - m->twake0;
		bound += m->pinned_wakes;
		ops += m->ops;
		idle_residency_add(&res, &m->res1, &m->res0);
		printk("# stat scenario=mixed cpu=%u node=%u wakes=%lu "
		       "wakes_timer=%lu idle_us=%lu sleeps=%lu bursts=%lu "
		       "pinned_wakes=%lu\n",
		       c, per_cpu(c)->node, m->w1 - m->w0,
		       m->twake1 - m->twake0,
		       (m->idle1 - m->idle0) / NSEC_PER_USEC, m->sleeps,
		       m->bursts, m->pinned_wakes);
	}
	r1 = idle_residency_1ms_pm(&res);
	r10 = idle_residency_10ms_pm(&res);
	printk("# scenario_result name=mixed model=%s idle_cpus=%u "
	       "idle_wakes=%lu idle_timer_wakes=%lu lower_bound_wakes=%lu "
	       "expiries=%lu timer_ops=%lu early=%lu late_p50_j=%lu "
	       "late_p99_j=%lu late_max_j=%lu seed=%u jiffy_us=%lu "
	       "res_1ms_pct=%u.%u res_10ms_pct=%u.%u\n",
	       timer_model_name(boot_opts.timer_model), ncpus, wakes, twakes,
	       bound, mx.late.count, ops, mx.early, late_hist_pct(&mx.late, 50),
	       late_hist_pct(&mx.late, 99), mx.late.max, o->seed,
	       (unsigned long)(tick_period_ns() / NSEC_PER_USEC), r1 / 10,
	       r1 % 10, r10 / 10, r10 % 10);
	if (mx.early) {
		printk("# scenario_check FAIL: %lu timers ran early\n",
		       mx.early);
		failed++;
	}
	if (!mx.late.count) {
		printk("# scenario_check FAIL: no timer expired\n");
		failed++;
	}
	if (wakes < bound) {
		printk("# scenario_check FAIL: %lu wakes beat the lower bound "
		       "%lu\n",
		       wakes, bound);
		failed++;
	}
	return failed;
}

unsigned scenario_mixed_run(const struct scenario_opts *o)
{
	unsigned self = smp_processor_id(), ncpus = 0, failed;
	uint64_t hz = tick_hz();

	mx.cpu = kzalloc(nr_cpus * sizeof(*mx.cpu));
	mx.win_len = tick_ns_to_jiffies(o->duration_ms * NSEC_PER_MSEC) + 2;
	for (unsigned m = 0; m < MX_NR_MAPS; m++) {
		mx.map[m] = kzalloc((mx.win_len + 7) / 8);
		if (!mx.map[m])
			mx.cpu = 0;
	}
	if (!mx.cpu) {
		printk("scenario: no memory\n");
		return 1;
	}
	mx.period_j = tick_ns_to_jiffies(o->period_ms * NSEC_PER_MSEC);
	for (unsigned c = 0; c < nr_cpus; c++)
		ncpus += cpu_online(c);
	printk("# scenario name=mixed model=%s cpus=%u seed=%u period_ms=%u "
	       "period_jiffies=%lu duration_ms=%u hz=%lu nohz=%s\n",
	       timer_model_name(boot_opts.timer_model), ncpus, o->seed,
	       o->period_ms, (unsigned long)mx.period_j, o->duration_ms,
	       (unsigned long)hz, tick_nohz_enabled() ? "on" : "off");
	mx.win_j = tick_update_jiffies();
	/* Time for every CPU to start its worker and set up its timers. */
	mx.t0_ns = clock_ns() + 20 * tick_period_ns();
	mx.end_ns = mx.t0_ns + o->duration_ms * NSEC_PER_MSEC;
	for (unsigned c = 0; c < nr_cpus; c++) {
		if (!cpu_online(c))
			continue;
		mx.cpu[c].rng = rand_seed(o->seed, c);
		mx.cpu[c].last_counted_entry = ~0ULL;
	}
	for (unsigned c = 0; c < nr_cpus; c++)
		if (cpu_online(c) && c != self)
			smp_run_async(c, worker, &mx.cpu[c]);
	worker(&mx.cpu[self]);
	spin_wait_until(all_done, &ncpus, 10 * NSEC_PER_SEC);
	failed = report(o, ncpus);
	if (!failed)
		printk("# scenario_check ok\n");
	return failed;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/sim/sim.c - boot, the per-jiffy loop and CPU transitions.
 *
 * Virtual time is in ns; jiffies = ns / tick_ns, and a step is a jiffy.
 * A step runs, in a rotating CPU order, the tick of every busy CPU
 * (timer_tick(), then run_timer_softirq() if it raised the softirq) and
 * the wake-up of every idle CPU whose programmed event is due; then the
 * workload's transitions and timer operations (work.c); then the checks.
 * Now and then the jiffy ends inside a softirq and the step goes on in the
 * next one (race_hook()), so a step may span two jiffies.
 *
 * Idle follows Linux: a CPU going idle asks timer_nohz_next_event() when
 * it must wake and programs that (its LAPIC); woken by that event or by a
 * wake-up IPI it runs the tick path while still idle and re-enters idle
 * with timer_nohz_next_event() again, so it does not become active in the
 * hierarchy.  Only real work (the workload) makes it busy, through
 * timer_nohz_idle_exit().  When timer_nohz_next_event() says the tick may
 * not stop, the CPU idles with the tick running: it wakes next jiffy.
 *
 * Each programmed wake-up is classified when it is programmed (sim.h's
 * enum sim_wake): the CPU's own pinned event, its own movable event (only
 * legal under push/local), or a hierarchy event (only under pull).  A
 * hierarchy event is legal when no CPU is active, or when it is the
 * tmigr wakeup the CPU got legitimately: as the last active CPU, or by
 * handling remote timers while idle (the "migrator on idle").  Such a
 * wakeup outlives a CPU becoming active elsewhere, as in Linux, where the
 * armed LAPIC is not cancelled either: those are counted as hier_stale.
 * Anything else is a violation: the CPU would wake for something it need
 * not serve.
 *
 * Under --torture (fault.c) CPUs also go offline and come back, from the
 * race points this file's hook sees (it passes them on) or between steps,
 * and wake-up IPIs may arrive jiffies late: each queued IPI carries the
 * jiffy it arrives at, and one sent while another is in flight to the
 * same CPU merges with it.  ctx/ctx_cpu say what the CPU in timer/ is
 * doing (its tick, or its idle entry), which tells the hook what locks
 * the walk it interrupts holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/host/sim/sim.h"
#include "timer/timer_migration.h"
#include "timer_env.h"

#define NSEC_PER_SEC 1000000000ull

/* host_wake_hook has only the CPU: the run it belongs to. */
static struct sim *cur_sim;

static void wake_hook(unsigned int cpu)
{
	struct sim *s = cur_sim;
	struct sim_cpu *c;
	uint64_t at;

	s->st.ipis++;
	/*
	 * Push may place an isolated CPU's timer on an idle housekeeping
	 * CPU when none is busy, and wakes it, as Linux 6.8 did.
	 */
	if (s->expect_ipi == SIM_IPI_PUSHED && host_cpu_isolated[host_cpu] &&
	    cpu < s->cfg.cpus && !host_cpu_isolated[cpu])
		;
	else if ((int)cpu != s->expect_ipi)
		sim_violation(
			s, (int)cpu, -1,
			"wake-up IPI from CPU %u that no pinned timer asked for",
			host_cpu);
	if (cpu >= s->cfg.cpus)
		return;
	c = &s->cpus[cpu];
	if (c->state != CPU_ONLINE) {
		sim_violation(s, (int)cpu, -1,
			      "wake-up IPI from CPU %u to an offline CPU",
			      host_cpu);
		return;
	}
	/* A second IPI before the first arrived is the same interrupt. */
	at = sim_ipi_arrival(s);
	if (c->ipi) {
		s->st.ipis_coalesced++;
		if (timer_before(at, c->ipi_at_j))
			c->ipi_at_j = at;
		return;
	}
	c->ipi = true;
	c->ipi_at_j = at;
	s->ipi_queue[s->nr_ipi++] = cpu;
}

/* Start jiffy s->now_j + 1 now, wherever the run is. */
static void next_jiffy(struct sim *s)
{
	s->now_j++;
	s->now_ns = sim_j2ns(s, s->now_j);
	host_set_jiffies(s->now_j);
	host_set_now_ns(s->now_ns);
}

/*
 * Race points of timer/ (timer_migration.h).  Between a softirq's own
 * bases and its remote handling, the jiffy sometimes ends: on a real
 * machine the timekeeping CPU moves jiffies concurrently, and a timer of
 * the CPU's own that became due there is then met by the remote walk
 * (docs/races.md, "Own due timer met in remote handling").  At most once
 * a step; the busy CPUs that ticked before it then tick again for the new
 * jiffy in the same step (run_jiffy()), as their tick interrupts would.
 */
static void race_hook(int id)
{
	struct sim *s = cur_sim;
	struct sim_rng r;

	if (s->fault)
		sim_fault_race_point(s, id);
	if (id != TMIGR_RP_SOFTIRQ_REMOTE || s->jumped || !s->in_ticks)
		return;
	/* Mostly in idle CPUs' softirqs: the migrator-on-idle's own event. */
	sim_rng_at(&r, s->cfg.seed ^ 0x5eed, s->step, host_cpu);
	if (!sim_rng_chance(&r, s->cpus[host_cpu].busy ? 5 : 300))
		return;
	s->jumped = true;
	s->st.time_jumps++;
	next_jiffy(s);
	sim_bound_step(s, host_cpu);
}

/* Enter context @ctx of CPU @cpu; returns the previous one for ctx_exit(). */
static enum sim_ctx ctx_enter(struct sim *s, enum sim_ctx ctx, unsigned int cpu,
			      unsigned int *old_cpu)
{
	enum sim_ctx old = s->ctx;

	*old_cpu = s->ctx_cpu;
	s->ctx = ctx;
	s->ctx_cpu = cpu;
	return old;
}

static void ctx_exit(struct sim *s, enum sim_ctx old, unsigned int old_cpu)
{
	s->ctx = old;
	s->ctx_cpu = old_cpu;
}

/* The tick on CPU @cpu: timer_tick(), softirq if raised. */
static void run_tick(struct sim *s, unsigned int cpu)
{
	unsigned int raised = host_softirq_raised[cpu], old_cpu;
	enum sim_ctx old;

	if (s->cpus[cpu].state != CPU_ONLINE)
		sim_violation(s, (int)cpu, -1, "an offline CPU ticks");
	host_set_cpu(cpu);
	old = ctx_enter(s, CTX_TICK, cpu, &old_cpu);
	timer_tick();
	if (host_softirq_raised[cpu] != raised)
		run_timer_softirq();
	ctx_exit(s, old, old_cpu);
}

/* The jiffy start at or after @ns (the simulator acts at jiffy starts). */
static uint64_t round_up_jiffy(const struct sim *s, uint64_t ns)
{
	if (ns <= s->now_ns)
		return s->now_ns;
	return s->now_ns +
	       (ns - s->now_ns + s->tick_ns - 1) / s->tick_ns * s->tick_ns;
}

/*
 * Remember CPU @cpu's tmigr wakeup if it was set legitimately just now:
 * with the hierarchy idle, or (@remote) by its own remote handling.
 */
static void note_wakeup(struct sim *s, unsigned int cpu, bool remote)
{
	uint64_t w = sim_tmigr_wakeup(cpu), lb, gb;

	/*
	 * tmigr_wake=own: armed for its own first pinned event, an offer; it
	 * keeps the wakeup it had under the offer (it may go back to it).
	 */
	sim_cpu_first_events(s, cpu, &lb, &gb);
	if (w != TMIGR_NONE_NS && lb != SIM_NONE &&
	    round_up_jiffy(s, w) == round_up_jiffy(s, lb))
		s->cpus[cpu].offer_wakeup = w;
	else if (w == TMIGR_NONE_NS || remote || sim_hierarchy_idle())
		s->cpus[cpu].hier_wakeup = w;
}

/**
 * sim_note_wakeup - CPU @cpu's tmigr wakeup was just set legitimately
 * @s: the run
 * @cpu: e.g. the CPU tmigr_cpu_offline() handed the first event to
 */
void sim_note_wakeup(struct sim *s, unsigned int cpu)
{
	if (s->cfg.model == TIMER_MODEL_PULL)
		note_wakeup(s, cpu, true);
}

/* "j<jiffy>" of a ns time for messages, or "never". */
static const char *jstr(const struct sim *s, uint64_t ns, char *buf, size_t len)
{
	if (ns == SIM_NONE)
		return "never";
	snprintf(buf, len, "j%llu", (unsigned long long)sim_ns2j(s, ns));
	return buf;
}

/* Why CPU @cpu programs a wake-up at @wake ns; see the top of the file. */
static enum sim_wake classify(struct sim *s, unsigned int cpu, uint64_t wake)
{
	bool pull = s->cfg.model == TIMER_MODEL_PULL;
	char b1[32], b2[32], b3[32];
	uint64_t lb, gb;

	sim_cpu_first_events(s, cpu, &lb, &gb);
	if (wake > lb)
		sim_violation(
			s, (int)cpu, -1,
			"idle CPU sleeps past its pinned event %s (wakes %s)",
			jstr(s, lb, b1, 32), jstr(s, wake, b2, 32));
	if (!pull && wake > gb)
		sim_violation(
			s, (int)cpu, -1,
			"idle CPU sleeps past its own movable event %s (wakes %s)",
			jstr(s, gb, b1, 32), jstr(s, wake, b2, 32));
	if (wake == SIM_NONE)
		return WAKE_NONE;
	if (wake == lb)
		return WAKE_LOCAL;
	if (!pull && wake == gb)
		return WAKE_GLOBAL;
	/* Pull: an isolated CPU wakes for its own event when none pulls. */
	if (pull && host_cpu_isolated[cpu] && wake == gb)
		return WAKE_GLOBAL;
	if (pull && sim_hierarchy_idle()) {
		sim_empty_armed(s, cpu);
		return WAKE_HIER;
	}
	/* An offer another CPU relied on, kept after its timer moved on. */
	if (pull && s->cpus[cpu].offer_wakeup != TMIGR_NONE_NS &&
	    wake == round_up_jiffy(s, s->cpus[cpu].offer_wakeup)) {
		sim_empty_armed(s, cpu);
		return WAKE_HIER;
	}
	if (pull && s->cpus[cpu].hier_wakeup != TMIGR_NONE_NS &&
	    wake == round_up_jiffy(s, s->cpus[cpu].hier_wakeup)) {
		s->st.hier_stale++;
		sim_empty_armed(s, cpu);
		return WAKE_HIER;
	}
	sim_violation(
		s, (int)cpu, -1,
		"idle CPU programs %s for no event of its own (pinned %s, movable %s)%s",
		jstr(s, wake, b1, 32), jstr(s, lb, b2, 32), jstr(s, gb, b3, 32),
		pull ? " while the hierarchy has an active CPU" : "");
	return WAKE_NONE;
}

/*
 * CPU @cpu (idle) enters or re-enters idle: program its wake-up.  The
 * simulator only acts at jiffy starts, so an event inside a jiffy is
 * rounded up to the next one (timer/ only asks for jiffy starts anyway).
 */
static void program_idle(struct sim *s, unsigned int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	unsigned int old_cpu;
	enum sim_ctx old;
	bool stop = false;
	uint64_t w;

	host_set_cpu(cpu);
	/*
	 * A CPU going offline or online inside this call (fault.c) may
	 * change whether the hierarchy is idle after this CPU's walk took
	 * its wakeup from it: the wakeup is then legitimate either way.
	 */
	s->faulted = false;
	old = ctx_enter(s, CTX_IDLE, cpu, &old_cpu);
	w = timer_nohz_next_event(s->now_j, s->now_ns, &stop);
	ctx_exit(s, old, old_cpu);
	c->asked_ns = w;
	if (s->cfg.model == TIMER_MODEL_PULL)
		note_wakeup(s, cpu, s->faulted);
	if (!stop) {
		/* The next tick: after the last one, even if the jiffy ended. */
		c->tick_stopped = false;
		c->wake_ns = sim_j2ns(s, c->tick_j + 1);
		c->due_at_program = c->wake_ns <= s->now_ns;
		c->reason = WAKE_TICK;
		if ((int)cpu == s->cfg.trace_cpu)
			sim_trace(s, "cpu=%u idle, tick kept, wakes j%llu", cpu,
				  (unsigned long long)sim_ns2j(s, c->wake_ns));
		return;
	}
	c->tick_stopped = true;
	c->wake_ns = w == TMIGR_NONE_NS ? SIM_NONE : round_up_jiffy(s, w);
	c->due_at_program = c->wake_ns <= s->now_ns;
	c->reason = classify(s, cpu, c->wake_ns);
	if ((int)cpu == s->cfg.trace_cpu)
		sim_trace(s,
			  "cpu=%u idle: next event %lld ns, wakes j%lld for %d",
			  cpu, w == TMIGR_NONE_NS ? -1 : (long long)w,
			  c->wake_ns == SIM_NONE ?
				  -1 :
				  (long long)sim_ns2j(s, c->wake_ns),
			  c->reason);
}

/**
 * sim_cpu_enter_idle - busy CPU @cpu has no more work
 * @s: the run
 * @cpu: a busy CPU
 */
void sim_cpu_enter_idle(struct sim *s, unsigned int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];

	c->busy = false;
	c->idle_gen++;
	c->lb_anchor_j = s->now_j;
	s->nr_busy--;
	host_cpu_idle[cpu] = true;
	sim_resid_start(s, cpu, s->ev_ns ? s->ev_ns : s->now_ns);
	program_idle(s, cpu);
}

/**
 * sim_cpu_reprogram - idle CPU @cpu leaves an interrupt that changed its
 * timers: program its wake-up again (no wake counted)
 * @s: the run
 * @cpu: an idle CPU
 */
void sim_cpu_reprogram(struct sim *s, unsigned int cpu)
{
	program_idle(s, cpu);
}

/**
 * sim_cpu_irq_exit - idle CPU @cpu returns from a device interrupt
 * @s: the run
 * @cpu: an idle CPU, which may have armed timers in the interrupt
 */
void sim_cpu_irq_exit(struct sim *s, unsigned int cpu)
{
	uint64_t ns = s->ev_ns ? s->ev_ns : s->now_ns;

	s->st.wakes[WAKE_IRQ]++;
	sim_bound_sure_up(s, cpu);
	sim_resid_end(s, cpu, ns);
	sim_resid_start(s, cpu, ns);
	program_idle(s, cpu);
}

/**
 * sim_cpu_exit_idle - idle CPU @cpu gets work
 * @s: the run
 * @cpu: an idle CPU
 */
void sim_cpu_exit_idle(struct sim *s, unsigned int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];

	if ((int)cpu == s->cfg.trace_cpu)
		sim_trace(s, "cpu=%u busy", cpu);
	sim_resid_end(s, cpu, s->ev_ns ? s->ev_ns : s->now_ns);
	sim_bound_up(s, cpu);
	host_set_cpu(cpu);
	host_cpu_idle[cpu] = false;
	timer_nohz_idle_exit();
	c->busy = true;
	s->nr_busy++;
	c->tick_stopped = false;
	c->wake_ns = SIM_NONE;
	c->hier_wakeup = c->offer_wakeup = TMIGR_NONE_NS;
	c->reason = WAKE_NONE;
}

/* Idle CPU @cpu takes an interrupt for @why: tick path, then idle again. */
static void wake_idle(struct sim *s, unsigned int cpu, enum sim_wake why)
{
	struct sim_cpu *c = &s->cpus[cpu];
	uint64_t expired;
	bool halted;

	if (++c->wakes_now > SIM_STORM) {
		if (c->wakes_now == SIM_STORM + 1)
			sim_violation(
				s, (int)cpu, -1,
				"wake storm: woken %u times in one jiffy (timer_nohz_next_event() said %llu ns, now %llu ns)",
				c->wakes_now, (unsigned long long)c->asked_ns,
				(unsigned long long)s->now_ns);
		c->wake_ns = s->now_ns + s->tick_ns; /* let time move on */
		return;
	}
	/*
	 * Due already when the CPU programmed it (the jiffy moved while the
	 * CPU ran its softirq): the kernel takes that interrupt before it
	 * would halt and does not count a wake (kernel/idle.c, do_idle()).
	 * An IPI is a wake: it comes after the CPU halted.
	 */
	halted = why == WAKE_IPI || !c->due_at_program;
	if (halted) {
		s->st.wakes[why]++;
		if (why != WAKE_TICK)
			s->st.wakes_idle++;
		if ((why == WAKE_GLOBAL || why == WAKE_HIER) && s->nr_busy)
			s->st.wakes_global_busy++;
	} else {
		s->st.irq_before_halt++;
		sim_bound_up(s, cpu);
	}
	sim_resid_end(s, cpu, s->now_ns);
	sim_resid_start(s, cpu, s->now_ns);
	if ((int)cpu == s->cfg.trace_cpu)
		sim_trace(s, "cpu=%u woken for %d", cpu, why);
	expired = s->st.expired;
	c->tick_j = s->now_j;
	s->waking = why;
	if (s->cfg.model == TIMER_MODEL_PULL) {
		uint64_t before = sim_tmigr_wakeup(cpu);

		run_tick(s, cpu);
		if (sim_tmigr_wakeup(cpu) != before)
			note_wakeup(s, cpu, true);
	} else {
		run_tick(s, cpu);
	}
	s->waking = WAKE_NONE;
	if (halted && s->st.expired == expired) {
		s->st.wakes_empty[why]++;
		if (why == WAKE_HIER)
			sim_empty_note(s, cpu);
	}
	program_idle(s, cpu);
}

/**
 * sim_deliver_ipis - wake the CPUs whose wake-up IPIs have arrived
 * @s: the run
 *
 * IPIs are queued by the hook (which runs under timer/'s locks) and
 * delivered here, after the call that sent them, or with --faults
 * ipi-delay at the jiffy sim_ipi_arrival() chose.  IPIs sent while
 * delivering are delivered too if they are due.  One that was in flight
 * to a CPU that went offline since is dropped.
 */
void sim_deliver_ipis(struct sim *s)
{
	unsigned int saved = host_cpu;
	bool again = s->nr_ipi != 0;

	while (again) {
		unsigned int n = s->nr_ipi;

		again = false;
		memcpy(s->ipi_scratch, s->ipi_queue, n * sizeof(*s->ipi_queue));
		s->nr_ipi = 0;
		for (unsigned int i = 0; i < n; i++) {
			unsigned int cpu = s->ipi_scratch[i];
			struct sim_cpu *c = &s->cpus[cpu];

			if (c->state == CPU_ONLINE &&
			    timer_after(c->ipi_at_j, s->now_j)) {
				s->ipi_queue[s->nr_ipi++] = cpu;
				continue;
			}
			c->ipi = false;
			if (c->state != CPU_ONLINE) {
				s->st.ipis_dropped++;
				continue;
			}
			again = true;
			if (!c->busy)
				wake_idle(s, cpu, WAKE_IPI);
		}
	}
	host_set_cpu(saved);
}

/* Wake the idle CPUs whose event is due, until none is. */
static void wake_due(struct sim *s)
{
	bool again;

	do {
		again = false;
		for (unsigned int cpu = 0; cpu < s->cfg.cpus; cpu++) {
			struct sim_cpu *c = &s->cpus[cpu];

			if (!c->busy && c->wake_ns <= s->now_ns) {
				wake_idle(s, cpu, c->reason);
				again = true;
			}
		}
	} while (again);
}

/*
 * Ticks of busy CPUs and due wake-ups of idle ones, at s->now_ns.  If the
 * jiffy ends inside one of these softirqs (race_hook()), the busy CPUs
 * that ticked before get the new jiffy's tick too, and the CPUs due then
 * are woken.
 */
static void run_jiffy(struct sim *s)
{
	unsigned int n = s->cfg.cpus;
	unsigned int start;
	struct sim_rng r;
	bool jumped;

	sim_rng_at(&r, s->cfg.seed, s->step, UINT64_MAX);
	start = (unsigned int)sim_rng_below(&r, n);
	s->in_ticks = true;
	for (unsigned int i = 0; i < n; i++) {
		unsigned int cpu = (start + i) % n;
		struct sim_cpu *c = &s->cpus[cpu];

		c->wakes_now = 0;
		if (c->busy) {
			s->st.busy_jiffies++;
			c->tick_j = s->now_j;
			run_tick(s, cpu);
		} else if (c->wake_ns <= s->now_ns) {
			wake_idle(s, cpu, c->reason);
		}
	}
	do {
		jumped = s->jumped;
		for (unsigned int i = 0; s->jumped && i < n; i++) {
			unsigned int cpu = (start + i) % n;
			struct sim_cpu *c = &s->cpus[cpu];

			if (c->busy && c->tick_j != s->now_j) {
				c->tick_j = s->now_j;
				run_tick(s, cpu);
			}
		}
		sim_deliver_ipis(s);
		wake_due(s);
	} while (s->jumped != jumped);
	s->in_ticks = false;
	sim_empty_step(s);
}

/* Boot as the kernel does: bases, model, hierarchy, each CPU online. */
static int boot(struct sim *s)
{
	unsigned int n = s->cfg.cpus;

	host_env_reset(n);
	sim_bound_init(s);
	if (sim_topo_apply(&s->cfg))
		return -1;
	host_set_jiffies(s->j0);
	host_set_now_ns(SIM_NS_BASE);
	s->bases = aligned_alloc(64, (timer_bases_size(n) + 63) & ~63ul);
	if (!s->bases || timer_init(s->bases, n, s->cfg.hz))
		return -1;
	timer_set_model(s->cfg.model);
	tmigr_set_wake((enum tmigr_wake)s->cfg.tmigr_wake);
	if (timer_tick_ns() != s->tick_ns) {
		sim_violation(s, -1, -1, "timer_tick_ns() %llu, want %llu",
			      (unsigned long long)timer_tick_ns(),
			      (unsigned long long)s->tick_ns);
		return -1;
	}
	if (tmigr_init(n, s->cfg.nodes))
		return -1;
	for (unsigned int cpu = 0; cpu < n; cpu++) {
		/* Prepared by a random CPU that is already up. */
		host_set_cpu(cpu ? (unsigned int)sim_rng_below(&s->rng, cpu) :
				   0);
		if (tmigr_cpu_prepare(cpu))
			return -1;
		host_set_cpu(cpu);
		if (tmigr_cpu_online())
			return -1;
		s->cpus[cpu].busy = true;
		s->nr_busy++;
		s->cpus[cpu].wake_ns = SIM_NONE;
		s->cpus[cpu].hier_wakeup = s->cpus[cpu].offer_wakeup =
			TMIGR_NONE_NS;
		/*
		 * Its last tick: a CPU that keeps its tick before it ever
		 * ticked (a replay starts its CPUs idle) wakes a jiffy after.
		 */
		s->cpus[cpu].tick_j = s->j0;
	}
	host_wake_hook = wake_hook;
	host_race_hook = race_hook;
	return sim_check_boot(s) ? 0 : -1;
}

static void teardown(struct sim *s)
{
	host_wake_hook = NULL;
	host_race_hook = NULL;
	host_env_free_all();
	free(s->bases);
	free(s->cpus);
	free(s->ipi_queue);
	free(s->ipi_scratch);
	free(s->empty_queue);
	sim_bound_free(s);
	sim_fault_free(s);
	cur_sim = NULL;
}

/**
 * sim_run - one simulation
 * @cfg: its shape, model, seed and length
 * @out: the counters at the end
 *
 * Returns 0 if no invariant broke, 1 if one did, -1 if the run could not
 * be set up (bad shape, timer/ refused to boot, out of memory).
 */
int sim_run(const struct sim_config *cfg, struct sim_stats *out)
{
	struct sim s = { .cfg = *cfg, .expect_ipi = -1 };
	int ret = -1;

	sim_rng_seed(&s.rng, cfg->seed);
	s.tick_ns = NSEC_PER_SEC / cfg->hz;
	s.j0 = s.now_j = 0 - cfg->wrap;
	s.now_ns = SIM_NS_BASE;
	s.cpus = calloc(cfg->cpus, sizeof(*s.cpus));
	s.ipi_queue = calloc(cfg->cpus, sizeof(*s.ipi_queue));
	s.ipi_scratch = calloc(cfg->cpus, sizeof(*s.ipi_scratch));
	/* A CPU wakes at most SIM_STORM + 1 times a jiffy. */
	s.empty_queue =
		calloc(cfg->cpus * (SIM_STORM + 1), sizeof(*s.empty_queue));
	cur_sim = &s;
	if (!s.cpus || !s.ipi_queue || !s.ipi_scratch || !s.empty_queue ||
	    boot(&s) ||
	    (cfg->replay ? sim_replay_init(&s) : sim_work_init(&s)) ||
	    sim_fault_init(&s)) {
		fprintf(stderr,
			"sim: cannot set up cpus=%u nodes=%u shape=%s\n",
			cfg->cpus, cfg->nodes, sim_shape_name(cfg->shape));
		goto out;
	}
	sim_watchdog_arm(&s);
	/* --ops: as many steps as the operations take. */
	for (s.step = 1; cfg->replay ? !sim_replay_done(&s) :
			 cfg->ops    ? s.st.ops < cfg->ops :
				       s.step <= cfg->steps;
	     s.step++) {
		sim_watchdog_step(s.step);
		s.jumped = false;
		next_jiffy(&s);
		sim_bound_step(&s, SIM_NO_CPU);
		run_jiffy(&s);
		if (s.fault)
			sim_fault_step(&s);
		if (cfg->replay)
			sim_replay_step(&s);
		else
			sim_work_step(&s);
		sim_work_check(&s);
		sim_check_hierarchy(&s);
		if (s.fault)
			sim_fault_check(&s);
		if (host_warn_hits != s.st.warns) {
			s.st.warns = host_warn_hits;
			sim_violation(&s, (int)host_cpu, -1,
				      "timer/ warned (see stderr)");
		}
		s.st.steps++;
	}
	sim_watchdog_disarm();
	sim_resid_finish(&s);
	if (cfg->replay)
		sim_replay_finish(&s);
	sim_work_finish(&s);
	sim_bound_finish(&s);
	ret = s.st.violations ? 1 : 0;
out:
	*out = s.st;
	teardown(&s);
	return ret;
}

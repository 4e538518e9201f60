// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/sim/work.c - the simulator's random workload and what it
 * knows about every timer.
 *
 * A pool of timers (movable, pinned and deferrable; a quarter periodic,
 * re-arming in their callback) is armed, re-armed and cancelled by busy
 * CPUs through every arming call timer.h offers, including add_timer_on()
 * onto remote idle CPUs.  Each timer's record mirrors what the wheel must
 * hold: pending or not, on which CPU's base, the level the wheel chose
 * (read from timer->idx right after enqueue) and so the jiffy its bucket
 * is due.  From that the simulator derives what an idle CPU must wake
 * for, and checks that no timer is lost, expires twice or early, or
 * expires later than its level's granularity plus one jiffy of migration
 * delay.  Deferrable timers of CPUs that idled since arming are exempt
 * from lateness: not waking for them is their point.
 *
 * The workload runs in phases so the rare states are reached: normal
 * (about a third busy), quiet (almost all idle), all-idle (nobody may
 * become busy: only timers wake CPUs and the last CPU must arm for the
 * hierarchy) and busy.  A steady workload stays normal throughout.
 */
#include <stdlib.h>

#include "tests/host/sim/sim.h"
#include "timer/timer_peek.h"
#include "timer_env.h"

#define TIMERS_PER_CPU 4
#define TIMERS_MIN     64
#define LVL_BITS       6 /* the wheel's 64 buckets per level */
#define LVL_CLK_SHIFT  3 /* and 8x granularity per level */

enum phase { PH_NORMAL, PH_QUIET, PH_ALLIDLE, PH_BUSY, NR_PHASES };

/*
 * Per CPU and jiffy, in permille: a busy CPU goes idle or does a timer
 * operation; an idle CPU gets work or takes a device interrupt that does
 * one (the case the push model exists for: arming on an idle CPU).
 */
static const struct {
	unsigned int to_idle, to_busy, arm, irq;
} phases[NR_PHASES] = {
	[PH_NORMAL] = { 20, 10, 60, 4 },
	[PH_QUIET] = { 80, 1, 40, 2 },
	[PH_ALLIDLE] = { 300, 0, 30, 1 },
	[PH_BUSY] = { 5, 60, 120, 8 },
};

enum arm_how { ARM_MOD, ARM_REDUCE, ARM_PENDING_ONLY, ARM_ADD, ARM_ADD_ON };

/* The callback has only the timer: the run it belongs to. */
static struct sim *work_sim;

static void list_add_timer(struct sim *s, struct sim_timer *st)
{
	struct sim_cpu *c = &s->cpus[st->cpu];

	st->next = c->head;
	if (st->next)
		st->next->pprev = &st->next;
	st->pprev = &c->head;
	c->head = st;
}

static void list_del_timer(struct sim_timer *st)
{
	*st->pprev = st->next;
	if (st->next)
		st->next->pprev = st->pprev;
	st->next = NULL;
	st->pprev = NULL;
}

/* Lateness allowed: the level's granularity plus one jiffy of migration. */
static uint64_t base_bound(const struct sim_timer *st)
{
	return (1ull << (LVL_CLK_SHIFT * st->level)) + 1;
}

/* With faults, plus what they may cost (fault.c, top of file). */
static uint64_t late_bound(const struct sim *s, const struct sim_timer *st)
{
	return base_bound(st) + st->slack + sim_fault_slack(s);
}

static bool exempt(const struct sim *s, const struct sim_timer *st)
{
	const struct sim_cpu *c = &s->cpus[st->cpu];

	return (st->kind & TIMER_DEFERRABLE) &&
	       (st->armed_idle || !c->busy || c->idle_gen != st->idle_gen);
}

/* Jiffies from now, spread over wheel levels 0-3 (level starts 63*8^n). */
static uint64_t random_delay(struct sim_rng *rng)
{
	uint64_t r = sim_rng_below(rng, 100);

	if (r < 60)
		return 1 + sim_rng_below(rng, 62);
	if (r < 85)
		return 63 + sim_rng_below(rng, 504 - 63);
	if (r < 97)
		return 504 + sim_rng_below(rng, 4032 - 504);
	return 4032 + sim_rng_below(rng, 32256 - 4032);
}

/*
 * Level and due jiffy of @st's bucket from timer->idx, as calc_index()
 * computed them.  One already due when it was queued (only a timer moved
 * by timers_cpu_dead() can be) went into the base's current bucket, the
 * one of its clk: now, or the next jiffy if the base ran this jiffy's
 * bucket already (its clk is then one ahead of jiffies).
 */
static void note_bucket(struct sim *s, struct sim_timer *st)
{
	unsigned int base = st->kind == TIMER_PINNED	 ? TIMER_PEEK_LOCAL :
			    st->kind == TIMER_DEFERRABLE ? TIMER_PEEK_DEF :
							   TIMER_PEEK_GLOBAL;
	struct timer_base_peek v;
	uint64_t e;

	st->level = st->t.idx >> LVL_BITS;
	e = (st->expires >> (LVL_CLK_SHIFT * st->level)) + 1;
	st->bucket = e << (LVL_CLK_SHIFT * st->level);
	if (timer_before(st->expires, s->now_j))
		st->bucket = s->now_j;
	if (timer_base_peek(st->cpu, base, &v) &&
	    timer_before(st->expires, v.clk) && timer_after(v.clk, s->now_j))
		st->bucket = v.clk;
	st->idle_gen = s->cpus[st->cpu].idle_gen;
	st->armed_idle = !s->cpus[st->cpu].busy;
}

/* Record what the wheel now holds for @st after an arm that enqueued it. */
static void note_enqueued(struct sim *s, struct sim_timer *st, uint64_t expires,
			  bool was_pending)
{
	if (was_pending)
		list_del_timer(st);
	st->pending = true;
	st->reported = false;
	st->lb_done = false;
	st->expires = expires;
	st->slack = 0;
	st->cpu = st->t.flags & TIMER_CPUMASK;
	st->arm_j = s->now_j;
	note_bucket(s, st);
	list_add_timer(s, st);
	if (st->t.expires != expires)
		sim_violation(s, -1, (int)st->id,
			      "timer->expires %llu after arming for %llu",
			      (unsigned long long)st->t.expires,
			      (unsigned long long)expires);
	if (st->cpu >= s->cfg.cpus)
		sim_violation(s, -1, (int)st->id, "queued on CPU %u", st->cpu);
	else if (s->cpus[st->cpu].state == CPU_DEAD)
		sim_violation(s, (int)st->cpu, (int)st->id,
			      "queued on an offline CPU (by CPU %u)", host_cpu);
	if (was_pending)
		s->st.modified++;
	else
		s->st.armed++;
	if ((int)st->id == s->cfg.trace_timer)
		sim_trace(
			s,
			"timer=%u armed by cpu %u: expires j%llu on cpu %u level %u bucket j%llu",
			st->id, host_cpu, (unsigned long long)expires, st->cpu,
			st->level, (unsigned long long)st->bucket);
}

/*
 * add_timer_on(@cpu): an offline @cpu warns once (WARN_ON_ONCE counts
 * every hit) and the timer goes on the calling CPU.  Returns the CPU the
 * timer must be on.
 */
static unsigned int add_on(struct sim *s, struct sim_timer *st,
			   unsigned int cpu)
{
	bool dead = s->cpus[cpu].state == CPU_DEAD;
	unsigned int warns = host_warn_hits;

	s->expect_ipi = (int)cpu;
	add_timer_on(&st->t, cpu);
	s->expect_ipi = -1;
	if (!dead)
		return cpu;
	s->st.add_on_offline++;
	if (host_warn_hits == warns + 1)
		s->st.warns++; /* the warning it must give */
	else
		sim_violation(s, (int)cpu, (int)st->id,
			      "add_timer_on() of an offline CPU: %u warnings",
			      host_warn_hits - warns);
	return host_cpu;
}

/*
 * Arm @st for @expires the way @how says, on the current CPU (or @cpu for
 * add_timer_on()), and check the call's return value against the record.
 */
static void arm(struct sim *s, struct sim_timer *st, uint64_t expires,
		enum arm_how how, unsigned int cpu)
{
	bool was = st->pending;
	int ret = 0, want = was;
	const struct sim_timer old = *st;

	if (s->cfg.model == TIMER_MODEL_PUSH && how != ARM_ADD_ON)
		s->expect_ipi = SIM_IPI_PUSHED;
	switch (how) {
	case ARM_MOD:
		ret = mod_timer(&st->t, expires);
		break;
	case ARM_REDUCE:
		ret = timer_reduce(&st->t, expires);
		if (was && timer_before_eq(st->expires, expires))
			goto check; /* left alone */
		break;
	case ARM_PENDING_ONLY:
		ret = mod_timer_pending(&st->t, expires);
		if (!was)
			goto check;
		break;
	case ARM_ADD:
		st->t.expires = expires;
		add_timer(&st->t);
		want = ret;
		break;
	case ARM_ADD_ON:
		st->t.expires = expires;
		cpu = add_on(s, st, cpu);
		want = ret;
		break;
	}
	note_enqueued(s, st, expires, was);
	/* What the move costs an idle CPU whatever the placement (bound.c). */
	if (was && (st->cpu != old.cpu || timer_after(st->bucket, old.bucket)))
		sim_bound_removed(s, &old, old.cpu, old.bucket);
	if (!was || st->cpu != old.cpu || timer_before(st->bucket, old.bucket))
		sim_bound_added(s, st);
	if (how == ARM_ADD_ON && st->cpu != cpu)
		sim_violation(s, (int)cpu, (int)st->id,
			      "add_timer_on() queued it on CPU %u", st->cpu);
check:
	if (s->expect_ipi == SIM_IPI_PUSHED)
		s->expect_ipi = -1;
	if (ret != want)
		sim_violation(s, (int)host_cpu, (int)st->id,
			      "arm call %d returned %d, timer was %spending",
			      how, ret, was ? "" : "not ");
	if (timer_pending(&st->t) != st->pending)
		sim_violation(s, (int)host_cpu, (int)st->id,
			      "timer_pending() %d after arm call %d",
			      timer_pending(&st->t), how);
}

static void cancel(struct sim *s, struct sim_timer *st, bool sync)
{
	bool was = st->pending;
	int ret = sync ? timer_delete_sync(&st->t) : timer_delete(&st->t);

	if (ret != was)
		sim_violation(
			s, (int)host_cpu, (int)st->id,
			"timer_delete%s() returned %d, timer was %spending",
			sync ? "_sync" : "", ret, was ? "" : "not ");
	if (was) {
		sim_bound_removed(s, st, st->cpu, st->bucket);
		list_del_timer(st);
		st->pending = false;
		s->st.cancelled++;
	}
	if ((int)st->id == s->cfg.trace_timer)
		sim_trace(s, "timer=%u cancelled by cpu %u: ret %d", st->id,
			  host_cpu, ret);
}

/* Checks at expiry, then the periodic re-arm from the callback. */
static void sim_timer_fn(struct timer_list *t)
{
	struct sim_timer *st = (struct sim_timer *)t;
	struct sim *s = work_sim;
	unsigned int cpu = smp_processor_id();
	uint64_t now = timer_env_jiffies();

	if (!st->pending) {
		s->st.twice++;
		sim_violation(s, (int)cpu, (int)st->id,
			      "expired while not armed (twice, or cancelled)");
		return;
	}
	if (timer_pending(t))
		sim_violation(s, (int)cpu, (int)st->id,
			      "still pending inside its callback");
	if (timer_before(now, st->expires)) {
		s->st.early++;
		sim_violation(s, (int)cpu, (int)st->id,
			      "early: expired at j%llu, expires j%llu",
			      (unsigned long long)now,
			      (unsigned long long)st->expires);
	} else if (!exempt(s, st) && !st->reported) {
		uint64_t late = now - st->expires;

		sim_note_late(s, st, late);
		if (late > s->st.late_max_j)
			s->st.late_max_j = late;
		if (!st->kind && !st->level)
			s->st.late0[late < SIM_LATE0_MAX ? late :
							   SIM_LATE0_MAX]++;
		if (late > base_bound(st))
			s->st.late_relaxed++;
		if (late > late_bound(s, st))
			sim_violation(s, (int)cpu, (int)st->id,
				      "late by %llu jiffies (level %u, cpu %u)",
				      (unsigned long long)late, st->level,
				      st->cpu);
	}
	if (s->cpus[cpu].state != CPU_ONLINE)
		sim_violation(s, (int)cpu, (int)st->id,
			      "timer ran on an offline CPU");
	if (st->kind && cpu != st->cpu)
		sim_violation(s, (int)cpu, (int)st->id,
			      "%s timer of CPU %u expired on CPU %u",
			      st->kind == TIMER_PINNED ? "pinned" :
							 "deferrable",
			      st->cpu, cpu);
	if (!st->kind) {
		s->st.global_expired++;
		sim_empty_served(s, st->cpu, cpu);
		if (cpu != st->cpu)
			s->st.remote_expiries++;
	}
	if ((int)st->id == s->cfg.trace_timer)
		sim_trace(s, "timer=%u expired on cpu %u", st->id, cpu);
	list_del_timer(st);
	st->pending = false;
	s->st.expired++;
	if (s->expire_hook) {
		s->expire_hook(s, st, cpu, now);
	} else if (st->period) {
		struct sim_rng r;

		sim_rng_at(&r, s->cfg.seed, now, st->id);
		if (sim_rng_chance(&r, 900))
			arm(s, st, now + st->period, ARM_MOD, cpu);
	}
}

/**
 * sim_work_init - make the timer pool
 * @s: the run, booted (timer_init() done)
 *
 * Returns 0, or -1 if out of memory.
 */
int sim_work_init(struct sim *s)
{
	unsigned int n = s->cfg.cpus * TIMERS_PER_CPU;

	work_sim = s;
	s->nr_timers = n < TIMERS_MIN ? TIMERS_MIN : n;
	s->timers = calloc(s->nr_timers, sizeof(*s->timers));
	if (!s->timers)
		return -1;
	s->phase = PH_NORMAL;
	s->phase_end_ns = 0;
	for (unsigned int i = 0; i < s->nr_timers; i++) {
		struct sim_timer *st = &s->timers[i];
		uint64_t r = sim_rng_below(&s->rng, 10);

		st->id = i;
		st->kind = r < 5 ? 0 : r < 8 ? TIMER_PINNED : TIMER_DEFERRABLE;
		if (sim_rng_chance(&s->rng, 250))
			st->period = 1 + sim_rng_below(&s->rng, 200);
		timer_setup(&st->t, sim_timer_fn, st->kind);
	}
	return 0;
}

/**
 * sim_work_init_pool - @n timers, global, not periodic, for a replay
 * @s: the run, booted
 * @n: how many
 *
 * Returns 0, or -1 if out of memory.
 */
int sim_work_init_pool(struct sim *s, unsigned int n)
{
	work_sim = s;
	s->nr_timers = n;
	s->timers = calloc(n ? n : 1, sizeof(*s->timers));
	if (!s->timers)
		return -1;
	for (unsigned int i = 0; i < n; i++) {
		s->timers[i].id = i;
		timer_setup(&s->timers[i].t, sim_timer_fn, 0);
	}
	return 0;
}

/** sim_work_set_kind - @st (cancelled if pending) gets flags @kind */
void sim_work_set_kind(struct sim *s, struct sim_timer *st, uint32_t kind)
{
	if (st->kind == kind)
		return;
	if (st->pending)
		cancel(s, st, false);
	st->kind = kind;
	timer_setup(&st->t, sim_timer_fn, kind);
}

/**
 * sim_work_arm - arm @st for @expires from the current CPU: mod_timer(),
 * or add_timer_on(@add_on_cpu) if that is >= 0 (cancelled first if pending)
 * @s: the run
 * @st: the timer
 * @expires: jiffies
 * @add_on_cpu: the CPU for add_timer_on(), or -1
 */
void sim_work_arm(struct sim *s, struct sim_timer *st, uint64_t expires,
		  int add_on_cpu)
{
	if (add_on_cpu < 0) {
		arm(s, st, expires, ARM_MOD, 0);
		return;
	}
	if (st->pending)
		cancel(s, st, false);
	arm(s, st, expires, ARM_ADD_ON, (unsigned int)add_on_cpu);
}

/** sim_work_cancel - timer_delete(@st) from the current CPU */
void sim_work_cancel(struct sim *s, struct sim_timer *st)
{
	cancel(s, st, false);
}

/* One timer operation by CPU @cpu (busy, or idle in an interrupt). */
static void timer_op(struct sim *s, unsigned int cpu, struct sim_rng *rng)
{
	struct sim_timer *st = &s->timers[sim_rng_below(rng, s->nr_timers)];
	uint64_t expires = s->now_j + random_delay(rng);
	uint64_t r = sim_rng_below(rng, 100);

	host_set_cpu(cpu);
	s->st.ops++;
	if (r < 45) {
		arm(s, st, expires, ARM_MOD, 0);
	} else if (r < 55) {
		cancel(s, st, false);
	} else if (r < 60) {
		cancel(s, st, true);
	} else if (r < 70) {
		arm(s, st, expires, ARM_REDUCE, 0);
	} else if (r < 75) {
		arm(s, st, expires, ARM_PENDING_ONLY, 0);
	} else if (st->pending) {
		arm(s, st, expires, ARM_MOD, 0);
	} else if (r < 85 || st->kind != TIMER_PINNED) {
		arm(s, st, expires, ARM_ADD, 0);
	} else {
		/* Mostly onto an idle CPU: the IPI case; or an offline one. */
		unsigned int to = (unsigned int)sim_rng_below(rng, s->cfg.cpus);

		arm(s, st, expires, ARM_ADD_ON, to);
	}
	sim_deliver_ipis(s);
}

/*
 * A burst of 1-4 operations under --ops, so a step carries more of them.
 * Each op delivers the IPIs it sent, and a CPU woken by one may take
 * @cpu offline in its softirq (fault.c): the burst ends there, as an
 * offline CPU runs nothing.
 */
static void work_timer_op(struct sim *s, unsigned int cpu, struct sim_rng *rng)
{
	unsigned int n = 1;

	if (s->cfg.ops)
		n += (unsigned int)sim_rng_below(rng, 4);
	while (n-- && s->cpus[cpu].state == CPU_ONLINE)
		timer_op(s, cpu, rng);
}

static void next_phase(struct sim *s, struct sim_rng *rng)
{
	uint64_t r = sim_rng_below(rng, 100);

	s->phase = s->cfg.steady ? PH_NORMAL :
		   r < 45	 ? PH_NORMAL :
		   r < 65	 ? PH_QUIET :
		   r < 85	 ? PH_ALLIDLE :
				   PH_BUSY;
	s->phase_end_ns =
		s->now_ns + (100 + sim_rng_below(rng, 900)) * s->tick_ns;
}

/**
 * sim_work_step - this jiffy's random busy/idle transitions and timer ops
 * @s: the run
 */
void sim_work_step(struct sim *s)
{
	unsigned int n = s->cfg.cpus;
	struct sim_rng rng;

	if (s->now_ns >= s->phase_end_ns) {
		sim_rng_at(&rng, s->cfg.seed, s->step, UINT64_MAX - 1);
		next_phase(s, &rng);
	}
	for (unsigned int cpu = 0; cpu < n; cpu++) {
		struct sim_cpu *c = &s->cpus[cpu];
		unsigned int r;

		sim_rng_at(&rng, s->cfg.seed, s->step, cpu);
		r = (unsigned int)sim_rng_below(&rng, 1000);

		if (c->state != CPU_ONLINE)
			continue;
		if (!c->busy) {
			if (r < phases[s->phase].to_busy) {
				sim_cpu_exit_idle(s, cpu);
				s->st.ops++;
			} else if (r < phases[s->phase].to_busy +
					       phases[s->phase].irq) {
				work_timer_op(s, cpu, &rng);
				/*
				 * An IPI it sent may have woken a CPU whose
				 * softirq took this one offline (fault.c).
				 */
				if (c->state == CPU_ONLINE)
					sim_cpu_irq_exit(s, cpu);
			}
		} else if (r < phases[s->phase].to_idle) {
			sim_cpu_enter_idle(s, cpu);
			s->st.ops++;
		} else if (r <
			   phases[s->phase].to_idle + phases[s->phase].arm) {
			work_timer_op(s, cpu, &rng);
		}
	}
	/* Sent from a fault inside an idle entry (fault.c). */
	sim_deliver_ipis(s);
}

/**
 * sim_work_move_timers - timers_cpu_dead(@from, @to) was called: follow it
 * @s: the run
 * @from: the CPU going offline
 * @to: the CPU its timers went to
 * @since_j: jiffy @from left the hierarchy; from then on nobody ran them
 *
 * Each timer on @from must now be on @to, in the bucket its expiry takes
 * there.  Its lateness bound grows by the jiffies it sat unserved, plus
 * its old level's granularity: it may have been due on @from, unrun, and
 * the move puts an overdue timer in @to's current bucket.  A deferrable
 * one that @from had idled on since it was armed stays exempt (it may
 * have been overdue long before); another is judged by @to's idleness
 * from now on.  Returns how many moved.
 */
unsigned int sim_work_move_timers(struct sim *s, unsigned int from,
				  unsigned int to, uint64_t since_j)
{
	struct sim_timer *st;
	unsigned int n = 0;

	while ((st = s->cpus[from].head)) {
		uint64_t gran = 1ull << (LVL_CLK_SHIFT * st->level);
		bool idled = st->armed_idle ||
			     st->idle_gen != s->cpus[from].idle_gen;

		list_del_timer(st);
		n++;
		if ((st->t.flags & TIMER_CPUMASK) != to)
			sim_violation(
				s, (int)from, (int)st->id,
				"timers_cpu_dead() left it on CPU %u, not %u",
				st->t.flags & TIMER_CPUMASK, to);
		st->cpu = to;
		st->slack += s->now_j - since_j + 1 + gran;
		note_bucket(s, st);
		st->armed_idle |= idled;
		list_add_timer(s, st);
		if ((int)st->id == s->cfg.trace_timer)
			sim_trace(
				s,
				"timer=%u moved from cpu %u to cpu %u: level %u bucket j%llu",
				st->id, from, to, st->level,
				(unsigned long long)st->bucket);
	}
	return n;
}

/**
 * sim_cpu_first_events - when CPU @cpu's first buckets are due, in ns
 * @s: the run
 * @cpu: the CPU
 * @local: first pinned bucket, SIM_NONE if none
 * @global: first movable bucket, SIM_NONE if none (deferrable ignored)
 *
 * Returns the timer of @global (for messages), NULL if none.
 */
struct sim_timer *sim_cpu_first_events(struct sim *s, unsigned int cpu,
				       uint64_t *local, uint64_t *global)
{
	struct sim_timer *first = NULL;

	*local = *global = SIM_NONE;
	for (struct sim_timer *st = s->cpus[cpu].head; st; st = st->next) {
		uint64_t *p = st->kind == TIMER_PINNED ? local :
			      st->kind == 0	       ? global :
							 NULL;
		uint64_t ns = sim_j2ns(s, st->bucket);

		if (p && ns < *p) {
			*p = ns;
			if (p == global)
				first = st;
		}
	}
	return first;
}

/**
 * sim_work_check - per-step timer checks
 * @s: the run
 *
 * timer_pending() and the timer's CPU agree with the record, and no
 * non-exempt timer is past its lateness bound (then it is lost).
 */
void sim_work_check(struct sim *s)
{
	for (unsigned int i = 0; i < s->nr_timers; i++) {
		struct sim_timer *st = &s->timers[i];

		if (timer_pending(&st->t) != st->pending) {
			sim_violation(s, -1, (int)i,
				      "timer_pending() is %d, record says %d",
				      timer_pending(&st->t), st->pending);
			st->pending = timer_pending(&st->t);
			continue;
		}
		if (!st->pending)
			continue;
		if ((st->t.flags & TIMER_CPUMASK) != st->cpu)
			sim_violation(s, -1, (int)i,
				      "moved from CPU %u to CPU %u by itself",
				      st->cpu, st->t.flags & TIMER_CPUMASK);
		/* Unserved until the move, which grants the slack for it. */
		if (s->cpus[st->cpu].state == CPU_DYING)
			continue;
		if (!st->reported && !exempt(s, st) &&
		    timer_after(s->now_j, st->expires + late_bound(s, st))) {
			st->reported = true;
			s->st.lost++;
			sim_violation(
				s, (int)st->cpu, (int)i,
				"lost: expires j%llu (level %u bucket j%llu, %s) not run by j%llu",
				(unsigned long long)st->expires, st->level,
				(unsigned long long)st->bucket,
				st->kind == TIMER_PINNED ? "pinned" :
				st->kind		 ? "deferrable" :
							   "global",
				(unsigned long long)s->now_j);
		}
	}
}

/**
 * sim_work_finish - final accounting: armed = expired + cancelled + pending
 * @s: the run
 */
void sim_work_finish(struct sim *s)
{
	s->st.pending = 0;
	for (unsigned int i = 0; i < s->nr_timers; i++)
		s->st.pending += s->timers[i].pending;
	if (s->st.armed != s->st.expired + s->st.cancelled + s->st.pending)
		sim_violation(
			s, -1, -1,
			"armed %llu != expired %llu + cancelled %llu + pending %llu",
			(unsigned long long)s->st.armed,
			(unsigned long long)s->st.expired,
			(unsigned long long)s->st.cancelled,
			(unsigned long long)s->st.pending);
	free(s->timers);
	s->timers = NULL;
	work_sim = NULL;
}

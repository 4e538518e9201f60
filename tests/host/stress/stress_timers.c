// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/stress/stress_timers.c - the stress test's timers.
 *
 * Accounting that holds under any interleaving, because every operation
 * on a timer is linearized by its base lock and says what it found: each
 * enqueue (enq) ends exactly once, superseded by a re-arm of the pending
 * timer (sup, mod_timer() returned 1), cancelled (can, timer_delete()
 * returned 1), expired (fired), or it is still pending at the end.  So
 * enq == sup + can + fired + pending, per timer, catches a timer lost or
 * run twice.  Early expiry is checked in the callback against the expiry
 * of the arm in flight, which the class rules in stress.h make exact.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tests/host/stress/stress.h"
#include "timer_env.h"

#define LD(x)	 __atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define ST(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELEASE)
#define INC(x)	 __atomic_fetch_add(&(x), 1, __ATOMIC_RELAXED)

static const struct {
	enum stress_class cls;
	unsigned int count;
} layout[] = {
	{ OWN_PINNED, 8 },
	{ OWN_DEF, 4 },
	{ GLOBAL, 8 },
	{ REMOTE, 4 },
};

int stress_no_rearm;
uint64_t stress_late_max, stress_idle_late_max;

/* Wheel levels 0 and 1 only, so the drains at the end stay short. */
static uint64_t random_delay(struct sim_rng *r)
{
	return sim_rng_chance(r, 700) ? 1 + sim_rng_below(r, 62) :
					63 + sim_rng_below(r, 400);
}

static void raise_max(uint64_t *max, uint64_t v)
{
	uint64_t m = LD(*max);

	while (v > m &&
	       !__atomic_compare_exchange_n(max, &m, v, false, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED))
		;
}

static void note_late(struct stress_timer *st, uint64_t now, uint64_t exp)
{
	if (st->cls == OWN_DEF)
		return; /* idle CPUs rightly do not wake for these */
	raise_max(&stress_late_max, now - exp);
	/* Idle phase (no re-arms): the clock waits for the CPUs. */
	if (LD(stress_no_rearm))
		raise_max(&stress_idle_late_max, now - exp);
}

static void stress_fn(struct timer_list *t)
{
	struct stress_timer *st = (struct stress_timer *)t;
	unsigned int cpu = smp_processor_id();
	uint64_t now = timer_env_jiffies(), exp = LD(st->exp);
	bool own = st->cls == OWN_PINNED || st->cls == OWN_DEF;

	if ((own && cpu != st->owner) ||
	    (st->cls == REMOTE && cpu != st->target)) {
		INC(st->wrong_cpu);
		own = false; /* not the owner's thread: leave pending */
	}
	if (own ? !st->pending :
		  (st->cls == GLOBAL || st->cls == REMOTE) &&
			    LD(st->state) != ST_ARMED)
		INC(st->twice);
	if (timer_before(now, exp))
		INC(st->early);
	else
		note_late(st, now, exp);
	INC(st->fired);
	if (own)
		st->pending = false;

	if (st->period && !LD(stress_no_rearm) &&
	    sim_rng_chance(&stress_cpus[cpu].rng, 800)) {
		/* Nobody else arms it now: the owner waits for ST_IDLE. */
		ST(st->exp, now + st->period);
		INC(st->enq);
		if (mod_timer(t, now + st->period))
			INC(st->sup);
		if (own)
			st->pending = true;
		return;
	}
	if (st->cls == GLOBAL || st->cls == REMOTE)
		ST(st->state, ST_IDLE);
}

/**
 * stress_timers_init - CPU @cpu's timers, set up as that CPU
 * @cpu: the current CPU
 * @seed: the run's seed
 */
void stress_timers_init(unsigned int cpu, uint64_t seed)
{
	struct stress_cpu *c = &stress_cpus[cpu];
	unsigned int i = 0;

	sim_rng_seed(&c->rng, seed * 1000003 + cpu);
	c->timers = calloc(STRESS_PER_CPU, sizeof(*c->timers));
	if (!c->timers)
		abort();
	for (unsigned int l = 0; l < sizeof(layout) / sizeof(*layout); l++) {
		for (unsigned int k = 0; k < layout[l].count; k++, i++) {
			struct stress_timer *st = &c->timers[i];
			uint32_t flags = layout[l].cls == OWN_DEF ?
						 TIMER_DEFERRABLE :
					 layout[l].cls == GLOBAL ? 0 :
								   TIMER_PINNED;

			st->cls = layout[l].cls;
			st->owner = cpu;
			st->target = (cpu + 1 +
				      (unsigned int)sim_rng_below(
					      &c->rng, stress_ncpus - 1)) %
				     stress_ncpus;
			if (sim_rng_chance(&c->rng, 400))
				st->period = 1 + sim_rng_below(&c->rng, 100);
			timer_setup(&st->t, stress_fn, flags);
		}
	}
}

/* An owner-only timer: every arming call, tracked exactly. */
static void own_op(struct stress_timer *st, struct sim_rng *r, uint64_t e)
{
	uint64_t k = sim_rng_below(r, 6);
	int ret;

	if (k == 4 || (k == 3 && st->pending)) {
		ret = k == 4 ? timer_delete(&st->t) : timer_delete_sync(&st->t);
		if (ret != st->pending)
			INC(st->bad_ret);
		if (ret)
			INC(st->can);
		st->pending = false;
		return;
	}
	if (k == 1 && st->pending && timer_before_eq(LD(st->exp), e)) {
		if (timer_reduce(&st->t, e) != 1)
			INC(st->bad_ret);
		return;
	}
	if (k == 2 && !st->pending) {
		if (mod_timer_pending(&st->t, e))
			INC(st->bad_ret);
		return;
	}
	ST(st->exp, e);
	INC(st->enq);
	if (k == 3) { /* not pending, see above */
		st->t.expires = e;
		add_timer(&st->t);
		ret = 0;
	} else {
		ret = k == 1 ? timer_reduce(&st->t, e) :
		      k == 2 ? mod_timer_pending(&st->t, e) :
			       mod_timer(&st->t, e);
	}
	if (ret != st->pending)
		INC(st->bad_ret);
	if (ret)
		INC(st->sup);
	st->pending = true;
}

/* A timer that may expire elsewhere: arm when ST_IDLE, else cancel. */
static void shared_op(struct stress_timer *st, struct sim_rng *r, uint64_t e)
{
	uint64_t k = sim_rng_below(r, 4);
	int ret;

	if (LD(st->state) == ST_IDLE) {
		ST(st->exp, e);
		ST(st->state, ST_ARMED);
		INC(st->enq);
		if (st->cls == REMOTE) {
			st->t.expires = e;
			add_timer_on(&st->t, st->target);
		} else if (mod_timer(&st->t, e)) {
			INC(st->sup);
			INC(st->bad_ret); /* idle, yet it was pending */
		}
		return;
	}
	if (k > 1)
		return;
	ret = k ? timer_delete_sync(&st->t) : timer_delete(&st->t);
	if (ret) {
		INC(st->can);
		ST(st->state, ST_IDLE);
	}
}

/**
 * stress_timer_op - one operation by busy CPU @cpu on one of its timers
 * @cpu: the current CPU
 */
void stress_timer_op(unsigned int cpu)
{
	struct stress_cpu *c = &stress_cpus[cpu];
	struct stress_timer *st =
		&c->timers[sim_rng_below(&c->rng, STRESS_PER_CPU)];
	uint64_t e = timer_env_jiffies() + random_delay(&c->rng);

	if (st->cls == OWN_PINNED || st->cls == OWN_DEF)
		own_op(st, &c->rng, e);
	else
		shared_op(st, &c->rng, e);
}

/**
 * stress_check_lost - after the all-idle drain, nothing but deferrable
 * timers may still be pending long past their expiry
 * @now: jiffies
 * @slack: jiffies allowed past expiry (real threads get descheduled)
 *
 * Pre: the CPU threads have stopped.  Returns the number lost.
 */
int stress_check_lost(uint64_t now, uint64_t slack)
{
	int lost = 0;

	for (unsigned int cpu = 0; cpu < stress_ncpus; cpu++) {
		for (unsigned int i = 0; i < STRESS_PER_CPU; i++) {
			struct stress_timer *st = &stress_cpus[cpu].timers[i];

			if (st->cls == OWN_DEF || !timer_pending(&st->t) ||
			    !timer_after(now, st->exp + slack))
				continue;
			if (!lost++)
				printf("stress: LOST cpu=%u timer=%u class=%d expires=j%llu now=j%llu base_cpu=%u\n",
				       cpu, i, st->cls,
				       (unsigned long long)st->exp,
				       (unsigned long long)now,
				       st->t.flags & TIMER_CPUMASK);
		}
	}
	return lost;
}

/**
 * stress_check_final - per-timer accounting once everything has drained
 *
 * Pre: single-threaded, all CPUs busy long enough for every timer to
 * expire.  Prints the totals; returns the number of broken timers.
 */
int stress_check_final(void)
{
	uint64_t enq = 0, sup = 0, can = 0, fired = 0, pend = 0;
	uint64_t early = 0, twice = 0, wrong = 0, bad_ret = 0;
	int bad = 0;

	for (unsigned int cpu = 0; cpu < stress_ncpus; cpu++) {
		for (unsigned int i = 0; i < STRESS_PER_CPU; i++) {
			struct stress_timer *st = &stress_cpus[cpu].timers[i];
			uint64_t p = timer_pending(&st->t);

			enq += st->enq;
			sup += st->sup;
			can += st->can;
			fired += st->fired;
			pend += p;
			early += st->early;
			twice += st->twice;
			wrong += st->wrong_cpu;
			bad_ret += st->bad_ret;
			if (st->enq == st->sup + st->can + st->fired + p &&
			    !st->early && !st->twice && !st->wrong_cpu &&
			    !st->bad_ret && !p)
				continue;
			if (!bad++)
				printf("stress: BROKEN cpu=%u timer=%u class=%d enq=%llu sup=%llu can=%llu fired=%llu pending=%llu early=%llu twice=%llu wrong_cpu=%llu bad_ret=%llu\n",
				       cpu, i, st->cls,
				       (unsigned long long)st->enq,
				       (unsigned long long)st->sup,
				       (unsigned long long)st->can,
				       (unsigned long long)st->fired,
				       (unsigned long long)p,
				       (unsigned long long)st->early,
				       (unsigned long long)st->twice,
				       (unsigned long long)st->wrong_cpu,
				       (unsigned long long)st->bad_ret);
		}
	}
	printf("stress armed=%llu superseded=%llu cancelled=%llu expired=%llu pending=%llu early=%llu twice=%llu wrong_cpu=%llu bad_ret=%llu late_max_j=%llu idle_late_max_j=%llu broken=%d\n",
	       (unsigned long long)enq, (unsigned long long)sup,
	       (unsigned long long)can, (unsigned long long)fired,
	       (unsigned long long)pend, (unsigned long long)early,
	       (unsigned long long)twice, (unsigned long long)wrong,
	       (unsigned long long)bad_ret, (unsigned long long)stress_late_max,
	       (unsigned long long)stress_idle_late_max, bad);
	return bad;
}

/** stress_timers_free - give the timers back (after the checks) */
void stress_timers_free(void)
{
	for (unsigned int cpu = 0; cpu < stress_ncpus; cpu++) {
		free(stress_cpus[cpu].timers);
		stress_cpus[cpu].timers = NULL;
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/sim/replay.c - a Linux trace as the simulator's workload.
 *
 * Each step applies the trace's events of that jiffy, in trace order, at
 * their own time (sim.ev_ns, for residency):
 *   - an idle exit that was work (not RP_F_TIMER) makes its CPU busy, and
 *     counts as a device-interrupt wake (WAKE_IRQ); one whose CPU was idle
 *     again within the jiffy (RP_F_SHORT) is an interrupt in idle instead;
 *     the idle entry after it ends it.  An exit Linux took only to serve a
 *     timer leaves the CPU idle: the replay's own wakes serve the timers;
 *   - timer_start, timer_cancel and timer_init act on the timer at their
 *     traced time, from their traced CPU (busy or not: an idle CPU does it
 *     in an interrupt and programs its wake-up again), with the traced
 *     flags; a pinned timer queued on another CPU goes through
 *     add_timer_on(), everything else through mod_timer(), so the model
 *     picks the base of a movable one.  Cancels that are Linux detaching a
 *     timer to run it are skipped: the replay runs its own expiries;
 *   - a timer_start from the timer's own callback is not applied at its
 *     traced time but from the replayed callback: at the replayed expiry
 *     plus the traced delay, on the CPU that ran it (closed loop, see
 *     docs/replay.md).  Each traced expiry queues what its callback did
 *     (re-arm or not) on the timer; each replayed expiry takes the oldest;
 *     a replayed expiry that finds the queue empty waits for the next
 *     traced one; a traced expiry of a timer the replay does not hold
 *     (armed before the trace began) re-arms it as traced, open loop.
 *     Any other operation on the timer resets the queue.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/host/sim/replay.h"
#include "tests/host/sim/sim.h"
#include "timer_env.h"

struct rp_wait {
	uint64_t j;   /* the replayed expiry */
	uint32_t cpu; /* that ran it */
	bool on;
};

struct rp_run {
	const struct rp_trace *tr;
	size_t next;		   /* first event not applied */
	bool *in_irq;		   /* per CPU: a short exit is open */
	uint32_t *q_head, *q_tail; /* per timer: queue of EXP_EXIT events */
	uint32_t *q_next;	   /* per event: next in its timer's queue */
	struct rp_wait *wait;	   /* per timer */
};

static uint32_t kind_of(uint8_t flags)
{
	return (flags & RP_F_PINNED ? TIMER_PINNED : 0) |
	       (flags & RP_F_DEFER ? TIMER_DEFERRABLE : 0);
}

static void queue_reset(struct rp_run *r, uint32_t t)
{
	r->q_head[t] = r->q_tail[t] = RP_NONE;
	r->wait[t].on = false;
}

static void queue_push(struct rp_run *r, uint32_t t, uint32_t ev)
{
	r->q_next[ev] = RP_NONE;
	if (r->q_tail[t] == RP_NONE)
		r->q_head[t] = ev;
	else
		r->q_next[r->q_tail[t]] = ev;
	r->q_tail[t] = ev;
}

static uint32_t queue_pop(struct rp_run *r, uint32_t t)
{
	uint32_t ev = r->q_head[t];

	if (ev != RP_NONE) {
		r->q_head[t] = r->q_next[ev];
		if (r->q_head[t] == RP_NONE)
			r->q_tail[t] = RP_NONE;
	}
	return ev;
}

/* Arm @st as trace event @e says, for @expires, from the current CPU. */
static void arm_as(struct sim *s, struct sim_timer *st,
		   const struct rp_event *e, uint64_t expires)
{
	uint32_t kind = kind_of(e->flags);

	/* Past (timeout=-1): due at once, and lateness counts from now. */
	if (timer_before(expires, s->now_j))
		expires = s->now_j;
	sim_work_set_kind(s, st, kind);
	if ((kind & TIMER_PINNED) && e->target != e->cpu &&
	    e->target < s->cfg.cpus)
		sim_work_arm(s, st, expires, (int)e->target);
	else
		sim_work_arm(s, st, expires, -1);
}

/* After an operation by CPU @cpu: its IPIs, its wake-up if idle. */
static void after_op(struct sim *s, unsigned int cpu)
{
	sim_deliver_ipis(s);
	if (!s->cpus[cpu].busy)
		sim_cpu_reprogram(s, cpu);
}

/* The re-arm that traced expiry @exit_ev's callback did, if any. */
static void closed_loop(struct sim *s, struct sim_timer *st, uint32_t exit_ev,
			uint64_t base_j)
{
	const struct rp_trace *tr = s->run->tr;
	const struct rp_event *x = &tr->ev[exit_ev], *e;

	if (x->target == RP_NONE)
		return;
	e = &tr->ev[x->target];
	arm_as(s, st, e, base_j + (e->expires - e->jif));
}

/* work.c's callback, after its checks: take the oldest traced expiry. */
static void expire_hook(struct sim *s, struct sim_timer *st, unsigned int cpu,
			uint64_t now_j)
{
	struct rp_run *r = s->run;
	uint32_t ev = queue_pop(r, st->id);

	if (ev != RP_NONE) {
		closed_loop(s, st, ev, now_j);
		return;
	}
	r->wait[st->id] = (struct rp_wait){ now_j, cpu, true };
}

static void idle_exit(struct sim *s, const struct rp_event *e)
{
	struct sim_cpu *c = &s->cpus[e->cpu];

	if ((e->flags & RP_F_TIMER) || c->busy || s->run->in_irq[e->cpu])
		return;
	if (e->flags & RP_F_SHORT) {
		s->run->in_irq[e->cpu] = true;
		return;
	}
	s->st.wakes[WAKE_IRQ]++;
	sim_cpu_exit_idle(s, e->cpu);
}

static void idle_enter(struct sim *s, const struct rp_event *e)
{
	if (s->run->in_irq[e->cpu]) {
		s->run->in_irq[e->cpu] = false;
		sim_cpu_irq_exit(s, e->cpu);
	} else if (s->cpus[e->cpu].busy) {
		sim_cpu_enter_idle(s, e->cpu);
	}
}

/* A traced expiry ended: queue what its callback did; a waiting one runs. */
static void traced_expiry(struct sim *s, uint32_t i)
{
	struct rp_run *r = s->run;
	const struct rp_event *e = &r->tr->ev[i];
	struct rp_wait *w = &r->wait[e->timer];

	struct sim_timer *st = &s->timers[e->timer];

	if (w->on) {
		w->on = false;
		host_set_cpu(w->cpu);
		closed_loop(s, st, i, w->j);
		after_op(s, w->cpu);
	} else if (st->pending) {
		queue_push(r, e->timer, i);
	} else {
		/* Armed before the trace began: the replay never had it. */
		host_set_cpu(e->cpu);
		closed_loop(s, st, i, s->now_j);
		after_op(s, e->cpu);
	}
}

static void timer_event(struct sim *s, uint32_t i)
{
	const struct rp_event *e = &s->run->tr->ev[i];
	struct sim_timer *st = &s->timers[e->timer];

	if ((e->type == RP_START && (e->flags & RP_F_INCB)) ||
	    (e->type == RP_CANCEL && (e->flags & RP_F_DETACH)))
		return;
	if (e->type == RP_EXP_EXIT) {
		traced_expiry(s, i);
		return;
	}
	if (e->type == RP_EXP_ENTRY)
		return;
	queue_reset(s->run, e->timer);
	host_set_cpu(e->cpu);
	if (e->type == RP_START)
		arm_as(s, st, e, e->expires);
	else if (st->pending)
		sim_work_cancel(s, st);
	after_op(s, e->cpu);
}

/**
 * sim_replay_step - apply the trace's events of jiffy now_j
 * @s: the run
 */
void sim_replay_step(struct sim *s)
{
	struct rp_run *r = s->run;
	const struct rp_trace *tr = r->tr;

	for (; r->next < tr->nr_ev &&
	       !timer_after(tr->ev[r->next].sim_j, s->now_j);
	     r->next++) {
		const struct rp_event *e = &tr->ev[r->next];

		s->ev_ns = SIM_NS_BASE + (e->ns - tr->t0_ns);
		if (s->ev_ns < s->now_ns)
			s->ev_ns = s->now_ns;
		if (e->type == RP_IDLE_EXIT)
			idle_exit(s, e);
		else if (e->type == RP_IDLE_ENTER)
			idle_enter(s, e);
		else if (e->timer != RP_NONE)
			timer_event(s, (uint32_t)r->next);
	}
	s->ev_ns = 0;
	sim_deliver_ipis(s);
}

/** sim_replay_done - every event applied */
bool sim_replay_done(const struct sim *s)
{
	return s->run->next >= s->run->tr->nr_ev;
}

/* Idle from the start: the first cpu_idle of the CPU is an exit, or none. */
static void initial_states(struct sim *s)
{
	const struct rp_trace *tr = s->run->tr;
	unsigned int n = s->cfg.cpus, left = n;
	int8_t *first = calloc(n, 1);

	if (!first)
		return;
	for (size_t i = 0; i < tr->nr_ev && left; i++) {
		const struct rp_event *e = &tr->ev[i];

		if ((e->type == RP_IDLE_ENTER || e->type == RP_IDLE_EXIT) &&
		    !first[e->cpu]) {
			first[e->cpu] = e->type == RP_IDLE_EXIT ? 1 : -1;
			left--;
		}
	}
	s->ev_ns = SIM_NS_BASE;
	for (unsigned int cpu = 0; cpu < n; cpu++)
		if (first[cpu] >= 0)
			sim_cpu_enter_idle(s, cpu);
	s->ev_ns = 0;
	free(first);
}

/**
 * sim_replay_init - the workload of cfg.replay: its timer pool, its state
 * @s: the run, booted with every CPU busy
 *
 * Returns 0, or -1 if out of memory.
 */
int sim_replay_init(struct sim *s)
{
	const struct rp_trace *tr = s->cfg.replay;
	struct rp_run *r = calloc(1, sizeof(*r));
	uint32_t nt = tr->nr_timers ? tr->nr_timers : 1;

	if (!r)
		return -1;
	r->tr = tr;
	r->in_irq = calloc(s->cfg.cpus, sizeof(*r->in_irq));
	r->q_head = malloc(nt * sizeof(*r->q_head));
	r->q_tail = malloc(nt * sizeof(*r->q_tail));
	r->q_next = malloc((tr->nr_ev ? tr->nr_ev : 1) * sizeof(*r->q_next));
	r->wait = calloc(nt, sizeof(*r->wait));
	s->run = r;
	if (!r->in_irq || !r->q_head || !r->q_tail || !r->q_next || !r->wait ||
	    sim_work_init_pool(s, tr->nr_timers)) {
		sim_replay_finish(s);
		return -1;
	}
	for (uint32_t t = 0; t < nt; t++)
		queue_reset(r, t);
	s->expire_hook = expire_hook;
	initial_states(s);
	return 0;
}

/** sim_replay_finish - free the replay's state (not the timer pool) */
void sim_replay_finish(struct sim *s)
{
	struct rp_run *r = s->run;

	if (!r)
		return;
	free(r->in_irq);
	free(r->q_head);
	free(r->q_tail);
	free(r->q_next);
	free(r->wait);
	free(r);
	s->run = NULL;
	s->expire_hook = NULL;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/sim/empty.c - why a CPU woken for the hierarchy found
 * nothing to expire (the summary's hier_empty_* fields).
 *
 * When an idle CPU programs a hierarchy wake-up (WAKE_HIER), the CPU of
 * the root's first event is noted: the owner of the event it is armed
 * for, and whether the owner's first movable timer was due at that jiffy
 * then.  Every movable timer that expires notes, on its owner's record,
 * the jiffy and the CPU that ran it and whether that CPU was busy.  At the
 * end of the jiffy (a CPU ticking later in it may be the one that served
 * the event) each hierarchy wake that expired nothing is put in one class:
 *
 *   owner  the owner ran its timer itself (it was busy, or woke for a
 *          pinned timer of its own);
 *   busy   a busy CPU, migrator of the hierarchy, ran it;
 *   dup    another idle CPU woken for the hierarchy ran it: two CPUs were
 *          armed for the same event;
 *   idle   another idle CPU, woken for something else (its own pinned
 *          timer), ran it in its remote handling;
 *   stale  nothing of the owner's ran, and the event was stale already
 *          when the CPU armed for it: the owner's timer had been
 *          cancelled or re-armed later by another CPU, which does not
 *          tell the hierarchy (the event stays, early, as Linux's does);
 *   gone   nothing of the owner's ran: its timer was cancelled or
 *          re-armed after the CPU armed for it;
 *   below  the root had no event when the CPU armed: it had handled remote
 *          timers up to an active group and armed for the first event of
 *          the groups it walked (Linux's rule, kept), which that active
 *          group's migrator serves.
 * "Ran it" means at the jiffy the CPU was armed for or up to now (a step
 * may span two jiffies).
 */
#include "tests/host/sim/sim.h"

/** sim_empty_armed - idle CPU @cpu programmed a hierarchy wake-up */
void sim_empty_armed(struct sim *s, unsigned int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	uint64_t lb, gb = SIM_NONE;

	c->hier_owner = sim_root_first_cpu();
	c->hier_j = sim_ns2j(s, c->wake_ns);
	if (c->hier_owner < s->cfg.cpus)
		sim_cpu_first_events(s, c->hier_owner, &lb, &gb);
	c->hier_stale = gb == SIM_NONE || sim_ns2j(s, gb) != c->hier_j;
}

/** sim_empty_served - movable timer of CPU @owner ran on CPU @cpu */
void sim_empty_served(struct sim *s, unsigned int owner, unsigned int cpu)
{
	struct sim_cpu *o = &s->cpus[owner];

	o->served_j = s->now_j;
	o->served_by = cpu;
	o->served_busy = s->cpus[cpu].busy;
	o->served_hier = s->waking == WAKE_HIER;
}

static void classify(struct sim *s, const struct sim_empty_wake *w)
{
	const struct sim_cpu *o;
	enum sim_empty why;

	o = w->owner < s->cfg.cpus ? &s->cpus[w->owner] : NULL;
	if (!o)
		why = EMPTY_BELOW;
	else if (timer_before(o->served_j, w->armed_j))
		why = w->stale ? EMPTY_STALE : EMPTY_GONE;
	else if (o->served_by == w->owner)
		why = EMPTY_OWNER;
	else if (o->served_busy)
		why = EMPTY_BUSY;
	else if (o->served_hier)
		why = EMPTY_DUP;
	else
		why = EMPTY_IDLE;
	s->st.hier_empty_why[why]++;
}

/** sim_empty_note - the hierarchy wake of CPU @cpu expired nothing */
void sim_empty_note(struct sim *s, unsigned int cpu)
{
	const struct sim_cpu *c = &s->cpus[cpu];

	if (s->nr_empty < s->cfg.cpus * (SIM_STORM + 1))
		s->empty_queue[s->nr_empty++] = (struct sim_empty_wake){
			.owner = c->hier_owner,
			.armed_j = c->hier_j,
			.stale = c->hier_stale,
		};
}

/** sim_empty_step - the jiffy's wakes are over: classify its empty ones */
void sim_empty_step(struct sim *s)
{
	for (unsigned int i = 0; i < s->nr_empty; i++)
		classify(s, &s->empty_queue[i]);
	s->nr_empty = 0;
}

const char *sim_empty_name(enum sim_empty why)
{
	static const char *const names[NR_SIM_EMPTY] = {
		[EMPTY_OWNER] = "owner", [EMPTY_BUSY] = "busy",
		[EMPTY_DUP] = "dup",	 [EMPTY_IDLE] = "idle",
		[EMPTY_STALE] = "stale", [EMPTY_GONE] = "gone",
		[EMPTY_BELOW] = "below",
	};

	return names[why];
}

// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/sim/check.c - hierarchy invariants, read through the views
 * tmigr_group_get() and tmigr_cpu_get() offer.
 *
 * After every step (the simulator runs one CPU at a time, so every step
 * ends quiescent) these hold under every model:
 *   - a group's migrator is TMIGR_NONE or one child bit, and that child is
 *     active; it is TMIGR_NONE exactly when no child is active;
 *   - a group is active in its parent exactly when one of its children is
 *     active; a CPU is active in its group exactly when it is not idle;
 *   - there is one root.
 * Under pull also:
 *   - a busy CPU is active, an idle CPU with its tick stopped is not;
 *   - an idle CPU whose first movable event comes before its first pinned
 *     one has handed it to the hierarchy (its cpuevt is no later), unless
 *     it wakes by then anyway (a wake-up armed for a pinned timer that was
 *     cancelled since: it queues the movable one when it idles again);
 *   - when no CPU is active, some idle CPU is programmed to wake no later
 *     than the first such event: nobody else would serve it.
 * With --faults offline, a CPU that is offline (fault.c) is out of the
 * hierarchy and inactive in its group instead; with --faults ipi-delay an
 * IPI in flight counts as a wake-up (see sim_check_hierarchy()).
 */
#include <stdlib.h>

#include "tests/host/sim/sim.h"
#include "timer/timer_migration.h"
#include "timer_env.h"

static struct tmigr_group_view *views;
static unsigned int nr_views;
static unsigned int root_id;

/**
 * sim_hierarchy_idle - is no CPU active anywhere in the hierarchy?
 *
 * Pre: sim_check_boot() found the root.
 */
bool sim_hierarchy_idle(void)
{
	struct tmigr_group_view v;

	return tmigr_group_get(root_id, &v) && !v.active;
}

/** sim_tmigr_wakeup - tmigr's wakeup of @cpu, TMIGR_NONE_NS if none */
uint64_t sim_tmigr_wakeup(unsigned int cpu)
{
	struct tmigr_cpu_view v;

	return tmigr_cpu_get(cpu, &v) ? v.wakeup : TMIGR_NONE_NS;
}

/** sim_root_first_cpu - CPU of the root's first event, UINT_MAX if none */
unsigned int sim_root_first_cpu(void)
{
	struct tmigr_group_view v;

	if (!tmigr_group_get(root_id, &v) || v.next_expiry == TMIGR_NONE_NS)
		return ~0u;
	return v.next_cpu;
}

static bool read_groups(struct sim *s)
{
	struct tmigr_shape shape;

	tmigr_get_shape(&shape);
	if (shape.groups > nr_views) {
		free(views);
		views = calloc(shape.groups, sizeof(*views));
		nr_views = views ? shape.groups : 0;
		if (!views)
			return false;
	}
	for (unsigned int id = 0; id < shape.groups; id++) {
		if (!tmigr_group_get(id, &views[id]) || views[id].id != id) {
			sim_violation(s, -1, -1, "tmigr_group_get(%u) failed",
				      id);
			return false;
		}
	}
	s->nr_groups = shape.groups;
	return true;
}

/**
 * sim_check_boot - after all CPUs came online: the tree is well formed
 * @s: the run
 *
 * Finds the root, checks the levels and parents.  Returns false (with a
 * violation) if the tree is unusable.
 */
bool sim_check_boot(struct sim *s)
{
	struct tmigr_shape shape;
	unsigned int roots = 0;

	tmigr_get_shape(&shape);
	if (!shape.groups || !read_groups(s))
		return false;
	for (unsigned int id = 0; id < s->nr_groups; id++) {
		const struct tmigr_group_view *g = &views[id];

		if (g->parent < 0) {
			roots++;
			root_id = id;
		} else if ((unsigned int)g->parent >= s->nr_groups ||
			   views[g->parent].level != g->level + 1) {
			sim_violation(s, -1, -1,
				      "group %u (level %u) has parent %d", id,
				      g->level, g->parent);
		}
		if (g->num_children > TMIGR_CHILDS_PER_GROUP)
			sim_violation(s, -1, -1, "group %u has %u children", id,
				      g->num_children);
	}
	if (roots != 1) {
		sim_violation(s, -1, -1, "%u roots", roots);
		return false;
	}
	if (views[root_id].level + 1 != shape.levels)
		sim_violation(s, -1, -1, "root at level %u of %u levels",
			      views[root_id].level, shape.levels);
	return true;
}

static void check_group(struct sim *s, const struct tmigr_group_view *g)
{
	uint8_t m = g->migrator, act = g->active;
	uint8_t all = (uint8_t)((1u << g->num_children) - 1);

	if (m != TMIGR_NONE && ((m & (m - 1)) || !(m & act)))
		sim_violation(
			s, -1, -1,
			"group %u: migrator 0x%x is not an active child (active 0x%x)",
			g->id, m, act);
	if ((m == TMIGR_NONE) != !act)
		sim_violation(s, -1, -1,
			      "group %u: active 0x%x with migrator 0x%x", g->id,
			      act, m);
	if (act & ~all)
		sim_violation(s, -1, -1,
			      "group %u: active 0x%x beyond its %u children",
			      g->id, act, g->num_children);
	if (g->parent >= 0) {
		const struct tmigr_group_view *p = &views[g->parent];

		if (!(p->active & g->childmask) != !act)
			sim_violation(
				s, -1, -1,
				"group %u: active 0x%x but its bit 0x%x in parent %d is %s",
				g->id, act, g->childmask, g->parent,
				p->active & g->childmask ? "set" : "clear");
	}
}

/* --trace-cpu: the CPU's hierarchy state, when it changed. */
static void trace_cpu_view(struct sim *s, unsigned int cpu,
			   const struct tmigr_cpu_view *cv)
{
	static struct tmigr_cpu_view last;
	static struct sim *last_run;

	if (last_run == s && last.idle == cv->idle &&
	    last.cpuevt == cv->cpuevt && last.wakeup == cv->wakeup)
		return;
	last_run = s;
	last = *cv;
	sim_trace(s,
		  "cpu=%u hierarchy: idle=%d group=%d cpuevt=%lld wakeup=%lld",
		  cpu, cv->idle, cv->group,
		  cv->cpuevt == TMIGR_NONE_NS ? -1 : (long long)cv->cpuevt,
		  cv->wakeup == TMIGR_NONE_NS ? -1 : (long long)cv->wakeup);
}

/* An offline CPU (fault.c) is out of the hierarchy and inactive. */
static void check_offline_cpu(struct sim *s, unsigned int cpu)
{
	struct tmigr_cpu_view cv;

	if (!tmigr_cpu_get(cpu, &cv) || cv.online || cv.group < 0 ||
	    (unsigned int)cv.group >= s->nr_groups) {
		sim_violation(s, (int)cpu, -1,
			      "offline CPU still online in the hierarchy");
		return;
	}
	if (views[cv.group].active & cv.childmask)
		sim_violation(s, (int)cpu, -1,
			      "offline CPU active in group %d (bit 0x%x)",
			      cv.group, cv.childmask);
}

/* Per-CPU part; returns the CPU's first event the hierarchy must serve. */
static uint64_t check_cpu(struct sim *s, unsigned int cpu)
{
	const struct sim_cpu *c = &s->cpus[cpu];
	struct tmigr_cpu_view cv;
	struct sim_timer *first;
	uint64_t lb, gb;

	if (c->state != CPU_ONLINE) {
		check_offline_cpu(s, cpu);
		return SIM_NONE;
	}
	if (!tmigr_cpu_get(cpu, &cv) || !cv.online || cv.group < 0 ||
	    (unsigned int)cv.group >= s->nr_groups) {
		sim_violation(s, (int)cpu, -1, "CPU not online in a group");
		return SIM_NONE;
	}
	if ((int)cpu == s->cfg.trace_cpu)
		trace_cpu_view(s, cpu, &cv);
	/* An isolated CPU's bit is never set (timer_migration_isolated.c). */
	if (!(views[cv.group].active & cv.childmask) !=
	    (cv.idle || cv.isolated))
		sim_violation(s, (int)cpu, -1,
			      "CPU idle=%d but its bit 0x%x in group %d is %s",
			      cv.idle, cv.childmask, cv.group,
			      views[cv.group].active & cv.childmask ? "set" :
								      "clear");
	if (s->cfg.model != TIMER_MODEL_PULL)
		return SIM_NONE;
	if (cv.remote)
		sim_violation(s, (int)cpu, -1, "remote still set");
	if ((c->busy && cv.idle) || (c->tick_stopped && !cv.idle))
		sim_violation(s, (int)cpu, -1,
			      "CPU %s (tick %s) but %s in the hierarchy",
			      c->busy ? "busy" : "idle",
			      c->tick_stopped ? "stopped" : "running",
			      cv.idle ? "idle" : "active");
	if (!c->tick_stopped)
		return SIM_NONE;
	first = sim_cpu_first_events(s, cpu, &lb, &gb);
	if (gb >= lb)
		return SIM_NONE; /* it wakes itself first */
	/*
	 * Timers moved to it (fault.c): it looks when the kick arrives.  An
	 * event overdue (its timer late) is queued as due now, or anywhere
	 * in the past: timer_jiffies_to_ns() clamps a past jiffy to the
	 * caller's ns time, and a remote caller's is a jiffy start or later.
	 */
	if (cv.cpuevt > (gb > s->now_ns ? gb : s->now_ns) && c->wake_ns > gb &&
	    !c->ipi)
		sim_violation(
			s, (int)cpu, (int)first->id,
			"idle CPU's first movable event j%llu (%llu ns) not in the hierarchy (cpuevt %lld ns)",
			(unsigned long long)sim_ns2j(s, gb),
			(unsigned long long)gb,
			cv.cpuevt == TMIGR_NONE_NS ? -1 : (long long)cv.cpuevt);
	return gb;
}

/*
 * When idle CPU @c wakes next: its programmed wake-up, or a wake-up IPI
 * in flight (--faults ipi-delay: it may arrive jiffies later).
 */
static uint64_t next_wake(const struct sim *s, const struct sim_cpu *c,
			  bool *ipi)
{
	uint64_t ipi_ns;

	if (!c->ipi || c->state != CPU_ONLINE)
		return c->wake_ns;
	*ipi = true;
	ipi_ns = sim_j2ns(s, c->ipi_at_j);
	return ipi_ns < c->wake_ns ? ipi_ns : c->wake_ns;
}

/**
 * sim_check_hierarchy - the invariants at the top of this file
 * @s: the run, at the end of a step
 *
 * With an IPI in flight the idle-hierarchy check accepts a wake-up up to
 * --ipi-delay late (fault.c): the kicked CPU arms once it arrives.
 */
void sim_check_hierarchy(struct sim *s)
{
	uint64_t need = SIM_NONE, wake = SIM_NONE, slack = 0;
	unsigned int first = 0;
	bool ipi = false;

	if (!read_groups(s))
		return;
	for (unsigned int id = 0; id < s->nr_groups; id++)
		check_group(s, &views[id]);
	for (unsigned int cpu = 0; cpu < s->cfg.cpus; cpu++) {
		uint64_t gb = check_cpu(s, cpu), w;

		if (gb < need)
			need = gb;
		if (s->cpus[cpu].busy)
			continue;
		w = next_wake(s, &s->cpus[cpu], &ipi);
		if (w < wake) {
			wake = w;
			first = cpu;
		}
	}
	if (ipi)
		slack = sim_fault_slack(s) * s->tick_ns;
	if (s->cfg.model == TIMER_MODEL_PULL && need != SIM_NONE &&
	    !views[root_id].active && wake > need &&
	    (!slack || wake - need > slack))
		sim_violation(
			s, (int)first, -1,
			"hierarchy idle, first movable event j%llu, but the first CPU to wake does at %s%lld",
			(unsigned long long)sim_ns2j(s, need),
			wake == SIM_NONE ? "never " : "j",
			wake == SIM_NONE ? 0 : (long long)sim_ns2j(s, wake));
}

// SPDX-License-Identifier: GPL-2.0
/*
 * timer/timer_peek.c - lockless views for a watchdog dump (timer_peek.h).
 *
 * Base and group fields are read with READ_ONCE and no lock, so a dump
 * never waits on a CPU that is stuck holding one; the values may be torn
 * between fields, which a dump of a hung machine can live with.
 */
#include "timer/timer_peek.h"
#include "timer/timer_internal.h"
#include "timer/timer_migration_internal.h"

static const char *const base_names[TIMER_PEEK_NR_BASES] = {
	[TIMER_PEEK_LOCAL] = "local",
	[TIMER_PEEK_GLOBAL] = "global",
	[TIMER_PEEK_DEF] = "def",
};

_Static_assert((int)TIMER_PEEK_LOCAL == (int)BASE_LOCAL &&
		       (int)TIMER_PEEK_GLOBAL == (int)BASE_GLOBAL &&
		       (int)TIMER_PEEK_DEF == (int)BASE_DEF &&
		       (int)TIMER_PEEK_NR_BASES == (int)NR_BASES,
	       "one base numbering");

const char *timer_peek_base_name(unsigned int base)
{
	return base < TIMER_PEEK_NR_BASES ? base_names[base] : "?";
}

bool timer_base_peek(unsigned int cpu, unsigned int base,
		     struct timer_base_peek *v)
{
	struct timer_base *b;

	if (!READ_ONCE(timer_cpus) || cpu >= READ_ONCE(timer_nr_cpus) ||
	    base >= NR_BASES)
		return false;
	b = cpu_base(cpu, base);
	v->clk = READ_ONCE(b->clk);
	v->next_expiry = READ_ONCE(b->next_expiry);
	v->pending = READ_ONCE(b->timers_pending);
	v->idle = READ_ONCE(b->is_idle);
	v->recalc = READ_ONCE(b->next_expiry_recalc);
	v->expiry_active = READ_ONCE(b->expiry_active);
	v->offline = READ_ONCE(b->offline);
	v->locked = spin_is_locked(&b->lock);
	return true;
}

bool tmigr_cpu_peek(unsigned int cpu, struct tmigr_cpu_peek *v)
{
	struct tmigr_cpu *tmc;

	if (!smp_load_acquire(&tmigr_ready) || cpu >= tmigr_nr_cpus)
		return false;
	tmc = &tmigr_cpus[cpu];
	v->online = READ_ONCE(tmc->online);
	v->idle = READ_ONCE(tmc->idle);
	v->remote = READ_ONCE(tmc->remote);
	v->locked = spin_is_locked(&tmc->lock);
	v->childmask = READ_ONCE(tmc->childmask);
	v->wakeup = READ_ONCE(tmc->wakeup);
	return true;
}

static void group_peek(struct tmigr_group *g, struct tmigr_group_peek *v)
{
	union tmigr_state s = tmigr_read_state(g);

	v->id = g->id;
	v->level = g->level;
	v->node = g->node;
	v->childmask = smp_load_acquire(&g->parent) ? READ_ONCE(g->childmask) :
						      0;
	v->active = s.active;
	v->migrator = s.migrator;
	v->seq = s.seq;
	v->next_expiry = READ_ONCE(g->next_expiry);
	v->locked = spin_is_locked(&g->lock);
}

unsigned int tmigr_cpu_path_peek(unsigned int cpu,
				 struct tmigr_group_peek *path,
				 unsigned int max)
{
	struct tmigr_group *g;
	unsigned int n = 0;

	if (!smp_load_acquire(&tmigr_ready) || cpu >= tmigr_nr_cpus)
		return 0;
	/* Bounded by @max and by the levels: a torn parent cannot loop us. */
	g = smp_load_acquire(&tmigr_cpus[cpu].tmgroup);
	while (g && n < max && n < TMIGR_MAX_LEVELS) {
		group_peek(g, &path[n++]);
		g = smp_load_acquire(&g->parent);
	}
	return n;
}

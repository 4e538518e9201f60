// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/timer/tmigr_util.c - see tmigr_util.h.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/host/timer/tmigr_util.h"
#include "timer_env.h"

struct tm_cpu tm_cpus[HOST_MAX_CPUS];
static bool tm_want_idle[HOST_MAX_CPUS];
static bool tm_ipi[HOST_MAX_CPUS];
static void *tm_storage;

uint64_t tm_ns(uint64_t j)
{
	return j * TM_TICK_NS;
}

void tm_set_time(uint64_t j)
{
	host_set_jiffies(j);
	host_set_now_ns(tm_ns(j));
}

/* IPIs are only noted: the target runs its idle path in tm_advance_to(). */
static void tm_wake_hook(unsigned int cpu)
{
	tm_ipi[cpu] = true;
}

static void tm_reset_cpus(unsigned int ncpus)
{
	unsigned int cpu;

	for (cpu = 0; cpu < ncpus; cpu++) {
		tm_cpus[cpu] = (struct tm_cpu){ .wake_ns = TMIGR_NONE_NS };
		tm_want_idle[cpu] = false;
		tm_ipi[cpu] = false;
	}
}

/**
 * tm_env - fresh host env of @ncpus CPUs (node 0, own cores); set the
 * topology in host_cpu_node/core, then tm_start() or tm_start_tmigr()
 */
void tm_env(unsigned int ncpus)
{
	tmigr_reset();
	host_env_free_all();
	host_env_reset(ncpus);
	host_wake_hook = tm_wake_hook;
	tm_reset_cpus(ncpus);
	tm_set_time(0);
}

/* The hierarchy only, for shape tests of many CPUs (no wheel). */
void tm_start_tmigr(unsigned int nnodes)
{
	host_nr_nodes = nnodes;
	ck_assert_int_eq(tmigr_init(nr_cpu_ids, nnodes), 0);
}

/* The wheel at TM_HZ from jiffy @j0 under PULL, no hierarchy yet. */
void tm_start_wheel(uint64_t j0)
{
	tm_set_time(j0);
	free(tm_storage);
	tm_storage = calloc(1, timer_bases_size(nr_cpu_ids));
	ck_assert_ptr_nonnull(tm_storage);
	ck_assert_int_eq(timer_init(tm_storage, nr_cpu_ids, TM_HZ), 0);
	timer_set_model(TIMER_MODEL_PULL);
}

/* The wheel at TM_HZ from jiffy @j0 under PULL, and the hierarchy. */
void tm_start(unsigned int nnodes, uint64_t j0)
{
	tm_start_wheel(j0);
	tm_start_tmigr(nnodes);
}

/**
 * tm_setup - @ncpus CPUs in contiguous blocks on @nnodes nodes, the wheel
 * and the hierarchy from jiffy @j0; no CPU prepared yet
 */
void tm_setup(unsigned int ncpus, unsigned int nnodes, uint64_t j0)
{
	unsigned int cpu;

	tm_env(ncpus);
	for (cpu = 0; cpu < ncpus; cpu++)
		host_cpu_node[cpu] = cpu * nnodes / ncpus;
	tm_start(nnodes, j0);
}

void tm_teardown(void)
{
	tmigr_reset();
	host_race_hook = NULL;
	host_wake_hook = NULL;
	timer_set_model(TIMER_MODEL_PULL);
	timer_set_migration(true);
	tmigr_set_inactive_up_mainline(false);
	free(tm_storage);
	tm_storage = NULL;
	host_env_free_all();
}

/* Build @cpu's groups, running on CPU @on. */
void tm_prepare(unsigned int cpu, unsigned int on)
{
	unsigned int prev = host_cpu;

	host_set_cpu(on);
	ck_assert_int_eq(tmigr_cpu_prepare(cpu), 0);
	host_set_cpu(prev);
}

/* @cpu comes online, busy. */
void tm_online(unsigned int cpu)
{
	unsigned int prev = host_cpu;

	host_set_cpu(cpu);
	ck_assert_int_eq(tmigr_cpu_online(), 0);
	host_set_cpu(prev);
	tm_cpus[cpu].up = true;
}

/* Every CPU prepared by CPU 0 (itself first) and online, in id order. */
void tm_bringup_all(void)
{
	unsigned int cpu;

	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		tm_prepare(cpu, 0);
		tm_online(cpu);
	}
}

/* @cpu runs its idle path; returns the ns time it arms for. */
uint64_t tm_idle(unsigned int cpu)
{
	unsigned int prev = host_cpu;
	uint64_t j = timer_env_jiffies(), wake;
	bool stop;

	host_set_cpu(cpu);
	wake = timer_nohz_next_event(j, tm_ns(j), &stop);
	host_set_cpu(prev);
	tm_want_idle[cpu] = true;
	tm_cpus[cpu].idle = stop;
	tm_cpus[cpu].wake_ns = stop ? wake : TMIGR_NONE_NS;
	host_cpu_idle[cpu] = stop;
	return wake;
}

/* @cpu leaves idle for work. */
void tm_wake(unsigned int cpu)
{
	unsigned int prev = host_cpu;

	host_set_cpu(cpu);
	timer_nohz_idle_exit();
	host_set_cpu(prev);
	tm_want_idle[cpu] = false;
	tm_cpus[cpu].idle = false;
	tm_cpus[cpu].wake_ns = TMIGR_NONE_NS;
	host_cpu_idle[cpu] = false;
}

/* A tick interrupt on @cpu, with the softirq if it raised one. */
void tm_tick(unsigned int cpu)
{
	unsigned int prev = host_cpu, raised = host_softirq_raised[cpu];

	host_set_cpu(cpu);
	timer_tick();
	if (host_softirq_raised[cpu] != raised)
		run_timer_softirq();
	host_set_cpu(prev);
}

/*
 * Step jiffy by jiffy to @j.  Busy CPUs tick; an idle CPU ticks when its
 * wake time has come, and re-runs its idle path after that or after an
 * IPI; a CPU that wants to idle but kept its tick tries again each jiffy.
 */
void tm_advance_to(uint64_t j)
{
	unsigned int cpu;

	while (timer_before(timer_env_jiffies(), j)) {
		uint64_t now;

		tm_set_time(timer_env_jiffies() + 1);
		now = timer_env_now_ns();
		for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
			struct tm_cpu *c = &tm_cpus[cpu];
			bool ipi = tm_ipi[cpu];

			if (!c->up)
				continue;
			tm_ipi[cpu] = false;
			if (c->idle && c->wake_ns > now && !ipi)
				continue;
			if (c->idle && c->wake_ns <= now)
				c->wakes++;
			tm_tick(cpu);
			if (tm_want_idle[cpu])
				tm_idle(cpu);
		}
	}
}

static void tm_rec_cb(struct timer_list *t)
{
	struct tm_rec *r = (struct tm_rec *)t;

	r->fired++;
	r->fired_at = timer_env_jiffies();
	r->fired_cpu = smp_processor_id();
}

/* Arm @r on @cpu's bases (as @cpu) at jiffy @expires. */
void tm_rec_arm(struct tm_rec *r, unsigned int cpu, uint32_t flags,
		uint64_t expires)
{
	unsigned int prev = host_cpu;

	*r = (struct tm_rec){ 0 };
	host_set_cpu(cpu);
	timer_setup(&r->t, tm_rec_cb, flags);
	mod_timer(&r->t, expires);
	host_set_cpu(prev);
}

#define AS_CPU(cpu, expr)                       \
	({                                      \
		unsigned int __prev = host_cpu; \
		__typeof__(expr) __r;           \
		host_set_cpu(cpu);              \
		__r = (expr);                   \
		host_set_cpu(__prev);           \
		__r;                            \
	})

uint64_t tm_deactivate(unsigned int cpu, uint64_t nextexp)
{
	return AS_CPU(cpu, tmigr_cpu_deactivate(nextexp));
}

uint64_t tm_new_timer(unsigned int cpu, uint64_t nextexp)
{
	return AS_CPU(cpu, tmigr_cpu_new_timer(nextexp));
}

bool tm_requires_remote(unsigned int cpu)
{
	return AS_CPU(cpu, tmigr_requires_handle_remote());
}

void tm_activate(unsigned int cpu)
{
	unsigned int prev = host_cpu;

	host_set_cpu(cpu);
	tmigr_cpu_activate();
	host_set_cpu(prev);
}

void tm_handle_remote(unsigned int cpu)
{
	unsigned int prev = host_cpu;

	host_set_cpu(cpu);
	tmigr_handle_remote();
	host_set_cpu(prev);
}

unsigned int tm_group_of(unsigned int cpu)
{
	struct tmigr_cpu_view v;

	ck_assert(tmigr_cpu_get(cpu, &v));
	ck_assert_int_ge(v.group, 0);
	return (unsigned int)v.group;
}

/* The root's id; -1 if none, -2 if more than one group lacks a parent. */
int tm_root(void)
{
	struct tmigr_group_view v;
	struct tmigr_shape shape;
	int root = -1;
	unsigned int id;

	tmigr_get_shape(&shape);
	for (id = 0; id < shape.groups; id++) {
		ck_assert(tmigr_group_get(id, &v));
		if (v.parent < 0) {
			if (root >= 0)
				return -2;
			root = (int)id;
		}
	}
	return root;
}

/*
 * The state invariants: a group's active mask is exactly its active
 * children (CPUs online, not idle and not isolated, groups with an active
 * mask), its
 * migrator is one of them or NONE when there is none, one root, at most
 * TMIGR_CHILDS_PER_GROUP children.  Returns 0, or -1 with @why filled.
 */
int tm_check_invariants(char *why, unsigned int len)
{
	static uint8_t want[HOST_MAX_CPUS * 2];
	struct tmigr_group_view g;
	struct tmigr_cpu_view c;
	struct tmigr_shape shape;
	unsigned int id, cpu;

	tmigr_get_shape(&shape);
	ck_assert_uint_le(shape.groups, HOST_MAX_CPUS * 2);
	for (id = 0; id < shape.groups; id++)
		want[id] = 0;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		ck_assert(tmigr_cpu_get(cpu, &c));
		if (c.group >= 0 && c.online && !c.idle && !c.isolated)
			want[c.group] |= c.childmask;
	}
	for (id = 0; id < shape.groups; id++) {
		ck_assert(tmigr_group_get(id, &g));
		if (g.parent >= 0 && g.active)
			want[g.parent] |= g.childmask;
	}
	if (shape.groups && tm_root() < 0) {
		snprintf(why, len, "root: %d", tm_root());
		return -1;
	}
	for (id = 0; id < shape.groups; id++) {
		ck_assert(tmigr_group_get(id, &g));
		if (g.active != want[id]) {
			snprintf(why, len, "group %u: active %#x, children %#x",
				 id, g.active, want[id]);
			return -1;
		}
		if ((g.migrator == TMIGR_NONE) != (g.active == 0) ||
		    (g.migrator != TMIGR_NONE &&
		     (!(g.migrator & g.active) ||
		      (g.migrator & (g.migrator - 1))))) {
			snprintf(why, len, "group %u: migrator %#x active %#x",
				 id, g.migrator, g.active);
			return -1;
		}
		if (g.num_children > TMIGR_CHILDS_PER_GROUP) {
			snprintf(why, len, "group %u: %u children", id,
				 g.num_children);
			return -1;
		}
	}
	return 0;
}

void tm_assert_invariants(void)
{
	char why[128];

	if (tm_check_invariants(why, sizeof(why)))
		ck_abort_msg("invariant: %s", why);
}

void tm_assert_clean(void)
{
	tm_assert_invariants();
	ck_assert_uint_eq(host_warn_hits, 0);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/timer/test_tmigr_isolated.c - isolcpus= CPUs in the pull
 * hierarchy (timer/timer_migration_isolated.c): never active in a group,
 * so never a migrator; never expire other CPUs' timers; their own global
 * timers pulled by housekeeping CPUs through the hierarchy.
 *
 * Topology: 9 CPUs on one node, so CPUs 0-7 share a level-0 group and
 * CPU 8 is alone in its own; CPU 0, the boot CPU that prepares the
 * others, and CPU 8 are isolated.
 */
#include <stdint.h>

#include "tests/host/registry.h"
#include "tests/host/timer/tmigr_util.h"
#include "timer_env.h"

static struct tmigr_group_view gview(unsigned int id)
{
	struct tmigr_group_view v;

	ck_assert(tmigr_group_get(id, &v));
	return v;
}

static struct timer_cpu_stats stats(unsigned int cpu)
{
	struct timer_cpu_stats st;

	timer_get_stats(cpu, &st);
	return st;
}

/* 9 CPUs, CPUs 0 and 8 isolated, all prepared by CPU 0 and busy. */
static void setup9(void)
{
	tm_env(9);
	host_cpu_isolated[0] = host_cpu_isolated[8] = true;
	tm_start(1, 1000);
	tm_bringup_all();
	tm_assert_invariants();
}

START_TEST(isolated_cpus_are_never_active_nor_migrator)
{
	struct tmigr_cpu_view c0, c8;
	struct tmigr_group_view g0, g8, root;

	setup9();
	ck_assert(tmigr_cpu_get(0, &c0));
	ck_assert(tmigr_cpu_get(8, &c8));
	ck_assert(c0.isolated && c8.isolated);
	g0 = gview(tm_group_of(0));
	g8 = gview(tm_group_of(8));
	root = gview((unsigned int)tm_root());
	ck_assert_uint_eq(g0.active & c0.childmask, 0);
	ck_assert_uint_ne(g0.migrator, c0.childmask);
	/* CPU 8's group has only an isolated CPU: idle for good. */
	ck_assert_uint_eq(g8.active, 0);
	ck_assert_uint_eq(g8.migrator, TMIGR_NONE);
	ck_assert_uint_eq(root.active, g0.childmask);
	/* CPUs 1-7 idle: CPU 0 runs but the hierarchy is idle. */
	for (unsigned int cpu = 1; cpu < 8; cpu++)
		tm_idle(cpu);
	ck_assert_uint_eq(gview(tm_group_of(0)).active, 0);
	ck_assert_uint_eq(gview((unsigned int)tm_root()).active, 0);
	ck_assert(!tm_requires_remote(0));
	tm_assert_clean();
}
END_TEST

/* The only CPU of its group is isolated: a busy CPU elsewhere pulls. */
START_TEST(isolated_cpus_timer_is_pulled_by_a_housekeeping_cpu)
{
	struct tm_rec r;

	setup9();
	tm_rec_arm(&r, 8, 0, 1010);
	ck_assert_uint_eq(tm_idle(8), TMIGR_NONE_NS);
	/* Level 0 rounds up a jiffy, as Linux's wheel does. */
	ck_assert_uint_eq(gview((unsigned int)tm_root()).next_expiry,
			  tm_ns(1011));
	tm_advance_to(1012);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_at, 1011);
	ck_assert_uint_ne(r.fired_cpu, 8);
	ck_assert_uint_ne(r.fired_cpu, 0);
	ck_assert_uint_eq(tm_cpus[8].wakes, 0);
	ck_assert_uint_eq(stats(8).pulled_for, 1);
	ck_assert_uint_eq(stats(8).expired_remote, 0);
	ck_assert_uint_eq(stats(0).expired_remote, 0);
	tm_assert_clean();
}
END_TEST

/*
 * The busy isolated CPU 0 never expires an idle CPU's timer: CPU 1, the
 * last housekeeping CPU to go idle, wakes for it (or CPU 8's event, on
 * its own when nobody is active).
 */
START_TEST(busy_isolated_cpu_never_expires_other_cpus_timers)
{
	struct tm_rec r1, r8;

	setup9();
	tm_rec_arm(&r1, 2, 0, 1010);
	tm_rec_arm(&r8, 8, 0, 1020);
	tm_idle(8);
	for (unsigned int cpu = 7; cpu >= 1; cpu--)
		tm_idle(cpu);
	/* CPU 1 went idle last: it arms for the first event, CPU 2's. */
	ck_assert_uint_eq(tm_cpus[1].wake_ns, tm_ns(1011));
	tm_advance_to(1030);
	ck_assert_uint_eq(r1.fired, 1);
	ck_assert_uint_eq(r8.fired, 1);
	ck_assert_uint_ne(r1.fired_cpu, 0);
	ck_assert_uint_ne(r8.fired_cpu, 0);
	ck_assert_uint_eq(stats(0).expired_remote, 0);
	ck_assert_uint_eq(stats(8).expired_remote, 0);
	ck_assert_uint_eq(stats(8).pulled_for, 1);
	tm_assert_clean();
}
END_TEST

/* Nobody active: the isolated CPU wakes for its own event only. */
START_TEST(isolated_cpu_wakes_for_its_own_event_when_all_idle)
{
	struct tm_rec r1, r8;

	setup9();
	for (unsigned int cpu = 1; cpu < 8; cpu++)
		tm_idle(cpu);
	tm_idle(0);
	/* CPU 1's later timer, armed while it is idle (as a remote arm). */
	tm_rec_arm(&r1, 1, 0, 1050);
	tm_idle(1);
	tm_rec_arm(&r8, 8, 0, 1010);
	ck_assert_uint_eq(tm_idle(8), tm_ns(1011));
	ck_assert_uint_eq(tm_cpus[8].wake_ns, tm_ns(1011));
	tm_advance_to(1012);
	ck_assert_uint_eq(r8.fired, 1);
	ck_assert_uint_eq(r8.fired_cpu, 8);
	ck_assert_uint_eq(r1.fired, 0);
	/* Back in idle it does not wake for CPU 1's event. */
	ck_assert_uint_eq(tm_cpus[8].wake_ns, TMIGR_NONE_NS);
	tm_advance_to(1060);
	ck_assert_uint_eq(r1.fired, 1);
	ck_assert_uint_ne(r1.fired_cpu, 8);
	ck_assert_uint_eq(stats(8).expired_remote, 0);
	ck_assert_uint_eq(stats(0).expired_remote, 0);
	tm_assert_clean();
}
END_TEST

/* Leaving idle, the isolated CPU takes its event back out of the queues. */
START_TEST(isolated_cpu_leaving_idle_takes_its_event_back)
{
	struct tm_rec r;

	setup9();
	tm_rec_arm(&r, 8, 0, 1100);
	tm_idle(8);
	ck_assert_uint_eq(gview((unsigned int)tm_root()).next_expiry,
			  tm_ns(1104));
	tm_wake(8);
	ck_assert_uint_eq(gview(tm_group_of(8)).next_expiry, TMIGR_NONE_NS);
	ck_assert_uint_eq(gview((unsigned int)tm_root()).next_expiry,
			  TMIGR_NONE_NS);
	tm_advance_to(1110);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_cpu, 8);
	ck_assert_uint_eq(stats(8).pulled_for, 0);
	tm_assert_clean();
}
END_TEST

/* A node of isolated CPUs only: the other node's busy CPU pulls. */
START_TEST(isolated_node_is_served_across_nodes)
{
	struct tm_rec r;
	unsigned int cpu;

	tm_env(16);
	for (cpu = 0; cpu < 16; cpu++) {
		host_cpu_node[cpu] = cpu % 2;
		host_cpu_isolated[cpu] = cpu % 2 == 1;
	}
	tm_start(2, 1000);
	tm_bringup_all();
	tm_assert_invariants();
	for (cpu = 2; cpu < 16; cpu++)
		tm_idle(cpu);
	tm_rec_arm(&r, 5, 0, 1010);
	tm_idle(5);
	tm_advance_to(1012);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_cpu, 0);
	ck_assert_uint_eq(stats(5).pulled_for, 1);
	for (cpu = 1; cpu < 16; cpu += 2)
		ck_assert_uint_eq(stats(cpu).expired_remote, 0);
	tm_assert_clean();
}
END_TEST

static void teardown(void)
{
	tm_teardown();
}

static Suite *tmigr_isolated_suite(void)
{
	Suite *s = suite_create("tmigr_isolated");
	TCase *tc = tcase_create("isolcpus");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, isolated_cpus_are_never_active_nor_migrator);
	tcase_add_test(tc, isolated_cpus_timer_is_pulled_by_a_housekeeping_cpu);
	tcase_add_test(tc, busy_isolated_cpu_never_expires_other_cpus_timers);
	tcase_add_test(tc, isolated_cpu_wakes_for_its_own_event_when_all_idle);
	tcase_add_test(tc, isolated_cpu_leaving_idle_takes_its_event_back);
	tcase_add_test(tc, isolated_node_is_served_across_nodes);
	suite_add_tcase(s, tc);
	return s;
}

HOST_SUITE(tmigr_isolated_suite);

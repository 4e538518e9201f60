// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/timer/test_tmigr_setup_fail.c - hierarchy setup when memory
 * runs out (mainline 2024, "timers/migration: Prevent out of bounds access
 * on failure").
 *
 * Every allocation of a full setup is failed in turn: tmigr_init()'s and
 * each group's.  Each failure must return -ENOMEM, leave the CPUs already
 * in the hierarchy working (a global timer of an idle one is still pulled
 * by a busy one), leave no partial groups, and a retry must end in the
 * same hierarchy as a run without failures, from the same number of
 * blocks (nothing taken twice, nothing lost).  ASan watches the unwind.
 */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "lib/errno.h"
#include "tests/host/registry.h"
#include "tests/host/timer/tmigr_util.h"
#include "timer_env.h"

#define J0 1000

struct snap_group {
	unsigned int level, node, num_children;
	int parent;
	uint8_t childmask;
};
struct snap_cpu {
	int group;
	uint8_t childmask;
};
/* The hierarchy's structure, and the blocks it took. */
struct snap {
	unsigned int groups;
	unsigned long blocks;
	struct snap_group g[HOST_MAX_CPUS * 2];
	struct snap_cpu c[HOST_MAX_CPUS];
};
static struct snap ref, now;

static void take_snap(struct snap *s)
{
	struct tmigr_group_view g;
	struct tmigr_cpu_view c;
	struct tmigr_shape shape;
	unsigned int id, cpu;

	tmigr_get_shape(&shape);
	s->groups = shape.groups;
	s->blocks = host_alloc_live;
	for (id = 0; id < shape.groups; id++) {
		ck_assert(tmigr_group_get(id, &g));
		s->g[id] = (struct snap_group){ g.level, g.node, g.num_children,
						g.parent, g.childmask };
	}
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		ck_assert(tmigr_cpu_get(cpu, &c));
		s->c[cpu] = (struct snap_cpu){ c.group, c.childmask };
	}
}

static void assert_same_structure(const struct snap *a, const struct snap *b)
{
	ck_assert_uint_eq(a->groups, b->groups);
	ck_assert_mem_eq(a->g, b->g, a->groups * sizeof(a->g[0]));
	ck_assert_mem_eq(a->c, b->c, nr_cpu_ids * sizeof(a->c[0]));
}

/* Nodes interleaved: no node's CPUs are contiguous. */
static void env(unsigned int ncpus, unsigned int nnodes)
{
	unsigned int cpu;

	tm_env(ncpus);
	for (cpu = 0; cpu < ncpus; cpu++)
		host_cpu_node[cpu] = cpu % nnodes;
	host_nr_nodes = nnodes;
	tm_start_wheel(J0);
}

/*
 * CPU @cpu's prepare just failed: the hierarchy is what it was before
 * (@before), and an idle CPU's global timer is still expired by a busy
 * one, without waking it.
 */
static void check_after_failure(unsigned int cpu, const struct snap *before,
				bool use)
{
	struct tmigr_cpu_view c;
	struct tmigr_shape shape;
	uint64_t j = timer_env_jiffies();
	unsigned int v = cpu - 1;
	struct tm_rec r;

	tmigr_get_shape(&shape);
	ck_assert_uint_eq(shape.groups, before->groups);
	ck_assert(tmigr_cpu_get(cpu, &c));
	ck_assert_int_eq(c.group, -1);
	if (!use)
		return;
	take_snap(&now);
	assert_same_structure(before, &now);
	tm_assert_invariants();
	if (cpu < 2)
		return;
	tm_rec_arm(&r, v, 0, j + 2);
	tm_idle(v);
	ck_assert(tm_cpus[v].idle);
	tm_advance_to(j + 3);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_ne(r.fired_cpu, v);
	ck_assert_uint_eq(tm_cpus[v].wakes, 0);
	tm_wake(v);
	tm_assert_invariants();
}

/* Failures after which the whole hierarchy was checked. */
static unsigned long checked;

/*
 * tmigr_init() and every CPU's prepare and online, retrying each call that
 * fails with -ENOMEM; @use_every: after a failure of every that many
 * CPUs' prepare (0: none), check the whole structure unchanged and the
 * running hierarchy still serving timers.  Returns the failures seen.
 */
static unsigned long bring_up(unsigned int nnodes, unsigned int use_every)
{
	static struct snap before;
	unsigned long failures = 0;
	unsigned int cpu;
	int ret;

	while ((ret = tmigr_init(nr_cpu_ids, nnodes)) == -ENOMEM) {
		struct tmigr_shape shape;

		failures++;
		tmigr_get_shape(&shape);
		ck_assert_uint_eq(shape.levels, 0);
		ck_assert_uint_eq(host_alloc_live, 0);
	}
	ck_assert_int_eq(ret, 0);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		/* A snapshot is O(CPUs): only every @use_every-th CPU's. */
		bool use = use_every && cpu % use_every == 0;
		struct tmigr_shape shape;

		tmigr_get_shape(&shape);
		before.groups = shape.groups;
		if (use)
			take_snap(&before);
		while ((ret = tmigr_cpu_prepare(cpu)) == -ENOMEM) {
			failures++;
			checked += use;
			check_after_failure(cpu, &before, use);
		}
		ck_assert_int_eq(ret, 0);
		tm_online(cpu);
	}
	tm_assert_clean();
	return failures;
}

/* The structure and block count of a run without failures. */
static unsigned long reference(unsigned int ncpus, unsigned int nnodes)
{
	unsigned long calls;

	env(ncpus, nnodes);
	ck_assert_uint_eq(bring_up(nnodes, 0), 0);
	take_snap(&ref);
	calls = host_alloc_calls;
	ck_assert_uint_eq(ref.blocks, calls);
	return calls;
}

/* Fail allocation number k of a fresh setup, for every k. */
static void fail_each_in_turn(unsigned int ncpus, unsigned int nnodes)
{
	unsigned long calls = reference(ncpus, nnodes), k;

	for (k = 1; k <= calls; k++) {
		env(ncpus, nnodes);
		host_alloc_fail_at = k;
		ck_assert_uint_eq(bring_up(nnodes, 1), 1);
		ck_assert_uint_eq(host_alloc_failed, 1);
		take_snap(&now);
		assert_same_structure(&ref, &now);
		ck_assert_uint_eq(now.blocks, ref.blocks);
	}
}

/* Every allocation fails once, on its first try, in one setup. */
static void fail_each_once(unsigned int ncpus, unsigned int nnodes,
			   unsigned int use_every)
{
	unsigned long calls = reference(ncpus, nnodes);

	env(ncpus, nnodes);
	host_alloc_fail_toggle = true;
	checked = 0;
	ck_assert_uint_eq(bring_up(nnodes, use_every), calls);
	ck_assert_uint_gt(checked, 0);
	take_snap(&now);
	assert_same_structure(&ref, &now);
	ck_assert_uint_eq(now.blocks, ref.blocks);
}

START_TEST(setup_fails_cleanly_at_1_cpu)
{
	fail_each_in_turn(1, 1);
	fail_each_once(1, 1, 1);
}
END_TEST

START_TEST(setup_fails_cleanly_at_9_cpus)
{
	fail_each_in_turn(9, 1);
	fail_each_in_turn(9, 2);
	fail_each_once(9, 2, 1);
}
END_TEST

START_TEST(setup_fails_cleanly_at_64_cpus)
{
	fail_each_in_turn(64, 1);
	fail_each_in_turn(64, 3);
	fail_each_once(64, 3, 1);
}
END_TEST

/* Each allocation once; the whole hierarchy checked at every 40th CPU. */
START_TEST(setup_fails_cleanly_at_4096_cpus)
{
	fail_each_once(4096, 1, 40);
	fail_each_once(4096, 7, 40);
}
END_TEST

/* SMT: a failure after level 0 must not count the CPU's core there. */
START_TEST(setup_failure_keeps_smt_core_counts)
{
	unsigned int ncpus = 18, cpu;

	tm_env(ncpus);
	for (cpu = 0; cpu < ncpus; cpu++)
		host_cpu_core[cpu] = cpu / 2;
	tm_start_wheel(J0);
	ck_assert_uint_eq(bring_up(1, 0), 0);
	take_snap(&ref);

	tm_env(ncpus);
	for (cpu = 0; cpu < ncpus; cpu++)
		host_cpu_core[cpu] = cpu / 2;
	tm_start_wheel(J0);
	host_alloc_fail_toggle = true;
	ck_assert_uint_gt(bring_up(1, 1), 0);
	take_snap(&now);
	assert_same_structure(&ref, &now);
}
END_TEST

static void teardown(void)
{
	tm_teardown();
}

static Suite *tmigr_setup_fail_suite(void)
{
	Suite *s = suite_create("tmigr_setup_fail");
	TCase *tc = tcase_create("enomem");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, setup_fails_cleanly_at_1_cpu);
	tcase_add_test(tc, setup_fails_cleanly_at_9_cpus);
	tcase_add_test(tc, setup_fails_cleanly_at_64_cpus);
	tcase_add_test(tc, setup_fails_cleanly_at_4096_cpus);
	tcase_add_test(tc, setup_failure_keeps_smt_core_counts);
	suite_add_tcase(s, tc);
	return s;
}

HOST_SUITE(tmigr_setup_fail_suite);

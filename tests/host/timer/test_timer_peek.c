// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/timer/test_timer_peek.c - the lockless views a watchdog dump
 * reads (timer/timer_peek.h): they show the bases' and the hierarchy's
 * state, and they answer while the locks they would need are held.
 */
#include <stdint.h>

#include "tests/host/registry.h"
#include "tests/host/timer/tmigr_util.h"
#include "timer/timer_internal.h"
#include "timer/timer_migration_internal.h"
#include "timer/timer_peek.h"
#include "timer_env.h"

static void teardown(void)
{
	tm_teardown();
}

/* A level-0 bucket expires at the timer's jiffy or one after it. */
static void assert_bucket_of(uint64_t next_expiry, uint64_t expires)
{
	ck_assert_uint_ge(next_expiry, expires);
	ck_assert_uint_le(next_expiry, expires + 1);
}

START_TEST(base_peek_shows_each_base_first_expiry)
{
	struct tm_rec pinned, global, def;
	struct timer_base_peek v;

	tm_setup(4, 1, 1000);
	tm_bringup_all();
	tm_rec_arm(&pinned, 3, TIMER_PINNED, 1050);
	tm_rec_arm(&global, 3, 0, 1020);
	tm_rec_arm(&def, 3, TIMER_DEFERRABLE, 1007);

	ck_assert(timer_base_peek(3, TIMER_PEEK_LOCAL, &v));
	ck_assert(v.pending && !v.locked && !v.offline);
	assert_bucket_of(v.next_expiry, 1050);
	ck_assert_uint_eq(v.clk, 1000);
	ck_assert(timer_base_peek(3, TIMER_PEEK_GLOBAL, &v));
	assert_bucket_of(v.next_expiry, 1020);
	ck_assert(timer_base_peek(3, TIMER_PEEK_DEF, &v));
	assert_bucket_of(v.next_expiry, 1007);
	ck_assert(timer_base_peek(2, TIMER_PEEK_LOCAL, &v));
	ck_assert(!v.pending);

	ck_assert(!timer_base_peek(4, TIMER_PEEK_LOCAL, &v));
	ck_assert(!timer_base_peek(0, TIMER_PEEK_NR_BASES, &v));
	ck_assert_str_eq(timer_peek_base_name(TIMER_PEEK_GLOBAL), "global");
	ck_assert_str_eq(timer_peek_base_name(7), "?");
}
END_TEST

/* The point of the views: a held lock is reported, not waited for. */
START_TEST(peeks_answer_while_the_locks_are_held)
{
	struct tmigr_group_peek path[TMIGR_MAX_LEVELS];
	struct timer_base_peek v;
	struct tmigr_cpu_peek c;
	struct tmigr_group *g;

	tm_setup(16, 2, 1000);
	tm_bringup_all();
	g = tmigr_cpus[9].tmgroup;
	spin_lock(&cpu_base(9, BASE_GLOBAL)->lock);
	spin_lock(&tmigr_cpus[9].lock);
	spin_lock(&g->lock);

	ck_assert(timer_base_peek(9, TIMER_PEEK_GLOBAL, &v));
	ck_assert(v.locked);
	ck_assert(tmigr_cpu_peek(9, &c));
	ck_assert(c.locked && c.online && !c.idle);
	ck_assert_uint_ge(tmigr_cpu_path_peek(9, path, TMIGR_MAX_LEVELS), 1);
	ck_assert(path[0].locked);

	spin_unlock(&g->lock);
	spin_unlock(&tmigr_cpus[9].lock);
	spin_unlock(&cpu_base(9, BASE_GLOBAL)->lock);
	ck_assert(timer_base_peek(9, TIMER_PEEK_GLOBAL, &v));
	ck_assert(!v.locked);
}
END_TEST

/*
 * With one CPU busy, every group on its path has it (through its child
 * group) as the migrator; an idle CPU elsewhere sees its group inactive.
 */
START_TEST(path_peek_shows_the_migrator_chain)
{
	struct tmigr_group_peek path[TMIGR_MAX_LEVELS], other[TMIGR_MAX_LEVELS];
	struct tmigr_shape shape;
	struct tmigr_cpu_peek c;
	unsigned int cpu, n, l;

	tm_setup(24, 1, 1000);
	tm_bringup_all();
	for (cpu = 0; cpu < 24; cpu++)
		if (cpu != 13)
			tm_deactivate(cpu, TMIGR_NONE_NS);
	tmigr_get_shape(&shape);
	n = tmigr_cpu_path_peek(13, path, TMIGR_MAX_LEVELS);
	ck_assert_uint_eq(n, shape.levels);
	ck_assert_uint_eq(path[0].id, tm_group_of(13));
	ck_assert_uint_eq(path[0].level, 0);
	ck_assert(tmigr_cpu_peek(13, &c));
	ck_assert_uint_eq(path[0].migrator, c.childmask);
	ck_assert_uint_eq(path[0].active, c.childmask);
	for (l = 1; l < n; l++) {
		ck_assert_uint_eq(path[l].level, l);
		ck_assert_uint_eq(path[l].migrator, path[l - 1].childmask);
	}
	ck_assert_uint_eq(path[n - 1].childmask, 0); /* the root */

	ck_assert_uint_ne(tm_group_of(0), tm_group_of(13));
	ck_assert_uint_eq(tmigr_cpu_path_peek(0, other, 1), 1);
	ck_assert_uint_eq(other[0].active, 0);
	ck_assert_uint_eq(other[0].migrator, TMIGR_NONE);
	ck_assert(tmigr_cpu_peek(0, &c) && c.idle);
	ck_assert(!tmigr_cpu_peek(24, &c));
	ck_assert_uint_eq(tmigr_cpu_path_peek(24, path, TMIGR_MAX_LEVELS), 0);
}
END_TEST

static Suite *timer_peek_suite(void)
{
	Suite *s = suite_create("timer_peek");
	TCase *tc = tcase_create("peek");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, base_peek_shows_each_base_first_expiry);
	tcase_add_test(tc, peeks_answer_while_the_locks_are_held);
	tcase_add_test(tc, path_peek_shows_the_migrator_chain);
	suite_add_tcase(s, tc);
	return s;
}

HOST_SUITE(timer_peek_suite);

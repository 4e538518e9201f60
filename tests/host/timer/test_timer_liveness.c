// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/timer/test_timer_liveness.c - one expiry pass does bounded
 * work.
 *
 * A callback that takes longer than a jiffy and re-arms itself for the
 * next jiffy must not keep __run_timers() going for ever: in the guest
 * that was a hang (every CPU's callback waiting on a lock whose next
 * ticket belonged to a vCPU the host had descheduled, each callback
 * outlasting a jiffy, the boot CPU never leaving its softirq).  A pass
 * expires what was due when it began; the rest is the next pass's.
 */
#include <stdint.h>
#include <stdlib.h>

#include "tests/host/registry.h"
#include "timer/timer.h"
#include "timer_env.h"

/* Far more than one pass may run: without the bound, the pass runs them all. */
#define SLOW_REARMS 1000

struct slow {
	struct timer_list t; /* first: the callback casts back */
	unsigned int runs;
};

static void *storage;

/* Asks for the next jiffy (due two later), then takes three. */
static void slow_cb(struct timer_list *t)
{
	struct slow *s = (struct slow *)t;

	s->runs++;
	if (s->runs < SLOW_REARMS)
		mod_timer(t, timer_env_jiffies() + 1);
	host_set_jiffies(timer_env_jiffies() + 3);
}

static void setup(unsigned int ncpus)
{
	host_env_reset(ncpus);
	host_set_jiffies(1000);
	storage = calloc(1, timer_bases_size(ncpus));
	ck_assert_ptr_nonnull(storage);
	ck_assert_int_eq(timer_init(storage, ncpus, 250), 0);
}

static void teardown(void)
{
	free(storage);
	storage = NULL;
}

START_TEST(slow_self_rearming_callback_runs_once_per_pass)
{
	struct slow s = { .runs = 0 };

	setup(1);
	timer_setup(&s.t, slow_cb, TIMER_PINNED);
	mod_timer(&s.t, 1001);
	host_set_jiffies(1002); /* level 0 rounds up by one */
	run_timer_softirq();
	ck_assert_uint_eq(s.runs, 1);
	ck_assert(timer_pending(&s.t));
	/* The next pass, a tick later, takes the next one: nothing is lost. */
	host_set_jiffies(timer_env_jiffies() + 2);
	run_timer_softirq();
	ck_assert_uint_eq(s.runs, 2);
	timer_delete_sync(&s.t);
	ck_assert_uint_eq(host_warn_hits, 0);
}
END_TEST

START_TEST(slow_remote_expiry_runs_once_per_pass)
{
	struct slow s = { .runs = 0 };

	setup(2);
	timer_setup(&s.t, slow_cb, 0);
	host_set_cpu(1);
	mod_timer(&s.t, 1001);
	host_set_cpu(0);
	host_set_jiffies(1002); /* level 0 rounds up by one */
	timer_expire_remote(1);
	ck_assert_uint_eq(s.runs, 1);
	host_set_jiffies(timer_env_jiffies() + 2);
	timer_expire_remote(1);
	ck_assert_uint_eq(s.runs, 2);
	timer_delete_sync(&s.t);
}
END_TEST

static Suite *timer_liveness_suite(void)
{
	Suite *s = suite_create("timer_liveness");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, slow_self_rearming_callback_runs_once_per_pass);
	tcase_add_test(tc, slow_remote_expiry_runs_once_per_pass);
	suite_add_tcase(s, tc);
	return s;
}
HOST_SUITE(timer_liveness_suite)

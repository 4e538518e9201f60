// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/timer/test_tracepoints.c - the tracepoints of timer/.
 *
 * The host's timer_env_trace() counts the events whose bit is set in
 * host_trace_mask.  One walk through bring-up, idle, a remote expiry,
 * a cancel, a wake-up and offline must hit every event timer/ defines,
 * including tmigr_cpu_offline; with the mask clear, no tracepoint may
 * record.
 */
#include <stdint.h>

#include "tests/host/registry.h"
#include "tests/host/timer/tmigr_util.h"
#include "timer_env.h"

/* The events whose tracepoints live in timer/. */
static const unsigned int timer_events[] = {
	TRACE_tmigr_group_set,
	TRACE_tmigr_connect_child_parent,
	TRACE_tmigr_connect_cpu_parent,
	TRACE_tmigr_group_set_cpu_inactive,
	TRACE_tmigr_group_set_cpu_active,
	TRACE_tmigr_cpu_new_timer,
	TRACE_tmigr_cpu_active,
	TRACE_tmigr_cpu_online,
	TRACE_tmigr_cpu_offline,
	TRACE_tmigr_handle_remote_cpu,
	TRACE_tmigr_cpu_idle,
	TRACE_tmigr_update_events,
	TRACE_tmigr_handle_remote,
	TRACE_timer_start,
	TRACE_timer_expire_entry,
	TRACE_timer_expire_exit,
	TRACE_timer_cancel,
};

#define NTIMER_EVENTS (sizeof(timer_events) / sizeof(timer_events[0]))

static void teardown(void)
{
	tm_teardown();
}

/* Everything a tracepoint can be reached by, on 10 CPUs in 2 groups. */
static void walk(void)
{
	struct tm_rec a, b, c;

	tm_bringup_all();
	tm_rec_arm(&a, 1, 0, 1100);
	tm_idle(1); /* cpu_idle, set_cpu_inactive */
	ck_assert(tm_cpus[1].idle);
	tm_rec_arm(&b, 1, 0, 1050); /* earlier, while idle */
	tm_idle(1);		    /* cpu_new_timer */
	tm_advance_to(1060);	    /* pulled by CPU 0 */
	ck_assert_uint_eq(b.fired, 1);
	ck_assert_uint_eq(b.fired_cpu, 0);
	tm_rec_arm(&c, 0, 0, 1200);
	ck_assert_int_eq(timer_delete(&c.t), 1); /* timer_cancel */
	tm_wake(1);				 /* cpu_active */
	host_set_cpu(9);
	ck_assert_int_eq(tmigr_cpu_offline(), 0);
	host_set_cpu(0);
	timer_delete(&a.t);
	tm_assert_invariants();
}

START_TEST(every_timer_event_fires)
{
	tm_setup(10, 1, 1000);
	host_trace_mask = TRACE_ALL_MASK;
	walk();
	for (unsigned int i = 0; i < NTIMER_EVENTS; i++)
		ck_assert_msg(host_trace_hits[timer_events[i]] > 0,
			      "event %u (lib/trace_events.h) never fired",
			      timer_events[i]);
	/* The rest are the kernel's (tick, idle, IPIs), not timer/'s. */
	for (unsigned int i = 0; i < TRACE_NR_EVENTS; i++) {
		bool ours = false;

		for (unsigned int k = 0; k < NTIMER_EVENTS; k++)
			ours |= timer_events[k] == i;
		if (!ours)
			ck_assert_uint_eq(host_trace_hits[i], 0);
	}
	ck_assert_uint_eq(host_warn_hits, 0);
}
END_TEST

/* Only the events asked for, and with the mask clear nothing at all. */
START_TEST(disabled_events_record_nothing)
{
	tm_setup(10, 1, 1000);
	host_trace_mask = TRACE_BIT(TRACE_timer_cancel);
	walk();
	for (unsigned int i = 0; i < TRACE_NR_EVENTS; i++)
		if (i != TRACE_timer_cancel)
			ck_assert_uint_eq(host_trace_hits[i], 0);
	ck_assert_uint_gt(host_trace_hits[TRACE_timer_cancel], 0);
	tm_teardown();

	tm_setup(10, 1, 1000);
	walk();
	for (unsigned int i = 0; i < TRACE_NR_EVENTS; i++)
		ck_assert_uint_eq(host_trace_hits[i], 0);
}
END_TEST

static Suite *tracepoints_suite(void)
{
	Suite *s = suite_create("tracepoints");
	TCase *tc = tcase_create("timer");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, every_timer_event_fires);
	tcase_add_test(tc, disabled_events_record_nothing);
	suite_add_tcase(s, tc);
	return s;
}

HOST_SUITE(tracepoints_suite);

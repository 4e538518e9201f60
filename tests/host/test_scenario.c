// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/test_scenario.c - kernel/scenario_opts.c.
 */
#include <string.h>

#include "tests/host/registry.h"
#include "kernel/scenario_opts.h"

static struct scenario_opts o;
static char err[200];

static int parse(const char *s)
{
	memset(&o, 0x5a, sizeof(o));
	err[0] = 0;
	return scenario_parse(s, &o, err, sizeof(err));
}

START_TEST(test_none_and_defaults)
{
	ck_assert_int_eq(parse(""), 0);
	ck_assert_int_eq(o.kind, SCENARIO_NONE);
	ck_assert_int_eq(parse("one_busy"), 0);
	ck_assert_int_eq(o.kind, SCENARIO_ONE_BUSY);
	ck_assert_uint_eq(o.period_ms, 10);
	ck_assert_uint_eq(o.duration_ms, 1000);
	ck_assert_uint_eq(o.nbusy, 0);
	ck_assert_str_eq(scenario_name(SCENARIO_BUSY_PER_NODE),
			 "busy_per_node");
}
END_TEST

START_TEST(test_keys_and_busy_lists)
{
	ck_assert_int_eq(parse("busy_per_node,period_ms=4,duration_ms=250"), 0);
	ck_assert_int_eq(o.kind, SCENARIO_BUSY_PER_NODE);
	ck_assert_uint_eq(o.period_ms, 4);
	ck_assert_uint_eq(o.duration_ms, 250);
	/* A word without '=' continues busy='s list; ranges expand. */
	ck_assert_int_eq(parse("one_busy,busy=0,3,5-6,period_ms=2"), 0);
	ck_assert_uint_eq(o.nbusy, 4);
	ck_assert_uint_eq(o.busy[0], 0);
	ck_assert_uint_eq(o.busy[1], 3);
	ck_assert_uint_eq(o.busy[2], 5);
	ck_assert_uint_eq(o.busy[3], 6);
	ck_assert_uint_eq(o.period_ms, 2);
}
END_TEST

START_TEST(test_errors)
{
	ck_assert_int_eq(parse("ping"), -22);
	ck_assert_str_eq(err, "scenario: unknown scenario 'ping' (known: "
			      "one_busy, all_idle, busy_per_node, mixed)");
	ck_assert_int_eq(parse("one_busy,speed=3"), -22);
	ck_assert_str_eq(err,
			 "scenario: unknown key 'speed' (expected "
			 "period_ms=, duration_ms=, busy=, hotplug=, seed=, "
			 "close_late_ms=)");
	ck_assert_int_eq(parse("one_busy,3"), -22);
	ck_assert_str_eq(err, "scenario: '3' is not key=value");
	ck_assert_int_eq(parse("one_busy,period_ms=3,4"), -22);
	ck_assert_int_eq(parse("one_busy,period_ms=0"), -22);
	ck_assert_str_eq(err, "scenario: bad value '0' for period_ms "
			      "(expected 1..3600000)");
	ck_assert_int_eq(parse("one_busy,duration_ms=x"), -22);
	ck_assert_int_eq(parse("one_busy,busy=3-1"), -22);
	ck_assert_int_eq(parse("one_busy,busy=0-99"), -22); /* > 64 */
	ck_assert_int_eq(parse("all_idle,busy=1"), -22);
	ck_assert_str_eq(err, "scenario: all_idle takes no busy= CPUs");
	/* No buffer: still an error, no crash. */
	ck_assert_int_eq(scenario_parse("nope", &o, NULL, 0), -22);
}
END_TEST

START_TEST(test_hotplug_entries)
{
	/* Words without '=' continue hotplug='s list; kept sorted by time. */
	ck_assert_int_eq(parse("one_busy,hotplug=3@200,5@100,3@400,"
			       "duration_ms=500"),
			 0);
	ck_assert_uint_eq(o.nhotplug, 3);
	ck_assert_uint_eq(o.hotplug[0].cpu, 5);
	ck_assert_uint_eq(o.hotplug[0].at_ms, 100);
	ck_assert_uint_eq(o.hotplug[1].cpu, 3);
	ck_assert_uint_eq(o.hotplug[1].at_ms, 200);
	ck_assert_uint_eq(o.hotplug[2].at_ms, 400);
	/* Same time: in the order given. */
	ck_assert_int_eq(parse("one_busy,hotplug=2@10,1@10"), 0);
	ck_assert_uint_eq(o.hotplug[0].cpu, 2);
	ck_assert_uint_eq(o.hotplug[1].cpu, 1);
	ck_assert_int_eq(parse("one_busy"), 0);
	ck_assert_uint_eq(o.nhotplug, 0);
}
END_TEST

START_TEST(test_hotplug_errors)
{
	ck_assert_int_eq(parse("one_busy,hotplug=3"), -22);
	ck_assert_str_eq(err, "scenario: bad hotplug= entry '3' (expected "
			      "CPU@MS, MS 0..3600000)");
	ck_assert_int_eq(parse("one_busy,hotplug=@5"), -22);
	ck_assert_int_eq(parse("one_busy,hotplug=1@"), -22);
	ck_assert_int_eq(parse("one_busy,hotplug=1@x"), -22);
	ck_assert_int_eq(parse("one_busy,hotplug=1@3600001"), -22);
	ck_assert_int_eq(parse("one_busy,hotplug=1@1000"), -22);
	ck_assert_str_eq(err, "scenario: hotplug= entry 1@1000 is not before "
			      "duration_ms=1000");
	ck_assert_int_eq(parse("all_idle,hotplug=1@10"), -22);
	ck_assert_str_eq(err,
			 "scenario: all_idle takes no hotplug= (the boot "
			 "CPU, which runs the hotplug events, must be busy)");
}
END_TEST

START_TEST(test_mixed_seed)
{
	ck_assert_int_eq(parse("mixed"), 0);
	ck_assert_int_eq(o.kind, SCENARIO_MIXED);
	ck_assert_uint_eq(o.seed, 1);
	ck_assert_int_eq(parse("mixed,seed=0,duration_ms=300"), 0);
	ck_assert_uint_eq(o.seed, 0);
	ck_assert_uint_eq(o.duration_ms, 300);
	ck_assert_int_eq(parse("mixed,seed=4294967295"), 0);
	ck_assert_uint_eq(o.seed, 4294967295u);
	ck_assert_int_eq(parse("mixed,seed=-1"), -22);
	ck_assert_str_eq(err, "scenario: bad seed '-1' (expected an unsigned "
			      "number)");
	ck_assert_int_eq(parse("mixed,busy=1"), -22);
	ck_assert_str_eq(err, "scenario: mixed takes no busy= or hotplug= (its "
			      "CPUs go busy and idle at random)");
	ck_assert_int_eq(parse("mixed,hotplug=1@10"), -22);
	ck_assert_str_eq(scenario_name(SCENARIO_MIXED), "mixed");
}
END_TEST

static Suite *scenario_suite(void)
{
	Suite *s = suite_create("scenario_opts");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_none_and_defaults);
	tcase_add_test(tc, test_keys_and_busy_lists);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_hotplug_entries);
	tcase_add_test(tc, test_hotplug_errors);
	tcase_add_test(tc, test_mixed_seed);
	suite_add_tcase(s, tc);
	return s;
}
HOST_SUITE(scenario_suite);

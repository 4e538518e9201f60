// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/test_cmdline.c - kernel/cmdline.c.
 */
#include <stdio.h>
#include <string.h>

#include "tests/host/registry.h"
#include "kernel/cmdline.h"
#include "lib/trace_events.h"

static struct boot_options opts;
static char err[256];

static int parse(const char *line)
{
	memset(&opts, 0x5a, sizeof(opts)); /* defaults must be filled */
	memset(err, 'E', sizeof(err) - 1);
	err[sizeof(err) - 1] = '\0';
	return cmdline_parse(line, &opts, err, sizeof(err));
}

static void assert_defaults(const struct boot_options *o)
{
	ck_assert_str_eq(o->selftest, "all");
	ck_assert_int_eq(o->timer_model, TIMER_MODEL_PULL);
	ck_assert_int_eq(o->tmigr_wake, TMIGR_WAKE_DEFAULT);
	ck_assert_uint_eq(o->hz, 250);
	ck_assert(o->nohz);
	ck_assert(o->timer_migration);
	ck_assert_uint_eq(o->clockevent, CLOCKEVENT_AUTO);
	ck_assert_str_eq(o->scenario, "");
	ck_assert_str_eq(o->trace, "");
	ck_assert_uint_eq(o->trace_mask, 0);
	ck_assert_uint_eq(o->trace_buf, 64 * 1024);
	ck_assert_uint_eq(o->expect_cpus, 0);
	ck_assert_uint_eq(o->expect_nodes, 0);
	ck_assert_uint_eq(o->torture_seed, 1);
	ck_assert_uint_eq(o->torture_ms, 3000);
	ck_assert_uint_eq(o->watchdog_s, 20);
}

/* Expect failure with exactly @msg in err. */
#define BAD(line, msg)                             \
	do {                                       \
		ck_assert_int_eq(parse(line), -1); \
		ck_assert_str_eq(err, msg);        \
	} while (0)

START_TEST(test_defaults)
{
	struct boot_options d;

	ck_assert_int_eq(parse(NULL), 0);
	assert_defaults(&opts);
	ck_assert_str_eq(err, "");
	ck_assert_int_eq(parse(""), 0);
	assert_defaults(&opts);
	ck_assert_int_eq(parse("   \t \r\n "), 0);
	assert_defaults(&opts);
	cmdline_defaults(&d);
	assert_defaults(&d);
}
END_TEST

START_TEST(test_every_option)
{
	ck_assert_int_eq(parse("selftest=pmm,timer timer_model=push hz=1000 "
			       "nohz=off scenario=ping trace=ipi_send,tick_* "
			       "expect_cpus=4 expect_nodes=2"),
			 0);
	ck_assert_str_eq(err, "");
	ck_assert_str_eq(opts.selftest, "pmm,timer");
	ck_assert_int_eq(opts.timer_model, TIMER_MODEL_PUSH);
	ck_assert_uint_eq(opts.hz, 1000);
	ck_assert(!opts.nohz);
	ck_assert_str_eq(opts.scenario, "ping");
	ck_assert_str_eq(opts.trace, "ipi_send,tick_*");
	ck_assert_uint_eq(opts.trace_mask,
			  TRACE_BIT(TRACE_ipi_send) |
				  TRACE_BIT(TRACE_tick_stop) |
				  TRACE_BIT(TRACE_tick_restart));
	ck_assert_uint_eq(opts.expect_cpus, 4);
	ck_assert_uint_eq(opts.expect_nodes, 2);

	ck_assert_int_eq(parse("timer_model=local hz=100 selftest=none"), 0);
	ck_assert_int_eq(opts.timer_model, TIMER_MODEL_LOCAL);
	ck_assert_uint_eq(opts.hz, 100);
	ck_assert_str_eq(opts.selftest, "none");
	ck_assert_int_eq(parse("tmigr_wake=linux"), 0);
	ck_assert_int_eq(opts.tmigr_wake, TMIGR_WAKE_LINUX);
	ck_assert_int_eq(parse("tmigr_wake=one"), 0);
	ck_assert_int_eq(opts.tmigr_wake, TMIGR_WAKE_ONE);
	ck_assert_int_eq(parse("tmigr_wake=own"), 0);
	ck_assert_int_eq(opts.tmigr_wake, TMIGR_WAKE_OWN);
	ck_assert_int_eq(parse("timer_model=pull hz=250 nohz=yes"), 0);
	ck_assert_int_eq(opts.timer_model, TIMER_MODEL_PULL);
	ck_assert_uint_eq(opts.hz, 250);
	ck_assert(opts.nohz);
	ck_assert_int_eq(parse("timer_migration=off"), 0);
	ck_assert(!opts.timer_migration);
	ck_assert_int_eq(parse("timer_migration=1"), 0);
	ck_assert(opts.timer_migration);
	ck_assert_int_eq(parse("expect_cpus=0x10"), 0);
	ck_assert_uint_eq(opts.expect_cpus, 16);
	ck_assert_int_eq(parse("clockevent=deadline"), 0);
	ck_assert_uint_eq(opts.clockevent, CLOCKEVENT_DEADLINE);
	ck_assert_int_eq(parse("clockevent=oneshot"), 0);
	ck_assert_uint_eq(opts.clockevent, CLOCKEVENT_ONESHOT);
	ck_assert_int_eq(parse("clockevent=tsc"), -1);
	ck_assert_int_eq(parse("isolcpus=0,3-5"), 0);
	ck_assert_str_eq(opts.isolcpus, "0,3-5");
	ck_assert_int_eq(parse("isolcpus=5-3"), -1);
	ck_assert_int_eq(parse("isolcpus=x"), -1);
	ck_assert_int_eq(parse("trace=all"), 0);
	ck_assert_uint_eq(opts.trace_mask, TRACE_ALL_MASK);
	ck_assert_int_eq(parse("trace=all trace=none"), 0);
	ck_assert_uint_eq(opts.trace_mask, 0);
	ck_assert_str_eq(opts.trace, "none");
	ck_assert_int_eq(parse("trace_buf=4096"), 0);
	ck_assert_uint_eq(opts.trace_buf, 4096);
	ck_assert_int_eq(parse("trace_buf=1K"), 0);
	ck_assert_uint_eq(opts.trace_buf, 1024);
	ck_assert_int_eq(parse("trace_buf=256k"), 0);
	ck_assert_uint_eq(opts.trace_buf, 256 * 1024);
	ck_assert_int_eq(parse("trace_buf=64M"), 0);
	ck_assert_uint_eq(opts.trace_buf, 64u << 20);
	ck_assert_int_eq(parse("trace_buf=2m"), 0);
	ck_assert_uint_eq(opts.trace_buf, 2u << 20);
}
END_TEST

START_TEST(test_trace_errors)
{
	BAD("trace=bogus", "cmdline: bad value 'bogus' for trace "
			   "(expected all|none|EVENT[,EVENT...])");
	BAD("trace=timer_start,,ipi_send",
	    "cmdline: bad value "
	    "'timer_start,,ipi_send' for trace "
	    "(expected all|none|EVENT[,EVENT...])");
	BAD("trace_buf=12Q", "cmdline: bad value '12Q' for trace_buf "
			     "(expected SIZE[K|M])");
	BAD("trace_buf=1023", "cmdline: bad value '1023' for trace_buf "
			      "(expected SIZE[K|M])");
	BAD("trace_buf=0K", "cmdline: bad value '0K' for trace_buf "
			    "(expected SIZE[K|M])");
	BAD("trace_buf=65M", "cmdline: bad value '65M' for trace_buf "
			     "(expected SIZE[K|M])");
	BAD("trace_buf=K", "cmdline: bad value 'K' for trace_buf "
			   "(expected SIZE[K|M])");
	BAD("trace_buf=", "cmdline: bad value '' for trace_buf "
			  "(expected SIZE[K|M])");
	BAD("trace_buf=4294967296", "cmdline: bad value '4294967296' for "
				    "trace_buf (expected SIZE[K|M])");
	BAD("trace_buf=4194304K", "cmdline: bad value '4194304K' for "
				  "trace_buf (expected SIZE[K|M])");
}
END_TEST

START_TEST(test_syntax)
{
	ck_assert_int_eq(parse("  hz=100\t\tnohz=0   scenario=a=b  "), 0);
	ck_assert_uint_eq(opts.hz, 100);
	ck_assert(!opts.nohz);
	ck_assert_str_eq(opts.scenario, "a=b"); /* split at first '=' */
	/* last one wins */
	ck_assert_int_eq(parse("hz=100 hz=1000 selftest=a selftest=b"), 0);
	ck_assert_uint_eq(opts.hz, 1000);
	ck_assert_str_eq(opts.selftest, "b");
	/* bare nohz means on */
	ck_assert_int_eq(parse("nohz=off nohz"), 0);
	ck_assert(opts.nohz);
	/* empty string options clear */
	ck_assert_int_eq(parse("scenario=x scenario= trace="), 0);
	ck_assert_str_eq(opts.scenario, "");
	ck_assert_str_eq(opts.trace, "");
	ck_assert_uint_eq(opts.trace_mask, 0);
}
END_TEST

START_TEST(test_unknown)
{
	BAD("foo", "cmdline: unknown option 'foo'");
	BAD("hz=100 foo=bar", "cmdline: unknown option 'foo'");
	ck_assert_uint_eq(opts.hz, 100); /* parsed up to the error */
	BAD("=5", "cmdline: unknown option ''");
	BAD("HZ=100", "cmdline: unknown option 'HZ'");
	BAD("hzz=100", "cmdline: unknown option 'hzz'");
	BAD("h=100", "cmdline: unknown option 'h'");
	BAD("/boot/kernel.elf hz=100",
	    "cmdline: unknown option '/boot/kernel.elf'");
}
END_TEST

START_TEST(test_bad_values)
{
	BAD("timer_model=bogus", "cmdline: bad value 'bogus' for timer_model "
				 "(expected pull|push|local)");
	BAD("timer_model=", "cmdline: bad value '' for timer_model "
			    "(expected pull|push|local)");
	BAD("timer_model=PUSH", "cmdline: bad value 'PUSH' for timer_model "
				"(expected pull|push|local)");
	BAD("tmigr_wake=bogus", "cmdline: bad value 'bogus' for tmigr_wake "
				"(expected one|linux|own)");
	BAD("tmigr_wake=", "cmdline: bad value '' for tmigr_wake "
			   "(expected one|linux|own)");
	BAD("hz=300", "cmdline: bad value '300' for hz "
		      "(expected 100|250|1000)");
	BAD("hz=abc", "cmdline: bad value 'abc' for hz "
		      "(expected 100|250|1000)");
	BAD("hz=99999999999999999999",
	    "cmdline: bad value "
	    "'99999999999999999999' for hz (expected 100|250|1000)");
	BAD("nohz=maybe", "cmdline: bad value 'maybe' for nohz "
			  "(expected on|off)");
	BAD("expect_cpus=0", "cmdline: bad value '0' for expect_cpus "
			     "(expected N)");
	BAD("expect_nodes=-1", "cmdline: bad value '-1' for expect_nodes "
			       "(expected N)");
	BAD("selftest=", "cmdline: bad value '' for selftest "
			 "(expected all|none|NAME[,NAME...])");
	BAD("torture_ms=0", "cmdline: bad value '0' for torture_ms "
			    "(expected 1..3600000)");
	BAD("torture_ms=3600001", "cmdline: bad value '3600001' for "
				  "torture_ms (expected 1..3600000)");
	BAD("watchdog=3601", "cmdline: bad value '3601' for watchdog "
			     "(expected off|0..3600)");
	BAD("watchdog=on", "cmdline: bad value 'on' for watchdog "
			   "(expected off|0..3600)");
	BAD("torture_seed=0x", "cmdline: bad value '0x' for torture_seed "
			       "(expected N)");
	BAD("hz", "cmdline: option hz needs a value "
		  "(expected hz=100|250|1000)");
	BAD("selftest", "cmdline: option selftest needs a value "
			"(expected selftest=all|none|NAME[,NAME...])");
}
END_TEST

START_TEST(test_torture_options)
{
	ck_assert_int_eq(parse("torture_seed=0xffffffffffffffff "
			       "torture_ms=3600000"),
			 0);
	ck_assert_uint_eq(opts.torture_seed, UINT64_MAX);
	ck_assert_uint_eq(opts.torture_ms, 3600000);
	ck_assert_int_eq(parse("torture_seed=0 torture_ms=1"), 0);
	ck_assert_uint_eq(opts.torture_seed, 0);
	ck_assert_uint_eq(opts.torture_ms, 1);
}
END_TEST

START_TEST(test_watchdog_option)
{
	ck_assert_int_eq(parse("watchdog=3600"), 0);
	ck_assert_uint_eq(opts.watchdog_s, 3600);
	ck_assert_int_eq(parse("watchdog=5 watchdog=off"), 0);
	ck_assert_uint_eq(opts.watchdog_s, 0);
	ck_assert_int_eq(parse("watchdog=0"), 0);
	ck_assert_uint_eq(opts.watchdog_s, 0);
}
END_TEST

START_TEST(test_string_length)
{
	char line[300];
	char val[200];

	memset(val, 'a', sizeof(val));
	val[CMDLINE_STR_MAX - 1] = '\0'; /* 127 chars: fits */
	snprintf(line, sizeof(line), "scenario=%s", val);
	ck_assert_int_eq(parse(line), 0);
	ck_assert_str_eq(opts.scenario, val);

	val[CMDLINE_STR_MAX - 1] = 'a';
	val[CMDLINE_STR_MAX] = '\0'; /* 128 chars: too long */
	snprintf(line, sizeof(line), "scenario=%s", val);
	ck_assert_int_eq(parse(line), -1);
	ck_assert_ptr_nonnull(strstr(err, "for scenario"));
	ck_assert_str_eq(opts.scenario, "");
}
END_TEST

START_TEST(test_err_buffer)
{
	char small[16];

	ck_assert_int_eq(cmdline_parse("foo", &opts, NULL, 0), -1);
	ck_assert_int_eq(cmdline_parse("foo", &opts, small, 0), -1);
	ck_assert_int_eq(cmdline_parse("foo", &opts, small, sizeof(small)), -1);
	ck_assert_str_eq(small, "cmdline: unknow");
	ck_assert_int_eq(cmdline_parse("hz=100", &opts, small, sizeof(small)),
			 0);
	ck_assert_str_eq(small, "");
}
END_TEST

START_TEST(test_timer_model_name)
{
	ck_assert_str_eq(timer_model_name(TIMER_MODEL_PULL), "pull");
	ck_assert_str_eq(timer_model_name(TIMER_MODEL_PUSH), "push");
	ck_assert_str_eq(timer_model_name(TIMER_MODEL_LOCAL), "local");
	ck_assert_str_eq(timer_model_name((enum timer_model)3), "?");
	ck_assert_str_eq(timer_model_name((enum timer_model) - 1), "?");
	ck_assert_str_eq(tmigr_wake_name(TMIGR_WAKE_ONE), "one");
	ck_assert_str_eq(tmigr_wake_name(TMIGR_WAKE_LINUX), "linux");
	ck_assert_str_eq(tmigr_wake_name(TMIGR_WAKE_OWN), "own");
	ck_assert_str_eq(tmigr_wake_name(NR_TMIGR_WAKE), "?");
}
END_TEST

struct help_acc {
	int lines;
	char seen[1024];
};

static void help_line(const char *line, void *arg)
{
	struct help_acc *h = arg;
	const char *eq = strchr(line, '=');
	const char *gap;

	h->lines++;
	ck_assert_msg(strncmp(line, "  ", 2) == 0 && line[2] != ' ', "'%s'",
		      line);
	ck_assert_ptr_nonnull(eq);
	gap = strstr(eq, "  ");
	ck_assert_ptr_nonnull(gap);
	ck_assert_msg(strlen(gap + 2) > 0, "no help text: '%s'", line);
	ck_assert(strchr(line, '\n') == NULL);
	strncat(h->seen, line + 2, (size_t)(eq - line - 2));
	strcat(h->seen, " ");
}

START_TEST(test_help)
{
	struct help_acc h = { 0, "" };

	cmdline_help(help_line, &h);
	ck_assert_int_eq(h.lines, 22);
	ck_assert_str_eq(h.seen,
			 "selftest timer_model tmigr_wake hz nohz "
			 "timer_migration clockevent "
			 "scenario trace trace_buf isolcpus expect_cpus "
			 "expect_nodes torture_seed torture_ms cpuhp.parallel "
			 "cpu_init_udelay fault_test ap_late_test "
			 "ap_report_delay_test tsc_sync_stall_test watchdog ");
}
END_TEST

START_TEST(test_bringup_options)
{
	struct boot_options o;
	char err[160];

	ck_assert_int_eq(cmdline_parse("", &o, err, sizeof(err)), 0);
	ck_assert(o.cpuhp_parallel);
	ck_assert_uint_eq(o.cpu_init_udelay, CPU_INIT_UDELAY_AUTO);
	ck_assert_uint_eq(o.fault_test, FAULT_TEST_NONE);
	ck_assert_int_eq(cmdline_parse("cpuhp.parallel=0 cpu_init_udelay=10000 "
				       "fault_test=allcpus",
				       &o, err, sizeof(err)),
			 0);
	ck_assert(!o.cpuhp_parallel);
	ck_assert_uint_eq(o.cpu_init_udelay, 10000);
	ck_assert_uint_eq(o.fault_test, FAULT_TEST_ALLCPUS);
	ck_assert_int_eq(
		cmdline_parse("cpu_init_udelay=0", &o, err, sizeof(err)), 0);
	ck_assert_uint_eq(o.cpu_init_udelay, 0);
	ck_assert_int_ne(cmdline_parse("cpu_init_udelay=100001", &o, err,
				       sizeof(err)),
			 0);
	ck_assert_int_ne(
		cmdline_parse("cpuhp.parallel=2", &o, err, sizeof(err)), 0);
	ck_assert_int_ne(cmdline_parse("fault_test=some", &o, err, sizeof(err)),
			 0);
	ck_assert_int_eq(cmdline_parse("ap_late_test=3", &o, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(o.ap_late_test, 3);
	ck_assert_int_ne(cmdline_parse("ap_late_test=0", &o, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(o.tsc_sync_stall_test, 0);
	ck_assert_uint_eq(o.ap_report_delay_test, 0);
	ck_assert_int_eq(cmdline_parse("ap_report_delay_test=1000", &o, err,
				       sizeof(err)),
			 0);
	ck_assert_uint_eq(o.ap_report_delay_test, 1000);
	ck_assert_int_ne(cmdline_parse("ap_report_delay_test=1001", &o, err,
				       sizeof(err)),
			 0);
	ck_assert_int_eq(cmdline_parse("tsc_sync_stall_test=100000", &o, err,
				       sizeof(err)),
			 0);
	ck_assert_uint_eq(o.tsc_sync_stall_test, 100000);
	ck_assert_int_ne(cmdline_parse("tsc_sync_stall_test=100001", &o, err,
				       sizeof(err)),
			 0);
}
END_TEST

static Suite *cmdline_suite(void)
{
	Suite *s = suite_create("cmdline");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_every_option);
	tcase_add_test(tc, test_syntax);
	tcase_add_test(tc, test_unknown);
	tcase_add_test(tc, test_bad_values);
	tcase_add_test(tc, test_torture_options);
	tcase_add_test(tc, test_trace_errors);
	tcase_add_test(tc, test_string_length);
	tcase_add_test(tc, test_err_buffer);
	tcase_add_test(tc, test_timer_model_name);
	tcase_add_test(tc, test_help);
	tcase_add_test(tc, test_bringup_options);
	tcase_add_test(tc, test_watchdog_option);
	suite_add_tcase(s, tc);
	return s;
}
HOST_SUITE(cmdline_suite);

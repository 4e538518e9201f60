// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/test_parse.c - lib/parse.c.
 */
#include <stdint.h>
#include <string.h>

#include "tests/host/registry.h"
#include "lib/parse.h"

static int u64(const char *s, uint64_t *out)
{
	return parse_u64(s, strlen(s), out);
}

START_TEST(test_u64_ok)
{
	uint64_t v;

	ck_assert_int_eq(u64("0", &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(u64("123", &v), 0);
	ck_assert_uint_eq(v, 123);
	ck_assert_int_eq(u64("010", &v), 0);
	ck_assert_uint_eq(v, 10);
	ck_assert_int_eq(u64("0x1f", &v), 0);
	ck_assert_uint_eq(v, 0x1f);
	ck_assert_int_eq(u64("0XaBcD", &v), 0);
	ck_assert_uint_eq(v, 0xabcd);
	ck_assert_int_eq(u64("18446744073709551615", &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	ck_assert_int_eq(u64("0xffffffffffffffff", &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	ck_assert_int_eq(u64("0x0000000000000000001", &v), 0);
	ck_assert_uint_eq(v, 1);
	/* length-delimited: only the first 3 bytes */
	ck_assert_int_eq(parse_u64("123456", 3, &v), 0);
	ck_assert_uint_eq(v, 123);
}
END_TEST

START_TEST(test_u64_errors)
{
	static const char *const bad[] = {
		"",   "0x", "0X", "x1",	  "12a", "-1",
		"+1", " 1", "1 ", "0x1g", "1.5", "0b101",
	};
	uint64_t v = 77;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(u64(bad[i], &v) == -EINVAL, "'%s'", bad[i]);
	ck_assert_int_eq(u64("18446744073709551616", &v), -ERANGE);
	ck_assert_int_eq(u64("99999999999999999999999", &v), -ERANGE);
	ck_assert_int_eq(u64("0x10000000000000000", &v), -ERANGE);
	ck_assert_uint_eq(v, 77); /* untouched on error */
	ck_assert_int_eq(parse_u64("12\0"
				   "3",
				   4, &v),
			 -EINVAL);
}
END_TEST

START_TEST(test_uint)
{
	unsigned int v = 5;

	ck_assert_int_eq(parse_uint("4294967295", 10, &v), 0);
	ck_assert_uint_eq(v, 4294967295u);
	ck_assert_int_eq(parse_uint("4294967296", 10, &v), -ERANGE);
	ck_assert_int_eq(parse_uint("0x100000000", 11, &v), -ERANGE);
	ck_assert_int_eq(parse_uint("abc", 3, &v), -EINVAL);
	ck_assert_uint_eq(v, 4294967295u);
}
END_TEST

START_TEST(test_bool)
{
	static const char *const yes[] = { "1",	 "on",	"yes", "true",
					   "ON", "Yes", "TRUE" };
	static const char *const no[] = { "0",	 "off", "no",	"false",
					  "OFF", "No",	"False" };
	static const char *const bad[] = { "",	    "2",   "o", "onn",
					   "of",    "y",   "n", "yess",
					   "truee", " on", "01" };
	bool b;
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		b = false;
		ck_assert_int_eq(parse_bool(yes[i], strlen(yes[i]), &b), 0);
		ck_assert_msg(b, "'%s'", yes[i]);
	}
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		b = true;
		ck_assert_int_eq(parse_bool(no[i], strlen(no[i]), &b), 0);
		ck_assert_msg(!b, "'%s'", no[i]);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		b = true;
		ck_assert_msg(parse_bool(bad[i], strlen(bad[i]), &b) == -EINVAL,
			      "'%s'", bad[i]);
		ck_assert(b);
	}
	ck_assert_int_eq(parse_bool("onward", 2, &b), 0); /* "on" */
	ck_assert(b);
}
END_TEST

struct cpuset {
	uint64_t mask;
	int calls;
};

static void set_cpu(unsigned int cpu, void *arg)
{
	struct cpuset *cs = arg;

	cs->mask |= 1ULL << cpu;
	cs->calls++;
}

static int cpulist(const char *s, unsigned int max, struct cpuset *cs)
{
	cs->mask = 0;
	cs->calls = 0;
	return parse_cpulist(s, strlen(s), set_cpu, cs, max);
}

START_TEST(test_cpulist_ok)
{
	struct cpuset cs;

	ck_assert_int_eq(cpulist("0-3,8,10-11", 64, &cs), 0);
	ck_assert_uint_eq(cs.mask, 0xf | (1 << 8) | (3 << 10));
	ck_assert_int_eq(cs.calls, 7);
	ck_assert_int_eq(cpulist("5", 64, &cs), 0);
	ck_assert_uint_eq(cs.mask, 1 << 5);
	ck_assert_int_eq(cpulist("7-7", 8, &cs), 0);
	ck_assert_uint_eq(cs.mask, 1 << 7);
	ck_assert_int_eq(cpulist("0-63", 64, &cs), 0);
	ck_assert_uint_eq(cs.mask, UINT64_MAX);
	ck_assert_int_eq(cpulist("1,1,0-1", 64, &cs), 0);
	ck_assert_uint_eq(cs.mask, 3);
	ck_assert_int_eq(cs.calls, 4); /* duplicates reported again */
	ck_assert_int_eq(cpulist("3,1", 64, &cs), 0);
	ck_assert_uint_eq(cs.mask, 0xa);
	cs.mask = 0;
	ck_assert_int_eq(parse_cpulist("0-3,junk", 3, set_cpu, &cs, 64), 0);
	ck_assert_uint_eq(cs.mask, 0xf);
}
END_TEST

START_TEST(test_cpulist_errors)
{
	static const char *const bad[] = {
		"",    ",",   "a",     "1,",  ",1",	 "1,,2",
		"1-",  "-1",  "1--2",  "1 2", " 1",	 "1 ",
		"3-1", "0x1", "1-2-3", "1;2", "0-3,8,x",
	};
	struct cpuset cs;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(cpulist(bad[i], 64, &cs) == -EINVAL, "'%s'",
			      bad[i]);
		ck_assert_msg(cs.calls == 0, "'%s' called set", bad[i]);
	}
	ck_assert_int_eq(cpulist("8", 8, &cs), -ERANGE);
	ck_assert_int_eq(cpulist("0-8", 8, &cs), -ERANGE);
	ck_assert_int_eq(cpulist("0,1,2,99", 8, &cs), -ERANGE);
	ck_assert_int_eq(cs.calls, 0); /* validated before any set() */
	ck_assert_int_eq(cpulist("0", 0, &cs), -ERANGE);
	ck_assert_int_eq(cpulist("99999999999999999999999", 8, &cs), -ERANGE);
}
END_TEST

static Suite *parse_suite(void)
{
	Suite *s = suite_create("parse");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_u64_ok);
	tcase_add_test(tc, test_u64_errors);
	tcase_add_test(tc, test_uint);
	tcase_add_test(tc, test_bool);
	tcase_add_test(tc, test_cpulist_ok);
	tcase_add_test(tc, test_cpulist_errors);
	suite_add_tcase(s, tc);
	return s;
}
HOST_SUITE(parse_suite);

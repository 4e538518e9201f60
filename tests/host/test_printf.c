// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/test_printf.c - lib/printf.c against fixed strings and glibc.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tests/host/registry.h"
#include "tests/host/kprintf_rename.h"
#include "lib/printf.h"
#undef snprintf
#undef vsnprintf

/* No format attribute: lets us feed deliberately odd formats. */
static int kfmt(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = k_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

/* Expect an exact string and return value. */
#define EXPECT(want, ...)                                   \
	do {                                                \
		char _b[512];                               \
		int _n = kfmt(_b, sizeof(_b), __VA_ARGS__); \
		ck_assert_str_eq(_b, want);                 \
		ck_assert_int_eq(_n, (int)strlen(want));    \
	} while (0)

/* Expect the same output and return value as glibc. */
#define SAME(...)                                                  \
	do {                                                       \
		char _k[512], _g[512];                             \
		int _kn = k_snprintf(_k, sizeof(_k), __VA_ARGS__); \
		int _gn = snprintf(_g, sizeof(_g), __VA_ARGS__);   \
		ck_assert_str_eq(_k, _g);                          \
		ck_assert_int_eq(_kn, _gn);                        \
	} while (0)

START_TEST(test_plain)
{
	EXPECT("", "");
	EXPECT("hello", "hello");
	EXPECT("100%", "100%%");
	EXPECT("a%b", "a%cb", '%');
	SAME("%d %i %u", 42, -42, 42u);
	SAME("%x %X %o", 0xbeefu, 0xbeefu, 0755u);
	SAME("[%c][%s]", 'z', "str");
}
END_TEST

START_TEST(test_int_limits)
{
	SAME("%d %d", INT_MIN, INT_MAX);
	SAME("%u %x", UINT_MAX, UINT_MAX);
	SAME("%ld %ld %lu", LONG_MIN, LONG_MAX, ULONG_MAX);
	SAME("%lld %lld %llu", LLONG_MIN, LLONG_MAX, ULLONG_MAX);
	SAME("%llx %llX %llo", ULLONG_MAX, 0x0123456789abcdefULL, ULLONG_MAX);
	SAME("%zu %zx %zd", SIZE_MAX, (size_t)0x1234, (ssize_t)-1);
	SAME("%jd %ju %td", INTMAX_MIN, UINTMAX_MAX, (ptrdiff_t)-7);
}
END_TEST

START_TEST(test_short_lengths)
{
	SAME("%hhd %hhd %hhu %hhx", 300, -129, -1, 0x1ff);
	SAME("%hd %hd %hu %hx", 70000, -32769, -1, 0x1ffff);
	EXPECT("44 127 255", "%hhd %hhd %hhu", 300, -129, -1);
	EXPECT("4464 65535", "%hd %hu", 70000, -1);
}
END_TEST

START_TEST(test_width_prec_flags)
{
	EXPECT("   42", "%5d", 42);
	EXPECT("42   |", "%-5d|", 42);
	EXPECT("00042", "%05d", 42);
	EXPECT("-0042", "%05d", -42);
	EXPECT("+42", "%+d", 42);
	EXPECT(" 42", "% d", 42);
	EXPECT("+42", "%+ d", 42);
	EXPECT("  007", "%5.3d", 7);
	EXPECT("  007", "%05.3d", 7); /* '0' ignored with precision */
	EXPECT("", "%.0d", 0);
	EXPECT("     ", "%5.0x", 0);
	EXPECT("0x1f", "%#x", 0x1f);
	EXPECT("0X1F", "%#X", 0x1f);
	EXPECT("0", "%#x", 0);
	EXPECT("0x0001f", "%#07x", 0x1f);
	EXPECT("017", "%#o", 017);
	EXPECT("0", "%#o", 0);
	EXPECT("0", "%#.0o", 0);
	EXPECT("00017", "%#.5o", 017);
	EXPECT("hel", "%.3s", "hello");
	EXPECT("  hel", "%5.3s", "hello");
	EXPECT("hel  |", "%-5.3s|", "hello");
	EXPECT("    x", "%5c", 'x');
	EXPECT("x    |", "%-5c|", 'x');
	EXPECT("1", "%.d", 1);
}
END_TEST

START_TEST(test_star)
{
	EXPECT("   42", "%*d", 5, 42);
	EXPECT("42   |", "%*d|", -5, 42); /* negative width: '-' flag */
	EXPECT("00042", "%.*d", 5, 42);
	EXPECT("42", "%.*d", -1, 42); /* negative prec: none */
	EXPECT("  abc", "%*.*s", 5, 3, "abcdef");
	SAME("%-*.*x|", 10, 4, 0xabu);
}
END_TEST

/* Cross-check a matrix of flags x width x precision x conversions. */
START_TEST(test_matrix_vs_glibc)
{
	static const char *const flags[] = {
		"", "-", "0", "+", " ", "#", "-+", "0#", "+ ", "-#0", "0+",
	};
	static const char *const widths[] = { "", "1", "6", "24" };
	static const char *const precs[] = { "", ".", ".0", ".1", ".4", ".22" };
	static const char convs[] = "diuxXo";
	static const long long vals[] = {
		0,
		1,
		-1,
		7,
		42,
		-42,
		255,
		4096,
		INT_MAX,
		INT_MIN,
		LLONG_MAX,
		LLONG_MIN,
		0x8000000000000000LL + 1,
	};
	size_t f, w, p, c, v;
	char fmt[32], k[128], g[128];
	int kn, gn;

	for (f = 0; f < sizeof(flags) / sizeof(flags[0]); f++)
		for (w = 0; w < sizeof(widths) / sizeof(widths[0]); w++)
			for (p = 0; p < sizeof(precs) / sizeof(precs[0]); p++)
				for (c = 0; c < sizeof(convs) - 1; c++)
					for (v = 0;
					     v < sizeof(vals) / sizeof(vals[0]);
					     v++) {
						snprintf(fmt, sizeof(fmt),
							 "%%%s%s%sll%c",
							 flags[f], widths[w],
							 precs[p], convs[c]);
						kn = kfmt(k, sizeof(k), fmt,
							  vals[v]);
						gn = snprintf(g, sizeof(g), fmt,
							      vals[v]);
						ck_assert_msg(
							strcmp(k, g) == 0 &&
								kn == gn,
							"fmt '%s' val %lld: got '%s'(%d) want '%s'(%d)",
							fmt, vals[v], k, kn, g,
							gn);
						/* Same with plain int where the value fits. */
						if (vals[v] < INT_MIN ||
						    vals[v] > INT_MAX)
							continue;
						snprintf(fmt, sizeof(fmt),
							 "%%%s%s%s%c", flags[f],
							 widths[w], precs[p],
							 convs[c]);
						kn = kfmt(k, sizeof(k), fmt,
							  (int)vals[v]);
						gn = snprintf(g, sizeof(g), fmt,
							      (int)vals[v]);
						ck_assert_msg(
							strcmp(k, g) == 0 &&
								kn == gn,
							"fmt '%s' val %d: got '%s'(%d) want '%s'(%d)",
							fmt, (int)vals[v], k,
							kn, g, gn);
					}
}
END_TEST

START_TEST(test_str_char_vs_glibc)
{
	static const char *const flags[] = { "", "-" };
	static const char *const widths[] = { "", "1", "3", "10" };
	static const char *const precs[] = { "", ".", ".0", ".2", ".9" };
	static const char *const strs[] = { "", "a", "hello", "hello world" };
	size_t f, w, p, s;
	char fmt[32], k[64], g[64];

	for (f = 0; f < 2; f++)
		for (w = 0; w < 4; w++)
			for (p = 0; p < 5; p++)
				for (s = 0; s < 4; s++) {
					snprintf(fmt, sizeof(fmt),
						 "|%%%s%s%ss|%%%s%sc|",
						 flags[f], widths[w], precs[p],
						 flags[f], widths[w]);
					ck_assert_int_eq(kfmt(k, sizeof(k), fmt,
							      strs[s], 'q'),
							 snprintf(g, sizeof(g),
								  fmt, strs[s],
								  'q'));
					ck_assert_msg(strcmp(k, g) == 0,
						      "fmt '%s': '%s' vs '%s'",
						      fmt, k, g);
				}
}
END_TEST

START_TEST(test_null_string)
{
	EXPECT("(null)", "%s", (char *)NULL);
	EXPECT("  (null)|", "%8s|", (char *)NULL);
	EXPECT("(null)  |", "%-8s|", (char *)NULL);
	EXPECT("(nu", "%.3s", (char *)NULL);
}
END_TEST

START_TEST(test_pointer)
{
	EXPECT("0x0000000000000000", "%p", (void *)NULL);
	EXPECT("0x00000000deadbeef", "%p", (void *)0xdeadbeefUL);
	EXPECT("0xffffffff80000000", "%p", (void *)0xffffffff80000000UL);
	EXPECT("  0x0000000000000001", "%20p", (void *)1);
	EXPECT("0x0000000000000001  |", "%-20p|", (void *)1);
	EXPECT("  0x0000000000000001", "%020p", (void *)1); /* 0 ignored */
	EXPECT("0x0000000000000001", "%#p", (void *)1);
}
END_TEST

START_TEST(test_unknown_conversion)
{
	EXPECT("%q", "%q");
	EXPECT("a%5qb", "a%5qb");
	EXPECT("%-08.3lq", "%-08.3lq");
	EXPECT("%n", "%n");
	EXPECT("abc%", "abc%");
	EXPECT("x%5", "x%5");
	EXPECT("%y 7", "%y %d", 7); /* does not consume an argument */
}
END_TEST

START_TEST(test_truncation)
{
	char buf[8];
	int n;

	memset(buf, 'X', sizeof(buf));
	n = k_snprintf(buf, 5, "hello world");
	ck_assert_int_eq(n, 11);
	ck_assert_str_eq(buf, "hell");
	ck_assert_int_eq(buf[5], 'X'); /* nothing past size written */

	n = k_snprintf(buf, 1, "%d", 12345);
	ck_assert_int_eq(n, 5);
	ck_assert_str_eq(buf, "");

	memset(buf, 'X', sizeof(buf));
	n = k_snprintf(buf, 0, "abc");
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(buf[0], 'X'); /* size 0: untouched */

	ck_assert_int_eq(k_snprintf(NULL, 0, "%s=%d", "key", -100), 8);

	n = k_snprintf(buf, sizeof(buf), "1234567");
	ck_assert_int_eq(n, 7);
	ck_assert_str_eq(buf, "1234567");
	n = k_snprintf(buf, sizeof(buf), "12345678");
	ck_assert_int_eq(n, 8);
	ck_assert_str_eq(buf, "1234567");
	n = k_snprintf(buf, sizeof(buf), "%10d", 1);
	ck_assert_int_eq(n, 10);
	ck_assert_str_eq(buf, "       ");
}
END_TEST

struct counter {
	int calls;
	char last;
};

static void count_out(char c, void *arg)
{
	struct counter *cnt = arg;

	cnt->calls++;
	cnt->last = c;
}

START_TEST(test_errfmt_optional_buffer)
{
	char buf[8];

	errfmt(NULL, 64, "acpi: %s", "ignored"); /* must not crash */
	memset(buf, 'x', sizeof(buf));
	errfmt(buf, 0, "no room");
	ck_assert_int_eq(buf[0], 'x');
	errfmt(buf, sizeof(buf), "err %d long", 12345);
	ck_assert_str_eq(buf, "err 123");
}
END_TEST

START_TEST(test_callback_core)
{
	struct counter cnt = { 0, 0 };
	int n;

	n = cbprintf(count_out, &cnt, "%s-%05d%c", "ab", 42, '!');
	ck_assert_int_eq(n, 9);
	ck_assert_int_eq(cnt.calls, 9);
	ck_assert_int_eq(cnt.last, '!');

	/* No buffer limit: every character reaches the callback. */
	cnt.calls = 0;
	n = cbprintf(count_out, &cnt, "%3000d", 7);
	ck_assert_int_eq(n, 3000);
	ck_assert_int_eq(cnt.calls, 3000);
	ck_assert_int_eq(cnt.last, '7');

	/* Widths are clamped to 4096 to bound runaway output. */
	cnt.calls = 0;
	n = cbprintf(count_out, &cnt, "%999999999d", 7);
	ck_assert_int_eq(n, 4096);
	ck_assert_int_eq(cnt.calls, 4096);
}
END_TEST

static Suite *printf_suite(void)
{
	Suite *s = suite_create("printf");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_plain);
	tcase_add_test(tc, test_int_limits);
	tcase_add_test(tc, test_short_lengths);
	tcase_add_test(tc, test_width_prec_flags);
	tcase_add_test(tc, test_star);
	tcase_add_test(tc, test_matrix_vs_glibc);
	tcase_add_test(tc, test_str_char_vs_glibc);
	tcase_add_test(tc, test_null_string);
	tcase_add_test(tc, test_pointer);
	tcase_add_test(tc, test_unknown_conversion);
	tcase_add_test(tc, test_truncation);
	tcase_add_test(tc, test_callback_core);
	tcase_add_test(tc, test_errfmt_optional_buffer);
	suite_add_tcase(s, tc);
	return s;
}
HOST_SUITE(printf_suite);

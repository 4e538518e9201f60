// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/test_string.c - lib/string.c (built as k_memcpy etc.).
 */
#include <string.h>

#include "tests/host/registry.h"
#include "tests/host/kstring_rename.h"
#include "lib/string.h"
#undef memset
#undef memcpy
#undef memmove
#undef memcmp
#undef strlen
#undef strnlen
#undef strcmp
#undef strncmp
#undef strchr
#undef strlcpy

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

START_TEST(test_memset)
{
	unsigned char buf[16];
	size_t i;

	memset(buf, 0xaa, sizeof(buf));
	ck_assert_ptr_eq(k_memset(buf + 2, 0x1ff, 10), buf + 2);
	for (i = 0; i < sizeof(buf); i++)
		ck_assert_uint_eq(buf[i], (i >= 2 && i < 12) ? 0xff : 0xaa);
	k_memset(buf, 0, 0);
	ck_assert_uint_eq(buf[0], 0xaa);
}
END_TEST

START_TEST(test_memcpy)
{
	char src[32] = "0123456789abcdefghijklmnopqrstu";
	char dst[32];

	memset(dst, 'X', sizeof(dst));
	ck_assert_ptr_eq(k_memcpy(dst, src, 10), dst);
	ck_assert_int_eq(memcmp(dst, src, 10), 0);
	ck_assert_int_eq(dst[10], 'X');
	k_memcpy(dst, src, 0);
	ck_assert_int_eq(dst[0], '0');
}
END_TEST

START_TEST(test_memmove)
{
	char buf[16];

	memcpy(buf, "0123456789", 11);
	ck_assert_ptr_eq(k_memmove(buf + 2, buf, 6), buf + 2);
	ck_assert_str_eq(buf, "0101234589");

	memcpy(buf, "0123456789", 11);
	ck_assert_ptr_eq(k_memmove(buf, buf + 3, 7), buf);
	ck_assert_str_eq(buf, "3456789789");

	memcpy(buf, "abc", 4);
	k_memmove(buf, buf, 3);
	k_memmove(buf + 1, buf, 0);
	ck_assert_str_eq(buf, "abc");
}
END_TEST

START_TEST(test_memcmp)
{
	ck_assert_int_eq(k_memcmp("abc", "abc", 3), 0);
	ck_assert_int_lt(k_memcmp("abc", "abd", 3), 0);
	ck_assert_int_gt(k_memcmp("abd", "abc", 3), 0);
	ck_assert_int_eq(k_memcmp("abX", "abY", 2), 0);
	ck_assert_int_eq(k_memcmp("a", "b", 0), 0);
	/* bytes compare as unsigned char */
	ck_assert_int_gt(k_memcmp("\x80", "\x01", 1), 0);
	ck_assert_int_eq(sign(k_memcmp("\xff", "\x00", 1)),
			 sign(memcmp("\xff", "\x00", 1)));
}
END_TEST

START_TEST(test_strlen)
{
	ck_assert_uint_eq(k_strlen(""), 0);
	ck_assert_uint_eq(k_strlen("hello"), 5);
	ck_assert_uint_eq(k_strnlen("hello", 3), 3);
	ck_assert_uint_eq(k_strnlen("hello", 5), 5);
	ck_assert_uint_eq(k_strnlen("hello", 99), 5);
	ck_assert_uint_eq(k_strnlen("hello", 0), 0);
	/* strnlen must not read past maxlen: unterminated buffer */
	{
		char raw[4] = { 'a', 'b', 'c', 'd' };

		ck_assert_uint_eq(k_strnlen(raw, sizeof(raw)), 4);
	}
}
END_TEST

START_TEST(test_strcmp)
{
	static const char *const s[] = {
		"", "a", "ab", "abc", "abd", "b", "\x80", "\x7f", "A",
	};
	size_t i, j;

	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		for (j = 0; j < sizeof(s) / sizeof(s[0]); j++) {
			ck_assert_int_eq(sign(k_strcmp(s[i], s[j])),
					 sign(strcmp(s[i], s[j])));
			ck_assert_int_eq(sign(k_strncmp(s[i], s[j], 1)),
					 sign(strncmp(s[i], s[j], 1)));
			ck_assert_int_eq(sign(k_strncmp(s[i], s[j], 10)),
					 sign(strncmp(s[i], s[j], 10)));
		}
	}
	ck_assert_int_eq(k_strncmp("abcX", "abcY", 3), 0);
	ck_assert_int_eq(k_strncmp("x", "y", 0), 0);
}
END_TEST

START_TEST(test_strchr)
{
	const char *s = "hello";

	ck_assert_ptr_eq(k_strchr(s, 'h'), s);
	ck_assert_ptr_eq(k_strchr(s, 'l'), s + 2);
	ck_assert_ptr_eq(k_strchr(s, 'o'), s + 4);
	ck_assert_ptr_eq(k_strchr(s, '\0'), s + 5);
	ck_assert_ptr_null(k_strchr(s, 'z'));
	ck_assert_ptr_eq(k_strchr("a\xe9", 0xe9), strchr("a\xe9", 0xe9));
}
END_TEST

START_TEST(test_strlcpy)
{
	char buf[6];

	ck_assert_uint_eq(k_strlcpy(buf, "abc", sizeof(buf)), 3);
	ck_assert_str_eq(buf, "abc");
	ck_assert_uint_eq(k_strlcpy(buf, "abcdefgh", sizeof(buf)), 8);
	ck_assert_str_eq(buf, "abcde");
	ck_assert_uint_eq(k_strlcpy(buf, "abcde", sizeof(buf)), 5);
	ck_assert_str_eq(buf, "abcde");
	ck_assert_uint_eq(k_strlcpy(buf, "", sizeof(buf)), 0);
	ck_assert_str_eq(buf, "");
	buf[0] = 'Q';
	ck_assert_uint_eq(k_strlcpy(buf, "xyz", 0), 3);
	ck_assert_int_eq(buf[0], 'Q');
	ck_assert_uint_eq(k_strlcpy(buf, "xyz", 1), 3);
	ck_assert_str_eq(buf, "");
}
END_TEST

static Suite *string_suite(void)
{
	Suite *s = suite_create("string");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_memset);
	tcase_add_test(tc, test_memcpy);
	tcase_add_test(tc, test_memmove);
	tcase_add_test(tc, test_memcmp);
	tcase_add_test(tc, test_strlen);
	tcase_add_test(tc, test_strcmp);
	tcase_add_test(tc, test_strchr);
	tcase_add_test(tc, test_strlcpy);
	suite_add_tcase(s, tc);
	return s;
}
HOST_SUITE(string_suite);

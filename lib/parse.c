// SPDX-License-Identifier: GPL-2.0
/*
 * lib/parse.c - small length-delimited parsers.
 */
#include "lib/parse.h"

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Accumulate digits of @base from s[0..len); needs at least one digit. */
static int parse_digits(const char *s, size_t len, unsigned int base,
			uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (len == 0)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		int d = digit_value(s[i]);

		if (d < 0 || (unsigned int)d >= base)
			return -EINVAL;
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			return -ERANGE;
		v = v * base + (uint64_t)d;
	}
	*out = v;
	return 0;
}

/**
 * parse_u64 - parse an unsigned 64-bit number
 * @s: input, decimal ("123") or hex with 0x/0X prefix ("0x1f")
 * @len: number of bytes of @s to parse (all must be consumed)
 * @out: result
 *
 * No sign, no whitespace, no octal: "010" is ten.
 *
 * Return: 0, -EINVAL for empty/malformed input, -ERANGE on overflow.
 */
int parse_u64(const char *s, size_t len, uint64_t *out)
{
	if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return parse_digits(s + 2, len - 2, 16, out);
	return parse_digits(s, len, 10, out);
}

/**
 * parse_uint - parse_u64() limited to the range of unsigned int
 * @s: input
 * @len: length of @s
 * @out: result
 *
 * Return: 0, -EINVAL for malformed input, -ERANGE if > UINT_MAX.
 */
int parse_uint(const char *s, size_t len, unsigned int *out)
{
	uint64_t v;
	int ret = parse_u64(s, len, &v);

	if (ret)
		return ret;
	if (v > (unsigned int)-1)
		return -ERANGE;
	*out = (unsigned int)v;
	return 0;
}

static char to_lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* Case-insensitive match of s[0..len) against the NUL-terminated @word. */
static bool word_eq(const char *s, size_t len, const char *word)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (!word[i] || to_lower(s[i]) != word[i])
			return false;
	}
	return word[i] == '\0';
}

/**
 * parse_bool - parse a boolean word
 * @s: one of on/off, 1/0, yes/no, true/false (case-insensitive)
 * @len: length of @s
 * @out: result
 *
 * Return: 0 or -EINVAL.
 */
int parse_bool(const char *s, size_t len, bool *out)
{
	static const char *const yes[] = { "1", "on", "yes", "true" };
	static const char *const no[] = { "0", "off", "no", "false" };
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (word_eq(s, len, yes[i])) {
			*out = true;
			return 0;
		}
		if (word_eq(s, len, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -EINVAL;
}

/* Parse a decimal CPU number at s[*pos..len), advancing *pos. */
static int cpulist_num(const char *s, size_t len, size_t *pos, unsigned int max,
		       unsigned int *out)
{
	size_t start = *pos;
	uint64_t v;
	int ret;

	while (*pos < len && s[*pos] >= '0' && s[*pos] <= '9')
		(*pos)++;
	ret = parse_digits(s + start, *pos - start, 10, &v);
	if (ret)
		return ret;
	if (v >= max)
		return -ERANGE;
	*out = (unsigned int)v;
	return 0;
}

/* Parse one "N" or "N-M" element at s[*pos..); returns its bounds. */
static int cpulist_elem(const char *s, size_t len, size_t *pos,
			unsigned int max, unsigned int *lo, unsigned int *hi)
{
	int ret = cpulist_num(s, len, pos, max, lo);

	if (ret)
		return ret;
	*hi = *lo;
	if (*pos < len && s[*pos] == '-') {
		(*pos)++;
		ret = cpulist_num(s, len, pos, max, hi);
		if (ret)
			return ret;
		if (*hi < *lo)
			return -EINVAL;
	}
	if (*pos < len && s[*pos] != ',')
		return -EINVAL;
	return 0;
}

/* One pass over the list; calls @set only when @set is non-NULL. */
static int cpulist_walk(const char *s, size_t len, cpulist_set_fn set,
			void *arg, unsigned int max)
{
	size_t pos = 0;

	if (len == 0)
		return -EINVAL;
	for (;;) {
		unsigned int lo, hi, cpu;
		int ret = cpulist_elem(s, len, &pos, max, &lo, &hi);

		if (ret)
			return ret;
		for (cpu = lo; set && cpu <= hi; cpu++)
			set(cpu, arg);
		if (pos == len)
			return 0;
		pos++; /* skip ',' ; a trailing comma fails in cpulist_num */
	}
}

/**
 * parse_cpulist - parse a CPU list such as "0-3,8,10-11"
 * @s: comma-separated decimal CPU numbers or inclusive ranges "lo-hi"
 * @len: length of @s
 * @set: called once per listed CPU (duplicates are reported again)
 * @arg: cookie for @set
 * @max: CPU numbers must be < @max
 *
 * The whole list is validated before @set is called at all, so on error
 * nothing has been reported.  Empty lists, empty elements, spaces, reversed
 * ranges and other junk are rejected.
 *
 * Return: 0, -EINVAL for malformed input, -ERANGE if a CPU is >= @max.
 */
int parse_cpulist(const char *s, size_t len, cpulist_set_fn set, void *arg,
		  unsigned int max)
{
	int ret = cpulist_walk(s, len, NULL, NULL, max);

	if (ret)
		return ret;
	return cpulist_walk(s, len, set, arg, max);
}

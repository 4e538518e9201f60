// SPDX-License-Identifier: GPL-2.0
/*
 * lib/string.c - freestanding string and memory routines.
 *
 * Simple byte-wise implementations; correctness over speed.  Build with
 * -fno-builtin (or -ffreestanding) so gcc does not turn the loops below
 * back into calls to the very functions being defined.
 */
#include "lib/string.h"

/**
 * memset - fill @n bytes at @s with the byte @c
 * @s: destination
 * @c: fill value (converted to unsigned char)
 * @n: number of bytes
 *
 * Return: @s.
 */
void *memset(void *s, int c, size_t n)
{
	unsigned char *p = s;

	while (n--)
		*p++ = (unsigned char)c;
	return s;
}

/**
 * memcpy - copy @n bytes from @src to @dst; regions must not overlap
 * @dst: destination
 * @src: source
 * @n: number of bytes
 *
 * Return: @dst.
 */
void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

/**
 * memmove - copy @n bytes from @src to @dst; regions may overlap
 * @dst: destination
 * @src: source
 * @n: number of bytes
 *
 * Return: @dst.
 */
void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d == s || n == 0)
		return dst;
	if (d < s) {
		while (n--)
			*d++ = *s++;
	} else {
		d += n;
		s += n;
		while (n--)
			*--d = *--s;
	}
	return dst;
}

/**
 * memcmp - compare @n bytes of @a and @b as unsigned char
 * @a: first buffer
 * @b: second buffer
 * @n: number of bytes
 *
 * Return: <0, 0 or >0 as @a sorts before, equal to or after @b.
 */
int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (; n; n--, p++, q++) {
		if (*p != *q)
			return *p - *q;
	}
	return 0;
}

/**
 * strlen - length of the NUL-terminated string @s
 * @s: string
 *
 * Return: number of bytes before the terminating NUL.
 */
size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

/**
 * strnlen - length of @s, but at most @maxlen
 * @s: string (need not be terminated within @maxlen bytes)
 * @maxlen: maximum number of bytes to examine
 *
 * Return: min(strlen(@s), @maxlen).
 */
size_t strnlen(const char *s, size_t maxlen)
{
	size_t n = 0;

	while (n < maxlen && s[n])
		n++;
	return n;
}

/**
 * strcmp - compare two strings as unsigned char
 * @a: first string
 * @b: second string
 *
 * Return: <0, 0 or >0 as @a sorts before, equal to or after @b.
 */
int strcmp(const char *a, const char *b)
{
	const unsigned char *p = (const unsigned char *)a;
	const unsigned char *q = (const unsigned char *)b;

	while (*p && *p == *q) {
		p++;
		q++;
	}
	return *p - *q;
}

/**
 * strncmp - compare at most @n bytes of two strings
 * @a: first string
 * @b: second string
 * @n: maximum number of bytes to compare
 *
 * Return: <0, 0 or >0 as @a sorts before, equal to or after @b.
 */
int strncmp(const char *a, const char *b, size_t n)
{
	const unsigned char *p = (const unsigned char *)a;
	const unsigned char *q = (const unsigned char *)b;

	for (; n; n--, p++, q++) {
		if (*p != *q)
			return *p - *q;
		if (!*p)
			break;
	}
	return 0;
}

/**
 * strchr - find the first occurrence of @c in @s
 * @s: string
 * @c: character (converted to char); NUL finds the terminator
 *
 * Return: pointer to the match, or NULL.
 */
char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

/**
 * strlcpy - copy @src into @dst of @size bytes, always NUL-terminating
 * @dst: destination buffer
 * @src: NUL-terminated source
 * @size: size of @dst; if 0 nothing is written
 *
 * Return: strlen(@src); a value >= @size means the copy was truncated.
 */
size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lib/string.h - freestanding string and memory routines.
 *
 * The standard names are used on purpose: gcc may emit calls to memcpy,
 * memset, memmove and memcmp even with -ffreestanding.  The host unit tests
 * compile lib/string.c with -include tests/host/kstring_rename.h, which
 * renames every function to k_<name> so it does not clash with libc.
 */
#ifndef LIB_STRING_H
#define LIB_STRING_H

#include <stddef.h>

void *memset(void *s, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t maxlen);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
size_t strlcpy(char *dst, const char *src, size_t size);

#endif /* LIB_STRING_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lib/parse.h - small length-delimited parsers (command line, ACPI, topology).
 *
 * All parsers take a (pointer, length) pair: the input need not be
 * NUL-terminated and parsing stops at @len (an embedded NUL is junk).
 * They return 0 on success or -EINVAL / -ERANGE (lib/errno.h); on error
 * *out is left untouched.
 */
#ifndef LIB_PARSE_H
#define LIB_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/errno.h"

int parse_u64(const char *s, size_t len, uint64_t *out);
int parse_uint(const char *s, size_t len, unsigned int *out);
int parse_bool(const char *s, size_t len, bool *out);

typedef void (*cpulist_set_fn)(unsigned int cpu, void *arg);

int parse_cpulist(const char *s, size_t len, cpulist_set_fn set, void *arg,
		  unsigned int max);

#endif /* LIB_PARSE_H */

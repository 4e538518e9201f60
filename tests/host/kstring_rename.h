/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/host/kstring_rename.h - rename lib/string.c symbols for host builds.
 *
 * Force-included (-include) when compiling lib/string.c and test_string.c
 * on the host, so the kernel versions become k_memcpy etc. and never clash
 * with (or get silently replaced by) the host libc.
 */
#ifndef TESTS_HOST_KSTRING_RENAME_H
#define TESTS_HOST_KSTRING_RENAME_H

#define memset	k_memset
#define memcpy	k_memcpy
#define memmove k_memmove
#define memcmp	k_memcmp
#define strlen	k_strlen
#define strnlen k_strnlen
#define strcmp	k_strcmp
#define strncmp k_strncmp
#define strchr	k_strchr
#define strlcpy k_strlcpy

#endif /* TESTS_HOST_KSTRING_RENAME_H */

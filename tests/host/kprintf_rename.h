/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/host/kprintf_rename.h - rename lib/printf.c symbols for host builds.
 *
 * Force-included together with kstring_rename.h when compiling kernel
 * sources for the host unit tests, so the kernel snprintf/vsnprintf become
 * k_snprintf/k_vsnprintf and do not interpose on the host libc (which the
 * Check framework and the sanitizer runtimes use themselves).
 */
#ifndef TESTS_HOST_KPRINTF_RENAME_H
#define TESTS_HOST_KPRINTF_RENAME_H

#define snprintf  k_snprintf
#define vsnprintf k_vsnprintf

#endif /* TESTS_HOST_KPRINTF_RENAME_H */

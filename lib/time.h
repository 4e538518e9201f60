/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lib/time.h - units of time, as Linux's include/vdso/time64.h names
 * them.  Shared by the kernel, timer/ and the host.  They are uint64_t,
 * the type every time in this tree has, so arithmetic and "%lu" on them
 * behave as on the values they replace.
 */
#ifndef LIB_TIME_H
#define LIB_TIME_H

#include <stdint.h>

#define MSEC_PER_SEC  ((uint64_t)1000)
#define USEC_PER_SEC  ((uint64_t)1000000)
#define NSEC_PER_USEC ((uint64_t)1000)
#define NSEC_PER_MSEC ((uint64_t)1000000)
#define NSEC_PER_SEC  ((uint64_t)1000000000)

#endif /* LIB_TIME_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lib/time.h - units of time, as Linux's include/linux/time64.h and
 * vdso/time64.h name them.  Shared by the kernel, timer/ and the host.
 */
#ifndef LIB_TIME_H
#define LIB_TIME_H

#define MSEC_PER_SEC	1000ULL
#define USEC_PER_SEC	1000000ULL
#define NSEC_PER_USEC	1000ULL
#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL

#endif /* LIB_TIME_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lib/errno.h - errno-like return codes for freestanding kernel code.
 *
 * Functions return 0 on success or one of these negated, e.g. -EINVAL.
 */
#ifndef LIB_ERRNO_H
#define LIB_ERRNO_H

#define EAGAIN	  11  /* try again: a transient condition */
#define ENOMEM	  12  /* out of memory (or of a pool's slots) */
#define EBUSY	  16  /* resource in use / not allowed now */
#define EINVAL	  22  /* invalid argument / malformed input */
#define ENODEV	  19  /* no such device / it does not answer */
#define ERANGE	  34  /* value out of range / overflow */
#define EALREADY  114 /* already in the requested state */
#define ETIMEDOUT 110 /* no answer in time */

#endif /* LIB_ERRNO_H */

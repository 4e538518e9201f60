/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/host/env/timer_rename.h - keep timer/ names off the host libc's.
 *
 * Force-included (-include) into every host file built with timer/: POSIX
 * <time.h> declares its own timer_delete(), so ours is renamed after that
 * header has been seen.
 */
#ifndef TESTS_HOST_ENV_TIMER_RENAME_H
#define TESTS_HOST_ENV_TIMER_RENAME_H

#include <time.h>

#define timer_delete host_timer_delete

#endif /* TESTS_HOST_ENV_TIMER_RENAME_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timer/timer_trace.h - the wheel's tracepoints (Linux's timer_* events).
 *
 * Each is timer_env_trace() of an event of lib/trace_events.h, in the
 * field order given there; disabled, it is a test and a branch, and the
 * arguments are not evaluated.  The hierarchy's are timer/tmigr_trace.h.
 */
#ifndef TIMER_TIMER_TRACE_H
#define TIMER_TIMER_TRACE_H

#include "lib/trace_events.h"
#include "timer_env.h"

/* @timer was queued on @base, due at jiffy @bucket_expiry. */
#define trace_timer_start(base, timer, bucket_expiry)                      \
	timer_env_trace(timer_start, TRACE_PTR(timer),                     \
			TRACE_PTR((timer)->function), (timer)->expires,    \
			(bucket_expiry), timer_env_jiffies(), (base)->cpu, \
			(timer)->flags)

/* The callback of @timer of @base is about to run here. */
#define trace_timer_expire_entry(base, timer)                              \
	timer_env_trace(timer_expire_entry, TRACE_PTR(timer),              \
			TRACE_PTR((timer)->function), timer_env_jiffies(), \
			(base)->clk - 1, (base)->cpu)

/* It returned; @timer may be gone, only its address is recorded. */
#define trace_timer_expire_exit(timer) \
	timer_env_trace(timer_expire_exit, TRACE_PTR(timer))

/* A pending @timer was taken off its base (deleted or re-armed). */
#define trace_timer_cancel(timer) \
	timer_env_trace(timer_cancel, TRACE_PTR(timer))

#endif /* TIMER_TIMER_TRACE_H */

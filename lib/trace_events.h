/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lib/trace_events.h - the trace events: one list for the kernel, timer/
 * and the host builds (docs/tracing.md).
 *
 * Each event is X(name, nargs, format).  The format names the fields in
 * the order the tracepoint passes them, one %-conversion per field, each
 * taking one 64-bit argument:
 *
 *   %u  unsigned decimal          %d  signed decimal (-1: none)
 *   %x  hex with 0x               %p  address, 0x and 16 hex digits
 *   %t  a clock_ns() time, or "none" for UINT64_MAX
 *   %{a,b,c}  the argument's name in that list (0 is a), else its number
 *
 * nargs is that number of fields; a tracepoint passing another number of
 * arguments does not compile, and the host tests check the formats.
 *
 * A tracepoint is TRACE_POINT(mask, record, event, args...): when the
 * event's bit in the word @mask is clear it costs one load of that word,
 * a test and a branch not taken; the arguments are evaluated only when
 * the bit is set, and then passed as an array to @record(id, args, n).
 * The kernel's word is trace_enabled_mask (kernel/trace.h), timer/ reaches
 * it through timer_env_trace() (both timer_env.h headers).
 */
#ifndef LIB_TRACE_EVENTS_H
#define LIB_TRACE_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "lib/atomic.h"

#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

/* Most arguments any event takes (struct trace_rec's args[]). */
#define TRACE_NARGS 10

/* Unformatted: an event a line, its format string whole. */
/* clang-format off */
#define TRACE_EVENTS(X)							\
	/* The pull hierarchy: Linux's timer_migration tracepoints. */	\
	X(tmigr_group_set, 3, "group=%d lvl=%u numa=%d")		\
	X(tmigr_connect_child_parent, 6, "group=%d childmask=%x "	\
	  "parent=%d lvl=%u numa=%d num_childs=%u")			\
	X(tmigr_connect_cpu_parent, 6, "cpu=%u childmask=%x "		\
	  "parent=%d lvl=%u numa=%d num_childs=%u")			\
	X(tmigr_group_set_cpu_inactive, 7, "group=%d lvl=%u numa=%d "	\
	  "active=%x migrator=%x parent=%d childmask=%x")		\
	X(tmigr_group_set_cpu_active, 7, "group=%d lvl=%u numa=%d "	\
	  "active=%x migrator=%x parent=%d childmask=%x")		\
	X(tmigr_cpu_new_timer, 2, "cpu=%u parent=%d")			\
	X(tmigr_cpu_active, 2, "cpu=%u parent=%d")			\
	X(tmigr_cpu_online, 2, "cpu=%u parent=%d")			\
	X(tmigr_cpu_offline, 2, "cpu=%u parent=%d")			\
	X(tmigr_handle_remote_cpu, 2, "cpu=%u parent=%d")		\
	X(tmigr_cpu_idle, 3, "cpu=%u parent=%d nextevt=%t")		\
	X(tmigr_update_events, 9, "child=%d group=%d group_lvl=%u "	\
	  "child_active=%x group_active=%x nextevt=%t next_expiry=%t "	\
	  "child_evt_expiry=%t child_evtcpu=%d")			\
	X(tmigr_handle_remote, 2, "group=%d lvl=%u")			\
	/* The timer wheel (Linux's timer_* events). */			\
	X(timer_start, 7, "timer=%p function=%p expires=%u "		\
	  "bucket_expiry=%u now=%u base_cpu=%u flags=%x")		\
	X(timer_expire_entry, 5, "timer=%p function=%p now=%u "	\
	  "baseclk=%u base_cpu=%u")					\
	X(timer_expire_exit, 1, "timer=%p")				\
	X(timer_cancel, 1, "timer=%p")					\
	/* NOHZ and the idle loop. */					\
	X(tick_stop, 1, "next=%t")					\
	X(tick_restart, 1, "reason=%{event_due,idle_exit}")		\
	X(idle_enter, 2, "tick_stopped=%u next=%t")			\
	X(idle_exit, 3, "reason=%{timer,ipi,other} vector=%x "		\
	  "idle_ns=%u")							\
	/* Interprocessor interrupts. */				\
	X(ipi_send, 2, "target=%d vector=%x")				\
	X(ipi_receive, 1, "vector=%x")
/* clang-format on */

enum trace_event_id {
#define TRACE_ENUM_ONE(name, nargs, fmt) TRACE_##name,
	TRACE_EVENTS(TRACE_ENUM_ONE)
#undef TRACE_ENUM_ONE
		TRACE_NR_EVENTS
};

/* Argument counts as constants, for the check at each tracepoint. */
enum trace_event_nargs {
#define TRACE_NARGS_ONE(name, nargs, fmt) TRACE_NARGS_##name = nargs,
	TRACE_EVENTS(TRACE_NARGS_ONE)
#undef TRACE_NARGS_ONE
};

_Static_assert(TRACE_NR_EVENTS <= 32, "trace events must fit a 32-bit mask");

#define TRACE_BIT(id)  (1u << (id))
#define TRACE_ALL_MASK ((uint32_t)((1ull << TRACE_NR_EVENTS) - 1))

/* Argument conversions: addresses, and signed values such as -1. */
#define TRACE_PTR(p) ((uint64_t)(uintptr_t)(p))
#define TRACE_INT(v) ((uint64_t)(int64_t)(v))

typedef void (*trace_record_fn)(unsigned int id, const uint64_t *args,
				unsigned int n);

/*
 * -DTRACE_COMPILED_OUT (to measure what the disabled check costs): the
 * same tracepoint as dead code, its arguments still checked by the
 * compiler but never evaluated, and no load of @mask.
 */
#ifdef TRACE_COMPILED_OUT
#define TRACE_ENABLED(mask, ev) 0
#else
#define TRACE_ENABLED(mask, ev) \
	unlikely(READ_ONCE(mask) & TRACE_BIT(TRACE_##ev))
#endif

#define TRACE_POINT(mask, record, ev, ...)                                  \
	do {                                                                \
		if (TRACE_ENABLED(mask, ev)) {                              \
			const uint64_t __trace_args[] = { __VA_ARGS__ };    \
			_Static_assert(sizeof(__trace_args) ==              \
					       TRACE_NARGS_##ev *           \
						       sizeof(uint64_t),    \
				       "wrong argument count for " #ev);    \
			record(TRACE_##ev, __trace_args, TRACE_NARGS_##ev); \
		}                                                           \
	} while (0)

/* lib/trace_events.c */
const char *trace_event_name(unsigned int id); /* NULL if unknown */
const char *trace_event_format(unsigned int id);
unsigned int trace_event_nargs(unsigned int id);
int trace_parse_events(const char *s, size_t len, uint32_t *mask);
int trace_format_args(char *buf, size_t size, unsigned int id,
		      const uint64_t *args, unsigned int n);

#endif /* LIB_TRACE_EVENTS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timer/tmigr_trace.h - the pull hierarchy's tracepoints (Linux's
 * include/trace/events/timer_migration.h).
 *
 * Linux's events and fields, with group ids (tmigr_group_get()'s, -1
 * for none) where Linux prints pointers, and numa=-1 for groups at or
 * above the cross-node level.  Each is timer_env_trace() of an event of
 * lib/trace_events.h: disabled, a test and a branch, and the arguments
 * are not evaluated.
 */
#ifndef TIMER_TMIGR_TRACE_H
#define TIMER_TMIGR_TRACE_H

#include "lib/trace_events.h"
#include "timer/timer_migration_internal.h"
#include "timer_env.h"

static inline uint64_t tmigr_trace_gid(const struct tmigr_group *group)
{
	return group ? group->id : TRACE_INT(-1);
}

static inline uint64_t tmigr_trace_node(const struct tmigr_group *group)
{
	return group->node == TMIGR_NO_NODE ? TRACE_INT(-1) : group->node;
}

/* A new group. */
#define trace_tmigr_group_set(group)                                  \
	timer_env_trace(tmigr_group_set, (group)->id, (group)->level, \
			tmigr_trace_node(group))

/* @child (a group) was connected below its parent. */
#define trace_tmigr_connect_child_parent(child, parent)                    \
	timer_env_trace(tmigr_connect_child_parent, (child)->id,           \
			(child)->childmask, (parent)->id, (parent)->level, \
			tmigr_trace_node(parent),                          \
			READ_ONCE((parent)->num_children))

/* CPU @tmc joined its level-0 group. */
#define trace_tmigr_connect_cpu_parent(tmc)                          \
	timer_env_trace(tmigr_connect_cpu_parent, (tmc)->cpuevt.cpu, \
			(tmc)->childmask, (tmc)->tmgroup->id,        \
			(tmc)->tmgroup->level,                       \
			tmigr_trace_node((tmc)->tmgroup),            \
			READ_ONCE((tmc)->tmgroup->num_children))

/* @group's new state @s after child @childmask went idle or active. */
#define trace_tmigr_group_state(ev, group, s, childmask)                     \
	timer_env_trace(ev, (group)->id, (group)->level,                     \
			tmigr_trace_node(group), (s).active, (s).migrator,   \
			tmigr_trace_gid(smp_load_acquire(&(group)->parent)), \
			(childmask))
#define trace_tmigr_group_set_cpu_inactive(group, s, childmask)         \
	trace_tmigr_group_state(tmigr_group_set_cpu_inactive, group, s, \
				childmask)
#define trace_tmigr_group_set_cpu_active(group, s, childmask) \
	trace_tmigr_group_state(tmigr_group_set_cpu_active, group, s, childmask)

/* CPU events: the CPU and its level-0 group. */
#define trace_tmigr_cpugroup(ev, tmc) \
	timer_env_trace(ev, (tmc)->cpuevt.cpu, tmigr_trace_gid((tmc)->tmgroup))
#define trace_tmigr_cpu_new_timer(tmc) \
	trace_tmigr_cpugroup(tmigr_cpu_new_timer, tmc)
#define trace_tmigr_cpu_active(tmc) trace_tmigr_cpugroup(tmigr_cpu_active, tmc)
#define trace_tmigr_cpu_online(tmc) trace_tmigr_cpugroup(tmigr_cpu_online, tmc)
#define trace_tmigr_cpu_offline(tmc) \
	trace_tmigr_cpugroup(tmigr_cpu_offline, tmc)
#define trace_tmigr_handle_remote_cpu(tmc) \
	trace_tmigr_cpugroup(tmigr_handle_remote_cpu, tmc)

/* CPU @tmc went idle; @nextevt is what it must wake for, or none. */
#define trace_tmigr_cpu_idle(tmc, nextevt)                 \
	timer_env_trace(tmigr_cpu_idle, (tmc)->cpuevt.cpu, \
			tmigr_trace_gid((tmc)->tmgroup), (nextevt))

/*
 * @group's queue took @evt (the event of @child, or of the walk's CPU if
 * @child is NULL) at @nextexp.  Pre: group->lock held.
 */
#define trace_tmigr_update_events(child, group, childstate, groupstate,       \
				  nextexp, evt)                               \
	timer_env_trace(tmigr_update_events, tmigr_trace_gid(child),          \
			(group)->id, (group)->level,                          \
			(child) ? (childstate).active : 0,                    \
			(groupstate).active, (nextexp), (group)->next_expiry, \
			(evt)->nextevt.key, (evt)->cpu)

/* A migrator looks at @group's expired events. */
#define trace_tmigr_handle_remote(group) \
	timer_env_trace(tmigr_handle_remote, (group)->id, (group)->level)

#endif /* TIMER_TMIGR_TRACE_H */

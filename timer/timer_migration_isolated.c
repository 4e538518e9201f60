// SPDX-License-Identifier: GPL-2.0
/*
 * timer/timer_migration_isolated.c - isolated CPUs (isolcpus=) in the pull
 * hierarchy.
 *
 * An isolated CPU is a child of its level-0 group like any other, but it
 * never sets its bit in a group's active mask: it is never a migrator
 * (tmigr_first_active() only picks active children), and it never
 * expires other CPUs' timers (tmigr_handle_remote() and
 * tmigr_requires_handle_remote() return at once on it).  Busy, it runs
 * its own timers on its tick and has no event queued.  Idle, it queues
 * its first global event as an idle CPU queues a new timer
 * (tmigr_update_events() up to an active group or the root), so the
 * migrator of the first active group above it pulls its timers: a
 * housekeeping CPU serves them through the hierarchy.  Only when the
 * whole hierarchy is idle, with nobody to pull, does it wake for its
 * own event, never for another CPU's.
 *
 * So a group whose CPUs are all isolated stays idle for good, and its
 * events go up to the first group with a housekeeping CPU; a node of
 * isolated CPUs only is served across the nodes by the root's migrator.
 * The isolated boot CPU preparing the others is the "old root found
 * inactive" case of tmigr_sync_up().
 *
 * Mainline (2025) takes domain-isolated CPUs out of the hierarchy
 * entirely ("unavailable": they keep their global timers and wake for
 * them) and keeps nohz_full CPUs in it as idle children whose timers the
 * housekeeping CPUs serve; isolcpus= here is the second behaviour, which
 * the comparison of the models needs (docs/scenarios.md).
 */
#include "timer/timer_migration_internal.h"
#include "timer/tmigr_trace.h"
#include "timer_env.h"

/*
 * The isolated CPU @tmc leaves idle: it serves its timers itself now.
 * Its event (ignored since the caller set ignore) is taken out of the
 * queues up to the first active group, with the walk a migrator makes
 * after a remote expiry, so no idle CPU keeps a wakeup for it.
 * Pre: tmc->lock held, tmc->cpuevt.ignore set.
 */
void tmigr_isolated_activate(struct tmigr_cpu *tmc)
{
	struct tmigr_walk data = {
		.nextexp = TMIGR_NONE_NS,
		.firstexp = TMIGR_NONE_NS,
		.evt = &tmc->cpuevt,
		.remote = true,
	};

	lockdep_assert_held(&tmc->lock);
	tmigr_walk_cpu(tmigr_update_events, &data, tmc);
}

/*
 * The isolated CPU @tmc is idle (or going idle) with first global event
 * @nextexp: queue it for the housekeeping CPUs.  Returns what it must
 * wake for itself: @nextexp if no CPU is active to pull it (the walk
 * reached an idle root), else TMIGR_NONE_NS.
 * Pre: tmc->lock held.
 */
uint64_t tmigr_isolated_queue(struct tmigr_cpu *tmc, uint64_t nextexp)
{
	struct tmigr_walk data = {
		.nextexp = nextexp,
		.firstexp = TMIGR_NONE_NS,
		.evt = &tmc->cpuevt,
	};

	lockdep_assert_held(&tmc->lock);
	if (nextexp == TMIGR_NONE_NS)
		return TMIGR_NONE_NS;
	trace_tmigr_cpu_new_timer(tmc);
	WRITE_ONCE(tmc->cpuevt.ignore, false);
	tmigr_walk_cpu(tmigr_update_events, &data, tmc);
	return data.firstexp != TMIGR_NONE_NS ? nextexp : TMIGR_NONE_NS;
}

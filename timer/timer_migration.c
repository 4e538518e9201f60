// SPDX-License-Identifier: GPL-2.0
/*
 * timer/timer_migration.c - the pull model: idle CPUs hand their global
 * timers to a busy CPU through a hierarchy of groups.
 *
 * CPUs are grouped TMIGR_CHILDS_PER_GROUP at a time, within one node, in the
 * order they are prepared (SMT siblings share a level-0 group when the core
 * size divides the group size).  Groups are grouped again the same way,
 * within the node below tmigr_crossnode_level and across nodes from there,
 * until one group, the root, holds everything.  Two nodes of 24 CPUs:
 *
 *   LVL 2                        [GRP2:0]
 *                           GRP1:0     GRP1:1
 *
 *   LVL 1            [GRP1:0]                   [GRP1:1]
 *               GRP0:0 - GRP0:2              GRP0:3 - GRP0:5
 *
 *   LVL 0    [GRP0:0] [GRP0:1] [GRP0:2]   [GRP0:3] [GRP0:4] [GRP0:5]
 *   CPUs        0-7     8-15     16-23      24-31    32-39    40-47
 *
 * Each group has a state word (union tmigr_state): a bit per active child
 * and the "migrator", one active child (or TMIGR_NONE when no child is
 * active).  A group is active exactly when one of its children is, and an
 * active group is active in its parent.  The migrator of a group checks
 * the group's queue of events in its tick; so a CPU that is migrator up to
 * level n pulls the expired global timers of every idle CPU below its
 * level-n group.
 *
 * Each group also has a queue of its idle children's first events (a CPU
 * event of an idle CPU, or the group event of an idle child group).  When
 * a group becomes idle its first event goes into its parent's queue, so an
 * event travels up exactly as far as the first active group, whose
 * migrator handles it.  When the last CPU goes idle the whole tree is idle
 * and that CPU is told the first event of the root: it arms its own timer
 * for it (tmigr_cpu_deactivate() returns it), and on wake-up handles it;
 * under tmigr_wake=one or own only if no other idle CPU is armed for it already
 * (tmigr_wake.c).
 *
 * Events are not taken out when a child becomes active again: their
 * "ignore" flag is set (locklessly) and they are dropped lazily the next
 * time the queue is looked at under its lock.  So a group's next_expiry
 * may be early, never late: an early value only costs a look.
 *
 * Locking: tmigr_cpu->lock, then a child group's lock, then its parent's;
 * timer base locks come before all of these.  State words change by
 * cmpxchg only, with a sequence count bumped on every change, so a walker
 * that computed a parent's new state from a child state that has changed
 * since cannot succeed (docs/races.md, "Stale child state without a
 * sequence count").  Setup is serialised by tmigr_setup_lock; groups are
 * never freed, only left unused.
 *
 * Setup (tmigr_cpu_prepare): the new CPU's path is built bottom-up, joining
 * groups with room and creating the rest.  If the path needs a new root,
 * the new root starts with the old root pre-accounted as child 0, the new
 * CPU's branch connects as child 1, and then the old root (with fresh
 * groups for its node up to the cross-node level, so nodes never share a
 * group below it) connects into slot 0.  Masks are set before the parent
 * pointer is published with release; walkers read it with acquire, once
 * per step.  Last, the old root's activity and first event are copied up
 * into the new groups by the same cmpxchg rule as a walk, so it does not
 * matter which CPU prepares or who goes idle meanwhile (docs/races.md,
 * "Parent pointer read twice" to "New node below the cross-node level").
 * That part, and the read-only views, are timer_migration_setup.c; the
 * structures are in timer_migration_internal.h.
 */
#include "lib/errno.h"
#include "timer/timer.h"
#include "timer/timer_migration_internal.h"
#include "timer/tmigr_trace.h"
#include "timer_env.h"

static struct tmigr_cpu *this_tmc(void)
{
	unsigned int cpu = smp_processor_id();

	if (!smp_load_acquire(&tmigr_ready) || cpu >= tmigr_nr_cpus)
		return NULL;
	return &tmigr_cpus[cpu];
}

/* The walks only run for an online CPU with its groups built. */
static bool tmigr_is_not_available(const struct tmigr_cpu *tmc)
{
	return !tmc || !READ_ONCE(tmc->online);
}

/* @childmask may handle @group: it is the migrator, or nobody is. */
static bool tmigr_check_migrator(struct tmigr_group *group, uint8_t childmask)
{
	union tmigr_state s = tmigr_read_state(group);

	return s.migrator == childmask || s.migrator == TMIGR_NONE;
}

/*
 * Walk from @group (entered from @child, NULL for a CPU) to the root, or
 * until @up says the walk is done.
 */
static void tmigr_walk_from(tmigr_up_fn up, struct tmigr_walk *data,
			    struct tmigr_group *child,
			    struct tmigr_group *group)
{
	while (group) {
		/* Pairs with the release in tmigr_connect(). */
		data->parent = smp_load_acquire(&group->parent);
		if (up(group, child, data))
			return;
		if (!data->parent)
			return;
		child = group;
		group = data->parent;
		data->childmask = child->childmask;
	}
}

/* Pre: tmc->lock held. */
void tmigr_walk_cpu(tmigr_up_fn up, struct tmigr_walk *data,
		    struct tmigr_cpu *tmc)
{
	lockdep_assert_held(&tmc->lock);
	data->tmc = tmc;
	data->childmask = tmc->childmask;
	tmigr_walk_from(up, data, NULL, tmc->tmgroup);
}

/* ---- group queues ---- */

/*
 * First event of @group that is not ignored, dropping ignored ones on the
 * way; refreshes group->next_expiry.
 * Pre: group->lock held.
 */
static struct tmigr_event *tmigr_next_groupevt(struct tmigr_group *group)
{
	struct tq_node *node;

	lockdep_assert_held(&group->lock);
	while ((node = tq_first(&group->events))) {
		struct tmigr_event *evt =
			tq_entry(node, struct tmigr_event, nextevt);

		if (!READ_ONCE(evt->ignore)) {
			WRITE_ONCE(group->next_expiry, node->key);
			return evt;
		}
		tq_del(&group->events, node);
	}
	WRITE_ONCE(group->next_expiry, TMIGR_NONE_NS);
	return NULL;
}

/*
 * Take the first event of @group out if it expired at @now.
 * Pre: group->lock held.
 */
static struct tmigr_event *
tmigr_next_expired_groupevt(struct tmigr_group *group, uint64_t now)
{
	struct tmigr_event *evt = tmigr_next_groupevt(group);

	if (!evt || now < evt->nextevt.key)
		return NULL;
	tq_del(&group->events, &evt->nextevt);
	tmigr_next_groupevt(group);
	return evt;
}

/*
 * A group event names the CPU of its group's first event.  A CPU's own
 * event (@evt == @first, the walk of that CPU) names it from setup on and
 * is read without locks (tmigr_wake.c): it is never written again, not
 * even with the same value, which would race with those readers.
 */
static void tmigr_evt_follow_cpu(struct tmigr_event *evt,
				 const struct tmigr_event *first)
{
	if (evt != first)
		evt->cpu = first->cpu;
}

/*
 * Bring @group's queue up to date with @evt, which stands for a child
 * whose first event is @first, due at @nextexp (@ignore: none).  Returns
 * true if nothing above needs to hear of it.  Pre: group->lock held.
 */
static bool tmigr_queue_child_event(struct tmigr_group *group,
				    struct tmigr_event *evt,
				    const struct tmigr_event *first,
				    uint64_t nextexp, bool ignore,
				    bool group_active, bool remote)
{
	if (tq_queued(&evt->nextevt)) {
		if (evt->nextevt.key == nextexp && !ignore) {
			/*
			 * Same expiry, maybe another CPU's event now: the
			 * CPU field must follow or the migrator pulls a CPU
			 * with nothing due (docs/races.md, "Same expiry on
			 * another CPU").
			 */
			tmigr_evt_follow_cpu(evt, first);
			return false;
		}
		tq_del(&group->events, &evt->nextevt);
	}
	if (!ignore) {
		evt->nextevt.key = nextexp;
		tmigr_evt_follow_cpu(evt, first);
		tq_add(&group->events, &evt->nextevt);
	}
	tmigr_next_groupevt(group);
	/*
	 * After a remote expiry an idle group's remaining events must still
	 * travel up, even if this child has none left.
	 */
	return ignore && (!remote || group_active);
}

/*
 * At a root with no migrator the whole tree is idle: the walk ends, and
 * the CPU of this walk must wake for the root's first event, unless
 * another idle CPU already does (tmigr_wake.c).  After a remote expiry
 * tmigr_handle_remote_up() finds it itself.  Returns true if the walk
 * ends here.  Pre: group->lock held.
 */
static bool tmigr_update_toplvl(struct tmigr_group *group,
				union tmigr_state groupstate,
				struct tmigr_walk *data)
{
	if (data->parent || groupstate.migrator != TMIGR_NONE)
		return false;
	if (!data->remote) {
		data->firstexp = tmigr_wake_decide(
			data->tmc, group->next_expiry, !data->leaving);
		data->decided = true;
	}
	return true;
}

/*
 * Put @group's current view of a child's event in its queue: the event of
 * the CPU of the walk (@child NULL) or @child's group event.  Returns true
 * if nothing above needs to hear of it.  Both states are read under the
 * locks, so a concurrent last CPU going idle and this update cannot both
 * miss that the root became idle with an event (docs/races.md, "New event
 * while the last CPU goes idle").
 */
bool tmigr_update_events(struct tmigr_group *group, struct tmigr_group *child,
			 struct tmigr_walk *data)
{
	struct tmigr_event *evt, *first_childevt;
	union tmigr_state childstate = { .state = 0 }, groupstate;
	bool walk_done, ignore;
	uint64_t nextexp;

	if (child) {
		timer_env_race_point(TMIGR_RP_UPDATE_EVENTS);
		spin_lock(&child->lock);
		spin_lock(&group->lock);
		childstate = tmigr_read_state(child);
		groupstate = tmigr_read_state(group);
		data->group_active = groupstate.active;
		if (childstate.active) {
			/* Its migrator handles its events. */
			spin_unlock(&group->lock);
			spin_unlock(&child->lock);
			return true;
		}
		first_childevt = tmigr_next_groupevt(child);
		nextexp = child->next_expiry;
		evt = &child->groupevt;
		ignore = nextexp == TMIGR_NONE_NS;
		WRITE_ONCE(evt->ignore, ignore);
	} else {
		nextexp = data->nextexp;
		first_childevt = evt = data->evt;
		/* A remote expiry may have left the CPU nothing to queue. */
		if (nextexp == TMIGR_NONE_NS)
			WRITE_ONCE(evt->ignore, true);
		ignore = READ_ONCE(evt->ignore);
		/*
		 * A CPU with no event to queue need not lock its group when
		 * the walk continues above anyway; but a root without parent
		 * must be looked at, or the last CPU going idle would not
		 * arm for its siblings' events (docs/races.md, "Last CPU
		 * idle without a timer of its own").  The parent decides
		 * here and below from the walker's single read: a new root
		 * may appear in between (docs/races.md, "Parent pointer
		 * read twice").
		 */
		if (ignore && !data->remote && data->parent) {
			data->group_active = true; /* nothing to pass up */
			return true;
		}
		timer_env_race_point(TMIGR_RP_UPDATE_EVENTS);
		spin_lock(&group->lock);
		groupstate = tmigr_read_state(group);
		data->group_active = groupstate.active;
	}

	walk_done = tmigr_queue_child_event(group, evt, first_childevt, nextexp,
					    ignore, groupstate.active,
					    data->remote);
	if (tmigr_update_toplvl(group, groupstate, data))
		walk_done = true;
	trace_tmigr_update_events(child, group, childstate, groupstate, nextexp,
				  evt);
	spin_unlock(&group->lock);
	if (child)
		spin_unlock(&child->lock);
	return walk_done;
}

/* ---- activate ---- */

static bool tmigr_active_up(struct tmigr_group *group,
			    struct tmigr_group *child, struct tmigr_walk *data)
{
	union tmigr_state cur, new;
	bool walk_done;

	(void)child;
	cur = tmigr_read_state(group);
	do {
		new = cur;
		walk_done = true;
		if (new.migrator == TMIGR_NONE) {
			/* The group was idle: its parent must hear of it. */
			new.migrator = data->childmask;
			walk_done = false;
		}
		new.active |= data->childmask;
		new.seq++;
	} while (!try_cmpxchg(&group->migr_state, &cur.state, new.state));
	trace_tmigr_group_set_cpu_active(group, new, data->childmask);

	/*
	 * The group's event may still sit in the parent's queue; its own
	 * migrator handles it now.  Lockless: a parent migrator that sees
	 * this late pulls once more, which is harmless.
	 */
	WRITE_ONCE(group->groupevt.ignore, true);
	return walk_done;
}

/* Pre: tmc->lock held. */
static void __tmigr_cpu_activate(struct tmigr_cpu *tmc)
{
	struct tmigr_walk data = { .firstexp = TMIGR_NONE_NS };

	WRITE_ONCE(tmc->cpuevt.ignore, true);
	tmigr_wake_forget(tmc);
	tmigr_set_wakeup(tmc, TMIGR_NONE_NS);
	if (tmc->isolated) {
		tmigr_isolated_activate(tmc);
		return;
	}
	tmigr_walk_cpu(tmigr_active_up, &data, tmc);
}

/**
 * tmigr_cpu_activate - the current CPU leaves idle: active in the hierarchy
 *
 * Pre: interrupts off.  Does nothing if the CPU is not online in the
 * hierarchy or is active already.
 */
void tmigr_cpu_activate(void)
{
	struct tmigr_cpu *tmc = this_tmc();

	if (tmigr_is_not_available(tmc) || !READ_ONCE(tmc->idle))
		return;
	spin_lock(&tmc->lock);
	WRITE_ONCE(tmc->idle, false);
	trace_tmigr_cpu_active(tmc);
	__tmigr_cpu_activate(tmc);
	spin_unlock(&tmc->lock);
}

/* ---- deactivate and new timers ---- */

static bool tmigr_inactive_up(struct tmigr_group *group,
			      struct tmigr_group *child,
			      struct tmigr_walk *data)
{
	union tmigr_state cur, new, childstate = { .state = 0 };
	uint8_t mask = data->childmask;
	bool walk_done;

	/*
	 * Group state first, child state second: a child change made after
	 * this group read and propagated here bumps the group's seq, so the
	 * cmpxchg below fails and the child is read again (docs/races.md,
	 * "Stale child state without a sequence count").
	 */
	cur.state = smp_load_acquire(&group->migr_state);
	for (;;) {
		if (child)
			childstate = tmigr_read_state(child);
		new = cur;
		walk_done = true;
		if (!childstate.active) {
			new.active &= ~mask;
			if (new.migrator == mask) {
				new.migrator = tmigr_first_active(new.active);
				/* Idle now: the parent must hear of it. */
				if (new.migrator == TMIGR_NONE)
					walk_done = false;
			}
		}
		new.seq++;
		/* Unformatted: clang-format 14 takes "new" for an operator. */
		/* clang-format off */
		WARN_ON_ONCE(new.migrator != TMIGR_NONE &&
			     !(new.active & new.migrator));
		/* clang-format on */
		timer_env_race_point(TMIGR_RP_INACTIVE_CMPXCHG);
		if (try_cmpxchg(&group->migr_state, &cur.state, new.state))
			break;
	}
	trace_tmigr_group_set_cpu_inactive(group, new, mask);

	data->remote = false;
	/*
	 * The cmpxchg saw the group still active, but its last active child
	 * may have gone idle since and passed the group's first event up
	 * before ours was queued: then nobody would carry ours further.  The
	 * state read under the group lock says; go on if it went idle (at
	 * worst the parent is told something it knew).  Found by the
	 * simulator's torture mode (docs/races.md, "Event queued after the group
	 * went idle").  Mainline drops the result; tmigr_inactive_up_mainline
	 * does too, to show the loss (docs/findings/).
	 */
	if (!tmigr_update_events(group, child, data) && !data->group_active &&
	    !READ_ONCE(tmigr_inactive_up_mainline))
		walk_done = false;
	return walk_done;
}

/*
 * What an idle CPU's walk says it must wake for: decided at the idle
 * root, or, when the walk stopped at an active group, what
 * tmigr_wake_settle() keeps.
 */
static uint64_t tmigr_walk_wakeup(struct tmigr_walk *data)
{
	if (data->decided)
		return data->firstexp;
	return tmigr_wake_settle(data->tmc, data->firstexp);
}

/*
 * Pre: tmc->lock held.  Returns the event the CPU must arm for; @leaving:
 * the CPU goes offline, so it never enters the armed table.
 */
static uint64_t __tmigr_cpu_deactivate(struct tmigr_cpu *tmc, uint64_t nextexp,
				       bool leaving)
{
	struct tmigr_walk data = {
		.nextexp = nextexp,
		.firstexp = TMIGR_NONE_NS,
		.evt = &tmc->cpuevt,
		.leaving = leaving,
	};

	if (tmc->isolated)
		return tmigr_isolated_queue(tmc, nextexp);
	/* NONE: no global event, or the local one comes first anyway. */
	if (nextexp != TMIGR_NONE_NS)
		WRITE_ONCE(tmc->cpuevt.ignore, false);
	tmigr_walk_cpu(tmigr_inactive_up, &data, tmc);
	return tmigr_walk_wakeup(&data);
}

/* Pre: tmc->lock held, CPU idle.  Queue a new first event @nextexp. */
static uint64_t tmigr_new_timer(struct tmigr_cpu *tmc, uint64_t nextexp)
{
	struct tmigr_walk data = {
		.nextexp = nextexp,
		.firstexp = TMIGR_NONE_NS,
		.evt = &tmc->cpuevt,
	};

	lockdep_assert_held(&tmc->lock);
	/* The migrator pulling this CPU requeues its events itself. */
	if (tmc->remote)
		return TMIGR_NONE_NS;
	if (tmc->isolated)
		return tmigr_isolated_queue(tmc, nextexp);
	trace_tmigr_cpu_new_timer(tmc);
	WRITE_ONCE(tmc->cpuevt.ignore, false);
	tmigr_walk_cpu(tmigr_update_events, &data, tmc);
	return tmigr_walk_wakeup(&data);
}

/**
 * tmigr_cpu_deactivate - the current CPU goes idle: inactive in the hierarchy
 * @nextexp: its first global event in ns, TMIGR_NONE_NS if none or if a
 *	local event comes first
 *
 * Pre: interrupts off.  Returns the first event of the hierarchy if this
 * was the last active CPU (it must wake for it), else TMIGR_NONE_NS; if
 * the CPU is not in the hierarchy, @nextexp (it serves its timers itself).
 * On a CPU that is idle already this is tmigr_cpu_new_timer().
 */
uint64_t tmigr_cpu_deactivate(uint64_t nextexp)
{
	struct tmigr_cpu *tmc = this_tmc();
	uint64_t ret;

	if (tmigr_is_not_available(tmc))
		return nextexp;
	if (READ_ONCE(tmc->idle))
		return tmigr_cpu_new_timer(nextexp);
	spin_lock(&tmc->lock);
	ret = __tmigr_cpu_deactivate(tmc, nextexp, false);
	WRITE_ONCE(tmc->idle, true);
	/* Re-entering idle later must not forget what to wake for. */
	tmigr_set_wakeup(tmc, ret);
	trace_tmigr_cpu_idle(tmc, ret);
	spin_unlock(&tmc->lock);
	return ret;
}

/**
 * tmigr_cpu_new_timer - an idle CPU re-enters idle, maybe with a new event
 * @nextexp: its first global event in ns, or TMIGR_NONE_NS
 *
 * Pre: interrupts off, the CPU idle in the hierarchy (else this warns and
 * deactivates it).  Queues @nextexp if it changed.  Returns the event
 * this CPU must wake for (the root's first if the hierarchy is idle, or
 * what remote handling left it), else TMIGR_NONE_NS.
 */
uint64_t tmigr_cpu_new_timer(uint64_t nextexp)
{
	struct tmigr_cpu *tmc = this_tmc();
	uint64_t ret;

	if (tmigr_is_not_available(tmc))
		return nextexp;
	if (WARN_ON_ONCE(!READ_ONCE(tmc->idle)))
		return tmigr_cpu_deactivate(nextexp);
	spin_lock(&tmc->lock);
	ret = READ_ONCE(tmc->wakeup);
	if (nextexp != TMIGR_NONE_NS && (nextexp != tmc->cpuevt.nextevt.key ||
					 READ_ONCE(tmc->cpuevt.ignore))) {
		ret = tmigr_new_timer(tmc, nextexp);
		tmigr_set_wakeup(tmc, ret);
	}
	spin_unlock(&tmc->lock);
	return ret;
}

/**
 * tmigr_cpu_offer - the idle current CPU's own timer wakes it at @own
 * @own: ns, its first pinned event; TMIGR_NONE_NS if none
 * @wakeup: what tmigr_cpu_deactivate() or tmigr_cpu_new_timer() just
 *	    returned
 *
 * Pre: interrupts off, the CPU idle in the hierarchy; it programs its
 * timer for the earlier of @own and the result.  Under tmigr_wake=own it
 * may become an armed CPU for @own, or decide anew when its offer's timer
 * moved later (tmigr_wake_offer()); otherwise returns @wakeup.
 */
uint64_t tmigr_cpu_offer(uint64_t own, uint64_t wakeup)
{
	struct tmigr_cpu *tmc = this_tmc();

	/* Every idle entry comes here: no lock unless offers are on. */
	if (tmigr_get_wake() != TMIGR_WAKE_OWN || tmigr_is_not_available(tmc) ||
	    tmc->isolated)
		return wakeup;
	spin_lock(&tmc->lock);
	if (READ_ONCE(tmc->idle) && tmc->online)
		wakeup = tmigr_wake_offer(tmc, own);
	spin_unlock(&tmc->lock);
	return wakeup;
}

/* ---- remote expiry ---- */

/*
 * Claim idle CPU @cpu's due event for a remote expiry here; false if it is
 * not ours to expire.
 */
static bool tmigr_remote_claim(struct tmigr_cpu *tmc, uint64_t now)
{
	bool claimed;

	timer_env_race_point(TMIGR_RP_REMOTE_CPU);
	spin_lock(&tmc->lock);
	/*
	 * Offline: its timers are not ours.  remote: another migrator is
	 * at it.  ignore: it woke up and serves itself.  Not due: its event
	 * changed and whoever changed it has queued it.
	 */
	claimed = tmc->online && !tmc->remote &&
		  !READ_ONCE(tmc->cpuevt.ignore) &&
		  now >= tmc->cpuevt.nextevt.key;
	if (claimed) {
		trace_tmigr_handle_remote_cpu(tmc);
		tmc->remote = true;
		/* One in the armed table keeps its duty: it wakes anyway. */
		if (!READ_ONCE(tmc->armed))
			tmigr_set_wakeup(tmc, TMIGR_NONE_NS);
	}
	spin_unlock(&tmc->lock);
	return claimed;
}

/*
 * Queue @tmc's next global event, @tevt as read at @basej, again after a
 * remote expiry at @now.  Pre: tmc->lock held, tmc->remote set.
 */
static void tmigr_remote_requeue(struct tmigr_cpu *tmc,
				 const struct timer_events *tevt, uint64_t now,
				 uint64_t basej)
{
	struct tmigr_walk data;
	uint64_t basem;

	/*
	 * The ns time of basej's start is not known here, only that it lies
	 * within the tick before now.  Take the earliest it can be: an event
	 * a little early costs at worst one fruitless look (expiry itself
	 * goes by jiffies, never early); one a little late would make every
	 * pulled timer a jiffy late, period after period.
	 */
	basem = now > timer_tick_ns() ? now - (timer_tick_ns() - 1) : 0;
	data = (struct tmigr_walk){
		.nextexp = tevt->has_global ?
				   timer_jiffies_to_ns(tevt->global, basej,
						       basem) :
				   TMIGR_NONE_NS,
		.firstexp = TMIGR_NONE_NS,
		.evt = &tmc->cpuevt,
		.remote = true,
	};
	/*
	 * Due but not expired: its base was being expired elsewhere.  Look
	 * again next jiffy; queued as due now, this walk would pull it
	 * again at once, forever.
	 */
	if (data.nextexp <= now)
		data.nextexp = now + timer_tick_ns();
	/* Walk even with no event left: see tmigr_update_events(). */
	tmigr_walk_cpu(tmigr_update_events, &data, tmc);
}

/*
 * Expire the due global timers of idle CPU @cpu here and queue its next
 * global event again.
 */
static void tmigr_handle_remote_cpu(unsigned int cpu, uint64_t now,
				    uint64_t basej)
{
	struct tmigr_cpu *tmc = &tmigr_cpus[cpu];
	struct timer_events tevt;

	if (!tmigr_remote_claim(tmc, now))
		return;
	/* Unlocked while expiring, so the CPU can leave idle meanwhile. */
	timer_env_race_point(TMIGR_RP_REMOTE_UNLOCKED);

	/*
	 * Also when @cpu is this CPU: time may have moved on since it ran
	 * its own bases, and a due timer left here would be queued again
	 * as already expired, forever (docs/races.md, "Own due timer met in
	 * remote handling").
	 */
	timer_expire_remote(cpu);

	/* Base locks before tmc->lock, as everywhere. */
	timer_lock_remote_bases(cpu);
	spin_lock(&tmc->lock);
	if (tmc->idle) {
		fetch_next_timer_interrupt_remote(basej, &tevt, cpu);
		timer_unlock_remote_bases(cpu);
		tmigr_remote_requeue(tmc, &tevt, now, basej);
	} else {
		/* Back from idle: it handles its timers and events itself. */
		timer_unlock_remote_bases(cpu);
	}
	tmc->remote = false;
	spin_unlock(&tmc->lock);
}

/**
 * tmigr_cpu_event_later - idle CPU @cpu's first global timer went away
 * @cpu: the CPU; its global base lock is held by the caller
 * @nextexp: the base's first expiry now in ns, TMIGR_NONE_NS if none
 *
 * Requeues @cpu's event in the hierarchy at @nextexp if that is later
 * than the queued one, as a remote expiry does; nothing if the CPU is not
 * idle, is being pulled, or has no event queued.  Base lock before the
 * tmigr locks, as everywhere.
 */
void tmigr_cpu_event_later(unsigned int cpu, uint64_t nextexp)
{
	struct tmigr_walk data = {
		.nextexp = nextexp,
		.firstexp = TMIGR_NONE_NS,
		.remote = true,
	};
	struct tmigr_cpu *tmc;

	if (!smp_load_acquire(&tmigr_ready) || cpu >= tmigr_nr_cpus)
		return;
	tmc = &tmigr_cpus[cpu];
	spin_lock(&tmc->lock);
	if (tmc->online && tmc->idle && !tmc->remote &&
	    !READ_ONCE(tmc->cpuevt.ignore) &&
	    nextexp > tmc->cpuevt.nextevt.key) {
		data.evt = &tmc->cpuevt;
		tmigr_walk_cpu(tmigr_update_events, &data, tmc);
	}
	spin_unlock(&tmc->lock);
}

static bool tmigr_handle_remote_up(struct tmigr_group *group,
				   struct tmigr_group *child,
				   struct tmigr_walk *data)
{
	struct tmigr_event *evt;
	unsigned int cpu;
	uint64_t next;

	(void)child;
	trace_tmigr_handle_remote(group);
	for (;;) {
		/* Only the migrator handles an active group. */
		if (!tmigr_check_migrator(group, data->childmask))
			return true;
		spin_lock(&group->lock);
		evt = tmigr_next_expired_groupevt(group, data->now);
		if (!evt)
			break;
		cpu = evt->cpu;
		spin_unlock(&group->lock);
		tmigr_handle_remote_cpu(cpu, data->now, data->basej);
	}
	next = group->next_expiry;
	if (next < data->firstexp)
		data->firstexp = next;
	/*
	 * An idle CPU at the idle root: it handled the whole hierarchy and
	 * must wake for what is left, unless another idle CPU does.  Under
	 * the root's lock, like the decision of a CPU going idle.
	 */
	if (!data->parent && READ_ONCE(data->tmc->idle) &&
	    tmigr_read_state(group).migrator == TMIGR_NONE) {
		data->firstexp =
			tmigr_wake_decide(data->tmc, data->firstexp, true);
		data->decided = true;
	}
	spin_unlock(&group->lock);
	return false;
}

/**
 * tmigr_handle_remote - expire idle CPUs' due global timers here
 *
 * Pre: timer softirq of the current CPU.  Walks the groups this CPU is
 * migrator of (or that have none) and records in its wakeup the first
 * event left there, which it must wake for if it is idle.
 */
void tmigr_handle_remote(void)
{
	struct tmigr_cpu *tmc = this_tmc();
	struct tmigr_walk data = { .firstexp = TMIGR_NONE_NS };

	/* An isolated CPU never expires other CPUs' timers. */
	if (tmigr_is_not_available(tmc) || tmc->isolated)
		return;
	/*
	 * Not the migrator: nothing to do, except clearing a wakeup left
	 * from when it was the last CPU; else it re-arms for an event
	 * another CPU handles, over and over (docs/races.md, "Stale wakeup of
	 * a non-migrator").
	 */
	if (!tmigr_check_migrator(tmc->tmgroup, tmc->childmask) &&
	    READ_ONCE(tmc->wakeup) == TMIGR_NONE_NS)
		return;

	data.basej = timer_env_jiffies();
	data.now = timer_env_now_ns();
	data.tmc = tmc;
	data.childmask = tmc->childmask;
	tmigr_walk_from(tmigr_handle_remote_up, &data, NULL, tmc->tmgroup);

	spin_lock(&tmc->lock);
	/*
	 * Stopped below the root: under tmigr_wake=linux the first event of
	 * the groups it walked (the idle CPU wakes for it, as in Linux);
	 * under one nothing, as the active group's migrator serves them; and
	 * out of the armed table if the root is active (tmigr_wake_settle()).
	 */
	tmigr_set_wakeup(tmc, tmigr_walk_wakeup(&data));
	spin_unlock(&tmc->lock);
}

static bool tmigr_requires_handle_remote_up(struct tmigr_group *group,
					    struct tmigr_group *child,
					    struct tmigr_walk *data)
{
	uint64_t next;

	(void)child;
	if (!tmigr_check_migrator(group, data->childmask))
		return true;
	/*
	 * The minimum over every level, not the top's: an active CPU's
	 * ignored events mean a lower group may hold an earlier event than
	 * its parent knows of (docs/races.md, "Quick check sees only the
	 * top").
	 */
	next = READ_ONCE(group->next_expiry);
	if (next < data->firstexp)
		data->firstexp = next;
	return false;
}

/**
 * tmigr_requires_handle_remote - does the tick need tmigr_handle_remote()?
 *
 * Pre: tick of the current CPU, interrupts off.  Lockless and racy: a
 * wrong "yes" costs a walk, a wrong "no" is caught by the next tick.
 */
bool tmigr_requires_handle_remote(void)
{
	struct tmigr_cpu *tmc = this_tmc();
	struct tmigr_walk data = { .firstexp = TMIGR_NONE_NS };
	uint64_t now;

	if (tmigr_is_not_available(tmc) || tmc->isolated)
		return false;
	now = timer_env_now_ns();
	/* Idle (woken by an interrupt): only for what it must wake for. */
	if (READ_ONCE(tmc->idle))
		return now >= READ_ONCE(tmc->wakeup);
	data.childmask = tmc->childmask;
	tmigr_walk_from(tmigr_requires_handle_remote_up, &data, NULL,
			tmc->tmgroup);
	return now >= data.firstexp;
}

/* ---- online and offline ---- */

/**
 * tmigr_cpu_online - the current CPU joins the hierarchy, active
 *
 * Pre: tmigr_cpu_prepare() done for this CPU; the CPU is running (not
 * idle).  Returns 0, or -EINVAL if the CPU has no groups.
 */
int tmigr_cpu_online(void)
{
	struct tmigr_cpu *tmc = this_tmc();

	if (WARN_ON_ONCE(!tmc || !smp_load_acquire(&tmc->tmgroup)))
		return -EINVAL;
	spin_lock(&tmc->lock);
	if (!tmc->online) {
		WRITE_ONCE(tmc->idle, false);
		trace_tmigr_cpu_online(tmc);
		__tmigr_cpu_activate(tmc);
		WRITE_ONCE(tmc->online, true);
	}
	spin_unlock(&tmc->lock);
	return 0;
}

/* Another online CPU than @self, or -1. */
static int tmigr_any_other_online(unsigned int self)
{
	unsigned int i;

	for (i = 1; i < tmigr_nr_cpus; i++) {
		unsigned int cpu = (self + i) % tmigr_nr_cpus;

		if (READ_ONCE(tmigr_cpus[cpu].online))
			return (int)cpu;
	}
	return -1;
}

/*
 * The hierarchy is idle and its first event at @firstexp has nobody to
 * wake for it: make idle @tmc wake for it, as if it had been the last CPU
 * going idle, and kick it so its idle path re-arms (an active one handles
 * it in its tick anyway).
 */
static void tmigr_hand_over(struct tmigr_cpu *tmc, uint64_t firstexp)
{
	spin_lock(&tmc->lock);
	if (tmc->online && tmc->idle && firstexp < READ_ONCE(tmc->wakeup))
		tmigr_set_wakeup(tmc, firstexp);
	spin_unlock(&tmc->lock);
	timer_env_wake_cpu(tmc->cpuevt.cpu);
}

/**
 * tmigr_cpu_offline - the current CPU leaves the hierarchy
 *
 * Pre: the CPU is running, interrupts off; it may run idle CPUs' due
 * global timers here.  Its own timers are its caller's business (it
 * queues none).  If it was the last active CPU and events are pending,
 * another online CPU is told to wake for the first and kicked with
 * timer_env_wake_cpu() (docs/races.md, "Last active CPU goes offline").
 * Returns 0.
 */
int tmigr_cpu_offline(void)
{
	struct tmigr_cpu *tmc = this_tmc();
	uint64_t firstexp;
	int other;

	if (!tmc)
		return -EINVAL;
	/*
	 * Active, it is a migrator: expire what is due before leaving,
	 * rather than hand an overdue event over through an IPI (docs/races.md,
	 * "CPU online for less than a tick").
	 */
	if (tmc->online && !READ_ONCE(tmc->idle))
		tmigr_handle_remote();
	spin_lock(&tmc->lock);
	if (!tmc->online) {
		spin_unlock(&tmc->lock);
		return 0;
	}
	WRITE_ONCE(tmc->online, false);
	tmigr_set_wakeup(tmc, TMIGR_NONE_NS);
	if (tmc->idle) {
		/* Leave from the active state, as the usual path does. */
		WRITE_ONCE(tmc->idle, false);
		__tmigr_cpu_activate(tmc);
	}
	firstexp = __tmigr_cpu_deactivate(tmc, TMIGR_NONE_NS, true);
	trace_tmigr_cpu_offline(tmc);
	spin_unlock(&tmc->lock);

	if (firstexp != TMIGR_NONE_NS) {
		other = tmigr_any_other_online(smp_processor_id());
		if (other >= 0)
			tmigr_hand_over(&tmigr_cpus[other], firstexp);
	}
	return 0;
}

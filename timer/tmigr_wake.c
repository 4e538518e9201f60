// SPDX-License-Identifier: GPL-2.0
/*
 * timer/tmigr_wake.c - which idle CPU wakes for the idle hierarchy's
 * first event (tmigr_wake=, docs/tmigr-wake.md).
 *
 * Under TMIGR_WAKE_LINUX every CPU that finds the whole hierarchy idle
 * (the last CPU going idle, an idle CPU queueing a new first event, an
 * idle CPU that handled remote timers up to the root) arms its own timer
 * for the root's first event, as Linux does.  An armed LAPIC cannot be
 * taken back without an IPI, itself a wake-up, so CPUs armed earlier
 * still wake: two or more CPUs wake for the same event and all but one
 * find nothing.
 *
 * Under TMIGR_WAKE_ONE the armed CPUs say which idle CPUs will wake at
 * what time and walk the hierarchy then: each CPU has one entry, in its
 * struct tmigr_cpu (armed, armed_exp, armed_own, relied), and a bit in
 * tmigr_armed_mask while it is valid.  A CPU that finds the hierarchy idle
 * with first event @first arms only if another armed CPU wakes at or
 * before @first; else it relies on that one.  Invariant: a valid entry
 * (cpu, exp) means that @cpu is idle, its tmigr_cpu.wakeup is exp, and
 * its timer is programmed for exp or earlier; so it will run
 * tmigr_handle_remote() by exp.  Hence:
 *   - only a CPU itself writes its entry, in its own walk, under its
 *     wake_lock, right before it sets its wakeup to the same value;
 *   - it drops the entry when it leaves idle (tmigr_wake_forget()),
 *     before its wakeup is cleared;
 *   - a CPU whose walk stopped at an active group drops its entry only if
 *     the root is active when it holds its wake_lock (tmigr_wake_settle()):
 *     a CPU that relied on it found the root idle before, under that same
 *     lock, so whoever made it active since handles the events, and the
 *     next last CPU going idle decides anew.  Apart from its entry it
 *     wakes for nothing of the groups it walked: their events wait in the
 *     active group, whose migrator serves them (Linux wakes the CPU for
 *     them as well).
 * A CPU going offline never enters itself (it would not wake).
 *
 * Under TMIGR_WAKE_OWN an idle CPU whose own pinned timer wakes it before
 * its wakeup also enters itself, for that time, from its idle path
 * (tmigr_wake_offer()): the invariant above holds for it as it stands, so
 * deciders may rely on a wake-up that happens anyway.  If its timer then
 * moves later, it takes the offer back if no decider relied on it, else
 * decides anew at the idle root (tmigr_wake_redecide()) rather than keep
 * a wake-up only the hierarchy wants.
 *
 * Per-CPU entries, not one shared table: offers and idle exits are on
 * every CPU's idle path, and a shared table's lock collapsed a 64-CPU
 * guest under TCG (docs/tmigr-wake.md, "Why entries are per CPU").  Only
 * a decider, under the root's lock, takes other CPUs' wake_locks, one at
 * a time.
 *
 * Lock order: tmigr_cpu lock, group locks, then one wake_lock.
 */
#include "timer/timer_migration_internal.h"
#include "timer_env.h"
#include "timer/timer.h"

enum tmigr_wake tmigr_wake_policy = TMIGR_WAKE_DEFAULT;

uint64_t *tmigr_armed_mask;

/**
 * tmigr_set_wake - choose the wake policy
 * @policy: TMIGR_WAKE_ONE, TMIGR_WAKE_LINUX or TMIGR_WAKE_OWN
 *
 * Pre: before the CPUs use the hierarchy (boot, or between test runs).
 */
void tmigr_set_wake(enum tmigr_wake policy)
{
	WRITE_ONCE(tmigr_wake_policy, policy);
}

enum tmigr_wake tmigr_get_wake(void)
{
	return READ_ONCE(tmigr_wake_policy);
}

/* Pre: @tmc->wake_lock held.  Make @tmc's entry (@exp, @own). */
static void tmigr_entry_set(struct tmigr_cpu *tmc, uint64_t exp, bool own)
{
	unsigned int cpu = tmc->cpuevt.cpu;

	WRITE_ONCE(tmc->armed_exp, exp);
	WRITE_ONCE(tmc->armed_own, own);
	if (tmc->armed)
		return;
	WRITE_ONCE(tmc->armed, true);
	atomic_fetch_or(&tmigr_armed_mask[cpu / 64], 1ULL << (cpu % 64));
}

/* Pre: @tmc->wake_lock held.  @tmc has no entry. */
static void tmigr_entry_drop(struct tmigr_cpu *tmc)
{
	unsigned int cpu = tmc->cpuevt.cpu;

	tmc->relied = false;
	if (!tmc->armed)
		return;
	WRITE_ONCE(tmc->armed, false);
	atomic_fetch_and(&tmigr_armed_mask[cpu / 64], ~(1ULL << (cpu % 64)));
}

/*
 * Does @tmc's entry, read as @exp and @own, walk the hierarchy in time
 * for an event at @first?  A CPU armed at the idle root wakes at the start
 * of the jiffy its event falls in (timer_nohz_next_event()), so a decider
 * would wake at that of @first; an offered entry's time is such a start
 * itself, and covers @first if it is that one or earlier.  An entry armed
 * for an event is rounded by its own CPU, so it covers @first only if not
 * later.
 */
static bool tmigr_entry_covers(uint64_t exp, bool own, uint64_t first)
{
	if (own)
		return exp < first + timer_tick_ns();
	return exp <= first;
}

/*
 * Pre: the root's lock held, the root idle.  Is there an armed CPU other
 * than @self that walks in time for @first?  The one found is marked
 * relied on, under its wake_lock, so that it cannot take its entry back
 * without deciding anew.  A lockless look first: only a likely cover is
 * locked, and one missed costs a wake-up, never a timer.
 */
static bool tmigr_wake_covered(const struct tmigr_cpu *self, uint64_t first)
{
	unsigned int words = (tmigr_nr_cpus + 63) / 64, w;

	for (w = 0; w < words; w++) {
		uint64_t bits = READ_ONCE(tmigr_armed_mask[w]);

		while (bits) {
			unsigned int cpu = w * 64 + __builtin_ctzll(bits);
			struct tmigr_cpu *tmc = &tmigr_cpus[cpu];
			bool covers;

			bits &= bits - 1;
			if (tmc == self ||
			    !tmigr_entry_covers(READ_ONCE(tmc->armed_exp),
						READ_ONCE(tmc->armed_own),
						first))
				continue;
			spin_lock(&tmc->wake_lock);
			covers = tmc->armed &&
				 tmigr_entry_covers(tmc->armed_exp,
						    tmc->armed_own, first);
			if (covers)
				tmc->relied = true;
			spin_unlock(&tmc->wake_lock);
			if (covers)
				return true;
		}
	}
	return false;
}

/**
 * tmigr_wake_decide - the hierarchy is idle with first event @first: must
 * the CPU of @tmc wake for it?
 * @tmc: the current CPU's
 * @first: the root's first event, TMIGR_NONE_NS if none
 * @record: enter @tmc among the armed CPUs if it must wake (false: it
 *	    goes offline)
 *
 * Pre: the root's lock held, the root idle: deciders are serialised with
 * every change of the root's first event.  The caller sets @tmc's wakeup
 * to the result before it sleeps.  Returns @first, or TMIGR_NONE_NS when
 * another armed CPU wakes by then.  A decision covers the root's first
 * event, hence every event a CPU that relied on @tmc decided for: its
 * entry is no longer relied on.
 */
uint64_t tmigr_wake_decide(struct tmigr_cpu *tmc, uint64_t first, bool record)
{
	bool covered;

	if (READ_ONCE(tmigr_wake_policy) == TMIGR_WAKE_LINUX)
		return first;
	covered = first == TMIGR_NONE_NS || tmigr_wake_covered(tmc, first);
	spin_lock(&tmc->wake_lock);
	/* Nothing to wake for, or another CPU wakes for it: not armed. */
	if (covered || !record) {
		tmigr_entry_drop(tmc);
		if (covered)
			first = TMIGR_NONE_NS;
	} else {
		tmigr_entry_set(tmc, first, false);
		tmc->relied = false;
	}
	spin_unlock(&tmc->wake_lock);
	return first;
}

/*
 * Pre: @tmc's lock held, its wakeup an offer.  Its own timer moved later
 * (it woke for something else and got other work), so waking at the offer
 * would be for the hierarchy alone.  If no decider relied on the offer it
 * is taken back: the CPU is as it was before it offered, an entry it had
 * then (a decision at the idle root, still true) included.  Else it
 * decides anew (tmigr_wake_redecide()).  Returns the new wakeup, set.
 */
static uint64_t tmigr_wake_withdraw(struct tmigr_cpu *tmc)
{
	uint64_t prior = tmc->prior_wakeup;
	bool relied;

	spin_lock(&tmc->wake_lock);
	relied = tmc->relied;
	if (!relied && tmc->prior_armed)
		tmigr_entry_set(tmc, prior, false);
	else if (!relied)
		tmigr_entry_drop(tmc);
	spin_unlock(&tmc->wake_lock);
	if (relied)
		return tmigr_wake_redecide(tmc);
	tmigr_set_wakeup(tmc, prior);
	return prior;
}

/**
 * tmigr_wake_offer - under TMIGR_WAKE_OWN the idle CPU of @tmc wakes at
 * @own for a timer of its own: it becomes an armed CPU for @own
 * @tmc: the current CPU's, idle and online in the hierarchy, not isolated
 * @own: the first event of its own it programs its timer for (ns)
 *
 * Pre: @tmc's lock held; the caller programs the CPU's timer for @own or
 * earlier before it halts.  If @own is earlier than the CPU's wakeup, the
 * wakeup becomes @own and the CPU's entry says so: the CPU then keeps the
 * invariant like a CPU armed at the idle root, so a CPU deciding for the
 * idle hierarchy may rely on it.  It costs no wake-up, as the CPU wakes at
 * @own anyway; at that wake it walks the hierarchy (its wakeup is due)
 * and, at the idle root, decides again for the first event, as an armed
 * CPU does.  An entry only ever moves earlier here; it moves later only
 * when nobody relied on it (tmigr_wake_withdraw()) or in a decision at
 * the idle root, which covers the root's first event, hence every event
 * a CPU relying on it decided for.  Only this CPU's wake_lock is taken:
 * uncontended but for a decider looking at this entry.
 */
uint64_t tmigr_wake_offer(struct tmigr_cpu *tmc, uint64_t own)
{
	uint64_t wakeup = READ_ONCE(tmc->wakeup);

	lockdep_assert_held(&tmc->lock);
	if (READ_ONCE(tmigr_wake_policy) != TMIGR_WAKE_OWN)
		return wakeup;
	if (tmc->offered && own > wakeup)
		wakeup = tmigr_wake_withdraw(tmc);
	if (own >= wakeup)
		return wakeup;
	spin_lock(&tmc->wake_lock);
	if (!tmc->offered) {
		tmc->prior_wakeup = wakeup;
		tmc->prior_armed = tmc->armed;
	}
	/* Earlier than before: whoever relied on it still may. */
	tmigr_entry_set(tmc, own, true);
	spin_unlock(&tmc->wake_lock);
	WRITE_ONCE(tmc->wakeup, own);
	tmc->offered = true;
	return own;
}

/**
 * tmigr_wake_forget - the CPU of @tmc leaves idle: no longer armed
 * @tmc: the current CPU's
 *
 * Pre: @tmc's lock held.  Only this CPU sets its armed flag, so a clear
 * flag read without its wake_lock stays clear.
 */
void tmigr_wake_forget(struct tmigr_cpu *tmc)
{
	lockdep_assert_held(&tmc->lock);
	if (!READ_ONCE(tmc->armed))
		return;
	spin_lock(&tmc->wake_lock);
	tmigr_entry_drop(tmc);
	spin_unlock(&tmc->wake_lock);
}

/* The root above @tmc as of now (a new root may be connected later). */
static struct tmigr_group *tmigr_root_of(struct tmigr_cpu *tmc)
{
	struct tmigr_group *group = tmc->tmgroup, *parent;

	while ((parent = smp_load_acquire(&group->parent)))
		group = parent;
	return group;
}

static bool tmigr_root_active(struct tmigr_cpu *tmc)
{
	return tmigr_read_state(tmigr_root_of(tmc)).active;
}

/**
 * tmigr_wake_redecide - an offer another CPU relied on cannot be kept
 * @tmc: the current CPU's, idle, its wakeup an offer
 *
 * Pre: @tmc's lock held.  Its own timer moved later (it woke for something
 * else and got other work), so it would wake at the offer only for the
 * hierarchy, whose first event may be much later or gone.  It decides now
 * instead, as at the idle root: under the root's lock, for the root's
 * first event, which covers every event a CPU relying on the offer
 * decided for.  If the root is active, its migrators serve the events and
 * the last of them to go idle decides (as in tmigr_wake_settle()).
 * Returns the new wakeup, set.
 */
uint64_t tmigr_wake_redecide(struct tmigr_cpu *tmc)
{
	struct tmigr_group *root;
	uint64_t wakeup = TMIGR_NONE_NS;

	lockdep_assert_held(&tmc->lock);
	for (;;) {
		root = tmigr_root_of(tmc);
		spin_lock(&root->lock);
		/* A new root may have been connected above it meanwhile. */
		if (!smp_load_acquire(&root->parent))
			break;
		spin_unlock(&root->lock);
	}
	if (tmigr_read_state(root).migrator == TMIGR_NONE) {
		wakeup = tmigr_wake_decide(tmc, root->next_expiry, true);
	} else {
		spin_lock(&tmc->wake_lock);
		tmigr_entry_drop(tmc);
		spin_unlock(&tmc->wake_lock);
	}
	spin_unlock(&root->lock);
	tmigr_set_wakeup(tmc, wakeup);
	return wakeup;
}

/**
 * tmigr_wake_settle - an idle CPU's walk stopped at an active group
 * @tmc: the current CPU's, idle
 * @firstexp: what the walk says it must wake for (TMIGR_NONE_NS: nothing)
 *
 * Pre: @tmc's lock held.  Under TMIGR_WAKE_LINUX returns @firstexp.
 * Under TMIGR_WAKE_ONE and OWN an armed CPU keeps its entry unless the
 * root is active (see the top of the file) and wakes for the entry alone;
 * one not armed wakes for nothing.  Returns the wakeup.
 */
uint64_t tmigr_wake_settle(struct tmigr_cpu *tmc, uint64_t firstexp)
{
	lockdep_assert_held(&tmc->lock);
	/*
	 * The walk stopped because a group's migrator is another, active
	 * child: the idle groups it walked queued their first events there,
	 * and that migrator's tick expires them.  If it goes idle first, its
	 * own walk carries the group's events up, to an active group or to
	 * the idle root, where the CPU going idle arms for them: the
	 * hierarchy's guarantee for every CPU that goes idle below an active
	 * group.  So under ONE and OWN nothing of @firstexp is this CPU's
	 * to wake for; Linux wakes for it anyway (docs/tmigr-wake.md,
	 * "below").
	 */
	if (tmigr_get_wake() != TMIGR_WAKE_LINUX)
		firstexp = TMIGR_NONE_NS;
	if (!READ_ONCE(tmc->armed))
		return firstexp;
	spin_lock(&tmc->wake_lock);
	if (tmc->armed && tmigr_root_active(tmc)) {
		tmigr_entry_drop(tmc);
	} else if (tmc->armed) {
		if (tmc->armed_exp < firstexp)
			firstexp = tmc->armed_exp;
		WRITE_ONCE(tmc->armed_exp, firstexp);
	}
	spin_unlock(&tmc->wake_lock);
	return firstexp;
}

/**
 * tmigr_wake_armed - is @cpu armed, and for when (tests, views)
 * @cpu: any CPU
 * @exp: set to its entry's time if it is
 */
bool tmigr_wake_armed(unsigned int cpu, uint64_t *exp)
{
	struct tmigr_cpu *tmc;
	bool armed;

	if (!smp_load_acquire(&tmigr_ready) || cpu >= tmigr_nr_cpus)
		return false;
	tmc = &tmigr_cpus[cpu];
	spin_lock(&tmc->wake_lock);
	armed = tmc->armed;
	if (armed)
		*exp = tmc->armed_exp;
	spin_unlock(&tmc->wake_lock);
	return armed;
}

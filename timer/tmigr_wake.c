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
 * Under TMIGR_WAKE_ONE a table of armed CPUs, tmigr_armed[], says which
 * idle CPUs will wake at what time and walk the hierarchy then.  A CPU
 * that finds the hierarchy idle with first event @first arms only if no
 * other CPU in the table wakes at or before @first; else it relies on
 * that one.  Invariant: an entry (cpu, exp) means that @cpu is idle, its
 * tmigr_cpu.wakeup is exp, and its timer is programmed for exp or
 * earlier; so it will run tmigr_handle_remote() by exp.  Hence:
 *   - only a CPU itself adds its entry, in its own walk, under its
 *     tmigr_cpu lock, right before it sets its wakeup to the same value;
 *   - it removes the entry when it leaves idle (tmigr_wake_forget()),
 *     before its wakeup is cleared;
 *   - anyone may drop an entry under the table lock when the table is
 *     full: a CPU missing from the table only costs a wake-up, never a
 *     timer;
 *   - a CPU whose walk stopped at an active group drops its entry only if
 *     the root is active when it holds the table lock (tmigr_wake_settle()):
 *     a CPU that relied on it found the root idle before, so whoever made
 *     it active since handles the events, and the next last CPU going
 *     idle decides anew.  Apart from its entry it wakes for nothing of the
 *     groups it walked: their events wait in the active group, whose
 *     migrator serves them (Linux wakes the CPU for them as well).
 * A CPU going offline never adds itself (it would not wake).
 *
 * Under TMIGR_WAKE_OWN an idle CPU whose own pinned timer wakes it before
 * its wakeup also enters itself, for that time, from its idle path
 * (tmigr_wake_offer()): the invariant above holds for it as it stands, so
 * deciders may rely on a wake-up that happens anyway.  If its timer then
 * moves later it decides anew at the idle root (tmigr_wake_redecide())
 * rather than keep a wake-up only the hierarchy wants.
 *
 * Lock order: tmigr_cpu lock, group locks, then tmigr_wake_lock.
 */
#include "timer/timer_migration_internal.h"
#include "timer_env.h"
#include "timer/timer.h"

#define TMIGR_ARMED_SLOTS 32
#define TMIGR_NO_CPU	  (~0u)

enum tmigr_wake tmigr_wake_policy = TMIGR_WAKE_ONE;

static spinlock_t tmigr_wake_lock;
static struct tmigr_armed {
	unsigned int cpu; /* TMIGR_NO_CPU: free */
	uint64_t exp;	  /* its tmigr_cpu.wakeup */
	bool own; /* offered: exp is a jiffy start (tmigr_wake_offer()) */
} tmigr_armed[TMIGR_ARMED_SLOTS];

/*
 * The latest entry's time when the table is full, else TMIGR_NONE_NS: an
 * offer at or after it could not enter, so it does not take the lock.
 * Written under tmigr_wake_lock (tmigr_wake_unlock()), read without it.
 */
static uint64_t tmigr_armed_bar = TMIGR_NONE_NS;

/* Unlock tmigr_wake_lock, the table's bar brought up to date first. */
static void tmigr_wake_unlock(void)
{
	uint64_t bar = 0;
	int i;

	for (i = 0; i < TMIGR_ARMED_SLOTS; i++) {
		if (tmigr_armed[i].cpu == TMIGR_NO_CPU) {
			bar = TMIGR_NONE_NS;
			break;
		}
		if (tmigr_armed[i].exp > bar)
			bar = tmigr_armed[i].exp;
	}
	WRITE_ONCE(tmigr_armed_bar, bar);
	spin_unlock(&tmigr_wake_lock);
}

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

/* Called by tmigr_init(): empty table. */
void tmigr_wake_reset(void)
{
	unsigned int i;

	spin_lock_init(&tmigr_wake_lock);
	for (i = 0; i < TMIGR_ARMED_SLOTS; i++)
		tmigr_armed[i] = (struct tmigr_armed){ TMIGR_NO_CPU, 0, false };
	WRITE_ONCE(tmigr_armed_bar, TMIGR_NONE_NS);
}

/* The slot of @cpu, or of no CPU if @cpu is TMIGR_NO_CPU; -1 if none. */
static int tmigr_armed_slot(unsigned int cpu)
{
	int i;

	for (i = 0; i < TMIGR_ARMED_SLOTS; i++)
		if (tmigr_armed[i].cpu == cpu)
			return i;
	return -1;
}

/* Pre: tmigr_wake_lock held.  Drop slot @i, telling its CPU. */
static void tmigr_armed_drop(int i)
{
	WRITE_ONCE(tmigr_cpus[tmigr_armed[i].cpu].armed, false);
	tmigr_armed[i].cpu = TMIGR_NO_CPU;
}

/*
 * Pre: tmigr_wake_lock held.  Enter @tmc for @exp, which is earlier than
 * every other entry: if the table is full, the latest one goes.
 */
static void tmigr_armed_add(struct tmigr_cpu *tmc, uint64_t exp)
{
	unsigned int cpu = tmc->cpuevt.cpu;
	int i = tmigr_armed_slot(cpu), j;

	if (i < 0)
		i = tmigr_armed_slot(TMIGR_NO_CPU);
	if (i < 0) {
		for (i = 0, j = 1; j < TMIGR_ARMED_SLOTS; j++)
			if (tmigr_armed[j].exp > tmigr_armed[i].exp)
				i = j;
		tmigr_armed_drop(i);
	}
	tmigr_armed[i] = (struct tmigr_armed){ cpu, exp, false };
	WRITE_ONCE(tmc->armed, true);
}

/*
 * Does entry @a walk the hierarchy in time for an event at @first?  A CPU
 * armed at the idle root wakes at the start of the jiffy its event falls
 * in (timer_nohz_next_event()), so a decider would wake at that of
 * @first; an offered entry's time is such a start itself, and covers
 * @first if it is that one or earlier.  An entry armed for an event is
 * rounded by its own CPU, so it covers @first only if not later.
 */
static bool tmigr_armed_covers(const struct tmigr_armed *a, uint64_t first)
{
	if (a->own)
		return a->exp < first + timer_tick_ns();
	return a->exp <= first;
}

/**
 * tmigr_wake_decide - the hierarchy is idle with first event @first: must
 * the CPU of @tmc wake for it?
 * @tmc: the current CPU's
 * @first: the root's first event, TMIGR_NONE_NS if none
 * @record: enter @tmc in the table if it must wake (false: it goes offline)
 *
 * Pre: the root's lock held, the root idle: deciders are serialised with
 * every change of the root's first event.  The caller sets @tmc's wakeup
 * to the result before it sleeps.  Returns @first, or TMIGR_NONE_NS when
 * another CPU in the table wakes by then.
 */
uint64_t tmigr_wake_decide(struct tmigr_cpu *tmc, uint64_t first, bool record)
{
	unsigned int cpu = tmc->cpuevt.cpu;
	bool covered = first == TMIGR_NONE_NS;
	int i, mine;

	if (READ_ONCE(tmigr_wake_policy) == TMIGR_WAKE_LINUX)
		return first;
	spin_lock(&tmigr_wake_lock);
	for (i = 0; i < TMIGR_ARMED_SLOTS && !covered; i++)
		if (tmigr_armed[i].cpu != TMIGR_NO_CPU &&
		    tmigr_armed[i].cpu != cpu)
			covered = tmigr_armed_covers(&tmigr_armed[i], first);
	mine = tmigr_armed_slot(cpu);
	/* Nothing to wake for, or another CPU wakes for it: not armed. */
	if (covered) {
		if (mine >= 0)
			tmigr_armed_drop(mine);
		first = TMIGR_NONE_NS;
	} else if (record) {
		tmigr_armed_add(tmc, first);
	} else if (mine >= 0) {
		tmigr_armed_drop(mine);
	}
	tmigr_wake_unlock();
	return first;
}

static bool tmigr_root_active(struct tmigr_cpu *tmc);

/*
 * Pre: tmigr_wake_lock held.  Enter @tmc for @exp, earlier than its wakeup,
 * unless the table is full of entries at or before @exp: only a later one
 * may go.  Returns whether it is in the table for @exp.
 */
static bool tmigr_armed_offer(struct tmigr_cpu *tmc, uint64_t exp)
{
	unsigned int cpu = tmc->cpuevt.cpu;
	int i = tmigr_armed_slot(cpu), j;

	if (i >= 0) {
		/* Earlier than before: whoever relied on it still may. */
		tmigr_armed[i].exp = exp;
		tmigr_armed[i].own = true;
		return true;
	}
	i = tmigr_armed_slot(TMIGR_NO_CPU);
	if (i < 0) {
		for (i = 0, j = 1; j < TMIGR_ARMED_SLOTS; j++)
			if (tmigr_armed[j].exp > tmigr_armed[i].exp)
				i = j;
		if (tmigr_armed[i].exp <= exp)
			return false;
		tmigr_armed_drop(i);
	}
	tmigr_armed[i] = (struct tmigr_armed){ cpu, exp, true };
	WRITE_ONCE(tmc->armed, true);
	return true;
}

/**
 * tmigr_wake_offer - under TMIGR_WAKE_OWN the idle CPU of @tmc wakes at
 * @own for a timer of its own: it becomes an armed CPU for @own
 * @tmc: the current CPU's, idle and online in the hierarchy, not isolated
 * @own: the first event of its own it programs its timer for (ns)
 *
 * Pre: @tmc's lock held; the caller programs the CPU's timer for @own or
 * earlier before it halts.  If @own is earlier than the CPU's wakeup and
 * the table takes it, the wakeup becomes @own: the CPU then keeps the
 * table's invariant like a CPU armed at the idle root, so a CPU deciding
 * for the idle hierarchy may rely on it.  It costs no wake-up, as the CPU
 * wakes at @own anyway; at that wake it walks the hierarchy (its wakeup is
 * due) and, at the idle root, decides again for the first event, as an
 * armed CPU does.  An entry only ever moves earlier here; it moves later
 * only in a decision at the idle root, which covers the root's first
 * event, hence every event a CPU relying on it decided for.
 */
uint64_t tmigr_wake_offer(struct tmigr_cpu *tmc, uint64_t own)
{
	uint64_t wakeup = READ_ONCE(tmc->wakeup);

	lockdep_assert_held(&tmc->lock);
	if (READ_ONCE(tmigr_wake_policy) != TMIGR_WAKE_OWN)
		return wakeup;
	/*
	 * Its own timer moved later (it woke for something else and got
	 * other work): a CPU may have relied on the offer, so it decides for
	 * the hierarchy now rather than wake at the offer for it.
	 */
	if (tmc->offered && own > wakeup)
		wakeup = tmigr_wake_redecide(tmc);
	/*
	 * Full of earlier entries, or an active root, whose migrators serve
	 * the events (racy looks: a miss costs a wake-up, not a timer).
	 * Without the second, every CPU going idle under load would take the
	 * table's lock, and the lock alone would cost more than the wakes.
	 */
	if (own >= wakeup || own >= READ_ONCE(tmigr_armed_bar) ||
	    tmigr_root_active(tmc))
		return wakeup;
	spin_lock(&tmigr_wake_lock);
	if (tmigr_armed_offer(tmc, own)) {
		tmc->offered = true;
		wakeup = own;
		WRITE_ONCE(tmc->wakeup, wakeup);
	}
	tmigr_wake_unlock();
	return wakeup;
}

/**
 * tmigr_wake_forget - the CPU of @tmc leaves idle: out of the table
 * @tmc: the current CPU's
 *
 * Pre: @tmc's lock held.  Only this CPU sets its armed flag, so a clear
 * flag read without the table lock stays clear.
 */
void tmigr_wake_forget(struct tmigr_cpu *tmc)
{
	int i;

	lockdep_assert_held(&tmc->lock);
	if (!READ_ONCE(tmc->armed))
		return;
	spin_lock(&tmigr_wake_lock);
	i = tmigr_armed_slot(tmc->cpuevt.cpu);
	if (i >= 0)
		tmigr_armed_drop(i);
	tmigr_wake_unlock();
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
	int i;

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
		spin_lock(&tmigr_wake_lock);
		i = tmigr_armed_slot(tmc->cpuevt.cpu);
		if (i >= 0)
			tmigr_armed_drop(i);
		tmigr_wake_unlock();
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
 * Under TMIGR_WAKE_ONE and OWN a CPU in the table keeps its entry unless the root
 * is active (see the top of the file) and wakes for the entry alone;
 * one not in it wakes for nothing.  Returns the wakeup.
 */
uint64_t tmigr_wake_settle(struct tmigr_cpu *tmc, uint64_t firstexp)
{
	int i;

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
	spin_lock(&tmigr_wake_lock);
	i = tmigr_armed_slot(tmc->cpuevt.cpu);
	if (i >= 0 && tmigr_root_active(tmc)) {
		tmigr_armed_drop(i);
	} else if (i >= 0) {
		if (tmigr_armed[i].exp < firstexp)
			firstexp = tmigr_armed[i].exp;
		tmigr_armed[i].exp = firstexp;
	}
	tmigr_wake_unlock();
	return firstexp;
}

/**
 * tmigr_wake_armed - is @cpu in the table, and for when (tests, views)
 * @cpu: any CPU
 * @exp: set to its entry's time if it is
 */
bool tmigr_wake_armed(unsigned int cpu, uint64_t *exp)
{
	int i;

	if (!smp_load_acquire(&tmigr_ready))
		return false;
	spin_lock(&tmigr_wake_lock);
	i = tmigr_armed_slot(cpu);
	if (i >= 0)
		*exp = tmigr_armed[i].exp;
	tmigr_wake_unlock();
	return i >= 0;
}

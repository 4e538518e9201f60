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
 * Lock order: tmigr_cpu lock, group locks, then tmigr_wake_lock.
 */
#include "timer/timer_migration_internal.h"
#include "timer_env.h"

#define TMIGR_ARMED_SLOTS 4
#define TMIGR_NO_CPU	  (~0u)

enum tmigr_wake tmigr_wake_policy = TMIGR_WAKE_ONE;

static spinlock_t tmigr_wake_lock;
static struct tmigr_armed {
	unsigned int cpu; /* TMIGR_NO_CPU: free */
	uint64_t exp;	  /* its tmigr_cpu.wakeup */
} tmigr_armed[TMIGR_ARMED_SLOTS];

/**
 * tmigr_set_wake - choose the wake policy
 * @policy: TMIGR_WAKE_ONE or TMIGR_WAKE_LINUX
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
		tmigr_armed[i] = (struct tmigr_armed){ TMIGR_NO_CPU, 0 };
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
	tmigr_armed[i] = (struct tmigr_armed){ cpu, exp };
	WRITE_ONCE(tmc->armed, true);
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
	uint64_t other = TMIGR_NONE_NS;
	int i, mine;

	if (READ_ONCE(tmigr_wake_policy) == TMIGR_WAKE_LINUX)
		return first;
	spin_lock(&tmigr_wake_lock);
	for (i = 0; i < TMIGR_ARMED_SLOTS; i++)
		if (tmigr_armed[i].cpu != TMIGR_NO_CPU &&
		    tmigr_armed[i].cpu != cpu && tmigr_armed[i].exp < other)
			other = tmigr_armed[i].exp;
	mine = tmigr_armed_slot(cpu);
	/* Nothing to wake for, or another CPU wakes for it: not armed. */
	if (other <= first) {
		if (mine >= 0)
			tmigr_armed_drop(mine);
		first = TMIGR_NONE_NS;
	} else if (record) {
		tmigr_armed_add(tmc, first);
	} else if (mine >= 0) {
		tmigr_armed_drop(mine);
	}
	spin_unlock(&tmigr_wake_lock);
	return first;
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
	spin_unlock(&tmigr_wake_lock);
}

static bool tmigr_root_active(struct tmigr_cpu *tmc)
{
	struct tmigr_group *group = tmc->tmgroup, *parent;

	while ((parent = smp_load_acquire(&group->parent)))
		group = parent;
	return tmigr_read_state(group).active;
}

/**
 * tmigr_wake_settle - an idle CPU's walk stopped at an active group
 * @tmc: the current CPU's, idle
 * @firstexp: what the walk says it must wake for (TMIGR_NONE_NS: nothing)
 *
 * Pre: @tmc's lock held.  Under TMIGR_WAKE_LINUX returns @firstexp.
 * Under TMIGR_WAKE_ONE a CPU in the table keeps its entry unless the root
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
	 * group.  So under TMIGR_WAKE_ONE nothing of @firstexp is this CPU's
	 * to wake for; Linux wakes for it anyway (docs/tmigr-wake.md,
	 * "below").
	 */
	if (tmigr_get_wake() == TMIGR_WAKE_ONE)
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
	spin_unlock(&tmigr_wake_lock);
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
	spin_unlock(&tmigr_wake_lock);
	return i >= 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * timer/timer_idle.c - next events, NOHZ idle and remote expiry of the
 * per-CPU bases (the wheel itself is timer.c).
 *
 * A CPU going idle splits its next events into the first pinned one
 * (tevt->local: it must wake for it) and the first movable one if earlier
 * (tevt->global).  Under PULL the global one is handed to the hierarchy
 * (timer_migration.c), which either has a busy CPU expire it through the
 * *_remote() functions here or, if this is the last CPU going idle, hands
 * back the first event of the whole system for this CPU to wake for.
 * Under PUSH and LOCAL the CPU wakes for both.
 *
 * Lock order: local base, global base, then the hierarchy's locks.
 */
#include "timer/timer_internal.h"
#include "timer/timer_migration.h"
#include "timer_env.h"

/* Next events in jiffies, as struct timer_events, and how near. */
struct next_jiffies {
	struct timer_events ev;
	bool near; /* the first is at most a tick away: the CPU stays awake */
};

/* Who asks next_events(), which decides what an event a tick away means. */
enum next_caller {
	NEXT_LOCAL,	/* this CPU, for itself */
	NEXT_REMOTE,	/* another CPU, expiring this one's global base */
	NEXT_HAND_OVER, /* this CPU going idle, PULL, tmigr_wake=one/own */
};

/*
 * The next events of the CPU of @local and @global at @basej.  If the
 * first one is at most a tick away, it goes to n->ev.local alone (n->near:
 * the CPU stays awake) and, for a NEXT_REMOTE caller, also to n->ev.global
 * if it is a movable one: a remote CPU serves only the global base and
 * would lose it.  Else local is the first pinned event and global the
 * first movable one only if it comes before local.
 *
 * NEXT_HAND_OVER: a movable first event a tick away, with the first
 * pinned one later, is not near: it goes to n->ev.global for the hierarchy,
 * whose active CPUs' ticks serve it, and this CPU may idle.  Linux keeps
 * the tick then (tmigr_wake=linux), and the CPU wakes at the next tick for
 * a timer that a busy CPU would have run anyway (docs/tmigr-wake.md).
 *
 * Returns false if there is none, else sets *@first.
 * Pre: both base locks held.
 */
static bool next_events(struct timer_base *local, struct timer_base *global,
			uint64_t basej, enum next_caller caller,
			struct next_jiffies *n, uint64_t *first)
{
	bool local_first;

	lockdep_assert_held(&local->lock);
	lockdep_assert_held(&global->lock);
	if (local->next_expiry_recalc)
		timer_recalc_next_expiry(local);
	if (global->next_expiry_recalc)
		timer_recalc_next_expiry(global);

	*n = (struct next_jiffies){ 0 };
	if (!local->timers_pending && !global->timers_pending)
		return false;
	local_first =
		!global->timers_pending ||
		(local->timers_pending &&
		 timer_before_eq(local->next_expiry, global->next_expiry));
	*first = local_first ? local->next_expiry : global->next_expiry;

	if (timer_before_eq(*first, basej + 1) &&
	    !(caller == NEXT_HAND_OVER && !local_first &&
	      (!local->timers_pending ||
	       timer_after(local->next_expiry, basej + 1)))) {
		n->ev.local = timer_before(*first, basej) ? basej : *first;
		n->ev.has_local = true;
		n->near = true;
		if (caller == NEXT_REMOTE && !local_first) {
			n->ev.global = n->ev.local;
			n->ev.has_global = true;
		}
		return true;
	}
	if (local->timers_pending) {
		n->ev.local = local->next_expiry;
		n->ev.has_local = true;
	}
	if (!local_first) {
		n->ev.global = global->next_expiry;
		n->ev.has_global = true;
	}
	return true;
}

/* The first jiffy start at or after @ns, on the grid of @basem; @basem if earlier. */
static uint64_t jiffy_ceil_ns(uint64_t ns, uint64_t basem)
{
	uint64_t tick = timer_tick_ns();

	if (ns <= basem)
		return basem;
	return basem + (ns - basem + tick - 1) / tick * tick;
}

/* ns of event @j if @has, else TMIGR_NONE_NS. */
static uint64_t event_ns(uint64_t j, bool has, uint64_t basej, uint64_t basem)
{
	return has ? timer_jiffies_to_ns(j, basej, basem) : TMIGR_NONE_NS;
}

/**
 * fetch_next_timer_interrupt - next local and global events of CPU @cpu
 * @cpu: any CPU
 * @basej: current jiffies
 * @tevt: result; deferrable timers never appear in it
 *
 * Pre: @cpu's base locks not held by the caller.
 */
void fetch_next_timer_interrupt(unsigned int cpu, uint64_t basej,
				struct timer_events *tevt)
{
	struct next_jiffies n;
	uint64_t first;

	timer_lock_remote_bases(cpu);
	next_events(cpu_base(cpu, BASE_LOCAL), cpu_base(cpu, BASE_GLOBAL),
		    basej, NEXT_LOCAL, &n, &first);
	timer_unlock_remote_bases(cpu);
	*tevt = n.ev;
}

/*
 * is_idle of a running CPU is written here only: by timer_nohz_next_event()
 * under both base locks and by timer_clear_idle() without them (a CPU
 * coming back online starts busy: timers_cpu_up(), timer_hotplug.c).
 */
static void set_bases_idle(unsigned int cpu, bool idle)
{
	WRITE_ONCE(cpu_base(cpu, BASE_LOCAL)->is_idle, idle);
	WRITE_ONCE(cpu_base(cpu, BASE_GLOBAL)->is_idle, idle);
}

/**
 * timer_clear_idle - this CPU is awake again
 *
 * Pre: current CPU, after leaving idle.
 */
void timer_clear_idle(void)
{
	set_bases_idle(smp_processor_id(), false);
}

/**
 * timer_lock_remote_bases - lock CPU @cpu's local and global bases
 * @cpu: any CPU
 */
void timer_lock_remote_bases(unsigned int cpu)
{
	spin_lock(&cpu_base(cpu, BASE_LOCAL)->lock);
	spin_lock(&cpu_base(cpu, BASE_GLOBAL)->lock);
}

/**
 * timer_unlock_remote_bases - undo timer_lock_remote_bases()
 * @cpu: the CPU locked
 */
void timer_unlock_remote_bases(unsigned int cpu)
{
	spin_unlock(&cpu_base(cpu, BASE_GLOBAL)->lock);
	spin_unlock(&cpu_base(cpu, BASE_LOCAL)->lock);
}

/**
 * fetch_next_timer_interrupt_remote - next events of an idle CPU @cpu
 * @basej: current jiffies
 * @tevt: result, as fetch_next_timer_interrupt()
 * @cpu: the CPU
 *
 * Pre: timer_lock_remote_bases(@cpu) held.
 */
void fetch_next_timer_interrupt_remote(uint64_t basej,
				       struct timer_events *tevt,
				       unsigned int cpu)
{
	struct next_jiffies n;
	uint64_t first;

	next_events(cpu_base(cpu, BASE_LOCAL), cpu_base(cpu, BASE_GLOBAL),
		    basej, NEXT_REMOTE, &n, &first);
	*tevt = n.ev;
}

/**
 * timer_expire_remote - expire CPU @cpu's due global timers here
 * @cpu: an idle CPU whose global events were handed to this one
 *
 * Skipped if @cpu's global base is being expired already.
 */
void timer_expire_remote(unsigned int cpu)
{
	struct timer_base *base = cpu_base(cpu, BASE_GLOBAL);
	unsigned long flags;

	spin_lock_irqsave(&base->lock, flags);
	__run_timers(base, &flags);
	spin_unlock_irqrestore(&base->lock, flags);
}

/* ---- NOHZ glue ---- */

/**
 * timer_nohz_next_event - forward and idle the bases, say when to wake
 * @basej: current jiffies
 * @basem: ns time of @basej's start
 * @stop: set to whether the tick may stop
 *
 * Pre: irqs off on the current CPU, which enters (or re-enters) idle.
 * Returns the ns time the CPU must wake at, TMIGR_NONE_NS for never.  The
 * bases become idle, and under PULL the CPU inactive in the hierarchy,
 * exactly when *@stop is true; with an event within the next jiffy the
 * CPU stays busy, ticking (Linux's timer_base_try_to_set_idle()).  Under
 * PULL with tmigr_wake=one or own a movable one does not count if the CPU is not
 * the last active one (next_events(), NEXT_HAND_OVER).
 */
uint64_t timer_nohz_next_event(uint64_t basej, uint64_t basem, bool *stop)
{
	unsigned int cpu = smp_processor_id();
	struct timer_base *local = cpu_base(cpu, BASE_LOCAL);
	struct timer_base *global = cpu_base(cpu, BASE_GLOBAL);
	struct timer_base *def = cpu_base(cpu, BASE_DEF);
	bool pull = READ_ONCE(timer_model) == TIMER_MODEL_PULL;
	uint64_t first, local_ns, global_ns, tmigr_ns;
	struct next_jiffies n;
	bool was_idle, idle;

	timer_lock_remote_bases(cpu);
	__forward_timer_base(local, basej);
	__forward_timer_base(global, basej);
	idle = !next_events(local, global, basej,
			    pull && tmigr_get_wake() != TMIGR_WAKE_LINUX ?
				    NEXT_HAND_OVER :
				    NEXT_LOCAL,
			    &n, &first) ||
	       !n.near;
	was_idle = local->is_idle;
	local_ns = event_ns(n.ev.local, n.ev.has_local, basej, basem);
	global_ns = event_ns(n.ev.global, n.ev.has_global, basej, basem);

	if (idle && pull) {
		/* Under the base locks, so a remote expiry sees one state. */
		tmigr_ns = was_idle ? tmigr_cpu_new_timer(global_ns) :
				      tmigr_cpu_deactivate(global_ns);
		/* Its own timer's wake may serve the hierarchy (tmigr_wake=own). */
		tmigr_ns = tmigr_cpu_offer(local_ns, tmigr_ns);
		if (tmigr_ns < local_ns) {
			/*
			 * The last CPU: it serves the hierarchy's first.  A
			 * CPU that queued it from another CPU's base took
			 * basej's start as early as it could be (now less a
			 * jiffy, tmigr_handle_remote_cpu()), so the event may
			 * be up to a jiffy early: wake at the start of the
			 * jiffy it falls in, on this CPU's exact grid, and keep
			 * the tick only if that is the next one (Linux keeps
			 * it for delta <= TICK_NSEC).  Never later than the
			 * timer's jiffy, which starts on the same grid.
			 */
			tmigr_ns = jiffy_ceil_ns(tmigr_ns, basem);
			local_ns = tmigr_ns;
			idle = tmigr_ns - basem > timer_tick_ns();
		}
		/* Busy bases go with an active CPU: undo the deactivation. */
		if (!idle)
			tmigr_cpu_activate();
	} else if (idle) {
		/* PUSH, LOCAL: the CPU wakes for every timer it holds. */
		if (global_ns < local_ns)
			local_ns = global_ns;
	} else if (was_idle && pull) {
		tmigr_cpu_activate();
	}
	set_bases_idle(cpu, idle);
	timer_unlock_remote_bases(cpu);

	spin_lock(&def->lock);
	__forward_timer_base(def, basej);
	spin_unlock(&def->lock);
	*stop = idle;
	return local_ns;
}

/**
 * timer_nohz_idle_exit - the current CPU leaves idle for work
 *
 * Pre: irqs off, current CPU.  Its bases are busy again and, under PULL,
 * it is active in the hierarchy again (the hierarchy locks are taken
 * without the base locks).
 */
void timer_nohz_idle_exit(void)
{
	timer_clear_idle();
	if (READ_ONCE(timer_model) == TIMER_MODEL_PULL)
		tmigr_cpu_activate();
}

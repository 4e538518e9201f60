// SPDX-License-Identifier: GPL-2.0
/*
 * timer/timer_hotplug.c - a CPU's timers when it goes offline and comes back
 * (Linux's timers_dead_cpu() and timers_prepare_cpu()).
 *
 * Going offline, the CPU first leaves the pull hierarchy; then all its
 * timers, pinned ones too, move to a live CPU, keeping their expiry, and
 * its bases are marked offline so that nothing is queued there again
 * (timer.c falls back to the calling CPU).  Coming back, its empty bases
 * restart at the current jiffy.
 */
#include "timer/timer_internal.h"
#include "timer_env.h"

/*
 * Lock the same kind of base of two CPUs, lower CPU first (timer.c's lock
 * order), once @dead's base is not being expired.  Its own CPU runs no
 * timer code any more, but another CPU may be expiring its global base
 * remotely, with the lock dropped around a callback: moving timers from
 * under that expiry would lose its collected list.
 */
static void lock_pair(struct timer_base *dead, struct timer_base *live,
		      unsigned long *flags)
{
	struct timer_base *first = dead->cpu < live->cpu ? dead : live;
	struct timer_base *second = first == dead ? live : dead;

	for (;;) {
		spin_lock_irqsave(&first->lock, *flags);
		spin_lock(&second->lock);
		if (!dead->expiry_active)
			return;
		spin_unlock(&second->lock);
		spin_unlock_irqrestore(&first->lock, *flags);
		/* Off the locks: the expiry needs them to finish. */
		while (READ_ONCE(dead->expiry_active))
			timer_env_cpu_relax();
	}
}

static void unlock_pair(struct timer_base *dead, struct timer_base *live,
			unsigned long flags)
{
	struct timer_base *first = dead->cpu < live->cpu ? dead : live;
	struct timer_base *second = first == dead ? live : dead;

	spin_unlock(&second->lock);
	spin_unlock_irqrestore(&first->lock, flags);
}

unsigned int timers_cpu_dead(unsigned int cpu, unsigned int to)
{
	unsigned int i, moved = 0;
	bool kick = false;

	if (WARN_ON_ONCE(cpu >= timer_nr_cpus || to >= timer_nr_cpus ||
			 cpu == to || !timer_cpu_online(to)))
		return 0;
	for (i = 0; i < NR_BASES; i++) {
		struct timer_base *old = cpu_base(cpu, i),
				  *new = cpu_base(to, i);
		unsigned long flags;
		unsigned int n;

		lock_pair(old, new, &flags);
		WRITE_ONCE(old->offline, true);
		WARN_ON_ONCE(old->running_timer);
		__forward_timer_base(new, timer_env_jiffies());
		n = __timer_move_all(old, new);
		/*
		 * Pinned timers wake an idle @to as they are queued; global
		 * ones under PULL are the hierarchy's business, and @to only
		 * tells it when its idle path looks again.
		 */
		if (n && i != BASE_DEF && new->is_idle)
			kick = true;
		moved += n;
		unlock_pair(old, new, flags);
	}
	if (kick)
		timer_env_wake_cpu(to);
	return moved;
}

void timers_cpu_up(unsigned int cpu)
{
	uint64_t now = timer_env_jiffies();
	unsigned int i;

	if (WARN_ON_ONCE(cpu >= timer_nr_cpus))
		return;
	for (i = 0; i < NR_BASES; i++) {
		struct timer_base *base = cpu_base(cpu, i);
		unsigned long flags;

		spin_lock_irqsave(&base->lock, flags);
		WARN_ON_ONCE(base->timers_pending && base->offline);
		if (base->offline) {
			base->clk = now;
			WRITE_ONCE(base->next_expiry,
				   now + NEXT_TIMER_MAX_DELTA);
			base->next_expiry_recalc = false;
			base->timers_pending = false;
			WRITE_ONCE(base->is_idle, false);
			WRITE_ONCE(base->offline, false);
		}
		spin_unlock_irqrestore(&base->lock, flags);
	}
}

bool timer_cpu_online(unsigned int cpu)
{
	return !READ_ONCE(cpu_base(cpu, BASE_LOCAL)->offline);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/sim/bound.c - what the models are measured against.
 *
 * Lower bound of idle timer wakes, for the same timers and the same
 * busy/idle pattern under any placement (docs/replay.md):
 *   - an idle CPU with a pinned (not deferrable) timer due must wake: one
 *     wake per CPU and jiffy it has one due (lb_pinned);
 *   - a movable timer due while no CPU is busy needs one CPU to wake, and
 *     one wake serves every movable timer due in that jiffy; none if an
 *     idle CPU wakes then for a pinned one anyway (lb_global);
 *   - deferrable timers of idle CPUs wake nobody, and movable timers due
 *     while some CPU is busy are run by that CPU's tick: no wake;
 *   - another CPU that takes a pinned timer off an idle CPU (cancels it,
 *     or re-arms it later or elsewhere) cannot take back the wake-up that
 *     CPU programmed for it, and one that queues a pinned timer on an
 *     idle CPU due before what it programmed must wake it (an IPI), or
 *     that CPU had programmed an earlier wake-up: either way the CPU has
 *     a wake in a window of jiffies no placement moves (lb_forced, below).
 * A timer counts at the first jiffy its bucket is due (or overdue, for
 * one armed after its bucket's tick) at the start of the step, before any
 * CPU ticks; each armed timer once.
 *
 * Forced wakes.  A pinned timer due at jiffy T stays on an idle CPU's
 * programmed wake-up from the moment the CPU programs with it pending: its
 * idle entry, or any wake under every placement (a pinned timer of its own
 * the bound counted, a device interrupt), or the arming if later (a remote
 * arming wakes it or finds an earlier wake-up).  So from l, the jiffy
 * after the last of those or the arming, the CPU's wake-up is at T or
 * earlier, and when another CPU takes the timer away it still wakes in
 * [l, T].  A pinned timer queued at jiffy l by another CPU on a CPU idle
 * then, due at T: the CPU wakes in [l, T - 1] (the IPI, or the earlier
 * wake-up it had), unless that earlier wake-up was in jiffy T itself.
 * A window costs the bound a wake only if nothing it already counts, and
 * no moment the CPU is up for free (busy, a device interrupt), falls in
 * it: a pinned-due jiffy counted for the CPU, or any jiffy counted in
 * lb_global, whichever CPU would take it (generous, so the bound stays a
 * bound).  Overlapping windows of a CPU share one wake: windows are
 * closed in the order of their last jiffies, and one that nothing stabs
 * gets a forced wake at its end, which is the fewest wakes that stab them
 * all.  Kept ticks (WAKE_TICK) serve pinned timers the bound counts, so a
 * run is compared with the bound kept ticks included
 * (sim_bound_finish()).
 *
 * Residency: the share of idle time spent in idle periods of at least 1
 * ms and at least 10 ms.  An idle period ends at every wake of the CPU
 * (timer, IPI, kept tick, device interrupt) and when it becomes busy.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tests/host/sim/replay.h"
#include "tests/host/sim/sim.h"
#include "timer_env.h"

#define NS_1MS	1000000ull
#define NS_10MS 10000000ull

static void close_windows(struct sim *s);

/**
 * sim_bound_step - count this jiffy's unavoidable wakes (top of file)
 * @s: the run, at the start of a step (jiffy now_j begun, nobody ticked)
 * @awake: a CPU in its softirq when the jiffy began inside it (sim.c,
 *	race_hook()), else SIM_NO_CPU
 *
 * A jiffy that begins inside a softirq is counted too, else the pinned
 * timers that the CPUs woken then run would never be; @awake's own
 * timers wait for the next step (it may run them in this wake), and the
 * movable ones due need no wake, @awake being up to run them.
 */
void sim_bound_step(struct sim *s, unsigned int awake)
{
	unsigned int pinned = 0;
	bool global = false;

	close_windows(s);
	for (unsigned int cpu = 0; cpu < s->cfg.cpus; cpu++) {
		struct sim_cpu *c = &s->cpus[cpu];
		bool due = false;

		if (c->state != CPU_ONLINE || c->busy || cpu == awake)
			sim_bound_up(s, cpu);
		if (c->state != CPU_ONLINE || cpu == awake)
			continue;
		for (struct sim_timer *st = c->head; st; st = st->next) {
			if (st->lb_done || timer_after(st->bucket, s->now_j) ||
			    (st->kind != TIMER_PINNED && st->kind != 0))
				continue;
			st->lb_done = true;
			if (st->kind)
				due |= !c->busy;
			else
				global = true;
		}
		pinned += due;
		if (due)
			sim_bound_sure_up(s, cpu);
	}
	s->st.lb_pinned += pinned;
	if (global && !s->nr_busy && !pinned && awake == SIM_NO_CPU) {
		s->st.lb_global++;
		s->lb_global_j = s->now_j;
		s->lb_global_seen = true;
	}
}

/** sim_bound_init - no window open, no CPU up before the first jiffy */
void sim_bound_init(struct sim *s)
{
	for (unsigned int cpu = 0; cpu < s->cfg.cpus; cpu++) {
		s->cpus[cpu].lb_stab_j = s->j0 - 1;
		s->cpus[cpu].lb_anchor_j = s->j0;
	}
}

void sim_bound_free(struct sim *s)
{
	free(s->lb_win);
	s->lb_win = NULL;
	s->nr_win = s->cap_win = 0;
}

/** sim_bound_total - the lower bound of the summary line */
uint64_t sim_bound_total(const struct sim_stats *st)
{
	return st->lb_pinned + st->lb_global + st->lb_forced;
}

/**
 * sim_bound_finish - the run is over: close what is still open, and a
 * model that took fewer wakes than the bound shows the bound wrong
 */
void sim_bound_finish(struct sim *s)
{
	uint64_t lb;

	s->now_j++; /* every window ends at or before the last jiffy */
	close_windows(s);
	s->now_j--;
	lb = sim_bound_total(&s->st);
	/* A kept tick serves pinned timers the bound counts: compare both. */
	if (s->st.wakes_idle + s->st.wakes[WAKE_TICK] < lb)
		sim_violation(
			s, -1, -1,
			"%llu idle wakes (kept ticks included) beat the lower bound %llu (pinned %llu, global %llu, forced %llu)",
			(unsigned long long)(s->st.wakes_idle +
					     s->st.wakes[WAKE_TICK]),
			(unsigned long long)lb,
			(unsigned long long)s->st.lb_pinned,
			(unsigned long long)s->st.lb_global,
			(unsigned long long)s->st.lb_forced);
}

/**
 * sim_bound_up - CPU @cpu is up this jiffy at no cost the models count
 * (busy, a device interrupt) or at one the bound counted
 */
void sim_bound_up(struct sim *s, unsigned int cpu)
{
	s->cpus[cpu].lb_stab_j = s->now_j;
}

/**
 * sim_bound_sure_up - CPU @cpu is up this jiffy under every placement (a
 * pinned timer the bound counted, a device interrupt): as sim_bound_up(),
 * and it programs its wake-up again, so later windows start after it
 */
void sim_bound_sure_up(struct sim *s, unsigned int cpu)
{
	sim_bound_up(s, cpu);
	s->cpus[cpu].lb_anchor_j = s->now_j;
}

static bool stabbed(const struct sim *s, const struct sim_window *w)
{
	const struct sim_cpu *c = &s->cpus[w->cpu];

	if (timer_after_eq(c->lb_stab_j, w->l))
		return true;
	return s->lb_global_seen && timer_after_eq(s->lb_global_j, w->l);
}

/*
 * Close the windows whose last jiffy has passed.  Every window ends
 * before now_j and nothing after its end was recorded yet, so "a point
 * at or after its start" means one inside it.
 */
static void close_windows(struct sim *s)
{
	size_t i = 0;

	while (i < s->nr_win) {
		struct sim_window *w = &s->lb_win[i];

		if (!timer_before(w->r, s->now_j)) {
			i++;
			continue;
		}
		/*
		 * A forced wake at the window's end stabs the later-closing
		 * windows it lies in: the CPU is up then.  lb_stab_j is
		 * before w->l here, so this only moves it forward.
		 */
		if (s->cpus[w->cpu].state == CPU_ONLINE && !stabbed(s, w)) {
			s->cpus[w->cpu].lb_stab_j = w->r;
			s->st.lb_forced++;
		}
		*w = s->lb_win[--s->nr_win];
	}
}

static void open_window(struct sim *s, unsigned int cpu, uint64_t l, uint64_t r)
{
	if (timer_before(r, l) || timer_before(r, s->now_j))
		return;
	if (s->nr_win == s->cap_win) {
		size_t cap = s->cap_win ? 2 * s->cap_win : 64;
		struct sim_window *n = realloc(s->lb_win, cap * sizeof(*n));

		if (!n) {
			/* A window left out lowers the bound: still a bound. */
			return;
		}
		s->lb_win = n;
		s->cap_win = cap;
	}
	s->lb_win[s->nr_win++] = (struct sim_window){ cpu, l, r };
}

/* A pinned timer on idle CPU @cpu, touched by another CPU: window or not. */
static bool forced_candidate(const struct sim *s, const struct sim_timer *st,
			     unsigned int cpu)
{
	const struct sim_cpu *c = &s->cpus[cpu];

	return st->kind == TIMER_PINNED && cpu < s->cfg.cpus &&
	       cpu != host_cpu && c->state == CPU_ONLINE && !c->busy;
}

/**
 * sim_bound_removed - another CPU took pinned timer @st, due at @bucket,
 * off idle CPU @cpu (cancelled it, or re-armed it later or elsewhere)
 * @s: the run
 * @st: the timer, as it was on @cpu
 * @cpu: the CPU it was on
 * @bucket: the jiffy it was due at there
 */
void sim_bound_removed(struct sim *s, const struct sim_timer *st,
		       unsigned int cpu, uint64_t bucket)
{
	uint64_t l;

	if (!forced_candidate(s, st, cpu) || st->lb_done)
		return;
	/* After the CPU was last up for sure, or from the arming on. */
	l = s->cpus[cpu].lb_anchor_j + 1;
	if (timer_after(st->arm_j, l))
		l = st->arm_j;
	open_window(s, cpu, l, bucket);
}

/**
 * sim_bound_added - another CPU queued pinned timer @st on idle CPU
 * st->cpu, or moved it earlier there
 */
void sim_bound_added(struct sim *s, const struct sim_timer *st)
{
	if (forced_candidate(s, st, st->cpu) && !st->lb_done)
		open_window(s, st->cpu, s->now_j, st->bucket - 1);
}

/** sim_resid_start - CPU @cpu's idle period begins at @ns */
void sim_resid_start(struct sim *s, unsigned int cpu, uint64_t ns)
{
	s->cpus[cpu].idle_since_ns = ns;
}

/** sim_resid_end - CPU @cpu's idle period (if one is open) ends at @ns */
void sim_resid_end(struct sim *s, unsigned int cpu, uint64_t ns)
{
	struct sim_cpu *c = &s->cpus[cpu];
	uint64_t len;

	if (!c->idle_since_ns)
		return;
	len = ns > c->idle_since_ns ? ns - c->idle_since_ns : 0;
	c->idle_since_ns = 0;
	s->st.idle_ns += len;
	if (len >= NS_1MS)
		s->st.idle_1ms_ns += len;
	if (len >= NS_10MS)
		s->st.idle_10ms_ns += len;
}

/** sim_resid_finish - close the idle periods still open at the end */
void sim_resid_finish(struct sim *s)
{
	for (unsigned int cpu = 0; cpu < s->cfg.cpus; cpu++)
		sim_resid_end(s, cpu, s->now_ns);
}

/** sim_note_late - a non-exempt timer @st ran @late jiffies after expiry */
void sim_note_late(struct sim *s, const struct sim_timer *st, uint64_t late)
{
	unsigned int bin = late < SIM_LATE_BINS - 1 ? (unsigned int)late :
						      SIM_LATE_BINS - 1;

	s->st.late_hist[bin]++;
	s->st.late_n++;
	if (!st->kind && st->level == 0) {
		s->st.late_l0_hist[bin]++;
		s->st.late_l0_n++;
	}
}

/** sim_resid_pct - @part of @idle_ns in percent (0 if no idle time) */
double sim_resid_pct(uint64_t part, uint64_t idle_ns)
{
	return idle_ns ? 100.0 * (double)part / (double)idle_ns : 0;
}

/** sim_print_bound - the summary line's bound, residency and lateness */
void sim_print_bound(const struct sim_stats *st)
{
	printf(" lower_bound=%llu lb_pinned=%llu lb_global=%llu lb_forced=%llu res_1ms_pct=%.1f res_10ms_pct=%.1f late_p50_j=%llu late_p99_j=%llu late_l0_p99_j=%llu",
	       (unsigned long long)sim_bound_total(st),
	       (unsigned long long)st->lb_pinned,
	       (unsigned long long)st->lb_global,
	       (unsigned long long)st->lb_forced,
	       sim_resid_pct(st->idle_1ms_ns, st->idle_ns),
	       sim_resid_pct(st->idle_10ms_ns, st->idle_ns),
	       (unsigned long long)rp_hist_pct(st->late_hist, SIM_LATE_BINS,
					       st->late_n, 50),
	       (unsigned long long)rp_hist_pct(st->late_hist, SIM_LATE_BINS,
					       st->late_n, 99),
	       (unsigned long long)rp_hist_pct(st->late_l0_hist, SIM_LATE_BINS,
					       st->late_l0_n, 99));
}

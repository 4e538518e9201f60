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
 *     while some CPU is busy are run by that CPU's tick: no wake.
 * A timer counts at the first jiffy its bucket is due (or overdue, for
 * one armed after its bucket's tick) at the start of the step, before any
 * CPU ticks; each armed timer once.
 *
 * Residency: the share of idle time spent in idle periods of at least 1
 * ms and at least 10 ms.  An idle period ends at every wake of the CPU
 * (timer, IPI, kept tick, device interrupt) and when it becomes busy.
 */
#include <stdio.h>

#include "tests/host/sim/replay.h"
#include "tests/host/sim/sim.h"

#define NS_1MS	1000000ull
#define NS_10MS 10000000ull

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

	for (unsigned int cpu = 0; cpu < s->cfg.cpus; cpu++) {
		struct sim_cpu *c = &s->cpus[cpu];
		bool due = false;

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
	}
	s->st.lb_pinned += pinned;
	if (global && !s->nr_busy && !pinned && awake == SIM_NO_CPU)
		s->st.lb_global++;
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
	printf(" lower_bound=%llu lb_pinned=%llu lb_global=%llu res_1ms_pct=%.1f res_10ms_pct=%.1f late_p50_j=%llu late_p99_j=%llu late_l0_p99_j=%llu",
	       (unsigned long long)(st->lb_pinned + st->lb_global),
	       (unsigned long long)st->lb_pinned,
	       (unsigned long long)st->lb_global,
	       sim_resid_pct(st->idle_1ms_ns, st->idle_ns),
	       sim_resid_pct(st->idle_10ms_ns, st->idle_ns),
	       (unsigned long long)rp_hist_pct(st->late_hist, SIM_LATE_BINS,
					       st->late_n, 50),
	       (unsigned long long)rp_hist_pct(st->late_hist, SIM_LATE_BINS,
					       st->late_n, 99),
	       (unsigned long long)rp_hist_pct(st->late_l0_hist, SIM_LATE_BINS,
					       st->late_l0_n, 99));
}

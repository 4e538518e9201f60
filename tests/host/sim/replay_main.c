// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/sim/replay_main.c - tmigr_sim --replay FILE: read the trace,
 * run it under each model with the rest of the command line's options,
 * and print one "replay model=" line per model and one "replay linux"
 * line for what Linux did (docs/replay.md says how each field counts).
 */
#include <stdio.h>
#include <string.h>

#include "tests/host/sim/replay.h"
#include "tests/host/sim/sim.h"
#include "timer_env.h"

static unsigned long long sum_wakes(const struct sim_stats *st)
{
	unsigned long long n = 0;

	for (unsigned int w = 0; w < NR_SIM_WAKE; w++)
		n += st->wakes[w];
	return n;
}

static unsigned long long sum_empty(const struct sim_stats *st)
{
	unsigned long long n = 0;

	for (unsigned int w = 0; w < NR_SIM_WAKE; w++)
		n += st->wakes_empty[w];
	return n;
}

static unsigned long long pct(const uint64_t *hist, uint64_t n, unsigned int p)
{
	return (unsigned long long)rp_hist_pct(hist, SIM_LATE_BINS, n, p);
}

static void print_model(const struct sim_config *c, const struct sim_stats *st)
{
	printf("replay model=%s cpus=%u nodes=%u idle_wakes=%llu lower_bound=%llu hier_wakes=%llu hier_empty=%llu late_p99_j=%llu res_1ms_pct=%.1f res_10ms_pct=%.1f",
	       sim_model_name(c->model), c->cpus, c->nodes, sum_wakes(st),
	       (unsigned long long)(sim_bound_total(st) + st->wakes[WAKE_IRQ]),
	       (unsigned long long)st->wakes[WAKE_HIER],
	       (unsigned long long)st->wakes_empty[WAKE_HIER],
	       pct(st->late_hist, st->late_n, 99),
	       sim_resid_pct(st->idle_1ms_ns, st->idle_ns),
	       sim_resid_pct(st->idle_10ms_ns, st->idle_ns));
	printf(" timer_wakes=%llu timer_bound=%llu wake_local=%llu wake_global=%llu wake_ipi=%llu wake_tick=%llu wake_irq=%llu wakes_empty=%llu lb_pinned=%llu lb_global=%llu lb_forced=%llu late_p50_j=%llu late_max_j=%llu late_l0_p99_j=%llu",
	       sum_wakes(st) - st->wakes[WAKE_IRQ],
	       (unsigned long long)sim_bound_total(st),
	       (unsigned long long)st->wakes[WAKE_LOCAL],
	       (unsigned long long)st->wakes[WAKE_GLOBAL],
	       (unsigned long long)st->wakes[WAKE_IPI],
	       (unsigned long long)st->wakes[WAKE_TICK],
	       (unsigned long long)st->wakes[WAKE_IRQ], sum_empty(st),
	       (unsigned long long)st->lb_pinned,
	       (unsigned long long)st->lb_global,
	       (unsigned long long)st->lb_forced,
	       pct(st->late_hist, st->late_n, 50),
	       (unsigned long long)st->late_max_j,
	       pct(st->late_l0_hist, st->late_l0_n, 99));
	printf(" tmigr_wake=%s", sim_wake_name(c->tmigr_wake));
	printf(" armed=%llu modified=%llu expired=%llu cancelled=%llu pending=%llu remote_expiries=%llu lost=%llu early=%llu twice=%llu violations=%llu\n",
	       (unsigned long long)st->armed, (unsigned long long)st->modified,
	       (unsigned long long)st->expired,
	       (unsigned long long)st->cancelled,
	       (unsigned long long)st->pending,
	       (unsigned long long)st->remote_expiries,
	       (unsigned long long)st->lost, (unsigned long long)st->early,
	       (unsigned long long)st->twice,
	       (unsigned long long)st->violations);
	fflush(stdout);
}

static void print_linux(const struct rp_trace *tr)
{
	const struct rp_linux *lx = &tr->linux_;

	printf("replay linux idle_wakes_wheel=%llu idle_wakes_empty=%llu remote_expiries=%llu idle_exits=%llu exits_hrtimer=%llu exits_ipi=%llu exits_other=%llu exits_timer=%llu expiries=%llu unknown_expiries=%llu remote_cpu_walks=%llu late_p50_j=%llu late_p99_j=%llu late_max_j=%llu res_1ms_pct=%.1f res_10ms_pct=%.1f busy_ms_timer=%.0f busy_ms_work=%.0f\n",
	       (unsigned long long)lx->wheel, (unsigned long long)lx->empty,
	       (unsigned long long)lx->remote_expiries,
	       (unsigned long long)lx->exits, (unsigned long long)lx->hrtimer,
	       (unsigned long long)lx->ipi, (unsigned long long)lx->other,
	       (unsigned long long)lx->timer_exits,
	       (unsigned long long)lx->expiries,
	       (unsigned long long)lx->unknown_expiries,
	       (unsigned long long)lx->remote_cpu_walks,
	       (unsigned long long)rp_hist_pct(lx->late_hist, 65, lx->late_n,
					       50),
	       (unsigned long long)rp_hist_pct(lx->late_hist, 65, lx->late_n,
					       99),
	       (unsigned long long)lx->late_max_j,
	       sim_resid_pct(lx->idle_1ms_ns, lx->idle_ns),
	       sim_resid_pct(lx->idle_10ms_ns, lx->idle_ns),
	       lx->busy_timer_ns / 1e6, lx->busy_work_ns / 1e6);
}

static void print_trace(const struct rp_trace *tr)
{
	printf("replay trace=%s lines=%llu events=%zu timers=%u cpus=%u nodes=%u hz=%u jiffies=%llu skipped=%llu hrtimer_events=%llu node_of=",
	       tr->name, (unsigned long long)tr->lines, tr->nr_ev,
	       tr->nr_timers, tr->cpus, tr->nodes, tr->hz,
	       (unsigned long long)(tr->last_j - tr->j0),
	       (unsigned long long)tr->skipped,
	       (unsigned long long)tr->hr_events);
	for (unsigned int c = 0; c < tr->cpus; c++)
		printf("%s%u", c ? "," : "", tr->node_of[c]);
	putchar('\n');
}

/* Can the simulator run @tr? */
static int runnable(const struct rp_trace *tr)
{
	const char *why = NULL;

	if (tr->hz != 100 && tr->hz != 250 && tr->hz != 1000)
		why = "HZ is not 100, 250 or 1000";
	else if (!tr->cpus || tr->cpus > HOST_MAX_CPUS)
		why = "more CPUs than the simulator has";
	else if (tr->nodes > SIM_MAX_NODES || tr->nodes > tr->cpus)
		why = "more nodes than the simulator takes";
	if (!why)
		return 0;
	fprintf(stderr, "%s: %s\n", tr->name, why);
	return -1;
}

/**
 * sim_replay_main - tmigr_sim --replay
 * @c: the command line's options (model, verbosity, traces, policies)
 * @file: the trace
 * @nodes_arg: --nodes as given (a map or a count), or NULL
 * @all: every model (--model all, or no --model), else @c->model only
 *
 * Returns the exit status: 0, 1 an invariant broke, 2 bad trace.
 */
int sim_replay_main(const struct sim_config *c, const char *file,
		    const char *nodes_arg, bool all)
{
	static const enum timer_model models[] = {
		TIMER_MODEL_PULL,
		TIMER_MODEL_PUSH,
		TIMER_MODEL_LOCAL,
	};
	static struct rp_trace tr; /* node_of[] is large */
	int worst = 0;

	rp_trace_init(&tr, file);
	tr.nodes_arg = nodes_arg;
	if (rp_read_file(&tr, file) || runnable(&tr)) {
		rp_trace_free(&tr);
		return 2;
	}
	print_trace(&tr);
	for (unsigned int m = 0; m < sizeof(models) / sizeof(*models); m++) {
		struct sim_config rc = *c;
		struct sim_stats st;
		int ret;

		if (!all && models[m] != c->model)
			continue;
		rc.model = models[m];
		rc.cpus = tr.cpus;
		rc.nodes = tr.nodes;
		rc.hz = tr.hz;
		rc.wrap = 0 - tr.j0;
		rc.node_of = tr.node_of;
		rc.replay = &tr;
		rc.faults = 0;
		rc.ops = 0;
		ret = sim_run(&rc, &st);
		print_model(&rc, &st);
		if (ret < 0)
			worst = 2;
		else if (ret > worst)
			worst = ret;
	}
	print_linux(&tr);
	rp_trace_free(&tr);
	return worst;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/sim/main.c - tmigr_sim's command line and its default runs.
 *
 *   tmigr_sim [--cpus N] [--nodes K] [--shape even|uneven|interleaved|smt]
 *             [--model pull|push|local|all] [--seed S] [--steps J]
 *             [--hz 100|250|1000] [--wrap J] [--workload mixed|steady]
 *             [--verbose N] [--trace-timer T] [--trace-cpu C]
 *   tmigr_sim --torture [--ops N] [--faults offline,ipi-delay|none]
 *             [--ipi-delay J] [--offline-rate P] [the options above]
 *   tmigr_sim ... [--tmigr-wake one|linux|own|both]
 *   tmigr_sim [--list] [--scale X]
 *   tmigr_sim --replay FILE[.gz] [--nodes MAP|K] [--model M] [the options
 *             above but --cpus, --hz, --steps: those come from the trace]
 *             a Linux trace under each model (replay_main.c, no --model:
 *             all three)
 *   any of them with --tmigr-inactive-up=mainline|fixed, --isolcpus LIST
 *
 * With no argument (as the test harness runs it) or with --list it runs
 * the default list: 8, 64, 512 and 4096 CPUs in several shapes, each under
 * all three models with one seed, so the models' wake counts are compared
 * in one run (a printed figure, never a pass/fail threshold).  --scale
 * multiplies the list's steps, for the unsanitized `make sim-bench`.
 * --wrap J starts jiffies J before 2^64, as the kernel's tick does, so the
 * run crosses the wrap; the ns clock never wraps.
 *
 * --tmigr-inactive-up=mainline walks up from a CPU going idle as mainline
 * Linux does (tmigr_set_inactive_up_mainline()): the walk ends on what the
 * CPU's cmpxchg saw, so an event queued into a group that went idle
 * meanwhile can be lost (docs/findings/tmigr-inactive-up-lost-event.md).
 * The default, fixed, is this tree's walk.
 *
 * --torture runs until N operations (default 10 million: timer arms,
 * re-arms, cancels and deletes in bursts, CPUs going busy or idle, CPUs
 * going offline or online) instead of --steps, with faults (fault.c;
 * default both): CPUs going offline inside other CPUs' hierarchy walks and
 * coming back, and wake-up IPIs up to --ipi-delay jiffies late (default
 * 3).  --offline-rate is the chance of an offline request per step and 64
 * CPUs, in permille (default 20).  It prints a "torture" line too.  The
 * default list ends with a short torture run; `make sim-torture` runs 10
 * million operations at 64, 512 and 4096 CPUs.
 *
 * One summary line per run, ending with bound.c's fields (lower_bound=,
 * res_1ms_pct=, res_10ms_pct=, lateness percentiles; docs/replay.md);
 * with the list, also a line in Check's verbose
 * format ("file:line:P|F:suite:test:0: message") so tests/boot/run_tests.py
 * counts each run as a test.  Exit status: 0 all invariants held, 1 one
 * broke (the first is printed with step, CPU and timer), 2 bad usage or a
 * run that could not be set up.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/host/sim/sim.h"
#include "timer/timer_migration.h"
#include "timer_env.h"

struct list_entry {
	unsigned int cpus, nodes;
	enum sim_shape shape;
	uint64_t steps;
	uint64_t seed;
	uint64_t wrap;	 /* jiffies before 2^64 at the start */
	unsigned int hz; /* 0: the command line's (1000) */
	bool steady;
	const char *isolcpus; /* NULL: none */
};

/*
 * Sized for about ten seconds under ASan+UBSan on one core; steps are
 * jiffies.  Every shape, all three tick rates, runs across the jiffies
 * wrap, and steady workloads where the models' wake counts are plain.
 */
static const struct list_entry default_list[] = {
	{ 8, 2, SHAPE_EVEN, 100000, 1, 0, 0, false, NULL },
	{ 8, 1, SHAPE_SMT, 50000, 2, 25000, 250, false, NULL },
	{ 64, 8, SHAPE_INTERLEAVED, 20000, 3, 0, 0, false, NULL },
	{ 64, 4, SHAPE_SMT, 10000, 4, 5000, 100, false, NULL },
	{ 64, 8, SHAPE_EVEN, 10000, 7, 0, 0, true, NULL },
	/* The boot CPU and all of node 3 isolated (docs/scenarios.md). */
	{ 64, 8, SHAPE_INTERLEAVED, 10000, 10, 0, 0, false,
	  "0,3,11,19,27,35,43,51,59" },
	{ 512, 16, SHAPE_UNEVEN, 4000, 5, 0, 0, false, NULL },
	{ 4096, 64, SHAPE_INTERLEAVED, 1500, 6, 700, 0, false, NULL },
	{ 4096, 64, SHAPE_EVEN, 400, 8, 0, 0, true, NULL },
};

/* Short torture runs of the default list: a few seconds under ASan. */
static const struct list_entry torture_list[] = {
	{ 64, 8, SHAPE_INTERLEAVED, 200000, 9, 0, 0, false, NULL },
};

static const enum timer_model models[] = {
	TIMER_MODEL_PULL,
	TIMER_MODEL_PUSH,
	TIMER_MODEL_LOCAL,
};
#define NR_MODELS (sizeof(models) / sizeof(*models))

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static unsigned long long global_wakes(const struct sim_stats *st)
{
	return st->wakes[WAKE_GLOBAL] + st->wakes[WAKE_HIER];
}

/* The @pct percentile of level-0 movable timers' lateness, jiffies. */
static unsigned int late0_pct(const struct sim_stats *st, unsigned int pct)
{
	uint64_t n = 0, seen = 0;
	unsigned int j;

	for (j = 0; j <= SIM_LATE0_MAX; j++)
		n += st->late0[j];
	for (j = 0; j < SIM_LATE0_MAX; j++) {
		seen += st->late0[j];
		if (seen * 100 >= n * pct)
			break;
	}
	return j;
}

static void print_summary(const struct sim_config *c,
			  const struct sim_stats *st, double ms)
{
	printf("sim cpus=%u nodes=%u shape=%s model=%s hz=%u seed=%llu wrap=%llu workload=%s steps=%llu armed=%llu modified=%llu expired=%llu cancelled=%llu pending=%llu early=%llu twice=%llu lost=%llu late_max_j=%llu violations=%llu wakes_idle=%llu wakes_global_busy=%llu wake_local=%llu local_empty=%llu wake_ipi=%llu wake_global=%llu global_empty=%llu wake_hier=%llu hier_empty=%llu hier_stale=%llu wake_tick=%llu tick_empty=%llu ipi_empty=%llu irq_before_halt=%llu wake_irq=%llu remote_expiries=%llu global_expired=%llu time_jumps=%llu busy_pct=%.1f isolcpus=%s ms=%.0f",
	       c->cpus, c->nodes, sim_shape_name(c->shape),
	       sim_model_name(c->model), c->hz, (unsigned long long)c->seed,
	       (unsigned long long)c->wrap, c->steady ? "steady" : "mixed",
	       (unsigned long long)st->steps, (unsigned long long)st->armed,
	       (unsigned long long)st->modified,
	       (unsigned long long)st->expired,
	       (unsigned long long)st->cancelled,
	       (unsigned long long)st->pending, (unsigned long long)st->early,
	       (unsigned long long)st->twice, (unsigned long long)st->lost,
	       (unsigned long long)st->late_max_j,
	       (unsigned long long)st->violations,
	       (unsigned long long)st->wakes_idle,
	       (unsigned long long)st->wakes_global_busy,
	       (unsigned long long)st->wakes[WAKE_LOCAL],
	       (unsigned long long)st->wakes_empty[WAKE_LOCAL],
	       (unsigned long long)st->wakes[WAKE_IPI],
	       (unsigned long long)st->wakes[WAKE_GLOBAL],
	       (unsigned long long)st->wakes_empty[WAKE_GLOBAL],
	       (unsigned long long)st->wakes[WAKE_HIER],
	       (unsigned long long)st->wakes_empty[WAKE_HIER],
	       (unsigned long long)st->hier_stale,
	       (unsigned long long)st->wakes[WAKE_TICK],
	       (unsigned long long)st->wakes_empty[WAKE_TICK],
	       (unsigned long long)st->wakes_empty[WAKE_IPI],
	       (unsigned long long)st->irq_before_halt,
	       (unsigned long long)st->wakes[WAKE_IRQ],
	       (unsigned long long)st->remote_expiries,
	       (unsigned long long)st->global_expired,
	       (unsigned long long)st->time_jumps,
	       st->steps ? 100.0 * st->busy_jiffies / st->steps / c->cpus : 0,
	       c->isolcpus ? c->isolcpus : "none", ms);
	for (unsigned int i = 0; i < NR_SIM_EMPTY; i++)
		printf(" hier_empty_%s=%llu", sim_empty_name(i),
		       (unsigned long long)st->hier_empty_why[i]);
	printf(" tmigr_wake=%s late0_p99_j=%u", sim_wake_name(c->tmigr_wake),
	       late0_pct(st, 99));
	sim_print_bound(st);
	putchar('\n');
	fflush(stdout);
}

/*
 * The models side by side.  What pull saves is idle CPUs waking for
 * movable timers while another CPU is busy and could run them; when no
 * CPU is busy someone must wake, under every model.
 */
static void print_compare(const struct sim_config *c,
			  const struct sim_stats st[NR_MODELS])
{
	printf("sim compare cpus=%u nodes=%u shape=%s seed=%llu workload=%s: idle wakes for movable timers while a CPU was busy pull=%llu push=%llu local=%llu; idle wakes for movable timers pull=%llu push=%llu local=%llu; timer wakes pull=%llu push=%llu local=%llu; movable timers run remotely pull=%llu push=%llu local=%llu\n",
	       c->cpus, c->nodes, sim_shape_name(c->shape),
	       (unsigned long long)c->seed, c->steady ? "steady" : "mixed",
	       (unsigned long long)st[0].wakes_global_busy,
	       (unsigned long long)st[1].wakes_global_busy,
	       (unsigned long long)st[2].wakes_global_busy,
	       global_wakes(&st[0]), global_wakes(&st[1]), global_wakes(&st[2]),
	       (unsigned long long)st[0].wakes_idle,
	       (unsigned long long)st[1].wakes_idle,
	       (unsigned long long)st[2].wakes_idle,
	       (unsigned long long)st[0].remote_expiries,
	       (unsigned long long)st[1].remote_expiries,
	       (unsigned long long)st[2].remote_expiries);
	fflush(stdout);
}

static void print_torture(const struct sim_config *c,
			  const struct sim_stats *st, double ms)
{
	printf("torture cpus=%u nodes=%u shape=%s model=%s seed=%llu faults=%s ipi_delay=%u ops=%llu steps=%llu wall_s=%.2f ops_per_s=%.0f offlines=%llu",
	       c->cpus, c->nodes, sim_shape_name(c->shape),
	       sim_model_name(c->model), (unsigned long long)c->seed,
	       sim_faults_name(c->faults), c->ipi_delay,
	       (unsigned long long)st->ops, (unsigned long long)st->steps,
	       ms / 1e3, ms > 0 ? st->ops / (ms / 1e3) : 0,
	       (unsigned long long)st->offlines);
	for (unsigned int i = 0; i < NR_SIM_AT; i++)
		printf(" off_at_%s=%llu", sim_at_name(i),
		       (unsigned long long)st->offline_at[i]);
	printf(" off_pulled=%llu handovers=%llu dead_later=%llu onlines=%llu online_in_walk=%llu offline_max=%llu moved=%llu add_on_offline=%llu ipis=%llu ipis_delayed=%llu ipis_coalesced=%llu ipis_dropped=%llu armed=%llu modified=%llu expired=%llu cancelled=%llu pending=%llu late_max_j=%llu late_relaxed=%llu lost=%llu twice=%llu early=%llu violations=%llu\n",
	       (unsigned long long)st->offline_pulled,
	       (unsigned long long)st->handovers,
	       (unsigned long long)st->dead_later,
	       (unsigned long long)st->onlines,
	       (unsigned long long)st->online_in_walk,
	       (unsigned long long)st->offline_max,
	       (unsigned long long)st->moved,
	       (unsigned long long)st->add_on_offline,
	       (unsigned long long)st->ipis,
	       (unsigned long long)st->ipis_delayed,
	       (unsigned long long)st->ipis_coalesced,
	       (unsigned long long)st->ipis_dropped,
	       (unsigned long long)st->armed, (unsigned long long)st->modified,
	       (unsigned long long)st->expired,
	       (unsigned long long)st->cancelled,
	       (unsigned long long)st->pending,
	       (unsigned long long)st->late_max_j,
	       (unsigned long long)st->late_relaxed,
	       (unsigned long long)st->lost, (unsigned long long)st->twice,
	       (unsigned long long)st->early,
	       (unsigned long long)st->violations);
	fflush(stdout);
}

/* One run; @check: also print the Check-format result line. */
static int run_one(const struct sim_config *c, struct sim_stats *st, bool check)
{
	double t0 = now_ms();
	int ret = sim_run(c, st);
	double ms = now_ms() - t0;

	print_summary(c, st, ms);
	if (c->ops)
		print_torture(c, st, ms);
	if (check)
		printf("tests/host/sim/main.c:0:%c:sim:%scpus%u_nodes%u_%s_%s_seed%llu:0: %s\n",
		       ret ? 'F' : 'P', c->ops ? "torture_" : "", c->cpus,
		       c->nodes, sim_shape_name(c->shape),
		       sim_model_name(c->model), (unsigned long long)c->seed,
		       ret < 0 ? "could not set up" :
		       ret     ? "invariant broken, see VIOLATION above" :
				 "Passed");
	return ret;
}

/* Of two sim_run() results, the one to report: -1, then 1, then 0. */
static int worse(int a, int b)
{
	if (a < 0 || b < 0)
		return -1;
	return a > b ? a : b;
}

/*
 * --tmigr-wake both: pull under linux, then own, then the runs under one
 * (the default); this line puts the three pull runs side by side.
 */
static void print_wake_compare(const struct sim_config *c,
			       const struct sim_stats *lin,
			       const struct sim_stats *one,
			       const struct sim_stats *own)
{
	printf("sim tmigr_wake cpus=%u nodes=%u shape=%s seed=%llu: wakes_idle linux=%llu one=%llu own=%llu; wake_hier linux=%llu one=%llu own=%llu; hier_empty linux=%llu one=%llu own=%llu; late0_p99_j linux=%u one=%u own=%u\n",
	       c->cpus, c->nodes, sim_shape_name(c->shape),
	       (unsigned long long)c->seed, (unsigned long long)lin->wakes_idle,
	       (unsigned long long)one->wakes_idle,
	       (unsigned long long)own->wakes_idle,
	       (unsigned long long)lin->wakes[WAKE_HIER],
	       (unsigned long long)one->wakes[WAKE_HIER],
	       (unsigned long long)own->wakes[WAKE_HIER],
	       (unsigned long long)lin->wakes_empty[WAKE_HIER],
	       (unsigned long long)one->wakes_empty[WAKE_HIER],
	       (unsigned long long)own->wakes_empty[WAKE_HIER],
	       late0_pct(lin, 99), late0_pct(one, 99), late0_pct(own, 99));
	fflush(stdout);
}

/* @c under every model (all_models) or its own; returns the worst result. */
static int run_models(struct sim_config *c, bool all_models, bool check)
{
	struct sim_stats st[NR_MODELS], lin, own;
	bool both = c->both_wakes &&
		    (all_models || c->model == TIMER_MODEL_PULL);
	int worst = 0;

	if (both) {
		struct sim_config l = *c;

		l.model = TIMER_MODEL_PULL;
		l.tmigr_wake = TMIGR_WAKE_LINUX;
		worst = run_one(&l, &lin, check);
		l.tmigr_wake = TMIGR_WAKE_OWN;
		worst = worse(worst, run_one(&l, &own, check));
		c->tmigr_wake = TMIGR_WAKE_ONE;
	}
	if (!all_models) {
		worst = worse(worst, run_one(c, &st[0], check));
	} else {
		for (unsigned int m = 0; m < NR_MODELS; m++) {
			c->model = models[m];
			worst = worse(worst, run_one(c, &st[m], check));
		}
		print_compare(c, st);
	}
	if (both)
		print_wake_compare(c, &lin, &st[0], &own); /* models[0]: pull */
	return worst;
}

static int run_list(unsigned int hz, double scale, unsigned int verbose)
{
	double t0 = now_ms();
	int worst = 0;

	for (unsigned int i = 0;
	     i < sizeof(default_list) / sizeof(*default_list); i++) {
		const struct list_entry *e = &default_list[i];
		struct sim_config c = {
			.cpus = e->cpus,
			.nodes = e->nodes,
			.shape = e->shape,
			.seed = e->seed,
			.hz = e->hz ? e->hz : hz,
			.steady = e->steady,
			.verbose = verbose,
			.isolcpus = e->isolcpus,
			.wrap = e->wrap,
			.trace_timer = -1,
			.trace_cpu = -1,
			.tmigr_wake = TMIGR_WAKE_ONE,
			.steps = (uint64_t)(e->steps * scale),
		};
		worst = worse(worst, run_models(&c, true, true));
	}
	for (unsigned int i = 0;
	     i < sizeof(torture_list) / sizeof(*torture_list); i++) {
		const struct list_entry *e = &torture_list[i];
		struct sim_config c = {
			.cpus = e->cpus,
			.nodes = e->nodes,
			.shape = e->shape,
			.seed = e->seed,
			.hz = hz,
			.verbose = verbose,
			.trace_timer = -1,
			.trace_cpu = -1,
			.tmigr_wake = TMIGR_WAKE_ONE,
			.ops = (uint64_t)(e->steps * scale),
			.faults = SIM_FAULT_OFFLINE | SIM_FAULT_IPI_DELAY,
			.ipi_delay = 3,
			.offline_rate = 20,
		};
		worst = worse(worst, run_models(&c, false, true));
	}
	printf("sim list: %s in %.1f s\n", worst ? "FAILED" : "all passed",
	       (now_ms() - t0) / 1e3);
	return worst < 0 ? 2 : worst;
}

static int parse_model(const char *name, enum timer_model *model, bool *all)
{
	*all = !strcmp(name, "all");
	for (unsigned int m = 0; m < NR_MODELS; m++)
		if (!strcmp(name, sim_model_name(models[m])))
			*model = models[m];
	return *all || !strcmp(name, sim_model_name(*model)) ? 0 : -1;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: tmigr_sim [--cpus N] [--nodes K] [--shape even|uneven|interleaved|smt]\n"
		"                 [--model pull|push|local|all] [--seed S] [--steps J]\n"
		"                 [--hz 100|250|1000] [--wrap J] [--workload mixed|steady]\n"
		"                 [--verbose N] [--trace-timer T] [--trace-cpu C]\n"
		"                 [--torture] [--ops N] [--faults offline,ipi-delay|none]\n"
		"                 [--ipi-delay J] [--offline-rate P]\n"
		"                 [--tmigr-inactive-up=mainline|fixed] [--isolcpus LIST]\n"
		"                 [--tmigr-wake one|linux|own|both]\n"
		"       tmigr_sim [--list] [--scale X]   (the default runs)\n"
		"       tmigr_sim --replay FILE[.gz] [--nodes MAP|K] [--model M]\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpus", required_argument, NULL, 'c' },
		{ "nodes", required_argument, NULL, 'n' },
		{ "shape", required_argument, NULL, 'S' },
		{ "model", required_argument, NULL, 'm' },
		{ "seed", required_argument, NULL, 's' },
		{ "steps", required_argument, NULL, 't' },
		{ "hz", required_argument, NULL, 'z' },
		{ "verbose", required_argument, NULL, 'v' },
		{ "list", no_argument, NULL, 'l' },
		{ "scale", required_argument, NULL, 'x' },
		{ "wrap", required_argument, NULL, 'w' },
		{ "workload", required_argument, NULL, 'W' },
		{ "trace-timer", required_argument, NULL, 'T' },
		{ "trace-cpu", required_argument, NULL, 'C' },
		{ "torture", no_argument, NULL, 'X' },
		{ "ops", required_argument, NULL, 'o' },
		{ "faults", required_argument, NULL, 'f' },
		{ "ipi-delay", required_argument, NULL, 'd' },
		{ "offline-rate", required_argument, NULL, 'r' },
		{ "replay", required_argument, NULL, 'R' },
		{ "tmigr-inactive-up", required_argument, NULL, 'I' },
		{ "isolcpus", required_argument, NULL, 'i' },
		{ "tmigr-wake", required_argument, NULL, 'k' },
		{ NULL, 0, NULL, 0 },
	};
	struct sim_config c = {
		.cpus = 8,
		.nodes = 1,
		.shape = SHAPE_EVEN,
		.model = TIMER_MODEL_PULL,
		.seed = 1,
		.steps = 10000,
		.hz = 1000,
		.trace_timer = -1,
		.trace_cpu = -1,
		.tmigr_wake = TMIGR_WAKE_ONE,
		.faults = SIM_FAULT_OFFLINE | SIM_FAULT_IPI_DELAY,
		.ipi_delay = 3,
		.offline_rate = 20,
	};
	bool list = argc == 1, all = false, torture = false, model = false;
	const char *replay = NULL, *nodes_arg = NULL;
	double scale = 1;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			c.cpus = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'n':
			c.nodes = (unsigned int)strtoul(optarg, NULL, 0);
			nodes_arg = optarg;
			break;
		case 's':
			c.seed = strtoull(optarg, NULL, 0);
			break;
		case 't':
			c.steps = strtoull(optarg, NULL, 0);
			break;
		case 'z':
			c.hz = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'v':
			c.verbose = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'l':
			list = true;
			break;
		case 'x':
			scale = strtod(optarg, NULL);
			break;
		case 'w':
			c.wrap = strtoull(optarg, NULL, 0);
			break;
		case 'W':
			if (strcmp(optarg, "steady") && strcmp(optarg, "mixed"))
				goto bad;
			c.steady = !strcmp(optarg, "steady");
			break;
		case 'T':
			c.trace_timer = (int)strtol(optarg, NULL, 0);
			break;
		case 'C':
			c.trace_cpu = (int)strtol(optarg, NULL, 0);
			break;
		case 'S':
			if (sim_shape_parse(optarg, &c.shape))
				goto bad;
			break;
		case 'm':
			if (parse_model(optarg, &c.model, &all))
				goto bad;
			model = true;
			break;
		case 'X':
			torture = true;
			break;
		case 'o':
			c.ops = strtoull(optarg, NULL, 0);
			torture = true;
			break;
		case 'f':
			if (sim_faults_parse(optarg, &c.faults))
				goto bad;
			break;
		case 'd':
			c.ipi_delay = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'r':
			c.offline_rate = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'R':
			replay = optarg;
			break;
		case 'i':
			c.isolcpus = optarg;
			break;
		case 'I':
			if (strcmp(optarg, "mainline") &&
			    strcmp(optarg, "fixed"))
				goto bad;
			tmigr_set_inactive_up_mainline(
				!strcmp(optarg, "mainline"));
			printf("sim tmigr_inactive_up=%s\n", optarg);
			break;
		case 'k':
			if (!strcmp(optarg, "linux"))
				c.tmigr_wake = TMIGR_WAKE_LINUX;
			else if (!strcmp(optarg, "one"))
				c.tmigr_wake = TMIGR_WAKE_ONE;
			else if (!strcmp(optarg, "own"))
				c.tmigr_wake = TMIGR_WAKE_OWN;
			else if (!strcmp(optarg, "both"))
				c.both_wakes = true;
			else
				goto bad;
			break;
		default:
			goto bad;
		}
	}
	/* The trace gives CPUs, nodes (or --nodes as a map) and HZ. */
	if (replay && optind == argc && !list && !torture)
		return sim_replay_main(&c, replay, nodes_arg, all || !model);
	if (optind != argc || (c.hz != 100 && c.hz != 250 && c.hz != 1000) ||
	    !c.cpus || c.cpus > HOST_MAX_CPUS || !c.nodes ||
	    c.nodes > SIM_MAX_NODES || c.nodes > c.cpus || scale <= 0 ||
	    (c.shape == SHAPE_SMT && c.cpus % (2 * c.nodes)))
		goto bad;
	if (list)
		return run_list(c.hz, scale, c.verbose);
	/* Faults only torture; --ops 0 would never end a step. */
	if (!torture)
		c.faults = 0;
	else if (!c.ops)
		c.ops = 10000000;
	ret = run_models(&c, all, false);
	return ret < 0 ? 2 : ret;
bad:
	usage();
	return 2;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/sim/report.c - what the simulator tells: violations, traces,
 * and the watchdog that turns a livelock inside timer/ into a failure.
 *
 * Every line names the run fully (shape, model, hz, seed, wrap) and the
 * step, so it can be replayed with the same command line and looked at
 * with --trace-timer/--trace-cpu.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "tests/host/sim/sim.h"
#include "timer_env.h"

/* No step for this long: a walk inside timer/ never ends. */
#define SIM_WATCHDOG_S 20

static volatile sig_atomic_t wd_step, wd_seen, wd_idle_s;
static char wd_msg[256];

/**
 * sim_violation - count a broken invariant, print the first ones
 * @s: the run
 * @cpu: the CPU concerned, or -1
 * @timer: the pool index of the timer concerned, or -1
 * @fmt: what broke
 */
void sim_violation(struct sim *s, int cpu, int timer, const char *fmt, ...)
{
	va_list ap;

	if (s->st.violations++ > s->cfg.verbose)
		return;
	printf("sim: VIOLATION cpus=%u nodes=%u shape=%s model=%s hz=%u seed=%llu wrap=%llu step=%llu jiffies=%llu cpu=%d timer=%d: ",
	       s->cfg.cpus, s->cfg.nodes, sim_shape_name(s->cfg.shape),
	       sim_model_name(s->cfg.model), s->cfg.hz,
	       (unsigned long long)s->cfg.seed, (unsigned long long)s->cfg.wrap,
	       (unsigned long long)s->step, (unsigned long long)s->now_j, cpu,
	       timer);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/**
 * sim_trace - one line of --trace-timer/--trace-cpu output
 * @s: the run
 * @fmt: the event
 */
void sim_trace(struct sim *s, const char *fmt, ...)
{
	va_list ap;

	printf("trace step=%llu jiffies=%llu ", (unsigned long long)s->step,
	       (unsigned long long)s->now_j);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* Async-signal-safe: @v in decimal at the end of wd_msg. */
static void wd_append(unsigned long v)
{
	char digits[24];
	size_t len = strlen(wd_msg), n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n && len + 2 < sizeof(wd_msg))
		wd_msg[len++] = digits[--n];
	wd_msg[len++] = '\n';
	wd_msg[len] = 0;
}

static void watchdog(int sig)
{
	(void)sig;
	if (wd_step != wd_seen) {
		wd_seen = wd_step;
		wd_idle_s = 0;
		return;
	}
	if (++wd_idle_s < SIM_WATCHDOG_S)
		return;
	wd_append((unsigned long)wd_step);
	if (write(STDOUT_FILENO, wd_msg, strlen(wd_msg)) < 0)
		_exit(3);
	_exit(3);
}

/**
 * sim_watchdog_arm - fail the process if run @s stops making progress
 * @s: the run about to start its steps
 *
 * Exit status 3, after a VIOLATION line naming the step it stuck at.
 */
void sim_watchdog_arm(const struct sim *s)
{
	struct itimerval it = { { 1, 0 }, { 1, 0 } };

	snprintf(
		wd_msg, sizeof(wd_msg) - 24,
		"sim: VIOLATION cpus=%u nodes=%u shape=%s model=%s hz=%u seed=%llu wrap=%llu: livelock in timer/, no progress for %d s at step ",
		s->cfg.cpus, s->cfg.nodes, sim_shape_name(s->cfg.shape),
		sim_model_name(s->cfg.model), s->cfg.hz,
		(unsigned long long)s->cfg.seed,
		(unsigned long long)s->cfg.wrap, SIM_WATCHDOG_S);
	wd_step = wd_seen = wd_idle_s = 0;
	signal(SIGALRM, watchdog);
	setitimer(ITIMER_REAL, &it, NULL);
}

/** sim_watchdog_step - the run reached step @step */
void sim_watchdog_step(uint64_t step)
{
	wd_step = (sig_atomic_t)step;
}

/** sim_watchdog_disarm - the run is over */
void sim_watchdog_disarm(void)
{
	struct itimerval it = { { 0, 0 }, { 0, 0 } };

	setitimer(ITIMER_REAL, &it, NULL);
}

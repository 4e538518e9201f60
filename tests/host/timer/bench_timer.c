// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/timer/bench_timer.c - the enqueue/dequeue loop of Linux's
 * pull-model series, on the host.
 *
 * As that series measured it: mod_timer() + timer_delete() of one global
 * timer, 1000 times, on a CPU that is not timer housekeeping (isolcpus=),
 * with a quarter of the other CPUs busy; 31 repetitions per model, and
 * the same loop calling two empty out-of-line functions as the floor.
 * Prints one line per figure:
 *   bench host name=enqueue_dequeue model=pull cpus=8 busy=2 reps=31 min_ns=.. median_ns=.. p99_ns=..
 * Compare figures within one run only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "timer/timer.h"
#include "timer/timer_migration.h"
#include "timer_env.h"

#define LOOPS 1000
#define REPS  31
#define NCPUS 8

static void fn(struct timer_list *t)
{
	(void)t;
}

__attribute__((noinline)) static void empty_a(struct timer_list *t, uint64_t j)
{
	__asm__ volatile("" : : "r"(t), "r"(j) : "memory");
}

__attribute__((noinline)) static void empty_b(struct timer_list *t)
{
	__asm__ volatile("" : : "r"(t) : "memory");
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void report(const char *what, const char *model, unsigned busy,
		   double *v)
{
	qsort(v, REPS, sizeof(*v), cmp);
	printf("bench host name=%s model=%s cpus=%d busy=%u reps=%d "
	       "min_ns=%.1f median_ns=%.1f p99_ns=%.1f\n",
	       what, model, NCPUS, busy, REPS, v[0], v[REPS / 2],
	       v[(REPS * 99) / 100]);
}

static const struct {
	enum timer_model model;
	const char *name;
} models[] = {
	{ TIMER_MODEL_PULL, "pull" },
	{ TIMER_MODEL_PUSH, "push" },
	{ TIMER_MODEL_LOCAL, "local" },
};

int main(void)
{
	for (unsigned m = 0; m < sizeof(models) / sizeof(models[0]); m++) {
		double ops[REPS], floor_ns[REPS];
		struct timer_list t;
		unsigned busy = 0;
		void *storage;

		host_env_reset(NCPUS);
		for (unsigned c = 0; c < NCPUS; c++)
			host_cpu_node[c] = c < NCPUS / 2 ? 0 : 1;
		host_nr_nodes = 2;
		/* CPU 0 measures; every 4th other CPU is busy. */
		host_cpu_isolated[0] = true;
		for (unsigned c = 1; c < NCPUS; c++) {
			host_cpu_idle[c] = (c - 1) % 4 != 0;
			busy += !host_cpu_idle[c];
		}
		storage = calloc(1, timer_bases_size(NCPUS));
		if (!storage || timer_init(storage, NCPUS, 1000))
			return 1;
		timer_set_model(models[m].model);
		timer_setup(&t, fn, 0);
		for (int r = 0; r < REPS; r++) {
			uint64_t t0 = now_ns();

			for (int i = 0; i < LOOPS; i++) {
				mod_timer(&t, 100 + (i & 63) * 37);
				timer_delete(&t);
			}
			ops[r] = (double)(now_ns() - t0) / LOOPS;
			t0 = now_ns();
			for (int i = 0; i < LOOPS; i++) {
				empty_a(&t, 100 + (i & 63) * 37);
				empty_b(&t);
			}
			floor_ns[r] = (double)(now_ns() - t0) / LOOPS;
		}
		report("enqueue_dequeue", models[m].name, busy, ops);
		report("floor", models[m].name, busy, floor_ns);
		free(storage);
		host_env_free_all();
	}
	return 0;
}

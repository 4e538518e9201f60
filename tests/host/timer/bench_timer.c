// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/timer/bench_timer.c - the seed's enqueue/dequeue loop.
 *
 * mod_timer() + timer_delete() of one timer, 1000 times, 30 repetitions;
 * prints min and median ns per pair and the empty loop's floor.  Compare
 * figures within one run only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "timer/timer.h"
#include "timer_env.h"

#define LOOPS	1000
#define REPS	30

static void fn(struct timer_list *t)
{
	(void)t;
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

static void report(const char *what, double *v)
{
	qsort(v, REPS, sizeof(*v), cmp);
	printf("%-22s min %7.1f ns/op  median %7.1f ns/op\n", what, v[0],
	       v[REPS / 2]);
}

int main(void)
{
	double ops[REPS], floor_ns[REPS];
	struct timer_list t;
	volatile unsigned int sink = 0;
	void *storage;
	int r, i;

	host_env_reset(1);
	storage = calloc(1, timer_bases_size(1));
	if (!storage || timer_init(storage, 1, 1000))
		return 1;
	timer_setup(&t, fn, 0);
	for (r = 0; r < REPS; r++) {
		uint64_t t0 = now_ns();

		for (i = 0; i < LOOPS; i++) {
			mod_timer(&t, 100 + (i & 63) * 37);
			timer_delete(&t);
		}
		ops[r] = (double)(now_ns() - t0) / LOOPS;
		t0 = now_ns();
		for (i = 0; i < LOOPS; i++)
			sink += i;
		floor_ns[r] = (double)(now_ns() - t0) / LOOPS;
	}
	report("enqueue+dequeue", ops);
	report("empty loop", floor_ns);
	free(storage);
	return 0;
}

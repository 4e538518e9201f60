// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/timer/bench_tmigr.c - cost of the hierarchy walks as the
 * machine grows, on the host.
 *
 * For each size, nodes of 64 CPUs (one node up to 64): every CPU online,
 * all idle but CPU 0, which then goes idle (the last active CPU: the walk
 * reaches the root) and comes back, 2001 times.  Prints per size:
 *   bench host name=tmigr_walk cpus=N nodes=K levels=L deactivate_median_ns=.. activate_median_ns=.. per_level_ns=..
 * Compare within one run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "timer/timer.h"
#include "timer/timer_migration.h"
#include "timer_env.h"

#define REPS 2001

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *v)
{
	qsort(v, REPS, sizeof(*v), cmp);
	return v[REPS / 2];
}

static int walk(unsigned int ncpus)
{
	static uint64_t deact[REPS], act[REPS];
	unsigned int nodes = ncpus <= 64 ? 1 : (ncpus + 63) / 64;
	struct tmigr_shape s;
	uint64_t d, a;

	tmigr_reset();
	host_env_free_all();
	host_env_reset(ncpus);
	for (unsigned int c = 0; c < ncpus; c++)
		host_cpu_node[c] = c / 64;
	host_nr_nodes = nodes;
	if (tmigr_init(ncpus, nodes))
		return 1;
	for (unsigned int c = 0; c < ncpus; c++) {
		host_set_cpu(0);
		if (tmigr_cpu_prepare(c))
			return 1;
		host_set_cpu(c);
		if (tmigr_cpu_online())
			return 1;
	}
	for (unsigned int c = 1; c < ncpus; c++) {
		host_set_cpu(c);
		tmigr_cpu_deactivate(TMIGR_NONE_NS);
	}
	host_set_cpu(0);
	for (int r = 0; r < REPS; r++) {
		uint64_t t0 = now_ns(), t1, t2;

		tmigr_cpu_deactivate(TMIGR_NONE_NS);
		t1 = now_ns();
		tmigr_cpu_activate();
		t2 = now_ns();
		deact[r] = t1 - t0;
		act[r] = t2 - t1;
	}
	tmigr_get_shape(&s);
	d = median(deact);
	a = median(act);
	printf("bench host name=tmigr_walk cpus=%u nodes=%u levels=%u "
	       "deactivate_median_ns=%llu activate_median_ns=%llu "
	       "per_level_ns=%llu\n",
	       ncpus, nodes, s.levels, (unsigned long long)d,
	       (unsigned long long)a, (unsigned long long)((d + a) / s.levels));
	return 0;
}

int main(void)
{
	static const unsigned int sizes[] = { 8, 64, 255, 512, 1024, 4096 };

	for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (walk(sizes[i]))
			return 1;
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lib/rand.h - seeded pseudo-random streams for workloads (torture, the
 * mixed scenario): the same seed gives each stream the same sequence on
 * every run, so a failure or a figure can be reproduced.
 *
 * splitmix64 turns (seed, stream) into a well-mixed, never-zero state;
 * xorshift64* steps it.
 */
#ifndef LIB_RAND_H
#define LIB_RAND_H

#include <stdint.h>

/* The state of stream @stream of run @seed (a CPU number, say). */
static inline uint64_t rand_seed(uint64_t seed, unsigned stream)
{
	uint64_t z = seed + (stream + 1ULL) * 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return z ? z : 1; /* xorshift's one forbidden state */
}

static inline uint64_t rand_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dULL;
}

/* Uniform in [0, @n), @n > 0. */
static inline unsigned rand_below(uint64_t *s, unsigned n)
{
	return (unsigned)(((rand_next(s) >> 32) * n) >> 32);
}

/* Uniform in [@lo, @hi], @lo <= @hi. */
static inline unsigned rand_range(uint64_t *s, unsigned lo, unsigned hi)
{
	return lo + rand_below(s, hi - lo + 1);
}

#endif /* LIB_RAND_H */

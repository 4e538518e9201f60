/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/host/sim/rng.h - seeded pseudo-random numbers for the simulator
 * and the stress test.
 *
 * Not rand(): a run must be the same on every libc, so that a seed printed
 * with a violation reproduces it anywhere.  splitmix64 turns the user's
 * seed (often 1, 2, 3...) into a well-mixed state; xorshift64* steps it.
 */
#ifndef TESTS_HOST_SIM_RNG_H
#define TESTS_HOST_SIM_RNG_H

#include <stdint.h>

struct sim_rng {
	uint64_t s;
};

/**
 * sim_rng_seed - start a stream from @seed
 * @r: the stream
 * @seed: any value, 0 included
 */
static inline void sim_rng_seed(struct sim_rng *r, uint64_t seed)
{
	uint64_t z = seed + 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	r->s = z ? z : 1; /* xorshift's one forbidden state */
}

/**
 * sim_rng_at - a stream of its own for decision (@a, @b) of run @seed
 * @r: the stream
 * @seed: the run's seed
 * @a, @b: what the decision is about, e.g. a jiffy and a CPU
 *
 * Keyed streams keep runs comparable: the same seed makes the same
 * decisions at the same jiffy on the same CPU whatever happened before,
 * so runs that differ only in the timer model see the same workload.
 */
static inline void sim_rng_at(struct sim_rng *r, uint64_t seed, uint64_t a,
			      uint64_t b)
{
	sim_rng_seed(r, seed ^ (a * 0xd6e8feb86659fd93ull) ^
				(b * 0xa0761d6478bd642full));
}

/** sim_rng_next - next 64 random bits */
static inline uint64_t sim_rng_next(struct sim_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dull;
}

/** sim_rng_below - uniform in [0, @n), @n > 0 (bias negligible here) */
static inline uint64_t sim_rng_below(struct sim_rng *r, uint64_t n)
{
	return (sim_rng_next(r) >> 11) % n;
}

/** sim_rng_chance - true with probability @permille / 1000 */
static inline int sim_rng_chance(struct sim_rng *r, unsigned int permille)
{
	return sim_rng_below(r, 1000) < permille;
}

#endif /* TESTS_HOST_SIM_RNG_H */

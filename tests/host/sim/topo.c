// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/sim/topo.c - CPU-to-node and SMT shapes for the simulator.
 *
 * The hierarchy groups CPUs per node in the order they come online, so
 * the shapes that matter are the ones that make that order interesting:
 *   even         contiguous blocks of equal size (the common machine);
 *   uneven       contiguous blocks of sizes 1x, 2x, 3x, 1x, ... so nodes
 *                fill level-0 groups unevenly and some have a lone CPU;
 *   interleaved  CPU i on node i % nodes: every node's first CPU arrives
 *                before any node has two, the case of docs/races.md,
 *                "New node below the cross-node level";
 *   smt          even blocks, CPUs 2k and 2k+1 siblings of one core.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/host/sim/sim.h"
#include "timer/timer_migration.h"
#include "timer_env.h"

static const char *const shape_names[] = {
	[SHAPE_EVEN] = "even",
	[SHAPE_UNEVEN] = "uneven",
	[SHAPE_INTERLEAVED] = "interleaved",
	[SHAPE_SMT] = "smt",
};

/**
 * sim_shape_parse - shape from its command-line name
 * @name: "even", "uneven", "interleaved" or "smt"
 * @shape: result
 *
 * Returns 0, or -1 for an unknown name.
 */
int sim_shape_parse(const char *name, enum sim_shape *shape)
{
	for (unsigned int i = 0; i < sizeof(shape_names) / sizeof(*shape_names);
	     i++) {
		if (!strcmp(name, shape_names[i])) {
			*shape = i;
			return 0;
		}
	}
	return -1;
}

/** sim_shape_name - the command-line name of @shape */
const char *sim_shape_name(enum sim_shape shape)
{
	return shape_names[shape];
}

/** sim_model_name - the command-line name of @model */
const char *sim_model_name(enum timer_model model)
{
	switch (model) {
	case TIMER_MODEL_PULL:
		return "pull";
	case TIMER_MODEL_PUSH:
		return "push";
	default:
		return "local";
	}
}

const char *sim_wake_name(unsigned int wake)
{
	switch (wake) {
	case TMIGR_WAKE_LINUX:
		return "linux";
	case TMIGR_WAKE_ONE:
		return "one";
	default:
		return "own";
	}
}

/* Contiguous blocks whose sizes follow @weight(node); every node >= 1. */
static void apply_blocks(unsigned int cpus, unsigned int nodes,
			 unsigned int (*weight)(unsigned int node))
{
	uint64_t total = 0, acc = 0;
	unsigned int cpu = 0;

	for (unsigned int n = 0; n < nodes; n++)
		total += weight(n);
	for (unsigned int n = 0; n < nodes; n++) {
		unsigned int end;

		/* Cumulative rounding: the last node ends exactly at cpus. */
		acc += weight(n);
		end = (unsigned int)(acc * cpus / total);
		if (end <= cpu)
			end = cpu + 1;
		if (end > cpus - (nodes - n - 1))
			end = cpus - (nodes - n - 1);
		for (; cpu < end; cpu++)
			host_cpu_node[cpu] = n;
	}
}

static unsigned int weight_even(unsigned int node)
{
	(void)node;
	return 1;
}

static unsigned int weight_uneven(unsigned int node)
{
	return node % 3 + 1;
}

/* Mark the CPUs of isolcpus= list @list ("0,3-5"); -1 if malformed. */
static int apply_isolcpus(const char *list, unsigned int cpus)
{
	while (list && *list) {
		char *end;
		unsigned long a = strtoul(list, &end, 10), b = a;

		if (end == list)
			return -1;
		if (*end == '-') {
			list = end + 1;
			b = strtoul(list, &end, 10);
			if (end == list)
				return -1;
		}
		if (a > b || b >= cpus || (*end && *end != ','))
			return -1;
		for (unsigned long c = a; c <= b; c++)
			host_cpu_isolated[c] = true;
		list = *end ? end + 1 : end;
	}
	return 0;
}

/**
 * sim_topo_apply - set host_cpu_node[], host_cpu_core[], host_nr_nodes,
 * host_cpu_isolated[]
 * @cfg: cpus, nodes (1..SIM_MAX_NODES, <= cpus), shape and isolcpus, or
 * node_of
 *
 * Pre: host_env_reset(cfg->cpus) done.  Returns 0, or -1 on a bad shape
 * (smt needs an even number of CPUs per node) or isolcpus list.
 */
int sim_topo_apply(const struct sim_config *cfg)
{
	unsigned int cpus = cfg->cpus, nodes = cfg->nodes;

	if (apply_isolcpus(cfg->isolcpus, cpus))
		return -1;

	if (cfg->node_of) {
		/* A replayed trace's map: any order, checked when parsed. */
		for (unsigned int c = 0; c < cpus; c++)
			host_cpu_node[c] = cfg->node_of[c];
		host_nr_nodes = nodes;
		return 0;
	}
	switch (cfg->shape) {
	case SHAPE_EVEN:
		apply_blocks(cpus, nodes, weight_even);
		break;
	case SHAPE_UNEVEN:
		apply_blocks(cpus, nodes, weight_uneven);
		break;
	case SHAPE_INTERLEAVED:
		for (unsigned int c = 0; c < cpus; c++)
			host_cpu_node[c] = c % nodes;
		break;
	case SHAPE_SMT:
		if (cpus % (2 * nodes))
			return -1;
		apply_blocks(cpus, nodes, weight_even);
		for (unsigned int c = 0; c < cpus; c++)
			host_cpu_core[c] = c / 2;
		break;
	}
	host_nr_nodes = nodes;
	return 0;
}

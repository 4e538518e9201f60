// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/timer/test_tmigr.c - the pull hierarchy (timer_migration.c)
 * and its glue in timer/: shapes, group membership, state transitions,
 * events, remote expiry and the three placement models.
 */
#include <stdint.h>
#include <stdlib.h>

#include "tests/host/registry.h"
#include "tests/host/timer/tmigr_util.h"
#include "timer_env.h"

static void teardown(void)
{
	tm_teardown();
}

/* ---- shapes ---- */

/* Levels of 8 that hold @n, computed the slow way. */
static unsigned int levels8(unsigned int n)
{
	unsigned long long cap = 1;
	unsigned int l = 0;

	while (cap < n) {
		cap *= 8;
		l++;
	}
	return l;
}

enum layout { CONTIGUOUS, INTERLEAVED, UNEVEN };

static void set_layout(unsigned int ncpus, unsigned int nnodes,
		       enum layout layout)
{
	unsigned int cpu;

	for (cpu = 0; cpu < ncpus; cpu++) {
		switch (layout) {
		case CONTIGUOUS:
			host_cpu_node[cpu] = cpu * nnodes / ncpus;
			break;
		case INTERLEAVED:
			host_cpu_node[cpu] = cpu % nnodes;
			break;
		case UNEVEN:
			/* Node 0 holds half, the others share the rest. */
			host_cpu_node[cpu] = nnodes == 1 || cpu < ncpus / 2 ?
						     0 :
						     1 + cpu % (nnodes - 1);
			break;
		}
	}
}

static unsigned int max_per_node(unsigned int ncpus, unsigned int nnodes)
{
	static unsigned int count[64];
	unsigned int cpu, n, max = 0;

	for (n = 0; n < nnodes; n++)
		count[n] = 0;
	for (cpu = 0; cpu < ncpus; cpu++)
		if (++count[host_cpu_node[cpu]] > max)
			max = count[host_cpu_node[cpu]];
	return max;
}

/*
 * Every CPU's path: reaches the one root, levels go up by one, groups
 * below the cross-node level hold one node's CPUs, none has more than 8
 * children, level-0 groups of a node are as few as possible.
 */
static void check_tree(unsigned int ncpus, unsigned int nnodes)
{
	static unsigned int group_node[HOST_MAX_CPUS * 2];
	static unsigned int lvl0_per_node[64], cpus_per_node[64];
	struct tmigr_group_view g;
	struct tmigr_shape shape;
	unsigned int cpu, id, n;
	int root;

	tmigr_get_shape(&shape);
	root = tm_root();
	ck_assert_int_ge(root, 0);
	for (id = 0; id < shape.groups; id++)
		group_node[id] = UINT32_MAX;
	for (n = 0; n < nnodes; n++)
		lvl0_per_node[n] = cpus_per_node[n] = 0;
	for (cpu = 0; cpu < ncpus; cpu++) {
		unsigned int node = host_cpu_node[cpu], lvl = 0;
		int gid = (int)tm_group_of(cpu);

		cpus_per_node[node]++;
		while (gid >= 0) {
			ck_assert(tmigr_group_get((unsigned int)gid, &g));
			ck_assert_uint_eq(g.level, lvl);
			if (g.level < shape.crossnode_level) {
				ck_assert_uint_eq(g.node, node);
				if (group_node[gid] == UINT32_MAX)
					group_node[gid] = node;
				ck_assert_uint_eq(group_node[gid], node);
			} else {
				ck_assert_uint_eq(g.node, TMIGR_NO_NODE);
			}
			ck_assert_uint_le(g.num_children,
					  TMIGR_CHILDS_PER_GROUP);
			if (g.parent < 0)
				ck_assert_int_eq(gid, root);
			gid = g.parent;
			lvl++;
		}
		ck_assert_uint_le(lvl, shape.levels);
	}
	for (id = 0; id < shape.groups; id++) {
		ck_assert(tmigr_group_get(id, &g));
		if (g.level == 0 && shape.crossnode_level > 0)
			lvl0_per_node[g.node]++;
	}
	if (shape.crossnode_level > 0)
		for (n = 0; n < nnodes; n++)
			ck_assert_uint_eq(lvl0_per_node[n],
					  (cpus_per_node[n] + 7) / 8);
}

static void build_shape(unsigned int ncpus, unsigned int nnodes,
			enum layout layout, bool online)
{
	struct tmigr_shape shape;
	unsigned int per, cpu;

	tm_env(ncpus);
	set_layout(ncpus, nnodes, layout);
	tm_start_tmigr(nnodes);
	per = max_per_node(ncpus, nnodes);
	tmigr_get_shape(&shape);
	ck_assert_uint_eq(shape.crossnode_level, levels8(per));
	ck_assert_uint_eq(shape.levels, levels8(per) + levels8(nnodes) ?
						levels8(per) + levels8(nnodes) :
						1);
	for (cpu = 0; cpu < ncpus; cpu++) {
		tm_prepare(cpu, 0);
		if (online)
			tm_online(cpu);
	}
	check_tree(ncpus, nnodes);
	if (online)
		tm_assert_clean();
}

START_TEST(levels_match_the_seed_estimate)
{
	/* ncpus, nnodes, levels, crossnode (contiguous nodes). */
	static const unsigned int table[][4] = {
		{ 1, 1, 1, 0 },	   { 2, 1, 1, 1 },   { 7, 1, 1, 1 },
		{ 8, 1, 1, 1 },	   { 9, 1, 2, 2 },   { 64, 1, 2, 2 },
		{ 255, 1, 3, 3 },  { 256, 1, 3, 3 }, { 512, 1, 3, 3 },
		{ 4096, 1, 4, 4 }, { 2, 2, 1, 0 },   { 8, 2, 2, 1 },
		{ 9, 3, 2, 1 },	   { 64, 8, 2, 1 },  { 255, 3, 4, 3 },
		{ 256, 2, 4, 3 },  { 512, 8, 3, 2 }, { 4096, 64, 4, 2 },
		{ 4096, 8, 4, 3 }, { 64, 64, 2, 0 }, { 255, 64, 3, 1 },
	};
	struct tmigr_shape shape;
	unsigned int i;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		tm_env(table[i][0]);
		set_layout(table[i][0], table[i][1], CONTIGUOUS);
		tm_start_tmigr(table[i][1]);
		tmigr_get_shape(&shape);
		ck_assert_msg(shape.levels == table[i][2] &&
				      shape.crossnode_level == table[i][3],
			      "%u cpus %u nodes: %u levels, crossnode %u",
			      table[i][0], table[i][1], shape.levels,
			      shape.crossnode_level);
	}
}
END_TEST

START_TEST(uneven_nodes_size_levels_by_the_largest)
{
	struct tmigr_shape shape;
	unsigned int cpu;

	/*
	 * Node 0: 9 CPUs, nodes 1-7: one each.  Linux's average (2 per
	 * node) gives 2 levels and 9 children for the cross-node root.
	 */
	tm_env(16);
	for (cpu = 0; cpu < 16; cpu++)
		host_cpu_node[cpu] = cpu < 9 ? 0 : cpu - 8;
	tm_start_tmigr(8);
	tmigr_get_shape(&shape);
	ck_assert_uint_eq(shape.levels, 3);
	ck_assert_uint_eq(shape.crossnode_level, 2);
	for (cpu = 0; cpu < 16; cpu++)
		tm_prepare(cpu, 0);
	check_tree(16, 8);
	ck_assert_uint_eq(host_warn_hits, 0);
}
END_TEST

START_TEST(shapes_build_one_root_with_node_local_groups)
{
	static const unsigned int cpus[] = { 1, 2, 7, 8, 9, 64, 255, 256, 512 };
	static const unsigned int nodes[] = { 1, 2, 3, 8, 64 };
	unsigned int i, k, l;

	for (i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++)
		for (k = 0; k < sizeof(nodes) / sizeof(nodes[0]); k++) {
			if (nodes[k] > cpus[i])
				continue;
			for (l = CONTIGUOUS; l <= UNEVEN; l++)
				build_shape(cpus[i], nodes[k], l, true);
		}
}
END_TEST

START_TEST(shape_4096_cpus_64_nodes)
{
	build_shape(4096, 64, CONTIGUOUS, true);
	build_shape(4096, 64, INTERLEAVED, false);
	build_shape(4096, 3, UNEVEN, false);
}
END_TEST

/* ---- membership ---- */

START_TEST(level0_groups_fill_in_prepare_order)
{
	unsigned int cpu;

	tm_env(20);
	tm_start_tmigr(1);
	for (cpu = 0; cpu < 20; cpu++)
		tm_prepare(cpu, 0);
	for (cpu = 0; cpu < 20; cpu++)
		ck_assert_uint_eq(tm_group_of(cpu), tm_group_of(cpu / 8 * 8));
	ck_assert_uint_ne(tm_group_of(0), tm_group_of(8));
	ck_assert_uint_ne(tm_group_of(8), tm_group_of(16));
	check_tree(20, 1);
}
END_TEST

START_TEST(smt_siblings_share_a_group)
{
	struct tmigr_shape shape;
	struct tmigr_group_view g;
	unsigned int cpu;

	/* Threads c and c + 16 share core c, as x86 enumerates them. */
	tm_env(32);
	for (cpu = 0; cpu < 32; cpu++)
		host_cpu_core[cpu] = cpu % 16;
	tm_start_tmigr(1);
	tmigr_get_shape(&shape);
	ck_assert_uint_eq(shape.cores_per_group, 4);
	for (cpu = 0; cpu < 32; cpu++)
		tm_prepare(cpu, 0);
	for (cpu = 0; cpu < 16; cpu++) {
		ck_assert_uint_eq(tm_group_of(cpu), tm_group_of(cpu + 16));
		ck_assert_uint_eq(tm_group_of(cpu), tm_group_of(cpu / 4 * 4));
		ck_assert(tmigr_group_get(tm_group_of(cpu), &g));
		ck_assert_uint_eq(g.num_children, 8);
	}
	check_tree(32, 1);
}
END_TEST

START_TEST(interleaved_node_ids_group_by_node)
{
	unsigned int cpu;

	tm_env(32);
	set_layout(32, 2, INTERLEAVED);
	tm_start_tmigr(2);
	for (cpu = 0; cpu < 32; cpu++)
		tm_prepare(cpu, 0);
	for (cpu = 0; cpu < 32; cpu++)
		ck_assert_uint_eq(tm_group_of(cpu),
				  tm_group_of(cpu % 2 + cpu / 16 * 16));
	ck_assert_uint_ne(tm_group_of(0), tm_group_of(1));
	check_tree(32, 2);
}
END_TEST

/* ---- state ---- */

START_TEST(one_migrator_per_group_and_it_is_active)
{
	bool idle[64] = { false };
	unsigned int round, cpu, nidle = 0;
	uint64_t rng = 12345;

	tm_setup(64, 2, 1000);
	tm_bringup_all();
	tm_assert_invariants();
	for (round = 0; round < 3000; round++) {
		rng = rng * 6364136223846793005ull + 1442695040888963407ull;
		cpu = (rng >> 33) % 64;
		if (idle[cpu]) {
			tm_activate(cpu);
			nidle--;
		} else {
			uint64_t ev = (rng >> 40) % 3 ?
					      tm_ns(2000 + (rng >> 20) % 1000) :
					      TMIGR_NONE_NS;
			uint64_t first = tm_deactivate(cpu, ev);

			nidle++;
			/* Only the last CPU is told of an event. */
			if (nidle < 64)
				ck_assert_uint_eq(first, TMIGR_NONE_NS);
		}
		idle[cpu] = !idle[cpu];
		tm_assert_invariants();
	}
	ck_assert_uint_eq(host_warn_hits, 0);
}
END_TEST

START_TEST(deactivate_returns_first_event_for_the_last_cpu)
{
	struct tmigr_cpu_view c;
	struct tmigr_group_view g;
	uint64_t min = TMIGR_NONE_NS;
	unsigned int cpu;

	tm_setup(24, 1, 1000);
	tm_bringup_all();
	for (cpu = 1; cpu < 24; cpu++) {
		uint64_t ev = tm_ns(5000 + (cpu * 7919) % 1000);

		if (ev < min)
			min = ev;
		ck_assert_uint_eq(tm_deactivate(cpu, ev), TMIGR_NONE_NS);
		ck_assert(tmigr_cpu_get(cpu, &c));
		ck_assert(c.idle);
		ck_assert_uint_eq(c.cpuevt, ev);
	}
	tm_assert_invariants();
	/* CPU 0, last, with no event of its own: the system's first. */
	ck_assert_uint_eq(tm_deactivate(0, TMIGR_NONE_NS), min);
	ck_assert(tmigr_cpu_get(0, &c));
	ck_assert_uint_eq(c.wakeup, min);
	ck_assert(tmigr_group_get((unsigned int)tm_root(), &g));
	ck_assert_uint_eq(g.active, 0);
	ck_assert_uint_eq(g.migrator, TMIGR_NONE);
	ck_assert_uint_eq(g.next_expiry, min);
	tm_assert_invariants();

	/* Back to work: an active CPU is not told anything. */
	tm_activate(0);
	tm_assert_invariants();
	ck_assert_uint_eq(tm_deactivate(0, tm_ns(9000)), min);
	ck_assert_uint_eq(host_warn_hits, 0);
}
END_TEST

START_TEST(new_timer_moves_the_first_event)
{
	struct tmigr_group_view g;

	tm_setup(16, 1, 1000);
	tm_bringup_all();
	/* CPU 3 idle with an event, the others idle without. */
	ck_assert_uint_eq(tm_deactivate(3, tm_ns(4000)), TMIGR_NONE_NS);
	for (unsigned int cpu = 4; cpu < 16; cpu++)
		tm_deactivate(cpu, TMIGR_NONE_NS);
	tm_deactivate(1, TMIGR_NONE_NS);
	tm_deactivate(2, TMIGR_NONE_NS);
	/* CPU 0 busy: a new earlier event on idle CPU 9 needs nobody. */
	ck_assert_uint_eq(tm_new_timer(9, tm_ns(3000)), TMIGR_NONE_NS);
	ck_assert(tmigr_group_get(tm_group_of(9), &g));
	ck_assert_uint_eq(g.next_expiry, tm_ns(3000));
	ck_assert_uint_eq(g.next_cpu, 9);
	ck_assert_uint_eq(tm_deactivate(0, TMIGR_NONE_NS), tm_ns(3000));
	/* All idle: a new first event must be served by its own CPU. */
	ck_assert_uint_eq(tm_new_timer(3, tm_ns(2000)), tm_ns(2000));
	/* An unchanged event returns what the CPU must wake for. */
	ck_assert_uint_eq(tm_new_timer(3, tm_ns(2000)), tm_ns(2000));
	tm_assert_clean();
}
END_TEST

START_TEST(requires_handle_remote_when_an_event_is_due)
{
	tm_setup(9, 1, 1000);
	tm_bringup_all();
	tm_deactivate(8, tm_ns(1010));
	ck_assert(!tm_requires_remote(0));
	tm_set_time(1010);
	/* CPU 0 is the migrator of the root (group of 0-7 first). */
	ck_assert(tm_requires_remote(0));
	ck_assert(!tm_requires_remote(1));
	ck_assert_uint_eq(host_warn_hits, 0);
}
END_TEST

/* ---- with the wheel ---- */

START_TEST(idle_cpu_global_timer_expires_remotely_at_expiry)
{
	struct timer_cpu_stats st;
	struct tm_rec r;

	tm_setup(2, 1, 1000);
	tm_bringup_all();
	/* 100 jiffies: level 1, rounded up to a multiple of 8. */
	tm_rec_arm(&r, 1, 0, 1100);
	ck_assert_uint_eq(tm_idle(1), TMIGR_NONE_NS);
	ck_assert(tm_cpus[1].idle);
	tm_advance_to(1103);
	ck_assert_uint_eq(r.fired, 0);
	tm_advance_to(1104);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_at, 1104);
	ck_assert_uint_eq(r.fired_cpu, 0);
	ck_assert_uint_eq(tm_cpus[1].wakes, 0);
	ck_assert_uint_eq(host_wake_ipis[1], 0);
	timer_get_stats(0, &st);
	ck_assert_uint_eq(st.expired_remote, 1);
	ck_assert_uint_eq(st.expired_local, 0);
	timer_get_stats(1, &st);
	ck_assert_uint_eq(st.pulled_for, 1);
	tm_assert_clean();
}
END_TEST

/*
 * The migrator's tick that pulls an idle CPU's first global timer comes
 * late in its jiffy (0.9 of it, as a vCPU run late does), later ticks come
 * early (0.1).  The event queued for the idle CPU's second timer must not
 * be computed from that late "now" as if it were the jiffy's start: the
 * second timer would then be pulled a jiffy later than the first,
 * relative to its expiry, and every
 * periodic timer of an idle CPU would run a jiffy late (seen in the
 * guest's one_busy scenario: p50 lateness 2 jiffies under pull, 1 under
 * push and local).
 */
START_TEST(second_pulled_timer_is_not_a_jiffy_later)
{
	struct tm_rec a, b;

	tm_setup(2, 1, 1000);
	tm_bringup_all();
	tm_rec_arm(&a, 1, 0, 1010);
	tm_rec_arm(&b, 1, 0, 1020);
	tm_idle(1);
	ck_assert(tm_cpus[1].idle);
	for (uint64_t j = 1001; j <= 1030; j++) {
		host_set_jiffies(j);
		host_set_now_ns(tm_ns(j) +
				TM_TICK_NS * (j <= 1012 ? 9 : 1) / 10);
		tm_tick(0);
	}
	ck_assert_uint_eq(a.fired, 1);
	ck_assert_uint_eq(b.fired, 1);
	ck_assert_uint_eq(a.fired_cpu, 0);
	ck_assert_uint_eq(b.fired_cpu, 0);
	ck_assert_uint_eq(b.fired_at - 1020, a.fired_at - 1010);
	ck_assert_uint_eq(tm_cpus[1].wakes, 0);
	tm_assert_invariants();
}
END_TEST

START_TEST(last_idle_cpu_wakes_for_a_sibling_timer)
{
	struct tm_rec r;

	tm_setup(2, 1, 1000);
	tm_bringup_all();
	tm_rec_arm(&r, 1, 0, 1100);
	ck_assert_uint_eq(tm_idle(1), TMIGR_NONE_NS);
	/* CPU 0 is last: it arms for CPU 1's timer. */
	ck_assert_uint_eq(tm_idle(0), tm_ns(1104));
	ck_assert(tm_cpus[0].idle);
	tm_advance_to(1200);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_at, 1104);
	ck_assert_uint_eq(r.fired_cpu, 0);
	ck_assert_uint_eq(tm_cpus[0].wakes, 1);
	ck_assert_uint_eq(tm_cpus[1].wakes, 0);
	/* And then it has nothing to wake for. */
	ck_assert_uint_eq(tm_cpus[0].wake_ns, TMIGR_NONE_NS);
	tm_assert_clean();
}
END_TEST

START_TEST(next_event_per_model)
{
	static const enum timer_model models[] = { TIMER_MODEL_PULL,
						   TIMER_MODEL_LOCAL,
						   TIMER_MODEL_PUSH };
	unsigned int m;

	for (m = 0; m < 3; m++) {
		struct tm_rec glob, pin, def;
		uint64_t wake;
		bool stop;

		tm_setup(2, 1, 1000);
		timer_set_model(models[m]);
		tm_bringup_all();
		tm_rec_arm(&glob, 1, 0, 1100);
		tm_rec_arm(&pin, 1, TIMER_PINNED, 1300);
		tm_rec_arm(&def, 1, TIMER_DEFERRABLE, 1050);
		wake = tm_idle(1);
		ck_assert(tm_cpus[1].idle);
		if (models[m] == TIMER_MODEL_PULL)
			/* The global one is the hierarchy's. */
			ck_assert_uint_eq(wake, tm_ns(1304));
		else
			ck_assert_uint_eq(wake, tm_ns(1104));
		tm_advance_to(1400);
		ck_assert_uint_eq(glob.fired + pin.fired + def.fired, 3);
		ck_assert_uint_eq(pin.fired_cpu, 1);
		ck_assert_uint_eq(glob.fired_cpu,
				  models[m] == TIMER_MODEL_PULL ? 0 : 1);

		/*
		 * Within a jiffy (bucket 1401): the tick keeps running, but
		 * for a pinned timer only under pull, whose movable one goes
		 * to the busy CPU 0 (test_tmigr_wake.c has both policies).
		 */
		tm_wake(1);
		tm_rec_arm(&glob, 1,
			   models[m] == TIMER_MODEL_PULL ? TIMER_PINNED : 0,
			   1400);
		host_set_cpu(1);
		wake = timer_nohz_next_event(1400, tm_ns(1400), &stop);
		host_set_cpu(0);
		ck_assert(!stop);
		ck_assert_uint_eq(wake, tm_ns(1401));
		/* Deferrable only: nothing to wake for. */
		timer_delete(&glob.t);
		tm_rec_arm(&def, 1, TIMER_DEFERRABLE, 1410);
		host_set_cpu(1);
		wake = timer_nohz_next_event(1400, tm_ns(1400), &stop);
		host_set_cpu(0);
		ck_assert(stop);
		ck_assert_uint_eq(wake, TMIGR_NONE_NS);
		ck_assert_uint_eq(host_warn_hits, 0);
		tm_teardown();
	}
}
END_TEST

START_TEST(push_targets_sibling_then_node_then_any)
{
	struct tm_rec r;
	unsigned int cpu;

	/* 8 CPUs: cores of 2 threads, nodes of 4. */
	tm_env(8);
	for (cpu = 0; cpu < 8; cpu++) {
		host_cpu_core[cpu] = cpu / 2;
		host_cpu_node[cpu] = cpu / 4;
	}
	tm_start(2, 1000);
	timer_set_model(TIMER_MODEL_PUSH);
	tm_bringup_all();

	/* Busy: stays here. */
	tm_rec_arm(&r, 0, 0, 1100);
	ck_assert_uint_eq(r.t.flags & TIMER_CPUMASK, 0);
	timer_delete(&r.t);
	host_cpu_idle[0] = true;
	tm_rec_arm(&r, 0, 0, 1100);
	ck_assert_uint_eq(r.t.flags & TIMER_CPUMASK, 1); /* sibling */
	timer_delete(&r.t);
	host_cpu_idle[1] = true;
	tm_rec_arm(&r, 0, 0, 1100);
	ck_assert_uint_eq(r.t.flags & TIMER_CPUMASK, 2); /* node */
	timer_delete(&r.t);
	host_cpu_idle[2] = host_cpu_idle[3] = true;
	tm_rec_arm(&r, 0, 0, 1100);
	ck_assert_uint_eq(r.t.flags & TIMER_CPUMASK, 4); /* any */
	timer_delete(&r.t);
	/* Pinned ones stay, deferrable ones move as 6.8's did. */
	tm_rec_arm(&r, 0, TIMER_PINNED, 1100);
	ck_assert_uint_eq(r.t.flags & TIMER_CPUMASK, 0);
	timer_delete(&r.t);
	tm_rec_arm(&r, 0, TIMER_PINNED | TIMER_DEFERRABLE, 1100);
	ck_assert_uint_eq(r.t.flags & TIMER_CPUMASK, 0);
	timer_delete(&r.t);
	tm_rec_arm(&r, 0, TIMER_DEFERRABLE, 1100);
	ck_assert_uint_eq(r.t.flags & TIMER_CPUMASK, 4);
	timer_delete(&r.t);
	for (cpu = 4; cpu < 8; cpu++)
		host_cpu_idle[cpu] = true;
	tm_rec_arm(&r, 0, 0, 1100);
	ck_assert_uint_eq(r.t.flags & TIMER_CPUMASK, 0); /* all idle */
	timer_delete(&r.t);
	ck_assert_uint_eq(host_warn_hits, 0);
}
END_TEST

/*
 * Linux 6.8 get_target_base(): a deferrable non-pinned timer went to the
 * target's deferrable base, where it expires on the target's tick; the
 * target is the lowest busy CPU of the smallest span (core, node, all)
 * holding one; the timer_migration sysctl off (or NOHZ inactive) kept
 * every timer on the arming CPU.
 */
START_TEST(push_moves_deferrable_timers_like_linux_6_8)
{
	struct timer_cpu_stats st;
	struct tm_rec r;
	unsigned int cpu;

	/* 12 CPUs: cores of 2 threads, nodes of 6. */
	tm_env(12);
	for (cpu = 0; cpu < 12; cpu++) {
		host_cpu_core[cpu] = cpu / 2;
		host_cpu_node[cpu] = cpu / 6;
	}
	tm_start(2, 1000);
	timer_set_model(TIMER_MODEL_PUSH);
	tm_bringup_all();
	/* CPU 2 arms; its sibling 3 is idle; 1 and 4 share its node. */
	host_cpu_idle[0] = host_cpu_idle[2] = host_cpu_idle[3] = true;
	host_cpu_idle[5] = true;
	tm_rec_arm(&r, 2, TIMER_DEFERRABLE, 1010);
	ck_assert_uint_eq(r.t.flags & TIMER_CPUMASK, 1); /* lowest */
	timer_delete(&r.t);
	tm_rec_arm(&r, 2, 0, 1010);
	ck_assert_uint_eq(r.t.flags & TIMER_CPUMASK, 1);
	timer_delete(&r.t);
	/* The deferrable one expires on CPU 1's tick, not CPU 2's. */
	tm_rec_arm(&r, 2, TIMER_DEFERRABLE, 1010);
	for (cpu = 0; cpu < 12; cpu++)
		tm_cpus[cpu].up = cpu == 1;
	tm_advance_to(1012);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_cpu, 1);
	timer_get_stats(1, &st);
	ck_assert_uint_ge(st.expired_local, 1);

	/* Migration off: everything stays where it is armed. */
	timer_set_migration(false);
	tm_rec_arm(&r, 2, TIMER_DEFERRABLE, 1100);
	ck_assert_uint_eq(r.t.flags & TIMER_CPUMASK, 2);
	timer_delete(&r.t);
	tm_rec_arm(&r, 2, 0, 1100);
	ck_assert_uint_eq(r.t.flags & TIMER_CPUMASK, 2);
	timer_delete(&r.t);
	ck_assert_uint_eq(host_warn_hits, 0);
}
END_TEST

START_TEST(local_model_never_migrates)
{
	struct tm_rec r;

	tm_setup(2, 1, 1000);
	timer_set_model(TIMER_MODEL_LOCAL);
	tm_bringup_all();
	host_cpu_idle[1] = true;
	tm_rec_arm(&r, 1, 0, 1100);
	ck_assert_uint_eq(r.t.flags & TIMER_CPUMASK, 1);
	ck_assert_uint_eq(tm_idle(1), tm_ns(1104));
	tm_advance_to(1200);
	ck_assert_uint_eq(r.fired_cpu, 1);
	ck_assert_uint_eq(tm_cpus[1].wakes, 1);
	ck_assert_uint_eq(host_warn_hits, 0);
}
END_TEST

START_TEST(offline_and_online_again)
{
	struct tmigr_cpu_view c;

	tm_setup(10, 1, 1000);
	tm_bringup_all();
	host_set_cpu(9);
	ck_assert_int_eq(tmigr_cpu_offline(), 0);
	host_set_cpu(0);
	ck_assert(tmigr_cpu_get(9, &c));
	ck_assert(!c.online);
	tm_assert_invariants();
	/* Prepared once: prepare again is a no-op, online rejoins. */
	tm_prepare(9, 0);
	tm_online(9);
	ck_assert(tmigr_cpu_get(9, &c));
	ck_assert(c.online && !c.idle);
	tm_assert_clean();
}
END_TEST

static Suite *tmigr_suite(void)
{
	Suite *s = suite_create("tmigr");
	TCase *shape = tcase_create("shape");
	TCase *state = tcase_create("state");
	TCase *glue = tcase_create("glue");

	tcase_add_checked_fixture(shape, NULL, teardown);
	tcase_set_timeout(shape, 120);
	tcase_add_test(shape, levels_match_the_seed_estimate);
	tcase_add_test(shape, uneven_nodes_size_levels_by_the_largest);
	tcase_add_test(shape, shapes_build_one_root_with_node_local_groups);
	tcase_add_test(shape, shape_4096_cpus_64_nodes);
	tcase_add_test(shape, level0_groups_fill_in_prepare_order);
	tcase_add_test(shape, smt_siblings_share_a_group);
	tcase_add_test(shape, interleaved_node_ids_group_by_node);
	suite_add_tcase(s, shape);

	tcase_add_checked_fixture(state, NULL, teardown);
	tcase_add_test(state, one_migrator_per_group_and_it_is_active);
	tcase_add_test(state, deactivate_returns_first_event_for_the_last_cpu);
	tcase_add_test(state, new_timer_moves_the_first_event);
	tcase_add_test(state, requires_handle_remote_when_an_event_is_due);
	tcase_add_test(state, offline_and_online_again);
	suite_add_tcase(s, state);

	tcase_add_checked_fixture(glue, NULL, teardown);
	tcase_add_test(glue, idle_cpu_global_timer_expires_remotely_at_expiry);
	tcase_add_test(glue, last_idle_cpu_wakes_for_a_sibling_timer);
	tcase_add_test(glue, next_event_per_model);
	tcase_add_test(glue, push_targets_sibling_then_node_then_any);
	tcase_add_test(glue, push_moves_deferrable_timers_like_linux_6_8);
	tcase_add_test(glue, local_model_never_migrates);
	tcase_add_test(glue, second_pulled_timer_is_not_a_jiffy_later);
	suite_add_tcase(s, glue);
	return s;
}

HOST_SUITE(tmigr_suite);

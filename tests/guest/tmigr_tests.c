/*
 * The pull hierarchy on the real machine: its shape follows the
 * topology, its state follows who is idle, and a global timer of an idle
 * CPU is expired where the timer model says, without waking that CPU.
 *
 * `selftest=tmigr_tree` (explicit only) prints the tree, one line per
 * group, and checks that it is one tree.
 */
#include "arch/x86_64/arch.h"
#include "arch/x86_64/smp.h"
#include "arch/x86_64/tsc.h"
#include "kernel/boot.h"
#include "kernel/cmdline.h"
#include "kernel/idle.h"
#include "kernel/ktest.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/smp_call.h"
#include "kernel/tick.h"
#include "kernel/topology.h"
#include "lib/atomic.h"
#include "tests/guest/probe.h"
#include "timer/timer.h"
#include "timer/timer_migration.h"

#define WAIT_NS 5000000000ULL

static unsigned ngroups(void)
{
	struct tmigr_shape s;

	tmigr_get_shape(&s);
	return s.groups;
}

/* Does the hierarchy have per-node levels under a cross-node one? */
static bool nodes_below_root(void)
{
	struct tmigr_shape s;

	tmigr_get_shape(&s);
	return s.crossnode_level > 0;
}

/* Level-0 groups hold CPUs of one node, at most 8, and all CPUs are in. */
static void level0_groups_follow_the_nodes(struct ktest *t)
{
	unsigned n = ngroups(), in_group[n ? n : 1];

	for (unsigned g = 0; g < n; g++)
		in_group[g] = 0;
	for (unsigned c = 0; c < nr_cpus; c++) {
		struct tmigr_cpu_view cv;
		struct tmigr_group_view gv;

		if (!cpu_online(c))
			continue;
		KEXPECT(t, tmigr_cpu_get(c, &cv));
		KEXPECT(t, cv.group >= 0 && (unsigned)cv.group < n);
		if (cv.group < 0 || (unsigned)cv.group >= n)
			continue;
		in_group[cv.group]++;
		KEXPECT(t, tmigr_group_get((unsigned)cv.group, &gv));
		KEXPECT_EQ(t, gv.level, 0);
		/* One level only: level 0 is the cross-node level. */
		if (gv.node != TMIGR_NO_NODE || nodes_below_root())
			KEXPECT_EQ(t, gv.node, per_cpu(c)->node);
	}
	for (unsigned g = 0; g < n; g++)
		KEXPECT(t, in_group[g] <= TMIGR_CHILDS_PER_GROUP);
}

/* Every group but one has a parent one level up; the root is the top. */
static void groups_form_one_tree(struct ktest *t)
{
	unsigned n = ngroups(), roots = 0;
	struct tmigr_shape s;

	tmigr_get_shape(&s);
	for (unsigned g = 0; g < n; g++) {
		struct tmigr_group_view v, pv;

		KEXPECT(t, tmigr_group_get(g, &v));
		if (v.parent < 0) {
			roots++;
			KEXPECT_EQ(t, v.level + 1, s.levels);
			continue;
		}
		KEXPECT(t, tmigr_group_get((unsigned)v.parent, &pv));
		KEXPECT_EQ(t, pv.level, v.level + 1);
		KEXPECT(t, pv.num_children <= TMIGR_CHILDS_PER_GROUP);
		/* Below the cross-node level a parent stays in the node. */
		if (pv.level < s.crossnode_level)
			KEXPECT_EQ(t, pv.node, v.node);
		else
			KEXPECT_EQ(t, pv.node, TMIGR_NO_NODE);
	}
	KEXPECT_EQ(t, roots, 1);
}

static void wait_aps_idle(void)
{
	wait_other_cpus_idle(WAIT_NS);
}

/*
 * With the test CPU busy and the others idle: the active groups are
 * exactly those on the test CPU's path, each with the path's child as
 * migrator; every other group is inactive with no migrator.
 */
static void only_the_busy_cpus_path_is_active(struct ktest *t)
{
	unsigned n = ngroups();
	bool on_path[n ? n : 1];
	struct tmigr_cpu_view cv;
	int g;

	if (!tick_nohz_enabled() || boot_opts.timer_model != TIMER_MODEL_PULL) {
		ktest_skip(t, "needs nohz=on and timer_model=pull");
		return;
	}
	for (unsigned i = 0; i < n; i++)
		on_path[i] = false;
	wait_aps_idle();
	KEXPECT(t, tmigr_cpu_get(smp_processor_id(), &cv));
	KEXPECT(t, !cv.idle);
	/* An isolated CPU is never active in a group: no path then. */
	for (g = cv.isolated ? -1 : cv.group; g >= 0;) {
		struct tmigr_group_view v;

		tmigr_group_get((unsigned)g, &v);
		on_path[g] = true;
		g = v.parent;
	}
	for (unsigned i = 0; i < n; i++) {
		struct tmigr_group_view v;

		KEXPECT(t, tmigr_group_get(i, &v));
		if (on_path[i]) {
			KEXPECT(t, v.active != 0);
			KEXPECT(t, v.migrator != TMIGR_NONE);
			KEXPECT(t, v.active & v.migrator);
		} else {
			KEXPECT_EQ(t, v.active, 0);
			KEXPECT_EQ(t, v.migrator, TMIGR_NONE);
		}
	}
}

static void arm_global(void *arg)
{
	struct probe *p = arg;

	timer_setup(&p->timer, probe_fn, 0);
	p->expires = tick_update_jiffies() + 10;
	mod_timer(&p->timer, p->expires);
}

static int last_idle_ap(void)
{
	for (unsigned c = nr_cpus; c-- > 0;)
		if (cpu_online(c) && c != smp_processor_id())
			return (int)c;
	return -1;
}

/*
 * A global timer armed by an idle CPU (from its idle context, so it stays
 * idle): pull expires it on the busy test CPU (the migrator) without a
 * wake of the owner; push queued it there at enqueue; local wakes the
 * owner once and expires it there.
 */
static void idle_cpus_global_timer_expires_where_the_model_says(struct ktest *t)
{
	struct probe p = { 0 };
	int c = last_idle_ap();
	struct percpu *pc;
	uint64_t w0, t0;
	unsigned self = smp_processor_id();

	if (c < 0 || !tick_nohz_enabled()) {
		ktest_skip(t, c < 0 ? "needs 2 CPUs" : "needs nohz=on");
		return;
	}
	pc = per_cpu((unsigned)c);
	wait_aps_idle();
	KEXPECT(t, smp_call_on((unsigned)c, arm_global, &p));
	wait_aps_idle();
	w0 = pc->idle.wakes_timer;
	t0 = clock_ns();
	while (!probe_fired(&p) && clock_ns() - t0 < WAIT_NS)
		cpu_relax();
	KEXPECT(t, probe_fired(&p));
	KEXPECT(t, !timer_before(p.fired_j, p.expires));
	wait_aps_idle();
	switch (boot_opts.timer_model) {
	case TIMER_MODEL_PULL:
	case TIMER_MODEL_PUSH:
		KEXPECT_EQ(t, p.fired_cpu, self);
		KEXPECT_EQ(t, pc->idle.wakes_timer - w0, 0);
		break;
	case TIMER_MODEL_LOCAL:
		KEXPECT_EQ(t, p.fired_cpu, (unsigned)c);
		KEXPECT_EQ(t, pc->idle.wakes_timer - w0, 1);
		break;
	}
	timer_delete_sync(&p.timer);
}

/*
 * Every CPU idle, the test CPU last: under pull it is the one that arms
 * for the idle AP's global timer (the first system-wide event), so the
 * AP never wakes and the timer still expires, not early.
 */
static void last_cpu_going_idle_arms_for_the_first_global_event(struct ktest *t)
{
	struct probe p = { 0 };
	int c = last_idle_ap();
	struct percpu *pc;
	uint64_t w0;

	if (c < 0 || !tick_nohz_enabled() ||
	    boot_opts.timer_model != TIMER_MODEL_PULL) {
		ktest_skip(t, c < 0 ? "needs 2 CPUs" :
				      "needs nohz=on and timer_model=pull");
		return;
	}
	pc = per_cpu((unsigned)c);
	wait_aps_idle();
	KEXPECT(t, smp_call_on((unsigned)c, arm_global, &p));
	wait_aps_idle();
	w0 = pc->idle.wakes_timer;
	cpu_idle_until(probe_fired, &p);
	KEXPECT(t, !timer_before(p.fired_j, p.expires));
	KEXPECT_EQ(t, p.fired_cpu, smp_processor_id());
	KEXPECT_EQ(t, pc->idle.wakes_timer - w0, 0);
	timer_delete_sync(&p.timer);
}

static const struct ktest_case tmigr_cases[] = {
	KTEST_CASE(level0_groups_follow_the_nodes),
	KTEST_CASE(groups_form_one_tree),
	KTEST_CASE(only_the_busy_cpus_path_is_active),
	KTEST_CASE(idle_cpus_global_timer_expires_where_the_model_says),
	KTEST_CASE(last_cpu_going_idle_arms_for_the_first_global_event),
};
KTEST_SUITE(tmigr_suite, .name = "tmigr", .cases = tmigr_cases,
	    .ncases = sizeof(tmigr_cases) / sizeof(tmigr_cases[0]));

/* The tree, one line per group (docs/serial-format.md). */
static void tmigr_tree_dump(struct ktest *t)
{
	struct tmigr_shape s;

	tmigr_get_shape(&s);
	printk("# tmigr levels=%u children=%u crossnode=%u groups=%u\n",
	       s.levels, TMIGR_CHILDS_PER_GROUP, s.crossnode_level, s.groups);
	for (unsigned g = 0; g < s.groups; g++) {
		struct tmigr_group_view v;
		unsigned cpus = 0, isolated = 0;

		KEXPECT(t, tmigr_group_get(g, &v));
		for (unsigned c = 0; c < nr_cpus; c++) {
			struct tmigr_cpu_view cv;

			if (!tmigr_cpu_get(c, &cv) || cv.group != (int)g)
				continue;
			cpus++;
			if (cv.isolated)
				isolated |= cv.childmask;
		}
		printk("# tmigr_group id=%u level=%u node=%d parent=%d "
		       "children=%u cpus=%u active=0x%02x migrator=0x%02x "
		       "isolated=0x%02x\n",
		       v.id, v.level,
		       v.node == TMIGR_NO_NODE ? -1 : (int)v.node, v.parent,
		       v.num_children, cpus, v.active, v.migrator, isolated);
	}
	groups_form_one_tree(t);
}

static const struct ktest_case tmigr_tree_cases[] = {
	KTEST_CASE(tmigr_tree_dump),
};
KTEST_SUITE(tmigr_tree_suite, .name = "tmigr_tree", .cases = tmigr_tree_cases,
	    .ncases = 1, .explicit_only = true);

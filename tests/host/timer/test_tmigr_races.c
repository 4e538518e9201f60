// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/timer/test_tmigr_races.c - a test per section of
 * docs/races.md: each replays, deterministically, a situation that broke
 * Linux's pull model or, where said, this tree's.  Where two CPUs
 * interleave, the first CPU's walk stops at a race point
 * (timer_env_race_point()) and host_race_hook runs the other CPU's action
 * there, on the same thread, switching host_cpu to it and back.
 * (The last section's test, a timer-level one, is in test_timer_hotplug.c.)
 *
 * Topologies: 9 CPUs on one node size the hierarchy for two levels; with
 * CPUs 0-7 prepared, level 0's group is the root, and preparing CPU 8
 * grows a new root above it.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "tests/host/registry.h"
#include "tests/host/timer/tmigr_util.h"
#include "timer_env.h"

/* ---- a one-shot hook ---- */

#define ANY_CPU (~0u)

static struct {
	int id;		   /* race point to act at */
	unsigned int cpu;  /* only when hit by this CPU */
	unsigned int skip; /* hits to let pass first */
	void (*action)(void);
	bool fired;
} hook;

static void one_shot_hook(int id)
{
	unsigned int prev = host_cpu;

	if (hook.fired || id != hook.id ||
	    (hook.cpu != ANY_CPU && host_cpu != hook.cpu))
		return;
	if (hook.skip) {
		hook.skip--;
		return;
	}
	hook.fired = true; /* before the action: it may hit points too */
	hook.action();
	host_set_cpu(prev);
}

static void arm_hook(int id, unsigned int cpu, unsigned int skip,
		     void (*action)(void))
{
	hook.id = id;
	hook.cpu = cpu;
	hook.skip = skip;
	hook.action = action;
	hook.fired = false;
	host_race_hook = one_shot_hook;
}

static void teardown(void)
{
	tm_teardown();
}

/* CPUs 0..n-1 prepared by CPU 0 and online. */
static void bring_up(unsigned int n)
{
	unsigned int cpu;

	for (cpu = 0; cpu < n; cpu++) {
		tm_prepare(cpu, 0);
		tm_online(cpu);
	}
}

static struct tmigr_group_view group_view(int id)
{
	struct tmigr_group_view v;

	ck_assert_int_ge(id, 0);
	ck_assert(tmigr_group_get((unsigned int)id, &v));
	return v;
}

/*
 * docs/races.md, "Quick check sees only the top".
 * The busy CPU's quick check must see an idle sibling's event
 * in their shared active group, although the root holds only a later one.
 */
START_TEST(quick_check_sees_an_earlier_event_below_the_top)
{
	struct tm_rec near, far;

	tm_setup(9, 1, 1000);
	bring_up(9);
	/* CPU 1 idle, its event stays in the active level-0 group. */
	tm_rec_arm(&near, 1, 0, 1100);
	ck_assert_uint_eq(tm_idle(1), TMIGR_NONE_NS);
	/* CPU 8 idle: its group idles, its later event reaches the root. */
	tm_rec_arm(&far, 8, 0, 1500);
	ck_assert_uint_eq(tm_idle(8), TMIGR_NONE_NS);
	ck_assert_uint_gt(group_view(tm_root()).next_expiry,
			  group_view(tm_group_of(1)).next_expiry);

	tm_advance_to(1104);
	ck_assert(tm_requires_remote(0) || near.fired);
	ck_assert_uint_eq(near.fired, 1);
	ck_assert_uint_eq(near.fired_at, 1104);
	ck_assert_uint_eq(near.fired_cpu, 0);
	tm_advance_to(1600);
	ck_assert_uint_eq(far.fired, 1);
	ck_assert_uint_eq(far.fired_cpu, 0);
	tm_assert_clean();
}
END_TEST

/*
 * docs/races.md, "Last CPU idle without a timer of its own".
 * On a one-level hierarchy the last CPU, going idle without a
 * global timer of its own, must still arm for its sibling's timer; with a
 * parent the walk must carry the sibling's event up.
 */
START_TEST(last_cpu_without_timer_arms_for_sibling)
{
	uint64_t t = tm_ns(1200);

	tm_setup(2, 1, 1000);
	bring_up(2);
	ck_assert_uint_eq(tm_deactivate(1, t), TMIGR_NONE_NS);
	ck_assert_uint_eq(tm_deactivate(0, TMIGR_NONE_NS), t);
	tm_assert_invariants();
	tm_teardown();

	tm_setup(9, 1, 1000);
	bring_up(9);
	ck_assert_uint_eq(tm_deactivate(8, TMIGR_NONE_NS), TMIGR_NONE_NS);
	ck_assert_uint_eq(tm_deactivate(1, t), TMIGR_NONE_NS);
	for (unsigned int cpu = 2; cpu < 8; cpu++)
		tm_deactivate(cpu, TMIGR_NONE_NS);
	ck_assert_uint_eq(tm_deactivate(0, TMIGR_NONE_NS), t);
	ck_assert_uint_eq(group_view(tm_root()).next_expiry, t);
	tm_assert_clean();
}
END_TEST

/*
 * docs/races.md, "Stale wakeup of a non-migrator".
 * CPU 0 goes idle last and arms for CPU 1's timer; CPU 1 then
 * leaves idle and serves it itself.  CPU 0 wakes, is no migrator, and must
 * drop its stale wakeup once instead of re-arming for a gone event.
 */
START_TEST(stale_wakeup_of_a_non_migrator_is_dropped)
{
	struct tmigr_cpu_view c;
	struct tm_rec r;

	tm_setup(2, 1, 1000);
	bring_up(2);
	tm_rec_arm(&r, 1, 0, 1100);
	ck_assert_uint_eq(tm_idle(1), TMIGR_NONE_NS);
	ck_assert_uint_eq(tm_idle(0), tm_ns(1104));
	tm_wake(1);
	tm_advance_to(1104);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_cpu, 1);
	/* Woken once, back idle at once, with nothing to wake for. */
	ck_assert_uint_eq(tm_cpus[0].wakes, 1);
	ck_assert(tm_cpus[0].idle);
	ck_assert_uint_eq(tm_cpus[0].wake_ns, TMIGR_NONE_NS);
	ck_assert(tmigr_cpu_get(0, &c));
	ck_assert_uint_eq(c.wakeup, TMIGR_NONE_NS);
	tm_advance_to(1200);
	ck_assert_uint_eq(tm_cpus[0].wakes, 1);
	ck_assert_uint_eq(host_warn_hits, 0);
}
END_TEST

/*
 * docs/races.md, "Same expiry on another CPU".
 * CPUs 1 and 2 have timers with the same expiry; CPU 1's
 * event is the group's first, then CPU 1 drops its timer.  The group event
 * keeps its expiry but must now point at CPU 2, or the migrator pulls
 * CPU 1, finds nothing, and CPU 2's timer strands.
 */
START_TEST(same_expiry_event_follows_the_other_cpu)
{
	struct tm_rec r1, r2;
	unsigned int cpu;

	tm_setup(9, 1, 1000);
	bring_up(9);
	for (cpu = 0; cpu < 8; cpu++)
		if (cpu != 1 && cpu != 2)
			tm_idle(cpu);
	tm_rec_arm(&r1, 1, 0, 1100);
	tm_rec_arm(&r2, 2, 0, 1100);
	tm_idle(1);
	tm_idle(2);
	ck_assert_uint_eq(group_view(tm_root()).next_cpu, 1);
	/* CPU 1 wakes, deletes its timer, idles again. */
	tm_wake(1);
	host_set_cpu(1);
	timer_delete(&r1.t);
	host_set_cpu(0);
	tm_idle(1);
	ck_assert_uint_eq(group_view(tm_root()).next_expiry, tm_ns(1104));
	ck_assert_uint_eq(group_view(tm_root()).next_cpu, 2);

	tm_advance_to(1110);
	ck_assert_uint_eq(r2.fired, 1);
	ck_assert_uint_eq(r2.fired_at, 1104);
	ck_assert_uint_eq(r2.fired_cpu, 8);
	ck_assert_uint_eq(r1.fired, 0);
	tm_assert_clean();
}
END_TEST

static void prepare_cpu8_on_itself(void)
{
	tm_prepare(8, 8);
}

/*
 * docs/races.md, "Parent pointer read twice".
 * The last CPU going idle is between deciding its group is
 * the root (no parent) and acting on it when CPU 8's preparation puts a
 * new root above.  Decided from one read of the parent, it still arms for
 * the hierarchy's first event; a second read would find the parent, skip
 * the root's duty and lose the event.
 */
START_TEST(parent_read_once_while_a_new_root_appears)
{
	uint64_t t = tm_ns(1200);
	struct tmigr_shape before, after;
	struct tm_rec r;

	tm_setup(9, 1, 1000);
	bring_up(8);
	tm_rec_arm(&r, 1, 0, 1196); /* bucket 1200 */
	ck_assert_uint_eq(tm_idle(1), TMIGR_NONE_NS);
	for (unsigned int cpu = 2; cpu < 8; cpu++)
		tm_idle(cpu);
	tmigr_get_shape(&before);
	arm_hook(TMIGR_RP_UPDATE_EVENTS, 0, 0, prepare_cpu8_on_itself);
	ck_assert_uint_eq(tm_idle(0), t);
	ck_assert(hook.fired);
	tmigr_get_shape(&after);
	ck_assert_uint_eq(after.groups, before.groups + 2);
	ck_assert_int_ge(tm_root(), 0);
	/* The new root knows the event too, for CPU 8's sake. */
	ck_assert_uint_eq(group_view(tm_root()).next_expiry, t);
	tm_assert_invariants();

	tm_online(8);
	tm_advance_to(1300);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_at, 1200);
	tm_assert_clean();
}
END_TEST

static void cpu0_goes_idle(void)
{
	tm_idle(0);
}

/*
 * docs/races.md, "New root connected while the last CPU goes idle".
 * The new root is being connected (CPU 8 prepares itself)
 * while the last active CPU goes idle: the connection read the old root
 * active, then CPU 0 went idle.  The root must end idle and CPU 0 armed,
 * not the root "active" with nobody active below it.
 */
START_TEST(connection_vs_last_cpu_idle_leaves_the_root_idle)
{
	struct tm_rec r;
	uint64_t wake;

	tm_setup(9, 1, 1000);
	bring_up(8);
	tm_rec_arm(&r, 1, 0, 1196);
	tm_idle(1);
	for (unsigned int cpu = 2; cpu < 8; cpu++)
		tm_idle(cpu);
	arm_hook(TMIGR_RP_CONNECT_SYNC, ANY_CPU, 0, cpu0_goes_idle);
	tm_prepare(8, 8);
	ck_assert(hook.fired);
	wake = tm_cpus[0].wake_ns;
	ck_assert_uint_eq(wake, tm_ns(1200));
	ck_assert_uint_eq(group_view(tm_root()).active, 0);
	ck_assert_uint_eq(group_view(tm_root()).migrator, TMIGR_NONE);
	tm_assert_invariants();

	tm_advance_to(1300);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_at, 1200);
	ck_assert_uint_eq(r.fired_cpu, 0);
	ck_assert_uint_eq(host_warn_hits, 0);
}
END_TEST

static void cpu0_leaves_idle(void)
{
	tm_wake(0);
}

/*
 * docs/races.md, "Walker reaches a new parent before its mask".
 * A CPU leaves idle and its walk reaches the old root's new
 * parent right after it is published, before the connection's own state
 * update.  The old root's mask must be set by then, so the new root gets
 * migrator "old root", not migrator 0 forever.
 */
START_TEST(walker_reaching_a_new_parent_sees_the_mask)
{
	struct tmigr_group_view root, old;
	int old_root;

	tm_setup(9, 1, 1000);
	bring_up(8);
	for (unsigned int cpu = 0; cpu < 8; cpu++)
		tm_idle(cpu);
	old_root = tm_root();
	arm_hook(TMIGR_RP_CONNECT_PUBLISHED, ANY_CPU, 0, cpu0_leaves_idle);
	tm_prepare(8, 8);
	ck_assert(hook.fired);
	root = group_view(tm_root());
	old = group_view(old_root);
	ck_assert_int_eq(old.parent, tm_root());
	ck_assert_uint_eq(old.childmask, 1u << 0);
	ck_assert_uint_eq(root.migrator, old.childmask);
	ck_assert_uint_eq(root.active, old.childmask);
	tm_assert_clean();
}
END_TEST

/*
 * docs/races.md, "New root with two children".
 * The new root pre-accounts the old root; "this is a new root
 * to connect the old one to" must then mean two children, or CPU 8's
 * preparation leaves two roots and idle CPUs' events never meet.
 */
START_TEST(new_root_with_two_children_connects_the_old_root)
{
	struct tm_rec r;

	tm_setup(9, 1, 1000);
	bring_up(9);
	ck_assert_int_ge(tm_root(), 0);
	ck_assert_uint_eq(group_view(tm_root()).num_children, 2);
	ck_assert_int_eq(group_view(tm_group_of(0)).parent, tm_root());
	ck_assert_int_eq(group_view(tm_group_of(8)).parent, tm_root());
	/* CPU 8 alone busy pulls CPU 1's timer through the root. */
	tm_rec_arm(&r, 1, 0, 1100);
	for (unsigned int cpu = 0; cpu < 8; cpu++)
		tm_idle(cpu);
	tm_advance_to(1110);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_cpu, 8);
	tm_assert_clean();
}
END_TEST

/*
 * docs/races.md, "New node below the cross-node level".
 * 2 nodes of 64 (cross-node level 2).  Node 0's first 8 CPUs
 * make a one-group root; node 1's first CPU arrives.  Node 1 must get its
 * own groups up to level 2 and node 0's old root a level-1 group of its
 * own, not a seat in node 1's level-1 group.
 */
START_TEST(new_node_builds_to_the_crossnode_level_first)
{
	struct tmigr_group_view g, p;
	unsigned int cpu;

	tm_setup(128, 2, 1000);
	bring_up(8);
	ck_assert_uint_eq(group_view(tm_root()).level, 0);
	tm_prepare(64, 0);
	tm_online(64);
	g = group_view(tm_group_of(0));
	p = group_view(g.parent);
	ck_assert_uint_eq(p.level, 1);
	ck_assert_uint_eq(p.node, 0);
	g = group_view(tm_group_of(64));
	p = group_view(g.parent);
	ck_assert_uint_eq(p.level, 1);
	ck_assert_uint_eq(p.node, 1);
	ck_assert_int_eq(p.parent, tm_root());
	ck_assert_uint_eq(group_view(tm_root()).level, 2);
	tm_assert_invariants();
	/* And the rest joins the same shape. */
	for (cpu = 8; cpu < 128; cpu++) {
		if (cpu == 64)
			continue;
		tm_prepare(cpu, 0);
		tm_online(cpu);
	}
	for (cpu = 0; cpu < 128; cpu++) {
		g = group_view(tm_group_of(cpu));
		ck_assert_uint_eq(g.node, cpu / 64);
		ck_assert_uint_eq(group_view(g.parent).node, cpu / 64);
	}
	tm_assert_clean();
}
END_TEST

static unsigned int remote_cpu_calls;

static void livelock_hook(int id)
{
	if (id == TMIGR_RP_SOFTIRQ_REMOTE && host_cpu == 0 &&
	    timer_env_jiffies() == 1004)
		tm_set_time(1005); /* time moves on mid-softirq */
	if (id == TMIGR_RP_REMOTE_CPU)
		ck_assert_msg(++remote_cpu_calls < 100,
			      "remote handling spins");
}

/*
 * docs/races.md, "Own due timer met in remote handling".
 * CPU 0, last idle, wakes at 1004 for CPU 1's timer; its own
 * global timer is due at 1005.  Time advances between its own bases'
 * expiry and remote handling, so the hierarchy hands CPU 0 its own due
 * event: remote handling must expire it even though CPU 0 owns it.
 * Skipped, it would be queued again as due now and pulled forever (the
 * requeue guard turns that into a jiffy late; both fail here).
 */
START_TEST(own_due_timer_in_remote_handling_is_expired)
{
	struct tm_rec own, other;

	tm_setup(2, 1, 1000);
	bring_up(2);
	tm_rec_arm(&other, 1, 0, 1003); /* bucket 1004 */
	tm_rec_arm(&own, 0, 0, 1004);	/* bucket 1005 */
	tm_idle(1);
	ck_assert_uint_eq(tm_idle(0), tm_ns(1004));
	host_race_hook = livelock_hook;
	tm_advance_to(1004);
	ck_assert_uint_eq(other.fired, 1);
	ck_assert_uint_eq(own.fired, 1);
	ck_assert_uint_eq(own.fired_at, 1005);
	ck_assert_uint_eq(own.fired_cpu, 0);
	ck_assert_uint_lt(remote_cpu_calls, 5);
	tm_advance_to(1100);
	tm_assert_clean();
}
END_TEST

static void cpu1_leaves_idle(void)
{
	tm_activate(1);
}

/*
 * docs/races.md, "Stale child state without a sequence count".
 * CPU 0 goes idle; its walk has read the root's state and
 * its group's (idle) state when CPU 1 wakes in that group and walks up,
 * finding the group already active in the root: a change of nothing but
 * the sequence count.  CPU 0's stale update must fail on it, or the root
 * drops the group while CPU 1 is active below.
 */
START_TEST(sequence_count_rejects_a_stale_child_update)
{
	struct tmigr_group_view root;
	uint8_t g0;

	tm_setup(9, 1, 1000);
	bring_up(9);
	tm_deactivate(1, TMIGR_NONE_NS);
	for (unsigned int cpu = 2; cpu < 8; cpu++)
		tm_deactivate(cpu, TMIGR_NONE_NS);
	g0 = group_view(tm_group_of(0)).childmask;
	/* Hit 1 is at CPU 0's level-0 group, hit 2 at the root. */
	arm_hook(TMIGR_RP_INACTIVE_CMPXCHG, 0, 1, cpu1_leaves_idle);
	tm_deactivate(0, TMIGR_NONE_NS);
	ck_assert(hook.fired);
	root = group_view(tm_root());
	ck_assert(root.active & g0);
	tm_assert_clean();
}
END_TEST

static uint64_t cpu8_idle_result;

static void cpu8_goes_idle(void)
{
	cpu8_idle_result = tm_deactivate(8, TMIGR_NONE_NS);
}

/*
 * docs/races.md, "New event while the last CPU goes idle".
 * Idle CPU 0 queues a new first event while CPU 8, the last
 * active CPU, goes idle.  CPU 0's walk is between its level-0 group and
 * the root when CPU 8 idles the root, finding no event there.  Reading the
 * root's state under the root's lock, CPU 0 sees it idle and arms.
 */
START_TEST(new_event_vs_last_cpu_idle_one_of_them_arms)
{
	uint64_t t = tm_ns(1300), ret;

	tm_setup(9, 1, 1000);
	bring_up(9);
	for (unsigned int cpu = 0; cpu < 8; cpu++)
		tm_deactivate(cpu, TMIGR_NONE_NS);
	cpu8_idle_result = 0;
	/* Hit 1: CPU 0's own event into its group; hit 2: towards root. */
	arm_hook(TMIGR_RP_UPDATE_EVENTS, 0, 1, cpu8_goes_idle);
	ret = tm_new_timer(0, t);
	ck_assert(hook.fired);
	ck_assert_uint_eq(cpu8_idle_result, TMIGR_NONE_NS);
	ck_assert_uint_eq(ret, t);
	ck_assert_uint_eq(group_view(tm_root()).next_expiry, t);
	tm_assert_clean();
}
END_TEST

static void cpu8_idle_without_event(void)
{
	tm_deactivate(8, TMIGR_NONE_NS);
}

/*
 * docs/races.md, "Event queued after the group went idle", found by the
 * simulator's torture mode.  CPU 9 goes idle
 * with an event while CPU 8 keeps their group active, so its walk stops
 * at the group; before its event is queued there CPU 8 goes idle and
 * passes the group's (empty) first event up.  CPU 9's event must still
 * reach the root, where busy CPU 0 looks for it.
 */
START_TEST(event_queued_after_the_group_went_idle_reaches_the_root)
{
	uint64_t t = tm_ns(1300);

	tm_setup(16, 1, 1000);
	bring_up(16);
	for (unsigned int cpu = 1; cpu < 16; cpu++)
		if (cpu != 8 && cpu != 9)
			tm_deactivate(cpu, TMIGR_NONE_NS);
	/* CPU 9's cmpxchg is done, its event not yet queued. */
	arm_hook(TMIGR_RP_UPDATE_EVENTS, 9, 0, cpu8_idle_without_event);
	tm_deactivate(9, t);
	ck_assert(hook.fired);
	ck_assert_uint_eq(group_view(tm_root()).next_expiry, t);
	host_set_now_ns(t);
	host_set_cpu(0);
	ck_assert(tmigr_requires_handle_remote());
	tm_assert_clean();
}
END_TEST

/*
 * The same interleaving with mainline's walk (tmigr_inactive_up() ends on
 * its cmpxchg's view): CPU 9's event stays queued in its idle level-0 group,
 * the root never hears of it, and busy CPU 0 sees nothing due, at the
 * event's expiry or ever after (docs/findings/).
 */
START_TEST(event_queued_after_the_group_went_idle_is_lost_by_mainlines_walk)
{
	uint64_t t = tm_ns(1300);
	struct tmigr_group_view g;

	tm_setup(16, 1, 1000);
	bring_up(16);
	tmigr_set_inactive_up_mainline(true);
	for (unsigned int cpu = 1; cpu < 16; cpu++)
		if (cpu != 8 && cpu != 9)
			tm_deactivate(cpu, TMIGR_NONE_NS);
	arm_hook(TMIGR_RP_UPDATE_EVENTS, 9, 0, cpu8_idle_without_event);
	tm_deactivate(9, t);
	ck_assert(hook.fired);
	g = group_view(tm_group_of(9));
	ck_assert_uint_eq(g.active, 0);
	ck_assert_uint_eq(g.next_expiry, t);
	ck_assert_uint_eq(g.next_cpu, 9);
	ck_assert_uint_eq(group_view(tm_root()).next_expiry, TMIGR_NONE_NS);
	host_set_cpu(0);
	for (uint64_t j = 1300; j < 2300; j += 100) {
		host_set_now_ns(tm_ns(j));
		ck_assert(!tmigr_requires_handle_remote());
	}
	/* The state invariants hold: only the event is gone. */
	tm_assert_clean();
}
END_TEST

static void cpu2_goes_idle(void)
{
	tm_idle(2);
}

static void cpu0_offline(void)
{
	host_set_cpu(0);
	ck_assert_int_eq(tmigr_cpu_offline(), 0);
	tm_cpus[0].up = false;
	host_cpu_idle[0] = true;
}

/*
 * docs/races.md, "Last active CPU goes offline".
 * The last active CPU goes offline with CPU 1's timer
 * pending: another CPU must be woken and take over.  Then the same with
 * CPU 2 entering idle in the middle of CPU 0's offline walk.
 */
START_TEST(offline_last_active_cpu_wakes_a_successor)
{
	struct tm_rec r;
	unsigned int ipis;

	tm_setup(3, 1, 1000);
	bring_up(3);
	tm_rec_arm(&r, 1, 0, 1100);
	tm_idle(1);
	tm_idle(2);
	cpu0_offline();
	ck_assert_uint_eq(host_wake_ipis[1] + host_wake_ipis[2], 1);
	tm_advance_to(1200);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_at, 1104);
	tm_assert_invariants();
	tm_teardown();

	tm_setup(3, 1, 1000);
	bring_up(3);
	tm_rec_arm(&r, 1, 0, 1100);
	tm_idle(1);
	arm_hook(TMIGR_RP_UPDATE_EVENTS, 0, 0, cpu2_goes_idle);
	cpu0_offline();
	ck_assert(hook.fired);
	ipis = host_wake_ipis[1] + host_wake_ipis[2];
	/* CPU 2 went idle last, or CPU 0 handed over: someone arms. */
	ck_assert(tm_cpus[2].wake_ns == tm_ns(1104) || ipis == 1);
	tm_advance_to(1200);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_at, 1104);
	tm_assert_clean();
}
END_TEST

/*
 * docs/races.md, "CPU online for less than a tick".
 * CPU 0, the only active CPU, goes offline once CPU 1's timer is due but
 * before a tick of CPU 0 ran the hierarchy (it came online just now, say).
 * It expires the timer on its way out; handing the due event to an idle
 * CPU instead would leave it late by as long as the kick takes.
 */
START_TEST(offline_migrator_expires_what_is_due_first)
{
	struct tm_rec r;

	tm_setup(3, 1, 1000);
	bring_up(3);
	tm_rec_arm(&r, 1, 0, 1100);
	tm_idle(1);
	tm_idle(2);
	tm_set_time(1104);
	cpu0_offline();
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_cpu, 0);
	/* Nothing left to hand over. */
	ck_assert_uint_eq(host_wake_ipis[1] + host_wake_ipis[2], 0);
	tm_assert_clean();
}
END_TEST

static void cpu1_wakes_up(void)
{
	tm_wake(1);
}

/*
 * docs/races.md, "CPU leaves idle while it is pulled".
 * CPU 8 pulls idle CPU 1's due timer and, between marking
 * CPU 1 "remote" and expiring its timers, CPU 1 leaves idle.  The timer
 * runs once (here), and CPU 1, awake, is not queued again by the migrator.
 */
START_TEST(cpu_leaving_idle_while_pulled_is_not_requeued)
{
	struct tmigr_cpu_view c;
	struct tm_rec r, later;

	tm_setup(9, 1, 1000);
	bring_up(9);
	tm_rec_arm(&r, 1, 0, 1100);
	tm_rec_arm(&later, 1, 0, 1500);
	for (unsigned int cpu = 0; cpu < 8; cpu++)
		tm_idle(cpu);
	arm_hook(TMIGR_RP_REMOTE_UNLOCKED, 8, 0, cpu1_wakes_up);
	tm_advance_to(1104);
	ck_assert(hook.fired);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_cpu, 8);
	ck_assert(tmigr_cpu_get(1, &c));
	ck_assert(!c.idle && !c.remote);
	ck_assert_uint_eq(c.cpuevt, TMIGR_NONE_NS);
	tm_assert_invariants();
	/* Awake, CPU 1 runs its later timer itself. */
	tm_advance_to(1600);
	ck_assert_uint_eq(later.fired, 1);
	ck_assert_uint_eq(later.fired_cpu, 1);
	ck_assert_uint_eq(host_warn_hits, 0);
}
END_TEST

/* ---- the same walks on real threads (for ThreadSanitizer) ---- */

#define THR_CPUS   4
#define THR_ROUNDS 3000

static void *toggle_thread(void *arg)
{
	unsigned int cpu = (unsigned int)(uintptr_t)arg, i;
	uint64_t rng = 0x9e3779b97f4a7c15ull * (cpu + 1);
	bool idle = false;

	host_set_cpu(cpu);
	for (i = 0; i < THR_ROUNDS; i++) {
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		if (!idle) {
			/* Some events already due, so remote handling runs. */
			tmigr_cpu_deactivate(rng % 4 ? tm_ns(900 + rng % 400) :
						       TMIGR_NONE_NS);
			idle = true;
		} else if (rng % 3 == 0) {
			tmigr_cpu_new_timer(tm_ns(1000 + rng % 300));
		} else if (rng % 3 == 1) {
			if (tmigr_requires_handle_remote())
				tmigr_handle_remote();
		} else {
			tmigr_cpu_activate();
			idle = false;
			tmigr_handle_remote();
		}
	}
	if (idle)
		tmigr_cpu_activate();
	return NULL;
}

/* CPUs 8.. are prepared and brought online while 0-3 toggle. */
static void *grow_thread(void *arg)
{
	unsigned int cpu;

	(void)arg;
	for (cpu = 8; cpu < nr_cpu_ids; cpu++) {
		host_set_cpu(cpu);
		ck_assert_int_eq(tmigr_cpu_prepare(cpu), 0);
		ck_assert_int_eq(tmigr_cpu_online(), 0);
	}
	return NULL;
}

/*
 * docs/races.md, "New root connected while the last CPU goes idle",
 * "Walker reaches a new parent before its mask", "Stale child state
 * without a sequence count" and "New event while the last CPU goes idle",
 * under threads: four CPUs enter and leave idle,
 * queue events and handle remote ones while a fifth context grows the
 * hierarchy twice over (new roots above CPUs 0-7, then above 0-63).
 * Once all are active again the state must add up.
 */
START_TEST(concurrent_walks_and_growth_keep_the_state_consistent)
{
	pthread_t thr[THR_CPUS + 1];
	unsigned int cpu;

	tm_setup(80, 1, 1000);
	bring_up(THR_CPUS);
	for (cpu = THR_CPUS; cpu < 8; cpu++) {
		tm_prepare(cpu, 0);
		tm_online(cpu);
		tm_deactivate(cpu, TMIGR_NONE_NS);
	}
	for (cpu = 0; cpu < THR_CPUS; cpu++)
		ck_assert_int_eq(pthread_create(&thr[cpu], NULL, toggle_thread,
						(void *)(uintptr_t)cpu),
				 0);
	ck_assert_int_eq(
		pthread_create(&thr[THR_CPUS], NULL, grow_thread, NULL), 0);
	for (cpu = 0; cpu <= THR_CPUS; cpu++)
		pthread_join(thr[cpu], NULL);
	host_set_cpu(0);
	tm_assert_invariants();
	ck_assert_int_ge(tm_root(), 0);
	/* Everybody idle: the last one is told the first event, if any. */
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		tm_deactivate(cpu, TMIGR_NONE_NS);
	tm_assert_invariants();
	ck_assert_uint_eq(group_view(tm_root()).migrator, TMIGR_NONE);
	ck_assert_uint_eq(host_warn_hits, 0);
}
END_TEST

/*
 * The old root is found inactive when the new root is connected: the
 * whole hierarchy is idle and the CPU doing the prepare is not in it
 * (here CPU 8 prepares itself, as an isolated or not yet online control
 * CPU would).  Mainline used to assume the old root active and warned
 * otherwise; it now reads the old root's state, and so does
 * tmigr_sync_up(): the new root stays idle with the old root's first
 * event queued, nothing warns, and the CPU that activates next
 * propagates up through the old root into the new one and serves the
 * event.
 */
START_TEST(old_root_found_inactive_at_connection_is_activated_by_a_walker)
{
	struct tmigr_group_view root, old;
	struct tm_rec r;
	int old_root;

	tm_setup(9, 1, 1000);
	bring_up(8);
	tm_rec_arm(&r, 1, 0, 1196);
	for (unsigned int cpu = 0; cpu < 8; cpu++)
		tm_idle(cpu);
	old_root = tm_root();
	ck_assert_uint_eq(group_view(old_root).active, 0);
	tm_prepare(8, 8);
	root = group_view(tm_root());
	old = group_view(old_root);
	ck_assert_int_ne(tm_root(), old_root);
	ck_assert_int_eq(old.parent, tm_root());
	ck_assert_uint_eq(root.active, 0);
	ck_assert_uint_eq(root.migrator, TMIGR_NONE);
	ck_assert_uint_eq(root.next_expiry, tm_ns(1200));
	ck_assert_uint_eq(root.next_cpu, 1);
	tm_assert_clean();

	/* CPU 0 leaves idle: its walk activates the old and the new root. */
	tm_wake(0);
	root = group_view(tm_root());
	ck_assert_uint_eq(root.active, old.childmask);
	ck_assert_uint_eq(root.migrator, old.childmask);
	tm_assert_invariants();
	tm_online(8);
	tm_advance_to(1210);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_at, 1200);
	ck_assert_uint_ne(r.fired_cpu, 1);
	ck_assert_uint_eq(tm_cpus[1].wakes, 0);
	tm_assert_clean();
}
END_TEST

static void add_race_tests(TCase *tc)
{
	tcase_add_test(tc, quick_check_sees_an_earlier_event_below_the_top);
	tcase_add_test(tc, last_cpu_without_timer_arms_for_sibling);
	tcase_add_test(tc, stale_wakeup_of_a_non_migrator_is_dropped);
	tcase_add_test(tc, same_expiry_event_follows_the_other_cpu);
	tcase_add_test(tc, parent_read_once_while_a_new_root_appears);
	tcase_add_test(tc, connection_vs_last_cpu_idle_leaves_the_root_idle);
	tcase_add_test(tc, walker_reaching_a_new_parent_sees_the_mask);
	tcase_add_test(tc, new_root_with_two_children_connects_the_old_root);
	tcase_add_test(
		tc,
		old_root_found_inactive_at_connection_is_activated_by_a_walker);
	tcase_add_test(tc, new_node_builds_to_the_crossnode_level_first);
	tcase_add_test(tc, own_due_timer_in_remote_handling_is_expired);
	tcase_add_test(tc, sequence_count_rejects_a_stale_child_update);
	tcase_add_test(tc, new_event_vs_last_cpu_idle_one_of_them_arms);
	tcase_add_test(tc, offline_last_active_cpu_wakes_a_successor);
	tcase_add_test(tc, offline_migrator_expires_what_is_due_first);
	tcase_add_test(tc, cpu_leaving_idle_while_pulled_is_not_requeued);
	tcase_add_test(tc,
		       event_queued_after_the_group_went_idle_reaches_the_root);
	tcase_add_test(
		tc,
		event_queued_after_the_group_went_idle_is_lost_by_mainlines_walk);
	tcase_add_test(tc,
		       concurrent_walks_and_growth_keep_the_state_consistent);
}

/* The replays again under tmigr_wake=linux, the behaviour Linux has. */
static void linux_wake(void)
{
	tmigr_set_wake(TMIGR_WAKE_LINUX);
}

static void linux_wake_teardown(void)
{
	tm_teardown();
	tmigr_set_wake(TMIGR_WAKE_DEFAULT);
}

static Suite *tmigr_races_suite(void)
{
	Suite *s = suite_create("tmigr_races");
	TCase *tc = tcase_create("races");
	TCase *tl = tcase_create("races_linux_wake");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 30);
	add_race_tests(tc);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(tl, linux_wake, linux_wake_teardown);
	tcase_set_timeout(tl, 30);
	add_race_tests(tl);
	suite_add_tcase(s, tl);
	return s;
}

HOST_SUITE(tmigr_races_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/timer/test_tmigr_wake.c - tmigr_wake=one: one armed CPU per
 * event of the idle hierarchy (timer/tmigr_wake.c, docs/tmigr-wake.md),
 * against tmigr_wake=linux where it differs, and its own races.
 *
 * Three CPUs on one node make a one-level hierarchy: its one group is the
 * root.  Nine make two levels: CPUs 0-7 in one group, CPU 8 in another.
 */
#include <stdint.h>

#include "tests/host/registry.h"
#include "tests/host/timer/tmigr_util.h"
#include "timer_env.h"

/* A one-shot race hook: @action runs when CPU @cpu reaches point @id. */
static struct {
	int id;
	unsigned int cpu;
	void (*action)(void);
	bool fired;
} hook;

static void one_shot_hook(int id)
{
	unsigned int prev = host_cpu;

	if (hook.fired || id != hook.id || host_cpu != hook.cpu)
		return;
	hook.fired = true;
	hook.action();
	host_set_cpu(prev);
}

static void arm_hook(int id, unsigned int cpu, void (*action)(void))
{
	hook.id = id;
	hook.cpu = cpu;
	hook.action = action;
	hook.fired = false;
	host_race_hook = one_shot_hook;
}

/* The loop tests' runs: _i 0 is TMIGR_WAKE_ONE, 1 TMIGR_WAKE_LINUX. */
static const enum tmigr_wake wake_policies[] = {
	TMIGR_WAKE_ONE,
	TMIGR_WAKE_LINUX,
};

static void teardown(void)
{
	tm_teardown();
	tmigr_set_wake(TMIGR_WAKE_ONE);
}

static void setup_policy(unsigned int ncpus, enum tmigr_wake policy)
{
	tmigr_set_wake(policy);
	tm_setup(ncpus, 1, 1000);
	tm_bringup_all();
}

static uint64_t armed_exp(unsigned int cpu)
{
	uint64_t exp = 0;

	return tmigr_wake_armed(cpu, &exp) ? exp : TMIGR_NONE_NS;
}

/*
 * CPU 0 goes idle last and arms for CPU 1's timer.  CPU 2 gets work and
 * idles again, last once more: under one it relies on CPU 0, under linux
 * it arms too and both wake for one timer.
 */
START_TEST(second_last_cpu_relies_on_the_armed_one)
{
	bool one = wake_policies[_i] == TMIGR_WAKE_ONE;
	struct tm_rec r;

	setup_policy(3, wake_policies[_i]);
	tm_rec_arm(&r, 1, 0, 1100);
	tm_idle(1);
	tm_idle(2);
	ck_assert_uint_eq(tm_idle(0), tm_ns(1104));
	ck_assert_uint_eq(armed_exp(0), one ? tm_ns(1104) : TMIGR_NONE_NS);
	tm_wake(2);
	ck_assert_uint_eq(tm_idle(2), one ? TMIGR_NONE_NS : tm_ns(1104));
	ck_assert_uint_eq(armed_exp(2), TMIGR_NONE_NS);
	tm_advance_to(1200);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_at, 1104);
	ck_assert_uint_eq(tm_cpus[0].wakes, 1);
	ck_assert_uint_eq(tm_cpus[2].wakes, one ? 0 : 1);
	tm_assert_clean();
	teardown();
}
END_TEST

/*
 * The armed CPU leaves idle for work and idles again while another CPU
 * is busy: it is out of the table, so the last CPU going idle arms itself
 * instead of relying on a CPU that no longer wakes for the timer.
 */
START_TEST(armed_cpu_leaving_idle_is_out_of_the_table)
{
	struct tm_rec r;

	setup_policy(3, TMIGR_WAKE_ONE);
	tm_rec_arm(&r, 1, 0, 1100);
	tm_idle(1);
	tm_idle(2);
	tm_idle(0);
	ck_assert_uint_eq(armed_exp(0), tm_ns(1104));
	tm_wake(2);
	tm_wake(0);
	ck_assert_uint_eq(armed_exp(0), TMIGR_NONE_NS);
	ck_assert_uint_eq(tm_idle(0), TMIGR_NONE_NS); /* CPU 2 is busy */
	ck_assert_uint_eq(tm_idle(2), tm_ns(1104));
	ck_assert_uint_eq(armed_exp(2), tm_ns(1104));
	tm_advance_to(1200);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_at, 1104);
	tm_assert_clean();
}
END_TEST

/*
 * An earlier event: the last CPU going idle for it arms although another
 * CPU is in the table for a later one, which keeps its entry; woken for
 * the earlier one it then relies on that CPU for the later timer.
 */
START_TEST(earlier_event_arms_a_second_cpu_which_then_relies)
{
	struct tm_rec early, late;

	setup_policy(3, TMIGR_WAKE_ONE);
	tm_rec_arm(&late, 1, 0, 1300);
	tm_idle(1);
	tm_idle(2);
	ck_assert_uint_eq(tm_idle(0), tm_ns(1304));
	tm_wake(2);
	tm_rec_arm(&early, 2, 0, 1100);
	ck_assert_uint_eq(tm_idle(2), tm_ns(1104));
	ck_assert_uint_eq(armed_exp(0), tm_ns(1304));
	ck_assert_uint_eq(armed_exp(2), tm_ns(1104));
	tm_advance_to(1400);
	ck_assert_uint_eq(early.fired, 1);
	ck_assert_uint_eq(early.fired_at, 1104);
	ck_assert_uint_eq(late.fired, 1);
	ck_assert_uint_eq(late.fired_at, 1304);
	/* CPU 2 woke once, for its own timer; CPU 0 once, for CPU 1's. */
	ck_assert_uint_eq(tm_cpus[2].wakes, 1);
	ck_assert_uint_eq(tm_cpus[0].wakes, 1);
	ck_assert_uint_eq(armed_exp(2), TMIGR_NONE_NS);
	tm_assert_clean();
}
END_TEST

static void cpu0_leaves_idle(void)
{
	tm_wake(0);
}

/*
 * Race: CPU 2 goes idle last while CPU 0, armed for CPU 1's timer, leaves
 * idle.  CPU 2's cmpxchg idled the root; before it queues and decides
 * under the root's lock, CPU 0 is active again and out of the table.
 * CPU 2 must not rely on CPU 0's old entry: CPU 0, active, serves the
 * timer, and once it idles last it arms.
 */
START_TEST(armed_cpu_leaves_idle_while_the_last_cpu_decides)
{
	struct tm_rec r;

	setup_policy(3, TMIGR_WAKE_ONE);
	tm_rec_arm(&r, 1, 0, 1100);
	tm_idle(1);
	tm_idle(2);
	tm_idle(0);
	tm_wake(2);
	arm_hook(TMIGR_RP_UPDATE_EVENTS, 2, cpu0_leaves_idle);
	ck_assert_uint_eq(tm_idle(2), TMIGR_NONE_NS);
	ck_assert(hook.fired);
	ck_assert_uint_eq(armed_exp(0), TMIGR_NONE_NS);
	ck_assert_uint_eq(armed_exp(2), TMIGR_NONE_NS);
	tm_assert_invariants();
	ck_assert_uint_eq(tm_idle(0), tm_ns(1104));
	ck_assert_uint_eq(armed_exp(0), tm_ns(1104));
	tm_advance_to(1200);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_at, 1104);
	tm_assert_clean();
}
END_TEST

/*
 * The last active CPU goes offline while CPU 0 is armed for the first
 * event: it relies on CPU 0 and kicks nobody; it never enters the table.
 */
START_TEST(offline_last_cpu_relies_on_the_armed_one)
{
	struct tm_rec r;

	setup_policy(3, TMIGR_WAKE_ONE);
	tm_rec_arm(&r, 1, 0, 1100);
	tm_idle(1);
	tm_idle(2);
	tm_idle(0);
	tm_wake(2);
	host_set_cpu(2);
	ck_assert_int_eq(tmigr_cpu_offline(), 0);
	tm_cpus[2].up = false;
	host_cpu_idle[2] = true;
	ck_assert_uint_eq(host_wake_ipis[0] + host_wake_ipis[1], 0);
	ck_assert_uint_eq(armed_exp(2), TMIGR_NONE_NS);
	tm_advance_to(1200);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_at, 1104);
	ck_assert_uint_eq(host_warn_hits, 0);
}
END_TEST

/*
 * CPU 2 goes idle last and arms for its own timer; CPU 0 gets work and,
 * ticking first at that jiffy, pulls the timer.  The pull must leave CPU
 * 2's wakeup alone: woken a moment later CPU 2 walks, finds the root
 * active and leaves the table.  Cleared, CPU 2 would not walk and its
 * stale entry would make CPU 0, idling last, rely on it for CPU 1's timer.
 */
START_TEST(pulled_armed_cpu_keeps_its_duty)
{
	struct tm_rec late, own;

	setup_policy(3, TMIGR_WAKE_ONE);
	tm_rec_arm(&late, 1, 0, 1300);
	tm_rec_arm(&own, 2, 0, 1100);
	tm_idle(1);
	tm_idle(0);
	ck_assert_uint_eq(tm_idle(2), tm_ns(1104));
	tm_wake(0);
	tm_advance_to(1105);
	ck_assert_uint_eq(own.fired, 1);
	ck_assert_uint_eq(own.fired_cpu, 0);
	ck_assert_uint_eq(tm_cpus[2].wakes, 1);
	ck_assert_uint_eq(armed_exp(2), TMIGR_NONE_NS);
	ck_assert_uint_eq(tm_idle(0), tm_ns(1304));
	tm_advance_to(1400);
	ck_assert_uint_eq(late.fired, 1);
	ck_assert_uint_eq(late.fired_at, 1304);
	tm_assert_clean();
}
END_TEST

static void delete_on(unsigned int cpu, struct tm_rec *r)
{
	unsigned int prev = host_cpu;

	host_set_cpu(cpu);
	ck_assert_int_eq(timer_delete(&r->t), 1);
	host_set_cpu(prev);
}

/*
 * Busy CPU 0 deletes idle CPU 1's first timer: under one, CPU 1's event
 * in the hierarchy moves to its next timer, so CPU 0, idling last, arms
 * for that one; under linux the event stays and CPU 0 wakes for a timer
 * that is gone.
 */
START_TEST(remote_delete_moves_the_idle_cpus_event)
{
	bool one = wake_policies[_i] == TMIGR_WAKE_ONE;
	struct tmigr_cpu_view v;
	struct tm_rec first, next;

	setup_policy(3, wake_policies[_i]);
	tm_rec_arm(&first, 1, 0, 1100);
	tm_rec_arm(&next, 1, 0, 1300);
	tm_idle(1);
	tm_idle(2);
	delete_on(0, &first);
	ck_assert(tmigr_cpu_get(1, &v));
	ck_assert_uint_eq(v.cpuevt,
			  one ? tm_ns(1304) - TM_TICK_NS + 1 : tm_ns(1104));
	ck_assert_uint_le(tm_idle(0), tm_ns(1304));
	ck_assert_uint_ge(tm_idle(0), one ? tm_ns(1303) : tm_ns(1104));
	tm_advance_to(1400);
	ck_assert_uint_eq(first.fired, 0);
	ck_assert_uint_eq(next.fired, 1);
	ck_assert_uint_eq(next.fired_at, 1304);
	ck_assert_uint_eq(tm_cpus[0].wakes, one ? 1 : 2);
	tm_assert_clean();
	teardown();
}
END_TEST

/*
 * Nine CPUs: CPUs 0-7 in one level-0 group, CPU 8 alone in another, the
 * root above.  With CPU 8 busy, CPU 0 wakes for its pinned timer and
 * handles remote timers: its walk expires nothing in its idle group and
 * stops at the root, whose migrator is CPU 8's group.  The group's first
 * event, CPU 1's timer, is queued in the root, and CPU 8's tick runs it.
 * Under one CPU 0 keeps no wakeup for it; under linux it wakes for it
 * too (and, ticked first, runs it).
 */
START_TEST(idle_walk_below_an_active_group_keeps_no_wakeup)
{
	bool one = wake_policies[_i] == TMIGR_WAKE_ONE;
	struct tmigr_cpu_view v;
	struct tm_rec pinned, movable;

	setup_policy(9, wake_policies[_i]);
	tm_rec_arm(&movable, 1, 0, 1100);
	tm_rec_arm(&pinned, 0, TIMER_PINNED, 1050);
	for (unsigned int cpu = 1; cpu < 8; cpu++)
		ck_assert_uint_eq(tm_idle(cpu), TMIGR_NONE_NS);
	ck_assert_uint_eq(tm_idle(0), tm_ns(1051));
	tm_advance_to(1052);
	ck_assert_uint_eq(pinned.fired, 1);
	ck_assert_uint_eq(tm_cpus[0].wakes, 1);
	ck_assert(tmigr_cpu_get(0, &v));
	ck_assert(v.idle);
	ck_assert_uint_eq(v.wakeup, one ? TMIGR_NONE_NS : tm_ns(1104));
	ck_assert_uint_eq(armed_exp(0), TMIGR_NONE_NS);
	tm_advance_to(1200);
	ck_assert_uint_eq(movable.fired, 1);
	ck_assert_uint_eq(movable.fired_at, 1104);
	ck_assert_uint_eq(movable.fired_cpu, one ? 8 : 0);
	ck_assert_uint_eq(tm_cpus[0].wakes, one ? 1 : 2);
	tm_assert_clean();
	teardown();
}
END_TEST

/*
 * CPU 1 goes idle with a movable timer one tick away while CPU 0 is busy.
 * Under one the timer goes to the hierarchy and CPU 0's tick runs it: CPU
 * 1 stops its tick and never wakes.  Under linux CPU 1 keeps its tick,
 * stays active and runs it itself.  Then with every other CPU idle the
 * last one keeps its tick under both: nobody else would run it.
 */
START_TEST(movable_timer_a_tick_away_goes_to_the_busy_cpu)
{
	bool one = wake_policies[_i] == TMIGR_WAKE_ONE;
	struct tmigr_cpu_view v;
	struct tm_rec r, last;

	setup_policy(3, wake_policies[_i]);
	tm_idle(2);
	tm_rec_arm(&r, 1, 0, 1000);
	ck_assert_uint_eq(tm_idle(1), one ? TMIGR_NONE_NS : tm_ns(1001));
	ck_assert(tm_cpus[1].idle == one);
	ck_assert(tmigr_cpu_get(1, &v));
	ck_assert(v.idle == one);
	tm_advance_to(1010);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_at, 1001);
	ck_assert_uint_eq(r.fired_cpu, one ? 0 : 1);
	ck_assert_uint_eq(tm_cpus[1].wakes, 0);

	/* CPU 0 is the last one: it keeps the tick either way. */
	tm_wake(1);
	tm_idle(1);
	tm_rec_arm(&last, 0, 0, 1010);
	ck_assert_uint_eq(tm_idle(0), tm_ns(1011));
	ck_assert(!tm_cpus[0].idle);
	ck_assert(tmigr_cpu_get(0, &v));
	ck_assert(!v.idle);
	tm_advance_to(1020);
	ck_assert_uint_eq(last.fired, 1);
	ck_assert_uint_eq(last.fired_at, 1011);
	tm_assert_clean();
	teardown();
}
END_TEST

/*
 * The hierarchy's first event, queued by a remote expiry, can be up to a
 * jiffy early: the expiring CPU takes basej to start as early as it could
 * (now less a jiffy).  Two jiffies away such an event still lets the last
 * CPU stop its tick, and it wakes at the start of the timer's jiffy, not a
 * jiffy early or at a kept tick that finds nothing due.
 */
START_TEST(early_hierarchy_event_two_jiffies_away_stops_the_tick)
{
	struct tm_rec a, b;
	uint64_t wake;

	setup_policy(3, wake_policies[_i]);
	tm_idle(2);
	tm_rec_arm(&a, 1, 0, 1004);
	tm_rec_arm(&b, 1, 0, 1019);
	tm_idle(1);
	tm_advance_to(1006);
	ck_assert_uint_eq(a.fired, 1);
	ck_assert_uint_eq(a.fired_cpu, 0);
	tm_advance_to(1018);
	/* b is due at jiffy 1020, queued as 1 ns after 1019 began. */
	wake = tm_idle(0);
	ck_assert(tm_cpus[0].idle);
	ck_assert_uint_eq(wake, tm_ns(1020));
	tm_advance_to(1022);
	ck_assert_uint_eq(b.fired, 1);
	ck_assert_uint_eq(b.fired_at, 1020);
	ck_assert_uint_eq(tm_cpus[0].wakes, 1);
	tm_assert_clean();
	teardown();
}
END_TEST

/*
 * tmigr_wake=own.  CPU 2 idles with a pinned timer in the jiffy CPU 1's
 * movable one falls in, and offers that wake even while CPU 0 is busy
 * (the root active): CPU 0, last to go idle, relies on it instead of
 * arming.  CPU 2's wake runs both timers; CPU 0 sleeps on.  Under one
 * CPU 0 would arm and wake for nothing CPU 2 did not run.
 */
START_TEST(last_cpu_relies_on_an_idle_cpus_own_wake)
{
	struct tm_rec movable, pinned;

	setup_policy(3, TMIGR_WAKE_OWN);
	tm_rec_arm(&movable, 1, 0, 1100);
	tm_rec_arm(&pinned, 2, TIMER_PINNED, 1100);
	tm_idle(1);
	ck_assert_uint_eq(tm_idle(2), tm_ns(1104));
	ck_assert_uint_eq(armed_exp(2), tm_ns(1104)); /* root active */
	ck_assert_uint_eq(tm_idle(0), TMIGR_NONE_NS);
	ck_assert_uint_eq(armed_exp(0), TMIGR_NONE_NS);
	tm_advance_to(1200);
	ck_assert_uint_eq(movable.fired + pinned.fired, 2);
	ck_assert_uint_eq(movable.fired_at, 1104);
	ck_assert_uint_eq(movable.fired_cpu, 2);
	ck_assert_uint_eq(tm_cpus[0].wakes, 0);
	ck_assert_uint_eq(tm_cpus[2].wakes, 1);
	tm_assert_clean();
}
END_TEST

/* CPU 0 deletes @r, a pinned timer of an idle CPU (no IPI: Linux's way). */
static void delete_from_cpu0(struct tm_rec *r)
{
	unsigned int prev = host_cpu;

	host_set_cpu(0);
	ck_assert_int_eq(timer_delete(&r->t), 1);
	host_set_cpu(prev);
}

/*
 * An offer whose timer goes: CPU 2's pinned timer is deleted, and CPU 2
 * idles again (an interrupt woke it).  It decides anew, finds nothing in
 * the hierarchy and wakes for nothing, not at the old offer.
 */
START_TEST(offer_without_its_timer_wakes_for_nothing)
{
	struct tm_rec pinned;

	setup_policy(3, TMIGR_WAKE_OWN);
	tm_rec_arm(&pinned, 2, TIMER_PINNED, 1100);
	tm_idle(0);
	tm_idle(1);
	ck_assert_uint_eq(tm_idle(2), tm_ns(1104)); /* last: root idle */
	ck_assert_uint_eq(armed_exp(2), tm_ns(1104));
	delete_from_cpu0(&pinned);
	ck_assert_uint_eq(tm_idle(2), TMIGR_NONE_NS);
	ck_assert_uint_eq(armed_exp(2), TMIGR_NONE_NS);
	tm_advance_to(1200);
	ck_assert_uint_eq(tm_cpus[2].wakes, 0);
	tm_assert_clean();
}
END_TEST

/*
 * tmigr_wake=own on 3 CPUs: CPU 1 idles with a movable timer at 1300,
 * CPU 0 idles, and CPU 2, last with a pinned timer at 1100, arms for
 * 1304 at the idle root and then offers its own 1104.
 */
static void offer_over_armed(struct tm_rec *movable, struct tm_rec *pinned)
{
	setup_policy(3, TMIGR_WAKE_OWN);
	tm_rec_arm(movable, 1, 0, 1300);
	tm_rec_arm(pinned, 2, TIMER_PINNED, 1100);
	tm_idle(1);
	tm_idle(0);
	ck_assert_uint_eq(tm_idle(2), tm_ns(1104));
}

/*
 * An offer another CPU relied on, whose timer goes: CPU 0 relied on CPU
 * 2's wake at 1104 for CPU 1's timer at 1304.  CPU 2, idle again without
 * its timer, decides anew at the idle root and arms for 1304 itself: one
 * wake, for the event, not an empty one at 1104 first.
 */
START_TEST(relied_offer_decides_anew_when_its_timer_goes)
{
	struct tm_rec movable, pinned;

	offer_over_armed(&movable, &pinned);
	ck_assert_uint_eq(armed_exp(2), tm_ns(1104));
	tm_wake(0);
	ck_assert_uint_eq(tm_idle(0), TMIGR_NONE_NS);
	delete_from_cpu0(&pinned);
	ck_assert_uint_eq(tm_idle(2), tm_ns(1304));
	ck_assert_uint_eq(armed_exp(2), tm_ns(1304));
	tm_advance_to(1400);
	ck_assert_uint_eq(movable.fired, 1);
	ck_assert_uint_eq(movable.fired_at, 1304);
	ck_assert_uint_eq(tm_cpus[2].wakes, 1);
	ck_assert_uint_eq(tm_cpus[0].wakes, 0);
	tm_assert_clean();
}
END_TEST

/*
 * An offer taken back must not drop what a decider relied on it for:
 * CPU 2, last, arms for CPU 1's timer at 1304 and offers its own 1104.
 * CPU 0 then queues a timer at 1152 and, last again, relies on the offer
 * for it.  CPU 2's timer goes: going back to its armed 1304 would run
 * CPU 0's timer 152 jiffies late, so it decides anew and arms for 1152.
 * Without a decider's reliance, the same take-back restores 1304 and
 * takes no lock but its own (offer_without_its_timer_wakes_for_nothing).
 */
START_TEST(offer_taken_back_keeps_what_was_relied_on)
{
	struct tm_rec movable, pinned, later;

	offer_over_armed(&movable, &pinned);
	tm_wake(0);
	tm_rec_arm(&later, 0, 0, 1150);
	ck_assert_uint_eq(tm_idle(0), TMIGR_NONE_NS); /* relies on CPU 2 */
	delete_from_cpu0(&pinned);
	ck_assert_uint_eq(tm_idle(2), tm_ns(1152));
	ck_assert_uint_eq(armed_exp(2), tm_ns(1152));
	tm_advance_to(1400);
	ck_assert_uint_eq(later.fired, 1);
	ck_assert_uint_eq(later.fired_at, 1152);
	ck_assert_uint_eq(movable.fired, 1);
	ck_assert_uint_eq(movable.fired_at, 1304);
	ck_assert_uint_eq(tm_cpus[0].wakes, 0);
	tm_assert_clean();
}
END_TEST

static Suite *tmigr_wake_suite(void)
{
	Suite *s = suite_create("tmigr_wake");
	TCase *tc = tcase_create("wake");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_loop_test(tc, second_last_cpu_relies_on_the_armed_one, 0, 2);
	tcase_add_test(tc, armed_cpu_leaving_idle_is_out_of_the_table);
	tcase_add_test(tc, earlier_event_arms_a_second_cpu_which_then_relies);
	tcase_add_test(tc, armed_cpu_leaves_idle_while_the_last_cpu_decides);
	tcase_add_test(tc, offline_last_cpu_relies_on_the_armed_one);
	tcase_add_test(tc, pulled_armed_cpu_keeps_its_duty);
	tcase_add_test(tc, last_cpu_relies_on_an_idle_cpus_own_wake);
	tcase_add_test(tc, offer_without_its_timer_wakes_for_nothing);
	tcase_add_test(tc, relied_offer_decides_anew_when_its_timer_goes);
	tcase_add_test(tc, offer_taken_back_keeps_what_was_relied_on);
	tcase_add_loop_test(tc, remote_delete_moves_the_idle_cpus_event, 0, 2);
	tcase_add_loop_test(tc, movable_timer_a_tick_away_goes_to_the_busy_cpu,
			    0, 2);
	tcase_add_loop_test(tc, idle_walk_below_an_active_group_keeps_no_wakeup,
			    0, 2);
	tcase_add_loop_test(
		tc, early_hierarchy_event_two_jiffies_away_stops_the_tick, 0,
		2);
	suite_add_tcase(s, tc);
	return s;
}

HOST_SUITE(tmigr_wake_suite)

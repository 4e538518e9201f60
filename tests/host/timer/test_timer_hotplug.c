// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/timer/test_timer_hotplug.c - timer/timer_hotplug.c: a CPU's
 * timers when it goes offline (timers_cpu_dead()) and comes back
 * (timers_cpu_up()).
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "tests/host/registry.h"
#include "timer/timer.h"
#include "timer/timer_migration.h"
#include "timer_env.h"

static void *storage;

static void setup(unsigned int ncpus)
{
	host_env_reset(ncpus);
	host_set_jiffies(1000);
	free(storage);
	storage = calloc(1, timer_bases_size(ncpus));
	ck_assert_ptr_nonnull(storage);
	ck_assert_int_eq(timer_init(storage, ncpus, 1000), 0);
	timer_set_model(TIMER_MODEL_PULL);
}

static void teardown(void)
{
	timer_set_model(TIMER_MODEL_PULL);
	free(storage);
	storage = NULL;
}

/*
 * This CPU idles as the kernel's idle path does (timer_nohz_next_event():
 * bases forwarded, idle unless an event is within a tick); *@tevt is the
 * split next events then.
 */
static void idle_this_cpu(uint64_t basej, struct timer_events *tevt)
{
	bool stop;

	timer_nohz_next_event(basej, 0, &stop);
	fetch_next_timer_interrupt(smp_processor_id(), basej, tevt);
}

struct hrec {
	struct timer_list t;
	unsigned int fired;
	uint64_t fired_at;
	unsigned int fired_cpu;
};

static void hrec_cb(struct timer_list *t)
{
	struct hrec *r = (struct hrec *)t;

	r->fired++;
	r->fired_at = timer_env_jiffies();
	r->fired_cpu = smp_processor_id();
}

static void arm_on(struct hrec *r, unsigned int cpu, uint32_t flags,
		   uint64_t expires)
{
	unsigned int prev = host_cpu;

	*r = (struct hrec){ 0 };
	host_set_cpu(cpu);
	timer_setup(&r->t, hrec_cb, flags);
	mod_timer(&r->t, expires);
	host_set_cpu(prev);
}

/* Tick every online CPU at each jiffy up to @j (an offline one runs nothing). */
static void advance_to(uint64_t j)
{
	unsigned int prev = host_cpu, cpu;

	while (timer_before(timer_env_jiffies(), j)) {
		host_set_jiffies(timer_env_jiffies() + 1);
		for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
			unsigned int raised = host_softirq_raised[cpu];

			if (!timer_cpu_online(cpu))
				continue;
			host_set_cpu(cpu);
			timer_tick();
			if (host_softirq_raised[cpu] != raised)
				run_timer_softirq();
		}
	}
	host_set_cpu(prev);
}

START_TEST(dead_cpu_timers_move_with_their_expiry)
{
	struct hrec pinned, global, def, far;

	setup(3);
	arm_on(&pinned, 2, TIMER_PINNED, 1010);
	arm_on(&global, 2, 0, 1020);
	arm_on(&def, 2, TIMER_DEFERRABLE, 1030);
	/* Level 2 on CPU 2: 64-jiffy buckets, re-placed on CPU 0's wheel. */
	arm_on(&far, 2, TIMER_PINNED, 1700);
	ck_assert_uint_eq(timers_cpu_dead(2, 0), 4);
	ck_assert(!timer_cpu_online(2));
	ck_assert(timer_cpu_online(0));
	ck_assert_uint_eq(pinned.t.flags & TIMER_CPUMASK, 0);
	ck_assert_uint_eq(global.t.flags & TIMER_CPUMASK, 0);
	ck_assert(timer_pending(&pinned.t) && timer_pending(&def.t));
	/* Pinned ones too: they keep their flags, only the CPU changes. */
	ck_assert(pinned.t.flags & TIMER_PINNED);
	ck_assert(def.t.flags & TIMER_DEFERRABLE);

	/*
	 * Where they would have fired on CPU 2: level 0 buckets end a jiffy
	 * after the expiry, level 2 ones at the next multiple of 64.
	 */
	advance_to(1010);
	ck_assert_uint_eq(pinned.fired, 0);
	advance_to(1800);
	ck_assert_uint_eq(pinned.fired, 1);
	ck_assert_uint_eq(pinned.fired_at, 1011);
	ck_assert_uint_eq(global.fired_at, 1021);
	ck_assert_uint_eq(def.fired_at, 1031);
	ck_assert_uint_eq(far.fired_at, 1728);
	ck_assert_uint_eq(pinned.fired_cpu, 0);
	ck_assert_uint_eq(global.fired_cpu, 0);
	ck_assert_uint_eq(def.fired_cpu, 0);
	ck_assert_uint_eq(far.fired_cpu, 0);
	ck_assert_uint_eq(global.fired + def.fired + far.fired, 3);
	ck_assert_uint_eq(host_warn_hits, 0);
}
END_TEST

/* The timers being moved, and what timer_pending() said mid-move. */
static struct hrec *moving[2];
static unsigned int move_looks, move_seen_idle;

static void look_while_moving(int id)
{
	if (id != TIMER_RP_MOVE_UNLINKED)
		return;
	move_looks++;
	for (unsigned int i = 0; i < 2; i++)
		move_seen_idle += !timer_pending(&moving[i]->t);
}

/*
 * docs/races.md, "Pending timer seen idle while it moves": the owner of a
 * pinned timer checks timer_pending() without a lock (as the guest torture
 * does before add_timer_on()); if a move showed it idle, the owner would
 * skip the delete and add_timer_on() would then find it pending and drop
 * the arm.  Two timers in one bucket: the list's next link is moved too.
 */
START_TEST(moving_timer_stays_pending_throughout)
{
	struct hrec a, b;

	setup(3);
	arm_on(&a, 2, TIMER_PINNED, 1010);
	arm_on(&b, 2, TIMER_PINNED, 1010);
	moving[0] = &a;
	moving[1] = &b;
	move_looks = move_seen_idle = 0;
	host_race_hook = look_while_moving;
	ck_assert_uint_eq(timers_cpu_dead(2, 0), 2);
	host_race_hook = NULL;
	ck_assert_uint_eq(move_looks, 2);
	ck_assert_uint_eq(move_seen_idle, 0);
	ck_assert(timer_pending(&a.t) && timer_pending(&b.t));
	advance_to(1012);
	ck_assert_uint_eq(a.fired + b.fired, 2);
	ck_assert_uint_eq(a.fired_cpu, 0);
	ck_assert_uint_eq(host_warn_hits, 0);
}
END_TEST

START_TEST(dead_cpu_takes_no_timer_and_push_skips_it)
{
	struct hrec r, p;

	setup(3);
	ck_assert_uint_eq(timers_cpu_dead(1, 0), 0);
	/* add_timer_on() a dead CPU: a warning, and the caller's CPU gets it. */
	host_set_cpu(2);
	r = (struct hrec){ 0 };
	timer_setup(&r.t, hrec_cb, TIMER_PINNED);
	r.t.expires = 1005;
	add_timer_on(&r.t, 1);
	ck_assert_uint_eq(host_warn_hits, 1);
	ck_assert_uint_eq(r.t.flags & TIMER_CPUMASK, 2);

	/* PUSH from idle CPU 2: CPU 1 looks busy, but it is offline. */
	timer_set_model(TIMER_MODEL_PUSH);
	host_cpu_idle[2] = true;
	host_cpu_idle[0] = true;
	host_cpu_idle[1] = false;
	arm_on(&p, 2, 0, 1007);
	ck_assert_uint_ne(p.t.flags & TIMER_CPUMASK, 1);
	host_cpu_idle[2] = host_cpu_idle[0] = false;

	advance_to(1010);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_cpu, 2);
	ck_assert_uint_eq(p.fired, 1);
	ck_assert_uint_eq(host_warn_hits, 1);
}
END_TEST

START_TEST(non_pending_timer_of_a_dead_cpu_rearms_on_the_caller)
{
	struct hrec r;

	setup(2);
	arm_on(&r, 1, 0, 1003);
	host_set_cpu(1);
	ck_assert_int_eq(timer_delete(&r.t), 1);
	host_set_cpu(0);
	timers_cpu_dead(1, 0);
	/* Its flags still name CPU 1, whose bases are offline. */
	ck_assert_uint_eq(r.t.flags & TIMER_CPUMASK, 1);
	mod_timer(&r.t, 1004);
	ck_assert_uint_eq(r.t.flags & TIMER_CPUMASK, 0);
	advance_to(1010);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_cpu, 0);
	ck_assert_uint_eq(host_warn_hits, 0);
}
END_TEST

START_TEST(cpu_up_takes_timers_again_from_the_current_jiffy)
{
	struct hrec r;

	setup(2);
	timers_cpu_dead(1, 0);
	advance_to(5000);
	timers_cpu_up(1);
	ck_assert(timer_cpu_online(1));
	host_set_cpu(0);
	r = (struct hrec){ 0 };
	timer_setup(&r.t, hrec_cb, TIMER_PINNED);
	r.t.expires = 5003;
	add_timer_on(&r.t, 1);
	ck_assert_uint_eq(r.t.flags & TIMER_CPUMASK, 1);
	advance_to(5003);
	ck_assert_uint_eq(r.fired, 0);
	advance_to(5010);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_at, 5004);
	ck_assert_uint_eq(r.fired_cpu, 1);
	ck_assert_uint_eq(host_warn_hits, 0);
}
END_TEST

START_TEST(moving_to_an_idle_cpu_kicks_it_once)
{
	struct timer_events tevt;
	struct hrec g;

	setup(3);
	arm_on(&g, 2, 0, 1050);
	/* CPU 0 idles with empty bases. */
	host_set_cpu(0);
	idle_this_cpu(1000, &tevt);
	host_set_cpu(1);
	timers_cpu_dead(2, 0);
	ck_assert_uint_eq(host_wake_ipis[0], 1);
	host_set_cpu(0);
	timer_clear_idle();
	advance_to(1060);
	ck_assert_uint_eq(g.fired, 1);
	ck_assert_uint_eq(g.fired_cpu, 0);
}
END_TEST

START_TEST(misuse_warns_and_moves_nothing)
{
	struct hrec r;

	setup(2);
	arm_on(&r, 1, 0, 1010);
	ck_assert_uint_eq(timers_cpu_dead(1, 1), 0);
	ck_assert_uint_eq(timers_cpu_dead(5, 0), 0);
	ck_assert_uint_eq(host_warn_hits, 2);
	ck_assert(timer_cpu_online(1));
	ck_assert_uint_eq(r.t.flags & TIMER_CPUMASK, 1);
	/* Onto a dead CPU: refused too. */
	timers_cpu_dead(0, 1);
	ck_assert_uint_eq(timers_cpu_dead(1, 0), 0);
	ck_assert_uint_eq(host_warn_hits, 3);
	ck_assert(timer_pending(&r.t));
}
END_TEST

/* A remote expiry of CPU 1's global base is in a callback; CPU 1 dies. */
static int slow_in, slow_out;

static void slow_cb(struct timer_list *t)
{
	hrec_cb(t);
	__atomic_store_n(&slow_in, 1, __ATOMIC_SEQ_CST);
	usleep(100 * 1000);
	__atomic_store_n(&slow_out, 1, __ATOMIC_SEQ_CST);
}

static void *remote_expiry(void *arg)
{
	(void)arg;
	host_set_cpu(2);
	timer_expire_remote(1);
	return NULL;
}

/*
 * docs/races.md, "Timers moved off a CPU during their remote expiry": CPU 2
 * expires CPU 1's global base, inside a slow callback, when CPU 0 moves
 * CPU 1's timers away.
 */
START_TEST(dead_cpu_waits_for_a_remote_expiry_in_flight)
{
	struct hrec slow, later;
	pthread_t thr;

	setup(3);
	slow_in = slow_out = 0;
	host_set_cpu(1);
	slow = (struct hrec){ 0 };
	timer_setup(&slow.t, slow_cb, 0);
	mod_timer(&slow.t, 1002);
	arm_on(&later, 1, 0, 1002);
	host_set_jiffies(1003); /* their bucket's end */
	ck_assert_int_eq(pthread_create(&thr, NULL, remote_expiry, NULL), 0);
	while (!__atomic_load_n(&slow_in, __ATOMIC_SEQ_CST))
		sched_yield();
	host_set_cpu(0);
	timers_cpu_dead(1, 0);
	/* It waited for the whole expiry, which ran both timers. */
	ck_assert_int_eq(__atomic_load_n(&slow_out, __ATOMIC_SEQ_CST), 1);
	pthread_join(thr, NULL);
	ck_assert_uint_eq(slow.fired + later.fired, 2);
	ck_assert_uint_eq(host_warn_hits, 0);
}
END_TEST

static Suite *timer_hotplug_suite(void)
{
	Suite *s = suite_create("timer_hotplug");
	TCase *tc = tcase_create("hotplug");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, dead_cpu_timers_move_with_their_expiry);
	tcase_add_test(tc, moving_timer_stays_pending_throughout);
	tcase_add_test(tc, dead_cpu_takes_no_timer_and_push_skips_it);
	tcase_add_test(tc,
		       non_pending_timer_of_a_dead_cpu_rearms_on_the_caller);
	tcase_add_test(tc, cpu_up_takes_timers_again_from_the_current_jiffy);
	tcase_add_test(tc, moving_to_an_idle_cpu_kicks_it_once);
	tcase_add_test(tc, misuse_warns_and_moves_nothing);
	tcase_add_test(tc, dead_cpu_waits_for_a_remote_expiry_in_flight);
	suite_add_tcase(s, tc);
	return s;
}

HOST_SUITE(timer_hotplug_suite)

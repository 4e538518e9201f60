// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/timer/test_timer.c - timer/timer.c on the host environment.
 *
 * "CPUs" are host_cpu values; a tick on CPU n is timer_tick() there and,
 * if it raised the softirq, run_timer_softirq().  Expiry times are checked
 * against the wheel's rounding: a timer at distance d from base->clk lands
 * in level L (d < 63 * 8^L) and fires at ((E >> 3L) + 1) << 3L.
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "tests/host/registry.h"
#include "timer/timer.h"
#include "timer_env.h"

#define MAX_TEST_CPUS 8

static void *storage;

static void setup(unsigned int ncpus, unsigned int hz, uint64_t j0)
{
	host_env_reset(ncpus);
	host_set_jiffies(j0);
	free(storage);
	storage = calloc(1, timer_bases_size(ncpus));
	ck_assert_ptr_nonnull(storage);
	ck_assert_int_eq(timer_init(storage, ncpus, hz), 0);
}

static void teardown(void)
{
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

/* Event @field of @tevt is there, at jiffy @want. */
#define expect_event(tevt, field, want)                  \
	do {                                             \
		ck_assert((tevt).has_##field);           \
		ck_assert_uint_eq((tevt).field, (want)); \
	} while (0)

/* There is no event @field in @tevt: its flag says so, its jiffy is 0. */
#define expect_no_event(tevt, field)                \
	do {                                        \
		ck_assert(!(tevt).has_##field);     \
		ck_assert_uint_eq((tevt).field, 0); \
	} while (0)

static unsigned int depth_for(unsigned int hz)
{
	return hz > 100 ? 9 : 8;
}

static uint64_t lvl_start(unsigned int lvl)
{
	return lvl ? 63ull << (3 * (lvl - 1)) : 0;
}

static uint64_t cutoff_for(unsigned int hz)
{
	return lvl_start(depth_for(hz));
}

static unsigned int level_of(uint64_t delta, unsigned int hz)
{
	unsigned int lvl;

	for (lvl = 0; lvl < depth_for(hz) - 1; lvl++)
		if (delta < lvl_start(lvl + 1))
			break;
	return lvl;
}

static uint64_t bucket_expiry(uint64_t expires, unsigned int lvl)
{
	return ((expires >> (3 * lvl)) + 1) << (3 * lvl);
}

/* A timer that records when and where it fired. */
struct rec {
	struct timer_list t;
	unsigned int fired;
	uint64_t fired_at;
	unsigned int fired_cpu;
	int rearms;  /* rearm_cb: times left to re-arm */
	int del_ret; /* del_cb: timer_delete() result */
};

static void rec_cb(struct timer_list *t)
{
	struct rec *r = (struct rec *)t;

	r->fired++;
	r->fired_at = timer_env_jiffies();
	r->fired_cpu = smp_processor_id();
}

static void rec_init(struct rec *r, void (*fn)(struct timer_list *),
		     uint32_t flags)
{
	*r = (struct rec){ 0 };
	timer_setup(&r->t, fn, flags);
}

static void tick_cpu(unsigned int cpu)
{
	unsigned int prev = host_cpu, raised = host_softirq_raised[cpu];

	host_set_cpu(cpu);
	timer_tick();
	if (host_softirq_raised[cpu] != raised)
		run_timer_softirq();
	host_set_cpu(prev);
}

static void tick_all(void)
{
	unsigned int cpu;

	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		tick_cpu(cpu);
}

/* Step jiffies one at a time up to @j, ticking every CPU each time. */
static void advance_to(uint64_t j)
{
	while (timer_before(timer_env_jiffies(), j)) {
		host_set_jiffies(timer_env_jiffies() + 1);
		tick_all();
	}
}

/* Jump jiffies to @j and tick once. */
static void jump_to(uint64_t j)
{
	host_set_jiffies(j);
	tick_all();
}

/*
 * Arm a global timer at distance @d, check the next event is its bucket,
 * that it does not fire a jiffy before and fires at that bucket.
 */
static void check_level(unsigned int hz, uint64_t j0, uint64_t d)
{
	unsigned int lvl = level_of(d, hz);
	uint64_t e = j0 + d, want = bucket_expiry(e, lvl);
	struct timer_events tevt;
	struct rec r;

	setup(1, hz, j0);
	rec_init(&r, rec_cb, 0);
	ck_assert_int_eq(mod_timer(&r.t, e), 0);
	ck_assert(timer_pending(&r.t));
	fetch_next_timer_interrupt(0, j0, &tevt);
	expect_no_event(tevt, local);
	expect_event(tevt, global, want);
	if (d < 4096) {
		advance_to(want - 1);
	} else {
		jump_to(j0 + d / 2);
		jump_to(want - 1);
	}
	ck_assert_uint_eq(r.fired, 0);
	jump_to(want);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_at, want);
	ck_assert(r.fired_at >= e && r.fired_at - e <= (1ull << (3 * lvl)));
	ck_assert(!timer_pending(&r.t));
	jump_to(want + (2ull << (3 * lvl)));
	ck_assert_uint_eq(r.fired, 1);
	teardown();
}

static void check_all_levels(unsigned int hz)
{
	unsigned int lvl, depth = depth_for(hz);
	/* An unaligned start, so rounding up is visible. */
	uint64_t j0 = 1000003;

	for (lvl = 0; lvl < depth; lvl++) {
		uint64_t lo = lvl ? lvl_start(lvl) : 1;
		uint64_t hi = (lvl < depth - 1 ? lvl_start(lvl + 1) :
						 cutoff_for(hz)) -
			      1;

		check_level(hz, j0, lo);
		check_level(hz, j0, lo + (hi - lo) / 3);
		check_level(hz, j0, hi);
	}
}

START_TEST(levels_expire_in_bucket_hz100)
{
	check_all_levels(100);
}
END_TEST

START_TEST(levels_expire_in_bucket_hz250)
{
	check_all_levels(250);
}
END_TEST

START_TEST(levels_expire_in_bucket_hz1000)
{
	check_all_levels(1000);
}
END_TEST

START_TEST(far_timer_clamped_to_cutoff)
{
	static const unsigned int hzs[] = { 100, 1000 };
	uint64_t j0 = 5000, far[] = { 0, 12345, 1ull << 40 };
	unsigned int i, k;

	for (k = 0; k < 2; k++) {
		unsigned int hz = hzs[k], last = depth_for(hz) - 1;
		uint64_t max = cutoff_for(hz) - (1ull << (3 * last));
		uint64_t want = bucket_expiry(j0 + max, last);

		for (i = 0; i < 3; i++) {
			struct timer_events tevt;
			struct rec r;

			setup(1, hz, j0);
			rec_init(&r, rec_cb, TIMER_PINNED);
			mod_timer(&r.t, j0 + cutoff_for(hz) + far[i]);
			fetch_next_timer_interrupt(0, j0, &tevt);
			expect_event(tevt, local, want);
			ck_assert_uint_le(want - j0, cutoff_for(hz));
			jump_to(want - 1);
			ck_assert_uint_eq(r.fired, 0);
			jump_to(want);
			ck_assert_uint_eq(r.fired, 1);
			teardown();
		}
	}
}
END_TEST

static void rearm_cb(struct timer_list *t)
{
	struct rec *r = (struct rec *)t;

	rec_cb(t);
	ck_assert(!timer_pending(t));
	if (r->rearms-- > 0)
		ck_assert_int_eq(mod_timer(t, timer_env_jiffies() + 10), 0);
}

START_TEST(rearm_inside_callback)
{
	struct rec r;

	setup(2, 1000, 100);
	rec_init(&r, rearm_cb, 0);
	r.rearms = 2;
	mod_timer(&r.t, 110);
	advance_to(111);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert(timer_pending(&r.t));
	advance_to(121);
	ck_assert_uint_eq(r.fired, 1);
	advance_to(122);
	ck_assert_uint_eq(r.fired, 2);
	advance_to(200);
	ck_assert_uint_eq(r.fired, 3);
	ck_assert(!timer_pending(&r.t));
	ck_assert_uint_eq(host_warn_hits, 0);
}
END_TEST

static void del_cb(struct timer_list *t)
{
	struct rec *r = (struct rec *)t;

	rec_cb(t);
	ck_assert_int_eq(timer_delete(t), 0);
	mod_timer(t, timer_env_jiffies() + 5);
	r->del_ret = timer_delete(t);
}

START_TEST(delete_inside_callback)
{
	struct rec r;

	setup(1, 250, 0);
	rec_init(&r, del_cb, 0);
	mod_timer(&r.t, 20);
	advance_to(300);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_int_eq(r.del_ret, 1);
	ck_assert(!timer_pending(&r.t));
	ck_assert_uint_eq(host_warn_hits, 0);
}
END_TEST

static int slow_entered, slow_done;

static void slow_cb(struct timer_list *t)
{
	rec_cb(t);
	__atomic_store_n(&slow_entered, 1, __ATOMIC_SEQ_CST);
	usleep(100 * 1000);
	__atomic_store_n(&slow_done, 1, __ATOMIC_SEQ_CST);
}

static void *cpu1_tick(void *arg)
{
	(void)arg;
	host_set_cpu(1);
	tick_cpu(1);
	return NULL;
}

START_TEST(delete_sync_waits_for_running_callback)
{
	pthread_t thr;
	struct rec r;

	setup(2, 1000, 0);
	rec_init(&r, slow_cb, TIMER_PINNED);
	r.t.expires = 5;
	add_timer_on(&r.t, 1);
	host_set_jiffies(10);
	ck_assert_int_eq(pthread_create(&thr, NULL, cpu1_tick, NULL), 0);
	while (!__atomic_load_n(&slow_entered, __ATOMIC_SEQ_CST))
		sched_yield();
	/* Plain delete does not wait... */
	ck_assert_int_eq(timer_delete(&r.t), 0);
	/* ...timer_delete_sync does. */
	ck_assert_int_eq(timer_delete_sync(&r.t), 0);
	ck_assert_int_eq(__atomic_load_n(&slow_done, __ATOMIC_SEQ_CST), 1);
	pthread_join(thr, NULL);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_cpu, 1);
	ck_assert_uint_eq(host_warn_hits, 0);
}
END_TEST

static void self_sync_cb(struct timer_list *t)
{
	struct rec *r = (struct rec *)t;

	rec_cb(t);
	mod_timer(t, timer_env_jiffies() + 3);
	r->del_ret = timer_delete_sync(t);
}

START_TEST(delete_sync_from_own_callback_warns)
{
	struct rec r;

	setup(1, 1000, 0);
	rec_init(&r, self_sync_cb, 0);
	mod_timer(&r.t, 4);
	advance_to(100);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_int_eq(r.del_ret, 1);
	ck_assert_uint_eq(host_warn_hits, 1);
	ck_assert(!timer_pending(&r.t));
}
END_TEST

START_TEST(mod_timer_on_pending_moves_it)
{
	struct rec r;

	setup(1, 1000, 1000);
	rec_init(&r, rec_cb, 0);
	ck_assert_int_eq(mod_timer_pending(&r.t, 1010), 0);
	ck_assert(!timer_pending(&r.t));
	ck_assert_int_eq(mod_timer(&r.t, 1100), 0);
	ck_assert_int_eq(mod_timer(&r.t, 1050), 1);
	ck_assert_int_eq(mod_timer(&r.t, 1050), 1);
	ck_assert_int_eq(mod_timer_pending(&r.t, 1040), 1);
	ck_assert_uint_eq(r.t.expires, 1040);
	advance_to(1040);
	ck_assert_uint_eq(r.fired, 0);
	advance_to(1041);
	ck_assert_uint_eq(r.fired, 1);
	advance_to(1200);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_int_eq(timer_delete(&r.t), 0);
	ck_assert_int_eq(mod_timer(&r.t, 1300), 0);
	ck_assert_int_eq(timer_delete(&r.t), 1);
	ck_assert_int_eq(timer_delete(&r.t), 0);
	advance_to(1400);
	ck_assert_uint_eq(r.fired, 1);
}
END_TEST

START_TEST(timer_reduce_only_moves_earlier)
{
	struct rec r;

	setup(1, 1000, 0);
	rec_init(&r, rec_cb, 0);
	ck_assert_int_eq(timer_reduce(&r.t, 100), 0);
	ck_assert_int_eq(timer_reduce(&r.t, 200), 1);
	ck_assert_uint_eq(r.t.expires, 100);
	ck_assert_int_eq(timer_reduce(&r.t, 100), 1);
	ck_assert_int_eq(timer_reduce(&r.t, 50), 1);
	ck_assert_uint_eq(r.t.expires, 50);
	advance_to(51);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_at, 51);
}
END_TEST

START_TEST(next_event_split_local_global)
{
	struct rec pinned, global, def;
	struct timer_events tevt;
	uint64_t j0 = 10000;

	setup(2, 1000, j0);
	rec_init(&pinned, rec_cb, TIMER_PINNED);
	rec_init(&global, rec_cb, 0);
	rec_init(&def, rec_cb, TIMER_DEFERRABLE);

	mod_timer(&def.t, j0 + 5);
	fetch_next_timer_interrupt(0, j0, &tevt);
	expect_no_event(tevt, local);
	expect_no_event(tevt, global);

	/* Global first: both reported. */
	mod_timer(&pinned.t, j0 + 40);
	mod_timer(&global.t, j0 + 20);
	fetch_next_timer_interrupt(0, j0, &tevt);
	expect_event(tevt, local, j0 + 41);
	expect_event(tevt, global, j0 + 21);

	/* Local first: the CPU wakes anyway, global not reported. */
	mod_timer(&global.t, j0 + 60);
	fetch_next_timer_interrupt(0, j0, &tevt);
	expect_event(tevt, local, j0 + 41);
	expect_no_event(tevt, global);

	/* Only global. */
	timer_delete(&pinned.t);
	idle_this_cpu(j0, &tevt);
	expect_no_event(tevt, local);
	expect_event(tevt, global, j0 + 61);
	timer_clear_idle();

	/* Within a tick: all of it is local, and the CPU stays awake. */
	mod_timer(&global.t, j0);
	fetch_next_timer_interrupt(0, j0, &tevt);
	expect_event(tevt, local, j0 + 1);
	expect_no_event(tevt, global);

	/* Other CPU's view is its own. */
	fetch_next_timer_interrupt(1, j0, &tevt);
	expect_no_event(tevt, local);
	expect_no_event(tevt, global);
}
END_TEST

START_TEST(add_timer_on_unpinned_warns_once_and_queues)
{
	struct timer_events tevt;
	struct rec a, b;

	setup(4, 250, 0);
	rec_init(&a, rec_cb, 0);
	rec_init(&b, rec_cb, 0);
	a.t.expires = 30;
	b.t.expires = 40;
	add_timer_on(&a.t, 2);
	add_timer_on(&b.t, 2);
	ck_assert_uint_eq(host_warn_hits, 2);
	ck_assert_uint_eq(host_warn_printed, 1);
	ck_assert(a.t.flags & TIMER_PINNED);
	fetch_next_timer_interrupt(2, 0, &tevt);
	expect_event(tevt, local, 31);
	expect_no_event(tevt, global);
	advance_to(100);
	ck_assert_uint_eq(a.fired, 1);
	ck_assert_uint_eq(b.fired, 1);
	ck_assert_uint_eq(a.fired_cpu, 2);
	ck_assert_uint_eq(b.fired_cpu, 2);
}
END_TEST

START_TEST(pinned_timer_on_idle_cpu_sends_one_ipi)
{
	struct rec own, later, earlier, after, awake;
	struct timer_events tevt;
	uint64_t j0 = 777;

	setup(2, 1000, j0);
	host_set_cpu(1);
	rec_init(&own, rec_cb, TIMER_PINNED);
	mod_timer(&own.t, j0 + 100);
	idle_this_cpu(j0, &tevt);
	expect_event(tevt, local, bucket_expiry(j0 + 100, 1));
	host_cpu_idle[1] = true;
	host_set_cpu(0);

	rec_init(&later, rec_cb, TIMER_PINNED);
	later.t.expires = j0 + 200;
	add_timer_on(&later.t, 1);
	ck_assert_uint_eq(host_wake_ipis[1], 0);

	rec_init(&earlier, rec_cb, TIMER_PINNED);
	earlier.t.expires = j0 + 50;
	add_timer_on(&earlier.t, 1);
	ck_assert_uint_eq(host_wake_ipis[1], 1);

	rec_init(&after, rec_cb, TIMER_PINNED);
	after.t.expires = j0 + 60;
	add_timer_on(&after.t, 1);
	ck_assert_uint_eq(host_wake_ipis[1], 1);
	ck_assert_uint_eq(host_wake_ipis[0], 0);

	/* Awake again: no IPI needed. */
	host_set_cpu(1);
	timer_clear_idle();
	host_cpu_idle[1] = false;
	host_set_cpu(0);
	rec_init(&awake, rec_cb, TIMER_PINNED);
	awake.t.expires = j0 + 10;
	add_timer_on(&awake.t, 1);
	ck_assert_uint_eq(host_wake_ipis[1], 1);

	advance_to(j0 + 300);
	ck_assert_uint_eq(own.fired + later.fired + earlier.fired +
				  after.fired + awake.fired,
			  5);
	ck_assert_uint_eq(earlier.fired_cpu, 1);
	ck_assert_uint_eq(host_warn_hits, 0);
}
END_TEST

START_TEST(global_timers_expire_remotely)
{
	struct timer_events tevt;
	struct rec r;

	setup(2, 1000, 0);
	host_set_cpu(1);
	rec_init(&r, rec_cb, 0);
	mod_timer(&r.t, 500);
	idle_this_cpu(0, &tevt);
	/* 500 is level 1: rounded up to a multiple of 8. */
	expect_event(tevt, global, 504);
	host_set_cpu(0);

	timer_lock_remote_bases(1);
	fetch_next_timer_interrupt_remote(0, &tevt, 1);
	timer_unlock_remote_bases(1);
	expect_event(tevt, global, 504);
	expect_no_event(tevt, local);

	host_set_jiffies(503);
	timer_expire_remote(1);
	ck_assert_uint_eq(r.fired, 0);
	host_set_jiffies(504);
	timer_expire_remote(1);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_cpu, 0);
	ck_assert_uint_eq(host_wake_ipis[1], 0);
}
END_TEST

START_TEST(jiffies_wrap)
{
	static const uint64_t deltas[] = {
		1, 50, 99, 100, 101, 150, 5000, 70000
	};
	struct rec r[8];
	uint64_t j0 = UINT64_MAX - 100;
	unsigned int i;

	setup(1, 1000, j0);
	for (i = 0; i < 8; i++) {
		rec_init(&r[i], rec_cb, i & 1 ? TIMER_PINNED : 0);
		mod_timer(&r[i].t, j0 + deltas[i]);
	}
	advance_to(j0 + 80000);
	for (i = 0; i < 8; i++) {
		uint64_t e = j0 + deltas[i];
		unsigned int lvl = level_of(deltas[i], 1000);

		ck_assert_uint_eq(r[i].fired, 1);
		ck_assert(timer_after_eq(r[i].fired_at, e));
		ck_assert_uint_le(r[i].fired_at - e, 1ull << (3 * lvl));
		ck_assert_uint_eq(r[i].fired_at, bucket_expiry(e, lvl));
	}
	ck_assert_uint_eq(host_warn_hits, 0);
}
END_TEST

/* ---- many random timers ---- */

#define NR_RANDOM 10000

struct rtimer {
	struct timer_list t;
	bool armed;
	uint64_t expires, armed_at;
	unsigned int fired;
};

static struct rtimer *rts;
static unsigned int rt_early, rt_late, rt_unarmed;
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void rt_cb(struct timer_list *t)
{
	struct rtimer *rt = (struct rtimer *)t;
	uint64_t now = timer_env_jiffies();
	unsigned int lvl = level_of(rt->expires - rt->armed_at, 250);

	if (!rt->armed)
		rt_unarmed++;
	if (timer_before(now, rt->expires))
		rt_early++;
	if (now - rt->expires > (1ull << (3 * lvl)))
		rt_late++;
	rt->armed = false;
	rt->fired++;
}

static void rt_arm(struct rtimer *rt, uint64_t now)
{
	rt->expires = now + rnd() % 20000;
	rt->armed_at = now;
	rt->armed = true;
	mod_timer(&rt->t, rt->expires);
}

START_TEST(many_random_timers_fire_once_on_time)
{
	static const uint32_t kinds[] = { 0, TIMER_PINNED, TIMER_DEFERRABLE };
	unsigned int i, fired = 0, expected = 0, ncpus = 4;
	uint64_t j0 = UINT64_MAX - 7000, now;

	setup(ncpus, 250, j0);
	rts = calloc(NR_RANDOM, sizeof(*rts));
	ck_assert_ptr_nonnull(rts);
	for (i = 0; i < NR_RANDOM; i++) {
		host_set_cpu(rnd() % ncpus);
		timer_setup(&rts[i].t, rt_cb, kinds[rnd() % 3]);
		rt_arm(&rts[i], j0);
	}
	for (now = j0; timer_before(now, j0 + 25000); now++) {
		host_set_jiffies(now + 1);
		tick_all();
		for (i = 0; i < 3; i++) {
			struct rtimer *rt = &rts[rnd() % NR_RANDOM];

			host_set_cpu(rnd() % ncpus);
			if (rnd() % 4 == 0) {
				ck_assert_int_eq(timer_delete(&rt->t),
						 rt->armed);
				rt->armed = false;
			} else if (timer_before(now, j0 + 5000)) {
				rt_arm(rt, now + 1);
			}
		}
		host_set_cpu(0);
	}
	for (i = 0; i < NR_RANDOM; i++) {
		ck_assert(!rts[i].armed);
		ck_assert(!timer_pending(&rts[i].t));
		fired += rts[i].fired;
	}
	for (i = 0; i < NR_RANDOM; i++)
		expected += rts[i].fired > 0;
	ck_assert_uint_eq(rt_unarmed, 0);
	ck_assert_uint_eq(rt_early, 0);
	ck_assert_uint_eq(rt_late, 0);
	ck_assert_uint_ge(fired, expected);
	ck_assert_uint_gt(fired, NR_RANDOM / 2);
	ck_assert_uint_eq(host_warn_hits, 0);
	free(rts);
}
END_TEST

/* ---- glue for the idle path and the hierarchy ---- */

START_TEST(stats_count_local_remote_and_pulled)
{
	struct timer_cpu_stats st;
	struct rec a, b;

	setup(2, 1000, 0);
	rec_init(&a, rec_cb, 0);
	mod_timer(&a.t, 10);
	host_set_cpu(1);
	rec_init(&b, rec_cb, 0);
	mod_timer(&b.t, 10);
	host_set_cpu(0);
	host_set_jiffies(11);
	tick_cpu(0);
	/* CPU 0 expires CPU 1's global timer as a migrator would. */
	timer_expire_remote(1);
	ck_assert_uint_eq(a.fired + b.fired, 2);
	timer_get_stats(0, &st);
	ck_assert_uint_eq(st.expired_local, 1);
	ck_assert_uint_eq(st.expired_remote, 1);
	ck_assert_uint_eq(st.pulled_for, 0);
	timer_get_stats(1, &st);
	ck_assert_uint_eq(st.expired_local, 0);
	ck_assert_uint_eq(st.pulled_for, 1);
	timer_get_stats(7, &st);
	ck_assert_uint_eq(st.expired_local + st.expired_remote, 0);
}
END_TEST

START_TEST(jiffies_to_ns_from_a_base)
{
	setup(1, 250, 0);
	ck_assert_uint_eq(timer_tick_ns(), 4000000);
	ck_assert_uint_eq(timer_jiffies_to_ns(105, 100, 7000), 7000 + 20000000);
	/* Past jiffies are due now; UINT64_MAX is an ordinary jiffy. */
	ck_assert_uint_eq(timer_jiffies_to_ns(99, 100, 7000), 7000);
	ck_assert_uint_eq(timer_jiffies_to_ns(UINT64_MAX, UINT64_MAX - 3, 7000),
			  7000 + 3 * 4000000ull);
	/* Across the jiffies wrap. */
	ck_assert_uint_eq(timer_jiffies_to_ns(2, UINT64_MAX - 1, 0),
			  4 * 4000000ull);
}
END_TEST

START_TEST(remote_fetch_reports_a_near_global_event)
{
	struct timer_events tevt;
	struct rec r;

	setup(2, 1000, 100);
	host_set_cpu(1);
	rec_init(&r, rec_cb, 0);
	mod_timer(&r.t, 100); /* bucket 101: within a tick */
	host_set_cpu(0);
	fetch_next_timer_interrupt(1, 100, &tevt);
	expect_event(tevt, local, 101);
	expect_no_event(tevt, global);
	/* A remote CPU serves the global base only: it must see it. */
	timer_lock_remote_bases(1);
	fetch_next_timer_interrupt_remote(100, &tevt, 1);
	timer_unlock_remote_bases(1);
	expect_event(tevt, global, 101);
}
END_TEST

START_TEST(event_at_the_last_jiffy_before_wrap_is_seen)
{
	uint64_t j0 = UINT64_MAX - 10, wake;
	struct timer_events tevt;
	struct rec r;
	bool stop;

	setup(1, 1000, j0);
	timer_set_model(TIMER_MODEL_LOCAL);
	rec_init(&r, rec_cb, TIMER_PINNED);
	/* Level 0: the bucket is expires + 1 == UINT64_MAX, a legal jiffy. */
	mod_timer(&r.t, UINT64_MAX - 1);
	fetch_next_timer_interrupt(0, j0, &tevt);
	expect_event(tevt, local, UINT64_MAX);
	wake = timer_nohz_next_event(j0, 0, &stop);
	ck_assert(stop);
	ck_assert_uint_eq(wake, 10 * timer_tick_ns()); /* exact in ns */
	timer_nohz_idle_exit();
	advance_to(0);
	ck_assert_uint_eq(r.fired, 1);
	ck_assert_uint_eq(r.fired_at, UINT64_MAX);
	timer_set_model(TIMER_MODEL_PULL);
}
END_TEST

static Suite *timer_suite(void)
{
	Suite *s = suite_create("timer");
	TCase *tc = tcase_create("wheel");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, levels_expire_in_bucket_hz100);
	tcase_add_test(tc, levels_expire_in_bucket_hz250);
	tcase_add_test(tc, levels_expire_in_bucket_hz1000);
	tcase_add_test(tc, far_timer_clamped_to_cutoff);
	tcase_add_test(tc, rearm_inside_callback);
	tcase_add_test(tc, delete_inside_callback);
	tcase_add_test(tc, delete_sync_waits_for_running_callback);
	tcase_add_test(tc, delete_sync_from_own_callback_warns);
	tcase_add_test(tc, mod_timer_on_pending_moves_it);
	tcase_add_test(tc, timer_reduce_only_moves_earlier);
	tcase_add_test(tc, next_event_split_local_global);
	tcase_add_test(tc, add_timer_on_unpinned_warns_once_and_queues);
	tcase_add_test(tc, pinned_timer_on_idle_cpu_sends_one_ipi);
	tcase_add_test(tc, global_timers_expire_remotely);
	tcase_add_test(tc, jiffies_wrap);
	tcase_add_test(tc, many_random_timers_fire_once_on_time);
	tcase_add_test(tc, stats_count_local_remote_and_pulled);
	tcase_add_test(tc, jiffies_to_ns_from_a_base);
	tcase_add_test(tc, remote_fetch_reports_a_near_global_event);
	tcase_add_test(tc, event_at_the_last_jiffy_before_wrap_is_seen);
	suite_add_tcase(s, tc);
	return s;
}

HOST_SUITE(timer_suite);

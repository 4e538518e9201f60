/*
 * `selftest=bench` (explicit only): the figures `make bench` collects.
 *
 *  - enqueue_dequeue: the micro-benchmark of Linux's pull-model series
 *    (the cover letter of its 6.9 merge).  On the test CPU, with a
 *    quarter of the other CPUs busy, mod_timer() then timer_delete() of one
 *    global timer, 1000 times; BENCH_REPS repetitions; ns per pair.
 *  - floor: the same loop calling two empty out-of-line functions: what
 *    the loop and the calls cost with no timer work at all.
 *  - idle_walk: the test CPU's NOHZ idle entry and exit through timer/
 *    (timer_nohz_next_event() + timer_nohz_idle_exit()) with every other
 *    CPU idle, so under pull the walk goes to the root; and the hierarchy
 *    walks alone (tmigr_cpu_deactivate()/tmigr_cpu_activate()).
 *
 * Lines: `# bench name=N model=M cpus=C busy=B reps=R min_ns= median_ns=
 * p99_ns= max_ns=` (values per operation).  Asserts only that it ran.
 */
#include "arch/x86_64/arch.h"
#include "arch/x86_64/smp.h"
#include "arch/x86_64/tsc.h"
#include "kernel/boot.h"
#include "kernel/cmdline.h"
#include "kernel/ktest.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/smp_call.h"
#include "kernel/spinlock.h"
#include "kernel/tick.h"
#include "lib/atomic.h"
#include "lib/time.h"
#include "tests/guest/probe.h"
#include "timer/timer.h"
#include "timer/timer_migration.h"

#define BENCH_LOOPS 1000
#define BENCH_REPS  31
#define WALK_REPS   201

static volatile bool bench_stop;

static void spin_until_stop(void *arg)
{
	(void)arg;
	while (!READ_ONCE(bench_stop))
		cpu_relax();
}

/* Start every 4th other CPU spinning; returns how many. */
static unsigned start_busy(void)
{
	unsigned self = smp_processor_id(), n = 0, k = 0;

	WRITE_ONCE(bench_stop, false);
	for (unsigned c = 0; c < nr_cpus; c++) {
		if (!cpu_online(c) || c == self)
			continue;
		if (k++ % 4 == 0 && smp_run_async(c, spin_until_stop, 0))
			n++;
	}
	return n;
}

static void stop_busy(void)
{
	WRITE_ONCE(bench_stop, true);
	for (unsigned c = 0; c < nr_cpus; c++)
		if (cpu_online(c) && c != smp_processor_id())
			smp_run_wait(c, NSEC_PER_SEC);
}

static void sort_u64(uint64_t *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j > 0 && v[j - 1] > v[j]; j--) {
			uint64_t x = v[j];

			v[j] = v[j - 1];
			v[j - 1] = x;
		}
}

static void report(const char *name, unsigned busy, uint64_t *v, unsigned n,
		   unsigned per)
{
	sort_u64(v, n);
	printk("# bench name=%s model=%s cpus=%u busy=%u reps=%u min_ns=%lu "
	       "median_ns=%lu p99_ns=%lu max_ns=%lu\n",
	       name, timer_model_name(boot_opts.timer_model), num_online_cpus(),
	       busy, n, v[0] / per, v[n / 2] / per, v[(n * 99) / 100] / per,
	       v[n - 1] / per);
}

static void dummy_fn(struct timer_list *t)
{
	(void)t;
}

__attribute__((noinline)) static void empty_a(struct timer_list *t, uint64_t j)
{
	__asm__ volatile("" : : "r"(t), "r"(j) : "memory");
}

__attribute__((noinline)) static void empty_b(struct timer_list *t)
{
	__asm__ volatile("" : : "r"(t) : "memory");
}

static void bench_enqueue_dequeue(struct ktest *t)
{
	static struct timer_list timer;
	uint64_t loop[BENCH_REPS], floor[BENCH_REPS];
	unsigned busy = start_busy();

	timer_setup(&timer, dummy_fn, 0);
	delay_ns(10 * tick_period_ns()); /* let the busy CPUs get going */
	for (unsigned r = 0; r < BENCH_REPS; r++) {
		uint64_t j = READ_ONCE(jiffies64) + 100, t0;

		t0 = rdtsc();
		for (unsigned i = 0; i < BENCH_LOOPS; i++) {
			mod_timer(&timer, j + i);
			timer_delete(&timer);
		}
		loop[r] = tsc_to_ns(rdtsc() - t0);
		t0 = rdtsc();
		for (unsigned i = 0; i < BENCH_LOOPS; i++) {
			empty_a(&timer, j + i);
			empty_b(&timer);
		}
		floor[r] = tsc_to_ns(rdtsc() - t0);
	}
	stop_busy();
	KEXPECT(t, !timer_pending(&timer));
	report("enqueue_dequeue", busy, loop, BENCH_REPS, BENCH_LOOPS);
	report("floor", busy, floor, BENCH_REPS, BENCH_LOOPS);
}

static void bench_idle_walk(struct ktest *t)
{
	uint64_t enter[WALK_REPS], leave[WALK_REPS];
	uint64_t deact[WALK_REPS], act[WALK_REPS];
	struct tmigr_shape s;

	if (!tick_nohz_enabled()) {
		ktest_skip(t, "needs nohz=on");
		return;
	}
	wait_other_cpus_idle(5000000000ULL);
	for (unsigned r = 0; r < WALK_REPS; r++) {
		unsigned long flags = local_irq_save();
		uint64_t basej = tick_update_jiffies(), t0, t1, t2;
		bool stop;

		t0 = rdtsc();
		timer_nohz_next_event(basej, tick_jiffy_start_ns(basej), &stop);
		t1 = rdtsc();
		timer_nohz_idle_exit();
		t2 = rdtsc();
		enter[r] = tsc_to_ns(t1 - t0);
		leave[r] = tsc_to_ns(t2 - t1);
		if (boot_opts.timer_model == TIMER_MODEL_PULL) {
			t0 = rdtsc();
			tmigr_cpu_deactivate(TMIGR_NONE_NS);
			t1 = rdtsc();
			tmigr_cpu_activate();
			t2 = rdtsc();
			deact[r] = tsc_to_ns(t1 - t0);
			act[r] = tsc_to_ns(t2 - t1);
		}
		local_irq_restore(flags);
	}
	tmigr_get_shape(&s);
	printk("# bench name=tmigr_shape levels=%u groups=%u cpus=%u\n",
	       s.levels, s.groups, num_online_cpus());
	report("idle_enter", 0, enter, WALK_REPS, 1);
	report("idle_exit", 0, leave, WALK_REPS, 1);
	if (boot_opts.timer_model == TIMER_MODEL_PULL) {
		report("tmigr_deactivate", 0, deact, WALK_REPS, 1);
		report("tmigr_activate", 0, act, WALK_REPS, 1);
	}
	KEXPECT(t, enter[0] > 0);
}

static const struct ktest_case bench_cases[] = {
	KTEST_CASE(bench_enqueue_dequeue),
	KTEST_CASE(bench_idle_walk),
};
KTEST_SUITE(bench_suite, .name = "bench", .cases = bench_cases, .ncases = 2,
	    .explicit_only = true);

// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/stress/stress.c - the pull hierarchy under real threads.
 *
 *   tmigr_stress_tsan [--cpus N] [--nodes K] [--jiffies J] [--us U]
 *                     [--seed S] [--wake one|linux|own]
 *
 * Phases:
 *   run     J jiffies, the clock moving one jiffy every U microseconds
 *           whatever the threads do (so they race): CPUs busy and idle at
 *           random, arming, re-arming and cancelling timers, pulling
 *           remote timers;
 *   idle    every CPU idles and stays idle, no new timers: the timers
 *           left must still run, woken by pinned events and by the last
 *           CPU that went idle arming for the hierarchy.  Here the clock
 *           moves one jiffy only once every CPU thread has seen the
 *           current one and acted on it (stress_cpu.acked_j), so a thread
 *           the host descheduled does not make a timer look late: lateness
 *           counts jiffies the CPUs ran, and LOST_SLACK is what the wheel
 *           allows, not a guess at the host's scheduling;
 * then, single-threaded, every CPU busy until all timers have expired,
 * and the accounting of stress_timers.c.  ThreadSanitizer watches all of
 * it; its report makes the run fail (exitcode 66, set below).
 */
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/host/stress/stress.h"
#include "timer/timer_migration.h"
#include "timer_env.h"

#define HZ	      1000
#define TICK_NS	      (1000000000ull / HZ)
#define IDLE_JIFFIES  1500 /* > longest delay (462) + period (100) */
/*
 * Jiffies a non-deferrable timer may still be pending past its expiry at
 * the end of the idle phase: its wheel level's granularity (delays up to
 * 462 use levels 0 and 1, 8 jiffies at most, see random_delay()), the
 * tick a CPU keeps when its event is a jiffy away, and as much again.
 */
#define LOST_SLACK    (2 * (8 + 1))
#define DRAIN_JIFFIES 2000
/* An idle-phase jiffy no CPU thread acknowledges within this is a hang. */
#define ACK_WAIT_US   (30 * 1000000ull)

#define LD(x)	 __atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define ST(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELEASE)

/* TSan's own default exit code (66) is what the harness would see. */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "halt_on_error=0:exitcode=66";
}

enum { PH_RUN, PH_IDLE, PH_STOP };

unsigned int stress_ncpus;
struct stress_cpu stress_cpus[STRESS_MAX_CPUS];
static int phase;

static void ipi_hook(unsigned int cpu)
{
	if (cpu < stress_ncpus)
		ST(stress_cpus[cpu].ipi, 1);
}

static void tick(unsigned int cpu)
{
	unsigned int raised = LD(host_softirq_raised[cpu]);

	stress_cpus[cpu].ticks++;
	timer_tick();
	if (LD(host_softirq_raised[cpu]) != raised)
		run_timer_softirq();
}

/* Program the next wake-up: returns its ns, now_ns + a tick if ticking. */
static uint64_t idle_program(void)
{
	uint64_t j = timer_env_jiffies();
	bool stop = false;
	uint64_t w = timer_nohz_next_event(j, j * TICK_NS, &stop);

	return stop ? w : (j + 1) * TICK_NS;
}

/*
 * Idle until work arrives (returns true) or the run ends (false).  Woken
 * by its event or an IPI, the CPU runs the tick path and idles again.
 */
static bool idle_loop(unsigned int cpu)
{
	struct stress_cpu *c = &stress_cpus[cpu];
	uint64_t seen = timer_env_jiffies(), w;

	c->idles++;
	ST(host_cpu_idle[cpu], true);
	w = idle_program();
	ST(c->w, w);
	for (;;) {
		/* ns first: the clock moves jiffies, then ns (set_clock()). */
		uint64_t now = timer_env_now_ns();
		uint64_t j = timer_env_jiffies();
		int ph = LD(phase);

		if (ph == PH_STOP)
			return false;
		if (__atomic_exchange_n(&c->ipi, 0, __ATOMIC_ACQ_REL) ||
		    (w != TMIGR_NONE_NS && now >= w)) {
			c->wakes++;
			tick(cpu);
			w = idle_program();
			ST(c->w, w);
			continue;
		}
		/* Nothing due up to now: the jiffy of now has been served. */
		if (LD(c->acked_j) != now / TICK_NS)
			ST(c->acked_j, now / TICK_NS);
		if (j != seen) {
			seen = j;
			if (ph == PH_RUN && sim_rng_chance(&c->rng, 30))
				break;
		}
		usleep(20);
	}
	ST(host_cpu_idle[cpu], false);
	timer_nohz_idle_exit();
	return true;
}

static void *cpu_thread(void *arg)
{
	unsigned int cpu = (unsigned int)(uintptr_t)arg;
	struct stress_cpu *c = &stress_cpus[cpu];

	host_set_cpu(cpu);
	for (;;) {
		uint64_t j = timer_env_jiffies();
		int ph = LD(phase);

		if (ph == PH_STOP)
			break;
		if (j != c->last_tick_j) {
			c->last_tick_j = j;
			tick(cpu);
			if ((ph != PH_RUN || sim_rng_chance(&c->rng, 60)) &&
			    !idle_loop(cpu))
				break;
			continue;
		}
		if (ph == PH_RUN && sim_rng_chance(&c->rng, 300))
			stress_timer_op(cpu);
		if (sim_rng_chance(&c->rng, 50) &&
		    tmigr_requires_handle_remote()) {
			c->handle_remote++;
			tmigr_handle_remote();
		}
		usleep(10);
	}
	return NULL;
}

static void set_clock(uint64_t j)
{
	host_set_jiffies(j);
	host_set_now_ns(j * TICK_NS); /* after: ns never runs ahead */
}

/*
 * After a LOST: what each CPU thread would wake at, and the hierarchy as
 * it stands (the threads have stopped), to tell who should have woken.
 */
static void dump_state(void)
{
	struct tmigr_group_view g;
	struct tmigr_cpu_view v;
	uint64_t exp;

	for (unsigned int cpu = 0; cpu < stress_ncpus; cpu++) {
		bool armed = tmigr_wake_armed(cpu, &exp);

		tmigr_cpu_get(cpu, &v);
		printf("stress: cpu%u w=%lld idle=%d remote=%d group=%d wakeup=%lld cpuevt=%lld armed=%d armed_exp=%lld\n",
		       cpu, (long long)stress_cpus[cpu].w, v.idle, v.remote,
		       v.group, (long long)v.wakeup, (long long)v.cpuevt, armed,
		       armed ? (long long)exp : -1ll);
	}
	for (unsigned int id = 0; tmigr_group_get(id, &g); id++)
		printf("stress: group%u level=%u parent=%d active=%#x migrator=%#x next_expiry=%lld next_cpu=%u\n",
		       g.id, g.level, g.parent, g.active, g.migrator,
		       (long long)g.next_expiry, g.next_cpu);
}

/*
 * Idle phase: wait until every CPU thread has served jiffy @j.  Returns
 * false, after printing each CPU's state, if one has not in ACK_WAIT_US.
 */
static bool wait_acked(uint64_t j, unsigned int us)
{
	if (!us)
		us = 1; /* --us 0: still a bounded wait */
	for (uint64_t waited = 0;; waited += us) {
		unsigned int cpu;

		for (cpu = 0; cpu < stress_ncpus; cpu++)
			if (LD(stress_cpus[cpu].acked_j) < j)
				break;
		if (cpu == stress_ncpus)
			return true;
		if (waited >= ACK_WAIT_US) {
			printf("stress: STALLED at j%llu, CPU threads' last served jiffy:",
			       (unsigned long long)j);
			for (cpu = 0; cpu < stress_ncpus; cpu++)
				printf(" cpu%u=j%llu", cpu,
				       (unsigned long long)LD(
					       stress_cpus[cpu].acked_j));
			printf("\n");
			return false;
		}
		usleep(us);
	}
}

static int boot(unsigned int ncpus, unsigned int nodes, uint64_t seed,
		enum tmigr_wake wake, void **storage)
{
	host_env_reset(ncpus);
	for (unsigned int cpu = 0; cpu < ncpus; cpu++)
		host_cpu_node[cpu] = cpu * nodes / ncpus;
	host_nr_nodes = nodes;
	set_clock(1);
	*storage = aligned_alloc(64, (timer_bases_size(ncpus) + 63) & ~63ul);
	if (!*storage || timer_init(*storage, ncpus, HZ))
		return -1;
	timer_set_model(TIMER_MODEL_PULL);
	if (tmigr_init(ncpus, nodes))
		return -1;
	tmigr_set_wake(wake);
	for (unsigned int cpu = 0; cpu < ncpus; cpu++) {
		host_set_cpu(cpu ? cpu - 1 : 0);
		if (tmigr_cpu_prepare(cpu))
			return -1;
		host_set_cpu(cpu);
		if (tmigr_cpu_online())
			return -1;
		stress_timers_init(cpu, seed);
	}
	host_wake_hook = ipi_hook;
	return 0;
}

/* Every CPU busy, single-threaded, until every timer has expired. */
static void drain(uint64_t from)
{
	for (unsigned int cpu = 0; cpu < stress_ncpus; cpu++) {
		host_set_cpu(cpu);
		host_cpu_idle[cpu] = false;
		timer_nohz_idle_exit();
	}
	for (uint64_t j = from + 1; j <= from + DRAIN_JIFFIES; j++) {
		set_clock(j);
		for (unsigned int cpu = 0; cpu < stress_ncpus; cpu++) {
			host_set_cpu(cpu);
			tick(cpu);
		}
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpus", required_argument, NULL, 'c' },
		{ "nodes", required_argument, NULL, 'n' },
		{ "jiffies", required_argument, NULL, 'j' },
		{ "us", required_argument, NULL, 'u' },
		{ "seed", required_argument, NULL, 's' },
		{ "wake", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int ncpus = 8, nodes = 2, us = 100;
	uint64_t jiffies = 20000, seed = 1, j = 1, ticks = 0, idles = 0;
	uint64_t wakes = 0, remote = 0, ipis = 0, pulled = 0;
	pthread_t th[STRESS_MAX_CPUS];
	struct timer_cpu_stats ts;
	enum tmigr_wake wake = TMIGR_WAKE_ONE;
	void *storage = NULL;
	int opt, lost, bad, stalled = 0;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		unsigned long long v = strtoull(optarg, NULL, 0);

		switch (opt) {
		case 'c':
			ncpus = (unsigned int)v;
			break;
		case 'n':
			nodes = (unsigned int)v;
			break;
		case 'j':
			jiffies = v;
			break;
		case 'u':
			us = (unsigned int)v;
			break;
		case 's':
			seed = v;
			break;
		case 'w':
			if (!strcmp(optarg, "one"))
				wake = TMIGR_WAKE_ONE;
			else if (!strcmp(optarg, "linux"))
				wake = TMIGR_WAKE_LINUX;
			else if (!strcmp(optarg, "own"))
				wake = TMIGR_WAKE_OWN;
			else
				goto usage;
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc || ncpus < 2 || ncpus > STRESS_MAX_CPUS || !nodes ||
	    nodes > ncpus)
		goto usage;
	stress_ncpus = ncpus;
	if (boot(ncpus, nodes, seed, wake, &storage)) {
		fprintf(stderr, "stress: cannot boot %u CPUs\n", ncpus);
		return 2;
	}
	for (unsigned int cpu = 0; cpu < ncpus; cpu++)
		if (pthread_create(&th[cpu], NULL, cpu_thread,
				   (void *)(uintptr_t)cpu))
			abort();
	for (; j < 1 + jiffies + IDLE_JIFFIES; j++) {
		if (j == 1 + jiffies) {
			ST(stress_no_rearm, 1);
			ST(phase, PH_IDLE);
		}
		set_clock(j + 1);
		usleep(us);
		if (j >= 1 + jiffies && !wait_acked(j + 1, us)) {
			stalled = 1;
			break;
		}
	}
	ST(phase, PH_STOP);
	for (unsigned int cpu = 0; cpu < ncpus; cpu++)
		pthread_join(th[cpu], NULL);
	lost = stalled ? 0 : stress_check_lost(j, LOST_SLACK);
	if (lost || stalled)
		dump_state();
	drain(j);
	bad = stress_check_final();
	for (unsigned int cpu = 0; cpu < ncpus; cpu++) {
		ticks += stress_cpus[cpu].ticks;
		idles += stress_cpus[cpu].idles;
		wakes += stress_cpus[cpu].wakes;
		remote += stress_cpus[cpu].handle_remote;
		ipis += host_wake_ipis[cpu];
		timer_get_stats(cpu, &ts);
		pulled += ts.expired_remote;
	}
	printf("stress cpus=%u nodes=%u jiffies=%llu us=%u seed=%llu ticks=%llu idles=%llu idle_wakes=%llu ipis=%llu remote_expiries=%llu handle_remote_calls=%llu lost=%d stalled=%d broken=%d warns=%u\n",
	       ncpus, nodes, (unsigned long long)jiffies, us,
	       (unsigned long long)seed, (unsigned long long)ticks,
	       (unsigned long long)idles, (unsigned long long)wakes,
	       (unsigned long long)ipis, (unsigned long long)pulled,
	       (unsigned long long)remote, lost, stalled, bad, host_warn_hits);
	bad |= stalled;
	printf("tests/host/stress/stress.c:0:%c:stress:cpus%u_nodes%u_seed%llu:0: %s\n",
	       lost || bad || host_warn_hits ? 'F' : 'P', ncpus, nodes,
	       (unsigned long long)seed,
	       stalled ? "a CPU thread stalled, see STALLED above" :
	       lost    ? "timer lost while all CPUs idle, see LOST above" :
	       bad     ? "timer accounting broken, see BROKEN above" :
	       host_warn_hits ? "timer/ warned" :
				"Passed");
	stress_timers_free();
	host_env_free_all();
	free(storage);
	return lost || bad || host_warn_hits ? 1 : 0;
usage:
	fprintf(stderr,
		"usage: tmigr_stress_tsan [--cpus N] [--nodes K] [--jiffies J] [--us U] [--seed S] [--wake one|linux|own]\n");
	return 2;
}

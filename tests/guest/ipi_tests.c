/*
 * IPIs and the AP idle loop: every CPU reaches HLT, runs a function sent
 * to it, answers IPIs from every node to every node, and, with nothing
 * armed, takes no timer wakes.
 */
#include "arch/x86_64/arch.h"
#include "arch/x86_64/irq.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/smp.h"
#include "arch/x86_64/tsc.h"
#include "kernel/idle.h"
#include "kernel/kmem.h"
#include "kernel/ktest.h"
#include "kernel/smp_call.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "kernel/tick.h"
#include "lib/atomic.h"
#include "lib/time.h"

/*
 * How long a test waits for every other CPU to do what it was asked: only
 * a lost IPI or a CPU that never got there takes this long; a vCPU the host
 * does not run for a second (seen under make soak) is still waited for.
 */
#define ALL_CPUS_WAIT_NS (10 * NSEC_PER_SEC)

/*
 * A count per CPU, zeroed.  Not on the stack: the boot CPU's stack is 16 KiB
 * and 8 bytes a CPU would take half of it at 1024 CPUs.  kzalloc() memory
 * is never freed; each suite runs once a boot.
 */
static uint64_t *per_cpu_counts(struct ktest *t)
{
	uint64_t *p = kzalloc(nr_cpus * sizeof(*p));

	if (!p)
		ktest_fail(t, __FILE__, __LINE__, "no memory for %u counts",
			   nr_cpus);
	return p;
}

static const char *needs_two_cpus(void)
{
	return num_online_cpus() < 2 ? "needs 2 CPUs" : 0;
}

static const char *needs_three_cpus(void)
{
	return num_online_cpus() < 3 ? "needs 2 CPUs besides the test runner" :
				       0;
}

static void every_ap_reaches_its_idle_loop(struct ktest *t)
{
	uint64_t t0 = clock_ns();
	unsigned self = smp_processor_id(), missing;

	do {
		missing = 0;
		for (unsigned i = 0; i < nr_cpus; i++)
			if (i != self && cpu_online(i) &&
			    !__atomic_load_n(&per_cpu(i)->idle.entries,
					     __ATOMIC_ACQUIRE))
				missing++;
	} while (missing && clock_ns() - t0 < ALL_CPUS_WAIT_NS);
	KEXPECT_EQ(t, missing, 0);
}

static void record_cpu(void *arg)
{
	*(volatile unsigned *)arg = smp_processor_id();
}

static void call_function_runs_on_the_target_cpu(struct ktest *t)
{
	for (unsigned i = 0; i < nr_cpus; i++) {
		volatile unsigned ran_on = ~0U;

		if (!cpu_online(i))
			continue;
		KEXPECT(t, smp_call_on(i, record_cpu, (void *)&ran_on));
		KEXPECT_EQ(t, ran_on, i);
	}
}

struct ping {
	unsigned to;
	bool ok;
};

static void noop(void *arg)
{
	(void)arg;
}

/* Runs on the pinging CPU: IPI the target and wait for its answer. */
static void ping(void *arg)
{
	struct ping *p = arg;

	p->ok = smp_call_on(p->to, noop, 0);
}

/*
 * The first online CPU of @node other than @not and the CPU running the
 * tests (it is busy here, not in its idle loop, so it cannot be called).
 */
static unsigned first_cpu_on_node(unsigned node, unsigned not )
{
	for (unsigned i = 0; i < nr_cpus; i++)
		if (cpu_online(i) && per_cpu(i)->node == node &&
		    i != not &&i != smp_processor_id())
			return i;
	return ~0U;
}

static void ipi_ping_pong_between_every_pair_of_nodes(struct ktest *t)
{
	unsigned nodes = 0, pairs = 0;

	for (unsigned i = 0; i < nr_cpus; i++)
		if (per_cpu(i)->node + 1 > nodes)
			nodes = per_cpu(i)->node + 1;
	for (unsigned a = 0; a < nodes; a++) {
		for (unsigned b = 0; b < nodes; b++) {
			unsigned from = first_cpu_on_node(a, ~0U);
			unsigned to = first_cpu_on_node(b, from);
			struct ping p = { .to = to };

			if (from == ~0U || to == ~0U)
				continue;
			pairs++;
			if (!smp_call_on(from, ping, &p) || !p.ok)
				ktest_fail(t, __FILE__, __LINE__,
					   "ping CPU %u (node %u) -> CPU %u "
					   "(node %u) failed",
					   from, a, to, b);
		}
	}
	if (needs_three_cpus())
		ktest_skip(t, needs_three_cpus());
	else
		KEXPECT(t, pairs > 0);
}

static uint64_t all_wakes(const struct percpu *p)
{
	return READ_ONCE(p->idle.wakes_timer) + READ_ONCE(p->idle.wakes_ipi) +
	       READ_ONCE(p->idle.wakes_other);
}

/*
 * kernel/idle.h's residency: each HLT stretch counted once, in the bins
 * its length says.  Read on this CPU while it runs, so every stretch
 * counted between the reads began and ended inside the window.
 */
static void idle_residency_counts_each_halt_once(struct ktest *t)
{
	const uint64_t sleep_ns = 30 * NSEC_PER_MSEC;
	struct percpu *p = this_cpu();
	struct idle_residency r0, r1, d = { 0 };
	uint64_t w0, wakes, t0, elapsed, halt_ns = 0, due;

	cpu_idle_residency(smp_processor_id(), &r0);
	w0 = all_wakes(p);
	t0 = clock_ns();
	cpu_idle_sleep_ns(sleep_ns);
	elapsed = clock_ns() - t0;
	cpu_idle_residency(smp_processor_id(), &r1);
	wakes = all_wakes(p) - w0;
	idle_residency_add(&d, &r1, &r0);
	KEXPECT(t, wakes >= 1);
	KEXPECT(t, d.idle_ns <= elapsed);
	KEXPECT(t, d.ge10ms_ns <= d.ge1ms_ns);
	KEXPECT(t, d.ge1ms_ns <= d.idle_ns);
	/*
	 * One wake (the sleeper's timer): one stretch, from the last HLT's
	 * stamp to a wake no earlier than the timer, which the wheel may
	 * round to up to a jiffy before t0 + sleep_ns (and one more for
	 * jiffies read a little behind).  When that HLT began is the host's
	 * to decide (a vCPU it stalls on the way to HLT halts later), so it
	 * is measured and printed, not assumed to be t0.  The stretch falls
	 * whole into each bin it is long enough for.  More wakes (a timer
	 * left by an earlier test, a hierarchy duty) split it: said below.
	 */
	if (wakes == 1) {
		halt_ns = READ_ONCE(p->idle.since);
		due = t0 + sleep_ns - 2 * tick_period_ns();
		KEXPECT(t, halt_ns >= t0);
		KEXPECT(t, d.idle_ns + halt_ns >= due);
		KEXPECT_EQ(t, d.ge10ms_ns,
			   d.idle_ns >= 10 * NSEC_PER_MSEC ? d.idle_ns : 0);
		KEXPECT_EQ(t, d.ge1ms_ns,
			   d.idle_ns >= NSEC_PER_MSEC ? d.idle_ns : 0);
		halt_ns -= t0;
	}
	printk("        # idle_residency: %lu wake(s) in %lu us, halted %lu us "
	       "in, idle %lu us, >=1ms %lu us, >=10ms %lu us\n",
	       wakes, elapsed / NSEC_PER_USEC, halt_ns / NSEC_PER_USEC,
	       d.idle_ns / NSEC_PER_USEC, d.ge1ms_ns / NSEC_PER_USEC,
	       d.ge10ms_ns / NSEC_PER_USEC);
}

/*
 * A CPU that stays halted between two reads: its open stretch counts, so
 * the window shows its idle time, all of it in both bins once the stretch
 * is 10 ms long (it is at least the 20 ms between the reads).  Before the
 * open stretch counted, a CPU that never woke showed no idle time at all.
 *
 * The stretch's start is the halted CPU's clock, "now" the reader's: they
 * agree to within the two CPUs' TSC sync bounds (tsc_sync_ns), which on
 * a loaded host can be milliseconds.  A start that reads as later than
 * the first read counts from 0 there, so the window may show up to that
 * much less than the gap (make soak, nohz-off-smp4: 0.95 ms short, in a
 * boot whose AP syncs were all cut short, round trips up to 8 ms).
 */
static void idle_residency_counts_an_open_stretch(struct ktest *t)
{
	const uint64_t gap_ns = 20 * NSEC_PER_MSEC;
	unsigned self = smp_processor_id();
	struct idle_residency r0, r1, d = { 0 };

	for (unsigned tries = 0; tries < 10; tries++) {
		for (unsigned c = 0; c < nr_cpus; c++) {
			const struct percpu *p = per_cpu(c);
			uint64_t w0, t0, elapsed, skew;

			if (c == self || !cpu_online(c) ||
			    !READ_ONCE(p->idle.halted))
				continue;
			w0 = all_wakes(p);
			t0 = clock_ns();
			cpu_idle_residency(c, &r0);
			delay_ns(gap_ns);
			cpu_idle_residency(c, &r1);
			elapsed = clock_ns() - t0;
			if (all_wakes(p) != w0 || !READ_ONCE(p->idle.halted))
				continue; /* it woke: another CPU, or again */
			idle_residency_add(&d, &r1, &r0);
			skew = READ_ONCE(p->tsc_sync_ns) +
			       READ_ONCE(per_cpu(self)->tsc_sync_ns);
			KEXPECT(t, d.idle_ns + skew >= gap_ns);
			KEXPECT(t, d.idle_ns <= elapsed);
			KEXPECT_EQ(t, d.ge1ms_ns, d.idle_ns);
			KEXPECT_EQ(t, d.ge10ms_ns, d.idle_ns);
			printk("        # open stretch: cpu=%u idle %lu us of %lu "
			       "us, clocks agree to %lu us\n",
			       c, d.idle_ns / NSEC_PER_USEC,
			       elapsed / NSEC_PER_USEC,
			       (unsigned long)(skew / NSEC_PER_USEC));
			return;
		}
	}
	ktest_skip(t, "no CPU stayed halted for 20 ms");
}

static void idle_cpu_with_nothing_armed_takes_no_timer_wake(struct ktest *t)
{
	uint64_t *before;

	if (!tick_nohz_enabled()) {
		ktest_skip(t, "nohz=off: idle CPUs keep their tick");
		return;
	}
	before = per_cpu_counts(t);
	if (!before)
		return;
	for (unsigned i = 0; i < nr_cpus; i++)
		before[i] = per_cpu(i)->idle.wakes_timer;
	delay_ns(50000000ULL);
	for (unsigned i = 0; i < nr_cpus; i++)
		KEXPECT_EQ(t, per_cpu(i)->idle.wakes_timer - before[i], 0);
}

/* One shorthand IPI reaches every other online CPU, and not the sender. */
static void ipi_all_but_self_reaches_every_other_cpu(struct ktest *t)
{
	uint64_t *before = per_cpu_counts(t), t0;
	unsigned self = smp_processor_id(), missing;

	if (!before)
		return;

	for (unsigned i = 0; i < nr_cpus; i++)
		before[i] = READ_ONCE(per_cpu(i)->ipis_received);
	KEXPECT(t, lapic_send_ipi_all_but_self(RESCHEDULE_VECTOR));
	t0 = clock_ns();
	do {
		missing = 0;
		for (unsigned i = 0; i < nr_cpus; i++)
			if (i != self && cpu_online(i) &&
			    READ_ONCE(per_cpu(i)->ipis_received) == before[i])
				missing++;
	} while (missing && clock_ns() - t0 < ALL_CPUS_WAIT_NS);
	KEXPECT_EQ(t, missing, 0);
	KEXPECT_EQ(t, READ_ONCE(per_cpu(self)->ipis_received), before[self]);
}

static void lapic_oneshot_fires_once_as_programmed_on_each_ap(struct ktest *t);
static void lapic_long_oneshot_never_fires_early(struct ktest *t);
static void spinlock_counts_exactly_under_contention(struct ktest *t);

static const struct ktest_case ipi_cases[] = {
	KTEST_CASE(every_ap_reaches_its_idle_loop),
	KTEST_CASE(call_function_runs_on_the_target_cpu),
	KTEST_CASE(ipi_ping_pong_between_every_pair_of_nodes),
	KTEST_CASE(idle_cpu_with_nothing_armed_takes_no_timer_wake),
	KTEST_CASE(idle_residency_counts_each_halt_once),
	KTEST_CASE(idle_residency_counts_an_open_stretch),
	KTEST_CASE(ipi_all_but_self_reaches_every_other_cpu),
	KTEST_CASE(lapic_oneshot_fires_once_as_programmed_on_each_ap),
	KTEST_CASE(lapic_long_oneshot_never_fires_early),
	KTEST_CASE(spinlock_counts_exactly_under_contention),
};
KTEST_SUITE(ipi_suite, .name = "ipi", .cases = ipi_cases,
	    .ncases = sizeof(ipi_cases) / sizeof(ipi_cases[0]),
	    .skip = needs_two_cpus);

/*
 * The LAPIC one-shot timer on every AP: armed from the AP itself for 2 ms,
 * it must fire once, no earlier than asked (one-shots are converted at the
 * top of the calibrated rate's error bound), and wake the AP as a timer
 * wake (or, stalled by the host past the deadline before it halted, come
 * as an interrupt before HLT: kernel/idle.c).
 *
 * How late it fires is the host's: under TCG the interrupt is raised by a
 * QEMU timer and taken when the host runs the vCPU's thread, and with
 * hundreds of vCPUs on two loaded host cores that was 601 ms once (make
 * soak, smp255-5n), past any fixed bound one would pick.  What the kernel
 * decides is what it programmed, so that is what is checked: read back
 * from the LAPIC right after arming (lapic_timer_remaining_ns()), the
 * timer must hold no more than the 2 ms asked (plus the rate's error
 * bound, in which the conversion rounds up), and no less than 2 ms less
 * the time since arming began.  The worst lateness is printed.
 */
#define ONESHOT_NS	 2000000ULL
/* Rounding of the count and the read-back's conversions, ns. */
#define ONESHOT_ROUND_NS 1000ULL

struct oneshot_arm {
	uint64_t armed_ns;     /* clock_ns() before programming */
	uint64_t remaining_ns; /* read back from the LAPIC after */
	uint64_t read_ns;      /* clock_ns() after the read-back */
};

static void arm_oneshot(void *arg)
{
	struct oneshot_arm *a = arg;

	a->armed_ns = clock_ns();
	arch_clockevent_program(ONESHOT_NS);
	a->remaining_ns = lapic_timer_remaining_ns();
	a->read_ns = clock_ns();
}

/* Whether @a shows the LAPIC programmed for ONESHOT_NS, as above. */
static bool oneshot_programmed_right(const struct oneshot_arm *a)
{
	uint64_t ppm = lapic_timer_rate_error_ppm();
	uint64_t most =
		ONESHOT_NS + ONESHOT_NS * 2 * ppm / 1000000 + ONESHOT_ROUND_NS;
	uint64_t since = a->read_ns - a->armed_ns;
	/* The count ran meanwhile at a rate up to ppm off the calibrated. */
	uint64_t drift = since * ppm / 1000000 + ONESHOT_ROUND_NS;

	return a->remaining_ns <= most &&
	       a->remaining_ns + since + drift >= ONESHOT_NS;
}

static void lapic_oneshot_fires_once_as_programmed_on_each_ap(struct ktest *t)
{
	uint64_t worst = 0;
	unsigned worst_cpu = 0;

	/* With the tick running in idle, it owns the LAPIC timer. */
	if (!tick_nohz_enabled()) {
		ktest_skip(t, "nohz=off: the idle tick owns the LAPIC timer");
		return;
	}
	for (unsigned i = 0; i < nr_cpus; i++) {
		struct percpu *p = per_cpu(i);
		struct oneshot_arm a = { 0 };
		uint64_t irqs = p->tick.timer_irqs;
		uint64_t wakes = p->idle.wakes_timer, t0, fired;
		uint64_t before_halt = p->idle.irq_before_halt;

		if (!cpu_online(i) || i == smp_processor_id())
			continue;
		KEXPECT(t, smp_call_on(i, arm_oneshot, &a));
		t0 = clock_ns();
		while (__atomic_load_n(&p->tick.timer_irqs, __ATOMIC_ACQUIRE) ==
			       irqs &&
		       clock_ns() - t0 < ALL_CPUS_WAIT_NS)
			cpu_relax();
		fired = READ_ONCE(p->tick.last_irq_ns);
		KEXPECT_EQ(t, p->tick.timer_irqs, irqs + 1);
		/*
		 * A wake, or, if the host stalled the AP past the deadline
		 * before it halted, an interrupt taken before HLT.
		 */
		KEXPECT_EQ(t,
			   p->idle.wakes_timer - wakes +
				   p->idle.irq_before_halt - before_halt,
			   1);
		if (!oneshot_programmed_right(&a))
			ktest_fail(t, __FILE__, __LINE__,
				   "CPU %u: asked for %lu ns, the LAPIC held "
				   "%lu ns %lu ns after arming began",
				   i, (unsigned long)ONESHOT_NS,
				   (unsigned long)a.remaining_ns,
				   (unsigned long)(a.read_ns - a.armed_ns));
		if (fired < a.armed_ns + ONESHOT_NS)
			ktest_fail(t, __FILE__, __LINE__,
				   "CPU %u: armed for %lu ns, fired after %lu",
				   i, (unsigned long)ONESHOT_NS,
				   (unsigned long)(fired - a.armed_ns));
		else if (fired - a.armed_ns - ONESHOT_NS > worst) {
			worst = fired - a.armed_ns - ONESHOT_NS;
			worst_cpu = i;
		}
	}
	printk("        # lapic_oneshot: 2 ms timer, worst lateness %lu us "
	       "(CPU %u; the host's, see above)\n",
	       (unsigned long)(worst / NSEC_PER_USEC), worst_cpu);
}

/*
 * A long one-shot shows a rate error that a 2 ms one hides: 100 ms at a
 * rate 200 ppm too low fires 20 us early, finds its jiffy not yet begun
 * and costs the CPU a second wake.  Armed on a few APs at once, none may
 * fire before its time; how early is exact (both stamps are clock_ns()),
 * how late is host scheduling and only printed.
 */
#define LONG_ONESHOT_NS	  100000000ULL
#define LONG_ONESHOT_CPUS 4

static void arm_long_oneshot(void *arg)
{
	*(uint64_t *)arg = clock_ns();
	arch_clockevent_program(LONG_ONESHOT_NS);
}

static void lapic_long_oneshot_never_fires_early(struct ktest *t)
{
	uint64_t armed[LONG_ONESHOT_CPUS] = { 0 }, irqs[LONG_ONESHOT_CPUS];
	unsigned cpu[LONG_ONESHOT_CPUS], n = 0;
	uint64_t worst = 0, t0;

	if (!tick_nohz_enabled()) {
		ktest_skip(t, "nohz=off: the idle tick owns the LAPIC timer");
		return;
	}
	for (unsigned i = 0; i < nr_cpus && n < LONG_ONESHOT_CPUS; i++) {
		if (!cpu_online(i) || i == smp_processor_id())
			continue;
		cpu[n] = i;
		irqs[n] = per_cpu(i)->tick.timer_irqs;
		KEXPECT(t, smp_call_on(i, arm_long_oneshot, &armed[n]));
		n++;
	}
	for (unsigned k = 0; k < n; k++) {
		struct percpu *p = per_cpu(cpu[k]);
		uint64_t fired;

		t0 = clock_ns();
		while (__atomic_load_n(&p->tick.timer_irqs, __ATOMIC_ACQUIRE) ==
			       irqs[k] &&
		       clock_ns() - t0 < 2000000000ULL)
			__asm__ volatile("pause");
		fired = p->tick.last_irq_ns;
		KEXPECT_EQ(t, p->tick.timer_irqs, irqs[k] + 1);
		if (fired < armed[k] + LONG_ONESHOT_NS)
			ktest_fail(
				t, __FILE__, __LINE__,
				"CPU %u: armed for %lu ns, fired %lu ns early "
				"(lapic_timer_khz=%lu err_ppm=%lu)",
				cpu[k], (unsigned long)LONG_ONESHOT_NS,
				(unsigned long)(armed[k] + LONG_ONESHOT_NS -
						fired),
				(unsigned long)(lapic_timer_rate() / 1000),
				(unsigned long)lapic_timer_rate_error_ppm());
		else if (fired - armed[k] - LONG_ONESHOT_NS > worst)
			worst = fired - armed[k] - LONG_ONESHOT_NS;
	}
	printk("        # lapic_long_oneshot: %u CPUs, 100 ms timer, worst "
	       "lateness %lu us, err_ppm=%lu\n",
	       n, worst / 1000, (unsigned long)lapic_timer_rate_error_ppm());
}

/*
 * Up to LOCK_CPUS APs and the test CPU increment one counter under the
 * ticket lock at the same time (released together by a start flag): the
 * total must be exact.  Bounded to a few CPUs because a ticket lock hands
 * over strictly in order: with hundreds of vCPUs on two host cores every
 * hand-over waits for the host to schedule one particular vCPU (a few ms
 * each under TCG on a loaded host), hence also the long wait bound.
 */
#define LOCK_ROUNDS  200
#define LOCK_CPUS    3
#define LOCK_WAIT_NS 60000000000ULL

static spinlock_t test_lock = SPINLOCK_INIT;
static volatile uint64_t locked_counter;
static volatile bool lock_go;

static void hammer_lock(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&lock_go, __ATOMIC_ACQUIRE))
		cpu_relax();
	for (int i = 0; i < LOCK_ROUNDS; i++) {
		spin_lock(&test_lock);
		locked_counter = locked_counter + 1;
		spin_unlock(&test_lock);
	}
}

static void spinlock_counts_exactly_under_contention(struct ktest *t)
{
	unsigned started = 0, cpus[LOCK_CPUS];

	locked_counter = 0;
	lock_go = false;

	for (unsigned i = 0; i < nr_cpus && started < LOCK_CPUS; i++)
		if (cpu_online(i) && i != smp_processor_id() &&
		    smp_call_async(i, hammer_lock, 0))
			cpus[started++] = i;
	__atomic_store_n(&lock_go, true, __ATOMIC_RELEASE);
	hammer_lock(0);
	for (unsigned i = 0; i < started; i++) {
		uint64_t t0 = clock_ns();

		while (!__atomic_load_n(&per_cpu(cpus[i])->call.done,
					__ATOMIC_ACQUIRE) &&
		       clock_ns() - t0 < LOCK_WAIT_NS)
			cpu_relax();
		KEXPECT(t, per_cpu(cpus[i])->call.done);
	}
	KEXPECT_EQ(t, locked_counter, (uint64_t)(started + 1) * LOCK_ROUNDS);
}

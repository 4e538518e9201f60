/*
 * kernel/watchdog.c - the checks (kernel/watchdog.h); the dump is in
 * watchdog_dump.c.
 *
 * The scan runs in the tick, at most once a second system-wide: the CPU
 * whose tick first sees next_check_ns pass claims the scan with a cmpxchg,
 * so the other ticks pay one load.  Everything it reads is read without a
 * lock, since the CPU it is looking for may be stuck holding one.
 */
#include "kernel/watchdog_internal.h"
#include "arch/x86_64/arch.h"
#include "kernel/kmem.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/tick.h"
#include "lib/atomic.h"
#include "lib/time.h"
#include "timer/timer.h"
#include "timer/timer_migration.h"
#include "timer/timer_peek.h"

#define CHECK_EVERY_NS NSEC_PER_SEC

struct wd_cpu *wd_cpus;
uint64_t wd_stall_ns;
struct wd_stage wd_stage;

static uint64_t next_check_ns;
static uint64_t last_dump_ns;
static unsigned int dumps;
static bool dumping;

void watchdog_init(unsigned int seconds)
{
	if (!seconds)
		return;
	wd_cpus = kzalloc(nr_cpus * sizeof(*wd_cpus));
	if (!wd_cpus) {
		printk("# watchdog off: no memory for %u CPUs\n", nr_cpus);
		return;
	}
	wd_stall_ns = seconds * NSEC_PER_SEC;
	WRITE_ONCE(next_check_ns, clock_ns() + CHECK_EVERY_NS);
	printk("# watchdog stall_s=%u\n", seconds);
}

static struct wd_cpu *my_slot(void)
{
	struct wd_cpu *w = READ_ONCE(wd_cpus);

	return w ? &w[smp_processor_id()] : 0;
}

void watchdog_wait_begin(struct watchdog_wait *saved, const char *what,
			 const void *arg)
{
	struct wd_cpu *w = my_slot();

	if (!w)
		return;
	*saved = w->wait;
	WRITE_ONCE(w->wait.since, clock_ns());
	WRITE_ONCE(w->wait.arg, arg);
	WRITE_ONCE(w->wait.what, what);
}

void watchdog_wait_end(const struct watchdog_wait *saved)
{
	struct wd_cpu *w = my_slot();

	if (!w)
		return;
	WRITE_ONCE(w->wait.what, saved->what);
	WRITE_ONCE(w->wait.arg, saved->arg);
	WRITE_ONCE(w->wait.since, saved->since);
}

void watchdog_stage(const char *what, const char *detail, uint64_t expect_ms)
{
	WRITE_ONCE(wd_stage.what, 0); /* a reader sees old or new, whole */
	wd_stage.detail = detail;
	wd_stage.since_ns = clock_ns();
	wd_stage.expect_ns = expect_ms * NSEC_PER_MSEC;
	smp_store_release(&wd_stage.what, what);
}

bool watchdog_nmi(const struct trap_frame *f)
{
	struct wd_cpu *w = my_slot();
	uint32_t req;

	if (!w)
		return false;
	req = smp_load_acquire(&w->nmi_req);
	if (req == READ_ONCE(w->nmi_seq))
		return false; /* not ours: the caller's panic */
	w->rip = f->rip;
	w->rsp = f->rsp;
	w->rbp = f->rbp;
	w->rflags = f->rflags;
	smp_store_release(&w->nmi_seq, req);
	return true;
}

static uint64_t ms(uint64_t ns)
{
	return ns / NSEC_PER_MSEC;
}

/*
 * Its LAPIC timer was due more than N ago and has not interrupted it
 * since: interrupts off all that time, or a lost timer event.
 */
static bool no_timer_irq(const struct percpu *p, uint64_t now, bool print)
{
	uint64_t armed = READ_ONCE(p->tick.next_ns);
	uint64_t last = READ_ONCE(p->tick.last_irq_ns);

	if (armed == TMIGR_NONE_NS || now < armed + wd_stall_ns ||
	    now < last + wd_stall_ns)
		return false;
	if (print)
		printk("# watchdog stall cpu=%u kind=no_timer_irq armed_ms_ago=%lu "
		       "last_timer_irq_ms_ago=%lu\n",
		       p->cpu, ms(now - armed), ms(now - last));
	return true;
}

static bool waits_too_long(unsigned int cpu, uint64_t now, bool print)
{
	const struct wd_cpu *w = &wd_cpus[cpu];
	const char *what = READ_ONCE(w->wait.what);
	uint64_t since = READ_ONCE(w->wait.since);

	if (!what || now < since + wd_stall_ns)
		return false;
	if (print)
		printk("# watchdog stall cpu=%u kind=wait wait=%s for_ms=%lu\n",
		       cpu, what, ms(now - since));
	return true;
}

/* A local or global timer whose jiffy passed N s ago (not deferrable). */
static bool overdue(unsigned int cpu, uint64_t jnow, bool print)
{
	uint64_t late_j = wd_stall_ns / tick_period_ns();
	bool found = false;

	for (unsigned int b = TIMER_PEEK_LOCAL; b <= TIMER_PEEK_GLOBAL; b++) {
		struct timer_base_peek v;

		if (!timer_base_peek(cpu, b, &v) || !v.pending || v.recalc ||
		    v.offline || v.expiry_active ||
		    !timer_after(jnow, v.next_expiry + late_j))
			continue;
		found = true;
		if (print)
			printk("# watchdog stall cpu=%u kind=overdue base=%s "
			       "due_jiffies_ago=%lu\n",
			       cpu, timer_peek_base_name(b),
			       jnow - v.next_expiry);
	}
	return found;
}

static bool stage_overrun(uint64_t now, bool print)
{
	const char *what = smp_load_acquire(&wd_stage.what);
	uint64_t end = wd_stage.since_ns + wd_stage.expect_ns;

	if (!what || !wd_stage.expect_ns || now < end + wd_stall_ns)
		return false;
	if (print)
		printk("# watchdog stall kind=stage stage=%s/%s expected_ms=%lu "
		       "running_ms=%lu\n",
		       what, wd_stage.detail ? wd_stage.detail : "-",
		       ms(wd_stage.expect_ns), ms(now - wd_stage.since_ns));
	return true;
}

unsigned int wd_scan(uint64_t now, bool print)
{
	uint64_t jnow = tick_update_jiffies();
	unsigned int n = stage_overrun(now, print);

	for (unsigned int c = 0; c < nr_cpus; c++) {
		const struct percpu *p = per_cpu(c);

		if (!cpu_online(c) || READ_ONCE(p->hp.offline))
			continue;
		n += no_timer_irq(p, now, print);
		n += waits_too_long(c, now, print);
		n += overdue(c, jnow, print);
	}
	return n;
}

void watchdog_tick(const struct trap_frame *f)
{
	uint64_t now, due = READ_ONCE(next_check_ns);

	if (!wd_cpus || READ_ONCE(dumps) >= WATCHDOG_MAX_DUMPS)
		return;
	now = clock_ns();
	if (now < due ||
	    !try_cmpxchg(&next_check_ns, &due, now + CHECK_EVERY_NS))
		return;
	/* A dump outlasts a check period: one CPU dumps at a time. */
	if (!wd_scan(now, false) || atomic_xchg(&dumping, true))
		return;
	if (!dumps || now >= last_dump_ns + wd_stall_ns) {
		WRITE_ONCE(dumps, dumps + 1);
		watchdog_dump("stall", f);
		last_dump_ns = clock_ns();
	}
	smp_store_release(&dumping, false);
}

/*
 * AP bring-up (SDM vol. 3A 9.4.4), as Linux 6.5 does it.  The boot CPU
 * gives every AP its own boot data before any SIPI: a slot, found by the
 * AP's APIC ID in the trampoline (boot/trampoline.S), naming its stack and
 * its struct ap_boot.  So no AP can run on another's data, however late it
 * answers.  Then either
 *
 *  - parallel (default): INIT-SIPI-SIPI to every AP without waiting, then,
 *    AP by AP, wait for it to report in and measure its TSC offset; or
 *  - serial (cpuhp.parallel=0): kick one AP, wait for it, sync, the next.
 *
 * Both paths wait the same time after INIT (init_delay.h).  An AP that
 * does not report in, while for AP_ONLINE_WAIT_NS no AP does, is put back
 * into INIT (it waits for a SIPI no one sends) and left out; its slot is
 * marked so that it halts in the trampoline if it gets that far before
 * the INIT lands.
 */
#include "arch/x86_64/smp.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/init_delay.h"
#include "arch/x86_64/irq.h"
#include "kernel/idle.h"
#include "kernel/kmem.h"
#include "kernel/percpu.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/trap.h"
#include "arch/x86_64/tsc.h"
#include "kernel/mm.h"
#include "kernel/panic.h"
#include "kernel/pmm.h"
#include "kernel/printk.h"
#include "kernel/topology.h"
#include "lib/atomic.h"
#include "lib/string.h"
#include "lib/time.h"

#define AP_TRAMPOLINE_PHYS 0x8000
#define AP_STACK_PAGES	   4
/*
 * How long no AP may report in before a missing one is given up on: 10 s,
 * as Linux's boot CPU waits for an AP to come alive.  1 s was too short
 * for a loaded host: under make soak (300 CPUs, four hogs on two host
 * cores) no AP at all reported in for 1 s after the kick, and CPU 1 was
 * left out.  An AP never gives a late answer any harm (its slot is its
 * own), so the wait costs only time, and only when an AP is really lost.
 */
#define AP_ONLINE_WAIT_NS  (10 * NSEC_PER_SEC)
/* How long a reported-in AP spins for its turn before it halts. */
#define AP_SPIN_MS	   2

extern const char ap_trampoline_start[], ap_trampoline_end[];
extern const char ap_trampoline_params[];

struct tramp_params {
	uint64_t cr3, slots, nslots, entry;
};

/* Slot states; the trampoline moves KICKED to CLAIMED with a cmpxchg. */
enum { SLOT_EMPTY, SLOT_KICKED, SLOT_CLAIMED, SLOT_ABANDONED };

/* What the trampoline reads: its layout is fixed in boot/trampoline.S. */
struct ap_slot {
	uint32_t apic_id;
	uint32_t state;
	uint64_t stack; /* top of the AP's stack */
	uint64_t arg;	/* its struct ap_boot */
};
_Static_assert(sizeof(struct ap_slot) == 24, "trampoline.S: SLOT_SIZE");

/* One per AP, allocated before any AP starts. */
struct ap_boot {
	struct ist_stack ist[IST_COUNT];
	struct cpu_desc desc;
	struct tsc_sync sync;
	unsigned idx;
	uint64_t kick_ns, online_ns; /* SIPI sent; reported in (BSP clock) */
	bool turn;		     /* the boot CPU is ready to sync this AP */
	bool halting;	 /* the AP stopped spinning: wake it with an IPI */
	bool spin_first; /* serial bring-up: the boot CPU comes at once */
	bool woken;	 /* the boot CPU sent the wake IPI */
	uint8_t awake;	 /* the AP saw its turn and waits in tsc_sync_ap() */
	bool synced;	 /* its offset is stored: it may read the clock */
	uint64_t report_delay; /* ap_report_delay_test=, TSC ticks */
};

/* [acpi_topo.ncpus], allocated by smp_boot_aps(); NULL before it. */
uint8_t *cpu_online_map;

/* APs that reported in so far: the boot CPU's measure of progress. */
static unsigned aps_reported;

struct bringup {
	struct ap_slot *slots; /* [acpi_topo.ncpus] */
	unsigned init_udelay;
	unsigned late_test;	  /* ap_late_test=: given up on at once */
	uint64_t sync_stall;	  /* tsc_sync_stall_test=, in TSC ticks */
	unsigned report_delay_ms; /* ap_report_delay_test= */
	unsigned left_out;
	uint64_t report_ns, sync_ns; /* sums over the APs */
	uint64_t sync_worst_rtt;     /* longest kept TSC sync round trip */
	unsigned sync_worst_cpu;     /* and its AP, for # tsc_sync */
	unsigned sync_rounds_max;    /* most rounds one AP took */
	unsigned sync_cut_short;     /* APs whose sync the budget ended */
};

unsigned num_online_cpus(void)
{
	unsigned n = 0;

	for (unsigned i = 0; i < acpi_topo.ncpus; i++)
		n += cpu_online(i);
	return n;
}

/*
 * Wait for the boot CPU to get to us.  Serial bring-up comes at once, so
 * spin for AP_SPIN_MS first (a wake-up costs a host thread switch under
 * TCG); parallel bring-up halts at once: a thousand APs wait, and under
 * TCG a spinning one takes a host CPU from the boot CPU still kicking.
 * "halting" and "turn" are a Dekker pair (store, full barrier, load on
 * both sides): either we see turn, or the boot CPU sees halting and sends
 * the IPI.  STI's
 * one-instruction shadow makes "sti; hlt" atomic, so the IPI cannot slip
 * in between.
 */
static void wait_turn(struct ap_boot *b)
{
	uint64_t t0 = rdtsc();
	uint64_t spin = b->spin_first ? tsc_hz() / 1000 * AP_SPIN_MS : 0;

	while (rdtsc() - t0 < spin)
		if (smp_load_acquire(&b->turn))
			return;
	WRITE_ONCE(b->halting, true);
	smp_mb();
	while (!smp_load_acquire(&b->turn))
		__asm__ volatile("sti; hlt; cli" ::: "memory");
}

static __attribute__((noreturn)) void ap_entry_c(struct ap_boot *b)
{
	gdt_init_cpu(&b->desc, b->ist);
	idt_load();
	percpu_install(b->idx);
	lapic_enable();
	/* Our clock is not synced yet: the raw TSC counts the delay. */
	for (uint64_t t0 = rdtsc(); rdtsc() - t0 < b->report_delay;)
		cpu_relax();
	this_cpu()->hp.booted = true;
	set_cpu_online(b->idx, true);
	atomic_fetch_add(&aps_reported, 1);
	wait_turn(b);
	smp_store_release(&b->awake, 1);
	tsc_sync_ap(&b->sync);
	/* The boot CPU stores our offset before it lets anyone call us. */
	while (!smp_load_acquire(&b->synced))
		cpu_relax();
	cpu_startup_entry();
}

static void *alloc_pages(uint64_t n)
{
	uint64_t pa = pmm_alloc_contig(n);

	return pa ? phys_to_virt(pa) : 0;
}

/* Boot data for MADT CPU @i; false (slot left EMPTY) without memory. */
static bool prepare_slot(const struct bringup *u, struct ap_slot *s, unsigned i,
			 bool parallel)
{
	uint64_t pages = (sizeof(struct ap_boot) + PAGE_SIZE - 1) / PAGE_SIZE;
	struct ap_boot *b = alloc_pages(pages);
	char *stack = alloc_pages(AP_STACK_PAGES);

	if (!b || !stack) {
		printk("smp: out of memory for CPU %u, left out\n", i);
		return false;
	}
	memset(b, 0, sizeof(*b));
	b->idx = i;
	b->spin_first = !parallel;
	b->sync.ap_stall_ticks = u->sync_stall;
	/* Later the lower the index: the boot CPU waits for the latest first. */
	b->report_delay =
		ns_to_tsc_ticks((uint64_t)u->report_delay_ms *
				(acpi_topo.ncpus - i) * NSEC_PER_MSEC);
	s->stack = (uint64_t)(stack + AP_STACK_PAGES * PAGE_SIZE);
	s->arg = (uint64_t)b;
	/* Published by the fence before the SIPI (send_ipi_raw). */
	s->state = SLOT_KICKED;
	return true;
}

static bool kick(struct bringup *u, unsigned i)
{
	struct ap_boot *b = (struct ap_boot *)u->slots[i].arg;

	b->kick_ns = clock_ns();
	if (lapic_start_ap(u->slots[i].apic_id, AP_TRAMPOLINE_PHYS,
			   u->init_udelay))
		return true;
	printk("smp: CPU %u (apic %u): IPI not delivered\n", i,
	       u->slots[i].apic_id);
	u->slots[i].state = SLOT_ABANDONED;
	return false;
}

/* Spin until @flag is set, at most AP_ONLINE_WAIT_NS; false on timeout. */
static bool wait_set(const uint8_t *flag)
{
	uint64_t t0 = clock_ns();

	while (!smp_load_acquire(flag)) {
		if (clock_ns() - t0 > AP_ONLINE_WAIT_NS)
			return false;
		cpu_relax();
	}
	return true;
}

/*
 * Wait for AP @i to report in.  Parallel bring-up starts every AP at once,
 * and under TCG a thousand vCPU threads then share the host's cores: an
 * AP may report in seconds after its SIPI while the others still come
 * (1024 CPUs on 2 host cores: 3.8 s after the SIPI on average, and a
 * 1 s wait from the boot CPU's first look left one out).  So an AP is
 * given up on only once AP_ONLINE_WAIT_NS pass in which no AP reported in:
 * at most one such wait per AP, however slow the host.
 */
static bool wait_report_in(unsigned i)
{
	unsigned seen = READ_ONCE(aps_reported), now;
	uint64_t t0 = clock_ns();

	while (!smp_load_acquire(&cpu_online_map[i])) {
		now = READ_ONCE(aps_reported);
		if (now != seen) {
			seen = now;
			t0 = clock_ns();
		} else if (clock_ns() - t0 > AP_ONLINE_WAIT_NS) {
			return false;
		}
		cpu_relax();
	}
	return true;
}

/*
 * The AP missed its deadline: a late one must not start (ABANDONED stops
 * it in the trampoline), and one already running is stopped by INIT.
 */
static void give_up(struct bringup *u, unsigned i, const char *what)
{
	struct ap_slot *s = &u->slots[i];
	uint32_t kicked = SLOT_KICKED;

	try_cmpxchg(&s->state, &kicked, SLOT_ABANDONED);
	lapic_send_init(s->apic_id);
	delay_ns(NSEC_PER_MSEC); /* let the INIT land before we forget it */
	per_cpu(i)->hp.booted = false;
	set_cpu_online(i, false);
	u->left_out++;
	printk("smp: CPU %u (apic %u) %s, put back into INIT and left out\n", i,
	       s->apic_id, what);
}

/*
 * Tell AP @i it is its turn; true if it had halted, and was sent the IPI
 * that wakes it.  Idempotent: the parallel path wakes the next AP ahead,
 * so that its wake-up overlaps this AP's sync.
 */
static bool wake(struct bringup *u, unsigned i)
{
	struct ap_boot *b = (struct ap_boot *)u->slots[i].arg;

	smp_store_release(&b->turn, true);
	smp_mb();
	if (!READ_ONCE(b->halting))
		return false;
	if (!atomic_xchg(&b->woken, true))
		lapic_send_ipi(u->slots[i].apic_id, RESCHEDULE_VECTOR);
	return true;
}

/* Wait for AP @i to report in, then sync its TSC and let it go on. */
static void finish(struct bringup *u, unsigned i)
{
	struct ap_boot *b = (struct ap_boot *)u->slots[i].arg;
	struct tsc_sync_result res;

	if (i == u->late_test || !wait_report_in(i))
		return give_up(u, i, "did not report in");
	b->online_ns = clock_ns();
	u->report_ns += b->online_ns - b->kick_ns;
	/* A halted AP: wake it first, so that the sync's round trip does
	 * not include its wake-up.  A spinning one goes straight on. */
	if (wake(u, i)) {
		if (!wait_set(&b->awake))
			return give_up(u, i, "did not wake for its TSC sync");
	}
	per_cpu(i)->tsc_offset = (uint64_t)tsc_sync_bsp(&b->sync, &res);
	per_cpu(i)->tsc_sync_ns = tsc_to_ns(res.rtt) / 2 + 1;
	if (res.rtt > u->sync_worst_rtt) {
		u->sync_worst_rtt = res.rtt;
		u->sync_worst_cpu = i;
	}
	if (res.rounds > u->sync_rounds_max)
		u->sync_rounds_max = res.rounds;
	u->sync_cut_short += res.cut_short;
	smp_store_release(&b->synced, true);
	u->sync_ns += clock_ns() - b->online_ns;
}

static unsigned init_udelay(unsigned asked)
{
	uint32_t a, b, c, d;
	char vendor[12];

	cpuid(0, 0, &a, &b, &c, &d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	cpuid(1, 0, &a, &b, &c, &d);
	return init_udelay_for(vendor, a, asked);
}

/* The trampoline below 1 MiB, its parameters, and the online map. */
static struct bringup setup(void)
{
	size_t len = (size_t)(ap_trampoline_end - ap_trampoline_start);
	struct tramp_params *p =
		phys_to_virt(AP_TRAMPOLINE_PHYS +
			     (ap_trampoline_params - ap_trampoline_start));
	/* At least one byte: the boot CPU is online even with no MADT CPU. */
	uint8_t *online = kzalloc(acpi_topo.ncpus + 1);
	struct bringup u = { 0 };

	u.slots = kzalloc((acpi_topo.ncpus + 1) * sizeof(*u.slots));
	if (!online || !u.slots)
		panic("smp: no memory for the boot data of %u CPUs",
		      acpi_topo.ncpus);
	cpu_online_map = online;
	memcpy(phys_to_virt(AP_TRAMPOLINE_PHYS), ap_trampoline_start, len);
	if (paging_map_low_exec(AP_TRAMPOLINE_PHYS))
		printk("smp: cannot map the trampoline\n");
	p->cr3 = read_cr3();
	p->slots = (uint64_t)u.slots;
	p->nslots = acpi_topo.ncpus;
	p->entry = (uint64_t)ap_entry_c;
	for (unsigned i = 0; i < acpi_topo.ncpus; i++)
		u.slots[i].apic_id = acpi_topo.cpus[i].apic_id;
	return u;
}

/* Kicked, and not given up on: the parallel path still has to finish it. */
static bool pending(const struct bringup *u, unsigned i)
{
	uint32_t st = smp_load_acquire(&u->slots[i].state);

	return st == SLOT_KICKED || st == SLOT_CLAIMED;
}

/* Which MADT CPUs get started: not us, and only ones an IPI can name. */
static bool startable(unsigned i, uint32_t self)
{
	uint32_t id = acpi_topo.cpus[i].apic_id;

	if (id == self) {
		per_cpu(i)->hp.booted = true;
		set_cpu_online(i, true);
		return false;
	}
	if (!lapic_id_reachable(id)) {
		printk("smp: CPU %u (apic %u) cannot be addressed in %s mode, "
		       "left out\n",
		       i, id, lapic_mode_name());
		return false;
	}
	return true;
}

unsigned smp_boot_aps(const struct smp_boot_args *args)
{
	bool parallel = args->parallel;
	uint32_t self = lapic_id();
	struct bringup u = setup();
	uint64_t t0 = clock_ns(), t_alloc, t_kick;
	unsigned n = acpi_topo.ncpus;

	u.init_udelay = init_udelay(args->init_udelay);
	u.late_test = args->late_test;
	u.report_delay_ms = args->report_delay_ms;
	u.sync_stall =
		ns_to_tsc_ticks((uint64_t)args->sync_stall_us * NSEC_PER_USEC);
	for (unsigned i = 0; i < n; i++)
		if (startable(i, self) &&
		    !prepare_slot(&u, &u.slots[i], i, parallel))
			u.left_out++;
	t_alloc = clock_ns();
	for (unsigned i = 0; i < n; i++) {
		if (u.slots[i].state != SLOT_KICKED)
			continue;
		if (!kick(&u, i))
			u.left_out++;
		else if (!parallel)
			finish(&u, i);
	}
	t_kick = clock_ns();
	for (unsigned i = 0, next; parallel && i < n; i = next) {
		for (next = i + 1; next < n && !pending(&u, next); next++)
			;
		if (next < n && cpu_online(next) && next != u.late_test)
			wake(&u, next);
		if (pending(&u, i))
			finish(&u, i);
	}
	printk("# smp cpus_online=%u cpus_present=%u apic=%s left_out=%u "
	       "bringup=%s init_udelay_us=%u\n",
	       num_online_cpus(), n, lapic_mode_name(), u.left_out,
	       parallel ? "parallel" : "serial", u.init_udelay);
	printk("# smp_time total_us=%lu setup_us=%lu kick_us=%lu "
	       "report_in_us=%lu sync_us=%lu\n",
	       (clock_ns() - t0) / NSEC_PER_USEC,
	       (t_alloc - t0) / NSEC_PER_USEC,
	       (t_kick - t_alloc) / NSEC_PER_USEC, u.report_ns / NSEC_PER_USEC,
	       u.sync_ns / NSEC_PER_USEC);
	printk("# tsc_sync max_rounds=%u worst_rtt_ns=%lu cpu=%u "
	       "rounds_max=%u budget_us=%lu cut_short=%u\n",
	       (unsigned)TSC_SYNC_MAX_ROUNDS,
	       (unsigned long)tsc_to_ns(u.sync_worst_rtt), u.sync_worst_cpu,
	       u.sync_rounds_max,
	       (unsigned long)(TSC_SYNC_BUDGET_NS / NSEC_PER_USEC),
	       u.sync_cut_short);
	return num_online_cpus();
}

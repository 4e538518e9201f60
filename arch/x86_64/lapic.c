/*
 * Local APIC, in one of two modes chosen once on the boot CPU by
 * lapic_init() and entered by every CPU before it touches its LAPIC:
 *
 *  - xAPIC: 32-bit registers at 16-byte strides in the 4 KiB MMIO page
 *    named by the MADT (SDM vol. 3A table 11-1), reached through the
 *    uncached direct map; 8-bit APIC ids, so at most 255 CPUs.
 *  - x2APIC (SDM vol. 3A 11.12), whenever CPUID.01H:ECX[21] says the CPU
 *    has it: the same registers as MSRs 0x800 + offset / 16, a 32-bit id
 *    in MSR 0x802 and one 64-bit ICR (MSR 0x830) with the destination in
 *    bits 63:32.  This is what lets QEMU >= 9 boot more than 255 CPUs.
 *
 * Register offsets below are the xAPIC MMIO ones; lapic_read/lapic_write
 * turn them into MSR numbers in x2APIC mode.  The kernel programs no
 * IOAPIC, so x2APIC needs no interrupt remapping here.
 */
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/irq.h"
#include "arch/x86_64/tsc.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "kernel/mm.h"
#include "kernel/percpu.h"
#include "kernel/spinlock.h"
#include "kernel/trace.h"
#include "lib/time.h"

#define LAPIC_ID	0x020
#define LAPIC_SVR	0x0F0
#define LAPIC_EOI	0x0B0
#define LAPIC_ESR	0x280
#define LAPIC_ICR_LO	0x300
#define LAPIC_ICR_HI	0x310
#define LAPIC_LVT_TIMER 0x320
#define LAPIC_TMR_INIT	0x380
#define LAPIC_TMR_CUR	0x390
#define LAPIC_TMR_DIV	0x3E0
#define LAPIC_IRR	0x200 /* 8 registers, 0x10 apart, 32 vectors each */
#define LVT_MASKED	(1U << 16)
#define TMR_DIV_1	0xB /* divide configuration 1011b: divide by 1 */
#define TMR_CALIB_NS	10000000ULL
#define SVR_ENABLE	(1U << 8)
#define ICR_INIT	(5U << 8)
#define ICR_STARTUP	(6U << 8)
#define ICR_NMI		(4U << 8) /* delivery mode NMI; vector ignored */
#define ICR_ASSERT	(1U << 14)
#define ICR_LEVEL	(1U << 15)
/* Delivery status: set while the IPI is still pending (SDM 11.6.1). */
#define ICR_BUSY	(1U << 12)
#define ICR_WAIT_NS	10000000ULL

#define LVT_TSC_DEADLINE	(2U << 17) /* timer mode field, bits 18:17 */
#define MSR_IA32_TSC_DEADLINE	0x6E0
#define CPUID1_ECX_TSC_DEADLINE (1U << 24)
#define ICR_ALL_BUT_SELF	(3U << 18) /* destination shorthand */

#define MSR_IA32_APIC_BASE 0x1B
#define APIC_BASE_EXTD	   (1ULL << 10) /* x2APIC mode */
#define APIC_BASE_EN	   (1ULL << 11) /* APIC globally enabled */
#define CPUID1_ECX_X2APIC  (1U << 21)
#define X2APIC_MSR(reg)	   (0x800U + ((reg) >> 4))
#define X2APIC_ICR	   X2APIC_MSR(LAPIC_ICR_LO) /* 0x830, 64-bit */
/* xAPIC physical destinations are 8 bits, and 0xFF is the broadcast. */
#define XAPIC_MAX_ID	   0xFEU
#define X2APIC_BROADCAST   0xFFFFFFFFU

static volatile uint32_t *lapic;
/* Set once by lapic_init() on the boot CPU, before any AP starts. */
static bool x2apic;
static bool use_deadline;
static uint64_t lapic_timer_hz, lapic_timer_err_ppm;
/*
 * ticks = (ns * tick_mult) >> 32, tick_mult from the rate's upper bound;
 * the rate is below 4 GHz, so this fits.
 */
static uint64_t tick_mult;

/* Not for the ICR, which is one 64-bit MSR in x2APIC mode (send_ipi_raw). */
static uint32_t lapic_read(unsigned reg)
{
	if (x2apic)
		return (uint32_t)rdmsr(X2APIC_MSR(reg));
	return lapic[reg / 4];
}

static void lapic_write(unsigned reg, uint32_t v)
{
	if (x2apic) {
		wrmsr(X2APIC_MSR(reg), v);
		return;
	}
	lapic[reg / 4] = v;
}

bool lapic_has_x2apic(void)
{
	struct cpuid_leaf l;

	return kernel_cpuid(1, 0, &l, 0) && (l.ecx & CPUID1_ECX_X2APIC);
}

/*
 * Put this CPU's LAPIC in x2APIC mode unless it is there already: the
 * firmware may have left it so, and an INIT keeps x2APIC mode (SDM vol. 3A
 * 11.12.5.1).  EN goes on first: EXTD without EN is the invalid state, and
 * a WRMSR into it faults.
 */
static void x2apic_enter(void)
{
	uint64_t base = rdmsr(MSR_IA32_APIC_BASE);

	if ((base & (APIC_BASE_EN | APIC_BASE_EXTD)) ==
	    (APIC_BASE_EN | APIC_BASE_EXTD))
		return;
	if (!(base & APIC_BASE_EN)) {
		base |= APIC_BASE_EN;
		wrmsr(MSR_IA32_APIC_BASE, base);
	}
	wrmsr(MSR_IA32_APIC_BASE, base | APIC_BASE_EXTD);
}

/*
 * x2APIC whenever the CPU has it (as Linux does), or when the firmware
 * handed over in x2APIC mode, where the MMIO page no longer answers; else
 * xAPIC.  The boot CPU enters the mode here, before lapic_id() is read.
 */
void lapic_init(uint64_t phys)
{
	lapic = phys_to_virt(phys);
	x2apic = lapic_has_x2apic() ||
		 (rdmsr(MSR_IA32_APIC_BASE) & APIC_BASE_EXTD);
	if (x2apic)
		x2apic_enter();
}

bool lapic_x2apic_mode(void)
{
	return x2apic;
}

const char *lapic_mode_name(void)
{
	return x2apic ? "x2apic" : "xapic";
}

bool lapic_id_reachable(uint32_t apic_id)
{
	return x2apic ? apic_id != X2APIC_BROADCAST : apic_id <= XAPIC_MAX_ID;
}

/* On an AP this is its first LAPIC access: enter the boot CPU's mode first. */
void lapic_enable(void)
{
	if (x2apic)
		x2apic_enter();
	lapic_write(LAPIC_SVR, SVR_ENABLE | LAPIC_SPURIOUS_VECTOR);
}

uint32_t lapic_id(void)
{
	/* x2APIC: all 32 bits (SDM 11.12.5.1); xAPIC: bits 31:24. */
	return x2apic ? lapic_read(LAPIC_ID) : lapic_read(LAPIC_ID) >> 24;
}

/*
 * Wait, bounded, for the previous IPI to leave the ICR.  xAPIC only: the
 * x2APIC ICR has no delivery-status bit (SDM 11.12.9).
 */
static bool icr_wait(void)
{
	uint64_t t0 = clock_ns();

	while (lapic_read(LAPIC_ICR_LO) & ICR_BUSY)
		if (clock_ns() - t0 > ICR_WAIT_NS)
			return false;
	return true;
}

/*
 * Interrupts off across the two ICR writes: an interrupt handler that sends
 * an IPI between them (a timer callback waking a remote CPU) would leave
 * its destination in ICR_HI for our ICR_LO write.
 */
static bool send_ipi_raw(uint32_t apic_id, uint32_t lo)
{
	unsigned long flags;
	bool ok;

	if (x2apic) {
		/*
		 * One WRMSR sends it, so no interrupt can split it.  WRMSR to
		 * an x2APIC register is not serialising (SDM 11.12.3): the
		 * fence makes the stores the target will look at (a call
		 * request, a queued timer) visible before the IPI.
		 */
		__asm__ volatile("mfence; lfence" ::: "memory");
		wrmsr(X2APIC_ICR, (uint64_t)apic_id << 32 | lo);
		return true;
	}
	/* The shorthands ignore the destination, which is 0 for them. */
	if (apic_id > XAPIC_MAX_ID)
		return false;
	flags = local_irq_save();
	ok = icr_wait();

	if (ok) {
		lapic_write(LAPIC_ICR_HI, apic_id << 24);
		lapic_write(LAPIC_ICR_LO, lo); /* this write sends it */
		ok = icr_wait();
	}
	local_irq_restore(flags);
	return ok;
}

void lapic_eoi(void)
{
	lapic_write(LAPIC_EOI, 0);
}

/* ipi_send's target: the CPU with @apic_id, -1 if none (tracing only). */
static int apic_to_cpu(uint32_t apic_id)
{
	for (unsigned i = 0; i < nr_cpus; i++)
		if (per_cpu(i)->apic_id == apic_id)
			return (int)i;
	return -1;
}

bool lapic_send_ipi(uint32_t apic_id, uint8_t vector)
{
	trace(ipi_send, TRACE_INT(apic_to_cpu(apic_id)), vector);
	/* Fixed delivery, physical destination, no shorthand. */
	return send_ipi_raw(apic_id, vector);
}

bool lapic_send_ipi_all_but_self(uint8_t vector)
{
	trace(ipi_send, TRACE_INT(-2), vector); /* -2: all but self */
	/* The shorthand ignores the destination field (SDM 11.6.1). */
	return send_ipi_raw(0, ICR_ALL_BUT_SELF | vector);
}

/*
 * One read of the timer's current count, bracketed by two clock reads: the
 * narrowest bracket of a few, so a read the host stretched (a vCPU
 * descheduled between the MMIO or MSR read and a clock read) is not used.
 */
struct lapic_sample {
	uint64_t ns, width; /* bracket midpoint and width */
	uint32_t count;
};

static struct lapic_sample lapic_sample(void)
{
	struct lapic_sample best = { .width = ~0ULL };

	for (int i = 0; i < 8; i++) {
		uint64_t t0 = clock_ns();
		uint32_t c = lapic_read(LAPIC_TMR_CUR);
		uint64_t t1 = clock_ns();

		if (t1 - t0 < best.width)
			best = (struct lapic_sample){ t0 + (t1 - t0) / 2,
						      t1 - t0, c };
	}
	return best;
}

uint64_t lapic_timer_measure(uint64_t window_ns, uint64_t *err_ppm)
{
	struct lapic_sample a, b;
	uint64_t span, err;

	lapic_write(LAPIC_TMR_DIV, TMR_DIV_1);
	lapic_write(LAPIC_LVT_TIMER, LVT_MASKED | LOCAL_TIMER_VECTOR);
	lapic_write(LAPIC_TMR_INIT, 0xffffffff);
	a = lapic_sample();
	while (clock_ns() - a.ns < window_ns)
		cpu_relax();
	b = lapic_sample();
	lapic_write(LAPIC_TMR_INIT, 0);
	span = b.ns - a.ns;
	/* Each midpoint is within half its bracket of the read: round up. */
	err = a.width / 2 + b.width / 2 + 2;
	*err_ppm = (err * 1000000ULL + span - 1) / span;
	return (uint64_t)(a.count - b.count) * NSEC_PER_SEC / span;
}

/*
 * The LAPIC timer's rate (bus or crystal clock, whatever the platform
 * gives) measured against the calibrated TSC, divide-by-1: the best of
 * three bracketed 10 ms windows.  One-shots are converted at the top of
 * the rate's error bound, so that a timer never fires before the time it
 * was armed for (an early fire finds nothing due and costs a second wake);
 * it may fire up to twice the bound late (tens of microseconds a second).
 */
void lapic_timer_calibrate(void)
{
	uint64_t best_ppm = ~0ULL;

	for (int i = 0; i < 3; i++) {
		uint64_t ppm, hz = lapic_timer_measure(TMR_CALIB_NS, &ppm);

		if (ppm < best_ppm) {
			best_ppm = ppm;
			lapic_timer_hz = hz;
		}
	}
	lapic_timer_err_ppm = best_ppm;
	tick_mult = (((lapic_timer_hz + lapic_timer_hz * best_ppm / 1000000 + 1)
		      << 32) +
		     NSEC_PER_SEC - 1) /
		    NSEC_PER_SEC;
}

uint64_t lapic_timer_rate_error_ppm(void)
{
	return lapic_timer_err_ppm;
}

uint64_t lapic_timer_rate(void)
{
	return lapic_timer_hz;
}

bool lapic_has_tsc_deadline(void)
{
	struct cpuid_leaf l;

	return kernel_cpuid(1, 0, &l, 0) && (l.ecx & CPUID1_ECX_TSC_DEADLINE);
}

int lapic_clockevent_select(bool want_deadline, bool require)
{
	if (want_deadline && lapic_has_tsc_deadline()) {
		use_deadline = true;
		return 0;
	}
	use_deadline = false;
	return want_deadline && require ? -1 : 0;
}

const char *lapic_clockevent_mode(void)
{
	return use_deadline ? "tsc-deadline" : "oneshot";
}

/*
 * The mode is set on every call: it is per CPU, and one LVT write costs
 * less than tracking which CPU has had it.  In TSC-deadline mode the
 * MSR write is not serialising (SDM 11.5.4.1), so the fence orders it
 * after the LVT write and after our earlier stores.
 */
void arch_clockevent_program(uint64_t delta_ns)
{
	uint64_t count;

	if (use_deadline) {
		lapic_write(LAPIC_LVT_TIMER,
			    LVT_TSC_DEADLINE | LOCAL_TIMER_VECTOR);
		__asm__ volatile("mfence; lfence" ::: "memory");
		wrmsr(MSR_IA32_TSC_DEADLINE,
		      rdtsc() + ns_to_tsc_ticks(delta_ns ? delta_ns : 1));
		return;
	}
	count = (uint64_t)(((unsigned __int128)delta_ns * tick_mult) >> 32);
	if (count == 0)
		count = 1;
	if (count > 0xffffffffULL)
		count = 0xffffffffULL;
	lapic_write(LAPIC_TMR_DIV, TMR_DIV_1);
	lapic_write(LAPIC_LVT_TIMER, LOCAL_TIMER_VECTOR); /* one-shot */
	lapic_write(LAPIC_TMR_INIT, (uint32_t)count);
}

uint64_t lapic_timer_remaining_ns(void)
{
	uint64_t deadline, now;

	if (use_deadline) {
		deadline = rdmsr(MSR_IA32_TSC_DEADLINE);
		now = rdtsc();
		return deadline > now ? tsc_to_ns(deadline - now) : 0;
	}
	return (uint64_t)lapic_read(LAPIC_TMR_CUR) * NSEC_PER_SEC /
	       lapic_timer_hz;
}

void arch_clockevent_cancel(void)
{
	if (use_deadline) {
		__asm__ volatile("mfence; lfence" ::: "memory");
		wrmsr(MSR_IA32_TSC_DEADLINE, 0); /* 0 disarms */
		return;
	}
	lapic_write(LAPIC_TMR_INIT, 0); /* 0 stops it */
}

bool arch_clockevent_irq_pending(void)
{
	unsigned reg = LAPIC_IRR + 0x10 * (LOCAL_TIMER_VECTOR / 32);

	return lapic_read(reg) & (1u << (LOCAL_TIMER_VECTOR % 32));
}

bool lapic_send_init(uint32_t apic_id)
{
	if (!lapic_id_reachable(apic_id))
		return false;
	lapic_write(LAPIC_ESR, 0); /* x2APIC: only 0 may be written */
	return send_ipi_raw(apic_id, ICR_INIT | ICR_ASSERT | ICR_LEVEL);
}

bool lapic_send_nmi(uint32_t apic_id)
{
	return lapic_id_reachable(apic_id) && send_ipi_raw(apic_id, ICR_NMI);
}

/*
 * After each SIPI, the wait Linux's wakeup_secondary_cpu_via_init() makes:
 * 10 us when the INIT wait is skipped (a modern CPU), else 200 us.
 */
bool lapic_start_ap(uint32_t apic_id, uint64_t trampoline_phys,
		    unsigned init_udelay)
{
	uint32_t vector = (uint32_t)(trampoline_phys >> 12);

	if (!lapic_send_init(apic_id))
		return false;
	if (init_udelay)
		delay_ns(init_udelay * 1000ULL);
	for (int i = 0; i < 2; i++) {
		if (!send_ipi_raw(apic_id, ICR_STARTUP | vector))
			return false;
		delay_ns(init_udelay ? 200000 : 10000);
	}
	return true;
}

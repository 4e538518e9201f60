/*
 * Local APIC in xAPIC mode: 32-bit registers at 16-byte strides in the
 * 4 KiB MMIO page named by the MADT (SDM vol. 3A table 11-1), reached
 * through the uncached direct map.
 */
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/irq.h"
#include "arch/x86_64/tsc.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "kernel/mm.h"
#include "kernel/spinlock.h"

#define LAPIC_ID	0x020
#define LAPIC_SVR	0x0F0
#define LAPIC_EOI	0x0B0
#define LAPIC_ESR	0x280
#define LAPIC_ICR_LO	0x300
#define LAPIC_ICR_HI	0x310
#define LAPIC_LVT_TIMER	0x320
#define LAPIC_TMR_INIT	0x380
#define LAPIC_TMR_CUR	0x390
#define LAPIC_TMR_DIV	0x3E0
#define LVT_MASKED	(1U << 16)
#define TMR_DIV_1	0xB	/* divide configuration 1011b: divide by 1 */
#define TMR_CALIB_NS	10000000ULL
#define SVR_ENABLE	(1U << 8)
#define ICR_INIT	(5U << 8)
#define ICR_STARTUP	(6U << 8)
#define ICR_ASSERT	(1U << 14)
#define ICR_LEVEL	(1U << 15)
/* Delivery status: set while the IPI is still pending (SDM 11.6.1). */
#define ICR_BUSY	(1U << 12)
#define ICR_WAIT_NS	10000000ULL

#define LVT_TSC_DEADLINE	(2U << 17)	/* timer mode field, bits 18:17 */
#define MSR_IA32_TSC_DEADLINE	0x6E0
#define CPUID1_ECX_TSC_DEADLINE	(1U << 24)
#define ICR_ALL_BUT_SELF	(3U << 18)	/* destination shorthand */

static volatile uint32_t *lapic;
static bool use_deadline;
static uint64_t lapic_timer_hz;
/* ticks = (ns * tick_mult) >> 32; the rate is below 4 GHz, so this fits. */
static uint64_t tick_mult;

static uint32_t lapic_read(unsigned reg)
{
	return lapic[reg / 4];
}

static void lapic_write(unsigned reg, uint32_t v)
{
	lapic[reg / 4] = v;
}

void lapic_init(uint64_t phys)
{
	lapic = phys_to_virt(phys);
}

void lapic_enable(void)
{
	lapic_write(LAPIC_SVR, SVR_ENABLE | LAPIC_SPURIOUS_VECTOR);
}

uint32_t lapic_id(void)
{
	return lapic_read(LAPIC_ID) >> 24;
}

/* Wait, bounded, for the previous IPI to leave the ICR. */
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
	unsigned long flags = local_irq_save();
	bool ok = icr_wait();

	if (ok) {
		lapic_write(LAPIC_ICR_HI, apic_id << 24);
		lapic_write(LAPIC_ICR_LO, lo);	/* this write sends it */
		ok = icr_wait();
	}
	local_irq_restore(flags);
	return ok;
}

void lapic_eoi(void)
{
	lapic_write(LAPIC_EOI, 0);
}

bool lapic_send_ipi(uint32_t apic_id, uint8_t vector)
{
	/* Fixed delivery, physical destination, no shorthand. */
	return send_ipi_raw(apic_id, vector);
}

bool lapic_send_ipi_all_but_self(uint8_t vector)
{
	/* The shorthand ignores the destination field (SDM 11.6.1). */
	return send_ipi_raw(0, ICR_ALL_BUT_SELF | vector);
}

/*
 * The LAPIC timer's rate (bus or crystal clock, whatever the platform
 * gives) measured against the calibrated TSC over 10 ms, divide-by-1.
 */
void lapic_timer_calibrate(void)
{
	uint64_t t0, t1;
	uint32_t left;

	lapic_write(LAPIC_TMR_DIV, TMR_DIV_1);
	lapic_write(LAPIC_LVT_TIMER, LVT_MASKED | LOCAL_TIMER_VECTOR);
	lapic_write(LAPIC_TMR_INIT, 0xffffffff);
	t0 = clock_ns();
	while (clock_ns() - t0 < TMR_CALIB_NS)
		__asm__ volatile("pause");
	left = lapic_read(LAPIC_TMR_CUR);
	t1 = clock_ns();
	lapic_write(LAPIC_TMR_INIT, 0);
	/* Over the time actually measured, not the nominal window. */
	lapic_timer_hz = (0xffffffffULL - left) * 1000000000ULL / (t1 - t0);
	tick_mult = (lapic_timer_hz << 32) / 1000000000ULL;
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
		lapic_write(LAPIC_LVT_TIMER, LVT_TSC_DEADLINE | LOCAL_TIMER_VECTOR);
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
	lapic_write(LAPIC_LVT_TIMER, LOCAL_TIMER_VECTOR);	/* one-shot */
	lapic_write(LAPIC_TMR_INIT, (uint32_t)count);
}

void arch_clockevent_cancel(void)
{
	if (use_deadline) {
		__asm__ volatile("mfence; lfence" ::: "memory");
		wrmsr(MSR_IA32_TSC_DEADLINE, 0);	/* 0 disarms */
		return;
	}
	lapic_write(LAPIC_TMR_INIT, 0);			/* 0 stops it */
}

bool lapic_start_ap(uint32_t apic_id, uint64_t trampoline_phys)
{
	uint32_t vector = (uint32_t)(trampoline_phys >> 12);

	lapic_write(LAPIC_ESR, 0);
	if (!send_ipi_raw(apic_id, ICR_INIT | ICR_ASSERT | ICR_LEVEL))
		return false;
	delay_ns(10000000);
	for (int i = 0; i < 2; i++) {
		if (!send_ipi_raw(apic_id, ICR_STARTUP | vector))
			return false;
		delay_ns(200000);
	}
	return true;
}

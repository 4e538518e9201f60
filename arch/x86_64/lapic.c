/*
 * Local APIC in xAPIC mode: 32-bit registers at 16-byte strides in the
 * 4 KiB MMIO page named by the MADT (SDM vol. 3A table 11-1), reached
 * through the uncached direct map.
 */
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/irq.h"
#include "arch/x86_64/tsc.h"
#include "kernel/mm.h"

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

static volatile uint32_t *lapic;
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

static bool send_ipi_raw(uint32_t apic_id, uint32_t lo)
{
	if (!icr_wait())
		return false;
	lapic_write(LAPIC_ICR_HI, apic_id << 24);
	lapic_write(LAPIC_ICR_LO, lo);	/* the write of ICR_LO sends it */
	return icr_wait();
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

void arch_clockevent_program(uint64_t delta_ns)
{
	uint64_t count = (uint64_t)(((unsigned __int128)delta_ns * tick_mult) >>
				    32);

	if (count == 0)
		count = 1;
	if (count > 0xffffffffULL)
		count = 0xffffffffULL;
	lapic_write(LAPIC_TMR_DIV, TMR_DIV_1);
	lapic_write(LAPIC_LVT_TIMER, LOCAL_TIMER_VECTOR);	/* one-shot */
	lapic_write(LAPIC_TMR_INIT, (uint32_t)count);
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

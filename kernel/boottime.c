#include "kernel/boottime.h"
#include "arch/x86_64/arch.h"
#include "kernel/printk.h"

static const char *const phase_names[BOOT_PHASES] = {
	"memory", "acpi", "cpu_list", "clock", "hierarchy", "aps",
};
static uint64_t entry_tsc, done_tsc[BOOT_PHASES];

void boot_time_entry(void)
{
	entry_tsc = rdtsc();
}

void boot_phase_done(enum boot_phase phase)
{
	done_tsc[phase] = rdtsc();
}

static uint64_t tsc_us(uint64_t ticks)
{
	uint64_t khz = tsc_hz() / 1000;

	/* No overflow below 2^64 / 1000 ticks: about 80 days at 2.6 GHz. */
	return khz ? ticks * 1000 / khz : 0;
}

void boot_time_print(void)
{
	uint64_t prev = entry_tsc;

	for (unsigned i = 0; i < BOOT_PHASES; i++) {
		printk("# boot_phase name=%s us=%lu end_us=%lu\n",
		       phase_names[i], tsc_us(done_tsc[i] - prev),
		       tsc_us(done_tsc[i] - entry_tsc));
		prev = done_tsc[i];
	}
	printk("# boot_phase name=total us=%lu end_us=%lu\n",
	       tsc_us(prev - entry_tsc), tsc_us(prev - entry_tsc));
}

/*
 * kernel/watchdog.h - notice a CPU or a stage that makes no progress, and
 * dump where every CPU is (docs/hang.md).
 *
 * watchdog=SECONDS (docs/cmdline.md) sets N.  From the end of AP bring-up
 * (which keeps the boot CPU's interrupts off) about once a second the tick
 * of whichever CPU still ticks looks for:
 *   no_timer_irq  a CPU whose LAPIC timer was due more than N s ago and
 *                 has not interrupted it since (interrupts off, or a lost
 *                 event);
 *   wait          a CPU in an annotated wait (spin_wait_until()) > N s;
 *   overdue       a local or global timer due more than N s ago;
 *   stage         a declared stage (a scenario phase) N s past its
 *                 expected end.
 * It then prints one dump, NMI-ing every other CPU for its registers; at
 * most WATCHDOG_MAX_DUMPS per boot, N s apart.  It never changes the exit
 * status: a hang still ends at tools/boot's --timeout.
 */
#ifndef KERNEL_WATCHDOG_H
#define KERNEL_WATCHDOG_H

#include <stdbool.h>
#include <stdint.h>

#define WATCHDOG_DEFAULT_S 20
#define WATCHDOG_MAX_S	   3600
#define WATCHDOG_MAX_DUMPS 2

struct trap_frame;

/* Boot CPU, once, after AP bring-up, interrupts on; @seconds 0 = off. */
void watchdog_init(unsigned int seconds);
/* The LAPIC timer interrupt, after the tick; @f is what it interrupted. */
void watchdog_tick(const struct trap_frame *f);
/* The NMI handler: true if the NMI was the watchdog's register request. */
bool watchdog_nmi(const struct trap_frame *f);

/*
 * "This CPU waits for @what (@arg)": shown in the dump and a stall after
 * N s.  Waits nest: end restores what begin saved in @saved.
 */
struct watchdog_wait {
	const char *what;
	const void *arg;
	uint64_t since;
};
void watchdog_wait_begin(struct watchdog_wait *saved, const char *what,
			 const void *arg);
void watchdog_wait_end(const struct watchdog_wait *saved);

/*
 * The boot CPU enters stage @what/@detail (static strings), expected to
 * take at most @expect_ms (0: no bound, shown in the dump only).
 */
void watchdog_stage(const char *what, const char *detail, uint64_t expect_ms);

/* The dump itself (kernel/watchdog_dump.c), also for a test. */
void watchdog_dump(const char *reason, const struct trap_frame *self);

#endif

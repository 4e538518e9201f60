/*
 * 16550 UART, polled.  Register offsets from the PC16550D data sheet:
 * THR/RBR 0, IER 1, FCR 2, LCR 3, MCR 4, LSR 5; LSR bit 5 (THRE) says the
 * transmit holding register can take the next byte, bit 6 (TEMT) that
 * everything written has left.
 *
 * The UART is the kernel's result channel, so it must not lose bytes.
 * Under QEMU, THRE stays clear while the host end of the serial pipe is
 * full (its reader descheduled on a loaded host), and a byte written then
 * pushes the oldest one out of the FIFO: a dropped byte, not a late one.
 * So each byte waits for THRE as long as any host stall lasts; the wait is
 * bounded only so that a UART that never drains cannot hang the kernel.
 * After one wait runs out the UART counts as stuck: later bytes are
 * dropped without waiting (and counted) until THRE is seen again.
 *
 * Callers are serialised by the console lock (kernel/printk.c), except
 * during a panic, which takes the console over; the counters may then be
 * off by a few bytes.
 */
#include "drivers/uart.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/tsc.h"
#include "lib/time.h"

#define COM1	    0x3f8
#define UART_IER    1
#define UART_FCR    2
#define UART_LCR    3
#define UART_MCR    4
#define UART_LSR    5
#define LCR_DLAB    0x80
#define LCR_8N1	    0x03
#define LSR_THRE    0x20
#define LSR_TEMT    0x40
/* The longest wait for one byte: far above host stalls seen (1.6 s). */
#define STALL_NS    (5 * NSEC_PER_SEC)
/* The same bound in LSR reads, before the TSC is calibrated. */
#define STALL_SPINS 10000000UL

static bool stuck;
static uint64_t lost_bytes, stall_max_ticks;

void uart_init(void)
{
	outb(COM1 + UART_IER, 0);
	outb(COM1 + UART_LCR, LCR_DLAB);
	outb(COM1 + 0, 1); /* divisor 1: 115200 baud */
	outb(COM1 + 1, 0);
	outb(COM1 + UART_LCR, LCR_8N1);
	outb(COM1 + UART_FCR, 0xC7); /* enable and clear FIFOs */
	outb(COM1 + UART_MCR, 0x0B); /* DTR, RTS, OUT2 */
}

/* Wait for LSR @bit; false if it did not come within the bound. */
static bool wait_lsr(uint8_t bit)
{
	uint64_t limit = tsc_hz() ? ns_to_tsc_ticks(STALL_NS) : 0;
	uint64_t start, waited;

	if (inb(COM1 + UART_LSR) & bit) {
		stuck = false;
		return true;
	}
	if (stuck)
		return false;
	start = rdtsc();
	for (unsigned long spins = 0;; spins++) {
		waited = rdtsc() - start;
		if (inb(COM1 + UART_LSR) & bit)
			break;
		if (limit ? waited >= limit : spins >= STALL_SPINS) {
			stuck = true;
			return false;
		}
		cpu_relax();
	}
	if (waited > stall_max_ticks)
		stall_max_ticks = waited;
	return true;
}

void uart_putc(char c)
{
	if (!wait_lsr(LSR_THRE)) {
		lost_bytes++;
		return;
	}
	outb(COM1, (unsigned char)c);
}

void uart_flush(void)
{
	wait_lsr(LSR_TEMT);
}

void uart_get_stats(struct uart_stats *s)
{
	s->lost_bytes = lost_bytes;
	s->stall_max_ns = tsc_hz() ? tsc_to_ns(stall_max_ticks) : 0;
}

/*
 * printk: stream the formatted text straight to the UART through
 * lib/printf's callback core, so no line is ever cut at a buffer size.
 * The console lock is held around the whole call so that output from
 * different CPUs never interleaves within one printk().  panic() takes
 * the console over without it (printk_force_unlock), since the CPU that
 * panicked may have been interrupted while holding it.
 */
#include "kernel/printk.h"
#include "drivers/uart.h"
#include "kernel/spinlock.h"
#include "lib/printf.h"

static spinlock_t console_lock = SPINLOCK_INIT;

static void console_out(char c, void *arg)
{
	(void)arg;
	if (c == '\n')
		uart_putc('\r');
	uart_putc(c);
}

int vprintk(const char *fmt, va_list ap)
{
	unsigned long flags;
	int n;

	spin_lock_irqsave(&console_lock, flags);
	n = vcbprintf(console_out, 0, fmt, ap);

	spin_unlock_irqrestore(&console_lock, flags);
	return n;
}

void printk_force_unlock(void)
{
	console_lock.owner = console_lock.next;
}

bool printk_quiesce(unsigned long spins)
{
	while (spin_is_locked(&console_lock)) {
		if (!spins--) {
			printk_force_unlock();
			return false;
		}
		cpu_relax();
	}
	return true;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

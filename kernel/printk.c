/*
 * printk: stream the formatted text straight to the UART through
 * lib/printf's callback core, so no line is ever cut at a buffer size.
 * Once SMP lands, the console lock is taken around the whole call so that
 * lines from different CPUs never interleave.
 */
#include "kernel/printk.h"
#include "drivers/uart.h"
#include "lib/printf.h"

static void console_out(char c, void *arg)
{
	(void)arg;
	if (c == '\n')
		uart_putc('\r');
	uart_putc(c);
}

int vprintk(const char *fmt, va_list ap)
{
	return vcbprintf(console_out, 0, fmt, ap);
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

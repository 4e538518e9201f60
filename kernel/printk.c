/*
 * printk: format into a line buffer with lib/printf's vsnprintf, then write
 * it out in one piece so that a line is never interleaved mid-way (once
 * SMP lands, the write is where the console lock goes).
 */
#include "kernel/printk.h"
#include "drivers/uart.h"
#include "lib/printf.h"

#define PRINTK_BUF	512

int vprintk(const char *fmt, va_list ap)
{
	char buf[PRINTK_BUF];
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	unsigned long len = n < 0 ? 0 :
			    n >= PRINTK_BUF ? PRINTK_BUF - 1 : (unsigned long)n;

	uart_write(buf, len);
	return (int)len;
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

/* 16550 UART on COM1: the kernel's console and its result channel. */
#ifndef DRIVERS_UART_H
#define DRIVERS_UART_H

#include <stdint.h>

void uart_init(void);
/* Send @c; waits while the UART is full, for seconds if it must (uart.c). */
void uart_putc(char c);
/* Wait until every byte sent has left the UART (before QEMU exits). */
void uart_flush(void);

struct uart_stats {
	uint64_t lost_bytes; /* dropped: the UART stayed full past the bound */
	uint64_t stall_max_ns; /* the longest wait for room that ended in time */
};
void uart_get_stats(struct uart_stats *s);

#endif

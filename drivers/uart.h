/* 16550 UART on COM1: the kernel's console and its result channel. */
#ifndef DRIVERS_UART_H
#define DRIVERS_UART_H

void uart_init(void);
void uart_putc(char c);

#endif

/*
 * 16550 UART, polled.  Register offsets from the PC16550D data sheet:
 * THR/RBR 0, IER 1, FCR 2, LCR 3, MCR 4, LSR 5; LSR bit 5 (THRE) says the
 * transmit holding register can take the next byte.
 */
#include "drivers/uart.h"
#include "arch/x86_64/cpu.h"

#define COM1	   0x3f8
#define UART_IER   1
#define UART_FCR   2
#define UART_LCR   3
#define UART_MCR   4
#define UART_LSR   5
#define LCR_DLAB   0x80
#define LCR_8N1	   0x03
#define LSR_THRE   0x20
/* Bound on the THRE wait so a missing UART cannot hang the kernel. */
#define THRE_SPINS 100000

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

void uart_putc(char c)
{
	for (int i = 0; i < THRE_SPINS; i++)
		if (inb(COM1 + UART_LSR) & LSR_THRE)
			break;
	outb(COM1, (unsigned char)c);
}

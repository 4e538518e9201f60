#include "drivers/debugexit.h"
#include "arch/x86_64/cpu.h"
#include "drivers/uart.h"

/* tools/boot passes -device isa-debug-exit,iobase=0xf4,iosize=0x04. */
#define DEBUG_EXIT_PORT 0xf4

void debug_exit(enum exit_code code)
{
	struct uart_stats u;

	/* QEMU exits at the write: bytes still in the UART would be lost. */
	uart_flush();
	uart_get_stats(&u);
	if (u.lost_bytes && code != EXIT_PANIC)
		code = EXIT_LOST_OUTPUT;
	outb(DEBUG_EXIT_PORT, (unsigned char)code);
	halt_forever();
}

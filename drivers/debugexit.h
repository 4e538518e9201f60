/* QEMU isa-debug-exit: the guest's exit status, seen by the host. */
#ifndef DRIVERS_DEBUGEXIT_H
#define DRIVERS_DEBUGEXIT_H

enum exit_code {
	EXIT_PASS = 0,
	EXIT_FAIL = 1,
	EXIT_PANIC = 2,
	/*
	 * Set by debug_exit() in place of PASS or FAIL when the UART dropped
	 * bytes (drivers/uart.c): the log is incomplete, so the host cannot
	 * read the verdict from it.
	 */
	EXIT_LOST_OUTPUT = 3,
};

/*
 * Write @code to the device (QEMU then exits with (code << 1) | 1, which
 * tools/boot maps back); without the device, halt this CPU for good.
 */
__attribute__((noreturn)) void debug_exit(enum exit_code code);

#endif

/* QEMU isa-debug-exit: the guest's exit status, seen by the host. */
#ifndef DRIVERS_DEBUGEXIT_H
#define DRIVERS_DEBUGEXIT_H

enum exit_code {
	EXIT_PASS = 0,
	EXIT_FAIL = 1,
	EXIT_PANIC = 2,
};

/*
 * Write @code to the device (QEMU then exits with (code << 1) | 1, which
 * tools/boot maps back); without the device, halt this CPU for good.
 */
__attribute__((noreturn)) void debug_exit(enum exit_code code);

#endif

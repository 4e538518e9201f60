/* Fatal errors: say why, show where, tell the host (exit code 2). */
#ifndef KERNEL_PANIC_H
#define KERNEL_PANIC_H

#include <stdbool.h>

/*
 * Say why, show where, stop the other CPUs, exit 2.  Ends with
 * "# panic cpu=C stopped=S" (docs/serial-format.md).
 */
__attribute__((noreturn, format(printf, 1, 2))) void panic(const char *fmt,
							   ...);
/*
 * The start of any fatal dump (an exception's or panic()'s): interrupts
 * off; the first CPU gets here returns owning the console, every other CPU
 * stopped; any other CPU arriving later stops silently and never returns.
 */
void panic_begin(void);
bool panic_in_progress(void);
/* Count this CPU as stopped (once) and halt for good; the NMI's handler. */
__attribute__((noreturn)) void panic_stop_self(void);

/* Warn once per call site and carry on; misuse of an API must stay safe. */
#define WARN_ONCE(cond, ...)                                         \
	({                                                           \
		static int __warned;                                 \
		int __c = !!(cond);                                  \
		if (__c && !__warned) {                              \
			__warned = 1;                                \
			warn_print(__FILE__, __LINE__, __VA_ARGS__); \
		}                                                    \
		__c;                                                 \
	})

__attribute__((format(printf, 3, 4))) void
warn_print(const char *file, int line, const char *fmt, ...);
unsigned warn_count(void);

#endif

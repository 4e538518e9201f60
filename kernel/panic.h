/* Fatal errors: say why, show where, tell the host (exit code 2). */
#ifndef KERNEL_PANIC_H
#define KERNEL_PANIC_H

__attribute__((noreturn, format(printf, 1, 2))) void panic(const char *fmt,
							    ...);

/* Warn once per call site and carry on; misuse of an API must stay safe. */
#define WARN_ONCE(cond, ...)                                                  \
	({                                                                    \
		static int __warned;                                          \
		int __c = !!(cond);                                           \
		if (__c && !__warned) {                                       \
			__warned = 1;                                         \
			warn_print(__FILE__, __LINE__, __VA_ARGS__);          \
		}                                                             \
		__c;                                                          \
	})

__attribute__((format(printf, 3, 4))) void warn_print(const char *file,
						      int line,
						      const char *fmt, ...);
unsigned warn_count(void);

#endif

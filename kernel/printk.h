/* Kernel console output (COM1). */
#ifndef KERNEL_PRINTK_H
#define KERNEL_PRINTK_H

#include <stdarg.h>
#include <stdbool.h>

__attribute__((format(printf, 1, 2))) int printk(const char *fmt, ...);
int vprintk(const char *fmt, va_list ap);
/* For panic(): break the console lock so that the last words get out. */
void printk_force_unlock(void);
/*
 * For a watchdog dump: wait up to @spins pause loops for the console lock
 * to be free, else break it (its holder may be the stuck CPU).  Returns
 * false if it had to break it.
 */
bool printk_quiesce(unsigned long spins);

#endif

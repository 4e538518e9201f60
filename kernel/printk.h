/* Kernel console output (COM1). */
#ifndef KERNEL_PRINTK_H
#define KERNEL_PRINTK_H

#include <stdarg.h>

__attribute__((format(printf, 1, 2))) int printk(const char *fmt, ...);
int vprintk(const char *fmt, va_list ap);
/* For panic(): break the console lock so that the last words get out. */
void printk_force_unlock(void);

#endif

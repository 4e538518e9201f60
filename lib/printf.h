/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lib/printf.h - freestanding printf family (no floating point).
 *
 * Supported: %d %i %u %x %X %o %c %s %p %%, length modifiers hh h l ll z
 * (also j t), flags - 0 + space #, field width and precision (both may be
 * '*').  %s of NULL prints "(null)" (cut by the precision, if any); %p
 * prints "0x" followed by exactly 16 lower-case hex digits (also for NULL).
 * An unknown conversion, including %n, is copied to the output literally
 * together with its flags/width/precision, e.g. "%5q" prints "%5q".
 * Field widths and precisions are clamped to 4096 to bound runaway output.
 *
 * For printk: stream straight to the console with vcbprintf(), which has no
 * length limit and needs no buffer; use vsnprintf() when a bounded string is
 * wanted (e.g. to prefix a line and emit it under a lock in one go).
 */
#ifndef LIB_PRINTF_H
#define LIB_PRINTF_H

#include <stdarg.h>
#include <stddef.h>

#define __printf_fmt(a, b) __attribute__((format(printf, a, b)))

/* Output callback for vcbprintf(): called once per produced character. */
typedef void (*printf_out_fn)(char c, void *arg);

int vcbprintf(printf_out_fn out, void *arg, const char *fmt, va_list ap);
int cbprintf(printf_out_fn out, void *arg, const char *fmt, ...)
	__printf_fmt(3, 4);
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf_fmt(3, 4);

/*
 * errfmt - write an error message into a caller's optional buffer: as
 * snprintf(), but a NULL @err (whatever @errlen) writes nothing.  For
 * parsers whose err/errlen arguments may be left out.
 */
void errfmt(char *err, size_t errlen, const char *fmt, ...) __printf_fmt(3, 4);

#endif /* LIB_PRINTF_H */

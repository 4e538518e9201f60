// SPDX-License-Identifier: GPL-2.0
/*
 * lib/printf.c - freestanding printf core.
 *
 * Everything is built on vcbprintf(), which parses the format and hands each
 * output character to a callback.  vsnprintf() is a thin wrapper whose
 * callback stores into a bounded buffer.  See lib/printf.h for the supported
 * conversions.  No floating point, no dynamic memory, no libc.
 */
#include <stdbool.h>
#include <stdint.h>

#include "lib/printf.h"

#define F_LEFT	0x01 /* '-': left-justify */
#define F_ZERO	0x02 /* '0': pad numbers with zeros */
#define F_PLUS	0x04 /* '+': always print a sign */
#define F_SPACE 0x08 /* ' ': space in place of '+' */
#define F_ALT	0x10 /* '#': 0x prefix / leading octal 0 */

#define FMT_MAX_WIDTH 4096 /* clamp absurd widths/precisions */

enum fmt_len { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_Z, LEN_J, LEN_T };

struct fmt_spec {
	unsigned int flags;
	int width;
	int prec; /* -1: not given */
	enum fmt_len len;
};

struct fmt_out {
	printf_out_fn out;
	void *arg;
	int count;
};

/* va_list wrapper so helpers can consume arguments by pointer portably. */
struct fmt_args {
	va_list ap;
};

static void emit(struct fmt_out *o, char c)
{
	o->out(c, o->arg);
	o->count++;
}

static void emit_n(struct fmt_out *o, char c, int n)
{
	while (n-- > 0)
		emit(o, c);
}

static void emit_str(struct fmt_out *o, const char *s, size_t n)
{
	while (n--)
		emit(o, *s++);
}

static size_t fmt_strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int clamp_width(int v)
{
	return v > FMT_MAX_WIDTH ? FMT_MAX_WIDTH : v;
}

static const char *parse_flags(const char *p, struct fmt_spec *spec)
{
	for (;; p++) {
		switch (*p) {
		case '-':
			spec->flags |= F_LEFT;
			break;
		case '0':
			spec->flags |= F_ZERO;
			break;
		case '+':
			spec->flags |= F_PLUS;
			break;
		case ' ':
			spec->flags |= F_SPACE;
			break;
		case '#':
			spec->flags |= F_ALT;
			break;
		default:
			return p;
		}
	}
}

static const char *parse_number(const char *p, int *out)
{
	int v = 0;

	while (is_digit(*p)) {
		v = clamp_width(v * 10 + (*p - '0'));
		p++;
	}
	*out = v;
	return p;
}

static const char *parse_width(const char *p, struct fmt_spec *spec,
			       struct fmt_args *a)
{
	if (*p == '*') {
		int w = va_arg(a->ap, int);

		if (w < 0) {
			spec->flags |= F_LEFT;
			w = w == INT32_MIN ? FMT_MAX_WIDTH : -w;
		}
		spec->width = clamp_width(w);
		return p + 1;
	}
	return parse_number(p, &spec->width);
}

static const char *parse_prec(const char *p, struct fmt_spec *spec,
			      struct fmt_args *a)
{
	if (*p != '.')
		return p;
	p++;
	if (*p == '*') {
		int v = va_arg(a->ap, int);

		spec->prec = v < 0 ? -1 : clamp_width(v);
		return p + 1;
	}
	return parse_number(p, &spec->prec);
}

static const char *parse_len(const char *p, struct fmt_spec *spec)
{
	switch (*p) {
	case 'h':
		if (p[1] == 'h') {
			spec->len = LEN_HH;
			return p + 2;
		}
		spec->len = LEN_H;
		return p + 1;
	case 'l':
		if (p[1] == 'l') {
			spec->len = LEN_LL;
			return p + 2;
		}
		spec->len = LEN_L;
		return p + 1;
	case 'z':
		spec->len = LEN_Z;
		return p + 1;
	case 'j':
		spec->len = LEN_J;
		return p + 1;
	case 't':
		spec->len = LEN_T;
		return p + 1;
	default:
		return p;
	}
}

static int64_t fetch_signed(struct fmt_args *a, enum fmt_len len)
{
	switch (len) {
	case LEN_HH:
		return (signed char)va_arg(a->ap, int);
	case LEN_H:
		return (short)va_arg(a->ap, int);
	case LEN_L:
		return va_arg(a->ap, long);
	case LEN_LL:
		return va_arg(a->ap, long long);
	case LEN_Z:
	case LEN_T:
		return va_arg(a->ap, ptrdiff_t);
	case LEN_J:
		return va_arg(a->ap, intmax_t);
	default:
		return va_arg(a->ap, int);
	}
}

static uint64_t fetch_unsigned(struct fmt_args *a, enum fmt_len len)
{
	switch (len) {
	case LEN_HH:
		return (unsigned char)va_arg(a->ap, unsigned int);
	case LEN_H:
		return (unsigned short)va_arg(a->ap, unsigned int);
	case LEN_L:
		return va_arg(a->ap, unsigned long);
	case LEN_LL:
		return va_arg(a->ap, unsigned long long);
	case LEN_Z:
		return va_arg(a->ap, size_t);
	case LEN_T:
		return (size_t)va_arg(a->ap, ptrdiff_t);
	case LEN_J:
		return va_arg(a->ap, uintmax_t);
	default:
		return va_arg(a->ap, unsigned int);
	}
}

/* Writes the digits of @val in reverse order into @tmp; returns count. */
static int utoa_rev(char *tmp, uint64_t val, unsigned int base, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	int n = 0;

	do {
		tmp[n++] = digits[val % base];
		val /= base;
	} while (val);
	return n;
}

/*
 * emit_number - print @val with sign/prefix @prefix, honouring width,
 * precision and the '-' and '0' flags of @spec.
 */
static void emit_number(struct fmt_out *o, const struct fmt_spec *spec,
			uint64_t val, unsigned int base, bool upper,
			const char *prefix)
{
	char tmp[24];
	int ndigits, zeros, plen, pad;

	ndigits = (spec->prec == 0 && val == 0) ?
			  0 :
			  utoa_rev(tmp, val, base, upper);
	zeros = spec->prec > ndigits ? spec->prec - ndigits : 0;
	/* '#' with %o: the first digit printed must be a zero. */
	if ((spec->flags & F_ALT) && base == 8 && zeros == 0 &&
	    !(val == 0 && ndigits > 0))
		zeros = 1;
	plen = (int)fmt_strnlen(prefix, 2);
	pad = spec->width - plen - zeros - ndigits;

	if (spec->flags & F_LEFT) {
		emit_str(o, prefix, plen);
	} else if ((spec->flags & F_ZERO) && spec->prec < 0) {
		emit_str(o, prefix, plen);
		emit_n(o, '0', pad);
	} else {
		emit_n(o, ' ', pad);
		emit_str(o, prefix, plen);
	}
	emit_n(o, '0', zeros);
	while (ndigits)
		emit(o, tmp[--ndigits]);
	if (spec->flags & F_LEFT)
		emit_n(o, ' ', pad);
}

static void fmt_signed(struct fmt_out *o, const struct fmt_spec *spec,
		       struct fmt_args *a)
{
	int64_t v = fetch_signed(a, spec->len);
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	const char *prefix = "";

	if (v < 0)
		prefix = "-";
	else if (spec->flags & F_PLUS)
		prefix = "+";
	else if (spec->flags & F_SPACE)
		prefix = " ";
	emit_number(o, spec, u, 10, false, prefix);
}

static void fmt_unsigned(struct fmt_out *o, const struct fmt_spec *spec,
			 struct fmt_args *a, char conv)
{
	uint64_t u = fetch_unsigned(a, spec->len);
	const char *prefix = "";
	unsigned int base = 10;

	if (conv == 'o') {
		base = 8;
	} else if (conv == 'x' || conv == 'X') {
		base = 16;
		if ((spec->flags & F_ALT) && u != 0)
			prefix = conv == 'x' ? "0x" : "0X";
	}
	emit_number(o, spec, u, base, conv == 'X', prefix);
}

static void fmt_pointer(struct fmt_out *o, const struct fmt_spec *spec,
			struct fmt_args *a)
{
	struct fmt_spec ps = *spec;
	uintptr_t p = (uintptr_t)va_arg(a->ap, void *);

	ps.flags &= ~(F_ZERO | F_ALT);
	ps.prec = 16;
	emit_number(o, &ps, p, 16, false, "0x");
}

static void emit_padded(struct fmt_out *o, const struct fmt_spec *spec,
			const char *s, size_t n)
{
	int pad = spec->width - (int)n;

	if (!(spec->flags & F_LEFT))
		emit_n(o, ' ', pad);
	emit_str(o, s, n);
	if (spec->flags & F_LEFT)
		emit_n(o, ' ', pad);
}

static void fmt_string(struct fmt_out *o, const struct fmt_spec *spec,
		       struct fmt_args *a)
{
	const char *s = va_arg(a->ap, const char *);
	size_t max = spec->prec < 0 ? SIZE_MAX : (size_t)spec->prec;

	if (!s)
		s = "(null)";
	emit_padded(o, spec, s, fmt_strnlen(s, max));
}

static void fmt_char(struct fmt_out *o, const struct fmt_spec *spec,
		     struct fmt_args *a)
{
	char c = (char)va_arg(a->ap, int);

	emit_padded(o, spec, &c, 1);
}

/* Returns false for an unknown conversion character. */
static bool fmt_convert(struct fmt_out *o, const struct fmt_spec *spec,
			struct fmt_args *a, char conv)
{
	switch (conv) {
	case 'd':
	case 'i':
		fmt_signed(o, spec, a);
		return true;
	case 'u':
	case 'x':
	case 'X':
	case 'o':
		fmt_unsigned(o, spec, a, conv);
		return true;
	case 'p':
		fmt_pointer(o, spec, a);
		return true;
	case 's':
		fmt_string(o, spec, a);
		return true;
	case 'c':
		fmt_char(o, spec, a);
		return true;
	case '%':
		emit(o, '%');
		return true;
	default:
		return false;
	}
}

/*
 * do_spec - handle one conversion starting at @start (which points at '%').
 * Returns the position just after it.
 */
static const char *do_spec(struct fmt_out *o, const char *start,
			   struct fmt_args *a)
{
	struct fmt_spec spec = { .prec = -1 };
	const char *p = start + 1;

	p = parse_flags(p, &spec);
	p = parse_width(p, &spec, a);
	p = parse_prec(p, &spec, a);
	p = parse_len(p, &spec);
	if (*p == '\0') {
		/* Truncated specification: print what there is and stop. */
		emit_str(o, start, (size_t)(p - start));
		return p;
	}
	if (!fmt_convert(o, &spec, a, *p))
		emit_str(o, start, (size_t)(p - start) + 1);
	return p + 1;
}

/**
 * vcbprintf - format @fmt and pass every output character to @out
 * @out: callback invoked once per character, with @arg
 * @arg: opaque cookie for @out
 * @fmt: format string (see lib/printf.h)
 * @ap: arguments
 *
 * There is no length limit and no NUL terminator is emitted.  This is the
 * core to use for streaming output such as printk to a serial port.
 *
 * Return: number of characters passed to @out.
 */
int vcbprintf(printf_out_fn out, void *arg, const char *fmt, va_list ap)
{
	struct fmt_out o = { .out = out, .arg = arg, .count = 0 };
	struct fmt_args a;
	const char *p = fmt;

	va_copy(a.ap, ap);
	while (*p) {
		if (*p == '%')
			p = do_spec(&o, p, &a);
		else
			emit(&o, *p++);
	}
	va_end(a.ap);
	return o.count;
}

/**
 * cbprintf - variadic form of vcbprintf()
 * @out: callback invoked once per character, with @arg
 * @arg: opaque cookie for @out
 * @fmt: format string
 *
 * Return: number of characters passed to @out.
 */
int cbprintf(printf_out_fn out, void *arg, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vcbprintf(out, arg, fmt, ap);
	va_end(ap);
	return n;
}

struct sn_buf {
	char *buf;
	size_t size;
	size_t pos;
};

static void sn_out(char c, void *arg)
{
	struct sn_buf *b = arg;

	if (b->pos + 1 < b->size)
		b->buf[b->pos] = c;
	b->pos++;
}

/**
 * vsnprintf - format into @buf of @size bytes (C99 semantics)
 * @buf: destination; may be NULL if @size is 0
 * @size: size of @buf; output is cut to @size - 1 characters
 * @fmt: format string (see lib/printf.h)
 * @ap: arguments
 *
 * @buf is always NUL-terminated when @size > 0.
 *
 * Return: the length the full output would have had (excluding the NUL);
 * a value >= @size means the output was truncated.
 */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct sn_buf b = { .buf = buf, .size = size, .pos = 0 };
	int n;

	n = vcbprintf(sn_out, &b, fmt, ap);
	if (size)
		buf[b.pos < size ? b.pos : size - 1] = '\0';
	return n;
}

/**
 * snprintf - variadic form of vsnprintf()
 * @buf: destination; may be NULL if @size is 0
 * @size: size of @buf
 * @fmt: format string
 *
 * Return: the length the full output would have had (excluding the NUL).
 */
int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

void errfmt(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

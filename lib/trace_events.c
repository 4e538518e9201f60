// SPDX-License-Identifier: GPL-2.0
/*
 * lib/trace_events.c - names, formats and parsing of the trace events
 * (lib/trace_events.h).  Portable: the kernel and the host tests build it.
 */
#include <stdarg.h>
#include <stdbool.h>

#include "lib/trace_events.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"

static const struct {
	const char *name;
	const char *fmt;
	unsigned int nargs;
} trace_events[TRACE_NR_EVENTS] = {
#define TRACE_DESC_ONE(n, nargs_, f) [TRACE_##n] = { #n, f, nargs_ },
	TRACE_EVENTS(TRACE_DESC_ONE)
#undef TRACE_DESC_ONE
};

const char *trace_event_name(unsigned int id)
{
	return id < TRACE_NR_EVENTS ? trace_events[id].name : NULL;
}

const char *trace_event_format(unsigned int id)
{
	return id < TRACE_NR_EVENTS ? trace_events[id].fmt : NULL;
}

unsigned int trace_event_nargs(unsigned int id)
{
	return id < TRACE_NR_EVENTS ? trace_events[id].nargs : 0;
}

/* Events whose name is s[0..len), or starts with it if @prefix. */
static uint32_t match_events(const char *s, size_t len, bool prefix)
{
	uint32_t mask = 0;
	unsigned int i;

	for (i = 0; i < TRACE_NR_EVENTS; i++) {
		const char *name = trace_events[i].name;
		size_t n = strlen(name);

		if (prefix ? n >= len && !memcmp(name, s, len) :
			     n == len && !memcmp(name, s, len))
			mask |= TRACE_BIT(i);
	}
	return mask;
}

/**
 * trace_parse_events - the events of a trace= value
 * @s: "all", "none", or a comma list of event names, where "PREFIX*"
 *	stands for every event starting with PREFIX ("tmigr_*")
 * @len: length of @s
 * @mask: out: TRACE_BIT() of each event named
 *
 * Return: 0, or -EINVAL for an empty value or element, or an element
 * that names no event (*@mask untouched then).
 */
int trace_parse_events(const char *s, size_t len, uint32_t *mask)
{
	uint32_t m = 0;
	size_t i = 0;

	if (len == 3 && !memcmp(s, "all", 3)) {
		*mask = TRACE_ALL_MASK;
		return 0;
	}
	if (len == 4 && !memcmp(s, "none", 4)) {
		*mask = 0;
		return 0;
	}
	if (len == 0)
		return -EINVAL;
	while (i <= len) {
		size_t start = i, n;
		uint32_t one;
		bool glob;

		while (i < len && s[i] != ',')
			i++;
		n = i - start;
		glob = n > 0 && s[start + n - 1] == '*';
		one = match_events(s + start, glob ? n - 1 : n, glob);
		if (n == 0 || !one)
			return -EINVAL;
		m |= one;
		i++; /* past the comma, or past the end */
	}
	*mask = m;
	return 0;
}

/* Append to buf[*pos..size), NUL-terminated; *pos counts what was wanted. */
static void put(char *buf, size_t size, size_t *pos, const char *fmt, ...)
	__printf_fmt(4, 5);

static void put(char *buf, size_t size, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(*pos < size ? buf + *pos : NULL,
		      *pos < size ? size - *pos : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		*pos += (size_t)n;
}

/* The @idx-th name of the list "a,b,c}" at @list, if there is one. */
static void put_enum(char *buf, size_t size, size_t *pos, const char *list,
		     uint64_t idx)
{
	uint64_t k = 0;
	const char *p = list;

	while (*p && *p != '}') {
		const char *end = p;

		while (*end && *end != ',' && *end != '}')
			end++;
		if (k++ == idx) {
			put(buf, size, pos, "%.*s", (int)(end - p), p);
			return;
		}
		p = *end == ',' ? end + 1 : end;
	}
	put(buf, size, pos, "%lu", (unsigned long)idx);
}

/**
 * trace_format_args - "key=value ..." of one record, as its format says
 * @buf: output, always NUL-terminated when @size > 0
 * @size: size of @buf
 * @id: the event
 * @args: its arguments
 * @n: how many; missing ones print as 0, extra ones are ignored
 *
 * Return: the length the full text has (as snprintf()); -1 for an
 * unknown event.
 */
int trace_format_args(char *buf, size_t size, unsigned int id,
		      const uint64_t *args, unsigned int n)
{
	const char *f = trace_event_format(id);
	unsigned int k = 0;
	size_t pos = 0;

	if (!f)
		return -1;
	if (size)
		buf[0] = '\0';
	while (*f) {
		const char *lit = f;
		uint64_t v;

		while (*f && *f != '%')
			f++;
		if (f > lit)
			put(buf, size, &pos, "%.*s", (int)(f - lit), lit);
		if (!*f)
			break;
		f++;
		v = k < n ? args[k] : 0;
		k++;
		switch (*f) {
		case 'u':
			put(buf, size, &pos, "%lu", (unsigned long)v);
			break;
		case 'd':
			put(buf, size, &pos, "%ld", (long)v);
			break;
		case 'x':
			put(buf, size, &pos, "0x%lx", (unsigned long)v);
			break;
		case 'p':
			put(buf, size, &pos, "0x%016lx", (unsigned long)v);
			break;
		case 't':
			if (v == UINT64_MAX)
				put(buf, size, &pos, "none");
			else
				put(buf, size, &pos, "%lu", (unsigned long)v);
			break;
		case '{':
			put_enum(buf, size, &pos, f + 1, v);
			while (*f && *f != '}')
				f++;
			break;
		default: /* a bad format shows itself */
			put(buf, size, &pos, "%%%c", *f ? *f : '?');
			break;
		}
		if (*f)
			f++;
	}
	return (int)pos;
}

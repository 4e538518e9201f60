// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>

#include "kernel/scenario_opts.h"
#include "lib/errno.h"
#include "lib/parse.h"
#include "lib/printf.h"
#include "lib/string.h"

static const char *const names[] = {
	[SCENARIO_NONE] = "",
	[SCENARIO_ONE_BUSY] = "one_busy",
	[SCENARIO_ALL_IDLE] = "all_idle",
	[SCENARIO_BUSY_PER_NODE] = "busy_per_node",
	[SCENARIO_MIXED] = "mixed",
};
#define NR_NAMES (sizeof(names) / sizeof(names[0]))

const char *scenario_name(enum scenario_kind kind)
{
	return (unsigned)kind < NR_NAMES ? names[kind] : "?";
}

static bool word_is(const char *w, size_t len, const char *name)
{
	return strlen(name) == len && memcmp(w, name, len) == 0;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__printf_fmt(3, 4);

/* errfmt() and the error code every parse failure here returns. */
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

struct busy_ctx {
	struct scenario_opts *o;
	bool overflow;
};

static void add_busy(unsigned int cpu, void *arg)
{
	struct busy_ctx *c = arg;

	if (c->o->nbusy == SCENARIO_MAX_BUSY) {
		c->overflow = true;
		return;
	}
	c->o->busy[c->o->nbusy++] = cpu;
}

/* One hotplug= entry, CPU@MS; kept sorted by time (stable). */
static int parse_hotplug(const char *w, size_t len, struct scenario_opts *o,
			 char *err, size_t errlen)
{
	size_t at = 0;
	unsigned int cpu, ms, i;

	while (at < len && w[at] != '@')
		at++;
	if (at == len || parse_uint(w, at, &cpu) ||
	    parse_uint(w + at + 1, len - at - 1, &ms) || ms > 3600000)
		return fail(err, errlen,
			    "scenario: bad hotplug= entry '%.*s' (expected "
			    "CPU@MS, MS 0..3600000)",
			    (int)len, w);
	if (o->nhotplug == SCENARIO_MAX_HOTPLUG)
		return fail(err, errlen,
			    "scenario: at most %u hotplug= entries",
			    SCENARIO_MAX_HOTPLUG);
	for (i = o->nhotplug; i > 0 && o->hotplug[i - 1].at_ms > ms; i--)
		o->hotplug[i] = o->hotplug[i - 1];
	o->hotplug[i].cpu = cpu;
	o->hotplug[i].at_ms = ms;
	o->nhotplug++;
	return 0;
}

/* One comma-separated word after the name; @key is the last key seen. */
static int parse_word(const char *w, size_t len, const char **key,
		      struct scenario_opts *o, char *err, size_t errlen)
{
	const char *eq = 0, *val = w;
	size_t vlen = len;
	struct busy_ctx ctx = { o, false };

	for (size_t i = 0; i < len && !eq; i++)
		if (w[i] == '=')
			eq = &w[i];
	if (eq) {
		size_t klen = (size_t)(eq - w);

		val = eq + 1;
		vlen = len - klen - 1;
		if (word_is(w, klen, "period_ms"))
			*key = "period_ms";
		else if (word_is(w, klen, "duration_ms"))
			*key = "duration_ms";
		else if (word_is(w, klen, "busy"))
			*key = "busy";
		else if (word_is(w, klen, "hotplug"))
			*key = "hotplug";
		else if (word_is(w, klen, "seed"))
			*key = "seed";
		else if (word_is(w, klen, "close_late_ms"))
			*key = "close_late_ms";
		else
			return fail(
				err, errlen,
				"scenario: unknown key '%.*s' (expected "
				"period_ms=, duration_ms=, busy=, hotplug=, seed=, "
				"close_late_ms=)",
				(int)klen, w);
	} else if (!*key || (strcmp(*key, "busy") != 0 &&
			     strcmp(*key, "hotplug") != 0)) {
		return fail(err, errlen, "scenario: '%.*s' is not key=value",
			    (int)len, w);
	}
	if (strcmp(*key, "hotplug") == 0)
		return parse_hotplug(val, vlen, o, err, errlen);
	if (strcmp(*key, "busy") == 0) {
		if (parse_cpulist(val, vlen, add_busy, &ctx, 1u << 20) ||
		    ctx.overflow)
			return fail(err, errlen,
				    "scenario: bad busy= CPU list '%.*s' "
				    "(at most %u CPUs)",
				    (int)vlen, val, SCENARIO_MAX_BUSY);
		return 0;
	}
	{
		unsigned int v;

		if (strcmp(*key, "seed") == 0) {
			if (parse_uint(val, vlen, &v))
				return fail(
					err, errlen,
					"scenario: bad seed '%.*s' (expected "
					"an unsigned number)",
					(int)vlen, val);
			o->seed = v;
			return 0;
		}
		if (parse_uint(val, vlen, &v) || v == 0 || v > 3600000)
			return fail(err, errlen,
				    "scenario: bad value '%.*s' for %s "
				    "(expected 1..3600000)",
				    (int)vlen, val, *key);
		if (strcmp(*key, "period_ms") == 0)
			o->period_ms = v;
		else if (strcmp(*key, "close_late_ms") == 0)
			o->close_late_ms = v;
		else
			o->duration_ms = v;
	}
	return 0;
}

/**
 * scenario_parse - parse the value of scenario=
 * @s: NUL-terminated value ("" means none)
 * @out: result, defaults filled in
 * @err: message on error (may be NULL)
 * @errlen: size of @err
 *
 * Returns 0 or -EINVAL with a one-line message in @err.
 */
int scenario_parse(const char *s, struct scenario_opts *out, char *err,
		   size_t errlen)
{
	const char *key = 0;
	size_t n = 0;
	unsigned int k;

	memset(out, 0, sizeof(*out));
	out->period_ms = 10;
	out->duration_ms = 1000;
	out->seed = 1;
	if (!*s)
		return 0;
	while (s[n] && s[n] != ',')
		n++;
	for (k = 1; k < NR_NAMES; k++)
		if (word_is(s, n, names[k]))
			out->kind = (enum scenario_kind)k;
	if (out->kind == SCENARIO_NONE)
		return fail(err, errlen,
			    "scenario: unknown scenario '%.*s' (known: "
			    "one_busy, all_idle, busy_per_node, mixed)",
			    (int)n, s);
	s += n;
	while (*s == ',') {
		int ret;

		s++;
		n = 0;
		while (s[n] && s[n] != ',')
			n++;
		ret = parse_word(s, n, &key, out, err, errlen);
		if (ret)
			return ret;
		s += n;
	}
	if (out->kind == SCENARIO_MIXED && (out->nbusy || out->nhotplug))
		return fail(
			err, errlen,
			"scenario: mixed takes no busy= or hotplug= (its CPUs "
			"go busy and idle at random)");
	if (out->kind == SCENARIO_ALL_IDLE && out->nbusy)
		return fail(err, errlen,
			    "scenario: all_idle takes no busy= CPUs");
	if (out->kind == SCENARIO_ALL_IDLE && out->nhotplug)
		return fail(
			err, errlen,
			"scenario: all_idle takes no hotplug= (the boot "
			"CPU, which runs the hotplug events, must be busy)");
	for (k = 0; k < out->nhotplug; k++)
		if (out->hotplug[k].at_ms >= out->duration_ms)
			return fail(err, errlen,
				    "scenario: hotplug= entry %u@%u is not "
				    "before duration_ms=%u",
				    out->hotplug[k].cpu, out->hotplug[k].at_ms,
				    out->duration_ms);
	return 0;
}

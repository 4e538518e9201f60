// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/sim/replay_parse.c - one line of a tracefs "trace" file.
 *
 *   <task>-<pid>  [CPU] <irq flags>  <sec>.<frac>: <event>: <fields>
 *
 * The task name may hold spaces and dashes, so the line is anchored at
 * the first "[digits]"; the irq-flags column is optional (tracefs'
 * irq-info option).  Lines starting with '#' are the header: "#P:N" gives
 * the CPU count, "# tinykernel-replay: ... nodes=MAP hz=N" what
 * tools/record-linux-trace adds.  Events the replay does not use are
 * counted and skipped; a line that is none of these, an event of ours
 * without a field it needs, a CPU out of range, a timestamp going back or
 * a ring-buffer overrun ("[LOST N EVENTS]") is an error: the caller gets
 * the reason and prints it with the file name and line number.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/host/sim/replay.h"

struct span {
	const char *p;
	size_t n;
};

static bool span_eq(struct span s, const char *lit)
{
	size_t n = strlen(lit);

	return s.n == n && !memcmp(s.p, lit, n);
}

/* Decimal (base 10) or hex (16) of all of @s into @v; false if not one. */
static bool span_num(struct span s, unsigned int base, uint64_t *v)
{
	uint64_t x = 0;

	if (!s.n || s.n > (base == 16 ? 16u : 20u))
		return false;
	for (size_t i = 0; i < s.n; i++) {
		char c = s.p[i];
		unsigned int d;

		if (c >= '0' && c <= '9')
			d = (unsigned int)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned int)(c - 'a' + 10);
		else
			return false;
		if (base == 10 && x > (UINT64_MAX - d) / 10)
			return false;
		x = x * base + d;
	}
	*v = x;
	return true;
}

/*
 * The value of "key=" in @f: the key starts the text or follows ' ' or
 * '['; the value runs to a space, ']' or the end.
 */
static bool field(struct span f, const char *key, struct span *val)
{
	size_t kn = strlen(key);

	for (size_t i = 0; i + kn <= f.n; i++) {
		if ((i && f.p[i - 1] != ' ' && f.p[i - 1] != '[') ||
		    memcmp(f.p + i, key, kn))
			continue;
		val->p = f.p + i + kn;
		val->n = 0;
		while (i + kn + val->n < f.n && val->p[val->n] != ' ' &&
		       val->p[val->n] != ']')
			val->n++;
		return true;
	}
	return false;
}

static int fail(char *err, size_t errlen, const char *fmt, const char *what)
{
	snprintf(err, errlen, fmt, what);
	return -1;
}

static int num_field(struct span f, const char *key, unsigned int base,
		     uint64_t *v, char *err, size_t errlen)
{
	struct span val;

	if (!field(f, key, &val))
		return fail(err, errlen, "missing field %s", key);
	if (!span_num(val, base, v))
		return fail(err, errlen, "bad number in field %s", key);
	return 0;
}

/* Index of timer pointer @ptr, added if new; RP_NONE if out of memory. */
static uint32_t timer_index(struct rp_trace *tr, uint64_t ptr)
{
	uint32_t h;

	if (2 * (tr->nr_timers + 1) > tr->hash_cap) {
		uint32_t cap = tr->hash_cap ? 2 * tr->hash_cap : 1024;
		uint32_t *nh = malloc(cap * sizeof(*nh));
		uint64_t *np = realloc(tr->ptrs, cap / 2 * sizeof(*np));

		if (!nh || !np) {
			free(nh);
			if (np)
				tr->ptrs = np;
			return RP_NONE;
		}
		tr->ptrs = np;
		memset(nh, 0xff, cap * sizeof(*nh));
		for (uint32_t i = 0; i < tr->nr_timers; i++) {
			h = (uint32_t)(tr->ptrs[i] * 0x9e3779b97f4a7c15ull >>
				       40) &
			    (cap - 1);
			while (nh[h] != RP_NONE)
				h = (h + 1) & (cap - 1);
			nh[h] = i;
		}
		free(tr->hash);
		tr->hash = nh;
		tr->hash_cap = cap;
	}
	h = (uint32_t)(ptr * 0x9e3779b97f4a7c15ull >> 40) & (tr->hash_cap - 1);
	while (tr->hash[h] != RP_NONE) {
		if (tr->ptrs[tr->hash[h]] == ptr)
			return tr->hash[h];
		h = (h + 1) & (tr->hash_cap - 1);
	}
	tr->ptrs[tr->nr_timers] = ptr;
	tr->hash[h] = tr->nr_timers;
	return tr->nr_timers++;
}

static struct rp_event *new_event(struct rp_trace *tr)
{
	if (tr->nr_ev == tr->cap_ev) {
		size_t cap = tr->cap_ev ? 2 * tr->cap_ev : 4096;
		struct rp_event *n = realloc(tr->ev, cap * sizeof(*n));

		if (!n)
			return NULL;
		tr->ev = n;
		tr->cap_ev = cap;
	}
	memset(&tr->ev[tr->nr_ev], 0, sizeof(*tr->ev));
	return &tr->ev[tr->nr_ev++];
}

/* "#P:N" and "# tinykernel-replay: ..." header lines. */
static int parse_header(struct rp_trace *tr, struct span l, char *err,
			size_t errlen)
{
	struct span v;
	uint64_t n;

	if (field(l, "#P:", &v)) {
		if (!span_num(v, 10, &n) || !n || n > RP_MAX_CPUS)
			return fail(err, errlen, "bad CPU count in %s", "#P:");
		tr->hdr_cpus = (unsigned int)n;
	}
	if (l.n < 20 || memcmp(l.p, "# tinykernel-replay:", 20))
		return 0;
	if (field(l, "hz=", &v)) {
		if (!span_num(v, 10, &n) || !n || n > 10000)
			return fail(err, errlen, "bad %s in header", "hz=");
		tr->hz = (unsigned int)n;
	}
	if (field(l, "nodes=", &v)) {
		if (!v.n || v.n >= sizeof(tr->hdr_nodes))
			return fail(err, errlen, "bad %s in header", "nodes=");
		memcpy(tr->hdr_nodes, v.p, v.n);
		tr->hdr_nodes[v.n] = 0;
	}
	return 0;
}

/* "[CPU]", then optional flags, then "sec.frac:" then "event: fields". */
static int parse_prefix(struct span l, unsigned int *cpu, uint64_t *ns,
			struct span *ev, struct span *f, char *err,
			size_t errlen)
{
	size_t i = 0, j;
	uint64_t v, sec, frac, scale;

	for (;; i++) {
		if (i >= l.n)
			return fail(err, errlen, "%s", "no [CPU] column");
		if (l.p[i] != '[')
			continue;
		for (j = i + 1; j < l.n && l.p[j] >= '0' && l.p[j] <= '9'; j++)
			;
		if (j > i + 1 && j < l.n && l.p[j] == ']')
			break;
	}
	if (!span_num((struct span){ l.p + i + 1, j - i - 1 }, 10, &v) ||
	    v >= RP_MAX_CPUS)
		return fail(err, errlen, "%s", "CPU column out of range");
	*cpu = (unsigned int)v;
	for (i = j + 1; i < l.n && l.p[i] == ' '; i++)
		;
	/* The irq-flags column: a token that does not start with a digit. */
	if (i < l.n && (l.p[i] < '0' || l.p[i] > '9')) {
		while (i < l.n && l.p[i] != ' ')
			i++;
		while (i < l.n && l.p[i] == ' ')
			i++;
	}
	for (j = i; j < l.n && l.p[j] >= '0' && l.p[j] <= '9'; j++)
		;
	if (j == i || j >= l.n || l.p[j] != '.' ||
	    !span_num((struct span){ l.p + i, j - i }, 10, &sec) ||
	    sec > 1000000000ull)
		return fail(err, errlen, "%s", "bad timestamp");
	for (i = ++j; j < l.n && l.p[j] >= '0' && l.p[j] <= '9'; j++)
		;
	if (j == i || j - i > 9 || j + 1 >= l.n || l.p[j] != ':' ||
	    l.p[j + 1] != ' ' ||
	    !span_num((struct span){ l.p + i, j - i }, 10, &frac))
		return fail(err, errlen, "%s", "bad timestamp");
	for (scale = 1, v = j - i; v < 9; v++)
		scale *= 10;
	*ns = sec * 1000000000ull + frac * scale;
	for (i = j + 2, j = i; j < l.n && l.p[j] != ':' && l.p[j] != ' '; j++)
		;
	if (j == i || j >= l.n || l.p[j] != ':')
		return fail(err, errlen, "%s", "no event name");
	ev->p = l.p + i;
	ev->n = j - i;
	f->p = l.p + j + 1;
	f->n = l.n - j - 1;
	return 0;
}

/* The replay's events by name; -1 for one it does not use. */
static int event_type(struct span ev)
{
	static const struct {
		const char *name;
		int type;
	} names[] = {
		{ "cpu_idle", RP_IDLE_ENTER },
		{ "local_timer_entry", RP_LOC },
		{ "reschedule_entry", RP_RES },
		{ "call_function_entry", RP_CALL },
		{ "call_function_single_entry", RP_CALL },
		{ "timer_start", RP_START },
		{ "timer_cancel", RP_CANCEL },
		{ "timer_init", RP_INIT },
		{ "timer_expire_entry", RP_EXP_ENTRY },
		{ "timer_expire_exit", RP_EXP_EXIT },
		{ "hrtimer_expire_entry", RP_HR_EXP },
		{ "tmigr_handle_remote", RP_TMIGR_REMOTE },
		{ "tmigr_handle_remote_cpu", RP_TMIGR_REMOTE_CPU },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (span_eq(ev, names[i].name))
			return names[i].type;
	return -1;
}

/* flags= of timer_start: letters joined by '|', maybe empty. */
static int start_flags(struct span f, uint8_t *flags, char *err, size_t errlen)
{
	struct span v;

	if (!field(f, "flags=", &v))
		return fail(err, errlen, "missing field %s", "flags=");
	for (size_t i = 0; i < v.n; i++) {
		switch (v.p[i]) {
		case 'P':
			*flags |= RP_F_PINNED;
			break;
		case 'D':
			*flags |= RP_F_DEFER;
			break;
		case 'I':
		case '|':
			break;
		default:
			return fail(err, errlen, "bad letter in %s", "flags=");
		}
	}
	return 0;
}

static int timer_field(struct rp_trace *tr, struct span f, struct rp_event *e,
		       char *err, size_t errlen)
{
	uint64_t ptr;

	if (num_field(f, "timer=", 16, &ptr, err, errlen))
		return -1;
	e->timer = timer_index(tr, ptr);
	if (e->timer == RP_NONE)
		return fail(err, errlen, "%s", "out of memory");
	return 0;
}

static int parse_start(struct rp_trace *tr, struct span f, struct rp_event *e,
		       char *err, size_t errlen)
{
	uint64_t cpu, timeout;
	struct span v;
	bool neg;

	if (timer_field(tr, f, e, err, errlen) ||
	    num_field(f, "expires=", 10, &e->expires, err, errlen) ||
	    num_field(f, "cpu=", 10, &cpu, err, errlen) ||
	    start_flags(f, &e->flags, err, errlen))
		return -1;
	if (cpu >= RP_MAX_CPUS)
		return fail(err, errlen, "%s", "cpu= out of range");
	e->target = (uint32_t)cpu;
	/* [timeout=] is expires - jiffies at the call: the jiffies sample. */
	if (!field(f, "timeout=", &v))
		return fail(err, errlen, "missing field %s", "timeout=");
	/* Negative for an expiry already past. */
	neg = v.n && *v.p == '-';
	if (neg)
		v.p++, v.n--;
	if (!span_num(v, 10, &timeout) ||
	    (neg ? timeout > UINT64_MAX - e->expires : timeout > e->expires))
		return fail(err, errlen, "bad number in field %s", "timeout=");
	e->jif = neg ? e->expires + timeout : e->expires - timeout;
	return 0;
}

/* The fields of event @type into @e. */
static int parse_fields(struct rp_trace *tr, int type, unsigned int cpu,
			struct span f, struct rp_event *e, char *err,
			size_t errlen)
{
	struct span v;
	uint64_t n;

	switch (type) {
	case RP_IDLE_ENTER:
		if (num_field(f, "state=", 10, &n, err, errlen) ||
		    num_field(f, "cpu_id=", 10, &e->expires, err, errlen))
			return -1;
		if (e->expires != cpu)
			return fail(err, errlen, "%s",
				    "cpu_id= is not the CPU column");
		e->expires = 0;
		if (n == 4294967295ull)
			e->type = RP_IDLE_EXIT;
		return 0;
	case RP_START:
		return parse_start(tr, f, e, err, errlen);
	case RP_CANCEL:
	case RP_INIT:
	case RP_EXP_EXIT:
		return timer_field(tr, f, e, err, errlen);
	case RP_EXP_ENTRY:
		return timer_field(tr, f, e, err, errlen) ||
		       num_field(f, "now=", 10, &e->jif, err, errlen);
	case RP_HR_EXP:
		if (!field(f, "function=", &v))
			return fail(err, errlen, "missing field %s",
				    "function=");
		if (span_eq(v, "tick_nohz_handler") ||
		    span_eq(v, "tick_sched_timer"))
			e->flags |= RP_F_TICK;
		return 0;
	case RP_TMIGR_REMOTE_CPU:
		return num_field(f, "cpu=", 10, &n, err, errlen);
	default:
		return 0;
	}
}

/**
 * rp_parse_line - take one line (without its newline) into @tr
 * @tr: the trace so far
 * @line: the line; need not be NUL-terminated
 * @len: its length
 * @err: the reason when it is malformed
 * @errlen: size of @err
 *
 * Returns 0, or -1 with @err set.
 */
int rp_parse_line(struct rp_trace *tr, const char *line, size_t len, char *err,
		  size_t errlen)
{
	struct span l = { line, len }, ev, f;
	struct rp_event *e;
	unsigned int cpu;
	uint64_t ns;
	int type;

	tr->lines++;
	while (l.n && (*l.p == ' ' || *l.p == '\t'))
		l.p++, l.n--;
	if (l.n && l.p[l.n - 1] == '\r')
		l.n--;
	if (!l.n)
		return 0;
	if (*l.p == '#')
		return parse_header(tr, l, err, errlen);
	if (l.n >= 4 && !memcmp(l.p, "CPU:", 4))
		return fail(
			err, errlen, "%s",
			"ring buffer overrun (LOST EVENTS): record with a larger buffer");
	if (parse_prefix(l, &cpu, &ns, &ev, &f, err, errlen))
		return -1;
	if (ns < tr->last_ns)
		return fail(err, errlen, "%s", "timestamp goes back");
	tr->last_ns = ns;
	if (tr->hdr_cpus && cpu >= tr->hdr_cpus)
		return fail(err, errlen, "%s",
			    "CPU column beyond the #P: count");
	type = event_type(ev);
	if (type < 0) {
		tr->skipped++;
		if (ev.n > 7 && !memcmp(ev.p, "hrtimer", 7))
			tr->hr_events++;
		return 0;
	}
	if (type == RP_HR_EXP)
		tr->hr_events++;
	e = new_event(tr);
	if (!e)
		return fail(err, errlen, "%s", "out of memory");
	e->ns = ns;
	e->cpu = (uint16_t)cpu;
	e->type = (uint8_t)type;
	e->timer = e->target = RP_NONE;
	if (parse_fields(tr, type, cpu, f, e, err, errlen)) {
		tr->nr_ev--;
		return -1;
	}
	return 0;
}

/** rp_trace_init - an empty trace named @name (for messages) */
void rp_trace_init(struct rp_trace *tr, const char *name)
{
	memset(tr, 0, sizeof(*tr));
	tr->name = name;
}

/** rp_trace_free - free what @tr holds */
void rp_trace_free(struct rp_trace *tr)
{
	free(tr->ev);
	free(tr->ptrs);
	free(tr->hash);
	tr->ev = NULL;
	tr->ptrs = NULL;
	tr->hash = NULL;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/cmdline.c - table-driven kernel command line parser.
 *
 * Rules:
 *  - words are separated by any run of spaces, tabs, CR or LF; leading and
 *    trailing whitespace is ignored; there is no quoting;
 *  - "key=value" sets an option; a bare "key" is only accepted by options
 *    with a bare_value (currently nohz, meaning nohz=on);
 *  - an option given more than once is accepted and the last one wins;
 *  - the first error stops parsing: *out then holds the defaults plus the
 *    options parsed so far, and err holds one line (no trailing newline).
 */
#include <stdint.h>

#include "kernel/cmdline.h"
#include "lib/parse.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/trace_events.h"

typedef int (*cmdline_parse_fn)(const char *val, size_t len,
				struct boot_options *o);

struct cmdline_option {
	const char *name;
	cmdline_parse_fn parse;
	const char *values;	/* shown in help and in "expected ..." */
	const char *bare_value; /* value used for a bare "key", or NULL */
	const char *help;
};

static int set_str(char *dst, const char *val, size_t len)
{
	if (len >= CMDLINE_STR_MAX)
		return -ERANGE;
	memcpy(dst, val, len);
	dst[len] = '\0';
	return 0;
}

static int opt_selftest(const char *val, size_t len, struct boot_options *o)
{
	if (len == 0)
		return -EINVAL;
	return set_str(o->selftest, val, len);
}

static int opt_scenario(const char *val, size_t len, struct boot_options *o)
{
	return set_str(o->scenario, val, len);
}

static void cpu_seen(unsigned int cpu, void *arg)
{
	(void)cpu;
	(void)arg;
}

/* Syntax only here; the CPUs are checked against the machine at boot. */
static int opt_isolcpus(const char *val, size_t len, struct boot_options *o)
{
	int ret = parse_cpulist(val, len, cpu_seen, 0, 1u << 20);

	return ret ? ret : set_str(o->isolcpus, val, len);
}

/*
 * The events are checked here: a typo must not give an empty trace.  An
 * empty value clears, as for the other string options.
 */
static int opt_trace(const char *val, size_t len, struct boot_options *o)
{
	uint32_t mask = 0;
	int ret = len ? trace_parse_events(val, len, &mask) : 0;

	if (ret)
		return ret;
	ret = set_str(o->trace, val, len);
	if (!ret)
		o->trace_mask = mask;
	return ret;
}

/* SIZE in bytes, or with a K or M suffix (KiB, MiB). */
static int opt_trace_buf(const char *val, size_t len, struct boot_options *o)
{
	unsigned int v, shift = 0;
	int ret;

	if (len && (val[len - 1] == 'K' || val[len - 1] == 'k'))
		shift = 10;
	else if (len && (val[len - 1] == 'M' || val[len - 1] == 'm'))
		shift = 20;
	ret = parse_uint(val, shift ? len - 1 : len, &v);
	if (ret)
		return ret;
	if (v > (TRACE_BUF_MAX >> shift) || (v << shift) < TRACE_BUF_MIN)
		return -ERANGE;
	o->trace_buf = v << shift;
	return 0;
}

static const char *const timer_model_names[] = {
	[TIMER_MODEL_PULL] = "pull",
	[TIMER_MODEL_PUSH] = "push",
	[TIMER_MODEL_LOCAL] = "local",
};

#define NR_TIMER_MODELS \
	(sizeof(timer_model_names) / sizeof(timer_model_names[0]))

/**
 * timer_model_name - printable name of a timer model
 * @model: the model
 *
 * Return: "pull", "push", "local", or "?" for an out-of-range value.
 */
const char *timer_model_name(enum timer_model model)
{
	if ((unsigned int)model >= NR_TIMER_MODELS)
		return "?";
	return timer_model_names[model];
}

static bool val_eq(const char *val, size_t len, const char *word)
{
	return strlen(word) == len && memcmp(val, word, len) == 0;
}

/* Index of the word in @names[0..n-1], or -EINVAL. */
static int lookup_name(const char *val, size_t len, const char *const *names,
		       unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (val_eq(val, len, names[i]))
			return (int)i;
	return -EINVAL;
}

static int opt_timer_model(const char *val, size_t len, struct boot_options *o)
{
	int i = lookup_name(val, len, timer_model_names, NR_TIMER_MODELS);

	if (i < 0)
		return i;
	o->timer_model = (enum timer_model)i;
	return 0;
}

static const char *const tmigr_wake_names[] = {
	[TMIGR_WAKE_ONE] = "one",
	[TMIGR_WAKE_LINUX] = "linux",
	[TMIGR_WAKE_OWN] = "own",
};

/**
 * tmigr_wake_name - printable name of a tmigr_wake= policy
 * @policy: the policy
 *
 * Return: "one", "linux", "own", or "?" for an out-of-range value.
 */
const char *tmigr_wake_name(enum tmigr_wake policy)
{
	if ((unsigned int)policy >= NR_TMIGR_WAKE)
		return "?";
	return tmigr_wake_names[policy];
}

static int opt_tmigr_wake(const char *val, size_t len, struct boot_options *o)
{
	int i = lookup_name(val, len, tmigr_wake_names, NR_TMIGR_WAKE);

	if (i < 0)
		return i;
	o->tmigr_wake = (enum tmigr_wake)i;
	return 0;
}

static int opt_hz(const char *val, size_t len, struct boot_options *o)
{
	unsigned int hz;
	int ret = parse_uint(val, len, &hz);

	if (ret)
		return ret;
	if (hz != 100 && hz != 250 && hz != 1000)
		return -EINVAL;
	o->hz = hz;
	return 0;
}

static int opt_nohz(const char *val, size_t len, struct boot_options *o)
{
	return parse_bool(val, len, &o->nohz);
}

static int opt_timer_migration(const char *val, size_t len,
			       struct boot_options *o)
{
	return parse_bool(val, len, &o->timer_migration);
}

static const char *const clockevent_names[] = {
	[CLOCKEVENT_AUTO] = "auto",
	[CLOCKEVENT_ONESHOT] = "oneshot",
	[CLOCKEVENT_DEADLINE] = "deadline",
};

static int opt_clockevent(const char *val, size_t len, struct boot_options *o)
{
	int i = lookup_name(val, len, clockevent_names,
			    sizeof(clockevent_names) /
				    sizeof(*clockevent_names));

	if (i < 0)
		return i;
	o->clockevent = (unsigned int)i;
	return 0;
}

static int parse_positive(const char *val, size_t len, unsigned int *out)
{
	unsigned int v;
	int ret = parse_uint(val, len, &v);

	if (ret)
		return ret;
	if (v == 0)
		return -EINVAL;
	*out = v;
	return 0;
}

static int opt_expect_cpus(const char *val, size_t len, struct boot_options *o)
{
	return parse_positive(val, len, &o->expect_cpus);
}

static int opt_expect_nodes(const char *val, size_t len, struct boot_options *o)
{
	return parse_positive(val, len, &o->expect_nodes);
}

static int opt_torture_seed(const char *val, size_t len, struct boot_options *o)
{
	return parse_u64(val, len, &o->torture_seed);
}

static int opt_torture_ms(const char *val, size_t len, struct boot_options *o)
{
	unsigned int v;
	int ret = parse_positive(val, len, &v);

	if (ret)
		return ret;
	if (v > TORTURE_MS_MAX)
		return -ERANGE;
	o->torture_ms = v;
	return 0;
}

static int opt_cpuhp_parallel(const char *val, size_t len,
			      struct boot_options *o)
{
	return parse_bool(val, len, &o->cpuhp_parallel);
}

/* A number up to @max into *@out; *@out is left alone on error. */
static int parse_uint_max(const char *val, size_t len, unsigned int max,
			  unsigned int *out)
{
	unsigned int v;
	int ret = parse_uint(val, len, &v);

	if (ret)
		return ret;
	if (v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

static int opt_cpu_init_udelay(const char *val, size_t len,
			       struct boot_options *o)
{
	return parse_uint_max(val, len, CPU_INIT_UDELAY_MAX,
			      &o->cpu_init_udelay);
}

static const char *const fault_test_names[] = {
	[FAULT_TEST_NONE] = "none",
	[FAULT_TEST_ALLCPUS] = "allcpus",
};

static int opt_fault_test(const char *val, size_t len, struct boot_options *o)
{
	int i = lookup_name(val, len, fault_test_names,
			    sizeof(fault_test_names) /
				    sizeof(*fault_test_names));

	if (i < 0)
		return i;
	o->fault_test = (unsigned int)i;
	return 0;
}

static int opt_ap_late_test(const char *val, size_t len, struct boot_options *o)
{
	unsigned int v;
	int ret = parse_uint(val, len, &v);

	if (ret)
		return ret;
	if (v == 0 || v == AP_LATE_TEST_NONE)
		return -ERANGE; /* CPU 0 is the boot CPU */
	o->ap_late_test = v;
	return 0;
}

static int opt_tsc_sync_stall_test(const char *val, size_t len,
				   struct boot_options *o)
{
	return parse_uint_max(val, len, TSC_SYNC_STALL_TEST_MAX_US,
			      &o->tsc_sync_stall_test);
}

static int opt_ap_report_delay_test(const char *val, size_t len,
				    struct boot_options *o)
{
	return parse_uint_max(val, len, AP_REPORT_DELAY_TEST_MAX_MS,
			      &o->ap_report_delay_test);
}

/* Seconds without progress before the watchdog dumps; 0 or off: none. */
static int opt_watchdog(const char *val, size_t len, struct boot_options *o)
{
	unsigned int v;
	int ret;

	if (val_eq(val, len, "off")) {
		o->watchdog_s = 0;
		return 0;
	}
	ret = parse_uint(val, len, &v);
	if (ret)
		return ret;
	if (v > WATCHDOG_S_MAX)
		return -ERANGE;
	o->watchdog_s = v;
	return 0;
}

static const struct cmdline_option cmdline_options[] = {
	{ "selftest", opt_selftest, "all|none|NAME[,NAME...]", NULL,
	  "self-tests to run (default: all)" },
	{ "timer_model", opt_timer_model, "pull|push|local", NULL,
	  "timer interrupt distribution model (default: pull)" },
	{ "tmigr_wake", opt_tmigr_wake, "one|linux|own", NULL,
	  "which idle CPU wakes for the idle pull hierarchy: one armed CPU "
	  "per event, or every CPU that finds it idle as Linux "
	  "(default: one)" },
	{ "hz", opt_hz, "100|250|1000", NULL,
	  "timer tick frequency (default: 250)" },
	{ "nohz", opt_nohz, "on|off", "on",
	  "stop the tick on idle CPUs; bare 'nohz' means on (default: on)" },
	{ "timer_migration", opt_timer_migration, "on|off", NULL,
	  "Linux's kernel.timer_migration sysctl: off, push keeps every "
	  "timer on the arming CPU (default: on)" },
	{ "clockevent", opt_clockevent, "auto|oneshot|deadline", NULL,
	  "LAPIC timer mode; auto = TSC-deadline where CPUID has it, "
	  "deadline = that or fail (default: auto)" },
	{ "scenario", opt_scenario, "NAME", NULL,
	  "scenario to run after boot (default: none)" },
	{ "trace", opt_trace, "all|none|EVENT[,EVENT...]", NULL,
	  "trace events to record and dump at the end; PREFIX* matches, "
	  "docs/tracing.md lists them (default: none)" },
	{ "trace_buf", opt_trace_buf, "SIZE[K|M]", NULL,
	  "trace buffer per CPU, 1K..64M (default: 64K)" },
	{ "isolcpus", opt_isolcpus, "CPU[,CPU|A-B...]", NULL,
	  "CPUs that are not timer housekeeping: push moves their timers "
	  "away and never onto them (default: none)" },
	{ "expect_cpus", opt_expect_cpus, "N", NULL,
	  "fail boot unless exactly N CPUs come up (default: unchecked)" },
	{ "expect_nodes", opt_expect_nodes, "N", NULL,
	  "fail boot unless exactly N NUMA nodes exist (default: unchecked)" },
	{ "torture_seed", opt_torture_seed, "N", NULL,
	  "seed of selftest=torture's random operations, decimal or 0x hex "
	  "(default: 1)" },
	{ "torture_ms", opt_torture_ms, "1..3600000", NULL,
	  "how long selftest=torture runs, in ms (default: 3000)" },
	{ "cpuhp.parallel", opt_cpuhp_parallel, "on|off", NULL,
	  "start the APs all at once (on) or one at a time (off), as "
	  "Linux's option of that name; 0 and 1 work too (default: on)" },
	{ "cpu_init_udelay", opt_cpu_init_udelay, "0..100000", NULL,
	  "microseconds to wait after an AP's INIT; default 0 on Intel "
	  "family >= 6 and AMD family >= 0xF, else 10000 (as Linux)" },
	{ "fault_test", opt_fault_test, "none|allcpus", NULL,
	  "test only: every online CPU takes a page fault at once; with "
	  "selftest=none instead of the self-tests (default: none)" },
	{ "ap_late_test", opt_ap_late_test, "CPU", NULL,
	  "test only: the boot CPU gives up on this AP at once, as on one "
	  "that never reports in (default: none)" },
	{ "ap_report_delay_test", opt_ap_report_delay_test, "0..1000", NULL,
	  "test only: MADT CPU i reports in (CPUs - i) times this many ms "
	  "late, the lowest last, as APs a host runs slowly (default: 0)" },
	{ "tsc_sync_stall_test", opt_tsc_sync_stall_test, "0..100000", NULL,
	  "test only: each AP holds every TSC sync answer this many "
	  "microseconds, as on a host that stretches every round "
	  "(default: 0)" },
	{ "watchdog", opt_watchdog, "off|0..3600", NULL,
	  "seconds a CPU or stage may make no progress before the watchdog "
	  "dumps every CPU; 0 or off: no watchdog (default: 20)" },
};

#define NR_CMDLINE_OPTIONS \
	(sizeof(cmdline_options) / sizeof(cmdline_options[0]))

/**
 * cmdline_defaults - fill @out with the default boot options
 * @out: options to initialise
 */
void cmdline_defaults(struct boot_options *out)
{
	memset(out, 0, sizeof(*out));
	strlcpy(out->selftest, "all", sizeof(out->selftest));
	out->timer_model = TIMER_MODEL_PULL;
	out->tmigr_wake = TMIGR_WAKE_DEFAULT;
	out->hz = 250;
	out->nohz = true;
	out->timer_migration = true;
	out->trace_buf = TRACE_BUF_DEFAULT;
	out->torture_seed = TORTURE_SEED_DEFAULT;
	out->torture_ms = TORTURE_MS_DEFAULT;
	out->cpuhp_parallel = true;
	out->cpu_init_udelay = CPU_INIT_UDELAY_AUTO;
	out->ap_late_test = AP_LATE_TEST_NONE;
	out->watchdog_s = WATCHDOG_S_DEFAULT;
}

static const struct cmdline_option *find_option(const char *key, size_t len)
{
	size_t i;

	for (i = 0; i < NR_CMDLINE_OPTIONS; i++) {
		if (val_eq(key, len, cmdline_options[i].name))
			return &cmdline_options[i];
	}
	return NULL;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static const char *find_eq(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (s[i] == '=')
			return &s[i];
	}
	return NULL;
}

/* Parse one word s[0..len) (no whitespace inside). */
static int parse_word(const char *s, size_t len, struct boot_options *out,
		      char *err, size_t errlen)
{
	const char *eq = find_eq(s, len);
	size_t klen = eq ? (size_t)(eq - s) : len;
	const struct cmdline_option *opt = find_option(s, klen);
	const char *val;
	size_t vlen;

	if (!opt) {
		errfmt(err, errlen, "cmdline: unknown option '%.*s'", (int)klen,
		       s);
		return -1;
	}
	if (eq) {
		val = eq + 1;
		vlen = len - klen - 1;
	} else if (opt->bare_value) {
		val = opt->bare_value;
		vlen = strlen(val);
	} else {
		errfmt(err, errlen,
		       "cmdline: option %s needs a value (expected %s=%s)",
		       opt->name, opt->name, opt->values);
		return -1;
	}
	if (opt->parse(val, vlen, out)) {
		errfmt(err, errlen,
		       "cmdline: bad value '%.*s' for %s (expected %s)",
		       (int)vlen, val, opt->name, opt->values);
		return -1;
	}
	return 0;
}

/**
 * cmdline_parse - parse the kernel command line into boot options
 * @line: NUL-terminated command line; NULL is treated as empty
 * @out: filled with defaults first, then with the parsed options
 * @err: buffer for a one-line error message, may be NULL
 * @errlen: size of @err
 *
 * Return: 0 on success, -1 on the first unknown option or bad value, with
 * a message such as "cmdline: unknown option 'foo'" in @err.
 */
int cmdline_parse(const char *line, struct boot_options *out, char *err,
		  size_t errlen)
{
	const char *p = line ? line : "";

	cmdline_defaults(out);
	if (err && errlen)
		err[0] = '\0';
	for (;;) {
		const char *start;

		while (is_space(*p))
			p++;
		if (!*p)
			return 0;
		start = p;
		while (*p && !is_space(*p))
			p++;
		if (parse_word(start, (size_t)(p - start), out, err, errlen))
			return -1;
	}
}

/**
 * cmdline_help - describe every option, one line each
 * @out: called once per line ("  name=VALUES  help", no newline)
 * @arg: cookie for @out
 */
void cmdline_help(cmdline_line_fn out, void *arg)
{
	char line[192];
	size_t i;

	for (i = 0; i < NR_CMDLINE_OPTIONS; i++) {
		const struct cmdline_option *opt = &cmdline_options[i];

		snprintf(line, sizeof(line), "  %s=%s  %s", opt->name,
			 opt->values, opt->help);
		out(line, arg);
	}
}

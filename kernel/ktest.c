#include "kernel/ktest.h"
#include "kernel/printk.h"
#include "kernel/watchdog.h"
#include "lib/string.h"

#include <stdarg.h>

extern const struct ktest_suite __start_ktest_suites[], __stop_ktest_suites[];

#define for_each_suite(s)                                        \
	for (const struct ktest_suite *s = __start_ktest_suites; \
	     s < __stop_ktest_suites; s++)

void ktest_fail(struct ktest *t, const char *file, int line, const char *fmt,
		...)
{
	va_list ap;

	t->failed = true;
	printk("        # %s: %s:%d: ", t->name, file, line);
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
	printk("\n");
}

void ktest_skip(struct ktest *t, const char *reason)
{
	t->skip_reason = reason;
}

/* Is @name an element of the comma list @list? */
static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	while (*list) {
		const char *end = strchr(list, ',');
		size_t len = end ? (size_t)(end - list) : strlen(list);

		if (len == n && !strncmp(list, name, n))
			return true;
		if (!end)
			break;
		list = end + 1;
	}
	return false;
}

static bool selected(const struct ktest_suite *s, const char *sel)
{
	if (!strcmp(sel, "none"))
		return false;
	if (!strcmp(sel, "all"))
		return !s->explicit_only;
	return in_list(sel, s->name);
}

int ktest_validate(const char *sel)
{
	const char *p = sel;

	if (!strcmp(sel, "all") || !strcmp(sel, "none"))
		return 0;
	while (*p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		bool found = false;

		for_each_suite(s)
			if (strlen(s->name) == len && !strncmp(s->name, p, len))
				found = true;
		if (!found) {
			printk("selftest: unknown suite '%.*s'; known:",
			       (int)len, p);
			for_each_suite(s)
				printk(" %s", s->name);
			printk("\n");
			return -1;
		}
		if (!end)
			break;
		p = end + 1;
	}
	return 0;
}

/* Run one suite at KTAP nesting level 1; true when no case failed. */
static bool run_suite(const struct ktest_suite *s, unsigned idx)
{
	const char *skip = s->skip ? s->skip() : 0;
	unsigned failed = 0;

	if (skip) {
		printk("ok %u %s # SKIP %s\n", idx, s->name, skip);
		return true;
	}
	printk("    KTAP version 1\n");
	printk("    # Subtest: %s\n", s->name);
	printk("    1..%u\n", s->ncases);
	for (unsigned i = 0; i < s->ncases; i++) {
		struct ktest t = { .name = s->cases[i].name };

		watchdog_stage(s->name, t.name, 0); /* no bound: shown only */
		s->cases[i].run(&t);
		if (t.failed) {
			failed++;
			printk("    not ok %u %s\n", i + 1, t.name);
		} else if (t.skip_reason) {
			printk("    ok %u %s # SKIP %s\n", i + 1, t.name,
			       t.skip_reason);
		} else {
			printk("    ok %u %s\n", i + 1, t.name);
		}
	}
	printk("%sok %u %s\n", failed ? "not " : "", idx, s->name);
	return failed == 0;
}

unsigned ktest_run(const char *sel)
{
	unsigned n = 0, idx = 0, failed = 0;

	for_each_suite(s)
		n += selected(s, sel);
	printk("KTAP version 1\n");
	printk("1..%u\n", n);
	for_each_suite(s) {
		if (!selected(s, sel))
			continue;
		if (!run_suite(s, ++idx))
			failed++;
	}
	printk("# selftest: %u suites, %u failed\n", n, failed);
	return failed;
}

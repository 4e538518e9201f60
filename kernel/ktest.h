/*
 * In-guest self-tests, printed as KTAP version 1 the way KUnit prints it,
 * so that Linux's `kunit.py parse` reads our serial log.  A suite is a
 * const struct placed in the .ktest_suites linker section by KTEST_SUITE();
 * the runner walks the section in link order.
 */
#ifndef KERNEL_KTEST_H
#define KERNEL_KTEST_H

#include <stdbool.h>
#include <stdint.h>

struct ktest {
	const char *name;
	bool failed;
	const char *skip_reason;
};

struct ktest_case {
	const char *name;
	void (*run)(struct ktest *t);
};

struct ktest_suite {
	const char *name;
	const struct ktest_case *cases;
	unsigned ncases;
	/* Not part of selftest=all: only run when named (e.g. panic_demo). */
	bool explicit_only;
	/* Returns a reason to skip the whole suite, or 0. */
	const char *(*skip)(void);
};

/* Unformatted: clang-format 14 splits the braces, moves #fn to column 0. */
/* clang-format off */
#define KTEST_CASE(fn) { #fn, fn }
/* clang-format on */

#define KTEST_SUITE(ident, ...)                               \
	static const struct ktest_suite ident __attribute__(( \
		used, section(".ktest_suites"), aligned(8))) = { __VA_ARGS__ }

__attribute__((format(printf, 4, 5))) void
ktest_fail(struct ktest *t, const char *file, int line, const char *fmt, ...);
void ktest_skip(struct ktest *t, const char *reason);

#define KEXPECT(t, cond)                                                   \
	do {                                                               \
		if (!(cond))                                               \
			ktest_fail((t), __FILE__, __LINE__, "expected %s", \
				   #cond);                                 \
	} while (0)

#define KEXPECT_EQ(t, a, b)                                                  \
	do {                                                                 \
		uint64_t __a = (uint64_t)(a), __b = (uint64_t)(b);           \
		if (__a != __b)                                              \
			ktest_fail((t), __FILE__, __LINE__,                  \
				   "expected %s == %s, got %lu and %lu", #a, \
				   #b, __a, __b);                            \
	} while (0)

#define KEXPECT_STREQ(t, a, b)                                              \
	do {                                                                \
		const char *__a = (a), *__b = (b);                          \
		if (strcmp(__a, __b))                                       \
			ktest_fail((t), __FILE__, __LINE__,                 \
				   "expected %s == \"%s\", got \"%s\"", #a, \
				   __b, __a);                               \
	} while (0)

/*
 * Check @selection ("all", "none" or a comma list of suite names) against
 * the registered suites; on an unknown name, print why and return -1.
 */
int ktest_validate(const char *selection);

/* Run the selected suites; returns the number of failed suites. */
unsigned ktest_run(const char *selection);

#endif

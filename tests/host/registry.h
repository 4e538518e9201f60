/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/host/registry.h - self-registering Check suites.
 *
 * Each tests/host/test_*.c defines a "Suite *fn(void)" and writes
 * HOST_SUITE(fn); a constructor adds it to the list run by main.c, so new
 * test files need no edits elsewhere (host.mk globs tests/host/test_*.c).
 */
#ifndef TESTS_HOST_REGISTRY_H
#define TESTS_HOST_REGISTRY_H

#include <check.h>

typedef Suite *(*host_suite_fn)(void);

void host_register_suite(host_suite_fn fn);

#define HOST_SUITE(fn)                                          \
	static void __attribute__((constructor)) reg_##fn(void) \
	{                                                       \
		host_register_suite(fn);                        \
	}

#endif /* TESTS_HOST_REGISTRY_H */

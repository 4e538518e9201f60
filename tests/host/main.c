// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/main.c - runs every suite registered with HOST_SUITE().
 *
 * Check's environment variables apply: CK_VERBOSITY=silent|minimal|normal|
 * verbose, CK_RUN_SUITE=name / CK_RUN_CASE=name to select, CK_FORK=no to
 * run in-process (handy under gdb).  Exit status is 0 iff all tests pass.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tests/host/registry.h"

#define MAX_HOST_SUITES 64

static host_suite_fn host_suites[MAX_HOST_SUITES];
static int nr_host_suites;

/**
 * host_register_suite - add a suite constructor to the run list
 * @fn: returns a new Suite when called
 */
void host_register_suite(host_suite_fn fn)
{
	if (nr_host_suites >= MAX_HOST_SUITES) {
		fprintf(stderr, "registry: too many suites (max %d)\n",
			MAX_HOST_SUITES);
		abort();
	}
	host_suites[nr_host_suites++] = fn;
}

int main(void)
{
	SRunner *sr;
	int i, failed;

	if (nr_host_suites == 0) {
		fprintf(stderr, "no test suites registered\n");
		return EXIT_FAILURE;
	}
	sr = srunner_create(host_suites[0]());
	for (i = 1; i < nr_host_suites; i++)
		srunner_add_suite(sr, host_suites[i]());
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

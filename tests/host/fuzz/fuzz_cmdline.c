// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/fuzz/fuzz_cmdline.c - libFuzzer harness for kernel/cmdline.c
 * and kernel/scenario_opts.c.
 *
 * Input: the command line's bytes (a C string: an embedded NUL ends it,
 * as it does for the kernel).  Like kmain, the harness runs
 * cmdline_parse() and, when that succeeds, scenario_parse() on the
 * scenario= value; it also gives the whole input to scenario_parse(), so
 * the scenario grammar is reached without a "scenario=" prefix.  Every
 * copy is an exact-size heap buffer, so ASan sees a read past the NUL.
 */
#include <stdbool.h>

#include "kernel/cmdline.h"
#include "kernel/scenario_opts.h"
#include "lib/errno.h"
#include "tests/host/fuzz/fuzz_util.h"

static char *dup_str(const uint8_t *data, size_t size)
{
	size_t n = 0;
	char *s;

	while (n < size && data[n])
		n++;
	s = malloc(n + 1);
	if (!s)
		abort();
	memcpy(s, data, n);
	s[n] = '\0';
	return s;
}

static void check_opts(const struct boot_options *o)
{
	FUZZ_CHECK_STR(o->selftest, sizeof(o->selftest));
	FUZZ_CHECK_STR(o->scenario, sizeof(o->scenario));
	FUZZ_CHECK_STR(o->trace, sizeof(o->trace));
	FUZZ_CHECK_STR(o->isolcpus, sizeof(o->isolcpus));
	FUZZ_CHECK(o->selftest[0] != '\0');
	FUZZ_CHECK(o->hz == 100 || o->hz == 250 || o->hz == 1000);
	FUZZ_CHECK(strcmp(timer_model_name(o->timer_model), "?") != 0);
	FUZZ_CHECK(o->clockevent <= CLOCKEVENT_DEADLINE);
}

static void check_scenario(const char *s)
{
	struct scenario_opts so;
	char err[160];
	int ret = scenario_parse(s, &so, err, sizeof(err));

	if (ret) {
		FUZZ_CHECK(ret == -EINVAL);
		FUZZ_CHECK_STR(err, sizeof(err));
		return;
	}
	FUZZ_CHECK(strcmp(scenario_name(so.kind), "?") != 0);
	FUZZ_CHECK(so.nbusy <= SCENARIO_MAX_BUSY);
	FUZZ_CHECK(so.period_ms >= 1 && so.period_ms <= 3600000);
	FUZZ_CHECK(so.duration_ms >= 1 && so.duration_ms <= 3600000);
	FUZZ_CHECK(so.kind != SCENARIO_NONE || !*s);
	FUZZ_CHECK(so.kind != SCENARIO_ALL_IDLE || so.nbusy == 0);
	for (unsigned i = 0; i < so.nbusy; i++)
		FUZZ_CHECK(so.busy[i] < 1u << 20);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct boot_options o, again;
	char *line = dup_str(data, size), err[160], *small;
	int ret;

	ret = cmdline_parse(line, &o, err, sizeof(err));
	FUZZ_CHECK_STR(err, sizeof(err));
	FUZZ_CHECK(ret == 0 || ret == -1);
	FUZZ_CHECK((ret == 0) == (err[0] == '\0'));
	if (ret == 0) {
		check_opts(&o);
		check_scenario(o.scenario);
	}
	/* same answer with a tiny or no message buffer */
	small = malloc(3);
	if (!small)
		abort();
	FUZZ_CHECK(cmdline_parse(line, &again, small, 3) == ret);
	FUZZ_CHECK_STR(small, 3);
	FUZZ_CHECK(memcmp(&o, &again, sizeof(o)) == 0);
	FUZZ_CHECK(cmdline_parse(line, &again, NULL, 0) == ret);
	free(small);

	check_scenario(line);
	free(line);
	return 0;
}

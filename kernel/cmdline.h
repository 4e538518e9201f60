/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel/cmdline.h - kernel command line parsing (portable, no hardware).
 *
 * The command line is a sequence of whitespace-separated "key=value" or bare
 * "key" words, e.g. "selftest=all timer_model=push hz=1000 nohz=off".
 * QEMU -append and GRUB multiboot2 both hand over only the arguments (no
 * image path), so every word must be a known option.
 */
#ifndef KERNEL_CMDLINE_H
#define KERNEL_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CMDLINE_STR_MAX	     128 /* size of the string options, incl. NUL */
#define TRACE_BUF_DEFAULT    (64u << 10) /* trace_buf=, per CPU */
#define TRACE_BUF_MIN	     (1u << 10)
#define TRACE_BUF_MAX	     (64u << 20)
#define TORTURE_SEED_DEFAULT 1	     /* torture_seed= */
#define TORTURE_MS_DEFAULT   3000    /* torture_ms= */
#define TORTURE_MS_MAX	     3600000 /* as scenario= duration_ms= */
#define WATCHDOG_S_DEFAULT   20	     /* watchdog=, seconds */
#define WATCHDOG_S_MAX	     3600

#include "timer/timer.h"	   /* enum timer_model */
#include "timer/timer_migration.h" /* enum tmigr_wake */

enum { CLOCKEVENT_AUTO, CLOCKEVENT_ONESHOT, CLOCKEVENT_DEADLINE };
enum { FAULT_TEST_NONE, FAULT_TEST_ALLCPUS };
/* cpu_init_udelay= not given: the CPU's vendor and family decide. */
#define CPU_INIT_UDELAY_AUTO	    0xFFFFFFFFu
#define CPU_INIT_UDELAY_MAX	    100000u /* 100 ms, ten times the SDM's wait */
#define AP_LATE_TEST_NONE	    0xFFFFFFFFu
#define TSC_SYNC_STALL_TEST_MAX_US  100000u /* 100 ms a round */
#define AP_REPORT_DELAY_TEST_MAX_MS 1000u

struct boot_options {
	/* "all" (default), "none", or a comma list checked by the runner */
	char selftest[CMDLINE_STR_MAX];
	enum timer_model timer_model;	/* default TIMER_MODEL_PULL */
	enum tmigr_wake tmigr_wake;	/* default TMIGR_WAKE_DEFAULT (one) */
	unsigned int hz;		/* 100, 250 or 1000; default 250 */
	bool nohz;			/* default true */
	bool timer_migration;		/* default true */
	unsigned int clockevent;	/* CLOCKEVENT_*, default AUTO */
	char scenario[CMDLINE_STR_MAX]; /* default "" (none) */
	char trace[CMDLINE_STR_MAX];	/* default "" (none) */
	uint32_t trace_mask;		/* TRACE_BIT()s of trace=, default 0 */
	unsigned int trace_buf;		/* bytes per CPU, default 64K */
	char isolcpus[CMDLINE_STR_MAX]; /* CPU list, default "" (none) */
	unsigned int expect_cpus;	/* 0 = not given */
	unsigned int expect_nodes;	/* 0 = not given */
	uint64_t torture_seed;		/* selftest=torture's, default 1 */
	unsigned int torture_ms;	/* its length, default 3000 */
	bool cpuhp_parallel;		/* cpuhp.parallel=, default true */
	unsigned int cpu_init_udelay;	/* us after INIT, default AUTO */
	unsigned int fault_test;	/* FAULT_TEST_*, default NONE */
	unsigned int ap_late_test;	/* MADT CPU given up on, or NONE */
	unsigned int tsc_sync_stall_test;  /* us per AP sync answer, 0 */
	unsigned int ap_report_delay_test; /* ms per MADT index, 0 */
	unsigned int watchdog_s;	   /* stall after N s, 0 = off; 20 */
};

typedef void (*cmdline_line_fn)(const char *line, void *arg);

void cmdline_defaults(struct boot_options *out);
int cmdline_parse(const char *line, struct boot_options *out, char *err,
		  size_t errlen);
void cmdline_help(cmdline_line_fn out, void *arg);
const char *timer_model_name(enum timer_model model);
const char *tmigr_wake_name(enum tmigr_wake policy);

#endif /* KERNEL_CMDLINE_H */

# SPDX-License-Identifier: GPL-2.0
#
# tests/host/fuzz.mk - libFuzzer harnesses of the kernel's parsers.
#
# Included by the top Makefile after host.mk, whose HOST_KERNEL_CFLAGS
# (-fno-builtin and the k_ rename headers) it reuses: the parsers are the
# kernel's own drivers/acpi.c, kernel/bootinfo.c, kernel/cmdline.c and
# kernel/scenario_opts.c, built for the host with clang under
# -fsanitize=fuzzer, ASan and UBSan, and the replay's trace parser
# (tests/host/sim/replay_*.c, host code: no rename headers).
# docs/fuzzing.md says how to use them.
# Provides:
#   $(BUILD)/fuzz/fuzz_{acpi,bootinfo,cmdline,replay}   the fuzzers
#   $(BUILD)/host/fuzz_smoke   FUZZ_SMOKE_RUNS inputs of each, seed 1 (host-tests)
#   fuzz                       FUZZ_SECONDS of each, corpus kept in
#                              $(BUILD)/fuzz/work (FUZZ_TARGETS= to pick,
#                              FUZZ_JOBS= fuzzers at once)
#   fuzz-merge                 add what the work corpus covers beyond the
#                              committed one (tests/host/fuzz/corpus/)
#   fuzz-seeds                 re-dump the boot seeds (seed_from_boot.py)

FUZZ_CC ?= clang
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -I. \
	-fno-omit-frame-pointer $(FUZZ_SAN)
FUZZ_SECONDS ?= 300
# make test's smoke: the same FUZZ_SMOKE_RUNS inputs from seed 1 every run
# (reproducible: a finding fails every run, not one in ten), at most
# FUZZ_SMOKE_SECONDS each.
FUZZ_SMOKE_SECONDS ?= 20
FUZZ_SMOKE_RUNS ?= 20000
FUZZ_TARGETS ?= acpi bootinfo cmdline replay
FUZZ_JOBS ?= 1

FUZZ_DIR := $(BUILD)/fuzz
FUZZ_OBJDIR := $(FUZZ_DIR)/obj
FUZZ_BINS := $(patsubst %,$(FUZZ_DIR)/fuzz_%,acpi bootinfo cmdline replay)

FUZZ_LIB_SRCS := lib/printf.c lib/string.c
FUZZ_acpi_SRCS := drivers/acpi.c $(FUZZ_LIB_SRCS)
FUZZ_bootinfo_SRCS := kernel/bootinfo.c $(FUZZ_LIB_SRCS)
# trace= values are checked by lib/trace_events.c.
FUZZ_cmdline_SRCS := kernel/cmdline.c kernel/scenario_opts.c lib/parse.c \
	$(wildcard lib/trace_events.c) $(FUZZ_LIB_SRCS)

FUZZ_replay_SRCS := tests/host/sim/replay_parse.c \
	tests/host/sim/replay_class.c tests/host/sim/replay_read.c
FUZZ_HOSTSIM_OBJS := $(patsubst %.c,$(FUZZ_OBJDIR)/%.o,$(FUZZ_replay_SRCS))

FUZZ_KERNEL_SRCS := $(sort $(FUZZ_acpi_SRCS) $(FUZZ_bootinfo_SRCS) \
	$(FUZZ_cmdline_SRCS))
FUZZ_KERNEL_OBJS := $(patsubst %.c,$(FUZZ_OBJDIR)/%.o,$(FUZZ_KERNEL_SRCS))
FUZZ_HARNESS_OBJS := $(patsubst %,$(FUZZ_OBJDIR)/tests/host/fuzz/fuzz_%.o,\
	acpi bootinfo cmdline replay)

# The code under test gets coverage feedback; only the link adds
# libFuzzer's main().
$(FUZZ_KERNEL_OBJS): $(FUZZ_OBJDIR)/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link \
		$(HOST_KERNEL_CFLAGS) -MMD -MP -c $< -o $@

$(FUZZ_HARNESS_OBJS) $(FUZZ_HOSTSIM_OBJS): $(FUZZ_OBJDIR)/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP \
		-c $< -o $@

fuzz_objs = $(FUZZ_OBJDIR)/tests/host/fuzz/fuzz_$(1).o \
	$(patsubst %.c,$(FUZZ_OBJDIR)/%.o,$(FUZZ_$(1)_SRCS))
$(FUZZ_DIR)/fuzz_acpi: $(call fuzz_objs,acpi)
$(FUZZ_DIR)/fuzz_bootinfo: $(call fuzz_objs,bootinfo)
$(FUZZ_DIR)/fuzz_cmdline: $(call fuzz_objs,cmdline)
$(FUZZ_DIR)/fuzz_replay: $(call fuzz_objs,replay)
$(FUZZ_BINS):
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $^ -lz -o $@

# make test runs this like a unit-test binary: Check-style lines, exit 0
# iff no fuzzer crashed, timed out or broke an invariant.
$(BUILD)/host/fuzz_smoke: $(FUZZ_BINS) tests/host/fuzz/run_fuzz.py tests/host/fuzz.mk
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec %s %s --smoke --jobs 2 --seconds %s --runs %s --seed 1 --bindir %s "$$@"\n' \
		"$(PYTHON)" "$(CURDIR)/tests/host/fuzz/run_fuzz.py" \
		"$(FUZZ_SMOKE_SECONDS)" "$(FUZZ_SMOKE_RUNS)" "$(CURDIR)/$(FUZZ_DIR)" > $@
	chmod +x $@

HOST_TEST_BINS += $(BUILD)/host/fuzz_smoke
host-tests: $(BUILD)/host/fuzz_smoke

.PHONY: fuzz fuzz-merge fuzz-seeds fuzzers
fuzzers: $(FUZZ_BINS)
fuzz: $(FUZZ_BINS)
	$(PYTHON) tests/host/fuzz/run_fuzz.py --seconds $(FUZZ_SECONDS) \
		--jobs $(FUZZ_JOBS) --bindir $(FUZZ_DIR) $(FUZZ_TARGETS)
fuzz-merge: $(FUZZ_BINS)
	$(PYTHON) tests/host/fuzz/run_fuzz.py --merge --bindir $(FUZZ_DIR) \
		$(FUZZ_TARGETS)
fuzz-seeds: kernel
	$(PYTHON) tests/host/fuzz/seed_from_boot.py

-include $(FUZZ_KERNEL_OBJS:.o=.d) $(FUZZ_HARNESS_OBJS:.o=.d) \
	$(FUZZ_HOSTSIM_OBJS:.o=.d)

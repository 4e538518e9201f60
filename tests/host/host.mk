# SPDX-License-Identifier: GPL-2.0
#
# tests/host/host.mk - host unit tests (Check + ASan/UBSan).
#
# Included by the top Makefile, which sets BUILD.  Provides:
#   host-tests       build $(BUILD)/host/unit_tests
#   HOST_TEST_BINS   the test binaries (exported), for a "check" target
#
# Kernel sources are compiled for the host with -fno-builtin and with
# tests/host/k{string,printf}_rename.h force-included, so lib/string.c and
# lib/printf.c provide k_memcpy, k_snprintf, ... and never interpose on the
# host libc; kernel code under test calls those k_ versions.

HOST_CC ?= gcc
HOST_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -I. \
	-fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
HOST_CHECK_CFLAGS := $(shell pkg-config --cflags check)
HOST_CHECK_LIBS := $(shell pkg-config --libs check)
HOST_KERNEL_CFLAGS := -fno-builtin \
	-include tests/host/kstring_rename.h \
	-include tests/host/kprintf_rename.h

# HOST_EXCLUDE: sources to leave out temporarily, e.g.
#   make host-tests HOST_EXCLUDE="kernel/pmm.c tests/host/test_pmm.c"
HOST_EXCLUDE ?=
HOST_UNIT_SRCS := $(filter-out $(HOST_EXCLUDE), \
	lib/printf.c lib/parse.c kernel/cmdline.c lib/string.c drivers/acpi.c kernel/cputopo.c \
	kernel/scenario_opts.c kernel/scenario_bound.c lib/trace_events.c lib/trace_ring.c \
	$(wildcard kernel/bootinfo.c kernel/pmm.c))
HOST_TEST_SRCS := $(filter-out $(HOST_EXCLUDE), \
	$(wildcard tests/host/test_*.c) tests/host/main.c)

HOST_OBJDIR := $(BUILD)/host/obj
HOST_UNIT_OBJS := $(patsubst %.c,$(HOST_OBJDIR)/%.o,$(HOST_UNIT_SRCS))
HOST_TEST_OBJS := $(patsubst %.c,$(HOST_OBJDIR)/%.o,$(HOST_TEST_SRCS))

HOST_TEST_BINS := $(BUILD)/host/unit_tests
export HOST_TEST_BINS

$(HOST_UNIT_OBJS): $(HOST_OBJDIR)/%.o: %.c
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(HOST_KERNEL_CFLAGS) -MMD -MP -c $< -o $@

$(HOST_TEST_OBJS): $(HOST_OBJDIR)/%.o: %.c
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(HOST_CHECK_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/host/unit_tests: $(HOST_UNIT_OBJS) $(HOST_TEST_OBJS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $^ $(HOST_CHECK_LIBS) -o $@

.PHONY: host-tests
host-tests: $(HOST_TEST_BINS)

-include $(HOST_UNIT_OBJS:.o=.d) $(HOST_TEST_OBJS:.o=.d)

# SPDX-License-Identifier: GPL-2.0
#
# tests/host/timer.mk - host tests of timer/ (Check + ASan/UBSan).
#
# Included by the top Makefile after host.mk.  timer/*.c is built against
# the host environment tests/host/env/timer_env.h (found through
# -Itests/host/env), never against kernel headers.  Provides:
#   $(BUILD)/host/timer_tests   unit tests, part of host-tests
#   timer-bench                 $(BUILD)/host/timer_bench, the enqueue/
#                               dequeue micro-benchmark of Linux's pull-model
#                               series

TIMER_HOST_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -I. \
	-Itests/host/env -include tests/host/env/timer_rename.h \
	-fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all -pthread
TIMER_CHECK_CFLAGS := $(shell pkg-config --cflags check)
TIMER_CHECK_LIBS := $(shell pkg-config --libs check)

TIMER_CORE_SRCS := $(wildcard timer/*.c) lib/tqueue.c \
	$(wildcard tests/host/env/*.c)
TIMER_TEST_SRCS := tests/host/timer/test_timer.c \
	tests/host/timer/test_tqueue.c tests/host/timer/test_tmigr.c \
	tests/host/timer/test_tmigr_races.c tests/host/timer/tmigr_util.c \
	tests/host/timer/test_tmigr_setup_fail.c \
	tests/host/timer/test_tmigr_isolated.c \
	tests/host/timer/test_tmigr_wake.c \
	tests/host/timer/test_tracepoints.c \
	tests/host/timer/test_timer_hotplug.c \
	tests/host/timer/test_timer_peek.c \
	tests/host/timer/test_timer_liveness.c \
	tests/host/main.c

TIMER_OBJDIR := $(BUILD)/host/timer-obj
TIMER_CORE_OBJS := $(patsubst %.c,$(TIMER_OBJDIR)/%.o,$(TIMER_CORE_SRCS))
TIMER_TEST_OBJS := $(patsubst %.c,$(TIMER_OBJDIR)/%.o,$(TIMER_TEST_SRCS))

$(TIMER_CORE_OBJS): $(TIMER_OBJDIR)/%.o: %.c
	@mkdir -p $(@D)
	$(HOST_CC) $(TIMER_HOST_CFLAGS) -MMD -MP -c $< -o $@

$(TIMER_TEST_OBJS): $(TIMER_OBJDIR)/%.o: %.c
	@mkdir -p $(@D)
	$(HOST_CC) $(TIMER_HOST_CFLAGS) $(TIMER_CHECK_CFLAGS) -MMD -MP \
		-c $< -o $@

$(BUILD)/host/timer_tests: $(TIMER_CORE_OBJS) $(TIMER_TEST_OBJS)
	@mkdir -p $(@D)
	$(HOST_CC) $(TIMER_HOST_CFLAGS) $^ $(TIMER_CHECK_LIBS) -o $@

HOST_TEST_BINS += $(BUILD)/host/timer_tests
host-tests: $(BUILD)/host/timer_tests

# The same tests under ThreadSanitizer: delete_sync against a callback
# running on a second pthread is the cross-CPU case it can check.
TIMER_TSAN_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -I. \
	-Itests/host/env -include tests/host/env/timer_rename.h \
	-fsanitize=thread -fno-omit-frame-pointer -pthread
$(BUILD)/host/timer_tests_tsan: $(TIMER_CORE_SRCS) $(TIMER_TEST_SRCS) \
		$(wildcard timer/*.h lib/tqueue.h tests/host/env/*.h)
	@mkdir -p $(@D)
	$(HOST_CC) $(TIMER_TSAN_CFLAGS) $(TIMER_CHECK_CFLAGS) \
		$(TIMER_CORE_SRCS) $(TIMER_TEST_SRCS) $(TIMER_CHECK_LIBS) -o $@

HOST_TEST_BINS += $(BUILD)/host/timer_tests_tsan
host-tests: $(BUILD)/host/timer_tests_tsan

# The benchmark is built without sanitizers and with -O2: it measures.
TIMER_BENCH_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -I. \
	-Itests/host/env -include tests/host/env/timer_rename.h -pthread
TIMER_BENCH_SRCS := $(TIMER_CORE_SRCS) tests/host/timer/bench_timer.c

.PHONY: timer-bench
timer-bench: $(BUILD)/host/timer_bench $(BUILD)/host/tmigr_bench
$(BUILD)/host/tmigr_bench: $(TIMER_CORE_SRCS) tests/host/timer/bench_tmigr.c \
		$(wildcard timer/*.h lib/*.h) tests/host/env/timer_env.h
	@mkdir -p $(@D)
	$(HOST_CC) $(TIMER_BENCH_CFLAGS) $(TIMER_CORE_SRCS) \
		tests/host/timer/bench_tmigr.c -o $@
$(BUILD)/host/timer_bench: $(TIMER_BENCH_SRCS) $(wildcard timer/*.h) lib/tqueue.h \
		tests/host/env/timer_env.h
	@mkdir -p $(@D)
	$(HOST_CC) $(TIMER_BENCH_CFLAGS) $(TIMER_BENCH_SRCS) -o $@

-include $(TIMER_CORE_OBJS:.o=.d) $(TIMER_TEST_OBJS:.o=.d)

# SPDX-License-Identifier: GPL-2.0
#
# tests/host/sim.mk - the many-CPU simulator and the threaded stress test.
#
# Included by the top Makefile after timer.mk, whose TIMER_HOST_CFLAGS and
# TIMER_CORE_OBJS (timer/ and the host env under ASan+UBSan) it reuses, so
# the simulator runs the very objects the unit tests do.  Provides:
#   $(BUILD)/host/tmigr_sim          simulator, ASan+UBSan; with no argument
#                                    it runs its default list (host-tests)
#   $(BUILD)/host/tmigr_stress_tsan  pthreads as CPUs under TSan (host-tests)
#   sim-bench                        the simulator at -O2 without sanitizers,
#                                    default list with 10x the steps
#   $(BUILD)/host/replay_tests       Check tests of the trace parser and the
#                                    replay (host-tests)
#   replay                           make replay TRACE=FILE [NODES=MAP]
#                                    [MODEL=pull|push|local|all]: the trace
#                                    under each model (docs/replay.md)
#   sim-torture                      the same binary, --torture: 10 million
#                                    operations with CPUs going offline and
#                                    late IPIs at 64, 512 and 4096 CPUs
#                                    (docs/torture.md)

SIM_SRCS := $(wildcard tests/host/sim/*.c)
SIM_OBJDIR := $(BUILD)/host/sim-obj
SIM_OBJS := $(patsubst %.c,$(SIM_OBJDIR)/%.o,$(SIM_SRCS))

$(SIM_OBJS): $(SIM_OBJDIR)/%.o: %.c
	@mkdir -p $(@D)
	$(HOST_CC) $(TIMER_HOST_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/host/tmigr_sim: $(TIMER_CORE_OBJS) $(SIM_OBJS)
	@mkdir -p $(@D)
	$(HOST_CC) $(TIMER_HOST_CFLAGS) $^ -lz -o $@

HOST_TEST_BINS += $(BUILD)/host/tmigr_sim
host-tests: $(BUILD)/host/tmigr_sim

# Measures, so no sanitizer: built straight from the sources.
SIM_BENCH_SCALE ?= 10
.PHONY: sim-bench
sim-bench: $(BUILD)/host/tmigr_sim_bench
	$(BUILD)/host/tmigr_sim_bench --list --scale $(SIM_BENCH_SCALE)
$(BUILD)/host/tmigr_sim_bench: $(TIMER_CORE_SRCS) $(SIM_SRCS) \
		$(wildcard timer/*.h tests/host/env/*.h tests/host/sim/*.h)
	@mkdir -p $(@D)
	$(HOST_CC) $(TIMER_BENCH_CFLAGS) $(TIMER_CORE_SRCS) $(SIM_SRCS) -lz -o $@

# SIM_TORTURE_MODEL=all runs push and local too; SIM_TORTURE_OPS, _FAULTS
# and _ARGS (extra options, e.g. --ipi-delay) change the runs.  Fails at the
# end if a run had a violation (each prints its first ones).
SIM_TORTURE_OPS ?= 10000000
SIM_TORTURE_MODEL ?= pull
SIM_TORTURE_FAULTS ?= offline,ipi-delay
SIM_TORTURE_ARGS ?=
SIM_TORTURE_RUNS := "64 8 smt 11" "512 16 uneven 12" "4096 64 interleaved 13"
.PHONY: sim-torture
sim-torture: $(BUILD)/host/tmigr_sim_bench
	@rc=0; for r in $(SIM_TORTURE_RUNS); do set -- $$r; \
		echo "sim-torture: $$1 CPUs, $$2 nodes, $$3, seed $$4"; \
		$(BUILD)/host/tmigr_sim_bench --torture \
			--ops $(SIM_TORTURE_OPS) \
			--faults $(SIM_TORTURE_FAULTS) \
			--cpus $$1 --nodes $$2 --shape $$3 --seed $$4 \
			--model $(SIM_TORTURE_MODEL) \
			$(SIM_TORTURE_ARGS) || rc=1; \
	done; exit $$rc

# The replay's tests link the simulator without its main().
REPLAY_TEST_SRCS := tests/host/replay/test_replay.c tests/host/main.c
REPLAY_OBJDIR := $(BUILD)/host/replay-obj
REPLAY_TEST_OBJS := $(patsubst %.c,$(REPLAY_OBJDIR)/%.o,$(REPLAY_TEST_SRCS))
$(REPLAY_TEST_OBJS): $(REPLAY_OBJDIR)/%.o: %.c
	@mkdir -p $(@D)
	$(HOST_CC) $(TIMER_HOST_CFLAGS) $(TIMER_CHECK_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/host/replay_tests: $(TIMER_CORE_OBJS) \
		$(filter-out $(SIM_OBJDIR)/tests/host/sim/main.o,$(SIM_OBJS)) \
		$(REPLAY_TEST_OBJS)
	@mkdir -p $(@D)
	$(HOST_CC) $(TIMER_HOST_CFLAGS) $^ $(TIMER_CHECK_LIBS) -lz -o $@

HOST_TEST_BINS += $(BUILD)/host/replay_tests
host-tests: $(BUILD)/host/replay_tests

# A trace under every model, at -O2 (the 20 s traces take a second).
TRACE ?=
NODES ?=
MODEL ?= all
.PHONY: replay
replay: $(BUILD)/host/tmigr_sim_bench
	@test -n "$(TRACE)" || { echo "usage: make replay TRACE=FILE[.gz] [NODES=0-3:4-7] [MODEL=pull]"; exit 2; }
	$(BUILD)/host/tmigr_sim_bench --replay $(TRACE) --model $(MODEL) \
		$(if $(NODES),--nodes $(NODES))

# Real threads race only under TSan; everything is rebuilt with it.
STRESS_SRCS := $(wildcard tests/host/stress/*.c)
$(BUILD)/host/tmigr_stress_tsan: $(TIMER_CORE_SRCS) $(STRESS_SRCS) \
		$(wildcard timer/*.h tests/host/env/*.h tests/host/sim/rng.h)
	@mkdir -p $(@D)
	$(HOST_CC) $(TIMER_TSAN_CFLAGS) $(TIMER_CORE_SRCS) $(STRESS_SRCS) -o $@

HOST_TEST_BINS += $(BUILD)/host/tmigr_stress_tsan
host-tests: $(BUILD)/host/tmigr_stress_tsan

-include $(SIM_OBJS:.o=.d) $(REPLAY_TEST_OBJS:.o=.d)

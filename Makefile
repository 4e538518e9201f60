# tinykernel: a bare-metal x86_64 SMP kernel for studying timer migration.
# `make` builds build/kernel.bin; see README.md for the rest.

BUILD := build
CC := gcc
LD := ld
OBJCOPY := objcopy
PYTHON := python3

KCFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -I. \
	-ffreestanding -fno-builtin -nostdlib -fno-pic -fno-pie \
	-mcmodel=kernel -mno-red-zone -mgeneral-regs-only \
	-mno-mmx -mno-sse -mno-sse2 -fno-stack-protector \
	-fno-omit-frame-pointer -fno-asynchronous-unwind-tables \
	-fcf-protection=none
KASFLAGS := -I. -g -Wa,--noexecstack
KLDFLAGS := -n -nostdlib -T linker.ld -z max-page-size=4096 \
	--no-warn-rwx-segments

KSRCS := $(wildcard boot/*.S arch/x86_64/*.S) \
	$(wildcard arch/x86_64/*.c kernel/*.c kernel/env/*.c drivers/*.c lib/*.c \
		timer/*.c tests/guest/*.c)
KOBJS := $(patsubst %,$(BUILD)/k/%.o,$(KSRCS))

.PHONY: all kernel iso test test-big run host-tests clean
all: kernel
kernel: $(BUILD)/kernel.bin

$(BUILD)/k/%.c.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(KCFLAGS) -MMD -MP -c $< -o $@

# timer/ is portable: its machine is kernel/env/timer_env.h here and
# tests/host/env/timer_env.h on the host (docs/design.md, "The rule:
# timer/ is portable C").
$(BUILD)/k/timer/%.c.o: timer/%.c
	@mkdir -p $(dir $@)
	$(CC) $(KCFLAGS) -Ikernel/env -MMD -MP -c $< -o $@

$(BUILD)/k/%.S.o: %.S
	@mkdir -p $(dir $@)
	$(CC) $(KASFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/kernel.elf: $(KOBJS) linker.ld
	$(LD) $(KLDFLAGS) -o $@ $(KOBJS)

# The loaders take a flat image: multiboot headers in its first 8 KiB,
# sections laid out by their load (physical) addresses from 1 MiB.
$(BUILD)/kernel.bin: $(BUILD)/kernel.elf
	$(OBJCOPY) -O binary $< $@

iso: $(BUILD)/kernel.iso
$(BUILD)/kernel.iso: $(BUILD)/kernel.bin boot/grub.cfg
	@rm -rf $(BUILD)/isodir && mkdir -p $(BUILD)/isodir/boot/grub
	cp $(BUILD)/kernel.bin $(BUILD)/isodir/boot/kernel.bin
	cp boot/grub.cfg $(BUILD)/isodir/boot/grub/grub.cfg
	grub-mkrescue -o $@ $(BUILD)/isodir 2>/dev/null

include tests/host/host.mk
include tests/host/timer.mk
include tests/host/sim.mk
include tests/host/fuzz.mk

# Static analysis: cppcheck and clang-tidy over kernel/, arch/, drivers/,
# lib/ and timer/, and clang-format over those and tests/ (docs/checks.md);
# make format rewrites those C files as .clang-format says.  make test runs
# the check too, through the wrapper below, counted like a host test binary.
# STATIC_CHECK_TOOLS: the tools make test runs; empty is all three, the
# format check included.
STATIC_CHECK_TOOLS :=
.PHONY: check format
check:
	$(PYTHON) tools/check
format:
	$(PYTHON) tools/check --reformat
$(BUILD)/host/static_check: tools/check tools/check-known.txt Makefile
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec %s %s --check-format %s "$$@"\n' \
		"$(PYTHON)" "$(CURDIR)/tools/check" "$(STATIC_CHECK_TOOLS)" > $@
	chmod +x $@
HOST_TEST_BINS += $(BUILD)/host/static_check
host-tests: $(BUILD)/host/static_check

test: kernel host-tests
	$(PYTHON) tests/boot/run_tests.py $(foreach b,$(HOST_TEST_BINS),--host $(b))

# TCG's largest machine on QEMU 7.2: 255 CPUs on 5 nodes, timed.
test-big: kernel
	time tools/boot --accel tcg --smp 255 --mem 1G --timeout 300 \
		--numa 0-50:51-101:102-152:153-203:204-254 --expect-topology

# Beyond 255 CPUs: 256, 512 and 1024 on nodes of 64, under TCG with x2APIC,
# which needs QEMU >= 9.0 (Debian 12: tools/deps --qemu=both, then
# QEMU=build/qemu10/qemu-system-x86_64).  Minutes long, so not part of `test`.
.PHONY: test-huge
test-huge: kernel
	$(PYTHON) tests/boot/run_huge.py

# selftest=torture for TORTURE_MS (a minute) under TCG at 8 CPUs on 2
# nodes, then 64 on 8 (docs/torture.md); minutes long, so not in `test`.
TORTURE_MS ?= 60000
TORTURE_SEED ?= 1
TORTURE_BOOT = tools/boot --accel tcg --timeout 900 --cmdline \
	"selftest=torture torture_ms=$(TORTURE_MS) torture_seed=$(TORTURE_SEED)"
.PHONY: torture
torture: kernel
	$(TORTURE_BOOT) --smp 8 --numa 0-3:4-7
	$(TORTURE_BOOT) --smp 64 --mem 512M \
		--numa 0-7:8-15:16-23:24-31:32-39:40-47:48-55:56-63

# The boot matrix and the scenarios SOAK_N times with the host loaded (two
# busy processes per core, started and stopped by tools/soak); a pass rate
# per test and the total time (docs/hang.md).  SOAK_ARGS adds options, e.g.
# SOAK_ARGS="--only hang-demo".  Long (the matrix takes minutes a round).
SOAK_N ?= 10
SOAK_ARGS ?=
.PHONY: soak
soak: kernel
	$(PYTHON) tools/soak --rounds $(SOAK_N) $(SOAK_ARGS)

# The three placement models side by side (docs/benchmarks.md).
.PHONY: bench
bench: kernel timer-bench $(BUILD)/host/tmigr_sim_bench
	$(PYTHON) tools/bench

# one_busy at 8 CPUs on 2 nodes with every trace event, as Perfetto JSON
# and an SVG timeline (docs/tracing.md).  TRACE_CMDLINE adds options.
TRACE_DIR := $(BUILD)/trace
TRACE_CMDLINE ?=
.PHONY: trace
trace: kernel
	@mkdir -p $(TRACE_DIR)
	tools/boot --smp 8 --numa 0-3:4-7 --cmdline "selftest=none \
		scenario=one_busy trace=all trace_buf=2M $(TRACE_CMDLINE)" \
		> $(TRACE_DIR)/serial.log
	$(PYTHON) tools/trace2perfetto --elf $(BUILD)/kernel.elf \
		$(TRACE_DIR)/serial.log -o $(TRACE_DIR)/trace.json
	$(PYTHON) tools/trace2svg --elf $(BUILD)/kernel.elf \
		$(TRACE_DIR)/serial.log -o $(TRACE_DIR)/timeline.svg
	@echo "trace: $(TRACE_DIR)/trace.json (ui.perfetto.dev), $(TRACE_DIR)/timeline.svg"

# The self-tests, then one_busy under the default (pull) model: the idle
# CPUs' stat lines show their timers expired by CPU 0 without waking them.
run: kernel
	tools/boot --smp 8 --numa 0-3:4-7 \
		--cmdline "scenario=one_busy,period_ms=10,duration_ms=1000"

# build/qemuN/ (tools/deps --qemu=both) stays: it is a download, not a build.
clean:
	find $(BUILD) -mindepth 1 -maxdepth 1 ! -name 'qemu[0-9]*' -exec rm -rf {} + 2>/dev/null || true

-include $(KOBJS:.o=.d)

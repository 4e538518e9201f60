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
	$(wildcard arch/x86_64/*.c kernel/*.c drivers/*.c lib/*.c \
		timer/*.c tests/guest/*.c)
KOBJS := $(patsubst %,$(BUILD)/k/%.o,$(KSRCS))

.PHONY: all kernel iso test test-big run host-tests clean
all: kernel
kernel: $(BUILD)/kernel.bin

$(BUILD)/k/%.c.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(KCFLAGS) -MMD -MP -c $< -o $@

# timer/ is portable: its machine is kernel/env/timer_env.h here and
# tests/host/env/timer_env.h on the host (DESIGN.md, "the one rule").
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

test: kernel host-tests
	$(PYTHON) tests/boot/run_tests.py $(foreach b,$(HOST_TEST_BINS),--host $(b))

# TCG's largest machine on QEMU 7.2: 255 CPUs on 5 nodes, timed.
test-big: kernel
	time tools/boot --accel tcg --smp 255 --mem 1G --timeout 300 \
		--numa 0-50:51-101:102-152:153-203:204-254 --expect-topology

# The three placement models side by side (docs/benchmarks.md).
.PHONY: bench
bench: kernel timer-bench
	$(PYTHON) tools/bench

# The self-tests, then one_busy under the default (pull) model: the idle
# CPUs' stat lines show their timers expired by CPU 0 without waking them.
run: kernel
	tools/boot --smp 8 --numa 0-3:4-7 \
		--cmdline "scenario=one_busy,period_ms=10,duration_ms=1000"

clean:
	rm -rf $(BUILD)

-include $(KOBJS:.o=.d)

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
		tests/guest/*.c)
# timer/ joins the kernel when its kernel-side timer_env.h exists (issue 5);
# until then it is built and tested on the host only.
KOBJS := $(patsubst %,$(BUILD)/k/%.o,$(KSRCS))

.PHONY: all kernel iso test test-big run host-tests clean
all: kernel
kernel: $(BUILD)/kernel.bin

$(BUILD)/k/%.c.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(KCFLAGS) -MMD -MP -c $< -o $@

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

test: kernel host-tests
	$(PYTHON) tests/boot/run_tests.py $(foreach b,$(HOST_TEST_BINS),--host $(b))

# TCG's largest machine on QEMU 7.2: 255 CPUs on 5 nodes, timed.
test-big: kernel
	time tools/boot --accel tcg --smp 255 --mem 1G --timeout 300 \
		--numa 0-50:51-101:102-152:153-203:204-254 --expect-topology

run: kernel
	tools/boot --smp 8 --numa 0-3:4-7

clean:
	rm -rf $(BUILD)

-include $(KOBJS:.o=.d)

/*
 * arch/x86_64/arch.h - the machine as kernel/ sees it.
 *
 * kernel/ reaches the arch through this header: spinning, halting, IPIs,
 * the clock and the clockevent.  kmain's boot sequence (kernel/main.c),
 * which sets the machine up step by step, is the one file that also names
 * the arch's set-up headers.
 */
#ifndef ARCH_X86_64_ARCH_H
#define ARCH_X86_64_ARCH_H

#include "arch/x86_64/cpu.h"

#endif

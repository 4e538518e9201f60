/* Exception entry: the frame isr.S builds and the C side that reads it. */
#ifndef ARCH_X86_64_TRAP_H
#define ARCH_X86_64_TRAP_H

#include <stdint.h>

/* Pushed by isr.S (r15 first in memory) then by the CPU (rip..ss). */
struct trap_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error_code;
	uint64_t rip, cs, rflags, rsp, ss;
};

#define X86_VEC_BP  3
#define X86_VEC_UD  6
#define X86_VEC_DF  8
#define X86_VEC_PF  14
#define X86_VEC_NMI 2
#define X86_VEC_MC  18

void idt_init(void);
void idt_load(void);

/*
 * Self-tests provoke exceptions on purpose: arm one expected vector; when it
 * arrives the handler skips @insn_len bytes of the faulting instruction and
 * counts it instead of panicking.  Disarmed after one hit.
 */
void trap_expect(unsigned vector, unsigned insn_len);
unsigned trap_expected_hits(void);

void dump_stack_from(uint64_t rbp);

#endif

/*
 * AP start-up trampoline.  The SIPI starts an AP in real mode at
 * CS:IP = (vector << 8):0, so smp.c copies this blob to AP_TRAMPOLINE_PHYS
 * (a page below 1 MiB, identity-mapped read-only+exec in the kernel page
 * tables) and fills the parameter block at its end.  The AP goes real ->
 * protected -> long mode with the kernel's CR3 and jumps to ap_entry_c on
 * its own stack.  The AP never writes to this page: descriptors are
 * pre-marked accessed so loading them does not set the bit in memory.
 */
#define AP_TRAMPOLINE_PHYS	0x8000
#define T(x)			(AP_TRAMPOLINE_PHYS + (x) - ap_trampoline_start)

	.section .rodata
	.global ap_trampoline_start, ap_trampoline_end, ap_trampoline_params
	.code16
ap_trampoline_start:
	cli
	cld
	xorw	%ax, %ax
	movw	%ax, %ds
	lgdtl	T(tr_gdt_ptr)
	movl	%cr0, %eax
	orl	$1, %eax			/* CR0.PE */
	movl	%eax, %cr0
	ljmpl	$0x08, $T(tr_pm32)

	.code32
tr_pm32:
	movw	$0x10, %ax
	movw	%ax, %ds
	movw	%ax, %es
	movw	%ax, %ss
	movl	%cr4, %eax
	orl	$(1 << 5), %eax			/* CR4.PAE */
	movl	%eax, %cr4
	movl	T(tr_cr3), %eax
	movl	%eax, %cr3
	movl	$0xC0000080, %ecx		/* EFER: LME | NXE */
	rdmsr
	orl	$((1 << 8) | (1 << 11)), %eax
	wrmsr
	movl	%cr0, %eax
	orl	$((1 << 31) | (1 << 16)), %eax	/* CR0.PG | CR0.WP */
	movl	%eax, %cr0
	ljmp	$0x18, $T(tr_lm64)

	.code64
tr_lm64:
	movq	T(tr_stack), %rsp
	movq	T(tr_arg), %rdi
	movq	T(tr_entry), %rax
	xorl	%ebp, %ebp
	jmp	*%rax

	.align 8
tr_gdt:
	.quad 0
	.quad 0x00cf9b000000ffff	/* 0x08: 32-bit code, accessed */
	.quad 0x00cf93000000ffff	/* 0x10: data, accessed */
	.quad 0x00af9b000000ffff	/* 0x18: 64-bit code, accessed */
tr_gdt_ptr:
	.short 4 * 8 - 1
	.long T(tr_gdt)

	.align 8
ap_trampoline_params:
tr_cr3:
	.quad 0
tr_stack:
	.quad 0
tr_entry:
	.quad 0
tr_arg:
	.quad 0
ap_trampoline_end:

	.section .note.GNU-stack, "", @progbits

/*
 * Exception entry stubs for vectors 0-31.  The CPU pushes an error code
 * only for vectors 8, 10-14, 17, 21, 29 and 30 (SDM vol. 3A, table 6-1);
 * the others push a zero so struct trap_frame has one shape.
 */
	.text
.macro ISR_NOERR vec
isr_\vec:
	pushq	$0
	pushq	$\vec
	jmp	isr_common
.endm
.macro ISR_ERR vec
isr_\vec:
	pushq	$\vec
	jmp	isr_common
.endm

ISR_NOERR 0
ISR_NOERR 1
ISR_NOERR 2
ISR_NOERR 3
ISR_NOERR 4
ISR_NOERR 5
ISR_NOERR 6
ISR_NOERR 7
ISR_ERR   8
ISR_NOERR 9
ISR_ERR   10
ISR_ERR   11
ISR_ERR   12
ISR_ERR   13
ISR_ERR   14
ISR_NOERR 15
ISR_NOERR 16
ISR_ERR   17
ISR_NOERR 18
ISR_NOERR 19
ISR_NOERR 20
ISR_ERR   21
ISR_NOERR 22
ISR_NOERR 23
ISR_NOERR 24
ISR_NOERR 25
ISR_NOERR 26
ISR_NOERR 27
ISR_NOERR 28
ISR_ERR   29
ISR_ERR   30
ISR_NOERR 31

/* Interrupt vectors the kernel uses (arch/x86_64/irq.h). */
ISR_NOERR 0xec
ISR_NOERR 0xf0
ISR_NOERR 0xfd
ISR_NOERR 0xff

isr_common:
	pushq	%rax
	pushq	%rbx
	pushq	%rcx
	pushq	%rdx
	pushq	%rsi
	pushq	%rdi
	pushq	%rbp
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rsp, %rdi
	/* Keep the C call 16-byte aligned whatever the interrupted RSP was. */
	movq	%rsp, %rbx
	andq	$-16, %rsp
	call	exception_dispatch
	movq	%rbx, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rbp
	popq	%rdi
	popq	%rsi
	popq	%rdx
	popq	%rcx
	popq	%rbx
	popq	%rax
	addq	$16, %rsp
	iretq

	.section .rodata
	.align 8
	.global isr_stubs
isr_stubs:
.irp v, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.quad isr_\v
.endr
	.global irq_stubs
irq_stubs:
	.quad isr_0xec, isr_0xf0, isr_0xfd, isr_0xff

	.section .note.GNU-stack, "", @progbits

/*
 * 32-bit entry from a multiboot loader and the switch to long mode.
 *
 * On entry (both multiboot protocols): protected mode, paging off,
 * EAX = loader magic, EBX = physical address of the boot information.
 * We build a boot page table with 2 MiB pages that maps the first 4 GiB
 * twice, identity (so this code keeps running after CR0.PG) and at the
 * direct map base 0xffff800000000000, and the first 1 GiB at KERNEL_VMA (the
 * -mcmodel=kernel link address).  4 GiB so that paging.c can write page
 * tables wherever the page allocator finds memory below 4 GiB.  arch/x86_64/paging.c replaces it with the final tables.
 */
#define KERNEL_VMA	0xffffffff80000000
#define PHYS(x)		((x) - KERNEL_VMA)

#define CR0_PG		(1 << 31)
#define CR0_WP		(1 << 16)
#define CR4_PAE		(1 << 5)
#define MSR_EFER	0xC0000080
#define EFER_LME	(1 << 8)
#define EFER_NXE	(1 << 11)
#define PTE_P		0x1
#define PTE_W		0x2
#define PTE_PS		0x80

	.section .boot.text, "ax"
	.code32
	.global _start32
_start32:
	cli
	cld
	movl	%eax, PHYS(boot_magic)
	movl	%ebx, PHYS(boot_info_phys)

	/* Refuse to go on without long mode: CPUID.80000001h:EDX[29]. */
	movl	$0x80000000, %eax
	cpuid
	cmpl	$0x80000001, %eax
	jb	no_long_mode
	movl	$0x80000001, %eax
	cpuid
	testl	$(1 << 29), %edx
	jz	no_long_mode

	/*
	 * Zero .bss (boot page tables and stack included): the loaders are
	 * told bss_end_addr, but C code must not depend on how they did it.
	 */
	movl	$__bss_start_phys, %edi
	movl	$__bss_end_phys, %ecx
	subl	%edi, %ecx
	shrl	$2, %ecx
	xorl	%eax, %eax
	rep stosl

	/* Four PDs, 2048 x 2 MiB identity entries = 4 GiB (EDX = high half). */
	movl	$PHYS(boot_pd), %edi
	movl	$(PTE_P | PTE_W | PTE_PS), %eax
	movl	$2048, %ecx
1:	movl	%eax, (%edi)
	addl	$0x200000, %eax
	addl	$8, %edi
	loop	1b

	movl	$(PHYS(boot_pd) + PTE_P + PTE_W), %eax
	movl	%eax, PHYS(boot_pdpt_hi) + 510 * 8
	movl	$PHYS(boot_pdpt_lo), %edi
	movl	$4, %ecx
2:	movl	%eax, (%edi)
	addl	$4096, %eax
	addl	$8, %edi
	loop	2b
	movl	$(PHYS(boot_pdpt_lo) + PTE_P + PTE_W), %eax
	movl	%eax, PHYS(boot_pml4)
	movl	%eax, PHYS(boot_pml4) + 256 * 8
	movl	$(PHYS(boot_pdpt_hi) + PTE_P + PTE_W), %eax
	movl	%eax, PHYS(boot_pml4) + 511 * 8

	movl	$PHYS(boot_pml4), %eax
	movl	%eax, %cr3
	movl	%cr4, %eax
	orl	$CR4_PAE, %eax
	movl	%eax, %cr4
	movl	$MSR_EFER, %ecx
	rdmsr
	orl	$(EFER_LME | EFER_NXE), %eax
	wrmsr
	movl	%cr0, %eax
	orl	$(CR0_PG | CR0_WP), %eax
	movl	%eax, %cr0

	lgdt	boot_gdt_ptr
	ljmp	$0x08, $long_mode_low

no_long_mode:
	/* Say so on COM1 (no init needed for QEMU's 16550), then stop. */
	movl	$no_lm_msg, %esi
	movw	$0x3f8, %dx
5:	lodsb
	testb	%al, %al
	jz	6f
	outb	%al, %dx
	jmp	5b
6:	hlt
	jmp	6b

	.code64
long_mode_low:
	movabsq	$long_mode_high, %rax
	jmp	*%rax

	.section .boot.data, "aw"
	.align 8
boot_gdt:
	.quad 0
	.quad 0x00af9a000000ffff	/* 0x08: 64-bit code, DPL 0 */
	.quad 0x00cf92000000ffff	/* 0x10: data */
boot_gdt_end:
boot_gdt_ptr:
	.short boot_gdt_end - boot_gdt - 1
	.long boot_gdt
no_lm_msg:
	.asciz "boot: CPU has no long mode, halting\r\n"

	.text
long_mode_high:
	movw	$0x10, %ax
	movw	%ax, %ds
	movw	%ax, %es
	movw	%ax, %ss
	xorw	%ax, %ax
	movw	%ax, %fs
	movw	%ax, %gs
	movabsq	$boot_stack_top, %rsp
	xorl	%ebp, %ebp
	movl	boot_magic(%rip), %edi
	movl	boot_info_phys(%rip), %esi
	call	kmain
4:	cli
	hlt
	jmp	4b

	.data
	.align 4
	.global boot_magic, boot_info_phys
boot_magic:
	.long 0
boot_info_phys:
	.long 0

	/*
	 * The boot stack sits on top of a guard page that paging.c leaves
	 * unmapped, so an overflow faults instead of corrupting .bss.
	 */
	.section .bss.boot, "aw", @nobits
	.align 4096
	.global boot_pml4, boot_stack_guard, boot_stack_top
boot_pml4:
	.skip 4096
boot_pdpt_lo:
	.skip 4096
boot_pdpt_hi:
	.skip 4096
boot_pd:
	.skip 4 * 4096
boot_stack_guard:
	.skip 4096
boot_stack:
	.skip 16384
boot_stack_top:

	.section .note.GNU-stack, "", @progbits

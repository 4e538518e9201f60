/*
 * AP start-up trampoline.  The SIPI starts an AP in real mode at
 * CS:IP = (vector << 8):0, so smp.c copies this blob to AP_TRAMPOLINE_PHYS
 * (a page below 1 MiB, identity-mapped read-only+exec in the kernel page
 * tables) and fills the parameter block at its end once, before any SIPI.
 * The AP goes real -> protected -> long mode with the kernel's CR3, reads
 * its own APIC ID from its LAPIC, finds the slot with that ID in the slot
 * table (struct ap_slot in smp.c, 24 bytes each), claims it (KICKED ->
 * CLAIMED) and jumps to ap_entry_c on that slot's stack.  An AP with no
 * slot, or whose slot the boot CPU gave up on (ABANDONED), halts here:
 * every AP runs only on its own boot data, however late it comes.  The AP
 * never writes to this page: descriptors are pre-marked accessed so
 * loading them does not set the bit in memory.
 */
#define AP_TRAMPOLINE_PHYS	0x8000
#define T(x)			(AP_TRAMPOLINE_PHYS + (x) - ap_trampoline_start)
#define DIRECT_MAP_BASE		0xffff800000000000
#define MSR_APIC_BASE		0x1B
#define APIC_BASE_EXTD		(1 << 10)
#define MSR_X2APIC_ID		0x802
#define XAPIC_ID_REG		0x20
/* struct ap_slot: u32 apic_id, u32 state, u64 stack, u64 arg */
#define SLOT_SIZE		24
#define SLOT_STATE		4
#define SLOT_STACK		8
#define SLOT_ARG		16
#define SLOT_KICKED		1
#define SLOT_CLAIMED		2

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
	/*
	 * EAX = this CPU's APIC ID.  In x2APIC mode (kept across INIT) its
	 * MSR; else CPUID.0BH:EDX, the full x2APIC ID whatever the mode:
	 * the xAPIC ID register holds only 8 bits, so above 255 CPUs an AP
	 * still in xAPIC mode would read another CPU's ID there (Linux reads
	 * leaf 0BH for the same reason).  The MMIO register only if the CPU
	 * has no leaf 0BH.
	 */
	movl	$MSR_APIC_BASE, %ecx
	rdmsr
	testl	$APIC_BASE_EXTD, %eax
	jz	1f
	movl	$MSR_X2APIC_ID, %ecx
	rdmsr
	jmp	2f
1:	movl	%eax, %edi			/* APIC base, low half */
	movl	%edx, %r8d
	xorl	%eax, %eax
	cpuid
	cmpl	$0xB, %eax
	jb	5f
	movl	$0xB, %eax
	xorl	%ecx, %ecx
	cpuid
	testl	%ebx, %ebx			/* leaf 0BH not implemented */
	jz	5f
	movl	%edx, %eax
	jmp	2f
5:	movl	%edi, %eax
	andl	$0xfffff000, %eax
	shlq	$32, %r8
	orq	%r8, %rax
	movabsq	$DIRECT_MAP_BASE, %rsi
	movl	XAPIC_ID_REG(%rsi,%rax), %eax
	shrl	$24, %eax
2:	movq	T(tr_slots), %rsi
	movq	T(tr_nslots), %rcx
3:	testq	%rcx, %rcx
	jz	tr_halt				/* no boot data for this CPU */
	cmpl	%eax, (%rsi)
	je	4f
	addq	$SLOT_SIZE, %rsi
	decq	%rcx
	jmp	3b
4:	movl	$SLOT_KICKED, %eax
	movl	$SLOT_CLAIMED, %edx
	lock cmpxchgl %edx, SLOT_STATE(%rsi)
	jne	tr_halt				/* given up on: stay out */
	movq	SLOT_STACK(%rsi), %rsp
	movq	SLOT_ARG(%rsi), %rdi
	movq	T(tr_entry), %rax
	xorl	%ebp, %ebp
	jmp	*%rax
tr_halt:
	cli
	hlt
	jmp	tr_halt

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
tr_slots:
	.quad 0
tr_nslots:
	.quad 0
tr_entry:
	.quad 0
ap_trampoline_end:

	.section .note.GNU-stack, "", @progbits

/*
 * Multiboot headers.  QEMU's -kernel loads only multiboot1 images that are
 * ELF32 or carry the a.out kludge (flag bit 16), so the kludge describes the
 * flat image: physical load address, end of loaded data, end of bss and
 * entry.  GRUB boots the same image through multiboot2 with the address and
 * entry-address tags.  Multiboot spec 0.6.96 section 3.1; multiboot2 spec
 * section 3.1.
 */
#define MB1_MAGIC	0x1BADB002
#define MB1_FLAGS	0x00010003	/* page align, mem info, a.out kludge */
#define MB2_MAGIC	0xE85250D6
#define MB2_ARCH_I386	0

	.section .multiboot1, "a"
	.align 4
mb1_header:
	.long MB1_MAGIC
	.long MB1_FLAGS
	.long -(MB1_MAGIC + MB1_FLAGS)
	.long mb1_header		/* header_addr */
	.long __kernel_phys_start	/* load_addr */
	.long __load_end_phys		/* load_end_addr */
	.long __bss_end_phys		/* bss_end_addr */
	.long _start32			/* entry_addr */

	.section .multiboot2, "a"
	.align 8
mb2_header:
	.long MB2_MAGIC
	.long MB2_ARCH_I386
	.long mb2_end - mb2_header
	.long -(MB2_MAGIC + MB2_ARCH_I386 + (mb2_end - mb2_header))
	/* address tag: type 2, size 24 */
	.align 8
	.short 2, 0
	.long 24
	.long mb2_header
	.long __kernel_phys_start
	.long __load_end_phys
	.long __bss_end_phys
	/* entry address tag: type 3, size 12 */
	.align 8
	.short 3, 0
	.long 12
	.long _start32
	/* end tag */
	.align 8
	.short 0, 0
	.long 8
mb2_end:

	.section .note.GNU-stack, "", @progbits

/*
 * Suites for the boot path: what the loader handed over, the page
 * allocator, the final page tables (W^X, guard pages) and exceptions.
 */
#include "arch/x86_64/paging.h"
#include "arch/x86_64/trap.h"
#include "kernel/boot.h"
#include "kernel/ktest.h"
#include "kernel/mm.h"
#include "kernel/pmm.h"
#include "lib/printf.h"
#include "lib/string.h"

static void memory_map_has_usable_ram(struct ktest *t)
{
	uint64_t above_1m = 0;

	for (unsigned i = 0; i < boot_info.nregions; i++) {
		const struct mem_region *r = &boot_info.regions[i];

		if (r->type == 1 && r->base + r->len > 0x100000)
			above_1m += r->len;
	}
	KEXPECT(t, boot_info.nregions > 0);
	/* tools/boot gives at least 32 MiB per node. */
	KEXPECT(t, above_1m >= (16ULL << 20));
}

static void cmdline_options_reached_kernel(struct ktest *t)
{
	struct boot_options again;
	char err[160];

	/* The kernel booted with this line, so it must parse the same way. */
	KEXPECT_EQ(t,
		   cmdline_parse(boot_info.cmdline, &again, err, sizeof(err)),
		   0);
	KEXPECT_STREQ(t, again.selftest, boot_opts.selftest);
	KEXPECT_EQ(t, again.hz, boot_opts.hz);
}

static void page_alloc_roundtrip(struct ktest *t)
{
	uint64_t before = pmm_free_pages();
	uint64_t a = pmm_alloc_page(), b = pmm_alloc_page();

	KEXPECT(t, a && b && a != b);
	KEXPECT_EQ(t, a & (PAGE_SIZE - 1), 0);
	KEXPECT_EQ(t, pmm_free_pages(), before - 2);
	/* The page must be real, writable memory through the direct map. */
	memset(phys_to_virt(a), 0xa5, PAGE_SIZE);
	KEXPECT_EQ(t, ((volatile uint8_t *)phys_to_virt(a))[PAGE_SIZE - 1],
		   0xa5);
	pmm_free_page(a);
	pmm_free_page(b);
	KEXPECT_EQ(t, pmm_free_pages(), before);
}

static void kernel_text_is_read_only_exec(struct ktest *t)
{
	int level = 0;
	uint64_t e =
		paging_lookup((const void *)memory_map_has_usable_ram, &level);

	KEXPECT(t, e & PTE_P);
	KEXPECT_EQ(t, level, 1);
	KEXPECT_EQ(t, e & PTE_W, 0);
	KEXPECT_EQ(t, e & PTE_NX, 0);
}

static void kernel_rodata_and_data_are_no_exec(struct ktest *t)
{
	static const char ro[] = "rodata";
	static int rw;
	int level = 0;
	uint64_t e_ro = paging_lookup(ro, &level);
	uint64_t e_rw = paging_lookup(&rw, &level);

	KEXPECT(t, (e_ro & PTE_P) && (e_ro & PTE_NX) && !(e_ro & PTE_W));
	KEXPECT(t, (e_rw & PTE_P) && (e_rw & PTE_NX) && (e_rw & PTE_W));
}

static void stack_guard_page_is_unmapped(struct ktest *t)
{
	int level = 0;

	KEXPECT_EQ(t, paging_lookup(boot_stack_guard, &level), 0);
	KEXPECT(t, paging_lookup(boot_stack_guard + PAGE_SIZE, &level) & PTE_P);
}

static void printk_formats_in_guest(struct ktest *t)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%d|%5u|%-3x|%lx|%s|%c", -42, 7U, 0xabU,
		 0xffffffff80000000UL, "ok", 'z');
	KEXPECT_STREQ(t, buf, "-42|    7|ab |ffffffff80000000|ok|z");
}

static const struct ktest_case boot_cases[] = {
	KTEST_CASE(memory_map_has_usable_ram),
	KTEST_CASE(cmdline_options_reached_kernel),
	KTEST_CASE(page_alloc_roundtrip),
	KTEST_CASE(kernel_text_is_read_only_exec),
	KTEST_CASE(kernel_rodata_and_data_are_no_exec),
	KTEST_CASE(stack_guard_page_is_unmapped),
	KTEST_CASE(printk_formats_in_guest),
};
KTEST_SUITE(boot_suite, .name = "boot", .cases = boot_cases,
	    .ncases = sizeof(boot_cases) / sizeof(boot_cases[0]));

static void breakpoint_is_caught_and_returns(struct ktest *t)
{
	unsigned hits = trap_expected_hits();

	trap_expect(X86_VEC_BP, 0);
	__asm__ volatile("int3");
	KEXPECT_EQ(t, trap_expected_hits(), hits + 1);
}

static void invalid_opcode_is_caught(struct ktest *t)
{
	unsigned hits = trap_expected_hits();

	trap_expect(X86_VEC_UD, 2);
	__asm__ volatile("ud2");
	KEXPECT_EQ(t, trap_expected_hits(), hits + 1);
}

static void guard_page_read_faults(struct ktest *t)
{
	unsigned hits = trap_expected_hits();
	const volatile char *guard = boot_stack_guard;

	trap_expect(X86_VEC_PF, 2);
	/* movb (%rax), %al is 2 bytes (8a 00): the handler skips exactly it. */
	__asm__ volatile(".byte 0x8a, 0x00" : : "a"(guard) : "memory");
	KEXPECT_EQ(t, trap_expected_hits(), hits + 1);
}

static const struct ktest_case exc_cases[] = {
	KTEST_CASE(breakpoint_is_caught_and_returns),
	KTEST_CASE(invalid_opcode_is_caught),
	KTEST_CASE(guard_page_read_faults),
};
KTEST_SUITE(exc_suite, .name = "exceptions", .cases = exc_cases,
	    .ncases = sizeof(exc_cases) / sizeof(exc_cases[0]));

/*
 * panic_demo: a write to the boot stack's guard page must end in the #PF
 * dump (CR2, registers, call trace) and exit code 2.  Only run when named.
 */
static void write_to_guard_page_panics(struct ktest *t)
{
	volatile char *guard = boot_stack_guard;

	(void)t;
	guard[8] = 1;
	ktest_fail(t, __FILE__, __LINE__, "write to guard page did not fault");
}

static const struct ktest_case panic_cases[] = {
	KTEST_CASE(write_to_guard_page_panics),
};
KTEST_SUITE(panic_suite, .name = "panic_demo", .cases = panic_cases,
	    .ncases = 1, .explicit_only = true);

/*
 * stack_overflow_demo: unbounded recursion runs the boot stack into its
 * guard page; the #PF cannot push its frame there, so the CPU raises #DF,
 * which runs on its IST stack and must print the dump and exit 2 instead
 * of triple-faulting.  Only run when named.
 */
static volatile unsigned recurse_limit = ~0U;

static unsigned recurse(unsigned n)
{
	volatile char pad[256];

	pad[0] = (char)n;
	if (n == recurse_limit)
		return 0;
	/* Use pad after the call so the compiler cannot make it a loop. */
	return recurse(n + 1) + pad[0];
}

static void recursion_hits_guard_page(struct ktest *t)
{
	ktest_fail(t, __FILE__, __LINE__, "recursion returned %u", recurse(0));
}

static const struct ktest_case overflow_cases[] = {
	KTEST_CASE(recursion_hits_guard_page),
};
KTEST_SUITE(overflow_suite, .name = "stack_overflow_demo",
	    .cases = overflow_cases, .ncases = 1, .explicit_only = true);

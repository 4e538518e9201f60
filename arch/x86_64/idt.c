/*
 * IDT and the C half of exception handling.  Every exception that a
 * self-test did not ask for is fatal: dump the frame, CR2 for #PF, and a
 * frame-pointer stack trace (the kernel is built with
 * -fno-omit-frame-pointer), then panic.
 */
#include "arch/x86_64/trap.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/irq.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/watchdog.h"
#include "lib/atomic.h"

struct idt_gate {
	uint16_t off_lo;
	uint16_t sel;
	uint8_t ist;
	uint8_t type; /* 0x8E: present, DPL 0, 64-bit interrupt gate */
	uint16_t off_mid;
	uint32_t off_hi;
	uint32_t reserved;
} __attribute__((packed));

static struct idt_gate idt[256];
extern const uint64_t isr_stubs[32];

static const char *const exc_names[32] = {
	"#DE divide error",
	"#DB debug",
	"NMI",
	"#BP breakpoint",
	"#OF overflow",
	"#BR bound range",
	"#UD invalid opcode",
	"#NM device not available",
	"#DF double fault",
	"coprocessor segment overrun",
	"#TS invalid TSS",
	"#NP segment not present",
	"#SS stack fault",
	"#GP general protection",
	"#PF page fault",
	"reserved 15",
	"#MF x87 error",
	"#AC alignment check",
	"#MC machine check",
	"#XM SIMD error",
	"#VE virtualization",
	"#CP control protection",
	"reserved 22",
	"reserved 23",
	"reserved 24",
	"reserved 25",
	"reserved 26",
	"reserved 27",
	"#HV hypervisor injection",
	"#VC VMM communication",
	"#SX security",
	"reserved 31",
};

void idt_set_gate(unsigned vec, uint64_t handler, uint8_t ist);
void idt_set_gate(unsigned vec, uint64_t handler, uint8_t ist)
{
	idt[vec].off_lo = handler & 0xffff;
	idt[vec].sel = KERNEL_CS;
	idt[vec].ist = ist;
	idt[vec].type = 0x8E;
	idt[vec].off_mid = (handler >> 16) & 0xffff;
	idt[vec].off_hi = handler >> 32;
	idt[vec].reserved = 0;
}

void idt_load(void)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) ptr = { sizeof(idt) - 1, (uint64_t)idt };

	__asm__ volatile("lidt %0" : : "m"(ptr));
}

void idt_init(void)
{
	for (unsigned v = 0; v < 32; v++) {
		uint8_t ist = 0;

		if (v == X86_VEC_DF)
			ist = IST_DF;
		else if (v == X86_VEC_NMI)
			ist = IST_NMI;
		else if (v == X86_VEC_MC)
			ist = IST_MC;
		idt_set_gate(v, isr_stubs[v], ist);
	}
	idt_load();
}

/*
 * An expected trap: written by the test, read and cleared by the handler
 * on the same CPU, which the compiler cannot see: marked accesses only.
 * The length first, published by the vector, so the handler never sees
 * the vector without it.
 */
static int expect_vec = -1;
static unsigned expect_len;
static unsigned expect_hits;

void trap_expect(unsigned vector, unsigned insn_len)
{
	WRITE_ONCE(expect_len, insn_len);
	smp_store_release(&expect_vec, (int)vector);
}

unsigned trap_expected_hits(void)
{
	return READ_ONCE(expect_hits);
}

void dump_stack_from(uint64_t rbp)
{
	printk("Call trace (addr2line -e build/kernel.elf):\n");
	for (int depth = 0; depth < 32 && arch_frame_readable(rbp); depth++) {
		const uint64_t *frame = (const uint64_t *)rbp;

		printk("  [<%016lx>]\n", frame[1]);
		if (frame[0] <= rbp)
			break;
		rbp = frame[0];
	}
}

static void dump_frame(const struct trap_frame *f)
{
	const char *name = f->vector < 32 ? exc_names[f->vector] : "?";

	printk("EXCEPTION: vector %lu (%s) error_code 0x%lx\n", f->vector, name,
	       f->error_code);
	printk("RIP: %04lx:%016lx RFLAGS: %016lx\n", f->cs, f->rip, f->rflags);
	printk("RSP: %04lx:%016lx", f->ss, f->rsp);
	if (f->vector == X86_VEC_PF)
		printk(" CR2: %016lx (%s, %s)", read_cr2(),
		       (f->error_code & 1) ? "protection" : "not present",
		       (f->error_code & 2)  ? "write" :
		       (f->error_code & 16) ? "fetch" :
					      "read");
	printk("\n");
	printk("RAX: %016lx RBX: %016lx RCX: %016lx\n", f->rax, f->rbx, f->rcx);
	printk("RDX: %016lx RSI: %016lx RDI: %016lx\n", f->rdx, f->rsi, f->rdi);
	printk("RBP: %016lx R8:  %016lx R9:  %016lx\n", f->rbp, f->r8, f->r9);
	printk("R10: %016lx R11: %016lx R12: %016lx\n", f->r10, f->r11, f->r12);
	printk("R13: %016lx R14: %016lx R15: %016lx\n", f->r13, f->r14, f->r15);
	printk("CR3: %016lx\n", read_cr3());
	dump_stack_from(f->rbp);
}

void exception_dispatch(struct trap_frame *f);
void exception_dispatch(struct trap_frame *f)
{
	if (f->vector >= 32) {
		irq_dispatch(f);
		return;
	}
	/* The watchdog asked this CPU where it is (kernel/watchdog.h). */
	if (f->vector == X86_VEC_NMI && watchdog_nmi(f))
		return;
	if ((int)f->vector == smp_load_acquire(&expect_vec)) {
		WRITE_ONCE(expect_vec, -1);
		WRITE_ONCE(expect_hits, expect_hits + 1);
		/* #BP is a trap: RIP is already past the int3. */
		if (f->vector != X86_VEC_BP)
			f->rip += READ_ONCE(expect_len);
		return;
	}
	/* Another CPU's panic stopping us; or one fault among many. */
	if (f->vector == X86_VEC_NMI && panic_in_progress())
		panic_stop_self();
	panic_begin(); /* takes the console, even inside printk */
	dump_frame(f);
	panic("unhandled exception %lu", f->vector);
}

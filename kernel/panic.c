#include "kernel/panic.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/trap.h"
#include "drivers/debugexit.h"
#include "kernel/printk.h"

static unsigned warnings;

void panic(const char *fmt, ...)
{
	va_list ap;

	cli();
	printk_force_unlock();
	printk("PANIC: ");
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
	printk("\n");
	dump_stack_from((uint64_t)__builtin_frame_address(0));
	debug_exit(EXIT_PANIC);
}

void warn_print(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	warnings++;
	printk("WARNING: %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
	printk("\n");
}

unsigned warn_count(void)
{
	return warnings;
}

/* Interrupt vectors, per-CPU data and the idle/IPI machinery. */
#ifndef ARCH_X86_64_IRQ_H
#define ARCH_X86_64_IRQ_H

#include <stdbool.h>
#include <stdint.h>

/* Vectors as Linux numbers them, so traces read alike. */
#define LOCAL_TIMER_VECTOR   0xec
#define CALL_FUNCTION_VECTOR 0xf0
#define RESCHEDULE_VECTOR    0xfd /* plain wake-up */
#define SPURIOUS_VECTOR	     0xff

struct trap_frame;
void irq_init(void);
void irq_dispatch(struct trap_frame *f);

#endif

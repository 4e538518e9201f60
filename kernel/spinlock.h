/*
 * Ticket spinlock: FIFO among waiters, so no CPU starves on a contended
 * lock.  The _irqsave variants (Linux's form: flags is an lvalue) disable
 * interrupts on this CPU for the critical section, needed for any lock an
 * interrupt handler also takes.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/x86_64/arch.h"
#include "lib/atomic.h"

typedef struct {
	uint32_t next;	/* ticket handed to the next arrival */
	uint32_t owner; /* ticket being served */
} spinlock_t;

#define SPINLOCK_INIT \
	{             \
		0, 0  \
	}

static inline void spin_lock_init(spinlock_t *l)
{
	l->next = 0;
	smp_store_release(&l->owner, 0);
}

/* The wait for ticket @me, out of line and measured (kernel/spinlock.c). */
void spin_lock_contended(spinlock_t *l, uint32_t me);

static inline void spin_lock(spinlock_t *l)
{
	uint32_t me = atomic_fetch_add(&l->next, 1);

	if (smp_load_acquire(&l->owner) != me)
		spin_lock_contended(l, me);
}

static inline void spin_unlock(spinlock_t *l)
{
	smp_store_release(&l->owner, l->owner + 1);
}

/* Held by some CPU (a ticket lock does not know which). */
static inline bool spin_is_locked(spinlock_t *l)
{
	return READ_ONCE(l->next) != READ_ONCE(l->owner);
}

static inline unsigned long local_irq_save(void)
{
	unsigned long flags;

	__asm__ volatile("pushfq; popq %0; cli" : "=r"(flags) : : "memory");
	return flags;
}

static inline void local_irq_restore(unsigned long flags)
{
	/* Restore IF only if it was set (RFLAGS bit 9). */
	if (flags & (1UL << 9))
		__asm__ volatile("sti" ::: "memory");
}

static inline void local_irq_enable(void)
{
	__asm__ volatile("sti" ::: "memory");
}

static inline void local_irq_disable(void)
{
	__asm__ volatile("cli" ::: "memory");
}

#define spin_lock_irqsave(l, flags)         \
	do {                                \
		(flags) = local_irq_save(); \
		spin_lock(l);               \
	} while (0)

#define spin_unlock_irqrestore(l, flags)  \
	do {                              \
		spin_unlock(l);           \
		local_irq_restore(flags); \
	} while (0)

#endif

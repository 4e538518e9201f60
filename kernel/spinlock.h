/*
 * Ticket spinlock: FIFO among waiters, so no CPU starves on a contended
 * lock.  The _irqsave variants disable interrupts on this CPU for the
 * critical section (needed for any lock an interrupt handler also takes).
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include <stdint.h>

typedef struct {
	uint32_t next;		/* ticket handed to the next arrival */
	uint32_t owner;		/* ticket being served */
} spinlock_t;

#define SPINLOCK_INIT { 0, 0 }

static inline void spin_lock(spinlock_t *l)
{
	uint32_t me = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED);

	while (__atomic_load_n(&l->owner, __ATOMIC_ACQUIRE) != me)
		__asm__ volatile("pause");
}

static inline void spin_unlock(spinlock_t *l)
{
	__atomic_store_n(&l->owner, l->owner + 1, __ATOMIC_RELEASE);
}

static inline unsigned long spin_lock_irqsave(spinlock_t *l)
{
	unsigned long flags;

	__asm__ volatile("pushfq; popq %0; cli" : "=r"(flags) : : "memory");
	spin_lock(l);
	return flags;
}

static inline void spin_unlock_irqrestore(spinlock_t *l, unsigned long flags)
{
	spin_unlock(l);
	/* Restore IF only if it was set (RFLAGS bit 9). */
	if (flags & (1UL << 9))
		__asm__ volatile("sti" ::: "memory");
}

#endif

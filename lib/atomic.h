/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lib/atomic.h - marked accesses, barriers and atomics from compiler
 * builtins.
 *
 * Shared by the kernel and the host builds (timer/, its tests, the
 * simulator): the builtins are the compiler's, not the machine's, so the
 * same source is correct under x86's TSO, under ThreadSanitizer and under
 * the C11 memory model it is checked against.  On x86 an acquire load and a
 * release store compile to plain moves; smp_mb() is a locked op or mfence.
 */
#ifndef LIB_ATOMIC_H
#define LIB_ATOMIC_H

#include <stdbool.h>
#include <stdint.h>

#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define smp_mb()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
/*
 * Store-store and load-load ordering, as Linux's smp_wmb()/smp_rmb(),
 * made of the release and acquire fences (a little stronger: correct).
 */
#define smp_wmb()		__atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_rmb()		__atomic_thread_fence(__ATOMIC_ACQUIRE)

/*
 * try_cmpxchg(ptr, &old, new): if *ptr == old store new and return true,
 * else load *ptr into old and return false.  Fully ordered, as Linux's.
 */
#define try_cmpxchg(p, oldp, new)                              \
	__atomic_compare_exchange_n((p), (oldp), (new), false, \
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
#define atomic_fetch_add(p, v) __atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST)
#define atomic_xchg(p, v)      __atomic_exchange_n((p), (v), __ATOMIC_SEQ_CST)
#define atomic_fetch_or(p, v)  __atomic_fetch_or((p), (v), __ATOMIC_SEQ_CST)
#define atomic_fetch_and(p, v) __atomic_fetch_and((p), (v), __ATOMIC_SEQ_CST)

/* Raise *p to at least v; a lost race retries only while v is larger. */
#define atomic_max(p, v)                                                   \
	do {                                                               \
		__typeof__(*(p)) old_ = __atomic_load_n((p),               \
							__ATOMIC_RELAXED), \
				 v_ = (v);                                 \
		while (v_ > old_ && !try_cmpxchg((p), &old_, v_))          \
			;                                                  \
	} while (0)

#endif /* LIB_ATOMIC_H */

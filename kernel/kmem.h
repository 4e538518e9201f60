/* Boot-lifetime allocations (never freed); see kernel/kmem.c. */
#ifndef KERNEL_KMEM_H
#define KERNEL_KMEM_H

#include <stddef.h>

/* Zeroed, 64-byte aligned, or NULL when memory is exhausted. */
void *kzalloc(size_t size);

#endif

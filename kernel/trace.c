// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/trace.c - per-CPU trace rings and the end-of-run dump.
 *
 * Each CPU writes only its own ring (lib/trace_ring.c), with interrupts
 * off around the timestamp and the write, so an interrupt handler's
 * record cannot interleave and every ring is in clock order.  Nothing is
 * shared between writers: no lock, no atomic read-modify-write.  The
 * dump clears trace_enabled_mask first, then reads the rings with the
 * ring's own check, so a record still being written on another CPU is
 * counted lost rather than printed torn.  Formats: docs/tracing.md.
 */
#include "kernel/trace.h"
#include "arch/x86_64/arch.h"
#include "drivers/debugexit.h"
#include "kernel/boot.h"
#include "kernel/cmdline.h"
#include "kernel/kmem.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "lib/atomic.h"
#include "lib/printf.h"
#include "lib/time.h"
#include "lib/trace_ring.h"

/* Read by every tracepoint, written twice: its own cache line. */
uint32_t trace_enabled_mask __attribute__((aligned(64)));

static struct trace_ring *rings; /* [nr_cpus], NULL when off */
static unsigned int nrings;

void trace_init(void)
{
	uint32_t mask = boot_opts.trace_mask;
	size_t bytes = boot_opts.trace_buf;

	if (!mask)
		return;
	rings = kzalloc(nr_cpus * sizeof(*rings));
	if (!rings)
		goto nomem;
	for (unsigned int c = 0; c < nr_cpus; c++) {
		void *mem = kzalloc(bytes);

		if (!mem || trace_ring_init(&rings[c], mem, bytes))
			goto nomem;
	}
	nrings = nr_cpus;
	printk("# trace on events=%s buf=%lu rec_bytes=%lu records_per_cpu=%u\n",
	       boot_opts.trace, (unsigned long)bytes,
	       (unsigned long)sizeof(struct trace_rec), rings[0].nrecs);
	/* The rings are set up before any tracepoint can see the bit. */
	smp_store_release(&trace_enabled_mask, mask);
	return;
nomem:
	printk("trace: no memory for %u per-CPU buffers of %lu bytes "
	       "(trace_buf=)\n",
	       nr_cpus, (unsigned long)bytes);
	debug_exit(EXIT_FAIL);
}

/* Out of line: the tracepoint's branch is the only thing inlined. */
void trace_record(unsigned int id, const uint64_t *args, unsigned int n)
{
	unsigned long flags = local_irq_save();
	unsigned int cpu = smp_processor_id();

	if (cpu < nrings)
		trace_ring_write(&rings[cpu], clock_ns(), id, args, n);
	local_irq_restore(flags);
}

const struct trace_ring *trace_cpu_ring(unsigned int cpu)
{
	return cpu < nrings ? &rings[cpu] : NULL;
}

/* The dump's view of one ring. */
struct cursor {
	uint64_t next, head;   /* next index to read; end */
	uint64_t dumped, lost; /* lost: overwritten or unreadable */
	bool have;	       /* rec holds record next - 1 */
	struct trace_rec rec;
};

/* Load the next readable record of @c into c->rec. */
static void cursor_fill(const struct trace_ring *r, struct cursor *c)
{
	c->have = false;
	while (c->next < c->head) {
		if (trace_ring_read(r, c->next++, &c->rec)) {
			c->have = true;
			return;
		}
		c->lost++;
	}
}

static void print_rec(unsigned int cpu, const struct trace_rec *r)
{
	char args[256];
	const char *name = trace_event_name(r->event);

	trace_format_args(args, sizeof(args), r->event, r->args, r->nargs);
	printk("[%03u] %lu.%09lu %s: %s\n", cpu,
	       (unsigned long)(r->ts / NSEC_PER_SEC),
	       (unsigned long)(r->ts % NSEC_PER_SEC), name ? name : "?", args);
}

/*
 * The merge: a binary min-heap of the CPUs that have a record left, by
 * that record's time, so the dump stays O(records x log CPUs).
 */
static bool earlier(const struct cursor *cur, unsigned int a, unsigned int b)
{
	uint64_t ta = cur[a].rec.ts, tb = cur[b].rec.ts;

	return ta < tb || (ta == tb && a < b); /* ties: in CPU order */
}

static void heap_down(unsigned int *heap, unsigned int n,
		      const struct cursor *cur, unsigned int i)
{
	for (;;) {
		unsigned int l = 2 * i + 1, r = l + 1, m = i, x;

		if (l < n && earlier(cur, heap[l], heap[m]))
			m = l;
		if (r < n && earlier(cur, heap[r], heap[m]))
			m = r;
		if (m == i)
			return;
		x = heap[i];
		heap[i] = heap[m];
		heap[m] = x;
		i = m;
	}
}

void trace_dump(void)
{
	struct cursor *cur;
	unsigned int *heap, n = 0;
	uint64_t total = 0, lost = 0;

	if (!nrings)
		return;
	/* Stop, and let a record begun before the store finish. */
	WRITE_ONCE(trace_enabled_mask, 0);
	smp_mb();
	delay_ns(NSEC_PER_MSEC);
	cur = kzalloc(nrings * sizeof(*cur));
	heap = kzalloc(nrings * sizeof(*heap));
	if (!cur || !heap) {
		printk("trace: no memory for the dump\n");
		return;
	}
	printk("# trace begin events=%s cpus=%u buf=%lu rec_bytes=%lu "
	       "records_per_cpu=%u clock=ns\n",
	       boot_opts.trace, nrings, (unsigned long)boot_opts.trace_buf,
	       (unsigned long)sizeof(struct trace_rec), rings[0].nrecs);
	for (unsigned int c = 0; c < nrings; c++) {
		cur[c].head = trace_ring_head(&rings[c]);
		cur[c].next = trace_ring_oldest(&rings[c], cur[c].head);
		cur[c].lost = cur[c].next; /* overwritten */
		cursor_fill(&rings[c], &cur[c]);
		if (cur[c].have)
			heap[n++] = c;
	}
	for (unsigned int i = n / 2; i-- > 0;)
		heap_down(heap, n, cur, i);
	while (n) {
		unsigned int c = heap[0];

		print_rec(c, &cur[c].rec);
		cur[c].dumped++;
		cursor_fill(&rings[c], &cur[c]);
		if (!cur[c].have)
			heap[0] = heap[--n];
		heap_down(heap, n, cur, 0);
	}
	for (unsigned int c = 0; c < nrings; c++) {
		printk("# trace_cpu cpu=%u written=%lu dumped=%lu lost=%lu\n",
		       c, (unsigned long)cur[c].head,
		       (unsigned long)cur[c].dumped,
		       (unsigned long)cur[c].lost);
		total += cur[c].dumped;
		lost += cur[c].lost;
	}
	printk("# trace end records=%lu lost=%lu\n", (unsigned long)total,
	       (unsigned long)lost);
}

/*
 * `selftest=trace` (explicit only; skipped unless trace= enabled the
 * timer events): the kernel's tracing seen from inside (docs/tracing.md).
 *
 *  - a cancel is recorded: a pending timer deleted leaves timer_start then
 *    timer_cancel of that timer in this CPU's ring (the boot matrix's
 *    trace=all entry relies on this suite for its timer_cancel);
 *  - an event whose bit is clear records nothing, its neighbours still do;
 *  - every CPU's ring reads back in time order, whole.
 */
#include "kernel/ktest.h"
#include "kernel/percpu.h"
#include "kernel/spinlock.h"
#include "kernel/tick.h"
#include "kernel/trace.h"
#include "lib/atomic.h"
#include "lib/trace_ring.h"
#include "timer/timer.h"

#define TIMER_BITS \
	(TRACE_BIT(TRACE_timer_start) | TRACE_BIT(TRACE_timer_cancel))

static const char *trace_skip(void)
{
	if ((READ_ONCE(trace_enabled_mask) & TIMER_BITS) != TIMER_BITS)
		return "needs trace= with timer_start and timer_cancel";
	return 0;
}

static void nop_fn(struct timer_list *t)
{
	(void)t;
}

/* Index of the first record of @event for address @arg0 at or after @from. */
static uint64_t find(const struct trace_ring *r, uint64_t from, unsigned event,
		     uint64_t arg0)
{
	uint64_t head = trace_ring_head(r);
	struct trace_rec rec;

	for (uint64_t i = from; i < head; i++)
		if (trace_ring_read(r, i, &rec) && rec.event == event &&
		    rec.args[0] == arg0)
			return i;
	return UINT64_MAX;
}

/* Arm @t far ahead and delete it, interrupts off; returns the ring head
 * before. */
static uint64_t arm_and_delete(struct timer_list *t, const struct trace_ring *r,
			       int *deleted)
{
	unsigned long flags = local_irq_save();
	uint64_t head = trace_ring_head(r);

	timer_setup(t, nop_fn, TIMER_PINNED);
	mod_timer(t, tick_update_jiffies() + 1000);
	*deleted = timer_delete(t);
	local_irq_restore(flags);
	return head;
}

static void trace_records_a_cancel(struct ktest *t)
{
	const struct trace_ring *r = trace_cpu_ring(smp_processor_id());
	static struct timer_list timer;
	uint64_t from, start, cancel;
	int deleted;

	KEXPECT(t, r != 0);
	if (!r)
		return;
	from = arm_and_delete(&timer, r, &deleted);
	KEXPECT_EQ(t, deleted, 1);
	start = find(r, from, TRACE_timer_start, TRACE_PTR(&timer));
	cancel = find(r, from, TRACE_timer_cancel, TRACE_PTR(&timer));
	KEXPECT(t, start != UINT64_MAX);
	KEXPECT(t, cancel != UINT64_MAX);
	KEXPECT(t, start < cancel);
}

static void trace_disabled_event_records_nothing(struct ktest *t)
{
	const struct trace_ring *r = trace_cpu_ring(smp_processor_id());
	static struct timer_list timer;
	uint32_t saved = READ_ONCE(trace_enabled_mask);
	uint64_t from;
	int deleted;

	if (!r) {
		KEXPECT(t, r != 0);
		return;
	}
	/* Only for this test (other CPUs miss the cancels meanwhile). */
	WRITE_ONCE(trace_enabled_mask, saved & ~TRACE_BIT(TRACE_timer_cancel));
	from = arm_and_delete(&timer, r, &deleted);
	WRITE_ONCE(trace_enabled_mask, saved);
	KEXPECT_EQ(t, deleted, 1);
	KEXPECT(t, find(r, from, TRACE_timer_start, TRACE_PTR(&timer)) !=
			   UINT64_MAX);
	KEXPECT_EQ(t, find(r, from, TRACE_timer_cancel, TRACE_PTR(&timer)),
		   UINT64_MAX);
}

static void trace_rings_read_back_in_time_order(struct ktest *t)
{
	uint64_t total = 0;

	for (unsigned c = 0; c < nr_cpus; c++) {
		const struct trace_ring *r = trace_cpu_ring(c);
		uint64_t head, last = 0;
		struct trace_rec rec;

		if (!r)
			continue;
		head = trace_ring_head(r);
		for (uint64_t i = trace_ring_oldest(r, head); i < head; i++) {
			/* Another CPU may overwrite as we read: skip those. */
			if (!trace_ring_read(r, i, &rec))
				continue;
			KEXPECT(t, rec.ts >= last);
			KEXPECT(t, rec.event < TRACE_NR_EVENTS);
			KEXPECT_EQ(t, rec.nargs, trace_event_nargs(rec.event));
			if (rec.ts < last || rec.event >= TRACE_NR_EVENTS)
				return;
			last = rec.ts;
			total++;
		}
	}
	KEXPECT(t, total > 0);
}

static const struct ktest_case trace_cases[] = {
	KTEST_CASE(trace_records_a_cancel),
	KTEST_CASE(trace_disabled_event_records_nothing),
	KTEST_CASE(trace_rings_read_back_in_time_order),
};
KTEST_SUITE(trace_suite, .name = "trace", .cases = trace_cases, .ncases = 3,
	    .explicit_only = true, .skip = trace_skip);
